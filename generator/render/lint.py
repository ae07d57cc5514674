"""Layout lint: text that runs out of its frame or its card, text printed over text, and
characters no bundled font can draw.

Measured from WeasyPrint's own layout (read through render/weasy.py), not guessed from
character counts. A template marks a frame with ``data-lint-frame="field"`` (and
optionally ``data-lint-entry="Name"``); any line of text inside it that ends below or right
of the frame's border box is reported with the distance. Text past the paper's printable
area is reported for every document. A card (class ``card``) is checked against its safe
area (class ``card-safe``) and for runs of text that print over each other.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from ..resources import fonts_dir
from ..typesetting.fonts import font_package_for, system_fonts
from ..typesetting.units import MM_PER_PX, PX_PER_MM
from . import weasy
from .inline_styles import written_classes

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


def package_codepoints(package: str) -> frozenset[int]:
    """Every character the system's faces of a group (``fonts-noto-cjk``: the CJK faces
    typesetting/fonts.py found, the campaign's own among them) can draw."""
    return _files_codepoints(tuple(path for owner, path in system_fonts() if owner == package))


@cache
def _files_codepoints(files: tuple[Path, ...]) -> frozenset[int]:
    """Read only when a text needs them: the four Noto CJK collections hold forty fonts
    whose tables take seconds to read, which every build of a campaign without Chinese,
    Japanese or Korean names would otherwise pay."""
    points: set[int] = set()
    for path in files:
        points |= _codepoints(path)
    return frozenset(points)


def can_draw(char: str) -> bool:
    """Whether some face we render with has a glyph for ``char``."""
    point = ord(char)
    if point in bundled_codepoints():
        return True
    package = font_package_for(char)
    return package is not None and point in package_codepoints(package)


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
        self.frames: list[str | None] = []  # ``data-lint-frame``: the part of the page
        self.chunks: list[tuple[str, str]] = []
        self.framed: list[str] = []  # each chunk's frame, beside ``chunks``

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in {"style", "script", "title"}:
            self.skip += 1
        if tag not in _VOID:
            named = dict(attrs)
            self.entries.append(named.get("data-lint-entry"))
            self.frames.append(named.get("data-lint-frame"))

    def handle_startendtag(self, tag: str, attrs: Any) -> None:
        pass  # <br/>: no text, no entry

    def handle_endtag(self, tag: str) -> None:
        if tag in {"style", "script", "title"} and self.skip:
            self.skip -= 1
        if tag not in _VOID and self.entries:
            self.entries.pop()
            self.frames.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            entry = next((e for e in reversed(self.entries) if e), "")
            self.chunks.append((entry, data))
            self.framed.append(next((f for f in reversed(self.frames) if f), ""))


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


def entry_texts(html: str) -> list[tuple[str, str, str]]:
    """Each run of the document's text (an element's own words) with the entry it belongs
    to and the part of the page (``data-lint-frame``) it is in, in the order the HTML gives
    them; text outside any marked entry or part comes under ``""``."""
    parser = _Text()
    parser.feed(html)
    return [
        (entry, frame, text)
        for (entry, text), frame in zip(parser.chunks, parser.framed, strict=True)
        if text.strip()
    ]


def missing_glyphs(html: str) -> list[str]:
    """Characters of the document's text that no face has, in order of appearance."""
    found: list[str] = []
    for chars in missing_glyphs_by_entry(html).values():
        found += [char for char in chars if char not in found]
    return found


def _line_boxes(box: Any) -> list[Any]:
    return [b for b in weasy.descendants(box) if weasy.is_line(b) and weasy.children(b)]


# The attribute naming the source line of a block of the author's text (``file:line``,
# set by documents/booklet/markdown.py): a line past the page edge is reported there.
SOURCE_ATTRIBUTE = "data-source"
PAGE_SOURCE = " @ "  # "page 3 @ chapters/rules.md:12": the field of such an overflow


