"""The definitions format: pydantic models that validate a campaign's YAML at the edge.

These models check shape and types only. Whether an ability name exists, a crew member is
in the campaign or minions fit the command are checked with their positions in
``campaign.py``, so every message can name the exact line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StringConstraints,
    model_validator,
)

from ..typesetting.shops import Shop
from ..wording import IMPERIAL, Language
from .resilience_models import Ability, Career, Event, Faction, Id, ProjectIdea

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
    """An ability written as a mapping, so a note can stand beside its level."""

    level: Level = Field(description="The ability's level, a whole number from 1 up.")
    note: Text = Field(
        default="", description="Free text printed beside the level: gear, trick or habit."
    )


AbilityValue = Level | AbilityEntry


class DefenseEntry(Model):
    """A community defense written as a mapping, so a note can stand beside its level."""

    level: DefenseLevel = Field(description="The defense's level, a whole number from 0 up.")
    note: Text = Field(default="", description="Free text printed beside the level.")


PrintedValues = dict[str, Annotated[int, Field(strict=True)]]


class MinionDef(Model):
    """A follower of a character with command, printed on the back of the leader's sheet."""

    name: Name = Field(description="What the minion is called; a plural reads well for a pair.")
    count: Annotated[int, Field(strict=True, ge=1, le=MAX_LEVEL)] = Field(
        default=1, description="How many identical minions this entry stands for."
    )
    description: Text = Field(default="", description="One line about the minion.")
    abilities: dict[str, AbilityValue] = Field(
        description="Character ability name to level, bare or as {level, note}."
    )
    printed: PrintedValues = Field(
        default={}, description="Derived numbers another source prints, for `scratchpress check`."
    )


class CharacterDef(Model):
    """Anyone who can act in an encounter: a player character, an adversary, a bystander."""

    name: Name = Field(description="The sheet's title; unique across the campaign.")
    player: Text = Field(
        default="", description="Who plays the character; leave out for the GM's own."
    )
    description: Text = Field(default="", description="One line about who they are.")
    group: Name | None = Field(
        default=None, description="Initiative group: everyone on one side writes the same text."
    )
    portrait: Text | None = Field(
        default=None, description="A PNG, JPEG or WebP image, relative to the campaign folder."
    )
    career: Name | None = Field(
        default=None, description="Resilience only: the name of the character's career."
    )
    # A GM's villain may be built past the starting budget on purpose; saying so here
    # keeps `check` quiet about its CP and levels (and says it to the next reader).
    beyond_budget: StrictBool = Field(
        default=False, description="Built past the CP budget or top level on purpose: no warning."
    )
    # Resilience's character development: what a PC earned by winning encounters.
    developed: int = Field(
        default=0,
        strict=True,
        ge=0,
        le=100,
        description="CP earned in play (Resilience's character development): the budget is"
        " the campaign's `cp` plus these, and a level may reach `max_level` + 2.",
    )
    abilities: dict[str, AbilityValue] = Field(
        description="Character ability name to level, bare or as {level, note}."
    )
    minions: list[MinionDef] = Field(
        default=[], description="Followers, for a character with command (at most two in all)."
    )
    printed: PrintedValues = Field(
        default={}, description="Derived numbers another source prints, for `scratchpress check`."
    )
    # None, not False, so that the list decides: `characters:` get a sheet, `npcs:` do not.
    sheet: StrictBool | None = Field(
        default=None,
        description="Print a character sheet: by default yes under characters, no under npcs.",
    )


# A Resilience encounter's opponents fight as one side: the event's title is their
# initiative group, so a `group:` of their own would only split what the card joins.
MAX_OPPONENTS = 12


# The kinds of scene an encounter is, each run differently at the table: who starts where,
# what ends it. A GM reading the card knows at once which one this is.
EncounterShape = Literal[
    "ambush", "raid", "parley", "chase", "siege", "duel", "hazard", "hunt", "standoff", "escort"
]
ENCOUNTER_SHAPES: tuple[str, ...] = get_args(EncounterShape)
OutcomeChange = Annotated[int, Field(strict=True, ge=-3, le=3)]


