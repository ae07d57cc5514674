"""Lengths: millimetres, points, inches and CSS pixels, and CSS lengths as text.

Layouts are worked out in millimetres; type is sized in points, PDFs are placed in points,
WeasyPrint lays out in CSS pixels (96 to the inch) and pictures are sampled per inch.
"""

from __future__ import annotations

MM_PER_INCH = 25.4
MM_PER_PT = MM_PER_INCH / 72  # a PostScript point, 1/72 inch
PT_PER_MM = 72 / MM_PER_INCH
PX_PER_MM = 96 / MM_PER_INCH  # WeasyPrint's layout unit is the CSS px, 1/96 inch
MM_PER_PX = MM_PER_INCH / 96


def pt_to_mm(points: float) -> float:
    """``points`` of type or rule, in millimetres."""
    return points * MM_PER_PT


def mm(value: float, places: int = 2) -> str:
    """A CSS length in millimetres with ``places`` decimals: ``mm(3.8) == "3.80mm"``."""
    return f"{value:.{places}f}mm"


def mm_short(value: float, places: int = 3) -> str:
    """A CSS length rounded to ``places`` decimals, trailing zeros dropped:
    ``mm_short(2.5) == "2.5mm"``, ``mm_short(64.0) == "64mm"``."""
    return f"{round(value, places):g}mm"


def pt(value: float) -> str:
    """A CSS type size, trailing zeros dropped: ``pt(8.5) == "8.5pt"``, ``pt(9.0) == "9pt"``."""
    return f"{round(value, 3):g}pt"
