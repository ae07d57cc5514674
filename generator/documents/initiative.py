"""Initiative cards: one card per initiative group and one per character, laid out n-up
(a roster NPC in a group has its row on the group's card instead).

Everything a card shows is decided here, including how much fits on one card: the heights
below are the same millimetres the template's CSS uses (they are passed to it as strings),
so the overflow onto a "cont." card is computed, never left to the renderer to clip.

Layout: cards (or fold-over tents, twice as tall) sit a gutter apart in a grid centred on
the page, with room around it for cut marks inside the printable zone (``cardsheet``'s
rules: marks at least 4 mm long, nothing within ``PRINTABLE_MM`` of the paper edge); the
page turns landscape when that fits more cards (no backs to line up, so nothing is lost).
Cut marks are hairlines outside the grid at every card edge, for a ruler; light grey
guides along the card edges serve scissors.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..definitions.campaign import Campaign, gets_sheet, listed_as_npc
from ..problems import Problem
from ..render.jobs import Placement
from ..rules.actions import Action
from ..rules.character import CharacterStats
from ..statblocks import Block, Computed, InitiativeGroup
from ..typesetting import measure
from ..typesetting.fonts import FACES
from ..typesetting.units import mm
from .base import PAPER_MM, BuildOptions, Document, Imposed, page_context
from .cardsheet import (
    CARD_SAFE_MM,
    MARK_GAP_MM,
    MAX_MARK_MM,
    PRINTABLE_MM,
    Rect,
    gutters,
    most,
    widest_gutter,
)
from .cardsheet import cut_marks as trim_marks
from .common import hp_track, signed

# ------------------------------------------------------------------------------------------
# Layout math (pure, tested on its own)


@dataclass(frozen=True)
class Grid:
    """Where the cells (cards or tents) of one page go, in mm from the page's top left."""

    page_w: float
    page_h: float
    landscape: bool
    cols: int
    rows: int
    cell_w: float
    cell_h: float
    gutter: float
    left: float
    top: float

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def width(self) -> float:
        return self.cols * self.cell_w + (self.cols - 1) * self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.cell_h + (self.rows - 1) * self.gutter

    def cells(self) -> list[Rect]:
        """Row by row, left to right: the reading order of the cards."""
        return [
            Rect(
                self.left + c * (self.cell_w + self.gutter),
                self.top + r * (self.cell_h + self.gutter),
                self.cell_w,
                self.cell_h,
            )
            for r in range(self.rows)
            for c in range(self.cols)
        ]


def plan_grid(paper: str, cell_w: float, cell_h: float) -> Grid:
    """The grid that fits the most cells with their cut marks; portrait wins a tie. The
    gutter is as wide as ``cardsheet.GUTTER_MM`` where the paper has room."""
    paper_w, paper_h = PAPER_MM[paper]
    least, widest = gutters(0.0)
    best: Grid | None = None
    for landscape in (False, True):
        page_w, page_h = (paper_h, paper_w) if landscape else (paper_w, paper_h)
        cols = most(cell_w, least, page_w)
        rows = most(cell_h, least, page_h)
        if cols * rows == 0:
            continue
        gutter = min(
            widest_gutter(cols, cell_w, page_w, least, widest),
            widest_gutter(rows, cell_h, page_h, least, widest),
        )
        width = cols * cell_w + (cols - 1) * gutter
        height = rows * cell_h + (rows - 1) * gutter
        grid = Grid(
            page_w,
            page_h,
            landscape,
            cols,
            rows,
            cell_w,
            cell_h,
            gutter,
            (page_w - width) / 2,
            (page_h - height) / 2,
        )
        if best is None or grid.per_page > best.per_page:
            best = grid
    if best is None:
        raise ValueError(f"a {cell_w} x {cell_h} mm card does not fit on {paper} paper")
    return best


@dataclass(frozen=True)
class Mark:
    """A hairline: vertical ("v") or horizontal ("h"), from (x, y) for `length` mm."""

    direction: str
    x: float
    y: float
    length: float
    dashed: bool = False

    @property
    def rect(self) -> Rect:
        if self.direction == "v":
            return Rect(self.x, self.y, 0.0, self.length)
        return Rect(self.x, self.y, self.length, 0.0)


