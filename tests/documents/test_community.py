"""Community sheets (Resilience) and career checks.

The sheets are built through ``scratchpress.build.build`` with the "community" kind added to
the registry for the test (the shared registry lists it once it is wired in), then read
back with pypdf: pages, paper, and the numbers the rules give for the book's worked example.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pseudo import PSEUDO
from pypdf import PdfReader

from scratchpress.build import BuildReport, build
from scratchpress.content.careers import career_problems
from scratchpress.content.loader import resilience_content
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions, CommunityDef, HistoryYear, ProjectLog
from scratchpress.documents import registry
from scratchpress.documents.community import (
    _creation,
    _difficulty_grid,
    _players_line,
    _year_view,
    current_defenses,
    defends_against,
    finding_words,
    flags,
    project_ledger,
)
from scratchpress.problems import Problem
from scratchpress.resources import examples_dir
from scratchpress.rules.community import (
    DEFENSES,
    LogFinding,
    _plan_problems,
    plan_project,
    project_size,
    review_log,
)
from scratchpress.statblocks import compute_campaign
from scratchpress.wording import speaking

from conftest import ExampleBuild, WriteCampaign

LETTER = (612.0, 792.0)
A4 = (595.0, 842.0)

# The book's community development example: four players, in the order they played.
WORKED = [
    # player, develop, sacrifice, roll, difficulty, result
    ("Cynthia", {"economy": 5}, {"environment": 4}, None, -3, "automatic"),
    ("David", {"environment": 5}, {}, 14, 17, "failed"),
    ("Adam", {"environment": 2, "economy": 1}, {"equity": 1}, 8, 8, "success"),
    ("Brian", {"equity": 4}, {"economy": 2, "environment": 1}, None, 0, "automatic"),
]

CAMPAIGN = """\
communities:
  - name: Example Town
    description: the worked example of Resilience's community development
    players: 4
    economy: 10
    environment: 10
    equity: 10
    projects:
      - {player: Cynthia, name: Clear-cut the trees, develop: {economy: 5},
         sacrifice: {environment: 4}}
      - {player: David, name: Plant trees, develop: {environment: 5}, roll: 14}
      - {player: Adam, name: Sell harvest rights, develop: {environment: 2, economy: 1},
         sacrifice: {equity: 1}, roll: 8}
      - {player: Brian, name: Worker cooperative, develop: {equity: 4},
         sacrifice: {economy: 2, environment: 1}}
    history:
      - {year: 1, event: The Weeping Dam, note: the GM's bonus went to equity}
  - name: Happy Bunny Commune
    economy: {level: 3, note: struggling to stay afloat}
    environment: {level: 20, note: perfect harmony with the Earth}
    equity: {level: 7, note: constant bickering between vegans and vegetarians}
"""


@pytest.fixture
def community_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make sure ``build`` knows the kind, whether or not the registry lists it yet."""
    monkeypatch.setitem(registry.KINDS, "community", "community")


def _build(folder: Path, out: Path, paper: str = "letter", ink_saver: bool = False) -> BuildReport:
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    options = BuildOptions(paper=paper, ink_saver=ink_saver)  # type: ignore[arg-type]
    return build(computed, campaign, options, out, only=["community"])


def _text(pdf: Path, page: int | None = None) -> str:
    pages = PdfReader(pdf).pages
    chosen = pages if page is None else [pages[page]]
    return "\n".join(p.extract_text() for p in chosen)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildReport]:
    """Built once for the module's tests, which only read it."""
    root = tmp_path_factory.mktemp("community")
    (root / "town.yaml").write_text(CAMPAIGN, encoding="utf-8")
    out = root / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(registry.KINDS, "community", "community")
        return out, _build(root, out)


def test_one_two_page_pdf_per_community_without_warnings(built: tuple[Path, BuildReport]) -> None:
    _, report = built
    assert report.warnings == []
    assert report.problems == []
    names = sorted(w.path.name for w in report.written)
    assert names == ["community-example-town.pdf", "community-happy-bunny-commune.pdf"]
    for written in report.written:
        assert written.pages == 2
        assert written.document.kind == "community"
        for size in written.page_sizes:
            assert size == pytest.approx(LETTER, abs=1)


