"""Every example stat block of the books, reproduced by a named ruleset (RULES.md §3, §7, §9, §14).

The examples are read from ``tests/golden/examples.json`` (names and numbers only). Blocks with an agility,
intelligence and strength header are reproduced by the ``early`` ruleset (A1, I1, S2) and,
for agility and intelligence, by ``current`` too; ``current`` strength is S4, which gives
other numbers (RULES.md I-1). Single-defense blocks are reproduced by ``classic`` (D1).
Vehicles are computed with their crew, communities by the creation check.

Where no ruleset reproduces a printed number, the test names it as a known misprint of the
source and asserts it is the *only* number of that block that differs.
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any

import pytest

from scratchpress.rules import (
    AbilityLine,
    Budget,
    CharacterStats,
    Crew,
    compute_character,
    compute_community,
    compute_vehicle,
    get_ruleset,
)
from scratchpress.rules.abilities import OLDER_NAMES, VEHICLE_MOVEMENT
from scratchpress.rules.minions import MinionGroup, minion_problems

# (example id, printed field) -> the misprinted value the book shows (RULES.md §3.3, §3.5).
MISPRINTS: dict[tuple[str, str], int] = {
    ("the_boss", "intelligence"): 11,  # I1 gives 10 + command 4 = 14
    ("psikosys", "defense"): 11,  # D1 gives 10 + flying 5 = 15
}
# What the rules really give for the misprinted fields.
MISPRINT_TRUTH: dict[tuple[str, str], int] = {
    ("the_boss", "intelligence"): 14,
    ("psikosys", "defense"): 15,
}

# Strength under the current rules (S4), RULES.md I-1: 9/10/9/13/12/11.
S4_STRENGTH: dict[str, int] = {
    "zimzambamalam": 9,
    "the_boss": 10,
    "thugs": 9,
    "breakhelm_x_19_combat_example": 13,
    "chokestar_combat_example": 12,
    "flipfire_combat_example": 11,
}

# The only community that breaks the creation bounds, and how (RULES.md §14.2, I-26).
OUT_OF_BOUNDS_COMMUNITIES: dict[str, dict[str, int]] = {
    "happy_bunny_commune": {"economy": 3, "environment": 20},
}


# --------------------------------------------------------------------------------------------
# helpers


def _levels(example: dict[str, Any]) -> dict[str, int]:
    """The example's abilities as rule inputs: the older "stalking" is stealth."""
    return {OLDER_NAMES.get(name, name): value for name, value in example["abilities"].items()}


def character(
    example: dict[str, Any], ruleset: str, budget: Budget | None = None
) -> CharacterStats:
    lines = tuple(AbilityLine(name, value) for name, value in _levels(example).items())
    return compute_character(example["name"], lines, get_ruleset(ruleset), budget)


def is_ais_block(example: dict[str, Any]) -> bool:
    return example["kind"] in {"character", "minion"} and "agility" in example["printed"]


def is_defense_block(example: dict[str, Any]) -> bool:
    return example["kind"] == "character" and "defense" in example["printed"]


def vehicle(example: dict[str, Any]):  # type: ignore[no-untyped-def]
    crew = example["crew"]
    operator = crew.get("operator")
    gunner = crew.get("gunner")
    seat_operator = (
        (operator["name"], {operator["ability"]: operator["level"]}) if operator else None
    )
    seat_gunner = None
    if gunner:
        gunner_levels = {
            gunner["ability"]: gunner["level"],
            **gunner.get("other_gunner_abilities", {}),
        }
        seat_gunner = (gunner["name"], gunner_levels)
    abilities = tuple((name, value, "") for name, value in example["abilities"].items())
    movement = next(a for a in example["abilities"] if a in VEHICLE_MOVEMENT)
    return compute_vehicle(example["name"], abilities, movement, Crew(seat_operator, seat_gunner))


def differing(example: dict[str, Any], computed: dict[str, int | None]) -> set[str]:
    return {k for k, v in example["printed"].items() if computed.get(k) != v}


def assert_printed(example: dict[str, Any], computed: dict[str, int | None]) -> None:
    """Every printed value is reproduced, except the known misprints, which must differ."""
    known = {field for (eid, field) in MISPRINTS if eid == example["id"]}
    for field in known:
        assert example["printed"][field] == MISPRINTS[(example["id"], field)]
        assert computed[field] == MISPRINT_TRUTH[(example["id"], field)]
        assert computed[field] != example["printed"][field]
    assert differing(example, computed) == known, (example["id"], computed, example["printed"])


