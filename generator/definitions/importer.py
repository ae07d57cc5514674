"""Import stat blocks written in the books' plain-text format as scratchpress definitions.

The Scratch books print characters, vehicles and communities as short runs of lines (RULES.md
§15). This module turns such text into the dictionaries of our YAML schema, so a game master
can paste a block from a wiki page and get a definition file back. It is pure: it reads
strings and returns data or text, and never prints or touches files.

Formats recognised
------------------
* Current character header: ``Name (13 agility, 10 intelligence, 12 strength, 1 stamina): text``
* Old single-defense header: ``Name (13 defense, 1 stamina): text``
* Ability lines under a header: ``3 stealth: note`` or a bare ``3 toughness``. Wiki list
  markers (``*``, ``:``, ``#``) and indentation in front of a line are ignored.
* Vehicle lines: ``3 spaceflight (5 with Chokestar as pilot): note``; the role may be pilot,
  driver, navigator, operator (all the vehicle's operator) or gunner.
* Communities (a wiki definition list): a name line (``;Name`` or plain ``Name``) followed by
  ``:15 economy: note``, ``:5 environment: note`` and ``:10 equity: note``.

Decisions where the text is ambiguous
-------------------------------------
* Blank lines do not end a block: the books put a blank line between every ability line. A
  block ends at the first other line that is neither a header nor an ability line.
* A header followed by no ability line is skipped (it is not a usable definition, and is
  most likely a sentence that merely looks like a header).
* A community line run with no plausible name line before it is skipped.
* If an ability appears twice in one block, the first line wins.
* If a vehicle names two different people for the same crew role, the first one wins.
* Names are unique across every kind of definition: the second "Chokestar" becomes
  "Chokestar 2", a third "Chokestar 3".
* A vehicle with no movement ability gets no ``movement`` key.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any, Final

from ruamel.yaml import YAML

from ..rules.abilities import CHARACTER_ABILITIES, OLDER_NAMES, VEHICLE_ABILITIES, VEHICLE_MOVEMENT

__all__ = ["Definition", "dump_definitions", "parse_stat_blocks"]

# One definition (character, vehicle or community) as it will be written to YAML.
Definition = dict[str, Any]

SECTION_ORDER: Final[tuple[str, ...]] = ("characters", "vehicles", "communities")

# The two header styles (RULES.md §15). A header must carry exactly one of these label sets.
CURRENT_HEADER: Final[frozenset[str]] = frozenset(
    {"agility", "intelligence", "strength", "stamina"}
)
OLD_HEADER: Final[frozenset[str]] = frozenset({"defense", "stamina"})

# Abilities only a vehicle can have; one of them (or a crew annotation) marks a vehicle block.
# Stalking, toughness, quickness, flying and swimming are shared with characters (the old
# "stalking" is a character ability too), so they prove nothing.
VEHICLE_ONLY_ABILITIES: Final[frozenset[str]] = frozenset(VEHICLE_ABILITIES) - frozenset(
    (*CHARACTER_ABILITIES, *OLDER_NAMES)
)

COMMUNITY_DEFENSES: Final[tuple[str, ...]] = ("economy", "environment", "equity")

# Crew annotations name a role; the schema only knows operator and gunner. The operator's
# title depends on the medium (pilot for air and space, driver on the ground, navigator on
# water), and all of them steer the vehicle.
CREW_ROLES: Final[dict[str, str]] = {
    "pilot": "operator",
    "driver": "operator",
    "navigator": "operator",
    "operator": "operator",
    "gunner": "gunner",
}

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

# Community names are short titles; a long line or a sentence is prose, not a name.
_MAX_NAME_LENGTH: Final[int] = 60

_HEADER_COMMENT: Final[str] = (
    "# Imported by scratchpress from stat blocks in the books' plain-text format.\n"
    "# Check the result: printed values are copied as written, not recomputed.\n"
)

# Wiki list markers and indentation that may precede a line of a stat block. The possessive
# quantifiers (`*+`, `++`) and the greedy tails, stripped in code, keep matching linear:
# lazy groups followed by `\s*` backtrack quadratically on long lines full of spaces.
_LEAD: Final[str] = r"^[\s*:;#]*+"

_HEADER_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD
    + r"(?P<name>[^():]++)"
    + r"\((?P<stats>\d+\s+[a-z]+(?:\s*,\s*\d+\s+[a-z]+)*)\)\s*+"
    + r"(?::(?P<description>.*))?$",
    re.IGNORECASE,
)
_STAT_RE: Final[re.Pattern[str]] = re.compile(r"(\d+)\s+([a-z]+)", re.IGNORECASE)

# Ability names are one to three words ("land sailing"); a longer run is a prose sentence.
_ABILITY_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD
    + r"(?P<level>\d+)\s+(?P<ability>[a-z]+(?:[ _-][a-z]+){0,2})\s*+"
    + r"(?:\(\s*(?P<crewed>\d+)\s+with\s+(?P<crew>[^()]+?)\s+as\s+(?P<role>[a-z]+)\s*\)\s*+)?"
    + r"(?::(?P<note>.*))?$",
    re.IGNORECASE,
)

# Wiki bold/italic quotes and link brackets around a name are markup, not part of it.
_NAME_MARKUP_RE: Final[re.Pattern[str]] = re.compile(r"'{2,}|\[\[|\]\]")


@dataclass(frozen=True)
class _AbilityLine:
    """One ``N ability (M with NAME as role): note`` line."""

    ability: str
    level: int
    note: str
    crewed_level: int | None = None
    crew_name: str | None = None
    crew_role: str | None = None


@dataclass
class _RawBlock:
    """A header (or community name) and the ability lines read under it."""

    name: str
    is_community: bool
    description: str = ""
    printed: dict[str, int] = field(default_factory=dict)
    lines: list[_AbilityLine] = field(default_factory=list)
    # True when nothing but blank lines separates this block from the one before it; only
    # such a block can be the minion group of the previous leader.
    follows_block: bool = False


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

    def claim(self, name: str) -> str:
        unique, number = name, 1
        while unique.casefold() in self._used:
            number += 1
            unique = f"{name} {number}"
        self._used.add(unique.casefold())
        self._latest[name.casefold()] = unique
        return unique

    def resolve(self, name: str) -> str:
        # A crew annotation means the most recent block of that name read so far.
        return self._latest.get(name.casefold(), name)


# --------------------------------------------------------------------------------------------
# Public API


def parse_stat_blocks(text: str) -> dict[str, list[Definition]]:
    """Find every stat block in ``text`` and return it as definitions of our schema.

    The result has the keys ``characters``, ``vehicles`` and ``communities`` in that order,
    each present only when it is not empty. Blocks keep the order of the text. See the
    module docstring for the formats handled and for the choices made on ambiguous input;
    in short, a header with no ability lines under it is skipped, not reported.
    """
    names = _Names()
    sections: dict[str, list[Definition]] = {key: [] for key in SECTION_ORDER}
    leader: _Leader | None = None
    for block in _scan(text):
        if not block.lines:
            continue
        if block.is_community:
            sections["communities"].append(_community(block, names))
            leader = None
        elif _is_vehicle(block):
            sections["vehicles"].append(_vehicle(block, names))
            leader = None
        else:
            leader = _add_character(block, names, leader, sections["characters"])
    return {key: items for key, items in sections.items() if items}


def dump_definitions(data: dict[str, list[Definition]]) -> str:
    """Write definitions as block-style YAML with a comment saying they were imported.

    Sections come in the schema's order (characters, vehicles, communities, then anything
    else); keys inside each definition keep the order they have in ``data``.
    """
    yaml = YAML()  # round-trip mode: keeps insertion order instead of sorting keys
    yaml.default_flow_style = False
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096  # keep each note on one line; folded notes are harder to edit
    ordered = {key: data[key] for key in SECTION_ORDER if key in data}
    ordered.update({key: value for key, value in data.items() if key not in ordered})
    stream = io.StringIO()
    yaml.dump(ordered, stream)
    return _HEADER_COMMENT + stream.getvalue()


# --------------------------------------------------------------------------------------------
# Scanning lines into raw blocks


def _scan(text: str) -> list[_RawBlock]:
    """Group the lines of ``text`` into raw blocks, dropping everything else."""
    blocks: list[_RawBlock] = []
    current: _RawBlock | None = None
    name_line: str | None = None  # the last prose line: a community's name, if one follows
    for line in text.splitlines():
        if not line.strip():
            continue  # the books separate every line with a blank one
        header = _parse_header(line)
        if header is not None:
            header.follows_block = current is not None
            blocks.append(header)
            current, name_line = header, None
            continue
        ability = _parse_ability(line)
        if ability is None:
            current, name_line = None, line
            continue
        current = _place_ability(ability, current, name_line, blocks)
        name_line = None
    return blocks


def _place_ability(
    ability: _AbilityLine,
    current: _RawBlock | None,
    name_line: str | None,
    blocks: list[_RawBlock],
) -> _RawBlock | None:
    """Attach an ability line to the open block, or open a community; return the open block."""
    is_defense = ability.ability in COMMUNITY_DEFENSES
    if current is not None and (not current.is_community or is_defense):
        current.lines.append(ability)
        return current
    if current is None and is_defense and name_line is not None:
        name = _community_name(name_line)
        if name is not None:
            community = _RawBlock(name=name, is_community=True, lines=[ability])
            blocks.append(community)
            return community
    return None  # a stray ability line outside any block


def _parse_header(line: str) -> _RawBlock | None:
    match = _HEADER_RE.match(line)
    if match is None:
        return None
    printed = _parse_printed(match["stats"])
    name = _clean_name(match["name"])
    if printed is None or not name:
        return None
    return _RawBlock(
        name=name,
        is_community=False,
        description=(match["description"] or "").strip(),
        printed=printed,
    )


def _parse_printed(stats: str) -> dict[str, int] | None:
    """Read ``13 agility, 10 intelligence, ...``; None unless it is one of the header styles."""
    pairs = [(label.lower(), int(value)) for value, label in _STAT_RE.findall(stats)]
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels) or set(labels) not in (CURRENT_HEADER, OLD_HEADER):
        return None
    return dict(pairs)  # in the order printed, as the schema asks


def _parse_ability(line: str) -> _AbilityLine | None:
    match = _ABILITY_RE.match(line)
    if match is None:
        return None
    role = match["role"]
    crewed = match["crewed"]
    if role is not None and role.lower() not in CREW_ROLES:
        return None  # "(5 with X as passenger)" is not a format we know
    return _AbilityLine(
        ability=_snake_case(match["ability"]),
        level=int(match["level"]),
        note=(match["note"] or "").strip(),
        crewed_level=int(crewed) if crewed is not None else None,
        crew_name=match["crew"].strip() if match["crew"] is not None else None,
        crew_role=CREW_ROLES[role.lower()] if role is not None else None,
    )


def _snake_case(ability: str) -> str:
    return re.sub(r"[ \-]+", "_", ability.strip().lower())


def _clean_name(name: str) -> str:
    return _NAME_MARKUP_RE.sub("", name).strip()


def _community_name(line: str) -> str | None:
    """The name on a definition-list term line, or None when the line reads like prose."""
    name = _clean_name(line.strip().lstrip(";").strip())
    if not name or len(name) > _MAX_NAME_LENGTH:
        return None
    if name.startswith(("=", "*", "#", ":")) or name.endswith((".", "!", "?", ":")):
        return None  # a wiki heading, list item or sentence
    return name


# --------------------------------------------------------------------------------------------
# Building definitions


def _abilities(lines: list[_AbilityLine]) -> dict[str, Any]:
    """Ability levels in text order: a bare level, or level and note when there is a note."""
    abilities: dict[str, Any] = {}
    for line in lines:
        if line.ability not in abilities:
            abilities[line.ability] = _level_value(line)
    return abilities


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
    block: _RawBlock,
    names: _Names,
    leader: _Leader | None,
    characters: list[Definition],
) -> _Leader | None:
    """Add a character, or nest it as a minion group; return the leader for the next block."""
    count = _minion_count(leader.command_note, block.name) if leader else None
    if leader is not None and block.follows_block and count is not None:
        minion: Definition = {"name": names.claim(block.name), "count": count}
        minion["abilities"] = _abilities(block.lines)
        if block.description:
            minion["description"] = block.description
        minion["printed"] = dict(block.printed)
        leader.definition.setdefault("minions", []).append(minion)
        return leader  # a leader may announce more than one minion group
    definition = _character(block, names.claim(block.name))
    characters.append(definition)
    command = next((line for line in block.lines if line.ability == "command"), None)
    return _Leader(definition, command.note) if command and command.note else None


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


def _vehicle(block: _RawBlock, names: _Names) -> Definition:
    definition = _with_description(names.claim(block.name), block.description)
    movement = _movement(block.lines)
    if movement is not None:
        definition["movement"] = movement
    definition["abilities"] = _abilities(block.lines)
    crew, crewed = _crew(block.lines, names)
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


def _crew(lines: list[_AbilityLine], names: _Names) -> tuple[dict[str, str], dict[str, int]]:
    """Crew by role (resolved to unique names) and the crewed levels printed in parentheses."""
    crew: dict[str, str] = {}
    crewed: dict[str, int] = {}
    for line in lines:
        if line.crew_role is None or line.crew_name is None or line.crewed_level is None:
            continue
        crew.setdefault(line.crew_role, names.resolve(line.crew_name))
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