class Parley(Model):
    """Talking the opponents into leaving: a PC's roll, and what the PCs must offer."""

    ability: Ability = Field(description="The character ability the talking PC rolls.")
    difficulty: int = Field(ge=8, le=18, description="The number d20 + level must reach.")
    offer: Text = Field(min_length=1, description="What the PCs give or promise for it.")


class BreakOff(Model):
    """When the opponents stop fighting without being beaten down to the last."""

    when: Text = Field(
        min_length=1, description="Their morale: what makes them run, yield or withdraw."
    )
    parley: Parley | None = Field(default=None, description="A way to end it by talking.")


class EncounterOutcome(Model):
    """What winning or losing the encounter changes."""

    character: Text = Field(min_length=1, description="What it changes for the PCs.")
    defenses: dict[Literal["economy", "environment", "equity"], OutcomeChange] = Field(
        min_length=1,
        description="Levels each named defense gains (or, negative, loses) at once.",
    )


class Reinforcement(Model):
    """Opponents who arrive during the fight, on a condition the card or the scene sets."""

    joins: Text = Field(min_length=1, description="When they arrive, in a few words.")
    opponents: list[CharacterDef] = Field(
        min_length=1, max_length=MAX_OPPONENTS, description="Characters as under `npcs:`."
    )


class Encounter(Model):
    """Who a Resilience event's encounter brings to the table, under the event's id, and
    what is at stake: what the opponents want, when they break off, what winning and
    losing change, and how the community's decision changes the scene."""

    event: Id = Field(
        description="The id of the event it belongs to; a built-in event's id replaces"
        " that event's encounter."
    )
    shape: EncounterShape | None = Field(default=None, description="The kind of scene it is.")
    scene: Text | None = Field(
        default=None, description="Where it happens and how it starts: who stands where."
    )
    want: Text | None = Field(default=None, description="What the opponents are here for.")
    break_off: BreakOff | None = Field(default=None, description="When the opponents stop.")
    win: EncounterOutcome | None = Field(default=None, description="If the PCs win.")
    lose: EncounterOutcome | None = Field(default=None, description="If the PCs lose.")
    branches: dict[Name, Text] = Field(
        default={},
        description="A choice of the event's decision (its exact words) -> how it changes"
        " the scene.",
    )
    opponents: list[CharacterDef] = Field(
        min_length=1,
        max_length=MAX_OPPONENTS,
        description="Characters as under `npcs:`; they roll initiative as one group.",
    )
    reinforcements: list[Reinforcement] = Field(
        default=[], description="Opponents who join during the fight, with their stats."
    )

    @property
    def id(self) -> str:
        """The event's id: encounters are merged and replaced by it, as events are."""
        return self.event

    @model_validator(mode="after")
    def _one_side(self) -> Encounter:
        everyone = [*self.opponents, *(o for r in self.reinforcements for o in r.opponents)]
        grouped = [o.name for o in everyone if o.group is not None]
        if grouped:
            raise ValueError(
                f"opponents roll initiative together under the event's title; leave out"
                f" group: ({', '.join(grouped)})"
            )
        names = [o.name for o in everyone]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"two opponents are named {', '.join(twice)}; names must differ")
        return self


class CrewDef(Model):
    """Who sits in the vehicle's two seats, by character name."""

    operator: Name | None = Field(
        default=None,
        description="The character who steers; their driving, navigation or piloting helps.",
    )
    gunner: Name | None = Field(
        default=None, description="The character on the weapons; their shooting or blasting helps."
    )