@pytest.mark.parametrize("ink_saver", [False, True])
def test_a4(
    write_campaign: WriteCampaign, tmp_path: Path, community_kind: None, ink_saver: bool
) -> None:
    folder = write_campaign({"town.yaml": CAMPAIGN})
    report = _build(folder, tmp_path / "a4", "a4", ink_saver)
    assert report.warnings == []
    for written in report.written:
        assert written.pages == 2
        for page in PdfReader(written.path).pages:
            size = (float(page.mediabox.width), float(page.mediabox.height))
            assert size == pytest.approx(A4, abs=1)


def test_sheet_shows_the_three_es_and_the_creation_check(built: tuple[Path, BuildReport]) -> None:
    out, _ = built
    town = _text(out / "community-example-town.pdf", 0)
    for word in ("ECONOMY", "ENVIRONMENT", "EQUITY"):
        assert word in town
    flat = " ".join(town.split())
    for defense in DEFENSES:
        assert " · ".join(defends_against(defense)) in flat
    assert "Passes the creation check" in town
    assert "7 + 2 × DEVELOPED − 5 × SACRIFICED" in town
    assert "→ 4 1 large 5 20" in town  # the community's row of the size table

    bunny = _text(out / "community-happy-bunny-commune.pdf", 0)
    assert "Breaks the creation check" in bunny
    assert "economy 3 is under 5" in bunny.lower()
    assert "environment 20 is over 15" in bunny.lower()
    assert "Happy Bunny Commune breaks it too" in bunny.replace("\n", " ")


def test_defends_against_lists_the_books_threats() -> None:
    assert defends_against("economy") == ["emergencies", "breakdowns", "sabotage", "bankruptcy"]
    assert defends_against("environment") == ["attrition", "biological hazards", "sieges"]
    assert defends_against("equity") == ["demoralization", "propaganda", "psy-ops"]


def test_worksheet_holds_the_worked_example(built: tuple[Path, BuildReport]) -> None:
    out, _ = built
    worksheet = _text(out / "community-example-town.pdf", 1)
    # Apply each outcome in order from 10/10/10, as the table would.
    values = dict.fromkeys(DEFENSES, 10)
    for player, develop, sacrifice, roll, difficulty, result in WORKED:
        plan = plan_project(4, develop, sacrifice, values)
        assert plan.legal, plan.problems
        assert plan.difficulty == difficulty
        succeeded = plan.automatic or (roll is not None and roll >= plan.difficulty)
        assert result == ("automatic" if plan.automatic else "success" if succeeded else "failed")
        change = plan.outcome(succeeded)
        values = {d: values[d] + change[d] for d in DEFENSES}
        shown = str(difficulty).replace("-", "−")
        after = " ".join(str(values[d]) for d in DEFENSES)
        row = re.search(rf"^1 {player} .*$", worksheet, re.MULTILINE)
        assert row is not None, worksheet
        cells = row.group(0)
        rolled = f" {roll}" if roll is not None else ""
        assert cells.endswith(f" {shown}{rolled} {result} {after}"), cells
    assert values == {"economy": 14, "environment": 7, "equity": 13}
    assert "THREE E'S AFTER" in worksheet
    assert "The Weeping Dam" in worksheet


def test_ledger_and_history_give_the_community_now(write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"town.yaml": CAMPAIGN})
    town = next(c for c in load_campaign([folder]).communities if c.name == "Example Town")
    ledger = project_ledger(town.definition)
    assert [e.result for e in ledger.entries] == [w[5] for w in WORKED]
    assert [e.plan.difficulty for e in ledger.entries] == [w[4] for w in WORKED]
    assert current_defenses(town.definition) == {"economy": 14, "environment": 7, "equity": 13}


def test_history_values_replace_the_running_ones(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "town.yaml": """\
            communities:
              - name: Weir
                players: 4
                economy: 12
                environment: 7
                equity: 11
                projects:
                  - {year: 1, develop: {environment: 3}, roll: 20}
                  - {year: 2, develop: {economy: 2}, sacrifice: {equity: 2}}
                  - {year: 2, develop: {equity: 1}}
                history:
                  - {year: 1, economy: 9, environment: 11, equity: 12}
            """
        }
    )
    weir = load_campaign([folder]).communities[0].definition
    ledger = project_ledger(weir)
    assert ledger.entries[0].after == {"economy": 12, "environment": 10, "equity": 11}
    # Year 2 starts from the history row, not from the running values.
    assert ledger.entries[1].before == {"economy": 9, "environment": 11, "equity": 12}
    assert ledger.entries[1].result == "automatic"
    assert ledger.entries[2].result == ""  # not rolled yet: after stays blank
    assert ledger.entries[2].after is None
    assert ledger.now == {"economy": 11, "environment": 11, "equity": 10}


