"""The output folder's manifest: which files scratchpress wrote, so it never clobbers others.

A PDF already in the output folder is replaced only when the manifest says we wrote it and
its bytes are still the ones we wrote. A file the user made, or edited after we wrote it, is
left alone unless the build is forced.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

from .files import write_file

MANIFEST = ".scratchpress-manifest.json"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Manifest:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / MANIFEST
        self.files: dict[str, str] = {}
        # Which kind of printable made each file ("sheets", "booklets"), and for which
        # campaign: a build removes the files of the kinds it builds, for its own campaign,
        # that it no longer makes (a renamed character's old sheet); two campaigns built
        # into one folder never remove each other's. Files recorded before this was kept
        # have no entry and are never removed.
        self.made: dict[str, tuple[str, str]] = {}
        self.recorded: set[str] = set()  # what this run wrote or confirmed
        try:
            if self.path.is_symlink():
                raise OSError("a link, not our manifest")  # planted: we own nothing here
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
                self.files = {str(k): str(v) for k, v in loaded["files"].items()}
                made = loaded.get("made")
                if isinstance(made, dict):
                    self.made = {
                        str(name): (str(by[0]), str(by[1]))
                        for name, by in made.items()
                        if name in self.files and isinstance(by, list) and len(by) == 2
                    }
        except (OSError, ValueError):
            pass  # no manifest yet, or an unreadable one: we own nothing

    def may_write(self, name: str) -> bool:
        target = self.folder / name
        if target.is_symlink():
            return False  # never ours: we write files, not links
        if not target.exists():
            return True
        if name not in self.files or not target.is_file():
            return False
        try:
            return digest(target.read_bytes()) == self.files[name]
        except OSError:
            return False

    def holds(self, name: str, data: bytes) -> bool:
        """Whether the file ``name`` is ours, unchanged, and already these very bytes."""
        target = self.folder / name
        return target.is_file() and self.files.get(name) == digest(data) and self.may_write(name)

    def record(self, name: str, data: bytes, kind: str = "", campaign: str = "") -> None:
        """``name`` now holds ``data``, made as ``kind`` for ``campaign`` (its folder)."""
        self.files[name] = digest(data)
        self.recorded.add(name)
        if kind:
            self.made[name] = (kind, campaign)
        else:
            self.made.pop(name, None)

    def unmade(self, kinds: set[str], campaign: str, made: Callable[[str], bool]) -> list[str]:
        """Files of these kinds that we wrote for this campaign, that are unchanged since,
        and that this build does not make (``made(name)`` is False): safe to remove, as
        nobody but us has touched them."""
        return sorted(
            name
            for name, (kind, by) in self.made.items()
            if kind in kinds
            and by == campaign
            and not made(name)
            and self.may_write(name)
            and (self.folder / name).is_file()
        )

    def forget(self, name: str) -> None:
        self.files.pop(name, None)
        self.made.pop(name, None)

    def save(self) -> None:
        """Raises :class:`~.files.CannotWrite` (the caller reports it)."""
        made = {name: list(by) for name, by in sorted(self.made.items())}
        record = {"files": dict(sorted(self.files.items())), "made": made}
        text = json.dumps(record, indent=1) + "\n"
        write_file(self.path, text.encode("utf-8"), self.folder)
