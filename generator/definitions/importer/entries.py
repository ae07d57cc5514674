"""Raw blocks to definitions of our schema: characters with their minion groups, vehicles
with their crews, communities; names made unique within a revision."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Final

from ...problems import quoted
from ...rules.abilities import (
    CHARACTER_ABILITIES,
    OLDER_NAMES,
    VEHICLE_ABILITIES,
    VEHICLE_MOVEMENT,
    display,
)
from ..models import MAX_LEVEL
from .pieces import (
    COMMUNITY_DEFENSES,
    Definition,
    _AbilityLine,
    _Entry,
    _Line,
    _RawBlock,
    _Skipped,
)
from .scan import _scan

# What a block of each kind may list; anything else is reported and left out of the YAML,
# since a definition with an unknown ability does not load.
_KNOWN: Final[dict[str, frozenset[str]]] = {
    "characters": frozenset((*CHARACTER_ABILITIES, *OLDER_NAMES)),
    "vehicles": frozenset(VEHICLE_ABILITIES),
    "communities": frozenset(COMMUNITY_DEFENSES),
}
_KIND: Final[dict[str, str]] = {
    "characters": "a character",
    "vehicles": "a vehicle",
    "communities": "a community",
}
# Close enough to be a typo ("stelth"); "sneaking" is not offered "stalking".
_TYPO_CUTOFF: Final[float] = 0.8

# Abilities only a vehicle can have; one of them (or a crew annotation) marks a vehicle block.
# Stalking, toughness, quickness, flying and swimming are shared with characters (the old
# "stalking" is a character ability too), so they prove nothing.
VEHICLE_ONLY_ABILITIES: Final[frozenset[str]] = frozenset(VEHICLE_ABILITIES) - frozenset(
    (*CHARACTER_ABILITIES, *OLDER_NAMES)
)


# Words a leader's command note may use for the size of a minion group.
NUMBER_WORDS: Final[dict[str, int]] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "two": 2,
    "pair": 2,
    "couple": 2,
    "three": 3,
    "trio": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "dozen": 12,
}

# How many words before the minion's name in the note we search for a count: enough for
# "two loyal thugs", few enough not to pick up an unrelated number earlier in the sentence.
_COUNT_WINDOW: Final[int] = 3


@dataclass
class _Leader:
    """A character whose command note may announce the minion blocks that follow it."""

    definition: Definition
    command_note: str


class _Names:
    """Hands out unique names and remembers the latest block read under each name."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._latest: dict[str, str] = {}
        self._next: dict[str, int] = {}  # where the search for a free number resumes

    def claim(self, name: str) -> str:
        # Numbers are never given back, so the search resumes where the last one ended:
        # a page of 40,000 blocks with one name stays linear.
        number = self._next.get(name.casefold(), 1)
        unique = name if number == 1 else f"{name} {number}"
        while unique.casefold() in self._used:
            number += 1
            unique = f"{name} {number}"
        self._next[name.casefold()] = number
        self._used.add(unique.casefold())
        self._latest[name.casefold()] = unique
        return unique

    def resolve(self, name: str) -> str:
        # A crew annotation means the most recent block of that name read so far.
        return self._latest.get(name.casefold(), name)


def _read_revision(lines: list[_Line], skipped: list[_Skipped]) -> list[_Entry]:
    """The definitions of one revision (or of a whole plain text), in text order; names are
    made unique within it ("Chokestar 2")."""
    names = _Names()
    entries: list[_Entry] = []
    leader: _Leader | None = None
    for block in _scan(lines, skipped):
        if not block.lines:
            continue  # reported by _scan
        section = (
            "communities"
            if block.is_community
            else "vehicles"
            if _is_vehicle(block)
            else "characters"
        )
        block.lines = _usable(block, section, skipped)
        if not block.lines:
            skipped.append(
                _Skipped(
                    block.line,
                    "header",
                    f"skipped the block {quoted(block.name)}: none of its ability lines could"
                    " be read",
                    entry=block.name,
                )
            )
            continue
        if block.is_community:
            entries.append(_Entry("communities", _community(block, names), block.line))
            leader = None
        elif section == "vehicles":
            entries.append(_Entry("vehicles", _vehicle(block, names, skipped), block.line))
            leader = None
        else:
            leader, character = _add_character(block, names, leader)
            if character is not None:
                entries.append(_Entry("characters", character, block.line))
    return entries


def _usable(block: _RawBlock, section: str, skipped: list[_Skipped]) -> list[_AbilityLine]:
    """The ability lines that can go into the YAML; each of the others is reported."""
    kept: dict[str, _AbilityLine] = {}
    for line in block.lines:
        why = _refusal(line, section, kept)
        if why is not None:
            skipped.append(
                _Skipped(
                    line.line,
                    "ability line",
                    f"skipped {quoted(line.text, 60)}: {why}",
                    entry=block.name,
                )
            )
            continue
        kept[line.ability] = line
        if line.unknown_role is not None:
            skipped.append(
                _Skipped(
                    line.line,
                    "crew role",
                    f"read {quoted(line.text, 60)} without its crew: {quoted(line.unknown_role)}"
                    " is not a crew role (pilot, driver, navigator, operator or gunner), so the"
                    " parenthesis stays in the note",
                    entry=block.name,
                )
            )
    return list(kept.values())


