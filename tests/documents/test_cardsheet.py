"""Card sheets cut clean, for a print shop and for a home printer.

The rules, for every deck mode (Letter and A4, backs none, duplex or fold, with and without
bleed) and every initiative-card mode (poker or index, flat or tent):

- cards sit a gutter apart; with bleed, the bleeds meet in the gutter and never overlap;
- every card's text stays at least ``CARD_SAFE_MM`` (3 mm) inside its trim;
- cut marks lie outside every card and its bleed, are at least ``MIN_MARK_MM`` (4 mm)
  long, lie wholly inside the printable zone (``PRINTABLE_MM`` from every paper edge) and
  mark both ends of every trim line, every row and column (with bleed too);
- the one-line "print at 100%" note sits in the bottom margin, clear of every card, its
  bleed and every mark, inside the printable zone;
- in the PDF, marks print over the cards' bleed, not under it.

The layout functions are the source of truth and are checked in every mode; the PDFs are
read back (vector by vector, with pikepdf) for one deck and the initiative cards on each
paper, to prove the template draws what the layout says.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from PIL import Image, ImageChops

from scratchpress.build import BuildReport, build
from scratchpress.content.loader import merged_entries
from scratchpress.definitions.campaign import Campaign, load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import initiative
from scratchpress.documents.base import Document
from scratchpress.documents.cardsheet import (
    CARD_SAFE_MM,
    MARK_PT,
    MIN_GUTTER_MM,
    MIN_MARK_MM,
    PRINTABLE_MM,
    Imposition,
    Line,
    Rect,
    margin_note,
    print_note_box,
    print_note_place,
)
from scratchpress.documents.deck import DeckOptions, deck_document, imposition
from scratchpress.render.engine import render_pdf
from scratchpress.render.lint import trim_insets
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir, fonts_dir, templates_dir
from scratchpress.statblocks import compute_campaign

from conftest import Cli
from pixelcheck import CHANGED_LIMIT, MEAN_LIMIT, PIXELS, assert_looks_like, difference, page_image

PAPERS = ("letter", "a4")
PT = 72 / 25.4  # points per millimetre
EPS = 1e-6
DECK_MODES = [
    (paper, backs, bleed)
    for paper in PAPERS
    for backs in ("none", "duplex", "fold")
    for bleed in (False, True)
]
INITIATIVE_MODES = [
    (paper, size, tent) for paper in PAPERS for size in ("poker", "index") for tent in (False, True)
]


def inflated(rect: Rect, by: float) -> Rect:
    return Rect(rect.x - by, rect.y - by, rect.w + 2 * by, rect.h + 2 * by)


def length(line: Line) -> float:
    return abs(line.x2 - line.x1) + abs(line.y2 - line.y1)


def crosses(line: Line, card: Rect, tol: float = EPS) -> bool:
    """Does a horizontal or vertical line run over the inside of a card (its edge is out)?"""
    inside = inflated(card, -tol)
    if line.x1 == line.x2:
        low, high = sorted((line.y1, line.y2))
        return inside.x < line.x1 < inside.right and low < inside.bottom and inside.y < high
    low, high = sorted((line.x1, line.x2))
    return inside.y < line.y1 < inside.bottom and low < inside.right and inside.x < high


def assert_cuts_clean(
    page: tuple[float, float],
    cards: list[Rect],
    marks: list[Line],
    bleed: float,
    tol: float = EPS,
) -> None:
    """The rules above for one sheet: card trim boxes, their marks and the bleed; ``tol``
    (mm) allows for the rounding of positions read back from a PDF."""
    page_w, page_h = page
    assert cards and marks
    for a, b in itertools.combinations(cards, 2):
        assert not inflated(a, bleed - tol).overlaps(inflated(b, bleed - tol)), (a, b)
        gap = max(b.x - a.right, a.x - b.right, b.y - a.bottom, a.y - b.bottom)
        assert gap >= max(MIN_GUTTER_MM, 2 * bleed) - tol, ("no gutter", a, b)
    for mark in marks:
        assert length(mark) >= MIN_MARK_MM - tol, mark
        for x, y in ((mark.x1, mark.y1), (mark.x2, mark.y2)):
            assert PRINTABLE_MM - tol <= x <= page_w - PRINTABLE_MM + tol, ("too near", mark)
            assert PRINTABLE_MM - tol <= y <= page_h - PRINTABLE_MM + tol, ("too near", mark)
        for card in cards:
            assert not crosses(mark, inflated(card, bleed), tol), ("in the bleed", mark, card)
    # Both ends of every trim line: each card edge has a mark before and after the grid.
    for card in cards:
        for x in (card.x, card.right):
            ends = [m for m in marks if m.x1 == m.x2 and abs(m.x1 - x) < max(tol, 1e-3)]
            assert any(max(m.y1, m.y2) <= card.y + tol for m in ends), ("no mark above", x)
            assert any(min(m.y1, m.y2) >= card.bottom - tol for m in ends), ("no mark below", x)
        for y in (card.y, card.bottom):
            ends = [m for m in marks if m.y1 == m.y2 and abs(m.y1 - y) < max(tol, 1e-3)]
            assert any(max(m.x1, m.x2) <= card.x + tol for m in ends), ("no mark left", y)
            assert any(min(m.x1, m.x2) >= card.right - tol for m in ends), ("no mark right", y)


# ------------------------------------------------------------------------------------------
# The layout, every mode


@pytest.mark.parametrize(("paper", "backs", "bleed"), DECK_MODES)
def test_deck_sheets_cut_clean(paper: str, backs: str, bleed: bool) -> None:
    layout = imposition(paper, DeckOptions(backs=backs, bleed=bleed))  # type: ignore[arg-type]
    cards = layout.fronts + (layout.backs if backs == "fold" else [])
    assert_cuts_clean((layout.page_w, layout.page_h), cards, layout.marks, layout.bleed)
    if layout.fold is not None:
        assert not any(crosses(layout.fold, card) for card in cards)
        assert min(layout.fold.x1, layout.fold.y1) >= PRINTABLE_MM


@pytest.mark.parametrize(("paper", "backs", "bleed"), DECK_MODES)
def test_as_many_cards_as_the_gutters_and_marks_allow(paper: str, backs: str, bleed: bool) -> None:
    """What we got: 8 poker cards a sheet on both papers (on their sides; 3 x 3 leaves no
    room for marks), 6 on Letter with bleed; fold sheets hold 4 (3 on Letter with bleed)."""
    layout = imposition(paper, DeckOptions(backs=backs, bleed=bleed))  # type: ignore[arg-type]
    expected = {
        ("letter", "fold", True): 3,
        ("letter", "none", True): 6,
        ("letter", "duplex", True): 6,
    }.get((paper, backs, bleed), 4 if backs == "fold" else 8)
    assert layout.per_page == expected


@pytest.mark.parametrize("paper", PAPERS)
def test_a_fold_sheet_keeps_room_for_its_folding_note(paper: str) -> None:
    layout = imposition(paper, DeckOptions(backs="fold"))
    note = margin_note(layout)
    assert note is not None and float(note["top"].removesuffix("mm")) >= PRINTABLE_MM


@pytest.mark.parametrize(("paper", "size", "tent"), INITIATIVE_MODES)
def test_initiative_sheets_cut_clean(paper: str, size: str, tent: bool) -> None:
    m = initiative.METRICS[size]
    grid = initiative.plan_grid(paper, m.card_w, 2 * m.card_h if tent else m.card_h)
    marks = initiative.cut_marks(grid) + (initiative.fold_marks(grid) if tent else [])
    lines = [
        Line(k.x, k.y, k.x, k.y + k.length)
        if k.direction == "v"
        else Line(k.x, k.y, k.x + k.length, k.y)
        for k in marks
    ]
    assert_cuts_clean((grid.page_w, grid.page_h), grid.cells(), lines, 0.0)


def assert_note_clear(
    page: tuple[float, float], cards: list[Rect], marks: list[Line], bleed: float, note: Rect
) -> None:
    page_w, page_h = page
    assert note.h >= 3.0 and note.w >= 60.0, note  # a 7 pt line of the longest wording
    assert note.x >= PRINTABLE_MM - EPS and note.right <= page_w - PRINTABLE_MM + EPS
    assert note.y >= PRINTABLE_MM - EPS and note.bottom <= page_h - PRINTABLE_MM + EPS
    for card in cards:
        assert not note.overlaps(inflated(card, bleed)), (note, card)
    for mark in marks:
        assert not crosses(mark, note), (mark, note)


@pytest.mark.parametrize(("paper", "backs", "bleed"), DECK_MODES)
def test_the_printing_note_sits_in_the_margin_of_every_deck(
    paper: str, backs: str, bleed: bool
) -> None:
    layout = imposition(paper, DeckOptions(backs=backs, bleed=bleed))  # type: ignore[arg-type]
    note = print_note_place(layout)
    assert note is not None
    cards = layout.fronts + layout.backs
    assert_note_clear((layout.page_w, layout.page_h), cards, layout.marks, layout.bleed, note)


@pytest.mark.parametrize(("paper", "size", "tent"), INITIATIVE_MODES)
def test_the_printing_note_sits_in_the_margin_of_every_initiative_sheet(
    paper: str, size: str, tent: bool
) -> None:
    m = initiative.METRICS[size]
    grid = initiative.plan_grid(paper, m.card_w, 2 * m.card_h if tent else m.card_h)
    cells = grid.cells()
    note = print_note_box(
        [c.x for c in cells], grid.cell_w, grid.top + grid.height, 0.0, grid.page_h
    )
    assert note is not None
    marks = [
        Line(k.x, k.y, k.x, k.y + k.length)
        if k.direction == "v"
        else Line(k.x, k.y, k.x + k.length, k.y)
        for k in initiative.cut_marks(grid)
    ]
    assert_note_clear((grid.page_w, grid.page_h), cells, marks, 0.0, note)


@pytest.mark.parametrize(
    ("paper", "bleed", "top_mark", "bottom_mark"),
    [
        # Trim 10.85 mm from the top: a 4 mm mark, 0.5 mm off the trim.
        ("letter", False, (6.35, 10.35), (269.05, 273.05)),
        # Letter loses a row to the bleed, so its marks start 0.5 mm past the bleed.
        ("letter", True, (30.7, 35.7), (243.7, 248.7)),
        ("a4", False, (12.5, 17.5), (279.5, 284.5)),
        # Trim 13.5 mm from the top, bleed to 10.5: the mark ends where the bleed starts
        # (it ran from 8.0 to 13.0, 2.5 mm into the bleed) and is 4.15 mm long.
        ("a4", True, (6.35, 10.5), (286.5, 290.65)),
    ],
)
def test_cut_marks_stay_out_of_the_bleed(
    paper: str, bleed: bool, top_mark: tuple[float, float], bottom_mark: tuple[float, float]
) -> None:
    layout = imposition(paper, DeckOptions(bleed=bleed))
    top = min(r.y for r in layout.fronts)
    bottom = max(r.bottom for r in layout.fronts)
    vertical = {
        (round(min(m.y1, m.y2), 2), round(max(m.y1, m.y2), 2)) for m in layout.marks if m.x1 == m.x2
    }
    assert vertical == {top_mark, bottom_mark}
    assert top_mark[1] <= top - layout.bleed + EPS and bottom_mark[0] >= bottom + layout.bleed - EPS
    left = min(r.x for r in layout.fronts)
    right = max(r.right for r in layout.fronts)
    for m in layout.marks:
        if m.y1 == m.y2:
            assert (
                max(m.x1, m.x2) <= left - layout.bleed + EPS
                or min(m.x1, m.x2) >= right + layout.bleed - EPS
            )
    assert layout.per_page == (6 if (paper, bleed) == ("letter", True) else 8)


def test_a_mark_over_a_card_or_too_near_the_edge_is_caught() -> None:
    """The checker itself can fail: a mark into a card, a stub, a mark in the clipped edge."""
    card = Rect(20.0, 20.0, 63.0, 88.0)
    good = [
        Line(20.0, 10.0, 20.0, 15.0),
        Line(20.0, 113.0, 20.0, 118.0),
        Line(83.0, 10.0, 83.0, 15.0),
        Line(83.0, 113.0, 83.0, 118.0),
        Line(10.0, 20.0, 15.0, 20.0),
        Line(88.0, 20.0, 93.0, 20.0),
        Line(10.0, 108.0, 15.0, 108.0),
        Line(88.0, 108.0, 93.0, 108.0),
    ]
    assert_cuts_clean((120.0, 140.0), [card], good, 0.0)
    for bad in (
        Line(30.0, 10.0, 30.0, 25.0),  # runs onto the card
        Line(20.0, 13.0, 20.0, 15.0),  # a 2 mm stub
        Line(20.0, 3.0, 20.0, 8.0),  # in the margin printers clip
    ):
        with pytest.raises(AssertionError):
            assert_cuts_clean((120.0, 140.0), [card], [*good, bad], 0.0)
    with pytest.raises(AssertionError):  # the bottom-right corner's marks missing
        assert_cuts_clean((120.0, 140.0), [card], good[:3] + good[4:7], 0.0)


# ------------------------------------------------------------------------------------------
# The PDFs, read back


@dataclass(frozen=True)
class Fill:
    """A filled rectangle on a PDF page, in mm from the top left, in painting order."""

    rect: Rect
    colour: tuple[float, ...]
    order: int


def _matrix(values: list[Any]) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _times(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, ...]:
    """a then b (PDF matrices [a b c d e f], row vectors)."""
    return (
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    )


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    return x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]


def filled_rects(page: pikepdf.Page) -> list[Fill]:
    """Every filled rectangle the page paints, through nested form XObjects (the imposed
    decks place each card and the sheet's marks as forms)."""
    height = float(page.mediabox[3])
    found: list[Fill] = []

    def run(obj: Any, resources: Any, ctm: tuple[float, ...]) -> None:
        stack: list[tuple[tuple[float, ...], tuple[float, ...]]] = []
        colour: tuple[float, ...] = (0.0,)
        path: list[tuple[float, float, float, float]] = []
        for operands, operator in pikepdf.parse_content_stream(obj):
            op = str(operator)
            if op == "q":
                stack.append((ctm, colour))
            elif op == "Q":
                ctm, colour = stack.pop()
            elif op == "cm":
                ctm = _times(_matrix(operands), ctm)
            elif op in {"rg", "g"}:
                colour = tuple(float(v) for v in operands)
            elif op == "re":
                x, y, w, h = (float(v) for v in operands)
                corners = [_apply(ctm, x + dx, y + dy) for dx in (0, w) for dy in (0, h)]
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                path.append((min(xs), min(ys), max(xs), max(ys)))
            elif op in {"f", "F", "f*", "B", "B*"}:
                if path:  # a border is an outer and an inner box filled even-odd: the outer
                    x0 = min(p[0] for p in path)
                    y0 = min(p[1] for p in path)
                    x1 = max(p[2] for p in path)
                    y1 = max(p[3] for p in path)
                    rect = Rect(x0 / PT, (height - y1) / PT, (x1 - x0) / PT, (y1 - y0) / PT)
                    found.append(Fill(rect, colour, len(found)))
                path = []
            elif op in {"n", "S", "s"}:
                path = []
            elif op == "Do":
                xobject = resources.XObject[operands[0]]
                if xobject.Subtype == pikepdf.Name.Form:
                    inner = _matrix(list(xobject.get("/Matrix", [1, 0, 0, 1, 0, 0])))
                    run(xobject, xobject.get("/Resources", resources), _times(inner, ctm))

    run(page, page.Resources, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return found


def _is_mark(fill: Fill) -> bool:
    thin, long = sorted((fill.rect.w, fill.rect.h))
    return max(fill.colour) < 0.05 and thin < 0.3 and long > 1.0


def _mark_line(fill: Fill) -> Line:
    r = fill.rect
    if r.w < r.h:
        return Line(r.x + r.w / 2, r.y, r.x + r.w / 2, r.bottom)
    return Line(r.x, r.y + r.h / 2, r.right, r.y + r.h / 2)


CARD_STOCK = (0.964706, 0.945098, 0.894118)  # the deck palette's "card", #f6f1e4


@pytest.fixture(scope="module")
def example() -> Campaign:
    return load_campaign([examples_dir()])


@pytest.fixture(scope="module")
def reports(example: Campaign, tmp_path_factory: pytest.TempPathFactory) -> dict[str, BuildReport]:
    """The example's event deck (imposed, as a build writes it) and initiative cards:
    Letter plain, A4 with bleed."""
    computed = compute_campaign(example)
    out: dict[str, BuildReport] = {}
    for paper, bleed in (("letter", False), ("a4", True)):
        folder = tmp_path_factory.mktemp(paper)
        options = BuildOptions(paper=paper, bleed=bleed)  # type: ignore[arg-type]
        out[paper] = build(computed, example, options, folder, ["events", "initiative"])
        assert not out[paper].problems and out[paper].warnings == []
    return out


@pytest.fixture(scope="module")
def built(reports: dict[str, BuildReport]) -> dict[tuple[str, str], Path]:
    return {
        (paper, written.document.kind): written.path
        for paper, report in reports.items()
        for written in report.written
    }


def test_the_build_report_says_how_many_cards_each_sheet_holds(
    reports: dict[str, BuildReport],
) -> None:
    # A4 keeps all 8 with bleed; the CLI prints these lines before its summary.
    for report in reports.values():
        assert report.per_sheet == ["initiative: 8 cards per sheet", "events: 8 cards per sheet"]


@pytest.mark.parametrize(("paper", "bleed"), [("letter", False), ("a4", True)])
def test_the_deck_pdf_draws_the_marks_the_layout_says_over_the_bleed(
    built: dict[tuple[str, str], Path], paper: str, bleed: bool
) -> None:
    layout: Imposition = imposition(paper, DeckOptions(bleed=bleed))
    with pikepdf.open(built[paper, "events"]) as pdf:
        fills = filled_rects(pdf.pages[0])
        width, height = (float(v) / PT for v in pdf.pages[0].mediabox[2:])
    stock = [
        f
        for f in fills
        if all(abs(a - b) < 0.01 for a, b in zip(f.colour, CARD_STOCK, strict=False))
        and f.rect.w > 50
    ]
    marks = [f for f in fills if _is_mark(f)]
    # One card-stock background per card, as large as the trim plus the bleed, where the
    # layout puts the card.
    trims = sorted(
        (inflated(f.rect, -layout.bleed) for f in stock), key=lambda r: (round(r.y), r.x)
    )
    assert len(trims) == layout.per_page == 8
    for found, planned in zip(trims, layout.fronts, strict=True):
        for a, b in zip(
            (found.x, found.y, found.w, found.h),
            (planned.x, planned.y, planned.w, planned.h),
            strict=True,
        ):
            assert a == pytest.approx(b, abs=0.02)
    # Every mark is where the layout says, centred on its trim line, and printed last.
    lines = [_mark_line(f) for f in marks]
    assert len(lines) == len(layout.marks)
    for line in lines:
        assert any(
            all(abs(a - b) < 0.02 for a, b in zip(_ends(line), _ends(p), strict=True))
            for p in layout.marks
        ), line
    assert all(min(f.rect.w, f.rect.h) == pytest.approx(MARK_PT / PT, abs=0.01) for f in marks)
    assert min(f.order for f in marks) > max(f.order for f in stock)
    assert_cuts_clean((width, height), trims, lines, layout.bleed, tol=0.02)


def _ends(line: Line) -> tuple[float, float, float, float]:
    return (
        min(line.x1, line.x2),
        min(line.y1, line.y2),
        max(line.x1, line.x2),
        max(line.y1, line.y2),
    )


@pytest.mark.parametrize("paper", PAPERS)
def test_the_initiative_pdf_draws_marks_outside_the_cards_in_the_printable_zone(
    built: dict[tuple[str, str], Path], paper: str
) -> None:
    m = initiative.METRICS["poker"]
    grid = initiative.plan_grid(paper, m.card_w, m.card_h)
    with pikepdf.open(built[paper, "initiative"]) as pdf:
        fills = filled_rects(pdf.pages[0])
        width, height = (float(v) / PT for v in pdf.pages[0].mediabox[2:])
    assert (width, height) == pytest.approx((grid.page_w, grid.page_h), abs=0.1)
    lines = [_mark_line(f) for f in fills if _is_mark(f)]
    assert len(lines) == len(initiative.cut_marks(grid)) == 2 * (2 * 4 + 2 * 2)
    assert_cuts_clean((width, height), grid.cells(), lines, 0.0, tol=0.02)


# ------------------------------------------------------------------------------------------
# The safe area, measured on the rendered layout


def _render(document: Any) -> Any:
    html = render_html(document.template, document.context)
    rendered = render_pdf(html, templates_dir(), [templates_dir(), fonts_dir()], keep_document=True)
    return rendered.document


def test_every_deck_card_keeps_its_text_3_mm_inside_the_trim() -> None:
    """Events (the fullest cards), careers and both backs, fold sheet with bleed: every
    card is drawn in every mode by the same template, so one mode measures them all."""
    insets: list[tuple[str, float]] = []
    for kind in ("events", "careers"):
        entries = merged_entries(None, kind)  # type: ignore[arg-type]
        document = deck_document(
            kind,  # type: ignore[arg-type]
            entries,
            BuildOptions(),
            DeckOptions(backs="fold", bleed=True),
        )
        insets += trim_insets(_render(document))
    assert len(insets) == 2 * (1 + 50 + 13)  # fronts and backs; the deck's how-to-play card
    nearest = min(insets, key=lambda item: item[1])
    assert nearest[1] >= CARD_SAFE_MM - 0.01, nearest


@pytest.mark.parametrize("size", ["poker", "index"])
def test_every_initiative_card_keeps_its_text_3_mm_inside_the_trim(
    example: Campaign, size: str
) -> None:
    """Tents show both faces: the GM's card and the player's, upside down above the fold."""
    options = BuildOptions(cards=size, tent=True)  # type: ignore[arg-type]
    (document,) = initiative.documents(compute_campaign(example), example, options)
    insets = trim_insets(_render(document))
    cards = len(initiative.all_cards(compute_campaign(example), options))
    assert len(insets) == 2 * cards
    nearest = min(insets, key=lambda item: item[1])
    assert nearest[1] >= CARD_SAFE_MM - 0.01, nearest


def test_text_nearer_the_trim_than_the_safe_area_is_measured() -> None:
    """trim_insets itself: a card whose text starts 1.5 mm in reports 1.5 mm."""
    html = (
        "<html><body style='margin: 0'>"
        "<div class='card' data-card='tight' style='position: absolute; left: 10mm; top: 10mm;"
        " width: 63mm; height: 88mm'><p style='margin: 1.5mm; font: 8pt sans-serif'>"
        "Close to the edge</p></div></body></html>"
    )
    document = render_pdf(html, templates_dir(), [templates_dir()], keep_document=True).document
    ((card, inset),) = trim_insets(document)
    assert card == "tight" and inset == pytest.approx(1.5, abs=0.05)


def test_the_cli_summary_says_why_a_sheet_holds_fewer_cards(cli: Cli) -> None:
    result = cli("build", "--example", "--only", "careers", "--bleed", "-j", "1")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[-2] == (
        "careers: 6 cards per sheet, not 8, because --bleed adds 3 mm around each card"
    )
    assert "sheets of paper (letter)" in lines[-1]


# -------------------- formerly tests/documents/test_card_pixels.py
# Pixel regression for the card sheets: page 1 of an event deck and of the initiative
# cards, rendered at 50 dpi in grey, against the reference PNGs in tests/documents/pixels/
# (how to compare and refresh them: pixelcheck.py). Every other printable: test_page_pixels.py.


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
