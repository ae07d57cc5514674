"""Resilience decks (events, careers), card imposition, the layout check and the duplex
calibration sheet.

The expensive part is rendering: the event deck is rendered once per module (duplex,
Letter) and serves the page count, the page size, the text, the warnings and the overflow
measurement. Page counts of the other modes come from the view model, which is what the
template lays out one section per page (checked on the rendered careers deck).
"""

from __future__ import annotations

import itertools
import math
import textwrap
from collections import Counter
from gettext import NullTranslations
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from scratchpress.content.loader import merged_entries, resilience_content
from scratchpress.definitions.campaign import Campaign, load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.definitions.resilience_models import THREAT_DEFENSE
from scratchpress.documents.base import Document
from scratchpress.documents.calibrate import (
    BACK_PITCH_MM,
    FRONT_PITCH_MM,
    CalibrationOptions,
    calibration_document,
)
from scratchpress.documents.cardsheet import (
    BLEED_MM,
    GUTTER_MM,
    MARK_PT,
    MIN_MARK_MM,
    PRINTABLE_MM,
    SIDEWAYS,
    duplex_back_turn,
    duplex_backs,
    fold_sheet,
    grid,
    mirrored_turn,
)
from scratchpress.documents.deck import (
    DeckOptions,
    career_documents,
    career_face,
    deck_document,
    either,
    event_documents,
    event_face,
    keep_numbers,
    layout_problems,
    per_sheet,
)
from scratchpress.problems import InputError
from scratchpress.render.engine import Rendered, render_pdf
from scratchpress.render.lint import card_collisions, card_overflows
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir, fonts_dir, templates_dir
from scratchpress.statblocks import compute_campaign
from scratchpress.typesetting.paper import PAPER_MM
from scratchpress.wording import Wording, speaking

from conftest import Cli, WriteCampaign

LETTER = (612.0, 792.0)
A4 = (595.0, 842.0)
CARD = (63.0, 88.0)


def render(document: Document) -> Rendered:
    html = render_html(document.template, document.context)
    return render_pdf(html, templates_dir(), [templates_dir(), fonts_dir()], keep_document=True)


def write(rendered: Rendered, path: Path) -> PdfReader:
    path.write_bytes(rendered.pdf)
    return PdfReader(path)


def size(page: Any) -> tuple[float, float]:
    return float(page.mediabox.width), float(page.mediabox.height)


@pytest.fixture(scope="module")
def example() -> Campaign:
    return load_campaign([examples_dir()])


@pytest.fixture(scope="module")
def event_deck() -> Document:
    """The 50 built-in events (the example campaign may add its own)."""
    return deck_document("events", merged_entries(None, "events"), BuildOptions(), DeckOptions())


@pytest.fixture(scope="module")
def rendered_events(
    event_deck: Document, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Rendered, PdfReader]:
    rendered = render(event_deck)
    return rendered, write(rendered, tmp_path_factory.mktemp("deck") / "events.pdf")


def pages_for(kind: str, paper: str = "letter", **deck: Any) -> list[Any]:
    """The pages of a deck of the built-in content."""
    options = BuildOptions(paper=paper)  # type: ignore[arg-type]
    document = deck_document(
        kind,  # type: ignore[arg-type]
        merged_entries(None, kind),  # type: ignore[arg-type]
        options,
        DeckOptions(**deck),
    )
    pages: list[Any] = document.context["pages"]
    return pages


# --------------------------------------------------------------------------------------
# Content
# --------------------------------------------------------------------------------------


def test_builtin_content_loads_and_validates() -> None:
    content = resilience_content()
    assert (len(content.events), len(content.careers), len(content.project_ideas)) == (50, 13, 46)
    assert len({e.id for e in content.events}) == 50
    for event in content.events:
        assert THREAT_DEFENSE[event.threat] == event.attacks


