"""The preflight finds what a shop's prepress would refuse, and passes what it would take."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from scratchpress.render.engine import render_pdf
from scratchpress.render.preflight import check_images, check_pdf, report_json, report_text
from scratchpress.render.press import for_shop
from scratchpress.resources import templates_dir
from scratchpress.typesetting.shops import SHOPS

DTC, TGC = SHOPS["drivethrucards"], SHOPS["gamecrafter"]

CARD = """<html><head><style>
@page { size: 69.85mm 95.25mm; margin: 0; }
body { margin: 0; background: #f3ecdc; color: #221d17; font-size: 7pt; }
.safe { position: absolute; top: 7mm; left: 7mm; right: 7mm; }
.edge { position: absolute; bottom: 3.4mm; left: 3.4mm; }
</style></head><body><div class="safe">Boiler Burst</div>{edge}</body></html>"""


def _card(edge: str = "") -> bytes:
    return render_pdf(CARD.replace("{edge}", edge), templates_dir(), []).pdf


def _failed(report: object) -> dict[str, list[str]]:
    return {c.name: c.findings for c in report.checks if not c.ok}  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def rgb_card() -> bytes:
    return _card()


def test_a_pressed_card_passes_every_check(rgb_card: bytes) -> None:
    report = check_pdf(for_shop(rgb_card, DTC), DTC, "card.pdf")
    assert _failed(report) == {}
    assert "0 findings in 1 files" in report_text(DTC, [report])
    assert report_json(DTC, [report])["findings"] == 0


def test_the_unpressed_render_lacks_boxes_cmyk_and_the_markers(rgb_card: bytes) -> None:
    failed = _failed(check_pdf(rgb_card, DTC, "card.pdf"))
    # WeasyPrint's boxes are the page itself: no bleed.
    assert failed["bleed"] == ["page 1: the bleed is 0.00 mm on one edge, not 3.17"]
    assert "page 1: RGB colour in a CMYK file" in failed["ink"]
    assert "no PDF/X output intent" in failed["PDF/X"]


def test_text_on_the_trim_is_outside_the_safe_area() -> None:
    pressed = for_shop(_card('<div class="edge">Cut me</div>'), DTC)
    assert _failed(check_pdf(pressed, DTC, "card.pdf"))["safe area"] == [
        "page 1: 5 characters outside the safe area"
    ]


def _face(size: tuple[int, int], white_border: int = 0, dpi: int = 300) -> bytes:
    picture = Image.new("RGB", size, (243, 236, 220))
    if white_border:
        draw = ImageDraw.Draw(picture)
        w, h = size
        for box in ((0, 0, w, white_border), (0, h - white_border, w, h)):
            draw.rectangle(box, fill=(255, 255, 255))
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG", dpi=(dpi, dpi))
    return buffer.getvalue()


def test_a_face_image_must_be_the_shops_size_at_300_dpi_with_its_bleed_filled() -> None:
    good = check_images({"a.png": _face((825, 1125))}, TGC, "deck/")
    assert _failed(good) == {}
    bad = check_images(
        {"b.png": _face((750, 1050), dpi=72), "c.png": _face((825, 1125), white_border=30)},
        TGC,
        "deck/",
    )
    assert _failed(bad) == {
        "size": ["b.png: 750 x 1050 px, not 825 x 1125"],
        "resolution": ["b.png: marked 72 dpi, not 300"],
        "bleed": ["c.png: the bleed is not filled on the top, bottom edge"],
    }
