"""``scratchpress check`` refuses what ``build`` would: portraits, booklet chapters and theme
templates, each reported as ``file:line: entry "Name": field: message``. The build's own
message for a bad portrait reads the same."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from PIL import Image

from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.community import current_defenses
from scratchpress.documents.vehicle import vehicle_view
from scratchpress.resources import examples_dir
from scratchpress.statblocks import compute_campaign

from conftest import Cli, WriteCampaign

# These tests are about what happens around a render: builds use the stand-in (standin.py).
pytestmark = pytest.mark.usefixtures("stand_in_renderer")

PARTY = """\
characters:
  - name: Ann
    description: a test character
    portrait: {portrait}
    abilities: {{toughness: 2}}
"""


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (30, 40), (180, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


def _portrait_campaign(write_campaign: WriteCampaign, portrait: str) -> Path:
    return write_campaign({"party.yaml": PARTY.format(portrait=portrait)})


def _check_fails_with(cli: Cli, folder: Path, line: str) -> None:
    result = cli("check", folder)
    assert result.exit_code == 1, result.output
    assert line in result.stderr.splitlines(), result.stderr


def test_a_missing_portrait(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = _portrait_campaign(write_campaign, "face.png")
    _check_fails_with(
        cli, folder, 'campaign/party.yaml:4: entry "Ann": portrait: face.png: no such file'
    )


def test_a_portrait_outside_the_campaign(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())  # a real picture, but not the campaign's
    folder = _portrait_campaign(write_campaign, "../outside.png")
    _check_fails_with(
        cli,
        folder,
        'campaign/party.yaml:4: entry "Ann": portrait: ../outside.png is outside the campaign'
        " folder",
    )


def test_a_portrait_symlink_out_of_the_campaign(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())
    folder = _portrait_campaign(write_campaign, "face.png")
    (folder / "face.png").symlink_to(tmp_path / "outside.png")
    _check_fails_with(
        cli,
        folder,
        'campaign/party.yaml:4: entry "Ann": portrait: face.png is outside the campaign folder',
    )


def test_an_absolute_portrait_path_inside_the_campaign(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    face = tmp_path / "campaign" / "face.png"
    folder = _portrait_campaign(write_campaign, str(face))
    face.write_bytes(_png())
    _check_fails_with(
        cli,
        folder,
        f'campaign/party.yaml:4: entry "Ann": portrait: {face}: give the portrait relative to'
        " the campaign folder (e.g. portraits/ann.png), so the campaign still works when moved",
    )


def test_a_text_file_named_png(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = _portrait_campaign(write_campaign, "face.png")
    (folder / "face.png").write_text("not a picture\n", encoding="utf-8")
    _check_fails_with(
        cli,
        folder,
        'campaign/party.yaml:4: entry "Ann": portrait: face.png is not an image scratchpress'
        " can read; portraits must be PNG, JPEG or WebP",
    )


def test_a_good_portrait_passes(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = _portrait_campaign(write_campaign, "portraits/face.png")
    (folder / "portraits").mkdir()
    (folder / "portraits" / "face.png").write_bytes(_png())
    result = cli("check", folder)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_a_booklet_with_a_missing_chapter(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {
            "party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n",
            "booklet.yaml": "title: Test Book\nchapters:\n  - one.md\n  - two.md\n",
            "one.md": "# One\n\nSome text.\n",
        }
    )
    _check_fails_with(cli, folder, "campaign/booklet.yaml:4: chapters.1: two.md: no such file")


def test_a_theme_template_that_does_not_parse(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"}
    )
    (folder / "theme" / "carry").mkdir(parents=True)
    (folder / "theme" / "carry" / "carry.html").write_text(
        '{% extends "base.html" %}\n{% block body %}\n{% if carry %}\n<p>hi</p>\n{% endblock %}\n',
        encoding="utf-8",
    )
    _check_fails_with(
        cli,
        folder,
        "campaign/theme/carry/carry.html:5: template error: Encountered unknown tag 'endblock'."
        " You probably made a nesting mistake. Jinja is expecting this tag, but currently"
        " looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed"
        " is 'if'.",
    )


def test_a_theme_template_unclosed_at_the_end(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"}
    )
    (folder / "theme").mkdir()
    (folder / "theme" / "base.css").write_text("p { color: red; }\n{% if x %}\n", encoding="utf-8")
    _check_fails_with(
        cli,
        folder,
        "campaign/theme/base.css:2: template error: Unexpected end of template. Jinja was"
        " looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that"
        " needs to be closed is 'if'.",
    )


@pytest.mark.parametrize("portrait", ["face.png", "../outside.png"])
def test_build_says_the_same_about_a_bad_portrait(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path, portrait: str
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())
    folder = _portrait_campaign(write_campaign, portrait)
    checked = cli("check", folder)
    [line] = [s for s in checked.stderr.splitlines() if "portrait:" in s]
    built = cli("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1")
    assert built.exit_code == 1, built.output
    assert line in built.stderr.splitlines(), built.stderr
    assert line.startswith('campaign/party.yaml:4: entry "Ann": portrait: ')
    assert not list((tmp_path / "out").glob("*.pdf"))


# -------------------- formerly tests/documents/test_stats_json.py
# `scratchpress stats --json`: held to docs/stats-json.schema.json, and its numbers the same
# ones the text output and the vehicle and community sheets print.

# These tests are about what happens around a render: builds use the stand-in (standin.py).

REPO = Path(__file__).resolve().parents[2]
SCHEMA_FILE = REPO / "docs" / "stats-json.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
EXAMPLES = examples_dir()


def _errors(data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(data)
    ]


@pytest.fixture(scope="module")
def runs() -> dict[str, list[dict[str, Any]]]:
    """The example campaign's --json output under each ruleset."""
    from typer.testing import CliRunner

    from scratchpress.cli.app import app

    out = {}
    for rules in ("current", "early", "classic"):
        result = CliRunner().invoke(app, ["stats", str(EXAMPLES), "--json", "--rules", rules])
        assert result.exit_code == 0, result.output
        out[rules] = json.loads(result.stdout)
    return out


