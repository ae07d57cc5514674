"""``scratchpress resilience``: table aids for Resilience, thin over the rules and content.

* ``project`` checks a community project against the rules (size by number of players,
  development and sacrifice limits) and gives its difficulty.
* ``draw`` draws the year's events at random, reproducibly: ``random.Random(seed)`` samples
  the sorted event ids, so one seed gives the same events on every machine. With ``-o`` it
  writes a GM year sheet per event.
* ``simulate`` plays a community through many years with the deck (``rules/simulate.py``)
  and reports how its defenses spread, to tune the deck and to show a group what to expect.

Where ``--community`` finds a community: an existing file or folder is read as a campaign
and must hold exactly one community (or name one with ``--community NAME --campaign
PATH``); anything else is a community name, looked up (in any case) in ``--campaign`` or,
without it, in the bundled example campaign. Its values "now" are its founding values
with its logged projects and history applied (see ``documents/community.py``).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..definitions.campaign import Campaign, display_path, load_campaign
from ..definitions.models import CommunityDef, level_and_note
from ..definitions.resilience_models import Event
from ..documents.resilience_text import (
    FoundCommunity,
    event_json,
    event_text,
    project_report,
    project_text,
    simulation_png,
    simulation_text,
)
from ..problems import InputError, Problem
from ..rules.abilities import closest
from ..rules.community import DEFENSES, plan_project, project_size
from ..rules.year import draw_events, seed_value
from .common import Paper, looks_like_campaign, write_output

resilience_app = typer.Typer(
    name="resilience",
    help="Resilience at the table: check a community project, draw the year's events,"
    " simulate years of play.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

SEED_RANGE = 1_000_000  # seeds picked for the user stay short enough to read out
MAX_YEARS = 100  # a campaign of a hundred years is already a saga
MAX_RUNS = 100_000  # several minutes of play; more adds digits, not knowledge


def _stop(lines: Sequence[str], code: int = 1) -> NoReturn:
    """One line per problem on stderr, then a clean exit (never a traceback)."""
    for line in lines:
        typer.echo(line, err=True)
    raise typer.Exit(code)


def _problems(problems: Sequence[Problem]) -> NoReturn:
    _stop([str(p) for p in problems])


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
        if name not in DEFENSES:
            hint = closest(name, DEFENSES)
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


def find_community(ref: str, campaign_path: Path | None) -> FoundCommunity:
    """The community ``--community`` names (see the module docstring); exits on problems."""
    from ..documents.community import current_defenses
    from ..resources import examples_dir

    as_path = Path(ref)
    by_path = as_path.exists()
    if by_path and campaign_path is not None:
        _stop([f"--community {ref!r} is a path; with a CAMPAIGN, give a community name"], 2)
    here = Path(".") if looks_like_campaign(Path.cwd()) else None
    source = as_path if by_path else (campaign_path or here or examples_dir())
    campaign = _load([source])
    communities = [c.definition for c in campaign.communities]
    where = display_path(source)
    if by_path:
        if len(communities) != 1:
            listed = ", ".join(c.name for c in communities) or "none"
            _stop(
                [
                    f"{where} holds {len(communities)} communities ({listed}); name one:"
                    f" {where} --community NAME"
                ],
                2,
            )
        found = communities[0]
    else:
        match = [c for c in communities if c.name.casefold() == ref.strip().casefold()]
        if not match:
            names = tuple(c.name for c in communities)
            hint = closest(ref.casefold(), tuple(n.casefold() for n in names))
            shown = next((n for n in names if n.casefold() == hint), None)
            _stop(
                [
                    f"no community named {ref!r} in {where}"
                    + (f' (did you mean "{shown}"?)' if shown else "")
                    + (f"; communities: {', '.join(names)}" if names else "; it has none")
                ],
                2,
            )
        found = match[0]
    return FoundCommunity(found.name, found, current_defenses(found))


def _load(paths: list[Path]) -> Campaign:
    try:
        return load_campaign(paths)
    except InputError as err:
        _problems(err.problems)


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
            " (looked up in CAMPAIGN, else in the bundled example campaign).",
            show_default=False,
        ),
    ] = None,
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign whose community to use: its only one, or the one --community"
            " names (default: this folder if it holds a campaign, else the example).",
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
        _stop(errors, 2)
    if community is None and campaign is not None:
        community, campaign = str(campaign), None  # the campaign's one community
    found = find_community(community, campaign) if community is not None else None
    if players is None:
        players = found.definition.players if found is not None else None
        if players is None:
            _stop(["--players is required (1-7), or a --community that sets players:"], 2)
    try:
        project_size(players)
    except ValueError as err:
        _stop([f"broken rule: {err}"])
    plan = plan_project(players, developed, sacrificed, found.now if found else None)
    report = project_report(plan, players, found)
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        typer.echo(project_text(report))
    if plan.problems:
        _stop([f"broken rule: {p}" for p in plan.problems])


# ------------------------------------------------------------------------------ draw


def _campaign_and_events(campaign: Path | None) -> tuple[Campaign | None, list[Event]]:
    """The campaign given, else the one this folder holds (as build uses it), else none;
    and every event it plays with: the built-in deck and its own. Exits on problems."""
    from ..content.loader import resilience_content

    if campaign is None and looks_like_campaign(Path.cwd()):
        campaign = Path(".")
    loaded = _load([campaign]) if campaign is not None else None
    try:
        return loaded, resilience_content(loaded).events
    except InputError as err:
        _problems(err.problems)


def _campaign_community(campaign: Campaign | None) -> CommunityDef | None:
    """The campaign's community when there is exactly one, for numbering and "before"."""
    if campaign is None or len(campaign.communities) != 1:
        return None
    definition: CommunityDef = campaign.communities[0].definition
    return definition


