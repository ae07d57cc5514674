"""The rule book's tables and small rules, typed in as data.

RULES.md §3.1 health, §5 actions, §7 minions, §8 grid, §9 vehicles, §10 carrying, §14 projects.
"""

from __future__ import annotations

import pytest

from scratchpress.rules import (
    AbilityLine,
    Crew,
    carry_table,
    carrying_capacity,
    compute_character,
    compute_vehicle,
    get_ruleset,
    plan_project,
)
from scratchpress.rules.actions import Action, Damage, character_actions
from scratchpress.rules.community import project_size
from scratchpress.rules.grid import GridMove, grid_movement
from scratchpress.rules.health import health_bands
from scratchpress.rules.minions import MinionGroup, minion_problems
from scratchpress.rules.vehicles import RAM_DAMAGE, WEAPON_DAMAGE, ram_self_damage


def stats(levels: dict[str, int], ruleset: str = "current"):  # type: ignore[no-untyped-def]
    lines = tuple(AbilityLine(name, value) for name, value in levels.items())
    return compute_character("Test", lines, get_ruleset(ruleset))


# --------------------------------------------------------------------------------------------
# §10 carrying: the book's table, every cell

# strength: (pack kg, pack lbs, carry kg, carry lbs, lift kg, lift lbs)
BOOK_CARRY_TABLE: dict[int, tuple[int, int, int, int, int, int]] = {
    10: (20, 44, 50, 110, 100, 220),
    11: (22, 48, 55, 120, 110, 240),
    12: (24, 53, 60, 130, 120, 260),
    13: (26, 57, 65, 145, 130, 290),
    14: (28, 62, 70, 155, 140, 310),
    15: (30, 66, 75, 165, 150, 330),
    16: (32, 70, 80, 175, 160, 350),
    17: (34, 75, 85, 185, 170, 370),
    18: (36, 79, 90, 200, 180, 400),
    19: (38, 84, 95, 210, 190, 420),
    20: (40, 88, 100, 220, 200, 440),
}


def test_carry_table_matches_the_book_in_kg_and_its_pounds_per_point() -> None:
    """The kg and the packing pounds are the book's in every cell. Its carrying and lifting
    pounds are 11 and 22 lb a point rounded to 5 and 10 lb; ours are the stated rate
    itself, within that rounding of the book's figure (RULES.md §10)."""
    rows = carry_table()
    assert [r.strength for r in rows] == list(range(10, 21))
    for row in rows:
        pack_kg, pack_lbs, carry_kg, carry_lbs, lift_kg, lift_lbs = BOOK_CARRY_TABLE[row.strength]
        assert (row.pack_kg, row.pack_lbs, row.carry_kg, row.lift_kg) == (
            pack_kg,
            pack_lbs,
            carry_kg,
            lift_kg,
        ), row.strength
        assert (row.carry_lbs, row.lift_lbs) == (11 * row.strength, 22 * row.strength)
        assert abs(row.carry_lbs - carry_lbs) <= 2.5 and abs(row.lift_lbs - lift_lbs) <= 5


@pytest.mark.parametrize(
    ("strength", "pack", "carry", "lift"),
    [(11, 48, 121, 242), (12, 53, 132, 264), (13, 57, 143, 286), (18, 79, 198, 396)],
)
def test_carry_pounds_where_the_books_rounding_differs(
    strength: int, pack: int, carry: int, lift: int
) -> None:
    """Packing rounds 4.4 lb a point to the pound (48.4 -> 48, 52.8 -> 53); carrying and
    lifting are whole pounds already, so nothing rounds them to 5 or 10 lb."""
    capacity = carrying_capacity(strength)
    assert (capacity.pack_lbs, capacity.carry_lbs, capacity.lift_lbs) == (pack, carry, lift)


def test_carry_table_refuses_an_empty_range_and_negative_strength() -> None:
    with pytest.raises(ValueError):
        carry_table(21, 20)
    with pytest.raises(ValueError):
        carrying_capacity(-1)


def test_a_character_carries_by_its_strength() -> None:
    chokestar = stats({"wrestling": 2, "stealth": 3, "toughness": 3})
    assert chokestar.strength == 12
    assert chokestar.carry is not None
    assert (chokestar.carry.pack_kg, chokestar.carry.pack_lbs) == (24, 53)


# --------------------------------------------------------------------------------------------
# §3.1 health bands


