"""Improved Initiative import files: held against a recorded sample of what its "Import
characters, statblocks, encounters and spells from a JSON file" reads
(tests/fixtures/vtt/), with the example campaign's numbers found again in them."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scratchpress import api
from scratchpress.export.improved_initiative import improved_initiative_files

from vtt_shapes import improved_initiative_keys, sample, shape, strays

# Improved Initiative rolls a monster's hit points from its notes when they hold dice
# (client/Rules/Dice.ts); ours must roll nothing, or HP would come out random.
DICE = re.compile(r"(\d+)d(\d+)[\s]*([+-][\s]*\d+)?|([+-][\s]*\d+)")


@pytest.fixture(scope="module")
def example() -> api.Opened:
    return api.open_campaign(api.find_campaign(example=True))


@pytest.fixture(scope="module")
def files(example: api.Opened) -> dict[str, Any]:
    made = improved_initiative_files(example.campaign, example.computed)
    return {name: json.loads(data) for name, data in made.items()}


def _statblocks(library: dict[str, Any]) -> list[dict[str, Any]]:
    found = [v for k, v in library.items() if k.startswith("Creatures.")]
    found += [v["StatBlock"] for k, v in library.items() if k.startswith("PersistentCharacters.")]
    for key, value in library.items():
        if key.startswith("SavedEncounters."):
            found += [c["StatBlock"] for c in value["Combatants"]]
    return found


def _encounter(library: dict[str, Any]) -> dict[str, Any]:
    (found,) = [v for k, v in library.items() if k.startswith("SavedEncounters.")]
    return dict(found)


def test_the_files_are_the_party_each_other_side_each_encounter_and_all(
    files: dict[str, Any],
) -> None:
    names = sorted(files)
    assert "party.json" in names and "all.json" in names
    assert [n for n in names if n.startswith("groups/")] == [
        "groups/amos-tenpenny.json",
        "groups/the-rookery.json",
    ]
    assert len([n for n in names if n.startswith("encounters/")]) == 50
    assert _encounter(files["encounters/weeping-dam.json"])["Name"] == "The Weeping Dam"


def test_every_file_holds_only_fields_improved_initiative_reads(files: dict[str, Any]) -> None:
    target = shape(sample("improved-initiative-import.json"), improved_initiative_keys)
    for name, library in files.items():
        assert strays(shape(library, improved_initiative_keys), target) == [], name


def test_every_stat_block_has_every_field_of_improved_initiatives(files: dict[str, Any]) -> None:
    model = sample("improved-initiative-import.json")
    fields = model["Creatures.sampleWolf"].keys()
    required = {  # CombatantState's fields that are not optional
        *("Id", "StatBlock", "CurrentHP", "TemporaryHP", "Initiative", "Alias"),
        *("IndexLabel", "Tags", "Hidden", "RevealedAC", "InterfaceVersion"),
    }
    for name, library in files.items():
        for statblock in _statblocks(library):
            assert statblock.keys() == fields, (name, statblock["Name"])
        for combatant in _encounter(library)["Combatants"] if name != "all.json" else []:
            assert required <= combatant.keys(), name


def test_ids_hold_no_dot_the_import_splits_keys_on(files: dict[str, Any]) -> None:
    for library in files.values():
        for key in library:
            if "." in key:
                listing, ident = key.split(".", 1)
                assert listing in {"Creatures", "PersistentCharacters", "SavedEncounters"}
                assert re.fullmatch(r"[A-Za-z0-9]+", ident), key


def test_no_ids_are_shared_between_files(files: dict[str, Any]) -> None:
    """Each file's entries keep their own ids, so importing one never replaces another's
    (two encounters may each have a "Pack wolves")."""
    seen: dict[str, str] = {}
    for name, library in files.items():
        if name == "all.json":
            continue
        for key in library:
            if "." in key:
                assert key not in seen, (key, name, seen.get(key))
                seen[key] = name
    everything = files["all.json"]
    assert {k for k in everything if "." in k} == set(seen)


def test_hit_point_notes_roll_no_dice(files: dict[str, Any]) -> None:
    for library in files.values():
        for statblock in _statblocks(library):
            assert not DICE.search(statblock["HP"]["Notes"]), statblock["HP"]["Notes"]


def _stat_blocks(data: Any) -> list[dict[str, Any]]:
    if isinstance(data, list):
        return data
    return next(
        value
        for value in data.values()
        if isinstance(value, list) and value and isinstance(value[0], dict) and "kind" in value[0]
    )


def test_each_combatant_has_the_numbers_of_stats_json(
    files: dict[str, Any], example: api.Opened
) -> None:
    """Hit points, agility as AC (every defense in its notes), the initiative the group
    rolls, stamina and each ability as a skill."""
    blocks = {
        (b.get("leader") or "", b["name"]): b
        for b in _stat_blocks(api.stats_json(example))
        if b["kind"] in {"character", "minion"}
    }
    statblocks = {}
    for name in ("party.json", "groups/the-rookery.json", "groups/amos-tenpenny.json"):
        for statblock in _statblocks(files[name]):
            minion = next((t for t in statblock["Traits"] if t["Name"] == "Minions"), None)
            leader = minion["Content"].split("commanded by ")[1] if minion else ""
            statblocks[(leader, statblock["Name"])] = statblock
    assert statblocks.keys() == blocks.keys()
    for key, block in blocks.items():
        statblock = statblocks[key]
        assert statblock["HP"]["Value"] == block["hit_points"]
        assert statblock["AC"]["Value"] == block["agility"]
        defenses = f"agility {block['agility']}, intelligence {block['intelligence']}"
        assert statblock["AC"]["Notes"] == f"{defenses}, strength {block['strength']}"
        rolls = block.get("group_initiative_bonus", block["initiative_bonus"])
        assert statblock["InitiativeModifier"] == rolls
        assert {s["Name"].lower(): s["Modifier"] for s in statblock["Skills"]} == block["abilities"]
        health = next(t for t in statblock["Traits"] if t["Name"] == "Health")
        assert health["Content"].startswith(f"Stamina {block['stamina']}: ")


def test_the_party_are_improved_initiatives_own_characters(files: dict[str, Any]) -> None:
    party = files["party.json"]
    characters = {v["Name"]: v for k, v in party.items() if k.startswith("PersistentCharacters.")}
    assert sorted(characters) == [
        "Brannock Oduya",
        "Ilse Marrow",
        "Marisol Achterberg",
        "Teodora Vance",
    ]
    assert {c["StatBlock"]["Player"] for c in characters.values()} == {"player"}
    encounter = _encounter(party)
    linked = {
        c["PersistentCharacterId"] for c in encounter["Combatants"] if "PersistentCharacterId" in c
    }
    assert linked == {c["Id"] for c in characters.values()}
    # Ilse's minions are creatures of the party's encounter, and roll with the wardens.
    minions = [c for c in encounter["Combatants"] if "PersistentCharacterId" not in c]
    assert sorted(c["StatBlock"]["Name"] for c in minions) == ["Ballast", "Pell Orrin"]
    assert {c["StatBlock"]["Player"] for c in minions} == {""}
    assert len({c["InitiativeGroup"] for c in encounter["Combatants"]}) == 1


def test_a_minion_group_is_one_combatant_per_minion(files: dict[str, Any]) -> None:
    rookery = _encounter(files["groups/the-rookery.json"])["Combatants"]
    hands = [c for c in rookery if c["StatBlock"]["Name"] == "Ledger-hands"]
    assert [c["IndexLabel"] for c in hands] == [1, 2]
    assert [c["CurrentHP"] for c in hands] == [1, 1]
    assert {c["StatBlock"]["InitiativeModifier"] for c in rookery} == {38}


def test_an_encounter_holds_its_opponents_computed_as_the_booklet_prints_them(
    files: dict[str, Any], example: api.Opened
) -> None:
    from scratchpress.encounters import compute_encounters

    fight = next(f for f in compute_encounters(example.campaign) if f.event.id == "weeping-dam")
    combatants = _encounter(files["encounters/weeping-dam.json"])["Combatants"]
    expected = []
    for block in fight.computed.blocks:
        expected += [(block.name, block.stats.hit_points)] * block.count  # type: ignore[union-attr]
    assert [(c["StatBlock"]["Name"], c["CurrentHP"]) for c in combatants] == expected


def test_a_campaign_that_plays_no_resilience_gets_no_encounters(write_campaign: Any) -> None:
    folder = write_campaign(
        {
            "party.yaml": """\
                characters:
                  - name: Ann
                    player: Kim
                    abilities: {toughness: 2, shooting: 1}
                  - name: Bob
                    abilities: {toughness: 1}
                """
        }
    )
    opened = api.open_campaign(folder)
    assert sorted(improved_initiative_files(opened.campaign, opened.computed)) == [
        "all.json",
        "groups/bob.json",
        "party.json",
    ]


def test_under_the_older_rules_no_one_rolls_with_a_group() -> None:
    early = api.open_campaign(api.find_campaign(example=True), rules="early")
    files = improved_initiative_files(early.campaign, early.computed)
    rookery = _encounter(json.loads(files["groups/the-rookery.json"]))["Combatants"]
    assert all("InitiativeGroup" not in c for c in rookery)
    hester = next(c for c in rookery if c["StatBlock"]["Name"] == "Hester Greaves")
    assert hester["StatBlock"]["InitiativeModifier"] == 30


def test_campaign_text_holds_no_markup(write_campaign: Any) -> None:
    """Improved Initiative writes "<name> added to combat" into its log as HTML: a name
    from a stranger's campaign must stay words there."""
    folder = write_campaign(
        {
            "party.yaml": """\
                characters:
                  - name: Ann <img src=x onerror=alert(1)>
                    description: "<script>alert(2)</script>"
                    abilities: {toughness: {level: 2, note: "<b>bold</b>"}}
                """
        }
    )
    opened = api.open_campaign(folder)
    files = improved_initiative_files(opened.campaign, opened.computed)
    group = json.loads(files["groups/ann-img-src-x-onerror-alert-1.json"])
    (statblock,) = [v for k, v in group.items() if k.startswith("Creatures.")]
    assert statblock["Name"] == "Ann \u2039img src=x onerror=alert(1)\u203a"
    for data in files.values():
        assert b"<" not in data and b">" not in data
