"""Command and minions (RULES.md §7): one or two minions whose total CP fits the command."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .character import cp_total
from .derived import Levels, level

MAX_MINIONS = 2


@dataclass(frozen=True)
class MinionGroup:
    """One block of identical minions, as the books print them ("Thugs", two of them)."""

    name: str
    count: int
    levels: Levels


def minion_cp(groups: Sequence[MinionGroup]) -> int:
    return sum(g.count * cp_total(g.levels) for g in groups)


def minion_problems(leader: Levels, groups: Sequence[MinionGroup]) -> list[tuple[str, str]]:
    """Broken minion limits as (field, message) pairs; empty when the minions are legal."""
    if not groups:
        return []
    command = level(leader, "command")
    problems: list[tuple[str, str]] = []
    if command < 1:
        problems.append(("minions", "only a character with command has minions"))
        return problems
    count = sum(g.count for g in groups)
    if count > MAX_MINIONS:
        problems.append(("minions", f"command gives 1 or 2 minions, this character has {count}"))
    total = minion_cp(groups)
    if total > command:
        detail = " + ".join(f"{g.count} x {cp_total(g.levels)} CP" for g in groups)
        problems.append(
            ("minions", f"minions cost {total} CP ({detail}), more than command {command}")
        )
    for group in groups:
        if level(group.levels, "command"):
            problems.append((f"minions.{group.name}", "minions cannot have command"))
    return problems
