"""`scratchpress resilience project` and `draw`, run in-process.

The sub-app is invoked directly; once `scratchpress.cli.app` mounts it as "resilience", the
same commands are also checked through the main app.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner, Result

from scratchpress import api
from scratchpress.cli.app import app as main_app
from scratchpress.cli.resilience import resilience_app
from scratchpress.content.loader import resilience_content
from scratchpress.definitions.resilience_models import event_word_counts
from scratchpress.resources import examples_dir
from scratchpress.rules.year import draw_events, seed_value

from conftest import ExampleBuild, WriteCampaign

runner = CliRunner()
LETTER = (612.0, 792.0)
A4 = (595.0, 842.0)


def run(*args: str | os.PathLike[str]) -> Result:
    result = runner.invoke(resilience_app, [str(a) for a in args])
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"resilience {args} crashed: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.stdout + result.stderr
    return result


# The book's worked example: (arguments, difficulty, automatic).
WORKED = [
    (["-d", "economy=5", "-s", "environment=4"], -3, True),  # Cynthia
    (["--develop", "environment=5"], 17, False),  # David (rolls 14: fails)
    (["-d", "environment=2", "-d", "economy=1", "-s", "equity=1"], 8, False),  # Adam (8)
    (["-d", "equity=4", "-s", "economy=2", "--sacrifice", "environment=1"], 0, True),  # Brian
]


@pytest.mark.parametrize(("args", "difficulty", "automatic"), WORKED)
def test_project_json_worked_example(args: list[str], difficulty: int, automatic: bool) -> None:
    result = run("project", "--players", "4", *args, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["size"] == "large"
    assert data["max_development"] == 5
    assert data["difficulty"] == difficulty
    assert data["automatic"] is automatic
    assert data["legal"] is True


def test_project_text() -> None:
    result = run("project", "--players", "4", "-d", "economy=5", "-s", "environment=4")
    assert result.exit_code == 0
    assert "Large project: 4 players, 1 project each, up to 5 levels developed" in result.stdout
    assert "7 + 2 × 5 - 5 × 4 = -3" in result.stdout
    assert "succeeds automatically" in result.stdout
    david = run("project", "--players", "4", "-d", "environment=5")
    assert "roll d20: 17 or more succeeds (20% chance)" in david.stdout


def test_project_with_the_example_community() -> None:
    # Lantern Weir after year 1 (examples/community.yaml): 6 / 10 / 14, four players.
    result = run("project", "-d", "economy=2", "-s", "equity=1", "--community", "lantern weir")
    assert result.exit_code == 0, result.output
    assert "Lantern Weir: economy 6, environment 10, equity 14" in result.stdout
    assert "On success  economy 8, environment 10, equity 13" in result.stdout
    assert "On failure  economy 6, environment 10, equity 13" in result.stdout
    data = json.loads(
        run("project", "-d", "economy=2", "--community", "Lantern Weir", "--json").stdout
    )
    assert data["players"] == 4
    assert data["community"]["now"] == {"economy": 6, "environment": 10, "equity": 14}


def test_project_with_a_campaign_path(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            communities:
              - {name: Poor Town, players: 6, economy: 2, environment: 14, equity: 14}
            """
        }
    )
    result = run("project", "-d", "environment=1", "-s", "economy=3", "-c", folder, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["size"] == "small"
    assert data["max_development"] == 3
    assert "broken rule: sacrifices 3 levels, more than the 1 it develops" in result.stderr
    assert "broken rule: cannot sacrifice 3 economy: the community only has 2" in result.stderr
    by_name = run("project", folder, "-d", "equity=1", "-c", "poor town")
    assert by_name.exit_code == 0, by_name.output


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        (["--players", "4", "-d", "economy=6"], "a large project develops at most 5 levels"),
        (
            ["--players", "5", "-d", "economy=3", "-d", "equity=2"],
            "a medium project develops at most 4",
        ),
        (["--players", "3", "-d", "economy=4"], "a small project develops at most 3 levels"),
        (["--players", "4", "-d", "economy=2", "-s", "economy=1"], "cannot sacrifice economy"),
        (["--players", "4", "-d", "economy=1", "-s", "equity=2"], "sacrifices 2 levels, more than"),
        (["--players", "4", "-s", "equity=1"], "a project must develop at least 1 level"),
        (["--players", "8", "-d", "economy=1"], "the project rules cover 1 to 7 players, not 8"),
    ],
)
def test_broken_rules_exit_1_naming_the_rule(args: list[str], rule: str) -> None:
    result = run("project", *args)
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert any(line.startswith("broken rule: ") and rule in line for line in lines), lines


