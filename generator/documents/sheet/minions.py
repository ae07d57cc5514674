"""The back of a leader's sheet: a frame for each of their minions, blank frames for the
minions they may still recruit, and the command budget. ``back_fit`` picks the roomiest
type and note budget that keep it one page."""

from __future__ import annotations

from typing import Any

from ...rules import CharacterStats
from ...rules.abilities import CHARACTER_CATEGORIES, category_of
from ...rules.minions import MAX_MINIONS
from ...statblocks import Block, Computed
from ...typesetting.measure import wrapped_lines
from ...wording import N_, _, ngettext
from .. import terms
from ..common import capital
from ..sources import Origins
from . import panels
from .layout import ability_lead_mm
from .metrics import (
    ACTION_HEAD_MM,
    BACK_COMPACT,
    BACK_HEAD_MM,
    BACK_NAME_MM,
    BACK_NOTES_MM,
    BLANK_FRAME_MM,
    DESCRIPTION_TYPE,
    FOOT_MM,
    FRAME_ABILITIES_MM,
    FRAME_CHROME_MM,
    FRAME_ID_MM,
    FRAME_NUMBERS_MM,
    LEGEND_MM,
    LETTER_WIDTH_MM,
    MINION_NAME_TYPE,
    MINION_NOTE_LIMITS,
    NAME_FACE,
    NAME_TYPE,
    NOTE_FACE,
    ROOMY,
    SAFETY_MM,
    TRACK_MM,
)
from .rows import ability_row, action_row
from .text import MINION_DESCRIPTION_MAX, cut, name_size, whole

# Write-in lines on a blank minion frame (abilities); each line is 7 mm apart.
BLANK_ABILITY_LINES = 4
# The "Minion notes" panel: the rules a leader forgets (RULES.md §7).
REMINDERS = (
    N_(
        "Minions act on their leader's initiative and keep fighting if the leader"
        " escapes or is incapacitated."
    ),
    N_("Healing ability cannot restore minions during an encounter."),
    N_("Minions cannot have command. Their total CP may not exceed the leader's command."),
)


def cp_amount(cp: int, count: int = 1) -> str:
    """What minions cost, as the budget line adds them up: ``2 × 2 CP`` or ``3 CP``."""
    if count > 1:
        return _("%(count)s × %(cp)s CP") % {"count": count, "cp": cp}
    return _("%(cp)s CP") % {"cp": cp}


def frame_height(block: Block, compact: bool, note_limit: int | None, width_mm: float) -> float:
    """A minion's frame on the back, estimated at the roomy or the compact type."""
    stats = panels.character_stats(block)
    d = BACK_COMPACT if compact else ROOMY
    lost = LETTER_WIDTH_MM - width_mm
    text = cut(block.description, description_limit(note_limit))
    if text != whole(block.description):
        text += " " + panels.see_page("3")
    name_pt, name_line = MINION_NAME_TYPE[name_size(block.name)]
    desc_pt, desc_line = DESCRIPTION_TYPE["normal"]
    name = wrapped_lines(block.name, NAME_FACE, name_pt, FRAME_ID_MM - lost) * name_line
    description = wrapped_lines(text, NOTE_FACE, desc_pt, FRAME_ID_MM - lost) * desc_line
    head = max(FRAME_NUMBERS_MM, name + description + 5.0)
    abilities = LEGEND_MM
    for a in stats.abilities:
        lead = ability_lead_mm(a.name, d)
        note = cut(a.note, note_limit)
        if note != whole(a.note):
            note += " " + panels.see_page("3")
        lines = max(1, wrapped_lines(note, NOTE_FACE, d.note_pt, FRAME_ABILITIES_MM - lost, lead))
        abilities += d.ability_one + (lines - 1) * d.ability_line
    actions = ACTION_HEAD_MM + sum(
        d.row_ticks if a.unrepeatable else d.row_one for a in stats.actions if a.bonus is not None
    )
    tracks = block.count * TRACK_MM + LEGEND_MM
    return FRAME_CHROME_MM + head + tracks + max(abilities, actions)


def description_limit(note_limit: int | None) -> int:
    """A minion's description is cut with its notes, but never below a sentence's worth."""
    return MINION_DESCRIPTION_MAX if note_limit is None else max(note_limit, 80)


def back_fit(
    leader: str, minions: list[Block], blanks: int, width_mm: float, height_mm: float
) -> tuple[bool, int | None]:
    """(compact type?, note limit) for the back: the roomiest that fits one page."""
    name_pt, name_line = NAME_TYPE[name_size(leader)]
    lost = LETTER_WIDTH_MM - width_mm
    head = max(
        BACK_HEAD_MM,
        7.0 + wrapped_lines(leader, NAME_FACE, name_pt, BACK_NAME_MM - lost) * name_line,
    )
    gaps = (len(minions) + blanks + 2) * ROOMY.gap
    fixed = head + BACK_NOTES_MM + FOOT_MM + blanks * BLANK_FRAME_MM + gaps + SAFETY_MM
    for compact in (False, True):
        for limit in MINION_NOTE_LIMITS:
            frames = sum(frame_height(m, compact, limit, width_mm) for m in minions)
            if fixed + frames <= height_mm:
                return compact, limit
    return True, MINION_NOTE_LIMITS[-1]


