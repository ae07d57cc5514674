"""Never under 7 pt (docs DESIGN, "Look and feel"): every glyph of every printable of the
example campaign, read back from the PDFs at the size it is drawn.

The example is built once for the module (Letter, booklets imposed for saddle stitching
too), with the calibration sheet and a year sheet beside it. pdfium gives each character's
font size in text space and the matrix that takes it to the page (WeasyPrint draws at 0.75,
CSS pixels to points, and imposed pages add their own scale): their product is the size
on paper. Whitespace is skipped; a failure names the file, the page and the words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from typer.testing import CliRunner

from scratchpress.build import BuildSettings, build
from scratchpress.cli.app import app
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.base import BuildOptions
from scratchpress.documents.calibrate import CalibrationOptions, write_calibration
from scratchpress.resources import examples_dir
from scratchpress.statblocks import compute_campaign

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
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """Every PDF of the example, by kind: the build's kinds plus calibrate and year."""
    root = tmp_path_factory.mktemp("type-floor")
    campaign = load_campaign([examples_dir()])
    settings = BuildSettings(jobs=1, cache_dir=root / "cache")
    report = build(
        compute_campaign(campaign),
        campaign,
        BuildOptions(impose="saddle"),
        root / "out",
        settings=settings,
    )
    assert report.problems == []
    kinds: dict[str, list[Path]] = {}
    for written in report.written:
        kinds.setdefault(written.document.kind, []).append(written.path)
    calibration = root / "calibration.pdf"
    write_calibration(calibration, CalibrationOptions())
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
