"""Our own YAML: the one reader for the files we ship and the one writer for the files we make.

Strangers' files (a campaign's definitions, a booklet) are read by :func:`yamlsafe.load_yaml`,
which keeps positions for messages and holds them to YAML 1.2. Our own content
(``content/*.yaml``) is read here, with libyaml's C parser: 20x faster than ruamel's
pure-Python one, which cost every build a second. Positions only matter for packaging bugs,
which the test suite catches. It reads YAML 1.1, where a bare ``no`` is false: a test holds
our files to loading the same under the YAML 1.2 rules users' files get.

Every YAML file we write (``import``, ``roster generate``) comes out of :func:`dump_yaml`, in
one house style: block style, keys in the order given, sequences indented under their key,
and each value on one line however long (a folded note is harder to edit). A writer marks
what it wants printed otherwise with :func:`flow`, :func:`double_quoted` and
:func:`commented_list`, never with ruamel's own types, so the style stays in this module.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
from pathlib import Path
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from ..problems import UNSAFE_CHARACTERS

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

WIDTH = 4096  # no folding: each note stays on one line

# What must never reach a terminal raw (problems' set, but the line break that YAML is
# made of): a stranger's name holding a right-to-left override or a C1 control is written
# double-quoted, with the character as a \u escape that reads back the same.
_RAW = re.compile(f"(?!\n){UNSAFE_CHARACTERS.pattern}")


def read_builtin_yaml(path: Path) -> Any:
    """One of the YAML files scratchpress ships, as plain Python data (see the module doc)."""
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)


def flow(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """A mapping printed on one line: ``{level: 3, note: "..."}``."""
    out = CommentedMap(mapping)
    out.fa.set_flow_style()
    return out


def double_quoted(text: str) -> str:
    """A string always printed in double quotes, whatever it holds."""
    quoted: str = DoubleQuotedScalarString(text)
    return quoted


def commented_list(items: Sequence[Any], comments: Mapping[int, str]) -> list[Any]:
    """``items`` as a block sequence with a ``# comment`` line above each item that
    ``comments`` names by index: where one band of a roster ends is easy to see and edit."""
    out = CommentedSeq(items)
    for index, text in comments.items():
        # At the item's own indent: the "- " of a sequence under a top-level key.
        out.yaml_set_comment_before_after_key(index, before=text, indent=2)
    return out


def dump_yaml(data: Mapping[str, Any], header: Sequence[str] = ()) -> str:
    """``data`` as YAML in the house style, after ``header``: comment lines (``# `` is added),
    an empty string standing for an empty line."""
    writer = YAML()  # round-trip mode: keeps insertion order instead of sorting keys
    writer.default_flow_style = False
    writer.indent(mapping=2, sequence=4, offset=2)
    writer.width = WIDTH
    stream = io.StringIO()
    writer.dump(_quoted_where_raw(data), stream)
    top = "".join(f"# {line}\n" if line else "\n" for line in header)
    return _RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", top + stream.getvalue())


def _quoted_where_raw(value: Any) -> Any:
    """Every string holding a character of _RAW double-quoted (in place, so a mapping keeps
    its flow style and comments): only there is a backslash-u escape read back as the
    character."""
    if isinstance(value, str) and _RAW.search(value):
        return double_quoted(value)
    if isinstance(value, MutableMapping):
        for key in list(value):
            value[key] = _quoted_where_raw(value[key])
    elif isinstance(value, MutableSequence):
        for index, item in enumerate(value):
            value[index] = _quoted_where_raw(item)
    return value


__all__ = [
    "commented_list",
    "double_quoted",
    "dump_yaml",
    "flow",
    "read_builtin_yaml",
]
