"""The one gate between a campaign's text and the terminal (``echo``, ``echo_json``) and the
message helpers around it. The commands' own tests (test_definitions.py,
test_resilience.py) run each with a hostile name."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from scratchpress.cli import common

CLI = Path(common.__file__).parent


def _run(body: object) -> tuple[int | None, str, str]:
    app = typer.Typer()
    app.command()(body)
    result = CliRunner().invoke(app, [])
    return result.exit_code, result.stdout, result.stderr


def test_echo_escapes_a_name_and_keeps_lines_and_unicode() -> None:
    def show() -> None:
        common.echo("Ann\x1b]0;pwned\x07\u202e Ünïcødé 漢字 (10 agility)\n2 toughness")

    code, out, _ = _run(show)
    assert code == 0
    assert out == "Ann\\x1b]0;pwned\\x07\\u202e Ünïcødé 漢字 (10 agility)\n2 toughness\n"


def test_echo_json_reads_back_the_same_value() -> None:
    value = {"name": "Weir\x9b2J\u202e Ünïcødé"}

    def show() -> None:
        common.echo_json(value)

    code, out, _ = _run(show)
    assert code == 0
    assert '"name": "Weir\\u009b2J\\u202e Ünïcødé"' in out
    assert json.loads(out) == value


def test_stop_prints_each_line_as_one_line() -> None:
    # A name holding a line break must not print a line of its own ("broken rule: ...").
    def show() -> None:
        common.stop(["no community named 'Weir\nbroken rule: forged'\x07"], 2)

    code, out, err = _run(show)
    assert (code, out) == (2, "")
    assert err == "no community named 'Weir\\nbroken rule: forged'\\x07\n"


def _unguarded_echoes(source: str) -> list[int]:
    """Lines where ``typer.echo`` prints campaign text made by the api (``api.*_text``,
    ``api.*_json``) or by ``json.dumps`` directly, past the gate."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and ast.unparse(node.func) == "typer.echo"):
            continue
        for inner in ast.walk(ast.Module(body=[ast.Expr(a) for a in node.args], type_ignores=[])):
            if not isinstance(inner, ast.Call):
                continue
            called = ast.unparse(inner.func)
            made = called.startswith("api.") and called.endswith(("_text", "_json"))
            if made or called == "json.dumps":
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("module", sorted(p.name for p in CLI.glob("*.py")))
def test_campaign_text_reaches_the_terminal_only_through_the_gate(module: str) -> None:
    source = (CLI / module).read_text(encoding="utf-8")
    assert _unguarded_echoes(source) == [], f"use common.echo / echo_json in cli/{module}"


def test_the_gate_check_finds_a_direct_echo() -> None:
    source = (
        "typer.echo(api.stats_text(opened))\n"
        "typer.echo(json.dumps(report, indent=2))\n"
        "typer.echo(f'{api.event_text(1, e)}')\n"
        "echo(api.stats_text(opened))\n"
        "typer.echo(f'wrote {output}')\n"
    )
    assert _unguarded_echoes(source) == [1, 2, 3]
