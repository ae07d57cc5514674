"""Character sheets: pages, paper, the numbers they print, minion backs, crowded fronts.

Rendering is the slow part (about a second a sheet), so each fixture builds a handful of
chosen characters once per module, through `scratchpress.build.build` as the CLI does; the
example's Letter sheets come from the session's one build of it (conftest's example_build).
"""

from __future__ import annotations

import dataclasses
import textwrap
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from scratchpress.build import BuildReport, build
from scratchpress.definitions.campaign import Campaign, load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import actions as action_words
from scratchpress.documents import sheet
from scratchpress.documents.common import carry_cells, signed
from scratchpress.documents.sheet.text import cut
from scratchpress.problems import InputError
from scratchpress.render.names import slug
from scratchpress.resources import examples_dir
from scratchpress.rules import CharacterStats
from scratchpress.rules.abilities import CHARACTER_ABILITIES
from scratchpress.statblocks import Computed, compute_campaign

from conftest import ExampleBuild

LETTER = (612.0, 792.0)
A4 = (595.0, 842.0)
MM = 72 / 25.4  # PDF points per millimetre


# --- helpers --------------------------------------------------------------------------------


@dataclasses.dataclass
class Built:
    campaign: Campaign
    computed: Computed
    report: BuildReport
    out: Path

    def pdf(self, name: str) -> PdfReader:
        written = next(w for w in self.report.written if w.document.title == name)
        return PdfReader(written.path)

    def text(self, name: str, page: int) -> str:
        return self.pdf(name).pages[page].extract_text()

    def stats(self, name: str) -> CharacterStats:
        block = self.computed.block("character", name)
        assert block is not None and isinstance(block.stats, CharacterStats)
        return block.stats


@dataclasses.dataclass
class ExampleSheets:
    """The example's sheets from the session's one build of it (conftest's example_build)."""

    computed: Computed
    build: ExampleBuild

    def pdf(self, name: str) -> PdfReader:
        return PdfReader(self.build.pdf(f"sheet-{slug(name)}.pdf"))

    def text(self, name: str, page: int) -> str:
        return self.pdf(name).pages[page].extract_text()

    def stats(self, name: str) -> CharacterStats:
        block = self.computed.block("character", name)
        assert block is not None and isinstance(block.stats, CharacterStats)
        return block.stats


def _only(computed: Computed, names: set[str]) -> Computed:
    """The same campaign with only these characters (and their minions) to render."""
    blocks = [
        b
        for b in computed.blocks
        if (b.kind == "character" and b.name in names) or (b.kind == "minion" and b.leader in names)
    ]
    return dataclasses.replace(computed, blocks=blocks)


def _build(folder: Path, out: Path, names: set[str] | None, **options: Any) -> Built:
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    chosen = _only(computed, names) if names is not None else computed
    report = build(chosen, campaign, BuildOptions(**options), out, only=["sheets"])
    return Built(campaign, computed, report, out)


def _squash(text: str) -> str:
    """Text without any whitespace: line breaks inside a long note must not matter."""
    return "".join(text.split())


def _page_size(reader: PdfReader, index: int) -> tuple[float, float]:
    page = reader.pages[index]
    return float(page.mediabox.width), float(page.mediabox.height)


def _text_positions(reader: PdfReader, index: int) -> list[tuple[float, float, str]]:
    """(x, y) in millimetres from the bottom left of every piece of text on a page."""
    found: list[tuple[float, float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], *_: object) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            found.append((x / MM, y / MM, text.strip()))

    reader.pages[index].extract_text(visitor_text=visit)
    return found


def _assert_fits(reader: PdfReader, index: int) -> None:
    """Nothing spilled past the sheet: the footer is the lowest text, where the layout puts
    it, and no text starts within 6 mm of an edge."""
    width, height = (v / MM for v in _page_size(reader, index))
    texts = _text_positions(reader, index)
    assert texts
    lowest = min(y for _, y, _ in texts)
    # The footer's baseline sits just above the page margin and the slack below the sheet;
    # anything that overflowed the sheet would have pushed it lower.
    floor = sheet.PAGE_MARGIN_MM + sheet.PAGE_SLACK_MM + 0.5
    assert lowest >= floor, sorted(texts, key=lambda t: t[1])[:3]
    footer = [t for t in texts if t[1] < lowest + 1.0]
    others = [t for t in texts if t[1] >= lowest + 1.0]
    assert all(y > lowest + 2.5 for _, y, _ in others), (
        footer,
        sorted(others, key=lambda t: t[1])[:3],
    )
    for x, y, text in texts:
        assert 6.0 <= x <= width - 6.0, (x, text)
        assert 6.0 <= y <= height - 6.0, (y, text)


