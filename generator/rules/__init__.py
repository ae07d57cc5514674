"""The game's rules as pure functions: no files, no printing, only numbers and why."""

from .abilities import CHARACTER_ABILITIES, VEHICLE_ABILITIES
from .carry import Carry, carry_table, carrying_capacity
from .character import AbilityLine, Budget, CharacterStats, compute_character
from .community import CommunityStats, compute_community, plan_project
from .rulesets import DEFAULT_RULESET, RULESETS, Ruleset, get_ruleset
from .vehicles import Crew, VehicleStats, compute_vehicle

__all__ = [
    "CHARACTER_ABILITIES",
    "DEFAULT_RULESET",
    "RULESETS",
    "VEHICLE_ABILITIES",
    "AbilityLine",
    "Budget",
    "Carry",
    "CharacterStats",
    "CommunityStats",
    "Crew",
    "Ruleset",
    "VehicleStats",
    "carry_table",
    "carrying_capacity",
    "compute_character",
    "compute_community",
    "compute_vehicle",
    "get_ruleset",
    "plan_project",
]
