"""A stand-in for the renderer (DESIGN.md "Style": a seam for the slow dependency), for tests
of what happens around a render: files, manifests, locks, the cache's bookkeeping,
messages and exit codes. Tests ask for it with conftest's ``stand_in_renderer`` fixture;
``stand_in_command`` runs the command in a process of its own with it.

It makes blank pages at the size the document's ``@page`` asks for, as many as the forced
page breaks of its own CSS make, in milliseconds, with no layout: so no warnings, no refused loads and no
layout lints. A test that reads text, glyphs, sizes of things on the page or pixels renders
for real.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import re
import sys
from pathlib import Path
from typing import Any

import pikepdf
import pytest

STAND_IN_PRODUCER = "scratchpress tests: stand-in renderer"
_POINTS = {"mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0, "pt": 1.0, "pc": 12.0, "px": 0.75}
_PAPERS = {
    "letter": (612.0, 792.0),
    "legal": (612.0, 1008.0),
    "ledger": (792.0, 1224.0),
    "a3": (841.89, 1190.55),
    "a4": (595.28, 841.89),
    "a5": (419.53, 595.28),
    "a6": (297.64, 419.53),
}
_PAGE_SIZE = re.compile(r"@page\b[^{]*\{[^}]*?\bsize\s*:\s*([^;}]+)", re.IGNORECASE)
_LENGTH = re.compile(r"([\d.]+)\s*(mm|cm|in|pt|pc|px)", re.IGNORECASE)
_TITLE = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def stand_in_page_size(html: str) -> tuple[float, float]:
    """The page size the document's last ``@page { size: ... }`` asks for, in points, as
    WeasyPrint would read it; Letter (our default paper) when it asks for none."""
    rules = _PAGE_SIZE.findall(html)
    if not rules:
        return _PAPERS["letter"]
    words = rules[-1].strip().lower().split()
    lengths = [float(v) * _POINTS[u.lower()] for v, u in _LENGTH.findall(rules[-1])]
    named = next((_PAPERS[w] for w in words if w in _PAPERS), None)
    if len(lengths) >= 2:
        width, height = lengths[0], lengths[1]
    elif len(lengths) == 1:
        width = height = lengths[0]
    else:
        width, height = named or _PAPERS["letter"]
    if "landscape" in words:
        width, height = max(width, height), min(width, height)
    elif "portrait" in words:
        width, height = min(width, height), max(width, height)
    return round(width, 3), round(height, 3)


def stand_in_pdf(size: tuple[float, float], title: str, body: str, pages: int = 1) -> bytes:
    """A small valid PDF of blank pages: the same bytes for the same document, other bytes
    for another (it carries a digest of the body, as a real PDF carries what it drew)."""
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=size)
    pdf.docinfo["/Title"] = title
    pdf.docinfo["/Producer"] = STAND_IN_PRODUCER
    digest = hashlib.sha256(f"{title}\0{body}".encode("utf-8", "surrogatepass"))
    pdf.docinfo["/Subject"] = digest.hexdigest()
    buffer = io.BytesIO()
    pdf.save(buffer, deterministic_id=True)
    return buffer.getvalue()


_BODY = re.compile(r"<body\b[^>]*>(.*)</body>", re.IGNORECASE | re.DOTALL)
_PART = re.compile(r'<div class="[^"]*" data-part="\d+">')


def _body(html: str) -> str:
    found = _BODY.search(html)
    return found.group(1) if found else html


def _part_bodies(html: str, count: int) -> list[str]:
    """Each part's body in a merged document (render/merged.py puts each in a div of its
    own), so that a sheet rendered with others comes out as it does alone, as with
    WeasyPrint."""
    pieces = _PART.split(_body(html))[1:]
    if len(pieces) != count:
        return [f"{html}\0{index}" for index in range(count)]
    return [piece.rstrip().removesuffix("</div>") for piece in pieces]


_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style>", re.IGNORECASE | re.DOTALL)
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_FORCED = re.compile(r"\b(?:page-)?break-(before|after)\s*:\s*(?:page|always|left|right)\b")
_CLASSES = re.compile(r"""\bclass=["']([^"']*)["']""", re.IGNORECASE)
_SIMPLE = re.compile(r"(?:\.[\w-]+)+")


def stand_in_pages(html: str, body: str) -> int:
    """How many pages the forced page breaks in the document's own CSS make of ``body``:
    a rule like ``.sheet + .sheet { break-before: page }`` or ``.pg { break-after: page }``
    on plain class selectors, counted over the elements that carry those classes. Content
    that would spill onto more pages is not laid out, so it is not counted."""
    css = "\n".join(_STYLE.findall(html))
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    elements = [set(found.split()) for found in _CLASSES.findall(body)]
    breaks = 0
    for selectors, declarations in _RULE.findall(css):
        forced = _FORCED.search(declarations)
        if forced is None:
            continue
        for selector in selectors.split(","):
            parts = [part.strip() for part in selector.split("+")]
            if not all(_SIMPLE.fullmatch(part) for part in parts):
                continue  # not a plain class selector: beyond the stand-in
            wanted = set(parts[-1].lstrip(".").split("."))
            count = sum(1 for classes in elements if wanted <= classes)
            # The first of a run (``X + X``) and the last element (a break after the end
            # of the document) break nothing.
            alone = forced.group(1) == "before" and len(parts) == 1
            breaks += count if alone else max(0, count - 1)
    return 1 + breaks


def _title(html: str) -> str:
    found = _TITLE.search(html)
    return found.group(1).strip() if found else ""


def install_stand_in(patch: pytest.MonkeyPatch) -> None:
    """Builds render through this stand-in instead of WeasyPrint: blank pages at the size the
    document's ``@page`` asks for, as many as its forced page breaks make (per part of a
    merged document), in milliseconds, with no layout, so no warnings, no refused loads and no layout lints. For tests of what happens
    around a render (files, manifests, locks, the cache's bookkeeping, messages, exit codes);
    a test that reads text, glyphs, sizes of things on the page or pixels renders for real.

    Render workers are forked from this process, so they inherit the patch (Linux). Entries
    it leaves in a render cache are keyed to the stand-in, never served to a real render."""
    from scratchpress.render import audit, cache, engine

    def render_pdf(
        html: str,
        base_dir: Path,
        roots: list[Path],
        keep_document: bool = False,
        pdf_variant: str | None = None,
    ) -> Any:
        size, body = stand_in_page_size(html), _body(html)
        pages = stand_in_pages(html, body)
        return engine.Rendered(stand_in_pdf(size, _title(html), body, pages), pages, [size] * pages)

    def render_parts(html: str, base_dir: Path, roots: list[Path], parts: tuple[Any, ...]) -> Any:
        size = stand_in_page_size(html)
        bodies = _part_bodies(html, len(parts))
        rendered = []
        for part, body in zip(parts, bodies, strict=True):
            pages = stand_in_pages(html, body)
            pdf = stand_in_pdf(size, part.title, body, pages)
            rendered.append(engine.Rendered(pdf, pages, [size] * pages))
        return rendered

    # The stand-in keeps the engine's contract: if the engine's calls change, say so here
    # rather than let every test that uses the stand-in pass against a function nobody calls.
    for real, stand_in in ((engine.render_pdf, render_pdf), (engine.render_parts, render_parts)):
        real_params = list(inspect.signature(real).parameters)
        assert real_params == list(inspect.signature(stand_in).parameters), (
            f"render.engine.{real.__name__} takes {real_params} now: update the stand-in"
        )
    patch.setattr(engine, "render_pdf", render_pdf)
    patch.setattr(engine, "render_parts", render_parts)
    patch.setattr(engine, "warm_up", lambda: None)
    # Blank pages print none of the HTML's words: no completeness audit either.
    patch.setattr(audit, "lost_from_html", lambda html, pdfs: [])
    patch.setattr(cache, "_weasyprint_version", lambda: "stand-in renderer")


_BOOT = f"""
import sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
import pytest
from standin import install_stand_in
install_stand_in(pytest.MonkeyPatch())
from scratchpress.cli import main
sys.argv[0] = "scratchpress"
main()
"""


def stand_in_command(*args: str) -> list[str]:
    """``scratchpress ARGS`` as a process of its own that renders with the stand-in."""
    return [sys.executable, "-c", _BOOT, *args]
