"""Rule words to the few characters an initiative card has room for: short targets and
damage, the defenses a ruleset computes, tick letters, how a group's bonus is made, and
the HP track in lines of boxes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...rules.actions import Action
from ...rules.character import CharacterStats
from ...statblocks import Block, InitiativeGroup
from ...wording import N_, _
from .. import actions as action_words
from .. import terms
from ..common import hp_track

# The derived values as a card's narrow columns and boxes name them, by their key.
SHORT = {
    "agility": N_("AGI"),
    "intelligence": N_("INT"),
    "strength": N_("STR"),
    "defense": N_("DEF"),
    "stamina": N_("STA"),
    "initiative_bonus": N_("INIT"),
}

TARGETS = {
    "agility": N_("AGI"),
    "intelligence": N_("INT"),
    "strength": N_("STR"),
    "defense": N_("DEF"),
    "intelligence_or_strength": N_("max INT/STR"),
    "intelligence_if_not_stronger": N_("INT (STR ≤)"),
}


def short(key: str) -> str:
    """A derived value's abbreviation on a card: ``agility`` reads "AGI"."""
    return _(SHORT[key])


def short_target(action: Action) -> str:
    """What an attack rolls against, by its key, as short as a card's column needs."""
    if action.target in TARGETS:
        return _(TARGETS[action.target])
    return action_words.target(action)


def short_damage(action: Action) -> str:
    """Damage and the lasting effect on the target, e.g. "1 + delay", "panic", "4 (2 inj.)"."""
    return action_words.card_damage(action)


def defenses(stats: CharacterStats) -> list[tuple[str, int]]:
    """The defenses this ruleset computes, by key: agility, intelligence, strength or one
    defense (:func:`short` words them)."""
    named = (
        ("agility", stats.agility),
        ("intelligence", stats.intelligence),
        ("strength", stats.strength),
        ("defense", stats.defense),
    )
    return [(key, value) for key, value in named if value is not None]


def tick_letters(actions: Sequence[Action]) -> dict[str, str]:
    """A short, unique letter for each unrepeatable action: D, S, I."""
    letters: dict[str, str] = {}
    for action in actions:
        if not action.unrepeatable or action.name in letters:
            continue
        worded = action_words.name(action)
        letter = worded[0].upper()
        if letter in letters.values():
            letter = worded[:2].title()
        letters[action.name] = letter
    return letters


# One term of the rules' group initiative, "2 x best stealth 4": a factor, an ability and
# the group's best level in it.
def group_terms(group: InitiativeGroup) -> list[str]:
    """The terms of a group's initiative, worded: ["2 × best stealth 4",
    "10 × best detection 3"]; none when each member rolls alone."""
    return [
        _("%(factor)s × best %(ability)s %(level)s")
        % {"factor": factor, "ability": terms.ability(ability), "level": level}
        for factor, ability, level in group.terms
    ]


def bonus_lines(group: InitiativeGroup) -> list[str]:
    """How the group's number is made, one term a line: ["2 × best stealth 4",
    "+ 10 × best detection 3"]."""
    parts = group_terms(group)
    if not parts:
        return [_("best member's own bonus:"), _("each member rolls alone")]
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
