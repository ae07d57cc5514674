"""The shape of a JSON document, to hold an export against a recorded sample of its
target's format (tests/fixtures/vtt/, where README.md says what each sample was written
from).

A shape maps every path in the document (``system.health.max``, ``items[].name``) to the
JSON types found there. Keys the format leaves free (a worldbuilding attribute's name, an
Improved Initiative library id) are written as ``<attribute>``, ``<id>``..., so that every
attribute is held against the sample's attributes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parent / "fixtures" / "vtt"

Shape = dict[str, set[str]]
Rename = Callable[[str, str, Any], str]


def sample(name: str) -> Any:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def shape(document: Any, rename: Rename | None = None, shapes: Shape | None = None) -> Shape:
    """Every path of ``document`` with the types found there, over all its list items."""
    found: Shape = {} if shapes is None else shapes

    def walk(value: Any, path: str) -> None:
        found.setdefault(path, set()).add(json_type(value))
        if isinstance(value, dict):
            for key, child in value.items():
                name = rename(path, key, child) if rename is not None else key
                walk(child, f"{path}.{name}" if path else name)
        elif isinstance(value, list):
            for child in value:
                walk(child, f"{path}[]")

    walk(document, "")
    return found


def strays(ours: Shape, target: Shape) -> list[str]:
    """What ``ours`` has that the target would drop or misread: paths the sample does not
    have, and types it does not take there."""
    lines = []
    for path, types in sorted(ours.items()):
        if path not in target:
            lines.append(f"{path or '(document)'}: not a field of the format")
        elif not types <= target[path]:
            lines.append(
                f"{path}: {sorted(types - target[path])}, the format takes {sorted(target[path])}"
            )
    return lines


def foundry_keys(path: str, key: str, child: Any) -> str:
    """Worldbuilding's free keys: an attribute (it has a dtype) or a group of them."""
    if path.endswith("system.attributes"):
        return "<attribute>" if isinstance(child, dict) and "dtype" in child else "<group>"
    if path.endswith("system.attributes.<group>"):
        return "<attribute>"
    if path.endswith("system.groups"):
        return "<group>"
    return key


def improved_initiative_keys(path: str, key: str, child: Any) -> str:
    """Improved Initiative's library keys: ``Creatures.<id>`` and the like."""
    if not path and "." in key:
        return key.split(".", 1)[0] + ".<id>"
    return key
