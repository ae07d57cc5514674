"""Which font file draws which face, and what a face falls back to.

The bundled faces live in ``fonts/`` (resources.fonts_dir). Our three faces draw Latin
and Cyrillic, Lato Greek too; a name in any other script falls back, character by
character, along the chain its face lists in ``FALLBACKS``: Noto faces bundled for Greek
in serif text, Arabic, Hebrew, Devanagari, Thai, Tamil and Georgian, and Noto Emoji; then
Noto CJK, too large to bundle, from Debian's package when it is installed. Display titles
that Bebas Neue cannot set whole (Greek, Vietnamese) are set whole in Noto Sans Display
ExtraCondensed instead (measure.display_face), so a title never changes face mid-word.
render/fonts.py writes these chains into fontconfig's configuration; measure.py follows
them to measure text as the renderer will set it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

# The faces the templates set, by the job they do: body text in Charis SIL, labels and
# figures in Lato, display names in Bebas Neue, or in a condensed Noto of the same weight and
# near its width when Bebas Neue lacks a letter of the name.
FACES: dict[str, str] = {
    "serif": "CharisSIL-Regular.ttf",
    "serif-bold": "CharisSIL-Bold.ttf",
    "serif-italic": "CharisSIL-Italic.ttf",
    "sans": "Lato-Regular.ttf",
    "sans-bold": "Lato-Bold.ttf",
    "sans-italic": "Lato-Italic.ttf",
    "sans-black": "Lato-Black.ttf",
    "display": "BebasNeue-Regular.otf",
    "display-fallback": "NotoSansDisplay-ExtraCondensed.ttf",
}

# Family -> (style -> file), for every bundled face a chain can name. A bold or italic
# face falls back to the bold or italic fallback where one is bundled.
FACE_FILES: dict[str, dict[str, str]] = {
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
    "Noto Sans Display ExtraCondensed": {"regular": "NotoSansDisplay-ExtraCondensed.ttf"},
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
            ("Noto Sans Tamil", "NotoSansTamil"),
            ("Noto Sans Georgian", "NotoSansGeorgian"),
        )
    },
    "Noto Emoji": {"regular": "NotoEmoji-Regular.ttf"},
}
# CJK faces are full-width: every Han, kana and Hangul character advances one em.
CJK_FAMILIES = frozenset({"Noto Sans CJK SC", "Noto Serif CJK SC"})

# Large faces taken from Debian's packages at these paths and nowhere else, so a machine's
# other fonts never leak into a PDF. Package -> the files it installs that we use.
SYSTEM_FONTS: dict[str, tuple[Path, ...]] = {
    "fonts-noto-cjk": tuple(
        Path("/usr/share/fonts/opentype/noto") / name
        for name in (
            "NotoSansCJK-Regular.ttc",
            "NotoSansCJK-Bold.ttc",
            "NotoSerifCJK-Regular.ttc",
            "NotoSerifCJK-Bold.ttc",
        )
    ),
}
# What each package adds, for the one-line hint when a document needs it and it is absent.
SYSTEM_FONT_SCRIPTS = {
    "fonts-noto-cjk": "Chinese, Japanese and Korean",
}

# Fallback chains: after a face, the faces that draw what it lacks, in order. Han
# characters take their Simplified Chinese shapes (a name cannot tell us its language).
_CJK_SANS = ["Noto Sans CJK SC", "Noto Emoji"]
_CJK_SERIF = ["Noto Serif CJK SC", "Noto Sans CJK SC", "Noto Emoji"]
_SANS = [
    "Noto Sans Arabic",
    "Noto Sans Hebrew",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
    "Noto Sans Tamil",
    "Noto Sans Georgian",
]
FALLBACKS: dict[str, list[str]] = {
    "Charis SIL": ["Noto Serif", "Noto Naskh Arabic", *_SANS[1:], *_CJK_SERIF],
    "Lato": ["Noto Serif", *_SANS, *_CJK_SANS],
    # Display titles: a condensed sans of Bebas Neue's weight draws what it lacks (Greek,
    # Vietnamese), where Lato Black set those letters wide, heavy and in lower case.
    "Bebas Neue": ["Noto Sans Display ExtraCondensed", *_SANS, "Noto Serif", *_CJK_SANS],
    "Noto Sans Display ExtraCondensed": [*_SANS, "Noto Serif", *_CJK_SANS],
}
FALLBACKS["serif"] = ["Charis SIL", *FALLBACKS["Charis SIL"]]
FALLBACKS["sans-serif"] = ["Lato", *FALLBACKS["Lato"]]
FALLBACKS["monospace"] = FALLBACKS["sans-serif"]

# Scripts whose faces come from a Debian package: a character in these ranges that
# nothing draws means that package is not installed.
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


def system_fonts() -> Iterator[tuple[str, Path]]:
    """(Debian package, file) for every fixed-path face that is installed here."""
    for package, paths in SYSTEM_FONTS.items():
        for path in paths:
            if path.is_file():
                yield package, path


def font_package_for(char: str) -> str | None:
    """The Debian font package whose faces would draw ``char``, if it is one of those."""
    point = ord(char)
    for package, ranges in _PACKAGE_RANGES.items():
        if any(low <= point <= high for low, high in ranges):
            return package
    return None


def family_and_style(file: str) -> tuple[str, str]:
    """(family, style) of a bundled face file: ``("Lato", "bold")`` for Lato-Bold.ttf."""
    for family, styles in FACE_FILES.items():
        for style, name in styles.items():
            if name == file:
                return family, style
    raise KeyError(f"not a bundled face: {file}")
