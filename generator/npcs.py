"""Random NPCs for a GM in a hurry: ``scratchpress roster generate`` without the CLI.

Pure and seeded. Everything random comes from one ``random.Random(seed)`` (seed: an int,
or any text), and only through :func:`_below`, i.e. ``Random.randrange`` on whole numbers.
Its output for a given seed has been the same since Python 3.2 on every platform, so a seed
gives the same roster file everywhere. Weighted picks walk integer cumulative weights (no
floats, no ``random.choices``), content is iterated in file order, and no set order or
``hash()`` ever decides anything.

The NPCs obey the rules they will be checked against (RULES.md §2, §7): every one spends
exactly ``cp`` CP, no ability goes above ``max_level``, everyone has toughness, and a
leader's 1-2 minions cost no more than its command, have toughness and never command. What
mixes of abilities make sense is data: ``content/archetypes.yaml``; the names come from
``content/names.yaml``. Both are ours.

Drawing is sequential, one NPC after another, so ``--count 12`` begins with the same ten
NPCs as ``--count 10`` under the same seed.

Variety (issue 15): a roster should not repeat itself. Names, description traits, ability
notes and minion descriptions are drawn *least used first* (:class:`_Fresh`): among the
phrases of a pool used fewest times so far in this roster, one at random. So no given name
or family name comes back before its list is used up, and a phrase's share of a roster
shrinks with the size of its pool, not with luck. Only the past decides (never the count
asked for), which keeps the prefix property above. When a list does run out, the roster
says so once (:func:`name_note`); a full name never repeats: one that would carries a
numeral, "Mara Voss II". Without --group, a roster of more than 12 NPCs is split into
bands of 6 to 12, each its own initiative group (:func:`band_plan`).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import shlex
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from random import Random
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .definitions.resilience_models import Career
from .definitions.yamlsafe import load_yaml
from .problems import InputError, Problem
from .rules.abilities import CHARACTER_ABILITIES, closest
from .rules.character import Budget, budget_warnings
from .rules.minions import MAX_MINIONS, MinionGroup, minion_problems

CONTENT_DIR = Path(__file__).resolve().parent / "content"

MAX_COUNT = 2000  # a campaign file holds at most 100,000 YAML values; 2,000 NPCs fit well
MAX_CP = 1000  # the campaign settings' own limits
MAX_LEVEL = 100
MAX_PREFIX = 60
MAX_GROUP = 120
BAND_SIZE = (6, 12)  # NPCs per band without --group: a table can run a band as one group
NOTED_ABILITIES = 3  # notes go on the best few abilities; the rest print bare, as in the books

T = TypeVar("T")
Weight = Annotated[int, Field(strict=True, ge=0, le=1000)]
Level = Annotated[int, Field(strict=True, ge=1, le=MAX_LEVEL)]
Phrase = Annotated[str, Field(min_length=1, max_length=200)]


class RosterError(ValueError):
    """Options the generator cannot honour; the message says what to do instead."""


# ------------------------------------------------------------------------------------------
# Content: the archetypes and names, validated once


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
    path = CONTENT_DIR / filename
    data, _ = load_yaml(path.read_text(encoding="utf-8"), f"content/{filename}")
    return data


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


# ------------------------------------------------------------------------------------------
# Deterministic drawing: integers only


def _below(rng: Random, n: int) -> int:
    """0 <= k < n. ``randrange`` on an int: the same numbers for a seed on every machine."""
    return rng.randrange(n)


def pick(rng: Random, items: Sequence[T]) -> T:
    return items[_below(rng, len(items))]


def pick_weighted(rng: Random, items: Sequence[T], weights: Sequence[int]) -> T:
    """One item, with probability weight / total, by walking integer cumulative weights."""
    total = sum(weights)
    if total <= 0:
        return pick(rng, items)
    roll = _below(rng, total)
    for item, weight in zip(items, weights, strict=True):
        if roll < weight:
            return item
        roll -= weight
    raise AssertionError("unreachable: roll < total")


_TRAIT_OPENING = re.compile(r"^(?:who|with) ")


def _said(phrase: str) -> str:
    """What a phrase says, whatever its opening: the trait "who likes a crowd to aim at" and
    the note "likes a crowd to aim at" are one phrase to a reader."""
    return _TRAIT_OPENING.sub("", phrase)


class _Fresh:
    """Least-used-first drawing over one roster: the phrases of a pool used fewest times so
    far, one of them at random. Uses are counted by what a phrase says, so a phrase two pools
    share (an archetype's note and the shared one, a trait and a note) is counted once."""

    def __init__(self) -> None:
        self.uses: Counter[str] = Counter()

    def pick(self, rng: Random, items: Sequence[str], exclude: Collection[str] = ()) -> str:
        """One of the least used ``items`` (file order, a repeated entry counted once),
        skipping ``exclude`` (what this NPC already says) while anything else is left."""
        pool = list(dict.fromkeys(items))
        pool = [item for item in pool if item not in exclude] or pool
        fewest = min(self.uses[_said(item)] for item in pool)
        chosen = pick(rng, [item for item in pool if self.uses[_said(item)] == fewest])
        self.uses[_said(chosen)] += 1
        return chosen


def seed_value(text: str) -> int | str:
    """``--seed 42`` seeds with the number 42, ``--seed goblins`` with the text."""
    stripped = text.strip()
    return int(stripped) if re.fullmatch(r"[+-]?\d{1,30}", stripped) else stripped


# ------------------------------------------------------------------------------------------
# What to generate


@dataclass(frozen=True)
class RosterSpec:
    count: int
    cp: int = 10
    max_level: int = 4
    archetype: str | None = None
    career: str | None = None
    name_prefix: str = ""
    group: str | None = None
    seed: int | str = 0
    # Names already in the campaign: a generated name never repeats one (check would fail).
    avoid_names: tuple[str, ...] = ()
    campaign: str | None = None  # the --campaign path as given, for the file's header only


@dataclass(frozen=True)
class Band:
    """A run of consecutive NPCs who share one initiative group."""

    name: str
    size: int


@dataclass(frozen=True)
class Plan:
    """The spec resolved against the content: which archetype(s), which career, which bands."""

    spec: RosterSpec
    archetype: str | None  # None: each NPC draws one from the mix
    career: Career | None
    bands: tuple[Band, ...]  # in roster order; their sizes add up to the count

    @property
    def group(self) -> str | None:
        """The one initiative group of the roster, or None when it is split into bands."""
        return self.bands[0].name if len(self.bands) == 1 else None

    def groups(self) -> list[str]:
        """The initiative group of each NPC, in roster order."""
        return [band.name for band in self.bands for _ in range(band.size)]


@dataclass
class MinionNpc:
    name: str
    count: int
    description: str
    levels: dict[str, int]


@dataclass
class Npc:
    name: str
    description: str
    group: str
    archetype: str
    levels: dict[str, int]  # in the order they print: best first
    notes: dict[str, str] = field(default_factory=dict)
    career: str | None = None
    minions: list[MinionNpc] = field(default_factory=list)
    name_reused: bool = False  # the name lists had run out (see name_note)

    @property
    def cp(self) -> int:
        return sum(self.levels.values())


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


def band_name(seed: int | str) -> str:
    """The default group name of a small roster (the first band of any roster)."""
    return band_plan(seed, 1)[0].name


def _band_size(rng: Random, remaining: int) -> int:
    """The next band's size, 6 to 12: up to 12 NPCs left are one band; a remainder too
    small to be a band of its own is shared with the band before it."""
    least, most = BAND_SIZE
    if remaining <= most:
        return remaining
    size = least + _below(rng, most - least + 1)
    if remaining - size < least:
        size = remaining // 2  # 13 to 17 left: two bands of 6 to 9
    return size


def band_plan(seed: int | str, count: int) -> tuple[Band, ...]:
    """The default initiative groups: their own random stream, so giving --group changes
    no NPC. Band names are distinct, their two words drawn least used first. Each band's
    size and name are drawn in turn, so a bigger count keeps the bands before its last."""
    bands = name_lists().bands
    rng = Random(f"band:{seed}")
    firsts, seconds = _Fresh(), _Fresh()
    taken: set[str] = set()
    out: list[Band] = []
    remaining = count
    while remaining > 0:
        size = _band_size(rng, remaining)
        remaining -= size
        name = ""
        for _ in range(len(bands.first) * len(bands.second)):
            name = f"The {firsts.pick(rng, bands.first)} {seconds.pick(rng, bands.second)}"
            if name not in taken:
                break
        else:  # every pairing taken (only with tiny lists): number it, as names are
            name = _numbered(name, taken)
        taken.add(name)
        out.append(Band(name, size))
    return tuple(out)


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


# ------------------------------------------------------------------------------------------
# One build


def _weights(archetype: Archetype, names: Sequence[str], smooth: int = 0) -> list[int]:
    return [archetype.weights.get(name, 0) + smooth for name in names]


def _add_weighted(
    rng: Random, levels: dict[str, int], archetype: Archetype, exclude: Sequence[str] = ()
) -> str | None:
    """Take one more ability by weight (catalogue order), or None when none is left."""
    candidates = [
        a
        for a in CHARACTER_ABILITIES
        if a not in levels and a not in exclude and archetype.weights.get(a, 0) > 0
    ]
    if not candidates:
        return None
    chosen = pick_weighted(rng, candidates, _weights(archetype, candidates))
    levels[chosen] = 1
    return chosen


def build_levels(
    rng: Random,
    archetype: Archetype,
    cp: int,
    max_level: int,
    required: Sequence[Sequence[str]],
    use_minimums: bool = True,
    floor: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """Spend exactly ``cp`` on abilities that suit ``archetype`` (see archetypes.yaml)."""
    levels: dict[str, int] = {"toughness": 1}
    spare = cp - (1 + sum(1 for g in required if "toughness" not in g))
    for group in required:
        if any(a in levels for a in group):
            continue  # toughness already meets the group that names it
        options = list(group)
        if spare <= 0 and "toughness" in options:
            options = ["toughness"]  # no CP for anything else
        chosen = pick_weighted(rng, options, _weights(archetype, options, smooth=1))
        if chosen == "toughness":
            continue
        levels[chosen] = 1
        if "toughness" in group:
            spare -= 1
    caps = {
        a: max(1, min(max_level, archetype.max_levels.get(a, max_level)))
        for a in CHARACTER_ABILITIES
    }
    # How many abilities: the archetype's range, but enough to hold cp at the caps allowed.
    least = max(archetype.abilities[0], math.ceil(cp / max_level), len(levels))
    most = max(least, min(archetype.abilities[1], cp))
    target = min(cp, least + _below(rng, most - least + 1))
    while len(levels) < target and _add_weighted(rng, levels, archetype) is not None:
        pass
    minimums = [*(floor or {}).items()]
    if use_minimums:
        minimums += archetype.min_levels.items()
    for name, wanted in minimums:
        if name in levels:
            room = cp - sum(levels.values())
            levels[name] = min(max(levels[name], min(wanted, caps[name])), levels[name] + room)
    remaining = cp - sum(levels.values())
    while remaining > 0:
        open_ = [a for a in levels if levels[a] < caps[a]]
        if not open_:
            if _add_weighted(rng, levels, archetype) is not None:
                remaining -= 1
                continue
            # Every suitable ability is full: lift the archetype's caps, then take anything.
            lifted = [a for a in levels if levels[a] < max_level]
            if lifted:
                for name in lifted:
                    caps[name] = max_level
                continue
            spare_names = [a for a in CHARACTER_ABILITIES if a not in levels]
            levels[pick(rng, spare_names)] = 1
            remaining -= 1
            continue
        weights = _weights(archetype, open_)
        chosen = pick_weighted(rng, open_, weights)
        levels[chosen] += 1
        remaining -= 1
    order = {name: i for i, name in enumerate(CHARACTER_ABILITIES)}
    return dict(sorted(levels.items(), key=lambda item: (-item[1], order[item[0]])))


def _article(phrase: str) -> str:
    # By sound, not letter: "a one-handed guard", "a young medic", "an elegant duelist".
    if phrase.lower().startswith(("one", "uni", "use")):
        return "a"
    return "an" if phrase[:1].lower() in "aeiou" else "a"


def describe(
    rng: Random, archetype: Archetype, career: Career | None = None, fresh: _Fresh | None = None
) -> str:
    """ "a wiry caravan guard who never forgets a face"; a career NPC is named by its trade."""
    book = archetype_book()
    fresh = fresh or _Fresh()
    adjective = fresh.pick(rng, archetype.adjectives if archetype.beast else book.adjectives)
    role = fresh.pick(rng, archetype.roles)
    if career is not None:
        role = career.name.casefold()
    shared = book.beast_traits if archetype.beast else book.traits
    trait = fresh.pick(rng, [*archetype.traits, *shared])
    return f"{_article(adjective)} {adjective} {role} {trait}"


def ability_notes(
    rng: Random,
    archetype: Archetype,
    levels: Mapping[str, int],
    fresh: _Fresh | None = None,
) -> dict[str, str]:
    """A note on each of the best few abilities above level 1 (the first one in any case).

    The pool of an ability is the archetype's own notes and then the shared ones: the
    archetype's flavour first in the file, but a roster of one archetype still has enough
    phrases to go round. One NPC never gets the same phrase twice."""
    book = archetype_book()
    fresh = fresh or _Fresh()
    notes: dict[str, str] = {}
    for index, (name, level) in enumerate(levels.items()):
        if len(notes) >= NOTED_ABILITIES or (index > 0 and level < 2):
            break
        shared = (book.beast_notes if archetype.beast else book.notes).get(name, [])
        pool = [*archetype.notes.get(name, []), *shared]
        if pool:
            notes[name] = fresh.pick(rng, pool, exclude=notes.values())
    return notes


def minion_budget(rng: Random, command: int) -> list[tuple[int, int]]:
    """(count, CP each) of a leader's minions: 1 or 2 of them, costing at most command."""
    if command <= 1:
        return [(1, 1)]
    shape = _below(rng, 3)
    if shape == 0:
        return [(1, command)]  # one follower with every point
    if shape == 1:
        return [(2, command // 2)]  # a matched pair, like the books' Thugs
    first = 1 + _below(rng, command - 1)
    return [(1, first), (1, command - first)]  # two different followers


def make_minions(
    rng: Random,
    archetype: Archetype,
    leader_given: str,
    command: int,
    max_level: int,
    fresh: _Fresh | None = None,
) -> list[MinionNpc]:
    budget = minion_budget(rng, command)
    templates = list(archetype.minions)
    out: list[MinionNpc] = []
    used: list[int] = []
    for count, cp in budget:
        choices = [i for i in range(len(templates)) if i not in used] or list(range(len(templates)))
        index = pick(rng, choices)
        used.append(index)
        template = templates[index]
        minion_type = Archetype(
            label=template.one,
            summary=template.one,
            weights=template.weights,
            roles=[template.one],
            abilities=(2, 3),
        )
        # Beside toughness, a follower has the one thing it is hired for (when 2 CP allow).
        others = [a for a in template.weights if a != "toughness" and template.weights[a]]
        signature = max(others, key=lambda a: template.weights[a], default=None)
        required = [[signature]] if cp >= 2 and signature else []
        levels = build_levels(rng, minion_type, cp, max_level, required)
        noun = template.many if count > 1 else template.one
        out.append(
            MinionNpc(
                f"{leader_given}'s {noun}",
                count,
                (fresh or _Fresh()).pick(rng, template.descriptions),
                levels,
            )
        )
    return out


_ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip


def roman(number: int) -> str:
    """2 -> "II": how a second bearer of a name is told apart, as in a family line."""
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def _numbered(name: str, taken: Collection[str]) -> str:
    """``name`` with the first numeral not taken yet: "Mara Voss II", then "III"."""
    number = 2
    while f"{name} {roman(number)}" in taken:
        number += 1
    return f"{name} {roman(number)}"


class _Names:
    """Unique full names. The given name and the family name are each drawn least used
    first, so neither repeats before its list is used up; after that they come back in new
    pairings. A full name that is taken anyway gets a numeral (:func:`_numbered`)."""

    def __init__(self, prefix: str, avoid: Sequence[str] = ()) -> None:
        self.prefix = prefix
        self.taken: set[str] = set(avoid)
        self.given, self.family = _Fresh(), _Fresh()
        self.reused = 0  # NPCs whose given or family name was already in the roster
        lists = name_lists()
        # The campaign's own people count as uses: the new roster avoids their names too.
        for name in avoid:
            words = name.split()
            self.given.uses.update(w for w in dict.fromkeys(words) if w in lists.given)
            self.family.uses.update(f for f in lists.family if name.endswith(f" {f}"))

    def draw(self, rng: Random) -> tuple[str, str]:
        lists = name_lists()
        given = self.given.pick(rng, lists.given)
        # A family name that makes a taken full name is passed over while another is left.
        clashing = [f for f in lists.family if self._full(given, f) in self.taken]
        family = self.family.pick(rng, lists.family, exclude=clashing)
        if self.given.uses[given] > 1 or self.family.uses[family] > 1:
            self.reused += 1
        name = self._full(given, family)
        if name in self.taken:
            name = _numbered(name, self.taken)
        self.taken.add(name)
        return name, given

    def _full(self, given: str, family: str) -> str:
        name = f"{given} {family}"
        return f"{self.prefix} {name}" if self.prefix else name


class _BeastNames:
    """An animal's name from its archetype's list ("Torn Ear"), least used first, numbered
    once the list is used up; ``taken`` is shared with the people's names."""

    def __init__(self, prefix: str, taken: set[str]) -> None:
        self.prefix, self.taken, self.fresh = prefix, taken, _Fresh()

    def draw(self, rng: Random, names: Sequence[str]) -> str:
        name = self.fresh.pick(rng, names)
        name = f"{self.prefix} {name}" if self.prefix else name
        if name in self.taken:
            name = _numbered(name, self.taken)
        self.taken.add(name)
        return name


def generate(plan_: Plan) -> list[Npc]:
    spec = plan_.spec
    book = archetype_book()
    rng = Random(spec.seed)
    names = _Names(spec.name_prefix, spec.avoid_names)
    beast_names = _BeastNames(spec.name_prefix, names.taken)
    fresh = _Fresh()  # descriptions, notes and minion descriptions share one count
    groups = plan_.groups()
    # A small budget leaves out the archetypes whose requirements it cannot pay for.
    mix = [
        name
        for name in book.mix
        if book.mix[name] > 0 and min_cp(None, book.archetypes[name]) <= spec.cp
    ]
    mix_weights = [book.mix[name] for name in mix]
    npcs: list[Npc] = []
    for index in range(spec.count):
        key = plan_.archetype or pick_weighted(rng, mix, mix_weights)
        archetype = book.archetypes[key]
        required = plan_.career.required if plan_.career is not None else archetype.required
        levels = build_levels(
            rng,
            archetype,
            spec.cp,
            spec.max_level,
            required,
            use_minimums=plan_.career is None,
            floor=book.min_levels,
        )
        reused = names.reused
        if archetype.beast:
            name, given = beast_names.draw(rng, archetype.names), ""
        else:
            name, given = names.draw(rng)
        npc = Npc(
            name=name,
            description=describe(rng, archetype, plan_.career, fresh),
            group=groups[index],
            archetype=key,
            levels=levels,
            notes=ability_notes(rng, archetype, levels, fresh),
            career=plan_.career.name if plan_.career is not None else None,
            name_reused=names.reused > reused,
        )
        command = levels.get("command", 0)
        if archetype.minions and command >= 1:
            npc.minions = make_minions(rng, archetype, given, command, spec.max_level, fresh)
        npcs.append(npc)
    return npcs


def name_note(npcs: Sequence[Npc]) -> str | None:
    """One sentence when the name lists ran out, None while every name is fresh."""
    reused = [npc for npc in npcs if npc.name_reused]
    if not reused:
        return None
    lists = name_lists()
    return (
        f"the name lists ({len(set(lists.given))} given, {len(set(lists.family))} family"
        f" names) ran out at {reused[0].name}: {plural_npcs(len(reused))} share a given or"
        " family name with someone else in the roster or campaign (full names stay unique;"
        " one that would repeat carries a numeral, like II)"
    )


def plural_npcs(count: int) -> str:
    return f"{count} NPC" if count == 1 else f"{count} NPCs"


# ------------------------------------------------------------------------------------------
# Checking and writing


def npc_problems(npc: Npc, budget: Budget) -> list[str]:
    """What ``scratchpress check`` would say about this NPC (empty when it passes)."""
    problems = [f"{npc.name}: {w}" for w in budget_warnings(npc.levels, budget)]
    if npc.cp != budget.cp:
        problems.append(f"{npc.name}: spends {npc.cp} CP, not {budget.cp}")
    groups = [MinionGroup(m.name, m.count, m.levels) for m in npc.minions]
    problems += [f"{npc.name}: {message}" for _, message in minion_problems(npc.levels, groups)]
    if sum(m.count for m in npc.minions) > MAX_MINIONS:
        problems.append(f"{npc.name}: more than {MAX_MINIONS} minions")
    for minion in npc.minions:
        if minion.levels.get("toughness", 0) < 1:
            problems.append(f"{npc.name}: minion {minion.name} has no toughness")
    return problems


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 .'’-]*")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def yaml_text(value: str) -> str:
    """A scalar as YAML: plain when nothing in it could be misread, else double-quoted
    (a JSON string is a valid YAML double-quoted scalar)."""
    plain = (
        _PLAIN.fullmatch(value) is not None
        and value == value.strip()
        and value.casefold() not in _YAML_WORDS
        and "  " not in value
    )
    return value if plain else json.dumps(value, ensure_ascii=False)


def _ability_yaml(name: str, level: int, note: str) -> str:
    if note:
        return f"{name}: {{level: {level}, note: {json.dumps(note, ensure_ascii=False)}}}"
    return f"{name}: {level}"


def command_line(spec: RosterSpec, group_given: bool) -> str:
    """The options that make this file again (the output path left out)."""
    parts = ["scratchpress", "roster", "generate", "--count", str(spec.count)]
    parts += ["--cp", str(spec.cp), "--max-level", str(spec.max_level)]
    if spec.archetype is not None:
        parts += ["--archetype", spec.archetype]
    if spec.career is not None:
        parts += ["--career", spec.career]
    if spec.name_prefix:
        parts += ["--name-prefix", spec.name_prefix]
    if group_given and spec.group is not None:
        parts += ["--group", spec.group]
    if spec.campaign is not None:
        parts += ["--campaign", spec.campaign]
    parts += ["--seed", str(spec.seed)]
    return shlex.join(parts)


def to_yaml(plan_: Plan, npcs: Sequence[Npc]) -> str:
    """Ordinary definitions YAML: the GM may edit it and build from it like any other. The
    NPCs go under ``npcs:``: the roster and initiative cards print them, sheets do not."""
    spec = plan_.spec
    command = command_line(spec, spec.group is not None).replace("\n", " ")
    what = (
        f'career "{plan_.career.name}"'
        if plan_.career is not None
        else (f"archetype {plan_.archetype}" if plan_.archetype else "a mix of archetypes")
    )
    several = len(plan_.bands) > 1
    where = (
        f"in {len(plan_.bands)} bands, one initiative group each"
        if several
        else f"in the initiative group {plan_.bands[0].name}"
    )
    lines = [
        f"# {len(npcs)} NPCs ({what}) {where},",
        f"# each built on {spec.cp} CP with no ability above {spec.max_level}.",
        f"# Made by: {command}",
        "# The same command makes the same file. Edit freely; `scratchpress check` says if an",
        "# edit breaks a rule. NPCs print on the roster and as rows on their group's initiative",
        "# card; add `sheet: true` to one for a sheet and an initiative card of its own.",
    ]
    note = name_note(npcs)
    if note is not None:
        lines.append(f"# Note: {note}.")
    lines += ["", "npcs:"]
    # With several bands, a comment opens each: where one ends is easy to see and to edit.
    openings = {
        sum(band.size for band in plan_.bands[:number]): (number + 1, band)
        for number, band in enumerate(plan_.bands)
    }
    for index, npc in enumerate(npcs):
        if several and index in openings:
            number, band = openings[index]
            lines.append(
                f"  # Band {number} of {len(plan_.bands)}: {band.name}, {plural_npcs(band.size)}"
            )
        lines.append(f"  - name: {yaml_text(npc.name)}")
        lines.append(f"    description: {yaml_text(npc.description)}")
        lines.append(f"    group: {yaml_text(npc.group)}")
        if npc.career is not None:
            lines.append(f"    career: {yaml_text(npc.career)}")
        lines.append("    abilities:")
        for name, level in npc.levels.items():
            lines.append(f"      {_ability_yaml(name, level, npc.notes.get(name, ''))}")
        if npc.minions:
            lines.append("    minions:")
            for minion in npc.minions:
                lines.append(f"      - name: {yaml_text(minion.name)}")
                if minion.count != 1:
                    lines.append(f"        count: {minion.count}")
                lines.append(f"        description: {yaml_text(minion.description)}")
                lines.append("        abilities:")
                for name, level in minion.levels.items():
                    lines.append(f"          {name}: {level}")
    return "\n".join(lines) + "\n"


def roster_yaml(spec: RosterSpec, careers: Sequence[Career] = ()) -> tuple[str, Plan, list[Npc]]:
    """Plan, generate, self-check and write: the library entry point of the command.

    Raises RosterError for options it cannot honour, AssertionError if an NPC it made would
    fail ``scratchpress check`` (a bug: no user input can cause it).
    """
    plan_ = plan(spec, careers)
    npcs = generate(plan_)
    budget = Budget(plan_.spec.cp, plan_.spec.max_level)
    problems = [p for npc in npcs for p in npc_problems(npc, budget)]
    if problems:
        raise AssertionError("generated NPCs break the rules: " + "; ".join(problems[:5]))
    return to_yaml(plan_, npcs), plan_, npcs


def archetype_summaries() -> list[tuple[str, str]]:
    book = archetype_book()
    return [(name, book.archetypes[name].summary) for name in sorted(book.archetypes)]


__all__ = [
    "Band",
    "Npc",
    "Plan",
    "RosterError",
    "RosterSpec",
    "archetype_book",
    "archetype_summaries",
    "band_plan",
    "build_levels",
    "generate",
    "name_lists",
    "name_note",
    "npc_problems",
    "pick_weighted",
    "plan",
    "roster_yaml",
    "seed_value",
    "to_yaml",
]
