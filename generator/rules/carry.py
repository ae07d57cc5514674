"""Lifting and carrying by strength (RULES.md §10).

The rule is metric: 2, 5 and 10 kg per point of strength. It quotes the pounds per point
beside them, 4.4, 11 and 22 lb (2.2 lb to the kg), and that is what a table of pounds
prints: strength times the quoted rate. The book's own table rounds carrying to 5 lb and
lifting to 10 lb (130 lb for strength 12, where 11 lb a point makes 132), so a handout
that says "11 lb per point" beside it would contradict itself; we print the rate's figure.
Carrying and lifting come out in whole pounds; packing (4.4 lb a point) to the nearest
pound, as the book rounds it too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .derived import rhu_div

PACK_KG_PER_STRENGTH = 2  # all day
CARRY_KG_PER_STRENGTH = 5  # a few minutes
LIFT_KG_PER_STRENGTH = 10  # in place; drag anything you can lift

# The pounds per point the rule quotes, in tenths of a pound (4.4, 11 and 22 lb).
PACK_TENTH_LB_PER_STRENGTH = 44
CARRY_TENTH_LB_PER_STRENGTH = 110
LIFT_TENTH_LB_PER_STRENGTH = 220


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
        # The quoted rate times strength, to the nearest pound: only packing has tenths.
        pack_lbs=rhu_div(PACK_TENTH_LB_PER_STRENGTH * strength, 10),
        carry_lbs=rhu_div(CARRY_TENTH_LB_PER_STRENGTH * strength, 10),
        lift_lbs=rhu_div(LIFT_TENTH_LB_PER_STRENGTH * strength, 10),
    )


def carry_table(low: int = 10, high: int = 20) -> list[Carry]:
    """Rows of the strength carry handout; the book prints 10-20."""
    if low > high:
        raise ValueError(f"the strength range {low}-{high} is empty")
    return [carrying_capacity(s) for s in range(low, high + 1)]
