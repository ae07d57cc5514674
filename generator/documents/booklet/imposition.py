"""Booklet pages: their geometry on each paper, and the printer's saddle-stitch copy.

Small pages (A5, half-letter) are the fold-and-staple size. The saddle copy puts a booklet's
pages two to a landscape sheet in the order that, folded and stapled, reads 1, 2, 3...
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Literal

import pikepdf

from ...definitions.models import BuildOptions
from ...render.viewer import NOTE_MM, Flip, stamp_note
from ...typesetting.units import PT_PER_MM
from ..cardsheet import PRINTABLE_MM

BookletPaper = Literal["letter", "a4", "a5", "half-letter"]


@dataclass(frozen=True)
class Layout:
    """Page geometry per paper. Small pages (A5, half-letter) are the fold-and-staple size;
    on Letter and A4 the type is larger and the outer margin wide, so a line stays near 80
    characters instead of running across the whole page."""

    size: str  # CSS page size
    width_mm: float
    height_mm: float
    top_mm: float
    bottom_mm: float
    inner_mm: float
    outer_mm: float
    body_pt: float
    small: bool

    @property
    def text_mm(self) -> float:
        return self.width_mm - self.inner_mm - self.outer_mm

    @property
    def text_height_mm(self) -> float:
        return self.height_mm - self.top_mm - self.bottom_mm


LAYOUTS: dict[str, Layout] = {
    "a5": Layout("A5", 148.0, 210.0, 17.0, 17.0, 17.0, 13.0, 9.5, True),
    "half-letter": Layout("5.5in 8.5in", 139.7, 215.9, 17.0, 17.0, 16.0, 12.0, 9.5, True),
    "a4": Layout("A4", 210.0, 297.0, 22.0, 24.0, 24.0, 36.0, 10.5, False),
    "letter": Layout("letter", 215.9, 279.4, 21.0, 23.0, 24.0, 38.0, 10.5, False),
}


# A saddle-stitched booklet's page is half the build's paper, so that the imposed copy, two
# pages side by side, prints on the paper the user chose.
HALF_OF: dict[str, BookletPaper] = {"letter": "half-letter", "a4": "a5"}


@dataclass(frozen=True)
class Sheet:
    """The paper two pages of one size print on side by side, landscape."""

    name: str  # as the summary names it
    width_mm: float
    height_mm: float


# Two A5 pages are 296 mm wide and A4 is 297: the pages sit in the middle of the sheet, the
# fold (the spine) on its centre line, and the half millimetre each side stays blank.
SHEET_FOR: dict[BookletPaper, Sheet] = {
    "a5": Sheet("A4 (210x297 mm)", 297.0, 210.0),
    "half-letter": Sheet("letter (8.5x11 in)", 279.4, 215.9),
    "a4": Sheet("A3 (297x420 mm)", 420.0, 297.0),
    "letter": Sheet("tabloid (11x17 in)", 431.8, 279.4),
}


def booklet_layout(
    paper: BookletPaper | None, options: BuildOptions
) -> tuple[BookletPaper, Layout]:
    """The paper a booklet's pages are (its own ``paper:``, else the build's, halved when
    the build imposes it for saddle stitching) and their layout."""
    if paper is None:
        paper = HALF_OF[options.paper] if options.impose == "saddle" else options.paper
    return paper, LAYOUTS[paper]


def saddle_sheet(paper: BookletPaper, options: BuildOptions) -> dict[str, Any]:
    """What the build needs to impose ``paper`` pages: the sheet's size in points, and its
    name when it is not the build's paper (a booklet that names its own page size, such as
    Letter pages on "tabloid (11x17 in)"), else None."""
    sheet = SHEET_FOR[paper]
    return {
        "size_pt": (sheet.width_mm * PT_PER_MM, sheet.height_mm * PT_PER_MM),
        "paper": None if HALF_OF[options.paper] == paper else sheet.name,
    }


# The printer's copy. Print it on both sides, flipping on the short edge, stack the sheets
# in order, fold them in half together and staple on the fold. Page N lands beside page 1
# on the outside of the first sheet, page 2 beside page N-1 on its back, and so on inwards.
# The sheet is as wide as two pages: A5 pages print on A4, half-letter pages on Letter (A4
# and Letter pages need A3 or tabloid sheets, which the summary says). Imposed sheets are
# for the printer only, so the pages' tags and bookmarks are not carried over.


# One side of a sheet: the page numbers (1-based) on its left and right half. Numbers past
# the document's last page are the blank pages that pad it to a multiple of four.
Side = tuple[int, int]


def padded_length(pages: int) -> int:
    """Pages rounded up to a multiple of four: every sheet holds four pages."""
    if pages < 1:
        raise ValueError("a booklet needs at least one page")
    return -(-pages // 4) * 4


def saddle_order(pages: int) -> list[Side]:
    """Front and back of every sheet, outermost sheet first.

    For 10 pages (padded to 12): sheet 1 front [12, 1], back [2, 11]; sheet 2 front
    [10, 3], back [4, 9]; sheet 3 front [8, 5], back [6, 7]. 11 and 12 print blank.
    """
    total = padded_length(pages)
    sides: list[Side] = []
    for sheet in range(total // 4):
        low, high = 2 * sheet + 1, total - 2 * sheet
        sides.append((high, low))  # front: the later page outside on the left
        sides.append((low + 1, high - 1))  # back
    return sides


# Landscape sheets, pages side by side: flipped on the long edge, every back prints upside down.
SADDLE_FLIP: Flip = "short"


def note_box(sheet_mm: tuple[float, float]) -> tuple[float, float, float]:
    """Where the printing note goes on the first side (left, top, width in mm): the foot
    of its left half, which is the back cover, centred under the text and clear of the
    folio in its outer corner, inside the printable zone."""
    width, height = sheet_mm
    inset = PRINTABLE_MM + 20.0  # past the folio, at the page's outer margin
    return (inset, height - PRINTABLE_MM - NOTE_MM, width / 2 - 2 * inset)


def printers_copy(pdf_bytes: bytes, sheet_pt: tuple[float, float] | None = None) -> bytes:
    """``impose_saddle``, with the viewer preferences (actual size, flip on the short
    edge) and the note saying so on the first side."""
    imposed = impose_saddle(pdf_bytes, sheet_pt)
    with pikepdf.open(io.BytesIO(imposed)) as pdf:
        x0, y0, x1, y1 = (float(v) for v in pdf.pages[0].mediabox)
    sheet_mm = ((x1 - x0) / PT_PER_MM, (y1 - y0) / PT_PER_MM)
    return stamp_note(imposed, SADDLE_FLIP, note_box(sheet_mm))


def impose_saddle(pdf_bytes: bytes, sheet_pt: tuple[float, float] | None = None) -> bytes:
    """Every pair of pages placed side by side on a sheet, in saddle order: a sheet of
    ``sheet_pt`` (width, height in points) with the fold on its centre line, or one
    exactly twice as wide as a page.

    The pages keep their size (no scaling): type set for a 9.5 pt body stays 9.5 pt.
    """
    with pikepdf.open(io.BytesIO(pdf_bytes)) as source, pikepdf.new() as out:
        count = len(source.pages)
        if count == 0:
            raise ValueError("the PDF has no pages to impose")
        box = source.pages[0].mediabox
        width = float(box[2]) - float(box[0])
        height = float(box[3]) - float(box[1])
        # Each source page becomes a form XObject once, however many sheets use it.
        forms: dict[int, pikepdf.Object] = {}

        def form(number: int) -> pikepdf.Object:
            if number not in forms:
                page = source.pages[number - 1]
                x0, y0, x1, y1 = (float(v) for v in page.mediabox)
                if x1 - x0 > y1 - y0:
                    # A landscape page (a wide table's) turned a quarter to stand in its
                    # upright slot at full size: its top to the left, as a reader turns
                    # the booklet clockwise to read it.
                    page.obj.Rotate = 270
                copied = out.copy_foreign(page.as_form_xobject(handle_transformations=True))
                forms[number] = copied
            return forms[number]

        sheet_w, sheet_h = sheet_pt or (2 * width, height)
        if sheet_w < 2 * width - 0.5 or sheet_h < height - 0.5:
            raise ValueError("two pages do not fit side by side on the sheet")
        fold, bottom = sheet_w / 2, (sheet_h - height) / 2
        for left, right in saddle_order(count):
            sheet = out.add_blank_page(page_size=(sheet_w, sheet_h))
            for number, x in ((left, fold - width), (right, fold)):
                if number <= count:  # later numbers are the padding: left blank
                    where = pikepdf.Rectangle(x, bottom, x + width, bottom + height)
                    sheet.add_overlay(form(number), where)
        if "/Lang" in source.Root:  # the booklet's language, for the copy's readers too
            out.Root.Lang = source.Root.Lang
        buffer = io.BytesIO()
        out.save(buffer, deterministic_id=True)
        return buffer.getvalue()
