"""HTML to PDF with WeasyPrint, confined to our folders and our fonts, warnings collected."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fonts import confine_fonts

confine_fonts()  # before weasyprint loads fontconfig; see render/fonts.py


def _import_weasyprint() -> Any:
    """WeasyPrint tries names like ``gobject-2.0-0`` before ``libgobject-2.0.so.0``, and
    cffi runs ``ctypes.util.find_library`` (an ``ldconfig``/``gcc`` subprocess) for each
    miss: a quarter of a second per process on Linux. Import it with the lookup switched
    off, so only names the dynamic loader knows directly are tried; if that fails on some
    unusual system, import it the ordinary way."""
    import ctypes.util
    import importlib

    lookup = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    try:
        return importlib.import_module("weasyprint")
    except OSError:
        pass
    finally:
        ctypes.util.find_library = lookup
    return importlib.import_module("weasyprint")


weasyprint = _import_weasyprint()
from weasyprint.text.fonts import FontConfiguration  # noqa: E402

from .fetcher import ConfinedFetcher  # noqa: E402
from .inline_styles import hoist_inline_styles  # noqa: E402
from .jobs import Part  # noqa: E402
from .merged import split  # noqa: E402
from .svg import tame_inline_svgs  # noqa: E402
from .tagging import conform  # noqa: E402


@dataclass
class Rendered:
    pdf: bytes
    pages: int
    page_sizes: list[tuple[float, float]]
    warnings: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    document: Any = None  # weasyprint Document, for layout checks


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def collect_warnings() -> Iterator[list[str]]:
    """WeasyPrint reports problems (a bad CSS rule, a missing image) through logging; we
    catch them per document so the build can show the user which file they belong to."""
    logger = logging.getLogger("weasyprint")
    handler = _Collect()
    logger.addHandler(handler)
    previous = logger.propagate
    logger.propagate = False
    try:
        yield handler.messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = previous


_FONT_CONFIGS: dict[str, FontConfiguration] = {}


def font_config() -> FontConfiguration:
    """WeasyPrint's fonts, loaded once per configuration file: a build of a campaign with
    CJK faces of its own points FONTCONFIG_FILE at another file (render/fonts.py)."""
    file = os.environ.get("FONTCONFIG_FILE", "")
    if file not in _FONT_CONFIGS:
        _FONT_CONFIGS[file] = FontConfiguration()
    return _FONT_CONFIGS[file]


PT_PER_PX = 0.75


def warm_up() -> None:
    """Render a line in every bundled face once. WeasyPrint's first document in a process
    spends about 0.4 s loading and shaping the fonts; processes forked after this (render
    workers, or a watch session's later workers) start with that done.

    The faces come from the shared stylesheet every printable includes (its
    ``@font-face`` rules); the page around them is a bare one, since what is warmed is
    the fonts, not any printable's layout."""
    from ..resources import fonts_dir, templates_dir
    from .templating import render_html

    faces = "".join(
        f'<p style="font-family: {family}; font-weight: {weight}; font-style: {style}">'
        "Warm-up: d20 + 5 \u2212 2, \u201cfine\u201d.</p>"
        for family in ("Charis SIL", "Lato", "Bebas Neue")
        for weight in (400, 700)
        for style in ("normal", "italic")
    )
    css = render_html("base.css", {})
    html = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>warm-up</title>\n<style>\n{css}\n</style>\n</head>\n"
        f"<body>\n{faces}\n</body>\n</html>\n"
    )
    render_pdf(html, templates_dir(), [templates_dir(), fonts_dir()])


_ATTACHMENT_HREF = re.compile(
    r"""<(?:link|a)\b[^>]*\brel=["']?[^"'>]*\battachment\b[^>]*>""", re.IGNORECASE
)
_HREF = re.compile(r"""\bhref=["']?([^"'\s>]+)""", re.IGNORECASE)


