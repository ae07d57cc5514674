"""Resilience encounters: every event's opponents, computed by the rules and printed.

The examples are the event cards' own encounter lines: "a starving wolf pack, seven strong"
must be seven wolves, "two mastiffs" must be dogs, and a campaign that rewrites one
encounter replaces it by the event's id, as it replaces events.
"""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from pypdf import PdfReader

from scratchpress.build.run import allowed_roots
from scratchpress.content.loader import builtin_content, builtin_encounters
from scratchpress.definitions.campaign import Campaign, load_campaign
from scratchpress.definitions.models import (
    ENCOUNTER_SHAPES,
    BuildOptions,
    CharacterDef,
    Encounter,
    Settings,
)
from scratchpress.definitions.resilience_models import Event
from scratchpress.documents import encounters as encounters_doc
from scratchpress.encounters import compute_encounters, encounter_problems
from scratchpress.npcs import RosterSpec, archetype_book, generate, plan
from scratchpress.problems import InputError
from scratchpress.render.engine import render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import templates_dir
from scratchpress.rules.character import CharacterStats
from scratchpress.statblocks import compute_campaign

from conftest import Cli, WriteCampaign

EVENTS = builtin_content().events
NO_CAMPAIGN = Campaign(root=None, settings=Settings())


def _fighters(event_id: str) -> int:
    """Everyone the encounter puts on the table: characters and each of their minions."""
    [found] = [f for f in compute_encounters(NO_CAMPAIGN) if f.event.id == event_id]
    return sum(b.count for b in found.computed.blocks)


def test_every_event_has_an_encounter_with_opponents() -> None:
    by_event = {e.event: e for e in builtin_encounters()}
    assert sorted(by_event) == sorted(e.id for e in EVENTS)
    assert len(by_event) == len(builtin_encounters())  # one entry per event, no spares
    assert all(by_event[e.id].opponents for e in EVENTS)


@pytest.mark.parametrize("rules", ["current", "early", "classic"])
def test_every_opponent_computes_without_a_problem(rules: str) -> None:
    found = compute_encounters(NO_CAMPAIGN, rules)
    assert [f.event.id for f in found] == [e.id for e in EVENTS]
    for f in found:
        assert f.computed.problems == [], f.event.id
        # Average people: 10 CP, nothing above 4 (minions live on their leader's command).
        for block in f.computed.of_kind("character"):
            assert isinstance(block.stats, CharacterStats)
            assert block.stats.cp == 10, (f.event.id, block.name)
            assert max(a.level for a in block.stats.abilities) <= 4


def test_opponents_roll_initiative_as_one_group_named_after_the_event() -> None:
    for f in compute_encounters(NO_CAMPAIGN):
        assert [g.name for g in f.computed.groups] == [f.event.title]


def test_the_bands_are_as_big_as_the_cards_say() -> None:
    assert _fighters("hard-winter") == 7  # "a starving wolf pack, seven strong"
    assert _fighters("boiler-burst") == 4  # "a wiry leader and three helpers"
    assert _fighters("the-chained-pass") == 6  # a sergeant, four pikemen and a lookout
    assert _fighters("the-torch-riders") == 6  # the leader and five mounted riders


@pytest.mark.parametrize(
    ("event_id", "beasts"),
    [
        ("hard-winter", ["Scarred grey she-wolf", "Old dog wolf", "Lean wolf"]),
        ("snapped-belts", ["Brindle mastiff", "Black mastiff"]),
        ("bare-hills", ["Lead wolfhound", "Second wolfhound", "Third wolfhound"]),
        ("yellow-haze", ["Tracking dog"]),
        ("the-new-wall", ["Estate mastiff"]),
    ],
)
def test_where_a_card_names_wolves_or_dogs_the_encounter_has_them(
    event_id: str, beasts: list[str]
) -> None:
    [entry] = [e for e in builtin_encounters() if e.event == event_id]
    names = [o.name for o in entry.opponents]
    assert set(beasts) <= set(names)


def test_only_a_pack_leader_among_the_beasts_has_command() -> None:
    by_event = {e.event: e for e in builtin_encounters()}
    beasts = [
        o
        for event_id in ("snapped-belts", "bare-hills", "yellow-haze", "the-new-wall")
        for o in by_event[event_id].opponents
        if any(w in o.name.lower() for w in ("mastiff", "hound", "dog"))
    ]
    assert len(beasts) == 7
    assert not any("command" in o.abilities or o.minions for o in beasts)


