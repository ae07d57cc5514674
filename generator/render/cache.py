"""A content-addressed cache of rendered PDFs, so a rebuild renders only what changed.

Why one module of ~510 lines: where the cache lives, how an entry is keyed and signed, and
how it is read back and pruned are one trust boundary against files a stranger may plant,
reviewed together.

The key of a document is a hash of everything that can change its PDF: the final HTML
(which already holds the data, the template output and the inline CSS), the bytes of every
local file that HTML refers to (images, SVGs, stylesheets), the bundled fonts, and the
versions of scratchpress and WeasyPrint. Change a character and only its sheet, its cards
and the roster re-render; change the sheet template and only sheets do.

Each entry stores the PDF beside a small JSON record with the PDF's own hash; an entry whose
bytes do not match is treated as missing and rendered again.

Where: never in the output folder (it holds only output). Entries live in the user's cache
directory, one folder per campaign and output folder (named by a hash of both real paths),
or in the folder named by ``build --cache-dir`` or ``$SCRATCHPRESS_CACHE_DIR``. Every folder
we make there is 0700; a cache folder that is a symbolic link, another user's, or writable
by others is refused (the build renders without the cache and says so). Pruning removes
only entries we wrote: named ``<64 hex>.pdf``/``.json``/``.unit.json`` and carrying our
signature. A ``.scratchpress-cache/`` that earlier versions left in an output folder is
never read, written, followed or removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import stat
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .. import __version__
from ..resources import fonts_dir
from ..typesetting.fonts import CJK_BY_LANGUAGE, system_fonts
from .confine import RefusedResource, check_local_file
from .files import TEMP_PREFIX, read_regular, write_atomic

# Where versions before issue 13 kept the cache, inside the output folder. Left alone now.
LEGACY_CACHE_DIR = ".scratchpress-cache"
CACHE_ENV = "SCRATCHPRESS_CACHE_DIR"  # a cache folder of the user's choosing
CACHE_LIMIT_BYTES = 256 * 1024 * 1024  # per cache folder; past it, unused entries go
KEY_FILE = "cache-signing-key"
KEY_BYTES = 32
_FILE_URL = re.compile(r"""file://[^\s"'()<>]+""")
_ENTRY = re.compile(r"([0-9a-f]{64})\.(?:pdf|json|unit\.json)")
_TEMP = re.compile(re.escape(TEMP_PREFIX) + r"[0-9a-f]{16}\.sp\.tmp")  # files.TEMP_NAME
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
# Opening a FIFO planted in the cache would wait for a writer; POSIX only (Windows has no
# such files to open, and no flag: there every build would stop on the name).
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class CacheRefused(Exception):
    """A cache folder we will not use; ``str()`` names it and says why."""


def user_cache_base() -> Path:
    """scratchpress's folder in the user's cache directory (the stamps live there too)."""
    from platformdirs import user_cache_path

    return user_cache_path("scratchpress", appauthor=False)


def _unsafe(info: os.stat_result) -> str | None:
    """Why a folder is not ours alone, or None. Where a platform has no owners (Windows),
    the user's own profile folder already keeps others out."""
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return "is not a folder"
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        if info.st_uid != getuid():
            return "belongs to another user"
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return _OPEN_TO_OTHERS
    return None


_OPEN_TO_OTHERS = "may be written by others"


