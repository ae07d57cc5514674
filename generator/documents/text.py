"""Stat blocks as plain text in the books' own format, and as JSON for other tools."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..rules import CharacterStats, CommunityStats, VehicleStats
from ..rules.abilities import display
from ..rules.community import project_size
from ..rules.health import HealthBands
from ..rules.vehicles import CrewMember
from ..statblocks import Block, Computed


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


def block_lines(block: Block, explain: bool = False) -> list[str]:
    stats = block.stats
    # The books print one block for a group of identical minions, without the count.
    title = block.name
    lines: list[str] = []
    if isinstance(stats, CharacterStats):
        lines.append(_with_note(f"{title} {character_header(stats)}", block.description))
        lines += [_with_note(f"{a.level} {display(a.name)}", a.note) for a in stats.abilities]
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
    if explain and not isinstance(stats, CommunityStats):
        lines += [f"    {rule}" for rule in stats.explain.values()]
        if isinstance(stats, CharacterStats):
            lines.append(
                f"    CP {stats.cp} of {stats.budget.cp} (max level {stats.budget.max_level})"
            )
    return lines


def render_text(computed: Computed, explain: bool = False) -> str:
    chunks = ["\n".join(block_lines(block, explain)) for block in computed.blocks]
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


def _community_json(stats: CommunityStats, definition: Any) -> dict[str, Any]:
    # The definition's three E's are the town as founded; "now" applies the logged
    # projects and history rows, as the community sheet does.
    from .community import current_defenses, latest_year

    data: dict[str, Any] = dict(stats.defenses)
    data["players"] = definition.players
    data["year"] = latest_year(definition)
    data["now"] = current_defenses(definition)
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
    return data


def block_json(block: Block, computed: Computed) -> dict[str, Any]:
    """One stat block for ``stats --json``; docs/json.md and docs/stats-json.schema.json
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
    return [block_json(block, computed) for block in computed.blocks]