# --------------------------------------------------------------------------------------------
# every example, one test each


def test_example_is_reproduced_by_its_ruleset(golden_example: dict[str, Any]) -> None:
    example = golden_example
    kind = example["kind"]
    if is_ais_block(example):
        for ruleset in ("early", "current"):
            stats = character(example, ruleset)
            computed = {k: stats.value(k) for k in example["printed"]}
            if ruleset == "current":
                # S4, not the printed strength: RULES.md I-1.
                assert computed["strength"] == S4_STRENGTH[example["id"]]
                computed["strength"] = example["printed"]["strength"]
            assert_printed(example, computed)
    elif is_defense_block(example):
        stats = character(example, "classic")
        assert_printed(example, {k: stats.value(k) for k in example["printed"]})
    elif kind == "vehicle":
        stats = vehicle(example)
        assert stats.hit_points == example["abilities"]["toughness"]
        assert_printed(example, {k: stats.value(k) for k in example["printed"]})
        crewed = stats.crewed_abilities
        for ability, value in example["printed_crewed_abilities"].items():
            assert crewed[ability] == value, ability
        for ability, value in example["abilities"].items():
            if ability not in example["printed_crewed_abilities"]:
                assert crewed[ability] == value, f"{ability} should gain nothing from the crew"
        assert stats.warnings == ()
    elif kind == "community":
        stats = compute_community(example["name"], example["abilities"], {})
        assert stats.defenses == example["abilities"]
        build = example["stated_build"]
        assert sum(stats.defenses.values()) == build["points"] == 30
        broken = OUT_OF_BOUNDS_COMMUNITIES.get(example["id"], {})
        assert broken == {
            d: v
            for d, v in example["abilities"].items()
            if not build["min_each"] <= v <= build["max_each"]
        }
        assert len(stats.warnings) == len(broken)
        for defense, value in broken.items():
            assert any(f"{defense} {value}" in w and "5-15" in w for w in stats.warnings)
    else:
        pytest.fail(f"example {example['id']} of kind {kind} is not covered by any rule test")


def test_misprints_named_here_are_in_the_golden_file(golden_by_id: dict[str, Any]) -> None:
    for example_id, field in MISPRINTS:
        assert golden_by_id[example_id]["printed"][field] == MISPRINTS[(example_id, field)]
    for example_id in (*S4_STRENGTH, *OUT_OF_BOUNDS_COMMUNITIES):
        assert example_id in golden_by_id


def test_every_agility_block_is_listed_with_its_s4_strength(golden: list[dict[str, Any]]) -> None:
    assert {e["id"] for e in golden if is_ais_block(e)} == set(S4_STRENGTH)


# --------------------------------------------------------------------------------------------
# read like the rule book


def test_chokestar_agility_is_ten_plus_stealth(golden_by_id: dict[str, Any]) -> None:
    stats = character(golden_by_id["chokestar_combat_example"], "current")
    assert stats.agility == 13
    assert stats.explain["agility"] == "agility 13 = 10 + stealth 3"


def test_chokestar_strength_is_ten_plus_wrestling_in_every_agility_ruleset(
    golden_by_id: dict[str, Any],
) -> None:
    example = golden_by_id["chokestar_combat_example"]
    assert character(example, "current").strength == 12
    assert character(example, "early").strength == 12


def test_breakhelm_strength_fourteen_needs_the_older_s2(golden_by_id: dict[str, Any]) -> None:
    example = golden_by_id["breakhelm_x_19_combat_example"]
    assert character(example, "early").strength == 14  # max(8 + toughness 6, 10 + 0)
    assert character(example, "current").strength == 13  # 7 + toughness 6
    assert example["printed"]["strength"] == 14


def test_s4_differs_from_every_printed_strength_but_chokestars(
    golden_by_id: dict[str, Any],
) -> None:
    for example_id, s4 in S4_STRENGTH.items():
        printed = golden_by_id[example_id]["printed"]["strength"]
        if example_id == "chokestar_combat_example":
            assert s4 == printed
        else:
            assert s4 == printed - 1


