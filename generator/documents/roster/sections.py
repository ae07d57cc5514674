"""Which NPCs a roster shows, in which groups: a section per initiative group (or per
titled part, such as an event's opponents) as a heading and the blocks under it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ...definitions.campaign import listed_as_npc
from ...statblocks import Block, Computed, InitiativeGroup
from ...typesetting import measure
from ...typesetting.fonts import FACES
from ...wording import _
from ..common import signed
from ..initiative.wording import group_terms
from ..sources import Origins
from .blocks import Item, npc_item
from .geometry import (
    BONUS_W,
    HEAD_H,
    HEAD_PAD,
    HEAD_PT,
    LINE,
    NOTE_GAP,
    NOTE_INSET,
    SLACK,
    TITLE_H,
    Geometry,
)
from .measuring import Run, count_lines


def is_npc(block: Block) -> bool:
    """A character the GM runs (no player), or anyone written under ``npcs:``."""
    return block.kind == "character" and (
        listed_as_npc(block.source) or not str(getattr(block.definition, "player", "")).strip()
    )


@dataclass(frozen=True)
class Section:
    """One initiative group's NPCs (or those in no group) and what its heading says."""

    name: str
    bonus: str
    how: str
    members: tuple[Block, ...]
    grouped: bool
    bonus_source: str = ""  # where the group's bonus comes from, for the preview


def sections(computed: Computed) -> list[Section]:
    """NPCs by initiative group, groups in the order the campaign first names them, NPCs
    in file order; NPCs without a group last, each rolling alone."""
    groups: dict[str, InitiativeGroup] = {g.name: g for g in computed.groups}
    individual = computed.rules.individual_initiative
    by_group: dict[str, list[Block]] = {}
    loose: list[Block] = []
    for block in computed.of_kind("character"):
        if not is_npc(block):
            continue
        if block.group and block.group in groups:
            by_group.setdefault(block.group, []).append(block)
        else:
            loose.append(block)
    out: list[Section] = []
    for name, members in by_group.items():
        group = groups[name]
        if individual:
            bonus, how = "", _("each rolls alone")
        else:
            bonus = signed(group.bonus)
            how = " + ".join(group_terms(group))
        source = ""
        if bonus:
            found = [Origins(b, computed) for b in group.members]
            deciding = [o for o in found if o.deciding(group.rule) is not None] or found
            source = deciding[0].traced("initiative_bonus", group.rule, "group")
        out.append(Section(name, bonus, how, tuple(members), True, source))
    if loose:
        loose_name, how = _("No initiative group"), _("each rolls alone")
        out.append(Section(loose_name, "", how, tuple(loose), False))
    return out


def heading_fits(name: str, g: Geometry) -> bool:
    """Whether a section's name sets at full size beside the group initiative; a longer one
    (an event's title such as "Whispers About the Newcomers") is set smaller rather than cut."""
    room = g.column_w - BONUS_W - 2 * HEAD_PAD
    return measure.text_width_mm(name, FACES["display"], HEAD_PT, 0.03) <= room


def note_runs(text: str) -> list[Run]:
    """A heading's line of text (an encounter's), set in italic under the band."""
    return [(text, "italic")]


Stake = tuple[str, str]  # (label, text): "They want", "the copper in the boiler house"


def stake_runs(stake: Stake) -> list[Run]:
    """One paragraph of an encounter's stakes: its label in bold, then its text."""
    label, text = stake
    return [(label + " ", "bold"), (text, "regular")]


def section_items(
    section: Section,
    computed: Computed,
    g: Geometry,
    key: str = "",
    note: str = "",
    stakes: Sequence[Stake] = (),
) -> list[Item]:
    """A section's heading, then its NPCs with their minions. ``key`` tells sections of the
    same name apart (two printables may reuse one); ``note`` is a line under the heading,
    ``stakes`` the paragraphs under it (an encounter's: what the opponents want...), each
    a label in bold and its text."""
    key = key or section.name
    full = dataclasses.replace(g, column_w=g.content_w)
    minions: dict[str, list[Block]] = {}
    for block in computed.of_kind("minion"):
        if block.leader is not None:
            minions.setdefault(block.leader, []).append(block)
    show_init = computed.rules.individual_initiative or not section.grouped
    note_w = g.column_w - 2 * NOTE_INSET
    head_h = HEAD_H + (count_lines(note_runs(note), note_w) * LINE + NOTE_GAP if note else 0)
    view = {
        "name": section.name,
        "bonus": section.bonus,
        "bonus_source": section.bonus_source,
        "how": section.how,
        "cont": False,
        "note": note,
        "small": not heading_fits(section.name, g),
    }
    items = [Item("group", head_h, view, key)]
    # The stakes, a paragraph an item, so they flow on into the next column as blocks do
    # (under a "cont." heading) rather than leaving a column half empty; the last keeps
    # the gap above the first block.
    for number, (label, text) in enumerate(stakes):
        height = count_lines(stake_runs((label, text)), note_w) * LINE
        last = number == len(stakes) - 1
        items.append(
            Item(
                "stake",
                height + (NOTE_GAP if last else 0),
                {"label": label, "text": text, "last": last},
                key,
            )
        )
    for block in section.members:
        item = npc_item(block, minions.get(block.name, []), g, show_init, key, computed)
        if item.height > g.content_h - SLACK - TITLE_H - head_h:
            # Taller than any column: it will run full width and break across pages.
            wide = npc_item(block, minions.get(block.name, []), full, show_init, key, computed)
            item = Item("big", wide.height, wide.view, key)
        items.append(item)
    return items


def roster_items(computed: Computed, g: Geometry) -> list[Item]:
    return [item for section in sections(computed) for item in section_items(section, computed, g)]


@dataclass(frozen=True)
class Titled:
    """NPCs computed elsewhere under a heading of their own and a line of text, such as an
    event's opponents under its title and its encounter."""

    key: str
    title: str
    note: str
    computed: Computed
    stakes: tuple[Stake, ...] = ()


def titled_items(parts: Sequence[Titled], g: Geometry) -> list[Item]:
    items: list[Item] = []
    for part in parts:
        for section in sections(part.computed):
            named = dataclasses.replace(section, name=part.title)
            key = f"{part.key}/{section.name}"
            items += section_items(named, part.computed, g, key, part.note, part.stakes)
    return items
