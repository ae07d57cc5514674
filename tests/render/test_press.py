"""A deck as DriveThruCards takes it: CMYK with black text in one ink and total ink under the
shop's cap, trim and bleed boxes, the PDF/X-1a markers, the same bytes every time."""

from __future__ import annotations

import io

import pikepdf
import pytest

from scratchpress.render.engine import render_pdf
from scratchpress.render.press import PDFX_VERSION, for_shop, to_cmyk
from scratchpress.resources import templates_dir
from scratchpress.typesetting.shops import SHOPS

DTC = SHOPS["drivethrucards"]

# Two card-size pages in the colours our decks use: warm black text on cream, a rust band,
# a gradient (the back's hazard stripes are one).
CARD = """<html><head><style>
@page { size: 69.85mm 95.25mm; margin: 0; }
body { margin: 0; background: #f3ecdc; color: #221d17; font-size: 7pt; }
.band { height: 12mm; background: #9a4521; color: #fbf7ee; }
.stripes { height: 3mm; background: repeating-linear-gradient(135deg, #34535d 0, #34535d 1mm,
  #f3ecdc 1mm, #f3ecdc 2mm); }
.next { page-break-before: always; }
</style></head><body>
<div class="band">Boiler Burst</div><p>A thunderclap rolls out of the mill.</p>
<div class="stripes"></div><div class="next">Event</div></body></html>"""


@pytest.fixture(scope="module")
def rgb_card() -> bytes:
    return render_pdf(CARD, templates_dir(), []).pdf


@pytest.fixture(scope="module")
def pressed(rgb_card: bytes) -> bytes:
    return for_shop(rgb_card, DTC)


def _colour_operators(pdf: pikepdf.Pdf) -> set[str]:
    found: set[str] = set()
    for page in pdf.pages:
        for instruction in pikepdf.parse_content_stream(page.obj):
            found.add(str(instruction.operator))
    return found


def _shadings(resources: pikepdf.Object) -> list[pikepdf.Object]:
    """Every gradient, however deep (WeasyPrint draws one in a form in a tiling pattern)."""
    found = list(resources.get("/Shading", {}).values())
    for pattern in resources.get("/Pattern", {}).values():
        found += [pattern.Shading] if "/Shading" in pattern else []
        found += _shadings(pattern.get("/Resources", pikepdf.Dictionary()))
    for form in resources.get("/XObject", {}).values():
        found += _shadings(form.get("/Resources", pikepdf.Dictionary()))
    return found


def test_black_and_grey_text_prints_in_black_ink_alone() -> None:
    assert to_cmyk((0, 0, 0)) == (0, 0, 0, 1)
    warm_black = to_cmyk((0x22 / 255, 0x1D / 255, 0x17 / 255))
    assert warm_black[:3] == (0, 0, 0) and warm_black[3] > 0.85
    assert to_cmyk((1, 1, 1)) == (0, 0, 0, 0)


def test_a_deep_colour_is_held_to_the_ink_limit() -> None:
    c, m, y, k = to_cmyk((0.35, 0.0, 0.05), limit=2.4)  # a deep red: 255% uncapped
    assert c + m + y + k == pytest.approx(2.4, abs=0.001)
    assert m > y > c == 0
    assert sum(to_cmyk((0.6, 0.27, 0.13), limit=2.4)) < 2.4  # the rust band: under the cap


def test_the_pressed_card_has_no_rgb_left_and_its_boxes(pressed: bytes) -> None:
    with pikepdf.open(io.BytesIO(pressed)) as pdf:
        operators = _colour_operators(pdf)
        assert "k" in operators and not operators & {"rg", "RG"}
        for page in pdf.pages:
            shadings = _shadings(page.obj.Resources)
            assert all(s.ColorSpace == pikepdf.Name.DeviceCMYK for s in shadings)
            bleed = [float(v) for v in page.obj.BleedBox]
            trim = [float(v) for v in page.obj.TrimBox]
            assert bleed == [float(v) for v in page.mediabox]
            assert trim[0] - bleed[0] == pytest.approx(9.0, abs=0.01)  # 1/8 in in points
            assert bleed[3] - trim[3] == pytest.approx(9.0, abs=0.01)
            assert "/Group" not in page.obj
        assert _shadings(pdf.pages[0].obj.Resources), "the stripes' gradient is drawn"


def test_the_pressed_card_says_pdfx_1a_for_swop(pressed: bytes) -> None:
    with pikepdf.open(io.BytesIO(pressed)) as pdf:
        assert pdf.pdf_version == "1.4"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == PDFX_VERSION
        assert pdf.docinfo["/Trapped"] == pikepdf.Name("/False")
        assert str(pdf.docinfo["/CreationDate"]).startswith("D:")
        [intent] = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert pdf.open_metadata()["pdfxid:GTS_PDFXVersion"] == PDFX_VERSION


def test_the_same_card_presses_to_the_same_bytes(rgb_card: bytes, pressed: bytes) -> None:
    assert for_shop(rgb_card, DTC) == pressed


def test_an_image_shop_gets_boxes_and_keeps_its_rgb(rgb_card: bytes) -> None:
    with pikepdf.open(io.BytesIO(for_shop(rgb_card, SHOPS["gamecrafter"]))) as pdf:
        assert "/TrimBox" in pdf.pages[0].obj
        assert "rg" in _colour_operators(pdf)
        assert "/GTS_PDFXVersion" not in pdf.docinfo
