"""The live preview's source links (issue 29): a preview build puts a link over every
computed number, and ``api.source_anchors`` reads them back as boxes over the page that
name the file, line, entry, field and ``--explain`` line behind the number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2
import pytest

from scratchpress import api

from conftest import WriteCampaign

PARTY = """\
    characters:
      - name: Wren Hollis
        player: Sam
        group: The Crew
        abilities:
          toughness: 3
          stealth: 3
          shooting: 2
"""


def _build(folder: Path, out: Path, preview: bool, only: str) -> dict[str, bytes]:
    report = api.build(
        api.open_campaign(folder),
        {"only": only},
        out,
        cache_dir=out.parent / f"cache-{out.name}",
        preview=preview,
    )
    assert not report.problems
    return {w.path.name: w.path.read_bytes() for w in report.written}


@pytest.fixture
def campaign(write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = write_campaign({"party.yaml": PARTY})
    monkeypatch.chdir(folder)  # so the file is named as problems name it: party.yaml
    return folder


def _text_under(pdf: bytes, page_index: int, anchor: dict[str, Any]) -> str:
    """The text inside an anchor's box, read by pdfium from the page itself."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[page_index]
        width, height = page.get_size()
        left = anchor["x"] * width
        top = height - anchor["y"] * height
        right = left + anchor["width"] * width
        bottom = top - anchor["height"] * height
        text: str = page.get_textpage().get_text_bounded(left, bottom, right, top)
        return text.strip()
    finally:
        document.close()


def test_the_sheets_agility_links_to_the_stealth_line_and_lies_over_the_number(
    campaign: Path, tmp_path: Path
) -> None:
    pdf = _build(campaign, tmp_path / "preview", True, "sheets")["sheet-wren-hollis.pdf"]
    front = api.source_anchors(pdf)[0]
    agility = next(a for a in front if a["trace"].startswith("agility"))
    assert agility["file"] == "party.yaml"
    assert agility["line"] == 7  # `stealth: 3`, the line that decides it
    assert agility["entry"] == "Wren Hollis"
    assert agility["field"] == "abilities.stealth"
    assert agility["trace"] == "agility 13 = 10 + stealth 3"
    assert _text_under(pdf, 0, agility) == "13"
    assert 0 <= agility["x"] < agility["x"] + agility["width"] <= 1
    assert 0 <= agility["y"] < agility["y"] + agility["height"] <= 1


def test_every_number_a_gm_would_question_on_the_sheet_has_a_source(
    campaign: Path, tmp_path: Path
) -> None:
    pdf = _build(campaign, tmp_path / "preview", True, "sheets")["sheet-wren-hollis.pdf"]
    traces = [a["trace"] for a in api.source_anchors(pdf)[0]]
    for start in (
        "agility 13",
        "intelligence 10",
        "strength 10",
        "hit points 3",
        "stamina 1",
        "initiative bonus 6",
        "CP 8",
        "stealth 3, as written",
        "Shooting roll d20 +2 = d20 + shooting 2",
        "pack ",
        "ground 4 healthy = 4 + quickness 0 // 2",
    ):
        assert any(t.startswith(start) for t in traces), (start, traces)


def test_initiative_cards_keep_their_links_through_imposition(
    campaign: Path, tmp_path: Path
) -> None:
    pdf = _build(campaign, tmp_path / "preview", True, "initiative")["initiative-cards.pdf"]
    pages = api.source_anchors(pdf)
    found = [
        (index, a)
        for index, page in enumerate(pages)
        for a in page
        if a["trace"].startswith("agility 13")
    ]
    assert found, pages
    index, agility = found[0]
    assert (agility["line"], agility["field"]) == (7, "abilities.stealth")
    assert _text_under(pdf, index, agility) == "13"


def test_a_printed_build_has_no_source_links(campaign: Path, tmp_path: Path) -> None:
    built = _build(campaign, tmp_path / "printed", False, "sheets,initiative")
    for name, pdf in built.items():
        assert all(page == [] for page in api.source_anchors(pdf)), name
