"""Booklets: booklet.yaml + Markdown chapters -> a tagged PDF book; saddle-stitch imposition;
the reference tables booklets can insert (RULES.md §11-§13), checked cell by cell.

The example booklet is rendered once (tagged PDF/UA-1, as the build does) and read back
with pypdf: contents page numbers against the pages chapters really start on, bookmarks,
metadata, the structure tree. Small throwaway campaigns cover the errors and the hostile
input.
"""

from __future__ import annotations

import io
import re
from gettext import NullTranslations
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from pypdf import PdfReader
from pypdf.generic import BooleanObject, DictionaryObject

from scratchpress.build import BuildSettings, build
from scratchpress.build.run import allowed_roots
from scratchpress.content.loader import builtin_content
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import booklet as booklet_module
from scratchpress.documents import registry
from scratchpress.documents.booklet import (
    booklet_problems,
    booklet_view,
    documents,
    load_booklet,
)
from scratchpress.documents.booklet import inserts as booklet_inserts
from scratchpress.documents.booklet.imposition import (
    booklet_layout,
    impose_saddle,
    padded_length,
    saddle_order,
)
from scratchpress.documents.booklet.markdown import mark_inserts, markdown, parse_chapter
from scratchpress.documents.booklet.source import BookletContext
from scratchpress.documents.community import current_defenses, founding_defenses
from scratchpress.problems import InputError
from scratchpress.render.engine import Rendered, render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir, templates_dir
from scratchpress.rules.community import PROJECT_SIZES, plan_project
from scratchpress.rules.tables import (
    CARD_SUITS,
    D6_GRID,
    D6_TIMES_FOUR,
    TWO_D6_DOUBLED,
    card_table,
    card_value,
    d6_grid_distribution,
    d6_grid_value,
    pace_seconds,
    pace_table,
    random_damage,
    random_damage_table,
    round_fraction,
)
from scratchpress.statblocks import compute_campaign
from scratchpress.wording import Wording, speaking

from conftest import WriteCampaign, shared_location
from pixelcheck import difference, page_image

LETTER = (612.0, 792.0)
A5 = (419.53, 595.28)
EXAMPLE_TITLE = "Scratch at the Table"
EXAMPLE_AUTHOR = "The scratchpress contributors"
RESILIENCE_CHAPTERS = [
    "Resilience Quick Start",
    "Careers",
    "Founding the Community",
    "The Year, Step by Step",
    "Events",
    "Projects",
]
QUICK_START = "Resilience Quick Start"

# --------------------------------------------------------------------------------------------
# helpers


def _render(folder: Path, paper: str = "letter") -> tuple[Rendered, dict[str, Any]]:
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    [document] = documents(computed, campaign, BuildOptions(paper=paper))  # type: ignore[arg-type]
    html = render_html(document.template, document.context)
    rendered = render_pdf(
        html, templates_dir(), allowed_roots(campaign), pdf_variant=document.pdf_variant
    )
    return rendered, document.context


