"""Paper sizes: the two sheets a campaign prints on."""

from __future__ import annotations

# Page sizes in millimetres (portrait), for layouts that work out their own page area or
# an n-up grid; and each size as CSS's @page names it.
PAPER_MM: dict[str, tuple[float, float]] = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
PAPER_CSS: dict[str, str] = {"letter": "letter", "a4": "A4"}


def page_area_mm(paper: str, margin_mm: float) -> tuple[float, float]:
    """(width, height) of the paper inside an even ``margin_mm`` on every side."""
    width, height = PAPER_MM[paper]
    return width - 2 * margin_mm, height - 2 * margin_mm
