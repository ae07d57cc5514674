"""The one module that reads WeasyPrint's private layout tree. Written against WeasyPrint 70.0.

WeasyPrint's public API ends at the document: ``HTML(...).render()``, ``Document.pages``,
``Document.copy``, ``Document.metadata``, ``Page.width``, ``Page.height``, ``Page.links``
and ``write_pdf``; render/engine.py and render/fetcher.py use only those (and the
documented ``URLFetcher``). The layout checks (render/lint.py) and the split of a merged
render (render/merged.py) need more: the boxes a page was laid out as, where each sits,
which element made it and its computed style. None of that is public, and any release may
change it, so every such read is a function here, and ``tests/render/test_weasy.py``
renders tiny documents and checks each one. After a WeasyPrint upgrade, run that test
first: a failure there names the fact below that no longer holds. pyproject.toml bounds
WeasyPrint to the major version these were checked on.

Lengths are WeasyPrint's layout unit, the CSS px (1/96 in), from the page's top-left corner.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

WRITTEN_AGAINST = "70.0"

# Box classes, by name: comparing names needs no import from WeasyPrint's private modules
# (``weasyprint.formatting_structure.boxes``), and none of these has a subclass there.
_LINE = "LineBox"
_TEXT = "TextBox"
_REPLACED = frozenset({"InlineReplacedBox", "BlockReplacedBox"})  # images, SVG, objects


def page_box(page: Any) -> Any:
    """The root of a page's laid-out box tree (``Page._page_box``)."""
    return page._page_box


def children(box: Any) -> list[Any]:
    """The boxes directly inside ``box``; none for a text run."""
    return getattr(box, "children", None) or []


def walk(box: Any, skip: Any = None) -> Iterator[Any]:
    """``box`` and every box inside it, in document order, leaving out the subtree of
    ``skip``. It goes through absolutely placed boxes (WeasyPrint keeps a stand-in,
    ``AbsolutePlaceholder``, that lends the box's attributes), so a card placed with
    ``position: absolute`` is reached with everything in it.

    A stack, not nested generators: a 270-card batch has some 30,000 boxes and the lint
    walks each several times, so the per-level cost of nesting added up."""
    stack = [box]
    while stack:
        current = stack.pop()
        if current is skip:
            continue
        yield current
        inside = getattr(current, "children", None)
        if inside:
            stack.extend(reversed(inside))


def descendants(box: Any) -> Iterator[Any]:
    """``box`` and the boxes inside it as WeasyPrint's own ``Box.descendants()`` lists
    them: in document order, yielding an absolutely placed box's stand-in but not what is
    inside it. The frame lint has always walked this way; see :func:`walk` for the walk
    that goes through."""
    yield from box.descendants()


def is_line(box: Any) -> bool:
    """A line of an inline formatting context: its children are the runs set on it."""
    return type(box).__name__ == _LINE


def is_text(box: Any) -> bool:
    """A run of glyphs set in one style (:func:`text` is its characters)."""
    return type(box).__name__ == _TEXT


def is_replaced(box: Any) -> bool:
    """An image or other replaced element, inline or block."""
    return type(box).__name__ in _REPLACED


def element(box: Any) -> Any:
    """The HTML element ``box`` was made for (an ElementTree element: ``.tag``,
    ``.get(name)``); the lines and anonymous boxes WeasyPrint makes inside an element carry
    that element too. None for the page's own boxes (the page, its margin boxes)."""
    return getattr(box, "element", None)


def element_tag(box: Any) -> str:
    """The element's tag as WeasyPrint names the box: ``"p"``, or ``"p::before"`` for the
    box of a pseudo-element."""
    return str(box.element_tag)


def style(box: Any, name: str) -> Any:
    """A computed style value (``"overflow"``, ``"text_overflow"``: CSS names with
    underscores), or None for a box that carries no style."""
    computed = getattr(box, "style", None)
    return None if computed is None else computed[name]


def text(box: Any) -> str:
    """The characters of a text run; empty for any other box."""
    return str(getattr(box, "text", ""))


def position(box: Any) -> tuple[float, float]:
    """The top-left corner of ``box``'s margin box."""
    return box.position_x, box.position_y


def size(box: Any) -> tuple[float, float]:
    """Width and height of ``box``'s content box (a line's: the line's own)."""
    return box.width, box.height


def border_box(box: Any) -> tuple[float, float, float, float]:
    """x, y, width and height of ``box``'s border box."""
    return box.border_box_x(), box.border_box_y(), box.border_width(), box.border_height()


def padding_box(box: Any) -> tuple[float, float, float, float]:
    """x, y, width and height of ``box``'s padding box."""
    return box.padding_box_x(), box.padding_box_y(), box.padding_width(), box.padding_height()


def content_x(box: Any) -> float | None:
    """The left edge of ``box``'s content box, or None for what is not a laid-out box."""
    if not hasattr(box, "content_box_x"):
        return None
    return float(box.content_box_x())


def document_of(document: Any, pages: list[Any], title: str) -> Any:
    """A document of some of ``document``'s pages under its own title, written by
    WeasyPrint itself, so it keeps its own bookmarks and fonts. The metadata is copied:
    the pages of one render share the original's, and each part's title is its own."""
    own = document.copy(pages)
    own.metadata = copy.copy(document.metadata)
    own.metadata.title = title
    return own
