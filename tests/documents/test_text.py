"""`stats --json`, both formats: the bare list of format 1 and the versioned document of
`--format-version 2`, held to the schema shipped in the package (`scratchpress schema
stats`), to docs/json.md, and to a record of every key so that none goes missing while the
version stays the same."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import scratchpress
from scratchpress.definitions.schema import STATS_SCHEMA_FILE, stats_schema
from scratchpress.documents.text import FORMAT, FORMAT_VERSION
from scratchpress.resources import examples_dir

from conftest import Cli, WriteCampaign

REPO = Path(__file__).resolve().parents[2]
PACKAGE = Path(scratchpress.__file__).resolve().parent
DOCS = REPO / "docs" / "json.md"
DOCS_SCHEMA = REPO / "docs" / "stats-json.schema.json"
KEYS_FILE = Path(__file__).resolve().parent / "fixtures" / "stats-json-keys.json"
RULESETS = ("current", "early", "classic")

SCHEMA = stats_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _errors(data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data)
    ]


def _run(cli: Cli, *args: str | Path) -> Any:
    result = cli("stats", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def example() -> dict[tuple[str, str], Any]:
    """The example campaign's output, (format, ruleset) -> parsed JSON."""
    cli = Cli()
    out = {}
    for rules in RULESETS:
        out["1", rules] = _run(cli, examples_dir(), "--json", "--rules", rules)
        out["2", rules] = _run(cli, examples_dir(), "--format-version", "2", "--rules", rules)
    return out


# --------------------------------------------------------------------------------------------
# the schema: shipped, printed, copied into docs/


def test_the_shipped_schema_is_a_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == jsonschema.Draft202012Validator.META_SCHEMA["$id"]


def test_the_wheel_carries_the_schema() -> None:
    # The wheel's data files are the package-data patterns of pyproject.toml (.ci/release
    # builds the real wheel); the schema is read from inside the package, not docs/.
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["scratchpress"]
    shipped = {
        path.relative_to(PACKAGE).as_posix()
        for pattern in patterns
        for path in PACKAGE.glob(pattern)
        if path.is_file()
    }
    assert "schemas/stats.schema.json" in shipped
    assert STATS_SCHEMA_FILE == PACKAGE / "schemas" / "stats.schema.json"


def test_the_docs_copy_is_the_shipped_schema() -> None:
    assert DOCS_SCHEMA.read_bytes() == STATS_SCHEMA_FILE.read_bytes(), (
        "docs/stats-json.schema.json differs from generator/schemas/stats.schema.json:"
        " edit the one in generator/schemas/ and copy it to docs/"
    )


# --------------------------------------------------------------------------------------------
# the example campaign against the schema


@pytest.mark.parametrize("rules", RULESETS)
@pytest.mark.parametrize("version", ["1", "2"])
def test_the_example_matches_the_schema(example: Any, version: str, rules: str) -> None:
    assert _errors(example[version, rules]) == []


def test_format_1_is_the_bare_list_of_stat_blocks(example: Any) -> None:
    data = example["1", "current"]
    assert isinstance(data, list)
    assert [b["kind"] for b in data][:2] == ["character", "minion"]


def test_format_2_says_what_it_is_and_its_version(example: Any) -> None:
    data = example["2", "current"]
    assert (data["format"], data["version"]) == ("scratchpress-stats", 2)
    assert (FORMAT, FORMAT_VERSION) == ("scratchpress-stats", 2)
    assert SCHEMA["$defs"]["document"]["properties"]["version"]["const"] == FORMAT_VERSION
    assert data["ruleset"] == "current"


@pytest.mark.parametrize("rules", RULESETS)
def test_format_2_blocks_are_format_1_entry_for_entry(example: Any, rules: str) -> None:
    assert example["2", rules]["blocks"] == example["1", rules]


def test_the_schema_refuses_a_document_without_its_version(example: Any) -> None:
    data = copy.deepcopy(example["2", "current"])
    del data["version"]
    assert _errors(data)
    data["version"] = 1
    assert _errors(data)


# --------------------------------------------------------------------------------------------
# initiative groups, encounters and the community


