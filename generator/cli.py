"""The ``scratchpress`` command: thin over the library, one function per command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from .definitions.campaign import Campaign, load_campaign
from .problems import InputError, Problem
from .rules.rulesets import RULESETS
from .statblocks import Computed, compute_campaign

app = typer.Typer(
    name="scratchpress",
    help="Stat blocks and print-ready PDFs for the Scratch Role-Playing System and Resilience.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

PathsArg = Annotated[
    list[Path], typer.Argument(help="Definition files or campaign folders.", show_default=False)
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help=f"Ruleset: {', '.join(RULESETS)} (default: the campaign's, else current).",
        show_default=False,
    ),
]


def fail(problems: list[Problem]) -> NoReturn:
    for problem in problems:
        typer.echo(str(problem), err=True)
    errors = sum(1 for p in problems if p.severity == "error")
    typer.echo(f"{errors} error{'s' if errors != 1 else ''}; nothing was written.", err=True)
    raise typer.Exit(1)


def _check_rules(rules: str | None) -> None:
    if rules is not None and rules not in RULESETS:
        typer.echo(f"unknown ruleset {rules!r}; choose one of: {', '.join(RULESETS)}", err=True)
        raise typer.Exit(2)


def load(paths: list[Path], rules: str | None) -> tuple[Campaign, Computed]:
    """Load and compute, turning every input problem into a clean exit 1."""
    _check_rules(rules)
    try:
        campaign = load_campaign(paths, rules)
    except InputError as err:
        fail(err.problems)
    return campaign, compute_campaign(campaign)


@app.command()
def stats(
    paths: PathsArg,
    rules: RulesOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON list.")] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the rule behind every derived number.")
    ] = False,
) -> None:
    """Print stat blocks in the books' format (or JSON)."""
    from .documents.text import render_json, render_text

    _, computed = load(paths, rules)
    # Printed values that differ from ours are `check`'s business; anything else that is
    # wrong (an unknown crew member, too many minions) would make the numbers misleading.
    blocking = [p for p in computed.errors if "printed" not in (p.field or "").split(".")]
    if blocking:
        fail(blocking)
    if as_json:
        typer.echo(json.dumps(render_json(computed), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(computed, explain), nl=False)


@app.command()
def check(
    paths: PathsArg,
    rules: RulesOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Count warnings as errors.")] = False,
) -> None:
    """Validate definitions and compare printed: values with the rules."""
    _, computed = load(paths, rules)
    for problem in computed.problems:
        typer.echo(str(problem), err=problem.severity == "error")
    errors, warnings = len(computed.errors), len(computed.warnings)
    entries = len(computed.blocks)
    typer.echo(
        f"{entries} entries checked with the {computed.rules.name} rules: "
        f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}."
    )
    if errors or (strict and warnings):
        raise typer.Exit(1)


@app.command("import")
def import_(
    text_file: Annotated[Path, typer.Argument(help="Plain text holding stat blocks.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write YAML here (default: print it).")
    ] = None,
) -> None:
    """Read stat blocks in the books' plain-text format and write definitions."""
    from .definitions.importer import dump_definitions, parse_stat_blocks
    from .render.files import write_atomic

    try:
        text = text_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail([Problem("no such file", str(text_file))])
    except (OSError, UnicodeDecodeError) as err:
        fail([Problem(f"cannot read as UTF-8 text: {err}", str(text_file))])
    data = parse_stat_blocks(text)
    found = sum(len(v) for v in data.values())
    if not found:
        fail(
            [
                Problem(
                    "no stat blocks found (expected lines like 'Name (13 agility, ...): ...')",
                    str(text_file),
                )
            ]
        )
    yaml_text = dump_definitions(data)
    if output is None:
        typer.echo(yaml_text, nl=False)
    else:
        write_atomic(output, yaml_text.encode("utf-8"))
        counts = ", ".join(f"{len(v)} {k}" for k, v in data.items() if v)
        typer.echo(f"wrote {output} ({counts})", err=True)


def main() -> None:
    # Broken pipes (`scratchpress stats | head`) are not errors worth a traceback.
    try:
        app()
    except BrokenPipeError:
        sys.stderr.close()


if __name__ == "__main__":
    main()
