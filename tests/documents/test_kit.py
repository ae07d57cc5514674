"""The community play kit (`build --only kit`): what a Resilience table puts in the middle.

Read back from the example's build and from a `new` campaign's: which pages it has and in
which order, their paper (the card pages turned), the community's own words on the map,
every project idea as a card with its large variant and failure line, a card for every
faction, the marks page, and crop marks outside the card grid, never off the paper's safe
area.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pypdf import PdfReader

from scratchpress.content.loader import builtin_content, resilience_content
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents.kit import (
    CROP_GAP_MM,
    CROP_MM,
    FACTION,
    HEADING_MM,
    POKER,
    _card_pages,
    areas,
    kit_view,
    per_page,
)
from scratchpress.resources import examples_dir
from scratchpress.statblocks import compute_campaign
from scratchpress.wording import speaking

from conftest import Cli, ExampleBuild, WriteCampaign

MM = 72 / 25.4
SAFE_MM = 6.0  # what printers leave bare at the paper's edge


def _text(reader: PdfReader, page: int) -> str:
    return " ".join((reader.pages[page].extract_text() or "").split())


def _kit(example_build: ExampleBuild) -> PdfReader:
    (path,) = example_build.kinds()["kit"]
    assert path.name == "kit-lantern-weir.pdf"
    return PdfReader(path)


def _expected_pages(ideas: int, factions: int, planned: int, paper: str = "letter") -> int:
    upright, turned = areas(paper)
    return (
        3  # the map, the year track, the session cards
        + max(1, math.ceil(planned / per_page(POKER, turned)))  # projects in progress
        + math.ceil(factions / per_page(FACTION, upright))
        + 1  # the marks
        + math.ceil(ideas / per_page(POKER, turned))
    )


def test_the_example_kit_has_every_page_in_order(example_build: ExampleBuild) -> None:
    reader = _kit(example_build)
    content = builtin_content()
    assert len(reader.pages) == _expected_pages(
        len(content.project_ideas), len(content.factions), 1
    )
    assert len(reader.pages) == 13  # 46 ideas at 8 a page, 8 factions at 4 a page
    firsts = [_text(reader, i).upper() for i in range(len(reader.pages))]
    assert "THE MAP" in firsts[0]
    assert "THE YEAR TRACK" in firsts[1]
    assert "ONE YEAR, IN ORDER" in firsts[2]
    assert "PROJECTS IN PROGRESS" in firsts[3]
    assert "AUGUST POWER SHARED OUT BY LOT" in firsts[3]  # the example's project to roll
    assert "THE POWERS AROUND LANTERN WEIR" in firsts[4] and "POWERS" in firsts[5]
    assert "MARKS IN THE HISTORY" in firsts[6]
    assert all("PROJECT CARDS" in first for first in firsts[7:])


def test_card_pages_are_turned_and_sheets_stand_upright(example_build: ExampleBuild) -> None:
    reader = _kit(example_build)
    sizes = [tuple(round(float(v)) for v in page.mediabox[2:]) for page in reader.pages]
    upright, turned = (612, 792), (792, 612)
    assert sizes[:3] == [upright] * 3
    assert sizes[3] == turned  # projects in progress, poker cards 8 to a page
    assert sizes[4:7] == [upright] * 3  # factions, 4 to a page, and the marks
    assert set(sizes[7:]) == {turned}


def test_the_map_prints_the_communitys_own_words_and_a_legend(example_build: ExampleBuild) -> None:
    text = _text(_kit(example_build), 0)
    for said in ("charged battery cells", "salt", "the Sallow River", "anyone who can blast rock"):
        assert said in text
    for heading in ("ABUNDANCES", "SCARCITIES", "NAMES", "LEGEND"):
        assert heading in text.upper()
    assert "Project under way (its number)" in text


def test_the_year_track_shows_what_each_year_adds_and_where_the_town_stands(
    example_build: ExampleBuild,
) -> None:
    text = _text(_kit(example_build), 1)
    # Year 4 adds +3 to every attack and +1 damage (one a year, one every second year).
    assert "attack +3 damage +1" in text
    assert "attack +11 damage +5" in text  # year 12
    assert "31" in text.split()


def test_every_project_idea_is_a_card_by_size_with_its_large_variant_and_failure(
    example_build: ExampleBuild,
) -> None:
    reader = _kit(example_build)
    text = " ".join(_text(reader, i) for i in range(7, len(reader.pages)))
    ideas = builtin_content().project_ideas
    positions = []
    for idea in ideas:
        assert idea.name in text, idea.name
        assert idea.failure and " ".join(idea.failure.split())[:40] in text, idea.id
        if idea.large is not None:
            assert " ".join(idea.large.summary.split())[:40] in text, idea.id
        positions.append((text.index(idea.name), idea.size))
    # Small ones first, then medium, then large.
    order = [size for _, size in sorted(positions)]
    assert order == sorted(order, key=["small", "medium", "large"].index)
    # The rope ferry: +3 economy -1 environment, difficulty 7 + 6 - 5 = 8.
    assert "+3 economy −1 environment difficulty 8" in text


def test_every_faction_has_a_card_with_the_marks_its_cards_leave(
    example_build: ExampleBuild,
) -> None:
    reader = _kit(example_build)
    text = _text(reader, 4) + " " + _text(reader, 5)
    for faction in builtin_content().factions:
        assert faction.name.upper() in text.upper(), faction.name
    assert "Defaulted on the Guild: left by “Default” (The Guild Calls Its Debts)" in text


def test_the_marks_page_says_who_leaves_and_who_reads_each_mark(
    example_build: ExampleBuild,
) -> None:
    text = _text(_kit(example_build), 6)
    assert "The Guild Calls Its Debts: “Default”" in text
    assert "Bridge Down." in text and "attack bonus +2" in text
    for event in builtin_content().events:
        for choice in event.decision.choices:
            if choice.leaves:
                assert choice.leaves.name in text


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_sit_outside_the_grid_clear_of_the_heading_and_the_paper_edge(
    paper: str,
) -> None:
    upright, turned = areas(paper)
    for size, area in ((POKER, turned), (FACTION, upright)):
        (sheet,) = _card_pages([{}] * per_page(size, area), size, area)
        lefts = [float(c["left"][:-2]) for c in sheet.cards]
        tops = [float(c["top"][:-2]) for c in sheet.cards]
        grid = (min(lefts), min(tops), max(lefts) + size[0], max(tops) + size[1])
        for crop in sheet.crops:
            x, y = float(crop["left"][:-2]), float(crop["top"][:-2])
            w, h = float(crop["width"][:-2] or 0), float(crop["height"][:-2] or 0)
            inside = grid[0] < x < grid[2] and grid[1] < y < grid[3]
            assert not inside, crop
            assert y >= HEADING_MM, crop  # below the page's heading line
            margin = 10.0
            # From the paper's edge: the page margin plus the position in the area.
            assert margin + x >= SAFE_MM and margin + y >= SAFE_MM
            assert margin + x + w <= margin * 2 + area[0] - SAFE_MM
            assert margin + y + h <= margin * 2 + area[1] - SAFE_MM
        assert CROP_GAP_MM > 0 and CROP_MM > 0
    # Eight poker cards to a turned page on both papers; four factions upright.
    assert per_page(POKER, turned) == 8 and per_page(FACTION, upright) == 4


def test_projects_not_yet_rolled_get_a_card_each(tmp_path: Path) -> None:
    campaign = load_campaign([examples_dir()])
    computed = compute_campaign(campaign)
    (block,) = computed.of_kind("community")
    definition = block.definition.model_copy(
        update={
            "projects": [
                *block.definition.projects,
                block.definition.projects[0].model_copy(
                    update={"year": 2, "roll": None, "name": "Fish ladder", "modifier": 1}
                ),
            ]
        }
    )
    planned = block.__class__(**{**block.__dict__, "definition": definition})
    with speaking("en"):
        view = kit_view(planned, campaign, BuildOptions())
    first = view["progress_pages"][0].cards
    assert first[0]["name"] == "Fish ladder" and first[0]["modifier"] == "+1"
    assert first[0]["develops"][0]["text"] == "+3 environment"
    assert len(first[0]["develops"][0]["boxes"]) == 3  # a box per level to tick
    assert all(card["blank"] for card in first[1:]) and len(first) == 8


def test_a_new_campaign_builds_its_kit(cli: Cli, tmp_path: Path) -> None:
    assert cli("new", tmp_path / "greyford").exit_code == 0
    out = tmp_path / "out"
    result = cli("build", tmp_path / "greyford", "--only", "kit", "-o", out, "--strict")
    assert result.exit_code == 0, result.stdout + result.stderr
    reader = PdfReader(out / "kit-greyford.pdf")
    content = resilience_content(load_campaign([tmp_path / "greyford"]))
    assert len(reader.pages) == _expected_pages(
        len(content.project_ideas), len(content.factions), 0
    )
    assert "river fish" in _text(reader, 0)


def test_a_project_idea_too_long_for_its_card_is_a_layout_warning(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    wall = " ".join(["Another course of stone, another song at dusk from the towers."] * 14)
    folder = write_campaign(
        {
            "c.yaml": f"""\
            communities:
              - {{name: Greyford, economy: 10, environment: 10, equity: 10}}
            project_ideas:
              - id: endless-wall
                name: The Endless Wall
                theme: defense
                develops: {{environment: 2}}
                summary: {wall}
            """
        }
    )
    result = cli("build", folder, "--only", "kit", "-o", tmp_path / "out")
    assert result.exit_code == 0
    assert 'kit-greyford.pdf: entry "The Endless Wall": project card overflows by' in (
        result.stderr
    )
    strict = cli("build", folder, "--only", "kit", "-o", tmp_path / "strict", "--strict")
    assert strict.exit_code == 1
    assert not (tmp_path / "strict" / "kit-greyford.pdf").exists()
