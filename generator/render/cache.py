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
import hmac
import json
import os
import re
import secrets
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .. import __version__
from ..resources import fonts_dir
from .confine import RefusedResource, check_local_file
from .files import write_atomic

CACHE_DIR = ".scratchpress-cache"
CACHE_LIMIT_BYTES = 256 * 1024 * 1024  # past this, entries the last build did not use go
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


_FILE_DIGESTS: dict[tuple[str, int, int, int], bytes] = {}


def _file_digest(path: Path) -> bytes:
    """A file's SHA-256, remembered while its size, time and inode stay the same: a deck's
    shell names the same fonts and pictures in every build of a ``--watch`` session."""
    info = path.stat()
    stamp = (str(path), info.st_size, info.st_mtime_ns, info.st_ino)
    if stamp not in _FILE_DIGESTS:
        _FILE_DIGESTS[stamp] = hashlib.sha256(path.read_bytes()).digest()
    return _FILE_DIGESTS[stamp]


def cache_key(html: str, extra: str = "", roots: tuple[Path, ...] = ()) -> str:
    """Only files the renderer may read are hashed: a path printed in a note is not
    opened, and nothing outside the allowed folders is touched."""
    digest = hashlib.sha256()
    for part in (__version__, _weasyprint_version(), _fonts_digest(), extra, html):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    for url in sorted(set(_FILE_URL.findall(html))):
        digest.update(url.encode())
        try:
            real = check_local_file(Path(unquote(urlsplit(url).path)), list(roots))
            digest.update(_file_digest(real))
        except (RefusedResource, OSError, ValueError):
            digest.update(b"refused")
    return digest.hexdigest()


def _secret() -> bytes:
    """This user's key for signing cache entries, made once, readable by the user only.

    The cache sits in the output folder, which may have arrived inside a stranger's
    campaign; an entry we did not sign ourselves is never used."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "scratchpress"
    return _key_at(base)


@cache
def _key_at(base: Path) -> bytes:
    """The key in ``base``, read once per process (a deck checks hundreds of entries)."""
    path = base / "cache-signing-key"
    try:
        return path.read_bytes()
    except OSError:
        pass
    base.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
    except FileExistsError:
        return path.read_bytes()
    return key


def _mac(key: str, sha: str) -> str:
    return hmac.new(_secret(), f"{key}:{sha}".encode(), hashlib.sha256).hexdigest()


class RenderCache:
    """Signed entries in the output folder; ``memory`` (kept by ``build --watch`` from one
    build to the next) holds entries already checked or written by this process, so a
    rebuild does not read and check hundreds of files again."""

    def __init__(
        self, folder: Path, enabled: bool = True, memory: dict[str, Any] | None = None
    ) -> None:
        self.folder = folder / CACHE_DIR
        self.enabled = enabled
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()  # keys this build read or wrote: never pruned
        self.memory = memory if memory is not None and enabled else None

    def _remember(self, key: str, value: Any) -> None:
        if self.memory is not None:
            self.memory[key] = value

    def get(self, key: str) -> tuple[bytes, dict[str, Any]] | None:
        if not self.enabled:
            return None
        remembered = self.memory.get(key) if self.memory is not None else None
        if isinstance(remembered, tuple) and (self.folder / f"{key}.pdf").exists():
            self.hits += 1
            self.used.add(key)
            return remembered
        pdf_path, meta_path = self.folder / f"{key}.pdf", self.folder / f"{key}.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            pdf = pdf_path.read_bytes()
        except (OSError, ValueError):
            self.misses += 1
            return None
        sha = hashlib.sha256(pdf).hexdigest()
        if (
            not isinstance(meta, dict)
            or meta.get("sha256") != sha
            or not hmac.compare_digest(str(meta.get("mac", "")), _mac(key, sha))
        ):
            self.misses += 1  # corrupt, half-written or not ours: render again
            return None
        self.hits += 1
        self.used.add(key)
        self._remember(key, (pdf, meta))
        return pdf, meta

    def get_unit(self, key: str) -> dict[str, Any] | None:
        """Where a rendered unit (one card of a deck) lives: a PDF entry and a page of it,
        with the unit's own lint. Signed like every entry."""
        if not self.enabled:
            return None
        remembered = self.memory.get(f"{key}.unit") if self.memory is not None else None
        if isinstance(remembered, dict):
            self.used.add(key)
            return dict(remembered)
        try:
            record = json.loads((self.folder / f"{key}.unit.json").read_bytes())
            mac = str(record.pop("mac"))
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            return None
        body = json.dumps(record, sort_keys=True)
        if not hmac.compare_digest(mac, _mac(key, hashlib.sha256(body.encode()).hexdigest())):
            return None
        self.used.add(key)
        self._remember(f"{key}.unit", dict(record))
        return dict(record)

    def put_unit(self, key: str, record: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.used.add(key)
        body = json.dumps(record, sort_keys=True)
        signed = dict(record, mac=_mac(key, hashlib.sha256(body.encode()).hexdigest()))
        write_atomic(
            self.folder / f"{key}.unit.json", json.dumps(signed).encode("utf-8"), durable=False
        )
        self._remember(f"{key}.unit", dict(record))

    def put(self, key: str, pdf: bytes, meta: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.used.add(key)
        sha = hashlib.sha256(pdf).hexdigest()
        record = dict(meta, sha256=sha, mac=_mac(key, sha))
        write_atomic(self.folder / f"{key}.pdf", pdf, durable=False)
        write_atomic(self.folder / f"{key}.json", json.dumps(record).encode("utf-8"), durable=False)
        self._remember(key, (pdf, record))

    def forget_unused(self) -> None:
        """Keep in memory only what this build used: a watch session edited for hours must
        not hold every earlier version of a deck."""
        if self.memory is None:
            return
        for name in list(self.memory):
            if name.removesuffix(".unit") not in self.used:
                del self.memory[name]

    def prune(self, limit_bytes: int | None = None) -> int:
        """Keep the cache under ``limit_bytes``: past it, remove the entries this build did
        not use, oldest first. Every edit to a deck leaves its previous version behind
        (1.5 MB for 540 cards), so a campaign worked on for months would grow without end.
        Returns the number of entries removed."""
        limit_bytes = CACHE_LIMIT_BYTES if limit_bytes is None else limit_bytes
        # One stat per file (a deck's cache holds thousands, and this runs every build).
        entries: dict[str, list[tuple[Path, int, float]]] = {}
        try:
            with os.scandir(self.folder) as listing:
                for entry in listing:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    info = entry.stat(follow_symlinks=False)
                    found = (Path(entry.path), info.st_size, info.st_mtime)
                    entries.setdefault(entry.name.split(".", 1)[0], []).append(found)
        except OSError:
            return 0
        sizes = {key: sum(size for _, size, _ in files) for key, files in entries.items()}
        total = sum(sizes.values())
        if total <= limit_bytes:
            return 0
        stale = sorted(
            (key for key in entries if key not in self.used),
            key=lambda key: max(mtime for _, _, mtime in entries[key]),
        )
        removed = 0
        for key in stale:
            if total <= limit_bytes:
                break
            for path, _, _ in entries[key]:
                path.unlink(missing_ok=True)
            total -= sizes[key]
            removed += 1
        return removed
