"""The live preview's source links, read back from a rendered PDF (issue 29).

A preview render wraps each computed number in ``<a href="scratchpress-source:?...">``
(``templates/_macros.html``); WeasyPrint writes each as a link annotation over the
number. :func:`source_anchors` reads them, so the preview can lay a clickable box over
the page image. Imposed documents (cards, the roster) are put together from pages turned
into form XObjects, which carry no annotations: :func:`carry_links` copies each unit's
links onto the sheet where the unit was placed.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs

import pikepdf

from ..typesetting.units import PT_PER_MM
from .jobs import Placement

SCHEME = "scratchpress-source:"
FIELDS = ("file", "line", "entry", "field", "trace")


def _box(rect: Any) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in rect)
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _uri(annotation: Any) -> str | None:
    """The URI of a link annotation, if it is one of ours."""
    if annotation.get("/Subtype") != pikepdf.Name.Link:
        return None
    action = annotation.get("/A")
    if not isinstance(action, pikepdf.Dictionary) or action.get("/S") != pikepdf.Name.URI:
        return None
    uri = str(action.get("/URI", ""))
    return uri if uri.startswith(SCHEME) else None


def decode(uri: str) -> dict[str, Any]:
    """``file, line, entry, field, trace`` from a link (``line`` an int, or None)."""
    values = parse_qs(uri.removeprefix(SCHEME).lstrip("?"), keep_blank_values=True)
    found: dict[str, Any] = {name: values.get(name, [""])[0] for name in FIELDS}
    line = str(found["line"])
    found["line"] = int(line) if line.isdigit() else None
    return found


def source_anchors(pdf: bytes) -> list[list[dict[str, Any]]]:
    """Per page, each source link: its box as fractions of the page (``x``, ``y`` from the
    top-left corner, ``width``, ``height``) and what it names (:func:`decode`)."""
    pages: list[list[dict[str, Any]]] = []
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            left, bottom, right, top = _box(page.mediabox)
            width, height = right - left, top - bottom
            anchors: list[dict[str, Any]] = []
            for annotation in page.obj.get("/Annots", []):
                uri = _uri(annotation)
                if uri is None or "/Rect" not in annotation:
                    continue
                x0, y0, x1, y1 = _box(annotation.Rect)
                anchors.append(
                    {
                        "x": (x0 - left) / width,
                        "y": (top - y1) / height,
                        "width": (x1 - x0) / width,
                        "height": (y1 - y0) / height,
                        **decode(uri),
                    }
                )
            pages.append(anchors)
    return pages


def carry_links(
    pdf: bytes,
    sources: Mapping[str, bytes],
    units: Sequence[tuple[str, int, int]],
    sheets: Sequence[Sequence[Placement]],
) -> bytes:
    """``pdf``, imposed from ``sources`` as render/impose.py imposes them, with each
    placed page's source links copied onto its sheet, moved to where the page was placed.
    Only the preview asks for this: printed decks carry no links."""
    opened: dict[str, pikepdf.Pdf] = {}
    try:
        with pikepdf.open(io.BytesIO(pdf)) as out:
            number = 0
            for placements in sheets:
                whole = [p for p in placements if p.all_pages]
                if whole:
                    for placement in whole:
                        for offset in range(units[placement.unit][2]):
                            _place(out, number, [(placement, offset)], sources, units, opened)
                            number += 1
                    continue
                _place(out, number, [(p, 0) for p in placements], sources, units, opened)
                number += 1
            buffer = io.BytesIO()
            out.save(buffer, deterministic_id=True)
            return buffer.getvalue()
    finally:
        for source in opened.values():
            source.close()


def _place(
    out: pikepdf.Pdf,
    number: int,
    placements: Sequence[tuple[Placement, int]],
    sources: Mapping[str, bytes],
    units: Sequence[tuple[str, int, int]],
    opened: dict[str, pikepdf.Pdf],
) -> None:
    if number >= len(out.pages):
        return
    sheet = out.pages[number]
    paper_h = _box(sheet.mediabox)[3]
    links = []
    for placement, offset in placements:
        source, first, _ = units[placement.unit]
        (x0, y0, _, y1), found = _unit_links(source, first + offset, sources, opened)
        # As impose.py places the page: its top-left corner at the placement.
        dx = placement.x_mm * PT_PER_MM - x0
        dy = paper_h - placement.y_mm * PT_PER_MM - (y1 - y0) - y0
        for left, bottom, right, top, uri in found:
            links.append(
                out.make_indirect(
                    pikepdf.Dictionary(
                        Type=pikepdf.Name.Annot,
                        Subtype=pikepdf.Name.Link,
                        Rect=[left + dx, bottom + dy, right + dx, top + dy],
                        Border=[0, 0, 0],
                        A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String(uri)),
                    )
                )
            )
    if links:
        sheet.obj.Annots = pikepdf.Array(links)


# A unit's links, by its batch's cache key and page: a `preview` session rebuilds on every
# save, and a roster of 1,000 NPCs has 7,000 links in batches that mostly did not change.
_UNIT_LINKS: dict[tuple[str, int], tuple[tuple[float, ...], list[tuple[Any, ...]]]] = {}


def _unit_links(
    source: str, index: int, sources: Mapping[str, bytes], opened: dict[str, pikepdf.Pdf]
) -> tuple[tuple[float, ...], list[tuple[Any, ...]]]:
    known = _UNIT_LINKS.get((source, index))
    if known is not None:
        return known
    if source not in opened:
        opened[source] = pikepdf.open(io.BytesIO(sources[source]))
    page = opened[source].pages[index]
    found = []
    for annotation in page.obj.get("/Annots", []):
        uri = _uri(annotation)
        if uri is None or "/Rect" not in annotation:
            continue
        found.append((*_box(annotation.Rect), uri))
    if len(_UNIT_LINKS) > 20_000:
        _UNIT_LINKS.clear()
    _UNIT_LINKS[(source, index)] = known = (tuple(_box(page.mediabox)), found)
    return known


__all__ = ["carry_links", "decode", "source_anchors"]
