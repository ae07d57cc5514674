"""docs/definitions.md against the models: every key documented, nothing documented that
is not a key, and the sample campaign a reader copies works.

Each table of keys in the page follows a marker naming its model, such as
``<!-- keys: CharacterDef -->``; its first column holds the keys in backticks. A table with a
``required`` column must say ``yes`` exactly for the required keys; one with a ``default``
column must show each default as TOML writes it; and every choice of a short enumeration
must appear in its key's row.
"""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import jsonschema
import pytest
import yaml
from pydantic import BaseModel

from scratchpress.definitions.models import ENTRY_MODELS, Settings
from scratchpress.definitions.schema import definitions_schema

# These tests are about what happens around a render: builds use the stand-in (standin.py).
pytestmark = pytest.mark.usefixtures("stand_in_renderer")

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "definitions.md"
TEXT = DOC.read_text(encoding="utf-8")
FILE_MARKER = "definitions file"
LONG_ENUM = 10  # longer lists (abilities, themes) are written out in the catalogue instead


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in get_args(annotation) for m in _models_in(arg)]


def _all_models() -> dict[str, type[BaseModel]]:
    """Every model a campaign file or scratchpress.toml can contain, by class name."""
    found: dict[str, type[BaseModel]] = {}
    todo: list[type[BaseModel]] = [*ENTRY_MODELS.values(), Settings]
    while todo:
        model = todo.pop()
        if model.__name__ in found:
            continue
        found[model.__name__] = model
        for field in model.model_fields.values():
            todo += _models_in(field.annotation)
    return found


MODELS = _all_models()


def _table_after(marker: str) -> tuple[list[str], list[list[str]]]:
    """The header cells and rows of the table right after ``<!-- keys: marker -->``."""
    found = re.findall(rf"<!-- keys: {re.escape(marker)} -->\n((?:[ \t]*\|.*\n)+)", TEXT)
    assert len(found) == 1, f"docs/definitions.md needs one '<!-- keys: {marker} -->' table"
    lines = [line.strip() for line in found[0].splitlines()]
    split = [[c.strip() for c in line.strip("|").split(" | ")] for line in lines]
    return [h.lower() for h in split[0]], split[2:]


def _keys(cell: str) -> list[str]:
    return re.findall(r"`([a-z_]+)`", cell)


def _rows(marker: str) -> tuple[list[str], dict[str, list[str]]]:
    header, rows = _table_after(marker)
    by_key: dict[str, list[str]] = {}
    for row in rows:
        keys = _keys(row[0])
        assert len(keys) == 1, f"{marker}: one key per row, got {row[0]!r}"
        assert keys[0] not in by_key, f"{marker}: {keys[0]} documented twice"
        by_key[keys[0]] = row
    return header, by_key


def _literals(annotation: Any) -> list[Any]:
    origin = get_origin(annotation)
    if origin is Literal:
        return list(get_args(annotation))
    if origin in (Annotated, Union, types.UnionType, list, dict):
        return [v for arg in get_args(annotation) for v in _literals(arg)]
    return []


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value)


def test_every_model_has_a_table() -> None:
    assert {"CharacterDef", "MinionDef", "Settings", "BuildOptions", "Event"} <= set(MODELS)
    documented = set(re.findall(r"<!-- keys: (.+?) -->", TEXT))
    assert documented == {*MODELS, FILE_MARKER}


def test_the_top_level_lists_are_documented() -> None:
    _, rows = _rows(FILE_MARKER)
    assert list(rows) == list(ENTRY_MODELS)
    assert "three top-level lists" not in TEXT


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_key_is_documented(name: str) -> None:
    model = MODELS[name]
    header, rows = _rows(name)
    assert set(rows) == set(model.model_fields), f"keys of {name}"
    for key, field in model.model_fields.items():
        row = rows[key]
        if "required" in header:
            said = row[header.index("required")]
            assert said == ("yes" if field.is_required() else "no"), f"{name}.{key} required"
        if "default" in header and not field.is_required():
            default = field.get_default(call_default_factory=True)
            if default is not None and not isinstance(default, BaseModel):
                cell = row[header.index("default")]
                assert f"`{_toml(default)}`" in cell, f"{name}.{key} default {default!r}"
        choices = _literals(field.annotation)
        if 0 < len(choices) <= LONG_ENUM:
            text = " | ".join(row)
            missing = [c for c in choices if f"`{c}`" not in text and f'`"{c}"`' not in text]
            assert missing == [], f"{name}.{key} choices"


