"""The options checked against the rules and the content, and resolved into a :class:`Plan`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..definitions.resilience_models import Career
from ..rules.abilities import CHARACTER_ABILITIES, closest
from .content import Archetype, archetype_book
from .names import band_plan
from .spec import (
    MAX_COUNT,
    MAX_CP,
    MAX_GROUP,
    MAX_LEVEL,
    MAX_PREFIX,
    Band,
    Plan,
    RosterError,
    RosterSpec,
)


def _names_hint(name: str, choices: Sequence[str]) -> str:
    hint = closest(name.strip().casefold(), tuple(c.casefold() for c in choices))
    shown = next((c for c in choices if c.casefold() == hint), None)
    return f' (did you mean "{shown}"?)' if shown else ""


def find_archetype(name: str) -> str:
    book = archetype_book()
    key = name.strip().casefold()
    if key in book.archetypes:
        return key
    names = sorted(book.archetypes)
    raise RosterError(
        f"unknown archetype {name!r}{_names_hint(name, names)}; choose one of: {', '.join(names)}"
    )


def find_career(name: str, careers: Sequence[Career]) -> Career:
    key = name.strip().casefold()
    for career in careers:
        if key in (career.id.casefold(), career.name.casefold()):
            return career
    names = [c.name for c in careers]
    raise RosterError(
        f"unknown career {name!r}{_names_hint(name, names)}; choose one of: {', '.join(names)}"
    )


def career_archetype(career: Career) -> str:
    """The archetype whose weights fill a career's build: listed, else by combat role."""
    book = archetype_book()
    if career.id in book.careers:
        return book.careers[career.id]
    if career.combat_role is not None and career.combat_role in book.by_combat_role:
        return book.by_combat_role[career.combat_role]
    return "guard"


def _check_text(option: str, value: str, limit: int) -> str:
    value = value.strip()
    if len(value) > limit:
        raise RosterError(f"{option}: at most {limit} characters, got {len(value)}")
    if any(ord(c) < 32 or ord(c) == 127 or c in "\u2028\u2029" for c in value):
        raise RosterError(f"{option}: control characters are not allowed")
    return value


def min_cp(career: Career | None, archetype: Archetype | None) -> int:
    """The least CP that meets every requirement: toughness plus one level per group
    (the group holding toughness costs nothing more)."""
    groups = career.required if career is not None else (archetype.required if archetype else [])
    return 1 + sum(1 for group in groups if "toughness" not in group)


def plan(spec: RosterSpec, careers: Sequence[Career] = ()) -> Plan:
    """Check the options against the rules and the content; raises RosterError."""
    if spec.archetype is not None and spec.career is not None:
        raise RosterError("give --career or --archetype, not both")
    if not 1 <= spec.count <= MAX_COUNT:
        raise RosterError(f"--count must be 1 to {MAX_COUNT}, got {spec.count}")
    if not 1 <= spec.cp <= MAX_CP:
        raise RosterError(f"--cp must be 1 to {MAX_CP}, got {spec.cp}")
    if not 1 <= spec.max_level <= MAX_LEVEL:
        raise RosterError(f"--max-level must be 1 to {MAX_LEVEL}, got {spec.max_level}")
    if spec.cp > spec.max_level * len(CHARACTER_ABILITIES):
        raise RosterError(
            f"{spec.cp} CP cannot be spent with no ability above {spec.max_level}: there are"
            f" only {len(CHARACTER_ABILITIES)} abilities (at most"
            f" {spec.max_level * len(CHARACTER_ABILITIES)} CP); raise --max-level"
        )
    book = archetype_book()
    archetype = find_archetype(spec.archetype) if spec.archetype is not None else None
    career = find_career(spec.career, careers) if spec.career is not None else None
    if career is not None:
        archetype = career_archetype(career)
    need = 0
    if career is not None:
        need = min_cp(career, None)
        what = f'career "{career.name}"'
    elif archetype is not None:
        need = min_cp(None, book.archetypes[archetype])
        what = f"archetype {archetype!r}"
    else:
        need = min(min_cp(None, book.archetypes[name]) for name in book.mix)
        what = "every archetype"
    if spec.cp < need:
        raise RosterError(
            f"{what} needs at least {need} CP (toughness and one level for each required"
            f" ability), got --cp {spec.cp}"
        )
    prefix = _check_text("--name-prefix", spec.name_prefix, MAX_PREFIX)
    group = spec.group
    if group is not None:
        group = _check_text("--group", group, MAX_GROUP)
        if not group:
            raise RosterError("--group must not be empty")
    spec = dataclasses.replace(spec, name_prefix=prefix, group=group)
    bands = (Band(group, spec.count),) if group else band_plan(spec.seed, spec.count)
    return Plan(spec, archetype, career, bands)