class VehicleDef(Model):
    """A vehicle with a sheet of its own; its crew add their levels to the vehicle's."""

    name: Name = Field(description="The sheet's title.")
    description: Text = Field(default="", description="One line (or a folded paragraph) about it.")
    movement: Name = Field(description="The movement ability in use; one of its own abilities.")
    abilities: dict[str, AbilityValue] = Field(
        description="Vehicle ability name to level, bare or as {level, note}."
    )
    crew: CrewDef = Field(default=CrewDef(), description="The operator and gunner aboard, if any.")
    printed: dict[str, Annotated[int, Field(strict=True)] | dict[str, int]] = Field(
        default={}, description="Derived numbers another source prints, for `scratchpress check`."
    )


DefenseChange = dict[Literal["economy", "environment", "equity"], Level]


class ProjectLog(Model):
    """A project already carried out (or planned), for the community's worksheet."""

    year: Annotated[int, Field(strict=True, ge=1)] = Field(
        default=1, description="The year of play it belongs to, counting from 1."
    )
    player: Text = Field(default="", description="Who started the project.")
    name: Text = Field(default="", description="What the project is, in a few words.")
    develop: DefenseChange = Field(description="Defense name to the levels it gains on success.")
    sacrifice: DefenseChange = Field(
        default={}, description="Defense name to the levels given up, success or not."
    )
    roll: Annotated[int, Field(strict=True, ge=1, le=20)] | None = Field(
        default=None, description="The d20 rolled for it; leave out while it is still to be rolled."
    )
    modifier: Annotated[int, Field(strict=True, ge=-10, le=10)] = Field(
        default=0,
        description="What the year adds to its roll: the event's effect on projects like it, a"
        " bonus to one project, the council's +1. The roll plus this meets the difficulty.",
    )


class HistoryYear(Model):
    """One line of the year-by-year history table."""

    year: Annotated[int, Field(strict=True, ge=1)] = Field(
        description="The year of play, counting from 1."
    )
    event: Text = Field(default="", description="The title of that year's event.")
    damage: DefenseChange = Field(
        default={},
        description="Defense name to the levels the event took (its attack and its choices),"
        " before the year's projects.",
    )
    bonus: DefenseChange = Field(
        default={}, description="Defense name to the GM's evaluation bonus, after the projects."
    )
    economy: DefenseLevel | None = Field(
        default=None, description="Economy at the end of the year."
    )
    environment: DefenseLevel | None = Field(
        default=None, description="Environment at the end of the year."
    )
    equity: DefenseLevel | None = Field(default=None, description="Equity at the end of the year.")
    note: Text = Field(default="", description="What happened, in a line or two.")
    choice: Text = Field(
        default="",
        description="The answer the community gave to the event's decision, in the card's"
        " words; the mark it leaves (if any) goes into the history.",
    )
    marks: list[Id] = Field(
        default=[], description="Marks the GM adds to the history this year, by id."
    )


class CommunityDef(Model):
    """A Resilience settlement, judged on its three defenses (the three E's)."""

    name: Name = Field(description="The sheet's title.")
    description: Text = Field(default="", description="One line or a short paragraph about it.")
    players: Annotated[int, Field(strict=True, ge=1, le=7)] | None = Field(
        default=None, description="How many players share it; sets the size of each one's projects."
    )
    economy: DefenseLevel | DefenseEntry = Field(
        description="Holds off emergencies, breakdowns, sabotage, bankruptcy."
    )
    environment: DefenseLevel | DefenseEntry = Field(
        description="Holds off sieges, attrition and biological hazards."
    )
    equity: DefenseLevel | DefenseEntry = Field(
        description="Holds off propaganda, psy-ops and demoralization."
    )
    projects: list[ProjectLog] = Field(
        default=[], description="Projects logged, for the worksheet."
    )
    history: list[HistoryYear] = Field(
        default=[], description="The year-by-year history: where each year ended."
    )
    abundances: list[Text] = Field(
        default=[], description="What the community has plenty of, for the play kit's map."
    )
    scarcities: list[Text] = Field(default=[], description="What it lacks, for the play kit's map.")
    names: list[Text] = Field(
        default=[], description="Places and people the table has named, for the map's panel."
    )
    printed: PrintedValues = Field(
        default={}, description="Defenses another source prints, for `scratchpress check`."
    )


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
    "encounters",
    "kit",
)


