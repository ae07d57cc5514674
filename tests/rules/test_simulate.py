"""The year simulator: it plays what the cards say, in the rules' order, reproducibly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scratchpress.cli.app import app
from scratchpress.content.loader import resilience_content
from scratchpress.rules.community import escalation, plan_project, yearly_attack
from scratchpress.rules.effects import (
    Effect,
    Gamble,
    parse_effect,
    parse_temporary,
    project_modifier,
)
from scratchpress.rules.simulate import (
    NO_BONUS,
    POLICIES,
    _candidates,
    _outlook,
    _pick,
    _projects_expected,
    certain_hits,
    chance,
    dominated_choices,
    evaluation,
    expected_change,
    resolve_project,
    simulate,
    table_for,
)

START = {"economy": 10, "environment": 10, "equity": 10}
DECK = resilience_content(None).events
runner = CliRunner()


# ------------------------------------------------------------------------------------------
# Reading the cards


def test_a_challenge_outcome_reads_as_its_effect_after_the_story() -> None:
    effect = parse_effect("Both stokers pull through and teach the repair crew: attack bonus -2.")
    assert (effect.attack_bonus, effect.damage, dict(effect.now)) == (-2, 0, {})
    both = parse_effect("-1 equity now; damage -1.")
    assert (dict(both.now), both.damage) == ({"equity": -1}, -1)


def test_a_choice_that_cancels_the_attack() -> None:
    effect = parse_effect(
        "-1 environment now (fish and irrigation lost); the attack fails automatically."
    )
    assert effect.attack_fails and dict(effect.now) == {"environment": -1}


def test_gambles_read_both_branches() -> None:
    high_low = parse_effect("Roll d20: on 1-10, -1 economy now; on 11-20, -1 equity now.")
    assert high_low.gamble == Gamble(
        11, parse_effect("-1 equity now"), parse_effect("-1 economy now")
    )
    ability = parse_effect(
        "A PC rolls command (12): success, attack bonus -2; failure, attack bonus +1."
    )
    assert ability.gamble is not None
    assert (ability.gamble.ability, ability.gamble.target) == ("command", 12)
    assert (ability.gamble.won.attack_bonus, ability.gamble.lost.attack_bonus) == (-2, 1)


def test_words_that_act_in_the_encounter_are_kept_apart() -> None:
    effect = parse_effect("Attack bonus -2; a cheated debtor joins the encounter's opponents.")
    assert effect.attack_bonus == -2
    assert effect.table_only == ("a cheated debtor joins the encounter's opponents",)


def test_the_temporary_modifier_changes_the_projects_it_names() -> None:
    market = parse_temporary(
        "No market this year: projects that develop economy roll at -2; projects that develop"
        " equity roll at +1."
    )
    assert project_modifier(market, {"economy": 3}, {}) == -2
    assert project_modifier(market, {"equity": 2}, {"economy": 1}) == 1
    assert project_modifier(market, {"environment": 2}, {}) == 0
    boil = parse_temporary(
        "Boil everything: projects that develop environment roll at +1; every other project at"
        " -1 (fuel goes to boiling)."
    )
    assert project_modifier(boil, {"environment": 1}, {}) == 1
    assert project_modifier(boil, {"economy": 1}, {}) == -1


@pytest.mark.parametrize(
    ("event", "develops", "sacrifices", "modifier"),
    [
        # "every project rolls at -1 ..., and -2 if it develops economy": -2, not -3
        ("grain-blight", {"economy": 2}, {}, -2),
        ("grain-blight", {"equity": 2}, {}, -1),
        ("kiln-collapse", {"equity": 1}, {}, -2),
        ("one-poisoned-well", {"environment": 1}, {}, -2),
        ("the-old-map", {"equity": 3}, {}, -2),
        # "every project rolls at +1 ..., but projects that develop economy at -2"
        ("copper-crash", {"economy": 1}, {}, -2),
        ("copper-crash", {"equity": 1}, {}, 1),
        # "projects that develop environment and sacrifice economy at +2"
        ("salt-in-the-furrows", {"environment": 2}, {"economy": 1}, 2),
        ("salt-in-the-furrows", {"environment": 2}, {}, 0),
        # "projects that sacrifice equity roll at +2"
        ("whispers-about-newcomers", {"economy": 2}, {"equity": 1}, 2),
        # "projects that develop economy roll at -2 unless they also develop equity"
        ("grit-in-the-bearings", {"economy": 2, "equity": 1}, {}, 0),
        ("grit-in-the-bearings", {"economy": 2}, {}, -2),
        # A project that develops two defenses is named by both of the card's modifiers.
        ("market-fire", {"economy": 1, "equity": 1}, {}, -1),
    ],
)
def test_each_card_modifies_the_projects_it_names_as_it_says(
    event: str, develops: dict[str, int], sacrifices: dict[str, int], modifier: int
) -> None:
    [card] = [e for e in DECK if e.id == event]
    assert project_modifier(parse_temporary(card.temporary), develops, sacrifices) == modifier


def test_only_each_players_first_project_takes_a_first_roll_modifier() -> None:
    [twilight] = [e for e in DECK if e.id == "twilight-summer"]
    gloom = parse_temporary(twilight.temporary)
    assert project_modifier(gloom, {"economy": 1}, {}, first_roll=True) == -2
    assert project_modifier(gloom, {"economy": 1}, {}, first_roll=False) == 0


def test_every_card_of_the_deck_reads_without_a_gap() -> None:
    # Every clause of every outcome and choice is either an effect on the community or
    # something that happens in the encounter; none may silently read as nothing.
    for event in DECK:
        for text in [event.challenge.success, event.challenge.failure] + [
            c.consequence for c in event.decision.choices
        ]:
            effect = parse_effect(text)
            for clause in effect.table_only:
                table = ("encounter", "enemies", "project")
                assert any(word in clause for word in table), (event.id, clause)


# ------------------------------------------------------------------------------------------
# The rules' worked example


def test_the_worked_example_year_nets_what_the_book_says() -> None:
    # Four players, large projects. Cynthia +5 economy -4 environment (difficulty -3,
    # automatic); David +5 environment (17; rolls 14, fails); Adam +2 environment +1
    # economy -1 equity (8; rolls 8, succeeds); Brian +4 equity -2 economy -1 environment
    # (0, automatic). The evaluation gives +1 equity and +1 environment. The year nets
    # economy +4, environment -2, equity +4.
    state = {"economy": 12, "environment": 12, "equity": 12}
    year = [
        (plan_project(4, {"economy": 5}, {"environment": 4}), None, -3),
        (plan_project(4, {"environment": 5}, {}), 14, 17),
        (plan_project(4, {"environment": 2, "economy": 1}, {"equity": 1}), 8, 8),
        (plan_project(4, {"equity": 4}, {"economy": 2, "environment": 1}), None, 0),
    ]
    for plan, roll, difficulty in year:
        assert plan.difficulty == difficulty
        assert plan.automatic == (roll is None)
        state = resolve_project(state, plan, roll)
    state = {d: v + {"equity": 1, "environment": 1}.get(d, 0) for d, v in state.items()}
    assert state == {"economy": 16, "environment": 10, "equity": 16}


# ------------------------------------------------------------------------------------------
# Whole runs


def test_the_same_seed_gives_the_same_numbers() -> None:
    one = simulate(DECK, START, 4, 5, 60, "weir")
    two = simulate(DECK, START, 4, 5, 60, "weir")
    other = simulate(DECK, START, 4, 5, 60, "dam")
    assert one.to_json() == two.to_json()
    assert one.to_json()["by_year"] != other.to_json()["by_year"]


def _total(result: object, year: int) -> float:
    by_year = result.to_json()["by_year"]  # type: ignore[attr-defined]
    return sum(by_year[year - 1][d]["mean"] for d in START)


def test_a_higher_defense_is_worth_more_once_the_years_projects_are_counted() -> None:
    # The year's projects are followed one after the other from the state the ones before
    # left: the big gain a project makes at economy 2 is not counted four times over.
    for policy in ("balanced", "career", "no-sacrifice"):
        table = table_for(policy)
        low = _outlook(table, 4, (2, 10, 10), (), NO_BONUS, 0)
        high = _outlook(table, 4, (7, 10, 10), (), NO_BONUS, 0)
        assert high > low, policy


def test_projects_may_develop_and_sacrifice_two_defenses() -> None:
    plans = _candidates(4)
    assert any(len(p.develop) == 2 for p in plans)
    assert any(len(p.sacrifice) == 2 for p in plans)
    # The worked example's own projects are among them, priced as the book prices them.
    adam = [p for p in plans if p.develop == {"environment": 2, "economy": 1}]
    assert any(p.sacrifice == {"equity": 1} and p.difficulty == 8 for p in adam)


def test_the_tables_bring_the_projects_their_policy_describes() -> None:
    state = (10, 10, 10)
    no_sacrifice, _ = _pick(table_for("no-sacrifice"), 4, state, (), NO_BONUS, 0)
    assert not any(no_sacrifice.sacrifice.values())
    _plan, p = _pick(table_for("timid"), 4, state, (), NO_BONUS, 0)
    assert p >= 0.7
    # Career-driven: the farmer (environment) then the business owner (economy).
    career = table_for("career", (1, 0))
    assert _pick(career, 4, state, (), NO_BONUS, 0)[0].develop.get("environment")
    assert _pick(career, 4, state, (), NO_BONUS, 1)[0].develop.get("economy")


def test_the_gms_evaluation_judges_the_year_not_the_policy() -> None:
    state = {"economy": 8, "environment": 12, "equity": 10}
    # Most projects came off: a year of workable ideas, 1 level to each of the two weakest.
    assert evaluation(state, 4, 2) == {"economy": 1, "equity": 1}
    # Most failed, or none was tried: 1 level to the weakest.
    assert evaluation(state, 4, 1) == {"economy": 1}
    assert evaluation(state, 0, 0) == {"economy": 1}


def test_ruin_and_15_15_15_are_reported_by_year_and_a_run_may_stop_at_15() -> None:
    result = simulate(DECK, START, 4, 8, 120, 4, "balanced")
    ruined = [y.ruined for y in result.by_year]
    won = [y.won for y in result.by_year]
    assert ruined == sorted(ruined) and won == sorted(won)  # shares by each year's end
    assert won[-1] == result.p_won and ruined[-1] == result.p_any_zero
    stopped = simulate(DECK, START, 4, 8, 120, 4, "balanced", stop_at_win=True)
    assert stopped.p_won == pytest.approx(result.p_won, abs=0.08)
    # A run that reached 15/15/15 ends there, so the later means stop growing.
    last = stopped.by_year[-1].defenses["economy"].mean
    assert last < result.by_year[-1].defenses["economy"].mean
    assert stopped.to_json()["stop_at_win"] is True


def test_a_story_first_table_takes_every_answer_some_of_the_time() -> None:
    result = simulate(DECK, START, 4, 10, 300, 9, "story")
    shares = [share for event in result.events if event.drawn >= 30 for _, share in event.choices]
    assert shares and all(share > 0 for share in shares)


def test_the_policies_differ_in_the_expected_direction() -> None:
    passive = simulate(DECK, START, 4, 10, 200, 3, "passive")
    balanced = simulate(DECK, START, 4, 10, 200, 3, "balanced")
    greedy = simulate(DECK, START, 4, 10, 200, 3, "greedy")
    assert _total(passive, 10) < sum(START.values()) < _total(balanced, 10)
    assert passive.p_any_below_minimum > balanced.p_any_below_minimum
    assert greedy.p_any_zero > balanced.p_any_zero
    # Greedy buys economy with the other two: ahead in the first year, failed soon after.
    first_year_economy = greedy.by_year[0].defenses["economy"].mean
    assert first_year_economy > balanced.by_year[0].defenses["economy"].mean


@dataclass(frozen=True)
class _Challenge:
    ability: str = "command"
    difficulty: int = 10
    success: str = "It goes well: no cost."
    failure: str = "It goes badly: no cost."


@dataclass(frozen=True)
class _Choice:
    consequence: str
    choice: str = "Do it"


@dataclass(frozen=True)
class _Decision:
    choices: tuple[_Choice, ...]


@dataclass(frozen=True)
class _Card:
    id: str
    title: str
    attacks: str = "economy"
    attack_bonus: int = 5
    damage: int = 2
    temporary: str = "Nothing changes for projects."
    challenge: _Challenge = field(default_factory=_Challenge)
    decision: _Decision = field(default_factory=lambda: _Decision((_Choice("No cost."),)))


def test_an_events_expected_damage_is_its_chance_to_hit_times_its_damage() -> None:
    # d20 + 5 against economy 10 hits on 5 or more: 16 in 20; it takes 2 levels.
    assert chance(10, 5) == 0.8
    result = simulate([_Card("storm", "Storm")], START, 4, 1, 4000, 11, "passive")
    assert result.events[0].expected_damage == pytest.approx(1.6, abs=0.06)


def test_the_simulator_shows_which_choices_are_ever_taken() -> None:
    # A choice that costs a level now to save nothing is never worth it: a balanced
    # community never takes it, and the report says so.
    trap = _Card(
        "trap",
        "Trap",
        decision=_Decision(
            (_Choice("No cost now.", "Wait"), _Choice("-1 economy now; attack bonus -1.", "Pay"))
        ),
    )
    result = simulate([trap], START, 4, 1, 200, 2, "balanced")
    assert result.events[0].choices == (("Wait", 1.0), ("Pay", 0.0))


def test_a_windfall_has_negative_expected_damage() -> None:
    windfall = _Card(
        "trade-fair",
        "Trade Fair",
        decision=_Decision((_Choice("+2 economy now; the attack fails automatically."),)),
    )
    result = simulate([windfall], START, 4, 1, 50, 1, "passive")
    assert result.events[0].expected_damage == -2


@dataclass(frozen=True)
class _Mark:
    id: str


@dataclass(frozen=True)
class _Marking(_Choice):
    leaves: _Mark | None = None


@dataclass(frozen=True)
class _Memory:
    mark: str
    attack_bonus: int


@dataclass(frozen=True)
class _Remembering(_Card):
    remembers: tuple[_Memory, ...] = ()


def test_a_mark_an_answer_leaves_changes_the_attack_of_the_card_that_reads_it() -> None:
    """Year 1 a debt is taken ("Owes the guild"); the guild's card, drawn in year 2, hits
    harder for it. In a two-card deck every run meets both cards, one each year."""
    debt = _Card(
        "debt",
        "Debt",
        attack_bonus=0,
        damage=1,
        decision=_Decision((_Marking("No cost.", "Borrow", _Mark("owes-the-guild")),)),
    )
    collector = _Remembering(
        "collector", "Collector", attack_bonus=0, damage=3,
        remembers=(_Memory("owes-the-guild", 4),),
    )  # fmt: skip
    forgotten = _Remembering(
        "collector", "Collector", attack_bonus=0, damage=3, remembers=(_Memory("other", 4),)
    )
    runs = 4000
    remembered = simulate([debt, collector], START, 4, 2, runs, 3, "passive")
    not_read = simulate([debt, forgotten], START, 4, 2, runs, 3, "passive")
    by_id = {e.id: e for e in remembered.events}
    # Drawn second in half the runs, it then hits on 4 more faces of the d20 (a fifth more
    # often, for 3-4 levels): about +0.3 levels lost on average, over every draw of it.
    plain = {e.id: e for e in not_read.events}["collector"]
    gained = by_id["collector"].expected_damage - plain.expected_damage
    assert 0.2 < gained < 0.45


def test_a_failed_community_ends_its_game() -> None:
    # d20 + 12 always reaches economy 5, and 8 levels take it to 0 in the first year.
    ruin = _Card("ruin", "Ruin", attack_bonus=12, damage=8)
    weak = {"economy": 5, "environment": 5, "equity": 5}
    result = simulate([ruin], weak, 4, 6, 20, 5, "balanced")
    assert result.p_any_zero == 1.0
    by_year = result.to_json()["by_year"]
    # The years after are still reported, as the game ended: no project, no GM's bonus.
    assert [y["year"] for y in by_year] == [1, 2, 3, 4, 5, 6]
    assert {y["economy"]["mean"] for y in by_year} == {0}
    assert by_year[-1]["environment"] == by_year[0]["environment"]


# ------------------------------------------------------------------------------------------
# The command


def test_simulate_prints_reproducible_json(tmp_path: Path) -> None:
    args = ["resilience", "simulate", "--years", "3", "--runs", "40", "--seed", "7", "--json"]
    first = runner.invoke(app, args)
    again = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    data = json.loads(first.stdout)
    assert {"years", "runs", "policy", "seed", "by_year", "p_any_below_minimum", "events"} <= set(
        data
    )
    assert (data["years"], data["runs"], data["policy"], data["seed"]) == (3, 40, "balanced", 7)
    assert [y["year"] for y in data["by_year"]] == [1, 2, 3]
    assert set(data["by_year"][0]["economy"]) == {"mean", "p10", "p90"}
    assert {e["id"] for e in data["events"]} == {e.id for e in DECK}
    drawn = [e for e in data["events"] if e["drawn"]]
    assert all(sum(c["taken"] for c in e["choices"]) == pytest.approx(1, abs=0.01) for e in drawn)


def test_simulate_draws_a_png(tmp_path: Path) -> None:
    png = tmp_path / "years.png"
    result = runner.invoke(
        app, ["resilience", "simulate", "--years", "4", "--runs", "30", "--png", str(png)]
    )
    assert result.exit_code == 0, result.output
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    from PIL import Image

    with Image.open(png) as image:
        assert image.size == (1200, 700)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--years", "0"], "--years must be 1 to 100, not 0"),
        (["--runs", "0"], "--runs must be 1 to 100000, not 0"),
    ],
)
def test_simulate_refuses_bad_counts(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["resilience", "simulate", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


# ------------------------------------------------------------------------------------------
# Harder years


def test_every_year_after_the_first_is_harder() -> None:
    # Year 1 plays the card as printed; each later year adds 1 to the attack bonus, and
    # every second year 1 to the damage: year 5 adds +4 and +2.
    assert (escalation(1).attack_bonus, escalation(1).damage) == (0, 0)
    assert (escalation(2).attack_bonus, escalation(2).damage) == (1, 0)
    assert (escalation(3).attack_bonus, escalation(3).damage) == (2, 1)
    assert (escalation(5).attack_bonus, escalation(5).damage) == (4, 2)
    attack = yearly_attack(5, 5, 4)  # The Market Fire, drawn in year 4
    assert (attack.bonus, attack.damage, attack.why) == (8, 6, "card +5, year 4 +3; damage 5 +1")
    assert yearly_attack(5, 5, 1).why == ""
    with pytest.raises(ValueError, match="years count from 1"):
        escalation(0)


def test_the_rules_card_states_the_harder_years_as_the_rules_play_them() -> None:
    from scratchpress.documents.deck import HOW_TO_PLAY

    years = dict(HOW_TO_PLAY["steps"])["Years"]
    five = escalation(5)
    assert f"year 5: +{five.attack_bonus} and +{five.damage}" in years
    assert "+1 to the bonus for every year after the first" in years
    assert escalation(2).attack_bonus == 1 and escalation(3).damage == 1  # "every second year"


def test_a_later_year_is_simulated_as_the_harder_year_it_is() -> None:
    card = _Card("siege", "Siege", attack_bonus=0, damage=4)
    # Against economy 20, d20 + 0 hits only on a natural 20 in year 1; in year 11 the
    # bonus is +10 and the damage 9, so it hits on 10 or more, half the time.
    start = {"economy": 20, "environment": 20, "equity": 20}
    early = simulate([card], start, 4, 1, 400, 1, "passive")
    late = simulate([card], start, 4, 1, 400, 1, "passive", first_year=11)
    assert early.events[0].expected_damage == pytest.approx(0.05 * 4, abs=0.15)
    assert late.events[0].expected_damage == pytest.approx(0.55 * 9, abs=0.6)
    assert [y.year for y in late.by_year] == [11]
    assert late.to_json()["first_year"] == 11


def test_draw_prints_the_years_attack(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["resilience", "draw", "--seed", "2", "--first-year", "4", "--years", "1"]
    )
    assert result.exit_code == 0, result.output
    assert ", year 4 +3; damage " in " ".join(result.stdout.split())
    data = json.loads(
        runner.invoke(
            app, ["resilience", "draw", "--seed", "2", "--first-year", "4", "--json"]
        ).stdout
    )
    event = data["events"][0]
    assert event["year_attack_bonus"] == event["attack_bonus"] + 3
    assert event["year_damage"] == event["damage"] + 1


# ------------------------------------------------------------------------------------------
# The built-in deck, as tuned (docs/resilience.md, "Tuning the deck")


@pytest.fixture(scope="module")
def played() -> dict[str, object]:
    return {policy: simulate(DECK, START, 4, 10, 150, 1, policy) for policy in POLICIES}


def test_every_choice_on_the_deck_is_worth_taking_by_expected_value() -> None:
    # A choice that another of its card beats on every defense, in expectation, at
    # 10/10/10, 15/15/15 or 20/20/20 is a trap printed on a card, whoever plays it.
    assert dominated_choices(DECK) == []


def test_a_trap_is_found_by_expected_value() -> None:
    # Paying a level now to lower an attack that is already certain to miss buys nothing:
    # "Wait" beats "Pay" on every defense.
    @dataclass(frozen=True)
    class Mild(_Card):
        attack_bonus: int = -20

    trap = Mild(
        "trap",
        "Trap",
        decision=_Decision(
            (_Choice("No cost now.", "Wait"), _Choice("-1 economy now; attack bonus -1.", "Pay"))
        ),
    )
    found = dominated_choices([trap])
    assert {(d.choice, d.by) for d in found} == {("Pay", "Wait")}


def test_the_defense_matters_the_attacks_can_miss() -> None:
    # At defense 10, an attack that cannot miss makes "attack bonus -2" worth nothing: at
    # most 5 such threats in year 1, at most 15 by year 5 (the attacks grow every year).
    assert len(certain_hits(DECK, 10, 1)) <= 5
    assert len(certain_hits(DECK, 10, 5)) <= 15
    assert len(certain_hits(DECK, 15, 1)) == 0


def test_every_windfall_leaves_a_well_played_community_ahead(played: dict[str, Any]) -> None:
    windfalls = {e.id for e in DECK if e.windfall}
    assert len(windfalls) >= 4
    balanced = {e.id: e.expected_damage for e in played["balanced"].events}
    assert all(balanced[w] < 0 for w in windfalls), {w: balanced[w] for w in windfalls}
    threats = [balanced[e.id] for e in DECK if not e.windfall]
    assert min(threats) > 0  # and every other card costs something


def test_passive_declines_balanced_grows_and_greedy_can_fail(played: dict[str, Any]) -> None:
    start = sum(START.values())
    assert _total(played["passive"], 10) < start
    assert _total(played["balanced"], 10) > start + 10
    assert 0 < played["balanced"].p_any_zero < played["greedy"].p_any_zero < 1
    assert played["passive"].p_any_zero > played["greedy"].p_any_zero


def test_challenge_outcomes_do_more_than_change_the_attack_bonus() -> None:
    def only_bonus(text: str) -> bool:
        effect = parse_effect(text)
        return effect == Effect(attack_bonus=effect.attack_bonus) and effect.attack_bonus != 0

    plain = [e.id for e in DECK if only_bonus(e.challenge.success)]
    assert len(plain) <= len(DECK) // 3, plain


def test_a_bonus_to_one_project_that_develops_a_defense_goes_to_such_a_project() -> None:
    """"+2 to one project that develops equity" helps an equity project only: the first
    one of the year takes it, and a table weighing its answers counts it on equity."""
    assert parse_effect("+2 to one project that develops equity").project_bonus_develops == (
        "equity"
    )
    card = _Card(
        "dance",
        "Dance",
        decision=_Decision((_Choice("+2 to one project that develops equity."),)),
    )
    economy, environment, equity = _projects_expected(4, (), (2, 2))
    plain = _projects_expected(4, (), NO_BONUS)
    assert economy == plain[0] and environment == plain[1] and equity > plain[2]
    change = expected_change(card, 0, START)
    assert change[2] > change[0] and change[2] > change[1]
