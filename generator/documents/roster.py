"""The NPC roster: every non-player character as a compact stat block, two columns a page.

One block per NPC in the books' own format, ``Name (13 agility, 10 intelligence, 12
strength, 1 stamina): description`` then ``2 wrestling: note`` lines and the attacks it rolls
(the sheet's computed bonuses and damage), with an HP track and a tick box for each
unrepeatable action; minions sit under their leader. Blocks are grouped by
initiative group under a heading that carries the group's initiative bonus.

Pagination is done here, not by the renderer: every block's height is computed from the
bundled fonts' own advance widths and fixed line heights (the same millimetres the CSS
uses, passed to it as strings), then blocks are poured into two fixed-width columns. So:

* a block is never split across a column or a page, and a group heading never ends a column;
* the page count and every page's number are known before WeasyPrint runs, which is what
  lets a 1,000-NPC roster be rendered in chunks (:func:`roster_chunks`): each chunk is a
  Document of whole pages whose page counter starts at the right number
  (``@page :first { counter-reset: page N }``), with "of TOTAL" known too, so the merged
  PDF needs no stamping afterwards;
* two float columns filled in Python cost less to lay out than CSS ``columns``.

Estimates err on the tall side (a slightly narrower measure than the CSS gives, no break
after hyphens), so a column may end a little early but never overflows.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..definitions.campaign import Campaign, listed_as_npc
from ..render.jobs import Placement
from ..rules.abilities import display
from ..rules.actions import Action
from ..rules.character import CharacterStats
from ..statblocks import Block, Computed, InitiativeGroup
from ..typesetting import measure
from ..typesetting.fonts import FACES
from ..typesetting.units import mm
from .base import PAPER_MM, BuildOptions, Document, Imposed, page_context
from .common import hp_track, signed

KIND = "roster"
TEMPLATE = "roster/roster.html"

# Page geometry (mm). The running header and footer live in the page margins.
MARGIN_TOP = 15.0
MARGIN_BOTTOM = 13.0
MARGIN_SIDE = 11.0
COLUMN_GAP = 6.0
SLACK = 1.0  # left unused at the foot of every column, against rounding in the renderer

# Type and rhythm (mm). Every line of a block is LINE tall: one face (Charis SIL) in one
# size, so bold and italic runs never make a line taller than its neighbours.
TEXT_PT = 9.0
LINE = 3.8
MEASURE_SLACK = 0.985  # measure lines a little short: an estimate must never be too low
HANG = 4.4  # ability lines: the level sits in this hanging indent
BLOCK_PAD_TOP = 1.5
BLOCK_PAD_BOTTOM = 1.7
RULE = 0.25  # the hairline under each block (0.7 pt)
BOX = 4.2  # HP and tick boxes: pencil-sized
BOX_GAP = 0.8
PITCH = BOX + BOX_GAP
TRACK = 5.4  # one row of boxes, with its top margin
HP_LABEL = 6.0
TICK_W = 4.8
INIT_W = 15.0
MINION_INDENT = 3.6
MINION_GAP = 1.2  # above each minion group
INSTANCE_GAP = 3.0  # between the tracks of two identical minions on one row
INSTANCE_LABEL = 4.0
HEAD_H = 8.6  # group heading: band plus the space under it
CONT_H = 6.6  # "cont." heading at the top of a later column
TITLE_H = 17.0  # page 1: the roster's title block
NOTE_GAP = 1.6  # under a heading's line of text (an encounter's), above its first block
NOTE_INSET = 1.8  # that text lines up with the heading's name, inside the band's padding
BONUS_W = 34.0  # room the heading keeps at its right for "GROUP INITIATIVE +38"
HEAD_PAD = 1.8  # the heading band's padding at each side
HEAD_PT, HEAD_SMALL_PT = 14.0, 12.0  # a heading name too long at 14 pt sets at 12 pt

FONTS = {"regular": FACES["serif"], "bold": FACES["serif-bold"], "italic": FACES["serif-italic"]}


# ------------------------------------------------------------------------------------------
# Measuring text (pure; the fonts are the bundled ones WeasyPrint uses)


@lru_cache(maxsize=65536)
def text_mm(text: str, style: str, size_pt: float = TEXT_PT) -> float:
    """How wide ``text`` sets, from the font's advance widths (kerned when PIL has raqm)."""
    return measure.text_width_mm(text, FONTS[style], size_pt)