def _texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def _outline(reader: PdfReader) -> list[tuple[int, str, int]]:
    """(depth, title, 1-based page) of every bookmark, in order."""
    found: list[tuple[int, str, int]] = []

    def walk(items: list[Any], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                page = reader.get_destination_page_number(item)
                assert page is not None, item.title
                found.append((depth, str(item.title), page + 1))

    walk(reader.outline, 0)
    return found


def _view(folder: Path, paper: str = "letter", impose: str = "none") -> dict[str, Any]:
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    booklet = load_booklet(campaign)
    assert booklet is not None
    options = BuildOptions(paper=paper, impose=impose)  # type: ignore[arg-type]
    return booklet_view(booklet, computed, campaign, options)


def _problems(folder: Path) -> list[str]:
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    with pytest.raises(InputError) as caught:
        documents(computed, campaign, BuildOptions())
    return [str(p) for p in caught.value.problems]


PARTY = """\
characters:
  - name: Mara Quill
    group: Party
    abilities: {shooting: 2, toughness: 3, stealth: 1}
"""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Messages name files relative to where the user stands: campaign/one.md."""
    monkeypatch.chdir(tmp_path)


def _campaign(write_campaign: WriteCampaign, chapter: str, booklet: str | None = None) -> Path:
    return write_campaign(
        {
            "party.yaml": PARTY,
            "booklet.yaml": booklet
            or "title: Test Book\nauthor: A. Tester\npaper: a5\nchapters: [one.md]\n",
            "one.md": chapter,
        }
    )


# --------------------------------------------------------------------------------------------
# the example booklet, rendered once with tags


Example = tuple[Rendered, dict[str, Any], list[str]]


@pytest.fixture(scope="module")
def example() -> Example:
    """The example booklet on Letter: the rendering, its view model, each page's text."""
    rendered, view = _render(examples_dir())
    return rendered, view, _texts(rendered.pdf)


def test_example_renders_without_warnings(example: Example) -> None:
    rendered, view, _ = example
    assert rendered.warnings == []
    assert rendered.refused == []
    assert 16 <= rendered.pages <= 28
    assert all(size == pytest.approx(LETTER, abs=1) for size in rendered.page_sizes)
    assert [c["title"] for c in view["chapters"]] == [
        "Rolling the Die",
        "Defenses and Health",
        "Actions at a Glance",
        "Minions and Vehicles",
        *RESILIENCE_CHAPTERS,
    ]


def test_contents_page_numbers_are_the_pages_chapters_start_on(
    example: Example,
) -> None:
    _, view, texts = example
    contents = texts[1]
    assert contents.startswith("Contents")
    for entry in view["toc"]:
        titles = [entry["title"], *(s["title"] for s in entry["sections"])]
        for title in titles:
            match = re.search(re.escape(title) + r"[\s.]*?(\d+)\s*$", contents, re.MULTILINE)
            assert match, (title, contents)
            listed = int(match.group(1))
            # The first page after the contents with the title as a line of its own (a
            # heading; "Vehicles" is also a word of the chapter "Minions and Vehicles").
            heading = re.compile(rf"^{re.escape(title)}\s*$", re.MULTILINE)
            actual = next(i for i, text in enumerate(texts[2:], start=3) if heading.search(text))
            assert listed == actual, (title, listed, actual)


def test_bookmarks_follow_chapters_and_sections(example: Example) -> None:
    rendered, view, texts = example
    reader = PdfReader(io.BytesIO(rendered.pdf))
    outline = _outline(reader)
    expected = [(0, "Contents")]
    for entry in view["toc"]:
        expected.append((0, entry["title"]))
        expected += [(1, s["title"]) for s in entry["sections"]]
    assert [(depth, title) for depth, title, _ in outline] == expected
    # Bookmarks and contents agree on where each chapter starts.
    for depth, title, page in outline:
        if depth == 0 and title != "Contents":
            assert re.search(
                re.escape(title) + r"[\s.]*?" + str(page) + r"\s*$", texts[1], re.MULTILINE
            ), title


def test_metadata_and_tagged_structure(example: Example) -> None:
    reader = PdfReader(io.BytesIO(example[0].pdf))
    assert reader.metadata is not None
    assert reader.metadata.title == EXAMPLE_TITLE
    assert reader.metadata.author == EXAMPLE_AUTHOR
    root = reader.root_object
    assert "/StructTreeRoot" in root
    mark_info = root["/MarkInfo"].get_object()
    assert isinstance(mark_info, DictionaryObject)
    assert mark_info["/Marked"] == BooleanObject(True)
    assert str(root["/Lang"]) == "en"


def test_example_booklet_holds_the_computed_tables(
    example: Example,
) -> None:
    text = "".join(example[2])
    # carry table (strength 12: 24 kg / 53 lb), pace (hunt with 7 characters: 17),
    # random damage (4 -> 1d10 + 4, 2.38x), an NPC's stat line and an event.
    for expected in (
        "24 kg (53 lb)",
        "1d10 + 4",
        "2.38×",
        "Hester Greaves",
        "Ledger-hands",
        "Boiler Burst",
        "hearts, diamonds, yellow, red",
    ):
        assert expected in text, expected


def _flat_text(texts: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(texts))


def test_the_worked_projects_print_what_the_project_rules_compute(example: Example) -> None:
    """The rules' community development example, as the Projects chapter prints it: the
    difficulties, results and the year's net change are the project rules' own."""
    book = [
        # player, develop, sacrifice, roll, difficulty, result, change (econ, env, eq)
        ("Cynthia", {"economy": 5}, {"environment": 4}, None, -3, "automatic", "+5 −4"),
        ("David", {"environment": 5}, {}, 14, 17, "failed", ""),
        ("Adam", {"environment": 2, "economy": 1}, {"equity": 1}, 8, 8, "success", "+1 +2 −1"),
        (
            "Brian",
            {"equity": 4},
            {"economy": 2, "environment": 1},
            None,
            0,
            "automatic",
            "−2 −1 +4",
        ),
    ]
    year = dict.fromkeys(("economy", "environment", "equity"), 0)
    text = _flat_text(example[2])
    for player, develop, sacrifice, roll, difficulty, result, change in book:
        plan = plan_project(4, develop, sacrifice)
        assert (plan.difficulty, plan.automatic) == (difficulty, roll is None)
        for name, levels in plan.outcome(result != "failed").items():
            year[name] += levels
        shown = str(difficulty).replace("-", "−")
        rolled = "–" if roll is None else str(roll)
        # The row: the player, the plan in words, difficulty, roll, result, the changes.
        cells = f" {shown} {rolled} {result}" + (f" {change}" if change else "")
        row = rf"{player} \+[^A-Z]*?" + re.escape(cells)
        assert re.search(row, text), row
    # The GM's +1 equity and +1 environment: the year nets economy +4, environment -2,
    # equity +4, as the rules' example says.
    year["equity"] += 1
    year["environment"] += 1
    assert year == {"economy": 4, "environment": -2, "equity": 4}
    assert "Evaluation: the GM's bonus +1 +1 The year +4 −2 +4" in text


def test_the_resilience_chapters_are_in_the_contents_and_bookmarks(example: Example) -> None:
    rendered, _, texts = example
    chapters = [t for depth, t, _ in _outline(PdfReader(io.BytesIO(rendered.pdf))) if depth == 0]
    assert chapters[-len(RESILIENCE_CHAPTERS) :] == RESILIENCE_CHAPTERS
    contents = texts[1]
    for title in [*RESILIENCE_CHAPTERS, "A worked year", "Reading a card", "What a career wants"]:
        assert re.search(re.escape(title) + r"[\s.]*\d+\s*$", contents, re.MULTILINE), title


def _opening_pages(texts: list[str], title: str) -> int:
    """The 1-based page a chapter opens on: its "CHAPTER n" label, then its title."""
    pattern = re.compile(rf"^CHAPTER \d+\s*\n{re.escape(title)}\s*$", re.MULTILINE)
    [page] = [i for i, text in enumerate(texts, start=1) if pattern.search(text)]
    return page


def test_the_quick_start_fits_one_page(example: Example, saddle_builds: dict[str, Any]) -> None:
    """On Letter, and on the half-letter and A5 pages of the saddle-stitched copies."""
    books = {"letter": example[2]}
    for paper, report in saddle_builds.items():
        books[f"half of {paper}"] = _texts(report.written[0].path.read_bytes())
    for paper, texts in books.items():
        opens = _opening_pages(texts, QUICK_START)
        assert _opening_pages(texts, RESILIENCE_CHAPTERS[1]) == opens + 1, paper
        page = texts[opens - 1]
        assert "A year, in order" in page and "The group's levels" in page, paper


def test_the_credit_is_in_the_imprint_at_the_foot_of_the_contents(example: Example) -> None:
    """The back of the cover, where a book keeps its copyright page."""
    import pypdfium2 as pdfium

    contents = example[2][1]
    flat = re.sub(r"\s+", " ", contents)
    assert "This booklet's text was written for scratchpress" in flat
    assert (
        "The rules summaries and the Resilience content scratchpress prints (its events,"
        " careers and project ideas) were written for scratchpress in its own words; they are"
        " not the official rule texts." in flat
    )
    assert "the Scratch Role-Playing System (the Scratch RPS) and Resilience" in flat
    with pdfium.PdfDocument(example[0].pdf) as pdf:
        page = pdf[1]
        width, height = page.get_size()
        foot = page.get_textpage().get_text_bounded(0, 0, width, height / 4)
    assert "not the official rule texts" in re.sub(r"\s+", " ", foot)


def test_no_running_head_on_the_page_a_chapter_opens(example: Example) -> None:
    """Left-hand pages carry the booklet's title, right-hand ones the chapter's, except on
    the page a chapter opens, left or right."""
    texts = example[2]
    chapter_of: dict[int, str] = {}
    for chapter in example[1]["chapters"]:
        chapter_of[_opening_pages(texts, chapter["title"])] = chapter["title"]
    assert any(page % 2 == 0 for page in chapter_of)  # some chapters open on a left page
    title = ""
    for number, text in enumerate(texts[2:], start=3):
        lines = {line.strip() for line in text.splitlines()}
        if number in chapter_of:
            heads = {EXAMPLE_TITLE.upper(), title.upper(), chapter_of[number].upper()}
            assert not lines & heads, (number, lines & heads)
            title = chapter_of[number]
        else:
            head = EXAMPLE_TITLE if number % 2 == 0 else title
            assert head.upper() in lines, (number, head)


def test_cover_page_has_no_running_head_or_number(
    example: Example,
) -> None:
    cover = example[2][0]
    assert EXAMPLE_TITLE in cover and EXAMPLE_AUTHOR in cover and "VERSION 1.0" in cover
    assert not re.search(r"^\s*1\s*$", cover, re.MULTILINE)


# --------------------------------------------------------------------------------------------
# `scratchpress build`: kind "booklets", file booklet-<title>.pdf


@pytest.fixture
def booklet_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make sure ``build`` knows the kind, whether or not the registry lists it yet."""
    monkeypatch.setitem(registry.KINDS, "booklets", "booklet")


def test_build_writes_booklet_named_by_title_and_escapes_raw_html(
    write_campaign: WriteCampaign, tmp_path: Path, booklet_kind: None
) -> None:
    folder = _campaign(
        write_campaign,
        """\
# Strange Input

A tag <b>not bold</b> and <script>alert(1)</script> print as text.

<div class="cover">a block of HTML</div>

[a web page](https://example.org/rules) and [a file](notes.md) and [back](#strange-input).
""",
        "title: 'Odd & <Bold> Book'\npaper: a5\nchapters: [one.md]\n",
    )
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    report = build(computed, campaign, BuildOptions(), tmp_path / "out", only=["booklets"])
    assert report.problems == [] and report.warnings == []
    [written] = report.written
    assert written.path.name == "booklet-odd-bold-book.pdf"
    assert all(size == pytest.approx(A5, abs=1) for size in written.page_sizes)
    text = "".join(_texts(written.path.read_bytes()))
    assert "<b>not bold</b>" in text
    assert "<script>alert(1)</script>" in text
    assert '<div class="cover">a block of HTML</div>' in text
    assert "Odd & <Bold> Book" in text
    assert "(https://example.org/rules)" in text  # paper cannot be clicked

    html = _view(folder)["chapters"][0]["html"]
    assert "<script" not in html and "<b>" not in html and "<div" not in html
    assert "&lt;script&gt;" in html
    assert '<a href="https://example.org/rules" class="web">' in html
    assert 'href="notes.md"' not in html  # a campaign file means nothing on paper
    assert '<a href="#strange-input">' in html


def test_campaign_without_booklet_has_no_booklet(write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"party.yaml": PARTY})
    campaign = load_campaign([folder])
    assert documents(compute_campaign(campaign), campaign, BuildOptions()) == []


def test_paper_follows_the_build_unless_the_booklet_names_one(
    write_campaign: WriteCampaign,
) -> None:
    chapter = "# Only\n\nText.\n"
    folder = _campaign(write_campaign, chapter, "title: T\nchapters: [one.md]\n")
    assert _view(folder, "a4")["layout"]["size"] == "A4"
    assert _view(folder, "letter")["layout"]["size"] == "letter"
    # Imposed for saddle stitching, a page is half the paper: two fit side by side on it.
    assert _view(folder, "letter", impose="saddle")["layout"]["size"] == "5.5in 8.5in"
    assert _view(folder, "a4", impose="saddle")["layout"]["size"] == "A5"
    (folder / "booklet.yaml").write_text("title: T\npaper: half-letter\nchapters: [one.md]\n")
    assert _view(folder, "a4")["layout"]["size"] == "5.5in 8.5in"
    assert _view(folder, "a4", impose="saddle")["layout"]["size"] == "5.5in 8.5in"


# --------------------------------------------------------------------------------------------
# errors: file:line, one line each


def test_bad_booklet_yaml_reports_file_and_line(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign,
        "# One\n",
        """\
title: Test Book
tittle: typo
paper: a3
chapters:
  - one.md
  - missing.md
  - /etc/passwd.md
""",
    )
    problems = _problems(folder)
    assert any(
        re.fullmatch(r".*booklet\.yaml:2: tittle: unknown key \(did you mean 'title'\?\).*", p)
        for p in problems
    ), problems
    assert any(
        re.fullmatch(r".*booklet\.yaml:3: paper: must be .*'a5'.*got 'a3'", p) for p in problems
    ), problems
    # The model is checked first; fix it and the chapter files are checked.
    (folder / "booklet.yaml").write_text(
        "title: Test Book\nchapters:\n  - one.md\n  - missing.md\n  - /etc/passwd.md\n"
        "  - ../outside.md\n"
    )
    (folder.parent / "outside.md").write_text("# Outside\n")
    problems = _problems(folder)
    assert len(problems) == 3, problems
    assert problems[0] == "campaign/booklet.yaml:4: chapters.1: missing.md: no such file"
    assert re.match(r".*booklet\.yaml:5: chapters\.2: '/etc/passwd\.md': chapters are", problems[1])
    assert problems[2] == (
        "campaign/booklet.yaml:6: chapters.3: ../outside.md is outside the campaign folder"
    )


def test_yaml_syntax_error_has_a_line(write_campaign: WriteCampaign) -> None:
    folder = _campaign(write_campaign, "# One\n", "title: T\nchapters: [one.md\n")
    [problem] = _problems(folder)
    assert re.match(r".*booklet\.yaml:\d+: YAML syntax error", problem), problem


def test_insert_errors_name_the_markdown_line(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign,
        """\
# Inserts

```scratchpress
insert: carry-tabel
```

Some text.

```scratchpress
insert: pace
from: 2
to: fifty
```

```scratchpress
insert: statblock
names: [Mara Quil]
```

```scratchpress
insert: carry-table
from: 20
to: 10
```

```scratchpress
insert: carry-table
low: 12
```
""",
    )
    problems = _problems(folder)
    assert problems == [
        "campaign/one.md:4: insert: unknown insert 'carry-tabel' (did you mean 'carry-table'?);"
        " known: carry-table, die-alternatives, random-damage, pace, statblock, events,"
        " event-card, projects, project-sizes, project-ideas, careers, what-to-expect",
        "campaign/one.md:12: to: must be a whole number, got 'fifty'",
        "campaign/one.md:17: names.0: no character, minion, vehicle or community named"
        " 'Mara Quil' (did you mean 'Mara Quill'?)",
        "campaign/one.md:22: from: 20 is above to: 10",
        "campaign/one.md:28: low: unknown key; allowed: caption, insert, from, to",
    ]


def test_statblocks_by_group_and_roster_and_the_check_hook(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign,
        """\
# Who

```scratchpress
insert: statblock
group: Party
```

```scratchpress
insert: statblock
roster: everyone
caption: Everyone
```
""",
    )
    html = _view(folder)["chapters"][0]["html"]
    assert html.count('class="statblock"') == 2
    assert "Mara Quill" in html and "group: Party" in html and "Everyone" in html
    campaign = load_campaign([folder])
    assert booklet_problems(campaign, compute_campaign(campaign)) == []
    (folder / "one.md").write_text(
        "# Who\n\n```scratchpress\ninsert: statblock\ngroup: Partie\nroster: everyone\n```\n"
    )
    [problem] = booklet_problems(campaign, compute_campaign(campaign))
    assert str(problem) == (
        "campaign/one.md:6: statblock: a statblock insert takes exactly one"
        " of names:, group: or roster:"
    )


def test_chapter_structure_and_link_errors(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign,
        """\
Text before any title.

# Title

# Second title

See [nowhere](#no-such-heading) and ![map](../outside.png) and ![web](https://x.org/a.png).
""",
    )
    problems = _problems(folder)
    assert problems == [
        "campaign/one.md:1: a chapter begins with its title, a line such as '# Rolls'",
        "campaign/one.md:5: one '# title' per chapter file; use '## ' for its sections",
        "campaign/one.md:7: the link #no-such-heading leads to no heading in this booklet",
        "campaign/one.md:7: ../outside.png is outside the campaign folder",
        "campaign/one.md:7: https://x.org/a.png: only pictures inside the campaign folder can be"
        " used, given relative to the chapter (e.g. pictures/map.png)",
    ]


def test_pictures_inside_the_campaign_are_embedded(
    write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PIL import Image

    folder = _campaign(write_campaign, "# Pictures\n\n![a red square](pics/red.png)\n")
    (folder / "pics").mkdir()
    Image.new("RGB", (300, 200), (200, 0, 0)).save(folder / "pics" / "red.png")
    html = _view(folder)["chapters"][0]["html"]
    assert 'src="data:image/jpeg;base64,' in html
    assert 'alt="a red square"' in html
    assert "width: 50.8mm" in html  # 300 px at 150 dpi


def test_a_cover_that_is_not_a_picture(write_campaign: WriteCampaign) -> None:
    folder = _campaign(
        write_campaign, "# One\n", "title: T\ncover: cover.png\nchapters: [one.md]\n"
    )
    (folder / "cover.png").write_text("not a picture")
    assert _problems(folder) == [
        "campaign/booklet.yaml:2: cover: cover.png is not an image scratchpress can read; pictures must be PNG, JPEG or WebP"
    ]
    (folder / "booklet.yaml").write_text("title: T\ncover: ../x.png\nchapters: [one.md]\n")
    assert _problems(folder) == [
        "campaign/booklet.yaml:2: cover: ../x.png is outside the campaign folder"
    ]


# --------------------------------------------------------------------------------------------
# saddle-stitch imposition


def test_saddle_order_for_8_pages() -> None:
    assert saddle_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]


def test_saddle_order_for_10_pages_pads_to_12() -> None:
    assert padded_length(10) == 12
    assert saddle_order(10) == [(12, 1), (2, 11), (10, 3), (4, 9), (8, 5), (6, 7)]


@pytest.mark.parametrize("pages", [1, 3, 4, 5, 16, 17])
def test_every_page_is_placed_exactly_once(pages: int) -> None:
    placed = [n for side in saddle_order(pages) for n in side]
    assert sorted(placed) == list(range(1, padded_length(pages) + 1))
    assert len(placed) % 4 == 0


def _numbered_pdf(pages: int, size: tuple[float, float] = (419.53, 595.28)) -> bytes:
    """A plain PDF whose page n says "Pn" near its left edge (standard Helvetica)."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    for n in range(1, pages + 1):
        page = pdf.add_blank_page(page_size=size)
        page.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.Contents = pdf.make_stream(f"BT /F1 24 Tf 40 300 Td (P{n}) Tj ET".encode())
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def _instructions(page: pikepdf.Page) -> list[pikepdf.ContentStreamInstruction]:
    return [
        i
        for i in pikepdf.parse_content_stream(page)
        if isinstance(i, pikepdf.ContentStreamInstruction)
    ]


def _sheet_labels(pdf: bytes) -> list[list[str]]:
    """The page labels on each imposed sheet, left to right, read from the sheet's content
    stream: where each placed page (a form XObject) is moved to, and what it says."""
    sheets = []
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            placed: list[tuple[float, str]] = []
            x = 0.0
            for instruction in _instructions(page):
                operands, operator = instruction.operands, str(instruction.operator)
                if operator == "cm":
                    x = float(operands[4])
                elif operator == "Do":
                    form = page.Resources.XObject[str(operands[0])]
                    label = re.search(rb"\((P\d+)\) Tj", form.read_bytes())
                    assert label is not None
                    placed.append((x, label.group(1).decode()))
            sheets.append([label for _, label in sorted(placed)])
    return sheets


@pytest.mark.parametrize(
    ("pages", "expected"),
    [
        (8, [["P8", "P1"], ["P2", "P7"], ["P6", "P3"], ["P4", "P5"]]),
        # 10 pages: 11 and 12 are blank, so those halves of the sheets are empty.
        (10, [["P1"], ["P2"], ["P10", "P3"], ["P4", "P9"], ["P8", "P5"], ["P6", "P7"]]),
    ],
)
def test_impose_saddle_places_pages_two_up(pages: int, expected: list[list[str]]) -> None:
    imposed = impose_saddle(_numbered_pdf(pages))
    reader = PdfReader(io.BytesIO(imposed))
    assert len(reader.pages) == padded_length(pages) // 2
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            (2 * 419.53, 595.28), abs=0.5
        )
    assert _sheet_labels(imposed) == expected
    # A lone page sits on its own half: P1 on the right of the first sheet, P2 on the left
    # of its back.
    with pikepdf.open(io.BytesIO(imposed)) as doc:
        moves = [
            [float(i.operands[4]) for i in _instructions(p) if str(i.operator) == "cm"]
            for p in doc.pages[:2]
        ]
    if pages == 10:
        assert moves == [[pytest.approx(419.53)], [0.0]]


def test_impose_refuses_an_empty_pdf() -> None:
    with pytest.raises(ValueError):
        padded_length(0)


# `build --impose saddle`: the booklet's pages are half the paper the user chose, so the
# printer's copy prints on that paper; it is listed and counted like any document.

PAPER_PT = {"letter": (612.0, 792.0), "a4": (595.28, 841.89)}
HALF_PT = {"letter": (396.0, 612.0), "a4": (419.53, 595.28)}  # half-letter, A5


@pytest.fixture(scope="module")
def saddle_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The example's booklet built with --impose saddle on Letter and on A4."""
    campaign = load_campaign([examples_dir()])
    computed = compute_campaign(campaign)
    root = tmp_path_factory.mktemp("saddle")
    return {
        paper: build(
            computed,
            campaign,
            BuildOptions(paper=paper, impose="saddle"),  # type: ignore[arg-type]
            root / paper,
            only=["booklets"],
            settings=BuildSettings(jobs=1, cache_dir=root / "cache"),
        )
        for paper in ("letter", "a4")
    }


def _flat(text: str) -> str:
    """Text to compare across extractions: no spaces, no marks of hyphenated breaks."""
    return "".join(c for c in "".join(text.split()) if c not in "\ufffe\u00ad\u0002")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_saddle_sheets_are_the_chosen_paper_and_pages_half_of_it(
    saddle_builds: dict[str, Any], paper: str
) -> None:
    report = saddle_builds[paper]
    assert report.problems == []
    reading, imposed = report.written
    assert imposed.path.name == reading.path.stem + "-saddle.pdf"
    # Each page of the booklet is half the sheet: half-letter on Letter, A5 on A4 ...
    assert all(size == pytest.approx(HALF_PT[paper], abs=0.5) for size in reading.page_sizes)
    # ... and each imposed sheet is the chosen paper, turned landscape.
    width, height = PAPER_PT[paper]
    for page in PdfReader(imposed.path).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            (height, width), abs=0.5
        )
    assert imposed.page_sizes == [pytest.approx((height, width), abs=0.5)] * imposed.pages
    assert imposed.paper is None  # nothing to say: it is the build's paper


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_saddle_sheets_carry_the_pages_in_folding_order(
    saddle_builds: dict[str, Any], paper: str
) -> None:
    """Each half of each sheet holds the text of the booklet page saddle_order puts there
    (and nothing where it puts a blank page)."""
    import pypdfium2 as pdfium

    reading, imposed = saddle_builds[paper].written
    with pdfium.PdfDocument(reading.path) as book:
        pages = [_flat(page.get_textpage().get_text_range()) for page in book]
    with pdfium.PdfDocument(imposed.path) as sheets:
        halves = []
        for sheet in sheets:
            width, height = sheet.get_size()
            text = sheet.get_textpage()
            halves.append(
                (
                    _flat(text.get_text_bounded(0, 0, width / 2, height)),
                    _flat(text.get_text_bounded(width / 2, 0, width, height)),
                )
            )
    assert len(halves) == len(saddle_order(len(pages)))
    # The back cover's foot, on the first side, says how to print the sheets.
    note = _flat("Print at 100% (actual size), flip on the short edge")
    assert halves[0][0].endswith(note)
    halves[0] = (halves[0][0].removesuffix(note), halves[0][1])
    for side, numbers in zip(halves, saddle_order(len(pages)), strict=True):
        for half, number in zip(side, numbers, strict=True):
            assert half == (pages[number - 1] if number <= len(pages) else ""), numbers


def test_the_saddle_copy_is_listed_and_counted(saddle_builds: dict[str, Any]) -> None:
    report = saddle_builds["letter"]
    reading, imposed = report.written
    sides = padded_length(reading.pages) // 2  # two pages a side
    assert (imposed.pages, imposed.sheets) == (sides, sides // 2)
    assert imposed.printers_copy and not reading.printers_copy
    assert report.pages == reading.pages + sides
    assert report.sheets == reading.sheets + sides // 2


def test_build_names_the_paper_a_booklets_own_page_size_needs(
    write_campaign: WriteCampaign, cli: Any
) -> None:
    """A Letter booklet's saddle copy is two Letter pages side by side: 11 x 17 in. The
    summary says so; the imposed file is written, listed and counted all the same."""
    folder = _campaign(
        write_campaign, "# Only\n\nText.\n", "title: Big Book\npaper: letter\nchapters: [one.md]\n"
    )
    result = cli("build", folder, "-o", "out", "--only", "booklets", "--impose", "saddle")
    assert result.exit_code == 0, result.stderr
    assert "wrote out/booklet-big-book-saddle.pdf (2 pages)" in result.stdout
    assert "2 documents, 5 pages, 3 sheets of paper (letter)" in result.stdout
    assert "booklet-big-book-saddle.pdf needs tabloid (11x17 in) paper" in result.stdout
    sheet = PdfReader(folder.parent / "out" / "booklet-big-book-saddle.pdf").pages[0]
    assert (float(sheet.mediabox.width), float(sheet.mediabox.height)) == (1224.0, 792.0)


@pytest.mark.parametrize(
    ("own", "paper", "needs"),
    [("a5", "letter", "A4 (210x297 mm)"), ("half-letter", "letter", None), ("a5", "a4", None)],
)
def test_which_booklets_need_other_paper(
    write_campaign: WriteCampaign, own: str, paper: str, needs: str | None
) -> None:
    folder = _campaign(
        write_campaign, "# Only\n\nText.\n", f"title: T\npaper: {own}\nchapters: [one.md]\n"
    )
    view = _view(folder, paper, impose="saddle")
    assert view["saddle"]["paper"] == needs


# --------------------------------------------------------------------------------------------
# RULES.md §13 pace: every printed cell

BOOK_PACE = {
    "frantic": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    "normal": [15, 10, 8, 6, 5, 4, 4, 3, 3, 3, 3],
    "chase": [30, 20, 15, 12, 10, 9, 8, 7, 6, 6, 5],
    "hunt": [60, 40, 30, 24, 20, 17, 15, 13, 12, 11, 10],
}


@pytest.mark.parametrize("pace", list(BOOK_PACE))
@pytest.mark.parametrize("characters", range(2, 13))
def test_pace_cell(pace: str, characters: int) -> None:
    assert pace_seconds(pace, characters) == BOOK_PACE[pace][characters - 2]  # type: ignore[arg-type]


def test_pace_table_is_the_book_table() -> None:
    assert pace_table() == BOOK_PACE
    # The cells a single rounding gets wrong: chase with 11 (5.45 -> the book's 6) and,
    # with Python's round(), normal with 12 (2.5 -> 2, the book prints 3).
    assert round(60 / 11) == 5 and pace_seconds("chase", 11) == 6
    assert round(30 / 12) == 2 and pace_seconds("normal", 12) == 3


# --------------------------------------------------------------------------------------------
# RULES.md §11 twenty-sided die alternatives

BOOK_GRID = [
    [1, 2, 3, 9, 5, 11],
    [2, 4, 6, 8, 10, 13],
    [3, 6, 7, 12, 15, 18],
    [9, 8, 12, 14, 20, 16],
    [5, 10, 15, 20, 17, 19],
    [11, 13, 18, 16, 19, 1],
]


def test_d6_grid_is_the_book_grid_and_symmetric() -> None:
    assert [list(row) for row in D6_GRID] == BOOK_GRID
    for r in range(1, 7):
        for c in range(1, 7):
            assert d6_grid_value(r, c) == d6_grid_value(c, r) == BOOK_GRID[r - 1][c - 1]
    # The book's examples: 3 and 5 give 15 either way; 2 then 6 gives 13 (column 6).
    assert d6_grid_value(3, 5) == d6_grid_value(5, 3) == 15
    assert d6_grid_value(2, 6) == 13 and d6_grid_value(2, 3) == 6
    with pytest.raises(ValueError):
        d6_grid_value(0, 7)


def test_d6_grid_distribution() -> None:
    counts = d6_grid_distribution()
    assert sum(counts.values()) == 36
    assert {v for v, n in counts.items() if n == 1} == {4, 7, 14, 17}
    assert all(n == 2 for v, n in counts.items() if v not in {4, 7, 14, 17})
    ones = [(r, c) for r in range(1, 7) for c in range(1, 7) if d6_grid_value(r, c) == 1]
    assert ones == [(1, 1), (6, 6)]  # both on the diagonal
    # Every other doubled value sits off the diagonal, once each side of it.
    for value, n in counts.items():
        cells = [(r, c) for r in range(1, 7) for c in range(1, 7) if d6_grid_value(r, c) == value]
        if n == 1:
            assert cells[0][0] == cells[0][1]
        elif value != 1:
            assert cells[0] == cells[1][::-1]


def test_single_die_alternatives() -> None:
    assert sorted(D6_TIMES_FOUR) == [0, 4, 8, 12, 16, 20]
    assert list(TWO_D6_DOUBLED) == list(range(0, 21, 2))


BOOK_CARDS = {  # rank: clubs, spades, hearts, diamonds, blue, green, yellow, red
    1: (1, 1, 11, 11, 1, 1, 11, 11),
    2: (2, 2, 12, 12, 2, 2, 12, 12),
    3: (3, 3, 13, 13, 3, 3, 13, 13),
    4: (4, 4, 14, 14, 4, 4, 14, 14),
    5: (5, 5, 15, 15, 5, 5, 15, 15),
    6: (6, 6, 16, 16, 6, 6, 16, 16),
    7: (7, 7, 17, 17, 7, 7, 17, 17),
    8: (8, 8, 18, 18, 8, 8, 18, 18),
    9: (9, 9, 19, 19, 9, 9, 19, 19),
    10: (10, 10, 20, 20, 10, 10, 20, 20),
}


def test_card_table_every_cell() -> None:
    suits = ("clubs", "spades", "hearts", "diamonds", "blue", "green", "yellow", "red")
    assert set(suits) == set(CARD_SUITS)
    assert card_table(suits) == [BOOK_CARDS[rank] for rank in range(1, 11)]
    # A 0 card counts as 10: a yellow 0 is worth 20, a reshuffle card.
    assert card_value(0, "yellow") == 20 and card_value(0, "green") == 10
    with pytest.raises(ValueError):
        card_value(11, "clubs")
    with pytest.raises(ValueError):
        card_value(3, "cups")


# --------------------------------------------------------------------------------------------
# RULES.md §12 random damage: every printed row

BOOK_DAMAGE = [  # normal, extra, roll, average, × normal
    (1, "1d4", "1d4 + 1", "3.5", "3.50"),
    (2, "1d6", "1d6 + 2", "5.5", "2.75"),
    (3, "1d8", "1d8 + 3", "7.5", "2.50"),
    (4, "1d10", "1d10 + 4", "9.5", "2.38"),
    (5, "1d12", "1d12 + 5", "11.5", "2.30"),
    (6, "2d6", "2d6 + 6", "13.0", "2.17"),
    (7, "3d4", "3d4 + 7", "14.5", "2.07"),
    (8, "2d8", "2d8 + 8", "17.0", "2.13"),
    (9, "3d6", "3d6 + 9", "19.5", "2.17"),
    (10, "1d20", "1d20 + 10", "20.5", "2.05"),
]


def test_random_damage_table_every_row() -> None:
    rows = [
        (r.normal, str(r.extra), r.total, round_fraction(r.average, 1), round_fraction(r.ratio, 2))
        for r in random_damage_table()
    ]
    assert rows == BOOK_DAMAGE
    above = random_damage(14)
    assert str(above.extra) == "1d20" and above.average == 14 + 10.5
    with pytest.raises(ValueError):
        random_damage(0)


# --------------------------------------------------------------------------------------------
# the example's prose is our own: no six-word run shared with the source texts


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))


