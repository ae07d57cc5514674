"""Stat blocks as plain text in the books' own format, and as JSON for other tools."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Final

from ..definitions.campaign import Campaign
from ..definitions.models import CommunityDef
from ..problems import InputError, Problem
from ..rules import CharacterStats, CommunityStats, VehicleStats
from ..rules.abilities import display
from ..rules.community import DEFENSES, project_size
from ..rules.health import HealthBands
from ..rules.printed import ability_word, in_vocabulary
from ..rules.vehicles import CrewMember
from ..statblocks import Block, Computed, InitiativeGroup

# The versioned document of `stats --json --format-version 2` (docs/json.md, "Versions"):
# the version changes when a key is removed, renamed or changes meaning, never for a key
# added. The bare list of `--json` alone is format 1 and has no field to say so.
FORMAT: Final = "scratchpress-stats"
FORMAT_VERSION: Final = 2


def character_header(stats: CharacterStats) -> str:
    """``(13 agility, 10 intelligence, 12 strength, 1 stamina)`` or the older
    ``(13 defense, 1 stamina)``, depending on what the ruleset computes."""
    if stats.defense is not None:
        return f"({stats.defense} defense, {stats.stamina} stamina)"
    return (
        f"({stats.agility} agility, {stats.intelligence} intelligence,"
        f" {stats.strength} strength, {stats.stamina} stamina)"
    )


def _with_note(line: str, note: str) -> str:
    return f"{line}: {note}" if note else line


def _minion_cp(stats: CharacterStats, block: Block, computed: Computed | None) -> str:
    """A minion's CP against what limits it: not the campaign's budget but its leader's
    command, which all of the leader's minions share (RULES.md §7)."""
    leader = computed.block("character", block.leader) if computed and block.leader else None
    if computed is None or leader is None or not isinstance(leader.stats, CharacterStats):
        return f"CP {stats.cp} each (a leader's minions share no more CP than its command)"
    minions = computed.minions_of(leader.name)
    spent = sum(m.count * m.stats.cp for m in minions if isinstance(m.stats, CharacterStats))
    command = leader.stats.levels.get("command", 0)
    return (
        f"CP {stats.cp} each; {leader.name}'s minions spend {spent} CP of command {command}"
        " (the total may not exceed the leader's command)"
    )


def _community_log_lines(block: Block, computed: Computed | None) -> list[str]:
    """Where the logged years have taken the community, and what its log breaks: the
    same reading of the log as the community sheet and `check` (rules.community)."""
    from .community import current_defenses, latest_year

    definition = block.definition
    year = latest_year(definition)
    if not year:
        return []
    now = current_defenses(definition)
    lines = [f"now, after year {year}: " + ", ".join(f"{now[d]} {d}" for d in DEFENSES)]
    for problem in computed.problems if computed is not None else []:
        logged = (problem.field or "").startswith(("projects", "history"))
        if problem.entry == block.name and logged:
            lines.append(f"    {problem.severity}: {problem.field}: {problem.message}")
    return lines


def block_lines(block: Block, explain: bool = False, computed: Computed | None = None) -> list[str]:
    stats = block.stats
    # The books print one block for a group of identical minions, without the count.
    title = block.name
    lines: list[str] = []
    if isinstance(stats, CharacterStats):
        lines.append(_with_note(f"{title} {character_header(stats)}", block.description))
        # Each ruleset prints an ability under its own text's name ("stalking" in classic).
        lines += [
            _with_note(f"{a.level} {display(ability_word(a.name, stats.ruleset))}", a.note)
            for a in stats.abilities
        ]
    elif isinstance(stats, VehicleStats):
        header = f"{title} ({stats.defense} defense, {stats.stamina} stamina)"
        lines.append(_with_note(header, block.description))
        lines += [_with_note(a.line, a.note) for a in stats.abilities]
    elif isinstance(stats, CommunityStats):
        lines.append(_with_note(title, block.description))
        lines += [
            _with_note(f"{value} {name}", stats.notes.get(name, ""))
            for name, value in stats.defenses.items()
        ]
        lines += _community_log_lines(block, computed)
    if not explain:
        return lines
    # A character's rules in its ruleset's words; a vehicle's "stalking" is its own.
    words = stats.ruleset if isinstance(stats, CharacterStats) else ""
    if not isinstance(stats, CommunityStats):
        lines += [f"    {in_vocabulary(rule, words)}" for rule in stats.explain.values()]
        if isinstance(stats, CharacterStats) and block.kind == "minion":
            lines.append(f"    {_minion_cp(stats, block, computed)}")
        elif isinstance(stats, CharacterStats):
            lines.append(
                f"    CP {stats.cp} of {stats.budget.cp} (max level {stats.budget.max_level})"
            )
    # The same warnings `check` prints for this block, where the numbers are read.
    lines += [f"    warning: {in_vocabulary(w, words)}" for w in block.warnings]
    return lines


