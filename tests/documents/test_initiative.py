"""Initiative cards: the layout math on its own, the view model, and the rendered PDFs.

Rendering is the slow part, so each PDF is built once per module and shared by the tests
that read it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from scratchpress.build import BuildReport, build
from scratchpress.definitions.campaign import Campaign, load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import initiative
from scratchpress.documents.cardsheet import (
    CARD_SAFE_MM,
    MARK_MARGIN_MM,
    MIN_MARK_MM,
    PRINTABLE_MM,
    Rect,
)
from scratchpress.documents.initiative import (
    METRICS,
    all_cards,
    cut_marks,
    fit_text,
    fold_marks,
    guide_lines,
    per_sheet,
    plan_grid,
)
from scratchpress.resources import examples_dir
from scratchpress.rules.character import CharacterStats
from scratchpress.statblocks import Computed, compute_campaign
from scratchpress.typesetting.paper import PAPER_MM

from conftest import Cli, WriteCampaign

LETTER_PT = (612.0, 792.0)
A4_PT = (595.28, 841.89)

# The example campaign: two groups (The Rookery: 5 characters and 2 Ledger-hands, so 7
# member rows; Weir Wardens: 4 characters, Ballast and Pell Orrin, 6 rows) and ten
# characters, one of them (Amos Tenpenny) in no group.
CHARACTERS = 10
ROOKERY_ROWS = 7
WARDENS_ROWS = 6


# ------------------------------------------------------------------------------------------
# Layout math


CELLS = [
    (paper, size, tent)
    for paper in ("letter", "a4")
    for size in ("poker", "index")
    for tent in (False, True)
]


def _grid(paper: str, size: str, tent: bool) -> initiative.Grid:
    m = METRICS[size]
    return plan_grid(paper, m.card_w, 2 * m.card_h if tent else m.card_h)


@pytest.mark.parametrize(("paper", "size", "tent"), CELLS)
def test_cards_leave_room_for_their_marks_and_a_gutter_between(
    paper: str, size: str, tent: bool
) -> None:
    grid = _grid(paper, size, tent)
    cells = grid.cells()
    assert len(cells) == grid.per_page > 0
    for cell in cells:
        assert cell.x >= MARK_MARGIN_MM - 1e-9 and cell.y >= MARK_MARGIN_MM - 1e-9
        assert cell.right <= grid.page_w - MARK_MARGIN_MM + 1e-9
        assert cell.bottom <= grid.page_h - MARK_MARGIN_MM + 1e-9
    assert grid.gutter >= 1.5
    for a, b in itertools.combinations(cells, 2):
        apart = max(b.x - a.right, a.x - b.right, b.y - a.bottom, a.y - b.bottom)
        assert apart >= grid.gutter - 1e-9, (a, b)


@pytest.mark.parametrize(("paper", "size", "tent"), CELLS)
def test_cut_marks_sit_outside_the_cards_on_the_page(paper: str, size: str, tent: bool) -> None:
    grid = _grid(paper, size, tent)
    cells = grid.cells()
    marks = cut_marks(grid) + (fold_marks(grid) if tent else [])
    assert marks
    for mark in marks:
        rect = mark.rect
        assert mark.length >= MIN_MARK_MM - 1e-9
        assert rect.x >= PRINTABLE_MM - 1e-9 and rect.right <= grid.page_w - PRINTABLE_MM + 1e-9
        assert rect.y >= PRINTABLE_MM - 1e-9 and rect.bottom <= grid.page_h - PRINTABLE_MM + 1e-9
        for cell in cells:
            assert not _touches(rect, cell), (mark, cell)


def _touches(line: Rect, cell: Rect) -> bool:
    """A zero-width line inside a card (its edges count as outside)."""
    inside_x = cell.x < line.right and line.x < cell.right
    inside_y = cell.y < line.bottom and line.y < cell.bottom
    if line.w == 0:
        inside_x = cell.x < line.x < cell.right
    if line.h == 0:
        inside_y = cell.y < line.y < cell.bottom
    return inside_x and inside_y


@pytest.mark.parametrize(("paper", "size", "tent"), CELLS)
def test_every_card_edge_has_cut_marks(paper: str, size: str, tent: bool) -> None:
    grid = _grid(paper, size, tent)
    marks = cut_marks(grid)
    xs = {round(m.x, 3) for m in marks if m.direction == "v"}
    ys = {round(m.y, 3) for m in marks if m.direction == "h"}
    for cell in grid.cells():
        assert {round(cell.x, 3), round(cell.right, 3)} <= xs
        assert {round(cell.y, 3), round(cell.bottom, 3)} <= ys


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_cards_per_page(paper: str) -> None:
    # 3 x 3 leaves no room for 4 mm marks inside the printable zone; 4 x 2 on a landscape
    # page does, on both papers.
    poker = _grid(paper, "poker", False)
    assert (poker.cols, poker.rows, poker.landscape) == (4, 2, True)
    assert _grid(paper, "index", False).per_page == 4  # 2 x 2 on a landscape page
    assert _grid(paper, "poker", True).per_page == 4  # tents: fewer per page
    assert _grid(paper, "index", True).per_page == 2
    assert per_sheet(BuildOptions(paper=paper)) == "initiative: 8 cards per sheet"  # type: ignore[arg-type]
    assert per_sheet(BuildOptions(paper=paper, tent=True)) == (  # type: ignore[arg-type]
        "initiative: 4 tents per sheet, not 8, because --tent makes each card a fold-over"
        " tent twice as tall"
    )


def test_card_padding_is_at_least_the_safe_area() -> None:
    assert all(m.pad >= CARD_SAFE_MM for m in METRICS.values())


def test_grid_picks_the_orientation_that_fits_more() -> None:
    paper_w, paper_h = PAPER_MM["letter"]
    index = _grid("letter", "index", False)
    assert index.landscape and (index.page_w, index.page_h) == (paper_h, paper_w)
    with pytest.raises(ValueError, match="does not fit"):
        plan_grid("a4", 300.0, 300.0)


def test_guides_draw_each_shared_edge_once() -> None:
    cells = [Rect(0, 0, 10, 20), Rect(10, 0, 10, 20)]
    lines = guide_lines(cells)
    assert len(lines) == 7  # 2 x 2 horizontal + 3 vertical


# ------------------------------------------------------------------------------------------
# View model


@pytest.fixture(scope="module")
def example() -> tuple[Campaign, Computed]:
    campaign = load_campaign([examples_dir()])
    return campaign, compute_campaign(campaign)


def _cards(computed: Computed, **options: Any) -> list[dict[str, Any]]:
    return all_cards(computed, BuildOptions(**options))


def test_one_card_per_group_and_character(example: tuple[Campaign, Computed]) -> None:
    _, computed = example
    cards = _cards(computed)
    groups = [c for c in cards if c["kind"] == "group"]
    characters = [c for c in cards if c["kind"] == "character"]
    assert [c["title"] for c in characters] == [b.name for b in _grouped_order(computed)]
    assert len(characters) == CHARACTERS
    # Poker cards hold 6 member rows: the Rookery's 7 continue on a second card.
    assert [(c["title"], c["part"]) for c in groups] == [
        ("The Rookery", "1/2"),
        ("The Rookery", "cont. 2/2"),
        ("Weir Wardens", ""),
    ]
    assert sum(len(c["members"]) for c in groups) == ROOKERY_ROWS + WARDENS_ROWS
    # Wider index cards hold every member row on one card.
    index = _cards(computed, cards="index")
    assert [c["title"] for c in index if c["kind"] == "group"] == ["The Rookery", "Weir Wardens"]


def _grouped_order(computed: Computed) -> list[Any]:
    """Each group's characters after its card, characters without a group last."""
    characters = computed.of_kind("character")
    ordered = [b for g in computed.groups for b in characters if b.group == g.name]
    return ordered + [b for b in characters if not b.group]


