"""The live preview's source links, read back from a rendered PDF (issue 29).

A preview render wraps each computed number in ``<a href="scratchpress-source:?...">``
(``templates/_macros.html``); WeasyPrint writes each as a link annotation over the
number. :func:`source_anchors` reads them, so the preview can lay a clickable box over
the page image. Imposed documents (cards, the roster) are put together from pages turned
into form XObjects, which carry no annotations: render/impose.py lays each unit's links
(:func:`page_links`) on the sheet where it places the unit.
"""

from __future__ import annotations

import io
from typing import Any
from urllib.parse import parse_qs

import pikepdf

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


# One link on a page: its rectangle (left, bottom, right, top, in points) and its URI.
Link = tuple[float, float, float, float, str]


def page_links(page: pikepdf.Page) -> list[Link]:
    """The source links on a rendered page, for render/impose.py to lay on its sheet."""
    found: list[Link] = []
    for annotation in page.obj.get("/Annots", []):
        uri = _uri(annotation)
        if uri is not None and "/Rect" in annotation:
            found.append((*_box(annotation.Rect), uri))
    return found


def link_annotation(rect: tuple[float, float, float, float], uri: str) -> pikepdf.Dictionary:
    """A borderless link annotation over ``rect`` to ``uri``."""
    return pikepdf.Dictionary(
        Type=pikepdf.Name.Annot,
        Subtype=pikepdf.Name.Link,
        Rect=list(rect),
        Border=[0, 0, 0],
        A=pikepdf.Dictionary(S=pikepdf.Name.URI, URI=pikepdf.String(uri)),
    )


__all__ = ["Link", "decode", "link_annotation", "page_links", "source_anchors"]
