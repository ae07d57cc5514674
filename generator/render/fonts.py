"""Confine text rendering to the fonts we chose, and give every script a face.

WeasyPrint asks fontconfig for fonts, and fontconfig would happily fall back to whatever
the machine has installed; then the same campaign prints differently on two machines and
the PDF embeds fonts we never chose. Pointing FONTCONFIG_FILE at a configuration that only
lists ``fonts/`` (and the system's CJK faces, file by file, below) must happen before
fontconfig initialises, i.e. before weasyprint is imported, so every module imports
weasyprint through ``render.engine``.

Our three faces draw Latin, Cyrillic and (Lato) Greek. A name in any other script falls
back, character by character, along the chain each face's alias lists: Noto faces bundled
in ``fonts/`` for Greek in serif text, Arabic, Hebrew, Devanagari and Thai, and Noto Emoji
(monochrome outlines: they print sharp in black and white, where the colour emoji font's
bitmaps would be scaled pictures); then Noto CJK, too large to bundle (20-27 MB a face),
from wherever the system keeps it (typesetting/fonts.py finds it through the user's own
fontconfig, or the platform's font folders). Its Japanese, Korean and Chinese shapes are
families of their own: rules on the text's language (the HTML ``lang``) put the family of
the language's region before the Simplified Chinese the chains name.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from xml.sax.saxutils import escape

from ..resources import fonts_dir

# The chains, the system's faces we use and their scripts are typesetting facts, shared
# with the measuring of text.
from ..typesetting.fonts import (
    CJK_BY_LANGUAGE,
    CJK_FAMILIES,
    CJK_OTHER_NAMES,
    FALLBACKS,
    SYSTEM_FONT_SCRIPTS,
    USER_FONTCONFIG,
    system_fonts,
)


def missing_font_packages() -> list[str]:
    """Groups of system faces (SYSTEM_FONT_SCRIPTS) we would use but found nowhere."""
    present = {group for group, _ in system_fonts()}
    return [group for group in SYSTEM_FONT_SCRIPTS if group not in present]


def _language_rules() -> list[str]:
    """Text in a CJK language takes its region's shapes: before each Simplified Chinese
    family a chain names, the same design's family for the region (fontconfig inserts
    beside the matched family, so the Latin faces ahead of it stay ahead)."""
    lines = []
    for language, regions in CJK_BY_LANGUAGE.items():
        for kind in ("Sans", "Serif"):
            first = "".join(f"<string>Noto {kind} CJK {region}</string>" for region in regions)
            lines.append(
                f'  <match target="pattern"><test name="lang"><string>{escape(language)}'
                f'</string></test><test name="family"><string>Noto {kind} CJK SC</string>'
                f'</test><edit name="family" mode="prepend" binding="same">{first}</edit>'
                "</match>"
            )
    return lines


def _other_names() -> list[str]:
    """The CJK families under the names other packagings of the faces give them."""
    return [
        f'  <alias binding="same"><family>{escape(family)}</family><accept>'
        + "".join(f"<family>{escape(name)}</family>" for name in names)
        + "</accept></alias>"
        for family, names in CJK_OTHER_NAMES.items()
    ]


def _config(fonts: Path, cache: Path) -> str:
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        "<fontconfig>",
        f"  <dir>{escape(str(fonts))}</dir>",
    ]
    system = [path for _, path in system_fonts()]
    # A system folder holds many more faces than we use: list the folder, then refuse
    # every file in it but the ones we found.
    for folder in sorted({path.parent for path in system}):
        lines.append(f"  <dir>{escape(str(folder))}</dir>")
    if system:
        lines.append("  <selectfont>")
        lines += [
            f"    <rejectfont><glob>{escape(str(folder))}/*</glob></rejectfont>"
            for folder in sorted({path.parent for path in system})
        ]
        lines += [
            f"    <acceptfont><glob>{escape(str(path))}</glob></acceptfont>" for path in system
        ]
        lines.append("  </selectfont>")
    lines.append(f"  <cachedir>{escape(str(cache))}</cachedir>")
    for family, chain in FALLBACKS.items():
        binding = "same" if family in {"serif", "sans-serif", "monospace"} else "weak"
        # The CJK families stay weak, even in a generic's (strong) chain: fontconfig puts the
        # language's region before only the first SC of the list, and a strong SC further on
        # would still outrank that weak region family. Weak, they are ranked by the text's
        # language first, then by their order, where the region stands first.
        cjk = [name for name in chain if name in CJK_FAMILIES and binding == "same"]
        accept = "".join(f"<family>{escape(name)}</family>" for name in chain if name not in cjk)
        lines.append(
            f'  <alias binding="{binding}"><family>{escape(family)}</family>'
            f"<{'prefer' if binding == 'same' else 'accept'}>{accept}"
            f"</{'prefer' if binding == 'same' else 'accept'}></alias>"
        )
        if cjk:
            weak = "".join(f"<family>{escape(name)}</family>" for name in cjk)
            lines.append(
                f'  <alias binding="weak"><family>{escape(family)}</family>'
                f"<accept>{weak}</accept></alias>"
            )
    # After the chains (rules apply in order): the region goes before the chains' SC, then
    # each family, region's and SC's, is also accepted under its other names.
    lines += _language_rules()
    lines += _other_names()
    lines.append("</fontconfig>")
    return "\n".join(lines) + "\n"


def confine_fonts() -> Path:
    """Write our fontconfig file (one per fonts folder and set of system faces found) and
    point the process at it."""
    fonts = fonts_dir()
    from platformdirs import user_cache_dir

    from .files import write_file

    # The user's own configuration, kept for looking up the system's faces (here and in
    # every process started from here, render workers included) once ours replaces it.
    os.environ.setdefault(USER_FONTCONFIG, os.environ.get("FONTCONFIG_FILE", ""))
    key = hashlib.sha256(str(fonts).encode()).hexdigest()[:12]
    # In the user's own cache folder (0700), not a shared /tmp name that another local
    # user could create first and fill with a configuration of their choosing.
    cache = Path(user_cache_dir("scratchpress", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True, mode=0o700)
    base = cache / f"fontconfig-{key}"
    text = _config(fonts, base / "cache")
    # Named by what it says: a process that found other faces (another FONTCONFIG_FILE)
    # writes a file of its own rather than changing this one under a starting renderer.
    config = base / f"fonts-{hashlib.sha256(text.encode()).hexdigest()[:12]}.conf"
    if config.is_symlink() or not config.is_file() or config.read_text(encoding="utf-8") != text:
        write_file(config, text.encode("utf-8"), cache)
    os.environ["FONTCONFIG_FILE"] = str(config)
    return config


def draw_with_campaign_fonts(root: Path | None) -> None:
    """Render (and measure) with the CJK faces of the campaign at ``root``, kept in its own
    ``fonts/`` folder, besides the system's: a GM without the system's faces, or who wants
    a face of their own choosing, puts the files there. The configuration fontconfig reads
    changes with them, and render/engine.py loads the fonts again for the new file."""
    from ..typesetting import fonts as typeset_fonts
    from ..typesetting.measure import forget_fonts

    if typeset_fonts.use_campaign_fonts(root):
        forget_fonts()
        if USER_FONTCONFIG in os.environ:  # confined already: confine again, with them
            confine_fonts()
