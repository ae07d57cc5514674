"""Career checks for Resilience player characters (RULES.md §14.1).

A character's ``career:`` names one of the campaign's careers (the built-in thirteen plus
any the campaign adds), by name or id, in any case. Three things are checked:

* the career exists (an error, with the closest known name as a hint);
* the character has level 1 in at least one ability of every group the career requires
  (a warning per unmet group: a player may still be growing into the job);
* no two player characters share a career: the text wants each PC's interests to differ
  (a warning on every PC after the first to take it).

A campaign's own careers are checked too (``career_definition_problems``): the rules build a
career's requirements from attack, defense and support abilities, so requiring another kind
(stealth, driving) is a warning.

Pure: no I/O. Every problem names the file, line, entry and field of the ``career:`` key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..definitions.campaign import Campaign, Located
from ..definitions.models import CharacterDef
from ..definitions.resilience_models import CAREER_REQUIRED_LEVEL, Career
from ..problems import Problem, Severity
from ..rules.abilities import closest, display
from ..rules.character import CharacterStats
from ..statblocks import Block, Computed, ability_lines


def _career_problem(message: str, located: Located, severity: Severity = "warning") -> Problem:
    source = located.source
    return Problem(message, source.file, source.line("career"), located.name, "career", severity)


def _unwrap(careers: Iterable[Career | Located]) -> list[Career]:
    """Careers as plain models, whether given bare or wrapped with their source."""
    return [c.definition if isinstance(c, Located) else c for c in careers]


def career_index(careers: Iterable[Career | Located]) -> dict[str, Career]:
    """Every career under its casefolded name and id; a later entry wins a clash."""
    index: dict[str, Career] = {}
    for career in _unwrap(careers):
        index[career.name.casefold()] = career
        index[career.id.casefold()] = career
    return index


def find_career(name: str, careers: Iterable[Career | Located]) -> Career | None:
    return career_index(careers).get(name.strip().casefold())


def _where(located: Located | Block) -> tuple[str, tuple[str | int, ...]]:
    return located.source.file, located.source.path


def _levels(
    located: Located, blocks: Mapping[tuple[str, tuple[str | int, ...]], Block]
) -> dict[str, int]:
    # Found by where it was written, not by name: two characters may share one (an error
    # of its own), and each must be checked against its own abilities.
    block = blocks.get(_where(located))
    if block is not None and isinstance(block.stats, CharacterStats):
        return dict(block.stats.levels)
    # Entries with errors may have no block; read the definition (older names mapped).
    return {line.name: line.level for line in ability_lines(located.definition.abilities)}


def _group_text(group: Iterable[str]) -> str:
    names = [display(a) for a in group]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def missing_requirements(career: Career, levels: Mapping[str, int]) -> list[str]:
    """Each unmet requirement group, worded: ``quickness or acrobatics``."""
    return [
        _group_text(group)
        for group in career.required
        if not any(levels.get(a, 0) >= CAREER_REQUIRED_LEVEL for a in group)
    ]


def career_problems(
    campaign: Campaign, computed: Computed, careers: Iterable[Career | Located]
) -> list[Problem]:
    """Unknown careers (errors), unmet requirements and PCs sharing a career (warnings)."""
    known = _unwrap(careers)
    index = career_index(known)
    names = tuple(dict.fromkeys(c.name for c in known))
    problems: list[Problem] = []
    taken: dict[str, Located] = {}  # career id -> first PC who has it
    blocks = {_where(b): b for b in computed.of_kind("character")}
    for located in campaign.characters:
        definition: CharacterDef = located.definition
        if definition.career is None:
            continue
        career = index.get(definition.career.strip().casefold())
        if career is None:
            hint = closest(definition.career.casefold(), tuple(n.casefold() for n in names))
            shown = next((n for n in names if n.casefold() == hint), None)
            message = f"unknown career {definition.career!r}"
            message += f' (did you mean "{shown}"?)' if shown else f"; known: {', '.join(names)}"
            problems.append(_career_problem(message, located, "error"))
            continue
        for group in missing_requirements(career, _levels(located, blocks)):
            problems.append(
                _career_problem(
                    f'career "{career.name}" needs {group} (level {CAREER_REQUIRED_LEVEL})',
                    located,
                )
            )
        if not definition.player.strip():
            continue  # only player characters must differ; NPCs may share a trade
        first = taken.get(career.id)
        if first is None:
            taken[career.id] = located
            continue
        # Two of one name (an error of its own) are told apart by where they are written.
        player = f"player {first.definition.player}"
        if first.name == located.name:
            who = f"the other {first.name}'s ({first.source.file}:{first.source.line()}, {player})"
        else:
            who = f"{first.name}'s ({player})"
        problems.append(
            _career_problem(
                f'career "{career.name}" is also {who}; give every player\'s character a'
                " career of their own, so that their interests clash at the council",
                located,
            )
        )
    return problems


def career_definition_problems(campaign: Campaign) -> list[Problem]:
    """A warning for each campaign career that requires an ability outside the three types."""
    problems: list[Problem] = []
    for located in campaign.careers:
        career: Career = located.definition
        off = career.off_type_requirements()
        if off:
            names = ", ".join(display(a) for a in off)
            problems.append(
                Problem(
                    f"requires {names}, outside the attack, defense and support abilities"
                    " careers are built from; make it a note in the description instead",
                    located.source.file,
                    located.source.line("required"),
                    located.name,
                    "required",
                    "warning",
                )
            )
    return problems


__all__ = [
    "career_definition_problems",
    "career_index",
    "career_problems",
    "find_career",
    "missing_requirements",
]