def test_events_are_spread_evenly_over_the_three_es() -> None:
    events = resilience_content().events
    threats = Counter(e.attacks for e in events if not e.windfall)
    assert threats == {"economy": 15, "environment": 15, "equity": 15}
    windfalls = Counter(e.attacks for e in events if e.windfall)
    assert windfalls == {"economy": 2, "environment": 2, "equity": 1}


USER_EVENTS = """\
    events:
      - id: boiler-burst
        title: The Boiler Holds
        threat: emergency
        attacks: economy
        attack_bonus: 4
        damage: 1
        story: >-
          The old boiler groans all winter but holds, and the mill keeps turning while
          the valley waits for the crack that everyone swears they can hear at night.
        temporary: Projects that develop economy roll at -1 this year.
        challenge:
          ability: craftsmanship
          difficulty: 12
          success: "A clamp band buys another year: attack bonus -2."
          failure: "The band slips: damage +1."
        decision:
          prompt: Shut the mill for repairs?
          choices:
            - {choice: Shut it, consequence: "-1 economy now; attack bonus -3."}
            - {choice: Keep grinding, consequence: "No cost now."}
        encounter: Scrap buyers from downriver come to look at the boiler, armed.
      - id: dust-wind
        title: The Dust Wind
        threat: attrition
        attacks: environment
        attack_bonus: 6
        damage: 2
        story: >-
          A brown wind blows for nine days straight and strips the topsoil from every
          field that was ploughed in autumn, piling it against the walls in drifts.
        temporary: Every project roll this year is at -1.
        challenge:
          ability: navigation
          difficulty: 11
          success: "A guide finds a sheltered valley to graze: attack bonus -2."
          failure: "The herds scatter: -1 economy now."
        decision:
          prompt: Plant windbreaks or move the fields?
          choices:
            - {choice: Plant windbreaks, consequence: "-1 economy now; damage -1."}
            - {choice: Move the fields, consequence: "-1 equity now (old claims)."}
        encounter: Nomads driven before the wind camp on the town's last good pasture.
"""


@pytest.fixture
def user_campaign(write_campaign: WriteCampaign) -> Campaign:
    folder = write_campaign({"events.yaml": USER_EVENTS})
    return load_campaign([folder])


def test_campaign_event_replaces_the_builtin_with_its_id_and_new_ones_append(
    user_campaign: Campaign,
) -> None:
    entries = merged_entries(user_campaign, "events")
    assert len(entries) == 51
    assert entries[0].definition.title == "The Boiler Holds"  # same place as the built-in
    assert entries[0].source is not None and entries[0].replaces_builtin
    assert entries[-1].definition.title == "The Dust Wind"
    assert all(e.source is None for e in entries[1:-1])


def test_campaign_events_appear_in_the_deck(user_campaign: Campaign, tmp_path: Path) -> None:
    computed = compute_campaign(user_campaign)
    sheets = event_documents(computed, user_campaign, BuildOptions())
    # One document per sheet of paper, all merged into the one deck file.
    assert {d.stem for d in sheets} == {"resilience-events"}
    titles = [
        slot["face"]["title"]
        for document in sheets
        for page in document.context["pages"]
        for slot in page["cards"]
        if slot["side"] == "front"
    ]
    # The deck opens with its card on how an event plays, then the events in order.
    assert titles[0] == "How an event plays"
    assert titles[1] == "The Boiler Holds" and titles[-1] == "The Dust Wind"
    assert "Boiler Burst" not in titles
    # Render only the campaign's own cards: they print, fit and read back from the PDF.
    own = [e for e in merged_entries(user_campaign, "events") if e.source is not None]
    rendered = render(deck_document("events", own, BuildOptions(), DeckOptions(backs="none")))
    text = write(rendered, tmp_path / "own.pdf").pages[0].extract_text()
    # Card titles are set in capitals by the stylesheet (text-transform), text layer too.
    assert "THE DUST WIND" in text and "d20 + 6" in text
    assert card_overflows(rendered.document) == []
    assert rendered.warnings == []


