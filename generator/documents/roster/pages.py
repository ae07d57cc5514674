"""The page plan: blocks poured into two fixed-width columns a page, a block never split
and a heading never alone at a column's foot, so the page count and every page's number
are known before the renderer runs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...definitions.models import BuildOptions
from ...rules.character import CharacterStats
from ...statblocks import Computed
from .blocks import Item
from .geometry import CONT_H, SLACK, TITLE_H, Geometry, geometry
from .sections import Titled, roster_items, titled_items


@dataclass
class Page:
    """One page of two columns, or (``span`` > 1 or ``big``) the pages one oversized block
    takes when it runs full width and is allowed to break."""

    number: int
    columns: list[list[Item]]
    title: bool = False
    big: bool = False
    span: int = 1

    @property
    def npcs(self) -> int:
        return sum(1 for column in self.columns for item in column if item.kind in NPC_KINDS)


NPC_KINDS = ("npc", "big")


def paginate(items: Sequence[Item], g: Geometry, title: bool = True) -> list[Page]:
    """Fill the left column, then the right, then a new page. A heading moves on with the
    block under it; a column that opens inside a group repeats its heading ("cont.").

    A block taller than a column ("big") gets pages of its own, full width, and may break
    across them; how many is estimated from its full-width height. Only such a block can
    make the page count differ from the plan."""
    pages: list[Page] = []
    heads: dict[str, Item] = {i.group: i for i in items if i.kind == "group"}
    column: list[Item] = []
    room = 0.0
    fresh_page = True  # the next column starts a new page

    def next_number() -> int:
        return pages[-1].number + pages[-1].span if pages else 1

    def open_column() -> None:
        nonlocal column, room, fresh_page
        if fresh_page or len(pages[-1].columns) == 2:
            pages.append(Page(next_number(), [[]], title=title and not pages))
            fresh_page = False
        else:
            pages[-1].columns.append([])
        column = pages[-1].columns[-1]
        room = g.content_h - SLACK - (TITLE_H if pages[-1].title else 0.0)

    def cont(group: str) -> Item:
        head = heads[group]
        return Item("cont", CONT_H, {**head.view, "cont": True}, group)

    index = 0
    while index < len(items):
        item = items[index]
        following = items[index + 1] if index + 1 < len(items) else None
        if item.kind == "big" or (item.kind == "group" and following and following.kind == "big"):
            big = following if item.kind == "group" else item
            assert big is not None
            head = item if item.kind == "group" else cont(big.group)
            usable = g.content_h - SLACK - (TITLE_H if not pages and title else 0.0)
            span = max(1, math.ceil((head.height + big.height) / usable))
            pages.append(
                Page(next_number(), [[head, big]], title=title and not pages, big=True, span=span)
            )
            fresh_page = True
            column, room = [], 0.0
            index += 2 if item.kind == "group" else 1
            continue
        need = item.height
        if item.kind == "group" and following is not None:
            need += following.height  # never a heading alone at a column's foot
        if not pages or fresh_page or (column and need > room):
            open_column()
            if item.kind in ("npc", "stake") and item.group in heads:
                column.append(cont(item.group))
                room -= CONT_H
        column.append(item)
        room -= item.height
        index += 1
    return pages


def page_view(page: Page) -> dict[str, Any]:
    return {
        "number": page.number,
        "title": page.title,
        "big": page.big,
        "columns": [
            [{"kind": item.kind, **item.view} for item in column] for column in page.columns
        ],
    }


@dataclass(frozen=True)
class Roster:
    geometry: Geometry
    pages: list[Page]
    npcs: int
    groups: int


def _widest(computed: Sequence[Computed]) -> int:
    return max(
        (
            a.level
            for c in computed
            for b in c.blocks
            if b.kind in ("character", "minion") and isinstance(b.stats, CharacterStats)
            for a in b.stats.abilities
        ),
        default=1,
    )


def plan_roster(computed: Computed, options: BuildOptions) -> Roster:
    g = geometry(options.paper, _widest([computed]))
    return _planned(roster_items(computed, g), g)


def plan_titled(parts: Sequence[Titled], options: BuildOptions) -> Roster:
    """A roster of ready-made sections, in their order (see :class:`Titled`)."""
    g = geometry(options.paper, _widest([p.computed for p in parts]))
    return _planned(titled_items(parts, g), g)


def _planned(items: Sequence[Item], g: Geometry) -> Roster:
    pages = paginate(items, g) if items else []
    npcs = sum(1 for i in items if i.kind in NPC_KINDS)
    groups = sum(1 for i in items if i.kind == "group")
    return Roster(g, pages, npcs, groups)