def test_initiative_groups_are_the_cards_groups(example: Any) -> None:
    rookery, wardens = example["2", "current"]["initiative_groups"]
    assert (rookery["name"], rookery["bonus"], rookery["each_rolls"]) == ("The Rookery", 38, False)
    assert rookery["rule"] == (
        "group initiative bonus 38 = 2 x best stealth 4 + 10 x best detection 3"
    )
    assert rookery["members"][:2] == [
        {"kind": "character", "name": "Hester Greaves", "leader": None, "count": 1},
        {"kind": "minion", "name": "Ledger-hands", "leader": "Hester Greaves", "count": 2},
    ]
    # The same bonus each member's own entry carries.
    hester = example["2", "current"]["blocks"][0]
    assert (hester["group"], hester["group_initiative_bonus"]) == ("The Rookery", 38)
    assert wardens["name"] == "Weir Wardens"


def test_under_early_rules_each_member_rolls_alone(example: Any) -> None:
    rookery = example["2", "early"]["initiative_groups"][0]
    assert rookery["each_rolls"] is True
    assert rookery["rule"].endswith("= best member's own bonus (each rolls)")


def test_a_leader_without_a_group_rolls_with_the_minions(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    folder = write_campaign(
        {
            "party.yaml": """\
                characters:
                  - name: The Boss
                    abilities: {command: 4, detection: 1, toughness: 3}
                    minions:
                      - {name: Thugs, count: 2, abilities: {toughness: 2}}
                """
        }
    )
    [group] = _run(cli, folder, "--format-version", "2")["initiative_groups"]
    assert (group["name"], group["bonus"]) == ("The Boss & minions", 10)
    assert [(m["name"], m["count"]) for m in group["members"]] == [("The Boss", 1), ("Thugs", 2)]


def test_encounters_hold_each_events_opponents(example: Any) -> None:
    encounters = example["2", "current"]["encounters"]
    burst = encounters[0]
    assert (burst["event"], burst["title"], burst["builtin"]) == (
        "boiler-burst",
        "Boiler Burst",
        True,
    )
    assert burst["encounter"].endswith("a wiry leader and three helpers with pry-bar spears.")
    assert [(o["kind"], o["name"], o.get("count", 1)) for o in burst["opponents"]] == [
        ("character", "Wiry picker boss", 1),
        ("minion", "Pry-bar helpers", 2),
        ("character", "Copper sorter", 1),
    ]
    group = burst["initiative_group"]
    assert (group["name"], group["bonus"]) == ("Boiler Burst", 8)
    assert {o["group_initiative_bonus"] for o in burst["opponents"]} == {8}
    assert len({e["event"] for e in encounters}) == len(encounters)


def test_a_campaigns_encounter_replaces_the_builtin_one(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    folder = write_campaign(
        {
            "encounters.yaml": """\
                encounters:
                  - event: boiler-burst
                    opponents:
                      - name: Night watchman gone bad
                        abilities: {shooting: 3, toughness: 3, detection: 2}
                """
        }
    )
    encounters = _run(cli, folder, "--format-version", "2")["encounters"]
    burst = next(e for e in encounters if e["event"] == "boiler-burst")
    assert burst["builtin"] is False
    [watchman] = burst["opponents"]
    assert (watchman["name"], watchman["hit_points"], watchman["group"]) == (
        "Night watchman gone bad",
        3,
        "Boiler Burst",
    )
    assert burst["initiative_group"]["bonus"] == 20  # 10 x detection 2


def test_an_encounter_with_minions_but_no_command_stops_format_2_naming_the_opponent(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    folder = write_campaign(
        {
            "encounters.yaml": """\
                encounters:
                  - event: boiler-burst
                    opponents:
                      - name: Foreman
                        abilities: {toughness: 3}
                        minions:
                          - {name: Stokers, count: 3, abilities: {toughness: 2}}
                """
        }
    )
    result = cli("stats", folder, "--format-version", "2")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == (
        'campaign/encounters.yaml:6: entry "Foreman": opponents.0.minions:'
        " only a character with command has minions"
    )
    # Format 1 holds no encounters, so it still prints.
    assert cli("stats", folder, "--json").exit_code == 0


def test_the_community_carries_its_projects_and_history(example: Any) -> None:
    [town] = [b for b in example["2", "current"]["blocks"] if b["kind"] == "community"]
    first, _, third, fourth = town["projects"]
    assert first == {
        "year": 1,
        "player": "Priya",
        "name": "Ferrocement cisterns on the terraces",
        "develop": {"environment": 3},
        "sacrifice": {},
        "roll": 15,
        "difficulty": 13,
        "result": "success",
        # The Weeping Dam took 7 economy before anyone started a project.
        "before": {"economy": 5, "environment": 7, "equity": 11},
        "after": {"economy": 5, "environment": 10, "equity": 11},
        "problems": [],
    }
    assert (third["sacrifice"], third["difficulty"]) == ({"environment": 1}, 8)
    assert (fourth["roll"], fourth["result"]) == (None, "automatic")
    [year] = town["history"]
    assert (year["event"], year["damage"], year["bonus"]) == (
        "The Weeping Dam",
        {"economy": 7},
        {"environment": 1, "equity": 1},
    )
    # The row states where the year ended; that is the community now.
    assert town["now"] == {k: year[k] for k in ("economy", "environment", "equity")}


def test_a_project_still_to_roll_has_no_result_yet(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {
            "town.yaml": """\
                communities:
                  - name: Stillwater
                    players: 3
                    economy: 10
                    environment: 10
                    equity: 10
                    projects:
                      - {year: 2, develop: {equity: 4}}
                """
        }
    )
    [town] = _run(cli, folder, "--format-version", "2")["blocks"]
    [project] = town["projects"]
    assert (project["roll"], project["result"], project["after"]) == (None, None, None)
    assert project["problems"] == ["a small project develops at most 3 levels, this one develops 4"]
    assert (town["history"], town["year"]) == ([], 2)
    assert _errors([town]) == []


# --------------------------------------------------------------------------------------------
# every key documented, and none removed or renamed without a new version


def schema_keys(schema: dict[str, Any]) -> dict[str, list[str]]:
    """Each definition of the schema to the dotted keys it declares (``carry.pack_kg``);
    a key whose value is another definition is recorded there, not followed."""

    def keys(node: Any, prefix: str) -> set[str]:
        found: set[str] = set()
        if not isinstance(node, dict):
            return found
        for key, value in node.get("properties", {}).items():
            found |= {prefix + key, *keys(value, f"{prefix}{key}.")}
        for branch in (*node.get("oneOf", []), *node.get("anyOf", []), node.get("items")):
            found |= keys(branch, prefix)
        return found

    named = {name: sorted(keys(node, "")) for name, node in schema["$defs"].items()}
    return {name: found for name, found in named.items() if found}


def removed_keys(recorded: dict[str, list[str]], schema: dict[str, Any]) -> list[str]:
    now = schema_keys(schema)
    return [
        f"{name}: {key}"
        for name, ks in recorded.items()
        for key in ks
        if key not in now.get(name, [])
    ]


def test_no_key_is_removed_or_renamed_while_the_version_stays() -> None:
    record = json.loads(KEYS_FILE.read_text(encoding="utf-8"))
    assert record["version"] == FORMAT_VERSION, (
        f"the format is now version {FORMAT_VERSION}: record its keys in {KEYS_FILE.name}"
        " (schema_keys(stats_schema()) in this file) and say what changed in docs/json.md"
    )
    assert removed_keys(record["keys"], SCHEMA) == [], (
        f"keys gone from version {FORMAT_VERSION}: scripts that read them break. Keep them,"
        " or make a new version (FORMAT_VERSION in documents/text.py) and record its keys"
    )


def test_the_record_holds_every_key_of_the_schema() -> None:
    # Adding a key is fine within a version; recording it is what guards it from then on.
    record = json.loads(KEYS_FILE.read_text(encoding="utf-8"))
    assert schema_keys(SCHEMA) == record["keys"]


def test_the_key_record_notices_a_renamed_key() -> None:
    record = json.loads(KEYS_FILE.read_text(encoding="utf-8"))
    doctored = copy.deepcopy(SCHEMA)
    vehicle = doctored["$defs"]["vehicle"]["properties"]
    vehicle["fuel_boxes"] = vehicle.pop("fuel")
    del doctored["$defs"]["character"]["properties"]["carry"]["oneOf"][0]["properties"]["lift_kg"]
    assert removed_keys(record["keys"], doctored) == ["character: carry.lift_kg", "vehicle: fuel"]


def test_every_key_of_the_schema_is_in_the_doc() -> None:
    doc = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_]+)`", doc))
    missing = [
        f"{name}: {key}"
        for name, keys in schema_keys(SCHEMA).items()
        for key in keys
        if key.rpartition(".")[2] not in documented
    ]
    assert missing == []
    assert "scratchpress schema stats" in doc and "--format-version 2" in doc


# --------------------------------------------------------------------------------------------
# `stats --explain` (issue 26, point 6): warnings beside the numbers, a minion's CP against
# its leader's command, each ruleset's own word for an ability, a vehicle that cannot move

EXPLAINED = """\
characters:
  - name: The Boss
    abilities: {shooting: 2, detection: 1, command: 4, toughness: 3}
    minions:
      - name: Thugs
        count: 2
        abilities: {toughness: 2}
  - name: Redshift
    abilities: {stalking: 5, toughness: 3}
vehicles:
  - name: Drifter
    movement: spaceflight
    abilities: {stalking: 1, spaceflight: 3, toughness: 8}
"""


def _explained(cli: Cli, write_campaign: WriteCampaign, *args: str) -> dict[str, list[str]]:
    result = cli("stats", write_campaign({"c.yaml": EXPLAINED}), "--explain", *args)
    assert result.exit_code == 0, result.stderr
    chunks = result.stdout.strip("\n").split("\n\n")
    return {chunk.split(" (")[0]: chunk.split("\n") for chunk in chunks}


def test_explain_prints_a_characters_warnings(cli: Cli, write_campaign: WriteCampaign) -> None:
    redshift = _explained(cli, write_campaign)["Redshift"]
    assert redshift[-2:] == [
        "    CP 8 of 10 (max level 4)",
        "    warning: stealth 5 is above the maximum level 4",
    ]


def test_explain_prints_why_a_vehicle_cannot_move(cli: Cli, write_campaign: WriteCampaign) -> None:
    drifter = _explained(cli, write_campaign)["Drifter"]
    assert (
        "    defense 11 = 10 + stalking 1"
        " (spaceflight not counted: it cannot move with no operator and no autopilot)"
    ) in drifter
    assert "    evading 11 = defense 11 (it cannot move, so it cannot evade)" in drifter
    assert drifter[-1] == (
        "    warning: has no operator and no autopilot, so it cannot move, grapple or ram"
    )


def test_explain_holds_a_minion_to_its_leaders_command(
    cli: Cli, write_campaign: WriteCampaign
) -> None:
    thugs = _explained(cli, write_campaign)["Thugs"]
    assert thugs[-1] == (
        "    CP 2 each; The Boss's minions spend 4 CP of command 4"
        " (the total may not exceed the leader's command)"
    )
    assert not any("of 10" in line for line in thugs)


def test_classic_prints_stalking_in_its_own_words(cli: Cli, write_campaign: WriteCampaign) -> None:
    redshift = _explained(cli, write_campaign, "--rules", "classic")["Redshift"]
    assert redshift[:3] == ["Redshift (15 defense, 1 stamina)", "5 stalking", "3 toughness"]
    assert "    initiative bonus 50 = 10 x stalking 5 + 10 x detection 0" in redshift
    assert "    warning: stalking 5 is above the maximum level 4" in redshift
    current = _explained(cli, write_campaign)["Redshift"]
    assert current[1] == "5 stealth"


def test_stats_shows_where_the_log_took_the_community_and_what_it_breaks(
    tmp_path: Path,
) -> None:
    """`stats` reads a community's log as the sheet and `check` do: the values now, and
    each rule the log breaks, under the community's block."""
    from scratchpress import api

    (tmp_path / "weir.yaml").write_text(
        "communities:\n"
        "  - name: Weir\n    players: 2\n    economy: 10\n    environment: 10\n"
        "    equity: 10\n    projects:\n"
        "      - {player: Ann, name: Mill, develop: {economy: 2}, sacrifice: {economy: 1},"
        " roll: 15}\n"
        "    history:\n      - {year: 1, bonus: {equity: 1}}\n"
    )
    text = api.stats_text(api.open_campaign(api.find_campaign([tmp_path])))
    lines = text.splitlines()
    now = next(line for line in lines if line.startswith("now, after year 1: "))
    assert now.endswith("economy, 10 environment, 11 equity")
    assert (
        "    error: projects.0.sacrifice.economy: cannot sacrifice economy, the defense this"
        " project develops"
    ) in lines
