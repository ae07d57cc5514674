"""Imposition with pikepdf: rendered pages placed onto sheets without laying them out again.

Card decks and the roster: every card (or page) is rendered once, on its own page, and
placed onto the sheets (``impose_units``), so a rebuild after editing one card renders one
card. A booklet's saddle-stitch copy is imposed in ``documents/booklet/imposition.py``.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import pikepdf

from .. import wording
from ..typesetting.units import PT_PER_MM
from .anchors import Link, link_annotation, page_links
from .jobs import Placement
from .viewer import Flip, set_print_preferences

POINTS_PER_MM = PT_PER_MM  # PDF user space is in points


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


class Imposer:
    """Puts sheets together from rendered units, keeping what it made for the next time.

    One build uses an imposer once (:func:`impose_units`). ``build --watch`` keeps one per
    document: the sources stay open and every page already made into a form stays in the
    output PDF, so after an edit only the new card's page is copied; the sheets themselves
    are cheap to lay out again. Forms no sheet uses any more are not written out (a PDF
    writer keeps only what the pages reach), so the file is the same either way. Sources no
    sheet uses any more are closed, and once the forms left behind outnumber the live ones
    the output starts afresh, so an evening of edits does not grow the process without end.
    """

    def __init__(self) -> None:
        self.out = pikepdf.new()
        self.opened: dict[str, pikepdf.Pdf] = {}
        self.forms: dict[tuple[str, int], tuple[pikepdf.Object, float]] = {}
        self.dropped = 0  # forms still in ``out`` that no sheet can reach
        # The live preview's source links (render/anchors.py): forms carry no annotations,
        # so each page's links are read once with its form and laid on every sheet that
        # places it; the annotations made stay, like the forms, for the next build.
        self.links: dict[tuple[str, int], tuple[float, float, list[Link]]] = {}
        self.annotations: dict[tuple[str, int, float, float], list[Any]] = {}
        self.placed: set[tuple[str, int, float, float]] = set()  # this build's, so far

    def _forget(self, used: set[str]) -> None:
        for source in [s for s in self.opened if s not in used]:
            self.opened.pop(source).close()
        stale = [key for key in self.forms if key[0] not in used]
        for key in stale:
            del self.forms[key]
            self.links.pop(key, None)
        # Links placed nowhere in the last build (a card added early moves every later
        # card) are left behind like forms: counted, so the output starts afresh in time.
        unplaced = [placed for placed in self.annotations if placed not in self.placed]
        for placed in unplaced:
            del self.annotations[placed]
        self.placed = set()
        self.dropped += len(stale) + len(unplaced) // 64
        if self.dropped > max(len(self.forms), 100):
            self.out.close()
            self.out = pikepdf.new()
            self.forms.clear()
            self.links.clear()
            self.annotations.clear()
            self.dropped = 0

    def close(self) -> None:
        for pdf in self.opened.values():
            pdf.close()
        self.out.close()

    def _form(self, sources: Mapping[str, bytes], source: str, number: int) -> tuple[Any, float]:
        if (source, number) not in self.forms:
            if source not in self.opened:
                self.opened[source] = pikepdf.open(io.BytesIO(sources[source]))
            page = self.opened[source].pages[number]
            height = float(page.mediabox[3]) - float(page.mediabox[1])
            xobject = self.out.copy_foreign(_form_xobject(self.opened[source], page))
            self.forms[source, number] = (xobject, height)
            # Links measured from the page's corner, as the form is drawn (its Matrix).
            x0, y0 = float(page.mediabox[0]), float(page.mediabox[1])
            self.links[source, number] = (x0, y0, page_links(page))
        return self.forms[source, number]

    def _annotations(self, source: str, number: int, x: float, y: float) -> list[Any]:
        """The page's links, moved to where it is placed (its bottom-left corner at x, y).
        An annotation belongs to one page: a page placed twice in one build gets its own
        for the second place."""
        placed = (source, number, x, y)
        if placed in self.placed or placed not in self.annotations:
            x0, y0, links = self.links[source, number]
            dx, dy = x - x0, y - y0
            made = [
                self.out.make_indirect(
                    link_annotation((left + dx, bottom + dy, right + dx, top + dy), uri)
                )
                for left, bottom, right, top, uri in links
            ]
            if placed in self.placed:
                return made
            self.annotations[placed] = made
        self.placed.add(placed)
        return self.annotations[placed]

    def impose(
        self,
        sources: Mapping[str, bytes],
        units: Sequence[tuple[str, int, int]],
        sheets: Sequence[Sequence[Placement]],
        paper_mm: tuple[float, float],
        title: str,
        links: bool = False,
        flip: Flip | None = None,
    ) -> tuple[bytes, int]:
        """Sheets of paper made of placed units; returns the PDF and its page count.

        ``units[i]`` is (source, first page, pages): where unit i was rendered. Each page
        becomes one form XObject, however often it is placed (a deck's back is stored once
        for every sheet), and a source's fonts are copied once for all its units. A
        placement of ``all_pages`` gives every page of its unit a sheet of its own. With
        ``links`` (the live preview's renders), each placed page's source links come along;
        with ``flip``, the viewer preferences for printing it (render/viewer.py), set here
        rather than by opening the whole deck again after.
        """
        self._forget({source for source, _, _ in units})
        out = self.out
        paper_w, paper_h = (round(v * POINTS_PER_MM, 3) for v in paper_mm)
        while len(out.pages):
            del out.pages[-1]

        def add_sheet(placements: Sequence[tuple[Placement, int]]) -> None:
            names = pikepdf.Dictionary()
            drawing = []
            annotations: list[Any] = []
            for n, (placement, offset) in enumerate(placements):
                source, first, _ = units[placement.unit]
                xobject, height = self._form(sources, source, first + offset)
                names[f"/U{n}"] = xobject
                # PDF measures from the bottom-left corner, the layout from the top-left.
                x = placement.x_mm * POINTS_PER_MM
                y = paper_h - placement.y_mm * POINTS_PER_MM - height
                drawing.append(f"q 1 0 0 1 {x:.3f} {y:.3f} cm /U{n} Do Q")
                if links:
                    annotations += self._annotations(source, first + offset, x, y)
            page = pikepdf.Dictionary(
                Type=pikepdf.Name.Page,
                MediaBox=[0, 0, paper_w, paper_h],
                Resources=pikepdf.Dictionary(XObject=names),
                Contents=out.make_stream("\n".join(drawing).encode()),
            )
            if annotations:
                page.Annots = pikepdf.Array(annotations)
            out.pages.append(pikepdf.Page(page))

        for placements in sheets:
            whole = [p for p in placements if p.all_pages]
            if whole:
                for placement in whole:
                    for offset in range(units[placement.unit][2]):
                        add_sheet([(placement, offset)])
                continue
            add_sheet([(p, 0) for p in placements])
        if flip is not None:
            set_print_preferences(out, flip)
        out.docinfo["/Title"] = title
        out.docinfo["/Creator"] = "scratchpress"
        # The sheets are a new PDF: they say the language their units were worded in, as
        # WeasyPrint's own documents do, for screen readers and text search.
        out.Root.Lang = pikepdf.String(wording.current().language)
        buffer = io.BytesIO()
        if links:
            # The preview's sheets carry thousands of small link objects: packed into
            # object streams they are written and read back faster. Its file lives for
            # moments, so its ID is not drawn from its bytes (a full pass over them).
            out.save(
                buffer,
                static_id=True,
                object_stream_mode=pikepdf.ObjectStreamMode.generate,
            )
        else:  # printed documents keep the objects as the rendered pages had them
            out.save(buffer, deterministic_id=True)
        return buffer.getvalue(), len(out.pages)


def impose_units(
    sources: Mapping[str, bytes],
    units: Sequence[tuple[str, int, int]],
    sheets: Sequence[Sequence[Placement]],
    paper_mm: tuple[float, float],
    title: str,
    links: bool = False,
    flip: Flip | None = None,
) -> tuple[bytes, int]:
    """:meth:`Imposer.impose` once, with nothing kept."""
    imposer = Imposer()
    try:
        return imposer.impose(sources, units, sheets, paper_mm, title, links, flip)
    finally:
        imposer.close()


__all__ = ["Imposer", "impose_units"]
