"""A campaign's files, found and read safely: which files a folder holds, how paths are
shown in messages, and reading a file that may be anything (a FIFO, a huge file, UTF-16).

Every reader of a stranger's file goes through :func:`read_text_capped`: the settings, the
definitions, an imported text and a booklet's chapters alike.
"""

from __future__ import annotations

import codecs
import difflib
import itertools
import os
import stat
from pathlib import Path

from ..problems import Problem

MAX_FILE_BYTES = 5 * 1024 * 1024  # a campaign file is text; anything bigger is a mistake
# Files in a campaign folder that hold something other than entries, read by their own
# loaders: the booklet, the campaign's own words for our labels.
RESERVED_FILES = {"booklet.yaml", "labels.yaml"}
SETTINGS_FILE = "scratchpress.toml"
# Endings an editor adds after the one typed and Windows then hides: Notepad's .txt,
# TextEdit's .rtf.
HIDDEN_ENDINGS = (".txt", ".text", ".rtf")
# A campaign's folders that hold no definitions: our output, a theme, fonts. Hidden ones
# (.git, .github's workflows, .scratchpress) are left out too.
NOT_DEFINITIONS_FOLDERS = {"output", "theme", "fonts"}
MAX_LISTED = 10_000  # names looked at for notes: a folder of a million files is no campaign
MAX_SUBFOLDER_NOTES = 10


def display_path(path: Path) -> str:
    """Paths in messages: the bundled example as ``example/…`` (wherever pip put it),
    else relative to where the user stands, else absolute; never ``../../..``."""
    from ..resources import examples_dir

    absolute = Path(os.path.abspath(path))
    example = Path(os.path.abspath(examples_dir()))
    if absolute == example or example in absolute.parents:
        return Path("example", absolute.relative_to(example)).as_posix()
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive on Windows
        return str(absolute)
    return str(absolute) if relative.startswith("..") else relative


class RefusedFile(ValueError):
    """A file we will not read: not a regular file, or too large; the message says which."""


class NotText(UnicodeDecodeError):
    """Bytes that are not text in the encoding they were read as: ``message`` says which
    bytes, on which ``line`` and column, and what to do."""

    def __init__(self, err: UnicodeDecodeError, encoding: str) -> None:
        super().__init__(err.encoding, err.object, err.start, err.end, err.reason)
        before = err.object[: err.start].decode(err.encoding, "replace")
        self.line = before.count("\n") + 1
        column = len(before) - before.rfind("\n")
        bad = err.object[err.start : min(err.end, err.start + 4)]
        shown = " ".join(f"0x{byte:02x}" for byte in bad)
        self.message = (
            f"not {encoding} text: byte{'s' if len(bad) > 1 else ''} {shown} at column"
            f" {column}; save the file as UTF-8"
        )


# Byte order marks, the UTF-32 ones first (FF FE 00 00 starts with UTF-16's FF FE).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_WIDE = (("utf-32-le", 4), ("utf-32-be", 4), ("utf-16-le", 2), ("utf-16-be", 2))


def decode_text(data: bytes) -> str:
    """A file's text: UTF-8, or UTF-16 or UTF-32 (as Windows editors save), told by a byte
    order mark or, without one, by the NUL bytes of mostly-ASCII text; the mark dropped.
    Raises NotText (a UnicodeDecodeError) naming the first bad bytes and their line."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec)
            except UnicodeDecodeError as err:
                raise NotText(err, name) from None
    if b"\0" in data:
        for codec, unit in _WIDE:
            text = _wide_text(data, codec, unit)
            if text is not None:
                return text
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise NotText(err, "UTF-8") from None


def _wide_text(data: bytes, codec: str, unit: int) -> str | None:
    """``data`` as UTF-16 or UTF-32 if it reads as such, with no NUL and at least half of
    its first characters ASCII (keys, spaces, punctuation); else None. UTF-8 text with a
    stray NUL never passes: its pairs of ASCII bytes read as CJK."""
    if len(data) % unit:
        return None
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    sample = text[:4096]
    ascii_chars = len(sample.encode("ascii", "ignore"))
    return text if "\0" not in text and 2 * ascii_chars >= len(sample) else None


def read_text_capped(path: Path, cap: int = MAX_FILE_BYTES) -> str:
    """Read a definitions file, refusing anything that is not a modest regular file.

    Checked on the open descriptor, so a FIFO, ``/dev/zero`` or a file swapped in after the
    check can neither block the read nor fill memory.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise RefusedFile("not a regular file; refused")
        data = handle.read(cap + 1)
    if len(data) > cap:
        size = f"{cap // 1024 // 1024} MB" if cap >= 1024 * 1024 else f"{cap // 1024} KB"
        raise RefusedFile(f"larger than {size}; refused")
    return decode_text(data)


def inside(path: Path, root: Path) -> bool:
    real, base = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    return base in real.parents


def is_definitions_file(path: Path) -> bool:
    """A file a campaign folder's loader reads: ``*.yaml`` or ``*.yml`` in any case, other
    than the reserved ones (``booklet.yaml``)."""
    return (
        path.suffix.lower() in {".yaml", ".yml"}
        and path.name.lower() not in RESERVED_FILES
        and not path.is_dir()
    )


