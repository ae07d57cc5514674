"""The ``scratchpress`` commands as a user runs them: stats (text, --json, --explain, --rules)
and check (--strict). Names and numbers are the books' examples; the descriptions and notes
are invented here."""

from __future__ import annotations

import json
from typing import Any

import pytest

COMBAT = """\
characters:
  - name: Chokestar
    description: a test wrestler
    group: Raiders
    abilities:
      wrestling: {level: 2, note: squeezes hard}
      stealth: 3
      toughness: 3
  - name: The Boss
    description: a test boss
    abilities:
      shooting: 2
      detection: 1
      command: {level: 4, note: two helpers}
      toughness: 3
    minions:
      - name: Thugs
        count: 2
        abilities: {toughness: 2}
"""

SHIPS = """\
characters:
  - name: Chokestar
    abilities: {piloting: 2, wrestling: 2, stalking: 3, toughness: 3}
  - name: Flipfire
    abilities: {shooting: 2, healing: 1, fighting: 2, acrobatics: 1, toughness: 4}
  - name: Breakhelm X-19
    abilities: {shooting: 4, fighting: 4, piloting: 1, toughness: 6}
vehicles:
  - name: Sadisto
    description: a test ship
    movement: spaceflight
    abilities:
      stalking: 1
      grapple: 1
      spaceflight: {level: 3, note: fast enough}
      guns: 3
      missiles: 2
      range: 2
      toughness: 16
    crew: {operator: Chokestar, gunner: Flipfire}
  - name: Final Horizon
    movement: spaceflight
    abilities: {guns: 1, spaceflight: 1, range: 4, toughness: 30}
    crew: {operator: Breakhelm X-19, gunner: Breakhelm X-19}
communities:
  - name: New Manchester
    economy: {level: 15, note: busy}
    environment: 5
    equity: 10
"""


@pytest.fixture
def combat(write_campaign: Any) -> Any:
    return write_campaign({"combat.yaml": COMBAT}, name="combat")


@pytest.fixture
def ships(write_campaign: Any) -> Any:
    # Breakhelm X-19 has 15 CP and toughness 6: the super-powered budget keeps check quiet.
    return write_campaign(
        {"ships.yaml": SHIPS, "scratchpress.toml": "cp = 20\nmax_level = 10\n"}, name="ships"
    )


def blocks(text: str) -> dict[str, list[str]]:
    """Text output split into blocks, keyed by the first word(s) before the header's '('."""
    found: dict[str, list[str]] = {}
    for chunk in text.strip("\n").split("\n\n"):
        lines = chunk.split("\n")
        found[lines[0].split(" (")[0]] = lines
    return found


# --------------------------------------------------------------------------------------------
# stats: the books' text format


def test_stats_prints_chokestar_in_the_books_format(combat: Any, cli: Any) -> None:
    result = cli("stats", combat)
    assert result.exit_code == 0, result.stderr
    assert blocks(result.stdout)["Chokestar"] == [
        "Chokestar (13 agility, 10 intelligence, 12 strength, 1 stamina): a test wrestler",
        "2 wrestling: squeezes hard",
        "3 stealth",
        "3 toughness",
    ]
    assert result.stderr == ""


def test_stats_prints_abilities_in_the_authors_order(combat: Any, cli: Any) -> None:
    result = cli("stats", combat)
    assert blocks(result.stdout)["The Boss"] == [
        "The Boss (10 agility, 14 intelligence, 10 strength, 1 stamina): a test boss",
        "2 shooting",
        "1 detection",
        "4 command: two helpers",
        "3 toughness",
    ]


def test_stats_prints_the_initiative_groups(combat: Any, cli: Any) -> None:
    result = cli("stats", combat)
    assert blocks(result.stdout)["Initiative groups:"] == [
        "Initiative groups:",
        "  Raiders: +6 (Chokestar)",
    ]


def test_stats_prints_minions_under_their_leader(combat: Any, cli: Any) -> None:
    lines = cli("stats", combat).stdout.split("\n")
    header = next(i for i, line in enumerate(lines) if line.startswith("Thugs"))
    assert lines[header].endswith("(10 agility, 10 intelligence, 9 strength, 1 stamina)")
    assert lines[header + 1] == "2 toughness"
    assert lines.index("3 toughness") < header  # after The Boss's block


