"""The output folder's manifest: which files scratchpress wrote, so it never clobbers others.

A PDF already in the output folder is replaced only when the manifest says we wrote it and
its bytes are still the ones we wrote. A file the user made, or edited after we wrote it, is
left alone unless the build is forced.
"""

from __future__ import annotations

import hashlib
import json
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
        try:
            if self.path.is_symlink():
                raise OSError("a link, not our manifest")  # planted: we own nothing here
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
                self.files = {str(k): str(v) for k, v in loaded["files"].items()}
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

    def record(self, name: str, data: bytes) -> None:
        self.files[name] = digest(data)

    def save(self) -> None:
        """Raises :class:`~.files.CannotWrite` (the caller reports it)."""
        text = json.dumps({"files": dict(sorted(self.files.items()))}, indent=1) + "\n"
        write_file(self.path, text.encode("utf-8"), self.folder)
