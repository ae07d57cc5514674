"""Walking WeasyPrint's laid-out box tree, shared by the layout checks and the merged split."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def walk(box: Any, skip: Any = None) -> Iterator[Any]:
    """``box`` and every box inside it, in document order, leaving out the subtree of
    ``skip``. A stack, not nested generators: a 270-card batch has some 30,000 boxes and
    the lint walks each several times, so the per-level cost of nesting added up."""
    stack = [box]
    while stack:
        current = stack.pop()
        if current is skip:
            continue
        yield current
        children = getattr(current, "children", None)
        if children:
            stack.extend(reversed(children))