def test_illegal_logged_project_is_flagged_on_the_worksheet(
    write_campaign: WriteCampaign, tmp_path: Path, community_kind: None
) -> None:
    folder = write_campaign(
        {
            "town.yaml": """\
            communities:
              - name: Greedy
                players: 6
                economy: 10
                environment: 10
                equity: 10
                projects:
                  - {player: Ann, name: Too big, develop: {economy: 4}, roll: 19}
            """
        }
    )
    out = tmp_path / "out"
    report = _build(folder, out)
    assert report.warnings == []
    text = _text(out / "community-greedy.pdf", 1)
    assert "a small project develops at most 3 levels, this one develops 4" in text


def test_example_campaign_sheet(example_build: ExampleBuild) -> None:
    (path,) = example_build.kinds()["community"]
    assert path.name == "community-lantern-weir.pdf"
    assert len(PdfReader(path).pages) == 2
    assert "warning:" not in example_build.stderr
    text = _text(path)
    assert "AFTER YEAR 1" in text
    assert "Passes the creation check" in text


# ---------------------------------------------------------------------------- careers

PARTY = """\
characters:
  - name: Doc Amsel
    player: Ana
    career: doctor
    abilities: {healing: 2, toughness: 2}
  - name: Sheriff One
    player: Ben
    career: Sheriff
    abilities: {shooting: 1, toughness: 1, command: 1, detection: 1}
  - name: Sheriff Two
    player: Cal
    career: SHERIFF
    abilities: {shooting: 1, quickness: 1, command: 1, detection: 1}
  - name: Deputy Npc
    career: Sheriff
    abilities: {shooting: 1, quickness: 1, command: 1, detection: 1}
  - name: Typo
    player: Dee
    career: Docter
    abilities: {toughness: 1}
  - name: Scout Vance
    player: Eve
    career: Scout
    abilities: {stealth: 2, detection: 1, toughness: 1}
careers:
  - id: scout
    name: Scout
    required: [["stealth"], ["detection"], ["shooting", "fighting"]]
"""


def _line_of(text: str) -> int:
    return next(i for i, line in enumerate(PARTY.splitlines(), 1) if text in line)


def _career_problems(write_campaign: WriteCampaign) -> list[Problem]:
    folder = write_campaign({"party.yaml": PARTY})
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    return career_problems(campaign, computed, resilience_content(campaign).careers)


def test_missing_required_ability_warns(write_campaign: WriteCampaign) -> None:
    problems = _career_problems(write_campaign)
    doc = [p for p in problems if p.entry == "Doc Amsel"]
    assert [(p.severity, p.message) for p in doc] == [
        ("warning", 'career "Doctor" needs quickness or acrobatics (level 1)')
    ]
    assert doc[0].field == "career"
    assert doc[0].line == _line_of("career: doctor")
    assert doc[0].file.endswith("party.yaml")
    scout = [p.message for p in problems if p.entry == "Scout Vance"]
    assert scout == ['career "Scout" needs shooting or fighting (level 1)']


def test_pcs_sharing_a_career_warn_npcs_do_not(write_campaign: WriteCampaign) -> None:
    problems = _career_problems(write_campaign)
    shared = [p for p in problems if "is also" in p.message]
    assert len(shared) == 1
    assert shared[0].entry == "Sheriff Two"
    assert shared[0].severity == "warning"
    assert "Sheriff One" in shared[0].message
    assert not [p for p in problems if p.entry == "Deputy Npc"]
    assert not [p for p in problems if p.entry == "Sheriff One"]


def test_unknown_career_is_an_error_with_a_hint(write_campaign: WriteCampaign) -> None:
    problems = _career_problems(write_campaign)
    typo = [p for p in problems if p.entry == "Typo"]
    assert len(typo) == 1
    assert typo[0].severity == "error"
    assert typo[0].message == "unknown career 'Docter' (did you mean \"Doctor\"?)"
    line = _line_of("career: Docter")
    assert re.search(rf'party\.yaml:{line}: entry "Typo": career: unknown career', str(typo[0]))


