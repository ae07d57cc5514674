"""Imposition with pikepdf: rendered pages placed onto sheets without laying them out again.

Two uses. Card decks: every card is rendered once, on its own card-sized page, and placed
onto the sheets (``impose_units``), so a rebuild after editing one card renders one card.
Booklets: saddle-stitch imposition, a booklet's pages two to a landscape sheet, ready to fold.

Print the result on both sides, flipping on the short edge, stack the sheets in order,
fold them in half together and staple on the fold. Page N lands beside page 1 on the outside
of the first sheet, page 2 beside page N-1 on its back, and so on inwards.

The sheet is as wide as two pages: A5 pages print on A4, half-letter pages on Letter (A4
and Letter pages would need A3 or tabloid sheets). Imposed sheets are for the printer only,
so the pages' tags and bookmarks are not carried over.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import pikepdf

from ..documents.base import Placement

POINTS_PER_MM = 72 / 25.4

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


def impose_saddle(pdf_bytes: bytes) -> bytes:
    """Every pair of pages placed side by side on a sheet twice as wide, in saddle order.

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
                copied = out.copy_foreign(source.pages[number - 1].as_form_xobject())
                forms[number] = copied
            return forms[number]

        for left, right in saddle_order(count):
            sheet = out.add_blank_page(page_size=(2 * width, height))
            for number, x in ((left, 0.0), (right, width)):
                if number <= count:  # later numbers are the padding: left blank
                    sheet.add_overlay(form(number), pikepdf.Rectangle(x, 0, x + width, height))
        buffer = io.BytesIO()
        out.save(buffer, deterministic_id=True)
        return buffer.getvalue()


def _form_xobject(pdf: pikepdf.Pdf, page: pikepdf.Page) -> pikepdf.Object:
    """A page as a form XObject that keeps the page's resources by reference.

    pikepdf's ``as_form_xobject`` copies them into each form, and WeasyPrint gives every page
    of a document one shared resource dictionary naming all its images and patterns: a
    500-card deck grew to 3.7 MB of repeated dictionaries. Sharing keeps it at 1.3 MB, and
    the content stream is moved still compressed."""
    contents = page.obj.Contents
    if isinstance(contents, pikepdf.Stream):
        form = pikepdf.Stream(pdf, b"")
        form.write(
            contents.read_raw_bytes(),
            filter=contents.get("/Filter"),  # type: ignore[arg-type]
            decode_parms=contents.get("/DecodeParms"),  # type: ignore[arg-type]
        )
    else:  # an array of streams: join them (rare from WeasyPrint)
        form = pikepdf.Stream(pdf, b"\n".join(part.read_bytes() for part in contents))
    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    form.Type = pikepdf.Name.XObject
    form.Subtype = pikepdf.Name.Form
    form.BBox = [x0, y0, x1, y1]
    form.Matrix = [1, 0, 0, 1, -x0, -y0]
    form.Resources = page.obj.Resources
    return pdf.make_indirect(form)


def impose_units(
    sources: Mapping[str, bytes],
    units: Sequence[tuple[str, int, int]],
    sheets: Sequence[Sequence[Placement]],
    paper_mm: tuple[float, float],
    title: str,
) -> tuple[bytes, int]:
    """Sheets of paper made of placed units; returns the PDF and its page count.

    ``units[i]`` is (source, first page, pages): where unit i was rendered. Each page
    becomes one form XObject, however often it is placed (a deck's back is stored once for
    every sheet), and a source's fonts are copied once for all its units. A placement of
    ``all_pages`` gives every page of its unit a sheet of its own.
    """
    paper_w, paper_h = (round(v * POINTS_PER_MM, 3) for v in paper_mm)
    opened: dict[str, pikepdf.Pdf] = {}
    try:
        with pikepdf.new() as out:
            forms: dict[tuple[int, int], tuple[pikepdf.Object, float]] = {}

            def form(index: int, offset: int) -> tuple[pikepdf.Object, float]:
                if (index, offset) not in forms:
                    source, first, _ = units[index]
                    if source not in opened:
                        opened[source] = pikepdf.open(io.BytesIO(sources[source]))
                    page = opened[source].pages[first + offset]
                    height = float(page.mediabox[3]) - float(page.mediabox[1])
                    xobject = out.copy_foreign(_form_xobject(opened[source], page))
                    forms[index, offset] = (xobject, height)
                return forms[index, offset]

            def add_sheet(placements: Sequence[tuple[Placement, int]]) -> None:
                names = pikepdf.Dictionary()
                drawing = []
                for n, (placement, offset) in enumerate(placements):
                    xobject, height = form(placement.unit, offset)
                    names[f"/U{n}"] = xobject
                    # PDF measures from the bottom-left corner, the layout from the top-left.
                    x = placement.x_mm * POINTS_PER_MM
                    y = paper_h - placement.y_mm * POINTS_PER_MM - height
                    drawing.append(f"q 1 0 0 1 {x:.3f} {y:.3f} cm /U{n} Do Q")
                page = pikepdf.Dictionary(
                    Type=pikepdf.Name.Page,
                    MediaBox=[0, 0, paper_w, paper_h],
                    Resources=pikepdf.Dictionary(XObject=names),
                    Contents=out.make_stream("\n".join(drawing).encode()),
                )
                out.pages.append(pikepdf.Page(page))

            for placements in sheets:
                whole = [p for p in placements if p.all_pages]
                if whole:
                    for placement in whole:
                        for offset in range(units[placement.unit][2]):
                            add_sheet([(placement, offset)])
                    continue
                add_sheet([(p, 0) for p in placements])
            out.docinfo["/Title"] = title
            out.docinfo["/Creator"] = "scratchpress"
            buffer = io.BytesIO()
            out.save(buffer, deterministic_id=True)
            return buffer.getvalue(), len(out.pages)
    finally:
        for pdf in opened.values():
            pdf.close()


__all__ = ["impose_saddle", "impose_units", "padded_length", "saddle_order"]
