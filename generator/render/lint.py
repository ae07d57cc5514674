"""Layout lint: text that runs out of its frame, and characters no bundled font can draw.

Measured from WeasyPrint's own layout, not guessed from character counts. A template marks
a frame with ``data-lint-frame="field"`` (and optionally ``data-lint-entry="Name"``); any
line of text inside it that ends below or right of the frame's border box is reported with
the distance. Text past the paper's printable area is reported for every document.
"""

from __future__ import annotations

from functools import cache
from html.parser import HTMLParser
from typing import Any

from ..resources import fonts_dir

PX_PER_MM = 96 / 25.4
TOLERANCE_MM = 0.3  # sub-pixel rounding and glyph overshoot are not overflow
SAFE_EDGE_MM = 3.0  # text this close to (or past) the paper edge is clipped by printers


@cache
def bundled_codepoints() -> frozenset[int]:
    from fontTools.ttLib import TTFont

    points: set[int] = set()
    for path in sorted(fonts_dir().glob("*")):
        if path.suffix.lower() in {".ttf", ".otf"}:
            font = TTFont(str(path), lazy=True)
            points.update(font.getBestCmap() or {})
            font.close()
    return frozenset(points)


# Characters every build uses, all of which Charis SIL draws (a test holds us to that):
# seeing only these, the lint skips parsing the HTML and reading the fonts' tables, which
# would cost a second on a 500-card deck.
COMMON = frozenset(
    [chr(c) for c in range(0x20, 0x7F)]
    + [chr(c) for c in range(0xA0, 0x100)]
    + list("\t\n\r\u2009\u200a\u2011\u2013\u2014\u2018\u2019\u201c\u201d\u2020\u2021")
    + list("\u2022\u2026\u2032\u2033\u20ac\u2122\u2190\u2192\u2212\u00d7")
)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.chunks: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in {"style", "script", "title"}:
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in {"style", "script", "title"} and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.chunks.append(data)


def missing_glyphs(html: str) -> list[str]:
    """Characters of the document's text that no bundled font has, in order of appearance."""
    if COMMON.issuperset(html):
        return []
    parser = _Text()
    parser.feed(html)
    have = bundled_codepoints()
    missing: list[str] = []
    for char in "".join(parser.chunks):
        drawable = char.isspace() or ord(char) < 32 or ord(char) in have
        if not drawable and char not in missing:
            missing.append(char)
    return missing


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
    return [(entry, field, mm) for (entry, field), mm in found.items()]
