"""The actions a character can take, with roll bonus, target, range and damage (RULES.md §5).

This is what the actions panel of a character sheet prints. Effects are our own short
summaries of the rules, written for a player at the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from .derived import Levels, best_of, level
from .rulesets import Ruleset


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


def character_actions(levels: Levels, rules: Ruleset) -> tuple[Action, ...]:
    """Every action this character may take, in the order a player looks for them."""
    agility = rules.target("agility")
    strength = rules.target("strength")
    intelligence = rules.target("intelligence")
    delays = rules.attacker_delays
    older = rules.older_actions
    # The older texts: once per battle, and the target is frightened rather than panicked.
    limited = "once per battle" if older else "unrepeatable"
    upset = "frightened" if older else "panicked"
    actions: list[Action] = []

    # Basic attack adds fighting or wrestling; knockout only when neither is had.
    roll, bonus = _roll(levels, "fighting", "wrestling")
    if not roll and level(levels, "knockout"):
        roll, bonus = _roll(levels, "knockout")
    actions.append(
        Action(
            "Basic attack",
            "regular",
            "close",
            "normal",
            roll,
            bonus,
            agility,
            "1",
            "2",
            "a weapon or unarmed strike",
        )
    )
    if level(levels, "fighting"):
        roll, bonus = _roll(levels, "fighting")
        actions.append(
            Action(
                "Fighting",
                "regular",
                "close",
                "normal",
                roll,
                bonus,
                agility,
                "1 + 1",
                "2 each",
                "two basic attacks as one action while healthy; one when injured",
            )
        )
    if level(levels, "wrestling"):
        roll, bonus = _roll(levels, "wrestling")
        if rules.wrestling_hold_damages:
            actions.append(
                Action(
                    "Wrestling hold",
                    "regular",
                    "close",
                    "force",
                    roll,
                    bonus,
                    strength,
                    "1",
                    "2",
                    "a hold that hurts: 1 damage, only while healthy and not delayed; "
                    "target delayed to the end of its next turn",
                )
            )
        else:
            actions.append(
                Action(
                    "Wrestling hold",
                    "regular",
                    "close",
                    "force",
                    roll,
                    bonus,
                    strength,
                    "",
                    "",
                    "while healthy, a basic attack and a hold as one action",
                )
            )
    roll, bonus = _roll(levels, "wrestling", "detection")
    actions.append(
        Action(
            "Hold",
            "regular",
            "close",
            "force",
            roll,
            bonus,
            strength,
            "",
            "",
            "target delayed to the end of its next turn and loses its evade bonus"
            " (or add a movement ability that suits the ground)",
        )
    )
    if level(levels, "shooting"):
        roll, bonus = _roll(levels, "shooting")
        actions.append(
            Action(
                "Shooting",
                "regular",
                "long",
                "normal",
                roll,
                bonus,
                agility,
                "2",
                "5",
                "one target" + ("; injured? you are delayed after the shot" if delays else ""),
            )
        )
    if level(levels, "blasting"):
        roll, bonus = _roll(levels, "blasting")
        actions.append(
            Action(
                "Blasting",
                "regular",
                "long",
                "normal",
                roll,
                bonus,
                agility,
                "1 each",
                "2 each",
                "up to three different targets, one roll each"
                + ("; injured? you are delayed after" if delays else ""),
            )
        )
    if level(levels, "knockout"):
        roll, bonus = _roll(levels, "knockout")
        actions.append(
            Action(
                "Knockout",
                "regular",
                "close",
                "normal",
                roll,
                bonus,
                agility,
                "4 (2 injured)",
                "5 (3 injured)",
                "one target" + ("; you are delayed to the end of your next turn" if delays else ""),
            )
        )
    actions.append(
        Action(
            "Throw object",
            "regular",
            "long",
            "normal",
            "",
            0,
            agility,
            "1",
            "2",
            "needs something dangerous to throw",
        )
    )
    movement_roll, movement_bonus = _roll(levels, "acrobatics", "quickness", "flying", "swimming")
    actions.append(
        Action(
            "Distract",
            limited,
            "close",
            "psychic",
            movement_roll,
            movement_bonus,
            intelligence,
            "",
            "",
            "target delayed to the end of its next turn (movement ability must suit the ground)",
        )
    )
    if level(levels, "stealth") or level(levels, "detection"):
        roll, bonus = _roll(levels, "stealth", "detection")
        actions.append(
            Action(
                "Surprise",
                limited,
                "long",
                "psychic",
                roll,
                bonus,
                intelligence,
                "",
                "",
                f"target {upset} to the end of its next turn: it may only evade or escape",
            )
        )
    if level(levels, "command"):
        roll, bonus = _roll(levels, "command")
        if rules.defense is not None:
            target = "defense"
        elif rules.name == "early":
            # The older text gates intimidation on strength, then rolls against intelligence.
            target = "intelligence (only if its strength is not above yours)"
        else:
            target = "intelligence or strength, whichever is higher"
        actions.append(
            Action(
                "Intimidate",
                limited,
                "long",
                "psychic",
                roll,
                bonus,
                target,
                "",
                "",
                f"target {upset} to the end of its next turn",
            )
        )
    if level(levels, "healing"):
        roll, bonus = _roll(levels, "healing")
        actions.append(
            Action(
                "Heal",
                "regular",
                "close",
                "",
                roll,
                bonus,
                "difficulty 10",
                "",
                "",
                "an injured ally (not yourself) goes to half maximum HP + 1",
            )
        )
        actions.append(
            Action(
                "Revive",
                "regular",
                "close",
                "",
                roll,
                bonus,
                "difficulty 10",
                "",
                "",
                "an incapacitated ally (not yourself) comes back at 1 HP",
            )
        )
    _, movement = best_of(levels, ("acrobatics", "quickness", "flying", "swimming"))
    actions.append(
        Action(
            "Evade",
            "regular",
            "",
            "",
            "",
            None,
            "",
            "",
            "",
            _evade_effect(rules, movement),
        )
    )
    actions.append(
        Action(
            "Escape",
            "regular",
            "",
            "",
            "",
            None,
            "",
            "",
            "",
            "leave the encounter, straight after a turn spent evading"
            + (", if nothing has held or hit you since" if older else ""),
        )
    )
    actions.append(
        Action(
            "Engage",
            "bonus",
            "close",
            "",
            "",
            None,
            "",
            "",
            "",
            f"before a close attack: +2 to close attack rolls this turn, -2 {agility} until"
            " your next turn",
        )
    )
    actions.append(
        Action(
            "Take cover",
            "bonus",
            "",
            "",
            "",
            None,
            "",
            "",
            "",
            f"before a long-range attack: -2 to that roll, +2 {agility} till your next turn"
            if older
            else f"behind real cover: +2 {agility}, -2 to all your rolls; no evading, close"
            " attacks, distract, surprise or intimidate",
        )
    )
    if older:
        catch_roll, catch_bonus = _roll(levels, "detection", "acrobatics", "quickness", "flying")
        actions.append(
            Action(
                "Catch",
                "regular",
                "close",
                "",
                catch_roll,
                catch_bonus,
                "10 + the level the evader added",
                "",
                "",
                f"an evading target loses its evade bonus to {agility}",
            )
        )
    return tuple(actions)


def _evade_effect(rules: Ruleset, movement: int) -> str:
    """Evade's bonus: to agility and strength till the next turn or a hold (current), to
    agility alone in the older texts (I-17), to the one defense of the classic era."""
    if rules.defense is not None:
        raises, stays = "defense gains", "defense stays as it is"
    elif rules.older_actions:
        raises, stays = "agility gains", "agility stays as it is"
    else:
        raises, stays = "agility and strength each gain", "agility and strength stay as they are"
    if not movement:
        return f"no movement ability: {stays}"
    held = "" if rules.older_actions else " or till you are held"
    return f"{raises} a movement level (best {movement}) till your next turn{held}"
