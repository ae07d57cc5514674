"""Stat blocks as plain text in the books' own format, and as JSON for other tools."""

from __future__ import annotations

from typing import Any

from ..rules import CharacterStats, CommunityStats, VehicleStats
from ..rules.abilities import display
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


def block_json(block: Block, computed: Computed) -> dict[str, Any]:
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
    elif isinstance(stats, VehicleStats):
        data.update(
            hit_points=stats.hit_points,
            stamina=stats.stamina,
            defense=stats.defense,
            abilities={a.name: a.level for a in stats.abilities},
            crewed_abilities=stats.crewed_abilities,
        )
    elif isinstance(stats, CommunityStats):
        data.update(stats.defenses)
    data["warnings"] = list(block.warnings)
    return data


def render_json(computed: Computed) -> list[dict[str, Any]]:
    return [block_json(block, computed) for block in computed.blocks]
