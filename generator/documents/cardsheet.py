"""Cards laid out on paper: n-up grids, cut marks, duplex backs and fold-over sheets. (The
check that no card's text runs past its safe area is a lint: render/lint.py.)

Why one module of ~540 lines: the grid, the cut marks, the duplex backs, the fold sheets and
the CSS lengths made from them all rest on the conventions listed below (trim box, slot,
turn, back coordinates), pure geometry read and tested as one.

Pure geometry in millimetres (origin at the top-left of the page, y downwards), so it can
be tested without rendering. Templates receive the results as ready CSS lengths.

Conventions:
- A card's *trim box* is where it is cut; its *slot* is the trim box as it lies on the
  page (a card turned a quarter turn lies on its side). Neighbours sit a gutter apart, so a
  cut a little off never takes a strip of the next card's title band. With bleed, its
  background runs ``BLEED_MM`` past the trim on every side and the gutter is ``2 * BLEED_MM``:
  the bleeds meet in the middle of it and never run onto a neighbour.
- Text stays ``CARD_SAFE_MM`` inside the trim (the template's ``card-safe`` box).
- Cut marks are hairlines on the extension of every trim line, in the margins around the
  grid, never over a card or its bleed, at least ``MIN_MARK_MM`` long and never nearer the
  paper edge than ``PRINTABLE_MM``. A mark starts ``MARK_GAP_MM`` off the trim, or off the
  bleed where the margin leaves room for that; else right where the bleed ends (the bleed
  is cut away: it is gap enough). A paper without room for that loses a row or a column.
- Poker cards go 8 to a sheet on Letter and A4, on their sides in 2 columns of 4: 3 x 3
  upright does not leave 4 mm marks inside the printable zone on either paper (Letter
  has 15.4 mm to spare in its height, A4 21 mm in its width, and marks need 10.85 mm on
  each side). Bleed gutters cost Letter a row (2 x 3).
- Back positions are in the back page's own coordinates (as seen looking at the back).
  A printer that shifts its backs by (dx, dy) is corrected by moving every back by
  (-dx, -dy): ``settings.duplex_offset_mm`` holds (dx, dy), measured by ``calibrate``.
- Turns are degrees clockwise. A back is turned so that it reads upright when its card is
  turned over side to side, as card players turn cards.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..typesetting.paper import PAPER_MM

# How near the paper's edge anything may print. Home printers do not print to the edge:
# lasers leave about 4.2 mm (1/6 in) on every side, inkjets 3 to 5 mm (most at the
# bottom, where the sheet leaves the rollers), and a sheet can feed a millimetre off. A
# quarter inch clears all of them with room to spare; it is the margin PCL lasers and
# most drivers' "printable area" reserve, and more than DESIGN.md's 6 mm.
PRINTABLE_MM = 6.35
CARD_SAFE_MM = 3.0  # text this far inside the trim: what a cut a little off can eat
BLEED_MM = 3.0
GUTTER_MM = 3.0  # between cards, where the paper has room for it
MIN_GUTTER_MM = 1.5  # the least: a cut that wanders half of it still misses the neighbour
MARK_GAP_MM = 0.5  # between a mark and the trim, so no mark shows on a card
MIN_MARK_MM = 4.0  # shorter, a ruler cannot be laid on a mark; the grid loses a row instead
MAX_MARK_MM = 5.0
# The room a side of the grid needs for its marks: the gap, a mark, the unprintable edge.
MARK_MARGIN_MM = MARK_GAP_MM + MIN_MARK_MM + PRINTABLE_MM
FOLD_GAP_MM = 3.0  # each side of a fold line, so a fold a little off still cuts clean
NOTE_MM = 3.0  # height of a one-line 7 pt note in a page margin
MARK_PT = 0.5  # hairline width: the thinnest line every printer renders
POKER_MM = (63.0, 88.0)

Backs = Literal["none", "duplex", "fold"]
Edge = Literal["long", "short"]
Axis = Literal["x", "y"]
SIDEWAYS = 270  # a card on its side: its top to the left, read by turning the sheet clockwise


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def shifted(self, dx: float, dy: float) -> Rect:
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Rect) -> bool:
        eps = 1e-6  # butted cards share an edge; that is not an overlap
        return (
            self.x < other.right - eps
            and other.x < self.right - eps
            and self.y < other.bottom - eps
            and other.y < self.bottom - eps
        )


@dataclass(frozen=True)
class Line:
    """A straight hairline from (x1, y1) to (x2, y2); always horizontal or vertical."""

    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class Imposition:
    """Where the cards of one sheet of paper go.

    ``fronts[i]`` is the slot of the i-th card on a front page: its trim box as it lies on
    the page, ``card_h`` wide when the card is turned on its side. ``backs[i]`` is where the
    same card's back goes: on the back page (duplex) or on the same page (fold).
    """

    page_w: float
    page_h: float
    landscape: bool
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int
    fronts: list[Rect]
    backs: list[Rect] = field(default_factory=list)
    turn: int = 0  # degrees clockwise every front is turned (SIDEWAYS: on its side)
    back_turn: int = 0  # and every back on a fold sheet
    gutter: float = 0.0  # between neighbouring trim boxes (bleed included)
    marks: list[Line] = field(default_factory=list)
    fold: Line | None = None

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    @property
    def slot(self) -> tuple[float, float]:
        """Width and height of a card as it lies on the page."""
        return turned_size((self.card_w, self.card_h), self.turn)

    @property
    def back_rotated(self) -> bool:
        """Do the backs of a fold sheet face another way than the fronts?"""
        return self.back_turn != self.turn


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    w, h = PAPER_MM[paper]
    return (h, w) if landscape else (w, h)


def turned_size(card: tuple[float, float], turn: int) -> tuple[float, float]:
    w, h = card
    return (h, w) if turn % 180 else (w, h)


def mirrored_turn(turn: int, axis: Axis) -> int:
    """How a back is turned when its page is its front's mirror image across ``axis``
    ("x": left and right swap, as over a vertical fold or a portrait sheet's long edge), so
    it reads upright when the cut card is turned over side to side."""
    return (360 - turn) % 360 if axis == "x" else (180 - turn) % 360


def gutters(bleed: float) -> tuple[float, float]:
    """The least and the widest gutter between cards: with bleed, exactly the two bleeds."""
    return max(MIN_GUTTER_MM, 2 * bleed), max(GUTTER_MM, 2 * bleed)


def mark_clearance(bleed: float) -> float:
    """How far off the trim a cut mark starts: past the bleed, which is cut away (so a
    mark that ends where it starts never shows on a card), or ``MARK_GAP_MM`` without one."""
    return max(MARK_GAP_MM, bleed)


def mark_margin(bleed: float) -> float:
    """The room one side of the grid needs, trim to paper edge, for its marks."""
    return mark_clearance(bleed) + MIN_MARK_MM + PRINTABLE_MM


def _margin(count: int, size: float, gutter: float, room: float, inner: float) -> float:
    """What is left on each outer side of ``count`` cards laid in ``room``; ``inner`` is
    what a fold needs on the other side (then there is one outer side)."""
    extent = count * size + (count - 1) * gutter + inner
    return (room - extent) / (1 if inner else 2)


def fits(
    count: int, size: float, gutter: float, room: float, inner: float = 0.0, bleed: float = 0.0
) -> bool:
    """Do ``count`` cards of ``size`` (``gutter`` apart, ``bleed`` round each) fit in
    ``room`` with room for cut marks outside the bleed on the outer side(s), inside the
    printable zone?"""
    margin = _margin(count, size, gutter, room, inner)
    return count >= 1 and margin + 1e-9 >= mark_margin(bleed)


def most(size: float, gutter: float, room: float, inner: float = 0.0, bleed: float = 0.0) -> int:
    count = 0
    while fits(count + 1, size, gutter, room, inner, bleed):
        count += 1
    return count


def widest_gutter(
    count: int,
    size: float,
    room: float,
    least: float,
    widest: float,
    inner: float = 0.0,
    bleed: float = 0.0,
) -> float:
    """The widest gutter, up to ``widest`` and to a tenth of a millimetre, that still lets
    ``count`` cards fit with their marks (``count`` fits at ``least``)."""
    if count < 2:
        return widest
    sides = 1 if inner else 2
    spare = (room - inner - count * size - sides * mark_margin(bleed)) / (count - 1)
    return max(least, min(widest, math.floor(spare * 10 + 1e-6) / 10))


def _axis(start: float, count: int, size: float, gap: float) -> list[float]:
    return [start + i * (size + gap) for i in range(count)]


def cut_marks(
    xs: Sequence[float],
    ys: Sequence[float],
    w: float,
    h: float,
    bleed: float,
    page_w: float,
    page_h: float,
) -> list[Line]:
    """Hairlines continuing every trim line past the grid, outside the printable edge.

    ``xs`` and ``ys`` are the left and top edges of the slots (``w`` x ``h``). Every
    column's two edges get a mark above and below the grid, every row's two edges one left
    and right of it. A mark starts ``MARK_GAP_MM`` past the bleed when the margin leaves it
    ``MIN_MARK_MM`` there, else where the bleed ends (``mark_clearance``): never in it. The
    grid's planners leave it that room (``fits``)."""
    left, right = min(xs), max(xs) + w
    top, bottom = min(ys), max(ys) + h

    def clear(margin: float) -> float:
        """How far from the trim a mark starts, given the trim-to-paper-edge margin."""
        outside_bleed = bleed + MARK_GAP_MM
        fits_outside = margin - outside_bleed - PRINTABLE_MM >= MIN_MARK_MM - 1e-9
        return outside_bleed if bleed and fits_outside else mark_clearance(bleed)

    def length(margin: float, start: float) -> float:
        return min(MAX_MARK_MM, margin - start - PRINTABLE_MM)

    marks: list[Line] = []
    above, below = clear(top), clear(page_h - bottom)
    up, down = length(top, above), length(page_h - bottom, below)
    for x in sorted({round(v, 4) for x0 in xs for v in (x0, x0 + w)}):
        marks.append(Line(x, top - above - up, x, top - above))
        marks.append(Line(x, bottom + below, x, bottom + below + down))
    before, after = clear(left), clear(page_w - right)
    lead, trail = length(left, before), length(page_w - right, after)
    for y in sorted({round(v, 4) for y0 in ys for v in (y0, y0 + h)}):
        marks.append(Line(left - before - lead, y, left - before, y))
        marks.append(Line(right + after, y, right + after + trail, y))
    return marks


def grid(paper: str, card: tuple[float, float] = POKER_MM, bleed: bool = False) -> Imposition:
    """The n-up grid for one-sided or duplex printing: portrait paper, centred, cut marks.

    Cards go upright or on their sides, whichever fits more (upright on a tie); portrait
    paper always, so a duplex back lands where ``calibrate`` measured. The gutter is as
    wide as ``GUTTER_MM`` where the paper has room and never under ``MIN_GUTTER_MM``.
    """
    page_w, page_h = paper_size(paper)
    b = BLEED_MM if bleed else 0.0
    least, widest = gutters(b)
    best: tuple[int, int, int, float] | None = None  # turn, cols, rows, gutter
    for turn in (0, SIDEWAYS):
        w, h = turned_size(card, turn)
        cols, rows = most(w, least, page_w, bleed=b), most(h, least, page_h, bleed=b)
        if best is None or cols * rows > best[1] * best[2]:
            gutter = min(
                widest_gutter(cols, w, page_w, least, widest, bleed=b),
                widest_gutter(rows, h, page_h, least, widest, bleed=b),
            )
            best = (turn, cols, rows, gutter)
    assert best is not None
    turn, cols, rows, gap = best
    if not cols or not rows:
        raise ValueError(
            f"a {card[0]:g} x {card[1]:g} mm card does not fit on {paper} with cut marks"
        )
    w, h = turned_size(card, turn)
    x0 = (page_w - (cols * w + (cols - 1) * gap)) / 2
    y0 = (page_h - (rows * h + (rows - 1) * gap)) / 2
    xs, ys = _axis(x0, cols, w, gap), _axis(y0, rows, h, gap)
    fronts = [Rect(x, y, w, h) for y in ys for x in xs]  # reading order: rows, then columns
    return Imposition(
        page_w,
        page_h,
        False,
        card[0],
        card[1],
        b,
        cols,
        rows,
        fronts,
        turn=turn,
        gutter=gap,
        marks=cut_marks(xs, ys, w, h, b, page_w, page_h),
    )


def duplex_axis(layout: Imposition, edge: Edge = "long") -> Axis:
    """Which coordinate a duplex back mirrors: turning the paper over its long edge swaps
    left and right on portrait paper, top and bottom on landscape; its short edge the
    other."""
    portrait = layout.page_w <= layout.page_h
    return "x" if (edge == "long") == portrait else "y"


def duplex_backs(
    layout: Imposition, edge: Edge = "long", offset_mm: tuple[float, float] = (0.0, 0.0)
) -> list[Rect]:
    """Where each front's back goes on the next page, seen from the back.

    Turning a portrait sheet over its long edge mirrors columns (x -> W - x - w); over its
    short edge, rows. Every back then moves by minus the printer's measured offset.
    """
    dx, dy = offset_mm
    axis = duplex_axis(layout, edge)
    backs = []
    for r in layout.fronts:
        if axis == "x":
            mirrored = Rect(layout.page_w - r.x - r.w, r.y, r.w, r.h)
        else:
            mirrored = Rect(r.x, layout.page_h - r.y - r.h, r.w, r.h)
        backs.append(mirrored.shifted(-dx, -dy))
    return backs


def duplex_back_turn(layout: Imposition, edge: Edge = "long") -> int:
    return mirrored_turn(layout.turn, duplex_axis(layout, edge))


def one_up(card: tuple[float, float], bleed: float) -> Imposition:
    """One card per page, the page its trim plus the bleed: what a print shop takes. The
    back is the next page, in the same place (the shop cuts each page alone)."""
    width, height = card
    slot = Rect(bleed, bleed, width, height)
    return Imposition(
        width + 2 * bleed, height + 2 * bleed, False, width, height, bleed, 1, 1, [slot], [slot]
    )


def _empty(page_w: float, page_h: float, landscape: bool, card: tuple[float, float]) -> Imposition:
    return Imposition(page_w, page_h, landscape, card[0], card[1], 0.0, 0, 0, [])


def _fold_vertical(
    paper: str, landscape: bool, card: tuple[float, float], b: float, turn: int
) -> Imposition:
    """Fronts left of a vertical fold, their backs mirrored to its right."""
    page_w, page_h = paper_size(paper, landscape)
    w, h = turned_size(card, turn)
    least, widest = gutters(b)
    fold = page_w / 2
    inner = max(FOLD_GAP_MM, b)  # trim to fold; with bleed the two bleeds meet at the fold
    cols = most(w, least, fold, inner, b)
    rows = most(h, least, page_h, bleed=b)
    if not cols or not rows:
        return _empty(page_w, page_h, landscape, card)
    gap = min(
        widest_gutter(cols, w, fold, least, widest, inner, b),
        widest_gutter(rows, h, page_h, least, widest, bleed=b),
    )
    right_edge = fold - inner
    xs = [right_edge - w - i * (w + gap) for i in range(cols)][::-1]
    y0 = (page_h - (rows * h + (rows - 1) * gap)) / 2
    ys = _axis(y0, rows, h, gap)
    fronts = [Rect(x, y, w, h) for y in ys for x in xs]
    backs = [Rect(2 * fold - r.x - r.w, r.y, w, h) for r in fronts]
    all_x = xs + [2 * fold - x - w for x in xs]
    return Imposition(
        page_w,
        page_h,
        landscape,
        card[0],
        card[1],
        b,
        cols,
        rows,
        fronts,
        backs,
        turn=turn,
        back_turn=mirrored_turn(turn, "x"),
        gutter=gap,
        marks=cut_marks(all_x, ys, w, h, b, page_w, page_h),
        fold=Line(fold, PRINTABLE_MM + NOTE_MM + 1, fold, page_h - PRINTABLE_MM),  # below the note
    )


def _fold_horizontal(
    paper: str, landscape: bool, card: tuple[float, float], b: float, turn: int
) -> Imposition:
    """Fronts above a horizontal fold, their backs mirrored below it (an upright front's
    back upside down), so they read upright when the folded card is turned over."""
    page_w, page_h = paper_size(paper, landscape)
    w, h = turned_size(card, turn)
    least, widest = gutters(b)
    fold = page_h / 2
    inner = max(FOLD_GAP_MM, b)
    rows = most(h, least, fold, inner, b)
    cols = most(w, least, page_w, bleed=b)
    if not cols or not rows:
        return _empty(page_w, page_h, landscape, card)
    gap = min(
        widest_gutter(rows, h, fold, least, widest, inner, b),
        widest_gutter(cols, w, page_w, least, widest, bleed=b),
    )
    bottom_edge = fold - inner
    ys = [bottom_edge - h - i * (h + gap) for i in range(rows)][::-1]
    x0 = (page_w - (cols * w + (cols - 1) * gap)) / 2
    xs = _axis(x0, cols, w, gap)
    fronts = [Rect(x, y, w, h) for y in ys for x in xs]
    backs = [Rect(r.x, 2 * fold - r.y - r.h, w, h) for r in fronts]
    all_y = ys + [2 * fold - y - h for y in ys]
    return Imposition(
        page_w,
        page_h,
        landscape,
        card[0],
        card[1],
        b,
        cols,
        rows,
        fronts,
        backs,
        turn=turn,
        back_turn=mirrored_turn(turn, "y"),
        gutter=gap,
        marks=cut_marks(xs, all_y, w, h, b, page_w, page_h),
        fold=Line(PRINTABLE_MM, fold, page_w - PRINTABLE_MM, fold),
    )


def fold_sheet(paper: str, card: tuple[float, float] = POKER_MM, bleed: bool = False) -> Imposition:
    """Fronts and backs on one side of the paper, either side of a fold line: print
    one-sided, fold in half (printed sides out), glue or not, cut both layers at once.

    Tries both page orientations, both fold directions and cards upright or on their
    sides; takes the most cards per sheet, then a sheet with room for the folding note,
    then a vertical fold, portrait paper and upright cards, in that order.
    """
    b = BLEED_MM if bleed else 0.0
    candidates = [
        make(paper, landscape, card, b, turn)
        for make in (_fold_vertical, _fold_horizontal)
        for landscape in (False, True)
        for turn in (0, SIDEWAYS)
    ]
    # max keeps the first of equals
    best = max(candidates, key=lambda c: (c.per_page, margin_note(c) is not None))
    if not best.per_page:
        raise ValueError(f"a {card[0]:g} x {card[1]:g} mm card does not fit on {paper} folded")
    return best


def chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# ---------------------------------------------------------------------------------------
# View-model pieces: millimetres to CSS lengths, once, here
# ---------------------------------------------------------------------------------------


def mm(value: float) -> str:
    """A CSS length; three decimals keep the PDF exact to a micrometre."""
    return f"{round(value, 3):g}mm"


def place(rect: Rect) -> dict[str, Any]:
    """A card slot for templates (CSS lengths) and for tests (the numbers)."""
    return {
        "left": mm(rect.x),
        "top": mm(rect.y),
        "width": mm(rect.w),
        "height": mm(rect.h),
        "x_mm": round(rect.x, 3),
        "y_mm": round(rect.y, 3),
    }


def line_style(line: Line, width_pt: float = MARK_PT, centred: bool = False) -> dict[str, str]:
    """A hairline as an absolutely placed box with one border; ``centred`` puts the
    border's middle on the line (a cut mark on its trim line), else its edge."""
    half = width_pt * 25.4 / 72 / 2 if centred else 0.0
    vertical = line.x1 == line.x2
    if vertical:
        return {
            "left": mm(line.x1 - half),
            "top": mm(min(line.y1, line.y2)),
            "width": "0",
            "height": mm(abs(line.y2 - line.y1)),
            "border": f"border-left: {width_pt:g}pt",
            "orient": "v",
        }
    return {
        "left": mm(min(line.x1, line.x2)),
        "top": mm(line.y1 - half),
        "width": mm(abs(line.x2 - line.x1)),
        "height": "0",
        "border": f"border-top: {width_pt:g}pt",
        "orient": "h",
    }


def margin_note(layout: Imposition) -> dict[str, str] | None:
    """Where a one-line note fits in the top margin (above the cut marks), if it does."""
    tops = [min(m.y1, m.y2) for m in layout.marks if m.x1 == m.x2]
    tops += [r.y - layout.bleed for r in layout.fronts + layout.backs]
    if not layout.fronts or min(tops) - PRINTABLE_MM < NOTE_MM + 1:
        return None
    return {
        "left": mm(PRINTABLE_MM + 6),
        "top": mm(PRINTABLE_MM),
        "width": mm(layout.page_w - 2 * PRINTABLE_MM - 12),
    }


def print_note_box(
    xs: Sequence[float], w: float, bottom: float, bleed: float, page_h: float
) -> Rect | None:
    """Where the one-line "print at 100%" note goes: in the bottom margin under the first
    column (``xs``: the slots' left edges, ``w`` wide; ``bottom``: the grid's foot), clear
    of the column's cut marks by a millimetre each side, its foot on the printable zone's
    edge, and never in the bleed. None where the margin has no room for it."""
    top = page_h - PRINTABLE_MM - NOTE_MM
    if not xs or top < bottom + mark_clearance(bleed) - 1e-9:
        return None
    return Rect(min(xs) + 1.0, top, w - 2.0, NOTE_MM)


def print_note_place(layout: Imposition) -> Rect | None:
    """``print_note_box`` for a deck's sheet (fronts and, on a fold sheet, backs)."""
    slots = layout.fronts + layout.backs
    if not slots:
        return None
    bottom = max(r.bottom for r in slots)
    return print_note_box([r.x for r in slots], layout.slot[0], bottom, layout.bleed, layout.page_h)


def note_view(box: Rect, text: str) -> dict[str, str]:
    """A margin note for templates: its box as CSS lengths, and its words."""
    return {"left": mm(box.x), "top": mm(box.y), "width": mm(box.w), "text": text}


def turn_style(
    card: tuple[float, float], turn: int, lift: bool = False, at: tuple[float, float] = (0, 0)
) -> str:
    """CSS for a card (width, height) turned ``turn`` degrees clockwise in its slot, whose
    top-left corner is ``at`` (mm) on the page: laid out upright from the slot's top-left
    corner, turned about that corner, then moved back into the slot. The card's box is
    placed on the page itself, with no box for the slot: one box fewer per card to style
    and lay out.

    Laid out upright, a card on its side reaches below its slot; near the foot of a page
    that would be past the page, where WeasyPrint drops lines (and a translucent group
    drops what it draws off its page). ``lift`` lays it out from the slot's foot upwards
    instead; a card rendered alone gets a page as tall as the card (``card_page``)."""
    w, h = card
    x, y = at
    lifted = lift and turn % 180 != 0
    top = y + (w - h) if lifted else y
    style = f"left: {mm(x)}; top: {mm(top)}; width: {mm(w)}; height: {mm(h)};"
    if not turn:
        return style
    dx, dy = {90: (h, 0.0), 180: (w, h), 270: (0.0, w)}[turn]
    if lifted:
        dy += h - w
    return (
        f"{style} transform-origin: 0 0;"
        f" transform: translate({mm(dx)}, {mm(dy)}) rotate({turn}deg);"
    )


def card_page(layout: Imposition) -> tuple[float, float]:
    """The page one card is rendered alone on, before it is placed on its sheet: its slot
    and bleed, and as tall as the card laid out upright (see ``turn_style``)."""
    slot_w, slot_h = layout.slot
    b = layout.bleed
    return slot_w + 2 * b, max(slot_h, layout.card_h, layout.card_w) + 2 * b


def page_view(layout: Imposition) -> dict[str, str]:
    return {
        "width": mm(layout.page_w),
        "height": mm(layout.page_h),
        "size": f"{mm(layout.page_w)} {mm(layout.page_h)}",
        "bleed": mm(layout.bleed),
    }