def test_toughness_seven_is_healthy_at_four_to_seven_and_injured_at_one_to_three() -> None:
    seven = stats({"toughness": 7})
    assert (seven.hit_points, seven.stamina) == (7, 3)
    assert seven.health.healthy == (4, 7)
    assert seven.health.injured == (1, 3)
    assert seven.health.incapacitated == 0
    states = [seven.health.state(hp) for hp in range(8)]
    assert states == ["incapacitated"] + ["injured"] * 3 + ["healthy"] * 4


def test_toughness_one_has_no_injured_band() -> None:
    one = stats({"toughness": 1})
    assert one.stamina == 0
    assert one.health.healthy == (1, 1)
    assert one.health.injured is None
    assert one.health.state(1) == "healthy"
    assert one.health.state(0) == "incapacitated"


def test_no_toughness_has_neither_band() -> None:
    bands = health_bands(0, 0)
    assert (bands.healthy, bands.injured) == (None, None)
    assert bands.state(0) == "incapacitated"


def test_toughness_two_is_injured_at_one() -> None:
    bands = health_bands(2, 1)
    assert (bands.healthy, bands.injured) == ((2, 2), (1, 1))


# --------------------------------------------------------------------------------------------
# §8 grid movement


def test_grid_movement_without_movement_abilities_is_four_healthy_two_injured() -> None:
    move = grid_movement({"toughness": 3})
    assert move.healthy == GridMove(ground=4, air=None, rough=2, water=2)
    assert move.injured == GridMove(ground=2, air=None, rough=1, water=1)


def test_grid_movement_adds_half_quickness_and_flying_and_all_acrobatics_and_swimming() -> None:
    move = grid_movement({"quickness": 3, "flying": 5, "acrobatics": 2, "swimming": 3})
    # ground 4 + 3//2, air 4 + 5//2, rough (4 + 2)//2, water (4 + 3)//2
    assert move.healthy == GridMove(ground=5, air=6, rough=3, water=3)
    # injured: base 2
    assert move.injured == GridMove(ground=3, air=4, rough=2, water=2)


def test_flying_one_lets_a_character_fly_at_its_base_speed() -> None:
    move = grid_movement({"flying": 1})
    assert (move.healthy.air, move.injured.air) == (4, 2)


def test_character_sheet_carries_its_grid_movement() -> None:
    assert stats({"quickness": 4, "toughness": 2}).movement.healthy.ground == 6


# --------------------------------------------------------------------------------------------
# §14.4 projects: difficulty and the Resilience worked example (four players)


def test_cynthia_develops_five_economy_sacrificing_four_environment_automatically() -> None:
    plan = plan_project(players=4, develop={"economy": 5}, sacrifice={"environment": 4})
    assert plan.legal, plan.problems
    assert plan.difficulty == -3
    assert plan.automatic
    assert plan.outcome(succeeded=False) == {"economy": 5, "environment": -4, "equity": 0}


def test_david_develops_five_environment_at_difficulty_seventeen_and_fails() -> None:
    plan = plan_project(players=4, develop={"environment": 5}, sacrifice={})
    assert plan.legal
    assert plan.difficulty == 17
    assert not plan.automatic
    assert plan.outcome(succeeded=False) == {"economy": 0, "environment": 0, "equity": 0}
    assert plan.outcome(succeeded=True) == {"economy": 0, "environment": 5, "equity": 0}


def test_adam_develops_two_environment_and_one_economy_at_difficulty_eight() -> None:
    plan = plan_project(
        players=4, develop={"environment": 2, "economy": 1}, sacrifice={"equity": 1}
    )
    assert plan.legal
    assert plan.difficulty == 8
    assert not plan.automatic
    assert plan.outcome(succeeded=True) == {"economy": 1, "environment": 2, "equity": -1}
    assert plan.outcome(succeeded=False) == {"economy": 0, "environment": 0, "equity": -1}


def test_brian_develops_four_equity_sacrificing_three_at_difficulty_zero() -> None:
    plan = plan_project(
        players=4, develop={"equity": 4}, sacrifice={"economy": 2, "environment": 1}
    )
    assert plan.legal
    assert plan.difficulty == 0
    assert plan.automatic


def test_difficulty_one_is_automatic_and_two_is_not() -> None:
    # 7 + 2 x 3 - 5 x 2 = 3; 7 + 2 x 2 - 5 x 2 = 1; 7 + 2 x 5 - 5 x 3 = 2
    assert plan_project(4, {"economy": 2}, {"equity": 2}).automatic
    assert plan_project(4, {"economy": 2}, {"equity": 2}).difficulty == 1
    assert plan_project(4, {"economy": 5}, {"equity": 3}).difficulty == 2
    assert not plan_project(4, {"economy": 5}, {"equity": 3}).automatic