def source_line(file: str, line: int) -> str:
    """``chapters/rules.md:12``: how a block names where it was written."""
    return f"{file}:{line}"


def split_source(source: str) -> tuple[str, int | None]:
    """``chapters/rules.md:12`` -> ("chapters/rules.md", 12); ("", None) if it is not one."""
    file, _, line = source.rpartition(":")
    return (file, int(line)) if file and line.isdigit() else ("", None)


def page_field(number: int, source: str) -> str:
    return f"page {number}{PAGE_SOURCE}{source}" if source else f"page {number}"


def page_source(field: str) -> tuple[str, str, int | None]:
    """``page 3 @ chapters/rules.md:12`` -> ("page 3", "chapters/rules.md", 12)."""
    page, _, source = field.partition(PAGE_SOURCE)
    return (page, *split_source(source))


def _sourced_lines(box: Any, source: str) -> Iterator[tuple[Any, str]]:
    """Every line box with text, and the source line of the nearest block around it."""
    element = weasy.element(box)
    if element is not None and element.get(SOURCE_ATTRIBUTE):
        source = str(element.get(SOURCE_ATTRIBUTE))
    if weasy.is_line(box):
        if weasy.children(box):
            yield box, source
        return
    for child in weasy.children(box):
        yield from _sourced_lines(child, source)


def frame_overflows(document: Any) -> list[tuple[str, str, float]]:
    """(entry, field, mm) for every marked frame whose text runs outside it, and for text
    past the paper's printable edge (field "page")."""
    found: dict[tuple[str, str], float] = {}
    for number, page in enumerate(document.pages, start=1):
        page_box = weasy.page_box(page)
        width, height = page.width, page.height
        for box in weasy.descendants(page_box):
            element = weasy.element(box)
            if element is None or element.get("data-lint-frame") is None:
                continue
            if weasy.element_tag(box).endswith(("::before", "::after")):
                continue
            if (
                weasy.style(box, "text_overflow") == "ellipsis"
                and weasy.style(box, "overflow") != "visible"
            ):
                continue  # a frame that cuts its text short: ``ellipsized`` reports it
            left, top, frame_w, frame_h = weasy.border_box(box)
            bottom = top + frame_h
            right = left + frame_w
            worst = 0.0
            for line in _line_boxes(box):
                line_y = weasy.position(line)[1]
                worst = max(worst, line_y + weasy.size(line)[1] - bottom)
                for child in weasy.children(line):
                    worst = max(worst, weasy.position(child)[0] + weasy.size(child)[0] - right)
            mm = worst / PX_PER_MM
            if mm > TOLERANCE_MM:
                key = (element.get("data-lint-entry") or "", element.get("data-lint-frame"))
                found[key] = max(found.get(key, 0.0), round(mm, 1))
        edge = SAFE_EDGE_MM * PX_PER_MM
        for line, source in _sourced_lines(page_box, ""):
            (line_x, line_y), (line_w, line_h) = weasy.position(line), weasy.size(line)
            # A line's own extent, and its pieces': a word too long to break sticks out of
            # the line box that holds it.
            right = max(
                [line_x + line_w]
                + [weasy.position(c)[0] + weasy.size(c)[0] for c in weasy.children(line)]
            )
            past = max(
                line_y + line_h - (height - edge),
                right - (width - edge),
                edge - line_x,
                edge - line_y,
            )
            if past > TOLERANCE_MM * PX_PER_MM:
                key = ("", page_field(number, source))
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
        element = weasy.element(box)
        if element is not None and element.get("data-lint-entry"):
            entry = element.get("data-lint-entry")
        if (
            element is not None
            and weasy.style(box, "text_overflow") == "ellipsis"
            and weasy.style(box, "overflow") != "visible"
            and (left := weasy.content_x(box)) is not None
        ):
            right = left + weasy.size(box)[0]
            hidden = 0.0
            for line in _line_boxes(box):
                for child in weasy.children(line):
                    hidden = max(hidden, weasy.position(child)[0] + weasy.size(child)[0] - right)
            mm = hidden / PX_PER_MM
            if mm > TOLERANCE_MM:
                classes = written_classes(element.get("class")) or [element.tag]
                field = element.get("data-lint-frame") or (classes[0] if classes else "text")
                text = "".join(weasy.text(b) for b in weasy.descendants(box))
                found.append((entry or text.strip()[:40], field, round(mm, 1)))
        for child in weasy.children(box):
            walk(child, entry)

    for page in document.pages:
        walk(weasy.page_box(page), "")
    return found


