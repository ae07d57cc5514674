"""The continuation page, "Notes, continued": whatever the front and the back shortened,
printed whole, and the write-in panels a condensed front had no room for."""

from __future__ import annotations

from typing import Any

from ...rules import CharacterStats
from ...rules.abilities import CHARACTER_CATEGORIES, category_of
from ...statblocks import Block, Computed
from ...typesetting.measure import wrapped_lines
from ...wording import _
from ..sources import Origins
from . import panels
from .layout import abilities_height, ability_columns, ability_lead_mm
from .metrics import (
    ABILITY_LEVEL_MM,
    DESCRIPTION_TYPE,
    DEVELOPMENT_MM,
    FOOT_MM,
    MORE_HEAD_MM,
    MORE_NAME_MM,
    MORE_NOTES_MM,
    MORE_PANEL_MM,
    NOTE_FACE,
    PANEL_INSET_MM,
    ROOMY,
    SAFETY_MM,
    Layout,
)
from .rows import ability_row
from .text import name_size, whole

# When the page is too full to fill (it then runs on for as many pages as it needs),
# "Gear & notes" gets this many write-in lines.
MORE_WRITE_IN_LINES = 5


def more_minion(block: Block, origins: Origins | None = None) -> dict[str, Any]:
    """A minion whose frame on the back was shortened: its words whole, in the same look;
    ``origins`` says where its levels are written, for the preview."""
    origins = origins or Origins(block)
    stats = panels.character_stats(block)
    order = list(CHARACTER_CATEGORIES)
    abilities = sorted(stats.abilities, key=lambda a: order.index(category_of(a.name)))
    return {
        "name": block.name,
        "count": f"× {block.count}" if block.count > 1 else "",
        "description": whole(block.description),
        "abilities": [ability_row(a, None, None, source=origins.ability(a)) for a in abilities],
    }


def more_minion_height(block: Block, width_mm: float) -> float:
    d = ROOMY
    desc_pt, desc_line = DESCRIPTION_TYPE["normal"]
    text_mm = width_mm - PANEL_INSET_MM
    height = MORE_PANEL_MM + MORE_NAME_MM
    height += wrapped_lines(whole(block.description), NOTE_FACE, desc_pt, text_mm) * desc_line
    for a in panels.character_stats(block).abilities:
        lead = ability_lead_mm(a.name, d)
        note_mm = text_mm - ABILITY_LEVEL_MM
        lines = wrapped_lines(whole(a.note), NOTE_FACE, d.note_pt, note_mm, lead)
        height += d.ability_one + (max(1, lines) - 1) * d.ability_line
    return height


def more(
    block: Block,
    stats: CharacterStats,
    layout: Layout,
    description: str,
    abilities: bool,
    minions: list[Block],
    size_mm: tuple[float, float],
    page: str,
    computed: Computed | None = None,
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
    d = ROOMY
    roomy = Layout("normal", 2)
    estimate = MORE_HEAD_MM + FOOT_MM + SAFETY_MM + d.gap
    if description:
        desc_pt, desc_line = DESCRIPTION_TYPE["normal"]
        lines = wrapped_lines(description, NOTE_FACE, desc_pt, width - PANEL_INSET_MM)
        estimate += MORE_PANEL_MM + lines * desc_line + d.gap
    if abilities:
        estimate += abilities_height(stats, d, roomy, width) + d.gap
    estimate += sum(more_minion_height(m, width) + d.gap for m in minions)
    if layout.condensed:
        estimate += DEVELOPMENT_MM + d.gap
    fill = estimate + MORE_NOTES_MM <= height
    return {
        "page": page,
        "name": block.name,
        "name_size": name_size(block.name),
        "description": description,
        "abilities": (
            ability_columns(stats, roomy, width, origins=Origins(block, computed))
            if abilities
            else []
        ),
        "minions": [more_minion(m, Origins(m, computed)) for m in minions],
        "write_ins": layout.condensed,
        # Where the front's write-in panels went, said where they would have been.
        "write_ins_note": _("Gear & notes, character development: p. %(page)s") % {"page": page},
        "fill": fill,
        "notes_title": _("Gear & notes") if layout.condensed else _("Notes"),
        "notes_lines": list(range(MORE_WRITE_IN_LINES)) if layout.condensed and not fill else [],
    }
