"""The rows the sheet repeats: an ability with its level and note, an action with its
roll, target, range and damage. The front, the minions' frames on the back and the
continuation page print them alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...rules import AbilityLine
from ...rules.abilities import CHARACTER_CATEGORIES
from ...rules.actions import Action, Damage
from ...wording import _, pgettext
from .. import actions, terms
from ..common import capital, signed
from .text import cut, whole

# Unrepeatable actions work once per target, so a few ticks cover a typical encounter.
UNREPEATABLE_TICKS = 3


def category_title(category: str) -> str:
    """An ability category as the title of its group: "Vehicle operation"."""
    return capital(terms.category(category))


def above_max(max_level: int) -> str:
    """The flag after an ability above the campaign's maximum level."""
    return _("above max %(level)s") % {"level": max_level}


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
        "name": terms.ability(ability.name),
        "note": note,
        "cut": shortened,
        "more": more if shortened and note else "",
        "above_max": above,
        "flag": above_max(max_level) if above and max_level is not None else "",
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
    return signed(action.bonus), actions.ability(action)


def split_value(damage: Damage | None) -> dict[str, str]:
    """``4 (2 injured)`` prints as a big ``4`` over a small ``2 injured``; none is a dash."""
    main, sub = actions.damage_parts(damage)
    return {"main": main, "sub": sub}


def target(action: Action) -> dict[str, str]:
    """The target, the long ones as a main word over a small second line."""
    main, sub = actions.target_lines(action)
    return {"main": main, "sub": sub}


def action_row(action: Action, source: str = "") -> dict[str, Any]:
    roll, roll_from = roll_text(action)
    return {
        "name": actions.name(action),
        "rolled": action.bonus is not None,
        "roll": roll,
        "source": source,
        "roll_from": roll_from,
        "target": target(action),
        "range": actions.range_(action) or "—",
        "attack": action.attack,
        "damage": split_value(action.damage),
        "auto": split_value(action.auto_damage),
        "effect": actions.effect(action),
        "ticks": list(range(UNREPEATABLE_TICKS)) if action.unrepeatable else [],
        "tag": pgettext("an action taken as a bonus action", "bonus")
        if action.timing == "bonus"
        else "",
    }