def _clean(report: BuildReport) -> None:
    assert report.warnings == [], report.warnings
    assert report.problems == [], report.problems
    assert report.lint == [], [str(p) for p in report.lint]


def _all_text(reader: PdfReader) -> str:
    return "".join(_squash(page.extract_text()) for page in reader.pages)


# --- the example campaign ------------------------------------------------------------------


@pytest.fixture(scope="module")
def examples(example_build: ExampleBuild) -> ExampleSheets:
    """Ilse Marrow leads two minions (a front and a back); Teodora Vance has no command."""
    return ExampleSheets(compute_campaign(load_campaign([examples_dir()])), example_build)


@pytest.fixture(scope="module")
def examples_a4(tmp_path_factory: pytest.TempPathFactory) -> Built:
    out = tmp_path_factory.mktemp("examples-a4")
    return _build(
        examples_dir(), out, {"Ilse Marrow", "Teodora Vance"}, paper="a4", ink_saver=True
    )


def test_example_sheets_build_cleanly(examples: ExampleSheets, examples_a4: Built) -> None:
    # The CLI prints every warning, layout problem and failure on stderr, after its one
    # line naming the campaign.
    assert examples.build.stderr.splitlines()[1:] == []
    _clean(examples_a4.report)
    stems = {w.path.name for w in examples_a4.report.written}
    assert stems == {"sheet-ilse-marrow.pdf", "sheet-teodora-vance.pdf"}


def test_a_character_without_command_is_one_page(
    examples: ExampleSheets, examples_a4: Built
) -> None:
    reader = examples.pdf("Teodora Vance")
    assert len(reader.pages) == 1
    assert _page_size(reader, 0) == pytest.approx(LETTER, abs=1)
    _assert_fits(reader, 0)
    written = next(w for w in examples_a4.report.written if w.document.title == "Teodora Vance")
    assert not written.document.duplex
    assert written.sheets == 1


def test_a_leader_gets_a_back_for_duplex(examples: ExampleSheets, examples_a4: Built) -> None:
    reader = examples.pdf("Ilse Marrow")
    assert len(reader.pages) == 2
    for index in (0, 1):
        assert _page_size(reader, index) == pytest.approx(LETTER, abs=1)
        _assert_fits(reader, index)
    written = next(w for w in examples_a4.report.written if w.document.title == "Ilse Marrow")
    assert written.document.duplex
    assert written.sheets == 1


def test_a4_front_and_back(examples_a4: Built) -> None:
    reader = examples_a4.pdf("Ilse Marrow")
    assert len(reader.pages) == 2
    for index in (0, 1):
        assert _page_size(reader, index) == pytest.approx(A4, abs=1)
        _assert_fits(reader, index)


def test_ink_saver_portrait_is_grey(examples_a4: Built) -> None:
    page = examples_a4.pdf("Ilse Marrow").pages[0]
    [image] = page.images
    assert image.image is not None and image.image.mode == "L"


@pytest.mark.parametrize("name", ["Ilse Marrow", "Teodora Vance"])
def test_front_prints_every_computed_number(examples: ExampleSheets, name: str) -> None:
    stats = examples.stats(name)
    text = examples.text(name, 0)
    words = text.split()
    for value in (stats.agility, stats.intelligence, stats.strength, stats.stamina):
        assert str(value) in words, value
    assert str(stats.hit_points) in words
    assert signed(stats.initiative_bonus) in words
    assert f"CP {stats.cp} of {stats.budget.cp}" in " ".join(words)
    assert stats.carry is not None
    for label, cell in carry_cells(stats.carry, "both").items():
        if label != "strength":
            assert _squash(cell) in _squash(text), cell
    for action in stats.actions:
        assert action_words.name(action) in text
        if action.bonus is not None:
            expected = signed(action.bonus) if action.roll else "d20"
            assert expected in words, (action.name, expected)
    for ability in stats.abilities:
        assert _squash(ability.note) in _squash(text)
    # The health bands with their ranges.
    assert "healthy" in text and "injured" in text and "incapacitated" in text


