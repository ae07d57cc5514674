"""How wide a line of text sets, and how many lines it takes, measured the way WeasyPrint
will set it.

Printables choose type sizes and cut names before rendering (a title band must show the
whole name; a roster column must not wrap; a character sheet's front must stay one page),
so they need advance widths ahead of layout. A face that lacks a character does not draw
a box: WeasyPrint takes that character from the next face of the face's fallback chain
(fonts.py). Measuring a Greek name with Bebas Neue's missing-glyph width would guess it a
third too narrow, and the title would not fit its band. So each character is measured in
the first face of the chain that has it, as the renderer does.
"""

from __future__ import annotations

import math
import unicodedata
from functools import cache, lru_cache

from PIL import ImageFont

from ..resources import fonts_dir
from .fonts import (
    CJK,
    CJK_FAMILIES,
    FACE_FILES,
    FACES,
    FALLBACKS,
    family_and_style,
    font_package_for,
    system_fonts,
)
from .units import MM_PER_PT

_UNITS = 1000  # faces are opened once at this size and scaled


@cache
def _open(file: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(fonts_dir() / file), _UNITS)


@cache
def _cmap(file: str) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    font = TTFont(str(fonts_dir() / file), lazy=True)
    points = frozenset(font.getBestCmap() or {})
    font.close()
    return points


@cache
def _chain(file: str) -> tuple[str, ...]:
    """The face files (or a CJK family name) that draw for ``file``, in order."""
    family, style = family_and_style(file)
    chain: list[str] = [file]
    for fallback in FALLBACKS.get(family, []):
        if fallback in CJK_FAMILIES:
            if fallback not in chain:
                chain.append(fallback)
            continue
        styles = FACE_FILES.get(fallback, {})
        pick = styles.get(style) or styles.get("bold" if "bold" in style else "regular")
        if pick and pick not in chain:
            chain.append(pick)
    return tuple(chain)


@cache
def _cjk_installed() -> bool:
    return any(group == CJK for group, _ in system_fonts())


def forget_fonts() -> None:
    """Measure afresh after the faces we draw with changed (a campaign's own CJK faces)."""
    _cjk_installed.cache_clear()
    _face_for.cache_clear()
    text_width_mm.cache_clear()


@cache
def _face_for(char: str, file: str) -> str | None:
    point = ord(char)
    for face in _chain(file):
        if face in CJK_FAMILIES:
            # Every region's family (the language picks one: render/fonts.py) sets these
            # a full em wide.
            if _cjk_installed() and font_package_for(char) == CJK:
                return face
        elif point in _cmap(face):
            return face
    return None


@lru_cache(maxsize=4096)
def display_face(text: str) -> str:
    """The face file a display title sets ``text`` in: Bebas Neue when it has every letter of
    the title in capitals, else the condensed Noto for the whole title. Falling back letter
    by letter would set "NGUYỄN" in two designs, and Bebas Neue has Vietnamese's Á but not
    its Ễ; a Greek or Tamil title, which Bebas Neue lacks entirely, loses nothing by it.
    Only letters count: an emoji or a rare symbol falls back on its own, between words."""
    bebas = _cmap(FACES["display"])
    needed = (ord(c) for c in text.upper() if unicodedata.category(c)[0] in {"L", "M"})
    whole = all(point in bebas for point in needed)
    return FACES["display"] if whole else FACES["display-fallback"]


def _as_set(text: str, file: str) -> tuple[str, str]:
    """Display titles are set in capitals (``text-transform: uppercase`` in the templates)
    and in one face for the whole title (``display_face``): measure them so."""
    if file != FACES["display"]:
        return text, file
    return text.upper(), display_face(text)


@lru_cache(maxsize=65536)
def text_width_mm(text: str, file: str, size_pt: float, tracking_em: float = 0.0) -> float:
    """The advance width of ``text`` set in the bundled face ``file`` (e.g.
    ``"Lato-Bold.ttf"``) at ``size_pt``, with ``tracking_em`` of letter-spacing after
    every character, in millimetres. Text in the display face is measured as the templates
    set it: in capitals, and in ``display_face``'s face."""
    text, file = _as_set(text, file)
    units = 0.0
    run_face: str | None = None
    run = ""
    for char in text:
        face = _face_for(char, file) if not char.isspace() else file
        if face != run_face and run:
            units += _run_units(run, run_face, file)
            run = ""
        run_face = face
        run += char
    if run:
        units += _run_units(run, run_face, file)
    return (units / _UNITS + tracking_em * len(text)) * size_pt * MM_PER_PT


def _run_units(run: str, face: str | None, file: str) -> float:
    if face in CJK_FAMILIES:
        return float(_UNITS * len(run))
    # Control characters take no room on the page, and make raqm's layout fail outright
    # (a name with U+001E in it, typed or pasted by a stranger).
    run = "".join(char for char in run if unicodedata.category(char) != "Cc")
    if not run:
        return 0.0
    # A character no face has: the renderer draws the first face's missing-glyph box.
    return float(_open(face or file).getlength(run))


def wrapped_lines(
    text: str, file: str, size_pt: float, width_mm: float, indent_mm: float = 0.0
) -> int:
    """How many lines ``text`` takes in a box ``width_mm`` wide, set in the bundled face
    ``file`` at ``size_pt``, its first line starting ``indent_mm`` in (after a bold name, say).

    Lines break greedily at white space, as the renderer breaks them, and a word longer
    than a line is broken anywhere (CSS ``overflow-wrap: anywhere``). Empty text takes no
    line, unless it follows an indent on the first line.
    """
    if not text:
        return 1 if indent_mm else 0
    text, file = _as_set(text, file)  # one face for the whole text, not word by word
    width_mm = max(width_mm, 5.0)
    space = text_width_mm(" ", file, size_pt)
    lines, x = 1, indent_mm
    for word in text.split():
        w = text_width_mm(word, file, size_pt)
        if x > 0 and x + space + w > width_mm:
            lines, x = lines + 1, 0.0
        elif x > 0:
            x += space
        while x + w > width_mm:
            lines, w, x = lines + 1, w - (width_mm - x), 0.0
        x += w
    return lines


def lines_for(count: int, per_line: float, empty: int = 1) -> int:
    """Rows that ``count`` things take at ``per_line`` a row (boxes of a track, or the
    characters of a text estimated by an average width); ``empty`` rows for none."""
    return max(1, math.ceil(count / per_line)) if count else empty