REPLACED = """\
encounters:
  - event: boiler-burst
    opponents:
      - name: Night watchman gone bad
        abilities: {shooting: 3, toughness: 3, detection: 2}
events:
  - id: flood-year
    title: Flood Year
    threat: siege
    attacks: environment
    attack_bonus: 3
    damage: 2
    story: The river rises over the lower fields and stays there all spring.
    temporary: Every project near the river costs one more level.
    challenge: {ability: swimming, difficulty: 12, success: The dykes hold., failure: They break.}
    decision:
      prompt: Rebuild low or move uphill?
      choices:
        - {choice: Rebuild, consequence: Lose 1 economy.}
        - {choice: Move, consequence: Lose 1 equity.}
    encounter: Eel poachers work the drowned fields from a raft.
encounters:
  - event: flood-year
    opponents:
      - name: Eel poacher
        abilities: {fighting: 2, swimming: 3, toughness: 2}
"""


def test_a_campaign_replaces_an_encounter_by_its_event_id(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "encounters.yaml": REPLACED.split("events:")[0],
            "flood.yaml": "events:" + REPLACED.split("events:")[1],
        }
    )
    campaign = load_campaign([folder])
    found = {f.event.id: f for f in compute_encounters(campaign)}
    assert len(found) == len(EVENTS) + 1  # replaced in place, its own event's appended
    assert [b.name for b in found["boiler-burst"].computed.blocks] == ["Night watchman gone bad"]
    assert not found["boiler-burst"].builtin
    assert [b.name for b in found["flood-year"].computed.blocks] == ["Eel poacher"]
    assert list(found)[-1] == "flood-year"
    assert encounter_problems(campaign) == []


def test_an_encounter_for_no_event_is_a_warning(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "extra.yaml": """\
            encounters:
              - event: no-such-year
                opponents:
                  - {name: Stray, abilities: {toughness: 2}}
            """
        }
    )
    [problem] = encounter_problems(load_campaign([folder]))
    assert problem.severity == "warning"
    assert problem.line == 2
    assert "no event has the id 'no-such-year'" in problem.message


def test_a_campaigns_encounter_is_checked_against_its_budget(
    write_campaign: WriteCampaign,
) -> None:
    folder = write_campaign(
        {
            "extra.yaml": """\
            encounters:
              - event: boiler-burst
                opponents:
                  - {name: Foreman, abilities: {command: 1, toughness: 2},
                     minions: [{name: Lads, count: 2, abilities: {toughness: 1}}]}
            """
        }
    )
    [problem] = encounter_problems(load_campaign([folder]))
    assert problem.message == "minions cost 2 CP (2 x 1 CP), more than command 1"
    assert problem.line == 5 and problem.field == "opponents.0.minions"  # its minions: line


@pytest.mark.parametrize(
    ("opponent", "message"),
    [
        (
            "{name: Stray, group: Dogs, abilities: {toughness: 2}}",
            "opponents roll initiative together under the event's title",
        ),
        ("{name: Stray, abilities: {toughnes: 2}}", "unknown character ability 'toughnes'"),
    ],
)
def test_an_opponent_is_checked_like_any_character(
    write_campaign: WriteCampaign, opponent: str, message: str
) -> None:
    folder = write_campaign(
        {"extra.yaml": f"encounters:\n  - event: boiler-burst\n    opponents: [{opponent}]\n"}
    )
    with pytest.raises(InputError) as err:
        load_campaign([folder])
    assert any(message in p.message for p in err.value.problems), err.value.problems


def test_a_campaign_giving_one_event_two_encounters_is_refused(
    write_campaign: WriteCampaign,
) -> None:
    entry = "  - event: boiler-burst\n    opponents: [{name: A, abilities: {toughness: 2}}]\n"
    folder = write_campaign({"extra.yaml": "encounters:\n" + entry + entry})
    with pytest.raises(InputError) as err:
        compute_encounters(load_campaign([folder]))
    assert "duplicate encounter id 'boiler-burst'" in err.value.problems[0].message


# --------------------------------------------------------------------------------------------
# the printable


@pytest.fixture(scope="module")
def printed_text() -> str:
    campaign = NO_CAMPAIGN
    [document] = encounters_doc.documents(compute_campaign(campaign), campaign, BuildOptions())
    html = render_html(document.template, document.context)
    pdf = render_pdf(html, templates_dir(), allowed_roots(campaign)).pdf
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return "".join(text.split()).upper()  # names may wrap; headings are set in capitals


