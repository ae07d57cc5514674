"""From validated definitions to stat blocks: the rules applied to a whole campaign.

Still no I/O. This is where entries meet each other: crew names are looked up, minions
are checked against their leader's command, initiative groups are formed and ``printed:``
values are compared with what the chosen ruleset computes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .definitions.campaign import Campaign, Located
from .definitions.models import CharacterDef, CommunityDef, MinionDef, VehicleDef, level_and_note
from .definitions.validation import Source
from .problems import Findings, Problem, Severity
from .rules import (
    RULESETS,
    AbilityLine,
    Budget,
    CharacterStats,
    CommunityStats,
    Crew,
    Ruleset,
    VehicleStats,
    compute_character,
    compute_community,
    compute_vehicle,
    get_ruleset,
)
from .rules.abilities import OLDER_NAMES, closest
from .rules.character import NO_TOUGHNESS, Caution, developed_budget
from .rules.community import review_log
from .rules.minions import MinionGroup, minion_problems
from .rules.printed import PRINTABLE, PrintedTally, in_vocabulary, known_misprint


@dataclass(frozen=True)
class Block:
    """One printable stat block with where it came from."""

    kind: str  # character, minion, vehicle, community
    name: str
    stats: CharacterStats | VehicleStats | CommunityStats
    source: Source
    definition: Any
    description: str = ""
    group: str | None = None
    leader: str | None = None
    count: int = 1
    warnings: tuple[str, ...] = ()  # in English, for the build's report
    cautions: tuple[Caution, ...] = ()  # a character's warnings as keys, for its sheet


@dataclass(frozen=True)
class InitiativeGroup:
    name: str
    bonus: int
    rule: str
    members: tuple[Block, ...]
    # The bonus's terms (factor, ability, level); none when each member rolls alone.
    terms: tuple[tuple[int, str, int], ...] = ()


@dataclass
class Computed(Findings):
    rules: Ruleset
    budget: Budget
    blocks: list[Block] = field(default_factory=list)
    groups: list[InitiativeGroup] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # How many printed values were compared, and which ruleset fits them best.
    printed: PrintedTally = field(default_factory=lambda: PrintedTally(""))

    def of_kind(self, kind: str) -> list[Block]:
        return [b for b in self.blocks if b.kind == kind]

    def minions_of(self, leader: str) -> list[Block]:
        return [b for b in self.blocks if b.kind == "minion" and b.leader == leader]

    def block(self, kind: str, name: str) -> Block | None:
        return next((b for b in self.blocks if b.kind == kind and b.name == name), None)


def ability_lines(abilities: dict[str, Any]) -> tuple[AbilityLine, ...]:
    """Definitions' abilities as rule inputs; the older "stalking" is read as stealth."""
    lines = []
    for name, value in abilities.items():
        level, note = level_and_note(value)
        lines.append(AbilityLine(OLDER_NAMES.get(name, name), level, note))
    return tuple(lines)


def _problem(
    message: str,
    source: Source,
    entry: str,
    field_path: tuple[str | int, ...] = (),
    severity: Severity = "error",
) -> Problem:
    return Problem(
        message,
        source.file,
        source.line(*field_path),
        entry,
        ".".join(map(str, field_path)) or None,
        severity,
    )


def _under_every_ruleset(
    name: str, lines: tuple[AbilityLine, ...], printed: Mapping[str, Any], rules: Ruleset
) -> dict[str, CharacterStats]:
    """A character's stats under every other ruleset, for the hints on printed values
    (only when the entry has some: nothing else needs them)."""
    if not printed:
        return {}
    return {
        other.name: compute_character(name, lines, other, check_budget=False)
        for other in RULESETS.values()
        if other.name != rules.name
    }


