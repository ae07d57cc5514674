"""The ability catalogue: names, categories and the older names the books still use.

Everything here is data from the rule texts (RULES.md §1); the rest of the rules engine asks
this module which abilities exist rather than spelling names out again.
"""

from __future__ import annotations

import difflib
from typing import Final

# Character abilities by the section of the Basic Rules that describes them. Order matters:
# sheets list categories and abilities in this order.
CHARACTER_CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    "toughness": ("toughness",),
    "attack": ("shooting", "blasting", "knockout", "fighting", "wrestling"),
    "stalking": ("stealth", "detection"),
    "movement": ("acrobatics", "quickness", "flying", "swimming"),
    "support": ("healing", "craftsmanship", "command"),
    # Not a section of the Basic Rules: piloting comes from the abilities list, driving and
    # navigation from the Vehicles chapter. They matter when the character crews a vehicle.
    "vehicle operation": ("piloting", "driving", "navigation"),
}

CHARACTER_ABILITIES: Final[tuple[str, ...]] = tuple(
    name for names in CHARACTER_CATEGORIES.values() for name in names
)

# The single umbrella ability of the older texts; the loader reads it as stealth.
OLDER_NAMES: Final[dict[str, str]] = {"stalking": "stealth"}

MOVEMENT_ABILITIES: Final[tuple[str, ...]] = CHARACTER_CATEGORIES["movement"]

VEHICLE_CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    "toughness": ("toughness",),
    "movement": (
        "swimming",
        "sailing",
        "diving",
        "quickness",
        "land_sailing",
        "flying",
        "soaring",
        "spaceflight",
        "solar_sailing",
    ),
    "weapons": ("guns", "missiles", "bombs", "countermeasures"),
    "operation": ("stalking", "grapple", "range", "repair", "autopilot", "targeting"),
}

VEHICLE_ABILITIES: Final[tuple[str, ...]] = tuple(
    name for names in VEHICLE_CATEGORIES.values() for name in names
)
VEHICLE_MOVEMENT: Final[tuple[str, ...]] = VEHICLE_CATEGORIES["movement"]
VEHICLE_WEAPONS: Final[tuple[str, ...]] = VEHICLE_CATEGORIES["weapons"]

# Which operator ability moves a vehicle, by the medium of its movement ability (§9).
OPERATOR_ABILITY: Final[dict[str, str]] = {
    "quickness": "driving",
    "land_sailing": "driving",
    "swimming": "navigation",
    "sailing": "navigation",
    "diving": "navigation",
    "flying": "piloting",
    "soaring": "piloting",
    "spaceflight": "piloting",
    "solar_sailing": "piloting",
}

# How a crewed line names the operator: "5 with Chokestar as pilot".
OPERATOR_TITLE: Final[dict[str, str]] = {
    "piloting": "pilot",
    "driving": "driver",
    "navigation": "navigator",
}

# The operator's level goes to these abilities (and to the movement abilities it governs).
OPERATOR_BOOSTED: Final[tuple[str, ...]] = ("grapple", "stalking")
GUNNER_ABILITIES: Final[tuple[str, ...]] = ("shooting", "blasting")


def category_of(ability: str) -> str:
    """The sheet category of a character ability."""
    for category, names in CHARACTER_CATEGORIES.items():
        if ability in names:
            return category
    raise KeyError(ability)


def vehicle_category_of(ability: str) -> str:
    for category, names in VEHICLE_CATEGORIES.items():
        if ability in names:
            return category
    raise KeyError(ability)


def closest(name: str, choices: tuple[str, ...]) -> str | None:
    """The catalogue name a typo most likely meant, for "did you mean" hints."""
    matches = difflib.get_close_matches(name.lower(), choices, n=1, cutoff=0.6)
    return matches[0] if matches else None


def display(ability: str) -> str:
    """Ability names as the books print them: `land_sailing` reads "land sailing"."""
    return ability.replace("_", " ")