def test_duplicate_campaign_ids_are_a_clean_error(write_campaign: WriteCampaign) -> None:
    twice = USER_EVENTS + USER_EVENTS.split("events:\n", 1)[1].split("      - id: dust-wind")[0]
    folder = write_campaign({"events.yaml": twice})
    campaign = load_campaign([folder])
    with pytest.raises(InputError) as err:
        merged_entries(campaign, "events")
    (problem,) = err.value.problems
    assert str(problem).startswith(f"{folder / 'events.yaml'}:")  # the file, by its path
    assert "duplicate event id 'boiler-burst'" in str(problem)


def test_bad_campaign_event_is_reported_by_check(write_campaign: WriteCampaign, cli: Cli) -> None:
    text = textwrap.dedent(USER_EVENTS.replace("attack_bonus: 6", "attack_bonus: 13"))
    write_campaign({"events.yaml": text})
    line = text.splitlines().index("    attack_bonus: 13") + 1
    result = cli("check", "campaign")
    assert result.exit_code == 1
    assert (
        f'campaign/events.yaml:{line}: entry "The Dust Wind": attack_bonus: '
        "must be 12 or less, got 13"
    ) in result.stderr


# --------------------------------------------------------------------------------------
# Imposition: grids, cut marks, backs
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("bleed", [False, True])
def test_grid_is_centred_with_gutters_and_cut_marks_outside_it_and_off_the_margin(
    paper: str, bleed: bool
) -> None:
    layout = grid(paper, CARD, bleed)
    page_w, page_h = PAPER_MM[paper]
    # 3 x 3 upright leaves no room for 4 mm marks inside the printable zone: the cards lie
    # on their sides, 2 x 4; bleed gutters cost Letter a row.
    assert layout.turn == SIDEWAYS
    assert (layout.cols, layout.rows) == ((2, 3) if bleed and paper == "letter" else (2, 4))
    assert layout.gutter == pytest.approx(
        2 * BLEED_MM if bleed else 1.9 if paper == "letter" else GUTTER_MM
    )
    w, h = CARD[1], CARD[0]  # on its side
    xs = sorted({r.x for r in layout.fronts})
    ys = sorted({r.y for r in layout.fronts})
    assert all(b - a == pytest.approx(w + layout.gutter) for a, b in itertools.pairwise(xs))
    assert all(b - a == pytest.approx(h + layout.gutter) for a, b in itertools.pairwise(ys))
    left, top = xs[0], ys[0]
    right, bottom = xs[-1] + w, ys[-1] + h
    assert left == pytest.approx(page_w - right) and top == pytest.approx(page_h - bottom)
    assert MARK_PT >= 0.5
    for mark in layout.marks:
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert PRINTABLE_MM - 1e-6 <= x <= page_w - PRINTABLE_MM + 1e-6
            assert PRINTABLE_MM - 1e-6 <= y <= page_h - PRINTABLE_MM + 1e-6
            inside = left < x < right and top < y < bottom
            assert not inside, f"cut mark inside the grid at {x:.1f}, {y:.1f}"
        assert (mark.x1 == mark.x2) != (mark.y1 == mark.y2)  # horizontal or vertical
        assert abs(mark.x2 - mark.x1) + abs(mark.y2 - mark.y1) >= MIN_MARK_MM - 1e-6
    # Every trim line, both edges of every row and column, gets a mark at both ends.
    trims_x = {round(v, 3) for x in xs for v in (x, x + w)}
    trims_y = {round(v, 3) for y in ys for v in (y, y + h)}
    vertical = Counter(round(m.x1, 3) for m in layout.marks if m.x1 == m.x2)
    horizontal = Counter(round(m.y1, 3) for m in layout.marks if m.y1 == m.y2)
    assert vertical == {x: 2 for x in trims_x}
    assert horizontal == {y: 2 for y in trims_y}


