"""What `check` knows about the books' own numbers (issue 26, points 3 and 6): the two
published misprints, which ruleset a campaign's printed values fit best, how many printed
values a ruleset could compare, and the words each ruleset prints an ability under."""

from __future__ import annotations

import pytest

from scratchpress.rules import AbilityLine, CharacterStats, compute_character, get_ruleset
from scratchpress.rules.printed import (
    KNOWN_MISPRINTS,
    PrintedTally,
    ability_word,
    in_vocabulary,
    known_misprint,
    reproduced,
)


def stats(ruleset: str, **levels: int) -> CharacterStats:
    lines = tuple(AbilityLine(name, level) for name, level in levels.items())
    return compute_character("Someone", lines, get_ruleset(ruleset), check_budget=False)


# The Boss of the Basic Rules, as his block lists him.
BOSS = {"shooting": 2, "detection": 1, "command": 4, "toughness": 3}
BOSS_PRINTED = {"agility": 10, "intelligence": 11, "strength": 11, "stamina": 1}


# --------------------------------------------------------------------------------------------
# the two misprints


def test_the_boss_intelligence_eleven_is_a_known_misprint() -> None:
    misprint = known_misprint("The Boss", "intelligence", 11, 14)
    assert misprint is not None
    assert (misprint.printed, misprint.rules_give) == (11, 14)


def test_psikosys_defense_eleven_is_a_known_misprint() -> None:
    assert known_misprint("Psikosys", "defense", 11, 15) is not None


def test_a_misprint_is_known_whatever_the_spacing_and_case_of_the_name() -> None:
    assert known_misprint("the  boss", "intelligence", 11, 14) is not None


@pytest.mark.parametrize(
    ("name", "value", "printed", "ours"),
    [
        ("The Boss", "intelligence", 11, 12),  # a GM's own Boss, with other abilities
        ("The Boss", "intelligence", 12, 14),  # another number printed
        ("The Boss", "strength", 11, 10),  # the S2 strength is not a misprint
        ("Psikosys", "defense", 11, 13),
        ("Hester Greaves", "intelligence", 11, 14),  # the same numbers on someone else
    ],
)
def test_anything_else_is_not_a_misprint(name: str, value: str, printed: int, ours: int) -> None:
    assert known_misprint(name, value, printed, ours) is None


def test_the_misprints_are_what_the_rules_give_for_the_books_blocks() -> None:
    boss, psikosys = KNOWN_MISPRINTS
    assert stats("current", **BOSS).intelligence == boss.rules_give
    assert stats("early", **BOSS).intelligence == boss.rules_give
    assert stats("classic", flying=5, toughness=3).defense == psikosys.rules_give


# --------------------------------------------------------------------------------------------
# which ruleset fits


def test_the_boss_printed_values_fit_early_but_for_the_misprint() -> None:
    assert reproduced(stats("early", **BOSS), BOSS_PRINTED) == 3  # all but intelligence 11
    assert reproduced(stats("current", **BOSS), BOSS_PRINTED) == 2  # strength 10, not 11
    assert reproduced(stats("classic", **BOSS), BOSS_PRINTED) == 1  # only stamina computed


def _tally(ruleset: str, printed: dict[str, int], **levels: int) -> PrintedTally:
    tally = PrintedTally(ruleset)
    tally.count(printed, {name: stats(name, **levels) for name in ("current", "early", "classic")})
    return tally


def test_strengths_that_fit_the_older_formula_name_the_early_rules() -> None:
    tally = _tally("current", BOSS_PRINTED, **BOSS)
    assert tally.better_fit() == "early"
    note = tally.better_fit_note()
    assert note is not None
    assert "fit the early rules better" in note
    assert "3 of the 4 printed character values, the current rules 2" in note
    assert "--rules early" in note


def test_no_hint_when_the_chosen_ruleset_fits_as_well_as_any() -> None:
    assert _tally("early", BOSS_PRINTED, **BOSS).better_fit_note() is None
    # Chokestar's printed values are the same under current and early: a tie keeps the choice.
    chokestar = {"agility": 13, "intelligence": 10, "strength": 12, "stamina": 1}
    tally = _tally("current", chokestar, wrestling=2, stealth=3, toughness=3)
    assert tally.reproduced == {"current": 4, "early": 4, "classic": 1}
    assert tally.better_fit() is None


def test_a_single_defense_block_checked_with_current_rules_points_to_classic() -> None:
    tally = _tally("current", {"defense": 20, "stamina": 3}, stealth=10, toughness=6)
    assert tally.better_fit() == "classic"


# --------------------------------------------------------------------------------------------
# how many were compared


def test_the_summary_says_how_few_values_a_ruleset_compared() -> None:
    tally = PrintedTally("classic", compared=6, uncompared=18)
    tally.not_computed |= {"strength", "agility", "intelligence"}
    assert tally.summary() == (
        "Only 6 of 24 printed values compared: the classic rules do not compute agility,"
        " intelligence or strength."
    )


def test_no_summary_when_every_printed_value_was_compared() -> None:
    assert PrintedTally("current", compared=4).summary() == ""


def test_a_value_name_is_written_as_words() -> None:
    tally = PrintedTally("classic", compared=1, uncompared=1, not_computed={"initiative_bonus"})
    assert tally.summary().endswith("do not compute initiative bonus.")


# --------------------------------------------------------------------------------------------
# each ruleset's own words


def test_classic_prints_stealth_as_the_older_stalking() -> None:
    assert ability_word("stealth", "classic") == "stalking"
    assert ability_word("detection", "classic") == "detection"


@pytest.mark.parametrize("ruleset", ["current", "early"])
def test_the_agility_rulesets_print_stealth(ruleset: str) -> None:
    assert ability_word("stealth", ruleset) == "stealth"


def test_rule_lines_and_warnings_take_the_rulesets_words() -> None:
    assert (
        in_vocabulary("initiative bonus 50 = 10 x stealth 5 + 10 x detection 0", "classic")
        == "initiative bonus 50 = 10 x stalking 5 + 10 x detection 0"
    )
    assert in_vocabulary("stealth 5 is above the maximum level 4", "current") == (
        "stealth 5 is above the maximum level 4"
    )
    assert in_vocabulary("stealthy", "classic") == "stealthy"  # whole words only
