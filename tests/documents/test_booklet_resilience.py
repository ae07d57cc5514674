"""The booklet's Resilience inserts (one event card, a year of projects, project sizes,
project ideas, careers) and the booklet's imprint, checked on their view models.

The rendered example booklet (its pages, contents, bookmarks and PDF text) is checked in
test_booklet.py; here small campaigns show what each insert computes and what it refuses,
naming the Markdown line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from scratchpress.content.loader import builtin_content
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.base import BuildOptions
from scratchpress.documents.booklet import booklet_view, documents, load_booklet
from scratchpress.documents.booklet import inserts as booklet_inserts
from scratchpress.documents.booklet.imposition import booklet_layout
from scratchpress.documents.booklet.markdown import mark_inserts, markdown, parse_chapter
from scratchpress.documents.booklet.source import BookletContext
from scratchpress.documents.community import current_defenses, founding_defenses
from scratchpress.problems import InputError
from scratchpress.resources import examples_dir
from scratchpress.rules.community import PROJECT_SIZES, plan_project
from scratchpress.statblocks import compute_campaign

from conftest import WriteCampaign

PARTY = """\
characters:
  - name: Mara Quill
    player: Ann
    career: Doctor
    abilities: {healing: 2, toughness: 3, quickness: 1}
careers:
  - id: ferryman
    name: Ferryman
    required: [["swimming"], ["toughness"]]
    wants: A toll on the ford and nobody building a bridge.
"""

BOOK = "title: Test Book\nauthor: A. Tester\npaper: a5\nchapters: [one.md]\n"

# The rules' community development example: four players, one large project each.
WORKED_YEAR = """\
# A Year

```scratchpress
insert: projects
players: 4
projects:
  - {player: Cynthia, develop: {economy: 5}, sacrifice: {environment: 4}}
  - {player: David, develop: {environment: 5}, roll: 14}
  - {player: Adam, develop: {environment: 2, economy: 1}, sacrifice: {equity: 1}, roll: 8}
  - {player: Brian, develop: {equity: 4}, sacrifice: {economy: 2, environment: 1}}
bonus: {equity: 1, environment: 1}
```
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages name files relative to where the user stands: campaign/one.md."""
    monkeypatch.chdir(tmp_path)


def _campaign(write_campaign: WriteCampaign, chapter: str, booklet: str = BOOK) -> Path:
    return write_campaign({"party.yaml": PARTY, "booklet.yaml": booklet, "one.md": chapter})


def _inserts(folder: Path) -> list[dict[str, Any]]:
    """The view model of every insert in the booklet's chapters, in order."""
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    booklet = load_booklet(campaign)
    assert booklet is not None
    options = BuildOptions()
    _, layout = booklet_layout(booklet.definition.paper, options)
    ctx = BookletContext(booklet, computed, campaign, options, layout)
    md = markdown()
    found: list[dict[str, Any]] = []
    for chapter in booklet.chapters:
        parsed = parse_chapter(md, chapter, ctx)
        mark_inserts(parsed, ctx)
        found += [t.meta["insert"] for t in parsed.tokens if "insert" in t.meta]
    assert ctx.problems == []
    return found


def _problems(folder: Path) -> list[str]:
    campaign = load_campaign([folder])
    with pytest.raises(InputError) as caught:
        documents(compute_campaign(campaign), campaign, BuildOptions())
    return [str(p) for p in caught.value.problems]


# --------------------------------------------------------------------------------------------
# a year of projects


def test_the_worked_year_is_priced_and_settled_as_the_book_says(
    write_campaign: WriteCampaign,
) -> None:
    # Cynthia: 7 + 10 - 20 = -3, automatic. David: 17, rolls 14, fails. Adam: 8, rolls 8,
    # succeeds. Brian: 7 + 8 - 15 = 0, automatic. With the GM's +1 equity and +1
    # environment the year nets economy +4, environment -2, equity +4.
    [view] = _inserts(_campaign(write_campaign, WORKED_YEAR))
    assert [
        (r["player"], r["moves"], r["difficulty"], r["roll"], r["result"], r["changes"])
        for r in view["rows"]
    ] == [
        ("Cynthia", "+5 economy, −4 environment", "−3", "–", "automatic", ["+5", "−4", ""]),
        ("David", "+5 environment", "17", "14", "failed", ["", "", ""]),
        ("Adam", "+2 environment, +1 economy, −1 equity", "8", "8", "success", ["+1", "+2", "−1"]),
        (
            "Brian",
            "+4 equity, −2 economy, −1 environment",
            "0",
            "–",
            "automatic",
            ["−2", "−1", "+4"],
        ),
    ]
    assert view["bonus"] == ["", "+1", "+1"]
    assert view["year"] == ["+4", "−2", "+4"]
    assert view["defenses"] == ["Econ", "Env", "Eq"]
    assert view["size"] == "4 players: 1 large project each, up to 5 levels"