def test_every_broken_rule_gets_its_own_line() -> None:
    result = run(
        "project", "--players", "6", "-d", "economy=4", "-s", "economy=1", "-s", "equity=4"
    )
    assert result.exit_code == 1
    broken = [line for line in result.stderr.splitlines() if line.startswith("broken rule:")]
    assert len(broken) == 3, broken


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("economy5", "--develop 'economy5': write defense=levels, e.g. --develop economy=5"),
        ("wealth=2", "--develop 'wealth=2': 'wealth' is not a defense"),
        ("economy=-1", "--develop 'economy=-1': levels must be a whole number, 1 or more"),
        ("economy=0", "levels must be a whole number, 1 or more"),
        ("economy=1.5", "write defense=levels"),
        ("enviroment=2", "(did you mean 'environment'?)"),
    ],
)
def test_bad_develop_syntax_is_a_clean_error(value: str, message: str) -> None:
    result = run("project", "--players", "4", "--develop", value)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_project_needs_players_and_known_communities() -> None:
    missing = run("project", "-d", "economy=1")
    assert missing.exit_code == 2
    assert "--players is required" in missing.stderr
    unknown = run("project", "-d", "economy=1", "--community", "Lantern Wier")
    assert unknown.exit_code == 2
    assert "no community named 'Lantern Wier'" in unknown.stderr
    assert '(did you mean "Lantern Weir"?)' in unknown.stderr


# ------------------------------------------------------------------------------ draw


def _drawn(*args: str) -> list[str]:
    result = run("draw", "--json", *args)
    assert result.exit_code == 0, result.output
    return [e["id"] for e in json.loads(result.stdout)["events"]]


def test_same_seed_same_events_different_seed_different_events() -> None:
    first = _drawn("--seed", "42", "--years", "5")
    assert first == _drawn("--seed", "42", "--years", "5")
    assert len(set(first)) == 5
    assert first != _drawn("--seed", "43", "--years", "5")
    assert _drawn("--seed", "weir", "-y", "3") == _drawn("--seed", "weir", "-y", "3")


def test_draw_is_machine_independent() -> None:
    # random.Random(42).sample over the sorted ids: fixed for every platform and run.
    events = resilience_content(None).events
    ids = sorted(e.id for e in events)
    import random

    assert [e.id for e in draw_events(events, 4, 42)] == random.Random(42).sample(ids, 4)
    assert seed_value("42") == 42 and seed_value("weir") == "weir"


def test_draw_every_event_once() -> None:
    count = len(resilience_content(None).events)
    drawn = _drawn("--seed", "1", "--years", str(count))
    assert len(drawn) == len(set(drawn)) == count


def test_years_beyond_the_events_is_an_error() -> None:
    count = len(resilience_content(None).events)
    result = run("draw", "--years", str(count + 1), "--seed", "1")
    assert result.exit_code == 2
    assert f"asks for more events than the {count} there are" in result.stderr
    assert run("draw", "--years", "0").exit_code == 2


def test_draw_text_lists_what_the_gm_needs() -> None:
    result = run("draw", "--seed", "42", "--years", "2")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("Seed 42: 2 of ")
    for label in ("Year 1 · ", "Year 2 · ", "GM's roll", "Temporary", "Challenge", "Decision"):
        assert label in out
    assert "success: " in out and "failure: " in out and "  1. " in out


def test_draw_without_seed_prints_the_one_it_used() -> None:
    result = run("draw")
    assert result.exit_code == 0
    seed = result.stdout.split(":", 1)[0].removeprefix("Seed ")
    again = run("draw", "--seed", seed)
    assert again.stdout == result.stdout


