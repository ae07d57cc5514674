"""Fitting the front on one page: estimate how tall its variable parts will set, and pick
the roomiest layout that fits (``fit``): a step of the type scale, one or two ability
columns and, only as a last resort, shortened ability notes.

Line counts come from measuring the text with the bundled fonts and wrapping it greedily,
the way the renderer does (typesetting.measure); the sizes are metrics.py's.
"""

from __future__ import annotations

import math
from typing import Any

from ...rules import CharacterStats
from ...rules.actions import Action
from ...typesetting.measure import lines_for, text_width_mm, wrapped_lines
from .. import terms
from ..actions import effect as action_effect
from ..sources import Origins
from . import panels
from .metrics import (
    ABILITY_CHROME_MM,
    ABILITY_GUTTER_MM,
    ABILITY_LEVEL_MM,
    ACTION_COLUMNS_MM,
    ACTION_LEAD_MM,
    ACTIONS_CHROME_MM,
    BANNER_INSET_MM,
    BANNER_LINE_MM,
    BANNER_MM,
    BANNER_PT,
    CANDIDATES,
    CATEGORY_MM,
    CELL_PADDING_MM,
    DESCRIPTION_TYPE,
    DEVELOPMENT_MM,
    EFFECT_FACE,
    FLAG_PT,
    FOOT_MM,
    HEAD_DEFENSES_MM,
    HEAD_FIXED_MM,
    HEAD_MIN_MM,
    HEAD_PORTRAIT_MM,
    HP_BOXES_PER_ROW,
    HP_ROW_MM,
    LABEL_FACE,
    NAME_FACE,
    NAME_TYPE,
    NOTE_FACE,
    PANEL_INSET_MM,
    SAFETY_MM,
    SIDE_COLUMN_MM,
    SIDE_CONDENSED_MM,
    SIDE_MM,
    VITALS_MM,
    Density,
    Layout,
    density,
)
from .rows import ability_row, above_max, action_row, category_title, grouped
from .text import cut, whole


def action_height(action: Action, d: Density, width_mm: float) -> float:
    effect_mm = width_mm - PANEL_INSET_MM - ACTION_COLUMNS_MM - CELL_PADDING_MM
    if action.bonus is None:
        wide = width_mm - PANEL_INSET_MM - ACTION_LEAD_MM - CELL_PADDING_MM
        lines = wrapped_lines(action_effect(action), EFFECT_FACE, d.effect_pt, wide)
        return d.row_other + (lines - 1) * d.row_line
    view = action_row(action)
    lines = wrapped_lines(view["effect"], EFFECT_FACE, d.effect_pt, effect_mm)
    height = d.row_one
    if lines >= 2 or view["damage"]["sub"] or view["auto"]["sub"]:
        height = d.row_two + max(0, lines - 2) * d.row_line
    if action.unrepeatable:
        height = max(height, d.row_ticks)
    if view["target"]["sub"] or len(view["target"]["main"]) > 14:
        height = max(height, d.row_target)
    return height


def actions_height(stats: CharacterStats, d: Density, condensed: bool, width_mm: float) -> float:
    shown = [a for a in stats.actions if a.bonus is not None or not condensed]
    height = ACTIONS_CHROME_MM + sum(action_height(a, d, width_mm) for a in shown)
    return height + (d.row_other if condensed else 0.0)


def ability_lead_mm(name: str, d: Density) -> float:
    """How far an ability's note starts in: its bold name and a space."""
    return text_width_mm(terms.ability(name) + " ", LABEL_FACE, d.cell_pt)


def ability_heights(
    stats: CharacterStats, d: Density, layout: Layout, panel_mm: float, more: str = ""
) -> list[tuple[str, float]]:
    """(category, estimated height) of each ability row, in sheet order, in an abilities
    panel ``panel_mm`` wide; ``more`` (panels.see_page) follows each shortened note."""
    inner = panel_mm - PANEL_INSET_MM
    column = (inner - (layout.columns - 1) * ABILITY_GUTTER_MM) / layout.columns
    text_mm = column - ABILITY_LEVEL_MM
    heights = []
    for category, members in grouped(stats.abilities):
        for a in members:
            name = ability_lead_mm(a.name, d)
            if a.level > stats.budget.max_level:
                flag = above_max(stats.budget.max_level) + " "
                name += text_width_mm(flag, LABEL_FACE, FLAG_PT) * 1.2
            note = cut(a.note, layout.note_limit)
            if more and note and note != whole(a.note):
                note += f" {more}"
            lines = max(1, wrapped_lines(note, NOTE_FACE, d.note_pt, text_mm, name))
            heights.append((category, d.ability_one + (lines - 1) * d.ability_line))
    return heights