Run = tuple[str, str]  # (text, style)


def _words(runs: Sequence[Run]) -> list[tuple[float, float]]:
    """(width of the word, width of the space after it) for each space-separated word; a
    word may span runs ("(13" is regular then bold)."""
    words: list[tuple[float, float]] = []
    width = 0.0
    started = False
    for text, style in runs:
        parts = text.split(" ")
        for index, part in enumerate(parts):
            if index > 0:  # a space ends the word before it
                if started:
                    words.append((width, text_mm(" ", style)))
                width, started = 0.0, False
            if part:
                width += text_mm(part, style)
                started = True
    if started:
        words.append((width, 0.0))
    return words


def count_lines(runs: Sequence[Run], width_mm: float) -> int:
    """Lines the text takes at ``width_mm`` when broken greedily at spaces, as browsers do.
    A word wider than the line (overflow-wrap: anywhere) takes as many lines as it needs."""
    room = width_mm * MEASURE_SLACK
    lines, used = 0, 0.0
    pending_space = 0.0
    for word, space in _words(runs):
        if lines and used + pending_space + word <= room:
            used += pending_space + word
        else:
            lines += max(1, math.ceil(word / room))
            used = word - (math.ceil(word / room) - 1) * room if word > room else word
        pending_space = space
    return max(1, lines)


# ------------------------------------------------------------------------------------------
# Geometry for a paper size


@dataclass(frozen=True)
class Geometry:
    paper: str
    page_w: float
    page_h: float
    content_w: float
    content_h: float
    column_w: float
    hang: float = 0.0  # the ability lines' hanging indent: room for the widest level

    @property
    def ability_w(self) -> float:
        return self.column_w - self.hang

    @property
    def minion_w(self) -> float:
        return self.column_w - MINION_INDENT


LEVEL_PAD = 1.2  # between a level and its ability name, beside the space


def hang_for(widest_level: int) -> float:
    """A hanging indent that holds the widest level ("4", or "40" in a super-powered game)."""
    digits = text_mm(str(widest_level), "bold") + LEVEL_PAD + text_mm(" ", "regular") + 0.3
    return max(HANG, round(digits, 2))


def geometry(paper: str, widest_level: int = 9) -> Geometry:
    page_w, page_h = PAPER_MM[paper]
    content_w = page_w - 2 * MARGIN_SIDE
    content_h = page_h - MARGIN_TOP - MARGIN_BOTTOM
    return Geometry(
        paper,
        page_w,
        page_h,
        content_w,
        content_h,
        (content_w - COLUMN_GAP) / 2,
        hang_for(widest_level),
    )


def css_metrics(g: Geometry) -> dict[str, str]:
    """The numbers the template's CSS uses: the same ones the heights below assume."""
    values = {
        "margin_top": MARGIN_TOP,
        "margin_bottom": MARGIN_BOTTOM,
        "margin_side": MARGIN_SIDE,
        "column_w": g.column_w,
        "column_gap": COLUMN_GAP,
        "line": LINE,
        "hang": g.hang,
        "level_pad": LEVEL_PAD,
        "pad_top": BLOCK_PAD_TOP,
        "pad_bottom": BLOCK_PAD_BOTTOM,
        "box": BOX,
        "box_gap": BOX_GAP,
        "track": TRACK,
        "hp_label": HP_LABEL,
        "tick_w": TICK_W,
        "init_w": INIT_W,
        "minion_indent": MINION_INDENT,
        "minion_gap": MINION_GAP,
        "instance_gap": INSTANCE_GAP,
        "instance_label": INSTANCE_LABEL,
        "head_h": HEAD_H,
        "cont_h": CONT_H,
        "title_h": TITLE_H,
        "bonus_w": BONUS_W,
        "note_gap": NOTE_GAP,
        "note_inset": NOTE_INSET,
        "head_pad": HEAD_PAD,
    }
    out = {name: mm(value) for name, value in values.items()}
    out["text_pt"] = f"{TEXT_PT}pt"
    out["head_pt"], out["head_small_pt"] = f"{HEAD_PT:g}pt", f"{HEAD_SMALL_PT:g}pt"
    # The level's box fills the hanging indent less the space after it, so the text after
    # "2 " starts where continuation lines do.
    out["level_w"] = mm(g.hang - text_mm(" ", "regular"))
    out["rule"] = "0.7pt"  # = RULE mm
    return out


