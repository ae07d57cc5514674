"""View-model pieces several printables share. Formatting lives here, not in templates."""

from __future__ import annotations

from typing import Any

from ..rules.carry import Carry
from ..rules.health import HealthBands
from ..wording import _, pgettext


def signed(value: int) -> str:
    """Roll bonuses as players say them: +3, +0."""
    return f"+{value}" if value >= 0 else str(value)


def hp_track(max_hp: int, stamina: int) -> list[dict[str, Any]]:
    """Boxes for an HP track, highest first; those at or below stamina are injured."""
    return [{"hp": hp, "injured": hp <= stamina} for hp in range(max_hp, 0, -1)]


def capital(words: str) -> str:
    """A label's words with a capital first letter, the rest as worded: the game's terms
    are worded in lower case ("hit points"), a box's label starts with a capital."""
    return words[:1].upper() + words[1:]


def health_text(bands: HealthBands) -> dict[str, str]:
    def span(band: tuple[int, int] | None) -> str:
        if band is None:
            # No hit point total falls in this band ("injured none").
            return pgettext("hit points in a health band", "none")
        low, high = band
        return str(low) if low == high else f"{low}–{high}"

    return {"healthy": span(bands.healthy), "injured": span(bands.injured), "incapacitated": "0"}


def carry_cells(carry: Carry, units: str) -> dict[str, str]:
    """Pack / carry / lift as the chosen units print them: ``24 kg``, ``53 lb``, or both."""

    def cell(kg: int, lbs: int) -> str:
        # Whole numbers, printed without grouping in every language (4-digit weights too).
        metric = _("%(weight)s kg") % {"weight": kg}
        imperial = _("%(weight)s lb") % {"weight": lbs}
        if units == "metric":
            return metric
        if units == "imperial":
            return imperial
        return f"{metric} ({imperial})"

    return {
        "strength": str(carry.strength),
        "pack": cell(carry.pack_kg, carry.pack_lbs),
        "carry": cell(carry.carry_kg, carry.carry_lbs),
        "lift": cell(carry.lift_kg, carry.lift_lbs),
    }
