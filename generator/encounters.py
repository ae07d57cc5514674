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
from dataclasses import dataclass

from .content.loader import ContentEntry, merged_entries
from .definitions.campaign import Campaign, Located
from .definitions.models import Encounter, Settings
from .definitions.resilience_models import Event
from .definitions.validation import Source
from .problems import Problem
from .statblocks import Computed, compute_campaign

BUILTIN_FILE = "resilience/encounters.yaml"


@dataclass(frozen=True)
class EventEncounter:
    """One event and the computed blocks of its opponents."""

    event: Event
    encounter: Encounter
    computed: Computed
    builtin: bool


def _opponents_campaign(campaign: Campaign, event: Event, entry: ContentEntry) -> Campaign:
    encounter: Encounter = entry.definition
    # Built-ins: average people whatever the campaign's budget, positions unknown.
    source = entry.source or Source(BUILTIN_FILE, (), {})
    settings = campaign.settings
    if entry.source is None:
        settings = Settings(rules=campaign.settings.rules)
    opponents = [
        Located(
            opponent.model_copy(update={"group": event.title}),
            Source(source.file, (*source.path, "opponents", index), source.positions),
        )
        for index, opponent in enumerate(encounter.opponents)
    ]
    return Campaign(root=campaign.root, settings=settings, characters=opponents)


def compute_encounters(campaign: Campaign, rules_name: str | None = None) -> list[EventEncounter]:
    """Every event of the deck that has an encounter entry, in deck order."""
    by_event = {entry.id: entry for entry in merged_entries(campaign, "encounters")}
    out: list[EventEncounter] = []
    for event_entry in merged_entries(campaign, "events"):
        event: Event = event_entry.definition
        entry = by_event.get(event.id)
        if entry is None:
            continue
        computed = compute_campaign(_opponents_campaign(campaign, event, entry), rules_name)
        out.append(EventEncounter(event, entry.definition, computed, entry.source is None))
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
    own = {str(located.definition.event) for located in campaign.encounters}
    for found in compute_encounters(campaign):
        if found.event.id not in own:
            continue
        # The rules name fields within one character; in the file it is one opponent of
        # the encounter entry.
        index = {o.name: i for i, o in enumerate(found.encounter.opponents)}
        for problem in found.computed.problems:
            at = index.get(problem.entry or "")
            if at is not None:
                inner = f".{problem.field}" if problem.field else ""
                problem = dataclasses.replace(problem, field=f"opponents.{at}{inner}")
            problems.append(problem)
    return problems


__all__ = ["EventEncounter", "compute_encounters", "encounter_problems"]