# ------------------------------------------------------------------------------------------
# The view model of one block


def _stats(block: Block) -> CharacterStats:
    assert isinstance(block.stats, CharacterStats)
    return block.stats


def header_values(stats: CharacterStats) -> list[dict[str, str]]:
    """The parenthesis of the books' header, in their order: agility, intelligence, strength,
    stamina; or the older defense, stamina."""
    named: list[tuple[str, int | None]] = [
        ("agility", stats.agility),
        ("intelligence", stats.intelligence),
        ("strength", stats.strength),
    ]
    if stats.defense is not None:
        named = [("defense", stats.defense)]
    named.append(("stamina", stats.stamina))
    return [{"value": str(v), "label": label} for label, v in named if v is not None]


def header_runs(name: str, count: str, values: list[dict[str, str]], description: str) -> list[Run]:
    runs: list[Run] = [(name, "bold")]
    if count:
        runs.append((f" {count}", "bold"))
    runs.append((" (", "regular"))
    for index, item in enumerate(values):
        runs.append((item["value"], "bold"))
        runs.append((f" {item['label']}" + (", " if index < len(values) - 1 else ""), "regular"))
    runs.append((")" + (": " if description else ""), "regular"))
    if description:
        runs.append((description, "regular"))
    return runs


def ability_rows(stats: CharacterStats, width: float) -> tuple[list[dict[str, str]], int]:
    """``2 wrestling: note`` lines in the author's order, and how many lines they take."""
    rows, lines = [], 0
    for ability in stats.abilities:
        name = display(ability.name)
        runs: list[Run] = [(name + (":" if ability.note else ""), "regular")]
        if ability.note:
            runs.append((" " + ability.note, "italic"))
        lines += count_lines(runs, width)
        rows.append({"level": str(ability.level), "name": name, "note": ability.note})
    return rows, lines


# Targets too long for a run-in line, said shorter (the sheet spells them out).
SHORT_TARGETS = {
    "intelligence or strength, whichever is higher": "intelligence or strength (higher)",
    "intelligence (only if its strength is not above yours)": "intelligence (if not stronger)",
}
ATTACKS_LABEL = "Attacks: "


def _damage(figure: str, word: str) -> str:
    """A damage figure with its words after the number and before any note: ``4 (2
    injured)`` reads "4 damage (2 injured)", ``1 each`` "1 damage each" and, on a 20,
    "2 each on a 20"."""
    main, _, rest = figure.partition(" (")
    number, each, _ = main.partition(" each")
    words = [number, word, "each"] if word == "damage" else [number, "each", word]
    return " ".join(w for w in words if w != "each" or each) + (f" ({rest}" if rest else "")


def _attack_text(action: Action) -> str:
    """Everything after the attack's name: ``+1 vs agility, long, 2 damage, 5 on a 20``."""
    target = SHORT_TARGETS.get(action.target, action.target)
    text = f"{signed(action.bonus or 0)} vs {target}, {action.range}"
    if action.damage:
        text += ", " + _damage(action.damage, "damage")
        if action.auto_damage:
            text += ", " + _damage(action.auto_damage, "on a 20")
    return text


def attack_rows(stats: CharacterStats) -> list[dict[str, str]]:
    """The attacks the sheet computes, those this NPC rolls with an ability, in the sheet's
    order; an NPC without one shows its basic attack, so every block says how it fights.
    The bare-d20 attacks everyone has (hold, throw, distract) would only repeat."""
    attacks = [a for a in stats.actions if a.attack and a.bonus is not None]
    chosen = [a for a in attacks if a.roll] or attacks[:1]
    return [{"name": a.name, "text": _attack_text(a)} for a in chosen]


