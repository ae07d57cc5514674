"""The actions read an era's differences from its ruleset's data, never from its name."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from scratchpress.rules.actions import BUILDERS, Action, Damage, character_actions
from scratchpress.rules.rulesets import CURRENT_ACTIONS, EARLY, RULESETS, Ruleset

# Every action has a reason to appear: command to intimidate, wrestling to hold, and so on.
LEVELS = {"quickness": 2, "stealth": 1, "command": 2, "wrestling": 1, "toughness": 2}


def _actions(rules: Ruleset) -> dict[str, Action]:
    return {a.name: a for a in character_actions(LEVELS, rules)}


def test_a_house_ruleset_renamed_from_early_keeps_the_early_wording() -> None:
    # The name is only a label: a table's own copy of the early rules prints the same actions.
    house = replace(EARLY, name="house")
    assert character_actions(LEVELS, house) == character_actions(LEVELS, EARLY)
    assert _actions(house)["intimidate"].target == "intelligence_if_not_stronger"


def test_changing_one_field_of_the_early_data_changes_only_that_wording() -> None:
    kinder = replace(EARLY, actions=replace(EARLY.actions, upset="startled"))
    before, after = _actions(EARLY), _actions(kinder)
    assert after["surprise"].effect == before["surprise"].effect.replace("frightened", "startled")
    assert after["intimidate"].effect == "intimidate.startled"
    unchanged = set(before) - {"surprise", "intimidate"}
    assert {n: after[n] for n in unchanged} == {n: before[n] for n in unchanged}


def test_the_list_of_names_decides_which_actions_exist_and_their_order() -> None:
    without_catch = replace(EARLY, actions=replace(EARLY.actions, names=CURRENT_ACTIONS))
    assert "catch" in _actions(EARLY)
    assert "catch" not in _actions(without_catch)
    reordered = replace(EARLY, actions=replace(EARLY.actions, names=("evade", "basic_attack")))
    assert [a.name for a in character_actions(LEVELS, reordered)] == ["evade", "basic_attack"]


def test_the_rolls_follow_the_data_too() -> None:
    # A hold that hurts and attackers that delay themselves, grafted onto the early text.
    harsher = replace(
        EARLY,
        actions=replace(EARLY.actions, wrestling_hold_damages=True, attacker_delays=True),
    )
    hold = _actions(harsher)["wrestling_hold"]
    assert (hold.damage, hold.auto_damage) == (Damage(1), Damage(2))
    knockout = character_actions({"knockout": 1}, harsher)
    assert [a.effect for a in knockout if a.name == "knockout"] == ["knockout.delays"]


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
    assert {actions[n].timing for n in ("distract", "surprise", "intimidate")} == {"unrepeatable"}
    assert actions["surprise"].effect == "surprise.panicked"
    assert RULESETS["current"].psychic_limit == "once_per_target"
    assert (actions["evade"].effect, actions["evade"].effect_values) == (
        "evade.held",
        (("best", 2),),
    )
    assert actions["take_cover"].effect == "take_cover.behind_cover"
    assert actions["take_cover"].effect_values == (("defense", "agility"),)
    assert "catch" not in actions


def test_the_early_text_is_once_per_battle_frightens_and_evades_with_agility_alone() -> None:
    actions = _named_actions("early")
    assert {actions[n].timing for n in ("distract", "surprise", "intimidate")} == {
        "once_per_battle"
    }
    assert all(actions[n].unrepeatable for n in ("distract", "surprise", "intimidate"))
    assert actions["surprise"].effect == "surprise.frightened"
    assert actions["intimidate"].effect == "intimidate.frightened"
    assert RULESETS["early"].psychic_limit == "once_per_battle"
    assert (actions["evade"].effect, actions["evade"].effect_values) == (
        "evade.early",
        (("best", 2),),
    )
    assert actions["take_cover"].effect == "take_cover.long_range"
    assert actions["take_cover"].effect_values == (("defense", "agility"),)
    catch = actions["catch"]
    assert (catch.roll, catch.bonus, catch.target, catch.target_number) == (
        "quickness",
        2,
        "evader_level",
        10,
    )


def test_the_classic_era_speaks_of_its_one_defense() -> None:
    actions = _named_actions("classic")
    assert actions["evade"].effect == "evade.classic"
    assert actions["take_cover"].effect_values == (("defense", "defense"),)
    assert actions["surprise"].target == "defense"


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


# ------------------------------------------------------------------ rows that differ
# Per ruleset, every action row the older texts print differently from today's, written
# from the texts (RULES.md §3.2, §5.1-§5.3, I-17 to I-20). `early` follows the older edit;
# `classic` has no action list of its own and takes the older edit's, against its defense.

OLDER = ("early", "classic")


def _acts(levels: dict[str, int], rules: str) -> dict[str, Action]:
    return {a.name: a for a in character_actions(levels, RULESETS[rules])}


def test_current_distract_adds_a_movement_ability_that_suits_the_ground() -> None:
    distract = _acts({"quickness": 2, "toughness": 2}, "current")["distract"]
    assert (distract.roll, distract.bonus, distract.target) == ("quickness", 2, "intelligence")
    assert distract.effect == "distract.terrain"


def test_older_distract_is_a_bare_roll_whatever_the_movement() -> None:
    # The older texts: a roll with no ability added, for anybody.
    for rules, target in (("early", "intelligence"), ("classic", "defense")):
        distract = _acts({"quickness": 2, "flying": 3, "toughness": 2}, rules)["distract"]
        assert (distract.roll, distract.bonus, distract.target) == ("", 0, target), rules
        assert distract.effect == "distract", rules
        assert distract.timing == "once_per_battle", rules


def test_current_hold_may_add_detection() -> None:
    hold = _acts({"detection": 3, "toughness": 2}, "current")["hold"]
    assert (hold.roll, hold.bonus) == ("detection", 3)
    assert hold.effect == "hold.ends_evade.terrain"


def test_older_hold_adds_wrestling_only_as_detection_is_for_initiative() -> None:
    for rules, target in (("early", "strength"), ("classic", "defense")):
        lookout = _acts({"detection": 3, "toughness": 2}, rules)["hold"]
        assert (lookout.roll, lookout.bonus, lookout.target) == ("", 0, target), rules
        grappler = _acts({"detection": 3, "wrestling": 1, "toughness": 2}, rules)["hold"]
        assert (grappler.roll, grappler.bonus) == ("wrestling", 1), rules
        # Nothing in the older edit ends an evade early but a catch.
        assert lookout.effect == "hold", rules


def test_current_basic_attack_adds_knockout_when_nothing_else_is_added() -> None:
    basic = _acts({"knockout": 3, "toughness": 2}, "current")["basic_attack"]
    assert (basic.roll, basic.bonus) == ("knockout", 3)


def test_older_basic_attack_never_adds_knockout() -> None:
    for rules in OLDER:
        basic = _acts({"knockout": 3, "toughness": 2}, rules)["basic_attack"]
        assert (basic.roll, basic.bonus) == ("", 0), rules
        fighter = _acts({"knockout": 3, "fighting": 1, "toughness": 2}, rules)["basic_attack"]
        assert (fighter.roll, fighter.bonus) == ("fighting", 1), rules


def test_escape_is_barred_by_being_caught_in_the_older_texts() -> None:
    assert _acts({"toughness": 2}, "current")["escape"].effect == "escape.evading"
    for rules in OLDER:
        assert _acts({"toughness": 2}, rules)["escape"].effect == "escape.unhit", rules


def test_the_older_action_list_has_no_engage_or_throw_object_but_has_catch() -> None:
    assert {"engage", "throw_object"} <= set(_acts({"toughness": 2}, "current"))
    assert "catch" not in _acts({"toughness": 2}, "current")
    for rules in OLDER:
        names = set(_acts({"toughness": 2}, rules))
        assert not names & {"engage", "throw_object"}, rules
        assert "catch" in names, rules


def test_classic_intimidate_keeps_the_strength_gate_against_its_defense() -> None:
    boss = {"command": 4, "toughness": 3}
    assert _acts(boss, "current")["intimidate"].target == "intelligence_or_strength"
    assert _acts(boss, "early")["intimidate"].target == "intelligence_if_not_stronger"
    classic = _acts(boss, "classic")["intimidate"]
    assert (classic.roll, classic.bonus, classic.target) == (
        "command",
        4,
        "defense_if_not_stronger",
    )
    assert classic.effect == "intimidate.frightened"


def test_older_evade_adds_acrobatics_quickness_or_flying_but_never_swimming() -> None:
    swimmer = {"swimming": 3, "quickness": 1, "toughness": 2}
    evades = {rules: _acts(swimmer, rules)["evade"] for rules in RULESETS}
    assert {rules: (e.effect, e.effect_values) for rules, e in evades.items()} == {
        "current": ("evade.held", (("best", 3),)),
        "early": ("evade.early", (("best", 1),)),
        "classic": ("evade.classic", (("best", 1),)),
    }
    only_water = _acts({"swimming": 3, "toughness": 2}, "early")["evade"]
    assert (only_water.effect, only_water.effect_values) == ("evade.early.no_movement", ())


def test_older_attackers_never_delay_themselves() -> None:
    for rules in OLDER:
        acts = _acts({"knockout": 2, "shooting": 1, "blasting": 1, "toughness": 2}, rules)
        assert acts["knockout"].effect == "one_target", rules
        assert acts["shooting"].effect == "one_target", rules
        assert acts["blasting"].effect == "blasting", rules


def test_older_wrestling_hold_does_no_damage_but_rides_on_a_basic_attack() -> None:
    for rules in OLDER:
        hold = _acts({"wrestling": 2, "toughness": 2}, rules)["wrestling_hold"]
        assert (hold.damage, hold.auto_damage) == (None, None), rules
        assert hold.effect == "wrestling_hold.with_attack", rules


# ------------------------------------------------------------ the documented differences
# docs/rules.md lists, per ruleset, every action row that differs from `current`; the
# engine must print exactly those differences on characters that exercise every action.

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
MARKER = "<!-- action-differences -->"
# Between them, these two have a reason for every action and every older wording: no
# fighting or wrestling (knockout on a basic attack), swimming above quickness (evade), a
# wrestler, a lookout, a commander, a healer, a shooter and a blaster.
PROBES = (
    {
        "knockout": 2,
        "swimming": 3,
        "quickness": 1,
        "detection": 2,
        "command": 1,
        "healing": 1,
        "shooting": 1,
        "blasting": 1,
        "toughness": 3,
    },
    {"wrestling": 1, "fighting": 2, "stealth": 2, "acrobatics": 1, "toughness": 3},
)
FIELDS = {
    "roll": ("roll", "bonus"),
    "target": ("target", "target_number"),
    "timing": ("timing",),
    "range": ("range",),
    "attack": ("attack",),
    "damage": ("damage", "auto_damage"),
    "effect": ("effect", "effect_values"),
}


def _engine_differences(rules: str) -> set[tuple[str, str]]:
    """Per action, by the English name docs/rules.md gives it, the fields that differ."""
    from scratchpress.documents.actions import named

    found: set[tuple[str, str]] = set()
    for levels in PROBES:
        today = _acts(levels, "current")
        theirs = _acts(levels, rules)
        for name in today.keys() - theirs.keys():
            found.add((named(name), "absent"))
        for name in theirs.keys() - today.keys():
            found.add((named(name), "added"))
        for name in today.keys() & theirs.keys():
            for field, attributes in FIELDS.items():
                if any(getattr(today[name], a) != getattr(theirs[name], a) for a in attributes):
                    found.add((named(name), field))
    return found


def _documented_differences() -> dict[str, set[tuple[str, str]]]:
    text = RULES_DOC.read_text(encoding="utf-8")
    assert text.count(MARKER) == 1, f"docs/rules.md needs one {MARKER} table"
    table = text.split(MARKER, 1)[1].strip().split("\n\n", 1)[0]
    documented: dict[str, set[tuple[str, str]]] = {}
    for line in table.splitlines()[2:]:  # after the header and its rule
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rules, action, fields = cells[0].strip("`"), cells[1], cells[2]
        for field in re.split(r",\s*", fields):
            documented.setdefault(rules, set()).add((action, field))
    return documented


def test_docs_list_every_action_row_each_ruleset_prints_differently() -> None:
    documented = _documented_differences()
    assert set(documented) == set(RULESETS) - {"current"}
    for rules, listed in documented.items():
        engine = _engine_differences(rules)
        assert listed == engine, (
            f"{rules}: documented only {sorted(listed - engine)}; "
            f"printed but undocumented {sorted(engine - listed)}"
        )


def test_the_probes_reach_every_action_of_every_ruleset() -> None:
    # Otherwise a difference in an action no probe can take would go unseen.
    for rules in RULESETS.values():
        reached = set().union(*(_acts(levels, rules.name) for levels in PROBES))
        assert reached == set(rules.actions.names), rules.name


def test_every_target_of_every_ruleset_fits_the_sheets_target_cell() -> None:
    # A long target wraps past the row the sheet measured and pushes the page over; the
    # sheet keeps a two-line form for each (classic's gated intimidate overflowed a page).
    from scratchpress.documents.actions import TARGET_LINES, target

    longest_wrapped = len("10 + the level the evader added")  # two lines in the cell
    everything = {"command": 2, "stealth": 1, "wrestling": 1, "healing": 1, "toughness": 2}
    for rules in RULESETS.values():
        for action in character_actions({**everything, **PROBES[0]}, rules):
            fits = len(target(action)) <= longest_wrapped or action.target in TARGET_LINES
            assert fits, (rules.name, action.name, target(action))
