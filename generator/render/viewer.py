"""Printing at home, told in the file: how a deck or a saddle booklet must be printed.

Two things say it. The PDF's viewer preferences (``/PrintScaling /None``, ``/Duplex``)
preset a reader's print dialogue, so "fit to page" does not shrink a 63 mm card and the
dialogue flips on the edge the backs were laid out for. Not every reader honours them, so a
one-line note printed in the page's margin says the same to whoever holds the paper.
WeasyPrint writes no viewer preferences: pikepdf adds them to the rendered PDF.
"""

from __future__ import annotations

import functools
import html
import io
from typing import Literal

import pikepdf

from ..typesetting.units import PT_PER_MM
from ..wording import N_, _, current

Flip = Literal["long", "short", "one-sided"]

NOTE: dict[Flip, str] = {
    "long": N_("Print at 100% (actual size), flip on the long edge"),
    "short": N_("Print at 100% (actual size), flip on the short edge"),
    "one-sided": N_("Print at 100% (actual size), one-sided"),
}
DUPLEX: dict[Flip, pikepdf.Name] = {
    "long": pikepdf.Name.DuplexFlipLongEdge,
    "short": pikepdf.Name.DuplexFlipShortEdge,
    "one-sided": pikepdf.Name.Simplex,
}
NOTE_PT = 7.0  # the project's type floor
NOTE_MM = 3.0  # the note's line box: 7 pt at a line height of 1.2


def print_note(flip: Flip) -> str:
    """The note in the language the build speaks."""
    return _(NOTE[flip])


def _save(pdf: pikepdf.Pdf) -> bytes:
    buffer = io.BytesIO()
    # The objects as the render wrote them, as the imposer keeps printed documents; the
    # same bytes every build.
    pdf.save(buffer, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return buffer.getvalue()


def set_print_preferences(pdf: pikepdf.Pdf, flip: Flip) -> None:
    """Kept beside what the PDF already prefers (a tagged PDF's ``/DisplayDocTitle``)."""
    preferences = pdf.Root.get("/ViewerPreferences")
    if not isinstance(preferences, pikepdf.Dictionary):
        preferences = pdf.make_indirect(pikepdf.Dictionary())
        pdf.Root.ViewerPreferences = preferences
    preferences.PrintScaling = pikepdf.Name("/None")
    preferences.Duplex = DUPLEX[flip]


def with_print_preferences(pdf_bytes: bytes, flip: Flip) -> bytes:
    """``pdf_bytes`` with viewer preferences for printing at actual size, flipped on
    ``flip`` (or one-sided)."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        set_print_preferences(pdf, flip)
        return _save(pdf)


@functools.lru_cache(maxsize=8)
def _note_page(
    text: str, page_mm: tuple[float, float], box_mm: tuple[float, float, float], lang: str = "en"
) -> bytes:
    """A transparent page of ``page_mm`` with ``text`` centred in ``box_mm`` (left, top,
    width), rendered once per build process with our own Lato, so the note's font is
    embedded like every other."""
    from ..resources import fonts_dir
    from .engine import render_pdf

    (page_w, page_h), (left, top, width) = page_mm, box_mm
    source = (
        # lang: the note's words are in the build's language (CJK shapes follow it).
        f"<!doctype html><html lang={html.escape(lang)}><head><title>note</title><style>"
        f"@page {{ size: {page_w:.3f}mm {page_h:.3f}mm; margin: 0; }}"
        '@font-face { font-family: "Lato"; src: url("Lato-Regular.ttf"); }'
        f"div {{ position: absolute; left: {left:.3f}mm; top: {top:.3f}mm;"
        f" width: {width:.3f}mm; height: {NOTE_MM}mm; text-align: center; white-space: nowrap;"
        f' font-family: "Lato"; font-size: {NOTE_PT}pt; line-height: 1.2; color: #444; }}'
        f"</style></head><body><div>{html.escape(text)}</div></body></html>"
    )
    return render_pdf(source, fonts_dir(), [fonts_dir()]).pdf


def stamp_note(
    pdf_bytes: bytes, flip: Flip, box_mm: tuple[float, float, float], page: int = 0
) -> bytes:
    """``with_print_preferences``, and the note printed on page ``page`` in ``box_mm``
    (left, top, width in mm from the page's top left): for PDFs put together with pikepdf
    (the saddle copy), whose pages no template draws."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        target = pdf.pages[page]
        box = target.mediabox
        size = (
            (float(box[2]) - float(box[0])) / PT_PER_MM,
            (float(box[3]) - float(box[1])) / PT_PER_MM,
        )
        rounded = (round(size[0], 3), round(size[1], 3))
        with pikepdf.open(
            io.BytesIO(_note_page(print_note(flip), rounded, box_mm, current().language))
        ) as note:
            form = pdf.copy_foreign(note.pages[0].as_form_xobject())
            target.add_overlay(form, pikepdf.Rectangle(*(float(v) for v in box)))
        set_print_preferences(pdf, flip)
        return _save(pdf)


def print_all(parts: list[tuple[str, bytes]]) -> bytes:
    """Every part's pages in one PDF, in order, with a bookmark per part at its first page
    (``parts``: title and PDF): one file a copy shop prints from. At actual size, like
    every part; no duplex preference, since the parts flip on different edges (each says
    which on its own pages)."""
    with pikepdf.new() as out:
        sources = [pikepdf.open(io.BytesIO(pdf)) for __, pdf in parts]
        try:
            starts = []
            for source in sources:
                starts.append(len(out.pages))
                # Named destinations come along: a booklet's contents still jump to
                # its chapters in the one file.
                out.add_pages_from(source)
            with out.open_outline() as outline:
                for (title, __), start in zip(parts, starts, strict=True):
                    outline.root.append(pikepdf.OutlineItem(title, start))
            out.Root.ViewerPreferences = out.make_indirect(
                pikepdf.Dictionary(PrintScaling=pikepdf.Name("/None"))
            )
            out.Root.PageMode = pikepdf.Name.UseOutlines  # open with the bookmarks shown
            out.Root.Lang = pikepdf.String(current().language)
            return _save(out)
        finally:
            for source in sources:
                source.close()
