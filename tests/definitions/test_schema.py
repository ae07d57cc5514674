"""The editor schemas (`scratchpress schema`): what the loader accepts they accept, what it
refuses for a misspelt key or name they refuse, and every key explains itself."""

from __future__ import annotations

import json
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from scratchpress.cli.app import app
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.files import RESERVED_FILES
from scratchpress.definitions.models import ENTRY_MODELS, CharacterDef
from scratchpress.definitions.schema import DIALECT, definitions_schema, settings_schema
from scratchpress.definitions.settings import SETTINGS_FILE
from scratchpress.problems import InputError
from scratchpress.rules.abilities import (
    CHARACTER_ABILITIES,
    OLDER_NAMES,
    VEHICLE_ABILITIES,
    VEHICLE_MOVEMENT,
)

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
FIXTURES = REPO / "tests" / "documents" / "fixtures"
CONTENT = REPO / "generator" / "content" / "resilience"


def _validator(schema: dict[str, Any]) -> jsonschema.protocols.Validator:
    # The dialect we emit is the one we validate with: a change of dialect shows up here.
    assert schema["$schema"] == DIALECT == jsonschema.Draft202012Validator.META_SCHEMA["$id"]
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


DEFINITIONS = _validator(definitions_schema())
SETTINGS = _validator(settings_schema())


def _errors(validator: jsonschema.protocols.Validator, data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(data)
    ]


def _definition_files(folder: Path) -> list[Path]:
    # The loader's own rule: every *.yaml except the reserved booklet.yaml.
    return sorted(
        p
        for p in folder.rglob("*.y*ml")
        if p.suffix in {".yaml", ".yml"} and p.name not in RESERVED_FILES
    )


# --------------------------------------------------------------------------------------------
# what the project ships validates


