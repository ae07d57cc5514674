"""Properties that hold for every character, on random ability maps (RULES.md §2, §3, §10)."""

from __future__ import annotations

import re
from fractions import Fraction
from html import unescape
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scratchpress.rules import (
    CHARACTER_ABILITIES,
    AbilityLine,
    carrying_capacity,
    compute_character,
    get_ruleset,
)
from scratchpress.rules.rulesets import (
    agility_a1,
    defense_d1,
    intelligence_i1,
    strength_s2,
    strength_s4,
)

RULESETS = ("current", "early", "classic")

# Levels 1..10 for a random subset of the character abilities.
ability_maps = st.dictionaries(
    st.sampled_from(CHARACTER_ABILITIES), st.integers(min_value=1, max_value=10), max_size=8
)
rulesets = st.sampled_from(RULESETS)


def compute(levels: dict[str, int], ruleset: str):  # type: ignore[no-untyped-def]
    lines = tuple(AbilityLine(name, value) for name, value in levels.items())
    return compute_character("Random", lines, get_ruleset(ruleset))


@given(ability_maps, rulesets)
def test_stamina_is_half_the_hit_points(levels: dict[str, int], ruleset: str) -> None:
    stats = compute(levels, ruleset)
    assert stats.hit_points == levels.get("toughness", 0)
    assert stats.stamina == stats.hit_points // 2


@given(ability_maps, st.sampled_from(("current", "early")))
def test_agility_and_intelligence_are_at_least_ten(levels: dict[str, int], ruleset: str) -> None:
    stats = compute(levels, ruleset)
    assert stats.agility is not None and stats.agility >= 10
    assert stats.intelligence is not None and stats.intelligence >= 10
    assert stats.defense is None


@given(ability_maps)
def test_agility_and_intelligence_are_ten_plus_their_best_ability(levels: dict[str, int]) -> None:
    stats = compute(levels, "current")
    best_agility = max(levels.get(a, 0) for a in ("stealth", "acrobatics", "quickness", "flying"))
    best_mind = max(levels.get(a, 0) for a in ("detection", "command", "healing", "craftsmanship"))
    assert stats.agility == 10 + best_agility
    assert stats.intelligence == 10 + best_mind


@given(ability_maps, st.sampled_from(CHARACTER_ABILITIES))
def test_adding_a_level_never_lowers_agility_or_intelligence(
    levels: dict[str, int], ability: str
) -> None:
    more = {**levels, ability: levels.get(ability, 0) + 1}
    assert agility_a1(more).value >= agility_a1(levels).value
    assert intelligence_i1(more).value >= intelligence_i1(levels).value


@given(ability_maps, st.sampled_from(CHARACTER_ABILITIES))
def test_adding_a_level_never_lowers_s2_strength_or_d1_defense(
    levels: dict[str, int], ability: str
) -> None:
    more = {**levels, ability: levels.get(ability, 0) + 1}
    assert strength_s2(more).value >= strength_s2(levels).value
    assert defense_d1(more).value >= defense_d1(levels).value


def test_s4_strength_is_not_monotonic_toughness_eight_then_wrestling_one() -> None:
    """RULES.md I-2: one level of wrestling replaces 7 + toughness."""
    assert strength_s4({"toughness": 8}).value == 15
    assert strength_s4({"toughness": 8, "wrestling": 1}).value == 11
    assert strength_s4({"toughness": 8, "swimming": 1}).value == 11
    assert compute({"toughness": 8}, "current").strength == 15
    assert compute({"toughness": 8, "wrestling": 1}, "current").strength == 11


@given(ability_maps)
def test_s4_is_ten_plus_wrestling_or_swimming_else_seven_plus_toughness(
    levels: dict[str, int],
) -> None:
    grip = max(levels.get("wrestling", 0), levels.get("swimming", 0))
    expected = 10 + grip if grip else 7 + levels.get("toughness", 0)
    assert compute(levels, "current").strength == expected


@given(ability_maps)
def test_s2_is_the_greater_of_eight_plus_toughness_and_ten_plus_wrestling(
    levels: dict[str, int],
) -> None:
    expected = max(8 + levels.get("toughness", 0), 10 + levels.get("wrestling", 0))
    assert compute(levels, "early").strength == expected


@given(st.integers(min_value=0, max_value=60))
def test_carry_kg_is_two_five_and_ten_per_strength(strength: int) -> None:
    carry = carrying_capacity(strength)
    assert (carry.pack_kg, carry.carry_kg, carry.lift_kg) == (
        2 * strength,
        5 * strength,
        10 * strength,
    )


