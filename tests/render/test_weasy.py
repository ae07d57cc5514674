"""The contract of render/weasy.py: every fact about WeasyPrint's private layout tree that
the adapter relies on, checked on tiny documents rendered by the installed WeasyPrint.

After a WeasyPrint upgrade this file is the first to say what changed: each failure names
the adapter and the fact, so the mend goes into render/weasy.py and nowhere else.
"""

from __future__ import annotations

import operator
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from scratchpress.render import engine, weasy

HERE = Path(__file__).resolve().parent
IMAGE = "data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' width='8' height='6'/>"

PAGE = f"""<!DOCTYPE html>
<html><head><title>Contract</title><style>
@page {{ size: 100mm 80mm; margin: 10mm; @top-center {{ content: "margin note" }} }}
body {{ margin: 0; font: 10pt/12pt sans-serif; }}
.frame {{ margin: 5px; border: 2px solid; padding: 3px; width: 100px; }}
.frame::before {{ content: "\\2022"; }}
.cut {{ width: 30px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
.card {{ position: absolute; left: 50px; top: 120px; width: 200px; }}
</style></head><body>
<div class="frame" data-lint-frame="notes">Lantern Weir</div>
<p class="cut">A name far too long for its box</p>
<p>Portrait <img src="{IMAGE}"></p>
<img style="display: block" src="{IMAGE}">
<div class="card" data-card="wren"><p class="inside">Wren Calloway</p></div>
</body></html>"""


def _broken(fact: str) -> str:
    return (
        f"render/weasy.py relies on {fact}, and WeasyPrint {version('weasyprint')} no longer"
        f" does that: mend the adapter (written against WeasyPrint {weasy.WRITTEN_AGAINST})"
        " and pyproject.toml's bound on weasyprint together"
    )


@pytest.fixture(scope="module")
def document() -> Any:
    return engine.weasyprint.HTML(string=PAGE).render(font_config=engine.font_config())


@pytest.fixture(scope="module")
def boxes(document: Any) -> list[Any]:
    return list(weasy.walk(weasy.page_box(document.pages[0])))


def _made_for(boxes: list[Any], css_class: str) -> Any:
    found = [
        b for b in boxes if (e := weasy.element(b)) is not None and e.get("class") == css_class
    ]
    assert found, _broken(f"a box per element, carrying that element (class {css_class!r})")
    return found[0]


def test_a_page_has_a_box_tree(document: Any) -> None:
    root = weasy.page_box(document.pages[0])
    assert type(root).__name__ == "PageBox", _broken("Page._page_box being the page's PageBox")
    assert weasy.children(root), _broken("a PageBox listing its boxes in .children")
    assert weasy.element(root) is None, _broken("the page's own box carrying no element")


def test_the_box_kinds_are_named_as_the_adapter_names_them(boxes: list[Any]) -> None:
    from weasyprint.formatting_structure import boxes as box_classes

    kinds = {type(b).__name__ for b in boxes}
    for name in ("LineBox", "TextBox", "InlineReplacedBox", "BlockReplacedBox"):
        assert name in kinds, _broken(f"laid-out boxes of class {name}")
        # The adapter compares class names: a subclass would slip past it.
        cls = getattr(box_classes, name)
        subclasses = [c.__name__ for c in vars(box_classes).values() if isinstance(c, type)]
        subclasses = [
            c for c in subclasses if c != name and issubclass(getattr(box_classes, c), cls)
        ]
        assert not subclasses, _broken(f"{name} having no subclass (found {subclasses})")
    runs = [weasy.text(b) for b in boxes if weasy.is_text(b)]
    assert "Lantern Weir" in runs, _broken("a TextBox holding its characters in .text")
    assert sum(weasy.is_replaced(b) for b in boxes) == 2, _broken(
        "an image being an InlineReplacedBox inline and a BlockReplacedBox as a block"
    )


def test_lines_and_runs_carry_their_element_and_pseudo_elements_are_named(
    boxes: list[Any],
) -> None:
    frame = _made_for(boxes, "frame")
    assert weasy.element_tag(frame) == "div", _broken("Box.element_tag naming the tag")
    inside = list(weasy.walk(frame))
    line = next(b for b in inside if weasy.is_line(b))
    assert weasy.element(line) is weasy.element(frame), _broken(
        "a LineBox carrying the element it is a line of"
    )
    assert any(weasy.element_tag(b) == "div::before" for b in inside), _broken(
        'the box of a ::before pseudo-element having element_tag "div::before"'
    )
    assert weasy.element(frame).get("data-lint-frame") == "notes"
    assert weasy.element(frame).tag == "div", _broken("Box.element being an ElementTree element")


def test_computed_styles_are_read_by_name(boxes: list[Any]) -> None:
    cut = _made_for(boxes, "cut")
    frame = _made_for(boxes, "frame")
    assert weasy.style(cut, "text_overflow") == "ellipsis", _broken(
        'Box.style["text_overflow"] giving "ellipsis"'
    )
    assert weasy.style(cut, "overflow") == "hidden", _broken('Box.style["overflow"]')
    assert weasy.style(frame, "overflow") == "visible", _broken('"visible" as the initial overflow')
    assert weasy.content_x(cut) is not None


