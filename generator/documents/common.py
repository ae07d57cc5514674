"""View-model pieces several printables share. Formatting lives here, not in templates."""

from __future__ import annotations

from typing import Any

from ..rules.carry import Carry
from ..rules.health import HealthBands


def signed(value: int) -> str:
    """Roll bonuses as players say them: +3, +0."""
    return f"+{value}" if value >= 0 else str(value)


def hp_track(max_hp: int, stamina: int) -> list[dict[str, Any]]:
    """Boxes for an HP track, highest first; those at or below stamina are injured."""
    return [{"hp": hp, "injured": hp <= stamina} for hp in range(max_hp, 0, -1)]


def health_text(bands: HealthBands) -> dict[str, str]:
    def span(band: tuple[int, int] | None) -> str:
        if band is None:
            return "none"
        low, high = band
        return str(low) if low == high else f"{low}–{high}"

    return {"healthy": span(bands.healthy), "injured": span(bands.injured), "incapacitated": "0"}


def carry_cells(carry: Carry, units: str) -> dict[str, str]:
    """Pack / carry / lift as the chosen units print them: ``24 kg``, ``53 lb``, or both."""

    def cell(kg: int, lbs: int) -> str:
        if units == "metric":
            return f"{kg} kg"
        if units == "imperial":
            return f"{lbs} lb"
        return f"{kg} kg ({lbs} lb)"

    return {
        "strength": str(carry.strength),
        "pack": cell(carry.pack_kg, carry.pack_lbs),
        "carry": cell(carry.carry_kg, carry.carry_lbs),
        "lift": cell(carry.lift_kg, carry.lift_lbs),
    }
