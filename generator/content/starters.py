"""The campaigns `scratchpress new` starts from: the starter (``content/starter/``, one of
everything a campaign can hold, each file explaining its keys in comments) or a copy of
the bundled example."""

from __future__ import annotations

from importlib import resources


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