def render_text(computed: Computed, explain: bool = False) -> str:
    chunks = ["\n".join(block_lines(block, explain, computed)) for block in computed.blocks]
    if computed.groups:
        group_lines = ["Initiative groups:"]
        for group in computed.groups:
            names = ", ".join(m.name for m in group.members)
            group_lines.append(f"  {group.name}: +{group.bonus} ({names})")
            if explain:
                group_lines.append(f"    {group.rule}")
        chunks.append("\n".join(group_lines))
    return "\n\n".join(chunks) + "\n"


def _health_json(bands: HealthBands) -> dict[str, list[int] | None]:
    """Inclusive ``[low, high]`` hit point ranges; null where no total falls in the band."""
    return {
        "healthy": list(bands.healthy) if bands.healthy else None,
        "injured": list(bands.injured) if bands.injured else None,
    }


def _crew_json(member: CrewMember | None) -> dict[str, Any] | None:
    if member is None:
        return None
    return {"name": member.name, "ability": member.ability, "level": member.level}


def _vehicle_json(stats: VehicleStats) -> dict[str, Any]:
    # The vehicle sheet's numbers, as the rules computed them (documents/vehicle.py words
    # them); countermeasures' damage is 0 because they delay instead.
    return {
        "movement": stats.movement,
        "hit_points": stats.hit_points,
        "stamina": stats.stamina,
        "health": _health_json(stats.health),
        "defense": stats.defense,
        "defense_uncrewed": stats.defense_uncrewed,
        "defense_evading": stats.defense_evading,
        "initiative_bonus": stats.initiative_bonus,
        "fuel": stats.fuel,
        "abilities": {a.name: a.level for a in stats.abilities},
        "crewed_abilities": stats.crewed_abilities,
        "crew": {"operator": _crew_json(stats.operator), "gunner": _crew_json(stats.gunner)},
        "weapons": [
            {
                "name": w.name,
                "level": w.level,
                "damage": w.damage,
                "auto_damage": w.auto_damage,
                "gunner": w.gunner,
                "reach": w.reach,
            }
            for w in stats.weapons
        ],
    }


def _changes(changes: Mapping[Any, int]) -> dict[str, int]:
    return {str(name): levels for name, levels in changes.items()}


def _community_json(stats: CommunityStats, definition: CommunityDef) -> dict[str, Any]:
    # The definition's three E's are the town as founded; "now" applies the logged
    # projects and history rows, as the community sheet does.
    from .community import latest_year, project_ledger

    ledger = project_ledger(definition)
    data: dict[str, Any] = dict(stats.defenses)
    data["players"] = definition.players
    data["year"] = latest_year(definition)
    data["now"] = ledger.now
    size = project_size(definition.players) if definition.players is not None else None
    data["project_size"] = (
        None
        if size is None
        else {
            "size": size.size,
            "projects_per_player": size.projects_per_player,
            "max_development": size.max_development,
        }
    )
    # In the order the ledger applies them (year, then file order), as the worksheet
    # lists them, each planned against the community as it stood then.
    data["projects"] = [
        {
            "year": entry.log.year,
            "player": entry.log.player,
            "name": entry.log.name,
            "develop": _changes(entry.log.develop),
            "sacrifice": _changes(entry.log.sacrifice),
            "roll": entry.log.roll,
            "difficulty": entry.plan.difficulty,
            "result": entry.result or None,
            "before": entry.before,
            "after": entry.after,
            "problems": list(entry.plan.problems),
        }
        for entry in ledger.entries
    ]
    data["history"] = [
        {
            "year": row.year,
            "event": row.event,
            "damage": _changes(row.damage),
            "bonus": _changes(row.bonus),
            **{name: getattr(row, name) for name in DEFENSES},
            "note": row.note,
        }
        for row in sorted(definition.history, key=lambda row: row.year)
    ]
    return data