def _meant(name: str, endings: tuple[str, ...]) -> tuple[str, str] | None:
    """The name a file a slip or two away from ``endings`` was meant to have, and the
    slips: a space at either end, an ending an editor added and Windows hides
    (``party.yaml.txt``), a misspelt ending (``party.ymal``); None for any other name,
    backups (``party.yaml~``, ``party.yaml.bak``) included."""
    slips = []
    meant = name.strip()
    if meant != name:
        slips.append(f"its name has a space at its start or end ({name!r})")
    hidden = next((h for h in HIDDEN_ENDINGS if meant.lower().endswith(h)), None)
    if hidden is not None and len(meant) > len(hidden):
        slips.append(f"its name ends in {meant[-len(hidden) :]} (Windows hides that ending)")
        meant = meant[: -len(hidden)].rstrip()
    suffix = Path(meant).suffix
    if suffix.lower() not in endings:
        if not suffix[1:].isalnum():
            return None
        same_start = tuple(e for e in endings if e[:2] == suffix[:2].lower())
        hint = difflib.get_close_matches(suffix.lower(), same_start, n=1, cutoff=0.75)
        if not hint:
            return None
        slips.append(f"{suffix} is not {' or '.join(endings)}")
        meant = meant[: -len(suffix)] + hint[0]
    return (meant, ", and ".join(slips)) if slips else None


def _near_misses(folder: Path, names: list[str]) -> list[Problem]:
    """Notes for the files of ``folder`` that look meant to be read but are not."""
    notes = []
    for name in names:
        if name == SETTINGS_FILE or is_definitions_file(folder / name):
            continue
        meant = _meant(name, (".yaml", ".yml"))
        what = "a definitions file"
        if meant is None and Path(name.strip()).stem.lower().startswith("scratchpress"):
            what = f"the settings ({SETTINGS_FILE})"
            meant = _meant(name, (".toml",))
            if meant is None and name.lower() == SETTINGS_FILE:
                meant = SETTINGS_FILE, "the name must be in lower case"
            # Where names are not case-sensitive, Scratchpress.toml is read as it is.
            if meant is not None and _same_file(folder / name, folder / SETTINGS_FILE):
                meant = None
            if meant is not None:
                meant = SETTINGS_FILE, meant[1]
        if meant is None or (folder / name).is_dir():
            continue
        notes.append(
            Problem(
                f"is not read as {what}: {meant[1]}; rename it {meant[0]}",
                display_path(folder / name),
                severity="note",
            )
        )
    return notes


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _subfolder_files(folder: Path, names: list[str]) -> list[tuple[Path, str | None]]:
    """Definitions files one folder down, where a build does not look, each with the name
    it was meant to have when that is a near miss too (``npcs/thugs.yaml.txt``). Folders
    that hold no definitions (ours, hidden ones) are left out; a huge tree is not walked."""
    found: list[tuple[Path, str | None]] = []
    budget = MAX_LISTED
    for name in names:
        sub = folder / name
        if name.startswith(".") or name.lower() in NOT_DEFINITIONS_FOLDERS:
            continue
        if sub.is_symlink() or not sub.is_dir():
            continue
        try:
            with os.scandir(sub) as entries:
                for entry in itertools.islice(entries, budget):
                    budget -= 1
                    path = Path(entry.path)
                    meant = _meant(entry.name, (".yaml", ".yml"))
                    if is_definitions_file(path):
                        found.append((path, None))
                    elif meant is not None and not entry.is_dir():
                        found.append((path, meant[0]))
        except OSError:
            continue
        if budget <= 0:
            break
    return sorted(found)


def unread_files(folder: Path) -> list[Problem]:
    """Notes, one a line, on the files of a campaign folder a build will not read though
    they look meant for it: near-miss names (``party.yaml.txt``, ``Scratchpress.toml``) and
    definitions files in its subfolders (``npcs/thugs.yaml``, where ``roster generate -o``
    may have put them)."""
    try:
        names = sorted(p.name for p in itertools.islice(folder.iterdir(), MAX_LISTED))
    except OSError:
        return []
    notes = _near_misses(folder, names)
    below = _subfolder_files(folder, names)
    for path, meant in below[:MAX_SUBFOLDER_NOTES]:
        notes.append(
            Problem(
                "is not read: a build reads only the YAML files directly in the campaign"
                " folder, not in its subfolders; move it up one folder"
                + (f" and rename it {meant}" if meant else ""),
                display_path(path),
                severity="note",
            )
        )
    if len(below) > MAX_SUBFOLDER_NOTES:
        more = len(below) - MAX_SUBFOLDER_NOTES
        notes.append(
            Problem(
                f"and {more} more YAML files in its subfolders are not read either",
                display_path(folder),
                severity="note",
            )
        )
    return notes


def campaign_files(paths: list[Path]) -> tuple[Path | None, list[Path]]:
    """The YAML files to read and the campaign folder whose settings apply."""
    files: list[Path] = []
    root: Path | None = None
    for path in paths:
        if path.is_dir():
            root = root or path
            # party.YAML and Party.Yml too; backups (party.yaml~) are not definitions.
            files += sorted(p for p in path.iterdir() if is_definitions_file(p))
        else:
            root = root or path.parent
            files.append(path)
    return root, files


__all__ = [
    "MAX_FILE_BYTES",
    "RESERVED_FILES",
    "SETTINGS_FILE",
    "NotText",
    "RefusedFile",
    "campaign_files",
    "decode_text",
    "display_path",
    "inside",
    "is_definitions_file",
    "read_text_capped",
    "unread_files",
]