def cut_marks(grid: Grid) -> list[Mark]:
    """Lines outside the grid in line with every card edge, on all four sides."""
    cells = grid.cells()
    xs = sorted({c.x for c in cells})
    ys = sorted({c.y for c in cells})
    lines = trim_marks(xs, ys, grid.cell_w, grid.cell_h, 0.0, grid.page_w, grid.page_h)
    return [
        Mark("v", line.x1, line.y1, line.y2 - line.y1)
        if line.x1 == line.x2
        else Mark("h", line.x1, line.y1, line.x2 - line.x1)
        for line in lines
    ]


def guide_lines(cells: Sequence[Rect]) -> list[Mark]:
    """Light lines along the edges of the cards on a page, each shared edge once, for
    scissors rather than a ruler; empty places on a last page get none."""
    lines: dict[tuple[str, float, float], Mark] = {}
    for c in cells:
        for mark in (
            Mark("h", c.x, c.y, c.w),
            Mark("h", c.x, c.bottom, c.w),
            Mark("v", c.x, c.y, c.h),
            Mark("v", c.right, c.y, c.h),
        ):
            lines.setdefault((mark.direction, round(mark.x, 3), round(mark.y, 3)), mark)
    return list(lines.values())


def fold_marks(grid: Grid) -> list[Mark]:
    """Dashed marks outside the grid at the middle of every tent row: where to fold. They
    take the room the cut marks have, left and right of the grid."""
    length = min(MAX_MARK_MM, grid.left - MARK_GAP_MM - PRINTABLE_MM)
    right = grid.left + grid.width
    marks = []
    for row in range(grid.rows):
        y = grid.top + row * (grid.cell_h + grid.gutter) + grid.cell_h / 2
        marks.append(Mark("h", grid.left - MARK_GAP_MM - length, y, length, dashed=True))
        marks.append(Mark("h", right + MARK_GAP_MM, y, length, dashed=True))
    return marks


# ------------------------------------------------------------------------------------------
# Card metrics: the millimetres both the fitting below and the CSS use


@dataclass(frozen=True)
class Metrics:
    size: str
    card_w: float
    card_h: float
    pad: float
    band_h: float  # the title band
    band_gap: float
    bonus_h: float  # group card: the big initiative bonus and how it is made
    head_h: float  # column headings of a table
    legend_h: float  # group card: what the tick letters mean
    name_h: float  # one line of 7.5-8.5 pt type
    box: float  # an HP or tick box (>= 4 mm)
    box_gap: float
    row_pad: float  # space between member rows
    attack_h: float  # one line of the attack table (holds a tick box)
    meta_h: float  # character card: the group and initiative line(s)
    defense_h: float  # character card: the boxed defenses
    section_gap: float
    value_w: float  # group card: one number column
    tick_w: float  # one tick box with its gap
    one_line: bool  # a group member on one row (wide cards) or two (narrow ones)
    member_pt: float  # type size of a member's name and numbers
    side_w: float  # wide character card: the left column (0: stacked)
    side_gap: float
    attack_cols: tuple[float, ...]  # tick, bonus, target, damage (name takes the rest)

    @property
    def inner_w(self) -> float:
        return self.card_w - 2 * self.pad

    @property
    def inner_h(self) -> float:
        return self.card_h - 2 * self.pad

    @property
    def pitch(self) -> float:
        return self.box + self.box_gap


METRICS: dict[str, Metrics] = {
    "poker": Metrics(
        size="poker",
        card_w=63.0,
        card_h=88.0,
        pad=3.0,
        band_h=7.0,
        band_gap=1.2,
        bonus_h=10.5,
        head_h=3.8,
        legend_h=3.6,
        name_h=3.6,
        box=4.2,
        box_gap=0.6,
        row_pad=0.6,
        attack_h=4.6,
        meta_h=4.4,
        defense_h=12.5,
        section_gap=1.2,
        value_w=6.0,
        tick_w=4.8,
        one_line=False,
        member_pt=8.0,
        side_w=0.0,
        side_gap=0.0,
        attack_cols=(4.6, 6.5, 16.5, 12.0),
    ),
    "index": Metrics(
        size="index",
        card_w=127.0,
        card_h=76.2,
        pad=3.5,
        band_h=7.5,
        band_gap=1.2,
        bonus_h=10.5,
        head_h=3.8,
        legend_h=3.6,
        name_h=3.6,
        box=4.2,
        box_gap=0.6,
        row_pad=1.0,
        attack_h=5.0,
        meta_h=5.0,
        defense_h=12.5,
        section_gap=1.2,
        value_w=7.0,
        tick_w=4.8,
        one_line=True,
        member_pt=8.5,
        side_w=47.0,
        side_gap=4.0,
        attack_cols=(5.0, 8.0, 19.0, 16.0),
    ),
}