def block_json(block: Block, computed: Computed) -> dict[str, Any]:
    """One stat block for ``stats --json``; docs/json.md and schemas/stats.schema.json
    describe every key, and a test holds the output to that schema."""
    stats = block.stats
    data: dict[str, Any] = {"kind": block.kind, "name": block.name, "ruleset": computed.rules.name}
    if isinstance(stats, CharacterStats):
        data.update(
            hit_points=stats.hit_points,
            stamina=stats.stamina,
            agility=stats.agility,
            intelligence=stats.intelligence,
            strength=stats.strength,
            initiative_bonus=stats.initiative_bonus,
            cp=stats.cp,
            abilities=stats.levels,
            health=_health_json(stats.health),
            movement={
                "healthy": dataclasses.asdict(stats.movement.healthy),
                "injured": dataclasses.asdict(stats.movement.injured),
            },
        )
        carry = stats.carry
        data["carry"] = (
            None
            if carry is None
            else {
                "pack_kg": carry.pack_kg,
                "carry_kg": carry.carry_kg,
                "lift_kg": carry.lift_kg,
                "pack_lbs": carry.pack_lbs,
                "carry_lbs": carry.carry_lbs,
                "lift_lbs": carry.lift_lbs,
            }
        )
        if stats.defense is not None:
            data["defense"] = stats.defense
        if block.kind == "minion":
            data.update(leader=block.leader, count=block.count)
        if block.group:
            data["group"] = block.group
            # What the group rolls with; under the current rules it pools the best
            # stealth and detection of every member, so it differs from initiative_bonus.
            group = next((g for g in computed.groups if g.name == block.group), None)
            if group is not None:
                data["group_initiative_bonus"] = group.bonus
    elif isinstance(stats, VehicleStats):
        data.update(_vehicle_json(stats))
    elif isinstance(stats, CommunityStats):
        data.update(_community_json(stats, block.definition))
    data["warnings"] = list(block.warnings)
    return data


def render_json(computed: Computed) -> list[dict[str, Any]]:
    """Format 1: the bare list of stat blocks."""
    return [block_json(block, computed) for block in computed.blocks]


def _group_json(group: InitiativeGroup, computed: Computed) -> dict[str, Any]:
    return {
        "name": group.name,
        "bonus": group.bonus,
        "each_rolls": computed.rules.individual_initiative,
        "rule": group.rule,
        "members": [
            {"kind": m.kind, "name": m.name, "leader": m.leader, "count": m.count}
            for m in group.members
        ],
    }


def _misleading(problem: Problem) -> bool:
    # As api.Opened.blocking: a printed value that differs from ours is `check`'s business.
    return problem.severity == "error" and "printed" not in (problem.field or "").split(".")


def render_document(computed: Computed, campaign: Campaign) -> dict[str, Any]:
    """The versioned document: format and version, the stat blocks of format 1, every
    initiative group the initiative cards print and every Resilience encounter.

    Raises :class:`InputError` when the Resilience content cannot be merged, or when an
    encounter of the campaign's has an error that makes its numbers misleading (as
    ``stats`` refuses such a character)."""
    from ..encounters import compute_encounters, encounter_problems
    from .initiative import initiative_groups

    found = compute_encounters(campaign, computed.rules.name)
    if any(_misleading(p) for f in found if not f.builtin for p in f.computed.problems):
        # encounter_problems names the field within the encounter entry (opponents.0...).
        raise InputError([p for p in encounter_problems(campaign) if _misleading(p)])
    encounters = []
    for f in found:
        groups = initiative_groups(f.computed)  # one: the opponents roll as the event
        encounters.append(
            {
                "event": f.event.id,
                "title": f.event.title,
                "encounter": f.event.encounter,
                "builtin": f.builtin,
                "initiative_group": _group_json(groups[0], f.computed) if groups else None,
                "opponents": render_json(f.computed),
            }
        )
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "ruleset": computed.rules.name,
        "blocks": render_json(computed),
        "initiative_groups": [_group_json(g, computed) for g in initiative_groups(computed)],
        "encounters": encounters,
    }