def attack_runs(attacks: Sequence[dict[str, str]]) -> list[Run]:
    """The attacks line as it sets: the label, each name in bold, then its roll."""
    runs: list[Run] = [(ATTACKS_LABEL, "italic")] if attacks else []
    for index, attack in enumerate(attacks):
        runs.append((attack["name"], "bold"))
        runs.append((" " + attack["text"] + ("; " if index < len(attacks) - 1 else ""), "regular"))
    return runs


def tick_boxes(stats: CharacterStats) -> list[dict[str, str]]:
    """One box per unrepeatable action (distract, surprise, intimidate), lettered."""
    ticks: list[dict[str, str]] = []
    for action in stats.actions:
        if action.unrepeatable and all(t["title"] != action.name.lower() for t in ticks):
            ticks.append({"letter": action.name[0].upper(), "title": action.name.lower()})
    return ticks


def hp_boxes(stats: CharacterStats) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = [
        {"label": str(b["hp"]), "injured": b["injured"], "zero": False}
        for b in hp_track(stats.hit_points, stats.stamina)
    ]
    boxes.append({"label": "0", "injured": False, "zero": True})
    return boxes


def _rows_of(boxes: list[dict[str, Any]], per_row: int) -> list[list[dict[str, Any]]]:
    per_row = max(1, per_row)
    return [boxes[i : i + per_row] for i in range(0, len(boxes), per_row)] or [[]]


def tail_gap(width: float, boxes: int, tail: float) -> str:
    """The space between a track's first row of boxes and the tick boxes (and initiative)
    that end it at the column's right edge. They follow the boxes in the line rather than
    float right: a float stays in the column's list of floats to its foot, and WeasyPrint
    then measures every later line's min-content width and checks it against each float."""
    return mm(width - HP_LABEL - boxes * PITCH - tail)


@dataclass(frozen=True)
class Item:
    """A heading or a block in a column, with the height it takes (mm)."""

    kind: str  # "group" or "npc"
    height: float
    view: dict[str, Any]
    group: str = ""


def minion_view(block: Block, g: Geometry) -> tuple[dict[str, Any], float]:
    stats = _stats(block)
    values = header_values(stats)
    count = f"×{block.count}" if block.count > 1 else ""
    lines = count_lines(header_runs(block.name, count, values, block.description), g.minion_w)
    abilities, ability_lines = ability_rows(stats, g.minion_w - g.hang)
    attacks = attack_rows(stats)
    ability_lines += count_lines(attack_runs(attacks), g.minion_w) if attacks else 0
    ticks = tick_boxes(stats)
    boxes = hp_boxes(stats)
    ticks_w = len(ticks) * TICK_W
    instances: list[dict[str, Any]]
    if block.count == 1:
        per_row = math.floor((g.minion_w - HP_LABEL - ticks_w - 1.0) / PITCH)
        box_rows = _rows_of(boxes, per_row)
        gap = tail_gap(g.minion_w, len(box_rows[0]), ticks_w)
        instances = [
            {"label": "HP", "numbered": False, "rows": box_rows, "ticks": ticks, "gap": gap}
        ]
        rows = [instances]
        track_rows = len(box_rows)
    else:
        # Each of a group of identical minions gets its own numbered track; tracks share
        # a row while they fit, and a track too long for one row wraps on its own rows.
        one_w = INSTANCE_LABEL + len(boxes) * PITCH + ticks_w
        per_row = max(1, math.floor((g.minion_w + INSTANCE_GAP) / (one_w + INSTANCE_GAP)))
        box_rows = [boxes]
        if one_w > g.minion_w:
            per_row = 1
            box_rows = _rows_of(
                boxes, math.floor((g.minion_w - INSTANCE_LABEL - ticks_w - 1.0) / PITCH)
            )
        instances = [
            {"label": f"#{i}", "numbered": True, "rows": box_rows, "ticks": ticks}
            for i in range(1, block.count + 1)
        ]
        rows = [instances[i : i + per_row] for i in range(0, len(instances), per_row)]
        track_rows = len(rows) * len(box_rows)
    height = MINION_GAP + (lines + ability_lines) * LINE + track_rows * TRACK
    view = {
        "name": block.name,
        "count": count,
        "stats": values,
        "description": block.description,
        "abilities": abilities,
        "attacks": attacks,
        "track_rows": rows,
    }
    return view, height


