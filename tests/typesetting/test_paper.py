"""Paper sizes: Letter and A4, in millimetres and as CSS names them."""

from __future__ import annotations

import pytest

from scratchpress.typesetting.paper import PAPER_CSS, PAPER_MM, page_area_mm
from scratchpress.typesetting.units import MM_PER_INCH


def test_letter_is_eight_and_a_half_by_eleven_inches_and_a4_is_210_by_297() -> None:
    assert PAPER_MM["letter"] == pytest.approx((8.5 * MM_PER_INCH, 11 * MM_PER_INCH))
    assert PAPER_MM["a4"] == (210.0, 297.0)
    assert PAPER_CSS == {"letter": "letter", "a4": "A4"}


def test_the_page_area_is_the_paper_less_its_margin_on_every_side() -> None:
    assert page_area_mm("a4", 10.0) == (190.0, 277.0)
    width, height = page_area_mm("letter", 12.0)
    assert (round(width, 1), round(height, 1)) == (191.9, 255.4)
