"""documents/actions.py words what the rules say an action is: in English exactly as the
printables always have, and in another language with no English left over."""

from __future__ import annotations

import re

import pytest
from pseudo import PSEUDO, WORD

from scratchpress.documents import actions as words
from scratchpress.rules.actions import Action, character_actions
from scratchpress.rules.rulesets import RULESETS
from scratchpress.wording import speaking

# A character with a reason for every action and every variant of its wording.
EVERYTHING = {
    "quickness": 2,
    "stealth": 1,
    "detection": 1,
    "command": 2,
    "wrestling": 1,
    "fighting": 1,
    "knockout": 2,
    "shooting": 1,
    "blasting": 1,
    "healing": 1,
    "toughness": 2,
}


def _acts(rules: str, levels: dict[str, int] | None = None) -> dict[str, Action]:
    return {a.name: a for a in character_actions(levels or EVERYTHING, RULESETS[rules])}


def test_a_current_evade_with_quickness_two_reads_as_the_rule_book_has_it() -> None:
    evade = _acts("current", {"quickness": 2, "toughness": 2})["evade"]
    assert (words.name(evade), words.effect(evade)) == (
        "Evade",
        "agility and strength each gain a movement level (best 2) till your next turn"
        " or till you are held",
    )
    assert words.timing(evade) == "regular"
    assert (words.roll(evade), words.target(evade), words.range_(evade)) == ("", "", "")


def test_an_early_intimidate_is_gated_on_strength_and_frightens_once_per_battle() -> None:
    intimidate = _acts("early")["intimidate"]
    assert words.name(intimidate) == "Intimidate"
    assert words.roll(intimidate) == "command 2"
    assert words.target(intimidate) == "intelligence (only if its strength is not above yours)"
    assert words.effect(intimidate) == "target frightened to the end of its next turn"
    assert (words.range_(intimidate), words.timing(intimidate)) == ("long", "once per battle")
    assert words.limit(RULESETS["early"]) == "once per battle"
    assert words.limit(RULESETS["current"]) == "once per target"
    # The roster and the cards shorten the gate each their own way.
    assert words.roster_attack(intimidate) == "vs intelligence (if not stronger), long"
    assert words.card_damage(intimidate) == "–"


def test_a_classic_take_cover_speaks_of_the_one_defense() -> None:
    cover = _acts("classic")["take_cover"]
    assert (words.name(cover), words.timing(cover)) == ("Take cover", "bonus")
    assert words.effect(cover) == (
        "before a long-range attack: -2 to that roll, +2 defense till your next turn"
    )
    current = _acts("current")["take_cover"]
    assert words.effect(current) == (
        "behind real cover: +2 agility, -2 to all your rolls; no evading, close attacks,"
        " distract, surprise or intimidate"
    )


def test_damage_reads_as_the_sheet_roster_and_cards_print_it() -> None:
    acts = _acts("current")
    knockout, fighting, blasting = acts["knockout"], acts["fighting"], acts["blasting"]
    assert (words.damage(knockout), words.auto_damage(knockout)) == (
        "4 (2 injured)",
        "5 (3 injured)",
    )
    assert words.damage_parts(knockout.damage) == ("4", "2 injured")
    assert words.damage_parts(None) == ("—", "")
    assert (words.damage(fighting), words.auto_damage(fighting)) == ("1 + 1", "2 each")
    assert words.roster_attack(knockout) == (
        "vs agility, close, 4 damage (2 injured), 5 on a 20 (3 injured)"
    )
    assert words.roster_attack(blasting) == "vs agility, long, 1 damage each, 2 each on a 20"
    assert words.card_damage(knockout) == "4 (2 inj.)"
    assert words.card_damage(acts["wrestling_hold"]) == "1 + delay"
    assert words.card_damage(_acts("early")["wrestling_hold"]) == "atk + hold"
    assert words.card_damage(acts["surprise"]) == "panic"


def test_targets_with_a_number_and_the_sheets_two_lines() -> None:
    acts = _acts("current")
    assert words.target(acts["heal"]) == "difficulty 10"
    assert words.target(_acts("early")["catch"]) == "10 + the level the evader added"
    assert words.target_lines(acts["intimidate"]) == ("intelligence", "or strength (higher)")
    assert words.target_lines(acts["evade"]) == ("—", "")
    assert words.roll_label(acts["wrestling_hold"]) == "d20 + wrestling 1 against strength"
    assert words.roll_label(acts["throw_object"]) == "d20 against agility"


def test_the_rulesets_notes_are_worded_and_the_whole_text_has_none() -> None:
    assert words.source_note(RULESETS["current"]) == ""
    assert words.source_note(RULESETS["early"]) == "a fragment: gaps from current"
    assert words.source_note(RULESETS["classic"]) == "early's actions, vs defense"


def test_every_effect_and_target_key_the_rules_make_has_its_sentence() -> None:
    # A key without a sentence would print as the key itself.
    levels = ({**EVERYTHING}, {"swimming": 2, "toughness": 2})
    for rules in RULESETS.values():
        for level in levels:
            for action in character_actions(level, rules):
                assert action.name in words.NAMES, action.name
                assert action.effect in words.EFFECTS, action.effect
                if action.target not in words.TARGETS:
                    assert action.target in {"", *words.terms.DERIVED}, action.target


def _worded(action: Action, rules: str) -> list[str]:
    """Everything documents/actions.py words about one action."""
    return [
        words.name(action),
        words.roll(action),
        words.roll_label(action),
        words.target(action),
        *words.target_lines(action),
        words.roster_target(action),
        words.range_(action),
        words.timing(action),
        words.damage(action),
        words.auto_damage(action),
        *words.damage_parts(action.damage),
        words.effect(action),
        words.card_damage(action),
        words.roster_attack(action) if action.bonus is not None else "",
        words.limit(RULESETS[rules]),
        words.source_note(RULESETS[rules]),
    ]


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_a_pseudo_language_leaves_no_english_word_in_any_action(rules: str) -> None:
    with speaking(PSEUDO):
        texts = [
            text
            for levels in (EVERYTHING, {"swimming": 2, "toughness": 2})
            for action in character_actions(levels, RULESETS[rules])
            for text in _worded(action, rules)
        ]
    english = {word for text in texts for word in WORD.findall(text)}
    assert not english, sorted(english)
    # And it did word them: every text with letters is in the accented look-alikes.
    assert any(re.search(r"[^\x00-\x7f]", text) for text in texts)
