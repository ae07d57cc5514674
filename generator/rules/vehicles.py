"""Vehicles and their crew (RULES.md §9).

A vehicle's levels rise with its crew: the operator's piloting, driving or navigation (by
the medium of the movement in use) goes to grapple, stalking and the movement abilities it
governs; the gunner's best of shooting and blasting goes to the weapons. A bonus only lands
on abilities the vehicle has, so a ship without stalking gains none from its pilot.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .abilities import (
    GUNNER_ABILITIES,
    OPERATOR_ABILITY,
    OPERATOR_BOOSTED,
    OPERATOR_TITLE,
    VEHICLE_MOVEMENT,
    VEHICLE_WEAPONS,
    display,
)
from .derived import Levels, best_of, level
from .health import HealthBands, health_bands

RAM_DAMAGE = 5
WEAPON_DAMAGE = 5
# Not restated for vehicles; the general rule adds 1 on an automatic success (RULES.md I-14).
WEAPON_AUTO_DAMAGE = 6
AUTO_DEFENSE_SOURCES = ("stalking", "autopilot", "targeting", "countermeasures")

WEAPON_REACH = {
    "guns": "one vehicle or character of its own group",
    "missiles": "one vehicle in this or another group",
    "bombs": "every vehicle in one group",
    "countermeasures": "every enemy vehicle in the same group; each hit is delayed",
}


@dataclass(frozen=True)
class Caution:
    """A problem with a vehicle as a key and the values it names, for a printable to word
    (``warnings`` says the same in English for the build's report)."""

    key: str  # "operator_unskilled", "gunner_unskilled", "no_toughness", "cannot_steer",
    # "weapons_unusable", "movement_missing"
    values: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class CrewMember:
    role: str  # "operator" or "gunner"
    name: str
    ability: str  # the character's ability that helps, e.g. "piloting"
    level: int
    title: str  # how the stat block names the job: "pilot", "driver", "gunner"


@dataclass(frozen=True)
class VehicleAbility:
    name: str
    level: int
    note: str
    crewed: int
    crew: CrewMember | None  # who raised it, when someone did

    @property
    def line(self) -> str:
        """The book's line: ``3 spaceflight (5 with Chokestar as pilot)``."""
        text = f"{self.level} {display(self.name)}"
        if self.crew is not None and self.crewed != self.level:
            text += f" ({self.crewed} with {self.crew.name} as {self.crew.title})"
        return text


@dataclass(frozen=True)
class Weapon:
    name: str
    level: int
    damage: int
    auto_damage: int
    gunner: str | None
    reach: str


@dataclass(frozen=True)
class VehicleStats:
    name: str
    movement: str
    abilities: tuple[VehicleAbility, ...]
    hit_points: int
    stamina: int
    health: HealthBands
    defense: int
    defense_uncrewed: int
    defense_evading: int
    fuel: int
    initiative_bonus: int
    weapons: tuple[Weapon, ...]
    operator: CrewMember | None
    gunner: CrewMember | None
    explain: Mapping[str, str]
    warnings: tuple[str, ...] = field(default=())
    # Why it cannot move with the crew aboard ("no operator and no autopilot"), or "".
    cannot_move: str = ""
    # The warnings as keys, in the same order, for the sheet to word.
    cautions: tuple[Caution, ...] = field(default=())
    # The ability and level the (crewed) defense adds to 10, or None when it is 10 alone.
    defense_from: tuple[str, int] | None = None

    @property
    def crewed_abilities(self) -> dict[str, int]:
        return {a.name: a.crewed for a in self.abilities}

    def value(self, name: str) -> int | None:
        got = getattr(self, name, None)
        return got if isinstance(got, int) else None


@dataclass(frozen=True)
class Crew:
    """The characters aboard, by name with their levels; either seat may be empty."""

    operator: tuple[str, Levels] | None = None
    gunner: tuple[str, Levels] | None = None


def ram_self_damage(target_toughness: int) -> int:
    """What ramming costs the rammer: 1 against toughness 10-19, 2 against 20 or more."""
    if target_toughness >= 20:
        return 2
    if target_toughness >= 10:
        return 1
    return 0


def _defense_from(levels: Levels, movement: str, moves: bool = True) -> tuple[str, int] | None:
    """The better of the movement in use and the other sources, as (ability, level); a
    vehicle that cannot move has only the other sources (its movement ability is not in
    use). None when nothing adds to 10."""
    other_name, other = best_of(levels, AUTO_DEFENSE_SOURCES)
    moving = level(levels, movement) if moves else 0
    if other > moving and other_name is not None:
        return other_name, other
    if not moves:
        return None
    return movement, moving


def _defense(levels: Levels, movement: str, moves: bool = True) -> tuple[int, str]:
    found = _defense_from(levels, movement, moves)
    if found is None:
        return 10, "10"
    return 10 + found[1], f"10 + {display(found[0])} {found[1]}"


def immobile_reason(has_operator: bool, base: Levels, movement: str) -> str:
    """Why a vehicle cannot move, or "" when it can: it needs someone at the controls (or
    an autopilot) and a level in the movement ability it uses (RULES.md §9)."""
    if not has_operator and level(base, "autopilot") < 1:
        return "no operator and no autopilot"
    if level(base, movement) < 1:
        return f"no {display(movement)} ability"
    return ""


def compute_vehicle(
    name: str,
    abilities: tuple[tuple[str, int, str], ...],
    movement: str,
    crew: Crew,
    *,
    named: tuple[bool, bool] | None = None,
) -> VehicleStats:
    """``named`` says whether the definition names an operator and a gunner at all (a
    named crew member the campaign lacks is the loader's error, not a missing seat)."""
    base = {ability: value for ability, value, _ in abilities}
    has_operator, has_gunner = named or (crew.operator is not None, crew.gunner is not None)
    if movement not in VEHICLE_MOVEMENT:
        raise ValueError(f"{movement!r} is not a vehicle movement ability")
    warnings: list[str] = []
    cautions: list[Caution] = []

    operator: CrewMember | None = None
    if crew.operator is not None:
        who, levels = crew.operator
        skill = OPERATOR_ABILITY[movement]
        operator = CrewMember("operator", who, skill, level(levels, skill), OPERATOR_TITLE[skill])
        if operator.level == 0:
            warnings.append(f"operator {who} has no {skill}, so adds nothing to {movement}")
            cautions.append(
                Caution("operator_unskilled", {"who": who, "skill": skill, "movement": movement})
            )
    gunner: CrewMember | None = None
    if crew.gunner is not None:
        who, levels = crew.gunner
        gunner_skill, best = best_of(levels, GUNNER_ABILITIES)
        gunner = CrewMember("gunner", who, gunner_skill or "shooting", best, "gunner")
        if gunner_skill is None:
            warnings.append(f"gunner {who} has neither shooting nor blasting, so adds nothing")
            cautions.append(Caution("gunner_unskilled", {"who": who}))

    lines: list[VehicleAbility] = []
    for ability, value, note in abilities:
        helper: CrewMember | None = None
        governed = (
            ability in VEHICLE_MOVEMENT and OPERATOR_ABILITY[ability] == OPERATOR_ABILITY[movement]
        )
        if operator is not None and (ability in OPERATOR_BOOSTED or governed):
            helper = operator
        elif gunner is not None and ability in VEHICLE_WEAPONS:
            helper = gunner
        bonus = helper.level if helper is not None else 0
        lines.append(VehicleAbility(ability, value, note, value + bonus, helper if bonus else None))
    crewed = {line.name: line.crewed for line in lines}

    toughness = level(base, "toughness")
    stamina = toughness // 2
    # A vehicle that cannot move gets nothing from its movement ability, evading included
    # (RULES.md §9: moving and evading need an operator or an autopilot).
    stuck = immobile_reason(has_operator, base, movement)
    stuck_uncrewed = immobile_reason(False, base, movement)
    defense, defense_rule = _defense(crewed, movement, moves=not stuck)
    defense_uncrewed, uncrewed_rule = _defense(base, movement, moves=not stuck_uncrewed)
    moving = 0 if stuck else level(crewed, movement)
    if level(base, "toughness") < 1:
        warnings.append("has no toughness")
        cautions.append(Caution("no_toughness"))
    # Crew the rules require: an operator to move, grapple or ram unless it has autopilot;
    # a gunner for its weapons unless it has targeting (RULES.md, vehicle crew).
    if not has_operator and level(base, "autopilot") < 1:
        warnings.append("has no operator and no autopilot, so it cannot move, grapple or ram")
        cautions.append(Caution("cannot_steer"))
    armed = [ability for ability in VEHICLE_WEAPONS if level(base, ability) >= 1]
    if armed and not has_gunner and level(base, "targeting") < 1:
        warnings.append(
            f"has {' and '.join(display(a) for a in armed)} but no gunner and no targeting,"
            " so none of them can be used"
        )
        cautions.append(Caution("weapons_unusable", {"weapons": tuple(armed)}))
    if movement not in base:
        warnings.append(f"moves by {movement} but has no {movement} ability")
        cautions.append(Caution("movement_missing", {"movement": movement}))
    stalking = level(crewed, "stalking")
    weapons = tuple(
        Weapon(
            line.name,
            line.crewed,
            WEAPON_DAMAGE if line.name != "countermeasures" else 0,
            WEAPON_AUTO_DAMAGE if line.name != "countermeasures" else 0,
            gunner.name if gunner is not None else None,
            WEAPON_REACH[line.name],
        )
        for line in lines
        if line.name in VEHICLE_WEAPONS
    )
    return VehicleStats(
        name=name,
        movement=movement,
        abilities=tuple(lines),
        hit_points=toughness,
        stamina=stamina,
        health=health_bands(toughness, stamina),
        defense=defense,
        defense_uncrewed=defense_uncrewed,
        defense_evading=defense + moving,
        fuel=level(base, "range"),
        initiative_bonus=10 * stalking,
        weapons=weapons,
        operator=operator,
        gunner=gunner,
        explain={
            "hit_points": f"hit points {toughness} = toughness {toughness}",
            "stamina": f"stamina {stamina} = toughness {toughness} // 2",
            "defense": f"defense {defense} = {defense_rule}"
            + _why_not_moving(
                movement, stuck, "crewed" if operator or gunner else "no crew aboard"
            ),
            "defense_uncrewed": f"without crew {defense_uncrewed} = {uncrewed_rule}"
            + _why_not_moving(movement, stuck_uncrewed),
            "defense_evading": (
                f"evading {defense} = defense {defense} (it cannot move, so it cannot evade)"
                if stuck
                else f"evading {defense + moving} = defense {defense}"
                f" + {display(movement)} {moving}"
            ),
            "initiative_bonus": f"initiative bonus {10 * stalking} = 10 x stalking {stalking}",
            "fuel": f"fuel {level(base, 'range')} = range {level(base, 'range')}",
        },
        warnings=tuple(warnings),
        cannot_move=stuck,
        cautions=tuple(cautions),
        defense_from=_defense_from(crewed, movement, moves=not stuck),
    )


def _why_not_moving(movement: str, stuck: str, moving_label: str = "") -> str:
    """The explain line's closing words: what stands behind the defense, or why the
    movement ability is not counted."""
    if stuck:
        return f" ({display(movement)} not counted: it cannot move with {stuck})"
    return f" ({moving_label})" if moving_label else ""
