"""The output folder's manifest: which files scratchpress wrote, so it never clobbers others.

A PDF already in the output folder is replaced only when the manifest says we wrote it and
its bytes are still the ones we wrote. A file the user made, or edited after we wrote it, is
left alone unless the build is forced.

The manifest itself is saved once, at the end of a build. So that a build killed before
then (``kill -9``, a laptop lid, a closed terminal) still knows its own files, every file
is also appended to a journal beside it the moment it is written; the next build reads the
manifest, then replays the journal over it, and the save folds the journal in.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

from ..definitions.files import display_path
from .files import CannotWrite, TooLarge, read_regular, reason, write_file

MANIFEST = ".scratchpress-manifest.json"
JOURNAL = ".scratchpress-manifest.journal"

# Far beyond anything we write (a manifest line is ~150 bytes: this is ~200,000 files; a
# PDF of ours is a few MB), and small enough that a planted file cannot exhaust memory or
# keep a build hashing a sparse 64 GB file: larger ones are not read at all.
MAX_MANIFEST_BYTES = 32 * 1024 * 1024
MAX_OUTPUT_BYTES = 1024 * 1024 * 1024


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str | None:
    """The file's SHA-256, read in chunks; None for a file too large to be ours (or gone)."""
    try:
        with path.open("rb") as handle:
            if os.fstat(handle.fileno()).st_size > MAX_OUTPUT_BYTES:
                return None
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def _read_capped(path: Path) -> bytes:
    """The record's bytes, or OSError (a link, a folder, too large: we own nothing then)."""
    try:
        return read_regular(path, MAX_MANIFEST_BYTES)
    except TooLarge as err:
        raise ManifestTooLarge(path, err.size) from None


class ManifestTooLarge(OSError):
    def __init__(self, path: Path, size: int) -> None:
        super().__init__(
            f"{display_path(path)}: {size / 1024 / 1024:.0f} MB, far larger than any record we"
            f" write ({MAX_MANIFEST_BYTES // 1024 // 1024} MB at most); not read, so no file"
            " in this folder counts as ours"
        )


def _entry(by: object) -> tuple[str, str] | None:
    if isinstance(by, list) and len(by) == 2:
        return str(by[0]), str(by[1])
    return None