def _private_folder(path: Path, tighten: bool = False) -> Path:
    """``path`` as a folder only this user may change: made with mode 0700 when missing;
    refused (:class:`CacheRefused`) when it is a link, another user's or others may write
    to it (``tighten``: a real folder of ours that others may write is made 0700 instead).
    Never followed: ``lstat`` looks at the name itself."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(path, 0o700)
    problem = _unsafe(os.lstat(path))
    if problem == _OPEN_TO_OTHERS and tighten:
        os.chmod(path, 0o700)  # checked just now: our own folder, not a link
        problem = _unsafe(os.lstat(path))
    if problem is not None:
        raise CacheRefused(f"{path} {problem}")
    return path


def _checked_base(base: Path | None = None) -> Path:
    """Our folder in the user's cache directory, made or checked. The folders above it are
    the user's (``~/.cache`` may well be a link to another disk) and are only made. Other
    parts (the stamps, the output locks, older versions) make this folder with the umask's
    mode, so one of ours that a umask of 002 left group-writable is made 0700 rather than
    refused: everything inside is checked on its own (a link or another user's folder is
    refused, a key not ours replaced, an entry not signed by us never used)."""
    base = user_cache_base() if base is None else base
    base.parent.mkdir(parents=True, exist_ok=True)
    return _private_folder(base, tighten=True)


def cache_folder(campaign_root: Path | None, out_dir: Path, chosen: Path | None = None) -> Path:
    """Where a build of ``campaign_root`` into ``out_dir`` keeps its entries: ``chosen``
    (``--cache-dir``), else ``$SCRATCHPRESS_CACHE_DIR``, else a folder of its own in the
    user's cache directory named by a hash of both real paths. Neither made nor checked."""
    if chosen is None and os.environ.get(CACHE_ENV):
        chosen = Path(os.path.expanduser(os.environ[CACHE_ENV]))
    if chosen is not None:
        return Path(os.path.abspath(chosen))
    root = os.path.realpath(campaign_root) if campaign_root is not None else None
    identity = json.dumps([root, os.path.realpath(out_dir)])
    return user_cache_base() / "render" / hashlib.sha256(identity.encode()).hexdigest()[:32]


def open_cache_folder(folder: Path) -> Path:
    """Make or check ``folder`` (and, below our folder in the user's cache directory, every
    folder on the way) as the user's alone; raises :class:`CacheRefused` or ``OSError``."""
    base = _checked_base()
    try:
        inside = folder.relative_to(base)
    except ValueError:
        folder.parent.mkdir(parents=True, exist_ok=True)  # the user's own choice of place
        return _private_folder(folder)
    current = base
    for part in inside.parts:
        current = _private_folder(current / part)
    return current


# Larger than any entry we write (a PDF of ours is a few MB, its record a few KB): a
# larger file in the cache is not ours, and is never read into memory to find that out.
MAX_PDF_ENTRY_BYTES = 512 * 1024 * 1024
MAX_RECORD_BYTES = 16 * 1024 * 1024