def test_unknown_career_without_a_close_name_lists_them(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "party.yaml": """\
            characters:
              - name: Zed
                career: Xylophonist
                abilities: {toughness: 1}
            """
        }
    )
    campaign = load_campaign([folder])
    (problem,) = career_problems(
        campaign, compute_campaign(campaign), resilience_content(campaign).careers
    )
    assert problem.message.startswith("unknown career 'Xylophonist'; known: Farmer, ")


# -------------------- formerly tests/documents/test_community_year.py
# The community worksheet plays each year in the rules' order: event, projects, bonus.


def _lantern_weir() -> CommunityDef:
    campaign = load_campaign([examples_dir()])
    found: CommunityDef = next(
        c.definition for c in campaign.communities if c.name == "Lantern Weir"
    )
    return found


def test_the_event_strikes_before_the_years_projects() -> None:
    # Lantern Weir is founded at economy 12, environment 7, equity 11. In year 1 the Weeping
    # Dam takes 7 economy (damage 6, +1 for the failed challenge); then Priya's cisterns (+3 environment, rolls 15 against 13)
    # succeed, Dan's greenhouses (13) fail on a 9, Lena's wagon (+3 economy -1
    # environment, 8) succeeds on an 11, Tom's lottery (+2 equity -2 economy) is automatic;
    # the GM gives +1 environment and +1 equity. The year ends at 6, 10, 14.
    ledger = project_ledger(_lantern_weir())
    befores = [entry.before for entry in ledger.entries]
    assert befores[0] == {"economy": 5, "environment": 7, "equity": 11}
    assert [entry.result for entry in ledger.entries] == [
        "success",
        "failed",
        "success",
        "automatic",
    ]
    afters = [entry.after for entry in ledger.entries]
    assert afters[-1] == {"economy": 6, "environment": 9, "equity": 13}
    assert ledger.now == {"economy": 6, "environment": 10, "equity": 14}


def test_the_years_modifier_counts_on_the_roll_and_prints_beside_it() -> None:
    # The Weeping Dam: "projects that sacrifice nothing roll at -2 this year". Priya's
    # cisterns roll 15 - 2 = 13 against 13 and still succeed; logged with no modifier a
    # roll of 12 would fail at -2 and succeed without it.
    weir = _lantern_weir()
    priya = weir.projects[0]
    assert (priya.roll, priya.modifier) == (15, -2)
    assert project_ledger(weir).entries[0].result == "success"
    short = weir.model_copy(
        update={"projects": [priya.model_copy(update={"roll": 14}), *weir.projects[1:]]}
    )
    assert project_ledger(short).entries[0].result == "failed"
    lucky = weir.model_copy(
        update={
            "projects": [priya.model_copy(update={"roll": 12, "modifier": 1}), *weir.projects[1:]]
        }
    )
    assert project_ledger(lucky).entries[0].result == "success"
    from scratchpress.documents.community import _worksheet_row

    row = _worksheet_row(project_ledger(weir).entries[0])
    assert (row["roll"], row["modifier"]) == ("15", "−2")


def test_no_value_on_the_worksheet_is_one_the_table_never_saw() -> None:
    # Applied before the event, Lena's wagon would have taken economy to 15.
    ledger = project_ledger(_lantern_weir())
    seen = [entry.before["economy"] for entry in ledger.entries]
    seen += [entry.after["economy"] for entry in ledger.entries if entry.after]
    assert max(seen) == 8  # Lena's wagon, after the dam took 7
    assert 15 not in seen


def test_the_year_sheet_shows_the_years_attack_and_where_it_comes_from() -> None:
    from scratchpress.content.loader import resilience_content
    from scratchpress.definitions.models import BuildOptions
    from scratchpress.documents.community import year_sheets_context

    river = next(e for e in resilience_content(None).events if e.id == "the-river-moves")
    first, third = year_sheets_context([(1, river), (3, river)], None, None, BuildOptions())[
        "years"
    ]
    assert (first["bonus"], first["damage"], first["bonus_why"]) == ("+4", "8", "")
    assert (third["bonus"], third["damage"]) == ("+6", "9")
    assert third["bonus_why"] == "card +4, year 3 +2"
    assert third["damage_why"] == "card 8, year 3 +1"


