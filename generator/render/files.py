"""Writing output files so that a crash never leaves a half-written PDF behind."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

TEMP_PREFIX = ".scratchpress-"


def _create_temp(folder: Path) -> tuple[int, Path]:
    """A new, empty temp file in ``folder``. Created with mode 0o666 so the umask decides,
    as for any file the user makes (``mkstemp`` would leave every PDF readable by its owner
    only); O_EXCL never opens an existing file or follows a planted link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temp = folder / f"{TEMP_PREFIX}{secrets.token_hex(8)}.tmp"
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary file name in {folder}")


def write_atomic(path: Path, data: bytes, durable: bool = True) -> None:
    """Write to a temporary file in the same folder, then rename over the target.

    ``os.replace`` is atomic on one file system, so readers see the old file or the new
    one, never a mix; the temp file is removed if anything goes wrong. ``durable`` waits
    for the disk first (our outputs); cache entries skip that, since a damaged entry is
    caught by its checksum and rendered again.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = _create_temp(path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def clean_stale_temps(folder: Path) -> int:
    """Remove temp files an interrupted run left behind, in ``folder`` and the folders we
    write inside it (the render cache, ``png/``); returns how many."""
    removed = 0
    if not folder.is_dir():
        return 0
    places = [folder] + [
        sub for sub in sorted(folder.iterdir()) if sub.is_dir() and not sub.is_symlink()
    ]
    for place in places:
        for leftover in place.glob(f"{TEMP_PREFIX}*.tmp"):
            if leftover.is_file() and not leftover.is_symlink():
                leftover.unlink(missing_ok=True)
                removed += 1
    return removed