# ---------------------------------------------------------------------------------------
# Cards: text past a card's safe area, and text printed over text (documents/deck.py and
# the initiative cards mark their cards with these classes)
# ---------------------------------------------------------------------------------------

CARD_CLASS = "card"  # the trim box of a card; carries data-card="<id>"
LIMIT_CLASS = "card-safe"  # the area text must stay inside (the card minus its safe inset)
FOOT_CLASS = "card-foot"  # a block pinned to the bottom; the flowing text must end above it
FOOT_GAP_MM = 0.6  # least white space between the flowing text and a pinned foot


def _has_class(box: Any, name: str) -> bool:
    element = weasy.element(box)
    return element is not None and name in (element.get("class") or "").split()


def _cards(page: Any) -> Iterator[Any]:
    """The boxes of class ``card`` on a page, in document order."""
    return (box for box in weasy.walk(weasy.page_box(page)) if _has_class(box, CARD_CLASS))


def _text_extent(box: Any, skip: Any = None) -> tuple[float, float, float, float] | None:
    """Left, top, right, bottom (px) of the text and images inside ``box``, leaving out the
    subtree of ``skip``.

    Vertically a line counts by its line box (the line-height the design sets), not by its
    glyph runs: Charis's tall ascent and descent make a run's box reach well past the line
    pitch, ink that is never there. Horizontally the glyph runs count, as they are set.
    """
    found: list[tuple[float, float, float, float]] = []
    for child in weasy.walk(box, skip):
        if weasy.is_replaced(child):
            (x, y), (w, h) = weasy.position(child), weasy.size(child)
            found.append((x, y, x + w, y + h))
        elif weasy.is_line(child):
            runs = [t for t in weasy.walk(child) if weasy.is_text(t) and weasy.text(t).strip()]
            if runs:
                line_y, line_h = weasy.position(child)[1], weasy.size(child)[1]
                found.append(
                    (
                        min(weasy.position(t)[0] for t in runs),
                        line_y,
                        max(weasy.position(t)[0] + weasy.size(t)[0] for t in runs),
                        line_y + line_h,
                    )
                )
    if not found:
        return None
    return (
        min(f[0] for f in found),
        min(f[1] for f in found),
        max(f[2] for f in found),
        max(f[3] for f in found),
    )


def card_margins(document: Any) -> list[tuple[str, float]]:
    """Every card with how far (mm) its text reaches past where it may go: positive is an
    overflow (on the worst side), negative is the room to spare below the text.

    ``document`` is a rendered WeasyPrint document (``HTML(...).render()``). For each
    element of class ``card`` we take the box of class ``card-safe`` inside it (the card
    minus the inset a cut a little off can eat) and compare it with the extent of every
    glyph run and image inside the card: below the bottom, past the right edge, above or
    left of it. A block of class ``card-foot`` is pinned to the bottom; the text flowing
    above it must end ``FOOT_GAP_MM`` above its top. The layout tree is never clipped, so
    this measures the real overflow even where CSS hides it on paper.
    """
    found: list[tuple[str, float]] = []
    gap = FOOT_GAP_MM / MM_PER_PX
    for page in document.pages:
        for box in _cards(page):
            card_id = _card_id(box)
            limit = next((b for b in weasy.walk(box) if _has_class(b, LIMIT_CLASS)), box)
            foot = next((b for b in weasy.walk(box) if _has_class(b, FOOT_CLASS)), None)
            left, top, limit_w, limit_h = weasy.padding_box(limit)
            right = left + limit_w
            bottom = top + limit_h
            extent = _text_extent(box)
            if extent is None:
                continue
            over = max(extent[3] - bottom, extent[2] - right, left - extent[0], top - extent[1])
            spare = bottom - extent[3]
            if foot is not None:
                flowing = _text_extent(box, skip=foot)
                if flowing is not None:
                    spare = weasy.position(foot)[1] - gap - flowing[3]
                    over = max(over, -spare)
            if over <= 0.01:  # px: text set flush against a side is inside, not over
                over = -spare  # all inside: report the room left below the text
            found.append((card_id, round(over * MM_PER_PX, 2)))
    return found