def carry_bounds(value: str) -> tuple[int, int]:
    """``low-high`` strengths, 1 <= low <= high <= 40: the carry table's rows."""
    low, sep, high = value.partition("-")
    try:
        bounds = (int(low), int(high)) if sep else None
    except ValueError:
        bounds = None
    if bounds is None or not 1 <= bounds[0] <= bounds[1] <= 40:
        raise ValueError("must be like 10-20, from low to high, within 1-40")
    return bounds


def _carry_range(value: str) -> str:
    carry_bounds(value)
    return value


CarryRange = Annotated[
    str,
    StringConstraints(pattern=r"^\s*\d{1,2}\s*-\s*\d{1,2}\s*$"),
    AfterValidator(_carry_range),
]


# Each option's choices, once: the model's fields and the command line's options use these.
Paper = Literal["letter", "a4"]
Units = Literal["metric", "imperial", "both"]
CardSize = Literal["poker", "index"]
Backs = Literal["none", "duplex", "fold"]
DuplexEdge = Literal["long", "short"]
Impose = Literal["none", "saddle"]
Ruleset = Literal["current", "early", "classic"]


class BuildOptions(Model):
    """What a build prints and how: the one definition of every `scratchpress build`
    option. The command line's choices and help, the ``[build]`` table of
    scratchpress.toml, its JSON Schema and docs/definitions.md all come from these fields.

    As the ``[build]`` table it holds a campaign's usual options, so a GM types
    ``scratchpress build`` and not ``--cards index --tent --backs fold`` every time; a
    value given on the command line wins over the table (see :meth:`Settings.build_options`).
    """

    language: Language = Field(
        default="en",
        description="The language every label is printed in (default: the campaign's"
        " language, else English).",
    )
    paper: Paper = Field(
        default="letter",
        description="Paper size (default: the campaign's paper, else letter in English"
        " and A4 in every other language).",
    )
    units: Units = Field(
        default="both",
        description="Carry-table weights (default: the campaign's units, else both in"
        " English and metric in every other language).",
    )
    cards: CardSize = Field(default="poker", description="Initiative card size.")
    tent: StrictBool = Field(
        default=False, description="Fold-over initiative cards, for a printer without duplex."
    )
    backs: Backs = Field(
        default="duplex", description="Deck card backs: none, on the sheet's back, or folded over."
    )
    bleed: StrictBool = Field(default=False, description="A 3 mm bleed around deck cards.")
    duplex_edge: DuplexEdge = Field(
        default="long", description="Which edge your printer flips the sheet on."
    )
    ink_saver: StrictBool = Field(
        default=False, description="No filled backgrounds, and greys instead of colour."
    )
    carry_range: CarryRange = Field(
        default="10-20",
        description="Strength range of the carry table, such as 10-20 (within 1-40).",
    )
    only: tuple[Literal[BUILD_KINDS], ...] | None = Field(  # type: ignore[valid-type]
        default=None, description="Build only these kinds of printable (default: all of them)."
    )
    impose: Impose = Field(
        default="none", description="Booklets: also write a 2-up copy for saddle stitching."
    )
    jobs: Annotated[int, Field(strict=True, ge=0, le=64)] = Field(
        default=0, description="Worker processes; 0 means one per core."
    )
    png: StrictBool = Field(
        default=False, description="Also write every page as PNG, for virtual tabletops."
    )
    print_all: StrictBool = Field(
        default=False,
        description="Also write print-all.pdf: every PDF of the build in one file,"
        " bookmarked, for a copy shop.",
    )
    strict: StrictBool = Field(
        default=False,
        description="Layout problems, such as overflowing text, fail the build; a document"
        " with one is not written (its last good copy stays).",
    )
    print_shop: Shop | None = Field(
        default=None,
        description="Also write the decks as this print shop takes them, in a folder of"
        " its name, with a preflight report (--for on the command line).",
    )

    @property
    def carry_low(self) -> int:
        return carry_bounds(self.carry_range)[0]

    @property
    def carry_high(self) -> int:
        return carry_bounds(self.carry_range)[1]


