"""Answer a repeated ``scratchpress build`` without building, when nothing it reads changed.

Like make or ninja, a successful build leaves a stamp: for one command line in one folder,
the size, modification time and inode of every file the build depends on (the campaign,
our templates, fonts, bundled content and code, the installed WeasyPrint and pikepdf) and
of every file in the output folder. Run the same command again and, if every one of those
still matches and no file has appeared or vanished, the stamp's summary is printed again
and the command ends without loading the rules, the templates or the renderer.

This module is imported before anything else (see ``cli/__init__.py``) and uses only the
standard library and platformdirs: the whole point is to answer in well under the time
Python needs to import WeasyPrint.

Safety: a stamp is a file of lines we print again, so it must be our own. Stamps live in
the user's cache folder (never in a campaign, so a shared campaign cannot bring one along),
in a folder only the user can enter; a stamp, or a stamp folder, that belongs to another
user or that others may write is ignored.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any

STAMP_FORMAT = 1
# Flags after which a user expects real work: never answered from a stamp.
NEVER = {"--watch", "--no-cache", "--help", "-h"}
# Folders a build never reads: version control, caches, our own render cache.
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".scratchpress-cache", ".mypy_cache"}

# Set by cli.main() for a real command line; stays None under test runners, which call the
# CLI with arguments of their own, so only real commands leave stamps.
ARGV: list[str] | None = None

Snapshot = dict[str, list[int]]


def _stamps_dir() -> Path:
    from platformdirs import user_cache_path

    return user_cache_path("scratchpress", appauthor=False) / "stamps"


def _ours(path: Path) -> bool:
    """Whether this user owns ``path`` and nobody else may write to it. Where a platform has
    no owners (Windows), the user's own profile folder already keeps others out."""
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return True
    info = path.stat()
    return info.st_uid == getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _stamp_path(argv: list[str]) -> Path:
    env = sorted(
        (k, v)
        for k, v in os.environ.items()
        if k.startswith("SCRATCHPRESS") or k in {"XDG_CACHE_HOME", "HOME"}
    )
    identity = json.dumps([STAMP_FORMAT, os.getcwd(), argv, env, sys.executable])
    return _stamps_dir() / f"{hashlib.sha256(identity.encode()).hexdigest()}.json"


def snapshot(roots: list[str], skip: list[str]) -> Snapshot:
    """(size, mtime in ns, inode) of every file under ``roots``; ``skip`` are folders left
    out (the output folder when it lies inside the campaign)."""
    found: Snapshot = {}
    skipped = {os.path.realpath(s) for s in skip}
    todo = list(roots)
    while todo:
        path = todo.pop()
        try:
            info = os.stat(path)
        except OSError:
            found[path] = [-1, -1, -1]  # gone: differs from any recorded file
            continue
        if not os.path.isdir(path):
            found[path] = [info.st_size, info.st_mtime_ns, info.st_ino]
            continue
        if os.path.realpath(path) in skipped:
            continue
        try:
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name in SKIP_DIRS:
                continue
            if entry.is_dir(follow_symlinks=False):
                todo.append(entry.path)
            else:
                try:
                    st = entry.stat()
                except OSError:
                    continue
                found[entry.path] = [st.st_size, st.st_mtime_ns, st.st_ino]
    return found


def replay(argv: list[str]) -> int | None:
    """Print the last summary and return 0 if this exact build is up to date; else None."""
    if not argv or argv[0] != "build" or NEVER.intersection(argv):
        return None
    started = time.perf_counter()
    try:
        path = _stamp_path(argv)
        if not (_ours(path.parent) and _ours(path)):
            return None
        stamp = json.loads(path.read_text(encoding="utf-8"))
        if stamp.get("format") != STAMP_FORMAT:
            return None
        if snapshot(stamp["inputs"], stamp["skip"]) != stamp["input_files"]:
            return None
        if snapshot([stamp["output"]], []) != stamp["output_files"]:
            return None
        for line in stamp["stderr"]:
            print(line, file=sys.stderr)
        for line in stamp["stdout"]:
            print(line)
        seconds = time.perf_counter() - started
        note = f"up to date: nothing changed since the last build, {seconds:.1f} s"
        print(f"{stamp['summary']} ({note})")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return 0


def dependencies() -> list[Path]:
    """What every build reads besides the campaign: our templates, fonts, code and bundled
    content, and the installed renderer and PDF library (an upgrade must rebuild)."""
    import importlib.util

    from .. import api

    found = [*api.bundled_folders(), Path(__file__).resolve().parents[1]]  # all our code
    for package in ("weasyprint", "pikepdf", "pydyf"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin:
            found.append(Path(spec.origin))
    return found


def record(
    inputs: list[Path],
    output: Path,
    stderr: list[str],
    stdout: list[str],
    summary: str,
) -> None:
    """Leave the stamp of a build that just succeeded (a no-op outside a real command)."""
    if ARGV is None or not ARGV or ARGV[0] != "build" or NEVER.intersection(ARGV):
        return
    roots = [str(p.resolve()) for p in inputs]
    out = str(output.resolve())
    stamp: dict[str, Any] = {
        "format": STAMP_FORMAT,
        "inputs": roots,
        "skip": [out],
        "input_files": snapshot(roots, [out]),
        "output": out,
        "output_files": snapshot([out], []),
        "stderr": stderr,
        "stdout": stdout,
        "summary": summary,
    }
    path = _stamp_path(ARGV)
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _ours(path.parent):
            return  # someone else's folder: leave no stamp there and trust none from it
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(stamp))
        os.replace(temporary, path)
    except OSError:
        pass  # a stamp only saves time; a read-only cache folder must not fail the build


def forget() -> None:
    """Drop this command's stamp (a build that failed must run in full next time)."""
    if ARGV is None or not ARGV:
        return
    with contextlib.suppress(OSError):
        _stamp_path(ARGV).unlink()
