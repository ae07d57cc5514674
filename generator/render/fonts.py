"""Confine text rendering to the fonts we chose, and give every script a face.

WeasyPrint asks fontconfig for fonts, and fontconfig would happily fall back to whatever
the machine has installed; then the same campaign prints differently on two machines and
the PDF embeds fonts we never chose. Pointing FONTCONFIG_FILE at a configuration that only
lists ``fonts/`` (and a few Debian font files at fixed paths, below) must happen before
fontconfig initialises, i.e. before weasyprint is imported, so every module imports
weasyprint through ``render.engine``.

Our three faces draw Latin, Cyrillic and (Lato) Greek. A name in any other script falls
back, character by character, along the chain each face's alias lists: Noto faces bundled
in ``fonts/`` for Greek in serif text, Arabic, Hebrew, Devanagari and Thai, and Noto Emoji
(monochrome outlines: they print sharp in black and white, where the colour emoji font's
bitmaps would be scaled pictures); then Noto CJK, too large to bundle (20-27 MB a face),
from Debian's font package when it is installed.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from xml.sax.saxutils import escape

from ..resources import fonts_dir

# The chains, the fixed-path system faces and their scripts are typesetting facts, shared
# with the measuring of text.
from ..typesetting.fonts import FALLBACKS, SYSTEM_FONTS, system_fonts


def missing_font_packages() -> list[str]:
    """Debian packages whose faces we would use but which are not installed."""
    present = {package for package, _ in system_fonts()}
    return [package for package in SYSTEM_FONTS if package not in present]


def _config(fonts: Path, cache: Path) -> str:
    lines = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
        "<fontconfig>",
        f"  <dir>{escape(str(fonts))}</dir>",
    ]
    system = [path for _, path in system_fonts()]
    # A folder of Debian's holds many more faces than we use: list the folder, then refuse
    # every file in it but the ones we named.
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
        accept = "".join(f"<family>{escape(name)}</family>" for name in chain)
        lines.append(
            f'  <alias binding="{binding}"><family>{escape(family)}</family>'
            f"<{'prefer' if binding == 'same' else 'accept'}>{accept}"
            f"</{'prefer' if binding == 'same' else 'accept'}></alias>"
        )
    lines.append("</fontconfig>")
    return "\n".join(lines) + "\n"


def confine_fonts() -> Path:
    """Write our fontconfig file (once per fonts folder) and point the process at it."""
    fonts = fonts_dir()
    from platformdirs import user_cache_dir

    from .files import write_file

    key = hashlib.sha256(str(fonts).encode()).hexdigest()[:12]
    # In the user's own cache folder (0700), not a shared /tmp name that another local
    # user could create first and fill with a configuration of their choosing.
    cache = Path(user_cache_dir("scratchpress", appauthor=False))
    cache.mkdir(parents=True, exist_ok=True, mode=0o700)
    base = cache / f"fontconfig-{key}"
    config = base / "fonts.conf"
    text = _config(fonts, base / "cache")
    if config.is_symlink() or not config.is_file() or config.read_text(encoding="utf-8") != text:
        write_file(config, text.encode("utf-8"), cache)
    os.environ["FONTCONFIG_FILE"] = str(config)
    return config
