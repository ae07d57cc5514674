"""The actions a character can take, with roll bonus, target, range and damage (RULES.md §5).

This is what the actions panel of a character sheet prints. The rules say what an action
*is* by keys and numbers (``"basic_attack"``, the ability ``"wrestling"`` and its 2, the
target ``"difficulty"`` and its 10, the effect ``"evade.held"`` with its best level);
documents/actions.py words them, in our own short summaries of the rules written for a
player at the table, in the language the build speaks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .derived import Levels, best_of, level
from .rulesets import MOVEMENT, Ruleset


@dataclass(frozen=True)
class Damage:
    """Damage on a success or a natural 20: ``amount`` and what it applies to.

    ``per`` is "" (once), "each" (to each target: blasting, fighting's natural 20), "twice"
    (two basic attacks as one action, "1 + 1") or "injured" (``injured`` instead against an
    injured target, as knockout's 4, 2 when injured)."""

    amount: int
    per: str = ""
    injured: int = 0


@dataclass(frozen=True)
class Action:
    name: str  # the action's key: "basic_attack", "wrestling_hold", "take_cover"...
    # "regular", "bonus", "unrepeatable" (once per encounter per target) or, in the older
    # texts, "once_per_battle"
    timing: str
    range: str  # "close", "long" or "" when the action is not an attack
    attack: str  # "normal", "psychic", "force" or "" when it is not an attack
    roll: str  # the ability added to the d20, e.g. "wrestling"; "" for a bare d20 roll
    bonus: int | None  # the number added to the d20; None when no roll is made
    # The defense or difficulty rolled against, by key: "agility", "defense",
    # "intelligence_or_strength", "difficulty" (with target_number 10)...; "" for none.
    target: str
    damage: Damage | None  # on success; None for no damage
    auto_damage: Damage | None  # on a natural 20 (automatic success)
    # What the action does, by the key of its whole sentence ("evade.held"), with the
    # values the sentence names: numbers, or a defense's key for the defense it changes.
    effect: str
    effect_values: tuple[tuple[str, int | str], ...] = ()
    target_number: int | None = None  # the number of a "difficulty" or "evader_level" target

    @property
    def unrepeatable(self) -> bool:
        """Limited uses, ticked off on the sheet and cards (per target, or per battle)."""
        return self.timing in {"unrepeatable", "once_per_battle"}


def _roll(levels: Levels, *abilities: str) -> tuple[str, int]:
    name, value = best_of(levels, abilities)
    return (name, value) if name else ("", 0)


def _rolled(
    name: str,
    rolled: tuple[str, int],
    target: str,
    effect: str,
    *,
    timing: str = "regular",
    range_: str = "close",
    attack: str = "normal",
    damage: Damage | None = None,
    auto_damage: Damage | None = None,
    target_number: int | None = None,
    values: tuple[tuple[str, int | str], ...] = (),
) -> Action:
    """An action that rolls a d20 plus ``rolled`` against ``target``."""
    roll, bonus = rolled
    return Action(
        name,
        timing,
        range_,
        attack,
        roll,
        bonus,
        target,
        damage,
        auto_damage,
        effect,
        values,
        target_number,
    )


def _no_roll(
    name: str,
    effect: str,
    *,
    timing: str = "regular",
    range_: str = "",
    values: tuple[tuple[str, int | str], ...] = (),
) -> Action:
    """An action that rolls nothing: evade, escape, engage, take cover."""
    return Action(name, timing, range_, "", "", None, "", None, None, effect, values)


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
        "basic_attack",
        rolled,
        rules.target("agility"),
        "basic_attack",
        damage=Damage(1),
        auto_damage=Damage(2),
    )


def fighting(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "fighting"):
        return None
    return _rolled(
        "fighting",
        _roll(levels, "fighting"),
        rules.target("agility"),
        "fighting",
        damage=Damage(1, "twice"),
        auto_damage=Damage(2, "each"),
    )


def wrestling_hold(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "wrestling"):
        return None
    rolled, target = _roll(levels, "wrestling"), rules.target("strength")
    if rules.actions.wrestling_hold_damages:
        return _rolled(
            "wrestling_hold",
            rolled,
            target,
            "wrestling_hold.hurts",
            attack="force",
            damage=Damage(1),
            auto_damage=Damage(2),
        )
    return _rolled("wrestling_hold", rolled, target, "wrestling_hold.with_attack", attack="force")


def hold(levels: Levels, rules: Ruleset) -> Action:
    era = rules.actions
    effect = "hold"
    if era.evade_until_held:
        effect += ".ends_evade"
    if era.movement_on_terrain:
        effect += ".terrain"
    return _rolled(
        "hold", _roll(levels, *era.hold_adds), rules.target("strength"), effect, attack="force"
    )


def shooting(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "shooting"):
        return None
    return _rolled(
        "shooting",
        _roll(levels, "shooting"),
        rules.target("agility"),
        "shooting.delays" if rules.actions.attacker_delays else "one_target",
        range_="long",
        damage=Damage(2),
        auto_damage=Damage(5),
    )


def blasting(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "blasting"):
        return None
    return _rolled(
        "blasting",
        _roll(levels, "blasting"),
        rules.target("agility"),
        "blasting.delays" if rules.actions.attacker_delays else "blasting",
        range_="long",
        damage=Damage(1, "each"),
        auto_damage=Damage(2, "each"),
    )


def knockout(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "knockout"):
        return None
    return _rolled(
        "knockout",
        _roll(levels, "knockout"),
        rules.target("agility"),
        "knockout.delays" if rules.actions.attacker_delays else "one_target",
        damage=Damage(4, "injured", 2),
        auto_damage=Damage(5, "injured", 3),
    )


def throw_object(levels: Levels, rules: Ruleset) -> Action:
    return _rolled(
        "throw_object",
        ("", 0),
        rules.target("agility"),
        "throw_object",
        range_="long",
        damage=Damage(1),
        auto_damage=Damage(2),
    )


def distract(levels: Levels, rules: Ruleset) -> Action:
    """A movement ability that suits the ground, or a bare d20 in the older texts."""
    era = rules.actions
    effect = "distract"
    rolled: tuple[str, int] = ("", 0)
    if era.movement_on_terrain:
        rolled = _roll(levels, *MOVEMENT)
        effect = "distract.terrain"
    return _rolled(
        "distract",
        rolled,
        rules.target("intelligence"),
        effect,
        timing=era.psychic_timing,
        attack="psychic",
    )


def surprise(levels: Levels, rules: Ruleset) -> Action | None:
    if not (level(levels, "stealth") or level(levels, "detection")):
        return None
    return _rolled(
        "surprise",
        _roll(levels, "stealth", "detection"),
        rules.target("intelligence"),
        f"surprise.{rules.actions.upset}",
        timing=rules.actions.psychic_timing,
        range_="long",
        attack="psychic",
    )


def intimidate(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "command"):
        return None
    era = rules.actions
    return _rolled(
        "intimidate",
        _roll(levels, "command"),
        era.intimidate_target,
        f"intimidate.{era.upset}",
        timing=era.psychic_timing,
        range_="long",
        attack="psychic",
    )


def heal(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "healing"):
        return None
    return _rolled(
        "heal",
        _roll(levels, "healing"),
        "difficulty",
        "heal",
        attack="",
        target_number=10,
    )


def revive(levels: Levels, rules: Ruleset) -> Action | None:
    if not level(levels, "healing"):
        return None
    return _rolled(
        "revive",
        _roll(levels, "healing"),
        "difficulty",
        "revive",
        attack="",
        target_number=10,
    )


def evade(levels: Levels, rules: Ruleset) -> Action:
    """Evade's bonus: to agility and strength till the next turn or a hold (current), to
    agility alone in the older texts (I-17), to the one defense of the classic era."""
    era = rules.actions
    _unused, movement = best_of(levels, era.evade_adds)
    if not movement:
        return _no_roll("evade", f"evade.{era.evade}.no_movement")
    return _no_roll("evade", f"evade.{era.evade}", values=(("best", movement),))


def escape(levels: Levels, rules: Ruleset) -> Action:
    return _no_roll("escape", f"escape.{rules.actions.escape}")


def engage(levels: Levels, rules: Ruleset) -> Action:
    return _no_roll(
        "engage",
        "engage",
        timing="bonus",
        range_="close",
        values=(("defense", rules.target("agility")),),
    )


def take_cover(levels: Levels, rules: Ruleset) -> Action:
    return _no_roll(
        "take_cover",
        f"take_cover.{rules.actions.take_cover}",
        timing="bonus",
        values=(("defense", rules.target("agility")),),
    )


def catch(levels: Levels, rules: Ruleset) -> Action:
    """The older texts' answer to evading (I-19)."""
    return _rolled(
        "catch",
        _roll(levels, "detection", "acrobatics", "quickness", "flying"),
        "evader_level",
        "catch",
        attack="",
        target_number=10,
        values=(("defense", rules.target("agility")),),
    )


# Every action a ruleset may name in ActionRules.names, by key.
BUILDERS: dict[str, Builder] = {
    "basic_attack": basic_attack,
    "fighting": fighting,
    "wrestling_hold": wrestling_hold,
    "hold": hold,
    "shooting": shooting,
    "blasting": blasting,
    "knockout": knockout,
    "throw_object": throw_object,
    "distract": distract,
    "surprise": surprise,
    "intimidate": intimidate,
    "heal": heal,
    "revive": revive,
    "evade": evade,
    "escape": escape,
    "engage": engage,
    "take_cover": take_cover,
    "catch": catch,
}


def character_actions(levels: Levels, rules: Ruleset) -> tuple[Action, ...]:
    """Every action this character may take, in the order the ruleset lists them."""
    built = (BUILDERS[name](levels, rules) for name in rules.actions.names)
    return tuple(action for action in built if action is not None)