def _read_regular(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """A cache file's bytes (a cache folder is ours alone, but nothing in it is ever
    followed, and a file larger than any entry we write is not ours): ``OSError`` else."""
    return read_regular(path, limit)


def _fonts_digest() -> str:
    return _digest_of_fonts(tuple(path for _, path in system_fonts()))


@cache
def _digest_of_fonts(system: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for font in sorted(fonts_dir().glob("*")):
        if font.is_file():
            digest.update(font.name.encode())
            digest.update(font.read_bytes())
    # Installing, moving or upgrading the system's CJK faces changes what a page looks
    # like; the files are large, so their size and date stand for their bytes. Which
    # region's shapes each language takes changes it too.
    for path in system:
        info = path.stat()
        digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}".encode())
    digest.update(repr(sorted(CJK_BY_LANGUAGE.items())).encode())
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
        # A picture or font a stranger's theme names may be huge (the fetcher refuses it
        # later): hash in chunks, never holding it whole.
        with path.open("rb") as handle:
            _FILE_DIGESTS[stamp] = hashlib.file_digest(handle, "sha256").digest()
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

    A ``--cache-dir`` may be a folder others see, and older versions kept entries in
    output folders that travel with campaigns; an entry we did not sign is never used."""
    return _key_at(user_cache_base())


@cache
def _key_at(base: Path) -> bytes:
    """The key in ``base``, read once per process (a deck checks hundreds of entries).
    ``base`` must be ours alone (:class:`CacheRefused` otherwise); a key that is missing,
    short, empty, a link, or readable by others is replaced by a new one."""
    _checked_base(base)
    path = base / KEY_FILE
    return _read_key(path) or _new_key(path)


def _read_key(path: Path) -> bytes | None:
    """The key at ``path`` if it is a usable one: a regular file, not a link, ours, mode
    0600 or tighter, of at least KEY_BYTES bytes. Anything else counts as missing."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        getuid = getattr(os, "getuid", None)
        if not stat.S_ISREG(info.st_mode) or (
            getuid is not None and (info.st_uid != getuid() or info.st_mode & 0o077)
        ):
            return None
        key = handle.read(4096)
    return key if len(key) >= KEY_BYTES else None


def _new_key(path: Path) -> bytes:
    """A new key at ``path``, put there whole: written to a 0600 temp file beside it and
    fsynced, then hard-linked in where there is no key (two first builds end up with one
    key) or renamed over one that is not usable. No reader ever sees part of a key."""
    key = secrets.token_bytes(KEY_BYTES)
    temp = path.with_name(f"{TEMP_PREFIX}key-{secrets.token_hex(8)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            theirs = _read_key(path)
            if theirs is not None:
                return theirs  # another process made one first: use it
            os.replace(temp, path)  # short, empty or untrusted: replaced in one step
        except OSError:
            os.replace(temp, path)  # a file system without hard links
    finally:
        temp.unlink(missing_ok=True)
    _sync_folder(path.parent)
    return _read_key(path) or key  # two replacing at once: both use the one that stayed


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # Windows cannot open a folder; its renames are durable enough
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _mac(key: str, sha: str) -> str:
    return hmac.new(_secret(), f"{key}:{sha}".encode(), hashlib.sha256).hexdigest()


class RenderCache:
    """Signed entries in ``folder`` (a cache folder already made and checked: see
    :meth:`for_build`); ``memory`` (kept by ``build --watch`` from one build to the next)
    holds entries already checked or written by this process, so a rebuild does not read
    and check hundreds of files again."""

    def __init__(
        self, folder: Path, enabled: bool = True, memory: dict[str, Any] | None = None
    ) -> None:
        self.folder = folder
        self.enabled = enabled
        self.hits = 0
        self.misses = 0
        self.used: set[str] = set()  # keys this build read or wrote: never pruned
        self.memory = memory if memory is not None and enabled else None

    @classmethod
    def for_build(
        cls,
        campaign_root: Path | None,
        out_dir: Path,
        chosen: Path | None = None,
        enabled: bool = True,
        memory: dict[str, Any] | None = None,
        notes: list[str] | None = None,
    ) -> RenderCache:
        """The cache of a build of ``campaign_root`` into ``out_dir`` (see
        :func:`cache_folder`). A folder we must not use gives a disabled cache and one line
        in ``notes``: the build goes on, rendering everything."""
        folder = cache_folder(campaign_root, out_dir, chosen)
        if not enabled:
            return cls(folder, enabled=False)
        try:
            folder = open_cache_folder(folder)
            _secret()
        except (CacheRefused, OSError) as err:
            if isinstance(err, CacheRefused):
                why = str(err)
            else:
                why = f"{err.filename or folder}: {err.strerror or err}"
            if notes is not None:
                notes.append(f"render cache not used ({why}; refused): rendering everything")
            return cls(folder, enabled=False)
        made = cls(folder, enabled=True, memory=memory)
        made._clean_temps()
        return made

    def _clean_temps(self) -> None:
        """Temp files a killed build left here (our own names only, never through a link)."""
        try:
            with os.scandir(self.folder) as listing:
                for entry in listing:
                    if _TEMP.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                        Path(entry.path).unlink(missing_ok=True)
        except OSError:
            pass

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
        meta = self._load_meta(key)
        try:
            pdf = (
                _read_regular(self.folder / f"{key}.pdf", MAX_PDF_ENTRY_BYTES)
                if meta is not None
                else b""
            )
        except OSError:
            meta = None
        if meta is None or meta["sha256"] != hashlib.sha256(pdf).hexdigest():
            self.misses += 1  # missing, corrupt, half-written or not ours: render again
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
        record = self._load_unit(key)
        if record is None:
            return None
        self.used.add(key)
        self._remember(f"{key}.unit", dict(record))
        return dict(record)

    def _load_meta(self, key: str) -> dict[str, Any] | None:
        """The record of PDF entry ``key`` if it carries our signature, else None."""
        try:
            meta = json.loads(_read_regular(self.folder / f"{key}.json"))
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or not isinstance(meta.get("sha256"), str):
            return None
        if not hmac.compare_digest(str(meta.get("mac", "")), _mac(key, meta["sha256"])):
            return None
        return meta

    def _load_unit(self, key: str) -> dict[str, Any] | None:
        """Unit record ``key`` (without its signature) if it carries ours, else None."""
        try:
            record = json.loads(_read_regular(self.folder / f"{key}.unit.json"))
            mac = str(record.pop("mac"))
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            return None
        body = json.dumps(record, sort_keys=True)
        if not hmac.compare_digest(mac, _mac(key, hashlib.sha256(body.encode()).hexdigest())):
            return None
        return dict(record)

    def _write(self, name: str, data: bytes) -> None:
        """One entry file, atomically (``os.replace`` swaps a name, never follows a link).
        A failed write (a full disk, a folder removed meanwhile) only costs a render."""
        with contextlib.suppress(OSError):
            write_atomic(self.folder / name, data, durable=False)

    def put_unit(self, key: str, record: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.used.add(key)
        body = json.dumps(record, sort_keys=True)
        signed = dict(record, mac=_mac(key, hashlib.sha256(body.encode()).hexdigest()))
        self._write(f"{key}.unit.json", json.dumps(signed).encode("utf-8"))
        self._remember(f"{key}.unit", dict(record))

    def put(self, key: str, pdf: bytes, meta: dict[str, Any]) -> None:
        if not self.enabled:
            return
        self.used.add(key)
        sha = hashlib.sha256(pdf).hexdigest()
        record = dict(meta, sha256=sha, mac=_mac(key, sha))
        # The signed record first: a PDF is never left without the record that lets
        # prune() recognise it as ours.
        self._write(f"{key}.json", json.dumps(record).encode("utf-8"))
        self._write(f"{key}.pdf", pdf)
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
        Returns the number of entries removed.

        Only files we wrote are removed: named like our entries and carrying our
        signature (a PDF also its signed hash). Anything else here is never touched."""
        if not self.enabled:
            return 0
        limit_bytes = CACHE_LIMIT_BYTES if limit_bytes is None else limit_bytes
        # One stat per file (a deck's cache holds thousands, and this runs every build).
        entries: dict[str, list[tuple[Path, int, float]]] = {}
        try:
            with os.scandir(self.folder) as listing:
                for entry in listing:
                    named = _ENTRY.fullmatch(entry.name)
                    if named is None or not entry.is_file(follow_symlinks=False):
                        continue
                    info = entry.stat(follow_symlinks=False)
                    found = (Path(entry.path), info.st_size, info.st_mtime)
                    entries.setdefault(named[1], []).append(found)
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
            freed = self._remove_ours(key, entries[key])
            if freed:
                total -= freed
                removed += 1
        return removed

    def _remove_ours(self, key: str, files: list[tuple[Path, int, float]]) -> int:
        """Delete the files of entry ``key`` that verify as ours; returns the bytes freed."""
        found = {path.name: (path, size) for path, size, _ in files}
        doomed: list[tuple[Path, int]] = []
        meta = self._load_meta(key) if f"{key}.json" in found else None
        if meta is not None:
            pdf = found.get(f"{key}.pdf")
            if pdf is not None:
                try:
                    entry = _read_regular(pdf[0], MAX_PDF_ENTRY_BYTES)
                    ours = hashlib.sha256(entry).hexdigest() == meta["sha256"]
                except OSError:
                    ours = False
                if ours:
                    doomed.append(pdf)  # before its record, which is what vouches for it
            doomed.append(found[f"{key}.json"])
        if f"{key}.unit.json" in found and self._load_unit(key) is not None:
            doomed.append(found[f"{key}.unit.json"])
        freed = 0
        for path, size in doomed:
            try:
                path.unlink()
            except OSError:
                continue
            freed += size
        return freed
