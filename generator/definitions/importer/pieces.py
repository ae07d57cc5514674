"""The pieces the importer passes between its steps: numbered lines, raw blocks, entries
and the report on what was skipped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ...problems import Severity

# One definition (character, vehicle or community) as it will be written to YAML.
Definition = dict[str, Any]

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


@dataclass(frozen=True)
class _AbilityLine:
    """One ``N ability (M with NAME as role): note`` line."""

    ability: str
    level: int
    note: str
    crewed_level: int | None = None
    crew_name: str | None = None
    crew_role: str | None = None
    crew_title: str | None = None  # the role as written: "pilot" for the operator
    unknown_role: str | None = None  # "(5 with X as passenger)": kept in the note, reported
    line: int = 0  # of the file
    text: str = ""  # the line as written, for the report when it is left out


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
    line: int = 0  # of the header (or of a community's name) in the file


# A line of text and the line of the file it starts on (1-based).
_Line = tuple[int, str]


@dataclass(frozen=True)
class _Skipped:
    """A piece of the text that gave no definition: where, what kind, and the message."""

    line: int
    # "prose run", "header", "ability line", "markup element", "older block", "name clash"
    kind: str
    message: str
    entry: str | None = None
    severity: Severity = "note"


@dataclass(frozen=True)
class _Entry:
    """A definition read from one revision, with its section and the line of its header."""

    section: str
    definition: Definition
    line: int

    def names(self) -> list[str]:
        """Its own name and its minion groups' names, casefolded: the names it takes."""
        minions = self.definition.get("minions", [])
        return [str(d["name"]).casefold() for d in [self.definition, *minions]]