def test_geometry_is_in_css_px_from_the_page_corner(boxes: list[Any]) -> None:
    frame = _made_for(boxes, "frame")
    margin_mm = 10
    x, y = weasy.position(frame)
    assert x == pytest.approx(margin_mm * 96 / 25.4), _broken(
        "position_x being the margin box's left edge, in CSS px from the page's left edge"
    )
    assert y == pytest.approx(margin_mm * 96 / 25.4)
    width, _ = weasy.size(frame)
    assert width == pytest.approx(100), _broken("Box.width being the content width")
    bx, by, bw, bh = weasy.border_box(frame)
    px, py, pw, ph = weasy.padding_box(frame)
    assert (bx, by, bw) == pytest.approx((x + 5, y + 5, 100 + 2 * 3 + 2 * 2)), _broken(
        "border_box_x/_y and border_width/_height"
    )
    assert (px, py, pw) == pytest.approx((bx + 2, by + 2, 100 + 2 * 3)), _broken(
        "padding_box_x/_y and padding_width/_height"
    )
    assert (bh - ph) == pytest.approx(4)
    assert weasy.content_x(frame) == pytest.approx(px + 3), _broken("content_box_x()")
    line = next(b for b in weasy.walk(frame) if weasy.is_line(b))
    line_x, line_y = weasy.position(line)
    assert (line_y, weasy.size(line)[1]) == pytest.approx((py + 3, 16)), _broken(
        "a LineBox's position_y and height being the line's (12pt line-height = 16px)"
    )
    assert line_x == pytest.approx(px + 3)


def test_the_two_walks_differ_only_at_absolutely_placed_boxes(document: Any) -> None:
    root = weasy.page_box(document.pages[0])
    walked = list(weasy.walk(root))
    listed = list(weasy.descendants(root))
    card = next(b for b in walked if (e := weasy.element(b)) is not None and e.get("data-card"))
    assert type(card).__name__ == "AbsolutePlaceholder", _broken(
        "an absolutely placed box standing in the tree as an AbsolutePlaceholder"
    )
    assert weasy.element(card).get("data-card") == "wren", _broken(
        "an AbsolutePlaceholder lending its box's attributes (element, children)"
    )
    inside = list(weasy.walk(card))[1:]
    assert [weasy.text(b) for b in inside if weasy.is_text(b)] == ["Wren Calloway"], _broken(
        "walking an AbsolutePlaceholder's .children reaching the text inside it"
    )
    # Box.descendants() yields the stand-in but not what is in it: the frame lint's walk.
    assert any(b is card for b in listed), _broken("Box.descendants() yielding the stand-in")
    assert not any(b is i for b in listed for i in inside), _broken(
        "Box.descendants() stopping at an AbsolutePlaceholder"
    )
    others = [b for b in walked if not any(b is i for i in inside)]
    assert len(others) == len(listed) and all(map(operator.is_, others, listed)), _broken(
        "Box.descendants() listing boxes in the same order as .children"
    )


def test_margin_boxes_are_in_the_tree_without_an_element(boxes: list[Any]) -> None:
    notes = [b for b in boxes if weasy.is_text(b) and weasy.text(b) == "margin note"]
    assert notes and weasy.element(notes[0]) is None, _broken(
        "a page-margin box's text carrying no element"
    )


def test_a_part_of_a_document_keeps_its_pages_and_gets_its_own_title(document: Any) -> None:
    pages = document.pages[:1]
    own = weasy.document_of(document, pages, "Wren")
    assert own.pages == pages, _broken("Document.copy(pages) keeping exactly those pages")
    assert own.metadata.title == "Wren"
    assert document.metadata.title == "Contract", _broken(
        "a copied document's metadata being its own once copied"
    )
    assert own.write_pdf().startswith(b"%PDF")


def test_weasyprint_is_bound_to_the_major_version_the_adapter_was_checked_on() -> None:
    """pyproject.toml admits only the major version the adapter was written against, and
    that is the one installed: a new major version is taken on by mending the adapter,
    raising ``WRITTEN_AGAINST`` and the bound together."""
    project = tomllib.loads((HERE.parents[1] / "pyproject.toml").read_text())
    (declared,) = [
        Requirement(r) for r in project["project"]["dependencies"] if r.startswith("weasyprint")
    ]
    major = int(weasy.WRITTEN_AGAINST.split(".")[0])
    assert declared.specifier.contains(f"{major}.0") and declared.specifier.contains(f"{major}.99")
    assert not declared.specifier.contains(f"{major + 1}.0"), (
        f"pyproject.toml admits WeasyPrint {major + 1}: bound it below the next major version"
    )
    assert not declared.specifier.contains(f"{major - 1}.99")
    assert int(version("weasyprint").split(".")[0]) == major, _broken("its major version")
