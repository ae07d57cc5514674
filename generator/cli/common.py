"""What every command shares: the campaign argument, the build options' choices, one way
to turn problems into messages on stderr and exit codes (1 for bad input, 2 for bad
usage), and the one gate campaign text passes to reach the terminal (:func:`echo`,
:func:`echo_json`).

Every command that reads a campaign takes it the same way: an optional CAMPAIGN argument;
without it, :func:`scratchpress.api.find_campaign` finds one (this folder, or the nearest
folder above holding a scratchpress.toml, else the bundled example); ``--example`` asks
for the example outright.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from .. import api
from ..problems import Problem, UsageError, safe_json, safe_lines, safe_text


def choice(name: str, help: str | None = None) -> Any:
    """A command-line option for the build option ``name``, typed with the model's own
    choices (``api.Paper`` ...): its help comes from the one options model
    (:class:`scratchpress.api.BuildOptions`) too, and any case is taken (``--paper A4``)."""
    return typer.Option(
        help=help or api.option_help(name), case_sensitive=False, show_default=False
    )


PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Campaign folder or definition files (default: this folder or the nearest"
        " above it with a scratchpress.toml, else the bundled example).",
        show_default=False,
        metavar="CAMPAIGN",
    ),
]
CampaignArg = Annotated[
    Path | None,
    typer.Argument(
        help="Campaign folder (default: this folder or the nearest above it with a"
        " scratchpress.toml, else the bundled example).",
        show_default=False,
        metavar="CAMPAIGN",
    ),
]
ExampleOpt = Annotated[
    bool, typer.Option("--example", help="Use the bundled example campaign (Lantern Weir).")
]
RulesOpt = Annotated[
    api.Ruleset | None,
    typer.Option(
        "--rules",
        help="Ruleset (default: the campaign's, else current).",
        case_sensitive=False,
        show_default=False,
    ),
]


def echo(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print text that may hold a campaign's words (a stat block, an event, a community's
    name). A name is a stranger's: an ESC, OSC or BEL in it would drive the terminal, a
    right-to-left override would reorder the line, so each is shown escaped (``\\x1b``,
    ``\\u202e``) as in every message; accents and CJK print as they are."""
    typer.echo(safe_lines(text), err=err, nl=nl)


def echo_json(value: object) -> None:
    """Print ``value`` as indented JSON on stdout, readable and terminal-safe alike: what
    JSON itself leaves raw is written as a ``\\uXXXX`` escape (same text once parsed)."""
    typer.echo(safe_json(value))


def usage_error(message: str) -> NoReturn:
    """A command line that cannot work as typed: exit 2, like click's own usage errors."""
    typer.echo(f"usage error: {safe_text(message, None)}", err=True)
    typer.echo("Try 'scratchpress --help' or add -h to the command.", err=True)
    raise typer.Exit(2)


def stop(lines: Sequence[str], code: int = 1) -> NoReturn:
    """One line per problem on stderr, then a clean exit (never a traceback). A line may
    name a community or an event: a line break in a name is shown escaped too, so no
    name can print a line of its own."""
    for line in lines:
        typer.echo(safe_text(line, None), err=True)
    raise typer.Exit(code)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fail(problems: Sequence[Problem]) -> NoReturn:
    """Every problem on stderr, a count, exit 1."""
    for problem in problems:
        echo(str(problem), err=True)
    errors = sum(1 for p in problems if p.severity == "error")
    typer.echo(f"{errors} error{'s' if errors != 1 else ''}; nothing was written.", err=True)
    raise typer.Exit(1)


def find(paths: Sequence[Path] | Path | None, example: bool = False) -> api.Found:
    """The campaign, said in one line on stderr when the user did not name it: a GM who
    forgot the folder must not mistake the example's numbers for their own."""
    try:
        found = api.find_campaign(paths, example=example)
    except UsageError as err:
        usage_error(str(err))
    if found.said:
        typer.echo(found.said, err=True)
    return found


def open_campaign(
    paths: Sequence[Path] | Path | None, example: bool = False, rules: str | None = None
) -> api.Opened:
    """Find, read and compute, turning every input problem into a clean exit 1."""
    found = find(paths, example)
    try:
        return api.open_campaign(found, rules=rules)
    except api.InputError as err:
        fail(err.problems)


def write_output(path: Path, data: bytes, force: bool = True) -> None:
    """Write a file the user named with ``-o`` (through the one writer: atomic, no links),
    or stop with ``cannot write PATH: reason`` and exit 1."""
    try:
        api.write_output(path, data, force)
    except api.CannotWrite as err:
        stop([str(err)])
