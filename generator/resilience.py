"""Resilience at the table: the community a command means, the events a campaign plays
with, and the party the simulation plays.

What ``resilience project``, ``draw`` and ``simulate`` share, below the public API
(:mod:`scratchpress.api`) and above the rules: it reads campaigns and asks the community
view model what a community holds now, so it sits in the build's layer.

Where a community is found: an existing file or folder is read as a campaign and must hold
exactly one community (or the reference names one in the campaign given); anything else is
a community name, looked up (in any case) in the campaign given or, without it, in the
campaign found from the current folder, else in the bundled example. Its values "now" are
its founding values with its logged projects and history applied.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from .content.loader import resilience_content
from .definitions.campaign import Campaign, load_campaign
from .definitions.files import display_path
from .definitions.models import BuildOptions, CommunityDef, Settings
from .definitions.resilience_models import Event, Mark
from .documents.community import current_defenses, latest_year
from .documents.encounters import encounter_pages
from .documents.resilience_text import (
    FoundCommunity,
    history_marks,
    only_community,
)
from .problems import UsageError
from .rules.abilities import closest
from .rules.year import draw_events, seed_value
from .wording import Wording, speaking

SEED_RANGE = 1_000_000  # seeds picked for the user stay short enough to read out


def find_community(ref: str, campaign_path: Path | None, here: Path | None) -> FoundCommunity:
    """The community ``ref`` names (see the module docstring). ``here`` is the campaign
    the user stands in, if any. Raises :class:`UsageError` for a reference that names
    nothing, :class:`InputError` for a campaign that cannot be read."""
    as_path = Path(ref)
    by_path = as_path.exists()
    if by_path and campaign_path is not None:
        raise UsageError(f"--community {ref!r} is a path; with a CAMPAIGN, give a community name")
    from .resources import examples_dir

    source = as_path if by_path else (campaign_path or here or examples_dir())
    campaign = load_campaign([source])
    communities = [c.definition for c in campaign.communities]
    where = display_path(source)
    if by_path:
        if len(communities) != 1:
            listed = ", ".join(c.name for c in communities) or "none"
            raise UsageError(
                f"{where} holds {len(communities)} communities ({listed}); name one:"
                f" {where} --community NAME"
            )
        found = communities[0]
    else:
        match = [c for c in communities if c.name.casefold() == ref.strip().casefold()]
        if not match:
            names = tuple(c.name for c in communities)
            hint = closest(ref.casefold(), tuple(n.casefold() for n in names))
            shown = next((n for n in names if n.casefold() == hint), None)
            raise UsageError(
                f"no community named {ref!r} in {where}"
                + (f' (did you mean "{shown}"?)' if shown else "")
                + (f"; communities: {', '.join(names)}" if names else "; it has none")
            )
        found = match[0]
    return FoundCommunity(found.name, found, current_defenses(found))


def campaign_and_events(campaign: Path | None) -> tuple[Campaign | None, list[Event]]:
    """The campaign (if any) and every event it plays with: the built-in deck and its own.
    Raises :class:`InputError`."""
    loaded = load_campaign([campaign]) if campaign is not None else None
    return loaded, resilience_content(loaded).events


@dataclass(frozen=True)
class Draw:
    """The year's events, numbered from their year, and the community they befall."""

    seed: int | str
    pool: int  # how many events the draw chose from
    years: list[tuple[int, Event]]
    campaign: Campaign | None
    community: CommunityDef | None
    now: dict[str, int] | None  # the community's defenses before the first drawn year
    # Event id -> the page of encounters.pdf with its opponents, as the campaign builds it.
    pages: dict[str, int] = field(default_factory=dict)
    # The marks in the community's history, by id: lines of the drawn cards they call up.
    marks: dict[str, Mark] = field(default_factory=dict)


def not_yet_played(events: list[Event], community: CommunityDef | None) -> list[Event]:
    """The events a community's history has not logged yet: a year's event is named in
    its history by title (or id), so a table never meets the same card twice."""
    if community is None:
        return events
    played = {year.event.strip().casefold() for year in community.history if year.event}
    return [e for e in events if e.title.casefold() not in played and e.id not in played]


def draw(campaign: Path | None, years: int, seed: str | None, first_year: int | None) -> Draw:
    """Draw ``years`` events without repeats, none that the campaign's community has
    already logged in its history. Without a seed one is picked (and kept in the result,
    so the draw can be repeated). Raises :class:`UsageError` for a draw that cannot be
    made, :class:`InputError` for a campaign that cannot be read."""
    if first_year is not None and first_year < 1:
        raise UsageError(f"--first-year must be 1 or more, not {first_year}")
    loaded, deck = campaign_and_events(campaign)
    events = not_yet_played(deck, only_community(loaded))
    chosen: int | str = (
        seed_value(seed) if seed is not None else random.SystemRandom().randrange(SEED_RANGE)
    )
    try:
        drawn = draw_events(events, years, chosen)
    except ValueError as err:
        raise UsageError(str(err)) from None
    community = only_community(loaded)
    start = (
        first_year
        if first_year is not None
        else (latest_year(community) + 1 if community is not None else 1)
    )
    now = current_defenses(community) if community is not None else None
    pages = opponents_pages(loaded, (loaded.settings if loaded else Settings()).build_options({}))
    held = history_marks(community, deck)
    return Draw(
        chosen, len(events), list(enumerate(drawn, start)), loaded, community, now, pages, held
    )


def opponents_pages(campaign: Campaign | None, options: BuildOptions) -> dict[str, int]:
    """Event id -> the page of ``encounters.pdf`` its opponents start on, when the campaign
    is built with ``options`` (its language and paper decide the pages)."""
    campaign = campaign if campaign is not None else Campaign(root=None, settings=Settings())
    with speaking(Wording(options.language, campaign.labels)):
        return encounter_pages(campaign, options)
