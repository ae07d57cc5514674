"""Lengths: the conversions between millimetres, points, inches and CSS pixels, and CSS
lengths as the templates write them."""

from __future__ import annotations

import pytest

from scratchpress.typesetting.units import (
    MM_PER_INCH,
    MM_PER_PT,
    MM_PER_PX,
    PT_PER_MM,
    PX_PER_MM,
    mm,
    mm_short,
    pt,
    pt_to_mm,
)


def test_an_inch_is_72_points_and_96_css_pixels() -> None:
    assert pt_to_mm(72) == pytest.approx(MM_PER_INCH) == pytest.approx(25.4)
    assert round(96 * MM_PER_PX, 9) == 25.4
    assert round(25.4 * PX_PER_MM, 9) == 96
    assert round(MM_PER_PT * PT_PER_MM, 9) == 1
    # A 10 pt type size is 3.53 mm: the conversion every text estimate starts from.
    assert round(pt_to_mm(10), 2) == 3.53


def test_css_lengths_keep_their_decimals_or_drop_trailing_zeros() -> None:
    assert mm(3.8) == "3.80mm"
    assert mm(195.9, 1) == "195.9mm"
    assert mm(231.0031, 3) == "231.003mm"
    assert mm_short(64.0) == "64mm"
    assert mm_short(2.4) == "2.4mm"
    assert mm_short(81.4 - 4.0) == "77.4mm"  # no 77.40000000000001mm from float sums
    assert pt(9.0) == "9pt"
    assert pt(8.5) == "8.5pt"