# Every rule a logged year can break, once each (issue 26): line 8 develops and sacrifices
# economy, line 10 is a large project developing 6, line 12 is Dee's second project of the
# year, lines 15 and 17 give the GM's bonus 3 levels, and line 13 sacrifices 5 environment
# once year 2's event has left 4, which takes it to 0.
BROKEN_LOG = """\
communities:
  - name: Rust Hollow
    players: 4
    economy: 10
    environment: 10
    equity: 10
    projects:
      - {player: Ann, name: Mill race, develop: {economy: 2}, sacrifice: {economy: 1}, roll: 15}
      - {player: Ben, name: Strip mine, develop: {economy: 3}, sacrifice: {environment: 3}}
      - {player: Cal, name: Grand plan, develop: {equity: 6}, roll: 20}
      - {player: Dee, name: Seed bank, develop: {environment: 1}, roll: 18}
      - {player: Dee, name: Second try, develop: {environment: 1}, roll: 18}
      - {year: 2, player: Ben, name: Quarry, develop: {economy: 5}, sacrifice: {environment: 5}}
    history:
      - {year: 1, bonus: {economy: 1, environment: 1, equity: 1}}
      - {year: 2, damage: {environment: 6},
         bonus: {equity: 3}}
"""


def test_check_reports_each_broken_rule_of_the_log_once(write_campaign: WriteCampaign) -> None:
    from scratchpress import api

    opened = api.open_campaign(write_campaign({"hollow.yaml": BROKEN_LOG}))
    report = api.check(opened)
    found = [(p.line, p.field, p.severity, p.message) for p in report.problems]
    assert all(p.file.endswith("hollow.yaml") and p.entry == "Rust Hollow" for p in report.problems)
    assert found == [
        (
            8,
            "projects.0.sacrifice.economy",
            "error",
            "cannot sacrifice economy, the defense this project develops",
        ),
        (
            10,
            "projects.2.develop",
            "error",
            "a large project develops at most 5 levels, this one develops 6",
        ),
        (
            12,
            "projects.4.player",
            "error",
            "Dee starts a project too many in year 1: with 4 players each starts 1 a year",
        ),
        (
            15,
            "history.0.bonus",
            "error",
            "the GM's bonus is 3 levels; the evaluation gives at most 2 (2 to one defense or 1"
            " to each of two, only 1 after a poor year)",
        ),
        (
            13,
            "projects.5.sacrifice.environment",
            "error",
            "cannot sacrifice 5 environment: the community only has 4",
        ),
        (
            13,
            "projects.5",
            "note",
            "environment falls to 0 in year 2, after Ben's Quarry: by the text's tentative end,"
            " a community at 0 in any of the three E's has failed and the game is over",
        ),
        (
            17,
            "history.1.bonus",
            "error",
            "the GM's bonus is 3 levels; the evaluation gives at most 2 (2 to one defense or 1"
            " to each of two, only 1 after a poor year)",
        ),
    ]
    assert len(report.errors) == 6
    # The sheet is where the table mends its log, so these errors stop neither it nor stats.
    assert opened.blocking == []
    assert api.stats_text(opened).startswith("Rust Hollow\n10 economy")


def test_the_sheet_flags_what_check_reports_and_never_a_negative_defense(
    write_campaign: WriteCampaign,
) -> None:
    from scratchpress import api
    from scratchpress.documents.community import community_view

    opened = api.open_campaign(write_campaign({"hollow.yaml": BROKEN_LOG}))
    checked = [p.message for p in api.check(opened).problems]
    block = opened.computed.block("community", "Rust Hollow")
    assert block is not None
    view = community_view(block, BuildOptions())
    flags = view["flagged"]
    assert len(flags) == len(checked)
    for flag, message in zip(flags, checked, strict=True):
        assert flag.endswith(": " + message), (flag, message)
    assert flags[0].startswith("Year 1, Mill race: ")
    assert flags[3].startswith("Year 1: the GM's bonus")
    shown = [int(v) for row in view["worksheet"] for v in row["after"] if v]
    assert min(shown) == 0  # the Quarry's sacrifice empties environment; it goes no lower
    quarry = view["worksheet"][-1]
    assert quarry["after"] == ["20", "0", "17"]
    assert quarry["problems"] == ["cannot sacrifice 5 environment: the community only has 4"]


