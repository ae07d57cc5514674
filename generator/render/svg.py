"""How much an SVG asks the renderer to draw, judged before WeasyPrint sees it.

A few kilobytes of SVG can ask for billions of shapes: ten levels of ten ``<use>`` of the
level below is 10^10, and WeasyPrint draws every one (a 169 s render that only the job's
time limit stopped). So each SVG is parsed here first, with entity declarations refused
(``defusedxml``: the stdlib parser would expand them), and its size counted the way a
renderer meets it: every element, plus the whole subtree that each ``<use>``, ``href`` or
``url(#id)`` brings in, each time it is brought in, a marker once per vertex of the shape
that carries it, and an ``<image>`` that is itself an SVG at that SVG's own size. Past
``MAX_SVG_ELEMENTS`` the picture is refused. The count errs on the high side (a gradient's
stops count wherever a style sheet could apply it), and a real drawing is far below the cap.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from urllib.parse import urljoin
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

# A detailed map or a page of icons is a few thousand elements; 100,000 drawn in WeasyPrint
# take a few seconds. Ten levels of ten <use> is 10^10.
MAX_SVG_ELEMENTS = 100_000
MAX_SVG_NESTING = 8  # SVG pictures inside SVG pictures, each an <image> of the one below

SVG_NS = "{http://www.w3.org/2000/svg}"
_HREFS = ("{http://www.w3.org/1999/xlink}href", "href")
_URL_REF = re.compile(r"""url\(\s*['"]?\s*#([^)'"\s]+)""")
_DECLARATION = re.compile(r"([A-Za-z-]+)\s*:\s*([^;{}]*)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
# What ``url(#id)`` can bring in: paint servers, markers, clips, masks and filters (a
# ``url(#id)`` naming anything else draws nothing).
_REFERABLE = frozenset(
    {"linearGradient", "radialGradient", "pattern", "marker", "clipPath", "mask", "filter"}
)

# Drawn only where something refers to them: their subtrees count there, not in place.
_DRAWN_BY_REFERENCE = _REFERABLE | {"symbol"}

ImageCost = Callable[[str], int]  # an <image>'s href -> how much drawing it once costs


class SvgProblem(ValueError):
    """An SVG the renderer will not be given; the message is ready for the user."""


class NestedTooDeep(SvgProblem):
    """SVG pictures shown inside SVG pictures more than MAX_SVG_NESTING deep (or in a loop)."""


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def parse_svg(body: bytes, shown: str) -> Element | None:
    """The document element of ``body`` if it is XML (WeasyPrint draws any XML given as an
    image as SVG), else None. Raises SvgProblem for entity declarations or more elements
    than MAX_SVG_ELEMENTS, stopping as soon as the count is passed."""
    count = 0
    root: Element | None = None
    try:
        for _, element in iterparse(io.BytesIO(body), events=("start",)):
            if root is None:
                root = element
            count += 1
            if count > MAX_SVG_ELEMENTS:
                raise SvgProblem(_too_big(shown))
    except SvgProblem:
        raise
    except DefusedXmlException:
        raise SvgProblem(
            f"{shown} is an SVG that declares XML entities (<!ENTITY ...>), which can make it"
            " grow without end; save it again as plain SVG"
        ) from None
    except (ParseError, ValueError, UnicodeError):
        return None  # not XML (a stylesheet, a font, a raster): nor to WeasyPrint
    return root


def check_svg(body: bytes, shown: str, image_cost: ImageCost | None = None) -> int:
    """How many elements drawing ``body`` once costs (1 for bytes that are not XML).
    Raises SvgProblem past MAX_SVG_ELEMENTS."""
    root = parse_svg(body, shown)
    if root is None:
        return 1
    return drawn_elements(root, shown, image_cost)


class NestedPictures:
    """What drawing each SVG picture that an SVG shows (``<image href=...>``) costs, read
    through ``load`` (a URL -> its bytes and its name for messages; ValueError or OSError
    for a URL it will not serve) and counted once a URL. A picture that cannot be loaded or
    counted costs 1 here: it is refused by its own name when the renderer asks for it."""

    def __init__(self, load: Callable[[str], tuple[bytes, str]]) -> None:
        self._load = load
        self._known: dict[str, int] = {}

    def costs(self, base: str, depth: int = 1) -> ImageCost:
        """The ``image_cost`` for the SVG at URL ``base``, ``depth`` SVGs deep."""

        def cost(href: str) -> int:
            url = urljoin(base, href)
            if url in self._known:
                return self._known[url]
            if depth > MAX_SVG_NESTING:
                raise NestedTooDeep(
                    f"{href} is an SVG picture shown inside SVG pictures more than"
                    f" {MAX_SVG_NESTING} deep (or inside itself)"
                )
            try:
                body, shown = self._load(url)
                found = check_svg(body, shown, self.costs(url, depth + 1))
            except NestedTooDeep:
                raise
            except (ValueError, OSError):  # SvgProblem and the loader's refusals
                found = 1
            self._known[url] = found
            return found

        return cost


def tame_inline_svgs(root: Element) -> list[str]:
    """Empty every ``<svg>`` written inline in an HTML page that would draw more than
    MAX_SVG_ELEMENTS elements, so the renderer draws nothing for it; one message for each."""
    refused = []
    for number, svg in enumerate(_outermost_svgs(root), start=1):
        shown = f"the page's inline <svg> number {number}"
        try:
            drawn_elements(svg, shown)
        except SvgProblem as err:
            refused.append(str(err))
            svg.clear()
    return refused


def _outermost_svgs(root: Element) -> Iterator[Element]:
    stack = [root]
    while stack:
        element = stack.pop()
        if element.tag == SVG_NS + "svg":
            yield element
        else:
            stack.extend(reversed(list(element)))


def _too_big(shown: str) -> str:
    return (
        f"{shown} is an SVG that draws more than {MAX_SVG_ELEMENTS:,} shapes once its <use>"
        " and nested pictures are counted (an SVG bomb?)"
    )


def _vertices(element: Element) -> int:
    """How many points a marker could be drawn at: no more than the numbers in the shape."""
    numbers = sum(len(_NUMBER.findall(element.get(name) or "")) for name in ("d", "points"))
    return max(2, numbers)


def _url_refs(declarations: Iterable[tuple[str, str]]) -> list[tuple[str, bool]]:
    """(id, is it a marker) for each ``url(#id)`` in ``(property, value)`` pairs."""
    return [
        (target, name.strip().lower().startswith("marker"))
        for name, value in declarations
        for target in _URL_REF.findall(value)
    ]


def drawn_elements(root: Element, shown: str, image_cost: ImageCost | None = None) -> int:
    """The number of elements a renderer draws for the SVG ``root``, every reference
    expanded each time it is made. Raises SvgProblem past MAX_SVG_ELEMENTS (as soon as it is
    known) and for a reference that leads back to itself."""
    ids: dict[str, Element] = {}
    sheet: list[tuple[str, str]] = []
    for element in root.iter():
        if (name := element.get("id")) is not None:
            ids.setdefault(name, element)
        if _local(element.tag) == "style":
            sheet += _DECLARATION.findall("".join(element.itertext()))

    def targets(refs: list[tuple[str, bool]]) -> list[tuple[Element, bool]]:
        return [
            (ids[name], marker)
            for name, marker in refs
            if name in ids and _local(ids[name].tag) in _REFERABLE
        ]

    # A style sheet's rule may match any element: count what it names on every element,
    # except inside what it names (a gradient's stops are not painted with the gradient).
    sheet_targets = targets(_url_refs(sheet))
    painted_inside = {id(e) for target, _ in sheet_targets for e in target.iter()}

    def references(element: Element) -> list[tuple[Element, int]]:
        found: list[tuple[Element, int]] = []
        href = next((v for k in _HREFS if (v := element.get(k)) is not None), None)
        if href is not None and "#" in href and _local(element.tag) != "image":
            target = ids.get(href.split("#", 1)[1])
            if target is not None:
                found.append((target, 1))
        declared = [(k, v) for k, v in element.attrib.items() if k != "style"]
        declared += _DECLARATION.findall(element.get("style") or "")
        named = targets(_url_refs(declared))
        if id(element) not in painted_inside:
            named += sheet_targets
        found += [(target, _vertices(element) if marker else 1) for target, marker in named]
        return found

    def own_cost(element: Element) -> int:
        """An ``<image>`` costs what drawing the picture it shows costs."""
        if _local(element.tag) != "image" or image_cost is None:
            return 1
        href = next((v for k in _HREFS if (v := element.get(k)) is not None), None)
        return 1 if not href or href.startswith("#") else max(1, image_cost(href))

    cost: dict[int, int] = {}
    refs: dict[int, list[tuple[Element, int]]] = {}
    open_: set[int] = set()  # begun and not finished: the path from the root to here
    stack: list[tuple[Element, bool]] = [(root, False)]
    while stack:
        element, finishing = stack.pop()
        key = id(element)
        if finishing:
            open_.discard(key)
            total = own_cost(element) + sum(
                cost[id(child)]
                for child in element
                if _local(element.tag) != "defs" and _local(child.tag) not in _DRAWN_BY_REFERENCE
            )
            total += sum(cost[id(target)] * times for target, times in refs[key])
            if total > MAX_SVG_ELEMENTS:
                raise SvgProblem(_too_big(shown))
            cost[key] = total
            continue
        if key in cost:
            continue
        open_.add(key)
        refs[key] = references(element)
        stack.append((element, True))
        for needed in [*element, *(target for target, _ in refs[key])]:
            if id(needed) in open_:
                raise SvgProblem(f"{shown} is an SVG whose <use> or url(#...) leads back to itself")
            if id(needed) not in cost:
                stack.append((needed, False))
    return cost[id(root)]


__all__ = [
    "MAX_SVG_ELEMENTS",
    "MAX_SVG_NESTING",
    "NestedPictures",
    "NestedTooDeep",
    "SvgProblem",
    "check_svg",
    "drawn_elements",
    "parse_svg",
    "tame_inline_svgs",
]
