"""Which font file draws which face, and what a face falls back to.

The bundled faces live in ``fonts/`` (resources.fonts_dir). Our three faces draw Latin
and Cyrillic, Lato Greek too; a name in any other script falls back, character by
character, along the chain its face lists in ``FALLBACKS``: Noto faces bundled for Greek
in serif text, Arabic, Hebrew, Devanagari, Thai, Tamil and Georgian, and Noto Emoji; then
Noto CJK, too large to bundle, wherever the system keeps it (cjk_font_files), in the shapes
of the text's language (CJK_BY_LANGUAGE). Display titles that Bebas Neue cannot set whole
(Greek, Vietnamese) are set whole in Noto Sans Display ExtraCondensed instead
(measure.display_face), so a title never changes face mid-word.
render/fonts.py writes these chains into fontconfig's configuration; measure.py follows
them to measure text as the renderer will set it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
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
# Chinese, Japanese and Korean: one design (Noto Sans/Serif CJK, also sold as Source Han
# Sans/Serif) drawn in each region's shapes, every region a family of its own in the same
# collection file. The chains below name the Simplified Chinese families; the rules of
# CJK_BY_LANGUAGE put the region of the text's language before them.
CJK_REGIONS = ("JP", "KR", "SC", "TC", "HK")
CJK_FAMILIES = frozenset(
    f"Noto {kind} CJK {region}" for kind in ("Sans", "Serif") for region in CJK_REGIONS
)
# The same faces under the names other packagings give them: Adobe's Source Han (its
# region-specific subsets, and its language-specific sets, where Japanese is unmarked and
# Korean is "K", Hong Kong "HC"), and Google Fonts' region subsets ("Noto Sans JP").
_SOURCE_HAN_REGION = {"JP": "", "KR": "K", "SC": "SC", "TC": "TC", "HK": "HC"}
CJK_OTHER_NAMES: dict[str, tuple[str, ...]] = {
    f"Noto {kind} CJK {region}": tuple(
        dict.fromkeys(
            (
                f"Source Han {kind} {region}",
                f"Source Han {kind} {_SOURCE_HAN_REGION[region]}".rstrip(),
                f"Noto {kind} {region}",
            )
        )
    )
    for kind in ("Sans", "Serif")
    for region in CJK_REGIONS
}
# The text's language (the HTML lang, lower case as Pango passes it to fontconfig) -> the
# regions whose shapes it takes, before the Simplified Chinese of the chains. Japanese
# names in Simplified Chinese shapes read as foreign (直 and 骨 are drawn differently).
CJK_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("ja", "ja-jp"), ("JP",)),
    **dict.fromkeys(("ko", "ko-kr"), ("KR",)),
    **dict.fromkeys(("zh-tw", "zh-hant", "zh-hant-tw"), ("TC",)),
    **dict.fromkeys(("zh-hk", "zh-mo", "zh-hant-hk", "zh-hant-mo"), ("HK", "TC")),
}

# Where the CJK faces are looked for besides fontconfig: Debian's package path, and on
# macOS and Windows (where fontconfig is rarely installed) the platform's font folders,
# by file name. The group name is the Debian package's, which the hints and lint key on.
CJK = "fonts-noto-cjk"
DEBIAN_CJK = tuple(
    Path("/usr/share/fonts/opentype/noto") / name
    for name in (
        "NotoSansCJK-Regular.ttc",
        "NotoSansCJK-Bold.ttc",
        "NotoSerifCJK-Regular.ttc",
        "NotoSerifCJK-Bold.ttc",
    )
)
_CJK_FILE_NAMES = re.compile(
    r"^(Noto(Sans|Serif)CJK|SourceHan(Sans|Serif)|Noto(Sans|Serif)(JP|KR|SC|TC|HK)-)"
    r".*\.(ttc|otc|otf|ttf)$",
    re.IGNORECASE,
)
# Kept for the render process and every process it starts: the user's own FONTCONFIG_FILE
# (empty when there was none), from before render/fonts.py pointed fontconfig at ours.
USER_FONTCONFIG = "SCRATCHPRESS_USER_FONTCONFIG_FILE"

# What each group of faces adds, for the one-line hint when a document needs it and it is
# absent.
SYSTEM_FONT_SCRIPTS = {
    CJK: "Chinese, Japanese and Korean",
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

# Scripts whose faces come from the system: a character in these ranges that nothing
# draws means those faces are not installed.
_PACKAGE_RANGES = {
    CJK: [
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
    """(group, file) for every face of the system's we render with (the CJK faces found by
    ``cjk_font_files``)."""
    for path in cjk_font_files():
        yield CJK, path


def user_fontconfig_env() -> dict[str, str]:
    """The environment fontconfig's own tools see the user's fonts through: ours, with the
    user's FONTCONFIG_FILE put back where render/fonts.py replaced it."""
    env = dict(os.environ)
    if USER_FONTCONFIG in env:
        original = env.pop(USER_FONTCONFIG)
        if original:
            env["FONTCONFIG_FILE"] = original
        else:
            env.pop("FONTCONFIG_FILE", None)
    return env


_CJK_NAMES = CJK_FAMILIES.union(*CJK_OTHER_NAMES.values())


def _cjk_family(families: str) -> bool:
    """Whether fontconfig's list of a face's family names (comma-separated) names a CJK
    face of ours."""
    return any(name.strip() in _CJK_NAMES for name in families.split(","))


