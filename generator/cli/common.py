"""What every command shares: the campaign argument, the choices, and one way to turn
input problems into messages and exit codes (1 for bad input, 2 for bad usage).

Every command that reads a campaign takes it the same way: an optional CAMPAIGN argument.
Without it, the current folder is the campaign when it looks like one, else the bundled
example is (see :func:`campaign_paths`); ``--example`` asks for the example outright.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..definitions.campaign import SETTINGS_FILE, Campaign, is_definitions_file, load_campaign
from ..definitions.yamlsafe import ParseMemo
from ..problems import InputError, Problem, safe_text
from ..statblocks import Computed, compute_campaign


# Choices on the command line: listed in the help, completed by the shell, and taken in
# any case (`--paper A4`). The values are those of the settings models.
class Ruleset(StrEnum):
    current = "current"
    early = "early"
    classic = "classic"


class Paper(StrEnum):
    letter = "letter"
    a4 = "a4"


class Units(StrEnum):
    metric = "metric"
    imperial = "imperial"
    both = "both"


class Edge(StrEnum):
    long = "long"
    short = "short"


PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Campaign folder or definition files (default: this folder if it holds a"
        " campaign, else the bundled example).",
        show_default=False,
        metavar="CAMPAIGN",
    ),
]
CampaignArg = Annotated[
    Path | None,
    typer.Argument(
        help="Campaign folder (default: this folder if it holds a campaign, else the"
        " bundled example).",
        show_default=False,
        metavar="CAMPAIGN",
    ),
]
ExampleOpt = Annotated[
    bool, typer.Option("--example", help="Use the bundled example campaign (Lantern Weir).")
]
RulesOpt = Annotated[
    Ruleset | None,
    typer.Option(
        "--rules",
        help="Ruleset (default: the campaign's, else current).",
        case_sensitive=False,
        show_default=False,
    ),
]


def usage_error(message: str) -> NoReturn:
    """A command line that cannot work as typed: exit 2, like click's own usage errors."""
    typer.echo(f"usage error: {safe_text(message, None)}", err=True)
    typer.echo("Try 'scratchpress --help' or add -h to the command.", err=True)
    raise typer.Exit(2)


def looks_like_campaign(folder: Path) -> bool:
    """A folder holding a scratchpress.toml or at least one definitions file."""
    try:
        return (folder / SETTINGS_FILE).is_file() or any(
            is_definitions_file(p) for p in folder.iterdir()
        )
    except OSError:
        return False


@dataclass(frozen=True)
class Chosen:
    """The campaign a command works on, and the line that says so (None: the user named it)."""

    paths: list[Path]
    said: str | None = None
    implicit_example: bool = False  # no campaign here, so the example stood in


def choose_campaign(paths: list[Path] | None, example: bool = False) -> Chosen:
    """The paths given; else ``--example``; else this folder when it holds a campaign;
    else the bundled example."""
    from ..resources import examples_dir

    if example and paths:
        usage_error("give a campaign or --example, not both")
    if paths:
        return Chosen(paths)
    if example:
        return Chosen([examples_dir()], "campaign: the bundled example, Lantern Weir (example/)")
    here = Path.cwd()
    if looks_like_campaign(here):
        return Chosen([Path(".")], f"campaign: this folder ({safe_text(str(here), None)})")
    return Chosen(
        [examples_dir()],
        "campaign: no campaign in this folder, so the bundled example, Lantern Weir"
        " (start your own with `scratchpress new FOLDER`)",
        implicit_example=True,
    )


def campaign_paths(paths: list[Path] | None, example: bool = False) -> list[Path]:
    """The campaign, said in one line on stderr when the user did not name it: a GM who
    forgot the folder must not mistake the example's numbers for their own, nor build the
    example into their campaign's output unawares."""
    chosen = choose_campaign(paths, example)
    if chosen.said:
        typer.echo(chosen.said, err=True)
    return chosen.paths


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fail(problems: list[Problem]) -> NoReturn:
    for problem in problems:
        typer.echo(str(problem), err=True)
    errors = sum(1 for p in problems if p.severity == "error")
    typer.echo(f"{errors} error{'s' if errors != 1 else ''}; nothing was written.", err=True)
    raise typer.Exit(1)


def blocking_errors(computed: Computed) -> list[Problem]:
    """Errors that make printed numbers misleading (an unknown crew member, too many
    minions). Printed values that differ from ours are `check`'s business, not a reason
    to refuse stat blocks or sheets."""
    return [p for p in computed.errors if "printed" not in (p.field or "").split(".")]


def load(
    paths: list[Path], rules: Ruleset | str | None, memo: ParseMemo | None = None
) -> tuple[Campaign, Computed]:
    """Load and compute, turning every input problem into a clean exit 1."""
    chosen = rules.value if isinstance(rules, Ruleset) else rules
    try:
        campaign = load_campaign(paths, chosen, memo)
    except InputError as err:
        fail(err.problems)
    return campaign, compute_campaign(campaign)


def write_output(path: Path, data: bytes) -> None:
    """Write a file the user named with ``-o`` (through the one writer: atomic, no links),
    or stop with ``cannot write PATH: reason`` and exit 1."""
    from ..definitions.campaign import display_path
    from ..render.files import CannotWrite, write_file

    try:
        write_file(path, data, shown=display_path(path))
    except CannotWrite as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from None


DEFAULT_OUTPUT = Path("output")


def linked_default_output() -> list[Problem]:
    """The default ``output/`` may have come inside a downloaded campaign: a link there
    would send our files wherever it points. A folder named with ``-o`` is the user's own
    choice and is not checked here."""
    if DEFAULT_OUTPUT.is_symlink():
        return [
            Problem(
                "is a symbolic link; refused as the default output (name it with -o)",
                str(DEFAULT_OUTPUT),
            )
        ]
    return []