NAME_W_ONE_LINE = 34.0  # wide group card: the member-name column
HP_LABEL_W = 6.0  # "HP" before a character's track
# States that last past a turn (RULES.md §5): tick them on the wide cards, which have room.
CONDITIONS = ("delayed", "panicked", "evading", "engaged", "in cover")
HP_INDENT_MM = 1.5  # wide group card: space between the numbers and the HP boxes
META_PT = 7.5  # the character card's group line
MINION_INDENT_MM = 2.5  # minions sit under their leader, indented


def css_metrics(m: Metrics) -> dict[str, Any]:
    """The metrics as CSS lengths, for the template's style block."""
    out: dict[str, Any] = {
        name: mm(getattr(m, name))
        for name in (
            "card_w",
            "card_h",
            "pad",
            "band_h",
            "band_gap",
            "bonus_h",
            "head_h",
            "legend_h",
            "name_h",
            "box",
            "box_gap",
            "row_pad",
            "attack_h",
            "meta_h",
            "defense_h",
            "section_gap",
            "value_w",
            "tick_w",
            "side_w",
            "side_gap",
            "inner_w",
            "inner_h",
        )
    }
    out["safe"] = mm(CARD_SAFE_MM)
    out["tick"] = mm(max(4.0, m.box - 0.2))
    out["pitch"] = mm(m.pitch)
    out["tent_h"] = mm(2 * m.card_h)
    out["name_w"] = mm(NAME_W_ONE_LINE)
    out["hp_label_w"] = mm(HP_LABEL_W)
    out["hp_indent"] = mm(HP_INDENT_MM)
    out["minion_indent"] = mm(MINION_INDENT_MM)
    out["member_pt"] = f"{m.member_pt}pt"
    out["attack_cols"] = [mm(w) for w in m.attack_cols]
    return out


# ------------------------------------------------------------------------------------------
# Fitting type: the band must show the whole name, so its size is chosen by measuring it

TITLE_SIZES = (15.0, 13.5, 12.0, 10.5, 9.0)  # pt, Bebas Neue; a tall caps face, legible small
TITLE_TRACKING = 0.02  # em, as .band in cards.css
LABEL_PT = 7.0  # the band label: Lato Bold, uppercase, tracked 0.06 em
LABEL_TRACKING = 0.06
BAND_PAD_MM = 2.0  # .band padding on each side
LABEL_GAP_MM = 2.0  # .band-label margin-left


def text_width_mm(text: str, font: str, size_pt: float, tracking_em: float = 0.0) -> float:
    """How wide the renderer will set `text`, from the bundled font's own advance widths."""
    return measure.text_width_mm(text, font, size_pt, tracking_em)


def fit_text(
    text: str, font: str, size_pt: float, width: float, tracking: float = 0.0, suffix: str = ""
) -> str:
    """`text` cut with an ellipsis so that it and `suffix` fit `width` mm. The renderer's
    own ellipsis would cut the suffix too ("Thugs 2" must keep its 2), and a line that
    does not fit beside a float drops below it, out of sight."""
    if text_width_mm(text + suffix, font, size_pt, tracking) <= width:
        return text + suffix
    cut = text
    while cut and text_width_mm(cut.rstrip() + "…" + suffix, font, size_pt, tracking) > width:
        cut = cut[:-1]
    return cut.rstrip() + "…" + suffix


TYPE_FLOOR_PT = 7.0  # nothing on a printable is set smaller (tests/documents/test_type_floor.py)


def member_name(
    name: str, suffix: str, font: str, size_pt: float, room: float
) -> tuple[float, str]:
    """A member's line on a group card: a long name steps down in size, to the type floor,
    before a letter of it is cut."""
    size = size_pt
    while size - 0.5 >= TYPE_FLOOR_PT and text_width_mm(name + suffix, font, size) > room:
        size -= 0.5
    return size, fit_text(name, font, size, room, suffix=suffix)


