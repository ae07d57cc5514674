"""How wide a line of text sets, measured the way WeasyPrint will set it.

Printables choose type sizes and cut names before rendering (a title band must show the
whole name; a roster column must not wrap), so they need advance widths ahead of layout.
A face that lacks a character does not draw a box: WeasyPrint takes that character from
the next face of the face's fallback chain (render/fonts.py). Measuring a Greek name
with Bebas Neue's missing-glyph width would guess it a third too narrow, and the title
would not fit its band. So each character is measured in the first face of the chain
that has it, as the renderer does.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import ImageFont

from ..resources import fonts_dir
from .fonts import FALLBACKS, system_fonts
from .lint import font_package_for

MM_PER_PT = 25.4 / 72
_UNITS = 1000  # faces are opened once at this size and scaled

# Family -> (file, the style of that file), for the faces a chain can name. A bold or
# italic face falls back to the bold or italic fallback where one is bundled.
_FILES: dict[str, dict[str, str]] = {
    "Charis SIL": {
        "regular": "CharisSIL-Regular.ttf",
        "bold": "CharisSIL-Bold.ttf",
        "italic": "CharisSIL-Italic.ttf",
        "bold-italic": "CharisSIL-BoldItalic.ttf",
    },
    "Lato": {
        "regular": "Lato-Regular.ttf",
        "bold": "Lato-Bold.ttf",
        "italic": "Lato-Italic.ttf",
        "bold-italic": "Lato-BoldItalic.ttf",
        "black": "Lato-Black.ttf",
    },
    "Bebas Neue": {"regular": "BebasNeue-Regular.otf"},
    "Lato Black": {"regular": "Lato-Black.ttf"},
    "Noto Serif": {
        "regular": "NotoSerif-Regular.ttf",
        "bold": "NotoSerif-Bold.ttf",
        "italic": "NotoSerif-Italic.ttf",
    },
    **{
        family: {"regular": f"{stem}-Regular.ttf", "bold": f"{stem}-Bold.ttf"}
        for family, stem in (
            ("Noto Naskh Arabic", "NotoNaskhArabic"),
            ("Noto Sans Arabic", "NotoSansArabic"),
            ("Noto Sans Hebrew", "NotoSansHebrew"),
            ("Noto Sans Devanagari", "NotoSansDevanagari"),
            ("Noto Sans Thai", "NotoSansThai"),
        )
    },
    "Noto Emoji": {"regular": "NotoEmoji-Regular.ttf"},
}
# CJK faces are full-width: every Han, kana and Hangul character advances one em.
_CJK_FAMILIES = {"Noto Sans CJK SC", "Noto Serif CJK SC"}


def _family_and_style(file: str) -> tuple[str, str]:
    for family, styles in _FILES.items():
        for style, name in styles.items():
            if name == file:
                return family, style
    raise KeyError(f"not a bundled face: {file}")


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
    family, style = _family_and_style(file)
    chain: list[str] = [file]
    for fallback in FALLBACKS.get(family, []):
        if fallback in _CJK_FAMILIES:
            if fallback not in chain:
                chain.append(fallback)
            continue
        styles = _FILES.get(fallback, {})
        pick = styles.get(style) or styles.get("bold" if "bold" in style else "regular")
        if pick and pick not in chain:
            chain.append(pick)
    return tuple(chain)


@cache
def _cjk_installed() -> bool:
    return any(package == "fonts-noto-cjk" for package, _ in system_fonts())


@cache
def _face_for(char: str, file: str) -> str | None:
    point = ord(char)
    for face in _chain(file):
        if face in _CJK_FAMILIES:
            if _cjk_installed() and font_package_for(char) == "fonts-noto-cjk":
                return face
        elif point in _cmap(face):
            return face
    return None


@lru_cache(maxsize=65536)
def text_width_mm(text: str, file: str, size_pt: float, tracking_em: float = 0.0) -> float:
    """The advance width of ``text`` set in the bundled face ``file`` (e.g.
    ``"Lato-Bold.ttf"``) at ``size_pt``, with ``tracking_em`` of letter-spacing after
    every character, in millimetres."""
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
    if face in _CJK_FAMILIES:
        return float(_UNITS * len(run))
    # A character no face has: the renderer draws the first face's missing-glyph box.
    return float(_open(face or file).getlength(run))

