"""The actions a character can take, with roll bonus, target, range and damage (RULES.md §5).

This is what the actions panel of a character sheet prints. Effects are our own short
summaries of the rules, written for a player at the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .derived import Levels, best_of, level
from .rulesets import MOVEMENT, Ruleset


@dataclass(frozen=True)
class Action:
    name: str
    # "regular", "bonus", "unrepeatable" (once per encounter per target) or, in the older
    # texts, "once per battle"
    timing: str
    range: str  # "close", "long" or "" when the action is not an attack
    attack: str  # "normal", "psychic", "force" or "" when it is not an attack
    roll: str  # what is added to the d20, e.g. "wrestling 2"; "" for a bare d20 roll
    bonus: int | None  # the number added to the d20; None when no roll is made
    target: str  # the defense or difficulty rolled against, e.g. "agility", "difficulty 10"
    damage: str  # on success; "" for no damage
    auto_damage: str  # on a natural 20 (automatic success)
    effect: str

    @property
    def unrepeatable(self) -> bool:
        """Limited uses, ticked off on the sheet and cards (per target, or per battle)."""
        return self.timing in {"unrepeatable", "once per battle"}


def _roll(levels: Levels, *abilities: str) -> tuple[str, int]:
    name, value = best_of(levels, abilities)
    return (f"{name} {value}", value) if name else ("", 0)


def _rolled(
    name: str,
    rolled: tuple[str, int],
    target: str,
    effect: str,
    *,
    timing: str = "regular",
    range_: str = "close",
    attack: str = "normal",
    damage: str = "",
    auto_damage: str = "",
) -> Action:
    """An action that rolls a d20 plus ``rolled`` against ``target``."""
    roll, bonus = rolled
    return Action(name, timing, range_, attack, roll, bonus, target, damage, auto_damage, effect)


def _no_roll(name: str, effect: str, *, timing: str = "regular", range_: str = "") -> Action:
    """An action that rolls nothing: evade, escape, engage, take cover."""
    return Action(name, timing, range_, "", "", None, "", "", "", effect)


# Each builder makes one action, or None when this character cannot take it. They read the
# era's differences from rules.actions (see rulesets.ActionRules), never its name.
Builder = Callable[[Levels, Ruleset], Action | None]


def basic_attack(levels: Levels, rules: Ruleset) -> Action:
    """Adds fighting or wrestling; knockout only when neither is had, and only where the
    era's text allows it."""
    rolled = _roll(levels, "fighting", "wrestling")
    knockout_too = rules.actions.basic_attack_adds_knockout
    if not rolled[0] and knockout_too and level(levels, "knockout"):
        rolled = _roll(levels, "knockout")
    return _rolled(
        "Basic attack",
        rolled,
        rules.target("agility"),
        "a weapon or unarmed strike",
        damage="1",
        auto_damage="2",
    )


def fighting(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "fighting"):
        return None
    return _rolled(
        "Fighting",
        _roll(levels, "fighting"),
        rules.target("agility"),
        "two basic attacks as one action while healthy; one when injured",
        damage="1 + 1",
        auto_damage="2 each",
    )


def wrestling_hold(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "wrestling"):
        return None
    rolled, target = _roll(levels, "wrestling"), rules.target("strength")
    if rules.actions.wrestling_hold_damages:
        return _rolled(
            "Wrestling hold",
            rolled,
            target,
            "a hold that hurts: 1 damage, only while healthy and not delayed; "
            "target delayed to the end of its next turn",
            attack="force",
            damage="1",
            auto_damage="2",
        )
    return _rolled(
        "Wrestling hold",
        rolled,
        target,
        "while healthy, a basic attack and a hold as one action",
        attack="force",
    )


def hold(levels: Levels, rules: Ruleset) -> Action:
    era = rules.actions
    effect = "target delayed to the end of its next turn"
    if era.evade_until_held:
        effect += " and loses its evade bonus"
    if era.movement_on_terrain:
        effect += " (or add a movement ability that suits the ground)"
    return _rolled(
        "Hold", _roll(levels, *era.hold_adds), rules.target("strength"), effect, attack="force"
    )


def shooting(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "shooting"):
        return None
    delayed = "; injured? you are delayed after the shot" if rules.actions.attacker_delays else ""
    return _rolled(
        "Shooting",
        _roll(levels, "shooting"),
        rules.target("agility"),
        "one target" + delayed,
        range_="long",
        damage="2",
        auto_damage="5",
    )


def blasting(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "blasting"):
        return None
    delayed = "; injured? you are delayed after" if rules.actions.attacker_delays else ""
    return _rolled(
        "Blasting",
        _roll(levels, "blasting"),
        rules.target("agility"),
        "up to three different targets, one roll each" + delayed,
        range_="long",
        damage="1 each",
        auto_damage="2 each",
    )


