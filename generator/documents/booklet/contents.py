"""The contents page's two columns, balanced here rather than by CSS.

WeasyPrint balances CSS columns by laying their content out again and again until both
columns are about as tall, and a contents page is laid out three times (its page numbers
are only known once the chapters are placed): that was 40% of a booklet's render. The
split is simple to find instead: chapters never break across columns, so the left column
takes the longest run of chapters that is no taller than the taller column must be. The
heights are estimated from the same sizes as booklet.css, with the text measured in the
bundled fonts; a contents too long for one page is left to CSS columns, which run on.
"""

from __future__ import annotations

import math
from typing import Any

from ...typesetting.fonts import FACES
from ...typesetting.measure import text_width_mm
from .imposition import Layout

GAP_MM = 7.0  # booklet.html/.css: the columns' gap, .toc-number width, .toc-sections indent
CHAPTER_EM = 1.08  # .toc-chapter > .toc-entry
SECTIONS_TOP_MM = 1.0  # .toc-sections margin-top
SECTION_PADDING_MM = 0.8  # .toc-sections .toc-entry, top and bottom
CHAPTER_BOTTOM_MM = 3.5  # .toc-chapter margin-bottom
NUMBER_MM = 5.0  # room kept for the dotted leader's start and a page number
TITLE_AND_RULE_MM = 20.0  # .toc-title's text, padding, rule and margin, a little over
COLOPHON_MM = 34.0  # .toc padding-bottom, kept for the imprint
SURE = 0.85  # share of the page the estimate may fill before CSS columns take over


def _lines(text: str, face: str, size_pt: float, width_mm: float) -> int:
    """Lines ``text`` takes in ``width_mm``, breaking at spaces as the renderer does (and
    anywhere in text without spaces, such as Chinese or Japanese, by its width alone)."""
    if any(ord(char) >= 0x2E80 for char in text):
        return max(1, math.ceil(text_width_mm(text, face, size_pt) / width_mm))
    lines, used = 1, 0.0
    space = text_width_mm(" ", face, size_pt)
    for word in text.split(" "):  # not at no-break spaces
        width = text_width_mm(word, face, size_pt)
        if used and used + space + width > width_mm:
            lines, used = lines + 1, width
        else:
            used += (space if used else 0.0) + width
    return lines


def _height_mm(chapter: dict[str, Any], layout: Layout, column_mm: float) -> float:
    """The chapter's entry and its sections' entries, one under the other."""
    body = layout.body_pt
    line_mm = (1.42 if layout.small else 1.45) * body * 25.4 / 72
    width = column_mm - GAP_MM - NUMBER_MM  # after the number, or the sections' indent
    heading = _lines(chapter["title"], FACES["sans-bold"], body * CHAPTER_EM, width)
    height = heading * line_mm * CHAPTER_EM + CHAPTER_BOTTOM_MM
    if chapter["sections"]:
        height += SECTIONS_TOP_MM
    for section in chapter["sections"]:
        lines = _lines(section["title"], FACES["serif"], body, width)
        height += lines * line_mm + SECTION_PADDING_MM
    return height


def contents_columns(toc: list[dict[str, Any]], layout: Layout) -> list[list[dict[str, Any]]]:
    """The chapters of the left and the right column; none when the contents should run on
    in CSS columns (too long for one page, or a single chapter)."""
    if len(toc) < 2:
        return []
    column_mm = (layout.text_mm - GAP_MM) / 2
    heights = [_height_mm(chapter, layout, column_mm) for chapter in toc]
    tallest = min(
        max(sum(heights[:split]), sum(heights[split:])) for split in range(1, len(toc) + 1)
    )
    room = layout.text_height_mm - TITLE_AND_RULE_MM - COLOPHON_MM
    if tallest > room * SURE:  # an estimate a little short must not reach the imprint
        return []
    left = 0
    while left < len(toc) and sum(heights[: left + 1]) <= tallest + 1e-6:
        left += 1
    return [toc[:left], toc[left:]] if left < len(toc) else [toc, []]


__all__ = ["contents_columns"]
