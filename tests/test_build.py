"""End-to-end: `scratchpress build` on the example campaign and on hostile input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pypdf import PdfReader
from typer.testing import CliRunner

from scratchpress.cli.app import app
from scratchpress.resources import examples_dir, fonts_dir

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


@pytest.fixture(scope="module")
def example_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("out")
    result = runner.invoke(app, ["build", "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_build_without_arguments_writes_every_printable(example_build: tuple[Path, str]) -> None:
    out, output = example_build
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


def test_every_page_is_letter_and_every_font_is_bundled(example_build: tuple[Path, str]) -> None:
    out, _ = example_build
    families = _bundled_families()
    assert {"charissil", "lato", "bebasneue"} <= families
    for pdf in out.glob("*.pdf"):
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


def test_sheet_text_holds_every_computed_number(example_build: tuple[Path, str]) -> None:
    out, _ = example_build
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