def _shingles(words: list[str], n: int = 6) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def test_example_booklet_shares_no_six_word_run_with_the_sources() -> None:
    seeds = shared_location() / "seeds"
    if not seeds.is_dir():
        pytest.skip(f"needs the rule texts to compare our prose with; none at {seeds}")
    source: set[tuple[str, ...]] = set()
    for file in seeds.glob("*.txt"):
        source |= _shingles(_words(file.read_text(encoding="utf-8", errors="replace")))
    for chapter in sorted((examples_dir() / "booklet").glob("*.md")):
        text = re.sub(r"```.*?```", "", chapter.read_text(encoding="utf-8"), flags=re.DOTALL)
        shared = _shingles(_words(text)) & source
        assert not shared, (chapter.name, sorted(" ".join(s) for s in shared))


# --------------------------------------------------------------------------------------------
# the contents page's two columns


def _long_contents(chapters: int, sections: int) -> dict[str, str]:
    files = {"party.yaml": PARTY}
    names = []
    for number in range(chapters):
        name = f"c{number}.md"
        names.append(name)
        # Uneven chapters, one title long enough to wrap in its column.
        title = "Salvage, Scavenging and the Long Walk Home" if number == 2 else f"Part {number}"
        heads = "".join(
            f"## Step {number}.{s}\n\nText.\n\n" for s in range((number * 3) % sections)
        )
        files[name] = f"# {title}\n\nOpening.\n\n{heads}"
    files["booklet.yaml"] = f"title: Contents Test\npaper: PAPER\nchapters: [{', '.join(names)}]\n"
    return files