def test_group_card_rows(example: tuple[Campaign, Computed]) -> None:
    _, computed = example
    cards = _cards(computed)
    rookery = [r for c in cards if c["title"] == "The Rookery" for r in c["members"]]
    names = [r["name"] for r in rookery]
    assert names[:3] == ["Hester Greaves", "Ledger-hands 1", "Ledger-hands 2"]
    hester = rookery[0]
    stats = computed.block("character", "Hester Greaves").stats  # type: ignore[union-attr]
    assert isinstance(stats, CharacterStats)
    assert hester["cells"] == [
        str(stats.agility),
        str(stats.intelligence),
        str(stats.strength),
        str(stats.stamina),
    ]
    assert [t["letter"] for t in hester["ticks"]] == ["D", "S", "I"]
    track = [b for line in hester["hp_lines"] for b in line]
    assert [b["label"] for b in track] == ["3", "2", "1", "0"]
    assert [b["injured"] for b in track] == [False, False, True, False]
    assert rookery[1]["minion"] and not hester["minion"]
    first = next(c for c in cards if c["title"] == "The Rookery")
    assert first["bonus"] == "+38"
    assert first["bonus_lines"] == ["2 × best stealth 4", "+ 10 × best detection 3"]
    assert [c["label"] for c in first["columns"]] == ["AGI", "INT", "STR", "STA"]