def _fontconfig_cjk() -> list[Path]:
    """The CJK faces fontconfig knows of, as the user's own configuration has it."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []
    try:
        listed = subprocess.run(
            [fc_list, "--format", "%{file}\t%{family}\n"],
            env=user_fontconfig_env(),
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=60,  # a first run builds fontconfig's cache of every font installed
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    found = []
    for line in listed.splitlines():
        file, _tab, families = line.partition("\t")
        if file and _cjk_family(families):
            found.append(Path(file))
    return found


def platform_font_folders() -> list[Path]:
    """Where macOS and Windows keep fonts, for the machine and for the user."""
    if sys.platform == "darwin":
        return [
            Path("/System/Library/Fonts"),
            Path("/Library/Fonts"),
            Path.home() / "Library" / "Fonts",
        ]
    if sys.platform == "win32":
        folders = [Path(os.environ.get("WINDIR", r"C:\Windows")) / "Fonts"]
        if os.environ.get("LOCALAPPDATA"):
            folders.append(Path(os.environ["LOCALAPPDATA"]) / "Microsoft" / "Windows" / "Fonts")
        return folders
    return []


def _folder_cjk(folders: list[Path]) -> list[Path]:
    """The CJK faces in ``folders`` (and their subfolders), known by their file names."""
    found = []
    for folder in folders:
        try:
            found += [
                path
                for path in sorted(folder.rglob("*"))
                if _CJK_FILE_NAMES.match(path.name) and path.is_file()
            ]
        except OSError:
            continue
    return found


# The campaign whose own ``fonts/`` folder adds CJK faces, for this process and every
# process it starts (render workers are forked or spawned after it is set).
CAMPAIGN_FONTS = "SCRATCHPRESS_CAMPAIGN_FONTS"
CAMPAIGN_FONT_SUFFIXES = {".ttc", ".otc", ".otf", ".ttf"}


def use_campaign_fonts(root: Path | None) -> bool:
    """Draw with the CJK faces in ``root/fonts`` (a campaign's own folder) besides the
    system's, or with the system's only when ``root`` is None. True when that changes what
    this process draws with."""
    folder = str(root / "fonts") if root is not None and (root / "fonts").is_dir() else ""
    if os.environ.get(CAMPAIGN_FONTS, "") == folder:
        return False
    if folder:
        os.environ[CAMPAIGN_FONTS] = folder
    else:
        os.environ.pop(CAMPAIGN_FONTS, None)
    return True


@cache
def _font_families(path: Path) -> frozenset[str]:
    """Every family name a font file (or each font of a collection) gives itself; empty
    for a file that is not a font."""
    from fontTools.ttLib import TTCollection, TTFont, TTLibError

    try:
        if path.suffix.lower() in {".ttc", ".otc"}:
            collection = TTCollection(str(path), lazy=True)
            fonts = list(collection.fonts)
        else:
            fonts = [TTFont(str(path), lazy=True)]
        names = {
            str(record.toUnicode())
            for font in fonts
            if "name" in font
            for record in font["name"].names
            if record.nameID in (1, 16)
        }
    except (OSError, TTLibError, AssertionError, ValueError, KeyError, UnicodeDecodeError):
        return frozenset()
    return frozenset(names)


@cache
def campaign_cjk(folder: Path) -> tuple[Path, ...]:
    """The CJK faces a campaign keeps in its ``fonts/`` folder (and its subfolders), known by
    the family names inside them, whatever the files are called. A campaign may come from
    a stranger: a link that leads out of the folder is not followed."""
    try:
        base = folder.resolve(strict=True)
        candidates = sorted(folder.rglob("*"))
    except OSError:
        return ()
    found = []
    for path in candidates:
        if path.suffix.lower() not in CAMPAIGN_FONT_SUFFIXES or path.is_symlink():
            continue
        try:
            real = path.resolve(strict=True)
        except OSError:
            continue
        if real.is_file() and real.is_relative_to(base) and _font_families(real) & _CJK_NAMES:
            found.append(real)
    return tuple(found)


@cache
def _installed_cjk() -> tuple[Path, ...]:
    """The Chinese, Japanese and Korean faces installed here, wherever the system keeps
    them: Debian's package path, what fontconfig lists, else the platform's font folders.
    Looked up once per process; forked render workers inherit the answer, and spawned ones
    ask the user's same configuration (user_fontconfig_env) and find the same files."""
    found = [path for path in DEBIAN_CJK if path.is_file()]
    found += _fontconfig_cjk() or _folder_cjk(platform_font_folders())
    return tuple(found)


def cjk_font_files() -> tuple[Path, ...]:
    """The CJK faces we draw with: the campaign's own (use_campaign_fonts), then the
    system's."""
    folder = os.environ.get(CAMPAIGN_FONTS)
    found = [*(campaign_cjk(Path(folder)) if folder else ()), *_installed_cjk()]
    unique: dict[str, Path] = {}
    for path in found:
        unique.setdefault(os.path.normcase(str(path)), path)
    return tuple(sorted(unique.values(), key=str))


def font_package_for(char: str) -> str | None:
    """The group of system faces (SYSTEM_FONT_SCRIPTS) that would draw ``char``, if any."""
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
