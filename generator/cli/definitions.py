"""`stats`, `check` and `import`: the commands that read definitions and print text."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from .. import api
from ..problems import Problem
from .common import (
    ExampleOpt,
    PathsArg,
    RulesOpt,
    echo,
    echo_json,
    fail,
    open_campaign,
    plural,
    stop,
    write_output,
)


def stats(
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON: format 1, a list of stat blocks.")
    ] = False,
    format_version: Annotated[
        Literal["1", "2"] | None,
        typer.Option(
            "--format-version",
            help="Print JSON in this format: 2 is a versioned document that adds the"
            " initiative groups and the Resilience encounters (implies --json).",
        ),
    ] = None,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the rule behind every derived number.")
    ] = False,
) -> None:
    """Print stat blocks in the books' format (or JSON, described in docs/json.md).

    Example: scratchpress stats my-campaign --explain
    """
    opened = open_campaign(paths, example, rules)
    try:
        if format_version == "2":
            echo_json(api.stats_json(opened, 2))
        elif as_json or format_version == "1":
            echo_json(api.stats_json(opened))
        else:
            echo(api.stats_text(opened, explain), nl=False)
    except api.InputError as err:
        fail(err.problems)


def check(
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Count warnings as errors.")] = False,
) -> None:
    """Validate a campaign: definitions, portraits, booklets, theme and printed: values.

    Problems go to stderr, one a line; the summary to stdout.

    Example: scratchpress check my-campaign --strict
    """
    opened = open_campaign(paths, example, rules)
    try:
        report = api.check(opened)
    except api.InputError as err:
        fail(err.problems)
    for problem in report.problems:
        typer.echo(str(problem), err=True)
    errors, warnings = len(report.errors), len(report.warnings)
    typer.echo(
        f"{report.entries} {'entry' if report.entries == 1 else 'entries'} checked with the"
        f" {report.rules} rules: "
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')}."
        # A ruleset that computes few of the printed values says how few it compared.
        + (f" {report.printed_summary}" if report.printed_summary else "")
    )
    if errors or (strict and warnings):
        raise typer.Exit(1)


def import_(
    text_file: Annotated[Path, typer.Argument(help="Plain text holding stat blocks.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write YAML here (default: print it).")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the output file if it exists.")
    ] = False,
) -> None:
    """Read stat blocks in the books' plain-text format and write definitions.

    Wiki HTML and the wiki's feed of page revisions work too: the newest revision of each
    block is kept. Everything skipped is listed on stderr, one line each.

    Example: scratchpress import npcs.txt -o my-campaign/imported.yaml
    """
    # A link is refused by the writer itself, --force or not.
    if output is not None and not force and output.exists() and not output.is_symlink():
        # As `roster generate` does: the command cannot run as typed (exit 2).
        stop([f"{output} exists; it may hold a GM's edits. Use --force to replace it."], 2)
    try:
        result = api.import_stat_blocks(text_file)
    except api.CannotRead as err:
        fail([Problem(str(err))])
    found = sum(len(v) for v in result.definitions.values())
    if not found:
        fail(
            [
                *result.problems,
                Problem(
                    "no stat blocks found (expected lines like 'Name (13 agility, ...): ...')",
                    str(text_file),
                ),
            ]
        )
    for problem in result.problems:  # what was skipped, on stderr: stdout may be the YAML
        typer.echo(str(problem), err=True)
    typer.echo(f"{api.display_path(text_file)}: {result.summary()}", err=True)
    yaml_text = api.definitions_yaml(result)
    if output is None:
        typer.echo(yaml_text, nl=False)
        return
    write_output(output, yaml_text.encode("utf-8"), force)
    counts = ", ".join(f"{len(v)} {k}" for k, v in result.definitions.items() if v)
    typer.echo(f"wrote {output} ({counts})", err=True)
    unread = api.output_note(output)
    if unread is not None:
        typer.echo(f"note: {unread}", err=True)