def _compare_printed(
    printed: dict[str, Any],
    stats: Any,
    rules: Ruleset,
    source: Source,
    entry: str,
    prefix: tuple[str | int, ...] = (),
    *,
    others: Mapping[str, CharacterStats] | None = None,
    tally: PrintedTally | None = None,
) -> list[Problem]:
    """Book values against ours: a mismatch is an error (a known misprint of the books a
    note), a value we don't compute a note. ``others`` are the same character's stats under
    the other rulesets: a mismatch says which of them gives the printed value."""
    problems: list[Problem] = []
    known = PRINTABLE[type(stats)]
    others = others or {}
    if tally is not None and isinstance(stats, CharacterStats):
        tally.count(printed, {rules.name: stats, **others})
    for key, expected in printed.items():
        where = (*prefix, "printed", key)
        if key not in known:
            hint = closest(key, known)
            problems.append(
                _problem(
                    f"unknown printed value {key!r}"
                    + (f" (did you mean {hint!r}?)" if hint else "")
                    + f"; known: {', '.join(known)}",
                    source,
                    entry,
                    where,
                )
            )
            continue
        if (
            key == "crewed_abilities"
            and isinstance(expected, dict)
            and isinstance(stats, VehicleStats)
        ):
            crewed = stats.crewed_abilities
            for ability, value in expected.items():
                got = crewed.get(ability)
                if tally is not None:
                    tally.compared += 1
                if got != value:
                    problems.append(
                        _problem(
                            f"the book prints {ability} {value} with crew, we compute {got}",
                            source,
                            entry,
                            (*where, ability),
                        )
                    )
            continue
        got = stats.value(key)
        if tally is not None:
            if got is None:
                tally.uncompared += 1
                tally.not_computed.add(key)
            else:
                tally.compared += 1
        misprint = (
            known_misprint(stats.name, key, expected, got)
            if isinstance(expected, int) and isinstance(got, int)
            else None
        )
        if got is None:
            problems.append(
                _problem(
                    f"the book prints {key} {expected}; the {rules.name} ruleset does not compute"
                    f" {key}, so it is not compared",
                    source,
                    entry,
                    where,
                    "note",
                )
            )
        elif misprint is not None:
            why = in_vocabulary(stats.explain.get(key, ""), rules.name)
            problems.append(
                _problem(
                    f"the book prints {expected}, the {rules.name} rules give {got}"
                    + (f" ({why})" if why else "")
                    + f": a known misprint in the published example; no revision of the rules"
                    f" gives {expected}, so this is not an error",
                    source,
                    entry,
                    where,
                    "note",
                )
            )
        elif got != expected:
            why = stats.explain.get(key, "") if hasattr(stats, "explain") else ""
            if isinstance(stats, CharacterStats):
                why = in_vocabulary(why, rules.name)
            fits = [name for name, other in others.items() if other.value(key) == expected]
            problems.append(
                _problem(
                    f"the book prints {expected}, the {rules.name} rules give {got}"
                    + (f" ({why})" if why else "")
                    + "".join(f"; the {name} rules give {expected}" for name in fits),
                    source,
                    entry,
                    where,
                )
            )
    return problems


def _character(located: Located, rules: Ruleset, budget: Budget, out: Computed) -> None:
    definition: CharacterDef = located.definition
    source = located.source
    lines = ability_lines(definition.abilities)
    stats = compute_character(
        definition.name,
        lines,
        rules,
        developed_budget(budget, definition.developed),
        beyond_budget=definition.beyond_budget,
    )
    for warning in stats.warnings:
        out.problems.append(
            _problem(
                in_vocabulary(warning, rules.name),
                source,
                definition.name,
                ("abilities",),
                "warning",
            )
        )
    out.problems += _compare_printed(
        definition.printed,
        stats,
        rules,
        source,
        definition.name,
        others=_under_every_ruleset(definition.name, lines, definition.printed, rules),
        tally=out.printed,
    )
    out.blocks.append(
        Block(
            "character",
            definition.name,
            stats,
            source,
            definition,
            definition.description,
            definition.group,
            warnings=stats.warnings,
            cautions=stats.cautions,
        )
    )
    groups = [
        MinionGroup(m.name, m.count, {a.name: a.level for a in ability_lines(m.abilities)})
        for m in definition.minions
    ]
    for field_path, message in minion_problems(stats.levels, groups):
        index = next(
            (i for i, m in enumerate(definition.minions) if field_path == f"minions.{m.name}"), None
        )
        where: tuple[str | int, ...] = ("minions", index) if index is not None else ("minions",)
        out.problems.append(_problem(message, source, definition.name, where))
    for index, minion in enumerate(definition.minions):
        _minion(minion, index, located, rules, out)


def _minion(minion: MinionDef, index: int, leader: Located, rules: Ruleset, out: Computed) -> None:
    source = leader.source
    lines = ability_lines(minion.abilities)
    stats = compute_character(minion.name, lines, rules, check_budget=False)
    cautions: tuple[Caution, ...] = ()
    if not any(a.name == "toughness" for a in stats.abilities):
        cautions = (NO_TOUGHNESS,)
        out.problems.append(
            _problem(
                NO_TOUGHNESS.english,
                source,
                leader.name,
                ("minions", index, "abilities"),
                "warning",
            )
        )
    out.problems += _compare_printed(
        minion.printed,
        stats,
        rules,
        source,
        leader.name,
        ("minions", index),
        others=_under_every_ruleset(minion.name, lines, minion.printed, rules),
        tally=out.printed,
    )
    out.blocks.append(
        Block(
            "minion",
            minion.name,
            stats,
            source,
            minion,
            minion.description,
            leader.definition.group,
            leader=leader.name,
            count=minion.count,
            warnings=tuple(c.english for c in cautions),
            cautions=cautions,
        )
    )