def test_classic_rules_print_one_defense_and_own_initiative(
    example: tuple[Campaign, Computed],
) -> None:
    campaign, _ = example
    computed = compute_campaign(campaign, "classic")
    cards = _cards(computed)
    group = cards[0]
    assert [c["label"] for c in group["columns"]] == ["DEF", "STA", "INIT"]
    character = next(c for c in cards if c["kind"] == "character")
    assert [d["label"] for d in character["defenses"]] == ["DEF"]
    assert character["group_line"].startswith("Rolls alone")
    assert all(a["target"] == "DEF" for a in character["attacks"] if a["name"] != "Intimidate")


def test_character_card(example: tuple[Campaign, Computed]) -> None:
    _, computed = example
    card = next(c for c in _cards(computed) if c["title"] == "Hester Greaves")
    # One number to roll: the Rookery rolls together, so her card frames the group's +38,
    # and nothing beside it says her own +30 (10 x detection 3).
    assert card["group_line"] == "Rolls with The Rookery"
    assert card["init"] == "+38"
    assert "+30" not in card["group_line"]
    attacks = {a["name"]: a for a in card["attacks"]}
    assert attacks["Shooting"] == {
        "tick": False,
        "letter": "",
        "name": "Shooting",
        "bonus": "+1",
        "target": "AGI",
        "damage": "2",
        "range": "long",
    }
    assert attacks["Intimidate"]["tick"] and attacks["Intimidate"]["letter"] == "I"
    assert attacks["Intimidate"]["damage"] == "panic"
    assert "Evade" not in attacks  # not an attack


def test_long_stat_blocks_continue_on_a_second_card(write_campaign: Callable[..., Path]) -> None:
    folder = write_campaign(
        {
            "party.yaml": """
            characters:
              - name: Everything
                abilities: {fighting: 4, wrestling: 4, knockout: 4, shooting: 4, blasting: 4,
                            stealth: 4, detection: 4, command: 4, healing: 4, toughness: 19}
                minions:
                  - {name: Hound, count: 3, abilities: {toughness: 1}}
            """
        }
    )
    computed = compute_campaign(load_campaign([folder]))
    cards = _cards(computed)
    # A leader without a group still gets a group card for the minions.
    assert [c["title"] for c in cards if c["kind"] == "group"] == ["Everything & minions"]
    group = cards[0]
    assert [r["name"] for r in group["members"]] == ["Everything", "Hound 1", "Hound 2", "Hound 3"]
    everything = group["members"][0]
    assert len(everything["hp_lines"]) > 1  # 19 HP and a 0 wrap onto more lines
    characters = [c for c in cards if c["kind"] == "character"]
    assert [c["part"] for c in characters] == ["1/2", "cont. 2/2"]
    names = [a["name"] for c in characters for a in c["attacks"]]
    assert len(names) == len(set(names)) == 11
    for line in characters[0]["hp_lines"]:
        assert len(line) <= math.floor((METRICS["poker"].inner_w - 6.0) / METRICS["poker"].pitch)


def test_fit_text_keeps_the_number_of_a_minion() -> None:
    shown = fit_text("An Enormously Long Minion Name", "Lato-Italic.ttf", 8.0, 25.0, suffix=" 2")
    assert shown.endswith("… 2")
    assert fit_text("Thugs", "Lato-Italic.ttf", 8.0, 25.0, suffix=" 2") == "Thugs 2"


def test_boxes_are_big_enough_for_a_pencil() -> None:
    for m in METRICS.values():
        assert m.box >= 4.0 and m.tick_w >= 4.0 and m.pitch >= m.box


# ------------------------------------------------------------------------------------------
# Rendered PDFs


