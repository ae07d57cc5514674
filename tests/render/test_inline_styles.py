"""Inline styles become shared classes: same look, and cards share their computed styles."""

from __future__ import annotations

from typing import Any

from scratchpress.render.engine import render_pdf
from scratchpress.render.inline_styles import PREFIX, hoist_inline_styles, written_classes
from scratchpress.render.lint import PX_PER_MM
from scratchpress.resources import fonts_dir, templates_dir

HEAD = "<!DOCTYPE html><html><head><style>{css}</style></head><body>{body}</body></html>"


def _page(body: str, css: str = "") -> str:
    return HEAD.format(css=css, body=body)


def _boxes(box: Any) -> list[Any]:
    found = [box]
    for child in getattr(box, "children", []):
        found += _boxes(child)
    return found


def _boxes_of(document: Any, tag: str) -> list[Any]:
    return [
        box
        for page in document.pages
        for box in _boxes(page._page_box)
        if getattr(box, "element_tag", None) == tag and type(box).__name__ == "BlockBox"
    ]


def _render(html: str) -> Any:
    roots = [templates_dir(), fonts_dir()]
    return render_pdf(html, templates_dir(), roots, keep_document=True).document


def test_identical_styles_share_one_class_and_the_attributes_are_gone() -> None:
    html = _page(
        '<div class="turn" style="left: 0mm; top: 0mm">a</div>'
        '<div style="left: 0mm; top: 0mm">b</div>'
        '<div class="turn" style="left: 63mm; top: 0mm">c</div>'
    )
    hoisted = hoist_inline_styles(html)
    assert " style=" not in hoisted
    assert f'<div class="turn {PREFIX}0">a</div>' in hoisted
    assert f'<div class="{PREFIX}0">b</div>' in hoisted
    assert f'<div class="turn {PREFIX}1">c</div>' in hoisted
    assert hoisted.count("{ left: 0mm; top: 0mm }") == 1
    assert hoisted.count("{ left: 63mm; top: 0mm }") == 1


def test_a_hoisted_style_still_overrides_the_elements_own_rules() -> None:
    css = "body.deck .card p.story.long { margin-left: 5mm; color: red }"
    html = _page(
        '<div class="card"><p class="story long" style="margin-left: 12mm">x</p></div>', css
    )
    body = html.replace("<body>", '<body class="deck">')
    (paragraph,) = _boxes_of(_render(body), "p")
    assert round(paragraph.margin_left / PX_PER_MM, 3) == 12
    assert paragraph.style["color"][:3] == (1, 0, 0)  # the rest of the rule still applies


def test_cards_placed_alike_share_their_computed_styles() -> None:
    """WeasyPrint shares an element's computed style with every later element that has
    the same parent style and rules; an inline style used to make each card unique."""
    card = (
        '<section class="sheet" style="width: 88mm; height: 88mm">'
        '<div class="turn" style="left: 0mm; top: 0mm"><p class="story">Dust</p></div>'
        "</section>"
    )
    document = _render(_page(card * 5, "section.sheet + section.sheet { break-before: page }"))
    paragraphs = _boxes_of(document, "p")
    assert len(paragraphs) == 5
    # The first sheet matches no "sheet + sheet" rule: the other four match the same rules.
    assert all(p.style is paragraphs[1].style for p in paragraphs[2:])


def test_svg_keeps_its_own_style_attributes() -> None:
    svg = '<svg viewBox="0 0 4 4"><rect style="fill: red" width="4" height="4"/></svg>'
    html = _page(f'<span style="color: blue">{svg}</span>')
    hoisted = hoist_inline_styles(html)
    assert svg in hoisted
    assert f'<span class="{PREFIX}0">' in hoisted


def test_entities_are_decoded_and_markup_is_never_moved_into_the_stylesheet() -> None:
    html = _page(
        '<p style="font-family: &#34;Lato&#34;">a</p><p style="content: &#34;&lt;/style&gt;&#34;">b</p>'
    )
    hoisted = hoist_inline_styles(html)
    assert '{ font-family: "Lato" }' in hoisted
    assert '<p style="content: &#34;&lt;/style&gt;&#34;">b</p>' in hoisted
    assert hoisted.count("</style>") == 2


def test_a_document_without_inline_styles_is_unchanged() -> None:
    html = _page("<p>plain</p>")
    assert hoist_inline_styles(html) == html


def test_the_lint_names_a_field_by_the_templates_own_class() -> None:
    assert written_classes(f"name {PREFIX}3") == ["name"]
    assert written_classes(f"{PREFIX}3") == []
    assert written_classes(None) == []


def test_a_class_written_another_way_keeps_the_element_as_it_was() -> None:
    """A theme may write class='x' or CLASS=x: adding a second class attribute would
    lose the first, so such an element keeps its inline style."""
    for tag in ("<p class='x' style=\"color: red\">a</p>", '<p CLASS=x style="color: red">a</p>'):
        assert tag in hoist_inline_styles(_page(tag))


def test_a_broken_style_stays_on_its_own_element() -> None:
    """In a shared stylesheet an unclosed bracket, quote or comment would swallow the
    rules after it, such as every later card's position."""
    broken = [
        "width: calc(1mm + 2mm",
        "font-family: &#34;Lato",  # as a template escapes a quote
        "color: red /* note",
        "color: red } p { color: blue",
    ]
    for style in broken:
        tag = f'<p style="{style}">a</p>'
        assert tag in hoist_inline_styles(_page(tag + '<p style="left: 1mm">b</p>'))
