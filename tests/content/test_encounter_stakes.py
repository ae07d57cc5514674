"""Every built-in encounter can be run cold: a GM who reads it before the session knows
what kind of scene it is, what the opponents want, when they break off, what winning and
losing change for the PCs and for a defense, and how the community's decision changes
the scene. Every opponent the story arms can attack, and everyone who joins the fight
has a stat block.
"""

from __future__ import annotations

import re
from collections import Counter

from scratchpress.content.loader import builtin_content, builtin_encounters
from scratchpress.definitions.campaign import Campaign
from scratchpress.definitions.models import (
    ENCOUNTER_SHAPES,
    CharacterDef,
    Encounter,
    Settings,
)
from scratchpress.definitions.resilience_models import Event
from scratchpress.encounters import compute_encounters
from scratchpress.rules.character import CharacterStats

ATTACKS = {"fighting", "wrestling", "knockout", "shooting", "blasting"}
# A card that brings more people in ("two more enforcers join the encounter").
JOINS = re.compile(r"\bjoins? the encounter", re.IGNORECASE)


def _everyone(encounter: Encounter) -> list[tuple[str, CharacterDef | object]]:
    """(name, definition) of every opponent, minion group and reinforcement."""
    people: list[tuple[str, CharacterDef | object]] = []
    sides = [encounter.opponents, *(r.opponents for r in encounter.reinforcements)]
    for side in sides:
        for opponent in side:
            people.append((opponent.name, opponent))
            people += [(minion.name, minion) for minion in opponent.minions]
    return people


def complaints(event: Event, encounter: Encounter) -> list[str]:
    """What keeps a GM from running this encounter cold (empty when nothing does)."""
    out: list[str] = []
    for field in ("shape", "scene", "want", "break_off", "win", "lose"):
        if getattr(encounter, field) is None:
            out.append(f"no {field}")
    if not encounter.branches:
        out.append("no branch: say how at least one decision choice changes the scene")
    choices = [c.choice for c in event.decision.choices]
    out += [f"branch {b!r} is not one of {choices}" for b in encounter.branches if b not in choices]
    if encounter.win and encounter.lose:
        won, lost = sum(encounter.win.defenses.values()), sum(encounter.lose.defenses.values())
        if won < 0 or lost > 0 or won <= lost:
            out.append(f"winning ({won:+}) must leave the town better off than losing ({lost:+})")
    for name, person in _everyone(encounter):
        abilities = set(getattr(person, "abilities", {}))
        unarmed = "unarmed" in (getattr(person, "description", None) or "").lower()
        if not abilities & ATTACKS and not unarmed:
            out.append(f"{name} cannot attack (give an attack ability or say 'unarmed')")
    stories = " ".join(c.consequence for c in event.decision.choices)
    stories += " " + event.challenge.success + " " + event.challenge.failure
    if JOINS.search(stories) and not encounter.reinforcements:
        out.append("the card brings people into the encounter: give them as reinforcements")
    return out


def test_every_encounter_can_be_run_cold() -> None:
    events = {e.id: e for e in builtin_content().events}
    found = {e.event: complaints(events[e.event], e) for e in builtin_encounters()}
    assert {event: said for event, said in found.items() if said} == {}


def test_a_complaint_is_raised_for_what_is_missing() -> None:
    # The check itself: an encounter with opponents only, one of them unable to attack.
    event = builtin_content().events[0]
    bare = Encounter(
        event=event.id,
        opponents=[CharacterDef(name="Clerk", abilities={"toughness": 3, "detection": 3})],
        branches={"No such choice": "nothing"},
    )
    said = complaints(event, bare)
    assert "no want" in said and "no break_off" in said
    assert any("Clerk cannot attack" in s for s in said)
    assert any("is not one of" in s for s in said)


def test_the_encounters_come_in_many_shapes_not_one_template() -> None:
    encounters = builtin_encounters()
    shapes = Counter(e.shape for e in encounters)
    assert len(shapes) >= 6 and set(shapes) <= set(ENCOUNTER_SHAPES), shapes
    assert max(shapes.values()) <= 12, shapes
    # The old template: one leader with two minions beside ordinary people. At most a
    # third of the encounters may still be built that way.
    leader_bands = sum(
        1
        for e in encounters
        if sum(1 for o in e.opponents if o.minions) == 1 and len(e.opponents) >= 2
    )
    assert leader_bands <= len(encounters) // 3, leader_bands


def test_reinforcements_are_average_people_computed_by_the_rules() -> None:
    found = compute_encounters(Campaign(root=None, settings=Settings()))
    arriving = [a for f in found for a in f.reinforcements]
    assert len(arriving) >= 6
    for later in arriving:
        assert later.joins and later.computed.problems == []
        for block in later.computed.of_kind("character"):
            assert isinstance(block.stats, CharacterStats)
            assert block.stats.cp == 10 and max(a.level for a in block.stats.abilities) <= 4


def test_a_beast_pack_has_one_leader() -> None:
    [wolves] = [e for e in builtin_encounters() if e.event == "hard-winter"]
    assert sum(1 for o in wolves.opponents if "command" in o.abilities) == 1
