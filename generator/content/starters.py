"""The campaigns `scratchpress new` starts from: the starter (``content/starter/``, one of
everything a campaign can hold, each file explaining its keys in comments) or a copy of
the bundled example."""

from __future__ import annotations

import re
from importlib import resources

SETTINGS = "scratchpress.toml"


def _walk(folder: resources.abc.Traversable, prefix: str = "") -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if item.name.startswith(("_", ".")) or item.name.endswith(".py"):
            continue
        name = f"{prefix}{item.name}"
        if item.is_dir():
            files.update(_walk(item, f"{name}/"))
        else:
            files[name] = item.read_bytes()
    return files


def starter_files() -> dict[str, bytes]:
    """The starter campaign, as relative path -> bytes."""
    return _walk(resources.files("scratchpress.content") / "starter")


def example_files() -> dict[str, bytes]:
    """The bundled example campaign, as relative path -> bytes (it holds pictures)."""
    from ..resources import examples_dir

    root = examples_dir()
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"
    }


def campaign_files(from_example: bool = False) -> dict[str, bytes]:
    """What `new` writes, before the editor schemas are added."""
    return example_files() if from_example else starter_files()


def with_choices(
    files: dict[str, bytes], language: str | None, paper: str | None, units: str | None
) -> dict[str, bytes]:
    """``files`` with the settings file's top-level language, paper and units set to the
    choices given to `new`. Paper and units not given follow a language that is: letter
    and both in English, A4 and metric elsewhere (as a build would choose them)."""
    if language is None and paper is None and units is None:
        return files
    from ..wording import IMPERIAL

    if language is not None:
        imperial = language in IMPERIAL
        paper = paper or ("letter" if imperial else "a4")
        units = units or ("both" if imperial else "metric")
    text = files[SETTINGS].decode("utf-8")
    head, table, rest = text.partition("\n[")  # the top level ends at the first table
    for key, value in (("language", language), ("paper", paper), ("units", units)):
        if value is None:
            continue
        line = f'{key} = "{value}"'
        head, found = re.subn(rf"(?m)^{key} = .*$", line, head, count=1)
        if not found:
            head = head.rstrip("\n") + f"\n{line}\n"
    files = dict(files)
    files[SETTINGS] = (head + table + rest).encode("utf-8")
    return files