def test_a_project_never_sacrifices_the_defense_it_develops() -> None:
    plan = plan_project(4, {"economy": 3}, {"economy": 1})
    assert not plan.legal
    assert plan.problems == ("cannot sacrifice economy, the defense this project develops",)


def test_a_project_sacrifices_no_more_than_it_develops() -> None:
    plan = plan_project(4, {"economy": 1}, {"equity": 2})
    assert plan.problems == ("sacrifices 2 levels, more than the 1 it develops",)
    assert plan_project(4, {"economy": 2}, {"equity": 2}).legal


def test_a_project_develops_at_least_one_level() -> None:
    plan = plan_project(4, {}, {})
    assert plan.problems == ("a project must develop at least 1 level",)


@pytest.mark.parametrize(
    ("players", "size", "most"),
    [
        (1, "large", 5),
        (2, "large", 5),
        (3, "small", 3),
        (4, "large", 5),
        (5, "medium", 4),
        (6, "small", 3),
        (7, "small", 3),
    ],
)
def test_a_project_develops_at_most_its_size_allows(players: int, size: str, most: int) -> None:
    assert project_size(players).size == size
    assert plan_project(players, {"economy": most}, {}).legal
    too_big = plan_project(players, {"economy": most - 1, "equity": 2}, {})
    assert too_big.problems == (
        f"a {size} project develops at most {most} levels, this one develops {most + 1}",
    )


def test_eight_players_are_not_covered_by_the_project_table() -> None:
    with pytest.raises(ValueError, match="1 to 7 players"):
        plan_project(8, {"economy": 1}, {})


def test_a_project_cannot_sacrifice_more_than_the_community_has() -> None:
    current = {"economy": 10, "environment": 3, "equity": 10}
    plan = plan_project(4, {"economy": 4}, {"environment": 4}, current=current)
    assert plan.problems == ("cannot sacrifice 4 environment: the community only has 3",)
    assert plan_project(4, {"economy": 4}, {"environment": 3}, current=current).legal


def test_a_project_names_only_the_three_defenses() -> None:
    plan = plan_project(4, {"wealth": 2}, {})
    assert any("'wealth' is not a defense" in p for p in plan.problems)


# --------------------------------------------------------------------------------------------
# §7 minions


def test_command_four_may_lead_two_minions_of_two_cp() -> None:
    assert minion_problems({"command": 4}, [MinionGroup("Thugs", 2, {"toughness": 2})]) == []


def test_command_four_may_lead_one_minion_of_four_or_a_one_and_a_three() -> None:
    assert minion_problems({"command": 4}, [MinionGroup("Brute", 1, {"toughness": 4})]) == []
    groups = [
        MinionGroup("Runner", 1, {"toughness": 1}),
        MinionGroup("Guard", 1, {"toughness": 2, "fighting": 1}),
    ]
    assert minion_problems({"command": 4}, groups) == []


def test_three_minions_are_refused() -> None:
    problems = minion_problems({"command": 4}, [MinionGroup("Rats", 3, {"toughness": 1})])
    assert problems == [("minions", "command gives 1 or 2 minions, this character has 3")]


def test_minions_costing_five_cp_are_refused_by_command_four() -> None:
    problems = minion_problems({"command": 4}, [MinionGroup("Ogre", 1, {"toughness": 5})])
    assert problems == [("minions", "minions cost 5 CP (1 x 5 CP), more than command 4")]


def test_two_minions_of_three_cp_cost_six() -> None:
    problems = minion_problems({"command": 4}, [MinionGroup("Thugs", 2, {"toughness": 3})])
    assert problems == [("minions", "minions cost 6 CP (2 x 3 CP), more than command 4")]


def test_a_minion_with_command_is_refused() -> None:
    groups = [MinionGroup("Lieutenant", 1, {"toughness": 1, "command": 1})]
    assert minion_problems({"command": 4}, groups) == [
        ("minions.Lieutenant", "minions cannot have command")
    ]


def test_minions_without_command_are_refused() -> None:
    problems = minion_problems({"toughness": 3}, [MinionGroup("Dog", 1, {"toughness": 1})])
    assert problems == [("minions", "only a character with command has minions")]


def test_no_minions_is_always_fine() -> None:
    assert minion_problems({"toughness": 3}, []) == []


# --------------------------------------------------------------------------------------------
# §9 vehicles and crew

