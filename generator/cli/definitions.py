"""`stats`, `check` and `import`: the commands that read definitions and print text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..problems import InputError, Problem
from .common import (
    ExampleOpt,
    PathsArg,
    RulesOpt,
    blocking_errors,
    campaign_paths,
    fail,
    load,
    plural,
    write_output,
)


def stats(
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON list.")] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the rule behind every derived number.")
    ] = False,
) -> None:
    """Print stat blocks in the books' format (or JSON, described in docs/json.md).

    Example: scratchpress stats my-campaign --explain
    """
    from ..documents.text import render_json, render_text

    _, computed = load(campaign_paths(paths, example), rules)
    blocking = blocking_errors(computed)
    if blocking:
        fail(blocking)
    if as_json:
        typer.echo(json.dumps(render_json(computed), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(computed, explain), nl=False)


def check(
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Count warnings as errors.")] = False,
) -> None:
    """Validate a campaign: definitions, portraits, booklets, theme and printed: values.

    Example: scratchpress check my-campaign --strict
    """
    from ..content.careers import career_definition_problems, career_problems
    from ..content.loader import content_problems, resilience_content
    from ..documents.assets import asset_problems
    from ..documents.booklet import booklet_problems
    from ..encounters import encounter_problems

    campaign, computed = load(campaign_paths(paths, example), rules)
    try:
        careers = resilience_content(campaign).careers
    except InputError as err:
        fail(err.problems)
    computed.problems += career_problems(campaign, computed, careers)
    computed.problems += career_definition_problems(campaign)
    unmerged = content_problems(campaign)
    computed.problems += unmerged
    if not unmerged:  # encounters are computed from the merged lists
        computed.problems += encounter_problems(campaign)
    computed.problems += booklet_problems(campaign, computed)
    computed.problems += asset_problems(campaign)
    for problem in computed.problems:
        typer.echo(str(problem), err=problem.severity == "error")
    errors, warnings = len(computed.errors), len(computed.warnings)
    entries = len(computed.blocks)
    typer.echo(
        f"{entries} entries checked with the {computed.rules.name} rules: "
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')}."
    )
    if errors or (strict and warnings):
        raise typer.Exit(1)


def import_(
    text_file: Annotated[Path, typer.Argument(help="Plain text holding stat blocks.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write YAML here (default: print it).")
    ] = None,
) -> None:
    """Read stat blocks in the books' plain-text format and write definitions.

    Wiki HTML and the wiki's feed of page revisions work too: the newest revision of each
    block is kept. Everything skipped is listed on stderr, one line each.

    Example: scratchpress import npcs.txt -o my-campaign/imported.yaml
    """
    from ..definitions.campaign import NotText, RefusedFile, display_path, read_text_capped
    from ..definitions.importer import dump_definitions, read_stat_blocks
    from ..render.files import CannotRead

    try:
        text = read_text_capped(text_file)
    except FileNotFoundError:
        fail([Problem(str(CannotRead(display_path(text_file), "no such file")))])
    except UnicodeDecodeError as err:
        # NotText already says on which line and column, and what to do.
        reason = (
            f"line {err.line}: {err.message}"
            if isinstance(err, NotText)
            else f"not UTF-8 text (byte {err.start})"
        )
        fail([Problem(str(CannotRead(display_path(text_file), reason)))])
    except (OSError, RefusedFile) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        fail([Problem(str(CannotRead(display_path(text_file), why)))])
    result = read_stat_blocks(text, display_path(text_file))
    data = result.definitions
    found = sum(len(v) for v in data.values())
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
    typer.echo(f"{display_path(text_file)}: {result.summary()}", err=True)
    yaml_text = dump_definitions(data)
    if output is None:
        typer.echo(yaml_text, nl=False)
    else:
        write_output(output, yaml_text.encode("utf-8"))
        counts = ", ".join(f"{len(v)} {k}" for k, v in data.items() if v)
        typer.echo(f"wrote {output} ({counts})", err=True)
