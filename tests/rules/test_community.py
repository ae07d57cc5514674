"""A community's logged years read by the project and evaluation rules (RULES.md §14).

``review_log`` is the one reading `check` and the community sheet share: each case here is a
log a table might write, and what the rules say of it, with the field the finding names.
"""

from __future__ import annotations

from typing import Any

from scratchpress.definitions.models import HistoryYear, ProjectLog
from scratchpress.rules.community import LogReview, review_log

TEN = {"economy": 10, "environment": 10, "equity": 10}


def _review(
    projects: list[dict[str, Any]],
    history: list[dict[str, Any]] | None = None,
    players: int | None = 4,
    founding: dict[str, int] | None = None,
) -> LogReview:
    return review_log(
        founding or TEN,
        players,
        [ProjectLog(**p) for p in projects],
        [HistoryYear(**h) for h in history or []],
    )


def _errors(review: LogReview) -> list[tuple[tuple[str | int, ...], str]]:
    return [(f.where, f.message) for f in review.findings if f.severity == "error"]


def test_a_legal_year_has_nothing_to_say() -> None:
    review = _review(
        [
            {"player": "Ann", "develop": {"economy": 2}, "sacrifice": {"equity": 1}, "roll": 9},
            {"player": "Ben", "develop": {"environment": 1}, "roll": 12},
        ],
        [{"year": 1, "bonus": {"equity": 1, "environment": 1}}],
    )
    assert review.findings == ()
    assert review.now == {"economy": 12, "environment": 12, "equity": 10}


def test_developing_and_sacrificing_one_defense() -> None:
    review = _review([{"develop": {"economy": 2}, "sacrifice": {"economy": 1}, "roll": 15}])
    assert _errors(review) == [
        (
            ("projects", 0, "sacrifice", "economy"),
            "cannot sacrifice economy, the defense this project develops",
        )
    ]


def test_a_large_project_developing_6_is_no_size_at_all() -> None:
    review = _review([{"develop": {"equity": 6}, "roll": 20}])
    assert _errors(review) == [
        (
            ("projects", 0, "develop"),
            "a large project develops at most 5 levels, this one develops 6",
        )
    ]


def test_a_sacrifice_beyond_what_the_defense_has_after_the_event() -> None:
    # The event takes 7 environment first; 5 more are then more than the 3 left.
    review = _review(
        [{"develop": {"economy": 5}, "sacrifice": {"environment": 5}}],
        [{"year": 1, "damage": {"environment": 7}}],
    )
    assert _errors(review) == [
        (
            ("projects", 0, "sacrifice", "environment"),
            "cannot sacrifice 5 environment: the community only has 3",
        )
    ]


def test_no_defense_is_ever_below_zero() -> None:
    review = _review(
        [{"develop": {"economy": 5}, "sacrifice": {"environment": 5}}],
        [{"year": 1, "damage": {"environment": 7}}],
    )
    (project,) = review.projects
    assert project.before["environment"] == 3
    assert project.after == {"economy": 15, "environment": 0, "equity": 10}
    assert review.now["environment"] == 0


def test_a_second_project_by_one_player_in_a_year() -> None:
    review = _review(
        [
            {"player": "Dee", "develop": {"environment": 1}, "roll": 18},
            {"player": "dee", "develop": {"environment": 1}, "roll": 18},
            {"year": 2, "player": "Dee", "develop": {"environment": 1}, "roll": 18},
        ]
    )
    assert _errors(review) == [
        (
            ("projects", 1, "player"),
            "dee starts a project too many in year 1: with 4 players each starts 1 a year",
        )
    ]


def test_two_players_each_start_two_projects_a_year() -> None:
    twice = [{"player": "Ann", "develop": {"economy": 1}, "roll": 20}] * 2
    assert _review(twice, players=2).findings == ()
    thrice = _review(twice * 2, players=2)
    assert [where for where, _ in _errors(thrice)] == [("projects", 2, "player")]


def test_more_players_than_the_community_has() -> None:
    review = _review(
        [{"player": who, "develop": {"economy": 1}, "roll": 20} for who in ("Ann", "Ben", "Cal")],
        players=2,
    )
    assert _errors(review) == [
        (
            ("projects", 2, "player"),
            "Cal is player 3 to start a project in year 1, but players: is 2",
        )
    ]


def test_a_gm_bonus_of_three_levels_however_split() -> None:
    review = _review(
        [],
        [
            {"year": 1, "bonus": {"equity": 3}},
            {"year": 2, "bonus": {"economy": 1, "environment": 1, "equity": 1}},
            {"year": 3, "bonus": {"economy": 2}},
        ],
    )
    assert [(where, message.split(";")[0]) for where, message in _errors(review)] == [
        (("history", 0, "bonus"), "the GM's bonus is 3 levels"),
        (("history", 1, "bonus"), "the GM's bonus is 3 levels"),
    ]


def test_the_year_the_community_falls_to_zero() -> None:
    review = _review(
        [
            {
                "player": "Ben",
                "name": "Quarry",
                "develop": {"economy": 3},
                "sacrifice": {"environment": 3},
            },
            {
                "year": 2,
                "player": "Ben",
                "develop": {"economy": 1},
                "sacrifice": {"environment": 1},
            },
        ],
        [{"year": 1, "damage": {"environment": 7}}, {"year": 2, "damage": {"equity": 2}}],
    )
    notes = [(f.where, f.message) for f in review.findings if f.severity == "note"]
    assert notes == [
        (
            ("projects", 0),
            "environment falls to 0 in year 1, after Ben's Quarry: by the text's tentative end,"
            " a community at 0 in any of the three E's has failed and the game is over",
        )
    ]  # said once, when it happens, not again in year 2
    assert _errors(review) == [
        (
            ("projects", 1, "sacrifice", "environment"),
            "cannot sacrifice 1 environment: the community only has 0",
        )
    ]


def test_the_event_alone_can_bring_it_to_zero() -> None:
    review = _review([], [{"year": 3, "damage": {"equity": 12}}])
    (note,) = review.findings
    assert note.where == ("history", 0, "damage")
    assert note.message.startswith("equity falls to 0 in year 3, after the event:")


def test_the_year_the_community_stands_at_15_in_all_three() -> None:
    review = _review(
        [{"player": "Ann", "develop": {"equity": 1}, "roll": 20}],
        [{"year": 1, "bonus": {"environment": 1}}],
        founding={"economy": 15, "environment": 14, "equity": 14},
    )
    (note,) = review.findings
    assert note.severity == "note"
    assert note.where == ("history", 0)
    assert note.message.startswith(
        "the community stands at 15 or more in all three E's in year 1, at the end of the year:"
    )


def test_without_players_a_project_may_be_as_large_as_any() -> None:
    review = _review([{"player": "Ann", "develop": {"economy": 5}, "roll": 20}] * 5, players=None)
    assert _errors(review) == [
        (
            ("projects", 4, "player"),
            "Ann starts a project too many in year 1: no player starts more than 4 a year",
        )
    ]
