"""Which local files a document may use: regular, modest files inside allowed folders.

Kept apart from the WeasyPrint fetcher so that code which only checks paths (portraits,
booklet pictures) does not import WeasyPrint, which costs a third of a second.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_RESOURCE_BYTES = 32 * 1024 * 1024


class RefusedResource(ValueError):
    pass


def is_inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def check_local_file(
    path: Path,
    roots: list[Path],
    name: str | None = None,
    allowed: str = "the campaign, templates and fonts folders",
) -> Path:
    """Resolve symlinks, then insist on a regular, modest file inside an allowed folder.

    Messages call the file ``name`` (as its author wrote it) when given, and say which
    folders were ``allowed``."""
    shown = name if name is not None else str(path)
    try:
        real = Path(os.path.realpath(path))
    except (OSError, ValueError) as err:  # a NUL byte in the path, a loop of links
        raise RefusedResource(f"{shown!r} is not a usable file name ({err})") from None
    resolved_roots = [Path(os.path.realpath(r)) for r in roots]
    if not is_inside(real, resolved_roots):
        raise RefusedResource(f"{shown} is outside {allowed}")
    try:
        info = real.stat()
    except FileNotFoundError:
        raise RefusedResource(f"{shown}: no such file") from None
    except OSError as err:
        raise RefusedResource(f"{shown}: {err.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise RefusedResource(f"{shown} is not a regular file")
    if info.st_size > MAX_RESOURCE_BYTES:
        raise RefusedResource(f"{shown} is larger than {MAX_RESOURCE_BYTES // 2**20} MB")
    return real