@pytest.mark.parametrize(
    "path",
    _definition_files(EXAMPLES) + _definition_files(FIXTURES) + _definition_files(CONTENT),
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_shipped_definitions_validate(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert _errors(DEFINITIONS, data) == []


def test_the_examples_have_definitions_to_check() -> None:
    names = {p.name for p in _definition_files(EXAMPLES)}
    assert {"party.yaml", "vehicles.yaml", "community.yaml"} <= names
    assert "booklet.yaml" not in names  # a booklet, not a definitions file


@pytest.mark.parametrize(
    "path", sorted([*EXAMPLES.glob(SETTINGS_FILE), *FIXTURES.rglob(SETTINGS_FILE)])
)
def test_shipped_settings_validate(path: Path) -> None:
    assert _errors(SETTINGS, tomllib.loads(path.read_text(encoding="utf-8"))) == []


def test_every_settings_key_with_a_build_table_validates() -> None:
    text = """\
    rules = "early"
    cp = 12
    max_level = 5
    paper = "a4"
    units = "metric"
    duplex_offset_mm = [1.5, -0.5]

    [build]
    paper = "letter"
    units = "imperial"
    cards = "index"
    tent = true
    backs = "fold"
    bleed = true
    duplex_edge = "short"
    ink_saver = true
    carry_range = "1-40"
    only = ["sheets", "initiative"]
    impose = "saddle"
    jobs = 2
    png = true
    strict = true
    """
    assert _errors(SETTINGS, tomllib.loads(textwrap.dedent(text))) == []


def test_older_names_and_empty_lists_validate() -> None:
    # The loader reads "stalking" as stealth, and skips a list with nothing under it.
    data = {
        "characters": [{"name": "Old", "abilities": {"stalking": 2, "toughness": 2}}],
        "vehicles": None,
    }
    assert _errors(DEFINITIONS, data) == []


# --------------------------------------------------------------------------------------------
# what a typo looks like: refused by the schema and by the loader alike

CHARACTER = "characters:\n  - name: Rosa\n    abilities: {toughness: 3, stealth: 2}\n"

BAD_DEFINITIONS = {
    "misspelt key": "characters:\n  - name: Rosa\n    abilites: {toughness: 3}\n",
    "misspelt ability": "characters:\n  - name: Rosa\n    abilities: {agilty: 2, toughness: 3}\n",
    "misspelt minion ability": CHARACTER.replace(
        "stealth: 2}", "command: 2}\n    minions:\n      - {name: Dog, abilities: {toughnes: 1}}"
    ),
    "misspelt top-level list": CHARACTER.replace("characters:", "charaters:"),
    "misspelt nested key": CHARACTER.replace("stealth: 2", "stealth: {levle: 2}"),
    "misspelt crew seat": (
        CHARACTER + "vehicles:\n  - name: Bike\n    movement: quickness\n"
        "    abilities: {quickness: 2, toughness: 3}\n    crew: {opertor: Rosa}\n"
    ),
    "vehicle ability from the character list": (
        "vehicles:\n  - name: Bike\n    movement: quickness\n"
        "    abilities: {quickness: 2, toughness: 3, stealth: 1}\n"
    ),
    "movement that is not one": (
        "vehicles:\n  - name: Bike\n    movement: toughness\n    abilities: {toughness: 3}\n"
    ),
    "level that is not a whole number": CHARACTER.replace("stealth: 2", "stealth: two"),
    "level 0": CHARACTER.replace("stealth: 2", "stealth: 0"),
    "community defense missing": "communities:\n  - {name: Town, economy: 10, environment: 10}\n",
    "project develops a non-defense": (
        "communities:\n  - name: Town\n    economy: 10\n    environment: 10\n    equity: 10\n"
        "    projects:\n      - {year: 1, develop: {wealth: 2}}\n"
    ),
}


@pytest.mark.parametrize("text", BAD_DEFINITIONS.values(), ids=BAD_DEFINITIONS.keys())
def test_a_typo_fails_both_schema_and_loader(text: str, tmp_path: Path) -> None:
    assert _errors(DEFINITIONS, yaml.safe_load(text)), "the schema accepted it"
    (tmp_path / "campaign.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError):
        load_campaign([tmp_path])


def test_a_misspelt_printed_value_fails() -> None:
    # `check` refuses it (statblocks.PRINTABLE), so the editor underlines it too.
    data = yaml.safe_load(CHARACTER + "    printed: {agilty: 12}\n")
    assert _errors(DEFINITIONS, data)
    assert _errors(DEFINITIONS, yaml.safe_load(CHARACTER + "    printed: {agility: 12}\n")) == []


BAD_SETTINGS = {
    "paper A5": 'paper = "A5"\n',
    "typo in [build]": "[build]\ntnet = true\n",
    "bad choice in [build]": '[build]\ncards = "tarot"\n',
    "unknown kind in only": '[build]\nonly = ["sheets", "posters"]\n',
    "misspelt top-level key": 'rule = "early"\n',
    "string for a flag": '[build]\ntent = "yes"\n',
    "one duplex offset": "duplex_offset_mm = [1.0]\n",
}


@pytest.mark.parametrize("text", BAD_SETTINGS.values(), ids=BAD_SETTINGS.keys())
def test_a_bad_setting_fails_both_schema_and_loader(text: str, tmp_path: Path) -> None:
    assert _errors(SETTINGS, tomllib.loads(text)), "the schema accepted it"
    (tmp_path / SETTINGS_FILE).write_text(text, encoding="utf-8")
    (tmp_path / "campaign.yaml").write_text(CHARACTER, encoding="utf-8")
    with pytest.raises(InputError):
        load_campaign([tmp_path])


# --------------------------------------------------------------------------------------------
# the schemas themselves


def _objects(node: Any, where: str = "#") -> list[tuple[str, dict[str, Any]]]:
    """Every schema object holding ``properties``, with where it is."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        if isinstance(node.get("properties"), dict):
            found.append((where, node))
        for key, value in node.items():
            found += _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _objects(value, f"{where}/{index}")
    return found


@pytest.mark.parametrize(
    "schema", [definitions_schema(), settings_schema()], ids=["definitions", "settings"]
)
def test_every_property_is_described_and_closed(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == DIALECT
    assert schema["title"].startswith("scratchpress")
    objects = _objects(schema)
    assert len(objects) > 1  # nested models are walked too
    undescribed = [
        f"{where}/{name}"
        for where, node in objects
        for name, prop in node["properties"].items()
        if not str(prop.get("description", "")).strip()
    ]
    assert undescribed == []
    # extra="forbid" everywhere: a misspelt key is invalid at every depth.
    assert [where for where, node in objects if node.get("additionalProperties") is not False] == []


def test_the_file_schema_lists_the_nine_top_level_lists() -> None:
    assert list(definitions_schema()["properties"]) == list(ENTRY_MODELS)
    assert len(ENTRY_MODELS) == 9


def test_ability_names_are_the_catalogues() -> None:
    defs = definitions_schema()["$defs"]
    names = lambda model: defs[model]["properties"]["abilities"]["propertyNames"]["enum"]  # noqa: E731
    assert names("CharacterDef") == names("MinionDef") == [*CHARACTER_ABILITIES, *OLDER_NAMES]
    assert names("VehicleDef") == list(VEHICLE_ABILITIES)
    assert defs["VehicleDef"]["properties"]["movement"]["enum"] == list(VEHICLE_MOVEMENT)


def test_enumerations_are_listed() -> None:
    build = settings_schema()["$defs"]["BuildOptions"]["properties"]
    assert build["cards"]["enum"] == ["poker", "index"]
    assert settings_schema()["properties"]["paper"]["enum"] == ["letter", "a4"]
    event = definitions_schema()["$defs"]["Event"]["properties"]
    assert "psy-ops" in event["threat"]["enum"]


def test_runtime_validation_is_unchanged() -> None:
    # The names are the loader's to check, with a line number and a "did you mean".
    assert CharacterDef.model_validate({"name": "x", "abilities": {"agilty": 1}})
    assert "propertyNames" not in json.dumps(
        CharacterDef.model_json_schema()["properties"]["abilities"]
    )


# --------------------------------------------------------------------------------------------
# the command


def test_schema_prints_the_definitions_schema() -> None:
    result = CliRunner().invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == definitions_schema()


def test_schema_settings_writes_a_file(tmp_path: Path) -> None:
    target = tmp_path / "f.json"
    result = CliRunner().invoke(app, ["schema", "settings", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8")) == settings_schema()
    assert result.stdout == ""
    assert result.stderr.strip() == f"wrote {target}"


def test_schema_kind_ignores_case() -> None:
    result = CliRunner().invoke(app, ["schema", "Settings"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["title"] == "scratchpress.toml"


def test_schema_refuses_an_unknown_kind() -> None:
    result = CliRunner().invoke(app, ["schema", "booklet"])
    assert result.exit_code == 2
    assert "definitions" in result.stderr and "settings" in result.stderr


def test_schema_help_lists_the_choices_and_an_example() -> None:
    result = CliRunner().invoke(app, ["schema", "--help"])
    assert result.exit_code == 0
    assert "definitions|settings" in result.stdout
    assert "scratchpress schema -o .scratchpress/definitions.schema.json" in result.stdout


# --------------------------------------------------------------------------------------------
# the starter campaign of `scratchpress new`, once that command exists


def test_the_starter_campaign_validates() -> None:
    from scratchpress.content.starters import starter_files

    files = {name: data.decode("utf-8") for name, data in starter_files().items()}
    checked = 0
    for name, text in files.items():
        path = Path(name)
        if len(path.parts) > 1:
            continue  # only files directly in the campaign folder are definitions or settings
        if path.name == SETTINGS_FILE:
            assert _errors(SETTINGS, tomllib.loads(text)) == [], name
            checked += 1
        elif path.suffix in {".yaml", ".yml"} and path.name not in RESERVED_FILES:
            assert _errors(DEFINITIONS, yaml.safe_load(text)) == [], name
            checked += 1
    assert checked >= 2, f"no definitions or settings among {sorted(files)}"
