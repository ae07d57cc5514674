"""Each ruleset prints its own era's actions (RULES.md §5.2, §5.3, I-17, I-19)."""

from __future__ import annotations

from scratchpress.rules.actions import Action, character_actions
from scratchpress.rules.rulesets import RULESETS

# A scout: quickness for evading, stealth for surprise, detection, command for intimidate.
LEVELS = {"quickness": 2, "stealth": 3, "detection": 1, "command": 1, "toughness": 2}


def _actions(rules: str) -> dict[str, Action]:
    return {a.name: a for a in character_actions(LEVELS, RULESETS[rules])}


def test_current_rules_psychic_attacks_are_once_per_target_and_panic() -> None:
    actions = _actions("current")
    assert {actions[n].timing for n in ("Distract", "Surprise", "Intimidate")} == {"unrepeatable"}
    assert "panicked" in actions["Surprise"].effect
    assert RULESETS["current"].psychic_limit == "once per target"
    assert actions["Evade"].effect == (
        "agility and strength each gain a movement level (best 2) till your next turn"
        " or till you are held"
    )
    assert actions["Take cover"].effect.startswith("behind real cover: +2 agility")
    assert "Catch" not in actions


def test_the_early_text_is_once_per_battle_frightens_and_evades_with_agility_alone() -> None:
    actions = _actions("early")
    assert {actions[n].timing for n in ("Distract", "Surprise", "Intimidate")} == {
        "once per battle"
    }
    assert all(actions[n].unrepeatable for n in ("Distract", "Surprise", "Intimidate"))
    assert "frightened" in actions["Surprise"].effect
    assert "frightened" in actions["Intimidate"].effect
    assert RULESETS["early"].psychic_limit == "once per battle"
    assert actions["Evade"].effect == "agility gains a movement level (best 2) till your next turn"
    assert actions["Escape"].effect.endswith("if nothing has held or hit you since")
    assert actions["Take cover"].effect == (
        "before a long-range attack: -2 to that roll, +2 agility till your next turn"
    )
    catch = actions["Catch"]
    assert (catch.roll, catch.bonus, catch.target) == (
        "quickness 2",
        2,
        "10 + the level the evader added",
    )


def test_the_classic_era_speaks_of_its_one_defense() -> None:
    actions = _actions("classic")
    assert actions["Evade"].effect.startswith("defense gains a movement level")
    assert "-2 defense" in actions["Engage"].effect
    assert "+2 defense" in actions["Take cover"].effect
    assert actions["Surprise"].target == "defense"