def test_stats_minion_header_is_the_books_format(combat: Any, cli: Any) -> None:
    lines = cli("stats", combat, "--rules", "early").stdout.split("\n")
    assert "Thugs (10 agility, 10 intelligence, 10 strength, 1 stamina)" in lines


def test_stats_prints_vehicles_with_their_crewed_levels(ships: Any, cli: Any) -> None:
    result = cli("stats", ships)
    assert result.exit_code == 0, result.stderr
    found = blocks(result.stdout)
    assert found["Sadisto"] == [
        "Sadisto (15 defense, 8 stamina): a test ship",
        "1 stalking (3 with Chokestar as pilot)",
        "1 grapple (3 with Chokestar as pilot)",
        "3 spaceflight (5 with Chokestar as pilot): fast enough",
        "3 guns (5 with Flipfire as gunner)",
        "2 missiles (4 with Flipfire as gunner)",
        "2 range",
        "16 toughness",
    ]
    assert found["Final Horizon"] == [
        "Final Horizon (12 defense, 15 stamina)",
        "1 guns (5 with Breakhelm X-19 as gunner)",
        "1 spaceflight (2 with Breakhelm X-19 as pilot)",
        "4 range",
        "30 toughness",
    ]


def test_stats_prints_communities_as_three_defenses(ships: Any, cli: Any) -> None:
    found = blocks(cli("stats", ships).stdout)
    assert found["New Manchester"] == [
        "New Manchester",
        "15 economy: busy",
        "5 environment",
        "10 equity",
    ]


def test_stats_classic_prints_the_old_defense_header(ships: Any, cli: Any) -> None:
    result = cli("stats", ships, "--rules", "classic")
    found = blocks(result.stdout)
    assert found["Chokestar"][0] == "Chokestar (13 defense, 1 stamina)"
    assert found["Flipfire"][0] == "Flipfire (12 defense, 2 stamina)"
    assert found["Breakhelm X-19"][0] == "Breakhelm X-19 (13 defense, 3 stamina)"


# --------------------------------------------------------------------------------------------
# --rules


def test_rules_option_switches_the_strength_formula(combat: Any, cli: Any) -> None:
    current = blocks(cli("stats", combat).stdout)["The Boss"][0]
    early = blocks(cli("stats", combat, "--rules", "early").stdout)["The Boss"][0]
    assert "10 strength" in current  # S4: 7 + toughness 3
    assert "11 strength" in early  # S2: 8 + toughness 3


def test_rules_in_scratchpress_toml_are_used_and_the_option_wins(
    write_campaign: Any, cli: Any
) -> None:
    folder = write_campaign({"combat.yaml": COMBAT, "scratchpress.toml": 'rules = "classic"\n'})
    assert (
        blocks(cli("stats", folder).stdout)["Chokestar"][0]
        == "Chokestar (13 defense, 1 stamina): a test wrestler"
    )
    assert (
        "12 strength" in blocks(cli("stats", folder, "--rules", "current").stdout)["Chokestar"][0]
    )


def test_an_unknown_ruleset_is_a_clean_error(combat: Any, cli: Any) -> None:
    result = cli("stats", combat, "--rules", "modern")
    assert result.exit_code == 2  # a usage error, like every bad choice
    assert result.stdout == ""
    shown = " ".join(result.stderr.replace("│", " ").split())
    assert "Invalid value for '--rules'" in shown
    assert "'modern' is not one of 'current', 'early', 'classic'." in shown
    check = cli("check", combat, "--rules", "modern")
    assert check.exit_code == result.exit_code
    assert "'modern' is not one of" in check.stderr


# --------------------------------------------------------------------------------------------
# --explain


