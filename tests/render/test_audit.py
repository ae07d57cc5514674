"""Issue 25, point 1: nothing the author wrote is lost from a printed page, and when it
would be, the build says where it was written.

The stress booklet is a publisher's folder with no characters: a twelve-column house-rules
table, a 129-letter word, a 206-character web address and a heading that skips a level.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from scratchpress.render.lint import page_field, page_source
from scratchpress.resources import templates_dir

from conftest import Cli, ExampleBuild, WriteCampaign

COLUMNS = 12
WORD = "Supercalifragilistic" * 6 + "endofword"
URL = "https://example.org/" + "very-long-path-segment/" * 7 + "final-page-of-the-url-end"


def _chapter() -> str:
    head = "| " + " | ".join(f"Attribute-heading {i + 1}" for i in range(COLUMNS)) + " |"
    rule = "|" + "---|" * COLUMNS
    rows = [
        "| " + " | ".join(f"Strength-based-value R{r}C{c + 1}" for c in range(COLUMNS)) + " |"
        for r in range(1, 4)
    ]
    return "\n".join(
        [
            "# House rules",
            "",
            "Some text before the table.",
            "",
            head,
            rule,
            *rows,
            "",
            f"A long word: {WORD} and then more text.",  # line 11
            "",
            f"A long link: {URL} and the sentence ends.",
            "",
            "### Skipped a level",  # line 15
            "",
            "Text under a heading that skips a level.",
            "",
        ]
    )


@pytest.fixture
def stress(write_campaign: WriteCampaign) -> Path:
    folder = write_campaign(
        {"booklet.yaml": "title: Stress Booklet\nchapters:\n  - chapters/one.md\n"},
        name="stress",
    )
    (folder / "chapters").mkdir()
    (folder / "chapters" / "one.md").write_text(_chapter(), encoding="utf-8")
    return folder


def _text(pdf: Path) -> str:
    """pdftotext's words with line breaks and hyphenation's hyphens taken out."""
    out = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True)
    return "".join(out.stdout.split()).replace("-", "")


def test_a_folder_of_only_a_booklet_builds_it_with_nothing_lost(stress: Path, cli: Cli) -> None:
    result = cli("build", "stress", "-o", "out", "--strict")
    assert result.exit_code == 0, result.stderr
    assert "overflows" not in result.stderr and "missing" not in result.stderr
    # A publisher's folder: the booklet only, no carry table for characters it has not.
    assert sorted(p.name for p in Path("out").glob("*.pdf")) == ["booklet-stress-booklet.pdf"]
    text = _text(Path("out/booklet-stress-booklet.pdf"))
    assert WORD in text
    assert URL.replace("-", "") in text
    # The table's landscape page sets a cell on two lines beside its neighbours', so the
    # text layer reads across the row: each cell's words, not the cell as one run.
    words = subprocess.run(
        ["pdftotext", "out/booklet-stress-booklet.pdf", "-"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    for row in range(1, 4):
        for column in range(1, COLUMNS + 1):
            assert f"R{row}C{column}" in words
    assert text.count("Strength") == 3 * COLUMNS


def test_a_table_of_ten_columns_or_more_gets_a_landscape_page(stress: Path, cli: Cli) -> None:
    """Upright in the reading copy's neighbours, landscape for the table; the saddle copy
    turns that page a quarter so it stands in its half of the sheet at full size."""
    import pikepdf

    result = cli("build", "stress", "-o", "out", "--strict", "--impose", "saddle")
    assert result.exit_code == 0, result.stderr
    with pikepdf.open("out/booklet-stress-booklet.pdf") as pdf:
        shapes = [float(p.mediabox[2]) > float(p.mediabox[3]) for p in pdf.pages]
    assert shapes == [False, False, False, True]  # cover, contents, chapter, the table
    page_four = subprocess.run(
        ["pdftotext", "-f", "4", "-l", "4", "out/booklet-stress-booklet.pdf", "-"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert "R3C12" in page_four
    with pikepdf.open("out/booklet-stress-booklet-saddle.pdf") as saddle:
        forms = [
            xobject
            for sheet in saddle.pages
            for _, xobject in sheet.Resources.XObject.items()
        ]
    # Every page drawn at its own size: the landscape one through a quarter turn.
    matrices = [[float(v) for v in f.get("/Matrix", [1, 0, 0, 1, 0, 0])][:4] for f in forms]
    turned = [f for f, m in zip(forms, matrices, strict=True) if m != [1, 0, 0, 1]]
    assert len(turned) == 1
    assert [abs(float(v)) for v in turned[0].Matrix][:4] == [0, 1, 1, 0]


def test_check_warns_of_a_heading_that_skips_a_level(stress: Path, cli: Cli) -> None:
    result = cli("check", "stress")
    assert result.exit_code == 0
    assert (
        "stress/chapters/one.md:15: warning: heading level 3 follows level 1; use '## ' so the"
        " outline has no gap" in result.stderr
    )


def test_check_warns_of_a_table_too_wide_to_read(stress: Path, cli: Cli) -> None:
    wide = "# Wide\n\n| " + " | ".join(f"C{i}" for i in range(40)) + " |\n"
    wide += "|" + "---|" * 40 + "\n| " + " | ".join("x" for _ in range(40)) + " |\n"
    (stress / "chapters" / "two.md").write_text(wide, encoding="utf-8")
    with (stress / "booklet.yaml").open("a", encoding="utf-8") as booklet:
        booklet.write("  - chapters/two.md\n")
    result = cli("check", "stress")
    assert "stress/chapters/two.md:3: warning: a table of 40 columns" in result.stderr


@pytest.fixture
def unbreakable(stress: Path) -> Path:
    """The stress booklet with a theme that forbids breaking a word, as a stranger's theme
    might: the long word now runs off the page."""
    from scratchpress.resources import templates_dir

    theme = stress / "theme" / "booklet"
    theme.mkdir(parents=True)
    shutil.copy(templates_dir() / "booklet" / "booklet.css", theme / "booklet.css")
    with (theme / "booklet.css").open("a", encoding="utf-8") as css:
        css.write("\n.chapter p { overflow-wrap: normal !important; }\n")
        # and keeps every table upright, so the word stays on the upright page 3
        css.write(".chapter table.landscape { page: auto; }\n")
    return stress


def test_text_off_the_page_is_named_at_its_markdown_line(unbreakable: Path, cli: Cli) -> None:
    result = cli("build", "stress", "-o", "out")
    assert result.exit_code == 0  # a warning, as every layout problem without --strict
    lines = result.stderr.splitlines()
    assert (
        "stress/chapters/one.md:11: booklet-stress-booklet.pdf, page 3: this text runs"
        in result.stderr
    )
    # The completeness audit finds the same loss in the PDF's own text layer.
    assert any(
        line.startswith("stress/chapters/one.md:11: booklet-stress-booklet.pdf: missing from")
        for line in lines
    ), result.stderr


def test_strict_writes_no_page_that_lost_text_and_keeps_the_last_good_one(
    stress: Path, unbreakable: Path, cli: Cli
) -> None:
    (unbreakable / "theme" / "booklet" / "booklet.css").rename(stress / "held.css")
    assert cli("build", "stress", "-o", "out").exit_code == 0
    good = Path("out/booklet-stress-booklet.pdf").read_bytes()
    (stress / "held.css").rename(unbreakable / "theme" / "booklet" / "booklet.css")
    result = cli("build", "stress", "-o", "out", "--strict")
    assert result.exit_code == 1
    assert "not written: --strict, and " in result.stderr
    assert Path("out/booklet-stress-booklet.pdf").read_bytes() == good


def test_a_page_overflow_field_carries_its_source_line() -> None:
    assert page_source(page_field(3, "chapters/one.md:11")) == ("page 3", "chapters/one.md", 11)
    assert page_source(page_field(3, "")) == ("page 3", "", None)


def test_the_audit_reads_a_blocks_words_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lost column of numbers is not excused by the same numbers earlier in the book."""
    from scratchpress.render import audit

    monkeypatch.setattr(audit, "pdf_text", lambda _: "Levels 3 4 5\nThe table: row 3 4")
    lost = audit.lost_words(b"", [("rules.md:9", "The table: row 3 4 5")])
    assert lost == [("rules.md:9", ["5"])]
    # Hyphenation, line breaks and CSS capitals are not losses.
    monkeypatch.setattr(audit, "pdf_text", lambda _: "SKIPPED A LEVEL\nhyphen-\nation")
    assert audit.lost_words(b"", [("a.md:1", "Skipped a level, hyphenation")]) == []