@pytest.mark.parametrize("edge", ["long", "short"])
def test_duplex_backs_mirror_the_fronts_and_take_the_offset(edge: str) -> None:
    layout = grid("letter", CARD)
    dx, dy = 1.5, -2.0
    backs = duplex_backs(layout, edge, (dx, dy))  # type: ignore[arg-type]
    for front, back in zip(layout.fronts, backs, strict=True):
        if edge == "long":
            assert back.x == pytest.approx(layout.page_w - front.x - front.w - dx)
            assert back.y == pytest.approx(front.y - dy)
        else:
            assert back.x == pytest.approx(front.x - dx)
            assert back.y == pytest.approx(layout.page_h - front.y - front.h - dy)
    # A card lies on its side with its top to the left; turned over the long edge its
    # back's top is on the right, over the short edge still on the left.
    assert duplex_back_turn(layout, edge) == (90 if edge == "long" else SIDEWAYS)  # type: ignore[arg-type]


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("bleed", [False, True])
def test_fold_sheet_puts_each_back_opposite_its_front(paper: str, bleed: bool) -> None:
    layout = fold_sheet(paper, CARD, bleed)
    assert layout.per_page == {("letter", False): 4, ("letter", True): 3}.get((paper, bleed), 4)
    assert layout.fold is not None
    vertical = layout.fold.x1 == layout.fold.x2
    fold = layout.fold.x1 if vertical else layout.fold.y1
    assert fold == pytest.approx((layout.page_w if vertical else layout.page_h) / 2)
    for front, back in zip(layout.fronts, layout.backs, strict=True):
        if vertical:
            assert front.right < fold < back.x and back.y == front.y
            assert back.x - fold == pytest.approx(fold - front.right)
        else:
            assert front.bottom < fold < back.y and back.x == front.x
            assert back.y - fold == pytest.approx(fold - front.bottom)
    # Folded over, a back reads upright when its card is turned over side to side: over a
    # vertical fold an upright back stays upright, over a horizontal one it turns round.
    assert layout.back_turn == mirrored_turn(layout.turn, "x" if vertical else "y")
    assert mirrored_turn(0, "y") == 180 and mirrored_turn(SIDEWAYS, "x") == 90


def test_deck_page_counts() -> None:
    fronts = pages_for("events", backs="none")
    assert len(fronts) == 7 and all(p["side"] == "front" for p in fronts)
    assert [len(p["cards"]) for p in fronts] == [8, 8, 8, 8, 8, 8, 3]  # 50 events + how to play
    duplex = pages_for("events", backs="duplex")
    assert [p["side"] for p in duplex] == ["front", "back"] * 7
    fold = pages_for("events", backs="fold")
    per_sheet = fold_sheet("letter", CARD).per_page
    assert len(fold) == math.ceil(51 / per_sheet)
    assert sum(1 for p in fold for s in p["cards"] if s["side"] == "back") == 51
    careers = pages_for("careers", backs="duplex")
    assert [len(p["cards"]) for p in careers] == [8, 8, 5, 5]  # 13: a short last sheet
    bleed = pages_for("events", backs="none", bleed=True)
    assert [len(p["cards"]) for p in bleed] == [6] * 8 + [3]  # Letter with bleed: 2 x 3


@pytest.mark.parametrize(
    ("paper", "deck", "line"),
    [
        ("letter", {}, "events: 8 cards per sheet"),
        ("a4", {"bleed": True}, "events: 8 cards per sheet"),
        (
            "letter",
            {"bleed": True},
            "events: 6 cards per sheet, not 8, because --bleed adds 3 mm around each card",
        ),
        (
            "letter",
            {"backs": "fold"},
            "events: 4 cards per sheet, not 8, because --backs fold puts each back beside its"
            " front",
        ),
        (
            "letter",
            {"backs": "fold", "bleed": True},
            "events: 3 cards per sheet, not 8, because --backs fold puts each back beside its"
            " front and --bleed adds 3 mm around each card",
        ),
    ],
)
def test_the_build_summary_says_how_many_cards_a_sheet_holds_and_why_fewer(
    paper: str, deck: dict[str, Any], line: str
) -> None:
    assert per_sheet("events", paper, DeckOptions(**deck)) == line


