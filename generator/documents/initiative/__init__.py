"""Initiative cards: one card per initiative group and one per character, laid out n-up
(a roster NPC in a group has its row on the group's card instead).

Everything a card shows is decided in this package, including how much fits on one card:
the heights are the same millimetres the template's CSS uses (they are passed to it as
strings), so the overflow onto a "cont." card is computed, never left to the renderer to
clip. With ``--tent`` every card is a fold-over tent, twice as tall, whose back faces the
players.

The parts: this module picks the cards of a campaign and makes the document; ``metrics``
holds a card's millimetres, ``fitting`` sizes and cuts names to fit, ``wording`` shortens
rule words, ``cards`` makes the view model of one group or character card, and ``grid``
places the cards on sheets with their cut and fold marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...definitions.campaign import Campaign, gets_sheet, listed_as_npc
from ...definitions.models import BuildOptions
from ...problems import Problem
from ...render.jobs import Placement
from ...statblocks import Block, Computed, InitiativeGroup
from ...wording import N_, _
from ..base import Document, Imposed, page_context
from .cards import character_cards, group_cards
from .fitting import TYPE_FLOOR_PT, band_title, fit_text, player_title_size
from .grid import Grid, cut_marks, fold_marks, guide_lines, layout, per_sheet, plan_grid, sheet_grid
from .metrics import METRICS, css_metrics
from .wording import stats_of

# What other modules and the tests name as the printable's own.
__all__ = [
    "FILENAME",
    "METRICS",
    "SHEETS_PER_BATCH",
    "TYPE_FLOOR_PT",
    "Grid",
    "all_cards",
    "build_documents",
    "cut_marks",
    "documents",
    "fit_text",
    "fold_marks",
    "guide_lines",
    "initiative_groups",
    "per_sheet",
    "plan_grid",
    "shortened",
]


# ------------------------------------------------------------------------------------------
# The document


def initiative_groups(computed: Computed) -> list[InitiativeGroup]:
    """computed.groups, plus a group for each leader without one who has minions: a
    leader's minions act on the leader's initiative, so they need a card to be tracked."""
    groups = list(computed.groups)
    for block in computed.of_kind("character"):
        minions = computed.minions_of(block.name)
        if block.group or not minions:
            continue
        members = (block, *minions)
        levels = [stats_of(b).levels for b in members]
        bonus = computed.rules.group_initiative(levels)
        groups.append(InitiativeGroup(f"{block.name} & minions", bonus.value, bonus.rule, members))
    return groups


def on_group_card_only(block: Block) -> bool:
    """A roster NPC (under ``npcs:``, no ``sheet: true``) who rolls with a group is played
    from its row on the group's card (defenses, HP track, once-per-target boxes) and its
    roster stat block: 300 extras need 35 group cards, not 300 cards of their own to cut.
    Asked only of group members: one with no group keeps its card, or it would be on none."""
    return listed_as_npc(block.source) and not gets_sheet(block.definition, block.source)


def all_cards(computed: Computed, options: BuildOptions) -> list[dict[str, Any]]:
    """Each group's card(s) followed by its characters' cards, so the cards of one side
    come off the page together; characters without a group last. Roster NPCs in a group
    have their row on its card and no card of their own."""
    m = METRICS[options.cards]
    groups = initiative_groups(computed)
    group_of: dict[str, InitiativeGroup] = {}
    for group in groups:
        for member in group.members:
            if member.kind == "character":
                group_of.setdefault(member.name, group)
    cards: list[dict[str, Any]] = []
    done: set[str] = set()
    characters = computed.of_kind("character")
    for group in groups:
        cards += group_cards(group, computed, m)
        for block in characters:
            if group_of.get(block.name) is group and block.name not in done:
                done.add(block.name)
                if on_group_card_only(block):
                    continue
                cards += character_cards(block, group, computed, m)
    for block in characters:
        if block.name not in done:
            cards += character_cards(block, None, computed, m)
    for card in cards:
        card["band_label"] = " · ".join(filter(None, (card["label"], card["part"])))
        card["card_id"] = " ".join(filter(None, (card["title"], card["part"])))
        card["title_size"], card["band_title"] = band_title(
            card["title"], card["band_label"], m.inner_w
        )
        if card["band_title"] != card["title"] and card["label"]:
            # A long name matters more than the word "Character": give it the label's room
            # (the card's layout still says which kind it is) before cutting a letter.
            size, shown = band_title(card["title"], card["part"], m.inner_w)
            if shown == card["title"]:
                card["band_label"], card["title_size"], card["band_title"] = (
                    card["part"],
                    size,
                    shown,
                )
        card["player"]["title_size"] = player_title_size(card["title"], m.inner_w)
    return cards


FILENAME = "initiative-cards.pdf"


def shortened(cards: Sequence[dict[str, Any]]) -> list[Problem]:
    """A layout warning for every name the cards had to cut to fit (a band title, a member's
    line, the group a character rolls with): nothing the user wrote is lost in silence."""
    found: dict[tuple[str, str], Problem] = {}

    def warn(entry: str, field: str, shown: str, whole: str) -> None:
        message = (
            f"shortened to fit the initiative card: prints {shown!r}"
            f" ({len(shown.rstrip('…'))} of {len(whole)} characters)"
        )
        found.setdefault((entry, field), Problem(message, FILENAME, None, entry, field, "warning"))

    for card in cards:
        band = str(card["band_title"])
        if band.endswith("…") and band.upper() != str(card["title"]).upper():
            warn(str(card["title"]), f"{card['kind']} card title", band, str(card["title"]))
        for member in card.get("members", []):
            if member["shown"] != member["name"]:
                warn(str(member["name"]), "name on the group card", member["shown"], member["name"])
        if card["kind"] == "character" and str(card.get("group_line", "")).endswith("…"):
            warn(str(card["title"]), "group", str(card["group_line"]), str(card["group"]))
    return list(found.values())


KIND, TITLE, STEM, TEMPLATE = (
    "initiative",
    N_("Initiative cards"),  # worded where it is given
    "initiative-cards",
    "initiative/cards.html",
)
# Sheets per rendered batch: small enough that a big roster's cards spread over every core
# and finish together, large enough that a batch's fixed cost (styles, fonts) stays small.
SHEETS_PER_BATCH = 6


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """The initiative cards as one document: ``context`` is the whole layout, the reference
    for tests. What the build renders is :func:`build_documents`."""
    cards = all_cards(computed, options)
    if not cards:
        return []
    context = _context(cards, options)
    return [Document(KIND, _(TITLE), STEM, TEMPLATE, context, print_flip="one-sided")]


def build_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> list[Document]:
    """What `scratchpress build` renders: the sheets of cards in batches, on every core,
    each sheet cached on its own and put together by pikepdf. A generated roster of 300
    NPCs makes 40 sheets, which as one document kept one core busy for a minute after the
    rest of the build was done."""
    cards = all_cards(computed, options)
    if not cards:
        return []
    context = _context(cards, options)
    layout_view = context["layout"]
    grid = sheet_grid(options)

    def batch(pages: list[dict[str, Any]]) -> dict[str, Any]:
        # The template lays out `layout.pages`: a batch's layout holds its own sheets only.
        return {"layout": {**layout_view, "pages": pages}}

    imposed = Imposed(
        contexts={"sheet": {**context, "layout": {**layout_view, "pages": []}}},
        units=[("sheet", page) for page in layout_view["pages"]],
        sheets=[[Placement(index, all_pages=True)] for index in range(len(layout_view["pages"]))],
        # The sheet as the layout turned it (landscape for 8-up poker cards), not the paper
        # upright: a sheet put on an upright page would lose its right-hand cards.
        paper_mm=(grid.page_w, grid.page_h),
        batch_context=batch,
        max_batch=SHEETS_PER_BATCH,
    )
    return [
        Document(KIND, _(TITLE), STEM, TEMPLATE, context, imposed=imposed, print_flip="one-sided")
    ]


def _context(cards: list[dict[str, Any]], options: BuildOptions) -> dict[str, Any]:
    m = METRICS[options.cards]
    return {
        "title": _(TITLE),
        "page": page_context(options),
        "m": css_metrics(m),
        "size": m.size,
        "tent": options.tent,
        "layout": layout(cards, options),
        "per_sheet": per_sheet(options),
        # The build reports these with the layout lint (see build.py), --strict fails.
        "layout_problems": shortened(cards),
    }
