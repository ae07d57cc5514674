"""Lifting and carrying by strength (RULES.md §10).

The book's pounds are not a plain conversion: they use 2.2 lb per kg and round packing to
the pound, carrying to 5 lb and lifting to 10 lb. These integer formulas reproduce every
printed cell for strength 10-20 and extend to any strength (no exact halves ever occur).
"""

from __future__ import annotations

from dataclasses import dataclass

from .derived import rhu_div

PACK_KG_PER_STRENGTH = 2  # all day
CARRY_KG_PER_STRENGTH = 5  # a few minutes
LIFT_KG_PER_STRENGTH = 10  # in place; drag anything you can lift


@dataclass(frozen=True)
class Carry:
    strength: int
    pack_kg: int
    carry_kg: int
    lift_kg: int
    pack_lbs: int
    carry_lbs: int
    lift_lbs: int


def carrying_capacity(strength: int) -> Carry:
    if strength < 0:
        raise ValueError(f"strength cannot be negative, got {strength}")
    return Carry(
        strength=strength,
        pack_kg=PACK_KG_PER_STRENGTH * strength,
        carry_kg=CARRY_KG_PER_STRENGTH * strength,
        lift_kg=LIFT_KG_PER_STRENGTH * strength,
        pack_lbs=rhu_div(44 * strength, 10),  # 4.4 lb per point, to the nearest pound
        carry_lbs=5 * rhu_div(22 * strength, 10),  # 11 lb per point, to the nearest 5
        lift_lbs=10 * rhu_div(22 * strength, 10),  # 22 lb per point, to the nearest 10
    )


def carry_table(low: int = 10, high: int = 20) -> list[Carry]:
    """Rows of the strength carry handout; the book prints 10-20."""
    if low > high:
        raise ValueError(f"the strength range {low}-{high} is empty")
    return [carrying_capacity(s) for s in range(low, high + 1)]
