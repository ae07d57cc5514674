"""Where initiative cards go on a sheet of paper: the grid, its cut marks and fold marks.

Cards (or fold-over tents, twice as tall) sit a gutter apart in a grid centred on the page,
with room around it for cut marks inside the printable zone (``cardsheet``'s rules: marks
at least 4 mm long, nothing within ``PRINTABLE_MM`` of the paper edge); the page turns
landscape when that fits more cards (no backs to line up, so nothing is lost). Cut marks are
hairlines outside the grid at every card edge, for a ruler; light grey guides along the card
edges serve scissors. The math is pure and tested on its own; :func:`layout` turns it into
the template's lengths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...definitions.models import BuildOptions
from ...render.viewer import print_note
from ...typesetting.paper import PAPER_MM
from ...typesetting.units import mm
from ..cardsheet import (
    MARK_GAP_MM,
    MAX_MARK_MM,
    PRINTABLE_MM,
    Rect,
    gutters,
    most,
    note_view,
    print_note_box,
    widest_gutter,
)
from ..cardsheet import cut_marks as trim_marks
from .metrics import METRICS


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
# A document's sheets: the grid for its card size and paper, as the template's lengths


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
    # No backs to line up: the cards (and tents, folded) print on one side.
    box = print_note_box(
        [c.x for c in cells], grid.cell_w, grid.top + grid.height, 0.0, grid.page_h
    )
    return {
        "page_w": mm(grid.page_w),
        "page_h": mm(grid.page_h),
        "orientation": "landscape" if grid.landscape else "portrait",
        "per_page": grid.per_page,
        "marks": marks,
        "note": note_view(box, print_note("one-sided")) if box is not None else None,
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