def _code_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", TEXT, re.S)


def test_yaml_samples_are_valid_definitions() -> None:
    validator = jsonschema.Draft202012Validator(definitions_schema())
    checked = 0
    for block in _code_blocks("yaml"):
        data = yaml.safe_load(block)
        if not isinstance(data, dict) or not set(data) <= set(ENTRY_MODELS):
            continue  # a fragment (one entry, an abilities mapping), not a whole file
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], block
        checked += 1
    assert checked >= 5


SAMPLE = TEXT.split("## A small complete campaign", 1)[1].split("\n---\n", 1)[0]


@pytest.fixture
def sample(write_campaign: Any) -> Path:
    toml_text, yaml_text = (
        re.search(rf"```{lang}\n(.*?)```", SAMPLE, re.S) for lang in ("toml", "yaml")
    )
    assert toml_text and yaml_text
    folder: Path = write_campaign(
        {"scratchpress.toml": toml_text.group(1), "campaign.yaml": yaml_text.group(1)},
        name="my-campaign",
    )
    return folder


def test_the_sample_campaign_checks_with_the_numbers_the_page_gives(sample: Path, cli: Any) -> None:
    assert cli("check", sample).exit_code == 0
    blocks = {b["name"]: b for b in json.loads(cli("stats", sample, "--json").stdout)}
    rosa = blocks["Rosa Quint"]
    assert (rosa["agility"], rosa["intelligence"], rosa["strength"], rosa["stamina"]) == (
        12,
        10,
        10,
        1,
    )
    assert rosa["group_initiative_bonus"] == 4
    assert (blocks["Calder Voss"]["cp"], blocks["Gate-boy"]["cp"]) == (10, 3)
    assert blocks["Sparrow"]["crewed_abilities"]["quickness"] == 5


def test_the_sample_campaign_builds(sample: Path, cli: Any, tmp_path: Path) -> None:
    # A portrait in the sample that nobody has would pass `check` and fail here.
    assert "portrait:" not in (sample / "campaign.yaml").read_text(encoding="utf-8")
    result = cli("build", sample, "-o", tmp_path / "out", "--only", "sheets", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").glob("*.pdf")) == [
        "sheet-calder-voss.pdf",
        "sheet-rosa-quint.pdf",
    ]


def test_editor_support_is_documented() -> None:
    assert "scratchpress schema -o .scratchpress/definitions.schema.json" in TEXT
    assert "# yaml-language-server: $schema=.scratchpress/definitions.schema.json" in TEXT
    assert "#:schema ./.scratchpress/settings.schema.json" in TEXT
    assert "scratchpress schema settings -o .scratchpress/settings.schema.json" in TEXT


def test_paper_and_units_nobody_chose_follow_the_language() -> None:
    """Letter and both kinds of weight in English; A4 and metric in every other language;
    any choice made, at any level, wins over that."""
    from scratchpress.definitions.models import Settings

    english = Settings().build_options()
    assert (english.language, english.paper, english.units) == ("en", "letter", "both")
    german = Settings(language="de").build_options()
    assert (german.paper, german.units) == ("a4", "metric")
    assert Settings(language="de", paper="letter").build_options().paper == "letter"
    assert Settings(language="de").build_options({"units": "imperial"}).units == "imperial"
    # --language on the command line moves the defaults with it
    assert Settings().build_options({"language": "fr"}).paper == "a4"
    assert Settings(language="ja").build_options({"language": "en"}).paper == "letter"