def test_the_boss_intelligence_eleven_is_a_misprint(golden_by_id: dict[str, Any]) -> None:
    boss = golden_by_id["the_boss"]
    for ruleset in ("current", "early"):
        stats = character(boss, ruleset)
        assert stats.intelligence == 14 != boss["printed"]["intelligence"] == 11
    early = character(boss, "early")
    assert differing(boss, {k: early.value(k) for k in boss["printed"]}) == {"intelligence"}


def test_psikosys_defense_eleven_is_a_misprint(golden_by_id: dict[str, Any]) -> None:
    psikosys = golden_by_id["psikosys"]
    stats = character(psikosys, "classic")
    assert stats.defense == 15 != psikosys["printed"]["defense"] == 11
    assert stats.explain["defense"] == "defense 15 = 10 + flying 5"
    assert differing(psikosys, {k: stats.value(k) for k in psikosys["printed"]}) == {"defense"}


def test_remora_defense_ignores_swimming(golden_by_id: dict[str, Any]) -> None:
    stats = character(golden_by_id["remora"], "classic")
    assert stats.defense == 13  # acrobatics 3; swimming 7 would give 17


def test_detective_salvatore_defense_comes_from_stamina(golden_by_id: dict[str, Any]) -> None:
    stats = character(golden_by_id["detective_salvatore"], "classic")
    assert stats.defense == 12
    assert stats.explain["defense"] == "defense 12 = 10 + stamina 2"


def test_redshift_stalking_counts_as_stealth_for_defense(golden_by_id: dict[str, Any]) -> None:
    assert character(golden_by_id["redshift"], "classic").defense == 20


def test_the_thugs_are_two_minions_within_the_boss_command(golden_by_id: dict[str, Any]) -> None:
    boss, thugs = golden_by_id["the_boss"], golden_by_id["thugs"]
    assert thugs["minion_of"] == boss["name"]
    assert thugs["count"] == 2
    group = MinionGroup(thugs["name"], thugs["count"], _levels(thugs))
    assert minion_problems(_levels(boss), [group]) == []
    # 2 thugs x 2 CP is all 4 of the command; a third would be one too many.
    assert minion_problems(_levels(boss), [MinionGroup("Thugs", 3, _levels(thugs))]) != []


def test_sadisto_defense_is_ten_plus_crewed_spaceflight(golden_by_id: dict[str, Any]) -> None:
    stats = vehicle(golden_by_id["sadisto"])
    assert (stats.defense, stats.stamina, stats.hit_points) == (15, 8, 16)
    assert stats.explain["defense"] == "defense 15 = 10 + spaceflight 5 (crewed)"
    # No one aboard and no autopilot: it cannot move, so only stalking 1 counts (issue 26).
    assert stats.defense_uncrewed == 11
    assert stats.initiative_bonus == 30  # 10 x crewed stalking 3 (RULES.md IN-veh)


def test_final_horizon_evading_goes_from_twelve_to_fourteen(golden_by_id: dict[str, Any]) -> None:
    stats = vehicle(golden_by_id["final_horizon"])
    assert (stats.defense, stats.defense_evading, stats.stamina) == (12, 14, 15)
    assert "stalking" not in stats.crewed_abilities
    assert stats.initiative_bonus == 0


def test_vehicle_crew_levels_match_the_crew_characters_blocks(golden: list[dict[str, Any]]) -> None:
    """The crew seats name characters whose own defense-era blocks hold those levels."""
    blocks = {e["name"]: e for e in golden if is_defense_block(e)}
    for example in (e for e in golden if e["kind"] == "vehicle"):
        for seat in ("operator", "gunner"):
            member = example["crew"][seat]
            levels = _levels(blocks[member["name"]])
            assert levels.get(member["ability"], 0) == member["level"], (example["id"], seat)


@pytest.mark.parametrize(
    ("example_id", "expected"),
    [
        ("breakhelm_x_19_combat_example", ["spends 14 CP", "toughness 6 is above"]),
        ("detective_salvatore", ["toughness 5 is above the maximum level 4"]),
        ("chokestar_combat_example", []),  # 8 CP is under budget: no warning
        ("psikosys", []),
        ("titanium", []),
    ],
)
def test_budget_warnings_name_the_examples_that_break_their_stated_build(
    golden_by_id: dict[str, Any], example_id: str, expected: list[str]
) -> None:
    example = golden_by_id[example_id]
    build = example["stated_build"]
    ruleset = "early" if is_ais_block(example) else "classic"
    stats = character(example, ruleset, Budget(build["cp"], build["max_level"]))
    assert len(stats.warnings) == len(expected), stats.warnings
    for fragment, warning in zip(expected, stats.warnings, strict=True):
        assert fragment in warning