class Settings(Model):
    """``scratchpress.toml``: campaign-wide choices, all optional."""

    title: Name | None = Field(
        default=None,
        description="The campaign's name on its printables (the roster's title);"
        " default: the folder's name.",
    )
    rules: Ruleset = Field(
        default="current", description="Which revision of the rules computes the derived numbers."
    )
    cp: Annotated[int, Field(strict=True, ge=1, le=1000)] = Field(
        default=10, description="The character-point budget each character is checked against."
    )
    max_level: Annotated[int, Field(strict=True, ge=1, le=100)] = Field(
        default=4, description="The highest level any one ability should reach."
    )
    language: Language = Field(
        default="en",
        description="The language of every printed label: en, de, fr, es, pt-BR, it, pl or"
        " ja. Text prints as written: the campaign's own in its words, the built-in events"
        " and careers in English.",
    )
    paper: Paper = Field(
        default="letter",
        description="Page size of every printable, for every command (default: letter in"
        " English, A4 in every other language).",
    )
    units: Units = Field(
        default="both",
        description="How weights on the carry table are shown (default: both in English,"
        " metric in every other language).",
    )
    # How far this printer shifts the back of a sheet, measured with `scratchpress
    # calibrate`; every back page is moved by the opposite amount.
    duplex_offset_mm: tuple[
        Annotated[float, Field(ge=-20, le=20)], Annotated[float, Field(ge=-20, le=20)]
    ] = Field(
        default=(0.0, 0.0),
        description="[dx, dy] in mm: how far this printer shifts back pages (see calibrate).",
    )
    build: BuildOptions = Field(
        default=BuildOptions(), description="Your usual `scratchpress build` options."
    )

    def build_options(self, given: Mapping[str, Any] | None = None) -> BuildOptions:
        """The options a build uses: those ``given`` (the command line's, None meaning
        "not given"), over the keys the ``[build]`` table sets, over this file's paper and
        units, over the defaults. Raises pydantic's ValidationError for a bad value.

        Paper and units nobody chose follow the language: letter and both kinds of weight in
        English, A4 and metric in every other language."""
        values: dict[str, Any] = {"language": self.language}
        for key in ("paper", "units"):
            if key in self.model_fields_set:
                values[key] = getattr(self, key)
        values.update({key: getattr(self.build, key) for key in self.build.model_fields_set})
        values.update({key: value for key, value in (given or {}).items() if value is not None})
        imperial = str(values["language"]) in IMPERIAL
        values.setdefault("paper", "letter" if imperial else "a4")
        values.setdefault("units", "both" if imperial else "metric")
        return BuildOptions.model_validate(values)


ENTRY_MODELS: dict[str, type[BaseModel]] = {
    "characters": CharacterDef,
    # Roster NPCs: on the roster and the initiative cards, a sheet only with `sheet: true`.
    # The loader puts them in Campaign.characters, so crews and lookups find them as ever.
    "npcs": CharacterDef,
    "vehicles": VehicleDef,
    "communities": CommunityDef,
    # Resilience content users add to the built-in lists, same schema as ours.
    "events": Event,
    "careers": Career,
    "project_ideas": ProjectIdea,
    "factions": Faction,
    # Opponents for the built-in (or the campaign's own) events, replaced by event id.
    "encounters": Encounter,
}

KIND_OF_LIST = {
    "characters": "character",
    "npcs": "NPC",
    "vehicles": "vehicle",
    "communities": "community",
    "events": "event",
    "careers": "career",
    "project_ideas": "project idea",
    "factions": "faction",
    "encounters": "encounter",
}


def level_and_note(value: int | AbilityEntry | DefenseEntry) -> tuple[int, str]:
    if isinstance(value, int):
        return value, ""
    return value.level, value.note
