"""Pixel regression for every printable of the example campaign: a few pages of each,
built once as `scratchpress build` builds them (Letter, colour), compared at 50 dpi in grey
with the reference pictures in tests/documents/pixels/ (see pixelcheck.py).

These hold the look still while the layout is made faster: a stylesheet that renders
quicker must print the same page. The card sheets have their own test (test_card_pixels.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scratchpress.build import BuildSettings, build
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.base import BuildOptions
from scratchpress.resources import examples_dir
from scratchpress.statblocks import compute_campaign

from pixelcheck import assert_looks_like, page_image

# file in the example build -> the pages (from 0) that stand for its printable
PAGES = {
    "sheet-teodora-vance.pdf": [0],  # a character sheet
    "sheet-hester-greaves.pdf": [0, 1],  # a commander: the minion back page
    "sheet-ilse-marrow.pdf": [1],  # notes, continued
    "vehicle-old-patience.pdf": [0],
    "carry-table.pdf": [0],
    "initiative-cards.pdf": [0, 1],  # rendered in batches of sheets, put together by pikepdf
    "community-lantern-weir.pdf": [0, 1],
    "roster.pdf": [0],
    "encounters.pdf": [0, 1],
    "booklet-scratch-at-the-table.pdf": [0, 1, 5, 12],
    "careers.pdf": [0],
    "resilience-events.pdf": [1],  # a sheet of backs: page 0 is test_card_pixels' events
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pixels") / "out"
    campaign = load_campaign([examples_dir()])
    report = build(
        compute_campaign(campaign),
        campaign,
        BuildOptions(),
        out,
        settings=BuildSettings(use_cache=False),
    )
    assert report.problems == []
    return out


@pytest.mark.parametrize(
    ("name", "page"),
    [(name, page) for name, pages in PAGES.items() for page in pages],
    ids=lambda value: str(value).removesuffix(".pdf"),
)
def test_page_looks_as_it_did(built: Path, name: str, page: int) -> None:
    stem = name.removesuffix(".pdf")
    assert_looks_like(page_image(built / name, page), f"page-{stem}-{page + 1}")
