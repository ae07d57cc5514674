"""``scratchpress resilience``: table aids for Resilience, thin over the public API.

* ``project`` checks a community project against the rules (size by number of players,
  development and sacrifice limits) and gives its difficulty.
* ``draw`` draws the year's events at random, reproducibly: ``random.Random(seed)`` samples
  the sorted event ids, so one seed gives the same events on every machine. With ``-o`` it
  writes a GM year sheet per event.
* ``simulate`` plays a community through many years with the deck (``rules/simulate.py``)
  and reports how its defenses spread, to tune the deck and to show a group what to expect.

Without a CAMPAIGN, each command uses the campaign the GM stands in (this folder or the
nearest above it with a scratchpress.toml), as every command does. Where ``--community``
finds a community: an existing file or folder is read as a campaign and must hold exactly
one community (or give CAMPAIGN and ``--community NAME``); anything else is a community
name, looked up (in any case) in CAMPAIGN, else in the campaign stood in, else in the
bundled example. Its values "now" are its founding values with its logged projects and
history applied (see :mod:`scratchpress.resilience`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Literal

import typer

from .. import api
from ..problems import InputError
from .common import choice, echo, echo_json, fail, stop, write_output

resilience_app = typer.Typer(
    name="resilience",
    help="Resilience at the table: check a community project, draw the year's events,"
    " simulate years of play.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

MAX_YEARS = 100  # a campaign of a hundred years is already a saga
MAX_RUNS = 100_000  # several minutes of play; more adds digits, not knowledge


# ------------------------------------------------------------------------------ project


LEVELS_SYNTAX = re.compile(r"^\s*([A-Za-z][A-Za-z _-]*?)\s*=\s*([+-]?\d+)\s*$")


def parse_levels(values: Sequence[str], option: str) -> tuple[dict[str, int], list[str]]:
    """``["economy=5", "equity=1"]`` -> ``{"economy": 5, "equity": 1}`` plus error lines."""
    levels: dict[str, int] = {}
    errors: list[str] = []
    for value in values:
        match = LEVELS_SYNTAX.match(value)
        if match is None:
            errors.append(f"{option} {value!r}: write defense=levels, e.g. {option} economy=5")
            continue
        name, number = match.group(1).strip().lower(), int(match.group(2))
        if name not in api.DEFENSES:
            hint = api.closest(name, api.DEFENSES)
            errors.append(
                f"{option} {value!r}: {name!r} is not a defense"
                + (f" (did you mean {hint!r}?)" if hint else "")
                + "; use economy, environment or equity"
            )
            continue
        if number < 1:
            errors.append(f"{option} {value!r}: levels must be a whole number, 1 or more")
            continue
        if name in levels:
            errors.append(f"{option}: {name} is given twice; give it once with the total")
            continue
        levels[name] = number
    return levels, errors


@resilience_app.command()
def project(
    develop: Annotated[
        list[str] | None,
        typer.Option(
            "--develop",
            "-d",
            help="Levels developed, as defense=levels (repeat: -d economy=2 -d equity=1).",
            show_default=False,
        ),
    ] = None,
    sacrifice: Annotated[
        list[str] | None,
        typer.Option(
            "--sacrifice",
            "-s",
            help="Levels sacrificed, as defense=levels (repeatable).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            help="Number of players, 1-7 (default: the community's players:).",
            show_default=False,
        ),
    ] = None,
    community: Annotated[
        str | None,
        typer.Option(
            "--community",
            "-c",
            help="A campaign file or folder with one community, or a community's name"
            " (looked up in CAMPAIGN, else in the campaign here, else in the bundled"
            " example campaign).",
            show_default=False,
        ),
    ] = None,
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign whose community to use: its only one, or the one --community"
            " names (default: the campaign here, found as every command finds it).",
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check a community project against the rules and give its difficulty.

    Difficulty = 7 + 2 × levels developed - 5 × levels sacrificed; 1 or less succeeds
    automatically. Exits 1 naming every broken rule.

    Example: scratchpress resilience project my-campaign -d economy=2 -s equity=1
    """
    developed, errors = parse_levels(develop or [], "--develop")
    sacrificed, more = parse_levels(sacrifice or [], "--sacrifice")
    errors += more
    if errors:
        stop(errors, 2)
    try:
        report, broken = api.size_project(players, developed, sacrificed, community, campaign)
    except api.UsageError as err:
        stop([str(err)], 2)
    except InputError as err:
        stop([str(p) for p in err.problems])
    if report:
        if as_json:
            echo_json(report)
        else:
            echo(api.project_text(report))
    if broken:
        stop([f"broken rule: {p}" for p in broken])


# ------------------------------------------------------------------------------ draw