def npc_item(
    block: Block, minions: Sequence[Block], g: Geometry, show_init: bool, group: str
) -> Item:
    stats = _stats(block)
    values = header_values(stats)
    lines = count_lines(header_runs(block.name, "", values, block.description), g.column_w)
    abilities, ability_lines = ability_rows(stats, g.ability_w)
    attacks = attack_rows(stats)
    ability_lines += count_lines(attack_runs(attacks), g.column_w) if attacks else 0
    ticks = tick_boxes(stats)
    init = signed(stats.initiative_bonus) if show_init else ""
    room = g.column_w - HP_LABEL - len(ticks) * TICK_W - (INIT_W if init else 0.0) - 1.0
    box_rows = _rows_of(hp_boxes(stats), math.floor(room / PITCH))
    tail = len(ticks) * TICK_W + (INIT_W if init else 0.0)
    height = (
        BLOCK_PAD_TOP
        + (lines + ability_lines) * LINE
        + len(box_rows) * TRACK
        + BLOCK_PAD_BOTTOM
        + RULE
    )
    minion_views = []
    for minion in minions:
        view, extra = minion_view(minion, g)
        minion_views.append(view)
        height += extra
    return Item(
        "npc",
        height,
        {
            "name": block.name,
            "stats": values,
            "description": block.description,
            "abilities": abilities,
            "attacks": attacks,
            "hp_rows": box_rows,
            "ticks": ticks,
            "init": init,
            "gap": tail_gap(g.column_w, len(box_rows[0]), tail),
            "minions": minion_views,
            "height": mm(height),
        },
        group,
    )


# ------------------------------------------------------------------------------------------
# Which NPCs, in which groups


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
            bonus, how = "", "each rolls alone"
        else:
            bonus = signed(group.bonus)
            how = group.rule.split(" = ", 1)[-1].replace(" x ", " × ")
        out.append(Section(name, bonus, how, tuple(members), True))
    if loose:
        out.append(Section("No initiative group", "", "each rolls alone", tuple(loose), False))
    return out


def heading_fits(name: str, g: Geometry) -> bool:
    """Whether a section's name sets at full size beside the group initiative; a longer one
    (an event's title such as "Whispers About the Newcomers") is set smaller rather than cut."""
    room = g.column_w - BONUS_W - 2 * HEAD_PAD
    return measure.text_width_mm(name, FACES["display"], HEAD_PT, 0.03) <= room


def note_runs(text: str) -> list[Run]:
    """A heading's line of text (an encounter's), set in italic under the band."""
    return [(text, "italic")]


def section_items(
    section: Section, computed: Computed, g: Geometry, key: str = "", note: str = ""
) -> list[Item]:
    """A section's heading, then its NPCs with their minions. ``key`` tells sections of the
    same name apart (two printables may reuse one); ``note`` is a line under the heading."""
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
        "how": section.how,
        "cont": False,
        "note": note,
        "small": not heading_fits(section.name, g),
    }
    items = [Item("group", head_h, view, key)]
    for block in section.members:
        item = npc_item(block, minions.get(block.name, []), g, show_init, key)
        if item.height > g.content_h - SLACK - TITLE_H - head_h:
            # Taller than any column: it will run full width and break across pages.
            wide = npc_item(block, minions.get(block.name, []), full, show_init, key)
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


def titled_items(parts: Sequence[Titled], g: Geometry) -> list[Item]:
    items: list[Item] = []
    for part in parts:
        for section in sections(part.computed):
            named = dataclasses.replace(section, name=part.title)
            key = f"{part.key}/{section.name}"
            items += section_items(named, part.computed, g, key, part.note)
    return items


# ------------------------------------------------------------------------------------------
# Pouring items into columns and pages


@dataclass
class Page:
    """One page of two columns, or (``span`` > 1 or ``big``) the pages one oversized block
    takes when it runs full width and is allowed to break."""

    number: int
    columns: list[list[Item]]
    title: bool = False
    big: bool = False
    span: int = 1

    @property
    def npcs(self) -> int:
        return sum(1 for column in self.columns for item in column if item.kind in NPC_KINDS)