def band_title(title: str, label: str, inner_w: float) -> tuple[str, str]:
    """The largest title size that fits beside the band's label, and the title as set:
    at the smallest size a name that still does not fit is cut, never lost."""
    label_w = text_width_mm(label.upper(), FACES["sans-bold"], LABEL_PT, LABEL_TRACKING)
    room = inner_w - 2 * BAND_PAD_MM - label_w - LABEL_GAP_MM - 1.0
    upper = title.upper()
    for size in TITLE_SIZES:
        if text_width_mm(upper, FACES["display"], size, TITLE_TRACKING) <= room:
            return f"{size}pt", title
    size = TITLE_SIZES[-1]
    return f"{size}pt", fit_text(upper, FACES["display"], size, room, TITLE_TRACKING)


PLAYER_SIZES = (30.0, 26.0, 22.0, 18.0, 15.0)  # pt: read from across the table


def player_title_size(title: str, inner_w: float) -> str:
    """The largest size at which the name sets in at most two lines and no word is cut."""
    room = inner_w - 2.0

    def width(text: str, size: float) -> float:
        return text_width_mm(text.upper(), FACES["display"], size)

    for size in PLAYER_SIZES:
        longest = max((width(word, size) for word in title.split()), default=0.0)
        if longest <= room and width(title, size) <= 1.8 * room:
            return f"{size}pt"
    return f"{PLAYER_SIZES[-1]}pt"


# ------------------------------------------------------------------------------------------
# Formatting: rule words to the few characters a card has room for

TARGETS = {
    "agility": "AGI",
    "intelligence": "INT",
    "strength": "STR",
    "defense": "DEF",
    "intelligence or strength, whichever is higher": "max INT/STR",
    "intelligence (only if its strength is not above yours)": "INT (STR ≤)",
}


def short_target(target: str) -> str:
    return TARGETS.get(target, target)


def short_damage(action: Action) -> str:
    """Damage and the lasting effect on the target, e.g. "1 + delay", "panic", "4 (2 inj.)".

    Action has no structured field for what it does to the target, so the effect is read
    from the rules module's own effect text; every phrase matched here is written there."""
    damage = action.damage.replace(" injured)", " inj.)")
    effect = ""
    if "a basic attack and a hold" in action.effect:  # the older wrestling hold
        effect = "atk + hold"
    elif "target delayed" in action.effect:
        effect = "delay"
    elif "target panicked" in action.effect:
        effect = "panic"
    if damage and effect:
        return f"{damage} + {effect}"
    return damage or effect or "–"


def defenses(stats: CharacterStats) -> list[tuple[str, int]]:
    """The defenses this ruleset computes: agility, intelligence, strength or one defense."""
    named = (
        ("AGI", stats.agility),
        ("INT", stats.intelligence),
        ("STR", stats.strength),
        ("DEF", stats.defense),
    )
    return [(label, value) for label, value in named if value is not None]


def tick_letters(actions: Sequence[Action]) -> dict[str, str]:
    """A short, unique letter for each unrepeatable action: D, S, I."""
    letters: dict[str, str] = {}
    for action in actions:
        if not action.unrepeatable or action.name in letters:
            continue
        letter = action.name[0].upper()
        if letter in letters.values():
            letter = action.name[:2].title()
        letters[action.name] = letter
    return letters


def bonus_lines(rule: str) -> list[str]:
    """How the group's number is made, one term a line: the rule text
    "group initiative bonus 38 = 2 x best stealth 4 + 10 x best detection 3" gives
    ["2 × best stealth 4", "+ 10 × best detection 3"]."""
    how = rule.split(" = ", 1)[-1].replace(" x ", " × ")
    if how.endswith("(each rolls)"):
        return ["best member's own bonus:", "each member rolls alone"]
    parts = how.split(" + ")
    return [parts[0], *(f"+ {p}" for p in parts[1:])]


def _stats(block: Block) -> CharacterStats:
    assert isinstance(block.stats, CharacterStats)
    return block.stats


def _boxes(max_hp: int, stamina: int, per_line: int) -> list[list[dict[str, Any]]]:
    """The HP track with a round 0 box at its end, split into lines of `per_line` boxes."""
    track: list[dict[str, Any]] = [
        {"label": str(b["hp"]), "injured": b["injured"], "zero": False}
        for b in hp_track(max_hp, stamina)
    ]
    track.append({"label": "0", "injured": False, "zero": True})
    per_line = max(1, per_line)
    return [track[i : i + per_line] for i in range(0, len(track), per_line)]


# ------------------------------------------------------------------------------------------
# Group cards


@dataclass(frozen=True)
class Row:
    """One member line of a group card and the height it takes, in mm."""

    height: float
    view: dict[str, Any]


INIT_EXTRA_MM = 2.0  # "+30" is wider than a defense


