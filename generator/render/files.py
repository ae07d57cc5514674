"""Writing output files so that a crash never leaves a half-written PDF behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TEMP_PREFIX = ".scratchpress-"


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, then rename over the target.

    ``os.replace`` is atomic on one file system, so readers see the old file or the new
    one, never a mix; the temp file is removed if anything goes wrong.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def clean_stale_temps(folder: Path) -> int:
    """Remove temp files an interrupted run left behind; returns how many."""
    removed = 0
    if folder.is_dir():
        for leftover in folder.glob(f"{TEMP_PREFIX}*.tmp"):
            leftover.unlink(missing_ok=True)
            removed += 1
    return removed
