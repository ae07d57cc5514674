"""YAML for files written by strangers: plain data only, with the line of every value.

We compose the node graph with ruamel.yaml (YAML 1.2, so a character named ``No`` stays a
string) and build plain Python values ourselves. That lets us refuse every language-specific
tag (``!!python/object/apply`` and friends), refuse duplicate keys, and stop alias bombs by
counting nodes as they are expanded instead of trusting the document's size.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..problems import InputError, Problem

Path = tuple[str | int, ...]

MAX_NODES = 100_000  # far above any real campaign file, far below an alias bomb
MAX_DEPTH = 64
_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {
    f"{_CORE}{t}" for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")
}


class _Builder:
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.nodes = 0
        self.positions: dict[Path, int] = {}

    def fail(self, node: Node, message: str) -> InputError:
        return InputError([Problem(message, self.filename, node.start_mark.line + 1)])

    def build(self, node: Node, path: Path, depth: int = 0) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(
                node,
                f"the document expands to more than {MAX_NODES} values (nested aliases?); refused",
            )
        if depth > MAX_DEPTH:
            raise self.fail(node, f"nested more than {MAX_DEPTH} levels deep; refused")
        tag = str(getattr(node.tag, "value", node.tag))
        if tag not in _ALLOWED_TAGS:
            raise self.fail(
                node,
                f"the tag {tag.replace(_CORE, '!!')} is not allowed: "
                "definitions hold plain text, numbers, lists and mappings",
            )
        if not path or path[-1] != "<key>":
            self.positions.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, SequenceNode):
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)
        return self.scalar(node, tag)

    def mapping(self, node: MappingNode, path: Path, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = self.build(key_node, (*path, "<key>"), depth + 1)
            if not isinstance(key, str | int | float | bool) or key is None:
                raise self.fail(key_node, "mapping keys must be plain text")
            key = str(key)
            if key in result:
                raise self.fail(
                    key_node,
                    f'duplicate key "{key}" (first given on line '
                    f"{self.positions.get((*path, key), '?')})",
                )
            self.positions[(*path, key)] = key_node.start_mark.line + 1
            result[key] = self.build(value_node, (*path, key), depth + 1)
        return result

    @staticmethod
    def scalar(node: ScalarNode, tag: str) -> Any:
        text: str = node.value
        kind = tag.removeprefix(_CORE)
        if kind == "int":
            return (
                int(text.replace("_", ""), 0)
                if text.lower().startswith(("0x", "0o"))
                else int(text.replace("_", ""))
            )
        if kind == "float":
            return float(text.replace("_", ""))
        if kind == "bool":
            return text.lower() == "true"
        if kind == "null":
            return None
        return text  # str, and timestamps kept as the text the author wrote


def load_yaml(text: str, filename: str) -> tuple[Any, dict[Path, int]]:
    """Parse one YAML document into plain data and a map from value path to line number."""
    yaml = YAML(typ="safe", pure=True)
    try:
        node = yaml.compose(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark is not None else None
        message = (err.problem or err.context or "not valid YAML").strip()
        raise InputError([Problem(f"YAML syntax error: {message}", filename, line)]) from None
    except YAMLError as err:
        raise InputError([Problem(f"YAML error: {err}", filename)]) from None
    if node is None:
        return None, {}
    builder = _Builder(filename)
    data = builder.build(node, ())
    return data, builder.positions