NPC_KINDS = ("npc", "big")


def paginate(items: Sequence[Item], g: Geometry, title: bool = True) -> list[Page]:
    """Fill the left column, then the right, then a new page. A heading moves on with the
    block under it; a column that opens inside a group repeats its heading ("cont.").

    A block taller than a column ("big") gets pages of its own, full width, and may break
    across them; how many is estimated from its full-width height. Only such a block can
    make the page count differ from the plan."""
    pages: list[Page] = []
    heads: dict[str, Item] = {i.group: i for i in items if i.kind == "group"}
    column: list[Item] = []
    room = 0.0
    fresh_page = True  # the next column starts a new page

    def next_number() -> int:
        return pages[-1].number + pages[-1].span if pages else 1

    def open_column() -> None:
        nonlocal column, room, fresh_page
        if fresh_page or len(pages[-1].columns) == 2:
            pages.append(Page(next_number(), [[]], title=title and not pages))
            fresh_page = False
        else:
            pages[-1].columns.append([])
        column = pages[-1].columns[-1]
        room = g.content_h - SLACK - (TITLE_H if pages[-1].title else 0.0)

    def cont(group: str) -> Item:
        head = heads[group]
        return Item("cont", CONT_H, {**head.view, "cont": True}, group)

    index = 0
    while index < len(items):
        item = items[index]
        following = items[index + 1] if index + 1 < len(items) else None
        if item.kind == "big" or (item.kind == "group" and following and following.kind == "big"):
            big = following if item.kind == "group" else item
            assert big is not None
            head = item if item.kind == "group" else cont(big.group)
            usable = g.content_h - SLACK - (TITLE_H if not pages and title else 0.0)
            span = max(1, math.ceil((head.height + big.height) / usable))
            pages.append(
                Page(next_number(), [[head, big]], title=title and not pages, big=True, span=span)
            )
            fresh_page = True
            column, room = [], 0.0
            index += 2 if item.kind == "group" else 1
            continue
        need = item.height
        if item.kind == "group" and following is not None:
            need += following.height  # never a heading alone at a column's foot
        if not pages or fresh_page or (column and need > room):
            open_column()
            if item.kind == "npc" and item.group in heads:
                column.append(cont(item.group))
                room -= CONT_H
        column.append(item)
        room -= item.height
        index += 1
    return pages


def _view(page: Page) -> dict[str, Any]:
    return {
        "number": page.number,
        "title": page.title,
        "big": page.big,
        "columns": [
            [{"kind": item.kind, **item.view} for item in column] for column in page.columns
        ],
    }


# ------------------------------------------------------------------------------------------
# Documents


def css_string(text: str) -> str:
    """Text for a CSS string literal in the template: letters, digits and spaces as they
    are, everything else as a CSS escape, so no campaign text can end the string (and
    HTML autoescaping has nothing to change)."""
    return "".join(
        c if c.isascii() and (c.isalnum() or c == " ") else f"\\{ord(c):06x}" for c in text
    )


def campaign_title(campaign: Campaign) -> str:
    """The ``title`` of scratchpress.toml, else the campaign folder's name made readable:
    ``lantern-weir`` reads "Lantern Weir"."""
    if campaign.settings.title:
        return campaign.settings.title
    if campaign.root is None:
        return ""
    name = campaign.root.resolve().name.replace("_", " ").replace("-", " ").strip()
    return name.title() if name.islower() else name


@dataclass(frozen=True)
class Roster:
    geometry: Geometry
    pages: list[Page]
    npcs: int
    groups: int


def _widest(computed: Sequence[Computed]) -> int:
    return max(
        (
            a.level
            for c in computed
            for b in c.blocks
            if b.kind in ("character", "minion") and isinstance(b.stats, CharacterStats)
            for a in b.stats.abilities
        ),
        default=1,
    )


def plan_roster(computed: Computed, options: BuildOptions) -> Roster:
    g = geometry(options.paper, _widest([computed]))
    return _planned(roster_items(computed, g), g)


