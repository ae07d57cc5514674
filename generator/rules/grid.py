"""Grid movement in spaces of about 2 m (RULES.md §8)."""

from __future__ import annotations

from dataclasses import dataclass

from .derived import Levels, level

HEALTHY_BASE = 4
INJURED_BASE = 2


@dataclass(frozen=True)
class GridMove:
    """Spaces a character can cover in one move over each kind of terrain.

    ``air`` is None for a character who cannot fly. Rough terrain and water cost 2 movement
    a space; the values here are whole spaces crossed when the whole move is on that terrain.
    """

    ground: int
    air: int | None
    rough: int
    water: int


@dataclass(frozen=True)
class Movement:
    healthy: GridMove
    injured: GridMove


def _move(base: int, levels: Levels) -> GridMove:
    flying = level(levels, "flying")
    return GridMove(
        ground=base + level(levels, "quickness") // 2,
        air=base + flying // 2 if flying >= 1 else None,
        rough=(base + level(levels, "acrobatics")) // 2,
        water=(base + level(levels, "swimming")) // 2,
    )


def grid_movement(levels: Levels) -> Movement:
    return Movement(healthy=_move(HEALTHY_BASE, levels), injured=_move(INJURED_BASE, levels))