@resilience_app.command()
def draw(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign folder or file whose own events: join the built-in ones"
            " (default: the built-in events only).",
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
        Paper | None,
        typer.Option(
            help="Paper size (default: the campaign's, else letter).", case_sensitive=False
        ),
    ] = None,
    ink_saver: Annotated[
        bool, typer.Option("--ink-saver", help="No filled backgrounds, greys instead of colour.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Draw this year's events at random, without repeats.

    Example: scratchpress resilience draw my-campaign --years 3 --seed harvest -o year.pdf
    """
    from ..documents.community import current_defenses, latest_year

    errors = []
    if first_year is not None and first_year < 1:
        errors.append(f"--first-year must be 1 or more, not {first_year}")
    if output is not None and output.is_dir():
        errors.append(f"-o {output}: is a folder; give a file name such as year-sheets.pdf")
    if errors:
        _stop(errors, 2)
    loaded, events = _campaign_and_events(campaign)
    chosen_seed: int | str = (
        seed_value(seed) if seed is not None else random.SystemRandom().randrange(SEED_RANGE)
    )
    try:
        drawn = draw_events(events, years, chosen_seed)
    except ValueError as err:
        _stop([str(err)], 2)
    community = _campaign_community(loaded)
    start = (
        first_year
        if first_year is not None
        else (latest_year(community) + 1 if community is not None else 1)
    )
    now = current_defenses(community) if community is not None else None
    numbered = list(enumerate(drawn, start))
    if as_json:
        payload = {
            "seed": chosen_seed,
            "pool": len(events),
            "events": [event_json(year, event) for year, event in numbered],
        }
        typer.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        typer.echo(
            f"Seed {chosen_seed}: {len(drawn)} of {len(events)} events"
            f" (draw them again with --seed {chosen_seed})"
        )
        for index, (year, event) in enumerate(numbered):
            typer.echo("")
            typer.echo(event_text(year, event, now if index == 0 else None))
    if output is not None:
        _write_year_sheets(
            output, numbered, community, now, loaded, paper.value if paper else None, ink_saver
        )


def _write_year_sheets(
    output: Path,
    numbered: list[tuple[int, Event]],
    community: CommunityDef | None,
    now: dict[str, int] | None,
    campaign: Campaign | None,
    paper: str | None,
    ink_saver: bool,
) -> None:
    from ..documents.base import BuildOptions
    from ..documents.community import render_year_sheets

    chosen_paper = paper or (campaign.settings.paper if campaign is not None else "letter")
    options = BuildOptions(paper=chosen_paper, ink_saver=ink_saver)  # type: ignore[arg-type]
    rendered = render_year_sheets(numbered, community, now, campaign, options)
    for warning in rendered.warnings:
        typer.echo(f"warning: {output.name}: {warning}", err=True)
    write_output(output, rendered.pdf)
    pages = rendered.pages
    typer.echo(f"wrote {output} ({pages} page{'s' if pages != 1 else ''})", err=True)


# ------------------------------------------------------------------------------ simulate

DEFAULT_START = {"economy": 10, "environment": 10, "equity": 10}  # the rules' average
DEFAULT_PLAYERS = 4


class PolicyName(StrEnum):
    passive = "passive"
    balanced = "balanced"
    greedy = "greedy"


def _party_levels(campaign: Campaign | None) -> dict[str, int] | None:
    """The player characters' best level in each ability (None: no player characters)."""
    if campaign is None:
        return None
    best: dict[str, int] = {}
    for located in campaign.characters:
        character = located.definition
        if not character.player:
            continue
        for ability, value in character.abilities.items():
            level, _ = level_and_note(value)
            best[ability] = max(best.get(ability, 0), level)
    return best or None


@resilience_app.command()
def simulate(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign whose events, community and player characters to play"
            " (default: this folder if it holds a campaign, else the built-in deck from"
            " 10/10/10 with 4 players).",
            show_default=False,
        ),
    ] = None,
    years: Annotated[int, typer.Option("--years", "-y", help="Years each run plays.")] = 10,
    runs: Annotated[int, typer.Option("--runs", help="Communities played.")] = 1000,
    seed: Annotated[
        str, typer.Option("--seed", help="Same seed, same numbers (a number or any word).")
    ] = "1",
    policy: Annotated[
        PolicyName,
        typer.Option(
            "--policy",
            help="How the players play: passive (no projects), balanced (shore up the"
            " weakest defense), greedy (economy first).",
            case_sensitive=False,
        ),
    ] = PolicyName.balanced,
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
    evaluation. Reports each defense's spread by year, the chance that any falls below
    the creation minimum of 5, and each event's expected damage.

    Example: scratchpress resilience simulate --years 10 --runs 2000 --policy greedy
    """
    from ..documents.community import current_defenses, latest_year
    from ..rules.simulate import simulate as play

    errors = []
    if years < 1 or years > MAX_YEARS:
        errors.append(f"--years must be 1 to {MAX_YEARS}, not {years}")
    if runs < 1 or runs > MAX_RUNS:
        errors.append(f"--runs must be 1 to {MAX_RUNS}, not {runs}")
    if png is not None and png.is_dir():
        errors.append(f"--png {png}: is a folder; give a file name such as year.png")
    if errors:
        _stop(errors, 2)
    loaded, events = _campaign_and_events(campaign)
    community = _campaign_community(loaded)
    start = current_defenses(community) if community is not None else dict(DEFAULT_START)
    players = (community.players if community is not None else None) or DEFAULT_PLAYERS
    try:
        result = play(
            events,
            start,
            players,
            years,
            runs,
            seed_value(seed),
            policy.value,
            _party_levels(loaded),
            # A campaign in play goes on from its next year, when the years are harder.
            first_year=latest_year(community) + 1 if community is not None else 1,
        )
    except ValueError as err:
        _stop([str(err)], 2)
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    else:
        typer.echo(simulation_text(result, community.name if community else None))
    if png is not None:
        write_output(png, simulation_png(result))
        typer.echo(f"wrote {png}", err=True)


__all__ = ["find_community", "parse_levels", "resilience_app", "simulate"]