def attachment_hrefs(html: str) -> list[str]:
    """The targets of rel=attachment links, to name them when they are refused."""
    hrefs = [m.group(1) for tag in _ATTACHMENT_HREF.findall(html) if (m := _HREF.search(tag))]
    # A data: URL carries the content itself; never echo it back.
    return ["a data: URL" if h.lower().startswith("data:") else h for h in hrefs]


def refuse_attachments(document: Any, refused: list[str], html: str = "") -> None:
    """Drop ``<link rel=attachment>`` and ``<a rel=attachment>`` before writing: embedding
    a file into the PDF is a way to smuggle a campaign file (or anything a symlink reaches)
    into output the user passes on."""
    names = attachment_hrefs(html)
    for index, _ in enumerate(document.metadata.attachments):
        where = names[index] if index < len(names) else "?"
        refused.append(f"attachment {where}: files are never embedded")
    document.metadata.attachments = []
    for page in document.pages:
        kept = [link for link in page.links if link[0] != "attachment" and not _local(link)]
        for link in page.links:
            if link[0] == "attachment":
                refused.append(f"attachment {link[1]}: files are never embedded")
        page.links[:] = kept


def _local(link: Any) -> bool:
    """A link to a file on this machine (a theme's relative ``href``, resolved against our
    templates folder): no reader of the PDF can follow it, and it would print this
    machine's paths (a home folder, a user name) into the file. Dropped."""
    return link[0] == "external" and str(link[1]).lower().startswith("file:")


def _render(html: str, base_dir: Path, fetcher: ConfinedFetcher) -> Any:
    """The laid-out WeasyPrint document of ``html``, loading only through ``fetcher``."""
    page = weasyprint.HTML(
        string=hoist_inline_styles(html), base_url=base_dir.as_uri() + "/", url_fetcher=fetcher
    )
    # An <svg> written inline never passes the fetcher, where pictures are counted.
    fetcher.refused += tame_inline_svgs(page.etree_element)
    document = page.render(font_config=font_config())
    refuse_attachments(document, fetcher.refused, html)
    return document


def render_pdf(
    html: str,
    base_dir: Path,
    roots: list[Path],
    keep_document: bool = False,
    pdf_variant: str | None = None,
) -> Rendered:
    """Render ``html``; ``pdf_variant="pdf/ua-1"`` writes a tagged PDF (booklets)."""
    fetcher = ConfinedFetcher([base_dir, *roots])
    with collect_warnings() as messages:
        document = _render(html, base_dir, fetcher)
        pdf = document.write_pdf(pdf_variant=pdf_variant) if pdf_variant else document.write_pdf()
    if pdf_variant:  # a tagged PDF, its tags mended where WeasyPrint's fall short
        pdf = conform(pdf, messages)
    sizes = [(p.width * PT_PER_PX, p.height * PT_PER_PX) for p in document.pages]
    return Rendered(
        pdf=pdf,
        pages=len(document.pages),
        page_sizes=sizes,
        warnings=list(messages),
        refused=list(fetcher.refused),
        document=document if keep_document else None,
    )


def render_parts(
    html: str, base_dir: Path, roots: list[Path], parts: tuple[Part, ...]
) -> list[Rendered]:
    """Render a merged document (render/merged.py) once and write one PDF per part, each
    with its WeasyPrint document kept for the layout checks. Warnings and refused loads
    are the whole render's, on every part: the build renders such a batch again part by
    part to say whose they are."""
    fetcher = ConfinedFetcher([base_dir, *roots])
    results = []
    with collect_warnings() as messages:
        document = _render(html, base_dir, fetcher)
        for own in split(document, parts):
            sizes = [(p.width * PT_PER_PX, p.height * PT_PER_PX) for p in own.pages]
            results.append(Rendered(own.write_pdf(), len(own.pages), sizes, document=own))
    for result in results:
        result.warnings = list(messages)
        result.refused = list(fetcher.refused)
    return results