def test_a_long_list_of_flags_keeps_the_worksheet_on_one_page(
    write_campaign: WriteCampaign, tmp_path: Path, community_kind: None
) -> None:
    # Eight projects that each sacrifice what they develop: eight flags under the worksheet,
    # which take the place of blank rows rather than push the history onto a third page.
    projects = "".join(
        f"      - {{player: P{n}, name: Plan {n}, develop: {{economy: 2}},"
        f" sacrifice: {{economy: 1}}, roll: 20}}\n"
        for n in range(8)
    )
    folder = write_campaign(
        {
            "town.yaml": "communities:\n  - name: Many Flags\n    players: 6\n    economy: 10\n"
            "    environment: 10\n    equity: 10\n    projects:\n" + projects
        }
    )
    for paper in ("letter", "a4"):
        out = tmp_path / paper
        _build(folder, out, paper)
        pdf = out / "community-many-flags.pdf"
        assert len(PdfReader(pdf).pages) == 2, paper
        assert _text(pdf, 1).count("the defense this project develops") == 8


# ---- worded from the catalogues (issue 28): the rules find codes, the sheet words them


TEN = {"economy": 10, "environment": 10, "equity": 10}
PLAIN_WORD = re.compile(r"[A-Za-z]{2,}")


def _findings() -> list[LogFinding]:
    """A log that breaks every rule review_log knows, and ends the game both ways."""
    projects = [
        ProjectLog(
            year=1,
            player="Ann",
            name="Mill",
            develop={"economy": 2},
            sacrifice={"economy": 1},
            roll=3,
        ),
        ProjectLog(year=1, player="Ann", develop={"equity": 6}, roll=20),
        ProjectLog(
            year=1, player="Ben", develop={"equity": 1}, sacrifice={"environment": 2}, roll=20
        ),
        ProjectLog(year=1, player="Cy", develop={}, roll=20),
        ProjectLog(year=1, player="Di", develop={"economy": 1}, roll=20),
        ProjectLog(year=1, player="Ed", develop={"economy": 1}, roll=20),
        ProjectLog(year=2, develop={"economy": 1}, sacrifice={"environment": 9}, roll=1),
    ]
    history = [
        HistoryYear(year=1, bonus={"economy": 2, "equity": 1}),
        HistoryYear(year=3, damage={"economy": 30}),
    ]
    review = review_log(TEN, 4, projects, history)
    won = review_log(
        {"economy": 14, "environment": 15, "equity": 15},
        None,
        [],
        [
            HistoryYear(year=1, bonus={"economy": 1}),
        ],
    )
    won_by_project = review_log(
        {"economy": 14, "environment": 15, "equity": 15},
        None,
        [
            ProjectLog(player="Fay", name="Kiln", develop={"economy": 1}, roll=20),
            ProjectLog(player="Fay", develop={"economy": 1}, roll=20),
        ],
        [],
    )
    fallen_at_year_end = review_log(TEN, 4, [], [HistoryYear(year=1, economy=0, equity=0)])
    fallen_to_the_event = review_log(TEN, 4, [], [HistoryYear(year=1, damage={"economy": 10})])
    return [
        *review.findings,
        *won.findings,
        *won_by_project.findings,
        *fallen_at_year_end.findings,
        *fallen_to_the_event.findings,
    ]


def test_every_finding_reads_in_english_as_check_says_it() -> None:
    found = _findings()
    codes = {f.code for f in found}
    assert codes >= {
        "develops_nothing",
        "develops_too_much",
        "sacrifices_developed",
        "sacrifices_too_much",
        "sacrifices_lacking",
        "bonus_too_large",
        "starts_too_many",
        "players_too_many",
        "fallen",
        "won",
    }
    assert {f.args["when"] for f in found if f.code in ("fallen", "won")} == {
        "event",
        "year end",
        "project",
    }
    for finding in found:
        assert finding_words(finding) == finding.message