def group_columns(
    computed: Computed, members: Sequence[Block], m: Metrics
) -> list[tuple[str, float]]:
    """The number columns of a group card and their widths in mm: the ruleset's defenses,
    stamina, and each member's own initiative when everyone rolls alone."""
    sample = _stats(members[0]) if members else None
    labels = [label for label, _ in defenses(sample)] if sample else ["AGI", "INT", "STR"]
    columns = [(label, m.value_w) for label in [*labels, "STA"]]
    if computed.rules.individual_initiative:
        columns.append(("INIT", m.value_w + INIT_EXTRA_MM))
    return columns


def member_rows(
    group: InitiativeGroup, m: Metrics, individual: bool, columns_w: float
) -> list[Row]:
    """One row per member; a minion group of two or more gets a numbered row each."""
    rows: list[Row] = []
    name_w = NAME_W_ONE_LINE if m.one_line else m.inner_w - columns_w
    for block in group.members:
        stats = _stats(block)
        values = [str(v) for _, v in defenses(stats)] + [str(stats.stamina)]
        if individual:
            values.append(signed(stats.initiative_bonus))
        letters = tick_letters(stats.actions)
        ticks = [{"letter": letter, "title": name} for name, letter in letters.items()]
        if m.one_line:
            hp_w = m.inner_w - NAME_W_ONE_LINE - columns_w - 3 * m.tick_w - HP_INDENT_MM
        else:
            hp_w = m.inner_w - len(ticks) * m.tick_w - 1.0
        lines = _boxes(stats.hit_points, stats.stamina, math.floor(hp_w / m.pitch))
        if m.one_line:
            height = max(m.name_h, len(lines) * m.pitch) + m.row_pad
        else:
            height = m.name_h + len(lines) * m.pitch + m.row_pad
        minion = block.kind == "minion"
        font = FACES["sans-italic"] if minion else FACES["sans-bold"]
        room = name_w - (MINION_INDENT_MM if minion else 0.0) - 0.8
        suffixes = [f" {i}" for i in range(1, block.count + 1)] if block.count > 1 else [""]
        for suffix in suffixes:
            size, shown = member_name(block.name, suffix, font, m.member_pt, room)
            view = {
                "name": block.name + suffix,
                "shown": shown,
                "name_size": "" if size == m.member_pt else f"{size}pt",
                "minion": minion,
                "cells": values,
                "hp_lines": lines,
                "ticks": ticks,
                "height": mm(height),
                "track_h": mm(len(lines) * m.pitch + m.row_pad),
            }
            rows.append(Row(height, view))
    return rows


def group_capacity(m: Metrics) -> float:
    return m.inner_h - m.band_h - m.band_gap - m.bonus_h - m.head_h - m.legend_h


def paginate(rows: Sequence[Row], capacity: float) -> list[list[Row]]:
    """Rows in order onto as many cards as they need; every card takes at least one."""
    pages: list[list[Row]] = [[]]
    used = 0.0
    for row in rows:
        if pages[-1] and used + row.height > capacity + 1e-6:
            pages.append([])
            used = 0.0
        pages[-1].append(row)
        used += row.height
    return pages


def legend(rows: Sequence[Row], limit: str = "once per target") -> str:
    seen: dict[str, str] = {}
    for row in rows:
        for tick in row.view["ticks"]:
            seen.setdefault(tick["letter"], tick["title"].lower())
    if not seen:
        return ""
    return limit.capitalize() + ": " + " · ".join(f"{k} {v}" for k, v in seen.items())


def group_cards(group: InitiativeGroup, computed: Computed, m: Metrics) -> list[dict[str, Any]]:
    individual = computed.rules.individual_initiative
    columns = group_columns(computed, group.members, m)
    rows = member_rows(group, m, individual, sum(width for _, width in columns))
    played = any(getattr(b.definition, "player", "") for b in group.members)
    chunks = paginate(rows, group_capacity(m))
    cards = []
    for index, chunk in enumerate(chunks):
        cards.append(
            {
                "kind": "group",
                "title": group.name,
                "label": "Group",
                "part": _part(index, len(chunks)),
                "bonus": signed(group.bonus),
                "bonus_label": "best single bonus" if individual else "group initiative",
                "bonus_lines": bonus_lines(group.rule),
                "columns": [{"label": label, "width": mm(width)} for label, width in columns],
                "members": [row.view for row in chunk],
                "legend": legend(chunk, computed.rules.psychic_limit),
                # The players' own group lists its members; an adversary group shows only
                # its name, so the tent tells the table no more than the GM does.
                "player": {
                    "title": group.name,
                    "subtitle": "Initiative group",
                    "lines": _unique([row.view["name"] for row in rows]) if played else [],
                },
            }
        )
    return cards


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _part(index: int, total: int) -> str:
    if total == 1:
        return ""
    return f"cont. {index + 1}/{total}" if index else f"1/{total}"


