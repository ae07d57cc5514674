"""End-to-end: `scratchpress build` on the example campaign and on hostile input."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from scratchpress.cli.app import app
from scratchpress.resources import examples_dir, fonts_dir

from conftest import ExampleBuild
from pixelcheck import assert_looks_like, page_image

runner = CliRunner()
LETTER = (612.0, 792.0)
A4 = (595.0, 842.0)


def _fonts_in(pdf: Path) -> set[str]:
    names: set[str] = set()
    for page in PdfReader(pdf).pages:
        fonts = page["/Resources"].get("/Font", {})
        for ref in fonts.values():
            base = str(ref.get_object()["/BaseFont"]).lstrip("/")
            names.add(base.split("+", 1)[-1])
    return names


def test_build_without_arguments_writes_every_printable(example_build: ExampleBuild) -> None:
    out, output = example_build.folder, example_build.stdout + example_build.stderr
    names = {p.name for p in out.glob("*.pdf")}
    assert "initiative-cards.pdf" in names
    assert "carry-table.pdf" in names
    assert {n for n in names if n.startswith("sheet-")}, names
    assert {n for n in names if n.startswith("vehicle-")}, names
    # One sheet per character, one per vehicle.
    assert len([n for n in names if n.startswith("sheet-")]) == 10
    assert len([n for n in names if n.startswith("vehicle-")]) == 2
    assert re.search(r"\d+ documents, \d+ pages, \d+ sheets of paper", output)
    # Campaign warnings (the Rookery's leader is over budget on purpose) are fine;
    # a WeasyPrint warning would be a line starting with "warning:".
    assert not [line for line in output.splitlines() if line.startswith("warning:")]


def _bundled_families() -> set[str]:
    """Families of the files in fonts/, squashed: CharisSIL-Bold.ttf -> "charissil"."""
    return {
        re.sub(r"[^a-z]", "", path.stem.split("-")[0].lower())
        for path in fonts_dir().glob("*.[ot]tf")
    }


def test_every_page_is_letter_and_every_font_is_bundled(example_build: ExampleBuild) -> None:
    out = example_build.folder
    families = _bundled_families()
    assert {"charissil", "lato", "bebasneue"} <= families
    pdfs = sorted(out.glob("*.pdf"))
    assert len(pdfs) >= 20, pdfs  # every printable of the example, not an empty loop
    for pdf in pdfs:
        for page in PdfReader(pdf).pages:
            # Letter either way up: initiative cards lie on a landscape sheet.
            size = sorted((float(page.mediabox.width), float(page.mediabox.height)))
            assert size == pytest.approx(sorted(LETTER), abs=1), pdf.name
        for font in _fonts_in(pdf):
            squashed = re.sub(r"[^a-z]", "", font.lower())
            assert any(squashed.startswith(f) for f in families), (pdf.name, font)
    assert (fonts_dir() / "licences").is_dir()


def test_a4_paper(tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", "-o", str(tmp_path), "--paper", "a4", "--only", "carry"])
    assert result.exit_code == 0, result.output
    page = PdfReader(tmp_path / "carry-table.pdf").pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(A4, abs=1)


def test_sheet_text_holds_every_computed_number(example_build: ExampleBuild) -> None:
    out = example_build.folder
    # Teodora Vance: stealth 4, detection 2, shooting 2, toughness 2 (docs/definitions.md).
    text = "".join(p.extract_text() for p in PdfReader(out / "sheet-teodora-vance.pdf").pages)
    # Strength 9 carries 45 kg, 99 lb (11 lb a point).
    for number in ("14", "12", "9", "1", "2", "28", "18 kg", "40 lb", "45 kg", "99 lb"):
        assert number in text, number


HOSTILE = """\
characters:
  - name: "<script>alert(1)</script>"
    description: '<img src="file:///etc/passwd">'
    abilities:
      toughness: {level: 3, note: '<b>bold</b> & <i>sly</i>'}
