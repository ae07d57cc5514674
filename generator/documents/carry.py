"""The strength carry table: a one-page handout of pack, carry and lift limits by strength.

Numbers come from rules.carry (the book's kg, and its pounds per point times strength); this module
only chooses columns for the units, marks the party's strengths and sizes the rows so any
range from 1 to 40 fills one page.
"""

from __future__ import annotations

from typing import Any

from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions
from ..rules.carry import (
    CARRY_KG_PER_STRENGTH,
    CARRY_TENTH_LB_PER_STRENGTH,
    LIFT_KG_PER_STRENGTH,
    LIFT_TENTH_LB_PER_STRENGTH,
    PACK_KG_PER_STRENGTH,
    PACK_TENTH_LB_PER_STRENGTH,
    Carry,
    carry_table,
)
from ..rules.character import CharacterStats
from ..statblocks import Block, Computed
from ..typesetting.paper import PAPER_MM
from ..typesetting.units import MM_PER_PT
from ..wording import N_, _, number
from .base import Document, page_context

TEMPLATE = "carry/carry.html"
STEM = "carry-table"

# What the title, explanation, table head and footnote take on the page, measured (mm),
# and the row heights allowed: 40 rows at the least still read at 8.5 pt.
FIXED_MM = 71.0
ROW_RULE_MM = 0.2  # each row's hairline
ROW_MIN_MM, ROW_MAX_MM = 4.4, 17.0
# The names column: narrower beside six figure columns than beside three.
WHO_MM_BOTH, WHO_MM_ONE = 44.0, 64.0
NAME_EM = 0.46  # average width of a character of the bold names, in ems

# Each limit's key, title, when it holds, its rates and what it means (worded when printed).
LIMITS = (
    (
        "pack",
        N_("Pack"),
        N_("all day"),
        PACK_KG_PER_STRENGTH,
        PACK_TENTH_LB_PER_STRENGTH,
        N_("Worn or shouldered from dawn to dusk on the road: the load you travel with."),
    ),
    (
        "carry",
        N_("Carry"),
        N_("a few minutes"),
        CARRY_KG_PER_STRENGTH,
        CARRY_TENTH_LB_PER_STRENGTH,
        N_("Held in your arms or on your back for a short haul: across a yard, up a ladder."),
    ),
    (
        "lift",
        N_("Lift"),
        N_("in place"),
        LIFT_KG_PER_STRENGTH,
        LIFT_TENTH_LB_PER_STRENGTH,
        N_("Raised off the ground for a moment, without walking anywhere with it."),
    ),
)
# The unit symbols, as a column of figures prints them after each number.
UNITS = {"kg": N_("kg"), "lb": N_("lb")}


def _per_point(kg: int, tenth_lb: int, units: str) -> str:
    """``2 kg``, ``4.4 lb`` or ``2 kg (4.4 lb)`` per point of strength: the rates the
    table's figures are computed from (rules.carry), so the two always agree."""
    metric = _("%(kg)s kg") % {"kg": number(kg)}
    imperial = _("%(lb)s lb") % {"lb": number(tenth_lb / 10, 1 if tenth_lb % 10 else 0)}
    if units == "metric":
        return metric
    if units == "imperial":
        return imperial
    return _("%(metric)s (%(imperial)s)") % {"metric": metric, "imperial": imperial}


def _cells(carry: Carry, units: str) -> list[dict[str, str]]:
    """The figures of one row, pack then carry then lift, kg before lb."""
    pairs = (
        (carry.pack_kg, carry.pack_lbs),
        (carry.carry_kg, carry.carry_lbs),
        (carry.lift_kg, carry.lift_lbs),
    )
    cells: list[dict[str, str]] = []
    for kg, lbs in pairs:
        if units in ("metric", "both"):
            cells.append({"num": number(kg), "unit": _(UNITS["kg"])})
        if units in ("imperial", "both"):
            cells.append({"num": number(lbs), "unit": _(UNITS["lb"])})
    return cells


