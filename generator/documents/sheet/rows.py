"""The rows the sheet repeats: an ability with its level and note, an action with its
roll, target, range and damage. The front, the minions' frames on the back and the
continuation page print them alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...rules import AbilityLine
from ...rules.abilities import CHARACTER_CATEGORIES, display
from ...rules.actions import Action
from ..common import signed
from .text import cut, whole

CATEGORY_TITLES = {
    "toughness": "Toughness",
    "attack": "Attack",
    "stalking": "Stalking",
    "movement": "Movement",
    "support": "Support",
    "vehicle operation": "Vehicle operation",
}
# Targets too long for the grid's narrow "Against" column: (main word, small second line).
TARGET_LINES = {
    "intelligence or strength, whichever is higher": ("intelligence", "or strength (higher)"),
    "intelligence (only if its strength is not above yours)": (
        "intelligence",
        "only if it is not stronger",
    ),
    "defense (only if it is not stronger than you)": ("defense", "only if it is not stronger"),
}
# Unrepeatable actions work once per target, so a few ticks cover a typical encounter.
UNREPEATABLE_TICKS = 3


def ability_row(
    ability: AbilityLine,
    note_limit: int | None,
    max_level: int | None,
    more: str = "",
    source: str = "",
) -> dict[str, Any]:
    """One ability as the sheet prints it; ``more`` ("see p. 2") follows a shortened note
    (a note left out altogether is announced once, over the panel); ``source``: where its
    level is written, for the preview (documents/sources.py)."""
    above = max_level is not None and ability.level > max_level
    note = cut(ability.note, note_limit)
    shortened = note != whole(ability.note)
    return {
        "level": str(ability.level),
        "source": source,
        "name": display(ability.name),
        "note": note,
        "cut": shortened,
        "more": more if shortened and note else "",
        "above_max": above,
        "flag": f"above max {max_level}" if above else "",
    }


def grouped(abilities: Sequence[AbilityLine]) -> list[tuple[str, list[AbilityLine]]]:
    """Abilities by sheet category, in the catalogue's category order and, within a
    category, in the order the author wrote them."""
    return [
        (category, [a for a in abilities if a.name in names])
        for category, names in CHARACTER_CATEGORIES.items()
        if any(a.name in names for a in abilities)
    ]


def roll_text(action: Action) -> tuple[str, str]:
    """(big, small) for the roll column: ``+2`` / ``wrestling``, or ``d20`` alone."""
    if action.bonus is None:
        return "—", ""
    if not action.roll:
        return "d20", ""
    ability = action.roll.rsplit(" ", 1)[0]
    return signed(action.bonus), display(ability)


def split_value(text: str) -> dict[str, str]:
    """``4 (2 injured)`` prints as a big ``4`` over a small ``2 injured``; empty is a dash."""
    if not text:
        return {"main": "—", "sub": ""}
    main, _, rest = text.partition(" (")
    return {"main": main, "sub": rest.removesuffix(")")}


def target(text: str) -> dict[str, str]:
    main, sub = TARGET_LINES.get(text, (text or "—", ""))
    return {"main": main, "sub": sub}


def action_row(action: Action, source: str = "") -> dict[str, Any]:
    roll, roll_from = roll_text(action)
    return {
        "name": action.name,
        "rolled": action.bonus is not None,
        "roll": roll,
        "source": source,
        "roll_from": roll_from,
        "target": target(action.target),
        "range": action.range or "—",
        "attack": action.attack,
        "damage": split_value(action.damage),
        "auto": split_value(action.auto_damage),
        "effect": action.effect,
        "ticks": list(range(UNREPEATABLE_TICKS)) if action.unrepeatable else [],
        "tag": "bonus" if action.timing == "bonus" else "",
    }
