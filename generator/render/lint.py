"""Layout lint: text that runs out of its frame, and characters no bundled font can draw.

Measured from WeasyPrint's own layout, not guessed from character counts. A template marks
a frame with ``data-lint-frame="field"`` (and optionally ``data-lint-entry="Name"``); any
line of text inside it that ends below or right of the frame's border box is reported with
the distance. Text past the paper's printable area is reported for every document.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..resources import fonts_dir
from .fonts import system_fonts
from .inline_styles import written_classes

PX_PER_MM = 96 / 25.4
TOLERANCE_MM = 0.3  # sub-pixel rounding and glyph overshoot are not overflow
SAFE_EDGE_MM = 3.0  # text this close to (or past) the paper edge is clipped by printers


def _codepoints(path: Path) -> set[int]:
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() == ".ttc":
        collection = TTCollection(str(path), lazy=True)
        points = {c for font in collection.fonts for c in (font.getBestCmap() or {})}
        collection.close()
        return points
    font = TTFont(str(path), lazy=True)
    points = set(font.getBestCmap() or {})
    font.close()
    return points


@cache
def bundled_codepoints() -> frozenset[int]:
    """Every character one of the faces we bundle can draw."""
    points: set[int] = set()
    for path in sorted(fonts_dir().glob("*")):
        if path.suffix.lower() in {".ttf", ".otf"}:
            points |= _codepoints(path)
    return frozenset(points)


@cache
def package_codepoints(package: str) -> frozenset[int]:
    """Every character the installed faces of a Debian font package can draw (render/fonts.py
    reads them at fixed paths). Read only when a text needs them: the four Noto CJK
    collections hold forty fonts whose tables take seconds to read, which every build of
    a campaign without Chinese, Japanese or Korean names would otherwise pay."""
    points: set[int] = set()
    for owner, path in system_fonts():
        if owner == package:
            points |= _codepoints(path)
    return frozenset(points)


def can_draw(char: str) -> bool:
    """Whether some face we render with has a glyph for ``char``."""
    point = ord(char)
    if point in bundled_codepoints():
        return True
    package = font_package_for(char)
    return package is not None and point in package_codepoints(package)


# Scripts whose faces come from a Debian package (render/fonts.py): a character in these
# ranges that nothing draws means that package is not installed.
_PACKAGE_RANGES = {
    "fonts-noto-cjk": [
        (0x1100, 0x11FF),
        (0x2E80, 0x2FDF),
        (0x3000, 0x9FFF),
        (0xA960, 0xA97F),
        (0xAC00, 0xD7FF),
        (0xF900, 0xFAFF),
        (0xFE30, 0xFE4F),
        (0xFF00, 0xFFEF),
        (0x20000, 0x3FFFF),
    ],
}


def font_package_for(char: str) -> str | None:
    """The Debian font package whose faces would draw ``char``, if it is one of those."""
    point = ord(char)
    for package, ranges in _PACKAGE_RANGES.items():
        if any(low <= point <= high for low, high in ranges):
            return package
    return None


# Characters every build uses, all of which Charis SIL draws (a test holds us to that):
# seeing only these, the lint skips parsing the HTML and reading the fonts' tables, which
# would cost a second on a 500-card deck.
COMMON = frozenset(
    [chr(c) for c in range(0x20, 0x7F)]
    + [chr(c) for c in range(0xA0, 0x100)]
    + list("\t\n\r\u2009\u200a\u2011\u2013\u2014\u2018\u2019\u201c\u201d\u2020\u2021")
    + list("\u2022\u2026\u2032\u2033\u20ac\u2122\u2190\u2192\u2212\u00d7")
)


# Elements that never have an end tag, so they open no entry of their own.
_VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"]
)


class _Text(HTMLParser):
    """The document's text, each piece with the entry (``data-lint-entry``) it belongs to."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.entries: list[str | None] = []
        self.chunks: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in {"style", "script", "title"}:
            self.skip += 1
        if tag not in _VOID:
            self.entries.append(dict(attrs).get("data-lint-entry"))

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        pass  # <br/>: no text, no entry

    def handle_endtag(self, tag: str) -> None:
        if tag in {"style", "script", "title"} and self.skip:
            self.skip -= 1
        if tag not in _VOID and self.entries:
            self.entries.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            entry = next((e for e in reversed(self.entries) if e), "")
            self.chunks.append((entry, data))


def _selector(char: str) -> bool:
    point = ord(char)
    return 0xFE00 <= point <= 0xFE0F or 0xE0100 <= point <= 0xE01EF