def test_only_the_known_rule_breakers_break_their_stated_build(
    golden: list[dict[str, Any]],
) -> None:
    breakers = set()
    for example in golden:
        build = example.get("stated_build")
        if example["kind"] != "character" or not build:
            continue
        ruleset = "early" if is_ais_block(example) else "classic"
        stats = character(example, ruleset, Budget(build["cp"], build["max_level"]))
        if stats.warnings:
            breakers.add(example["id"])
    assert breakers == {"breakhelm_x_19_combat_example", "detective_salvatore"}


# --------------------------------------------------------------------------------------------
# the same, end to end: the golden blocks as a campaign with printed values, through `check`


def _ability_yaml(abilities: dict[str, int]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in abilities.items()) + "}"


def _printed_yaml(printed: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in printed.items()) + "}"


def golden_campaign_yaml(golden: list[dict[str, Any]], kinds: str) -> str:
    """`kinds` is "ais" (agility-era characters with their minions) or "defense"
    (defense-era characters and the vehicles they crew, plus the communities)."""
    characters, vehicles, communities = [], [], []
    minions = {e["minion_of"]: e for e in golden if e["kind"] == "minion"}
    for e in golden:
        if kinds == "ais" and is_ais_block(e) and e["kind"] == "character":
            text = (
                f"  - name: {e['name']}\n"
                f"    abilities: {_ability_yaml(e['abilities'])}\n"
                f"    printed: {_printed_yaml(e['printed'])}\n"
            )
            minion = minions.get(e["name"])
            if minion:
                text += (
                    "    minions:\n"
                    f"      - name: {minion['name']}\n"
                    f"        count: {minion['count']}\n"
                    f"        abilities: {_ability_yaml(minion['abilities'])}\n"
                    f"        printed: {_printed_yaml(minion['printed'])}\n"
                )
            characters.append(text)
        if kinds == "defense" and is_defense_block(e):
            characters.append(
                f"  - name: {e['name']}\n"
                f"    abilities: {_ability_yaml(e['abilities'])}\n"
                f"    printed: {_printed_yaml(e['printed'])}\n"
            )
        if kinds == "defense" and e["kind"] == "vehicle":
            movement = next(a for a in e["abilities"] if a in VEHICLE_MOVEMENT)
            vehicles.append(
                f"  - name: {e['name']}\n"
                f"    movement: {movement}\n"
                f"    abilities: {_ability_yaml(e['abilities'])}\n"
                f"    crew: {{operator: {e['crew']['operator']['name']},"
                f" gunner: {e['crew']['gunner']['name']}}}\n"
                f"    printed: {{defense: {e['printed']['defense']},"
                f" stamina: {e['printed']['stamina']},"
                f" crewed_abilities: {_printed_yaml(e['printed_crewed_abilities'])}}}\n"
            )
        if kinds == "defense" and e["kind"] == "community":
            communities.append(
                f"  - name: {e['name']}\n"
                + "".join(f"    {d}: {v}\n" for d, v in e["abilities"].items())
            )
    text = "characters:\n" + "".join(characters)
    if vehicles:
        text += "vehicles:\n" + "".join(vehicles)
    if communities:
        text += "communities:\n" + "".join(communities)
    return text


def _errors(stderr: str) -> list[str]:
    """The error lines of `check`'s stderr (warnings and notes go there too)."""
    return [
        line
        for line in stderr.splitlines()
        if line
        and "nothing was written" not in line
        and not any(f": {severity}: " in line for severity in ("warning", "note"))
        and not line.startswith("note: ")  # a note on the whole campaign names no file
    ]


