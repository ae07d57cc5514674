"""The one way scratchpress writes a file: atomically, never through a link, never outside
the folder it was given, and with every OS error turned into ``cannot write PATH: reason``.

Output folders may arrive inside a stranger's campaign (``output/`` is the default
``-o``), so a ``png/`` or ``sheet-x.pdf`` there may be a planted symlink; writing through
it would overwrite whatever it points at. :func:`write_file` refuses any link between the
folder it was given and the file, and the file itself; :func:`write_atomic` is its core.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import signal
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Our temp files are named ``.scratchpress-<16 random hex>.sp.tmp``; only names of exactly
# that shape are ever removed as leftovers: a GM's own ``.scratchpress-notes.tmp`` (or any
# other file in the output folder) is not ours to delete.
TEMP_PREFIX = ".scratchpress-"
TEMP_SUFFIX = ".sp.tmp"
TEMP_NAME = re.compile(re.escape(TEMP_PREFIX) + r"[0-9a-f]{16}" + re.escape(TEMP_SUFFIX))


def temp_name() -> str:
    """A new name for one of our temp files (see TEMP_NAME)."""
    return f"{TEMP_PREFIX}{secrets.token_hex(8)}{TEMP_SUFFIX}"


class CannotWrite(Exception):
    """A file we were asked to write and could not; ``str()`` is the whole message."""

    def __init__(self, path: Path | str, reason: str) -> None:
        from ..problems import safe_text

        super().__init__(f"cannot write {safe_text(str(path), None)}: {reason}")
        self.path, self.reason = Path(path), reason


class CannotRead(Exception):
    def __init__(self, path: Path | str, reason: str) -> None:
        from ..problems import safe_text

        super().__init__(f"cannot read {safe_text(str(path), None)}: {reason}")
        self.path, self.reason = Path(path), reason


# What ends a build the way Ctrl-C does: `kill` or a CI timeout (SIGTERM), the terminal
# closing or the session ending (SIGHUP), Ctrl-\ (SIGQUIT). Each stops the workers, keeps
# what is finished, records it and prints one line. (Windows has only the first two.)
STOP_SIGNALS: frozenset[signal.Signals] = frozenset(
    getattr(signal, name)
    for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT")
    if hasattr(signal, name)
)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold the stop signals back for a moment (a file written and recorded, a manifest
    saved): they arrive right after, never between the two halves of one step.

    The mask holds them from this thread only; the kernel may hand one to another thread
    of ours (a pool's), whose handler then runs here at once. So a handler asks
    :func:`stop_waits` first, and a stop that waited is raised as the block ends."""
    global _held, _stop_waiting
    # Python runs signal handlers in the main thread: only its steps can wait for one.
    main = threading.current_thread() is threading.main_thread()
    _held += main
    masked = (
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        if hasattr(signal, "pthread_sigmask")
        else None
    )
    try:
        yield
    finally:
        if masked is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, masked)
        _held -= main
        if main and not _held and _stop_waiting:
            _stop_waiting = False
            raise KeyboardInterrupt


_held = 0  # how deep in signals_held() blocks the main thread is
_stop_waiting = False


def stop_waits() -> bool:
    """Called by a stop signal's handler: True while a step must not be cut in two (the
    stop is remembered and raised when the step ends), False when it may stop now."""
    global _stop_waiting
    if _held:
        _stop_waiting = True
        return True
    return False


class TooLarge(OSError):
    """A file larger than the most its reader takes: never read, ``size`` says how big."""

    def __init__(self, path: Path, size: int) -> None:
        super().__init__(f"{path}: {size} bytes, larger than any we write")
        self.size = size