@pytest.fixture(scope="module")
def rendered(
    example: tuple[Campaign, Computed], tmp_path_factory: pytest.TempPathFactory
) -> Callable[..., tuple[BuildReport, PdfReader]]:
    campaign, computed = example
    cache: dict[tuple[tuple[str, Any], ...], tuple[BuildReport, PdfReader]] = {}

    def render(**options: Any) -> tuple[BuildReport, PdfReader]:
        key = tuple(sorted(options.items()))
        if key not in cache:
            out = tmp_path_factory.mktemp("initiative")
            report = build(computed, campaign, BuildOptions(**options), out, ["initiative"])
            assert [w.path.name for w in report.written] == ["initiative-cards.pdf"]
            cache[key] = (report, PdfReader(report.written[0].path))
        return cache[key]

    return render


def _text(reader: PdfReader) -> str:
    return "\n".join(page.extract_text() for page in reader.pages)


def _size(reader: PdfReader, index: int = 0) -> tuple[float, float]:
    box = reader.pages[index].mediabox
    return float(box.width), float(box.height)


def _close(size: tuple[float, float], expected: tuple[float, float]) -> bool:
    return all(abs(a - b) <= 1.0 for a, b in zip(size, expected, strict=True))


def _card_counts(text: str) -> tuple[int, int]:
    """Group cards carry a MEMBER heading, character cards an ATTACK heading."""
    return text.count("MEMBER AGI"), text.count("ATTACK ROLL VS")


def test_poker_letter(
    rendered: Callable[..., tuple[BuildReport, PdfReader]], example: tuple[Campaign, Computed]
) -> None:
    report, reader = rendered()
    assert report.warnings == [] and report.problems == []
    groups, characters = _card_counts(_text(reader))
    assert (groups, characters) == (3, CHARACTERS)  # the Rookery's rows need two cards
    assert len(reader.pages) == math.ceil((groups + characters) / 8) == 2
    assert all(_close(_size(reader, i), LETTER_PT[::-1]) for i in range(len(reader.pages)))
    _assert_group_numbers(_text(reader), example[1])


def _assert_group_numbers(text: str, computed: Computed) -> None:
    lines = text.splitlines()
    for group in computed.groups:
        assert f"+{group.bonus}" in text
        for member in group.members:
            stats = member.stats
            assert isinstance(stats, CharacterStats)
            names = (
                [f"{member.name} {i}" for i in range(1, member.count + 1)]
                if member.count > 1
                else [member.name]
            )
            for name in names:
                assert name in lines
            row = f"{stats.agility} {stats.intelligence} {stats.strength} {stats.stamina}"
            assert row in lines, (member.name, row)


def test_index_cards_fit_four_to_a_landscape_page(
    rendered: Callable[..., tuple[BuildReport, PdfReader]],
) -> None:
    report, reader = rendered(cards="index")
    assert report.warnings == []
    groups, characters = _card_counts(_text(reader))
    assert (groups, characters) == (2, CHARACTERS)  # every member row fits one index card
    per_page = _grid("letter", "index", False).per_page
    assert per_page != 9
    assert len(reader.pages) == math.ceil((groups + characters) / per_page) == 3
    assert _close(_size(reader), LETTER_PT[::-1])


def test_tents_on_a4_in_ink_saver(
    rendered: Callable[..., tuple[BuildReport, PdfReader]], example: tuple[Campaign, Computed]
) -> None:
    # One render covers A4, ink-saver and tents: rendering is what makes this file slow.
    report, reader = rendered(tent=True, paper="a4", ink_saver=True)
    assert report.warnings == []
    text = _text(reader)
    groups, characters = _card_counts(text)
    assert (groups, characters) == (3, CHARACTERS)
    per_page = _grid("a4", "poker", True).per_page
    assert len(reader.pages) == math.ceil((groups + characters) / per_page) == 4
    assert _close(_size(reader), A4_PT[::-1])
    assert text.count("FOLD") == groups + characters
    assert "played by Priya" in text  # the player side of her character's tent
    _assert_group_numbers(text, example[1])


def test_the_framed_initiative_is_what_each_player_adds_to_d20(
    example: tuple[Campaign, Computed],
) -> None:
    _, computed = example
    groups = {g.name: g for g in initiative.initiative_groups(computed)}
    for card in _cards(computed):
        if card["kind"] != "character" or not card["first"]:
            continue
        block = computed.block("character", card["title"])
        group = groups.get(card["group"]) if card["group"] else None
        bonus = group.bonus if group is not None else block.stats.initiative_bonus  # type: ignore[union-attr]
        assert card["init"] == (f"{bonus:+d}" if bonus else "d20"), card["title"]