def test_explain_shows_the_rule_behind_every_number(combat: Any, cli: Any) -> None:
    chokestar = blocks(cli("stats", combat, "--explain").stdout)["Chokestar"]
    assert chokestar[4:] == [
        "    hit points 3 = toughness 3",
        "    stamina 1 = toughness 3 // 2",
        "    agility 13 = 10 + stealth 3",
        "    intelligence 10 = 10 (none of detection, command, healing, craftsmanship)",
        "    strength 12 = 10 + wrestling 2",
        "    initiative bonus 6 = 2 x stealth 3 + 10 x detection 0",
        "    CP 8 of 10 (max level 4)",
    ]


def test_explain_under_early_rules_shows_s2(combat: Any, cli: Any) -> None:
    boss = blocks(cli("stats", combat, "--explain", "--rules", "early").stdout)["The Boss"]
    assert "    strength 11 = 8 + toughness 3" in boss
    assert "    intelligence 14 = 10 + command 4" in boss
    assert "    initiative bonus 10 = 10 x stealth 0 + 10 x detection 1" in boss


def test_explain_shows_the_crewed_vehicle_defense(ships: Any, cli: Any) -> None:
    sadisto = blocks(cli("stats", ships, "--explain").stdout)["Sadisto"]
    assert "    defense 15 = 10 + spaceflight 5 (crewed)" in sadisto
    assert "    initiative bonus 30 = 10 x stalking 3" in sadisto


def test_without_explain_no_rules_are_shown(combat: Any, cli: Any) -> None:
    assert " = " not in cli("stats", combat).stdout


# --------------------------------------------------------------------------------------------
# --json

CHARACTER_KEYS = {
    "kind",
    "name",
    "ruleset",
    "hit_points",
    "stamina",
    "agility",
    "intelligence",
    "strength",
    "initiative_bonus",
    "cp",
    "abilities",
    "carry",
    "warnings",
}
CARRY_KEYS = {"pack_kg", "carry_kg", "lift_kg", "pack_lbs", "carry_lbs", "lift_lbs"}


def json_blocks(cli: Any, *args: Any) -> dict[tuple[str, str], dict[str, Any]]:
    result = cli("stats", *args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert isinstance(data, list)
    return {(d["kind"], d["name"]): d for d in data}


def test_json_character(combat: Any, cli: Any) -> None:
    chokestar = json_blocks(cli, combat)[("character", "Chokestar")]
    assert set(chokestar) >= CHARACTER_KEYS
    assert "defense" not in chokestar
    assert chokestar["ruleset"] == "current"
    assert (chokestar["hit_points"], chokestar["stamina"]) == (3, 1)
    assert (chokestar["agility"], chokestar["intelligence"], chokestar["strength"]) == (13, 10, 12)
    assert (chokestar["initiative_bonus"], chokestar["cp"]) == (6, 8)
    assert chokestar["abilities"] == {"wrestling": 2, "stealth": 3, "toughness": 3}
    assert chokestar["carry"] == {
        "pack_kg": 24,
        "carry_kg": 60,
        "lift_kg": 120,
        "pack_lbs": 53,
        "carry_lbs": 132,  # 11 lb a point
        "lift_lbs": 264,
    }
    assert set(chokestar["carry"]) == CARRY_KEYS
    assert chokestar["group"] == "Raiders"
    assert chokestar["warnings"] == []


def test_json_minion_names_its_leader_and_count(combat: Any, cli: Any) -> None:
    thugs = json_blocks(cli, combat)[("minion", "Thugs")]
    assert CHARACTER_KEYS | {"leader", "count"} <= set(thugs)
    assert (thugs["leader"], thugs["count"]) == ("The Boss", 2)
    assert (thugs["strength"], thugs["cp"], thugs["abilities"]) == (9, 2, {"toughness": 2})


def test_json_classic_adds_defense(combat: Any, cli: Any) -> None:
    chokestar = json_blocks(cli, combat, "--rules", "classic")[("character", "Chokestar")]
    assert CHARACTER_KEYS | {"defense"} <= set(chokestar)
    assert chokestar["defense"] == 13
    assert chokestar["ruleset"] == "classic"
    assert (chokestar["agility"], chokestar["intelligence"], chokestar["strength"]) == (
        None,
        None,
        None,
    )


def test_json_vehicle(ships: Any, cli: Any) -> None:
    sadisto = json_blocks(cli, ships)[("vehicle", "Sadisto")]
    assert {
        "kind",
        "name",
        "ruleset",
        "hit_points",
        "stamina",
        "defense",
        "abilities",
        "crewed_abilities",
        "warnings",
    } <= set(sadisto)
    assert (sadisto["hit_points"], sadisto["stamina"], sadisto["defense"]) == (16, 8, 15)
    assert sadisto["abilities"]["spaceflight"] == 3
    assert sadisto["crewed_abilities"] == {
        "stalking": 3,
        "grapple": 3,
        "spaceflight": 5,
        "guns": 5,
        "missiles": 4,
        "range": 2,
        "toughness": 16,
    }
    assert sadisto["warnings"] == []


def test_json_community(ships: Any, cli: Any) -> None:
    town = json_blocks(cli, ships)[("community", "New Manchester")]
    assert {"kind", "name", "ruleset", "economy", "environment", "equity", "warnings"} <= set(town)
    assert (town["economy"], town["environment"], town["equity"]) == (15, 5, 10)
    assert town["warnings"] == []


def test_json_stalking_is_reported_as_stealth(ships: Any, cli: Any) -> None:
    chokestar = json_blocks(cli, ships)[("character", "Chokestar")]
    assert chokestar["abilities"] == {"piloting": 2, "wrestling": 2, "stealth": 3, "toughness": 3}
    assert chokestar["agility"] == 13


def test_json_carries_warnings(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": "characters:\n  - name: Big\n"
            "    abilities: {toughness: 5, fighting: 4, quickness: 2}\n"
        }
    )
    big = json_blocks(cli, folder)[("character", "Big")]
    assert big["warnings"] == [
        "spends 11 CP, over the budget of 10",
        "toughness 5 is above the maximum level 4",
    ]


