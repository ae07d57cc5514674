"""Measuring a roster's text: how wide a run of words sets in the bundled serif and how
many lines it takes at a column's width, broken at spaces as the renderer breaks it. Pure;
the fonts are the bundled ones WeasyPrint uses.

Estimates err on the tall side (a slightly narrower measure than the CSS gives, no break
after hyphens), so a column may end a little early but never overflows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from ...typesetting import measure
from ...typesetting.fonts import FACES

# One face (Charis SIL) in one size, so bold and italic runs never make a line taller than
# its neighbours.
TEXT_PT = 9.0
MEASURE_SLACK = 0.985  # measure lines a little short: an estimate must never be too low
FONTS = {"regular": FACES["serif"], "bold": FACES["serif-bold"], "italic": FACES["serif-italic"]}


@lru_cache(maxsize=65536)
def text_mm(text: str, style: str, size_pt: float = TEXT_PT) -> float:
    """How wide ``text`` sets, from the font's advance widths (kerned when PIL has raqm)."""
    return measure.text_width_mm(text, FONTS[style], size_pt)


Run = tuple[str, str]  # (text, style)


def _words(runs: Sequence[Run]) -> list[tuple[float, float]]:
    """(width of the word, width of the space after it) for each space-separated word; a
    word may span runs ("(13" is regular then bold)."""
    words: list[tuple[float, float]] = []
    width = 0.0
    started = False
    for text, style in runs:
        parts = text.split(" ")
        for index, part in enumerate(parts):
            if index > 0:  # a space ends the word before it
                if started:
                    words.append((width, text_mm(" ", style)))
                width, started = 0.0, False
            if part:
                width += text_mm(part, style)
                started = True
    if started:
        words.append((width, 0.0))
    return words


def count_lines(runs: Sequence[Run], width_mm: float) -> int:
    """Lines the text takes at ``width_mm`` when broken greedily at spaces, as browsers do.
    A word wider than the line (overflow-wrap: anywhere) takes as many lines as it needs."""
    room = width_mm * MEASURE_SLACK
    lines, used = 0, 0.0
    pending_space = 0.0
    for word, space in _words(runs):
        if lines and used + pending_space + word <= room:
            used += pending_space + word
        else:
            lines += max(1, math.ceil(word / room))
            used = word - (math.ceil(word / room) - 1) * room if word > room else word
        pending_space = space
    return max(1, lines)
