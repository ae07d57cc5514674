"""Rule words to the few characters an initiative card has room for: short targets and
damage, the defenses a ruleset computes, tick letters, how a group's bonus is made, and
the HP track in lines of boxes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...rules.actions import Action
from ...rules.character import CharacterStats
from ...statblocks import Block
from ..common import hp_track

TARGETS = {
    "agility": "AGI",
    "intelligence": "INT",
    "strength": "STR",
    "defense": "DEF",
    "intelligence or strength, whichever is higher": "max INT/STR",
    "intelligence (only if its strength is not above yours)": "INT (STR ≤)",
}


def short_target(target: str) -> str:
    return TARGETS.get(target, target)


def short_damage(action: Action) -> str:
    """Damage and the lasting effect on the target, e.g. "1 + delay", "panic", "4 (2 inj.)".

    Action has no structured field for what it does to the target, so the effect is read
    from the rules module's own effect text; every phrase matched here is written there."""
    damage = action.damage.replace(" injured)", " inj.)")
    effect = ""
    if "a basic attack and a hold" in action.effect:  # the older wrestling hold
        effect = "atk + hold"
    elif "target delayed" in action.effect:
        effect = "delay"
    elif "target panicked" in action.effect:
        effect = "panic"
    if damage and effect:
        return f"{damage} + {effect}"
    return damage or effect or "–"


def defenses(stats: CharacterStats) -> list[tuple[str, int]]:
    """The defenses this ruleset computes: agility, intelligence, strength or one defense."""
    named = (
        ("AGI", stats.agility),
        ("INT", stats.intelligence),
        ("STR", stats.strength),
        ("DEF", stats.defense),
    )
    return [(label, value) for label, value in named if value is not None]


def tick_letters(actions: Sequence[Action]) -> dict[str, str]:
    """A short, unique letter for each unrepeatable action: D, S, I."""
    letters: dict[str, str] = {}
    for action in actions:
        if not action.unrepeatable or action.name in letters:
            continue
        letter = action.name[0].upper()
        if letter in letters.values():
            letter = action.name[:2].title()
        letters[action.name] = letter
    return letters


def bonus_lines(rule: str) -> list[str]:
    """How the group's number is made, one term a line: the rule text
    "group initiative bonus 38 = 2 x best stealth 4 + 10 x best detection 3" gives
    ["2 × best stealth 4", "+ 10 × best detection 3"]."""
    how = rule.split(" = ", 1)[-1].replace(" x ", " × ")
    if how.endswith("(each rolls)"):
        return ["best member's own bonus:", "each member rolls alone"]
    parts = how.split(" + ")
    return [parts[0], *(f"+ {p}" for p in parts[1:])]


def stats_of(block: Block) -> CharacterStats:
    assert isinstance(block.stats, CharacterStats)
    return block.stats


def hp_lines(max_hp: int, stamina: int, per_line: int) -> list[list[dict[str, Any]]]:
    """The HP track with a round 0 box at its end, split into lines of `per_line` boxes."""
    track: list[dict[str, Any]] = [
        {"label": str(b["hp"]), "injured": b["injured"], "zero": False}
        for b in hp_track(max_hp, stamina)
    ]
    track.append({"label": "0", "injured": False, "zero": True})
    per_line = max(1, per_line)
    return [track[i : i + per_line] for i in range(0, len(track), per_line)]