FINAL_HORIZON = (("guns", 1, ""), ("spaceflight", 1, ""), ("range", 4, ""), ("toughness", 30, ""))
BREAKHELM = {"shooting": 4, "fighting": 4, "piloting": 1, "toughness": 6}


def test_final_horizon_gains_nothing_for_the_stalking_it_lacks() -> None:
    ship = compute_vehicle(
        "Final Horizon",
        FINAL_HORIZON,
        "spaceflight",
        Crew(("Breakhelm X-19", BREAKHELM), ("Breakhelm X-19", BREAKHELM)),
    )
    assert ship.crewed_abilities == {"guns": 5, "spaceflight": 2, "range": 4, "toughness": 30}
    assert "stalking" not in ship.crewed_abilities
    assert ship.initiative_bonus == 0
    assert ship.defense == 12
    assert ship.warnings == ()


def test_an_uncrewed_vehicle_uses_its_own_levels() -> None:
    ship = compute_vehicle("Final Horizon", FINAL_HORIZON, "spaceflight", Crew())
    assert ship.crewed_abilities == {"guns": 1, "spaceflight": 1, "range": 4, "toughness": 30}
    assert ship.defense == 10  # no one to fly it: spaceflight 1 is not counted (issue 26)
    assert [a.line for a in ship.abilities] == [
        "1 guns",
        "1 spaceflight",
        "4 range",
        "30 toughness",
    ]


def test_a_gunner_without_shooting_or_blasting_adds_nothing_and_warns() -> None:
    ship = compute_vehicle(
        "Final Horizon", FINAL_HORIZON, "spaceflight", Crew(gunner=("Brawler", {"fighting": 4}))
    )
    assert ship.crewed_abilities["guns"] == 1
    assert ship.warnings == (
        "gunner Brawler has neither shooting nor blasting, so adds nothing",
        "has no operator and no autopilot, so it cannot move, grapple or ram",
    )


def test_a_blaster_gunner_adds_blasting_to_the_weapons() -> None:
    ship = compute_vehicle(
        "Final Horizon",
        FINAL_HORIZON,
        "spaceflight",
        Crew(gunner=("Bomber", {"blasting": 3, "shooting": 1})),
    )
    assert ship.crewed_abilities["guns"] == 4
    assert ship.abilities[0].line == "1 guns (4 with Bomber as gunner)"


def test_a_ground_vehicle_wants_a_driver_not_a_pilot() -> None:
    truck = (("quickness", 2, ""), ("flying", 1, ""), ("grapple", 1, ""), ("toughness", 22, ""))
    with_pilot = compute_vehicle(
        "Truck", truck, "quickness", Crew(operator=("Ace", {"piloting": 3}))
    )
    assert with_pilot.crewed_abilities["quickness"] == 2
    assert with_pilot.warnings == ("operator Ace has no driving, so adds nothing to quickness",)
    with_driver = compute_vehicle(
        "Truck", truck, "quickness", Crew(operator=("Mack", {"driving": 2}))
    )
    # The driver helps the ground movement and the grapple, not the air movement.
    assert with_driver.crewed_abilities == {
        "quickness": 4,
        "flying": 1,
        "grapple": 3,
        "toughness": 22,
    }
    assert with_driver.abilities[0].line == "2 quickness (4 with Mack as driver)"


def test_a_vehicle_must_move_by_a_movement_ability() -> None:
    with pytest.raises(ValueError, match="not a vehicle movement ability"):
        compute_vehicle("Car", (("toughness", 10, ""),), "walking", Crew())


@pytest.mark.parametrize(
    ("toughness", "self_damage"), [(0, 0), (9, 0), (10, 1), (16, 1), (19, 1), (20, 2), (30, 2)]
)
def test_ramming_hurts_the_rammer_by_the_targets_toughness(
    toughness: int, self_damage: int
) -> None:
    assert ram_self_damage(toughness) == self_damage


def test_ram_and_vehicle_weapons_do_five_damage() -> None:
    assert RAM_DAMAGE == WEAPON_DAMAGE == 5
    ship = compute_vehicle("Final Horizon", FINAL_HORIZON, "spaceflight", Crew())
    assert [(w.name, w.damage, w.auto_damage) for w in ship.weapons] == [("guns", 5, 6)]


# --------------------------------------------------------------------------------------------
# §5 the actions list

CHOKESTAR = {"wrestling": 2, "stealth": 3, "toughness": 3}


def actions(levels: dict[str, int], ruleset: str = "current") -> dict[str, Action]:
    return {a.name: a for a in character_actions(levels, get_ruleset(ruleset))}


