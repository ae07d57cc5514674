"""The actions read an era's differences from its ruleset's data, never from its name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from scratchpress.rules.actions import BUILDERS, Action, character_actions
from scratchpress.rules.rulesets import CURRENT_ACTIONS, EARLY, RULESETS, Ruleset

# Every action has a reason to appear: command to intimidate, wrestling to hold, and so on.
LEVELS = {"quickness": 2, "stealth": 1, "command": 2, "wrestling": 1, "toughness": 2}


def _actions(rules: Ruleset) -> dict[str, Action]:
    return {a.name: a for a in character_actions(LEVELS, rules)}


def test_a_house_ruleset_renamed_from_early_keeps_the_early_wording() -> None:
    # The name is only a label: a table's own copy of the early rules prints the same actions.
    house = replace(EARLY, name="house")
    assert character_actions(LEVELS, house) == character_actions(LEVELS, EARLY)
    assert _actions(house)["Intimidate"].target == (
        "intelligence (only if its strength is not above yours)"
    )


def test_changing_one_field_of_the_early_data_changes_only_that_wording() -> None:
    kinder = replace(EARLY, actions=replace(EARLY.actions, upset="startled"))
    before, after = _actions(EARLY), _actions(kinder)
    assert after["Surprise"].effect == before["Surprise"].effect.replace("frightened", "startled")
    assert after["Intimidate"].effect == "target startled to the end of its next turn"
    unchanged = set(before) - {"Surprise", "Intimidate"}
    assert {n: after[n] for n in unchanged} == {n: before[n] for n in unchanged}


def test_the_list_of_names_decides_which_actions_exist_and_their_order() -> None:
    without_catch = replace(EARLY, actions=replace(EARLY.actions, names=CURRENT_ACTIONS))
    assert "Catch" in _actions(EARLY)
    assert "Catch" not in _actions(without_catch)
    reordered = replace(EARLY, actions=replace(EARLY.actions, names=("Evade", "Basic attack")))
    assert [a.name for a in character_actions(LEVELS, reordered)] == ["Evade", "Basic attack"]


def test_the_rolls_follow_the_data_too() -> None:
    # A hold that hurts and attackers that delay themselves, grafted onto the early text.
    harsher = replace(
        EARLY,
        actions=replace(EARLY.actions, wrestling_hold_damages=True, attacker_delays=True),
    )
    hold = _actions(harsher)["Wrestling hold"]
    assert (hold.damage, hold.auto_damage) == ("1", "2")
    knockout = character_actions({"knockout": 1}, harsher)
    assert [a.effect for a in knockout if a.name == "Knockout"] == [
        "one target; you are delayed to the end of your next turn"
    ]


def test_every_named_action_of_every_ruleset_has_a_builder() -> None:
    for rules in RULESETS.values():
        assert set(rules.actions.names) <= set(BUILDERS), rules.name


# ---------------------------------------------------------------------------- wording
# Each ruleset prints its own era's actions (RULES.md §5.2, §5.3, I-17, I-19).


WORDING_LEVELS = {"quickness": 2, "stealth": 3, "detection": 1, "command": 1, "toughness": 2}


def _named_actions(rules: str) -> dict[str, Action]:
    return {a.name: a for a in character_actions(WORDING_LEVELS, RULESETS[rules])}


def test_current_rules_psychic_attacks_are_once_per_target_and_panic() -> None:
    actions = _named_actions("current")
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
    actions = _named_actions("early")
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
    actions = _named_actions("classic")
    assert actions["Evade"].effect.startswith("defense gains a movement level")
    assert "-2 defense" in actions["Engage"].effect
    assert "+2 defense" in actions["Take cover"].effect
    assert actions["Surprise"].target == "defense"


def test_the_printables_legends_say_the_eras_limit(tmp_path: Path) -> None:
    # The sheet, the roster and the initiative cards explain the tick boxes in the era's
    # words: once per target now, once per battle in the older texts.
    from scratchpress.build import collect_documents
    from scratchpress.definitions.campaign import load_campaign
    from scratchpress.definitions.models import BuildOptions
    from scratchpress.render.templating import render_html
    from scratchpress.statblocks import compute_campaign

    (tmp_path / "scratchpress.toml").write_text('rules = "early"\n', encoding="utf-8")
    (tmp_path / "party.yaml").write_text(
        "characters:\n  - name: Ann\n    group: Weir\n"
        "    abilities: {stealth: 2, command: 1, toughness: 2}\n",
        encoding="utf-8",
    )
    campaign = load_campaign([tmp_path])
    computed = compute_campaign(campaign)
    documents = collect_documents(computed, campaign, BuildOptions(), None)
    texts = {d.kind: render_html(d.template, d.context) for d in documents}
    for kind in ("sheets", "initiative", "roster"):
        assert "once per battle" in texts[kind].lower(), kind
        assert "once per target" not in texts[kind].lower(), kind
