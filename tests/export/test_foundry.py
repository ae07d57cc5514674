"""Foundry VTT actors for Simple Worldbuilding: held against recorded samples of what
Foundry 12 exports and packs (tests/fixtures/vtt/), with every number `stats --json`
prints for the example campaign found again in them."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from scratchpress import api
from scratchpress.export import foundry
from scratchpress.export.entries import entries, stable_id
from scratchpress.export.foundry import actor, foundry_files, module_id

from vtt_shapes import foundry_keys, sample, shape, strays

FOUNDRY_ID = re.compile(r"[A-Za-z0-9]{16}")
DTYPES = {"Number": int, "String": str, "Formula": str}


@pytest.fixture(scope="module")
def example() -> api.Opened:
    return api.open_campaign(api.find_campaign(example=True))


@pytest.fixture(scope="module")
def files(example: api.Opened) -> dict[str, Any]:
    made = foundry_files(example.campaign, example.computed)
    return {name: json.loads(data) for name, data in made.items()}


def _actors(files: dict[str, Any]) -> dict[str, Any]:
    return {name: doc for name, doc in files.items() if name.startswith("actors/")}


def _sources(files: dict[str, Any]) -> dict[str, Any]:
    return {name: doc for name, doc in files.items() if name.startswith(foundry.PACK_SOURCE)}


def _by_name(files: dict[str, Any]) -> dict[tuple[str, str, str], Any]:
    return {
        (a["flags"]["scratchpress"]["kind"], a["flags"]["scratchpress"]["leader"], a["name"]): a
        for a in _actors(files).values()
    }


def _attributes(document: Any) -> list[dict[str, Any]]:
    """Every worldbuilding attribute of an actor and its items, grouped or not."""
    found = []
    for holder in [document, *document["items"]]:
        for value in holder["system"]["attributes"].values():
            found += [value] if "dtype" in value else list(value.values())
    return found


# ----------------------------------------------------------------------- the shapes


def test_every_actor_holds_only_fields_a_worldbuilding_export_has(files: dict[str, Any]) -> None:
    target = shape(sample("foundry-worldbuilding-actors.json"), foundry_keys)
    for name, document in _actors(files).items():
        assert strays(shape([document], foundry_keys), target) == [], name


def test_every_actor_has_every_field_of_the_sample_but_token_defaults(
    files: dict[str, Any],
) -> None:
    """What Foundry fills in itself (lights, vision, the texture's anchors) may be left out;
    the rest is written, so nothing falls back to a template's default."""
    model = sample("foundry-worldbuilding-actors.json")[0]
    for name, document in _actors(files).items():
        assert document.keys() == model.keys(), name
        assert document["system"].keys() == model["system"].keys(), name
        for key in ("value", "min", "max"):
            assert isinstance(document["system"]["health"][key], int), name
        for item in document["items"]:
            assert item.keys() == model["items"][0].keys(), name
            assert item["system"].keys() == model["items"][0]["system"].keys(), name


def test_each_attribute_value_is_of_its_declared_type(files: dict[str, Any]) -> None:
    for name, document in _actors(files).items():
        for attribute in _attributes(document):
            assert isinstance(attribute["value"], DTYPES[attribute["dtype"]]), (name, attribute)
            if attribute["dtype"] == "Formula":
                assert foundry.FORMULA.fullmatch(attribute["value"]), (name, attribute)


def test_attribute_and_group_keys_are_ones_the_sheet_accepts(files: dict[str, Any]) -> None:
    """The worldbuilding sheet refuses keys with spaces or dots, group keys that are also
    an attribute's, and the group names attr and attributes."""
    for name, document in _actors(files).items():
        attributes = document["system"]["attributes"]
        groups = document["system"]["groups"]
        assert set(groups) == {k for k, v in attributes.items() if "dtype" not in v}, name
        assert not set(groups) & {"attr", "attributes"}
        for key in [*attributes, *groups, *(k for v in attributes.values() for k in v)]:
            assert re.fullmatch(r"[^\s.]+", key), (name, key)


def test_the_shape_check_names_a_field_foundry_would_drop(files: dict[str, Any]) -> None:
    document = json.loads(json.dumps(next(iter(_actors(files).values()))))
    document["hitPoints"] = 3
    document["system"]["attributes"]["stamina"]["dtype"] = 1
    target = shape(sample("foundry-worldbuilding-actors.json"), foundry_keys)
    assert strays(shape([document], foundry_keys), target) == [
        "[].hitPoints: not a field of the format",
        "[].system.attributes.<attribute>.dtype: ['integer'], the format takes ['string']",
    ]


# --------------------------------------------------------- the compendium and the module


def test_pack_sources_carry_the_ids_and_keys_the_packing_tool_reads(
    files: dict[str, Any],
) -> None:
    target = shape(sample("foundry-pack-source.json"), foundry_keys)
    model = sample("foundry-pack-source.json")[0]
    sources = _sources(files)
    assert len(sources) == len(_actors(files)) == 15
    ids = set()
    for name, document in sources.items():
        assert strays(shape([document], foundry_keys), target) == [], name
        assert document.keys() == model.keys(), name
        actor_id = document["_id"]
        assert FOUNDRY_ID.fullmatch(actor_id) and name.endswith(f"_{actor_id}.json")
        assert document["_key"] == f"!actors!{actor_id}"
        for item in document["items"]:
            assert FOUNDRY_ID.fullmatch(item["_id"])
            assert item["_key"] == f"!actors.items!{actor_id}.{item['_id']}"
        ids.add(actor_id)
    assert len(ids) == len(sources)


def test_a_pack_source_is_its_exported_actor_with_ids_and_keys(files: dict[str, Any]) -> None:
    by_stem = {Path(n).stem: d for n, d in _actors(files).items()}
    for name, source in _sources(files).items():
        exported = by_stem[Path(name).stem.rsplit("_", 1)[0]]
        stripped = {
            k: v for k, v in source.items() if k not in {"_id", "_key", "sort", "ownership"}
        }
        stripped["items"] = [{k: v for k, v in i.items() if k != "_key"} for i in source["items"]]
        assert stripped == exported


def test_module_json_declares_the_compendium_and_the_versions(
    files: dict[str, Any], example: api.Opened
) -> None:
    manifest = files["module.json"]
    assert strays(shape(manifest), shape(sample("foundry-module.json"))) == []
    assert manifest.keys() == sample("foundry-module.json").keys()
    assert manifest["id"] == module_id(example.campaign) == "scratchpress-lantern-weir"
    assert manifest["compatibility"] == {"minimum": "12", "verified": "12.331"}
    (system,) = manifest["relationships"]["systems"]
    assert (system["id"], system["compatibility"]["verified"]) == ("worldbuilding", "0.8.2")
    (pack,) = manifest["packs"]
    assert (pack["type"], pack["system"]) == ("Actor", "worldbuilding")
    # `fvtt package pack actors` reads packs/actors/_source and writes packs/actors.
    assert f"{pack['path']}/_source" == foundry.PACK_SOURCE


def test_every_file_states_the_foundry_and_system_versions(files: dict[str, Any]) -> None:
    for name, document in _actors(files).items():
        for stats in [document["_stats"], *(i["_stats"] for i in document["items"])]:
            assert (stats["coreVersion"], stats["systemId"], stats["systemVersion"]) == (
                "12.331",
                "worldbuilding",
                "0.8.2",
            ), name
        flags = document["flags"]["scratchpress"]
        assert (flags["foundry"], flags["system"], flags["format"]) == (
            "12.331",
            "worldbuilding 0.8.2",
            1,
        )


# -------------------------------------------------------------------- what is in them


def _stat_blocks(data: Any) -> list[dict[str, Any]]:
    """The stat blocks of `stats --json`, a list of them (or, should the format grow an
    envelope, the list of objects with a kind it holds)."""
    if isinstance(data, list):
        return data
    return next(
        value
        for value in data.values()
        if isinstance(value, list) and value and isinstance(value[0], dict) and "kind" in value[0]
    )


def _numbers(value: Any, path: tuple[str | int, ...] = ()) -> dict[tuple[str | int, ...], int]:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return {}
    if isinstance(value, int):
        return {path: value}
    items = value.items() if isinstance(value, dict) else enumerate(value)
    found: dict[tuple[str | int, ...], int] = {}
    for key, child in items:
        found |= _numbers(child, (*path, key))
    return found


def _found_in(actor_doc: Any, path: tuple[str | int, ...], grouped: bool) -> int:
    """Where the actor shows the number ``stats --json`` gives at ``path``."""
    system = actor_doc["system"]
    attrs = system["attributes"]
    match path:
        case ("hit_points",):
            assert system["health"]["value"] == system["health"]["max"]
            return int(system["health"]["max"])
        case ("stamina" | "cp",):
            return int(attrs[path[0]]["value"])
        case ("agility" | "intelligence" | "strength" | "defense",):
            return int(attrs["defenses"][path[0]]["value"])
        case ("defense_uncrewed" | "defense_evading",):
            return int(attrs["defenses"][path[0]]["value"])
        case ("initiative_bonus",):
            return int(attrs["own_initiative" if grouped else "initiative"]["value"])
        case ("group_initiative_bonus",):
            return int(attrs["initiative"]["value"])
        case ("count",):
            return int(attrs["count"]["value"])
        case ("fuel",):
            assert system["power"]["value"] == system["power"]["max"]
            return int(system["power"]["max"])
        case ("abilities", name):
            return int(attrs["abilities"][name]["value"])
        case ("crewed_abilities", name):
            return int(attrs["crewed"][name]["value"])
        case ("crew", role, "level"):
            return int(attrs["crew"][role]["value"])
        case ("health", state, 0 | 1):
            return int(attrs["bands"][f"{state}_{'from' if path[2] == 0 else 'to'}"]["value"])
        case ("movement", state, terrain):
            return int(attrs["movement"][f"{state}_{terrain}"]["value"])
        case ("carry", key):
            return int(attrs["carry"][key]["value"])
        case ("weapons", index, "level"):
            roll = actor_doc["items"][index]["system"]["attributes"]["roll"]["value"]
            return int(roll.removeprefix("1d20 + ")) if roll != "1d20" else 0
        case ("weapons", index, "damage" | "auto_damage"):
            item = actor_doc["items"][index]["system"]["attributes"]
            return int(item[path[2]]["value"])
    raise AssertionError(f"stats --json gives {'.'.join(map(str, path))}; no actor field shows it")


def test_every_number_of_stats_json_is_in_the_actors(
    files: dict[str, Any], example: api.Opened
) -> None:
    actors = _by_name(files)
    checked = 0
    for block in _stat_blocks(api.stats_json(example)):
        if block["kind"] == "community":
            continue
        found = actors[(block["kind"], block.get("leader") or "", block["name"])]
        grouped = "group_initiative_bonus" in block
        for path, number in _numbers(block).items():
            assert _found_in(found, path, grouped) == number, (block["name"], path)
            checked += 1
    assert checked > 300  # 15 stat blocks, some 30 numbers each


def test_each_action_is_an_item_with_its_roll_and_damage(files: dict[str, Any]) -> None:
    teodora = _by_name(files)[("character", "", "Teodora Vance")]
    shooting = next(i for i in teodora["items"] if i["name"] == "Shooting")
    attributes = shooting["system"]["attributes"]
    assert attributes["roll"] == {
        "value": "1d20 + 2",
        "label": "d20 + shooting 2 against agility",
        "dtype": "Formula",
        "group": "",
    }
    assert (attributes["damage"]["value"], attributes["auto_damage"]["value"]) == ("2", "5")
    assert attributes["range"]["value"] == "long"


def test_hit_points_are_the_first_token_bar_and_fuel_the_second(files: dict[str, Any]) -> None:
    actors = _by_name(files)
    teodora = actors[("character", "", "Teodora Vance")]["prototypeToken"]
    wagon = actors[("vehicle", "", "Old Patience")]
    assert (teodora["bar1"], teodora["bar2"]) == ({"attribute": "health"}, {"attribute": None})
    assert wagon["prototypeToken"]["bar2"] == {"attribute": "power"}
    assert wagon["system"]["power"] == {"value": 4, "min": 0, "max": 4}


def test_a_group_member_rolls_the_groups_initiative(files: dict[str, Any]) -> None:
    hester = _by_name(files)[("character", "", "Hester Greaves")]["system"]["attributes"]
    hands = _by_name(files)[("minion", "Hester Greaves", "Ledger-hands")]
    assert (hester["initiative"]["value"], hester["own_initiative"]["value"]) == (38, 30)
    assert hands["system"]["attributes"]["initiative"]["value"] == 38
    assert hester["initiative"]["label"] == "Initiative bonus: The Rookery roll once, with this"


def test_under_the_older_rules_everyone_rolls_alone() -> None:
    early = api.open_campaign(api.find_campaign(example=True), rules="early")
    found = {e.name: e for e in entries(early.computed)}
    hester = actor(found["Hester Greaves"], early.computed, early.campaign)
    attributes = hester["system"]["attributes"]
    assert "own_initiative" not in attributes
    assert (
        attributes["initiative"]["value"]
        == early.computed.block("character", "Hester Greaves").stats.initiative_bonus
    )  # type: ignore[union-attr]


def test_a_minion_group_is_one_unlinked_actor_whose_tokens_are_numbered(
    files: dict[str, Any],
) -> None:
    hands = _by_name(files)[("minion", "Hester Greaves", "Ledger-hands")]
    token = hands["prototypeToken"]
    assert (token["actorLink"], token["appendNumber"], token["disposition"]) == (False, True, -1)
    assert hands["system"]["attributes"]["count"]["value"] == 2


def test_the_party_is_friendly_a_loner_neutral_and_the_rest_hostile(
    files: dict[str, Any],
) -> None:
    actors = _by_name(files)
    dispositions = {
        name: actors[key]["prototypeToken"]["disposition"]
        for key in actors
        for name in [key[2]]
        if name in {"Teodora Vance", "Old Patience", "Amos Tenpenny", "Ludo Farrow"}
    }
    assert dispositions == {
        "Teodora Vance": 1,
        "Old Patience": 1,  # her crew are wardens
        "Amos Tenpenny": 0,
        "Ludo Farrow": -1,
    }


def test_tokens_are_named_relative_to_foundrys_data_folder(files: dict[str, Any]) -> None:
    """Installed as Data/modules/<id>/, the folder's tokens/ is modules/<id>/tokens/."""
    for document in _actors(files).values():
        for src in (document["img"], document["prototypeToken"]["texture"]["src"]):
            assert src.startswith("modules/scratchpress-lantern-weir/tokens/"), src
            assert src.endswith(("-256.png", "-512.png")) and ".." not in src


def test_campaign_text_is_escaped_in_html_and_holds_no_markup_elsewhere(
    write_campaign: Any,
) -> None:
    """Foundry shows a biography as HTML, and a roll's label too (in the chat): a note
    from a stranger's campaign stays words in both."""
    folder = write_campaign(
        {
            "party.yaml": """\
                characters:
                  - name: Ann <b>
                    description: "tall & <quiet>"
                    abilities:
                      toughness: {level: 2, note: "a coat of <img src=x onerror=alert(1)>"}
                """
        }
    )
    opened = api.open_campaign(folder)
    (entry,) = entries(opened.computed)
    document = actor(entry, opened.computed, opened.campaign)
    biography = document["system"]["biography"]
    assert "<p>tall &amp; &lt;quiet&gt;</p>" in biography
    assert "a coat of &lt;img src=x onerror=alert(1)&gt;" in biography
    label = document["system"]["attributes"]["abilities"]["toughness"]["label"]
    assert label == "Toughness: a coat of \u2039img src=x onerror=alert(1)\u203a"
    assert document["name"] == document["prototypeToken"]["name"] == "Ann \u2039b\u203a"
    outside_html = {k: v for k, v in document.items() if k not in {"system", "items"}}
    assert "<" not in json.dumps(outside_html)


def test_ids_stay_the_same_from_export_to_export(example: api.Opened) -> None:
    first = foundry_files(example.campaign, example.computed)
    again = foundry_files(example.campaign, example.computed)
    assert first == again
    assert stable_id("a", "b") != stable_id("ab") and FOUNDRY_ID.fullmatch(stable_id("x"))
