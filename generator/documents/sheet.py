"""Character sheets: one PDF per character, a front page and, for leaders, a minion back.

The front is what a player keeps in front of them at the table: name, the defenses as large
boxed numbers, the HP track, every action with its roll, abilities, movement, carrying and
the CP budget. Characters with command get a back page with their minions (and blank frames
for the minions they may still recruit), meant to be printed on the other side of the sheet.

Everything the template prints is formatted here. The template never adds, compares or
looks anything up; it only lays out strings and flags.

The front must stay one page whatever the campaign holds, so this module also estimates how
tall the variable parts will be and picks the roomiest layout that fits (``_fit``): a type
scale, one or two ability columns and, only as a last resort, shortened ability notes.

Nothing a player wrote is lost to that fit: whatever the front or the back had to shorten
(ability notes, descriptions, a minion's notes) is printed whole on a continuation page,
"Notes, continued", after the sheet. What is shortened with nowhere else to go (a player's
or a group's name too long for its line) is reported as a layout warning, which
``build --strict`` turns into a failure.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..content.loader import merged_entries
from ..definitions.campaign import Campaign, gets_sheet
from ..problems import InputError, Problem, quoted
from ..render import measure
from ..render.images import ImageProblem
from ..render.names import unique_stems
from ..rules import AbilityLine, CharacterStats
from ..rules.abilities import CHARACTER_CATEGORIES, category_of, display
from ..rules.actions import Action
from ..rules.grid import GridMove
from ..rules.minions import MAX_MINIONS
from ..statblocks import Block, Computed
from .assets import portrait_problem, portrait_url
from .base import PAPER_MM, BuildOptions, Document, page_context
from .common import carry_cells, health_text, hp_track, signed

KIND = "sheets"
TEMPLATE = "sheet/sheet.html"

# Our own page margin: 10 mm keeps everything 4 mm clear of the 6 mm printer-safe line while
# giving the sheet 4 mm more each way than base.css's 12 mm.
PAGE_MARGIN_MM = 10.0
# The sheet box is a little shorter than the page area so rounding never pushes a hairline
# onto a second page.
PAGE_SLACK_MM = 1.0
PORTRAIT_MM = (30.0, 40.0)  # 3:4, the shape of a head-and-shoulders picture
# Measured widths below are for Letter; narrower paper loses the difference.
LETTER_WIDTH_MM = PAPER_MM["letter"][0] - 2 * PAGE_MARGIN_MM

# What each defense stops, printed under its number so a new player learns where to look.
DEFENSE_CAPTIONS = {
    "agility": "normal attacks",
    "intelligence": "psychic attacks",
    "strength": "force attacks",
    "defense": "every attack",
}
CATEGORY_TITLES = {
    "toughness": "Toughness",
    "attack": "Attack",
    "stalking": "Stalking",
    "movement": "Movement",
    "support": "Support",
    "vehicle operation": "Vehicle operation",
}
# Targets too long for the grid's narrow "Against" column: (main word, small second line).
TARGET_LINES = {
    "intelligence or strength, whichever is higher": ("intelligence", "or strength (higher)"),
    "intelligence (only if its strength is not above yours)": (
        "intelligence",
        "only if it is not stronger",
    ),
}
# The passing states a player marks in pencil during a fight (RULES.md §5).
CONDITIONS = ("evading", "delayed", "engaged", "panicked", "in cover", "held")
# Unrepeatable actions work once per target, so a few ticks cover a typical encounter.
UNREPEATABLE_TICKS = 3
# CP pips are drawn one per point only while that stays one short row under the CP line.
MAX_PIPS = 24
# Write-in lines on a blank minion frame (abilities); each line is 7 mm apart.
BLANK_ABILITY_LINES = 4
# Resilience's year runs an event, an encounter, then character development: a character
# who came through the encounter well may improve (RULES.md §14). The box is where the
# player keeps that record.
DEVELOPMENT_NOTE = "year by year: what improved"


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    # Roster NPCs (under `npcs:`) have no sheet unless their entry says `sheet: true`.
    characters = [b for b in computed.of_kind("character") if gets_sheet(b.definition, b.source)]
    stems = unique_stems([b.name for b in characters], prefix="sheet-")
    result = []
    problems: list[Problem] = []
    careers = _career_names(campaign)
    for block in characters:
        try:
            context = sheet_context(block, computed, campaign, options, careers)
        except InputError as err:  # a bad portrait: report every one, then stop
            problems += err.problems
            continue
        filename = f"{stems[block.name]}.pdf"
        # The build reports these with the layout lint: `sheet-ann.pdf: entry "Ann": player:`.
        context["layout_problems"] = [
            Problem(message, filename, None, block.name, field, "warning")
            for field, message in context["shortened"]
        ]
        result.append(
            Document(
                kind=KIND,
                title=block.name,
                stem=stems[block.name],
                template=TEMPLATE,
                context=context,
                # The back and the continuation page print on the other side of the front.
                duplex=context["back"] is not None or context["more"] is not None,
            )
        )
    if problems:
        raise InputError(problems)
    return result


def sheet_context(
    block: Block,
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    careers: dict[str, str] | None = None,
) -> dict[str, Any]:
    stats = _character_stats(block)
    definition = block.definition
    paper_w, paper_h = PAPER_MM[options.paper]
    width = paper_w - 2 * PAGE_MARGIN_MM
    height = paper_h - 2 * PAGE_MARGIN_MM - PAGE_SLACK_MM
    defenses = _defenses(stats)
    name_size = _name_size(block.name)
    command = stats.levels.get("command", 0)
    # The continuation page, if there is one, follows the front and the minion back.
    more_page = "3" if command >= 1 else "2"
    description = _cut(block.description, DESCRIPTION_MAX)
    description_cut = description != _whole(block.description)
    description_more = f"see p. {more_page}" if description_cut else ""
    description_size = "normal" if len(description) <= DESCRIPTION_SHORT else "small"
    layout = _fit(
        stats,
        head_mm=_head_height(
            block.name,
            name_size,
            f"{description} {description_more}".strip(),
            description_size,
            len(defenses),
            width,
        ),
        width_mm=width,
        height_mm=height,
    )
    back = (
        _back(block, stats, computed, command, (width, height), more_page) if command >= 1 else None
    )
    front = _ability_columns(stats, layout, width - SIDE_COLUMN_MM, f"see p. {more_page}")
    notes_cut = any(row["cut"] for column in front for group in column for row in group["rows"])
    frames = back["frames"] if back is not None else []
    more = _more(
        block,
        stats,
        layout,
        description=_whole(block.description) if description_cut else "",
        abilities=notes_cut,
        minions=[
            m
            for m, frame in zip(computed.minions_of(block.name), frames, strict=True)
            if frame["cut"]
        ],
        size_mm=(width, height),
        page=more_page,
    )
    player = _whole(str(getattr(definition, "player", "") or ""))
    group = _whole(block.group or "")
    # Cut with nowhere else to print them whole: said in the build's layout warnings.
    shortened = [
        (field, _shortened_message(text, limit))
        for field, text, limit in (("player", player, PLAYER_MAX), ("group", group, GROUP_MAX))
        if len(text) > limit
    ]
    actions = [_action(a) for a in stats.actions]
    return {
        "page": page_context(options),
        "title": f"{block.name} — character sheet",
        "layout": {
            "margin": _mm(PAGE_MARGIN_MM),
            "width": _mm(width),
            "height": _mm(height),
            "portrait_w": _mm(PORTRAIT_MM[0]),
            "portrait_h": _mm(PORTRAIT_MM[1]),
            "bottom_min": _mm(SIDE_CONDENSED_MM if layout.condensed else SIDE_MM),
            "notes_min": _mm(SIDE_MM - SIDE_TOP_MM),
            "development": _mm(DEVELOPMENT_MM),
            # The page grid's fill cells (sheet.css): the height each page keeps above what
            # sits under its filling row.
            "fill_front": _mm_exact(_front_fill(height, layout)),
            "fill_back": _mm_exact(_back_fill(height)),
        },
        "density": layout.density,
        "condensed": layout.condensed,
        "name_size": name_size,
        "identity": {
            "name": block.name,
            "player": _cut(player, PLAYER_MAX),
            "career": _career(definition, careers or {}),
            "description": description,
            "description_more": description_more,
            "description_size": description_size,
            "footer_name": _cut(block.name, FOOTER_NAME_MAX),
            "ruleset": computed.rules.name,
            # distract, surprise, intimidate: once per target, or once per battle (older texts)
            "psychic_limit": computed.rules.psychic_limit,
        },
        "portrait": _portrait(block, campaign, options),
        "defenses": defenses,
        "vitals": _vitals(block, stats, computed),
        "health": _health(stats),
        "warnings": _warnings(stats),
        "abilities": front,
        "abilities_note": f"notes in full on p. {more_page}" if notes_cut else "",
        "actions": {
            "rolled": [a for a in actions if a["rolled"]],
            "other": [a for a in actions if not a["rolled"]],
        },
        "conditions": list(CONDITIONS),
        "movement": _movement(stats),
        "carry": _carry(stats, options),
        "cp": _cp(stats),
        "development": DEVELOPMENT_NOTE,
        "minion_note": _minion_note(back),
        "more_note": f"notes continued on p. {more_page}" if more is not None else "",
        "back": back,
        "more": more,
        "shortened": shortened,
    }


# --- pieces of the front ------------------------------------------------------------------


def _character_stats(block: Block) -> CharacterStats:
    if not isinstance(block.stats, CharacterStats):
        raise TypeError(f"{block.name} is a {block.kind}, not a character")
    return block.stats


def _mm(value: float) -> str:
    """CSS lengths as the template writes them: ``195.9mm``."""
    return f"{value:.1f}mm"


def _mm_exact(value: float) -> str:
    """A length that must land on the micrometre (a page's fill, ``231.003mm``)."""
    return f"{value:.3f}mm"


def _front_fill(height_mm: float, layout: _Layout) -> float:
    """How far the front's bottom row reaches from the top of the page: all of the page
    but the footer, the gap over it and, unless condensed, "Character development" and
    the gap over that."""
    below = _density(layout).gap + FOOT_BAND_MM
    if not layout.condensed:
        below += _density(layout).gap + DEVELOPMENT_MM
    return height_mm - below


def _back_fill(height_mm: float) -> float:
    """The same for the back and the continuation page, which always have the roomy gap:
    their notes panel reaches down to the footer."""
    return height_mm - DENSITIES[0].gap - FOOT_BAND_MM


def _portrait(block: Block, campaign: Campaign, options: BuildOptions) -> str | None:
    path = getattr(block.definition, "portrait", None)
    if not path:
        return None
    try:
        return portrait_url(path, campaign.root, PORTRAIT_MM, grey=options.ink_saver)
    except ImageProblem as err:  # `party.yaml:4: entry "Ann": portrait: face.png: ...`
        raise InputError([portrait_problem(str(err), block.source, block.name)]) from None


def _defenses(stats: CharacterStats) -> list[dict[str, str]]:
    """The three defenses, or the classic single one, as large boxed numbers."""
    names = ("defense",) if stats.defense is not None else ("agility", "intelligence", "strength")
    result = []
    for name in names:
        value = getattr(stats, name)
        if value is not None:
            result.append(
                {"label": name.capitalize(), "value": str(value), "caption": DEFENSE_CAPTIONS[name]}
            )
    return result


def _vitals(block: Block, stats: CharacterStats, computed: Computed) -> dict[str, str]:
    group = _cut(block.group or "", GROUP_MAX)
    individual = computed.rules.individual_initiative
    group_line = ""
    if group and not individual:
        bonus = next((g.bonus for g in computed.groups if g.name == block.group), None)
        if bonus is not None:
            group_line = f"{group}: the group rolls d20 {signed(bonus)}"
    elif group:
        group_line = f"{group}: each rolls alone"
    else:
        group_line = f"no group: rolls d20 {signed(stats.initiative_bonus)} alone"
    return {
        "hp": str(stats.hit_points),
        "stamina": str(stats.stamina),
        "initiative": signed(stats.initiative_bonus),
        "initiative_label": "d20 + this bonus" if individual else "own bonus",
        "group": group,
        "group_line": group_line,
    }


def _health(stats: CharacterStats) -> dict[str, Any]:
    return {
        "track": _boxes(stats.hit_points, stats.stamina),
        "size": _hp_size(stats.hit_points),
        "bands": _bands(stats),
    }


# Few hit points get big boxes; a long track gets smaller ones so it stays on one row as long
# as it can: (box size, boxes per row including the 0, height of a further row in mm).
HP_SIZES = (("l", 11, 8.0), ("m", 14, 6.6), ("s", 18, 5.2))
HP_BOXES_PER_ROW = {size: per_row for size, per_row, _ in HP_SIZES}
HP_ROW_MM = {size: row for size, _, row in HP_SIZES}


def _hp_size(hit_points: int) -> str:
    for size, per_row, _ in HP_SIZES:
        if hit_points + 1 <= per_row:
            return size
    return HP_SIZES[-1][0]


def _bands(stats: CharacterStats) -> list[dict[str, str]]:
    """``healthy 2–3 · injured 1 · incapacitated 0`` with typographic dashes."""
    text = {state: span.replace("-", "–") for state, span in health_text(stats.health).items()}
    return [
        {"state": "healthy", "range": text["healthy"], "style": "healthy"},
        {"state": "injured", "range": text["injured"], "style": "injured"},
        {"state": "incapacitated", "range": text["incapacitated"], "style": "zero"},
    ]


def _boxes(max_hp: int, stamina_value: int) -> list[dict[str, Any]]:
    return [
        {"hp": str(box["hp"]), "injured": bool(box["injured"])}
        for box in hp_track(max_hp, stamina_value)
    ]


def _warnings(stats: CharacterStats) -> dict[str, Any] | None:
    if not stats.warnings:
        return None
    budget = stats.budget
    return {
        "title": f"Outside the campaign limits ({budget.cp} CP, maximum level {budget.max_level})",
        "items": list(stats.warnings),
    }


def _ability_row(
    ability: AbilityLine, note_limit: int | None, max_level: int | None, more: str = ""
) -> dict[str, Any]:
    """One ability as the sheet prints it; ``more`` ("see p. 2") follows a shortened note
    (a note left out altogether is announced once, over the panel)."""
    above = max_level is not None and ability.level > max_level
    note = _cut(ability.note, note_limit)
    cut = note != _whole(ability.note)
    return {
        "level": str(ability.level),
        "name": display(ability.name),
        "note": note,
        "cut": cut,
        "more": more if cut and note else "",
        "above_max": above,
        "flag": f"above max {max_level}" if above else "",
    }


def _grouped(abilities: Sequence[AbilityLine]) -> list[tuple[str, list[AbilityLine]]]:
    """Abilities by sheet category, in the catalogue's category order and, within a
    category, in the order the author wrote them."""
    return [
        (category, [a for a in abilities if a.name in names])
        for category, names in CHARACTER_CATEGORIES.items()
        if any(a.name in names for a in abilities)
    ]


def _ability_columns(
    stats: CharacterStats, layout: _Layout, panel_mm: float, more: str = ""
) -> list[list[dict[str, Any]]]:
    """Category groups laid into columns of even (estimated) height in a panel
    ``panel_mm`` wide; a category cut between two columns repeats its title."""
    max_level = stats.budget.max_level
    rows = [
        (category, _ability_row(a, layout.note_limit, max_level, more))
        for category, members in _grouped(stats.abilities)
        for a in members
    ]
    result = []
    start = 0
    heights = _ability_heights(stats, _density(layout), layout, panel_mm, more)
    for part in _split(heights, layout.columns):
        groups: list[dict[str, Any]] = []
        for category, row in rows[start : start + len(part)]:
            if not groups or groups[-1]["category"] != category:
                groups.append(
                    {"category": category, "title": CATEGORY_TITLES[category], "rows": []}
                )
            groups[-1]["rows"].append(row)
        start += len(part)
        result.append(groups)
    return result


def _whole(text: str) -> str:
    """Free text as the sheet prints it whole: every run of white space one space."""
    return " ".join(text.split())


def _cut(text: str, limit: int | None) -> str:
    """Shorten a note at a word boundary; only used when the page cannot hold it whole."""
    text = _whole(text)
    if limit is None or len(text) <= limit:
        return text
    if limit == 0:
        return ""
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + "…"


def _shortened_message(text: str, limit: int) -> str:
    """What a layout warning says of a text cut to ``limit`` characters."""
    printed = _cut(text, limit)
    return (
        f"shortened to fit its line on the sheet: prints {quoted(printed)}"
        f" ({len(printed) - 1} of {len(text)} characters)"
    )


def _career_names(campaign: Campaign) -> dict[str, str]:
    """Every career's name under its casefolded name and id, so ``career: sheriff`` prints
    as the career card spells it."""
    try:
        entries = merged_entries(campaign, "careers")
    except InputError:  # two careers with one id: `check` says so; print as written
        return {}
    return {
        key: entry.definition.name
        for entry in entries
        for key in (entry.definition.name.casefold(), entry.id.casefold())
    }


def _career(definition: Any, careers: dict[str, str]) -> str:
    written = _whole(str(getattr(definition, "career", None) or ""))
    return careers.get(written.casefold(), written)


def _roll_text(action: Action) -> tuple[str, str]:
    """(big, small) for the roll column: ``+2`` / ``wrestling``, or ``d20`` alone."""
    if action.bonus is None:
        return "—", ""
    if not action.roll:
        return "d20", ""
    ability = action.roll.rsplit(" ", 1)[0]
    return signed(action.bonus), display(ability)


def _split_value(text: str) -> dict[str, str]:
    """``4 (2 injured)`` prints as a big ``4`` over a small ``2 injured``; empty is a dash."""
    if not text:
        return {"main": "—", "sub": ""}
    main, _, rest = text.partition(" (")
    return {"main": main, "sub": rest.removesuffix(")")}


def _target(text: str) -> dict[str, str]:
    main, sub = TARGET_LINES.get(text, (text or "—", ""))
    return {"main": main, "sub": sub}


def _action(action: Action) -> dict[str, Any]:
    roll, roll_from = _roll_text(action)
    return {
        "name": action.name,
        "rolled": action.bonus is not None,
        "roll": roll,
        "roll_from": roll_from,
        "target": _target(action.target),
        "range": action.range or "—",
        "attack": action.attack,
        "damage": _split_value(action.damage),
        "auto": _split_value(action.auto_damage),
        "effect": action.effect,
        "ticks": list(range(UNREPEATABLE_TICKS)) if action.unrepeatable else [],
        "tag": "bonus" if action.timing == "bonus" else "",
    }


def _movement(stats: CharacterStats) -> dict[str, Any]:
    healthy, injured = stats.movement.healthy, stats.movement.injured
    columns = ["ground"]
    if healthy.air is not None:
        columns.append("air")
    columns += ["rough", "water"]

    def cells(move: GridMove) -> list[str]:
        values = {"ground": move.ground, "air": move.air, "rough": move.rough, "water": move.water}
        return [str(values[c]) for c in columns]

    return {
        "columns": columns,
        "rows": [
            {"state": "healthy", "cells": cells(healthy)},
            {"state": "injured", "cells": cells(injured)},
        ],
    }


def _carry(stats: CharacterStats, options: BuildOptions) -> dict[str, Any] | None:
    if stats.carry is None:
        return None
    cells = carry_cells(stats.carry, options.units)
    return {
        "strength": cells["strength"],
        "rows": [
            {"label": "pack", "when": "all day", "value": cells["pack"]},
            {"label": "carry", "when": "a few minutes", "value": cells["carry"]},
            {"label": "lift", "when": "in place; drag it too", "value": cells["lift"]},
        ],
    }


def _cp(stats: CharacterStats) -> dict[str, Any]:
    budget = stats.budget
    highest = max((a.level for a in stats.abilities), default=0)
    pips = []
    if max(stats.cp, budget.cp) <= MAX_PIPS:
        for point in range(1, max(stats.cp, budget.cp) + 1):
            if point > budget.cp:
                pips.append("over")
            elif point <= stats.cp:
                pips.append("spent")
            else:
                pips.append("free")
    return {
        "spent": str(stats.cp),
        "budget": str(budget.cp),
        "max_level": str(budget.max_level),
        "over": stats.over_budget,
        "above_max": highest > budget.max_level,
        "pips": pips,
    }


def _minion_note(back: dict[str, Any] | None) -> str:
    if back is None:
        return ""
    return "minions on the back" if back["frames"] else "recruit minions on the back"


# --- fitting the front on one page -------------------------------------------------------
#
# Heights in millimetres, measured on rendered sheets; line counts come from measuring the
# text with the bundled fonts and wrapping it greedily, the way the renderer does. Each
# estimate errs on the tall side, and tests/test_sheet.py renders the worst cases to prove
# the page holds.

MM_PER_PT = 25.4 / 72
FONT_FILES = {
    "serif": "CharisSIL-Regular.ttf",
    "serif-italic": "CharisSIL-Italic.ttf",
    "sans-bold": "Lato-Bold.ttf",
    "display": "BebasNeue-Regular.otf",
}


@functools.cache
def _width(text: str, face: str, pt: float) -> float:
    """The advance width of ``text`` in millimetres."""
    return measure.text_width_mm(text, FONT_FILES[face], pt)


def _wrap(text: str, face: str, pt: float, width_mm: float, indent_mm: float = 0.0) -> int:
    """How many lines ``text`` takes in a box ``width_mm`` wide, its first line starting
    ``indent_mm`` in; a word longer than a line is broken anywhere, as the sheet's CSS says."""
    if not text:
        return 1 if indent_mm else 0
    width_mm = max(width_mm, 5.0)
    space = _width(" ", face, pt)
    lines, x = 1, indent_mm
    for word in text.split():
        w = _width(word, face, pt)
        if x > 0 and x + space + w > width_mm:
            lines, x = lines + 1, 0.0
        elif x > 0:
            x += space
        while x + w > width_mm:
            lines, w, x = lines + 1, w - (width_mm - x), 0.0
        x += w
    return lines


@dataclass(frozen=True)
class _Density:
    """One step of the type scale (a body class in sheet.css) and its measured metrics."""

    name: str
    gap: float  # between the page's blocks
    row_one: float  # an action row whose cells all hold one line
    row_two: float  # a row with a second line of effect text or a small caption
    row_line: float  # each further line of effect text
    row_ticks: float  # a row with tick boxes under the action's name
    row_target: float  # a row whose target takes a small second line (intimidate)
    row_other: float  # an action without a roll (evade, escape...), effect on one line
    ability_one: float  # an ability row of one line
    ability_line: float  # each further line of an ability row
    effect_pt: float  # the type sizes of sheet.css at this density
    note_pt: float
    cell_pt: float


DENSITIES = (
    _Density("normal", 2.4, 6.3, 8.4, 3.45, 9.8, 10.7, 5.3, 5.7, 4.0, 8.0, 8.5, 9.0),
    _Density("compact", 2.0, 5.9, 8.05, 3.3, 9.55, 10.5, 5.1, 5.3, 3.8, 7.6, 8.0, 8.5),
    _Density("tight", 1.6, 5.15, 7.05, 2.85, 9.15, 10.1, 4.7, 5.0, 3.6, 7.0, 7.4, 7.8),
)
# Widths from sheet.css, subtracted from the page's content width.
PANEL_INSET_MM = 4.9  # a panel's padding and frame, both sides
ACTION_COLUMNS_MM = 104.0  # the actions grid's fixed columns before "Effect"
ACTION_LEAD_MM = 45.0  # "Action" and "Roll": what a no-roll action's effect does not span
CELL_PADDING_MM = 2.0
SIDE_COLUMN_MM = 66.4  # the right column of the bottom row and its gutter
ABILITY_GUTTER_MM = 6.5  # between two ability columns
ABILITY_LEVEL_MM = 7.4  # the level box's column
HEAD_PORTRAIT_MM = 34.0  # the header's columns: portrait, and three or one defense
HEAD_DEFENSES_MM = {3: 81.4, 1: 36.6}
# Heights.
ACTIONS_CHROME_MM = 20.0  # the actions panel's frame, title, grid head and footer line
HEAD_MIN_MM = PORTRAIT_MM[1] + 0.5
HEAD_FIXED_MM = 16.5  # the player line and the CP lines under the name and description
VITALS_MM = 22.5  # the health and initiative row with one row of HP boxes
BANNER_MM = 3.4  # the warning banner's frame ...
BANNER_LINE_MM = 4.2  # ... and each line of its text
BANNER_INSET_MM = 12.0
FOOT_MM = 4.2
# The band the footer is given under the page's last row, as the flex column that laid the
# page out before allowed it: its 0.5 pt rule, 0.8 mm padding and two 7 pt lines at 1.3
# (the flex measured the footer's float on a line of its own). Keeping it keeps every
# bottom row where it was.
FOOT_BAND_MM = 0.5 * MM_PER_PT + 0.8 + 2 * 7 * 1.3 * MM_PER_PT
CATEGORY_MM = 5.1  # a category label with its rule and the space after its group
ABILITY_CHROME_MM = 9.5  # the abilities panel's title band and padding
# The right column: movement (22.5 mm), carrying (24 mm) and "Gear & notes" with at least
# three write-in lines, 7 mm apart under its 6 mm title band; sheet.css places them so.
SIDE_MM = 80.0
SIDE_TOP_MM = 51.3  # movement, carrying and the gaps under them: where "Gear & notes" starts
SIDE_CONDENSED_MM = 49.0  # movement and carrying only
# "Character development" under the abilities: its title band and two write-in lines.
DEVELOPMENT_MM = 21.6
# (Both least heights hold their lines whole: 5.6 mm to the first tile, 7 mm a line,
# 1.2 mm under the last, and the frame; sheet.css places the lines so.)
SAFETY_MM = 2.5
# Notes are cut (with an ellipsis, and printed whole on the continuation page) only when
# nothing else makes the page fit; these are the budgets tried, in characters per note.
NOTE_LIMITS = (160, 110, 80, 60, 45, 30)


@dataclass(frozen=True)
class _Layout:
    density: str = "normal"
    columns: int = 1
    note_limit: int | None = None  # None keeps notes whole; 0 drops them
    # Actions without a roll on one line; "Gear & notes" and "Character development" move
    # to the continuation page.
    condensed: bool = False


# From the roomiest to the most crowded; _fit takes the first that fits. Ability notes are
# shortened before the front gives up its write-in panels or the reminders of what evade,
# escape... do: a shortened note is still printed whole on the continuation page.
CANDIDATES = (
    *(_Layout(d.name, columns) for d in DENSITIES for columns in (1, 2)),
    *(_Layout("tight", 2, limit) for limit in NOTE_LIMITS),
    _Layout("tight", 3, 0),
    _Layout("tight", 3, 0, condensed=True),
)


def _density(layout: _Layout) -> _Density:
    return next(d for d in DENSITIES if d.name == layout.density)


def _lines(length: int, per_line: float) -> int:
    return max(1, math.ceil(length / per_line)) if length else 1


def _action_height(action: Action, d: _Density, width_mm: float) -> float:
    effect_mm = width_mm - PANEL_INSET_MM - ACTION_COLUMNS_MM - CELL_PADDING_MM
    if action.bonus is None:
        wide = width_mm - PANEL_INSET_MM - ACTION_LEAD_MM - CELL_PADDING_MM
        lines = _wrap(action.effect, "serif", d.effect_pt, wide)
        return d.row_other + (lines - 1) * d.row_line
    view = _action(action)
    lines = _wrap(action.effect, "serif", d.effect_pt, effect_mm)
    height = d.row_one
    if lines >= 2 or view["damage"]["sub"] or view["auto"]["sub"]:
        height = d.row_two + max(0, lines - 2) * d.row_line
    if action.unrepeatable:
        height = max(height, d.row_ticks)
    if view["target"]["sub"] or len(view["target"]["main"]) > 14:
        height = max(height, d.row_target)
    return height


def _actions_height(stats: CharacterStats, d: _Density, condensed: bool, width_mm: float) -> float:
    shown = [a for a in stats.actions if a.bonus is not None or not condensed]
    height = ACTIONS_CHROME_MM + sum(_action_height(a, d, width_mm) for a in shown)
    return height + (d.row_other if condensed else 0.0)


def _ability_heights(
    stats: CharacterStats, d: _Density, layout: _Layout, panel_mm: float, more: str = ""
) -> list[tuple[str, float]]:
    """(category, estimated height) of each ability row, in sheet order, in an abilities
    panel ``panel_mm`` wide; ``more`` ("see p. 2") follows each shortened note."""
    inner = panel_mm - PANEL_INSET_MM
    column = (inner - (layout.columns - 1) * ABILITY_GUTTER_MM) / layout.columns
    text_mm = column - ABILITY_LEVEL_MM
    heights = []
    for category, members in _grouped(stats.abilities):
        for a in members:
            name = _width(display(a.name) + " ", "sans-bold", d.cell_pt)
            if a.level > stats.budget.max_level:
                name += _width(f"above max {stats.budget.max_level} ", "sans-bold", 7.0) * 1.2
            note = _cut(a.note, layout.note_limit)
            if more and note and note != _whole(a.note):
                note += f" {more}"
            lines = max(1, _wrap(note, "serif-italic", d.note_pt, text_mm, name))
            heights.append((category, d.ability_one + (lines - 1) * d.ability_line))
    return heights


def _abilities_height(
    stats: CharacterStats, d: _Density, layout: _Layout, panel_mm: float, more: str = ""
) -> float:
    tallest = 6.0
    for part in _split(_ability_heights(stats, d, layout, panel_mm, more), layout.columns):
        categories = len({c for c, _ in part})
        tallest = max(tallest, sum(h for _, h in part) + categories * CATEGORY_MM)
    return ABILITY_CHROME_MM + tallest


def _split(items: list[tuple[str, float]], columns: int) -> list[list[tuple[str, float]]]:
    """Consecutive runs of (category, height) for each column, as even in height as the
    order allows: each column ends at the row that brings it closest to its share."""
    total = sum(h for _, h in items)
    parts: list[list[tuple[str, float]]] = []
    start = 0
    for column in range(columns - 1):
        goal = total * (column + 1) / columns
        running = sum(h for _, h in items[:start])
        best = (math.inf, start)
        for end in range(start, len(items) + 1):
            best = min(best, (abs(goal - running), end))
            if end < len(items):
                running += items[end][1]
        parts.append(items[start : best[1]])
        start = best[1]
    parts.append(items[start:])
    return [p for p in parts if p]


def _head_height(
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
    name_lines = _wrap(name, "display", name_pt, identity_mm)
    desc_lines = _wrap(description, "serif-italic", desc_pt, identity_mm)
    identity = name_lines * name_line + desc_lines * desc_line + HEAD_FIXED_MM
    return max(HEAD_MIN_MM, identity)


def _hp_rows(hit_points: int) -> int:
    return _lines(hit_points + 1, HP_BOXES_PER_ROW[_hp_size(hit_points)])


def _fit(stats: CharacterStats, head_mm: float, width_mm: float, height_mm: float) -> _Layout:
    """The roomiest layout whose estimated height fits the page (the last one otherwise)."""
    banner = 0.0
    warnings = _warnings(stats)
    if warnings is not None:
        text = f"{warnings['title']}: {'; '.join(warnings['items'])}."
        lines = _wrap(text, "sans-bold", 8.5, width_mm - BANNER_INSET_MM)
        banner = BANNER_MM + lines * BANNER_LINE_MM
    hp_extra = (_hp_rows(stats.hit_points) - 1) * HP_ROW_MM[_hp_size(stats.hit_points)]
    for layout in CANDIDATES:
        d = _density(layout)
        gaps = (5 if banner else 4) * d.gap
        fixed = head_mm + banner + VITALS_MM + hp_extra + FOOT_MM + gaps
        side = SIDE_CONDENSED_MM if layout.condensed else SIDE_MM
        # A shortened note says where the rest is; the page number is one word either way.
        left = _abilities_height(stats, d, layout, width_mm - SIDE_COLUMN_MM, "see p. 3")
        if not layout.condensed:
            left += d.gap + DEVELOPMENT_MM
        bottom = max(side, left)
        actions = _actions_height(stats, d, layout.condensed, width_mm)
        if fixed + actions + bottom + SAFETY_MM <= height_mm:
            return layout
    return CANDIDATES[-1]


# Bebas Neue names by size: (points, line height in mm), matching sheet.css.
NAME_TYPE = {
    "xl": (32.0, 11.3),
    "l": (27.0, 9.6),
    "m": (21.0, 7.5),
    "s": (16.0, 5.7),
    "xs": (12.0, 4.7),
}
# The largest size at which a name of this many characters usually fits one header line;
# past "s" the name wraps at 12 pt.
NAME_SIZES = (("xl", 18), ("l", 21), ("m", 27), ("s", 36))
# Description: (points, line height in mm) at each size. Up to two lines at the note size,
# three at a smaller one, and cut beyond (the sheet is not the backstory: that is what the
# description in the campaign file is for).
DESCRIPTION_TYPE = {"normal": (8.5, 3.8), "small": (7.5, 3.25)}
DESCRIPTION_SHORT = 110
DESCRIPTION_MAX = 220
# Other free text in fixed-size places: the player's name on one header line, the group's
# name in the narrow initiative panel, a minion's description beside its stat boxes.
PLAYER_MAX = 40
GROUP_MAX = 30
FOOTER_NAME_MAX = 70
MINION_DESCRIPTION_MAX = 300


def _name_size(name: str) -> str:
    """The name is the largest thing on the page, within reason: long names step down."""
    for size, longest in NAME_SIZES:
        if len(name) <= longest:
            return size
    return "xs"


# --- the back: minions --------------------------------------------------------------------

# Back-page heights in millimetres at the roomy type (see _back_fit).
BACK_HEAD_MM = 16.0  # "Minions of" and the leader's name, with the budget
BACK_NAME_MM = 100.0  # the width the leader's name has beside the budget
BACK_NOTES_MM = 30.0  # the "Minion notes" panel at its least
BLANK_FRAME_MM = 70.0  # a blank minion frame
FRAME_CHROME_MM = 14.0  # a minion frame's title band, padding and gaps
FRAME_NUMBERS_MM = 15.5  # the row of stat boxes
FRAME_ID_MM = 70.0  # the name and description beside the stat boxes
FRAME_ABILITIES_MM = 77.0  # the text of an ability in the left half of a frame
TRACK_MM = 8.0  # one HP track
LEGEND_MM = 4.5
ACTION_HEAD_MM = 5.0
MINION_NAME_TYPE = {"xl": (22.0, 8.0), "l": (22.0, 8.0), "m": (21.0, 7.5)} | {
    size: NAME_TYPE[size] for size in ("s", "xs")
}
MINION_NOTE_LIMITS: tuple[int | None, ...] = (None, 240, 160, 100, 60, 30)


def _frame_height(block: Block, compact: bool, note_limit: int | None, width_mm: float) -> float:
    stats = _character_stats(block)
    d = DENSITIES[1] if compact else DENSITIES[0]
    lost = LETTER_WIDTH_MM - width_mm
    text = _cut(block.description, _description_limit(note_limit))
    if text != _whole(block.description):
        text += " see p. 3"
    name_pt, name_line = MINION_NAME_TYPE[_name_size(block.name)]
    name = _wrap(block.name, "display", name_pt, FRAME_ID_MM - lost) * name_line
    description = _wrap(text, "serif-italic", 8.5, FRAME_ID_MM - lost) * 3.8
    head = max(FRAME_NUMBERS_MM, name + description + 5.0)
    abilities = LEGEND_MM
    for a in stats.abilities:
        lead = _width(display(a.name) + " ", "sans-bold", d.cell_pt)
        note = _cut(a.note, note_limit)
        if note != _whole(a.note):
            note += " see p. 3"
        lines = max(1, _wrap(note, "serif-italic", d.note_pt, FRAME_ABILITIES_MM - lost, lead))
        abilities += d.ability_one + (lines - 1) * d.ability_line
    actions = ACTION_HEAD_MM + sum(
        d.row_ticks if a.unrepeatable else d.row_one for a in stats.actions if a.bonus is not None
    )
    tracks = block.count * TRACK_MM + LEGEND_MM
    return FRAME_CHROME_MM + head + tracks + max(abilities, actions)


def _description_limit(note_limit: int | None) -> int:
    """A minion's description is cut with its notes, but never below a sentence's worth."""
    return MINION_DESCRIPTION_MAX if note_limit is None else max(note_limit, 80)


def _back_fit(
    leader: str, minions: list[Block], blanks: int, width_mm: float, height_mm: float
) -> tuple[bool, int | None]:
    """(compact type?, note limit) for the back: the roomiest that fits one page."""
    name_pt, name_line = NAME_TYPE[_name_size(leader)]
    lost = LETTER_WIDTH_MM - width_mm
    head = max(
        BACK_HEAD_MM, 7.0 + _wrap(leader, "display", name_pt, BACK_NAME_MM - lost) * name_line
    )
    gaps = (len(minions) + blanks + 2) * DENSITIES[0].gap
    fixed = head + BACK_NOTES_MM + FOOT_MM + blanks * BLANK_FRAME_MM + gaps + SAFETY_MM
    for compact in (False, True):
        for limit in MINION_NOTE_LIMITS:
            frames = sum(_frame_height(m, compact, limit, width_mm) for m in minions)
            if fixed + frames <= height_mm:
                return compact, limit
    return True, MINION_NOTE_LIMITS[-1]


def _back(
    block: Block,
    stats: CharacterStats,
    computed: Computed,
    command: int,
    size_mm: tuple[float, float],
    more_page: str,
) -> dict[str, Any]:
    minions = computed.minions_of(block.name)
    count = sum(m.count for m in minions)
    blanks = max(0, MAX_MINIONS - count)
    compact, note_limit = _back_fit(block.name, minions, blanks, *size_mm)
    spent = sum(m.count * _character_stats(m).cp for m in minions)
    over = spent > command or count > MAX_MINIONS
    return {
        "leader": block.name,
        "leader_size": _name_size(block.name),
        "rule": f"command {command}: up to {MAX_MINIONS} minions, {command} CP",
        "spent": f"{spent} of {command} CP spent",
        "count": f"{count} of {MAX_MINIONS} minions",
        "breakdown": " + ".join(
            f"{m.count} × {_character_stats(m).cp} CP"
            if m.count > 1
            else f"{_character_stats(m).cp} CP"
            for m in minions
        ),
        "over": over,
        "left": "" if over else f"{command - spent} CP left",
        "compact": compact,
        "frames": [_minion_frame(m, note_limit, f"see p. {more_page}") for m in minions],
        # A minion may have at most the whole command in toughness, so that many HP boxes.
        "blanks": [
            {"boxes": list(range(command)), "index": str(count + i + 1)} for i in range(blanks)
        ],
        "blank_lines": list(range(BLANK_ABILITY_LINES)),
        "blank_defenses": [d["label"] for d in _defenses(stats)],
        "reminders": [
            "Minions act on their leader's initiative and keep fighting if the leader"
            " escapes or is incapacitated.",
            "Healing ability cannot restore minions during an encounter.",
            "Minions cannot have command. Their total CP may not exceed the leader's command.",
        ],
    }


def _minion_frame(block: Block, note_limit: int | None, more: str = "") -> dict[str, Any]:
    """A minion on the back; ``more`` follows whatever the back had to shorten."""
    stats = _character_stats(block)
    boxes = _boxes(stats.hit_points, stats.stamina)
    numbers = [
        *_defenses(stats),
        {"label": "Stamina", "value": str(stats.stamina), "caption": ""},
        {"label": "Hit points", "value": str(stats.hit_points), "caption": ""},
    ]
    order = list(CHARACTER_CATEGORIES)
    abilities = sorted(stats.abilities, key=lambda a: order.index(category_of(a.name)))
    description = _cut(block.description, _description_limit(note_limit))
    rows = [_ability_row(a, note_limit, None, more) for a in abilities]
    description_more = more if description != _whole(block.description) else ""
    return {
        "name": block.name,
        "count": f"× {block.count}" if block.count > 1 else "",
        "description": description,
        "description_more": description_more,
        # Something here is printed whole on the continuation page only.
        "cut": bool(description_more) or any(row["cut"] for row in rows),
        "name_size": _name_size(block.name),
        "numbers": numbers,
        "cp": f"{stats.cp} CP each" if block.count > 1 else f"{stats.cp} CP",
        # One track per individual: two thugs are hurt separately.
        "tracks": [
            {"label": f"{block.name} {i + 1}" if block.count > 1 else "", "boxes": boxes}
            for i in range(block.count)
        ],
        "bands": _bands(stats),
        # Minions have no maximum level of their own (RULES.md §7).
        "abilities": rows,
        "actions": [_action(a) for a in stats.actions if a.bonus is not None],
        "warnings": list(block.warnings),
    }


# --- the continuation page: whatever the sheet shortened, printed whole ---------------------

# Heights in millimetres at the roomy type, as on the back.
MORE_HEAD_MM = 16.0  # "Notes, continued" over the character's name
MORE_PANEL_MM = 9.5  # a panel's title band, padding and frame
MORE_NAME_MM = 8.0  # a minion's name line
MORE_NOTES_MM = 30.0  # the write-in lines that fill the rest of the page, at their least
# When the page is too full to fill (it then runs on for as many pages as it needs),
# "Gear & notes" gets this many write-in lines.
MORE_WRITE_IN_LINES = 5


def _more_minion(block: Block) -> dict[str, Any]:
    """A minion whose frame on the back was shortened: its words whole, in the same look."""
    stats = _character_stats(block)
    order = list(CHARACTER_CATEGORIES)
    abilities = sorted(stats.abilities, key=lambda a: order.index(category_of(a.name)))
    return {
        "name": block.name,
        "count": f"× {block.count}" if block.count > 1 else "",
        "description": _whole(block.description),
        "abilities": [_ability_row(a, None, None) for a in abilities],
    }


def _more_minion_height(block: Block, width_mm: float) -> float:
    d = DENSITIES[0]
    text_mm = width_mm - PANEL_INSET_MM
    height = MORE_PANEL_MM + MORE_NAME_MM
    height += _wrap(_whole(block.description), "serif-italic", 8.5, text_mm) * 3.8
    for a in _character_stats(block).abilities:
        lead = _width(display(a.name) + " ", "sans-bold", d.cell_pt)
        lines = _wrap(_whole(a.note), "serif-italic", d.note_pt, text_mm - ABILITY_LEVEL_MM, lead)
        height += d.ability_one + (max(1, lines) - 1) * d.ability_line
    return height


def _more(
    block: Block,
    stats: CharacterStats,
    layout: _Layout,
    description: str,
    abilities: bool,
    minions: list[Block],
    size_mm: tuple[float, float],
    page: str,
) -> dict[str, Any] | None:
    """The continuation page, or None when the front and back print everything whole.

    It holds the description and the ability notes in full if the front shortened them,
    each minion whose frame the back shortened, and the write-in panels a condensed front
    had no room for; write-in lines fill what is left. Past one page it runs on, unfilled:
    the player's words are never cut here.
    """
    if not (description or abilities or minions or layout.condensed):
        return None
    width, height = size_mm
    d = DENSITIES[0]
    roomy = _Layout("normal", 2)
    estimate = MORE_HEAD_MM + FOOT_MM + SAFETY_MM + d.gap
    if description:
        lines = _wrap(description, "serif-italic", 8.5, width - PANEL_INSET_MM)
        estimate += MORE_PANEL_MM + lines * DESCRIPTION_TYPE["normal"][1] + d.gap
    if abilities:
        estimate += _abilities_height(stats, d, roomy, width) + d.gap
    estimate += sum(_more_minion_height(m, width) + d.gap for m in minions)
    if layout.condensed:
        estimate += DEVELOPMENT_MM + d.gap
    fill = estimate + MORE_NOTES_MM <= height
    return {
        "page": page,
        "name": block.name,
        "name_size": _name_size(block.name),
        "description": description,
        "abilities": _ability_columns(stats, roomy, width) if abilities else [],
        "minions": [_more_minion(m) for m in minions],
        "write_ins": layout.condensed,
        # Where the front's write-in panels went, said where they would have been.
        "write_ins_note": f"Gear & notes, character development: p. {page}",
        "fill": fill,
        "notes_title": "Gear & notes" if layout.condensed else "Notes",
        "notes_lines": list(range(MORE_WRITE_IN_LINES)) if layout.condensed and not fill else [],
    }