def test_the_printable_has_every_event_and_every_opponent(printed_text: str) -> None:
    for entry in builtin_encounters():
        for opponent in entry.opponents:
            assert "".join(opponent.name.split()).upper() in printed_text, opponent.name
            for minion in opponent.minions:
                assert "".join(minion.name.split()).upper() in printed_text, minion.name
    for event in EVENTS:
        assert "".join(event.title.split()).upper() in printed_text, event.title
        assert "".join(event.encounter.split()).upper() in printed_text, event.id


def test_the_printable_counts_its_opponents() -> None:
    [document] = encounters_doc.documents(
        compute_campaign(NO_CAMPAIGN), NO_CAMPAIGN, BuildOptions()
    )
    found = compute_encounters(NO_CAMPAIGN)
    arriving = sum(b.count for f in found for a in f.reinforcements for b in a.computed.blocks)
    total = sum(_fighters(e.id) for e in EVENTS) + arriving
    assert arriving > 0
    assert document.context["summary"] == f"{total} opponents in 50 events · current rules"
    items = [
        item
        for page in document.context["pages"]
        for column in page["columns"]
        for item in column
        if item["kind"] in ("group", "stake")
    ]
    # Each event's heading with its card line, then its stakes a paragraph each; then,
    # under the same title, each group of reinforcements with when it joins.
    heads = [h for h in items if h["kind"] == "group"]
    firsts = [h for h in heads if not h["note"].startswith("Joining the fight: ")]
    assert [h["name"] for h in firsts] == [e.title for e in EVENTS]
    assert [h["note"] for h in firsts] == [e.encounter for e in EVENTS]
    labels: list[list[str]] = []
    for item in items:
        if item["kind"] == "group":
            labels.append([])
        else:
            labels[-1].append(item["label"])
    stakes = [said for said, h in zip(labels, heads, strict=True) if h in firsts]
    assert all(said[1:3] == ["They want", "They break off"] for said in stakes)
    assert all({"If the PCs win:", "If the PCs lose:"} <= set(said) for said in stakes)
    later = [said for said, h in zip(labels, heads, strict=True) if h not in firsts]
    assert len(later) == sum(len(f.reinforcements) for f in found) and not any(later)


# --------------------------------------------------------------------------------------------
# beasts for `roster generate`


@pytest.mark.parametrize("archetype", ["wolf", "dog", "boar", "bear"])
def test_roster_generate_makes_beasts(archetype: str) -> None:
    book = archetype_book()
    beast = book.archetypes[archetype]
    assert beast.beast and archetype not in book.mix
    npcs = generate(plan(RosterSpec(count=20, seed="pack", archetype=archetype)))
    people = set(book.adjectives) - set(beast.adjectives)
    for npc in npcs:
        assert "command" not in npc.levels and not npc.minions
        assert npc.name.split(" II")[0] in beast.names  # "Torn Ear", never "Mara Voss"
        assert any(role in npc.description for role in beast.roles)
        assert npc.description.split()[1] not in people
        shared = {p for pool in book.notes.values() for p in pool}
        assert not set(npc.notes.values()) & shared - {
            p for pool in beast.notes.values() for p in pool
        }
    assert len({n.name for n in npcs}) == 20


def test_the_cli_writes_a_wolf_pack(cli: Cli) -> None:
    result = cli("roster", "generate", "-n", "5", "--archetype", "wolf", "--seed", "7")
    assert result.exit_code == 0, result.output
    entries = result.stdout.split("\n  - name: ")[1:]
    assert len(entries) == 5
    assert all(" wolf " in entry and "command:" not in entry for entry in entries)


@pytest.mark.parametrize(
    ("event", "said", "bodies"),
    [
        # "A hive thief and three apprentices": the thief, two netted minions, his daughter
        ("silent-hives", "three apprentices", 4),
        # "five raiders": net raider, the chief and her two reed raiders, the sling raider
        ("one-poisoned-well", "five raiders", 5),
    ],
)
def test_an_encounter_card_counts_the_opponents_the_encounters_print(
    event: str, said: str, bodies: int
) -> None:
    card = next(e for e in EVENTS if e.id == event)
    assert said in card.encounter
    [entry] = [e for e in builtin_encounters() if e.event == event]
    assert sum(1 + sum(m.count for m in o.minions) for o in entry.opponents) == bodies


# --------------------------------------------------------------------------------------------
# stakes: every built-in encounter can be run cold (issue 27)

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