@pytest.mark.parametrize("paper", ["a5", "letter"])
def test_the_contents_columns_split_where_css_would_balance_them(
    write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch, paper: str
) -> None:
    """The module's split and CSS column balancing make the same contents page."""
    files = _long_contents(7, 5)
    files["booklet.yaml"] = files["booklet.yaml"].replace("PAPER", paper)
    folder = write_campaign(files)
    ours, view = _render(folder)
    left, right = view["toc_columns"]
    assert left and right and len(left) + len(right) == 7
    monkeypatch.setattr(booklet_module, "contents_columns", lambda toc, layout: [])
    balanced_by_css, view = _render(folder)
    assert view["toc_columns"] == []
    mean, changed = difference(page_image(ours.pdf, 1), page_image(balanced_by_css.pdf, 1))
    assert mean < 0.05 and changed == 0, (mean, changed)


def test_contents_too_long_for_one_page_run_on_in_css_columns(
    write_campaign: WriteCampaign,
) -> None:
    files = _long_contents(40, 7)
    files["booklet.yaml"] = files["booklet.yaml"].replace("PAPER", "a5")
    view = _view(write_campaign(files))
    assert view["toc_columns"] == []
    html = render_html("booklet/booklet.html", view)
    assert 'class="toc-chapters toc-flow"' in html and '<div class="toc-columns">' not in html


