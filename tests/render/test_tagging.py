"""Tagged PDFs hold their PDF/UA promise: the structure tree of a booklet, read back with
pikepdf, follows the rules a screen reader relies on; independent checkers from the package
index (outloud, pdfua) find no error in the example booklet; a booklet that breaks a rule
we cannot mend (a picture without a description) no longer claims PDF/UA.

The rules, as the tests below hold them:
- headings nest by level: no heading inside a heading, no level skipped;
- lists are L holding LI, and an LI holds its label (Lbl) and its body (LBody);
- every link annotation sits in a Link element, and the Link holds the link's words;
- every table header cell has a /Scope: its row's when its row holds data, else its column's;
- every figure has alternative text;
- the document has a title shown as the window's title, and a language;
- running heads and page numbers are artifacts: no marked content outside the tree.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import outloud
import pdfua
import pikepdf
import pytest
from PIL import Image

from scratchpress.build.run import allowed_roots
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents.booklet import documents
from scratchpress.render import engine
from scratchpress.render.engine import Rendered, render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir, templates_dir
from scratchpress.statblocks import compute_campaign

from conftest import Cli, WriteCampaign

PARTY = """\
characters:
  - name: Mara Quill
    group: Party
    abilities: {shooting: 2, toughness: 3, stealth: 1}
"""
BOOK = "title: Test Book\nauthor: A. Tester\npaper: a5\nchapters: [one.md]\n"
# A chapter with one of everything the tagger must get right, and a heading that skips a
# level (``check`` warns about it; the tags must still nest).
CHAPTER = """\
# First Steps