def test_a_defense_that_is_none_and_a_log_without_players_read_as_check_says() -> None:
    broken = _plan_problems(project_size(1), {"wealth": 1}, {}, None)
    finding = LogFinding((), broken[0].message, 1, code=broken[0].code, args=broken[0].args)
    assert finding_words(finding) == "'wealth' is not a defense; use economy, environment or equity"
    review = review_log(
        TEN,
        None,
        [
            ProjectLog(player="Ann", develop={"economy": 1}, roll=20),
            ProjectLog(player="Ann", develop={"economy": 1}, roll=20),
            ProjectLog(player="Ann", develop={"economy": 1}, roll=20),
            ProjectLog(player="Ann", develop={"economy": 1}, roll=20),
            ProjectLog(player="Ann", develop={"economy": 1}, roll=20),
        ],
        [],
    )
    (too_many,) = review.findings
    assert too_many.args["players"] is None
    assert finding_words(too_many) == too_many.message


def _plain_words(value: Any, skip: frozenset[str]) -> list[str]:
    """Plain-letter words in a view model, leaving out the campaign's own fields."""
    if isinstance(value, str):
        return [w for w in PLAIN_WORD.findall(value) if w not in {"d20"}]
    if isinstance(value, dict):
        return [w for k, v in value.items() if k not in skip for w in _plain_words(v, skip)]
    if isinstance(value, (list, tuple)):
        return [w for v in value for w in _plain_words(v, skip)]
    return []


def test_the_findings_and_the_sheet_s_words_come_from_the_catalogues() -> None:
    with speaking(PSEUDO):
        worded = [finding_words(f) for f in _findings()]
        creation = _creation({"economy": 3, "environment": 16, "equity": 10})
        grid = _difficulty_grid()
        lines = [_players_line(4), _players_line(1), _players_line(None)]
    # What is left in plain letters is the campaign's names only.
    names = {"Ann", "Ben", "Mill", "Cy", "Di", "Ed", "Fay", "Kiln"}
    assert {w for text in worded for w in PLAIN_WORD.findall(text)} <= names
    assert _plain_words([creation, grid, lines], frozenset()) == []


def test_the_worksheet_flags_are_worded_with_their_year_and_project() -> None:
    from scratchpress.definitions.models import CommunityDef

    community = CommunityDef(
        name="Rust Hollow",
        economy=10,
        environment=10,
        equity=10,
        players=4,
        projects=[{"year": 2, "develop": {"economy": 9}, "roll": 20}],
    )
    ledger = project_ledger(community)
    assert flags(community, ledger) == [
        "Year 2, project 1: a large project develops at most 5 levels, this one develops 9"
    ]
    with speaking(PSEUDO):
        (flag,) = flags(community, ledger)
    assert PLAIN_WORD.findall(flag) == []


@pytest.mark.parametrize("year", [1, 3])
def test_a_year_sheet_words_its_labels_and_the_game_s_terms(year: int) -> None:
    from scratchpress.content.loader import resilience_content

    event = next(e for e in resilience_content(None).events if e.attacks == "environment")
    with speaking(PSEUDO):
        view = _year_view(year, event, TEN, "Lantern Weir", 5)
    content = frozenset(
        {
            "community",
            "title",
            "id",
            "story",
            "temporary",
            "encounter",
            "success",
            "failure",
            "prompt",
            "choice",
            "consequence",
            "bonus",
            "damage",
            "year",
        }
    )
    assert _plain_words(view, content) == []
    english = _year_view(year, event, TEN, "Lantern Weir", 5)
    assert english["threat"] == event.threat
    assert english["attacks"] == "environment"
    assert english["ledger"][0]["cells"] == ["10", "10", "10"]
    if year == 3:
        assert english["bonus_why"] == f"card +{event.attack_bonus}, year 3 +2"


def test_a_defense_past_20_has_a_box_on_its_track() -> None:
    """The track runs 0-20 and ends with a box for a level past it: "+" to pencil in, or
    the level itself, marked, once the log has reached 23 (issue 27: it stopped at 20)."""
    from scratchpress.documents.community import _track

    cells = [cell for row in _track(12) for cell in row]
    assert [c["n"] for c in cells[-3:]] == ["19", "20", "+"]
    assert [c["n"] for c in cells if c["current"]] == ["12"]
    past = [cell for row in _track(23) for cell in row]
    assert past[-1] == {"n": "23", "current": True, "goal": True, "zero": False}
    assert [c["n"] for c in past if c["current"]] == ["23"]
    assert [len(row) for row in _track(23)] == [11, 11]  # eleven to a row fit A4's column