def test_the_difficulties_come_from_the_project_rules(
    write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing in the insert works a difficulty out itself: change the rule and the table
    follows (here a rule three harder, which makes Brian's 0 a 3 that needs a roll)."""
    real = booklet_inserts.plan_project

    def harder(players: int, develop: Any, sacrifice: Any, current: Any = None) -> Any:
        plan = real(players, develop, sacrifice, current)
        return type(plan)(
            plan.size, plan.develop, plan.sacrifice, plan.difficulty + 3, False, plan.problems
        )

    monkeypatch.setattr(booklet_inserts, "plan_project", harder)
    problems = _problems(_campaign(write_campaign, WORKED_YEAR))
    assert problems == [
        "campaign/one.md:7: projects.0: difficulty 0 needs the d20 the player rolled:"
        " add roll: 1-20",
        "campaign/one.md:10: projects.3: difficulty 3 needs the d20 the player rolled:"
        " add roll: 1-20",
    ]


def test_a_year_the_rules_refuse_names_each_line(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign,
        """\
# A Year

```scratchpress
insert: projects
players: 4
projects:
  - {player: Cynthia, develop: {economy: 5}, sacrifice: {economy: 1}}
  - {player: David, develop: {environment: 5}}
  - {player: Adam, develop: {equity: 2}, sacrifice: {economy: 2}, roll: 12}
  - {player: Adam, develop: {equity: 6}, roll: 30}
  - {player: Brian, develop: {equity: 1}, sacrifice: {economy: 3}, roll: 4}
bonus: {equity: 2, economy: 1}
```
""",
    )
    assert _problems(folder) == [
        "campaign/one.md:10: projects.3.develop.equity: must be 5 or less, got 6",
        "campaign/one.md:10: projects.3.roll: must be 20 or less, got 30",
    ]
    text = (folder / "one.md").read_text()
    (folder / "one.md").write_text(text.replace("equity: 6}, roll: 30", "equity: 3}, roll: 9"))
    assert _problems(folder) == [
        # A refused plan is not asked for a roll as well.
        "campaign/one.md:7: projects.0: cannot sacrifice economy, the defense this project"
        " develops",
        "campaign/one.md:8: projects.1: difficulty 17 needs the d20 the player rolled:"
        " add roll: 1-20",
        "campaign/one.md:9: projects.2.roll: difficulty 1 succeeds without a roll: leave out roll:",
        "campaign/one.md:10: projects.3: Adam starts a project too many: with 4 players each"
        " starts 1 a year",
        "campaign/one.md:11: projects.4: sacrifices 3 levels, more than the 1 it develops",
        "campaign/one.md:12: bonus: the GM's bonus is 2 levels of one defense, 1 of each of two,"
        " or 1 of one; this one gives 3",
    ]


def test_more_players_than_the_year_has(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign,
        """\
# A Year

```scratchpress
insert: projects
players: 1
projects:
  - {player: Ann, develop: {economy: 1}, roll: 9}
  - {player: Bo, develop: {economy: 1}, roll: 9}
```
""",
    )
    assert _problems(folder) == [
        "campaign/one.md:5: players: 2 players start projects, but players: is 1"
    ]


# --------------------------------------------------------------------------------------------
# sizes, ideas, careers, one event


def test_project_sizes_turn_the_rules_table_on_its_side(write_campaign: WriteCampaign) -> None:
    [view] = _inserts(
        _campaign(write_campaign, "# S\n\n```scratchpress\ninsert: project-sizes\n```\n")
    )
    assert view["players"] == ["1", "2", "3", "4", "5", "6", "7"]
    rows = {r["label"]: r["cells"] for r in view["rows"]}
    assert rows == {
        "Projects each": ["4", "2", "2", "1", "1", "1", "1"],
        "Size": ["large", "large", "small", "large", "medium", "small", "small"],
        "Levels, at most": ["5", "5", "3", "5", "4", "3", "3"],
        # The rules' uneven totals: 18, 20 or 21 levels a year for the whole table.
        "The group's levels": ["20", "20", "18", "20", "20", "18", "21"],
    }
    assert len(view["players"]) == len(PROJECT_SIZES)
    assert view["beyond"] == "8 or more players: the rules stop at 7."


def test_project_ideas_a_few_per_defense_priced_by_the_rules(
    write_campaign: WriteCampaign,
) -> None:
    chapter = "# I\n\n```scratchpress\ninsert: project-ideas\neach: 2\n```\n"
    [view] = _inserts(_campaign(write_campaign, chapter))
    assert [g["defense"] for g in view["groups"]] == ["Economy", "Environment", "Equity"]
    assert all(len(g["rows"]) == 2 for g in view["groups"])
    # The first built-in idea: a rope ferry, +3 economy for 1 environment: 7 + 6 - 5 = 8.
    first = view["groups"][0]["rows"][0]
    assert first == {
        "name": "Aerial Rope Ferry",
        "theme": "aerial rope transport",
        "moves": "+3 economy, −1 environment",
        "size": "small",
        "difficulty": "8",
    }
    assert plan_project(3, {"economy": 3}, {"environment": 1}).difficulty == 8
    # Each idea sits under the defense it develops most.
    for group in view["groups"]:
        for row in group["rows"]:
            gains = dict(re.findall(r"\+(\d) (\w+)", row["moves"]))
            best = max(gains.items(), key=lambda kv: int(kv[0]))[1]
            assert best == group["defense"].lower(), row

    only = "# I\n\n```scratchpress\ninsert: project-ideas\ndevelops: equity\n```\n"
    [view] = _inserts(_campaign(write_campaign, only))
    assert [g["defense"] for g in view["groups"]] == ["Equity"]
    assert len(view["groups"][0]["rows"]) == 3  # the default


def test_careers_list_the_campaigns_own_after_the_built_in_ones(
    write_campaign: WriteCampaign,
) -> None:
    [view] = _inserts(_campaign(write_campaign, "# C\n\n```scratchpress\ninsert: careers\n```\n"))
    careers = view["careers"]
    builtin = builtin_content().careers
    assert len(careers) == len(builtin) + 1 == 14  # thirteen built in, and the ferryman
    assert careers[0] == {
        "name": "Farmer",
        "role": "defense",
        "required": ["fighting or wrestling", "toughness", "craftsmanship"],
        "wants": builtin[0].wants,
    }
    assert careers[-1] == {
        "name": "Ferryman",
        "role": "",
        "required": ["swimming", "toughness"],
        "wants": "A toll on the ford and nobody building a bridge.",
    }


def test_one_event_card_in_full(write_campaign: WriteCampaign) -> None:
    chapter = "# E\n\n```scratchpress\ninsert: event-card\nid: weeping-dam\n```\n"
    [view] = _inserts(_campaign(write_campaign, chapter))
    card = view["event"]
    assert card["title"] == "The Weeping Dam"
    assert (card["threat"], card["attacks"]) == ("emergency", "Economy")
    assert card["attack"] == "d20 +8 against economy"
    assert card["damage"] == "6"
    assert card["challenge"] == "Blasting, difficulty 13"
    assert [c["choice"] for c in card["choices"]] == [
        "Open the sluices",
        "Shore it up",
        "Evacuate the lower homes",
    ]
    assert "fails automatically" in card["choices"][0]["consequence"]

    (Path("campaign") / "one.md").write_text(chapter.replace("weeping-dam", "weeping-damn"))
    assert _problems(Path("campaign")) == [
        "campaign/one.md:5: id: no event with id 'weeping-damn' (did you mean 'weeping-dam'?)"
    ]


# --------------------------------------------------------------------------------------------
# the imprint


def test_the_imprint_carries_the_authors_note_and_the_credit(
    write_campaign: WriteCampaign,
) -> None:
    folder = _campaign(
        write_campaign,
        "# One\n\nText.\n",
        BOOK.replace("paper: a5\n", "version: '2'\ncolophon: House rules by our GM.\n"),
    )
    campaign = load_campaign([folder])
    booklet = load_booklet(campaign)
    assert booklet is not None
    view = booklet_view(booklet, compute_campaign(campaign), campaign, BuildOptions())
    colophon = view["colophon"]
    assert colophon["imprint"] == "Test Book, version 2. A. Tester."
    assert colophon["note"] == "House rules by our GM."
    assert "not the official rule texts" in colophon["credit"]
    assert "events, careers and project ideas" in colophon["credit"]
    assert "Scratch Role-Playing System" in colophon["based_on"]
    assert "Resilience" in colophon["based_on"]


# --------------------------------------------------------------------------------------------
# the example's prose against the example campaign


def _three(text: str, lead: str) -> dict[str, int]:
    match = re.search(
        lead + r"\s+(\d+)\s+economy,\s+(\d+)\s+environment,?\s+(?:and\s+)?(\d+)\s+equity",
        text,
    )
    assert match, lead
    return dict(zip(("economy", "environment", "equity"), map(int, match.groups()), strict=True))


def test_the_example_chapters_quote_lantern_weirs_own_numbers() -> None:
    """The community and year chapters name Lantern Weir's E's as founded and after year 1;
    they must say what examples/community.yaml does."""
    campaign = load_campaign([examples_dir()])
    [weir] = [c.definition for c in campaign.communities if c.definition.name == "Lantern Weir"]
    chapters = examples_dir() / "booklet"
    community = (chapters / "community.md").read_text(encoding="utf-8")
    year = (chapters / "year.md").read_text(encoding="utf-8")
    assert _three(community, "founded at") == founding_defenses(weir)
    assert sum(founding_defenses(weir).values()) == 30
    assert _three(community, "stands at") == current_defenses(weir)
    assert _three(year.replace("\n> ", " "), "closed at") == current_defenses(weir)