def test_cards_print_each_roll_as_the_sheet_does(example: tuple[Campaign, Computed]) -> None:
    from scratchpress.documents.actions import name
    from scratchpress.documents.sheet.rows import roll_text

    _, computed = example
    bare = 0
    for card in _cards(computed):
        if card["kind"] != "character":
            continue
        actions = {name(a): a for a in computed.block("character", card["title"]).stats.actions}  # type: ignore[union-attr]
        for row in card["attacks"]:
            assert row["bonus"] == roll_text(actions[row["name"]])[0], (card["title"], row)
            bare += row["bonus"] == "d20"
    assert bare  # the example has attacks rolled on the bare die (basic attacks)


# -------------------- formerly tests/documents/test_initiative_names.py
# Initiative cards print whole names, and say so when one must be cut.

PARTY = """
characters:
  - name: {name}
    group: {group}
    abilities: {{toughness: 2, detection: 1}}
  - name: Bo
    group: {group}
    abilities: {{toughness: 2}}
"""


def _cards_names(folder: Path) -> list[dict[str, object]]:
    campaign = load_campaign([folder])
    return initiative.all_cards(compute_campaign(campaign), BuildOptions())


def test_a_long_name_takes_the_labels_room_before_a_letter_is_cut(
    write_campaign: WriteCampaign,
) -> None:
    # 25 letters of Greek in the condensed display face do not fit beside "CHARACTER" at
    # the smallest size; without the label they do, so the band drops the label and keeps
    # every letter.
    name = "Αλέξανδρος Κωνσταντινίδης"
    folder = write_campaign({"party.yaml": PARTY.format(name=name, group="Dam")})
    card = next(c for c in _cards_names(folder) if c["title"] == name)
    assert card["band_title"] == name
    assert card["band_label"] == ""
    assert initiative.shortened(_cards_names(folder)) == []


def test_a_member_line_steps_down_in_size_before_it_cuts(write_campaign: WriteCampaign) -> None:
    name = "Marisol Achterberg-Oduya"
    folder = write_campaign({"party.yaml": PARTY.format(name=name, group="Dam")})
    group = next(c for c in _cards_names(folder) if c["kind"] == "group")
    member = next(m for m in group["members"] if m["name"] == name)  # type: ignore[attr-defined]
    assert member["shown"] == name
    size = float(member["name_size"].removesuffix("pt"))
    assert initiative.TYPE_FLOOR_PT <= size < initiative.METRICS["poker"].member_pt


def test_a_name_that_cannot_fit_warns_and_fails_with_strict(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    name = "Wilhelmina Konstantinopoulou-Vandersloot of the Long Weir"
    folder = write_campaign({"party.yaml": PARTY.format(name=name, group="Dam")})
    args = ["build", str(folder), "-o", "out", "--only", "initiative", "-j", "1"]
    relaxed = cli(*args)
    assert relaxed.exit_code == 0, relaxed.output
    lines = relaxed.stderr.splitlines()
    line = next((text for text in lines if "name on the group card" in text), None)
    assert line is not None, relaxed.stderr
    assert line.startswith(f'initiative-cards.pdf: entry "{name}": name on the group card:')
    assert "shortened to fit the initiative card: prints '" in line
    strict = cli(*args, "--strict")
    assert strict.exit_code == 1
    assert "--strict:" in strict.stderr


# ------------------------------------------------------------------------------------------
# The live preview's sources (issue 29)


def test_each_number_on_a_card_knows_its_line_and_its_rule(
    example: tuple[Campaign, Computed],
) -> None:
    from urllib.parse import parse_qs

    def decoded(source: str) -> dict[str, str]:
        return {k: v[0] for k, v in parse_qs(source, keep_blank_values=True).items()}

    _, computed = example
    cards = _cards(computed)
    card = next(c for c in cards if c["title"] == "Ludo Farrow")
    agility = decoded(card["defenses"][0]["source"])
    assert agility["trace"] == "agility 12 = 10 + acrobatics 2"
    assert (agility["entry"], agility["field"]) == ("Ludo Farrow", "abilities.acrobatics")
    assert len(card["attack_sources"]) == len(card["attacks"])
    group = next(c for c in cards if c["title"] == "The Rookery")
    assert decoded(group["bonus_source"])["trace"].startswith("group initiative bonus 38 =")
    assert all(len(m["sources"]) == len(m["cells"]) for m in group["members"])