def abilities_height(
    stats: CharacterStats, d: Density, layout: Layout, panel_mm: float, more: str = ""
) -> float:
    tallest = 6.0
    for part in split(ability_heights(stats, d, layout, panel_mm, more), layout.columns):
        categories = len({c for c, _h in part})
        tallest = max(tallest, sum(h for _c, h in part) + categories * CATEGORY_MM)
    return ABILITY_CHROME_MM + tallest


def split(items: list[tuple[str, float]], columns: int) -> list[list[tuple[str, float]]]:
    """Consecutive runs of (category, height) for each column, as even in height as the
    order allows: each column ends at the row that brings it closest to its share."""
    total = sum(h for _c, h in items)
    parts: list[list[tuple[str, float]]] = []
    start = 0
    for column in range(columns - 1):
        goal = total * (column + 1) / columns
        running = sum(h for _c, h in items[:start])
        best = (math.inf, start)
        for end in range(start, len(items) + 1):
            best = min(best, (abs(goal - running), end))
            if end < len(items):
                running += items[end][1]
        parts.append(items[start : best[1]])
        start = best[1]
    parts.append(items[start:])
    return [p for p in parts if p]


def ability_columns(
    stats: CharacterStats,
    layout: Layout,
    panel_mm: float,
    more: str = "",
    origins: Origins | None = None,
) -> list[list[dict[str, Any]]]:
    """Category groups laid into columns of even (estimated) height in a panel
    ``panel_mm`` wide; a category cut between two columns repeats its title."""
    max_level = stats.budget.max_level
    rows = [
        (
            category,
            ability_row(
                a, layout.note_limit, max_level, more, origins.ability(a) if origins else ""
            ),
        )
        for category, members in grouped(stats.abilities)
        for a in members
    ]
    result = []
    start = 0
    heights = ability_heights(stats, density(layout), layout, panel_mm, more)
    for part in split(heights, layout.columns):
        groups: list[dict[str, Any]] = []
        for category, row in rows[start : start + len(part)]:
            if not groups or groups[-1]["category"] != category:
                groups.append({"category": category, "title": category_title(category), "rows": []})
            groups[-1]["rows"].append(row)
        start += len(part)
        result.append(groups)
    return result


def head_height(
    name: str,
    name_size: str,
    description: str,
    description_size: str,
    defenses: int,
    width_mm: float,
) -> float:
    """The header: the portrait's height unless the name and description need more."""
    identity_mm = width_mm - HEAD_PORTRAIT_MM - HEAD_DEFENSES_MM[defenses]
    name_pt, name_line = NAME_TYPE[name_size]
    desc_pt, desc_line = DESCRIPTION_TYPE[description_size]
    name_lines = wrapped_lines(name, NAME_FACE, name_pt, identity_mm)
    desc_lines = wrapped_lines(description, NOTE_FACE, desc_pt, identity_mm)
    identity = name_lines * name_line + desc_lines * desc_line + HEAD_FIXED_MM
    return max(HEAD_MIN_MM, identity)


def hp_rows(hit_points: int) -> int:
    return lines_for(hit_points + 1, HP_BOXES_PER_ROW[panels.hp_size(hit_points)])


def fit(stats: CharacterStats, head_mm: float, width_mm: float, height_mm: float) -> Layout:
    """The roomiest layout whose estimated height fits the page (the last one otherwise)."""
    banner = 0.0
    warnings = panels.warnings(stats)
    if warnings is not None:
        text = f"{warnings['title']}: {'; '.join(warnings['items'])}."
        lines = wrapped_lines(text, LABEL_FACE, BANNER_PT, width_mm - BANNER_INSET_MM)
        banner = BANNER_MM + lines * BANNER_LINE_MM
    hp_extra = (hp_rows(stats.hit_points) - 1) * HP_ROW_MM[panels.hp_size(stats.hit_points)]
    for layout in CANDIDATES:
        d = density(layout)
        gaps = (5 if banner else 4) * d.gap
        fixed = head_mm + banner + VITALS_MM + hp_extra + FOOT_MM + gaps
        side = SIDE_CONDENSED_MM if layout.condensed else SIDE_MM
        # A shortened note says where the rest is; the page number is one word either way.
        more = panels.see_page("3")
        left = abilities_height(stats, d, layout, width_mm - SIDE_COLUMN_MM, more)
        if not layout.condensed:
            left += d.gap + DEVELOPMENT_MM
        bottom = max(side, left)
        actions = actions_height(stats, d, layout.condensed, width_mm)
        if fixed + actions + bottom + SAFETY_MM <= height_mm:
            return layout
    return CANDIDATES[-1]
