"""The community play kit (``--only kit``): what a Resilience table puts in the middle.

One PDF per community, ``kit-<name>.pdf``, the way The Quiet Year and the Mutant: Year
Zero Ark ship theirs:

1. the map sheet: a dotted field to draw the valley on, a legend of the symbols, and a
   panel of abundances, scarcities and names (the community's own first, then lines);
2. the year track: the three E's from 0 to 31 and the years with what each adds to every
   attack, plus counters to cut out;
3. two session cards, the year loop in order;
4. one card per project in progress (the community's planned projects, then blanks);
5. faction cards, the recurring powers, with what later cards remember of them;
6. project cards: every project idea by size, with its large variant and failure line.

Cards are drawn at their cut size on a grid with crop marks outside it; every position is
worked out here as a CSS length, and every sentence is worded here: the template lays out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..content.loader import resilience_content
from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions, CommunityDef, ProjectLog
from ..definitions.resilience_models import (
    DEFENSES,
    Event,
    Faction,
    Mark,
    ProjectIdea,
    marks_left,
)
from ..render.names import unique_stems
from ..rules.community import escalation, plan_project, project_difficulty
from ..statblocks import Block, Computed
from ..typesetting.paper import page_area_mm
from ..wording import N_, _, ngettext
from . import terms
from .base import Document, page_context
from .common import signed
from .community import CHANGE, changes_words, current_defenses, project_sizes
from .resilience_text import history_marks

MINUS = "\u2212"
KIND = "kit"
TEMPLATE = "kit/kit.html"
PAGE_MARGIN_MM = 10.0

TRACK_TOP = 31  # two rows of 16: 0-15 and 16-31; 15 opens the goal zone
TRACK_ROW = 16
YEARS = 12  # the year track (as wide as the defense tracks); a longer campaign laps it
PANEL_LINES = 9  # ruled lines under each of abundances, scarcities and names

# Cut sizes, in mm: poker cards for projects, larger cards for factions (their text is
# a page's worth), half a page for the session card.
POKER = (63.0, 88.0)
FACTION = (88.0, 120.0)
HEADING_MM = 4.5  # a card page's heading line, above the grid's crop marks
CROP_MM = 4.0  # crop mark length
CROP_GAP_MM = 1.5  # between the trim and the mark

# The symbols of the map's legend: an id in the template's SVG sprite and its meaning.
LEGEND = (
    ("home", N_("Homes and the hall")),
    ("field", N_("Fields and orchards")),
    ("water", N_("Water: well, river, pond")),
    ("workshop", N_("Workshop, mill, machine")),
    ("road", N_("Road or track")),
    ("ruin", N_("Ruin, salvage")),
    ("project", N_("Project under way (its number)")),
    ("faction", N_("Faction's ground")),
    ("danger", N_("Danger, what the year struck")),
)

# The year loop, in the order it is played (our words for Resilience's "one year").
SESSION_STEPS = (
    (
        N_("Event"),
        N_(
            "Draw a card not yet in the history. Read the story; its temporary modifier"
            " lasts to the year's end. A pennant by its kind: read the line the history's"
            " marks call up (the marks page)."
        ),
    ),
    (N_("Challenge"), N_("One PC rolls d20 + the named ability against the difficulty.")),
    (
        N_("Council"),
        N_(
            "Each player speaks once, then all vote. A tie goes to the player whose career"
            " favors the attacked defense, else to whoever rolled the challenge. Apply the"
            " answer; write down the mark it leaves (a pennant on its card)."
        ),
    ),
    (
        N_("Attack"),
        N_(
            "The GM rolls d20 + the card's attack bonus + the year's, against the defense."
            " Equal or higher: it loses the damage. At 0 the community has fallen."
        ),
    ),
    (
        N_("Encounter"),
        N_("Play it out; the opponents' page says what they want and when they break off."),
    ),
    (
        N_("Development"),
        N_(
            "After a won encounter, +1 CP to every PC who fought and +1 more to the one who"
            " ended it. The fallen are replaced at 10 CP."
        ),
    ),
    (
        N_("Projects"),
        N_(
            "Players take turns. Difficulty 7 + 2 × levels developed − 5 × levels"
            " sacrificed; the sacrifice is paid even on a failed roll."
        ),
    ),
    (
        N_("Evaluation"),
        N_(
            "Half the projects or more came off: +1 to the two weakest defenses (or +2 to"
            " one). Otherwise +1 to the weakest."
        ),
    ),
    (
        N_("Year's end"),
        N_(
            "15 or more in all three: the community stands. Move the year counter; write"
            " the event, the answer and its mark in the history."
        ),
    ),
)


@dataclass(frozen=True)
class Sheet:
    """A page of cards: each card's box and the crop marks around the grid, in mm."""

    cards: list[dict[str, Any]]
    crops: list[dict[str, str]]


