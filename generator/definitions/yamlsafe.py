"""YAML for files written by strangers: plain data only, with the line of every value.

We compose the node graph with ruamel.yaml (YAML 1.2, so a character named ``No`` stays a
string) and build plain Python values ourselves. That lets us refuse every language-specific
tag (``!!python/object/apply`` and friends), refuse duplicate keys, and stop alias bombs by
counting nodes as they are expanded instead of trusting the document's size. Nodes are also
counted (and nesting measured) while the document is composed, so a file of a million tiny
values or ten thousand nested brackets is refused in seconds, not minutes or a RecursionError.

A plain scalar that YAML 1.2 reads as a number stays a number (``level: 3``), but it keeps
the text the author wrote: where a definition expects text, ``name: 007`` is ``"007"`` and
``name: 1e3`` is ``"1e3"``, never ``"7"`` or ``"1000.0"``.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
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


class YamlInt(int):
    """An int that prints as written (``007``, ``0x1F``) when used as text."""

    text: str

    def __new__(cls, value: int, text: str = "") -> YamlInt:
        number = super().__new__(cls, value)
        number.text = text or int.__repr__(number)
        return number

    def __str__(self) -> str:
        return self.text


class YamlFloat(float):
    """A float that prints as written (``1e3``, ``.inf``) when used as text."""

    text: str

    def __new__(cls, value: float, text: str = "") -> YamlFloat:
        number = super().__new__(cls, value)
        number.text = text or float.__repr__(number)
        return number

    def __str__(self) -> str:
        return self.text


class _TooBig(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message, self.line = message, line


class _CountingComposer(Composer):
    """ruamel's composer, stopping at MAX_NODES nodes or MAX_DEPTH levels (aliases count
    once here; the builder counts their expansion)."""

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self.composed = 0
        self.nesting = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.composed += 1
        self.nesting += 1
        try:
            if self.composed > MAX_NODES or self.nesting > MAX_DEPTH + 1:
                mark = self.parser.peek_event().start_mark
                line = mark.line + 1 if mark is not None else None
                if self.composed > MAX_NODES:
                    raise _TooBig(f"the document holds more than {MAX_NODES} values; refused", line)
                raise _TooBig(f"nested more than {MAX_DEPTH} levels deep; refused", line)
            return super().compose_node(parent, index)
        finally:
            self.nesting -= 1


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
        if kind in {"int", "float"}:
            number = _number(text, kind)
            return text if number is None else number
        if kind == "bool":
            return text.lower() == "true"
        if kind == "null":
            return None
        return text  # str, and timestamps kept as the text the author wrote


_BASES = {"0x": 16, "0o": 8, "0b": 2}


def _number(text: str, kind: str) -> YamlInt | YamlFloat | None:
    """The number a plain scalar stands for, or None (kept as text) if Python cannot read
    it: ``-0x1F``, ``+0b11``, ``.inf`` and 5,000-digit integers all come this way."""
    digits = text.replace("_", "").lower()
    sign = -1 if digits.startswith("-") else 1
    digits = digits.lstrip("+-")
    try:
        if kind == "int":
            base = _BASES.get(digits[:2], 10)
            return YamlInt(sign * int(digits[2:] if base != 10 else digits, base), text)
        if digits in {".inf", ".nan"}:
            return YamlFloat(sign * float(digits[1:]), text)
        return YamlFloat(sign * float(digits), text)
    except ValueError:
        return None


def load_yaml(text: str, filename: str) -> tuple[Any, dict[Path, int]]:
    """Parse one YAML document into plain data and a map from value path to line number."""
    yaml = YAML(typ="safe", pure=True)
    yaml.Composer = _CountingComposer
    try:
        node = yaml.compose(text)
    except _TooBig as err:
        raise InputError([Problem(err.message, filename, err.line)]) from None
    except RecursionError:  # a safety net: _CountingComposer stops nesting long before
        raise InputError([Problem("nested too deeply; refused", filename)]) from None
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