def back(
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
    compact, note_limit = back_fit(block.name, minions, blanks, *size_mm)
    spent = sum(m.count * panels.character_stats(m).cp for m in minions)
    over = spent > command or count > MAX_MINIONS
    breakdown = " + ".join(cp_amount(panels.character_stats(m).cp, m.count) for m in minions)
    origins = Origins(block, computed)
    # The budget lines in parts, so the preview can link the command level and the sum.
    command_lead, command_rest = panels.parts(
        ngettext(
            "command %(level)s: up to %(num)s minion, %(cp)s CP",
            "command %(level)s: up to %(num)s minions, %(cp)s CP",
            MAX_MINIONS,
        ),
        "level",
        num=str(MAX_MINIONS),
        cp=str(command),
    )
    spent_lead, spent_rest = panels.parts(
        _("%(spent)s of %(command)s CP spent"), "spent", command=str(command)
    )
    return {
        "leader": block.name,
        "leader_size": name_size(block.name),
        "command": str(command),
        "command_lead": command_lead,
        "command_rest": command_rest,
        "command_source": origins.ability("command", command),
        "spent_cp": str(spent),
        "spent_lead": spent_lead,
        "spent_rest": spent_rest,
        "spent_source": origins.minion_cp(spent, breakdown, command),
        "count": ngettext(
            "%(count)s of %(num)s minion", "%(count)s of %(num)s minions", MAX_MINIONS
        )
        % {"count": count, "num": MAX_MINIONS},
        "breakdown": breakdown,
        "over": over,
        "left": "" if over else _("%(cp)s CP left") % {"cp": command - spent},
        "compact": compact,
        "frames": [
            minion_frame(m, note_limit, panels.see_page(more_page), Origins(m, computed))
            for m in minions
        ],
        # A minion may have at most the whole command in toughness, so that many HP boxes.
        "blanks": [
            {"boxes": list(range(command)), "index": str(count + i + 1)} for i in range(blanks)
        ],
        "blank_lines": list(range(BLANK_ABILITY_LINES)),
        "blank_defenses": [
            {"label": d["label"], "frame": d["frame"]} for d in panels.defenses(stats)
        ],
        "stamina_label": capital(terms.derived("stamina")),
        "hp_label": capital(terms.derived("hit_points")),
        "reminders": [_(reminder) for reminder in REMINDERS],
    }


def minion_frame(
    block: Block, note_limit: int | None, more: str = "", origins: Origins | None = None
) -> dict[str, Any]:
    """A minion on the back; ``more`` follows whatever the back had to shorten;
    ``origins`` says where its numbers come from, for the preview."""
    stats = panels.character_stats(block)
    origins = origins or Origins(block)
    boxes = panels.boxes(stats.hit_points, stats.stamina)
    numbers = [
        *panels.defenses(stats, origins),
        {
            "label": capital(terms.derived("stamina")),
            "frame": "Stamina",
            "value": str(stats.stamina),
            "caption": "",
            "source": origins.stat("stamina"),
        },
        {
            "label": capital(terms.derived("hit_points")),
            "frame": "Hit points",
            "value": str(stats.hit_points),
            "caption": "",
            "source": origins.stat("hit_points"),
        },
    ]
    order = list(CHARACTER_CATEGORIES)
    abilities = sorted(stats.abilities, key=lambda a: order.index(category_of(a.name)))
    description = cut(block.description, description_limit(note_limit))
    rows = [ability_row(a, note_limit, None, more, origins.ability(a)) for a in abilities]
    description_more = more if description != whole(block.description) else ""
    each = _("%(cp)s CP each") if block.count > 1 else _("%(cp)s CP")
    cp_lead, cp_rest = panels.parts(each, "cp")
    return {
        "name": block.name,
        "count": f"× {block.count}" if block.count > 1 else "",
        "description": description,
        "description_more": description_more,
        # Something here is printed whole on the continuation page only.
        "cut": bool(description_more) or any(row["cut"] for row in rows),
        "name_size": name_size(block.name),
        "numbers": numbers,
        # "3 CP each" in parts, so the preview can link the number alone.
        "cp_value": str(stats.cp),
        "cp_lead": cp_lead,
        "cp_rest": cp_rest,
        "cp_source": origins.cp(stats),
        # One track per individual: two thugs are hurt separately.
        "tracks": [
            {"label": f"{block.name} {i + 1}" if block.count > 1 else "", "boxes": boxes}
            for i in range(block.count)
        ],
        "bands": panels.bands(stats, origins),
        # Minions have no maximum level of their own (RULES.md §7).
        "abilities": rows,
        "actions": [action_row(a, origins.action(a)) for a in stats.actions if a.bonus is not None],
        "warnings": [terms.caution(c.key, c.values) for c in block.cautions],
    }