def _refusal(line: _AbilityLine, section: str, kept: dict[str, _AbilityLine]) -> str | None:
    """Why ``line`` cannot go into a definition of ``section``, or None when it can."""
    name = display(line.ability)
    if line.ability not in _KNOWN[section]:
        guess = difflib.get_close_matches(
            line.ability, sorted(_KNOWN[section]), n=1, cutoff=_TYPO_CUTOFF
        )
        hint = f" (did you mean {display(guess[0])}?)" if guess else ""
        return f"{quoted(name)} is not an ability {_KIND[section]} can have{hint}"
    if line.level == 0 and section != "communities":
        return f"level 0 means no {name} at all, so there is nothing to write"
    if line.level > MAX_LEVEL:
        return f"level {line.level} is past {MAX_LEVEL}, the highest a definition takes"
    if line.ability in kept:
        return f"{name} is already given on line {kept[line.ability].line}; the first is kept"
    return None


# --------------------------------------------------------------------------------------------
# Building definitions


def _abilities(lines: list[_AbilityLine]) -> dict[str, Any]:
    """Ability levels in text order: a bare level, or level and note when there is a note."""
    return {line.ability: _level_value(line) for line in lines}


def _level_value(line: _AbilityLine) -> int | dict[str, Any]:
    return {"level": line.level, "note": line.note} if line.note else line.level


def _with_description(name: str, description: str) -> Definition:
    definition: Definition = {"name": name}
    if description:
        definition["description"] = description
    return definition


def _is_vehicle(block: _RawBlock) -> bool:
    return any(
        line.ability in VEHICLE_ONLY_ABILITIES or line.crew_role is not None for line in block.lines
    )


def _character(block: _RawBlock, name: str) -> Definition:
    definition = _with_description(name, block.description)
    definition["abilities"] = _abilities(block.lines)
    definition["printed"] = dict(block.printed)
    return definition


def _add_character(
    block: _RawBlock, names: _Names, leader: _Leader | None
) -> tuple[_Leader | None, Definition | None]:
    """A character, or None when the block nests under ``leader`` as its minion group; and
    the leader for the next block."""
    count = _minion_count(leader.command_note, block.name) if leader else None
    if leader is not None and block.follows_block and count is not None:
        minion: Definition = {"name": names.claim(block.name), "count": count}
        minion["abilities"] = _abilities(block.lines)
        if block.description:
            minion["description"] = block.description
        minion["printed"] = dict(block.printed)
        leader.definition.setdefault("minions", []).append(minion)
        return leader, None  # a leader may announce more than one minion group
    definition = _character(block, names.claim(block.name))
    command = next((line for line in block.lines if line.ability == "command"), None)
    return (_Leader(definition, command.note) if command and command.note else None), definition


def _minion_count(note: str, minion_name: str) -> int | None:
    """The group size a command note gives for ``minion_name``; None if it is not named.

    "accompanied by two thugs" names the block "Thugs" (or "Thug") with a count of 2. A
    mention with no number word shortly before it counts as one minion.
    """
    text = note.casefold()
    match = re.search(_name_pattern(minion_name), text)
    if match is None:
        return None
    before = re.findall(r"[a-z0-9]+", text[: match.start()])[-_COUNT_WINDOW:]
    for word in reversed(before):
        if word.isdigit():
            return int(word)
        if word in NUMBER_WORDS:
            return NUMBER_WORDS[word]
    return 1


def _name_pattern(name: str) -> str:
    """A regex for the name in singular or plural, with or without a leading "the"."""
    base = re.sub(r"^the\s+", "", name.casefold().strip())
    forms = {base, base + "s", base.removesuffix("s")} - {""}
    alternatives = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return rf"\b(?:{alternatives})\b"


def _vehicle(block: _RawBlock, names: _Names, skipped: list[_Skipped]) -> Definition:
    definition = _with_description(names.claim(block.name), block.description)
    movement = _movement(block.lines)
    if movement is not None:
        definition["movement"] = movement
    definition["abilities"] = _abilities(block.lines)
    crew, crewed = _crew(block, names, skipped)
    if crew:
        definition["crew"] = crew
    printed: dict[str, Any] = dict(block.printed)
    if crewed:
        printed["crewed_abilities"] = crewed
    definition["printed"] = printed
    return definition


def _movement(lines: list[_AbilityLine]) -> str | None:
    """The movement ability the operator boosts; else the first movement ability listed."""
    movement = [line for line in lines if line.ability in VEHICLE_MOVEMENT]
    operated = [line for line in movement if line.crew_role == "operator"]
    chosen = operated or movement
    return chosen[0].ability if chosen else None


def _crew(
    block: _RawBlock, names: _Names, skipped: list[_Skipped]
) -> tuple[dict[str, str], dict[str, int]]:
    """Crew by role (resolved to unique names) and the crewed levels printed in parentheses.
    A second person named for a role already taken is reported; the first one stays."""
    crew: dict[str, str] = {}
    crewed: dict[str, int] = {}
    for line in block.lines:
        if line.crew_role is None or line.crew_name is None or line.crewed_level is None:
            continue
        member = names.resolve(line.crew_name)
        taken = crew.setdefault(line.crew_role, member)
        if taken != member:
            # The printed level counts the other person: compared with ours it would mislead.
            skipped.append(
                _Skipped(
                    line.line,
                    "crew role",
                    f"{quoted(line.crew_name)} is named as {line.crew_title} though the vehicle"
                    f" already has {quoted(taken)} there; {quoted(taken)} is kept and"
                    f" {line.crewed_level} (the level with {quoted(line.crew_name)}) left out",
                    entry=block.name,
                )
            )
            continue
        crewed.setdefault(line.ability, line.crewed_level)
    # Schema order: operator before gunner, whatever order the lines came in.
    roles: tuple[str, ...] = ("operator", "gunner")
    ordered = {role: crew[role] for role in roles if role in crew}
    return ordered, crewed


def _community(block: _RawBlock, names: _Names) -> Definition:
    definition: Definition = {"name": names.claim(block.name)}
    by_defense = _abilities(block.lines)
    for defense in COMMUNITY_DEFENSES:
        if defense in by_defense:
            definition[defense] = by_defense[defense]
    return definition