def read_regular(path: Path, limit: int) -> bytes:
    """A regular file's bytes (our manifest, a cache entry). A link, FIFO or device raises
    ``OSError`` unread (never followed, never waited on); a file over ``limit`` bytes
    raises :class:`TooLarge` unread, however large a stranger made it."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags | getattr(os, "O_BINARY", 0))  # a planted link: ELOOP here
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"{path}: not a regular file")
        if info.st_size > limit:
            raise TooLarge(path, info.st_size)
        # Never more than it had when we looked (read(n) sets n bytes aside at once).
        return handle.read(info.st_size + 1)


def reason(err: OSError) -> str:
    """An OS error in a GM's words: the system's own text, without the errno number."""
    return err.strerror or str(err) or type(err).__name__


def _no_links(folder: Path, target: Path, shown: Path) -> None:
    """Every existing part of ``target`` below ``folder`` is a real folder (or, for the last,
    a regular file); missing folders are made here, one by one, so none can be a link."""
    relative = target.relative_to(folder)
    current = folder
    for part in relative.parts[:-1]:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            os.mkdir(current)
            continue
        if stat.S_ISLNK(info.st_mode):
            raise CannotWrite(shown, f"{current.name}/ is a symbolic link; refused")
        if not stat.S_ISDIR(info.st_mode):
            raise CannotWrite(shown, f"{current.name} is a file, not a folder")
    try:
        info = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise CannotWrite(shown, "is a symbolic link; refused")
    if not stat.S_ISREG(info.st_mode):
        raise CannotWrite(shown, "exists and is not a regular file; refused")


def write_file(
    target: Path,
    data: bytes,
    folder: Path | None = None,
    *,
    durable: bool = True,
    shown: Path | str | None = None,
) -> None:
    """Write ``data`` to ``target`` inside ``folder`` (default: the target's own folder),
    or raise :class:`CannotWrite`. ``folder`` itself is the user's choice and may be
    anything they named; below it nothing is followed, and nothing outside it is written.
    ``shown`` is how messages name the file (default: as given)."""
    label = shown if shown is not None else target
    base = Path(os.path.abspath(folder if folder is not None else target.parent))
    path = Path(os.path.abspath(target))
    if base != path.parent and base not in path.parents:
        raise CannotWrite(label, f"outside {base}; refused")
    try:
        base.mkdir(parents=True, exist_ok=True)
        _no_links(base, path, Path(label))
        write_atomic(path, data, durable=durable, make_folder=False)
    except CannotWrite:
        raise
    except OSError as err:
        if err.errno == errno.ENOTDIR:
            raise CannotWrite(label, "a file stands where a folder is needed") from None
        raise CannotWrite(label, reason(err)) from None


def _create_temp(folder: Path) -> tuple[int, Path]:
    """A new, empty temp file in ``folder``. Created with mode 0o666 so the umask decides,
    as for any file the user makes (``mkstemp`` would leave every PDF readable by its owner
    only); O_EXCL never opens an existing file or follows a planted link."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        temp = folder / temp_name()
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary file name in {folder}")


def write_atomic(path: Path, data: bytes, durable: bool = True, make_folder: bool = True) -> None:
    """Write to a temporary file in the same folder, then rename over the target.

    ``os.replace`` is atomic on one file system, so readers see the old file or the new
    one, never a mix; the temp file is removed if anything goes wrong. ``durable`` waits
    for the disk first (our outputs); cache entries skip that, since a damaged entry is
    caught by its checksum and rendered again.
    """
    if make_folder:
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


def clean_stale_temps(folder: Path, subfolders: bool = True) -> int:
    """Remove temp files an interrupted run left behind, in ``folder`` and (unless told
    not to: a folder that is not ours alone, where another build may be writing into a
    subfolder) the folders we write inside it (the render cache, ``png/``); returns how
    many. Only regular files named exactly as we name them (TEMP_NAME) go."""
    removed = 0
    if not folder.is_dir():
        return 0
    places = [folder] + [
        sub
        for sub in (sorted(folder.iterdir()) if subfolders else [])
        if sub.is_dir() and not sub.is_symlink()
    ]
    for place in places:
        try:
            with os.scandir(place) as listing:
                leftovers = [
                    Path(entry.path)
                    for entry in listing
                    if TEMP_NAME.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)
                ]
        except OSError:  # a folder we cannot list is left as it is
            continue
        for leftover in leftovers:
            leftover.unlink(missing_ok=True)
            removed += 1
    return removed
