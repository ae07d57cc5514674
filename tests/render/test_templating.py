"""Golden HTML snapshots: every template rendered for one fixed campaign.

A template change shows up as a reviewable diff of tests/documents/snapshots/*.html. After an
intended change, refresh them with:

    SCRATCHPRESS_UPDATE_SNAPSHOTS=1 python -m pytest tests/render/test_templating.py
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from scratchpress.build import collect_documents
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.render.templating import render_html
from scratchpress.resources import fonts_dir
from scratchpress.statblocks import compute_campaign

HERE = Path(__file__).resolve().parents[1] / "documents"  # the snapshots and their campaign
CAMPAIGN = HERE / "fixtures" / "snapshot-campaign"
SNAPSHOTS = HERE / "snapshots"
UPDATE = os.environ.get("SCRATCHPRESS_UPDATE_SNAPSHOTS") == "1"


def _documents() -> list[tuple[str, str]]:
    campaign = load_campaign([CAMPAIGN])
    computed = compute_campaign(campaign)
    documents = collect_documents(computed, campaign, BuildOptions(), None)
    rendered = []
    for document in documents:
        html = render_html(document.template, document.context)
        # The fonts folder is machine-specific; data: URLs (portraits) are bulky bytes.
        html = html.replace(fonts_dir().as_uri(), "FONTS")
        html = re.sub(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+", "data:IMAGE", html)
        rendered.append((document.stem, html))
    return rendered


DOCUMENTS = _documents()


def test_the_fixture_campaign_exercises_every_template() -> None:
    templates = {d.split("-")[0] for d, _ in DOCUMENTS}
    assert {"sheet", "vehicle", "initiative", "carry"} <= templates


@pytest.mark.parametrize(("stem", "html"), DOCUMENTS, ids=[s for s, _ in DOCUMENTS])
def test_html_matches_snapshot(stem: str, html: str) -> None:
    snapshot = SNAPSHOTS / f"{stem}.html"
    if UPDATE or not snapshot.exists():
        if not UPDATE and os.environ.get("CI"):
            pytest.fail(
                f"missing snapshot {snapshot.name}; run with SCRATCHPRESS_UPDATE_SNAPSHOTS=1"
            )
        snapshot.write_text(html, encoding="utf-8")
    expected = snapshot.read_text(encoding="utf-8")
    assert html == expected, (
        f"{stem}: template output changed; review `git diff` after refreshing with "
        "SCRATCHPRESS_UPDATE_SNAPSHOTS=1"
    )