def missing_glyphs_by_entry(html: str) -> dict[str, list[str]]:
    """Entry -> the characters of its text that no face we render with has, in order of
    appearance; text outside any marked entry comes under ``""``."""
    if COMMON.issuperset(html):
        return {}
    parser = _Text()
    parser.feed(html)
    missing: dict[str, list[str]] = {}
    for entry, text in parser.chunks:
        for char in text:
            drawable = char.isspace() or ord(char) < 32 or can_draw(char)
            # Variation selectors and joiners shape the character before them; alone they
            # draw nothing, so no face needs a glyph for them.
            drawable = drawable or unicodedata.category(char) == "Cf" or _selector(char)
            if not drawable and char not in missing.setdefault(entry, []):
                missing[entry].append(char)
    return {entry: chars for entry, chars in missing.items() if chars}


def missing_glyphs(html: str) -> list[str]:
    """Characters of the document's text that no face has, in order of appearance."""
    found: list[str] = []
    for chars in missing_glyphs_by_entry(html).values():
        found += [char for char in chars if char not in found]
    return found


def _line_boxes(box: Any) -> list[Any]:
    from weasyprint.formatting_structure.boxes import LineBox

    return [b for b in box.descendants() if isinstance(b, LineBox) and b.children]


def frame_overflows(document: Any) -> list[tuple[str, str, float]]:
    """(entry, field, mm) for every marked frame whose text runs outside it, and for text
    past the paper's printable edge (field "page")."""
    found: dict[tuple[str, str], float] = {}
    for number, page in enumerate(document.pages, start=1):
        page_box = page._page_box
        width, height = page.width, page.height
        for box in page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or element.get("data-lint-frame") is None:
                continue
            if box.element_tag.endswith(("::before", "::after")):
                continue
            if box.style["text_overflow"] == "ellipsis" and box.style["overflow"] != "visible":
                continue  # a frame that cuts its text short: ``ellipsized`` reports it
            bottom = box.border_box_y() + box.border_height()
            right = box.border_box_x() + box.border_width()
            worst = 0.0
            for line in _line_boxes(box):
                worst = max(worst, line.position_y + line.height - bottom)
                for child in line.children:
                    worst = max(worst, child.position_x + child.width - right)
            mm = worst / PX_PER_MM
            if mm > TOLERANCE_MM:
                key = (element.get("data-lint-entry") or "", element.get("data-lint-frame"))
                found[key] = max(found.get(key, 0.0), round(mm, 1))
        edge = SAFE_EDGE_MM * PX_PER_MM
        for line in _line_boxes(page_box):
            past = max(
                line.position_y + line.height - (height - edge),
                line.position_x + line.width - (width - edge),
                edge - line.position_x,
                edge - line.position_y,
            )
            if past > TOLERANCE_MM * PX_PER_MM:
                key = ("", f"page {number}")
                found[key] = max(found.get(key, 0.0), round(past / PX_PER_MM, 1))
    for entry, field, mm in ellipsized(document):
        key = (entry, CUT_PREFIX + field)
        found[key] = max(found.get(key, 0.0), mm)
    return [(entry, field, mm) for (entry, field), mm in found.items()]


# A frame field starting with this names text a stylesheet cut short with "…" (CSS
# ``text-overflow: ellipsis``): the user's words lost to fit, reported like an overflow.
CUT_PREFIX = "cut:"


def ellipsized(document: Any) -> list[tuple[str, str, float]]:
    """(entry, field, mm) for every box whose stylesheet hides the end of its text behind
    an ellipsis because it does not fit: how much text is hidden, in mm. The entry is the
    nearest ``data-lint-entry`` around it; the field its ``data-lint-frame`` or class."""
    found: list[tuple[str, str, float]] = []

    def walk(box: Any, entry: str) -> None:
        element = getattr(box, "element", None)
        if element is not None and element.get("data-lint-entry"):
            entry = element.get("data-lint-entry")
        style = getattr(box, "style", None)
        if (
            style is not None
            and style["text_overflow"] == "ellipsis"
            and style["overflow"] != "visible"
            and hasattr(box, "content_box_x")
            and element is not None
        ):
            right = box.content_box_x() + box.width
            hidden = 0.0
            for line in _line_boxes(box):
                for child in line.children:
                    hidden = max(hidden, child.position_x + child.width - right)
            mm = hidden / PX_PER_MM
            if mm > TOLERANCE_MM:
                classes = written_classes(element.get("class")) or [element.tag]
                field = element.get("data-lint-frame") or (classes[0] if classes else "text")
                text = "".join(
                    getattr(b, "text", "") for b in box.descendants() if hasattr(b, "text")
                )
                found.append((entry or text.strip()[:40], field, round(mm, 1)))
        for child in getattr(box, "children", []):
            walk(child, entry)

    for page in document.pages:
        walk(page._page_box, "")
    return found