def test_back_pages_mirror_the_front_positions_with_offset() -> None:
    dx, dy = 2.0, -1.0
    pages = pages_for("careers", backs="duplex", duplex_offset_mm=(dx, dy))
    page_w = PAPER_MM["letter"][0]
    for front, back in zip(pages[::2], pages[1::2], strict=True):
        assert len(back["cards"]) == len(front["cards"])
        for f, b in zip(front["cards"], back["cards"], strict=True):
            assert b["x_mm"] == pytest.approx(page_w - f["x_mm"] - CARD[1] - dx, abs=1e-3)
            assert b["y_mm"] == pytest.approx(f["y_mm"] - dy, abs=1e-3)


# --------------------------------------------------------------------------------------
# Rendered decks
# --------------------------------------------------------------------------------------


def test_event_deck_renders_duplex_on_letter(rendered_events: tuple[Rendered, PdfReader]) -> None:
    rendered, pdf = rendered_events
    assert len(pdf.pages) == 14  # 51 cards, 8 to a sheet, fronts and backs
    assert all(size(p) == pytest.approx(LETTER, abs=1) for p in pdf.pages)
    assert rendered.warnings == []


def test_event_card_text_reads_back_from_the_pdf(
    rendered_events: tuple[Rendered, PdfReader],
) -> None:
    _, pdf = rendered_events
    first = pdf.pages[0].extract_text()
    assert "BOILER BURST" in first
    assert "ATTACKS ECONOMY" in first and "d20 + 7" in first and "hit: \u22126" in first
    assert "d20 + healing vs 11" in first
    back = pdf.pages[1].extract_text()
    assert "RESILIENCE" in back and "ENVIRONMENT" in back  # the three E's


def test_no_event_card_overflows_its_card(rendered_events: tuple[Rendered, PdfReader]) -> None:
    rendered, _ = rendered_events
    assert card_overflows(rendered.document) == []
    assert card_collisions(rendered.document) == []


def test_careers_fit_and_render_on_a4_folded(example: Campaign, tmp_path: Path) -> None:
    options = BuildOptions(paper="a4")
    document = deck_document(
        "careers", merged_entries(example, "careers"), options, DeckOptions(backs="fold")
    )
    rendered = render(document)
    pdf = write(rendered, tmp_path / "careers.pdf")
    count = len(merged_entries(example, "careers"))
    assert len(pdf.pages) == len(document.context["pages"]) == math.ceil(count / 4)
    assert all(size(p) == pytest.approx(A4, abs=1) for p in pdf.pages)  # cards on their sides
    text = pdf.pages[0].extract_text()
    assert "FARMER" in text and "fighting or wrestling" in text and "each at level 1" in text
    assert card_overflows(rendered.document) == []
    assert card_collisions(rendered.document) == []
    assert rendered.warnings == []


def test_career_documents_use_their_own_file(example: Campaign) -> None:
    computed = compute_campaign(example)
    sheets = career_documents(computed, example, BuildOptions(ink_saver=True))
    # Few careers fit one rendering unit: then the document is the file itself.
    assert {d.stem for d in sheets} == {"careers"}
    document = sheets[0]
    assert document.duplex
    assert set(document.context["palette"].values()) <= {"#000", "#fff", "#444", "#888"}


def test_overflow_is_measured_from_the_layout(example: Campaign) -> None:
    """A card whose story is far too long must be caught, by how much it runs over."""
    (event,) = [e for e in merged_entries(example, "events") if e.id == "boiler-burst"]
    long_story = event.definition.model_copy(update={"story": event.definition.story * 3})
    entry = type(event)(long_story, None)
    rendered = render(deck_document("events", [entry], BuildOptions(), DeckOptions(backs="none")))
    ((card, over),) = card_overflows(rendered.document)
    assert card == "boiler-burst" and over > 10


