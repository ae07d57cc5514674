"""One build per output folder at a time.

Two builds writing into one folder would each save a manifest listing only their own
files, and the next build would refuse the other's as "not written by scratchpress". A
lock (the ``filelock`` library) keyed by the output folder's real path serialises them. It
lives in the user's cache directory, not in the output folder: output folders hold only
output, and a stranger's campaign cannot plant a link where we put the lock.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

POLL_S = 0.1


class OutputBusy(Exception):
    """Another build holds the output folder and we were told not to wait."""


def _lock_dir() -> Path:
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("scratchpress", appauthor=False)) / "locks"
    folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.mkdir(exist_ok=True, mode=0o700)
    return folder


def _lock_dir_name() -> str:
    from platformdirs import user_cache_dir

    return str(Path(user_cache_dir("scratchpress", appauthor=False)) / "locks")


def lock_path(out_dir: Path) -> Path:
    real = os.path.realpath(out_dir)
    return _lock_dir() / f"{hashlib.sha256(real.encode()).hexdigest()[:32]}.lock"


@contextmanager
def output_lock(
    out_dir: Path, wait: bool = True, on_wait: Callable[[], None] | None = None
) -> Iterator[None]:
    """Hold the folder's lock for the duration; ``on_wait`` is called once if another
    build holds it and we wait; ``wait=False`` raises :class:`OutputBusy` instead."""
    from filelock import FileLock, Timeout

    from .files import CannotWrite, reason

    try:
        path = lock_path(out_dir)
        lock = FileLock(path, mode=0o600)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            if not wait:
                raise OutputBusy(str(out_dir)) from None
            if on_wait is not None:
                on_wait()
            lock.acquire(poll_interval=POLL_S)
    except OSError as err:  # no cache folder to be had (HOME unset, a read-only disk)
        where = getattr(err, "filename", None) or _lock_dir_name()
        raise CannotWrite(where, f"{reason(err)} (the output folder's lock)") from None
    try:
        yield
    finally:
        lock.release()