# -------------------- formerly tests/documents/test_booklet_resilience.py
# The booklet's Resilience inserts (one event card, a year of projects, project sizes,
# project ideas, careers) and the booklet's imprint, checked on their view models.
#
# The rendered example booklet (its pages, contents, bookmarks and PDF text) is checked in
# test_booklet.py; here small campaigns show what each insert computes and what it refuses,
# naming the Markdown line.

PARTY_RESILIENCE = """\
characters:
  - name: Mara Quill
    player: Ann
    career: Doctor
    abilities: {healing: 2, toughness: 3, quickness: 1}
careers:
  - id: ferryman
    name: Ferryman
    required: [["swimming"], ["toughness"]]
    wants: A toll on the ford and nobody building a bridge.
"""

BOOK = "title: Test Book\nauthor: A. Tester\npaper: a5\nchapters: [one.md]\n"

# The rules' community development example: four players, one large project each.
WORKED_YEAR = """\
# A Year

```scratchpress
insert: projects
players: 4
projects:
  - {player: Cynthia, develop: {economy: 5}, sacrifice: {environment: 4}}
  - {player: David, develop: {environment: 5}, roll: 14}
  - {player: Adam, develop: {environment: 2, economy: 1}, sacrifice: {equity: 1}, roll: 8}
  - {player: Brian, develop: {equity: 4}, sacrifice: {economy: 2, environment: 1}}
bonus: {equity: 1, environment: 1}
```
"""


