"""Hit points, stamina and the three health states (RULES.md §3.1)."""

from __future__ import annotations

from dataclasses import dataclass

from .derived import Derived, Levels, level


def hit_points(levels: Levels) -> Derived:
    toughness = level(levels, "toughness")
    return Derived(toughness, f"hit points {toughness} = toughness {toughness}")


def stamina(toughness: int) -> Derived:
    value = toughness // 2
    return Derived(value, f"stamina {value} = toughness {toughness} // 2")


@dataclass(frozen=True)
class HealthBands:
    """Which hit point totals count as healthy, injured and incapacitated.

    A band is an inclusive (low, high) range, or None when no total falls in it: with
    toughness 1, stamina is 0, so the one hit point is healthy and there is no injured band.
    """

    healthy: tuple[int, int] | None
    injured: tuple[int, int] | None
    incapacitated: int = 0

    def state(self, hp: int) -> str:
        if hp <= 0:
            return "incapacitated"
        if self.injured and self.injured[0] <= hp <= self.injured[1]:
            return "injured"
        return "healthy"


def health_bands(max_hp: int, stamina_value: int) -> HealthBands:
    healthy = (stamina_value + 1, max_hp) if max_hp > stamina_value else None
    injured = (1, min(stamina_value, max_hp)) if stamina_value >= 1 and max_hp >= 1 else None
    return HealthBands(healthy=healthy, injured=injured)