# ------------------------------------------------------------------------------------------
# Character cards


def initiative_roll(bonus: int) -> str:
    """What a card's framed initiative says: ``+38``, or ``d20`` when nothing is added."""
    return signed(bonus) if bonus else "d20"


def attack_rows(stats: CharacterStats) -> list[dict[str, Any]]:
    """Every attack, one compact line each; unrepeatable ones carry their tick box."""
    letters = tick_letters(stats.actions)
    return [
        {
            "tick": action.unrepeatable,
            "letter": letters.get(action.name, ""),
            "name": action.name,
            # The sheet's words: an attack no ability adds to is rolled on the bare d20.
            "bonus": signed(action.bonus or 0) if action.roll else "d20",
            "target": short_target(action.target),
            "damage": short_damage(action),
            "range": action.range,
        }
        for action in stats.actions
        if action.attack
    ]


def character_cards(
    block: Block, group: InitiativeGroup | None, computed: Computed, m: Metrics
) -> list[dict[str, Any]]:
    stats = _stats(block)
    individual = computed.rules.individual_initiative
    player = getattr(block.definition, "player", "")
    hp_w = (m.side_w or m.inner_w) - HP_LABEL_W
    lines = _boxes(stats.hit_points, stats.stamina, math.floor(hp_w / m.pitch))
    hp_h = len(lines) * m.pitch
    top = m.band_h + m.band_gap
    if m.side_w:
        # Wide card: defenses and HP in a left column, attacks fill the right one.
        first = m.inner_h - top - m.head_h
    else:
        first = m.inner_h - top - m.meta_h - m.defense_h - hp_h - 2 * m.section_gap - m.head_h
    later = m.inner_h - top - m.head_h
    conditions: list[list[str]] = []
    if m.side_w:
        # The wide card's left column has room below HP for the states a turn leaves
        # behind; shown only when they fit, at the same place on every card.
        used = m.meta_h + 2 * m.defense_h + 2 * m.section_gap + hp_h
        rows_needed = math.ceil(len(CONDITIONS) / 2)
        if used + m.legend_h + rows_needed * m.pitch + m.section_gap <= m.inner_h - top:
            conditions = [list(CONDITIONS[i : i + 2]) for i in range(0, len(CONDITIONS), 2)]
    attacks = attack_rows(stats)
    chunks: list[list[dict[str, Any]]] = []
    room = max(1, math.floor((first + 1e-6) / m.attack_h))
    chunks.append(attacks[:room])
    rest = attacks[room:]
    per_later = max(1, math.floor((later + 1e-6) / m.attack_h))
    while rest:
        chunks.append(rest[:per_later])
        rest = rest[per_later:]
    # The framed number is the one this player adds to d20: the group's when the group
    # rolls together, else their own. No second number beside it may contradict it.
    if group is None:
        group_line, rolled = "Rolls alone: no group", stats.initiative_bonus
    elif individual:
        group_line, rolled = f"Rolls alone · {group.name}", stats.initiative_bonus
    else:
        group_line, rolled = f"Rolls with {group.name}", group.bonus
    # What to roll comes first, so a long group name is what gets cut.
    meta_w = (m.side_w or m.inner_w) - 0.5
    group_line = fit_text(group_line, FACES["sans"], META_PT, meta_w)
    cards = []
    for index, chunk in enumerate(chunks):
        cards.append(
            {
                "kind": "character",
                "title": block.name,
                "label": "Character",
                "part": _part(index, len(chunks)),
                "first": index == 0,
                "group": group.name if group else "",
                "group_line": group_line,
                "init": initiative_roll(rolled),
                "defenses": [{"label": k, "value": str(v)} for k, v in defenses(stats)],
                "stamina": str(stats.stamina),
                "hit_points": str(stats.hit_points),
                "hp_lines": lines,
                "attacks": chunk,
                "conditions": conditions if index == 0 else [],
                "player": {
                    "title": block.name,
                    "subtitle": group.name if group else "",
                    "lines": [f"played by {player}"] if player else [],
                },
            }
        )
    return cards