def _who(computed: Computed) -> tuple[str, list[tuple[str, int]]]:
    """Whose strengths to mark: the party (characters with a player), or every character
    when no one has a player, as in a campaign of adversaries only."""
    characters = computed.of_kind("character")
    party = [b for b in characters if getattr(b.definition, "player", "")]
    chosen: list[Block] = party or characters
    title = _("Party") if party else _("Characters")
    strengths = [
        (b.name, b.stats.strength)
        for b in chosen
        if isinstance(b.stats, CharacterStats) and b.stats.strength is not None
    ]
    return title, strengths


def _sizes(names: list[str], units: str, paper: str) -> dict[str, str]:
    """Row height and type sizes for this table: few rows read big, 40 still fit.

    A row whose names wrap grows by a line or more, so that height is set aside first.
    """
    who_mm = WHO_MM_BOTH if units == "both" else WHO_MM_ONE
    room = PAPER_MM[paper][1] - 24.0 - FIXED_MM

    def type_sizes(row_mm: float) -> tuple[float, float]:
        # Figures grow with the row, from 8.5 pt in the tightest table to 16 pt; names
        # stop at 10.5 pt so a long list still fits its column.
        font_pt = max(8.5, min(16.0, row_mm * 1.45))
        return font_pt, min(font_pt, 10.5)

    row_mm = ROW_MAX_MM
    for _round in range(3):  # the names' size depends on the row, the row on the names' lines
        names_pt = type_sizes(row_mm)[1]
        per_line = max(1, int((who_mm - 4.0) / (names_pt * MM_PER_PT * NAME_EM)))
        line_mm = names_pt * MM_PER_PT * 1.15
        extra = sum(max(0, -(-len(n) // per_line) - 1) * line_mm for n in names)
        row_mm = max(ROW_MIN_MM, min(ROW_MAX_MM, (room - extra) / len(names) - ROW_RULE_MM))
    font_pt, names_pt = type_sizes(row_mm)
    return {
        "row_mm": f"{row_mm:.2f}",
        "font_pt": f"{font_pt:.1f}",
        "unit_pt": f"{max(7.0, font_pt * 0.68):.1f}",  # small beside the figure, never under 7 pt
        "names_pt": f"{names_pt:.1f}",
        "who_mm": f"{who_mm:.0f}",
    }


def carry_view(computed: Computed, options: BuildOptions) -> dict[str, Any]:
    low, high = options.carry_low, options.carry_high
    units = options.units
    who_title, strengths = _who(computed)
    by_strength: dict[int, list[str]] = {}
    for name, strength in strengths:
        by_strength.setdefault(strength, []).append(name)
    names = [", ".join(by_strength.get(c.strength, [])) for c in carry_table(low, high)]
    rows = [
        {
            "strength": str(carry.strength),
            "cells": _cells(carry, units),
            "names": who,
            "party": carry.strength in by_strength,
        }
        for carry, who in zip(carry_table(low, high), names, strict=True)
    ]
    outside = [
        _("%(name)s (strength %(strength)s)") % {"name": name, "strength": strength}
        for name, strength in strengths
        if not low <= strength <= high
    ]
    unit_heads = [
        u for u, shown in (("kg", units != "imperial"), ("lb", units != "metric")) if shown
    ]
    return {
        "range": f"{low}–{high}" if low != high else str(low),
        "units": units,
        "unit_heads": unit_heads,
        "limits": [
            {
                "key": key,
                "title": _(title),
                "when": _(when),
                "per_point": _per_point(kg, tenth_lb, units),
                "text": _(text),
            }
            for key, title, when, kg, tenth_lb, text in LIMITS
        ],
        "rows": rows,
        "who_title": who_title,
        "outside": ", ".join(outside),
        **_sizes(names, units, options.paper),
    }


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    if not computed.blocks:  # a publisher's folder of booklets or decks: nobody carries
        return []
    return [
        Document(
            kind="carry",
            title=_("Strength carry table"),
            stem=STEM,
            template=TEMPLATE,
            context={
                "page": page_context(options),
                "title": _("Lifting and carrying"),
                "carry": carry_view(computed, options),
            },
        )
    ]