def test_chokestar_surprises_with_stealth_three_against_intelligence() -> None:
    surprise = actions(CHOKESTAR)["surprise"]
    assert (surprise.roll, surprise.bonus, surprise.target) == ("stealth", 3, "intelligence")
    assert (surprise.range, surprise.attack, surprise.damage) == ("long", "psychic", None)


def test_detection_also_gives_surprise() -> None:
    assert actions({"detection": 2, "toughness": 2})["surprise"].roll == "detection"
    assert "surprise" not in actions({"toughness": 2})


def test_shooting_does_two_damage_and_five_on_an_automatic_success() -> None:
    shooting = actions({"shooting": 2, "toughness": 2})["shooting"]
    assert (shooting.damage, shooting.auto_damage) == (Damage(2), Damage(5))
    assert (shooting.bonus, shooting.target, shooting.range) == (2, "agility", "long")


def test_intimidate_needs_command_and_rolls_against_the_higher_defense() -> None:
    assert "intimidate" not in actions(CHOKESTAR)
    intimidate = actions({"command": 4, "toughness": 3})["intimidate"]
    assert intimidate.bonus == 4
    assert intimidate.target == "intelligence_or_strength"


def test_heal_and_revive_need_healing() -> None:
    assert "heal" not in actions(CHOKESTAR)
    assert "revive" not in actions(CHOKESTAR)
    flipfire = actions(
        {"shooting": 2, "healing": 1, "fighting": 2, "acrobatics": 1, "toughness": 4}
    )
    for name in ("heal", "revive"):
        healing = flipfire[name]
        assert (healing.bonus, healing.target, healing.target_number) == (1, "difficulty", 10)


def test_the_unrepeatable_actions_are_distract_surprise_and_intimidate() -> None:
    everything = {
        "command": 1,
        "stealth": 1,
        "healing": 1,
        "shooting": 1,
        "blasting": 1,
        "knockout": 1,
        "fighting": 1,
        "wrestling": 1,
        "toughness": 1,
    }
    listed = character_actions(everything, get_ruleset("current"))
    assert {a.name for a in listed if a.unrepeatable} == {"distract", "surprise", "intimidate"}


def test_the_wrestling_hold_damages_under_current_rules_only() -> None:
    current = actions(CHOKESTAR)["wrestling_hold"]
    assert (current.damage, current.auto_damage, current.target) == (
        Damage(1),
        Damage(2),
        "strength",
    )
    early = actions(CHOKESTAR, "early")["wrestling_hold"]
    assert (early.damage, early.auto_damage) == (None, None)


def test_basic_attack_adds_knockout_only_without_fighting_or_wrestling() -> None:
    assert actions({"knockout": 3, "toughness": 2})["basic_attack"].roll == "knockout"
    fighter = actions({"knockout": 3, "fighting": 1, "toughness": 2})["basic_attack"]
    assert fighter.roll == "fighting"


def test_knockout_does_four_when_healthy_and_two_when_injured() -> None:
    knockout = actions({"knockout": 2, "toughness": 2})["knockout"]
    assert (knockout.damage, knockout.auto_damage) == (
        Damage(4, "injured", 2),
        Damage(5, "injured", 3),
    )


def test_classic_attacks_all_roll_against_defense() -> None:
    listed = actions(CHOKESTAR, "classic")
    assert {a.target for a in listed.values() if a.attack} == {"defense"}


def test_a_vehicle_without_the_crew_it_needs_cannot_act() -> None:
    """RULES.md, vehicle crew: an operator to move, grapple or ram unless the vehicle has
    autopilot; a gunner for guns, missiles, bombs or countermeasures unless it has
    targeting."""
    abilities = (("toughness", 10, ""), ("quickness", 2, ""), ("guns", 2, ""), ("bombs", 1, ""))
    empty = compute_vehicle("Ghost Truck", abilities, "quickness", Crew())
    assert empty.warnings == (
        "has no operator and no autopilot, so it cannot move, grapple or ram",
        "has guns and bombs but no gunner and no targeting, so none of them can be used",
    )
    robot = (*abilities, ("autopilot", 1, ""), ("targeting", 1, ""))
    assert compute_vehicle("Drone", robot, "quickness", Crew()).warnings == ()
    crewed = Crew(operator=("Ann", {"driving": 1}), gunner=("Bo", {"shooting": 1}))
    assert compute_vehicle("Truck", abilities, "quickness", crewed).warnings == ()