def card_overflows(document: Any, tolerance_mm: float = 0.05) -> list[tuple[str, float]]:
    """The cards whose text runs outside their safe area, with by how much (mm).

    WeasyPrint lets a line run a hair (about 0.03 mm) past its box when it fits the words;
    ``tolerance_mm`` keeps that rounding from counting as overflow.
    """
    return [(card, over) for card, over in card_margins(document) if over > tolerance_mm]


def trim_insets(document: Any) -> list[tuple[str, float]]:
    """Every card with how near (mm) its text and images come to its trim, on the side
    where they come nearest: what the cards' safe inset promises, measured on the layout.

    A card is an element of class ``card`` (its border box is the trim), named by its
    ``data-card`` (a back by ``data-back``). Positions are taken before CSS transforms, in
    the card's own frame, so a card turned on its side measures as it reads.
    """
    found: list[tuple[str, float]] = []
    for page in document.pages:
        for box in _cards(page):
            extent = _text_extent(box)
            if extent is None:
                continue
            left, top, trim_w, trim_h = weasy.border_box(box)
            right, bottom = left + trim_w, top + trim_h
            nearest = min(extent[0] - left, extent[1] - top, right - extent[2], bottom - extent[3])
            found.append((_card_id(box), round(nearest * MM_PER_PX, 2)))
    return found


def _card_id(box: Any) -> str:
    element = weasy.element(box)
    return str(element.get("data-card") or f"back:{element.get('data-back')}")


def _runs_with_lines(box: Any) -> Iterator[tuple[Any, Any]]:
    """Every non-blank glyph run inside ``box`` with the line box that holds it (the
    innermost one), in document order."""
    stack: list[tuple[Any, Any]] = [(box, None)]
    while stack:
        current, line = stack.pop()
        if weasy.is_line(current):
            line = current
        elif weasy.is_text(current) and line is not None and weasy.text(current).strip():
            yield current, line
        inside = weasy.children(current)
        if inside:
            stack.extend((child, line) for child in reversed(inside))


def card_collisions(document: Any) -> list[tuple[str, str, str]]:
    """Text that prints over other text on the same card: (card id, one run, the other).

    Two glyph runs collide when they sit on different lines yet share both some width and
    most of a line's height: a float over a line that would not wrap, a pinned foot over
    the flowing text. Overflow past the card's edge is ``card_overflows``'s business.
    """
    found: list[tuple[str, str, str]] = []
    for page in document.pages:
        for box in _cards(page):
            card_id = _card_id(box)
            rects = []
            for run, line in _runs_with_lines(box):
                run_x, run_w = weasy.position(run)[0], weasy.size(run)[0]
                line_y, line_h = weasy.position(line)[1], weasy.size(line)[1]
                rects.append(
                    (run_x, line_y, run_x + run_w, line_y + line_h, line, weasy.text(run).strip())
                )
            for i, a in enumerate(rects):
                for b in rects[i + 1 :]:
                    if a[4] is b[4]:
                        continue
                    wide = min(a[2], b[2]) - max(a[0], b[0])
                    high = min(a[3], b[3]) - max(a[1], b[1])
                    if wide > 0.5 and high > 0.3 * min(a[3] - a[1], b[3] - b[1]):
                        found.append((card_id, a[5], b[5]))
    return found
