"""What `scratchpress check` says about marks and factions a campaign writes.

A mark is a named consequence: an answer `leaves` it, a later card `remembers` it, a
community's history holds it (a year's `choice`, or its `marks`). A faction names the events
it appears in. Each of these refers to something by id or by words, and a reference that
finds nothing is silently dead at the table: the line never comes up, the card never says
who is behind it. So each gets a warning on its own line.
"""

from __future__ import annotations

from ..definitions.campaign import Campaign
from ..definitions.models import CommunityDef
from ..definitions.resilience_models import Event, answer_named, events_by_name, marks_left
from ..problems import Problem
from .loader import merged_entries


def mark_problems(campaign: Campaign) -> list[Problem]:
    """Warnings for the campaign's own community histories, factions and events (the
    order a campaign file usually gives them)."""
    events: list[Event] = [entry.definition for entry in merged_entries(campaign, "events")]
    left = marks_left(events)
    ids = {e.id for e in events}
    problems: list[Problem] = []
    by_name = events_by_name(events)
    for located in campaign.communities:
        community: CommunityDef = located.definition
        for index, year in enumerate(community.history):
            event = by_name.get(year.event.strip().casefold())
            if year.choice and event is not None and answer_named(event, year.choice) is None:
                choices = [c.choice for c in event.decision.choices]
                problems.append(
                    Problem(
                        f"{year.choice!r} is not an answer of {event.title!r} ("
                        + "; ".join(repr(c) for c in choices)
                        + "), so no mark it leaves joins the history",
                        located.source.file,
                        located.source.line("history", index, "choice"),
                        community.name,
                        f"history.{index}.choice",
                        "warning",
                    )
                )
            for at, mark in enumerate(year.marks):
                if mark not in left:
                    problems.append(
                        Problem(
                            f"no answer on the deck leaves the mark {mark!r}, so no card"
                            " reads it",
                            located.source.file,
                            located.source.line("history", index, "marks", at),
                            community.name,
                            f"history.{index}.marks.{at}",
                            "warning",
                        )
                    )
    for located in campaign.factions:
        for index, event_id in enumerate(located.definition.appears_in):
            if event_id not in ids:
                problems.append(
                    Problem(
                        f"no event has the id {event_id!r}",
                        located.source.file,
                        located.source.line("appears_in", index),
                        located.definition.name,
                        f"appears_in.{index}",
                        "warning",
                    )
                )
    for located in campaign.events:
        own: Event = located.definition
        for index, memory in enumerate(own.remembers):
            if memory.mark not in left:
                problems.append(
                    Problem(
                        f"no answer on the deck leaves the mark {memory.mark!r}, so this line"
                        " never comes up",
                        located.source.file,
                        located.source.line("remembers", index, "mark"),
                        own.title,
                        f"remembers.{index}.mark",
                        "warning",
                    )
                )
    return problems


__all__ = ["mark_problems"]
