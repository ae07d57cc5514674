"""Our own YAML: one reader for the files we ship, one writer for the files we make."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from scratchpress.definitions.yamlio import (
    commented_list,
    double_quoted,
    dump_yaml,
    flow,
    read_builtin_yaml,
)
from scratchpress.definitions.yamlsafe import load_yaml

PACKAGE = Path(__file__).resolve().parents[2] / "generator"
SHIPPED = sorted(PACKAGE.rglob("*.yaml"))


def _typed(value: Any) -> Any:
    """``value`` with each scalar's kind made visible, as True == 1 == 1.0 in Python (the
    strangers' reader returns subclasses of int and str that remember their text)."""
    if isinstance(value, dict):
        return {_typed(k): _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    kind = next(t for t in (bool, int, float, str, type(None), object) if isinstance(value, t))
    return (kind.__name__, value)


def test_the_package_ships_the_yaml_files_we_expect() -> None:
    names = {p.relative_to(PACKAGE).as_posix() for p in SHIPPED}
    assert {"content/archetypes.yaml", "content/names.yaml"} <= names
    assert "content/resilience/events.yaml" in names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_every_shipped_file_reads_the_same_under_the_yaml_1_2_rules(path: Path) -> None:
    # The fast reader is YAML 1.1, where a bare `no` is false and `0755` is octal; users'
    # files are read under YAML 1.2. Our own files must mean the same under both.
    strangers, _ = load_yaml(path.read_text(encoding="utf-8"), path.name)
    assert _typed(read_builtin_yaml(path)) == _typed(strangers)


def test_only_the_two_yaml_modules_import_a_yaml_library() -> None:
    # One reader for our files, one writer, one safe reader for strangers' files: a module
    # that imports PyYAML or ruamel itself is a fourth way to read or write.
    allowed = {"definitions/yamlio.py", "definitions/yamlsafe.py"}
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            if any(n == "yaml" or n.startswith(("yaml.", "ruamel")) for n in names):
                offenders.append(path.relative_to(PACKAGE).as_posix())
    assert set(offenders) <= allowed, offenders
    assert allowed <= set(offenders)  # the check itself sees imports


def test_the_writer_keeps_order_and_writes_the_house_style() -> None:
    long_note = "word " * 60 + "end"
    data = {
        "npcs": commented_list(
            [
                {
                    "name": "Ann Reed",
                    "abilities": {
                        "toughness": flow({"level": 2, "note": double_quoted("tough")}),
                        "stealth": 1,
                    },
                },
                {"name": "Zed", "minions": [{"name": "Zed's dog", "count": 2}]},
            ],
            {1: "Band 2 of 2"},
        ),
        "notes": [long_note, "no", "yes: but"],
    }
    text = dump_yaml(data, ["made by a test", ""])
    assert text == (
        "# made by a test\n"
        "\n"
        "npcs:\n"
        "  - name: Ann Reed\n"
        "    abilities:\n"
        '      toughness: {level: 2, note: "tough"}\n'
        "      stealth: 1\n"
        "  # Band 2 of 2\n"
        "  - name: Zed\n"
        "    minions:\n"
        "      - name: Zed's dog\n"
        "        count: 2\n"
        "notes:\n"
        f"  - {long_note}\n"  # one line, however long
        "  - no\n"  # a word under YAML 1.2, as users' files are read
        "  - 'yes: but'\n"
    )
    back, _ = load_yaml(text, "written.yaml")
    assert back["npcs"][0]["abilities"] == {
        "toughness": {"level": 2, "note": "tough"},
        "stealth": 1,
    }
    assert back["notes"] == [long_note, "no", "yes: but"]


def test_a_strangers_bidi_override_or_escape_never_reaches_the_terminal_raw() -> None:
    """`import` prints the YAML it makes: a name holding U+202E or ESC is written
    double-quoted, escaped, and reads back as the same name."""
    import yaml

    from scratchpress.definitions.yamlio import dump_yaml, flow

    name, note = "Ev\u202eil \x1b[31m", "a \u2066 note"
    abilities = flow({"toughness": {"level": 2, "note": note}})
    text = dump_yaml({"characters": [{"name": name, "abilities": abilities}]})
    assert "\u202e" not in text and "\x1b" not in text and "\u2066" not in text
    loaded = yaml.safe_load(text)["characters"][0]
    assert loaded["name"] == name and loaded["abilities"]["toughness"]["note"] == note