def _crew_seat(
    role: str, name: str | None, located: Located, campaign: Campaign, out: Computed
) -> tuple[str, dict[str, int]] | None:
    if name is None:
        return None
    member = campaign.character(name)
    if member is None:
        names = tuple(c.name for c in campaign.characters)
        hint = closest(name, names)
        out.problems.append(
            _problem(
                f"no character named {name!r} in the campaign"
                + (f" (did you mean {hint!r}?)" if hint else ""),
                located.source,
                located.name,
                ("crew", role),
            )
        )
        return None
    levels = {a.name: a.level for a in ability_lines(member.definition.abilities)}
    return name, levels


def _vehicle(located: Located, campaign: Campaign, rules: Ruleset, out: Computed) -> None:
    definition: VehicleDef = located.definition
    crew = Crew(
        operator=_crew_seat("operator", definition.crew.operator, located, campaign, out),
        gunner=_crew_seat("gunner", definition.crew.gunner, located, campaign, out),
    )
    abilities = tuple(
        (name, *level_and_note(value)) for name, value in definition.abilities.items()
    )
    named = (definition.crew.operator is not None, definition.crew.gunner is not None)
    stats = compute_vehicle(definition.name, abilities, definition.movement, crew, named=named)
    for warning in stats.warnings:
        out.problems.append(
            _problem(warning, located.source, definition.name, ("crew",), "warning")
        )
    out.problems += _compare_printed(
        definition.printed, stats, rules, located.source, definition.name, tally=out.printed
    )
    out.blocks.append(
        Block(
            "vehicle",
            definition.name,
            stats,
            located.source,
            definition,
            definition.description,
            warnings=stats.warnings,
        )
    )


def _community(located: Located, rules: Ruleset, out: Computed) -> None:
    definition: CommunityDef = located.definition
    defenses, notes = {}, {}
    for name in ("economy", "environment", "equity"):
        defenses[name], notes[name] = level_and_note(getattr(definition, name))
    stats = compute_community(definition.name, defenses, notes)
    for warning in stats.warnings:
        out.problems.append(_problem(warning, located.source, definition.name, (), "warning"))
    # The logged years, read as the community sheet reads them (one review for both).
    review = review_log(defenses, definition.players, definition.projects, definition.history)
    for found in review.findings:
        out.problems.append(
            _problem(found.message, located.source, definition.name, found.where, found.severity)
        )
    out.problems += _compare_printed(
        definition.printed, stats, rules, located.source, definition.name, tally=out.printed
    )
    out.blocks.append(
        Block(
            "community",
            definition.name,
            stats,
            located.source,
            definition,
            definition.description,
            warnings=stats.warnings,
        )
    )


def _unique_names(entries: Iterable[Located], kind: str, out: Computed) -> None:
    seen: dict[str, Located] = {}
    for located in entries:
        if located.name in seen:
            first = seen[located.name].source
            out.problems.append(
                _problem(
                    f"another {kind} has this name ({first.file}:{first.line()});"
                    " names must be unique",
                    located.source,
                    located.name,
                    ("name",),
                )
            )
        seen.setdefault(located.name, located)


def _initiative_groups(out: Computed) -> list[InitiativeGroup]:
    """Characters sharing a group, with their minions, roll initiative once together."""
    by_group: dict[str, list[Block]] = {}
    for block in out.blocks:
        if block.kind in {"character", "minion"} and block.group:
            by_group.setdefault(block.group, []).append(block)
    groups = []
    for name, members in by_group.items():
        levels = [m.stats.levels for m in members if isinstance(m.stats, CharacterStats)]
        bonus = out.rules.group_initiative(levels)
        groups.append(
            InitiativeGroup(name, bonus.value, bonus.rule, tuple(members), bonus.terms)
        )
    return groups


def compute_campaign(campaign: Campaign, rules_name: str | None = None) -> Computed:
    rules = get_ruleset(rules_name or campaign.settings.rules)
    budget = Budget(campaign.settings.cp, campaign.settings.max_level)
    out = Computed(rules=rules, budget=budget, printed=PrintedTally(rules.name))
    _unique_names(campaign.characters, "character", out)
    _unique_names(campaign.vehicles, "vehicle", out)
    _unique_names(campaign.communities, "community", out)
    for located in campaign.characters:
        _character(located, rules, budget, out)
    for located in campaign.vehicles:
        _vehicle(located, campaign, rules, out)
    for located in campaign.communities:
        _community(located, rules, out)
    better = out.printed.better_fit_note()
    if better is not None:
        out.problems.append(Problem(better, severity="note"))
    out.groups = _initiative_groups(out)
    return out


__all__ = ["Block", "Computed", "InitiativeGroup", "compute_campaign"]
