"""Small value types shared by the rules: a derived number that remembers why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Levels = Mapping[str, int]
"""Ability name to level. A missing ability has level 0: the character lacks it."""


@dataclass(frozen=True)
class Derived:
    """A computed number and the rule that made it, e.g. ``agility 13 = 10 + stealth 3``."""

    value: int
    rule: str  # in English, for `stats --explain` and the build's report
    # The sum's terms as (factor, ability, level), for a printable to word in its language:
    # a group's initiative is ((2, "stealth", 4), (10, "detection", 3)). Empty when the
    # value is no such sum (each member of an older-text group rolls alone).
    terms: tuple[tuple[int, str, int], ...] = ()

    def __int__(self) -> int:
        return self.value


def level(levels: Levels, ability: str) -> int:
    """L(x) of the rule texts: the level, or 0 when the character lacks the ability."""
    return levels.get(ability, 0)


def best_of(levels: Levels, abilities: tuple[str, ...]) -> tuple[str | None, int]:
    """The highest of several abilities, first listed wins ties; (None, 0) when none is had."""
    name: str | None = None
    best = 0
    for ability in abilities:
        if level(levels, ability) > best:
            name, best = ability, level(levels, ability)
    return name, best


def rhu_div(numerator: int, denominator: int) -> int:
    """Round-half-up integer division; the books' tables need it where round() is wrong."""
    return (2 * numerator + denominator) // (2 * denominator)