"""


def test_hostile_text_renders_as_literal_text(tmp_path: Path) -> None:
    campaign = tmp_path / "c"
    campaign.mkdir()
    (campaign / "a.yaml").write_text(HOSTILE)
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(campaign), "-o", str(out), "--only", "sheets"])
    assert result.exit_code == 0, result.output
    [pdf] = out.glob("sheet-*.pdf")
    assert pdf.name == "sheet-script-alert-1-script.pdf"
    text = "".join(p.extract_text() for p in PdfReader(pdf).pages)
    assert "<script>alert(1)</script>" in text
    assert '<img src="file:///etc/passwd">' in text
    assert "root:x:0:0" not in text


def test_portrait_outside_the_campaign_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes((examples_dir() / "portraits" / "ilse-marrow.png").read_bytes())
    campaign = tmp_path / "c"
    campaign.mkdir()
    (campaign / "a.yaml").write_text(
        "characters:\n  - name: Spy\n    portrait: ../secret.png\n    abilities: {toughness: 2}\n"
    )
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(campaign), "-o", str(out), "--only", "sheets"])
    assert result.exit_code == 1
    assert "outside the campaign" in result.output
    assert "Traceback" not in result.output
    assert not list(out.glob("*.pdf"))


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"not an image at all", "not an image"),
        (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n", "must be PNG, JPEG or WebP"),
    ],
)
def test_bad_portrait_files_fail_cleanly(tmp_path: Path, payload: bytes, message: str) -> None:
    campaign = tmp_path / "c"
    campaign.mkdir()
    (campaign / "face.png").write_bytes(payload)
    (campaign / "a.yaml").write_text(
        "characters:\n  - name: Face\n    portrait: face.png\n    abilities: {toughness: 2}\n"
    )
    result = runner.invoke(
        app, ["build", str(campaign), "-o", str(tmp_path / "o"), "--only", "sheets"]
    )
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_only_kind_is_a_clean_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", "-o", str(tmp_path), "--only", "sheets,posters"])
    assert result.exit_code == 2  # a usage error: the kind is a choice
    assert "unknown kind 'posters'" in result.output


# -------------------- formerly tests/documents/test_page_pixels.py
# Pixel regression for every printable of the example campaign: a few pages of each,
# built once for the session as `scratchpress build` builds them (Letter, colour: conftest's
# ``example_build``), compared at 50 dpi in grey
# with the reference pictures in tests/documents/pixels/ (see pixelcheck.py).
#
# These hold the look still while the layout is made faster: a stylesheet that renders
# quicker must print the same page. The card sheets have their own test (test_card_pixels.py).

# file in the example build -> the pages (from 0) that stand for its printable
PAGES = {
    "sheet-teodora-vance.pdf": [0],  # a character sheet
    "sheet-hester-greaves.pdf": [0, 1],  # a commander: the minion back page
    "sheet-ilse-marrow.pdf": [1],  # notes, continued
    "vehicle-old-patience.pdf": [0],
    "carry-table.pdf": [0],
    "initiative-cards.pdf": [0, 1],  # rendered in batches of sheets, put together by pikepdf
    "community-lantern-weir.pdf": [0, 1],
    "roster.pdf": [0],
    "encounters.pdf": [0, 1],
    "booklet-scratch-at-the-table.pdf": [0, 1, 5, 12],
    "careers.pdf": [0],
    "resilience-events.pdf": [1],  # a sheet of backs: page 0 is test_card_pixels' events
    "kit-lantern-weir.pdf": [0, 1, 4, 7],  # the map, the year track, factions, project cards
}


@pytest.fixture(scope="module")
def built(example_build: ExampleBuild) -> Path:
    return example_build.folder


@pytest.mark.parametrize(
    ("name", "page"),
    [(name, page) for name, pages in PAGES.items() for page in pages],
    ids=lambda value: str(value).removesuffix(".pdf"),
)
def test_page_looks_as_it_did(built: Path, name: str, page: int) -> None:
    stem = name.removesuffix(".pdf")
    assert_looks_like(page_image(built / name, page), f"page-{stem}-{page + 1}")


# -------------------- formerly tests/documents/test_type_floor.py
# Never under 7 pt (docs DESIGN, "Look and feel"): every glyph of every printable of the
# example campaign, read back from the PDFs at the size it is drawn.
#
# The example is built once for the session (conftest's ``example_build``: Letter), its
# booklets again imposed for saddle stitching, with the calibration sheet and a year sheet.
# pdfium gives each character's font size in text space and the matrix that takes it to the
# page (WeasyPrint draws at 0.75, CSS pixels to points, and imposed pages add their own
# scale): their product is the size on paper. Whitespace is skipped; a failure names the file, the page and the words.

FLOOR_PT = 7.0
ROUNDING_PT = 0.01  # 7 pt comes back as 6.9999...


@dataclass(frozen=True)
class SmallRun:
    page: int
    size_pt: float
    text: str

    def __str__(self) -> str:
        return f"page {self.page}: {self.size_pt:.2f} pt {self.text!r}"


def small_type(path: Path, floor: float = FLOOR_PT) -> list[SmallRun]:
    """Runs of consecutive characters drawn under ``floor`` points, page by page."""
    runs: list[SmallRun] = []
    pdf = pdfium.PdfDocument(path)
    try:
        for number, page in enumerate(pdf, start=1):
            textpage = page.get_textpage()
            text, smallest = "", math.inf
            for index in range(textpage.count_chars()):
                char = chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, index))
                if char.isspace() or char == "\0":  # a space keeps a run going
                    if text and not text.endswith(" "):
                        text += " "
                    continue
                matrix = pdfium_c.FS_MATRIX()
                pdfium_c.FPDFText_GetMatrix(textpage.raw, index, matrix)
                scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
                size = pdfium_c.FPDFText_GetFontSize(textpage.raw, index) * scale
                if size < floor - ROUNDING_PT:
                    text, smallest = text + char, min(smallest, size)
                elif text:
                    runs.append(SmallRun(number, smallest, text.strip()))
                    text, smallest = "", math.inf
            if text.strip():
                runs.append(SmallRun(number, smallest, text.strip()))
    finally:
        pdf.close()
    return runs


# --------------------------------------------------------------------------------------------
# the example's printables, built once


@pytest.fixture(scope="module")
def printed(
    example_build: ExampleBuild, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[Path]]:
    """Every PDF of the example, by kind: the build's kinds plus calibrate and year."""
    root = tmp_path_factory.mktemp("type-floor")
    kinds = example_build.kinds()
    # The booklets again, imposed for saddle stitching: that copy is held to the floor too.
    saddle = CliRunner().invoke(
        app, ["build", "--example", "--only", "booklets", "--impose", "saddle", "-o", str(root)]
    )
    assert saddle.exit_code == 0, saddle.output
    kinds["booklets"] = sorted(root.glob("booklet-*.pdf"))
    calibration = root / "calibration.pdf"
    calibrated = CliRunner().invoke(app, ["calibrate", "-o", str(calibration)])
    assert calibrated.exit_code == 0, calibrated.output
    kinds["calibrate"] = [calibration]
    year = root / "year.pdf"
    drawn = CliRunner().invoke(
        app, ["resilience", "draw", str(examples_dir()), "--seed", "3", "-o", str(year)]
    )
    assert drawn.exit_code == 0, drawn.output
    kinds["year"] = [year]
    return kinds


