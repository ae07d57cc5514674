"""A vehicle that cannot move (issue 26, point 5): with no one at the controls and no
autopilot, or with no level in the movement ability it uses, its movement adds nothing to
its defense, evading adds nothing either, and the explain lines say why (RULES.md §9)."""

from __future__ import annotations

from scratchpress.rules import Crew, compute_vehicle

# A shuttle like the Sadisto: stalking 1, spaceflight 3; Chokestar flies it with piloting 2.
SHUTTLE = (("stalking", 1, ""), ("spaceflight", 3, ""), ("toughness", 16, ""))
PILOT = ("Chokestar", {"piloting": 2})


def test_a_crewed_vehicle_counts_its_crewed_movement() -> None:
    ship = compute_vehicle("Shuttle", SHUTTLE, "spaceflight", Crew(operator=PILOT))
    assert (ship.defense, ship.defense_evading) == (15, 20)
    assert ship.cannot_move == ""
    assert ship.explain["defense"] == "defense 15 = 10 + spaceflight 5 (crewed)"
    assert ship.explain["defense_evading"] == "evading 20 = defense 15 + spaceflight 5"


def test_with_no_one_aboard_only_stalking_counts() -> None:
    ship = compute_vehicle("Shuttle", SHUTTLE, "spaceflight", Crew())
    assert (ship.defense, ship.defense_uncrewed, ship.defense_evading) == (11, 11, 11)
    assert ship.cannot_move == "no operator and no autopilot"
    assert ship.explain["defense"] == (
        "defense 11 = 10 + stalking 1"
        " (spaceflight not counted: it cannot move with no operator and no autopilot)"
    )
    assert "(crewed)" not in ship.explain["defense"]


def test_a_vehicle_that_cannot_move_cannot_evade() -> None:
    ship = compute_vehicle("Shuttle", SHUTTLE, "spaceflight", Crew())
    assert ship.defense_evading == ship.defense
    assert ship.explain["defense_evading"] == (
        "evading 11 = defense 11 (it cannot move, so it cannot evade)"
    )


def test_a_gunner_alone_does_not_move_it() -> None:
    ship = compute_vehicle(
        "Shuttle", SHUTTLE, "spaceflight", Crew(gunner=("Flipfire", {"shooting": 2}))
    )
    assert ship.defense == 11
    assert ship.cannot_move == "no operator and no autopilot"


def test_with_nothing_else_the_defense_is_ten() -> None:
    cart = compute_vehicle(
        "Cart", (("quickness", 1, ""), ("toughness", 3, "")), "quickness", Crew()
    )
    assert cart.defense == 10
    assert cart.explain["defense"] == (
        "defense 10 = 10 (quickness not counted: it cannot move with no operator and no autopilot)"
    )


def test_without_crew_a_crewed_vehicle_loses_its_movement_too() -> None:
    ship = compute_vehicle("Shuttle", SHUTTLE, "spaceflight", Crew(operator=PILOT))
    assert ship.defense_uncrewed == 11  # not 13: nobody would be flying it
    assert ship.explain["defense_uncrewed"] == (
        "without crew 11 = 10 + stalking 1"
        " (spaceflight not counted: it cannot move with no operator and no autopilot)"
    )


def test_an_autopilot_moves_it_with_no_one_aboard() -> None:
    drone = (*SHUTTLE, ("autopilot", 2, ""))
    ship = compute_vehicle("Drone", drone, "spaceflight", Crew())
    assert ship.cannot_move == ""
    assert (ship.defense, ship.defense_uncrewed, ship.defense_evading) == (13, 13, 16)
    assert ship.explain["defense"] == "defense 13 = 10 + spaceflight 3 (no crew aboard)"
    assert ship.explain["defense_uncrewed"] == "without crew 13 = 10 + spaceflight 3"


def test_no_level_in_its_movement_means_it_cannot_move() -> None:
    barge = (("stalking", 2, ""), ("toughness", 12, ""))
    ship = compute_vehicle("Barge", barge, "sailing", Crew(operator=("Mags", {"navigation": 3})))
    assert ship.cannot_move == "no sailing ability"
    assert ship.defense == 15  # 10 + stalking 2 + the navigator's 3
    assert ship.defense_evading == 15
    assert ship.explain["defense"] == (
        "defense 15 = 10 + stalking 5 (sailing not counted: it cannot move with no sailing ability)"
    )
    assert "moves by sailing but has no sailing ability" in ship.warnings
