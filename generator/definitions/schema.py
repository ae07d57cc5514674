"""JSON Schemas of a definitions file and of ``scratchpress.toml``, for editors.

An editor with a YAML or TOML language server reads these to complete keys, list the
allowed values and underline a typo such as ``abilites:`` while the file is being written,
long before ``scratchpress check``. They are generated from the pydantic models the loader
validates with, so the two cannot drift apart. The checks the loader makes outside the
models (ability names, a vehicle's movement, the keys of ``printed:``) are added here from
the same catalogues ``campaign.py`` and ``statblocks.py`` use; the models themselves, and
so validation at run time, are untouched.

Pure: nothing here reads a campaign's files or writes any (``cli/schema.py`` writes). The
schema of ``stats --json`` is the one exception to "generated": it is the promise scripts
rely on, written by hand and shipped in the package (``schemas/stats.schema.json``), and
read from there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..rules import CharacterStats, CommunityStats, VehicleStats
from ..rules.abilities import CHARACTER_ABILITIES, OLDER_NAMES, VEHICLE_ABILITIES, VEHICLE_MOVEMENT
from ..rules.printed import PRINTABLE
from .models import ENTRY_MODELS, Settings

DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"  # what pydantic emits

# What each top-level list holds, for the editor's hover text.
LIST_DESCRIPTIONS: Final[dict[str, str]] = {
    "characters": "Player characters, adversaries and anyone else with a stat block.",
    "npcs": "Roster NPCs: like characters, on the roster and initiative cards, no sheet.",
    "vehicles": "Vehicles, each with its own sheet and optional crew.",
    "communities": "Resilience communities and their three defenses.",
    "events": "Resilience events added to the built-in deck (or replacing one by id).",
    "careers": "Resilience careers added to the built-in ones (or replacing one by id).",
    "project_ideas": "Ready-made community projects added to the built-in ones.",
    "factions": "Recurring powers added to the built-in ones (or replacing one by id).",
    "encounters": "Opponents of an event's encounter, replacing the built-in ones by event id.",
}

_CHARACTER_NAMES = (*CHARACTER_ABILITIES, *OLDER_NAMES)  # the loader reads "stalking" too


def _names(names: Sequence[str]) -> dict[str, Any]:
    return {"propertyNames": {"enum": list(names)}}


# (model, field) -> what to add to that field's schema. The abilities maps are plain
# ``dict[str, ...]`` in the models so that the loader can say "did you mean" with a line
# number; here the names become a closed list an editor can offer.
_EXTRA: Final[dict[tuple[str, str], dict[str, Any]]] = {
    ("CharacterDef", "abilities"): _names(_CHARACTER_NAMES),
    ("MinionDef", "abilities"): _names(_CHARACTER_NAMES),
    ("VehicleDef", "abilities"): _names(VEHICLE_ABILITIES),
    ("VehicleDef", "movement"): {"enum": list(VEHICLE_MOVEMENT)},
    ("CharacterDef", "printed"): _names(PRINTABLE[CharacterStats]),
    ("MinionDef", "printed"): _names(PRINTABLE[CharacterStats]),
    ("VehicleDef", "printed"): _names(PRINTABLE[VehicleStats]),
    ("CommunityDef", "printed"): _names(PRINTABLE[CommunityStats]),
    # A field validator in the model; a decision offers two or three choices.
    ("EventDecision", "choices"): {"minItems": 2, "maxItems": 3},
}


class _DefinitionsFile(BaseModel):
    # The loader rejects unknown top-level keys; a key with nothing under it is skipped.
    model_config = ConfigDict(extra="forbid")


def _file_model() -> type[BaseModel]:
    fields: dict[str, Any] = {
        key: (list[model] | None, Field(None, description=LIST_DESCRIPTIONS[key]))  # type: ignore[valid-type]
        for key, model in ENTRY_MODELS.items()
    }
    return create_model(
        "DefinitionsFile",
        __base__=_DefinitionsFile,
        __doc__="A scratchpress definitions file: any of its top-level lists, in any order.",
        **fields,
    )


def _add_extras(schema: dict[str, Any]) -> dict[str, Any]:
    for (model, field), extra in _EXTRA.items():
        # A KeyError here means a model or field was renamed: keep _EXTRA in step.
        schema["$defs"][model]["properties"][field].update(extra)
    return schema


def _finish(schema: dict[str, Any], title: str) -> dict[str, Any]:
    return {"$schema": DIALECT, "title": title, **{k: v for k, v in schema.items() if k != "title"}}


def definitions_schema() -> dict[str, Any]:
    """The schema of one campaign ``*.yaml`` file (not ``booklet.yaml``, see booklets.md)."""
    schema = _add_extras(_file_model().model_json_schema())
    return _finish(schema, "scratchpress definitions file")


def settings_schema() -> dict[str, Any]:
    """The schema of ``scratchpress.toml``, its ``[build]`` table included."""
    return _finish(Settings.model_json_schema(), "scratchpress.toml")


STATS_SCHEMA_FILE: Final = Path(__file__).resolve().parent.parent / "schemas" / "stats.schema.json"


def stats_schema() -> dict[str, Any]:
    """The schema of ``stats --json``, both formats (docs/json.md)."""
    schema: dict[str, Any] = json.loads(STATS_SCHEMA_FILE.read_text(encoding="utf-8"))
    return schema


SCHEMAS: Final[dict[str, Callable[[], dict[str, Any]]]] = {
    "definitions": definitions_schema,
    "settings": settings_schema,
    "stats": stats_schema,
}
