"""Resilience encounters as stat blocks: each event's opponents, computed by the rules.

An event card ends with its encounter ("a wiry leader and three helpers with pry-bar
spears"); ``content/resilience/encounters.yaml`` says who those people (or wolves) are, one
entry per event id, and a campaign may replace one by giving the same event id, as it
replaces events. Each encounter is computed on its own, as if its opponents were the only
NPCs of a campaign: names need only differ within one fight, and the opponents roll
initiative as one group named after the event.

Built-in opponents are built for average people (10 CP, at most level 4), so they are
checked against that budget whatever the campaign's own; a campaign's encounters are
checked against the campaign's, like its other characters.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from .content.loader import ContentEntry, merged_entries
from .definitions.campaign import Campaign, Located
from .definitions.models import CharacterDef, Encounter, Settings
from .definitions.resilience_models import Event
from .definitions.validation import Source
from .problems import Problem
from .statblocks import Computed, compute_campaign

BUILTIN_FILE = "resilience/encounters.yaml"


@dataclass(frozen=True)
class Arriving:
    """Reinforcements: when they join, and their computed blocks. They roll initiative as
    a group of their own, named after the event, from the round they arrive."""

    joins: str
    computed: Computed


@dataclass(frozen=True)
class EventEncounter:
    """One event and the computed blocks of its opponents (and of any reinforcements)."""

    event: Event
    encounter: Encounter
    computed: Computed
    builtin: bool
    reinforcements: tuple[Arriving, ...] = ()


def _opponents_campaign(
    campaign: Campaign,
    event: Event,
    entry: ContentEntry,
    opponents: Sequence[CharacterDef],
    path: tuple[str | int, ...],
) -> Campaign:
    # Built-ins: average people whatever the campaign's budget, positions unknown.
    source = entry.source or Source(BUILTIN_FILE, (), {})
    settings = campaign.settings
    if entry.source is None:
        settings = Settings(rules=campaign.settings.rules)
    located = [
        Located(
            opponent.model_copy(update={"group": event.title}),
            Source(source.file, (*source.path, *path, index), source.positions),
        )
        for index, opponent in enumerate(opponents)
    ]
    return Campaign(root=campaign.root, settings=settings, characters=located)


def compute_encounters(campaign: Campaign, rules_name: str | None = None) -> list[EventEncounter]:
    """Every event of the deck that has an encounter entry, in deck order."""
    by_event = {entry.id: entry for entry in merged_entries(campaign, "encounters")}
    out: list[EventEncounter] = []
    for event_entry in merged_entries(campaign, "events"):
        event: Event = event_entry.definition
        entry = by_event.get(event.id)
        if entry is None:
            continue
        encounter: Encounter = entry.definition
        computed = compute_campaign(
            _opponents_campaign(campaign, event, entry, encounter.opponents, ("opponents",)),
            rules_name,
        )
        arriving = tuple(
            Arriving(
                later.joins,
                compute_campaign(
                    _opponents_campaign(
                        campaign, event, entry, later.opponents,
                        ("reinforcements", number, "opponents"),
                    ),
                    rules_name,
                ),
            )
            for number, later in enumerate(encounter.reinforcements)
        )  # fmt: skip
        out.append(EventEncounter(event, encounter, computed, entry.source is None, arriving))
    return out


def encounter_problems(campaign: Campaign) -> list[Problem]:
    """For ``scratchpress check``: what the rules say about the campaign's own encounters
    (budget, minions, printed values), and encounters whose event is in no deck."""
    problems: list[Problem] = []
    events = {entry.id for entry in merged_entries(campaign, "events")}
    for located in campaign.encounters:
        encounter: Encounter = located.definition
        if encounter.event not in events:
            problems.append(
                Problem(
                    f"no event has the id {encounter.event!r}, so this encounter is not printed",
                    located.source.file,
                    located.source.line("event"),
                    encounter.event,
                    "event",
                    "warning",
                )
            )
    by_event = {entry.id: entry.definition for entry in merged_entries(campaign, "events")}
    for located in campaign.encounters:
        encounter = located.definition
        event = by_event.get(encounter.event)
        if event is None:
            continue
        choices = [c.choice for c in event.decision.choices]
        for branch in encounter.branches:
            if branch not in choices:
                problems.append(
                    Problem(
                        f"{branch!r} is not a choice of {event.title!r} ("
                        + "; ".join(repr(c) for c in choices)
                        + "), so its line is not printed",
                        located.source.file,
                        located.source.line("branches", branch),
                        encounter.event,
                        f"branches.{branch}",
                        "warning",
                    )
                )
    own = {str(located.definition.event) for located in campaign.encounters}
    for found in compute_encounters(campaign):
        if found.event.id not in own:
            continue
        # The rules name fields within one character; in the file it is one opponent of
        # the encounter entry (or of one of its reinforcements).
        sides = [("opponents", found.encounter.opponents, found.computed)]
        sides += [
            (f"reinforcements.{n}.opponents", later.opponents, arriving.computed)
            for n, (later, arriving) in enumerate(
                zip(found.encounter.reinforcements, found.reinforcements, strict=True)
            )
        ]
        for prefix, opponents, computed in sides:
            index = {o.name: i for i, o in enumerate(opponents)}
            for problem in computed.problems:
                at = index.get(problem.entry or "")
                if at is not None:
                    inner = f".{problem.field}" if problem.field else ""
                    problem = dataclasses.replace(problem, field=f"{prefix}.{at}{inner}")
                problems.append(problem)
    return problems


__all__ = ["Arriving", "EventEncounter", "compute_encounters", "encounter_problems"]