def test_group_initiative_is_named(examples: ExampleSheets) -> None:
    text = " ".join(examples.text("Ilse Marrow", 0).split())
    group = next(g for g in examples.computed.groups if g.name == "Weir Wardens")
    assert f"Weir Wardens: the group rolls d20 {signed(group.bonus)}" in text


def test_back_lists_the_minions(examples: ExampleSheets) -> None:
    text = examples.text("Ilse Marrow", 1)
    # Names are set in capitals by the stylesheet, so the text layer reads them so too.
    assert "BALLAST" in text.upper() and "PELL ORRIN" in text.upper()
    assert "command 4: up to 2 minions, 4 CP".upper() in text.upper()
    assert "4 of 4 CP spent" in text
    # Both allowed minions are present: no blank frame to fill in.
    assert "to recruit" not in text
    for minion in examples.computed.minions_of("Ilse Marrow"):
        assert isinstance(minion.stats, CharacterStats)
        for ability in minion.stats.abilities:
            assert _squash(ability.note) in _squash(text)


# --- a campaign of awkward characters ------------------------------------------------------

LONG = (
    "a note long enough to wrap twice or three times on the sheet, written to prove that the"
    " layout makes room for it or shortens it gracefully instead of clipping it off the page"
)
CROWDED_ABILITIES = {
    "toughness": 6,
    "shooting": 3,
    "fighting": 3,
    "wrestling": 2,
    "knockout": 2,
    "stealth": 3,
    "detection": 2,
    "quickness": 3,
    "flying": 2,
    "healing": 2,
    "craftsmanship": 2,
    "command": 3,
}


def _ability_yaml(abilities: dict[str, int], note: str) -> str:
    return "\n".join(
        f'      {name}: {{level: {level}, note: "{note} ({name})"}}'
        for name, level in abilities.items()
    )


AWKWARD = f"""\
characters:
  - name: Crowded Corvina Ashgrove-Pemberton
    player: Sam
    description: "{LONG}"
    group: Test Party
    abilities:
{_ability_yaml(CROWDED_ABILITIES, LONG)}
    minions:
      - name: Gull
        description: a sea bird with opinions
        abilities:
          toughness: {{level: 2, note: "{LONG}"}}

  - name: "<script>alert(1)</script>"
    abilities:
      toughness: {{level: 2, note: '<img src="file:///etc/passwd">'}}
      shooting: 1

  - name: Lone Leader
    description: has command but nobody yet
    abilities:
      command: 2
      toughness: 2

  - name: Thug Boss
    abilities:
      command: 4
      toughness: 3
    minions:
      - name: Thugs
        count: 2
        abilities:
          toughness: 2
"""