def test_a_block_in_two_directions_is_read_in_any_order(monkeypatch: pytest.MonkeyPatch) -> None:
    from scratchpress.render import audit

    # pdfium gives a mixed line in drawn order: the number before the Arabic words.
    monkeypatch.setattr(audit, "pdf_text", lambda _: "Arabic: 12 يرمي علي")
    assert audit.lost_words(b"", [("s.md:7", "Arabic: يرمي علي 12")]) == []


# ------------------------------------------------------------- every other printable


def test_every_printable_is_audited_against_its_own_html(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    """A theme that hides a sheet's actions panel: both sheets (rendered together as one
    merged job) say what they lost, each under its own file, character and panel."""
    folder = write_campaign(
        {
            "party.yaml": """
                characters:
                  - name: Odile Marsh
                    abilities: {shooting: 2, toughness: 3}
                  - name: Bram Tulley
                    abilities: {wrestling: 2, toughness: 1}
            """
        }
    )
    theme = folder / "theme" / "sheet"
    theme.mkdir(parents=True)
    css = (templates_dir() / "sheet" / "sheet.css").read_text(encoding="utf-8")
    (theme / "sheet.css").write_text(css + "\n.panel.actions { display: none; }\n", "utf-8")
    result = cli("build", "campaign", "--only", "sheets", "-o", "out")
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if "missing from the PDF's text" in line]
    assert sorted(line.split(": missing")[0] for line in lines) == [
        'sheet-bram-tulley.pdf: entry "Bram Tulley": actions',
        'sheet-odile-marsh.pdf: entry "Odile Marsh": actions',
    ]
    assert all("'Actions', 'Action'" in line for line in lines)
    strict = cli("build", "campaign", "--only", "sheets", "-o", "strict-out", "--strict")
    assert strict.exit_code == 1
    assert not list(Path("strict-out").glob("*.pdf"))


