"""A content-addressed cache of rendered PDFs, so a rebuild renders only what changed.

The key of a document is a hash of everything that can change its PDF: the final HTML
(which already holds the data, the template output and the inline CSS), the bytes of every
local file that HTML refers to (images, SVGs, stylesheets), the bundled fonts, and the
versions of scratchpress and WeasyPrint. Change a character and only its sheet, its cards
and the roster re-render; change the sheet template and only sheets do.

Each entry stores the PDF beside a small JSON record with the PDF's own hash; an entry whose
bytes do not match is treated as missing and rendered again.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .. import __version__
from ..resources import fonts_dir
from .files import write_atomic

CACHE_DIR = ".scratchpress-cache"
_FILE_URL = re.compile(r"""file://[^\s"'()<>]+""")


@cache
def _fonts_digest() -> str:
    digest = hashlib.sha256()
    for font in sorted(fonts_dir().glob("*")):
        if font.is_file():
            digest.update(font.name.encode())
            digest.update(font.read_bytes())
    return digest.hexdigest()


@cache
def _weasyprint_version() -> str:
    from importlib.metadata import version

    return version("weasyprint")


def cache_key(html: str, extra: str = "") -> str:
    digest = hashlib.sha256()
    for part in (__version__, _weasyprint_version(), _fonts_digest(), extra, html):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    for url in sorted(set(_FILE_URL.findall(html))):
        path = Path(unquote(urlsplit(url).path))
        digest.update(url.encode())
        try:
            if path.is_file() and path.stat().st_size < 64 * 2**20:
                digest.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            digest.update(b"missing")
    return digest.hexdigest()


class RenderCache:
    def __init__(self, folder: Path, enabled: bool = True) -> None:
        self.folder = folder / CACHE_DIR
        self.enabled = enabled
        self.hits = 0
        self.misses = 0

    def get(self, key: str) -> tuple[bytes, dict[str, Any]] | None:
        if not self.enabled:
            return None
        pdf_path, meta_path = self.folder / f"{key}.pdf", self.folder / f"{key}.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            pdf = pdf_path.read_bytes()
        except (OSError, ValueError):
            self.misses += 1
            return None
        if not isinstance(meta, dict) or meta.get("sha256") != hashlib.sha256(pdf).hexdigest():
            self.misses += 1  # corrupt or half-written entry: render again
            return None
        self.hits += 1
        return pdf, meta

    def put(self, key: str, pdf: bytes, meta: dict[str, Any]) -> None:
        if not self.enabled:
            return
        record = dict(meta, sha256=hashlib.sha256(pdf).hexdigest())
        write_atomic(self.folder / f"{key}.pdf", pdf)
        write_atomic(self.folder / f"{key}.json", json.dumps(record).encode("utf-8"))
