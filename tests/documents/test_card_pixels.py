"""Pixel regression for the card sheets: page 1 of an event deck and of the initiative
cards, rendered at 50 dpi in grey, against the reference PNGs in tests/documents/pixels/
(how to compare and refresh them: pixelcheck.py). Every other printable: test_page_pixels.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image, ImageChops

from scratchpress.content.loader import merged_entries
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents import initiative
from scratchpress.documents.base import BuildOptions, Document
from scratchpress.documents.deck import DeckOptions, deck_document
from scratchpress.render.engine import render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir, fonts_dir, templates_dir
from scratchpress.statblocks import compute_campaign

from pixelcheck import CHANGED_LIMIT, MEAN_LIMIT, PIXELS, assert_looks_like, difference, page_image


def page_one(document: Document) -> Image.Image:
    html = render_html(document.template, document.context)
    return page_image(render_pdf(html, templates_dir(), [templates_dir(), fonts_dir()]).pdf)


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
