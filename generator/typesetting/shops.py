"""Print shops: what each accepts for a deck of cards, from its published requirements.

A home deck is cards imposed 8-up on paper (documents/cardsheet.py). A print shop wants
one card per page (or per image) at its own card size, with bleed on every edge, and in
its own colour and file format. These are the facts `build --for SHOP` writes to and the
preflight (render/preflight.py) checks against.

- DriveThruCards: US poker cards, 2.5 x 3.5 in, with 1/8 in bleed (a 2.75 x 3.75 in page);
  one PDF per deck, fronts and backs alternating; PDF/X-1a:2003 in CMYK for US Web Coated
  (SWOP), total ink at most 240%; text at least 1/8 in inside the trim.
- The Game Crafter: one PNG per face, 825 x 1125 px at 300 dpi (the same 2.75 x 3.75 in),
  safe area 1/8 in inside the trim; a deck has one back image.
- MakePlayingCards: one image per face, 822 x 1122 px at 300 dpi for a poker card, about
  3 mm of bleed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .units import MM_PER_INCH

Shop = Literal["drivethrucards", "gamecrafter", "makeplayingcards"]

US_POKER_MM = (2.5 * MM_PER_INCH, 3.5 * MM_PER_INCH)  # 63.5 x 88.9: what the shops cut
EIGHTH_INCH_MM = MM_PER_INCH / 8
PRESS_DPI = 300  # the resolution every shop asks images to have, at least


@dataclass(frozen=True)
class ShopSpec:
    """One shop's card: trim size and bleed (mm), the safe inset text keeps from the trim,
    and how its files are made."""

    name: Shop
    title: str  # as the shop calls itself
    trim_mm: tuple[float, float]
    bleed_mm: float
    safe_mm: float
    images: tuple[int, int] | None = None  # pixels per face when the shop takes images
    pdfx: bool = False  # PDF/X-1a in CMYK, with the output intent below
    ink_limit: int | None = None  # total area coverage, in percent, where it is capped
    # The printing condition a PDF/X file is made for, as registered at color.org: the
    # shop converts for its press from this characterisation, so no profile is embedded.
    condition: str = ""
    condition_info: str = ""

    @property
    def page_mm(self) -> tuple[float, float]:
        """A card and its bleed: the page (or image) one face is delivered on."""
        width, height = self.trim_mm
        return width + 2 * self.bleed_mm, height + 2 * self.bleed_mm


SHOPS: dict[Shop, ShopSpec] = {
    "drivethrucards": ShopSpec(
        "drivethrucards",
        "DriveThruCards",
        US_POKER_MM,
        EIGHTH_INCH_MM,
        EIGHTH_INCH_MM,
        pdfx=True,
        ink_limit=240,
        condition="CGATS TR 001",
        condition_info="U.S. Web Coated (SWOP), CGATS TR 001",
    ),
    "gamecrafter": ShopSpec(
        "gamecrafter",
        "The Game Crafter",
        US_POKER_MM,
        EIGHTH_INCH_MM,
        EIGHTH_INCH_MM,
        images=(825, 1125),
    ),
    "makeplayingcards": ShopSpec(
        "makeplayingcards",
        "MakePlayingCards",
        US_POKER_MM,
        # 822 x 1122 px at 300 dpi is 69.6 x 95.0 mm: the 63.5 x 88.9 card and 3.05 mm a side.
        (822 / PRESS_DPI * MM_PER_INCH - US_POKER_MM[0]) / 2,
        3.0,
        images=(822, 1122),
    ),
}