Read [the **rules** of thumb](#rules-of-thumb) or [the guide](https://example.org/guide).

### Rules of thumb

- Roll high.
- Stay alive.

1. Pick a die.
2. Roll it.

| Roll | Result |
|------|--------|
| 1    | miss   |
| 20   | hit    |

![A lantern on a weir](lantern.png)
"""

Element = pikepdf.Dictionary


def _render(folder: Path) -> Rendered:
    campaign = load_campaign([folder])
    [document] = documents(compute_campaign(campaign), campaign, BuildOptions())
    html = render_html(document.template, document.context)
    return render_pdf(
        html, templates_dir(), allowed_roots(campaign), pdf_variant=document.pdf_variant
    )


def _booklet(write_campaign: WriteCampaign, chapter: str = CHAPTER) -> Path:
    folder = write_campaign({"party.yaml": PARTY, "booklet.yaml": BOOK, "one.md": chapter})
    Image.new("RGB", (300, 200), (200, 120, 40)).save(folder / "lantern.png")
    return folder


def _kids(node: pikepdf.Object) -> list[pikepdf.Object]:
    kids = node.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _elements(
    node: pikepdf.Object, ancestors: tuple[Element, ...] = ()
) -> Iterator[tuple[Element, tuple[Element, ...]]]:
    """Every structure element in reading order, with its ancestors."""
    for kid in _kids(node):
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            yield kid, ancestors
            yield from _elements(kid, (*ancestors, kid))


def _role(element: Element) -> str:
    return str(element.S)[1:]


def _roles(pdf: pikepdf.Pdf) -> list[tuple[str, list[str]]]:
    """Each element's role and its ancestors' roles, in reading order."""
    return [
        (_role(e), [_role(a) for a in above]) for e, above in _elements(pdf.Root.StructTreeRoot)
    ]


def _table_attributes(cell: Element) -> pikepdf.Dictionary:
    attributes = cell.get("/A")
    for candidate in attributes if isinstance(attributes, pikepdf.Array) else [attributes]:
        if isinstance(candidate, pikepdf.Dictionary) and candidate.get("/O") == "/Table":
            return candidate
    return pikepdf.Dictionary()


def _open(rendered: Rendered) -> pikepdf.Pdf:
    return pikepdf.open(io.BytesIO(rendered.pdf))


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example booklet, rendered once as the build renders it."""
    path = tmp_path_factory.mktemp("tagging") / "booklet.pdf"
    path.write_bytes(_render(examples_dir()).pdf)
    return path


@pytest.fixture
def small(write_campaign: WriteCampaign) -> Rendered:
    return _render(_booklet(write_campaign))


# --------------------------------------------------------------------------------------------
# the rules, on the small booklet and on the example


def test_headings_nest_by_level_and_a_skipped_level_is_closed(small: Rendered) -> None:
    with _open(small) as pdf:
        roles = _roles(pdf)
    headings = [role for role, _ in roles if role in {"H1", "H2", "H3", "H4", "H5", "H6"}]
    # The cover's title, the contents, the chapter, and its '###' tagged one level below.
    assert headings == ["H1", "H2", "H1", "H2"]
    for role, above in roles:
        if role.startswith("H") and role[1:].isdigit():
            assert not [a for a in above if a.startswith("H") and a[1:].isdigit()]


def test_example_headings_nest_by_level(example: Path) -> None:
    with pikepdf.open(example) as pdf:
        roles = _roles(pdf)
    levels = [int(role[1]) for role, _ in roles if role in {f"H{n}" for n in range(1, 7)}]
    assert levels.count(1) == 1 + 10  # the cover's title and ten chapters
    assert all(after <= before + 1 for before, after in zip([0, *levels], levels, strict=False))
    nested = [
        role
        for role, above in roles
        if role.startswith("H") and any(a.startswith("H") and a[1:].isdigit() for a in above)
    ]
    assert nested == []


def _check_lists(pdf: pikepdf.Pdf) -> tuple[int, int]:
    """Asserts the list rules; returns how many items and how many labels it saw."""
    items = labels = 0
    for element, above in _elements(pdf.Root.StructTreeRoot):
        role = _role(element)
        parent = _role(above[-1]) if above else "Document"
        if role == "LI":
            items += 1
            assert parent == "L"
            kids = [_role(k) for k in _kids(element) if isinstance(k, pikepdf.Dictionary)]
            assert kids and set(kids) <= {"Lbl", "LBody"}, kids
            labels += kids.count("Lbl")
        if parent == "L":
            assert role in {"LI", "L", "Caption"}, role
    return items, labels


def test_lists_are_L_of_LI_holding_Lbl_and_LBody(small: Rendered) -> None:
    with _open(small) as pdf:
        items, labels = _check_lists(pdf)
    assert items >= 4 + 1  # two bullets, two numbered steps, the contents' entry
    assert labels == 4  # a bullet or a number for each, none for the contents' entry


def test_example_lists_are_L_of_LI(example: Path) -> None:
    """The careers too: one item per career, no Div between the list and its items."""
    with pikepdf.open(example) as pdf:
        items, _ = _check_lists(pdf)
    assert items > 48


def _check_links(pdf: pikepdf.Pdf) -> int:
    """Asserts every link annotation is in a Link element that holds words; returns how
    many link annotations there are."""
    parents = pikepdf.NumberTree(pdf.Root.StructTreeRoot.ParentTree)
    in_links: dict[tuple[int, int], Element] = {}
    for element, above in _elements(pdf.Root.StructTreeRoot):
        role = _role(element)
        for kid in _kids(element):
            if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/OBJR":
                assert role == "Link", role
                in_links[kid.Obj.objgen] = element
        if role == "Link":
            assert "Link" not in [_role(a) for a in above]
            assert any(isinstance(k, int) or k.get("/Type") == "/MCR" for k in _kids(element))
    annotations = [
        annotation
        for page in pdf.pages
        for annotation in page.obj.get("/Annots", pikepdf.Array())
        if annotation.get("/Subtype") == "/Link"
    ]
    for annotation in annotations:
        link = in_links[annotation.objgen]
        assert parents[int(annotation.StructParent)].objgen == link.objgen
        assert int(annotation.get("/F", 0)) & 4  # printed as shown
    return len(annotations)


def test_links_are_Link_elements_holding_their_annotations(small: Rendered) -> None:
    with _open(small) as pdf:
        # The contents' entry, the two links in the text; more boxes, more annotations.
        assert _check_links(pdf) >= 3


def test_example_links_are_Link_elements(example: Path) -> None:
    with pikepdf.open(example) as pdf:
        assert _check_links(pdf) > 10  # the contents' entries at least


def _scopes(pdf: pikepdf.Pdf) -> list[tuple[str, bool]]:
    """Each header cell's /Scope, and whether its row holds data cells."""
    found = []
    for row, _ in _elements(pdf.Root.StructTreeRoot):
        if _role(row) != "TR":
            continue
        cells = [_role(k) for k in _kids(row) if isinstance(k, pikepdf.Dictionary)]
        for cell in _kids(row):
            if isinstance(cell, pikepdf.Dictionary) and _role(cell) == "TH":
                scope = str(_table_attributes(cell).get("/Scope", "none"))
                found.append((scope, "TD" in cells))
    return found


def test_table_header_cells_have_a_scope(small: Rendered) -> None:
    with _open(small) as pdf:
        assert _scopes(pdf) == [("/Column", False), ("/Column", False)]


def test_example_header_cells_are_their_rows_or_their_columns(example: Path) -> None:
    with pikepdf.open(example) as pdf:
        scopes = _scopes(pdf)
    assert len(scopes) > 100
    assert {("/Row", True), ("/Column", False)} == set(scopes)


def test_figures_have_alternative_text(small: Rendered, example: Path) -> None:
    with _open(small) as pdf:
        alts = [str(e.Alt) for e, _ in _elements(pdf.Root.StructTreeRoot) if _role(e) == "Figure"]
    assert alts == ["A lantern on a weir"]
    with pikepdf.open(example) as pdf:
        alts = [
            str(e.get("/Alt", ""))
            for e, _ in _elements(pdf.Root.StructTreeRoot)
            if _role(e) == "Figure"
        ]
    assert alts and all(alt.strip() for alt in alts)


def _claims(pdf: pikepdf.Pdf) -> dict[str, str]:
    with pdf.open_metadata() as xmp:
        return {key: str(xmp.get(key, "")) for key in ("dc:title", "pdfuaid:part")}


def test_title_language_and_the_claim(small: Rendered, example: Path) -> None:
    for source, title in ((_open(small), "Test Book"), (pikepdf.open(example), None)):
        with source as pdf:
            assert pdf.Root.ViewerPreferences.DisplayDocTitle is True
            assert str(pdf.Root.Lang) == "en"
            claims = _claims(pdf)
            assert claims["dc:title"] == (title or "Scratch at the Table")
            assert claims["pdfuaid:part"] == "1"
    assert small.warnings == []


def test_running_heads_and_page_numbers_are_artifacts(example: Path) -> None:
    """Every marked content the parent tree names is content of an element in the tree;
    the rest of a page (its running head, its number) is marked as an artifact."""
    with pikepdf.open(example) as pdf:
        reachable = {e.objgen for e, _ in _elements(pdf.Root.StructTreeRoot)}
        parents = pikepdf.NumberTree(pdf.Root.StructTreeRoot.ParentTree)
        artifacts = 0
        for page in pdf.pages:
            for element in parents[int(page.StructParents)]:
                assert element is None or element.objgen in reachable
            artifacts += sum(
                1
                for operands, operator in pikepdf.parse_content_stream(page, "BDC")
                if operands[0] == "/Artifact"
            )
        assert artifacts >= len(pdf.pages) - 1  # a number on every page but the cover


def test_a_booklet_renders_the_same_bytes_twice(write_campaign: WriteCampaign) -> None:
    folder = _booklet(write_campaign)
    assert _render(folder).pdf == _render(folder).pdf


# --------------------------------------------------------------------------------------------
# a rule we cannot mend


def test_a_picture_without_a_description_is_not_claimed_as_pdf_ua(
    write_campaign: WriteCampaign,
) -> None:
    rendered = _render(_booklet(write_campaign, CHAPTER.replace("A lantern on a weir", "")))
    with _open(rendered) as pdf:
        assert _claims(pdf)["pdfuaid:part"] == ""
        assert _claims(pdf)["dc:title"] == "Test Book"  # the rest of the metadata stays
    # Said once, in our words: not WeasyPrint's, which quote the picture's data: URL.
    assert rendered.warnings == [
        "not marked as accessible (PDF/UA): a picture without alternative text"
    ]


def test_check_names_the_line_of_a_picture_without_a_description(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    _booklet(write_campaign, CHAPTER.replace("A lantern on a weir", ""))
    result = cli("check", "campaign")
    assert result.exit_code == 0
    line = 1 + CHAPTER.splitlines().index("![A lantern on a weir](lantern.png)")
    assert (
        f"campaign/one.md:{line}: warning: the picture lantern.png has no description; write"
        " one between the brackets, ![like this](picture.png)" in result.stderr
    )


# --------------------------------------------------------------------------------------------
# independent checkers


def _checker_errors(path: Path) -> dict[str, list[str]]:
    """Each checker's errors, as rule ids, and the pdfua rules that could not run."""
    found = outloud.check(str(path))
    assert found.error is None
    report = pdfua.validate(str(path))
    return {
        "outloud": [f.rule for f in found.findings if f.severity == "error"],
        "pdfua": [f.rule_id for f in report.findings if f.severity == pdfua.Severity.ERROR],
    }


def test_the_checkers_find_no_error_in_the_example(example: Path) -> None:
    assert _checker_errors(example) == {"outloud": [], "pdfua": []}


def test_the_checkers_catch_what_the_tagging_mends(
    write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same booklet as WeasyPrint tags it alone: a link's bold words hold their own
    annotation outside a Link, which outloud reports."""
    folder = _booklet(write_campaign)
    mended = tmp_path / "mended.pdf"
    mended.write_bytes(_render(folder).pdf)
    monkeypatch.setattr(engine, "conform", lambda pdf, warnings: pdf)
    raw = tmp_path / "raw.pdf"
    raw.write_bytes(_render(folder).pdf)
    assert "LNK-001" in _checker_errors(raw)["outloud"]
    assert _checker_errors(mended) == {"outloud": [], "pdfua": []}