# --------------------------------------------------------------------------------------------
# check

# 11 CP against the default budget of 10; no level above 4.
BIG = "characters:\n  - name: Big\n    abilities: {toughness: 4, fighting: 4, quickness: 3}\n"


def test_check_exits_zero_when_clean(ships: Any, cli: Any) -> None:
    result = cli("check", ships)
    assert result.exit_code == 0
    assert result.stdout == "6 entries checked with the current rules: 0 errors, 0 warnings.\n"
    assert result.stderr == ""


def test_check_reports_warnings_but_passes(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign({"c.yaml": BIG})
    result = cli("check", folder)
    assert result.exit_code == 0
    # Problems on stderr, as every command prints them; the summary on stdout.
    assert result.stderr.splitlines() == [
        'campaign/c.yaml:3: warning: entry "Big": abilities: spends 11 CP, over the budget of 10',
    ]
    assert result.stdout.splitlines() == [
        "1 entry checked with the current rules: 0 errors, 1 warning.",
    ]


def test_check_strict_turns_warnings_into_failure(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign({"c.yaml": BIG})
    result = cli("check", folder, "--strict")
    assert result.exit_code == 1
    assert "spends 11 CP, over the budget of 10" in result.stderr


def test_check_strict_passes_when_clean(ships: Any, cli: Any) -> None:
    assert cli("check", ships, "--strict").exit_code == 0


def test_check_budget_comes_from_scratchpress_toml(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": BIG,
            "scratchpress.toml": "cp = 12\n",
        }
    )
    assert cli("check", folder, "--strict").exit_code == 0


def test_check_community_outside_creation_bounds_warns(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": "communities:\n  - name: Happy Bunny Commune\n    economy: 3\n"
            "    environment: 20\n    equity: 7\n"
        }
    )
    result = cli("check", folder)
    assert result.exit_code == 0
    assert result.stderr.splitlines()[:2] == [
        'campaign/c.yaml:2: warning: entry "Happy Bunny Commune": economy 3 is outside 5-15'
        " allowed at creation",
        'campaign/c.yaml:2: warning: entry "Happy Bunny Commune": environment 20 is outside 5-15'
        " allowed at creation",
    ]
    assert cli("check", folder, "--strict").exit_code == 1