# ------------------------------------------------------------------------------------------
# The document


def initiative_groups(computed: Computed) -> list[InitiativeGroup]:
    """computed.groups, plus a group for each leader without one who has minions: a
    leader's minions act on the leader's initiative, so they need a card to be tracked."""
    groups = list(computed.groups)
    for block in computed.of_kind("character"):
        minions = computed.minions_of(block.name)
        if block.group or not minions:
            continue
        members = (block, *minions)
        levels = [_stats(b).levels for b in members]
        bonus = computed.rules.group_initiative(levels)
        groups.append(InitiativeGroup(f"{block.name} & minions", bonus.value, bonus.rule, members))
    return groups


def on_group_card_only(block: Block) -> bool:
    """A roster NPC (under ``npcs:``, no ``sheet: true``) who rolls with a group is played
    from its row on the group's card (defenses, HP track, once-per-target boxes) and its
    roster stat block: 300 extras need 35 group cards, not 300 cards of their own to cut.
    Asked only of group members: one with no group keeps its card, or it would be on none."""
    return listed_as_npc(block.source) and not gets_sheet(block.definition, block.source)


def all_cards(computed: Computed, options: BuildOptions) -> list[dict[str, Any]]:
    """Each group's card(s) followed by its characters' cards, so the cards of one side
    come off the page together; characters without a group last. Roster NPCs in a group
    have their row on its card and no card of their own."""
    m = METRICS[options.cards]
    groups = initiative_groups(computed)
    group_of: dict[str, InitiativeGroup] = {}
    for group in groups:
        for member in group.members:
            if member.kind == "character":
                group_of.setdefault(member.name, group)
    cards: list[dict[str, Any]] = []
    done: set[str] = set()
    characters = computed.of_kind("character")
    for group in groups:
        cards += group_cards(group, computed, m)
        for block in characters:
            if group_of.get(block.name) is group and block.name not in done:
                done.add(block.name)
                if on_group_card_only(block):
                    continue
                cards += character_cards(block, group, computed, m)
    for block in characters:
        if block.name not in done:
            cards += character_cards(block, None, computed, m)
    for card in cards:
        card["band_label"] = " · ".join(filter(None, (card["label"], card["part"])))
        card["card_id"] = " ".join(filter(None, (card["title"], card["part"])))
        card["title_size"], card["band_title"] = band_title(
            card["title"], card["band_label"], m.inner_w
        )
        if card["band_title"] != card["title"] and card["label"]:
            # A long name matters more than the word "Character": give it the label's room
            # (the card's layout still says which kind it is) before cutting a letter.
            size, shown = band_title(card["title"], card["part"], m.inner_w)
            if shown == card["title"]:
                card["band_label"], card["title_size"], card["band_title"] = (
                    card["part"],
                    size,
                    shown,
                )
        card["player"]["title_size"] = player_title_size(card["title"], m.inner_w)
    return cards


def _line(mark: Mark) -> dict[str, Any]:
    return {
        "direction": mark.direction,
        "left": mm(mark.x),
        "top": mm(mark.y),
        "length": mm(mark.length),
        "dashed": mark.dashed,
    }


def sheet_grid(options: BuildOptions) -> Grid:
    """Where the cards (or tents) go on a sheet, and the sheet's size and orientation."""
    m = METRICS[options.cards]
    cell_h = 2 * m.card_h if options.tent else m.card_h
    return plan_grid(options.paper, m.card_w, cell_h)


def layout(cards: list[dict[str, Any]], options: BuildOptions) -> dict[str, Any]:
    grid = sheet_grid(options)
    cells = grid.cells()
    marks = [_line(mark) for mark in cut_marks(grid)]
    if options.tent:
        marks += [_line(mark) for mark in fold_marks(grid)]
    pages = []
    for start in range(0, len(cards), grid.per_page):
        chunk = cards[start : start + grid.per_page]
        used = cells[: len(chunk)]
        pages.append(
            {
                "cards": [
                    {"left": mm(cell.x), "top": mm(cell.y), "card": card}
                    for cell, card in zip(used, chunk, strict=True)
                ],
                "guides": [_line(mark) for mark in guide_lines(used)],
            }
        )
    return {
        "page_w": mm(grid.page_w),
        "page_h": mm(grid.page_h),
        "orientation": "landscape" if grid.landscape else "portrait",
        "per_page": grid.per_page,
        "marks": marks,
        "pages": pages,
    }


