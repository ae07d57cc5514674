"""The duplex calibration sheet, measured where it is drawn: each comb's zero line is the
middle of the page, front and back, to within 0.05 mm.

A comb line is a box with one border, and the border's ink has a width (0.75 pt on the
front, about 0.26 mm). Drawn from the line's position instead of centred on it, the zero
line sat half that width off the middle, and the two sides' lines missed each other by
both halves, a reading of 0.2 mm on a printer that is spot on.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from pypdf import PdfReader

from scratchpress.build import build_documents
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents.calibrate import (
    TOOTH_MM,
    ZERO_EXTRA_MM,
    CalibrationOptions,
    calibration_document,
)
from scratchpress.typesetting.paper import PAPER_MM


def write_calibration(path: Path, options: CalibrationOptions) -> list[str]:
    """The sheet written through the build's own render and write path, as `calibrate` does."""
    report = build_documents(
        [calibration_document(options, path.name)], path.parent, BuildOptions(paper=options.paper)
    )
    assert report.problems == [] and report.written[0].path == path
    return report.warnings


PT_TO_MM = 25.4 / 72
TOLERANCE_MM = 0.05
ZERO_MM = TOOTH_MM + ZERO_EXTRA_MM  # the zero lines are the long ones


def _zero_lines(path: Path) -> list[dict[str, float]]:
    """Per page, the middle of its upright zero line (x, mm from the left) and of its level
    one (y, mm from the top), read from the drawn paths."""
    pages = []
    pdf = pdfium.PdfDocument(path)
    try:
        for page in pdf:
            _, height = page.get_size()
            found: dict[str, float] = {}
            for obj in page.get_objects(max_depth=5):
                if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
                    continue
                left, bottom, right, top = (v * PT_TO_MM for v in obj.get_bounds())
                if abs(top - bottom - ZERO_MM) < 0.01:
                    found["x"] = (left + right) / 2
                elif abs(right - left - ZERO_MM) < 0.01:
                    found["y"] = height * PT_TO_MM - (top + bottom) / 2
            pages.append(found)
    finally:
        pdf.close()
    return pages


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("calibrate")


@pytest.mark.parametrize("edge", ["long", "short"])
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_both_combs_are_centred_on_the_page_front_and_back(
    out: Path, paper: str, edge: str
) -> None:
    path = out / f"{paper}-{edge}.pdf"
    write_calibration(path, CalibrationOptions(paper=paper, duplex_edge=edge))  # type: ignore[arg-type]
    page_w, page_h = PAPER_MM[paper]
    front, back = _zero_lines(path)
    for side, lines in (("front", front), ("back", back)):
        assert set(lines) == {"x", "y"}, side
        off = (lines["x"] - page_w / 2, lines["y"] - page_h / 2)
        assert max(abs(v) for v in off) <= TOLERANCE_MM, (
            f"{paper} {edge}-edge {side}: zero lines {off[0]:+.3f} mm, {off[1]:+.3f} mm"
            " from the middle of the page"
        )


def test_a_corrected_back_moves_its_combs_by_exactly_the_offset(out: Path) -> None:
    """duplex_offset_mm = [1.5, -2]: the back's lines print 1.5 mm left and 2 mm lower, so
    this printer's shift brings them back to the middle."""
    path = out / "corrected.pdf"
    write_calibration(path, CalibrationOptions(duplex_offset_mm=(1.5, -2.0)))
    page_w, page_h = PAPER_MM["letter"]
    front, back = _zero_lines(path)
    assert front["x"] == pytest.approx(page_w / 2, abs=TOLERANCE_MM)
    assert back["x"] == pytest.approx(page_w / 2 - 1.5, abs=TOLERANCE_MM)
    assert back["y"] == pytest.approx(page_h / 2 + 2.0, abs=TOLERANCE_MM)


def test_calibration_sheet_renders_two_pages(tmp_path: Path) -> None:
    path = tmp_path / "calibration.pdf"
    warnings = write_calibration(path, CalibrationOptions(paper="a4", duplex_offset_mm=(1, 0)))
    pdf = PdfReader(path)
    assert warnings == []
    assert len(pdf.pages) == 2
    width, height = (v * 72 / 25.4 for v in PAPER_MM["a4"])
    assert all(
        (float(p.mediabox.width), float(p.mediabox.height)) == pytest.approx((width, height), abs=1)
        for p in pdf.pages
    )
    front = pdf.pages[0].extract_text()
    assert "duplex_offset_mm = [dx, dy]" in front and "[1, 0]" in front
    assert "+5" in pdf.pages[1].extract_text()