def _campaign_resilience(write_campaign: WriteCampaign, chapter: str, booklet: str = BOOK) -> Path:
    return write_campaign(
        {"party.yaml": PARTY_RESILIENCE, "booklet.yaml": booklet, "one.md": chapter}
    )


def _inserts(folder: Path) -> list[dict[str, Any]]:
    """The view model of every insert in the booklet's chapters, in order."""
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    booklet = load_booklet(campaign)
    assert booklet is not None
    options = BuildOptions()
    _, layout = booklet_layout(booklet.definition.paper, options)
    ctx = BookletContext(booklet, computed, campaign, options, layout)
    md = markdown()
    found: list[dict[str, Any]] = []
    for chapter in booklet.chapters:
        parsed = parse_chapter(md, chapter, ctx)
        mark_inserts(parsed, ctx)
        found += [t.meta["insert"] for t in parsed.tokens if "insert" in t.meta]
    assert ctx.problems == []
    return found


def _problems_resilience(folder: Path) -> list[str]:
    campaign = load_campaign([folder])
    with pytest.raises(InputError) as caught:
        documents(compute_campaign(campaign), campaign, BuildOptions())
    return [str(p) for p in caught.value.problems]


# --------------------------------------------------------------------------------------------
# a year of projects


def test_the_worked_year_is_priced_and_settled_as_the_book_says(
    write_campaign: WriteCampaign,
) -> None:
    # Cynthia: 7 + 10 - 20 = -3, automatic. David: 17, rolls 14, fails. Adam: 8, rolls 8,
    # succeeds. Brian: 7 + 8 - 15 = 0, automatic. With the GM's +1 equity and +1
    # environment the year nets economy +4, environment -2, equity +4.
    [view] = _inserts(_campaign_resilience(write_campaign, WORKED_YEAR))
    assert [
        (r["player"], r["moves"], r["difficulty"], r["roll"], r["result"], r["changes"])
        for r in view["rows"]
    ] == [
        ("Cynthia", "+5 economy, −4 environment", "−3", "–", "automatic", ["+5", "−4", ""]),
        ("David", "+5 environment", "17", "14", "failed", ["", "", ""]),
        ("Adam", "+2 environment, +1 economy, −1 equity", "8", "8", "success", ["+1", "+2", "−1"]),
        (
            "Brian",
            "+4 equity, −2 economy, −1 environment",
            "0",
            "–",
            "automatic",
            ["−2", "−1", "+4"],
        ),
    ]
    assert view["bonus"] == ["", "+1", "+1"]
    assert view["year"] == ["+4", "−2", "+4"]
    assert view["defenses"] == ["Econ", "Env", "Eq"]
    assert view["size"] == "4 players: 1 large project each, up to 5 levels"