def plan_titled(parts: Sequence[Titled], options: BuildOptions) -> Roster:
    """A roster of ready-made sections, in their order (see :class:`Titled`)."""
    g = geometry(options.paper, _widest([p.computed for p in parts]))
    return _planned(titled_items(parts, g), g)


def _planned(items: Sequence[Item], g: Geometry) -> Roster:
    pages = paginate(items, g) if items else []
    npcs = sum(1 for i in items if i.kind in NPC_KINDS)
    groups = sum(1 for i in items if i.kind == "group")
    return Roster(g, pages, npcs, groups)


def roster_context(
    roster: Roster,
    pages: Sequence[Page],
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    label: str = "NPC roster",
    summary: str = "",
) -> dict[str, Any]:
    """The template's context; ``label`` names the printable in the running header and
    the title block ("NPC roster", "Encounters"), ``summary`` the line under the title."""
    title = campaign_title(campaign)
    running = label + (f" · {title}" if title else "")
    summary = summary or (
        f"{roster.npcs} NPC{'s' if roster.npcs != 1 else ''} in"
        f" {roster.groups} section{'s' if roster.groups != 1 else ''}"
        f" · {computed.rules.name} rules"
    )
    return {
        "title": running,
        "page": page_context(options),
        "m": css_metrics(roster.geometry),
        "running_css": css_string(running),
        "label": label,
        "doc_heading": title or label,
        "has_title": bool(pages) and pages[0].title,
        "summary": summary,
        "psychic_limit": computed.rules.psychic_limit,
        "first_page": pages[0].number if pages else 1,
        "total_pages": sum(p.span for p in roster.pages),
        "pages": [_view(p) for p in pages],
    }


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """``roster.pdf``: every NPC of the campaign; none when the campaign has no NPCs."""
    roster = plan_roster(computed, options)
    if not roster.npcs:
        return []
    context = roster_context(roster, roster.pages, computed, campaign, options)
    return [Document(KIND, "NPC roster", "roster", TEMPLATE, context)]


__all__ = [
    "Titled",
    "count_lines",
    "css_string",
    "documents",
    "paged_document",
    "paginate",
    "plan_roster",
    "plan_titled",
    "roster_context",
    "sections",
]


# Pages per rendered batch: up to about 130 NPC blocks (16 to a page of short blocks), so
# a worker stays near 150 MB (WeasyPrint takes about 0.5 MB a block). Pages are cached one
# by one, so changing one NPC re-renders its page only.
PAGES_PER_BATCH = 8


def build_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> list[Document]:
    """What `scratchpress build` renders: the roster as pages rendered and cached one by
    one (in batches of consecutive pages when many are missing), put together by pikepdf.
    ``context`` stays the whole roster as one document, the reference for tests."""
    roster = plan_roster(computed, options)
    if not roster.npcs:
        return []
    return [paged_document(KIND, "NPC roster", "roster", roster, computed, campaign, options)]


def paged_document(
    kind: str,
    title: str,
    stem: str,
    roster: Roster,
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    **context: str,
) -> Document:
    """A roster-layout document whose pages render in batches (on every core, each page
    cached) and are put together by pikepdf; ``context`` goes to :func:`roster_context`."""
    whole = roster_context(roster, roster.pages, computed, campaign, options, **context)
    shell = roster_context(roster, [], computed, campaign, options, **context)
    units = [("page", _view(page)) for page in roster.pages]
    imposed = Imposed(
        contexts={"page": shell},
        units=units,
        sheets=[[Placement(index, all_pages=True)] for index in range(len(units))],
        paper_mm=PAPER_MM[options.paper],
        spans=[page.span for page in roster.pages],
        batch_context=_numbered_from,
        max_batch=PAGES_PER_BATCH,
    )
    return Document(kind, title, stem, TEMPLATE, whole, imposed=imposed)


def _numbered_from(pages: list[dict[str, Any]]) -> dict[str, Any]:
    """A batch of consecutive pages numbers on from its first page, and only the roster's
    first page drops the running header for the title block."""
    return {"first_page": pages[0]["number"], "has_title": bool(pages[0]["title"])}
