"""Stat blocks for characters and minions: every derived number a sheet prints."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .abilities import CHARACTER_ABILITIES
from .actions import Action, character_actions
from .carry import Carry, carrying_capacity
from .derived import Derived, Levels, level
from .grid import Movement, grid_movement
from .health import HealthBands, health_bands, hit_points, stamina
from .rulesets import Ruleset

DEFAULT_CP = 10
DEFAULT_MAX_LEVEL = 4


@dataclass(frozen=True)
class Budget:
    """The campaign's character points and maximum level (10 and 4 for average people)."""

    cp: int = DEFAULT_CP
    max_level: int = DEFAULT_MAX_LEVEL


# Resilience's character development: each CP a PC earns in play buys one more level, and
# a developed PC may climb two levels past the campaign's maximum (average people stop at
# 4; a survivor of many winters at 6).
DEVELOPED_LEVELS_ABOVE = 2


def developed_budget(budget: Budget, developed: int) -> Budget:
    """The budget of a character who has earned ``developed`` CP in play."""
    if not developed:
        return budget
    return Budget(budget.cp + developed, budget.max_level + DEVELOPED_LEVELS_ABOVE)


@dataclass(frozen=True)
class AbilityLine:
    name: str
    level: int
    note: str = ""


@dataclass(frozen=True)
class CharacterStats:
    name: str
    ruleset: str
    abilities: tuple[AbilityLine, ...]
    hit_points: int
    stamina: int
    health: HealthBands
    agility: int | None
    intelligence: int | None
    strength: int | None
    defense: int | None
    initiative_bonus: int
    cp: int
    budget: Budget
    carry: Carry | None
    movement: Movement
    actions: tuple[Action, ...]
    explain: Mapping[str, str]
    warnings: tuple[str, ...] = field(default=())
    cautions: tuple[Caution, ...] = field(default=())  # the warnings, for a sheet to word

    @property
    def levels(self) -> dict[str, int]:
        return {a.name: a.level for a in self.abilities}

    @property
    def over_budget(self) -> bool:
        return self.cp > self.budget.cp

    def value(self, name: str) -> int | None:
        """A derived value by the name `printed:` uses."""
        got = getattr(self, name, None)
        return got if isinstance(got, int) else None


def cp_total(levels: Levels) -> int:
    """One CP buys one level of one ability."""
    return sum(levels.values())


@dataclass(frozen=True)
class Caution:
    """Something a GM should hear about a character, as a key and the values it names, for
    a printable to word in its language (``english`` says it for the build's report)."""

    key: str  # "over_budget", "above_max_level" or "no_toughness"
    values: Mapping[str, str | int] = field(default_factory=dict)

    @property
    def english(self) -> str:
        return ENGLISH_CAUTIONS[self.key].format(**self.values)


ENGLISH_CAUTIONS = {
    "over_budget": "spends {spent} CP, over the budget of {budget}",
    "above_max_level": "{ability} {level} is above the maximum level {max_level}",
    "no_toughness": "has no toughness, so it cannot act in encounters",
}
NO_TOUGHNESS = Caution("no_toughness")


def budget_cautions(levels: Levels, budget: Budget, beyond_budget: bool = False) -> list[Caution]:
    """What a GM should hear about a character. ``beyond_budget`` is a GM's own villain,
    built past the starting budget on purpose: its CP and levels are not worth a warning."""
    cautions = []
    spent = cp_total(levels)
    if spent > budget.cp and not beyond_budget:
        cautions.append(Caution("over_budget", {"spent": spent, "budget": budget.cp}))
    for name, value in levels.items():
        if value > budget.max_level and not beyond_budget:
            cautions.append(
                Caution(
                    "above_max_level",
                    {"ability": name, "level": value, "max_level": budget.max_level},
                )
            )
    if level(levels, "toughness") < 1:
        cautions.append(NO_TOUGHNESS)
    return cautions


def budget_warnings(levels: Levels, budget: Budget, beyond_budget: bool = False) -> list[str]:
    """:func:`budget_cautions` in English, as the build's report says them."""
    return [caution.english for caution in budget_cautions(levels, budget, beyond_budget)]


def compute_character(
    name: str,
    abilities: tuple[AbilityLine, ...],
    rules: Ruleset,
    budget: Budget | None = None,
    *,
    check_budget: bool = True,
    beyond_budget: bool = False,
) -> CharacterStats:
    """Derive a full stat block. Unknown ability names are the loader's job, not ours."""
    budget = budget or Budget()
    levels = {a.name: a.level for a in abilities}
    unknown = sorted(set(levels) - set(CHARACTER_ABILITIES))
    if unknown:
        raise ValueError(f"not character abilities: {', '.join(unknown)}")

    derived: dict[str, Derived] = {}
    hp = hit_points(levels)
    derived["hit_points"] = hp
    derived["stamina"] = stamina(hp.value)
    for stat in ("agility", "intelligence", "strength", "defense"):
        formula = getattr(rules, stat)
        if formula is not None:
            derived[stat] = formula(levels)
    derived["initiative_bonus"] = rules.initiative(levels)

    def value(stat: str) -> int | None:
        return derived[stat].value if stat in derived else None

    strength = value("strength")
    cautions = budget_cautions(levels, budget, beyond_budget) if check_budget else []
    return CharacterStats(
        name=name,
        ruleset=rules.name,
        abilities=abilities,
        hit_points=hp.value,
        stamina=derived["stamina"].value,
        health=health_bands(hp.value, derived["stamina"].value),
        agility=value("agility"),
        intelligence=value("intelligence"),
        strength=strength,
        defense=value("defense"),
        initiative_bonus=derived["initiative_bonus"].value,
        cp=cp_total(levels),
        budget=budget,
        carry=carrying_capacity(strength) if strength is not None else None,
        movement=grid_movement(levels),
        actions=character_actions(levels, rules),
        explain={stat: d.rule for stat, d in derived.items()},
        warnings=tuple(caution.english for caution in cautions),
        cautions=tuple(cautions),
    )