def test_layout_lint_names_the_campaign_entry_that_overflows(
    write_campaign: WriteCampaign,
) -> None:
    story = "The wind keeps blowing and the dust keeps coming, day after day. " * 12
    text = textwrap.dedent(USER_EVENTS).replace(
        "A brown wind blows for nine days straight", story.strip() + " A brown wind blows"
    )
    campaign = load_campaign([write_campaign({"events.yaml": text})])
    own = [e for e in merged_entries(campaign, "events") if e.id == "dust-wind"]
    rendered = render(deck_document("events", own, BuildOptions(), DeckOptions(backs="none")))
    (problem,) = layout_problems("events", campaign, rendered.document)
    line = text.splitlines().index("  - id: dust-wind") + 1
    assert (
        f'campaign/events.yaml:{line}: warning: entry "The Dust Wind": the event card\'s text runs'
    ) in str(problem)
    assert str(problem).endswith("mm past its edge; shorten it")


def test_signed_numbers_stay_with_their_words() -> None:
    assert keep_numbers("attack bonus -3; -1 economy now") == (
        "attack bonus\u00a0-3; -1\u00a0economy now"
    )


# --------------------------------------------------------------------------------------
# Duplex calibration
# --------------------------------------------------------------------------------------


def _zero(comb: list[dict[str, Any]]) -> float:
    (line,) = [t for t in comb if t["zero"]]
    at: float = line["at_mm"]
    return at


@pytest.mark.parametrize("edge", ["long", "short"])
def test_calibration_back_scales_sit_behind_the_front_and_take_the_offset(edge: str) -> None:
    page_w, page_h = PAPER_MM["letter"]
    plain = calibration_document(CalibrationOptions(duplex_edge=edge))  # type: ignore[arg-type]
    front, back = plain.context["front"], plain.context["back"]
    # The combs' zero lines sit at the middle of the page, front and back.
    assert _zero(front["x_comb"]) == pytest.approx(page_w / 2)
    assert _zero(back["x_comb"]) == pytest.approx(page_w / 2)
    assert _zero(back["y_comb"]) == pytest.approx(page_h / 2)
    shifted = calibration_document(
        CalibrationOptions(duplex_edge=edge, duplex_offset_mm=(1.5, -2.0))  # type: ignore[arg-type]
    ).context["back"]
    assert _zero(shifted["x_comb"]) == pytest.approx(page_w / 2 - 1.5)
    assert _zero(shifted["y_comb"]) == pytest.approx(page_h / 2 + 2.0)
    assert [t["label"] for t in shifted["x_comb"]][:2] == ["\u22125", "\u22124"]


@pytest.mark.parametrize("shift", [-5, -3, -1, 0, 2, 4, 5])
def test_calibration_vernier_reads_the_shift(shift: int) -> None:
    """Seen from the back, front lines sit every 11 mm; the back's line k at 10k + shift.
    The line that meets a front line is the one numbered with the shift."""
    back = calibration_document(CalibrationOptions()).context["back"]["x_comb"]
    centre = _zero(back)
    front_lines = [centre + j * FRONT_PITCH_MM for j in range(-6, 7)]

    def miss(line: dict[str, Any]) -> float:
        return min(abs(line["at_mm"] + shift - f) for f in front_lines)

    best = min(back, key=miss)
    assert best["value"] == shift and miss(best) == pytest.approx(0)
    assert BACK_PITCH_MM < FRONT_PITCH_MM


def test_the_deck_says_who_rolls_a_challenge_and_what_a_20_does(tmp_path: Path) -> None:
    # The texts leave both open; the deck's first card gives our rulings (docs/definitions.md,
    # "Judgement calls"), and every back says the content is ours, not the official text.
    document = deck_document(
        "events", merged_entries(None, "events")[:1], BuildOptions(), DeckOptions(backs="duplex")
    )
    reader = write(render(document), tmp_path / "rules.pdf")
    front = " ".join(reader.pages[0].extract_text().split())
    assert "The PC best at it rolls once" in front
    assert "A natural 20 always succeeds" in front
    assert "means no roll, so no 20 beats it" in front
    assert "Events written for scratchpress" in front
    back = " ".join(reader.pages[1].extract_text().split())
    assert "Unofficial · written for scratchpress" in back