def test_check_crew_warnings(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            characters:
              - name: Brawler
                abilities: {fighting: 3, toughness: 3}
            vehicles:
              - name: Kite
                movement: flying
                abilities: {toughness: 9, flying: 2, guns: 1}
                crew: {operator: Brawler, gunner: Brawler}
            """
        }
    )
    result = cli("check", folder)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        'campaign/c.yaml:8: warning: entry "Kite": crew: operator Brawler has no piloting,'
        " so adds nothing to flying",
        'campaign/c.yaml:8: warning: entry "Kite": crew: gunner Brawler has neither shooting'
        " nor blasting, so adds nothing",
    ]
    assert result.stdout == "2 entries checked with the current rules: 0 errors, 2 warnings.\n"


# --------------------------------------------------------------------------------------------
# stats refuses what check would call an error, except printed mismatches


def test_stats_refuses_an_unknown_crew_member(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            vehicles:
              - name: Kite
                movement: flying
                abilities: {toughness: 9, flying: 2}
                crew: {operator: Nobody}
            """
        }
    )
    result = cli("stats", folder)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "campaign/c.yaml:5: entry \"Kite\": crew.operator: no character named 'Nobody' in the"
        " campaign",
        "1 error; nothing was written.",
    ]


def test_stats_prints_despite_a_printed_mismatch(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": "characters:\n  - name: Zed\n    abilities: {toughness: 2}\n"
            "    printed: {strength: 10}\n"
        }
    )
    result = cli("stats", folder)
    assert result.exit_code == 0
    assert (
        result.stdout == "Zed (10 agility, 10 intelligence, 9 strength, 1 stamina)\n2 toughness\n"
    )
    assert cli("check", folder).exit_code == 1


def test_no_arguments_shows_help(cli: Any) -> None:
    result = cli()
    assert "stats" in result.stdout + result.stderr
    assert "check" in result.stdout + result.stderr


def test_check_and_stats_without_a_path_read_the_bundled_example_and_say_so(cli: Any) -> None:
    checked = cli("check")
    assert checked.exit_code == 0, checked.stderr
    assert "campaign: no campaign in this folder, so the bundled example" in checked.stderr
    assert "entries checked with the current rules: 0 errors" in checked.stdout
    shown = cli("stats")
    assert shown.exit_code == 0
    assert shown.stderr.count("so the bundled example") == 1
    assert "Teodora Vance (" in shown.stdout


def test_version_is_printed(cli: Any) -> None:
    import scratchpress

    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"scratchpress {scratchpress.__version__}\n"


def test_a_misspelt_only_kind_says_did_you_mean(cli: Any, tmp_path: Any) -> None:
    import re

    result = cli("build", "--example", "-o", tmp_path / "out", "--only", "sheet")
    assert result.exit_code == 2
    shown = re.sub(r"[\s│╭╮╰╯─]+", " ", result.output)  # unwrapped from typer's error box
    assert "unknown kind 'sheet' (did you mean 'sheets'?)" in shown


# --------------------------------------------------------------------------------------------
# schema stats: the schema `stats --json` follows, shipped in the package


def test_schema_stats_prints_the_schema_of_stats_json(cli: Any) -> None:
    from scratchpress.definitions.schema import STATS_SCHEMA_FILE

    result = cli("schema", "stats")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(STATS_SCHEMA_FILE.read_text(encoding="utf-8"))
    assert json.loads(result.stdout)["title"] == "scratchpress stats --json"


def test_schema_stats_writes_a_file_that_the_example_validates_against(
    cli: Any, tmp_path: Any
) -> None:
    import jsonschema

    target = tmp_path / "stats.schema.json"
    result = cli("schema", "stats", "-o", target)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip() == f"wrote {target}"
    validator = jsonschema.Draft202012Validator(json.loads(target.read_text(encoding="utf-8")))
    document = json.loads(cli("stats", "--example", "--format-version", "2").stdout)
    assert list(validator.iter_errors(document)) == []


def test_schema_help_lists_stats(cli: Any) -> None:
    result = cli("schema", "--help")
    assert result.exit_code == 0
    assert "definitions|settings|stats" in result.stdout
