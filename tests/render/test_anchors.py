"""The live preview's source links (issue 29): a preview build puts a link over every
computed number, and ``api.source_anchors`` reads them back as boxes over the page that
name the file, line, entry, field and ``--explain`` line behind the number."""

from __future__ import annotations

import re
import textwrap
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


# --- the numbers the first preview left bare -----------------------------------------------

LONG = (
    "a note long enough to wrap twice or three times on the sheet, written so the front"
    " shortens it and prints it whole on the continuation page, where its level still links"
)
CROWDED = ("toughness", "shooting", "fighting", "wrestling", "stealth", "detection")
CREW = f"""\
    characters:
      - name: Wren Hollis
        player: Sam
        abilities:
          toughness: 3
          shooting: 2
      - name: Orla Longnote
        player: Kim
        abilities:
{chr(10).join(f'          {name}: {{level: 2, note: "{LONG} ({name})"}}' for name in CROWDED)}
      - name: Gull Marsh
        abilities:
          toughness: 2
          driving: 1
          shooting: 2
"""
WAGON = """\
    vehicles:
      - name: Dray Wagon
        movement: quickness
        abilities:
          toughness: 12
          quickness: 1
          guns: 1
        crew: {operator: Gull Marsh, gunner: Wren Hollis}
"""


@pytest.fixture(scope="module")
def crew_built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """One preview build of sheets, a vehicle and the roster, shared by the tests below
    (renders are slow): the files are named as problems name them, from their folder."""
    folder = tmp_path_factory.mktemp("crew")
    (folder / "crew.yaml").write_text(textwrap.dedent(CREW), encoding="utf-8")
    (folder / "wagon.yaml").write_text(textwrap.dedent(WAGON), encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        return _build(folder, folder / "out", True, "sheets,vehicles,roster")


def _anchors(pdf: bytes, trace_start: str) -> list[tuple[int, dict[str, Any]]]:
    return [
        (index, a)
        for index, page in enumerate(api.source_anchors(pdf))
        for a in page
        if a["trace"].startswith(trace_start)
    ]


def test_a_level_on_the_continuation_page_links_to_its_line(
    crew_built: dict[str, bytes],
) -> None:
    pdf = crew_built["sheet-orla-longnote.pdf"]
    continued = [(i, a) for i, a in _anchors(pdf, "detection 2, as written") if i > 0]
    assert continued, api.source_anchors(pdf)
    index, detection = continued[0]
    assert (detection["file"], detection["line"]) == ("crew.yaml", 15)  # `detection: ...`
    assert (detection["entry"], detection["field"]) == ("Orla Longnote", "abilities.detection")
    assert _text_under(pdf, index, detection) == "2"


def test_a_vehicle_weapons_level_links_to_its_line_with_the_gunners_share(
    crew_built: dict[str, bytes],
) -> None:
    pdf = crew_built["vehicle-dray-wagon.pdf"]
    guns = _anchors(pdf, "guns 3 = guns 1 + shooting 2 (Wren Hollis as gunner)")
    # The crewed figure in the abilities table and the weapon's level in its own.
    assert len(guns) == 2, api.source_anchors(pdf)
    for index, anchor in guns:
        assert (anchor["file"], anchor["line"]) == ("wagon.yaml", 7)
        assert (anchor["entry"], anchor["field"]) == ("Dray Wagon", "abilities.guns")
        assert _text_under(pdf, index, anchor) == "3"
    quickness = _anchors(pdf, "quickness 2 = quickness 1 + driving 1 (Gull Marsh as driver)")
    assert [_text_under(pdf, i, a) for i, a in quickness] == ["2"]


def test_a_vehicles_seat_and_health_ranges_link_to_their_source(
    crew_built: dict[str, bytes],
) -> None:
    pdf = crew_built["vehicle-dray-wagon.pdf"]
    (index, seat), *_ = _anchors(pdf, "shooting 2, Wren Hollis's")
    assert (seat["field"], seat["line"]) == ("crew.gunner", 8)
    assert _text_under(pdf, index, seat) == "2"
    (index, injured), *_ = _anchors(pdf, "injured 1–6: hit points at or below stamina 6")
    assert (injured["field"], injured["line"]) == ("abilities.toughness", 5)
    assert _text_under(pdf, index, injured) == "1–6"
    # The vehicle rules' titles that hold a computed number: "Injured" (at stamina or less).
    titles = [_text_under(pdf, i, a) for i, a in _anchors(pdf, "stamina 6 = ")]
    assert "Injured" in titles, titles


def test_an_attack_bonus_in_the_rosters_running_text_links_to_its_ability(
    crew_built: dict[str, bytes],
) -> None:
    pdf = crew_built["roster.pdf"]
    (index, shooting), *_ = _anchors(pdf, "Shooting roll d20 +2 = d20 + shooting 2")
    assert (shooting["entry"], shooting["field"]) == ("Gull Marsh", "abilities.shooting")
    assert (shooting["file"], shooting["line"]) == ("crew.yaml", 20)
    assert _text_under(pdf, index, shooting) == "+2"


def test_every_signed_number_on_the_roster_is_a_link(crew_built: dict[str, bytes]) -> None:
    """The roster signs only what it computes (attack, initiative and group bonuses):
    any "+2" a later change prints without its source shows up here."""
    pdf = crew_built["roster.pdf"]
    document = pypdfium2.PdfDocument(pdf)
    try:
        for index, anchors in enumerate(api.source_anchors(pdf)):
            page = document[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            signed = [m for m in re.finditer(r"(?<![\w+-])[+-]\d+", text)]
            assert signed
            for match in signed:
                left, bottom, right, top = textpage.get_charbox(match.start() + 1)
                x, y = (left + right) / 2 / width, 1 - (bottom + top) / 2 / height
                covered = any(
                    a["x"] <= x <= a["x"] + a["width"] and a["y"] <= y <= a["y"] + a["height"]
                    for a in anchors
                )
                assert covered, (match.group(), text[max(0, match.start() - 30) : match.end()])
    finally:
        document.close()
