"""Which computed values a book may print beside an entry (its ``printed:`` keys), for
each kind of stat block, whichever ruleset computes them: what `check` compares, and what
the editor schema offers."""

from __future__ import annotations

from . import CharacterStats, CommunityStats, VehicleStats

# Values a book may print for each kind, whichever ruleset computes them.
PRINTABLE: dict[type, tuple[str, ...]] = {
    CharacterStats: (
        "agility",
        "intelligence",
        "strength",
        "defense",
        "stamina",
        "hit_points",
        "initiative_bonus",
        "cp",
    ),
    VehicleStats: (
        "defense",
        "stamina",
        "hit_points",
        "initiative_bonus",
        "defense_uncrewed",
        "defense_evading",
        "fuel",
        "crewed_abilities",
    ),
    CommunityStats: ("economy", "environment", "equity"),
}