def test_draw_with_a_campaign_uses_its_events_and_years(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            communities:
              - name: Weir
                economy: 10
                environment: 10
                equity: 10
                history:
                  - {year: 3, event: something}
            events:
              - id: zz-our-own
                title: Our Own Event
                threat: siege
                attacks: environment
                attack_bonus: 3
                damage: 2
                story: The road is cut and the well runs dry.
                temporary: Projects roll at -1.
                challenge:
                  ability: navigation
                  difficulty: 12
                  success: A way through; attack bonus -2.
                  failure: Lost in the hills; -1 equity now.
                decision:
                  prompt: Wait, or break out?
                  choices:
                    - {choice: Wait, consequence: attack bonus +2.}
                    - {choice: Break out, consequence: -1 economy now.}
                encounter: Raiders at the ford.
            """
        }
    )
    count = len(resilience_content(None).events) + 1
    result = run("draw", folder, "--seed", "5", "--years", str(count), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert "zz-our-own" in [e["id"] for e in data["events"]]
    assert data["events"][0]["year"] == 4  # after the campaign's last logged year


@pytest.mark.parametrize(("paper", "size"), [("letter", LETTER), ("a4", A4)])
def test_draw_writes_one_year_sheet_page_per_event(
    tmp_path: Path, paper: str, size: tuple[float, float]
) -> None:
    out = tmp_path / "years.pdf"
    result = run("draw", "--seed", "42", "--years", "3", "-o", out, "--paper", paper)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
    assert f"wrote {out} (3 pages)" in result.stderr
    pages = PdfReader(out).pages
    assert len(pages) == 3
    ids = _drawn("--seed", "42", "--years", "3")
    events = {e.id: e for e in resilience_content(None).events}
    for page, event_id in zip(pages, ids, strict=True):
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            size, abs=1
        )
        text = page.extract_text()
        assert events[event_id].title.upper() in text
        assert "AT THE TABLE" in text and "Before" in text and "After" in text


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_longest_events_fit_one_year_sheet_page(tmp_path: Path, paper: str) -> None:
    # The events most likely to run over (the most words); rendering all 45 takes too long.
    events = resilience_content(None).events
    longest = sorted(events, key=lambda e: event_word_counts(e)["total"])[-3:]
    out = tmp_path / "longest.pdf"
    drawn = api.Draw(0, len(events), list(enumerate(longest, 1)), None, None, None)
    report = api.year_sheets(drawn, out, {"paper": paper, "ink_saver": True})
    assert report.problems == [] and report.pages == 3
    assert len(PdfReader(out).pages) == 3


def test_draw_output_to_a_folder_is_an_error(tmp_path: Path) -> None:
    result = run("draw", "-o", tmp_path)
    assert result.exit_code == 2
    assert "is a folder" in result.stderr


def test_mounted_on_the_main_app() -> None:
    names = {group.name for group in main_app.registered_groups}
    if "resilience" not in names:
        pytest.skip("scratchpress.cli.app does not mount the resilience sub-app yet")
    result = runner.invoke(
        main_app, ["resilience", "project", "-p", "4", "-d", "equity=4", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["difficulty"] == 15


# --- a stranger's names reach the terminal escaped (issue 31) -------------------------------

# What a terminal would act on (the line break aside); none of it may be printed raw.
RAW_CONTROL = {chr(c) for c in (*range(0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0))} | set(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# An OSC retitling the window (ended by BEL), a C1 CSI, a right-to-left override; accents stay.
HOSTILE_TOWN = "Wéir\x1b]0;pwned\x07\x9b2J\u202e"
SHOWN_TOWN = "Wéir\\x1b]0;pwned\\x07\\x9b2J\\u202e"


def _raw(text: str) -> list[str]:
    return sorted({c for c in text if c in RAW_CONTROL})


def _hostile_town(write_campaign: WriteCampaign) -> Path:
    # JSON strings are YAML double-quoted scalars: the escapes arrive as the raw characters.
    town, title = json.dumps(HOSTILE_TOWN), json.dumps("Flood\x1b[31m\u202e")
    encounter = json.dumps("Raiders\x9b at the ford.")
    return write_campaign(
        {
            "c.yaml": f"""\
            communities:
              - {{name: {town}, economy: 10, environment: 10, equity: 10, players: 4}}
            events:
              - id: zz-our-own
                title: {title}
                threat: siege
                attacks: environment
                attack_bonus: 3
                damage: 2
                story: The road is cut and the well runs dry.
                temporary: Projects roll at -1.
                challenge:
                  ability: navigation
                  difficulty: 12
                  success: A way through.
                  failure: Lost in the hills.
                decision:
                  prompt: Wait, or break out?
                  choices:
                    - {{choice: Wait, consequence: attack bonus +2.}}
                    - {{choice: Break out, consequence: -1 economy now.}}
                encounter: {encounter}
            """
        }
    )


def test_project_shows_control_characters_in_a_community_name_escaped(
    write_campaign: WriteCampaign,
) -> None:
    result = run("project", _hostile_town(write_campaign), "-d", "economy=1")
    assert result.exit_code == 0, result.output
    assert _raw(result.stdout + result.stderr) == []
    assert f"{SHOWN_TOWN}: economy 10, environment 10, equity 10" in result.stdout


def test_project_json_escapes_what_json_leaves_raw(write_campaign: WriteCampaign) -> None:
    result = run("project", _hostile_town(write_campaign), "-d", "economy=1", "--json")
    assert result.exit_code == 0, result.output
    assert _raw(result.stdout) == []
    assert '"Wéir\\u001b]0;pwned\\u0007\\u009b2J\\u202e"' in result.stdout
    assert json.loads(result.stdout)["community"]["name"] == HOSTILE_TOWN


def test_a_usage_error_listing_community_names_shows_them_escaped(
    write_campaign: WriteCampaign,
) -> None:
    result = run("project", _hostile_town(write_campaign), "-c", "Weir", "-d", "economy=1")
    assert result.exit_code == 2
    assert _raw(result.stdout + result.stderr) == []
    assert result.stderr.splitlines()[-1].endswith(f"communities: {SHOWN_TOWN}"), result.stderr


def test_draw_shows_control_characters_in_an_event_escaped(
    write_campaign: WriteCampaign,
) -> None:
    count = len(resilience_content(None).events) + 1  # every event: ours among them
    result = run("draw", _hostile_town(write_campaign), "--seed", "5", "--years", str(count))
    assert result.exit_code == 0, result.output
    assert _raw(result.stdout + result.stderr) == []
    assert " · Flood\\x1b[31m\\u202e [zz-our-own]" in result.stdout
    assert "  Encounter   Raiders\\x9b at the ford." in result.stdout


def test_draw_json_escapes_what_json_leaves_raw(write_campaign: WriteCampaign) -> None:
    count = len(resilience_content(None).events) + 1
    folder = _hostile_town(write_campaign)
    result = run("draw", folder, "--seed", "5", "--years", str(count), "--json")
    assert result.exit_code == 0, result.output
    assert _raw(result.stdout) == []
    assert '"title": "Flood\\u001b[31m\\u202e"' in result.stdout
    titles = [e["title"] for e in json.loads(result.stdout)["events"]]
    assert "Flood\x1b[31m\u202e" in titles


def test_simulate_shows_control_characters_in_a_community_name_escaped(
    write_campaign: WriteCampaign,
) -> None:
    result = run("simulate", _hostile_town(write_campaign), "--runs", "5", "--years", "2")
    assert result.exit_code == 0, result.output
    assert _raw(result.stdout + result.stderr) == []
    assert f"5 runs of 2 years: {SHOWN_TOWN} (economy 10" in result.stdout


def test_draw_leaves_out_the_events_a_community_has_logged() -> None:
    """Lantern Weir logged the Weeping Dam as its year 1: seed 20 drew it again for year 2
    before; now no draw of the Weir's, however long, meets it twice."""

    count = len(resilience_content(None).events)
    everything = _drawn(str(examples_dir()), "--seed", "20", "--years", str(count - 1))
    assert "weeping-dam" not in everything and len(set(everything)) == count - 1
    assert "weeping-dam" in _drawn("--seed", "20", "--years", str(count))  # no campaign
    too_many = run("draw", examples_dir(), "--seed", "20", "--years", str(count))
    assert too_many.exit_code == 2


def test_draw_names_the_page_of_encounters_pdf_with_the_opponents(
    example_build: ExampleBuild, tmp_path: Path
) -> None:
    """The drawn event sends the GM to the page where its opponents and stakes start, in
    the encounters.pdf the same campaign builds: the terminal, the JSON and the year sheet
    all name it."""
    result = run("draw", examples_dir(), "--seed", "20", "--years", "3", "--json")
    assert result.exit_code == 0, result.output
    events = json.loads(result.stdout)["events"]
    [encounters] = example_build.folder.glob("encounters.pdf")
    pages = PdfReader(encounters).pages
    for event in events:
        page = event["encounters_page"]
        assert isinstance(page, int)
        text = pages[page - 1].extract_text()
        assert event["title"].upper() in text.upper() and event["encounter"][:30] in text
    first = events[0]
    text = run("draw", examples_dir(), "--seed", "20").stdout
    assert f"Opponents   encounters.pdf, page {first['encounters_page']}" in text
    sheet = tmp_path / "year.pdf"
    assert run("draw", examples_dir(), "--seed", "20", "-o", sheet).exit_code == 0
    said = PdfReader(sheet).pages[0].extract_text()
    assert f"encounters.pdf, page {first['encounters_page']}" in said


def test_draw_reads_the_marks_in_the_history(write_campaign: WriteCampaign, tmp_path: Path) -> None:
    """Grain Blight's answer "Beg clean seed from the hill camps" leaves "Owes the hill
    camps"; the Kiln Collapse reads it: its hill foreman comes for the debt, attack +2. A
    community that logged that answer draws the Kiln Collapse with the line and the +2 in
    the GM's roll, in the terminal, the JSON and the year sheet."""
    folder = write_campaign(
        {
            "c.yaml": """\
            communities:
              - name: Weir
                economy: 10
                environment: 10
                equity: 10
                history:
                  - {year: 1, event: Grain Blight, choice: beg clean seed from the hill camps}
            """
        }
    )
    events = resilience_content(None).events
    count = len(events) - 1  # all but the logged one: the Kiln Collapse is among them
    data = json.loads(run("draw", folder, "--seed", "1", "--years", str(count), "--json").stdout)
    kiln = next(e for e in data["events"] if e["id"] == "kiln-collapse")
    card = next(e for e in events if e.id == "kiln-collapse")
    assert kiln["remembered"] == [
        {
            "mark": "owes-the-hill-camps",
            "name": "Owes the hill camps",
            "text": card.remembers[0].text,
            "attack_bonus": 2,
        }
    ]
    year = kiln["year"]
    assert kiln["marks_attack_bonus"] == 2
    assert kiln["year_attack_bonus"] == card.attack_bonus + (year - 1) + 2
    # Cards that read other marks call up nothing.
    assert all(e["remembered"] == [] for e in data["events"] if e["id"] != "kiln-collapse")
    # The same draw, one year at a time from the Kiln Collapse's place, in the terminal.
    place = [e["id"] for e in data["events"]].index("kiln-collapse")
    text = run("draw", folder, "--seed", "1", "--years", str(place + 1)).stdout
    assert "Remembers   Owes the hill camps: The hill foreman" in text
    assert "marks +2)" in text
    sheet = tmp_path / "year.pdf"
    made = run("draw", folder, "--seed", "1", "--years", str(place + 1), "-o", sheet)
    assert made.exit_code == 0, made.output
    said = " ".join(PdfReader(sheet).pages[place].extract_text().split())
    assert "REMEMBERED · OWES THE HILL CAMPS" in said.upper()
    assert "attack bonus +2" in said