def per_sheet(options: BuildOptions) -> str:
    """The build summary's line: how many cards (or tents) a sheet of paper holds and, for
    tents, why that is fewer."""
    m = METRICS[options.cards]
    size = "" if options.cards == "poker" else f"{options.cards} "
    cards = plan_grid(options.paper, m.card_w, m.card_h).per_page
    if not options.tent:
        return f"initiative: {cards} {size}cards per sheet"
    tents = plan_grid(options.paper, m.card_w, 2 * m.card_h).per_page
    return (
        f"initiative: {tents} {size}tents per sheet, not {cards}, because --tent makes each"
        " card a fold-over tent twice as tall"
    )


FILENAME = "initiative-cards.pdf"


def shortened(cards: Sequence[dict[str, Any]]) -> list[Problem]:
    """A layout warning for every name the cards had to cut to fit (a band title, a member's
    line, the group a character rolls with): nothing the user wrote is lost in silence."""
    found: dict[tuple[str, str], Problem] = {}

    def warn(entry: str, field: str, shown: str, whole: str) -> None:
        message = (
            f"shortened to fit the initiative card: prints {shown!r}"
            f" ({len(shown.rstrip('…'))} of {len(whole)} characters)"
        )
        found.setdefault((entry, field), Problem(message, FILENAME, None, entry, field, "warning"))

    for card in cards:
        band = str(card["band_title"])
        if band.endswith("…") and band.upper() != str(card["title"]).upper():
            warn(str(card["title"]), f"{card['kind']} card title", band, str(card["title"]))
        for member in card.get("members", []):
            if member["shown"] != member["name"]:
                warn(str(member["name"]), "name on the group card", member["shown"], member["name"])
        if card["kind"] == "character" and str(card.get("group_line", "")).endswith("…"):
            warn(str(card["title"]), "group", str(card["group_line"]), str(card["group"]))
    return list(found.values())


KIND, TITLE, STEM, TEMPLATE = (
    "initiative",
    "Initiative cards",
    "initiative-cards",
    "initiative/cards.html",
)
# Sheets per rendered batch: small enough that a big roster's cards spread over every core
# and finish together, large enough that a batch's fixed cost (styles, fonts) stays small.
SHEETS_PER_BATCH = 6


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """The initiative cards as one document: ``context`` is the whole layout, the reference
    for tests. What the build renders is :func:`build_documents`."""
    cards = all_cards(computed, options)
    if not cards:
        return []
    return [Document(KIND, TITLE, STEM, TEMPLATE, _context(cards, options))]


def build_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> list[Document]:
    """What `scratchpress build` renders: the sheets of cards in batches, on every core,
    each sheet cached on its own and put together by pikepdf. A generated roster of 300
    NPCs makes 40 sheets, which as one document kept one core busy for a minute after the
    rest of the build was done."""
    cards = all_cards(computed, options)
    if not cards:
        return []
    context = _context(cards, options)
    layout_view = context["layout"]
    grid = sheet_grid(options)

    def batch(pages: list[dict[str, Any]]) -> dict[str, Any]:
        # The template lays out `layout.pages`: a batch's layout holds its own sheets only.
        return {"layout": {**layout_view, "pages": pages}}

    imposed = Imposed(
        contexts={"sheet": {**context, "layout": {**layout_view, "pages": []}}},
        units=[("sheet", page) for page in layout_view["pages"]],
        sheets=[[Placement(index, all_pages=True)] for index in range(len(layout_view["pages"]))],
        # The sheet as the layout turned it (landscape for 8-up poker cards), not the paper
        # upright: a sheet put on an upright page would lose its right-hand cards.
        paper_mm=(grid.page_w, grid.page_h),
        batch_context=batch,
        max_batch=SHEETS_PER_BATCH,
    )
    return [Document(KIND, TITLE, STEM, TEMPLATE, context, imposed=imposed)]


def _context(cards: list[dict[str, Any]], options: BuildOptions) -> dict[str, Any]:
    m = METRICS[options.cards]
    return {
        "title": TITLE,
        "page": page_context(options),
        "m": css_metrics(m),
        "size": m.size,
        "tent": options.tent,
        "layout": layout(cards, options),
        "per_sheet": per_sheet(options),
        # The build reports these with the layout lint (see build.py), --strict fails.
        "layout_problems": shortened(cards),
    }