@given(st.integers(min_value=0, max_value=60))
def test_carry_lbs_are_the_pounds_per_point_the_rule_states(strength: int) -> None:
    """'5 kg (11 lbs)' per point: strength 13 carries 143 lb, not the book table's 145."""
    carry = carrying_capacity(strength)
    assert carry.carry_lbs == 11 * strength
    assert carry.lift_lbs == 22 * strength
    # pack: 4.4 lb per point, to the nearest pound
    assert abs(carry.pack_lbs - Fraction(44, 10) * strength) <= Fraction(1, 2)


@given(st.integers(min_value=0, max_value=59))
def test_carry_never_shrinks_with_strength(strength: int) -> None:
    weaker, stronger = carrying_capacity(strength), carrying_capacity(strength + 1)
    assert stronger.pack_lbs > weaker.pack_lbs
    assert stronger.carry_lbs >= weaker.carry_lbs
    assert stronger.lift_lbs >= weaker.lift_lbs


@given(ability_maps, rulesets)
def test_cp_total_is_the_sum_of_levels(levels: dict[str, int], ruleset: str) -> None:
    assert compute(levels, ruleset).cp == sum(levels.values())


@given(ability_maps)
def test_d1_defense_is_at_least_ten_plus_stamina(levels: dict[str, int]) -> None:
    stats = compute(levels, "classic")
    assert stats.defense is not None
    assert stats.defense >= 10 + stats.stamina
    assert (stats.agility, stats.intelligence, stats.strength) == (None, None, None)


@given(ability_maps)
def test_d1_never_counts_swimming(levels: dict[str, int]) -> None:
    wet = {**levels, "swimming": levels.get("swimming", 0) + 5}
    assert defense_d1(wet).value == defense_d1(levels).value


@given(ability_maps, rulesets)
def test_over_budget_warning_appears_exactly_when_cp_exceeds_ten(
    levels: dict[str, int], ruleset: str
) -> None:
    stats = compute(levels, ruleset)
    over = [w for w in stats.warnings if "over the budget" in w]
    assert bool(over) == (sum(levels.values()) > 10) == stats.over_budget


@given(ability_maps, rulesets)
def test_explain_states_the_value_it_explains(levels: dict[str, int], ruleset: str) -> None:
    stats = compute(levels, ruleset)
    for name, rule in stats.explain.items():
        value = stats.value(name)
        assert value is not None
        label = name.replace("_", " ")
        assert rule.startswith(f"{label} {value} = "), rule


@pytest.mark.parametrize("ruleset", RULESETS)
def test_unknown_abilities_are_refused_by_the_rules(ruleset: str) -> None:
    with pytest.raises(ValueError, match="not character abilities: lasers"):
        compute({"lasers": 2}, ruleset)


# ------------------------------------------------------------------ where the texts are thin
# An older text that is a fragment says so on the sheet's rules line (issue 26), rather
# than print today's rules under its name without a word.


def _sheet_footers(folder: Path, rules: str) -> list[str]:
    from scratchpress.build import collect_documents
    from scratchpress.definitions.campaign import load_campaign
    from scratchpress.definitions.models import BuildOptions
    from scratchpress.render.templating import render_html
    from scratchpress.statblocks import compute_campaign

    (folder / "scratchpress.toml").write_text(f'rules = "{rules}"\n', encoding="utf-8")
    (folder / "party.yaml").write_text(
        "characters:\n  - name: Ann\n    abilities: {stealth: 2, quickness: 1, toughness: 2}\n",
        encoding="utf-8",
    )
    campaign = load_campaign([folder])
    documents = collect_documents(compute_campaign(campaign), campaign, BuildOptions(), None)
    sheets = next(d for d in documents if d.kind == "sheets")
    html = render_html(sheets.template, sheets.context)
    return [unescape(f) for f in re.findall(r'<span class="foot-right">([^<]*)</span>', html)]


@pytest.mark.parametrize(
    ("ruleset", "rules_line"),
    [
        ("current", "Scratch · current rules"),
        ("early", "Scratch · early rules (a fragment: gaps from current)"),
        ("classic", "Scratch · classic rules (early's actions, vs defense)"),
    ],
)
def test_the_sheets_rules_line_says_where_the_older_texts_are_thin(
    tmp_path: Path, ruleset: str, rules_line: str
) -> None:
    front = _sheet_footers(tmp_path, ruleset)[0]
    assert front == rules_line


def test_only_the_whole_text_has_no_source_note() -> None:
    assert get_ruleset("current").source_note == ""
    assert all(get_ruleset(name).source_note for name in ("early", "classic"))
