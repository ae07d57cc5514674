"""Pixel regression for the card sheets: page 1 of an event deck and of the initiative
cards, rendered at 50 dpi in grey, against the reference PNGs in tests/documents/pixels/.

A card moved by a millimetre, a gutter closed, a mark lost or a band run into its
neighbour changes thousands of pixels; anti-aliasing and a font's hinting change a few.
After an intended change of the layout, look at the new pictures, then refresh them:

    SCRATCHPRESS_UPDATE_SNAPSHOTS=1 python -m pytest tests/documents/test_card_pixels.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from scratchpress.content.loader import merged_entries
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents import initiative
from scratchpress.documents.base import BuildOptions, Document
from scratchpress.documents.deck import DeckOptions, deck_document
from scratchpress.render.engine import render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir, fonts_dir, templates_dir
from scratchpress.statblocks import compute_campaign

PIXELS = Path(__file__).parent / "pixels"
UPDATE = os.environ.get("SCRATCHPRESS_UPDATE_SNAPSHOTS") == "1"
DPI = 50
MEAN_LIMIT = 1.5  # mean absolute difference, of 255
CHANGED_LIMIT = 0.004  # share of pixels that differ by more than a quarter of the range


def page_one(document: Document) -> Image.Image:
    html = render_html(document.template, document.context)
    pdf = render_pdf(html, templates_dir(), [templates_dir(), fonts_dir()]).pdf
    page = pdfium.PdfDocument(pdf)[0]
    return page.render(scale=DPI / 72).to_pil().convert("L")


def difference(ours: Image.Image, reference: Image.Image) -> tuple[float, float]:
    """Mean absolute difference (0-255) and the share of pixels off by more than 64."""
    diff = ImageChops.difference(ours, reference)
    mean = ImageStat.Stat(diff).mean[0]
    changed = sum(diff.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    return mean, changed / (diff.size[0] * diff.size[1])


def assert_looks_like(image: Image.Image, name: str) -> None:
    path = PIXELS / f"{name}.png"
    if UPDATE:
        PIXELS.mkdir(exist_ok=True)
        image.save(path, optimize=True)
    assert path.exists(), f"missing {path.name}; run with SCRATCHPRESS_UPDATE_SNAPSHOTS=1"
    assert path.stat().st_size <= 100_000
    reference = Image.open(path).convert("L")
    assert image.size == reference.size, f"{name}: the page changed size"
    mean, changed = difference(image, reference)
    assert mean <= MEAN_LIMIT and changed <= CHANGED_LIMIT, (
        f"{name}: mean difference {mean:.2f}, {changed:.2%} of pixels changed; look at the"
        " page and refresh with SCRATCHPRESS_UPDATE_SNAPSHOTS=1 if that is intended"
    )


def test_event_deck_sheet_looks_as_it_did() -> None:
    """The first sheet of built-in events, Letter, duplex: 8 cards on their sides."""
    entries = merged_entries(None, "events")[:8]
    document = deck_document("events", entries, BuildOptions(), DeckOptions())
    assert_looks_like(page_one(document), "events-letter")


def test_initiative_sheet_looks_as_it_did() -> None:
    """The example campaign's first sheet of initiative cards, A4, poker size."""
    campaign = load_campaign([examples_dir()])
    options = BuildOptions(paper="a4")
    (document,) = initiative.documents(compute_campaign(campaign), campaign, options)
    assert_looks_like(page_one(document), "initiative-a4")


@pytest.mark.parametrize(
    ("shift", "fails"), [((0, 0), False), ((2, 0), True), ((0, 1), True)], ids=str
)
def test_a_sheet_moved_by_a_millimetre_or_two_fails(shift: tuple[int, int], fails: bool) -> None:
    """The tolerance lets rendering noise through, not a moved layout (1 px = 0.5 mm)."""
    reference = Image.open(PIXELS / "events-letter.png").convert("L")
    moved: Any = ImageChops.offset(reference, *shift)
    mean, changed = difference(moved, reference)
    assert (mean > MEAN_LIMIT or changed > CHANGED_LIMIT) == fails, (mean, changed)