def _check(files: list[Path]) -> None:
    assert files, "nothing was built for this kind"
    found = {path.name: small_type(path) for path in files}
    offenders = [f"{name} {run}" for name, runs in found.items() for run in runs]
    assert not offenders, f"type under {FLOOR_PT:g} pt:\n" + "\n".join(offenders)


# The printables this part of the work answers for, and with the saddle copy the booklet.
@pytest.mark.parametrize(
    "kind", ["community", "roster", "encounters", "booklets", "carry", "calibrate", "year"]
)
def test_no_type_under_7_pt(printed: dict[str, list[Path]], kind: str) -> None:
    _check(printed[kind])


def test_the_saddle_copy_keeps_the_booklets_sizes(printed: dict[str, list[Path]]) -> None:
    """Imposed pages are placed, not scaled: the 2-up file is checked like any other."""
    assert any(p.name.endswith("-saddle.pdf") for p in printed["booklets"])


# Sheets, vehicle sheets, initiative cards and the decks are laid out elsewhere; they are
# held to the same floor.
@pytest.mark.parametrize("kind", ["sheets", "vehicles", "initiative", "events", "careers"])
def test_no_type_under_7_pt_on_sheets_cards_and_decks(
    printed: dict[str, list[Path]], kind: str
) -> None:
    _check(printed[kind])


def test_the_measure_sees_small_type(tmp_path: Path) -> None:
    """The check can fail: 6.5 pt in a page of 9 pt is found, with its words."""
    from scratchpress.render.engine import render_pdf
    from scratchpress.resources import templates_dir

    html = (
        "<p style='font-size: 9pt'>Big enough <span style='font-size: 6.5pt'>too small"
        "</span> again</p>"
    )
    path = tmp_path / "small.pdf"
    path.write_bytes(render_pdf(html, templates_dir(), [templates_dir()]).pdf)
    (run,) = small_type(path)
    assert run.page == 1 and run.text == "too small"
    assert run.size_pt == pytest.approx(6.5, abs=0.05)