@pytest.fixture(scope="module")
def awkward_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("awkward")
    (folder / "party.yaml").write_text(textwrap.dedent(AWKWARD), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def awkward(awkward_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    return _build(awkward_folder, tmp_path_factory.mktemp("awkward-out"), None)


@pytest.fixture(scope="module")
def crowded_a4(awkward_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    out = tmp_path_factory.mktemp("crowded-a4")
    return _build(awkward_folder, out, {"Crowded Corvina Ashgrove-Pemberton"}, paper="a4")


def test_awkward_campaign_builds_cleanly(awkward: Built, crowded_a4: Built) -> None:
    _clean(awkward.report)
    _clean(crowded_a4.report)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_many_abilities_with_long_notes_fit_one_front(
    awkward: Built, crowded_a4: Built, paper: str
) -> None:
    built = awkward if paper == "letter" else crowded_a4
    name = "Crowded Corvina Ashgrove-Pemberton"
    reader = built.pdf(name)
    # Command 3: a front and a back; the notes the front shortened follow on page 3.
    assert len(reader.pages) == 3
    size = LETTER if paper == "letter" else A4
    for index in (0, 1, 2):
        assert _page_size(reader, index) == pytest.approx(size, abs=1)
        _assert_fits(reader, index)
    text = built.text(name, 0)
    stats = built.stats(name)
    for ability in stats.abilities:
        assert ability.name in text
    for value in (stats.agility, stats.intelligence, stats.strength, stats.hit_points):
        assert str(value) in text.split()
    assert "notes in full on p. 3" in " ".join(text.split())
    continued = built.text(name, 2)
    assert "NOTES, CONTINUED" in continued.upper()
    for ability in stats.abilities:
        assert _squash(ability.note) in _squash(continued), ability.name


def test_over_budget_is_flagged_on_the_front(awkward: Built) -> None:
    name = "Crowded Corvina Ashgrove-Pemberton"
    stats = awkward.stats(name)
    assert stats.over_budget
    text = " ".join(awkward.text(name, 0).split())
    assert "Outside the campaign limits" in text
    assert f"spends {stats.cp} CP, over the budget of 10" in text
    assert "toughness 6 is above the maximum level 4" in text
    assert "ABOVE MAX 4" in text.upper()


def test_hostile_name_and_note_are_literal_text(awkward: Built) -> None:
    name = "<script>alert(1)</script>"
    written = next(w for w in awkward.report.written if w.document.title == name)
    assert written.path.name == "sheet-script-alert-1-script.pdf"
    text = _squash(awkward.text(name, 0))
    assert _squash(name) in text
    assert _squash('<img src="file:///etc/passwd">') in text
    assert "root:" not in text


def test_fewer_minions_than_allowed_leaves_blank_frames(awkward: Built) -> None:
    # One minion of two: one frame to fill in, with one HP box per level of command.
    crowded = awkward.text("Crowded Corvina Ashgrove-Pemberton", 1)
    assert "GULL" in crowded.upper()
    assert "Minion 2".upper() in crowded.upper() and "to recruit" in crowded
    # No minions at all: two blank frames.
    lone = awkward.pdf("Lone Leader")
    assert len(lone.pages) == 2
    text = lone.pages[1].extract_text()
    assert text.upper().count("TO RECRUIT") == 2
    assert "0 of 2 CP spent" in text
    # A group of two thugs fills both places: no blank frame, two HP tracks.
    boss = awkward.text("Thug Boss", 1)
    assert "to recruit" not in boss
    assert "Thugs 1".upper() in boss.upper() and "Thugs 2".upper() in boss.upper()
    assert "2 × 2 CP" in boss


def test_no_command_means_no_back(awkward: Built) -> None:
    # The hostile character has no command: one page.
    assert len(awkward.pdf("<script>alert(1)</script>").pages) == 1


def test_portrait_placeholder_when_none_is_given(awkward: Built) -> None:
    assert "PORTRAIT" in awkward.text("Lone Leader", 0).upper()


# --- view model ----------------------------------------------------------------------------


def _context(folder: Path, name: str, **options: Any) -> dict[str, Any]:
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    [document] = [
        d for d in sheet.documents(computed, campaign, BuildOptions(**options)) if d.title == name
    ]
    return document.context


def test_hp_track_marks_injured_boxes() -> None:
    context = _context(examples_dir(), "Ilse Marrow")
    # Toughness 3, stamina 1: boxes 3 and 2 healthy, 1 injured, then the round 0.
    assert [(b["hp"], b["injured"]) for b in context["health"]["track"]] == [
        ("3", False),
        ("2", False),
        ("1", True),
    ]
    assert [b["range"] for b in context["health"]["bands"]] == ["2–3", "1", "0"]


def test_movement_shows_air_only_for_fliers(awkward_folder: Path) -> None:
    flier = _context(awkward_folder, "Crowded Corvina Ashgrove-Pemberton")
    assert flier["movement"]["columns"] == ["ground", "air", "rough", "water"]
    walker = _context(awkward_folder, "Lone Leader")
    assert walker["movement"]["columns"] == ["ground", "rough", "water"]


def test_units_follow_the_option() -> None:
    context = _context(examples_dir(), "Teodora Vance", units="metric")
    assert [r["value"] for r in context["carry"]["rows"]] == ["18 kg", "45 kg", "90 kg"]


def test_classic_rules_print_one_defense(tmp_path: Path) -> None:
    folder = tmp_path / "classic"
    folder.mkdir()
    (folder / "scratchpress.toml").write_text('rules = "classic"\n')
    (folder / "a.yaml").write_text(
        "characters:\n  - name: Old Timer\n    abilities: {toughness: 4, quickness: 2}\n"
    )
    context = _context(folder, "Old Timer")
    assert [d["label"] for d in context["defenses"]] == ["Defense"]
    assert context["carry"] is None  # no strength in the classic rules


def test_crowded_front_steps_down_and_keeps_notes_when_it_can(awkward_folder: Path) -> None:
    roomy = _context(awkward_folder, "Thug Boss")
    assert (roomy["density"], len(roomy["abilities"]), roomy["condensed"]) == ("normal", 1, False)
    crowded = _context(awkward_folder, "Crowded Corvina Ashgrove-Pemberton")
    assert crowded["density"] != "normal"
    assert len(crowded["abilities"]) == 3  # every ability still listed


def test_a_bad_portrait_is_an_input_error_at_its_field(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "face.png").write_bytes(b"not an image at all")
    (folder / "a.yaml").write_text(
        "characters:\n  - name: Face\n    portrait: face.png\n    abilities: {toughness: 2}\n"
    )
    campaign = load_campaign([folder])
    with pytest.raises(InputError) as caught:
        sheet.documents(compute_campaign(campaign), campaign, BuildOptions())
    [problem] = caught.value.problems
    assert (problem.line, problem.entry, problem.field) == (3, "Face", "portrait")
    assert problem.message.startswith("face.png is not an image")


def test_cut_keeps_whole_words() -> None:
    assert cut("short", 40) == "short"
    shown = cut("one two three four five six seven", 20)
    assert shown.endswith("…") and len(shown) <= 20 and "thre…" not in shown
    assert cut("anything", 0) == ""


# --- nothing dropped in silence --------------------------------------------------------------

# Every character ability the rules know, each with a note of two or three lines.
EIGHTEEN = "characters:\n  - name: Orla Everything\n    player: Sam\n    abilities:\n" + "\n".join(
    f'      {name}: {{level: {1 + i % 3}, note: "{LONG} ({name})"}}'
    for i, name in enumerate(CHARACTER_ABILITIES)
)


@pytest.fixture(scope="module", params=["letter", "a4"])
def eighteen(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    folder = tmp_path_factory.mktemp("eighteen")
    (folder / "party.yaml").write_text(EIGHTEEN, encoding="utf-8")
    return _build(folder, tmp_path_factory.mktemp("eighteen-out"), None, paper=request.param)


def test_eighteen_abilities_with_long_notes_keep_every_word(eighteen: Built) -> None:
    # Nothing was lost, so there is nothing to warn about: no layout problem at all.
    _clean(eighteen.report)
    name = "Orla Everything"
    reader = eighteen.pdf(name)
    assert len(CHARACTER_ABILITIES) == 18
    # Command among them: the front, the minion back, then the notes continued.
    assert len(reader.pages) == 3
    for index in (0, 1, 2):
        _assert_fits(reader, index)
    front = " ".join(reader.pages[0].extract_text().split())
    assert "notes in full on p. 3" in front
    continued = reader.pages[2].extract_text()
    assert "NOTES, CONTINUED" in continued.upper()
    for ability in eighteen.stats(name).abilities:
        assert _squash(ability.note) in _squash(continued), ability.name
    # The front had no room for its write-in panels: they moved to the continuation page.
    assert "CHARACTER DEVELOPMENT" in continued and "GEAR & NOTES" in continued
    written = next(w for w in eighteen.report.written if w.document.title == name)
    assert written.document.duplex and written.sheets == 2


def test_a_name_too_long_for_its_line_warns_and_fails_with_strict(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from scratchpress.cli.app import app

    folder = tmp_path / "campaign"
    folder.mkdir()
    player = "Alexandra Constantinople-Wirthington of the Upper Weir"
    (folder / "party.yaml").write_text(
        f"characters:\n  - name: Pat\n    player: {player}\n    abilities: {{toughness: 2}}\n",
        encoding="utf-8",
    )
    args = ["build", str(folder), "-o", str(tmp_path / "out"), "--only", "sheets", "-j", "1"]
    runner = CliRunner()
    relaxed = runner.invoke(app, args)
    assert relaxed.exit_code == 0, relaxed.output
    strict = runner.invoke(app, [*args, "--strict"])
    assert strict.exit_code == 1, strict.output
    [line] = [line for line in strict.output.splitlines() if "shortened" in line]
    assert line.startswith('sheet-pat.pdf: entry "Pat": player: shortened to fit its line')
    assert "'Alexandra Constantinople-Wirthington…'" in line
    assert line in relaxed.output  # said either way; --strict only decides the exit code
    assert "--strict: 1 layout problem." in strict.output


def test_the_front_names_the_career_and_keeps_a_development_record(examples: ExampleSheets) -> None:
    text = " ".join(examples.text("Ilse Marrow", 0).split())
    assert "CAREER Sheriff" in text
    assert "CHARACTER DEVELOPMENT" in text
    # `career: Scout` names one of the campaign's own careers.
    assert "CAREER Scout" in " ".join(examples.text("Teodora Vance", 0).split())


def test_a_character_without_a_career_has_no_career_line(awkward: Built) -> None:
    assert "CAREER" not in awkward.text("Lone Leader", 0)


def _boxes(html: str) -> tuple[Any, dict[str, list[tuple[float, float]]]]:
    """The rendered document, and (top, height) in millimetres of every element by class."""
    from scratchpress.render.engine import render_pdf
    from scratchpress.resources import fonts_dir, templates_dir

    rendered = render_pdf(html, templates_dir(), [fonts_dir()], keep_document=True)
    per_mm = 96 / 25.4
    found: dict[str, list[tuple[float, float]]] = {}
    for page in rendered.document.pages:
        for box in page._page_box.descendants():
            element = getattr(box, "element", None)
            if element is None or box.element_tag.endswith(("::before", "::after")):
                continue
            for name in (element.get("class") or "").split():
                top = box.border_box_y() / per_mm
                found.setdefault(name, []).append((top, box.border_height() / per_mm))
    return rendered.document, found


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_gear_and_development_have_room_to_write(paper: str) -> None:
    from scratchpress.render.templating import render_html

    # Hester Greaves has the longest front of the examples: the least room to spare.
    context = _context(examples_dir(), "Hester Greaves", paper=paper)
    _, boxes = _boxes(render_html(sheet.TEMPLATE, context))
    frame = 0.53  # the panels' two 0.75 pt borders

    def lines(height: float) -> int:  # whole ruled lines, as sheet.css places them
        return int((height - frame - 5.6 - 1.2) // 7)

    [(_, notes)] = [b for b in boxes["notes"] if b[1] > 0]
    [(_, development)] = boxes["development"]
    assert lines(notes) >= 3, notes
    assert lines(development) >= 2, development


def test_a_label_that_crowds_its_frame_is_reported(tmp_path: Path) -> None:
    import shutil

    from scratchpress.resources import templates_dir

    # The example minions' labels keep clear of their frames (the examples build with no
    # layout problem); a GM's theme that narrows the number boxes by a millimetre does not.
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(
        "characters:\n  - name: Boss\n    abilities: {command: 2, toughness: 2}\n"
        "    minions:\n      - name: Hound\n        abilities: {toughness: 2}\n",
        encoding="utf-8",
    )
    shutil.copytree(templates_dir() / "sheet", folder / "theme" / "sheet")
    css = folder / "theme" / "sheet" / "sheet.css"
    css.write_text(css.read_text() + "\n.m-num { width: 17mm; }\n", encoding="utf-8")
    built = _build(folder, tmp_path / "out", None)
    messages = [problem.message for problem in built.report.lint]
    assert any(m.startswith("minion Intelligence box overflows by") for m in messages), messages
    assert all(p.entry == "Boss" for p in built.report.lint)


# --------------------------------------------------------------------------------------------
# The live preview's sources (issue 29)


def test_a_preview_render_links_each_number_and_a_printed_one_does_not() -> None:
    from urllib.parse import parse_qs

    from scratchpress.render.templating import render_html

    campaign = load_campaign([examples_dir()])
    computed = compute_campaign(campaign)
    [ludo] = [
        d for d in sheet.documents(computed, campaign, BuildOptions()) if d.title == "Ludo Farrow"
    ]
    context = ludo.context
    agility = parse_qs(context["defenses"][0]["source"])
    assert agility["trace"] == ["agility 12 = 10 + acrobatics 2"]
    assert agility["field"] == ["abilities.acrobatics"]
    assert all(row["source"] for row in context["actions"]["rolled"] if row["roll"] != "d20")
    assert {"hp", "stamina", "initiative"} <= set(context["vitals"]["sources"])
    printed = render_html(ludo.template, context)
    previewed = render_html(ludo.template, {**context, "preview": True})
    assert "sp-source" not in printed
    assert '<a class="sp-source" href="scratchpress-source:?file=' in previewed
    # The links change nothing else: without them the page reads the same.
    import re

    unlinked = re.sub(r'<a class="sp-source" href="[^"]*">([^<]*)</a>', r"\1", previewed)
    unlinked = re.sub(r"\na\.sp-source \{[^}]*\}\n", "\n", unlinked)
    assert unlinked == printed