def by_name(data: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {b["name"]: b for b in data}


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("rules", ["current", "early", "classic"])
def test_the_example_output_matches_the_schema(runs: dict[str, Any], rules: str) -> None:
    data = runs[rules]
    assert {b["kind"] for b in data} == {"character", "minion", "vehicle", "community"}
    assert _errors(data) == []


@pytest.mark.parametrize(
    ("kind", "key"),
    [("vehicle", "fuel"), ("vehicle", "weapons"), ("character", "health"), ("community", "now")],
)
def test_the_schema_notices_a_missing_or_unknown_key(
    runs: dict[str, Any], kind: str, key: str
) -> None:
    # The schema is closed both ways, so output and doc cannot drift apart silently.
    data = copy.deepcopy(runs["current"])
    entry = next(b for b in data if b["kind"] == kind)
    del entry[key]
    assert _errors(data)
    entry[key] = None
    entry["surprise"] = 1
    assert _errors(data)


def test_every_schema_key_is_in_the_doc() -> None:
    doc = (REPO / "docs" / "json.md").read_text(encoding="utf-8")
    assert "stats-json.schema.json" in doc
    keys: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            keys.update(node.get("properties", {}))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(SCHEMA)
    documented = set(re.findall(r"`([a-z_]+)`", doc))
    assert sorted(keys - documented) == []


# --------------------------------------------------------------------------------------------
# the numbers: the same as the text output and the sheets


@pytest.fixture(scope="module")
def computed() -> Any:
    return compute_campaign(load_campaign([EXAMPLES]))


def test_vehicle_matches_its_sheet(runs: dict[str, Any], computed: Any) -> None:
    patience = by_name(runs["current"])["Old Patience"]
    view = vehicle_view(computed.block("vehicle", "Old Patience"))
    boxes = {box["label"]: box["value"] for box in view["stats"]}
    assert boxes["Defense"] == str(patience["defense"]) == "14"
    # Without a driver it cannot move: countermeasures 1, not quickness 2 (issue 26).
    assert boxes["Without crew"] == str(patience["defense_uncrewed"]) == "11"
    assert boxes["Evading"] == str(patience["defense_evading"]) == "18"
    assert boxes["Initiative"] == "+0" and patience["initiative_bonus"] == 0
    assert view["fuel"]["count"] == str(patience["fuel"]) == "4"
    assert [w["name"] for w in view["weapons"]] == [w["name"] for w in patience["weapons"]]
    assert [w["level"] for w in view["weapons"]] == [str(w["level"]) for w in patience["weapons"]]
    assert patience["movement"] == "quickness"
    assert patience["health"] == {"healthy": [12, 22], "injured": [1, 11]}


def test_vehicle_crew_and_weapons(runs: dict[str, Any]) -> None:
    tithe = by_name(runs["current"])["Ninth Tithe"]
    # 10 x stalking 5 (1 + Ludo Farrow's piloting 4), as `stats --explain` says.
    # Without a pilot it cannot move: 10 + its own stalking 1, not flying 2 (issue 26).
    assert (tithe["initiative_bonus"], tithe["fuel"], tithe["defense_uncrewed"]) == (50, 3, 11)
    assert tithe["crew"] == {
        "operator": {"name": "Ludo Farrow", "ability": "piloting", "level": 4},
        "gunner": {"name": "Bramble Oyelaran", "ability": "blasting", "level": 4},
    }
    assert tithe["weapons"] == [
        {
            "name": "guns",
            "level": 6,
            "damage": 5,
            "auto_damage": 6,
            "gunner": "Bramble Oyelaran",
            "reach": "one vehicle or character of its own group",
        },
        {
            "name": "missiles",
            "level": 6,
            "damage": 5,
            "auto_damage": 6,
            "gunner": "Bramble Oyelaran",
            "reach": "one vehicle in this or another group",
        },
        {
            "name": "bombs",
            "level": 5,
            "damage": 5,
            "auto_damage": 6,
            "gunner": "Bramble Oyelaran",
            "reach": "every vehicle in one group",
        },
    ]
    countermeasures = by_name(runs["current"])["Old Patience"]["weapons"][-1]
    assert (countermeasures["name"], countermeasures["damage"]) == ("countermeasures", 0)


def test_vehicle_headers_match_the_text_output(runs: dict[str, Any]) -> None:
    from typer.testing import CliRunner

    from scratchpress.cli.app import app

    text = CliRunner().invoke(app, ["stats", str(EXAMPLES)]).stdout
    for block in runs["current"]:
        if block["kind"] == "vehicle":
            assert (
                f"{block['name']} ({block['defense']} defense, {block['stamina']} stamina)" in text
            )


def test_characters_and_minions(runs: dict[str, Any]) -> None:
    blocks = by_name(runs["current"])
    hester, hands = blocks["Hester Greaves"], blocks["Ledger-hands"]
    # The Rookery rolls +38, as the text output's "Initiative groups" line shows.
    assert hester["group_initiative_bonus"] == hands["group_initiative_bonus"] == 38
    assert (hands["leader"], hands["count"], hands["strength"]) == ("Hester Greaves", 2, 8)
    assert hands["health"] == {"healthy": [1, 1], "injured": None}  # toughness 1: no band
    assert hester["movement"]["healthy"] == {"ground": 4, "air": None, "rough": 2, "water": 2}
    assert hester["movement"]["injured"] == {"ground": 2, "air": None, "rough": 1, "water": 1}
    classic = by_name(runs["classic"])["Hester Greaves"]
    assert (classic["agility"], classic["carry"], classic["defense"]) == (None, None, 11)


def test_community_now_matches_its_sheet(runs: dict[str, Any], computed: Any) -> None:
    weir = by_name(runs["current"])["Lantern Weir"]
    assert (weir["economy"], weir["environment"], weir["equity"]) == (12, 7, 11)  # as founded
    assert weir["now"] == current_defenses(computed.block("community", "Lantern Weir").definition)
    assert weir["now"] == {"economy": 6, "environment": 10, "equity": 14}  # history, year 1
    assert (weir["players"], weir["year"]) == (4, 1)
    assert weir["project_size"] == {"size": "large", "projects_per_player": 1, "max_development": 5}


def test_a_community_without_players_or_play(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {"c.yaml": "communities:\n  - {name: Town, economy: 10, environment: 10, equity: 10}\n"}
    )
    result = cli("stats", folder, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert _errors(data) == []
    assert data[0]["now"] == {"economy": 10, "environment": 10, "equity": 10}
    assert (data[0]["players"], data[0]["year"], data[0]["project_size"]) == (None, 0, None)


def test_an_uncrewed_vehicle(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign(
        {
            "c.yaml": "vehicles:\n  - name: Cart\n    movement: quickness\n"
            "    abilities: {quickness: 1, toughness: 3, guns: 1}\n"
        }
    )
    data = json.loads(cli("stats", folder, "--json").stdout)
    assert _errors(data) == []
    cart = data[0]
    assert cart["crew"] == {"operator": None, "gunner": None}
    assert cart["weapons"][0]["gunner"] is None
    # No driver and no autopilot: it cannot move, so quickness 1 is not counted (issue 26).
    assert (cart["fuel"], cart["defense"], cart["defense_uncrewed"]) == (0, 10, 10)


# --- a stranger's names reach the terminal escaped (issue 31) -------------------------------

# An OSC retitling the window (ended by BEL), a CSI colour, a C1 CSI and a right-to-left
# override, beside accents and CJK, which must print as they are.
HOSTILE_NAME = "Ann\x1b]0;pwned\x07\x1b[31m\x9b2J\u202eevil Ünïcødé 漢字"
SHOWN_NAME = "Ann\\x1b]0;pwned\\x07\\x1b[31m\\x9b2J\\u202eevil Ünïcødé 漢字"
# What a terminal would act on; none of it may reach stdout or stderr raw.
RAW_CONTROL = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def _hostile_party(write_campaign: WriteCampaign) -> Path:
    # JSON strings are YAML double-quoted scalars: the escapes arrive as the raw characters.
    name, note = json.dumps(HOSTILE_NAME), json.dumps("a tyre iron\x07\x1b[2J")
    return write_campaign(
        {
            "party.yaml": f"characters:\n  - name: {name}\n    description: {note}\n"
            "    abilities: {toughness: 2}\n"
        }
    )


@pytest.mark.parametrize("explain", [[], ["--explain"]], ids=["stats", "explain"])
def test_stats_shows_control_characters_in_a_name_escaped(
    write_campaign: WriteCampaign, cli: Cli, explain: list[str]
) -> None:
    result = cli("stats", _hostile_party(write_campaign), *explain)
    assert result.exit_code == 0, result.stderr
    assert not RAW_CONTROL.search(result.stdout + result.stderr), repr(result.stdout)
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{SHOWN_NAME} (10 agility"), first
    assert first.endswith(": a tyre iron\\x07\\x1b[2J"), first


def test_stats_json_escapes_what_json_leaves_raw_and_keeps_the_name(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    result = cli("stats", _hostile_party(write_campaign), "--json")
    assert result.exit_code == 0, result.stderr
    assert not RAW_CONTROL.search(result.stdout), repr(result.stdout)
    assert '"name": "Ann\\u001b]0;pwned\\u0007\\u001b[31m\\u009b2J\\u202eevil Ünïcødé 漢字"' in (
        result.stdout
    )
    assert json.loads(result.stdout)[0]["name"] == HOSTILE_NAME  # the same name, read back


# -------------------- files a build will not read (issue 31)
# `check` names them in one-line notes; `import -o` says when it writes where a build will
# not read.

TUMBLEWEED = """\
Tumbleweed (10 agility, 10 intelligence, 13 strength, 2 stamina)
3 wrestling
4 toughness
"""


def _campaign_and_blocks(write_campaign: WriteCampaign, tmp_path: Path) -> Path:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"}
    )
    (folder / "scratchpress.toml").write_text('paper = "a4"\n', encoding="utf-8")
    (tmp_path / "blocks.txt").write_text(TUMBLEWEED, encoding="utf-8")
    (folder / "imports").mkdir()
    return folder


def test_import_into_the_campaign_folder_says_nothing_more(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    _campaign_and_blocks(write_campaign, tmp_path)
    result = cli("import", "blocks.txt", "-o", "campaign/imported.yaml")
    assert result.exit_code == 0, result.stderr
    assert "note:" not in result.stderr


def test_import_into_a_subfolder_says_a_build_will_not_read_it(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    folder = _campaign_and_blocks(write_campaign, tmp_path)
    result = cli("import", "blocks.txt", "-o", "campaign/imports/tumbleweed.yaml")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1] == (
        "note: campaign/imports/tumbleweed.yaml is in a subfolder of the campaign, and a build"
        " reads only the YAML files directly in the campaign folder; write it as"
        " campaign/tumbleweed.yaml"
    )
    checked = cli("check", folder)  # and check says the same of the file itself
    assert checked.exit_code == 0, checked.stderr
    assert "campaign/imports/tumbleweed.yaml: note: is not read" in checked.stderr


def test_import_to_a_name_not_ending_in_yaml_says_so(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    _campaign_and_blocks(write_campaign, tmp_path)
    result = cli("import", "blocks.txt", "-o", "campaign/tumbleweed.txt")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1] == (
        "note: campaign/tumbleweed.txt does not end in .yaml, so a build will not read it; name"
        " it tumbleweed.yaml"
    )


def test_import_outside_the_campaign_one_stands_in_says_so(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _campaign_and_blocks(write_campaign, tmp_path)
    monkeypatch.chdir(folder)
    result = cli("import", "../blocks.txt", "-o", tmp_path / "tumbleweed.yaml")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines()[-1] == (
        f"note: {tmp_path / 'tumbleweed.yaml'} is outside the campaign (this folder), so a"
        " build of it will not read it; write it as tumbleweed.yaml"
    )


def test_build_names_the_files_it_does_not_read(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    folder = write_campaign(
        {
            "party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n",
            "villains.yaml.txt": "characters:\n  - name: Bo\n    abilities: {toughness: 2}\n",
            "npcs.yaml": "",
        }
    )
    built = cli("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1")
    assert built.exit_code == 0, built.stderr
    lines = built.stderr.splitlines()
    assert (
        "campaign/villains.yaml.txt: note: is not read as a definitions file: its name ends in"
        " .txt (Windows hides that ending); rename it villains.yaml"
    ) in lines
    assert "campaign/npcs.yaml: note: is empty: nothing in it is built" in lines


# --- check says how much it compared, and knows the books' misprints (issue 26) -----------

BOOK_BOSS = """\
characters:
  - name: The Boss
    abilities: {shooting: 2, detection: 1, command: 4, toughness: 3}
    printed: {agility: 10, intelligence: 11, strength: 11, stamina: 1}
"""


def test_check_with_a_ruleset_that_computes_little_says_how_little(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    result = cli("check", write_campaign({"boss.yaml": BOOK_BOSS}), "--rules", "classic")
    assert result.stdout == (
        "1 entry checked with the classic rules: 0 errors, 0 warnings. Only 1 of 4 printed"
        " values compared: the classic rules do not compute agility, intelligence or"
        " strength.\n"
    )
    assert "fit the early rules better" in result.stderr


def test_check_passes_the_books_misprint_with_a_note(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    result = cli("check", write_campaign({"boss.yaml": BOOK_BOSS}), "--rules", "early")
    assert result.exit_code == 0
    assert result.stdout == "1 entry checked with the early rules: 0 errors, 0 warnings.\n"
    assert result.stderr.splitlines() == [
        'campaign/boss.yaml:4: note: entry "The Boss": printed.intelligence: the book prints 11,'
        " the early rules give 14 (intelligence 14 = 10 + command 4): a known misprint in the"
        " published example; no revision of the rules gives 11, so this is not an error"
    ]
