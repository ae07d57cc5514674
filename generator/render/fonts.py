"""Confine text rendering to the bundled fonts.

WeasyPrint asks fontconfig for fonts, and fontconfig would happily fall back to whatever
the machine has installed; then the same campaign prints differently on two machines and
the PDF embeds fonts we never chose. Pointing FONTCONFIG_FILE at a configuration that only
lists ``fonts/`` must happen before fontconfig initialises, i.e. before weasyprint is
imported, so every module imports weasyprint through ``render.engine``.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from xml.sax.saxutils import escape

from ..resources import fonts_dir

# Aliases so that generic families in user CSS still land on a bundled face.
_CONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
  <alias binding="same"><family>serif</family><prefer><family>Charis SIL</family></prefer></alias>
  <alias binding="same"><family>sans-serif</family><prefer><family>Lato</family></prefer></alias>
  <alias binding="same"><family>monospace</family><prefer><family>Lato</family></prefer></alias>
</fontconfig>
"""


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
    text = _CONFIG.format(fonts=escape(str(fonts)), cache=escape(str(base / "cache")))
    if config.is_symlink() or not config.is_file() or config.read_text(encoding="utf-8") != text:
        write_file(config, text.encode("utf-8"), cache)
    os.environ["FONTCONFIG_FILE"] = str(config)
    return config