def test_career_cards_print_what_each_career_wants(tmp_path: Path) -> None:
    entries = merged_entries(None, "careers")
    farmer = next(e for e in entries if e.definition.id == "farmer")
    document = deck_document("careers", [farmer], BuildOptions(), DeckOptions(backs="none"))
    text = " ".join(
        write(render(document), tmp_path / "farmer.pdf").pages[0].extract_text().split()
    )
    assert "WANTS" in text.upper()
    assert "no stream dammed for a mill" in text


# --------------------------------------------------------------------------------------
# Words: every label from the catalogue
# --------------------------------------------------------------------------------------


class _Marked(NullTranslations):
    """A catalogue that marks every message it words: «Requires»."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"

    def pgettext(self, context: str, message: str) -> str:
        return f"«{message}»"


MARKED = Wording("en", translations=_Marked())


@pytest.mark.parametrize("kind", ["events", "careers"])
def test_every_label_of_a_deck_comes_from_the_catalogue(kind: str) -> None:
    """Fronts, backs, the rules card and the page notes: in a language that marks every
    message, no label of ours is printed as the English literal."""
    with speaking(MARKED):
        document = deck_document(
            kind,  # type: ignore[arg-type]
            merged_entries(None, kind),  # type: ignore[arg-type]
            BuildOptions(),
            DeckOptions(backs="fold"),
        )
        html = render_html(document.template, document.context)
    labels = {
        "events": [
            "This year",
            "Challenge",
            "Success:",
            "Failure:",
            "Decide",
            "Encounter",
            "How an event plays",
            "Story",
            "Resilience",
            "Event",
        ],
        "careers": ["Career", "Combat role", "Requires", "Wants · «economy»", "Project", "Career"],
    }[kind]
    for label in [*labels, "Scratch RPG", "Unofficial · written for scratchpress"]:
        assert f"«{label}»" in html
        assert f">{label}<" not in html and f">{label} " not in html
    assert "«Print at 100% (actual size), one-sided»" in html  # the page note
    assert "«Fold on the dashed line" in html
    assert document.title == f"«Resilience {kind}»"
    # The backs spell the defenses in capitals, the first letter set apart.
    assert "<b>«</b>ECONOMY»" in html


def test_event_and_career_faces_word_the_game_terms() -> None:
    """Threats, defenses and abilities are the game's terms, worded once (terms.py)."""
    event = next(e for e in resilience_content().events if e.windfall)
    career = next(c for c in resilience_content().careers if len(c.required) > 1)
    with speaking(MARKED):
        face = event_face(event)
        front = career_face(career)
    assert face["threat"] == f"«Windfall · «{event.threat}»»"
    assert face["mechanic"]["attacks"] == f"«Attacks «{event.attacks}»»"
    assert face["mechanic"]["roll"] == f"«d20 + {event.attack_bonus}»"
    assert face["challenge"]["roll"] == f"«d20 + «{event.challenge.ability}»»"
    assert front["required_note"] == "«each at level 1»"
    assert all(r["abilities"].startswith("«") for r in front["required"])
    assert all(r["category"].startswith("«") for r in front["required"])
    # English is the same as before the catalogues: fragments are whole messages.
    assert either(["fighting", "wrestling", "knockout"]) == "fighting or wrestling or knockout"


def test_a_requirement_too_wide_for_one_line_in_its_language_is_set_a_point_smaller() -> None:
    """Italian's "stordimento o combattimento" and its kind do not share one line of a
    poker card at 9 pt; the English "command or craftsmanship" / "support" just does."""
    from scratchpress.documents.deck import _requirement
    from scratchpress.wording import speaking

    assert not _requirement(["command", "craftsmanship"])["tight"]
    with speaking("it"):
        row = _requirement(["knockout", "fighting"])
    assert row["tight"] and row["abilities"] == "stordimento o combattimento"
