"""The NPC generator's content: ``content/archetypes.yaml`` and ``content/names.yaml``.

What mixes of abilities make sense, and the names, are data. Both files are ours, read once
per process with the built-in YAML reader and validated here: a problem is a packaging bug,
still reported with the file and the field.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..definitions.yamlio import read_builtin_yaml
from ..problems import InputError, Problem
from ..rules.abilities import CHARACTER_ABILITIES
from .spec import MAX_LEVEL

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"

Weight = Annotated[int, Field(strict=True, ge=0, le=1000)]
Level = Annotated[int, Field(strict=True, ge=1, le=MAX_LEVEL)]
Phrase = Annotated[str, Field(min_length=1, max_length=200)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MinionTemplate(_Model):
    one: Phrase  # "enforcer"
    many: Phrase  # "enforcers"
    weights: dict[str, Weight]
    descriptions: list[Phrase] = Field(min_length=1)


class Archetype(_Model):
    label: Phrase
    summary: Phrase
    required: list[list[str]] = []
    weights: dict[str, Weight]
    min_levels: dict[str, Level] = {}
    max_levels: dict[str, Level] = {}
    abilities: tuple[Annotated[int, Field(ge=1, le=18)], Annotated[int, Field(ge=1, le=18)]] = (
        3,
        6,
    )
    roles: list[Phrase] = Field(min_length=1)
    traits: list[Phrase] = []
    notes: dict[str, list[Phrase]] = {}
    minions: list[MinionTemplate] = []
    # An animal: named from its own `names`, described with its own `adjectives`, its
    # traits and notes drawn from its own and then the book's `beast_traits` and
    # `beast_notes` (never people's pools), and never given command or minions. It stays
    # out of the mix: only --archetype makes one.
    beast: bool = False
    names: list[Phrase] = []
    adjectives: list[Phrase] = []


class ArchetypeBook(_Model):
    archetypes: dict[str, Archetype]
    careers: dict[str, str]
    by_combat_role: dict[str, str]
    mix: dict[str, Weight]
    min_levels: dict[str, Level] = {}
    adjectives: list[Phrase] = Field(min_length=1)
    traits: list[Phrase] = Field(min_length=1)
    notes: dict[str, list[Phrase]]
    beast_traits: list[Phrase] = []
    beast_notes: dict[str, list[Phrase]] = {}


class Bands(_Model):
    first: list[Phrase] = Field(min_length=1)
    second: list[Phrase] = Field(min_length=1)


class NameLists(_Model):
    given: list[Phrase] = Field(min_length=1)
    family: list[Phrase] = Field(min_length=1)
    bands: Bands


def _ability_names(book: ArchetypeBook) -> list[str]:
    """Every ability name the archetype file mentions, to check against the catalogue."""
    names: list[str] = [*book.notes, *book.min_levels, *book.beast_notes]
    for archetype in book.archetypes.values():
        names += [a for group in archetype.required for a in group]
        names += [*archetype.weights, *archetype.min_levels, *archetype.max_levels]
        names += list(archetype.notes)
        for template in archetype.minions:
            names += list(template.weights)
    return names


def _read(filename: str) -> Any:
    return read_builtin_yaml(CONTENT_DIR / filename)


@cache
def archetype_book() -> ArchetypeBook:
    """``content/archetypes.yaml``, validated: it is ours, so a problem is a packaging bug."""
    try:
        book = ArchetypeBook.model_validate(_read("archetypes.yaml"))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(
            [Problem(first["msg"], "content/archetypes.yaml", None, None, where)]
        ) from None
    unknown = sorted({a for a in _ability_names(book) if a not in CHARACTER_ABILITIES})
    missing = sorted(
        {name for name in [*book.careers.values(), *book.by_combat_role.values(), *book.mix]}
        - set(book.archetypes)
    )
    for template in (t for a in book.archetypes.values() for t in a.minions):
        if "command" in template.weights:
            unknown.append("command (minions cannot have command)")
    beasts = [Problem(m, "content/archetypes.yaml") for m in _beast_problems(book)]
    if unknown or missing or beasts:
        raise InputError(
            [Problem(f"unknown ability {a!r}", "content/archetypes.yaml") for a in unknown]
            + [Problem(f"unknown archetype {a!r}", "content/archetypes.yaml") for a in missing]
            + beasts
        )
    return book


def _beast_problems(book: ArchetypeBook) -> list[str]:
    """A beast needs its own names, adjectives and traits, and leads nobody."""
    people = {*book.careers.values(), *book.by_combat_role.values(), *book.mix}
    problems = []
    for key, archetype in book.archetypes.items():
        if not archetype.beast:
            continue
        if not (archetype.names and archetype.adjectives):
            problems.append(f"beast {key!r} needs names and adjectives of its own")
        if "command" in {*archetype.weights, *archetype.min_levels} or archetype.minions:
            problems.append(f"beast {key!r} has command or minions; beasts lead nobody")
        if any("command" in group for group in archetype.required):
            problems.append(f"beast {key!r} requires command; beasts lead nobody")
        if key in people:
            problems.append(f"beast {key!r} is in the mix or stands for a career")
    return problems


@cache
def name_lists() -> NameLists:
    try:
        return NameLists.model_validate(_read("names.yaml"))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError([Problem(first["msg"], "content/names.yaml", None, None, where)]) from None


def archetype_summaries() -> list[tuple[str, str]]:
    """Each archetype's name and one line on what it is good at, by name."""
    book = archetype_book()
    return [(name, book.archetypes[name].summary) for name in sorted(book.archetypes)]