def test_the_difficulties_come_from_the_project_rules(
    write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing in the insert works a difficulty out itself: change the rule and the table
    follows (here a rule three harder, which makes Brian's 0 a 3 that needs a roll)."""
    real = booklet_inserts.plan_project

    def harder(players: int, develop: Any, sacrifice: Any, current: Any = None) -> Any:
        plan = real(players, develop, sacrifice, current)
        return type(plan)(
            plan.size, plan.develop, plan.sacrifice, plan.difficulty + 3, False, plan.problems
        )

    monkeypatch.setattr(booklet_inserts, "plan_project", harder)
    problems = _problems_resilience(_campaign_resilience(write_campaign, WORKED_YEAR))
    assert problems == [
        "campaign/one.md:7: projects.0: difficulty 0 needs the d20 the player rolled:"
        " add roll: 1-20",
        "campaign/one.md:10: projects.3: difficulty 3 needs the d20 the player rolled:"
        " add roll: 1-20",
    ]


def test_a_year_the_rules_refuse_names_each_line(write_campaign: WriteCampaign) -> None:
    folder = _campaign_resilience(
        write_campaign,
        """\
# A Year

```scratchpress
insert: projects
players: 4
projects:
  - {player: Cynthia, develop: {economy: 5}, sacrifice: {economy: 1}}
  - {player: David, develop: {environment: 5}}
  - {player: Adam, develop: {equity: 2}, sacrifice: {economy: 2}, roll: 12}
  - {player: Adam, develop: {equity: 6}, roll: 30}
  - {player: Brian, develop: {equity: 1}, sacrifice: {economy: 3}, roll: 4}
bonus: {equity: 2, economy: 1}
```
""",
    )
    assert _problems_resilience(folder) == [
        "campaign/one.md:10: projects.3.develop.equity: must be 5 or less, got 6",
        "campaign/one.md:10: projects.3.roll: must be 20 or less, got 30",
    ]
    text = (folder / "one.md").read_text()
    (folder / "one.md").write_text(text.replace("equity: 6}, roll: 30", "equity: 3}, roll: 9"))
    assert _problems_resilience(folder) == [
        # A refused plan is not asked for a roll as well.
        "campaign/one.md:7: projects.0: cannot sacrifice economy, the defense this project"
        " develops",
        "campaign/one.md:8: projects.1: difficulty 17 needs the d20 the player rolled:"
        " add roll: 1-20",
        "campaign/one.md:9: projects.2.roll: difficulty 1 succeeds without a roll: leave out roll:",
        "campaign/one.md:10: projects.3: Adam starts a project too many: with 4 players each"
        " starts 1 a year",
        "campaign/one.md:11: projects.4: sacrifices 3 levels, more than the 1 it develops",
        "campaign/one.md:12: bonus: the GM's bonus is 2 levels of one defense, 1 of each of two,"
        " or 1 of one; this one gives 3",
    ]


def test_more_players_than_the_year_has(write_campaign: WriteCampaign) -> None:
    folder = _campaign_resilience(
        write_campaign,
        """\
# A Year

```scratchpress
insert: projects
players: 1
projects:
  - {player: Ann, develop: {economy: 1}, roll: 9}
  - {player: Bo, develop: {economy: 1}, roll: 9}
```
""",
    )
    assert _problems_resilience(folder) == [
        "campaign/one.md:5: players: 2 players start projects, but players: is 1"
    ]


# --------------------------------------------------------------------------------------------
# sizes, ideas, careers, one event


def test_project_sizes_turn_the_rules_table_on_its_side(write_campaign: WriteCampaign) -> None:
    [view] = _inserts(
        _campaign_resilience(write_campaign, "# S\n\n```scratchpress\ninsert: project-sizes\n```\n")
    )
    assert view["players"] == ["1", "2", "3", "4", "5", "6", "7"]
    rows = {r["label"]: r["cells"] for r in view["rows"]}
    assert rows == {
        "Projects each": ["4", "2", "2", "1", "1", "1", "1"],
        "Size": ["large", "large", "small", "large", "medium", "small", "small"],
        "Levels, at most": ["5", "5", "3", "5", "4", "3", "3"],
        # The rules' uneven totals: 18, 20 or 21 levels a year for the whole table.
        "The group's levels": ["20", "20", "18", "20", "20", "18", "21"],
    }
    assert len(view["players"]) == len(PROJECT_SIZES)
    assert view["beyond"] == "8 or more players: the rules stop at 7."


def test_project_ideas_a_few_per_defense_priced_by_the_rules(
    write_campaign: WriteCampaign,
) -> None:
    chapter = "# I\n\n```scratchpress\ninsert: project-ideas\neach: 2\n```\n"
    [view] = _inserts(_campaign_resilience(write_campaign, chapter))
    assert [g["defense"] for g in view["groups"]] == ["Economy", "Environment", "Equity"]
    assert all(len(g["rows"]) == 2 for g in view["groups"])
    # The first built-in idea: a rope ferry, +3 economy for 1 environment: 7 + 6 - 5 = 8.
    first = view["groups"][0]["rows"][0]
    assert first == {
        "name": "Aerial Rope Ferry",
        "theme": "aerial rope transport",
        "moves": "+3 economy, −1 environment",
        "size": "small",
        "difficulty": "8",
    }
    assert plan_project(3, {"economy": 3}, {"environment": 1}).difficulty == 8
    # Each idea sits under the defense it develops most.
    for group in view["groups"]:
        for row in group["rows"]:
            gains = dict(re.findall(r"\+(\d) (\w+)", row["moves"]))
            best = max(gains.items(), key=lambda kv: int(kv[0]))[1]
            assert best == group["defense"].lower(), row

    only = "# I\n\n```scratchpress\ninsert: project-ideas\ndevelops: equity\n```\n"
    [view] = _inserts(_campaign_resilience(write_campaign, only))
    assert [g["defense"] for g in view["groups"]] == ["Equity"]
    assert len(view["groups"][0]["rows"]) == 3  # the default


def test_careers_list_the_campaigns_own_after_the_built_in_ones(
    write_campaign: WriteCampaign,
) -> None:
    [view] = _inserts(
        _campaign_resilience(write_campaign, "# C\n\n```scratchpress\ninsert: careers\n```\n")
    )
    careers = view["careers"]
    builtin = builtin_content().careers
    assert len(careers) == len(builtin) + 1 == 14  # thirteen built in, and the ferryman
    assert careers[0] == {
        "name": "Farmer",
        "role": "defense",
        "required": ["fighting or wrestling", "toughness", "craftsmanship"],
        "wants": builtin[0].wants,
    }
    assert careers[-1] == {
        "name": "Ferryman",
        "role": "",
        "required": ["swimming", "toughness"],
        "wants": "A toll on the ford and nobody building a bridge.",
    }


def test_one_event_card_in_full(write_campaign: WriteCampaign) -> None:
    chapter = "# E\n\n```scratchpress\ninsert: event-card\nid: weeping-dam\n```\n"
    [view] = _inserts(_campaign_resilience(write_campaign, chapter))
    card = view["event"]
    assert card["title"] == "The Weeping Dam"
    assert (card["threat"], card["attacks"]) == ("emergency", "Economy")
    assert card["attack"] == "d20 +8 against economy"
    assert card["damage"] == "6"
    assert card["challenge"] == "Blasting, difficulty 13"
    assert [c["choice"] for c in card["choices"]] == [
        "Open the sluices",
        "Shore it up",
        "Evacuate the lower homes",
    ]
    assert "fails automatically" in card["choices"][0]["consequence"]

    (Path("campaign") / "one.md").write_text(chapter.replace("weeping-dam", "weeping-damn"))
    assert _problems_resilience(Path("campaign")) == [
        "campaign/one.md:5: id: no event with id 'weeping-damn' (did you mean 'weeping-dam'?)"
    ]


# --------------------------------------------------------------------------------------------
# the imprint


def test_the_imprint_carries_the_authors_note_and_the_credit(
    write_campaign: WriteCampaign,
) -> None:
    folder = _campaign_resilience(
        write_campaign,
        "# One\n\nText.\n",
        BOOK.replace("paper: a5\n", "version: '2'\ncolophon: House rules by our GM.\n"),
    )
    campaign = load_campaign([folder])
    booklet = load_booklet(campaign)
    assert booklet is not None
    view = booklet_view(booklet, compute_campaign(campaign), campaign, BuildOptions())
    colophon = view["colophon"]
    assert colophon["imprint"] == "Test Book, version 2. A. Tester."
    assert colophon["note"] == "House rules by our GM."
    assert "not the official rule texts" in colophon["credit"]
    assert "events, careers and project ideas" in colophon["credit"]
    assert "Scratch Role-Playing System" in colophon["based_on"]
    assert "Resilience" in colophon["based_on"]


# --------------------------------------------------------------------------------------------
# the example's prose against the example campaign


def _three(text: str, lead: str) -> dict[str, int]:
    match = re.search(
        lead + r"\s+(\d+)\s+economy,\s+(\d+)\s+environment,?\s+(?:and\s+)?(\d+)\s+equity",
        text,
    )
    assert match, lead
    return dict(zip(("economy", "environment", "equity"), map(int, match.groups()), strict=True))


def test_the_example_chapters_quote_lantern_weirs_own_numbers() -> None:
    """The community and year chapters name Lantern Weir's E's as founded and after year 1;
    they must say what examples/community.yaml does."""
    campaign = load_campaign([examples_dir()])
    [weir] = [c.definition for c in campaign.communities if c.definition.name == "Lantern Weir"]
    chapters = examples_dir() / "booklet"
    community = (chapters / "community.md").read_text(encoding="utf-8")
    year = (chapters / "year.md").read_text(encoding="utf-8")
    assert _three(community, "founded at") == founding_defenses(weir)
    assert sum(founding_defenses(weir).values()) == 30
    assert _three(community, "stands at") == current_defenses(weir)
    assert _three(year.replace("\n> ", " "), "closed at") == current_defenses(weir)


# --------------------------------------------------------------------------------------------
# damaged pictures and covers: one line each, never a decoder's traceback (issue 31)


def _png(size: tuple[int, int] = (120, 80)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.effect_noise(size, 40).convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()


DAMAGED_CHAPTER = """\
# Pictures

![a header cut short](pics/cut-header.png)

![a PPM header](pics/ppm.png)

![an SGI header](pics/sgi.png)

![pixel data cut short](pics/cut-data.png)
"""


def _damaged_booklet(write_campaign: WriteCampaign) -> Path:
    """Regression: each of these pictures (and the damaged cover) gave a Python traceback
    from ``build`` and from ``check``: Pillow's PPM and SGI plugins read the headers."""
    folder = _campaign(
        write_campaign,
        DAMAGED_CHAPTER,
        "title: T\npaper: a5\ncover: pics/cover.png\nchapters: [one.md]\n",
    )
    pictures = folder / "pics"
    pictures.mkdir()
    (pictures / "cut-header.png").write_bytes(_png()[:20])
    (pictures / "ppm.png").write_bytes(b"P6\n-5 99999999999\n255\n")
    (pictures / "sgi.png").write_bytes(b"\x01\xda\x00\x01\x00\x03" + b"\0" * 20)
    (pictures / "cut-data.png").write_bytes(_png()[:-200])
    (pictures / "cover.png").write_bytes(_png((400, 300))[:-500])
    return folder


DAMAGED_LINES = [
    "campaign/one.md:3: pics/cut-header.png is damaged or truncated",
    "campaign/one.md:5: pics/ppm.png is not an image scratchpress can read; pictures must be PNG, JPEG or WebP",
    "campaign/one.md:7: pics/sgi.png is not an image scratchpress can read; pictures must be PNG, JPEG or WebP",
    "campaign/one.md:9: pics/cut-data.png is damaged or truncated",
    "campaign/booklet.yaml:3: cover: pics/cover.png is damaged or truncated",
]


def test_damaged_pictures_and_covers_are_one_line_each_naming_the_file_and_line(
    write_campaign: WriteCampaign,
) -> None:
    folder = _damaged_booklet(write_campaign)
    built = _problems(folder)
    assert len(built) == len(DAMAGED_LINES)
    assert all(line.startswith(start) for line, start in zip(built, DAMAGED_LINES, strict=True))
    campaign = load_campaign([folder])
    checked = [str(p) for p in booklet_problems(campaign, compute_campaign(campaign))]
    assert checked == built  # check says exactly what build would


def test_damaged_pictures_fail_check_and_build_cleanly(
    write_campaign: WriteCampaign, cli: Any, booklet_kind: None
) -> None:
    folder = _damaged_booklet(write_campaign)
    for args in (["check", folder], ["build", folder, "-o", "out", "--only", "booklets"]):
        result = cli(*args)  # the fixture fails the test on any traceback
        assert result.exit_code == 1
        for start in DAMAGED_LINES:
            assert start in result.output


def test_a_phone_s_two_frame_jpeg_is_a_booklet_picture(write_campaign: WriteCampaign) -> None:
    from PIL import Image

    folder = _campaign(write_campaign, "# Pictures\n\n![the crew](crew.jpg)\n")
    buffer = io.BytesIO()
    frames = [Image.new("RGB", (300, 200), (200, 0, 0)), Image.new("RGB", (300, 200))]
    frames[0].save(buffer, format="MPO", save_all=True, append_images=frames[1:])
    (folder / "crew.jpg").write_bytes(buffer.getvalue())
    assert 'src="data:image/jpeg;base64,' in _view(folder)["chapters"][0]["html"]


# --------------------------------------------------------------------------------------------
# words: every label of ours from the catalogue


class _Marked(NullTranslations):
    """A catalogue that marks every message it words: «Contents»."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"

    def pgettext(self, context: str, message: str) -> str:
        return f"«{message}»"


def test_the_inserts_contents_and_imprint_are_worded_from_the_catalogue() -> None:
    """In a language that marks every message, the booklet's own words (its inserts'
    headers and sentences, the contents, "Chapter 1", the imprint) are all marked, and the
    author's Markdown is left as written."""
    with speaking(Wording("en", translations=_Marked())):
        view = _view(examples_dir())
        html = render_html("booklet/booklet.html", view)
    for label in [
        "Contents",
        "Chapter 1",
        "Strength",
        "Pack all day",
        "Pace",
        "Card",
        "Normal damage",
        "Threat",
        "This year",
        "Develops, sacrifices",
        "The year",
        "Projects each",
        "Idea",
        "Above 10: roll 1d20 and add the normal damage.",
        "ace",
        "frantic",
    ]:
        assert f"«{label}»" in html, label
    # (The chapters' own Markdown tables may use the same English words.)
    assert ">Contents<" not in html and ">Chapter 1<" not in html
    assert "«Set with scratchpress" in html and "«Based on two games" in html
    assert "«Version 1.0»" in html
    # The author's words stay as written: the first chapter's title, unmarked.
    assert f">{view['chapters'][0]['title']}<" in html


def test_the_example_booklet_s_worked_attack_is_the_rules_arithmetic() -> None:
    """ "Lantern Weir's 12 economy meant the Weeping Dam got through on N or more": the GM
    rolls d20 + the card's bonus and the attack lands at the defense or above, so N is the
    defense less the bonus (12 - 8 = 4)."""
    from scratchpress.resources import examples_dir

    campaign = load_campaign([examples_dir()])
    [weir] = [c.definition for c in campaign.communities]
    economy = weir.economy.level if hasattr(weir.economy, "level") else int(weir.economy)
    dam = next(e for e in builtin_content().events if e.id == "weeping-dam")
    text = " ".join((examples_dir() / "booklet" / "events.md").read_text("utf-8").split())
    assert f"Lantern Weir's {economy} economy" in text
    assert f"Dam got through on {economy - dam.attack_bonus} or more" in text


def test_what_to_expect_prints_the_simulators_own_figures(write_campaign: WriteCampaign) -> None:
    from scratchpress.documents.resilience_text import simulation_setup
    from scratchpress.rules.simulate import simulate

    chapter = (
        "# E\n\n```scratchpress\ninsert: what-to-expect\npolicies: [passive, balanced]\n"
        "years: [3, 6]\nruns: 60\n```\n"
    )
    folder = _campaign_resilience(write_campaign, chapter)
    [view] = _inserts(folder)
    assert view["years"] == ["3", "6"]
    assert [row["name"] for row in view["rows"]] == [
        "A passive town: no projects, the cheapest answers",
        "A careful table: weakest defense first, answers weighed",
    ]
    # The same numbers `resilience simulate --runs 60 --seed 1` gives for the campaign.
    setup = simulation_setup(load_campaign([folder]))
    passive = simulate(
        setup.events, setup.start, setup.players, 6, 60, 1, "passive", setup.party,
        setup.first_year, favours=setup.favours, ideas=setup.ideas,
    )  # fmt: skip
    by_year = {y.year: y for y in passive.by_year}
    expected = [f"{round(100 * by_year[y].ruined)}%" for y in (3, 6)]
    expected += [f"{round(100 * by_year[y].won)}%" for y in (3, 6)]
    assert view["rows"][0]["cells"] == expected
    assert "60 simulated towns per row" in view["note"] and "--seed 1" in view["note"]


def test_what_to_expect_refuses_an_unknown_way_of_playing(write_campaign: WriteCampaign) -> None:
    chapter = "# E\n\n```scratchpress\ninsert: what-to-expect\npolicies: [reckless]\n```\n"
    folder = _campaign_resilience(write_campaign, chapter)
    assert _problems_resilience(folder) == [
        "campaign/one.md:5: policies.0: must be 'passive', 'balanced', 'greedy', 'story',"
        " 'timid', 'career' or 'no-sacrifice', got 'reckless'"
    ]
