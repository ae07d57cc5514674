"""Cards laid out on paper: n-up grids, cut marks, duplex backs, fold-over sheets, and a
layout check that no card's text runs past its edge.

Pure geometry in millimetres (origin at the top-left of the page, y downwards), so it can
be tested without rendering. Templates receive the results as ready CSS lengths.

Conventions:
- A card's *trim box* is where it is cut. With bleed, its background runs ``BLEED_MM`` past
  the trim on every side, and neighbours sit ``2 * BLEED_MM`` apart so bleeds never meet.
- Cut marks are hairlines on the extension of every trim line, outside the grid, never
  closer than ``SAFE_MM`` to the paper edge, where home printers clip. They start clear of
  the bleed where the margin allows; where it does not, they cross it (it is cut away).
- Poker cards go 3 x 3 on Letter and A4 (Letter leaves only 7.7 mm above and below the grid,
  so those marks are short). Bleed gaps cost a row on Letter and a column on A4.
- Back positions are in the back page's own coordinates (as seen looking at the back).
  A printer that shifts its backs by (dx, dy) is corrected by moving every back by
  (-dx, -dy): ``settings.duplex_offset_mm`` holds (dx, dy), measured by ``calibrate``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .base import PAPER_MM

SAFE_MM = 6.0  # nothing printed closer to the paper edge (DESIGN.md, "Look and feel")
BLEED_MM = 3.0
MARK_GAP_MM = 0.5  # between a mark and the grid (or its bleed), so no mark shows on a card
MIN_MARK_MM = 0.8  # shorter than this, a mark is no help; the grid loses a row instead
MAX_MARK_MM = 5.0
FOLD_GAP_MM = 3.0  # each side of a fold line, so a fold a little off still cuts clean
NOTE_MM = 3.0  # height of a one-line 7 pt note in a page margin
MARK_PT = 0.5  # hairline width: the thinnest line every printer renders
POKER_MM = (63.0, 88.0)
MM_PER_PX = 25.4 / 96  # WeasyPrint's layout unit is the CSS px

Backs = Literal["none", "duplex", "fold"]
Edge = Literal["long", "short"]


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

    ``fronts[i]`` is the trim box of the i-th card on a front page. ``backs[i]`` is where
    the same card's back goes: on the back page (duplex) or on the same page (fold).
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
    back_rotated: bool = False  # fold along a horizontal line: backs upside down
    marks: list[Line] = field(default_factory=list)
    fold: Line | None = None

    @property
    def per_page(self) -> int:
        return len(self.fronts)


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    w, h = PAPER_MM[paper]
    return (h, w) if landscape else (w, h)


def _fits(count: int, size: float, gap: float, room: float, bleed: float, inner: float) -> bool:
    """Do ``count`` cards of ``size`` (``gap`` apart) fit in ``room`` with space for cut
    marks on the outer side(s)? ``inner`` is what a fold needs on the other side.

    The outer bleed may reach into the margin printers clip: it is cut off anyway, and a
    mark may cross it. The marks themselves stay out of the clipped margin."""
    extent = count * size + (count - 1) * gap + inner
    outer_sides = 1 if inner else 2
    margin = (room - extent) / outer_sides
    needed = max(SAFE_MM + MIN_MARK_MM + MARK_GAP_MM, bleed)
    return count >= 1 and margin + 1e-9 >= needed


def _most(size: float, gap: float, room: float, bleed: float, inner: float = 0.0) -> int:
    count = 0
    while _fits(count + 1, size, gap, room, bleed, inner):
        count += 1
    return count


def _axis(start: float, count: int, size: float, gap: float) -> list[float]:
    return [start + i * (size + gap) for i in range(count)]


def _cut_marks(
    xs: Sequence[float],
    ys: Sequence[float],
    w: float,
    h: float,
    bleed: float,
    page_w: float,
    page_h: float,
) -> list[Line]:
    """Hairlines continuing every trim line past the grid, up to the safe margin.

    A mark starts clear of the bleed when the margin leaves room for it; otherwise it
    crosses the bleed, which is cut away with it."""
    left, right = min(xs), max(xs) + w
    top, bottom = min(ys), max(ys) + h

    def clear(margin: float) -> float:
        """How far from the trim a mark starts, given the trim-to-paper-edge margin."""
        outside_bleed = bleed + MARK_GAP_MM
        return outside_bleed if margin - outside_bleed - SAFE_MM >= MIN_MARK_MM else MARK_GAP_MM

    marks: list[Line] = []
    above, below = clear(top), clear(page_h - bottom)
    for x in sorted({round(v, 4) for x0 in xs for v in (x0, x0 + w)}):
        start = top - above
        marks.append(Line(x, max(SAFE_MM, start - MAX_MARK_MM), x, start))
        start = bottom + below
        marks.append(Line(x, start, x, min(page_h - SAFE_MM, start + MAX_MARK_MM)))
    before, after = clear(left), clear(page_w - right)
    for y in sorted({round(v, 4) for y0 in ys for v in (y0, y0 + h)}):
        start = left - before
        marks.append(Line(max(SAFE_MM, start - MAX_MARK_MM), y, start, y))
        start = right + after
        marks.append(Line(start, y, min(page_w - SAFE_MM, start + MAX_MARK_MM), y))
    return marks


def grid(
    paper: str,
    card: tuple[float, float] = POKER_MM,
    bleed: bool = False,
    max_cols: int = 3,
    max_rows: int = 3,
) -> Imposition:
    """The n-up grid for one-sided or duplex printing: portrait, centred, cut marks.

    Poker cards go 3 x 3 on Letter and A4. With bleed the 6 mm gaps cost a row on Letter
    (3 x 2) and a column on A4 (2 x 3).
    """
    page_w, page_h = paper_size(paper)
    w, h = card
    b = BLEED_MM if bleed else 0.0
    gap = 2 * b
    cols = min(max_cols, _most(w, gap, page_w, b))
    rows = min(max_rows, _most(h, gap, page_h, b))
    if not cols or not rows:
        raise ValueError(f"a {w:g} x {h:g} mm card does not fit on {paper} with cut marks")
    x0 = (page_w - (cols * w + (cols - 1) * gap)) / 2
    y0 = (page_h - (rows * h + (rows - 1) * gap)) / 2
    xs, ys = _axis(x0, cols, w, gap), _axis(y0, rows, h, gap)
    fronts = [Rect(x, y, w, h) for y in ys for x in xs]  # reading order: rows, then columns
    return Imposition(
        page_w,
        page_h,
        False,
        w,
        h,
        b,
        cols,
        rows,
        fronts,
        marks=_cut_marks(xs, ys, w, h, b, page_w, page_h),
    )


def duplex_backs(
    layout: Imposition, edge: Edge = "long", offset_mm: tuple[float, float] = (0.0, 0.0)
) -> list[Rect]:
    """Where each front's back goes on the next page, seen from the back.

    Turning a portrait sheet over its long edge mirrors columns (x -> W - x - w); over its
    short edge, rows. Every back then moves by minus the printer's measured offset.
    """
    dx, dy = offset_mm
    backs = []
    for r in layout.fronts:
        if edge == "long":
            mirrored = Rect(layout.page_w - r.x - r.w, r.y, r.w, r.h)
        else:
            mirrored = Rect(r.x, layout.page_h - r.y - r.h, r.w, r.h)
        backs.append(mirrored.shifted(-dx, -dy))
    return backs


def _fold_vertical(paper: str, landscape: bool, w: float, h: float, b: float) -> Imposition:
    """Fronts left of a vertical fold, backs mirrored to its right (upright)."""
    page_w, page_h = paper_size(paper, landscape)
    gap = 2 * b
    fold = page_w / 2
    inner = max(FOLD_GAP_MM, b)  # trim to fold; with bleed the two bleeds meet at the fold
    cols = _most(w, gap, fold, b, inner)
    rows = _most(h, gap, page_h, b)
    if not cols or not rows:
        return Imposition(page_w, page_h, landscape, w, h, b, 0, 0, [])
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
        w,
        h,
        b,
        cols,
        rows,
        fronts,
        backs,
        marks=_cut_marks(all_x, ys, w, h, b, page_w, page_h),
        fold=Line(fold, SAFE_MM + NOTE_MM + 1, fold, page_h - SAFE_MM),  # below the note
    )


def _fold_horizontal(paper: str, landscape: bool, w: float, h: float, b: float) -> Imposition:
    """Fronts above a horizontal fold, backs below it turned upside down, so they read
    upright when the folded card is turned over like a page."""
    page_w, page_h = paper_size(paper, landscape)
    gap = 2 * b
    fold = page_h / 2
    inner = max(FOLD_GAP_MM, b)
    rows = _most(h, gap, fold, b, inner)
    cols = _most(w, gap, page_w, b)
    if not cols or not rows:
        return Imposition(page_w, page_h, landscape, w, h, b, 0, 0, [])
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
        w,
        h,
        b,
        cols,
        rows,
        fronts,
        backs,
        back_rotated=True,
        marks=_cut_marks(xs, all_y, w, h, b, page_w, page_h),
        fold=Line(SAFE_MM, fold, page_w - SAFE_MM, fold),
    )


def fold_sheet(paper: str, card: tuple[float, float] = POKER_MM, bleed: bool = False) -> Imposition:
    """Fronts and backs on one side of the paper, either side of a fold line: print
    one-sided, fold in half (printed sides out), glue or not, cut both layers at once.

    Tries both page orientations and both fold directions; takes the most cards per sheet,
    preferring a vertical fold (backs stay upright) and portrait paper on a tie.
    """
    w, h = card
    b = BLEED_MM if bleed else 0.0
    candidates = [
        _fold_vertical(paper, False, w, h, b),
        _fold_vertical(paper, True, w, h, b),
        _fold_horizontal(paper, False, w, h, b),
        _fold_horizontal(paper, True, w, h, b),
    ]
    best = max(candidates, key=lambda c: c.per_page)  # max keeps the first of equals
    if not best.per_page:
        raise ValueError(f"a {w:g} x {h:g} mm card does not fit on {paper} folded")
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


def line_style(line: Line, width_pt: float = MARK_PT) -> dict[str, str]:
    """A hairline as an absolutely placed box with one border."""
    vertical = line.x1 == line.x2
    if vertical:
        return {
            "left": mm(line.x1),
            "top": mm(min(line.y1, line.y2)),
            "width": "0",
            "height": mm(abs(line.y2 - line.y1)),
            "border": f"border-left: {width_pt:g}pt",
            "orient": "v",
        }
    return {
        "left": mm(min(line.x1, line.x2)),
        "top": mm(line.y1),
        "width": mm(abs(line.x2 - line.x1)),
        "height": "0",
        "border": f"border-top: {width_pt:g}pt",
        "orient": "h",
    }


def margin_note(layout: Imposition) -> dict[str, str] | None:
    """Where a one-line note fits in the top margin (clear of the cut marks), if it does."""
    top = min((r.y for r in layout.fronts), default=0.0)
    if top - MAX_MARK_MM - MARK_GAP_MM - layout.bleed - SAFE_MM < NOTE_MM + 1:
        return None
    return {
        "left": mm(SAFE_MM + 6),
        "top": mm(SAFE_MM),
        "width": mm(layout.page_w - 2 * SAFE_MM - 12),
    }


def page_view(layout: Imposition) -> dict[str, str]:
    return {
        "width": mm(layout.page_w),
        "height": mm(layout.page_h),
        "size": f"{mm(layout.page_w)} {mm(layout.page_h)}",
        "bleed": mm(layout.bleed),
    }


# ---------------------------------------------------------------------------------------
# Layout check: measured from WeasyPrint's boxes, not guessed from word counts
# ---------------------------------------------------------------------------------------

CARD_CLASS = "card"  # the trim box of a card; carries data-card="<id>"
LIMIT_CLASS = "card-safe"  # the area text must stay inside (the card minus its safe inset)
FOOT_CLASS = "card-foot"  # a block pinned to the bottom; the flowing text must end above it
FOOT_GAP_MM = 0.6  # least white space between the flowing text and a pinned foot


def _classes(box: Any) -> set[str]:
    element = getattr(box, "element", None)
    if element is None:
        return set()
    return set((element.get("class") or "").split())


def _walk(box: Any) -> Iterable[Any]:
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _walk(child)


def _text_extent(box: Any, skip: Any = None) -> tuple[float, float, float, float] | None:
    """Left, top, right, bottom (px) of the text and images inside ``box``, leaving out the
    subtree of ``skip``.

    Vertically a line counts by its line box (the line-height the design sets), not by its
    glyph runs: Charis's tall ascent and descent make a run's box reach well past the line
    pitch, ink that is never there. Horizontally the glyph runs count, as they are set.
    """
    found: list[tuple[float, float, float, float]] = []
    for child in _walk_except(box, skip):
        kind = type(child).__name__
        if kind in {"InlineReplacedBox", "BlockReplacedBox"}:
            x, y = child.position_x, child.position_y
            found.append((x, y, x + child.width, y + child.height))
        elif kind == "LineBox":
            runs = [t for t in _walk(child) if type(t).__name__ == "TextBox" and t.text.strip()]
            if runs:
                found.append(
                    (
                        min(t.position_x for t in runs),
                        child.position_y,
                        max(t.position_x + t.width for t in runs),
                        child.position_y + child.height,
                    )
                )
    if not found:
        return None
    return (
        min(f[0] for f in found),
        min(f[1] for f in found),
        max(f[2] for f in found),
        max(f[3] for f in found),
    )


def _walk_except(box: Any, skip: Any) -> Iterable[Any]:
    if box is skip:
        return
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _walk_except(child, skip)


def card_margins(document: Any) -> list[tuple[str, float]]:
    """Every card with how far (mm) its text reaches past where it may go: positive is an
    overflow (on the worst side), negative is the room to spare below the text.

    ``document`` is a rendered WeasyPrint document (``HTML(...).render()``). For each
    element of class ``card`` we take the box of class ``card-safe`` inside it (the card
    minus the inset a cut a little off can eat) and compare it with the extent of every
    glyph run and image inside the card: below the bottom, past the right edge, above or
    left of it. A block of class ``card-foot`` is pinned to the bottom; the text flowing
    above it must end ``FOOT_GAP_MM`` above its top. The layout tree is never clipped, so
    this measures the real overflow even where CSS hides it on paper.
    """
    found: list[tuple[str, float]] = []
    gap = FOOT_GAP_MM / MM_PER_PX
    for page in document.pages:
        for box in _walk(page._page_box):
            if CARD_CLASS not in _classes(box):
                continue
            card_id = box.element.get("data-card") or f"back:{box.element.get('data-back')}"
            limit = next((b for b in _walk(box) if LIMIT_CLASS in _classes(b)), box)
            foot = next((b for b in _walk(box) if FOOT_CLASS in _classes(b)), None)
            left = limit.padding_box_x()
            top = limit.padding_box_y()
            right = left + limit.padding_width()
            bottom = top + limit.padding_height()
            extent = _text_extent(box)
            if extent is None:
                continue
            over = max(extent[3] - bottom, extent[2] - right, left - extent[0], top - extent[1])
            spare = bottom - extent[3]
            if foot is not None:
                flowing = _text_extent(box, skip=foot)
                if flowing is not None:
                    spare = foot.position_y - gap - flowing[3]
                    over = max(over, -spare)
            if over <= 0.01:  # px: text set flush against a side is inside, not over
                over = -spare  # all inside: report the room left below the text
            found.append((card_id, round(over * MM_PER_PX, 2)))
    return found


def card_overflows(document: Any, tolerance_mm: float = 0.05) -> list[tuple[str, float]]:
    """The cards whose text runs outside their safe area, with by how much (mm).

    WeasyPrint lets a line run a hair (about 0.03 mm) past its box when it fits the words;
    ``tolerance_mm`` keeps that rounding from counting as overflow.
    """
    return [(card, over) for card, over in card_margins(document) if over > tolerance_mm]


def _runs_with_lines(box: Any, line: Any = None) -> Iterable[tuple[Any, Any]]:
    """Every non-blank glyph run inside ``box`` with the line box that holds it."""
    kind = type(box).__name__
    if kind == "LineBox":
        line = box
    elif kind == "TextBox" and line is not None and box.text.strip():
        yield box, line
    for child in getattr(box, "children", ()) or ():
        yield from _runs_with_lines(child, line)


def card_collisions(document: Any) -> list[tuple[str, str, str]]:
    """Text that prints over other text on the same card: (card id, one run, the other).

    Two glyph runs collide when they sit on different lines yet share both some width and
    most of a line's height: a float over a line that would not wrap, a pinned foot over
    the flowing text. Overflow past the card's edge is ``card_overflows``'s business.
    """
    found: list[tuple[str, str, str]] = []
    for page in document.pages:
        for box in _walk(page._page_box):
            if CARD_CLASS not in _classes(box):
                continue
            card_id = box.element.get("data-card") or f"back:{box.element.get('data-back')}"
            rects = [
                (
                    run.position_x,
                    line.position_y,
                    run.position_x + run.width,
                    line.position_y + line.height,
                    line,
                    run.text.strip(),
                )
                for run, line in _runs_with_lines(box)
            ]
            for i, a in enumerate(rects):
                for b in rects[i + 1 :]:
                    if a[4] is b[4]:
                        continue
                    wide = min(a[2], b[2]) - max(a[0], b[0])
                    high = min(a[3], b[3]) - max(a[1], b[1])
                    if wide > 0.5 and high > 0.3 * min(a[3] - a[1], b[3] - b[1]):
                        found.append((card_id, a[5], b[5]))
    return found
