"""YAML for files written by strangers: plain data only, with the line of every value.

libyaml (through PyYAML's C parser) turns the text into events; we compose nodes from them
ourselves, resolving plain scalars with ruamel.yaml's YAML 1.2 rules (so a character named
``No`` stays a string), and build plain Python values from the nodes. The C parser makes a
500-event deck file parse in a tenth of a second instead of a second and a half; our own
composer keeps the line of every value and enforces the limits below.

That lets us refuse every language-specific tag (``!!python/object/apply`` and friends),
refuse duplicate keys, and stop alias bombs by counting nodes as they are expanded instead
of trusting the document's size. Nodes are also counted (and nesting measured) while the
document is composed, with a stack rather than recursion, so a file of a million tiny
values or ten thousand nested brackets is refused in seconds, never a RecursionError.

A plain scalar that YAML 1.2 reads as a number stays a number (``level: 3``), but it keeps
the text the author wrote: where a definition expects text, ``name: 007`` is ``"007"`` and
``name: 1e3`` is ``"1e3"``, never ``"7"`` or ``"1000.0"``.

Why one module of ~570 lines: the composer, its limits, the scalar rules and the messages
that quote a stranger's broken line are one line of defence, read and reviewed together;
our own files are read and written by :mod:`.yamlio` instead.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import yaml
from ruamel.yaml.resolver import VersionedResolver

from ..problems import InputError, Problem

Path = tuple[str | int, ...]

MAX_NODES = 100_000  # far above any real campaign file, far below an alias bomb
MAX_DEPTH = 64
# Python reads no longer integer (its default int_max_str_digits): a longer number stays
# the text it was written as, whatever PYTHONINTMAXSTRDIGITS says.
MAX_NUMBER_DIGITS = 4300
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


class Node:
    """A composed YAML value: its resolved tag, its value and where it starts. (ruamel's own
    nodes decode their tag on every read, which cost more than the parsing.)"""

    __slots__ = ("start_mark", "tag", "value")

    def __init__(self, tag: str, value: Any, start_mark: Any) -> None:
        self.tag, self.value, self.start_mark = tag, value, start_mark


class ScalarNode(Node):
    __slots__ = ()


class SequenceNode(Node):
    __slots__ = ()


class MappingNode(Node):
    __slots__ = ()


class _TooBig(Exception):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.message, self.line = message, line


# libyaml when PyYAML was built with it (every wheel is); the pure parser gives the same
# events, only slower.
_EventLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# ruamel's YAML 1.2 table of implicit types: first character -> [(tag, pattern)].
_IMPLICIT: dict[str, list[tuple[str, Any]]] = {
    first: list(rules)
    for first, rules in VersionedResolver().versioned_resolver.items()
    if first is not None
}


def _resolve_plain(value: str) -> str:
    for tag, pattern in _IMPLICIT.get(value[:1], ()):
        if pattern.match(value):
            return str(tag)
    return f"{_CORE}str"


_COLLECTIONS = {
    yaml.SequenceStartEvent: (SequenceNode, f"{_CORE}seq"),
    yaml.MappingStartEvent: (MappingNode, f"{_CORE}map"),
}
_ENDS = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def _compose(text: str, anchored: list[bool] | None = None) -> Node | None:
    """The node graph of a one-document stream, composed from parser events with a stack.
    Aliases share their anchor's node; the builder counts each expansion. ``anchored``,
    when given, learns whether the text used any anchor."""
    root: Node | None = None
    stack: list[Node] = []
    pending_keys: list[Node | None] = []
    anchors: dict[str, Node] = {}
    documents = composed = 0
    for event in yaml.parse(text, Loader=_EventLoader):
        kind = type(event)
        line = event.start_mark.line + 1
        if kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise _TooBig("holds more than one YAML document; give one per file", line)
            continue
        if kind in _ENDS:
            stack.pop()
            pending_keys.pop()
            continue
        if kind is yaml.AliasEvent:
            if event.anchor not in anchors:
                raise _TooBig(f'the alias "*{event.anchor}" names no anchor above it', line)
            node = anchors[event.anchor]
        elif kind is yaml.ScalarEvent or kind in _COLLECTIONS:
            composed += 1
            if composed > MAX_NODES:
                raise _TooBig(f"the document holds more than {MAX_NODES} values; refused", line)
            tag = event.tag
            if kind is yaml.ScalarEvent:
                if tag is None or tag == "!":
                    implicit = event.implicit[0] and tag is None
                    tag = _resolve_plain(event.value) if implicit else f"{_CORE}str"
                node = ScalarNode(tag, event.value, event.start_mark)
            else:
                node_class, default_tag = _COLLECTIONS[kind]
                node = node_class(
                    tag if tag not in (None, "!") else default_tag, [], event.start_mark
                )
            if event.anchor is not None:
                anchors[event.anchor] = node
        else:  # stream and document ends
            continue
        if not stack:
            root = node
        elif isinstance(stack[-1], SequenceNode):
            stack[-1].value.append(node)
        elif pending_keys[-1] is None:
            pending_keys[-1] = node
        else:
            stack[-1].value.append((pending_keys[-1], node))
            pending_keys[-1] = None
        if kind in _COLLECTIONS:
            if len(stack) >= MAX_DEPTH + 1:
                raise _TooBig(f"nested more than {MAX_DEPTH} levels deep; refused", line)
            stack.append(node)
            pending_keys.append(None)
    if anchored is not None:
        anchored.append(bool(anchors))
    return root


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
        tag = node.tag
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
                first = self.positions.get((*path, key), "?")
                # `{note: rope, hook, hook}`: a split text, not a key given twice on purpose.
                split = first == key_node.start_mark.line + 1 and value_node.value in ("", None)
                raise self.fail(
                    key_node,
                    f'duplicate key "{key}" (first given on line {first})'
                    + (
                        "; if a comma in a text inside { } made it, put the text in quotes"
                        if split
                        else ""
                    ),
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
    if len(digits) > MAX_NUMBER_DIGITS:
        return None
    try:
        if kind == "int":
            base = _BASES.get(digits[:2], 10)
            return YamlInt(sign * int(digits[2:] if base != 10 else digits, base), text)
        if digits in {".inf", ".nan"}:
            return YamlFloat(sign * float(digits[1:]), text)
        return YamlFloat(sign * float(digits), text)
    except ValueError:
        return None


# How libyaml splits lines when it counts them for its marks.
_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_INDENT = re.compile(r" *(?:-(?: +|$))*")
# The parser's words for a line that sits at the wrong depth (libyaml's, then PyYAML's).
_DEPTH_PHRASES = ("did not find expected key", "did not find expected '-'", "expected <block end>")


def _syntax_problem(err: yaml.MarkedYAMLError, text: str, filename: str) -> Problem:
    """One problem for a parse error, on the line to fix, in plain words with a hint for
    the usual mistakes (a tab, a second colon, a line at the wrong depth); the parser's
    own phrase stays in parentheses, for whoever searches it."""
    phrase = (err.problem or err.context or "not valid YAML").strip()
    mark = err.problem_mark or err.context_mark
    if "nesting depth" in phrase:  # libyaml 0.2.6+ has a depth limit of its own
        message = f"nested more than {MAX_DEPTH} levels deep; refused"
        return Problem(message, filename, mark.line + 1 if mark is not None else None)
    if "could not find expected ':'" in phrase and err.context_mark is not None:
        mark = err.context_mark  # the problem mark is already on the next line
    if mark is None:
        return Problem(f"YAML syntax error: {phrase}", filename)
    lines = _BREAKS.split(text)
    line = lines[mark.line] if mark.line < len(lines) else ""
    hint = _hint(phrase, line, mark.column, lines[: mark.line])
    return Problem(hint or f"YAML syntax error: {phrase}", filename, mark.line + 1)


def _hint(phrase: str, line: str, column: int, above: list[str]) -> str | None:
    """The plain-words message for a parse error at ``column`` of ``line``, or None."""
    leading = line[: len(line) - len(line.lstrip(" \t"))]
    if "\t" in leading or line[column : column + 1] == "\t" or "tab" in phrase:
        return (
            f"a tab character ({phrase}): YAML indents with spaces only;"
            " replace the tab with spaces"
        )
    if "cannot start any token" in phrase and line[column : column + 1] in {"@", "`", "%"}:
        return f"a value cannot start with '{line[column]}' ({phrase}); put the value in quotes"
    brace = "{" if "}" in phrase else "["
    if phrase.startswith(_FLOW_END) and line[column : column + 1] == ":" and brace in line[:column]:
        return _colon_in_braces(phrase, line, column)
    if "could not find expected ':'" in phrase:
        return (
            f"no 'key:' on this line ({phrase}); write it as key: value, or indent it"
            " further to continue the value above"
        )
    colon_error = phrase.startswith("mapping values are not allowed")
    first = re.search(r":(?=\s)", line[:column])  # an earlier "key:" on the same line
    if colon_error and first is not None:
        key = line[_indent(line[: first.start()]) : first.start()]
        value = _quoted(line[first.end() :])
        return f"a second ':' on this line ({phrase}); put the value in quotes: {key}: {value}"
    indent = len(line) - len(line.lstrip(" "))
    if not colon_error and not (column == indent and phrase.startswith(_DEPTH_PHRASES)):
        return None
    before = next((b for b in reversed(above) if b.strip() and b.lstrip()[:1] != "#"), None)
    if before is None:
        return None
    was = _indent(before)
    if colon_error and indent <= was:
        return None
    if indent == was:
        how = "this line is indented as much as the line above it, but does not belong with it"
    else:
        how = f"this line is indented {'more' if indent > was else 'less'} than the line above it"
    fix = (
        "line up each '- ' with the '- ' of the entry before it"
        if line.lstrip().startswith("- ")
        else "line up keys of the same entry"
    )
    return f"bad indentation ({phrase}): {how}; {fix}"


_FLOW_END = ("did not find expected ',' or '}'", "did not find expected ',' or ']'")


def _colon_in_braces(phrase: str, line: str, column: int) -> str:
    """A second ': ' inside ``{ }`` (``{level: 1, note: a tyre iron: for arguments}``):
    the text it is in, quoted, as the fix."""
    opening = max(
        line.rfind("{", 0, column), line.rfind("[", 0, column), line.rfind(",", 0, column)
    )
    key, colon, value = line[opening + 1 : column].partition(":")
    closing = line.rfind("}" if "}" in phrase else "]")
    rest = line[column : closing if closing > column else len(line)]
    braces = "{ }" if "}" in phrase else "[ ]"
    if not colon or not key.strip():
        return f"a ':' inside {braces} ({phrase}); put the text that holds it in quotes"
    text = (value + rest).strip()
    return (
        f"a ':' inside {braces} ends the {key.strip()} early ({phrase}); put the"
        f" {key.strip()} in quotes: {key.strip()}: {_quoted(text)}"
    )


def _indent(line: str) -> int:
    """Where a line's text starts, a list item's ``- `` counted as indentation (the keys
    of an item line up with the first key after its dash)."""
    match = _INDENT.match(line)
    return match.end() if match is not None else 0


def _quoted(value: str) -> str:
    """A plain value (with any ``# comment`` after it) written as a quoted scalar."""
    text, hash_, comment = value.strip().partition(" #")
    text = text.rstrip()
    if '"' not in text and "\\" not in text:
        quoted = f'"{text}"'
    else:  # single quotes know no escapes: only the quote itself is doubled
        quoted = "'" + text.replace("'", "''") + "'"
    return f"{quoted} #{comment}" if hash_ else quoted


def character_name(code: int) -> str:
    """``a control character U+0000 (NUL)``, ``a character U+FFFE``: for messages."""
    what = "a control character" if unicodedata.category(chr(code)) == "Cc" else "a character"
    return f"{what} U+{code:04X}" + (" (NUL)" if code == 0 else "")


def _reader_problem(err: yaml.reader.ReaderError, text: str, filename: str) -> Problem:
    """A character YAML refuses anywhere (NUL, a terminal escape): its line and column."""
    code = err.character if isinstance(err.character, int) else ord(err.character or "\0")
    # libyaml counts UTF-8 bytes, PyYAML's own reader characters: take the one that fits.
    as_bytes = len(text.encode("utf-8")[: err.position].decode("utf-8", "ignore"))
    index = next(
        (i for i in (as_bytes, err.position) if 0 <= i < len(text) and ord(text[i]) == code),
        None,
    )
    name = character_name(code)
    if index is None:
        return Problem(f"{name} that YAML does not allow ({err.reason}); delete it", filename)
    start = text.rfind("\n", 0, index) + 1
    line = text.count("\n", 0, index) + 1
    return Problem(
        f"{name} at column {index - start + 1} ({err.reason}); delete it"
        " (most editors do not show it)",
        filename,
        line,
    )


def _load(text: str, filename: str) -> tuple[Any, dict[Path, int], int, bool]:
    """Data, positions, the number of values built and whether anchors were used."""
    anchored: list[bool] = []
    try:
        node = _compose(text, anchored)
    except _TooBig as err:
        raise InputError([Problem(err.message, filename, err.line)]) from None
    except yaml.MarkedYAMLError as err:
        raise InputError([_syntax_problem(err, text, filename)]) from None
    except yaml.reader.ReaderError as err:
        raise InputError([_reader_problem(err, text, filename)]) from None
    except yaml.YAMLError as err:
        raise InputError([Problem(f"YAML error: {err}", filename)]) from None
    if node is None:
        return None, {}, 0, False
    builder = _Builder(filename)
    data = builder.build(node, ())
    return data, builder.positions, builder.nodes, anchored[0]


def load_yaml(
    text: str, filename: str, memo: ParseMemo | None = None
) -> tuple[Any, dict[Path, int]]:
    """Parse one YAML document into plain data and a map from value path to line number.

    With ``memo`` (kept by ``build --watch``), a file whose edit stays inside one entry of
    a top-level list re-parses only that entry; anything else is parsed whole."""
    if memo is not None:
        spliced = memo.splice(text, filename)
        if spliced is not None:
            return spliced
    data, positions, nodes, anchored = _load(text, filename)
    if memo is not None:
        memo.remember(filename, _Parsed(text, data, positions, nodes, anchored))
    return data, positions


@dataclass(frozen=True)
class _Parsed:
    text: str
    data: Any
    positions: dict[Path, int]
    nodes: int
    anchored: bool


_ITEM = re.compile(r"( *)- ")


class ParseMemo:
    """The last parse of each file, so that an edit inside one entry of a top-level list
    (one event of a 500-event file) is parsed alone and put back in its place.

    Splicing is refused, and the whole file parsed, whenever the two could differ: the file
    used anchors, the changed lines reach past the entry, a line of the entry is indented
    less than its own ``-`` item or holds a tab, or the entry does not parse on its own to
    exactly one item. A parse error is always reported by the whole-file parse, with its
    real line number."""

    def __init__(self) -> None:
        self.files: dict[str, _Parsed] = {}
        self.spliced = 0  # edits answered by parsing one entry (for tests and curiosity)

    def remember(self, filename: str, parsed: _Parsed) -> None:
        self.files[filename] = parsed

    def splice(self, text: str, filename: str) -> tuple[Any, dict[Path, int]] | None:
        prev = self.files.get(filename)
        if prev is None or prev.anchored or not isinstance(prev.data, dict):
            return None
        if prev.text == text:
            return prev.data, prev.positions
        if not (prev.text.endswith("\n") and text.endswith("\n")) or _OTHER_BREAKS.search(text):
            return None
        old, new = _lines(prev.text), _lines(text)
        first, last = _unchanged_lines(prev.text, text)
        span = _entry_span(prev, first, len(old) - last, len(old))
        if span is None:
            return None
        section, index, start, end = span
        delta = len(new) - len(old)
        lines = new[start : end + delta]
        if not _self_contained(lines, old[start]):
            return None
        try:
            data, positions, nodes, anchored = _load("".join(lines), filename)
        except InputError:
            return None
        if (
            anchored
            or not isinstance(data, list)
            or len(data) != 1
            or prev.nodes + nodes > MAX_NODES
        ):
            return None
        merged = dict(prev.data)
        merged[section] = list(prev.data[section])
        merged[section][index] = data[0]
        moved: dict[Path, int] = {}
        for path, line in prev.positions.items():
            if path[:2] == (section, index):
                continue
            moved[path] = line + delta if line > end else line
        for path, line in positions.items():
            if path and path[0] == 0:
                moved[(section, index, *path[1:])] = line + start
        parsed = _Parsed(text, merged, moved, prev.nodes + nodes, False)
        self.files[filename] = parsed
        self.spliced += 1
        return merged, moved


# Line breaks libyaml counts besides "\n": with any of them, lines are not what we count.
_OTHER_BREAKS = re.compile("[\r\x85\u2028\u2029]")


def _lines(text: str) -> list[str]:
    return [line + "\n" for line in text.split("\n")[:-1]]


def _unchanged_lines(old: str, new: str) -> tuple[int, int]:
    """How many whole lines two texts share at their start, and at their end (the two
    never overlapping). Found by comparing slices, not line by line: a 500-event file is
    compared in a few C-level comparisons."""
    start = _common_prefix(old, new)
    start = old.rfind("\n", 0, start) + 1  # back to the start of the first changed line
    end = min(_common_prefix(old[::-1], new[::-1]), len(old) - start, len(new) - start)
    first = old.count("\n", 0, start)
    last = old.count("\n", len(old) - end)
    for text in (old, new):
        begins_line = end == len(text) or text[len(text) - end - 1] == "\n"
        if not begins_line and last:
            last -= 1
            break
    return first, min(last, old.count("\n") - first, new.count("\n") - first)


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix, by halving: each step one C comparison."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _entry_span(
    prev: _Parsed, first: int, stop: int, total: int
) -> tuple[str, int, int, int] | None:
    """(section, index, start, end) of the top-level list entry whose lines [start, end)
    (0-based) hold every changed line [first, stop), or None."""
    starts: list[tuple[int, str, int | None]] = []  # (0-based line, section, index)
    for path, line in prev.positions.items():
        if len(path) == 1:
            starts.append((line - 1, str(path[0]), None))
        elif len(path) == 2 and isinstance(path[1], int):
            starts.append((line - 1, str(path[0]), path[1]))
    starts.sort(key=lambda s: (s[0], s[2] is not None))
    for n, (line, section, index) in enumerate(starts):
        if index is None or not isinstance(prev.data.get(section), list):
            continue
        end = starts[n + 1][0] if n + 1 < len(starts) else total
        if line <= first and stop <= end and first < end:
            return section, index, line, end
    return None


def _self_contained(lines: list[str], old_first: str) -> bool:
    """Whether the entry's lines are one block sequence item, indented as before."""
    if not lines:
        return False
    item, was = _ITEM.match(lines[0]), _ITEM.match(old_first)
    if item is None or was is None or item.group(1) != was.group(1):
        return False
    inner = " " * (len(item.group(1)) + 2)
    for line in lines:
        if "\t" in line:
            return False
    return all(not line.strip() or line.startswith(inner) for line in lines[1:])