def _card_pages(
    cards: Sequence[dict[str, Any]], size: tuple[float, float], area: tuple[float, float]
) -> list[Sheet]:
    """Cards on pages in a grid centred in the page's content ``area`` (below its heading
    line), abutting so one cut separates two cards. Crop marks sit outside the grid on
    every cut line; where the grid nearly fills the area they reach into the page margin,
    never past the 6 mm printers leave bare."""
    width, height = size
    cols = max(1, int(area[0] // width))
    rows = max(1, int((area[1] - 2 * (CROP_GAP_MM + CROP_MM)) // height))
    per_page = cols * rows
    left = (area[0] - cols * width) / 2
    # Centred on the page, but low enough that the top crop marks clear the heading.
    top = max((area[1] - rows * height) / 2, HEADING_MM + CROP_GAP_MM + CROP_MM)
    crops = []
    for c in range(cols + 1):
        x = left + c * width
        for y in (top - CROP_GAP_MM - CROP_MM, top + rows * height + CROP_GAP_MM):
            crops.append({"left": _mm(x), "top": _mm(y), "width": "0", "height": _mm(CROP_MM)})
    for r in range(rows + 1):
        y = top + r * height
        for x in (left - CROP_GAP_MM - CROP_MM, left + cols * width + CROP_GAP_MM):
            crops.append({"left": _mm(x), "top": _mm(y), "width": _mm(CROP_MM), "height": "0"})
    sheets = []
    for start in range(0, len(cards), per_page):
        placed = []
        for i, card in enumerate(cards[start : start + per_page]):
            col, row = i % cols, i // cols
            placed.append(
                {
                    **card,
                    "left": _mm(left + col * width),
                    "top": _mm(top + row * height),
                    "width": _mm(width),
                    "height": _mm(height),
                }
            )
        sheets.append(Sheet(placed, crops))
    return sheets


def _mm(value: float) -> str:
    return f"{value:.2f}mm"


def per_page(size: tuple[float, float], area: tuple[float, float]) -> int:
    """How many cards of ``size`` one page of the kit holds."""
    return len(_card_pages([{}] * 99, size, area)[0].cards)


def areas(paper: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """The content area of an upright page and of a turned (landscape) one, in mm."""
    width, height = page_area_mm(paper, PAGE_MARGIN_MM)
    return (width, height), (height, width)


# ------------------------------------------------------------------------- wording helpers


def _levels(changes: Mapping[str, int], sign: str) -> list[dict[str, Any]]:
    """One entry per defense changed: its words and a box per level, to tick as it moves."""
    return [
        {
            "defense": terms.defense(d),
            "key": d,
            "text": _(CHANGE[sign]) % {"levels": changes[d], "defense": terms.defense(d)},
            "boxes": list(range(changes[d])),
        }
        for d in DEFENSES
        if changes.get(d)
    ]


def _in_order(changes: Mapping[Any, int]) -> dict[str, int]:
    return {d: changes[d] for d in DEFENSES if changes.get(d)}


def _price(develops: Mapping[Any, int], sacrifices: Mapping[Any, int]) -> dict[str, Any]:
    difficulty = project_difficulty(sum(develops.values()), sum(sacrifices.values()))
    return {
        "develops": changes_words(_in_order(develops), "+"),
        "sacrifices": changes_words(_in_order(sacrifices), MINUS),
        "difficulty": str(difficulty),
        "automatic": difficulty <= 1,
        "main": max(develops, key=lambda d: develops[d]),
    }


# ---------------------------------------------------------------------------- the pages


def _map_view(definition: CommunityDef) -> dict[str, Any]:
    panels = []
    for title, items in (
        (_("Abundances"), definition.abundances),
        (_("Scarcities"), definition.scarcities),
        (_("Names"), definition.names),
    ):
        panels.append(
            {
                "title": title,
                "entries": list(items),
                "blank": list(range(max(2, PANEL_LINES - len(items)))),
            }
        )
    return {
        "hint": _(
            "Draw the valley as the table tells it: the hall first, then what each year"
            " adds, breaks or uncovers. Number the projects as they start."
        ),
        "legend": [{"symbol": symbol, "label": _(label)} for symbol, label in LEGEND],
        "panels": panels,
    }


def _track_view(definition: CommunityDef, history_marks: Sequence[Mark]) -> dict[str, Any]:
    now = current_defenses(definition)
    tracks = []
    for d in DEFENSES:
        rows = []
        for start in range(0, TRACK_TOP + 1, TRACK_ROW):
            rows.append(
                [
                    {"n": str(n), "zero": n == 0, "goal": n >= 15, "current": n == now[d]}
                    for n in range(start, min(start + TRACK_ROW, TRACK_TOP + 1))
                ]
            )
        tracks.append({"title": terms.defense_title(d), "key": d, "rows": rows, "now": str(now[d])})
    played = max((h.year for h in definition.history), default=0)
    years = []
    for year in range(1, YEARS + 1):
        harder = escalation(year)
        years.append(
            {
                "n": str(year),
                "played": year <= played,
                "next": year == played + 1,
                "adds": _("attack +%(bonus)s") % {"bonus": harder.attack_bonus}
                if harder.attack_bonus
                else _("as printed"),
                "damage": _("damage +%(damage)s") % {"damage": harder.damage}
                if harder.damage
                else "",
            }
        )
    counters = [
        {"label": terms.defense_short(d), "key": d, "kind": "defense"}
        for d in DEFENSES
        for _i in (1, 2)
    ]
    counters += [{"label": _("Year"), "key": "year", "kind": "year"} for _i in (1, 2)]
    counters += [{"label": str(n), "key": "project", "kind": "project"} for n in range(1, 9)]
    return {
        "note": _(
            "A counter on each track shows where each defense stands; 0 is the fall, 15 or"
            " more in all three the community's success. The year counter shows what the"
            " year adds to every card's attack."
        ),
        "counters_note": _("Cut them out; glue them to card for weight."),
        "tracks": tracks,
        "years": years,
        "counters": counters,
        "marks": [m.name for m in history_marks],
        "marks_blank": list(range(max(3, 8 - len(history_marks)))),
    }


SESSION_SPLIT = 5  # steps in the card's left column; the right one ends with the sizes


def _session_view() -> list[list[dict[str, str]]]:
    """The year's steps in two columns, read down the left one first."""
    steps = [
        {"n": str(i), "title": _(title), "text": _(text)}
        for i, (title, text) in enumerate(SESSION_STEPS, start=1)
    ]
    return [steps[:SESSION_SPLIT], steps[SESSION_SPLIT:]]


def _in_progress(log: ProjectLog, players: int | None) -> dict[str, Any]:
    develops = {str(d): v for d, v in log.develop.items()}
    sacrifices = {str(d): v for d, v in log.sacrifice.items()}
    price = _price(develops, sacrifices)
    size = ""
    if players is not None:
        plan = plan_project(players, develops, sacrifices)
        size = terms.project_size(plan.size.size)
    return {
        "blank": False,
        "name": log.name,
        "player": log.player,
        "year": _("Year %(year)s") % {"year": log.year},
        "size": size,
        "develops": _levels(develops, "+"),
        "sacrifices": _levels(sacrifices, MINUS),
        "difficulty": price["difficulty"],
        "automatic": _("automatic") if price["automatic"] else "",
        "modifier": f"{log.modifier:+d}" if log.modifier else "",
        "main": price["main"],
    }


def _project_card(idea: ProjectIdea) -> dict[str, Any]:
    price = _price(dict(idea.develops), dict(idea.sacrifices))
    large = None
    if idea.large is not None:
        large = {
            **_price(dict(idea.large.develops), dict(idea.large.sacrifices)),
            "summary": idea.large.summary,
        }
    return {
        "name": idea.name,
        "size": terms.project_size(idea.size),
        "size_key": idea.size,
        "levels": ngettext("%(num)s level", "%(num)s levels", idea.developed_total)
        % {"num": idea.developed_total},
        "theme": idea.theme,
        "summary": idea.summary,
        "failure": idea.failure or "",
        "large": large,
        **price,
    }


SIZE_ORDER = {"small": 0, "medium": 1, "large": 2}


def _faction_card(
    faction: Faction, events: Mapping[str, Event], left_by: Mapping[str, tuple[Mark, Event]]
) -> dict[str, Any]:
    appears = [events[e] for e in faction.appears_in if e in events]
    # What later cards read of this faction: the marks its own events leave or remember.
    marks: dict[str, str] = {}
    for event in appears:
        for choice in event.decision.choices:
            if choice.leaves is not None:
                marks[choice.leaves.id] = _("%(mark)s: left by “%(choice)s” (%(event)s)") % {
                    "mark": choice.leaves.name,
                    "choice": choice.choice,
                    "event": event.title,
                }
        for memory in event.remembers:
            if memory.mark in left_by and memory.mark not in marks:
                mark, _event = left_by[memory.mark]
                marks[memory.mark] = _("%(mark)s: read by %(event)s") % {
                    "mark": mark.name,
                    "event": event.title,
                }
    return {
        "name": faction.name,
        "kind": faction.kind,
        "want": faction.want,
        "strength": faction.strength,
        "weakness": faction.weakness,
        "dealing": faction.dealing,
        "events": ", ".join(e.title for e in appears),
        "marks": list(marks.values()),
    }


def _marks_view(events: Sequence[Event], held: Mapping[str, Mark]) -> list[dict[str, Any]]:
    """Every mark the deck can leave: the answer that leaves it and the later cards that
    read it, with what changes; the ones already in the history are flagged."""
    rows = []
    for mark_id, (mark, source) in marks_left(events).items():
        answer = next(
            c.choice for c in source.decision.choices if c.leaves and c.leaves.id == mark_id
        )
        readings = [
            {
                "event": event.title,
                "text": memory.text,
                "attack": _("attack bonus %(bonus)s") % {"bonus": signed(memory.attack_bonus)}
                if memory.attack_bonus
                else "",
            }
            for event in events
            for memory in event.remembers
            if memory.mark == mark_id
        ]
        rows.append(
            {
                "name": mark.name,
                "held": mark_id in held,
                "left_by": _("%(event)s: “%(answer)s”") % {"event": source.title, "answer": answer},
                "readings": readings,
            }
        )
    return rows


def _blank_in_progress() -> dict[str, Any]:
    return {"blank": True, "name": ""}


def kit_view(block: Block, campaign: Campaign, options: BuildOptions) -> dict[str, Any]:
    definition: CommunityDef = block.definition
    content = resilience_content(campaign)
    upright, turned = areas(options.paper)
    events = {e.id: e for e in content.events}
    left = marks_left(content.events)
    held = history_marks(definition, content.events)
    marks = list(held.values())

    latest = max((p.year for p in definition.projects), default=0)
    planned = [
        _in_progress(p, definition.players)
        for p in definition.projects
        if p.roll is None and p.year == latest
    ]
    fill = per_page(POKER, turned)
    blanks = (-len(planned)) % fill or (fill if not planned else 0)
    progress_cards = planned + [_blank_in_progress() for _i in range(blanks)]

    ideas = sorted(content.project_ideas, key=lambda i: SIZE_ORDER[i.size])
    project_cards = [_project_card(i) for i in ideas]
    faction_cards = [_faction_card(f, events, left) for f in content.factions]

    return {
        "name": block.name,
        # A hair under the area, so a full page never spills a blank one.
        "upright_h": _mm(upright[1] - 0.5),
        "turned_h": _mm(turned[1] - 0.5),
        "progress_note": _(
            "One card per project started this year; tick a box for each level as it moves."
        ),
        "faction_note": _("The recurring powers: lay a card on the map where they hold ground."),
        "project_note": _(
            "Every project idea, small to large. The sacrifice is paid even when the roll fails."
        ),
        "map": _map_view(definition),
        "track": _track_view(definition, marks),
        "session": _session_view(),
        "sizes": project_sizes(definition.players),
        "progress_pages": _card_pages(progress_cards, POKER, turned),
        "faction_pages": _card_pages(faction_cards, FACTION, upright),
        "marks": _marks_view(content.events, held),
        "marks_note": _(
            "An answer with a pennant on its card leaves a mark in the history; a card with a"
            " pennant by its kind (above the title) reads one. When you draw it, read its line"
            " here (resilience draw and the year sheet print it for you)."
        ),
        "project_pages": _card_pages(project_cards, POKER, turned),
    }


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    blocks = computed.of_kind("community")
    stems = unique_stems([b.name for b in blocks], prefix="kit-")
    return [
        Document(
            kind=KIND,
            title=_("%(name)s — play kit") % {"name": block.name},
            stem=stems[block.name],
            template=TEMPLATE,
            context={
                "page": page_context(options),
                "title": _("%(name)s — play kit") % {"name": block.name},
                "margin": f"{PAGE_MARGIN_MM:g}mm",
                "kit": kit_view(block, campaign, options),
            },
        )
        for block in blocks
    ]