class Manifest:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / MANIFEST
        self.journal_path = folder / JOURNAL
        self.files: dict[str, str] = {}
        # Which kind of printable made each file ("sheets", "booklets"), and for which
        # campaign: a build removes the files of the kinds it builds, for its own campaign,
        # that it no longer makes (a renamed character's old sheet); two campaigns built
        # into one folder never remove each other's. Files recorded before this was kept
        # have no entry and are never removed.
        self.made: dict[str, tuple[str, str]] = {}
        self.recorded: set[str] = set()  # what this run wrote or confirmed
        # The bytes a file had before a write the journal announced: a build killed
        # between the announcement and the rename leaves the old file, still ours.
        self.before: dict[str, str] = {}
        self._announced: dict[str, str] = {}
        self.problems: list[str] = []  # a record we could not read or keep: reported once
        self._journal: int | None = None
        self._load()
        self._replay()

    def _load(self) -> None:
        try:
            loaded = json.loads(_read_capped(self.path).decode("utf-8"))
        except ManifestTooLarge as err:
            self.problems.append(str(err))
            return
        except (OSError, ValueError):
            return  # no manifest yet, or an unreadable one: we own nothing
        if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict):
            self.files = {str(k): str(v) for k, v in loaded["files"].items()}
            made = loaded.get("made")
            if isinstance(made, dict):
                for name, by in made.items():
                    entry = _entry(by)
                    if name in self.files and entry is not None:
                        self.made[name] = entry

    def _replay(self) -> None:
        """What a build killed before its save wrote, one JSON line per file, in order."""
        try:
            text = _read_capped(self.journal_path).decode("utf-8", "replace")
        except ManifestTooLarge as err:
            self.problems.append(str(err))
            return
        except OSError:
            return
        for line in text.splitlines():
            try:
                step = json.loads(line)
            except ValueError:
                continue  # a line cut short by the kill: its file was not yet recorded
            if not isinstance(step, dict):
                continue
            name, sha = step.get("name"), step.get("sha256")
            if not isinstance(name, str):
                continue
            if step.get("forget"):
                self.files.pop(name, None)
                self.made.pop(name, None)
            elif isinstance(sha, str):
                self.files[name] = sha
                was = step.get("was")
                if isinstance(was, str):
                    self.before[name] = was
                else:
                    self.before.pop(name, None)
                entry = _entry(step.get("made"))
                if entry is not None:
                    self.made[name] = entry
                else:
                    self.made.pop(name, None)

    def may_write(self, name: str) -> bool:
        target = self.folder / name
        if target.is_symlink():
            return False  # never ours: we write files, not links
        if not target.exists():
            return True
        if name not in self.files or not target.is_file():
            return False
        found = file_digest(target)
        return found is not None and found in (self.files[name], self.before.get(name))

    def holds(self, name: str, data: bytes) -> bool:
        """Whether the file ``name`` is ours, unchanged, and already these very bytes."""
        target = self.folder / name
        return target.is_file() and self.files.get(name) == digest(data) and self.may_write(name)

    def announce(self, name: str, data: bytes, kind: str = "", campaign: str = "") -> None:
        """``name`` is about to hold ``data``: journaled before the file is renamed into
        place, with the bytes it had, so a kill at any moment leaves a file we know."""
        sha = digest(data)
        step: dict[str, object] = {"name": name, "sha256": sha}
        if name in self.files:
            step["was"] = self.files[name]
        if kind:
            step["made"] = [kind, campaign]
        self._append(step)
        self._announced[name] = sha

    def record(self, name: str, data: bytes, kind: str = "", campaign: str = "") -> None:
        """``name`` now holds ``data``, made as ``kind`` for ``campaign`` (its folder)."""
        sha = digest(data)
        if self._announced.pop(name, None) != sha:  # not announced: journal it now
            step: dict[str, object] = {"name": name, "sha256": sha}
            if kind:
                step["made"] = [kind, campaign]
            self._append(step)
        self.files[name] = sha
        self.before.pop(name, None)
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
        self._append({"name": name, "forget": True})

    def _append(self, step: dict[str, object]) -> None:
        """One line on the journal. A plain write is enough: what the kernel has is kept
        when the process is killed, so no fsync per file (a power cut can lose the last
        lines, and then only files we may refuse, never ones we would wrongly claim)."""
        line = (json.dumps(step, separators=(",", ":")) + "\n").encode("utf-8")
        try:
            if self._journal is None:
                flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
                self._journal = os.open(self.journal_path, flags, 0o666)
            os.write(self._journal, line)
        except OSError as err:
            if not self.problems:  # the build goes on; the final save still records it
                shown = display_path(self.journal_path)
                why = "is a symbolic link; refused" if self.journal_path.is_symlink() else None
                self.problems.append(str(CannotWrite(shown, why or reason(err))))

    def save(self) -> None:
        """Raises :class:`~.files.CannotWrite` (the caller reports it). The manifest is
        written whole first; only then is the journal it now holds removed."""
        made = {name: list(by) for name, by in sorted(self.made.items())}
        record = {"files": dict(sorted(self.files.items())), "made": made}
        text = json.dumps(record, indent=1) + "\n"
        write_file(self.path, text.encode("utf-8"), self.folder)
        self.close()
        try:
            if not self.journal_path.is_symlink():
                self.journal_path.unlink(missing_ok=True)
        except OSError:
            pass  # replaying it again changes nothing: every line is in the manifest now

    def close(self) -> None:
        if self._journal is not None:
            os.close(self._journal)
            self._journal = None