def test_check_finds_only_the_boss_misprint_in_the_agility_blocks(
    golden: list[dict[str, Any]], write_campaign: Any, cli: Any
) -> None:
    # Budgets here are the super-powered ones so that no example trips a budget warning.
    folder = write_campaign(
        {
            "examples.yaml": golden_campaign_yaml(golden, "ais"),
            "scratchpress.toml": 'rules = "early"\ncp = 20\nmax_level = 10\n',
        }
    )
    result = cli("check", folder)
    assert _errors(result.stderr) == [], result.stderr
    # A published misprint is a note, not an error (issue 26).
    (note,) = result.stderr.splitlines()
    assert (
        'note: entry "The Boss": printed.intelligence: the book prints 11, the early rules give 14'
        in note
    )
    assert "known misprint" in note
    assert result.exit_code == 0
    assert "6 entries checked with the early rules: 0 errors, 0 warnings." in result.stdout


def test_check_with_current_rules_also_flags_the_five_s2_strengths(
    golden: list[dict[str, Any]], write_campaign: Any, cli: Any
) -> None:
    folder = write_campaign(
        {
            "examples.yaml": golden_campaign_yaml(golden, "ais"),
            "scratchpress.toml": "cp = 20\nmax_level = 10\n",
        }
    )
    result = cli("check", folder)
    errors = _errors(result.stderr)
    found = sorted(re.search(r'entry "([^"]+)": ([\w.]+):', e).groups() for e in errors)
    assert found == [
        ("Breakhelm X-19", "printed.strength"),
        ("Flipfire", "printed.strength"),
        ("The Boss", "minions.0.printed.strength"),  # the Thugs, reported under their leader
        ("The Boss", "printed.strength"),
        ("Zimzambamalam", "printed.strength"),
    ]
    assert "the book prints 14, the current rules give 13 (strength 13 = 7 + toughness 6" in (
        "\n".join(errors)
    )
    assert result.exit_code == 1


def test_check_finds_only_the_psikosys_misprint_in_the_defense_blocks_and_vehicles(
    golden: list[dict[str, Any]], write_campaign: Any, cli: Any
) -> None:
    folder = write_campaign(
        {
            "examples.yaml": golden_campaign_yaml(golden, "defense"),
            "scratchpress.toml": 'rules = "classic"\ncp = 20\nmax_level = 10\n',
        }
    )
    result = cli("check", folder)
    assert _errors(result.stderr) == [], result.stderr
    assert (
        'note: entry "Psikosys": printed.defense: the book prints 11, the classic rules give 15'
        in result.stderr
    )
    # The Happy Bunny Commune is a warning (twice), not an error.
    warnings = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert len(warnings) == 2
    assert all('entry "Happy Bunny Commune"' in w for w in warnings)
    assert result.exit_code == 0


def test_golden_campaign_text_has_no_seed_sentences(
    golden: list[dict[str, Any]], shared_golden: list[dict[str, Any]]
) -> None:
    """The campaign written above holds names and numbers only, never the books' notes."""
    text = golden_campaign_yaml(golden, "ais") + golden_campaign_yaml(golden, "defense")
    for example in shared_golden:
        for note in example["notes"].values():
            assert note not in text
        if example["description"]:
            assert example["description"] not in textwrap.dedent(text)


def test_our_golden_copy_holds_no_prose_from_the_books(
    golden: list[dict[str, Any]], shared_golden: list[dict[str, Any]]
) -> None:
    ours = json.dumps(golden)
    for example in shared_golden:
        for note in example["notes"].values():
            assert note not in ours
        if example["description"]:
            assert json.dumps(example["description"]) not in ours


def test_our_golden_copy_agrees_with_the_shared_golden_file(
    golden: list[dict[str, Any]], shared_golden: list[dict[str, Any]]
) -> None:
    """Every fact we keep is the shared file's, so the two cannot drift apart unnoticed."""
    shared = {e["id"]: e for e in shared_golden}
    assert [e["id"] for e in golden] == list(shared)
    for example in golden:
        source = shared[example["id"]]
        for key in ("kind", "name", "abilities", "crew", "printed", "count", "minion_of"):
            assert example.get(key) == source.get(key), (example["id"], key)
        for key in ("stated_build", "narrative"):
            for field, value in example.get(key, {}).items():
                assert source[key][field] == value, (example["id"], key, field)


def test_the_golden_copy_has_every_kind_of_example(golden: list[dict[str, Any]]) -> None:
    """A bare clone runs the whole rules suite: 27 blocks, every kind the books print."""
    kinds = {e["kind"] for e in golden}
    assert len(golden) == 27
    assert kinds == {"character", "minion", "vehicle", "community"}