@resilience_app.command()
def draw(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign folder or file whose own events: join the built-in ones"
            " (default: the campaign here, else the built-in events only).",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed",
            help="Same seed, same events on every machine (a number or any word;"
            " default: a new one, printed so the draw can be repeated).",
            show_default=False,
        ),
    ] = None,
    years: Annotated[int, typer.Option("--years", "-y", help="How many events to draw.")] = 1,
    first_year: Annotated[
        int | None,
        typer.Option(
            "--first-year",
            help="Number of the first drawn year (default: the year after the campaign's"
            " last logged year, else 1).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Write a GM year sheet per event to this PDF.",
            show_default=False,
        ),
    ] = None,
    paper: Annotated[
        api.Paper | None, choice("paper", "Paper size (default: the campaign's, else letter).")
    ] = None,
    ink_saver: Annotated[
        bool, typer.Option("--ink-saver", help="No filled backgrounds, greys instead of colour.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an -o file that we did not write.")
    ] = False,
) -> None:
    """Draw this year's events at random, without repeats and none already in history.

    Example: scratchpress resilience draw my-campaign --years 3 --seed harvest -o year.pdf
    """
    if output is not None and output.is_dir():
        stop([f"-o {output}: is a folder; give a file name such as year-sheets.pdf"], 2)
    try:
        drawn = api.draw(campaign, years, seed, first_year)
    except api.UsageError as err:
        stop([str(err)], 2)
    except InputError as err:
        stop([str(p) for p in err.problems])
    if as_json:
        payload = {
            "seed": drawn.seed,
            "pool": drawn.pool,
            "events": [
                api.event_json(year, event, drawn.pages.get(event.id), drawn.marks)
                for year, event in drawn.years
            ],
        }
        echo_json(payload)
    else:
        echo(
            f"Seed {drawn.seed}: {len(drawn.years)} of {drawn.pool} events"
            f" (draw them again with --seed {drawn.seed})"
        )
        for index, (year, event) in enumerate(drawn.years):
            echo("")
            now = drawn.now if index == 0 else None
            echo(api.event_text(year, event, now, drawn.pages.get(event.id), drawn.marks))
    if output is None:
        return
    given = {"paper": paper, "ink_saver": ink_saver or None}
    report = api.year_sheets(drawn, output, given, force=force)
    for warning in report.warnings:
        echo(f"warning: {warning}", err=True)
    if report.problems or not report.written:
        fail(report.problems)
    pages = report.pages
    typer.echo(f"wrote {output} ({pages} page{'s' if pages != 1 else ''})", err=True)


# ------------------------------------------------------------------------------ simulate


@resilience_app.command()
def simulate(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign whose events, community and player characters to play"
            " (default: the campaign here, else the built-in deck from 10/10/10 with"
            " 4 players).",
            show_default=False,
        ),
    ] = None,
    years: Annotated[int, typer.Option("--years", "-y", help="Years each run plays.")] = 10,
    runs: Annotated[int, typer.Option("--runs", help="Communities played.")] = 1000,
    seed: Annotated[
        str, typer.Option("--seed", help="Same seed, same numbers (a number or any word).")
    ] = "1",
    policy: Annotated[
        Literal["passive", "balanced", "greedy", "story", "timid", "career", "no-sacrifice"],
        typer.Option(
            "--policy",
            help="How the table plays: passive (no projects), balanced (shore up the"
            " weakest defense), greedy (economy first), story (choices and project ideas"
            " for the story, not the numbers), timid (the safest answer, only likely"
            " projects), career (each player develops what their career favors),"
            " no-sacrifice (never gives a level up).",
            case_sensitive=False,
        ),
    ] = "balanced",
    stop_at_win: Annotated[
        bool,
        typer.Option(
            "--stop-at-win",
            help="End a run when the community stands at 15/15/15 at a year's end, as the"
            " text's tentative success ends the game.",
        ),
    ] = False,
    png: Annotated[
        Path | None,
        typer.Option(
            "--png", help="Also draw the three E's by year to this PNG file.", show_default=False
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play a community through the years many times, to see what the deck does.

    Each year follows the rules' order: event, challenge, decision, attack, projects,
    evaluation. Reports each defense's spread by year, the chance of ruin (a defense at
    0) and of 15/15/15 by each year, and each event's expected damage.

    Example: scratchpress resilience simulate --years 10 --runs 2000 --policy greedy
    """
    errors = []
    if years < 1 or years > MAX_YEARS:
        errors.append(f"--years must be 1 to {MAX_YEARS}, not {years}")
    if runs < 1 or runs > MAX_RUNS:
        errors.append(f"--runs must be 1 to {MAX_RUNS}, not {runs}")
    if png is not None and png.is_dir():
        errors.append(f"--png {png}: is a folder; give a file name such as year.png")
    if errors:
        stop(errors, 2)
    try:
        result, name = api.simulate(campaign, years, runs, seed, policy, stop_at_win)
    except api.UsageError as err:
        stop([str(err)], 2)
    except InputError as err:
        stop([str(p) for p in err.problems])
    if as_json:
        echo_json(result.to_json())
    else:
        echo(api.simulation_text(result, name))
    if png is not None:
        write_output(png, api.simulation_png(result))
        typer.echo(f"wrote {png}", err=True)


__all__ = ["parse_levels", "resilience_app", "simulate"]
