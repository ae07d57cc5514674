"""The definitions format: pydantic models that validate a campaign's YAML at the edge.

These models check shape and types only. Whether an ability name exists, a crew member is
in the campaign or minions fit the command are checked with their positions in
``campaign.py``, so every message can name the exact line.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints

from .resilience_models import Career, Event, ProjectIdea

# Generous bounds: the books' mightiest have 10 levels and vehicles 30 toughness; a sheet
# draws one box per hit point, so a typo like 3000 must be an error, not a 3000-box track.
MAX_LEVEL = 100
Level = Annotated[int, Field(strict=True, ge=1, le=MAX_LEVEL)]
DefenseLevel = Annotated[int, Field(strict=True, ge=0, le=MAX_LEVEL)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Text = Annotated[str, StringConstraints(max_length=4000)]


class Model(BaseModel):
    # Unknown keys are errors: a typo such as "abilites" must not silently drop data. Numbers
    # where text is expected (a character named 1984) become text.
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True, frozen=True)


class AbilityEntry(Model):
    level: Level
    note: Text = ""


AbilityValue = Level | AbilityEntry


class DefenseEntry(Model):
    level: DefenseLevel
    note: Text = ""


PrintedValues = dict[str, Annotated[int, Field(strict=True)]]


class MinionDef(Model):
    name: Name
    count: Annotated[int, Field(strict=True, ge=1, le=MAX_LEVEL)] = 1
    description: Text = ""
    abilities: dict[str, AbilityValue]
    printed: PrintedValues = {}


class CharacterDef(Model):
    name: Name
    player: Text = ""
    description: Text = ""
    group: Name | None = None
    portrait: Text | None = None
    career: Name | None = None
    abilities: dict[str, AbilityValue]
    minions: list[MinionDef] = []
    printed: PrintedValues = {}


class CrewDef(Model):
    operator: Name | None = None
    gunner: Name | None = None


class VehicleDef(Model):
    name: Name
    description: Text = ""
    movement: Name
    abilities: dict[str, AbilityValue]
    crew: CrewDef = CrewDef()
    printed: dict[str, Annotated[int, Field(strict=True)] | dict[str, int]] = {}


DefenseChange = dict[Literal["economy", "environment", "equity"], Level]


class ProjectLog(Model):
    """A project already carried out (or planned), for the community's worksheet."""

    year: Annotated[int, Field(strict=True, ge=1)] = 1
    player: Text = ""
    name: Text = ""
    develop: DefenseChange
    sacrifice: DefenseChange = {}
    roll: Annotated[int, Field(strict=True, ge=1, le=20)] | None = None  # the d20, if rolled


class HistoryYear(Model):
    """One line of the year-by-year history table."""

    year: Annotated[int, Field(strict=True, ge=1)]
    event: Text = ""
    economy: DefenseLevel | None = None
    environment: DefenseLevel | None = None
    equity: DefenseLevel | None = None
    note: Text = ""


class CommunityDef(Model):
    name: Name
    description: Text = ""
    players: Annotated[int, Field(strict=True, ge=1, le=7)] | None = None
    economy: DefenseLevel | DefenseEntry
    environment: DefenseLevel | DefenseEntry
    equity: DefenseLevel | DefenseEntry
    projects: list[ProjectLog] = []
    history: list[HistoryYear] = []
    printed: PrintedValues = {}


# The printable kinds `build --only` accepts, in build order (documents/registry.py maps
# each to its module; a test keeps the two lists equal).
BUILD_KINDS = (
    "sheets",
    "vehicles",
    "initiative",
    "carry",
    "community",
    "events",
    "careers",
    "booklets",
    "roster",
)
CarryRange = Annotated[str, StringConstraints(pattern=r"^\s*\d{1,2}\s*-\s*\d{1,2}\s*$")]


class BuildDefaults(Model):
    """The ``[build]`` table: a campaign's usual `scratchpress build` options, so a GM
    types ``scratchpress build`` and not ``--cards index --tent --backs fold`` every time.
    An option given on the command line wins over the value here."""

    paper: Literal["letter", "a4"] | None = None
    units: Literal["metric", "imperial", "both"] | None = None
    cards: Literal["poker", "index"] = "poker"
    tent: StrictBool = False
    backs: Literal["none", "duplex", "fold"] = "duplex"
    bleed: StrictBool = False
    duplex_edge: Literal["long", "short"] = "long"
    ink_saver: StrictBool = False
    carry_range: CarryRange = "10-20"
    only: list[Literal[BUILD_KINDS]] | None = None  # type: ignore[valid-type]
    impose: Literal["none", "saddle"] = "none"
    jobs: Annotated[int, Field(strict=True, ge=0, le=64)] = 0
    png: StrictBool = False
    strict: StrictBool = False


class Settings(Model):
    """``scratchpress.toml``: campaign-wide choices, all optional."""

    rules: Literal["current", "early", "classic"] = "current"
    cp: Annotated[int, Field(strict=True, ge=1, le=1000)] = 10
    max_level: Annotated[int, Field(strict=True, ge=1, le=100)] = 4
    paper: Literal["letter", "a4"] = "letter"
    units: Literal["metric", "imperial", "both"] = "both"
    # How far this printer shifts the back of a sheet, measured with `scratchpress
    # calibrate`; every back page is moved by the opposite amount.
    duplex_offset_mm: tuple[
        Annotated[float, Field(ge=-20, le=20)], Annotated[float, Field(ge=-20, le=20)]
    ] = (0.0, 0.0)
    build: BuildDefaults = BuildDefaults()


ENTRY_MODELS: dict[str, type[BaseModel]] = {
    "characters": CharacterDef,
    "vehicles": VehicleDef,
    "communities": CommunityDef,
    # Resilience content users add to the built-in lists, same schema as ours.
    "events": Event,
    "careers": Career,
    "project_ideas": ProjectIdea,
}

KIND_OF_LIST = {
    "characters": "character",
    "vehicles": "vehicle",
    "communities": "community",
    "events": "event",
    "careers": "career",
    "project_ideas": "project idea",
}


def level_and_note(value: int | AbilityEntry | DefenseEntry) -> tuple[int, str]:
    if isinstance(value, int):
        return value, ""
    return value.level, value.note
