"""What every command shares: the campaign argument, the ruleset option, and one way to
turn input problems into messages and exit codes (1 for bad input, 2 for bad usage)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..definitions.campaign import Campaign, load_campaign
from ..definitions.yamlsafe import ParseMemo
from ..problems import InputError, Problem
from ..rules.rulesets import RULESETS
from ..statblocks import Computed, compute_campaign

PathsArg = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Definition files or campaign folders (default: the bundled example campaign).",
        show_default=False,
    ),
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help=f"Ruleset: {', '.join(RULESETS)} (default: the campaign's, else current).",
        show_default=False,
    ),
]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


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


def blocking_errors(computed: Computed) -> list[Problem]:
    """Errors that make printed numbers misleading (an unknown crew member, too many
    minions). Printed values that differ from ours are `check`'s business, not a reason
    to refuse stat blocks or sheets."""
    return [p for p in computed.errors if "printed" not in (p.field or "").split(".")]


def campaign_paths(paths: list[Path] | None) -> list[Path]:
    """The paths given, or the bundled example campaign, said in one line on stderr (so a
    GM who forgot the folder does not mistake the example's numbers for their own)."""
    if paths:
        return paths
    from ..resources import examples_dir

    typer.echo("no campaign given: using the bundled example campaign", err=True)
    return [examples_dir()]


def load(
    paths: list[Path] | None, rules: str | None, memo: ParseMemo | None = None
) -> tuple[Campaign, Computed]:
    """Load and compute, turning every input problem into a clean exit 1."""
    _check_rules(rules)
    paths = campaign_paths(paths)
    try:
        campaign = load_campaign(paths, rules, memo)
    except InputError as err:
        fail(err.problems)
    return campaign, compute_campaign(campaign)


def choice(name: str, value: str | None, allowed: tuple[str, ...]) -> list[Problem]:
    if value is None or value in allowed:
        return []
    return [Problem(f"{name}: {value!r} is not one of {', '.join(allowed)}")]