def test_the_example_loses_nothing_in_any_printable(example_build: ExampleBuild) -> None:
    assert "missing from the PDF's text" not in example_build.stderr


def test_a_word_off_the_page_is_lost_and_one_on_it_is_not() -> None:
    from scratchpress.render.audit import lost_from_html
    from scratchpress.render.engine import render_pdf

    html = (
        "<html><head><style>@page { size: 80mm 40mm; margin: 5mm; }"
        " .off { position: absolute; left: 200mm; }</style></head><body>"
        '<p data-lint-entry="Odile">Shooting two, on the page</p>'
        '<p data-lint-entry="Bram" class="off">Wrestling beyond reach</p></body></html>'
    )
    pdf = render_pdf(html, templates_dir(), []).pdf
    assert lost_from_html(html, [pdf]) == [("Bram", "", ["Wrestling", "beyond", "reach"])]


def test_a_deck_card_that_lost_words_is_named_even_from_the_cache(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    party = "characters:\n  - name: Odile Marsh\n    abilities: {toughness: 2}\n"
    folder = write_campaign({"party.yaml": party})
    theme = folder / "theme" / "deck"
    theme.mkdir(parents=True)
    css = (templates_dir() / "deck" / "deck.css").read_text(encoding="utf-8")
    (theme / "deck.css").write_text(css + "\n.career .about { display: none; }\n", "utf-8")
    for _ in range(2):  # rendered, then every card from the cache
        result = cli("build", "campaign", "--only", "careers", "-o", "out")
        assert result.exit_code == 0
        lost = [line for line in result.stderr.splitlines() if "missing from the PDF" in line]
        assert len(lost) == 13  # one line per career card with a description
        assert 'careers.pdf: entry "Landlord": missing from the PDF\'s text: ' in "\n".join(lost)
