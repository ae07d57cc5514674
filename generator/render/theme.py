"""Starting a theme: copies of the default templates and stylesheets in a campaign's
``theme/`` folder, to edit (``scratchpress theme init``).

Nothing is overwritten unless asked, nothing is written when anything is refused, and no
symlink in the target is ever followed: a downloaded campaign whose ``theme/`` links to
``~/.config`` must not get our files written there.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..definitions.files import display_path
from ..resources import templates_dir
from .files import write_file
from .templating import THEME_DIR

THEME_SUFFIXES = (".html", ".css")  # what a theme may override; pictures are not copied


def default_theme_files() -> list[str]:
    """The templates and stylesheets a theme may override, as relative names, sorted."""
    root = templates_dir()
    return sorted(
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.suffix in THEME_SUFFIXES and path.is_file()
    )


@dataclass
class ThemeInit:
    """What ``init_theme`` did: the files written, or why it wrote none."""

    written: list[Path] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return path.lstat()
    except FileNotFoundError:
        return None


def _refusal(target: Path, name: str, force: bool, seen: set[Path]) -> str | None:
    """Why ``target/name`` may not be written, or None. Folders on the way that are links
    or files are reported once (``seen``), not once for every file below them."""
    folder = target
    for part in [None, *name.split("/")[:-1]]:
        folder = folder if part is None else folder / part
        info = _lstat(folder)
        if info is None:
            return None  # made fresh, with nothing inside yet
        if folder in seen:
            return None  # already refused: nothing will be written
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
            seen.add(folder)
            what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
            return f"{display_path(folder)}: {what}; refused (theme init writes into real folders)"
    file = target / name
    info = _lstat(file)
    if info is None:
        return None
    if stat.S_ISLNK(info.st_mode):
        return f"{display_path(file)}: a symbolic link; refused, even with --force"
    if not stat.S_ISREG(info.st_mode):
        return f"{display_path(file)}: not a regular file; refused, even with --force"
    if not force:
        return f"{display_path(file)}: exists; left untouched (use --force to replace it)"
    return None


def init_theme(campaign: Path, force: bool = False) -> ThemeInit:
    """Copy every default template and stylesheet into ``campaign/theme/``.

    Refuses (and writes nothing) when a file is already there (unless ``force``), or when
    ``theme/`` or a folder or file inside it is a symlink or something other than expected.
    """
    target = campaign / THEME_DIR
    names = default_theme_files()
    result = ThemeInit()
    seen: set[Path] = set()
    for name in names:
        why = _refusal(target, name, force, seen)
        if why:
            result.refused.append(why)
    if result.refused:
        return result
    source = templates_dir()
    for name in names:
        path = target / name
        # Checked above, and again by the one writer as it goes: no link is followed.
        write_file(path, (source / name).read_bytes(), campaign, shown=display_path(path))
        result.written.append(path)
    return result


__all__ = ["THEME_SUFFIXES", "ThemeInit", "default_theme_files", "init_theme"]