def knockout(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "knockout"):
        return None
    delays = rules.actions.attacker_delays
    delayed = "; you are delayed to the end of your next turn" if delays else ""
    return _rolled(
        "Knockout",
        _roll(levels, "knockout"),
        rules.target("agility"),
        "one target" + delayed,
        damage="4 (2 injured)",
        auto_damage="5 (3 injured)",
    )


def throw_object(levels: Levels, rules: Ruleset) -> Action:
    return _rolled(
        "Throw object",
        ("", 0),
        rules.target("agility"),
        "needs something dangerous to throw",
        range_="long",
        damage="1",
        auto_damage="2",
    )


def distract(levels: Levels, rules: Ruleset) -> Action:
    """A movement ability that suits the ground, or a bare d20 in the older texts."""
    era = rules.actions
    effect = "target delayed to the end of its next turn"
    rolled: tuple[str, int] = ("", 0)
    if era.movement_on_terrain:
        rolled = _roll(levels, *MOVEMENT)
        effect += " (movement ability must suit the ground)"
    return _rolled(
        "Distract",
        rolled,
        rules.target("intelligence"),
        effect,
        timing=era.psychic_timing,
        attack="psychic",
    )


def surprise(levels: Levels, rules: Ruleset) -> Action | None:
    if not (level(levels, "stealth") or level(levels, "detection")):
        return None
    upset = rules.actions.upset
    return _rolled(
        "Surprise",
        _roll(levels, "stealth", "detection"),
        rules.target("intelligence"),
        f"target {upset} to the end of its next turn: it may only evade or escape",
        timing=rules.actions.psychic_timing,
        range_="long",
        attack="psychic",
    )


def intimidate(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "command"):
        return None
    era = rules.actions
    return _rolled(
        "Intimidate",
        _roll(levels, "command"),
        era.intimidate_target,
        f"target {era.upset} to the end of its next turn",
        timing=era.psychic_timing,
        range_="long",
        attack="psychic",
    )


def heal(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "healing"):
        return None
    return _rolled(
        "Heal",
        _roll(levels, "healing"),
        "difficulty 10",
        "an injured ally (not yourself) goes to half maximum HP + 1",
        attack="",
    )


def revive(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "healing"):
        return None
    return _rolled(
        "Revive",
        _roll(levels, "healing"),
        "difficulty 10",
        "an incapacitated ally (not yourself) comes back at 1 HP",
        attack="",
    )


def evade(levels: Levels, rules: Ruleset) -> Action:
    """Evade's bonus: to agility and strength till the next turn or a hold (current), to
    agility alone in the older texts (I-17), to the one defense of the classic era."""
    era = rules.actions
    _, movement = best_of(levels, era.evade_adds)
    if not movement:
        return _no_roll("Evade", f"no movement ability: {era.evade_stays}")
    held = " or till you are held" if era.evade_until_held else ""
    return _no_roll(
        "Evade", f"{era.evade_gains} a movement level (best {movement}) till your next turn{held}"
    )


def escape(levels: Levels, rules: Ruleset) -> Action:
    return _no_roll(
        "Escape",
        "leave the encounter, straight after a turn spent evading" + rules.actions.escape_if,
    )


def engage(levels: Levels, rules: Ruleset) -> Action:
    return _no_roll(
        "Engage",
        f"before a close attack: +2 to close attack rolls this turn, -2 {rules.target('agility')}"
        " until your next turn",
        timing="bonus",
        range_="close",
    )


def take_cover(levels: Levels, rules: Ruleset) -> Action:
    effect = rules.actions.take_cover.format(agility=rules.target("agility"))
    return _no_roll("Take cover", effect, timing="bonus")


def catch(levels: Levels, rules: Ruleset) -> Action:
    """The older texts' answer to evading (I-19)."""
    return _rolled(
        "Catch",
        _roll(levels, "detection", "acrobatics", "quickness", "flying"),
        "10 + the level the evader added",
        f"an evading target loses its evade bonus to {rules.target('agility')}",
        attack="",
    )


# Every action a ruleset may name in ActionRules.names, by name.
BUILDERS: dict[str, Builder] = {
    "Basic attack": basic_attack,
    "Fighting": fighting,
    "Wrestling hold": wrestling_hold,
    "Hold": hold,
    "Shooting": shooting,
    "Blasting": blasting,
    "Knockout": knockout,
    "Throw object": throw_object,
    "Distract": distract,
    "Surprise": surprise,
    "Intimidate": intimidate,
    "Heal": heal,
    "Revive": revive,
    "Evade": evade,
    "Escape": escape,
    "Engage": engage,
    "Take cover": take_cover,
    "Catch": catch,
}


def character_actions(levels: Levels, rules: Ruleset) -> tuple[Action, ...]:
    """Every action this character may take, in the order the ruleset lists them."""
    built = (BUILDERS[name](levels, rules) for name in rules.actions.names)
    return tuple(action for action in built if action is not None)
