"""Resilience card decks: the year's events and the careers, as poker cards to cut out.

Why one module of ~550 lines: the events and the careers decks share one template, palette,
options and every page and imposition function, and what differs between them (a card
face each) is a few dozen lines.

Two kinds share this module: ``events`` (``resilience-events.pdf``) and ``careers``
(``careers.pdf``). Cards sit 8-up with gutters and cut marks (see ``cardsheet``); backs
print on their own pages mirrored for duplex, beside the fronts for fold-over sheets, or
not at all.

The view model carries every sentence already worded ("Attacks economy", "d20 + 5",
"hit: −2") and every position as a CSS length; the template only lays out.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from ..content.loader import ContentEntry, merged_entries
from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions
from ..definitions.resilience_models import (
    ABILITY_CATEGORY,
    Ability,
    Career,
    Event,
)
from ..problems import Problem
from ..render.jobs import Placement
from ..render.lint import card_collisions, card_overflows
from ..render.viewer import Flip, print_note
from ..statblocks import Computed
from ..typesetting.measure import text_width_mm
from ..typesetting.shops import SHOPS, ShopSpec
from ..wording import N_, _, current
from . import terms
from .base import Document, Imposed, page_context
from .cardsheet import (
    BLEED_MM,
    CARD_SAFE_MM,
    POKER_MM,
    Backs,
    Edge,
    Imposition,
    Rect,
    card_page,
    chunks,
    duplex_back_turn,
    duplex_backs,
    fold_sheet,
    grid,
    line_style,
    margin_note,
    mm,
    note_view,
    one_up,
    page_view,
    place,
    print_note_place,
    turn_style,
)

TEMPLATE = "deck/deck.html"
DeckKind = Literal["events", "careers"]

FILES: dict[DeckKind, tuple[str, str]] = {
    # kind: (file stem, what the build summary calls it)
    "events": ("resilience-events", N_("Resilience events")),
    "careers": ("careers", N_("Resilience careers")),
}

# What each side of a card is called on its back, so a mixed pile sorts itself.
BACK_LABEL: dict[DeckKind, str] = {"events": N_("Event"), "careers": N_("Career")}

BACKS: tuple[str, ...] = get_args(Backs)
EDGES: tuple[str, ...] = get_args(Edge)

# Bebas Neue is condensed, but a 28-letter title at full size would wrap and push every
# section below it down a line; long titles get a smaller size so positions stay put.
TITLE_SHORT = 18  # characters that fit at the full size

MINUS = "\u2212"

# One palette for CSS and the SVG icons. Colour is a bonus: ink-saver keeps only black,
# white and a grey or two, and drops every tint.
PALETTE: dict[str, str] = {
    "card": "#f6f1e4",  # off-white card stock
    "card-ink": "#221d17",  # warm black
    "card-muted": "#5b5247",
    "rust": "#9a4521",  # economy
    "olive": "#56632b",  # environment
    "slate": "#34535d",  # equity
    "def": "#9a4521",
    "band-ink": "#fbf7ee",
    "mech-bg": "#ebe2cc",
    "rule-soft": "#b9ab8f",
    "mark": "#000",
}
INK_SAVER: dict[str, str] = {
    **{name: "#000" for name in PALETTE},
    "card": "#fff",
    "card-muted": "#444",
    "mech-bg": "#fff",
    "rule-soft": "#888",
}
DEFENSE_COLOUR = {"economy": "rust", "environment": "olive", "equity": "slate"}

FOLD_NOTE = {
    False: N_(
        "Fold on the dashed line, printed sides out, so each back sits behind its front;"
        " then cut through both layers on the marks."
    ),
    True: N_(
        "Fold on the dashed line, printed sides out (the backs face the other way so they"
        " read upright when a card is turned over); then cut through both layers on the marks."
    ),
}

# The header (kicker and title) inside the safe area; the coloured band behind it runs
# from the trim (or the bleed's edge) to the header's foot.
HEAD_MM = 7.4


@dataclass(frozen=True)
class DeckOptions:
    """How a deck is imposed. The CLI flags are ``--backs``, ``--bleed`` and
    ``--duplex-edge``; ``duplex_offset_mm`` comes from the campaign's settings."""

    backs: Backs = "duplex"
    bleed: bool = False
    duplex_edge: Edge = "long"
    duplex_offset_mm: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if self.backs not in BACKS:
            raise ValueError(f"backs must be one of {', '.join(BACKS)}, not {self.backs!r}")
        if self.duplex_edge not in EDGES:
            raise ValueError(f"duplex edge must be long or short, not {self.duplex_edge!r}")


def deck_options(options: BuildOptions, campaign: Campaign | None = None) -> DeckOptions:
    """The deck settings a build asked for. BuildOptions may carry ``backs``, ``bleed`` and
    ``duplex_edge``; until it does, the defaults apply."""
    offset = (0.0, 0.0)
    if campaign is not None:
        dx, dy = campaign.settings.duplex_offset_mm
        offset = (float(dx), float(dy))
    return DeckOptions(
        backs=getattr(options, "backs", "duplex"),
        bleed=bool(getattr(options, "bleed", False)),
        duplex_edge=getattr(options, "duplex_edge", "long"),
        duplex_offset_mm=offset,
    )


# ---------------------------------------------------------------------------------------
# Card faces
# ---------------------------------------------------------------------------------------


NBSP = "\u00a0"
# "attack bonus -3", "-1 economy", "d20 + 5": a number never starts a line away from the
# words it modifies; a GM scanning a card should never read "bonus" and then "-3." alone.
_BEFORE_NUMBER = re.compile(r"(?<=\w) (?=[+-]?\d)")
_AFTER_NUMBER = re.compile(r"(?<=[+-]\d) (?=\w)|(?<=[+-]\d\d) (?=\w)")


def keep_numbers(text: str) -> str:
    """Glue signed numbers to their neighbours with no-break spaces."""
    return _AFTER_NUMBER.sub(NBSP, _BEFORE_NUMBER.sub(NBSP, text))


def _title_size(title: str) -> str:
    return "title-long" if len(title) > TITLE_SHORT else "title-short"


def _in_its_language(face: dict[str, Any], entry: ContentEntry) -> dict[str, Any]:
    """A built-in card's own words are English whatever language the labels around them
    speak: said so (``lang="en"``), they break at English hyphenation points and a screen
    reader reads them in English. A campaign's own cards speak the campaign's language."""
    english = entry.source is None and current().language != "en"
    return {**face, "content_lang": "en" if english else ""}


def event_face(event: Event) -> dict[str, Any]:
    """Everything printed on an event's front, in reading order."""
    challenge = event.challenge
    threat = terms.threat(event.threat)
    return {
        "id": event.id,
        "title": event.title,
        "title_size": _title_size(event.title),
        "threat": _("Windfall · %(threat)s") % {"threat": threat}
        if event.windfall
        else terms.capital(threat),
        "defense": event.attacks,  # css class and icon: economy, environment, equity
        "mechanic": {
            "attacks": _("Attacks %(defense)s") % {"defense": terms.defense(event.attacks)},
            "roll": _("d20 + %(bonus)s") % {"bonus": event.attack_bonus},
            "hit": _("hit: %(damage)s") % {"damage": f"{MINUS}{event.damage}"},
        },
        "story": event.story,
        "temporary": keep_numbers(event.temporary),
        "challenge": {
            "roll": _("d20 + %(ability)s") % {"ability": terms.ability(challenge.ability)},
            "difficulty": _("vs %(difficulty)s") % {"difficulty": challenge.difficulty},
            "success": keep_numbers(challenge.success),
            "failure": keep_numbers(challenge.failure),
        },
        "decision": {
            "prompt": event.decision.prompt,
            "choices": [
                {
                    "label": c.choice,
                    "consequence": keep_numbers(c.consequence),
                    "leaves": c.leaves.name if c.leaves else "",
                }
                for c in event.decision.choices
            ],
        },
        # A card that reads a mark shows a pennant; the line is on the kit's marks page,
        # in `resilience draw` and on the year sheet (no card has room for it).
        "reads_marks": bool(event.remembers),
        "encounter": event.encounter,
    }


ROLE_TEXT = {
    "attack": N_("Attack"),
    "defense": N_("Defense"),
    "support": N_("Support"),
    "strategy": N_("Strategy"),
}
# A career's combat role and its abilities' kinds, in running text (the booklet's list).
ROLE_WORDS = {
    "attack": N_("attack"),
    "defense": N_("defense"),
    "support": N_("support"),
    "strategy": N_("strategy"),
}
CATEGORY_WORDS = {
    "attack": N_("attack"),
    "defense": N_("defense"),
    "support": N_("support"),
    "other": N_("other"),
}


def either(words: Sequence[str]) -> str:
    """Alternatives as a sentence says them: "fighting or wrestling or knockout"."""
    said = words[0] if words else ""
    for word in words[1:]:
        said = _("%(one)s or %(other)s") % {"one": said, "other": word}
    return said


def _category(group: Sequence[Ability]) -> str:
    """What kind of ability a requirement line asks for: "attack", or "defense / other"."""
    return " / ".join(
        _(CATEGORY_WORDS[c]) for c in dict.fromkeys(ABILITY_CATEGORY[a] for a in group)
    )


# How wide a requirement's abilities (9 pt bold) and its kind (7 pt capitals) may run
# together and stay on one line of a poker card; a wider pair (Italian "stordimento o
# combattimento") is set a point smaller rather than take a second line.
REQUIREMENT_LINE_MM = 50.5


def _requirement(group: Sequence[Ability]) -> dict[str, Any]:
    abilities, category = either([terms.ability(a) for a in group]), _category(group)
    width = text_width_mm(abilities, "Lato-Bold.ttf", 9) + text_width_mm(
        category.upper(), "Lato-Bold.ttf", 7, 0.06
    )
    return {"abilities": abilities, "category": category, "tight": width > REQUIREMENT_LINE_MM}


def career_face(career: Career) -> dict[str, Any]:
    """A career's front: what it asks of a character and what it builds."""
    return {
        "id": career.id,
        "title": career.name,
        "title_size": _title_size(career.name),
        "role": _(ROLE_TEXT[career.combat_role]) if career.combat_role else "",
        "required": [_requirement(group) for group in career.required],
        "required_note": _("each at level 1") if len(career.required) > 1 else _("at level 1"),
        "description": career.description or "",
        "wants": career.wants or "",
        # The defense its wants serve, beside the label: what its player argues for.
        "wants_label": (
            _("Wants · %(defense)s") % {"defense": terms.defense(career.favors)}
            if career.favors
            else _("Wants")
        ),
        "project": career.project or "",
    }


# Our content printed on cards is labelled as ours, so nobody takes it for the official text.
CREDIT = N_("Unofficial · written for scratchpress")
# The deck's first card: how to play one, with the rulings the texts leave open
# (docs/definitions.md, "Judgement calls"). A table reads it once and keeps it face up.
# rules.community.escalation, in words (a test holds the two together). In English here,
# marked for the catalogue; how_to_play() words it.
_HARDER_YEARS = N_(
    "Harder each year: +1 to the bonus for every year after the first, +1 to the damage"
    " every second year (year 5: +4 and +2)."
)
HOW_TO_PLAY: dict[str, Any] = {
    "id": "how-an-event-plays",
    "rules": True,
    "title": N_("How an event plays"),
    "title_size": "title-long",
    "steps": [
        (N_("Story"), N_("Read it aloud; “This year” lasts the year.")),
        (
            N_("Challenge"),
            N_(
                "The PC best at it rolls once: d20 + level (+0 without it) vs the number."
                " A natural 20 always succeeds."
            ),
        ),
        (N_("Decide"), N_("The community takes one answer.")),
        (
            N_("Attack"),
            N_(
                "The GM rolls d20 + the bonus against the defense named: equal or higher takes"
                " the damage. “Fails automatically” means no roll, so no 20 beats it."
            ),
        ),
        (N_("Years"), _HARDER_YEARS),
        (N_("Then"), N_("Encounter, character development, projects, the GM's bonus.")),
    ],
    "words": N_(
        "“Attack bonus −2” changes the GM's roll, “damage +1” what a hit takes"
        " (never below 0); “−1 equity now” happens at once."
    ),
    "credit": N_("Events written for scratchpress, after Resilience for the Scratch RPS."),
}


def how_to_play() -> dict[str, Any]:
    """The rules card in the language the build speaks."""
    card: dict[str, Any] = dict(HOW_TO_PLAY)
    for key in ("title", "words", "credit"):
        card[key] = _(HOW_TO_PLAY[key])
    card["steps"] = [(_(label), _(text)) for label, text in HOW_TO_PLAY["steps"]]
    return card


def _faces(kind: DeckKind, entries: list[ContentEntry]) -> list[dict[str, Any]]:
    if kind == "events":
        return [how_to_play()] + [_in_its_language(event_face(e.definition), e) for e in entries]
    return [_in_its_language(career_face(e.definition), e) for e in entries]


# ---------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------


def _slot(
    rect: Rect,
    face: dict[str, Any],
    side: str,
    turn: int = 0,
    page_h: float = math.inf,
    card: tuple[float, float] = POKER_MM,
) -> dict[str, Any]:
    """A card in its slot; ``page_h`` is the height of the page the slot is on, so a card
    on its side near the page's foot is laid out upwards (see ``turn_style``)."""
    lift = rect.y + card[1] + BLEED_MM > page_h
    return {
        **place(rect),
        "face": face,
        "side": side,
        "turn": turn,
        "turned": turn_style(card, turn, lift, (rect.x, rect.y)),
    }


def imposition(paper: str, deck: DeckOptions) -> Imposition:
    if deck.backs == "fold":
        return fold_sheet(paper, POKER_MM, deck.bleed)
    return grid(paper, POKER_MM, deck.bleed)


def per_sheet(kind: DeckKind, paper: str, deck: DeckOptions) -> str:
    """The build summary's line for a deck: how many cards a sheet of paper holds and, when
    that is fewer than a plain duplex deck holds, which option costs the cards."""
    count = imposition(paper, deck).per_page
    plain = imposition(paper, DeckOptions()).per_page
    line = f"{kind}: {count} cards per sheet"
    if count >= plain:
        return line
    reasons = []
    unbled = imposition(paper, replace(deck, bleed=False)).per_page
    if unbled < plain:
        reasons.append("--backs fold puts each back beside its front")
    if deck.bleed and count < unbled:
        reasons.append(f"--bleed adds {BLEED_MM:g} mm around each card")
    return f"{line}, not {plain}, because {' and '.join(reasons)}"


def print_flip(deck: DeckOptions) -> Flip:
    """How the deck's sheets go through a home printer: duplex backs were laid out for
    ``duplex_edge``; other decks print on one side."""
    return deck.duplex_edge if deck.backs == "duplex" else "one-sided"


def deck_pages(
    faces: list[dict[str, Any]],
    back: dict[str, Any],
    paper: str,
    deck: DeckOptions,
    layout: Imposition | None = None,
) -> tuple[Imposition, list[dict[str, Any]]]:
    """Every page of a deck in print order, each with its cards, marks and fold line;
    ``layout`` when the deck is not imposed on ``paper`` (a print shop's one-up pages)."""
    layout = layout or imposition(paper, deck)
    card = (layout.card_w, layout.card_h)
    marks = [line_style(m, centred=True) for m in layout.marks]
    fold = line_style(layout.fold, centred=True) if layout.fold is not None else None
    if deck.backs == "duplex":
        backs = duplex_backs(layout, deck.duplex_edge, deck.duplex_offset_mm)
        back_turn = duplex_back_turn(layout, deck.duplex_edge)
    else:
        backs, back_turn = layout.backs, layout.back_turn
    note = margin_note(layout) if deck.backs == "fold" else None
    fold_note = {**note, "text": _(FOLD_NOTE[layout.back_rotated])} if note is not None else None
    box = print_note_place(layout)
    printing = note_view(box, print_note(print_flip(deck))) if box is not None else None
    pages: list[dict[str, Any]] = []
    for number, group in enumerate(chunks(faces, layout.per_page), start=1):
        fronts = [
            _slot(r, f, "front", layout.turn, layout.page_h, card)
            for r, f in zip(layout.fronts, group, strict=False)
        ]
        if deck.backs == "fold":
            fronts += [
                _slot(r, back, "back", back_turn, layout.page_h, card)
                for r, __ in zip(backs, group, strict=False)
            ]
            pages.append(
                {
                    "side": "fold",
                    "cards": fronts,
                    "marks": marks,
                    "fold": fold,
                    "note": fold_note,
                    "print_note": printing,
                    "sheet": number,
                }
            )
            continue
        pages.append(
            {
                "side": "front",
                "cards": fronts,
                "marks": marks,
                "fold": None,
                "note": None,
                "print_note": printing,
                "sheet": number,
            }
        )
        if deck.backs == "duplex":
            # Backs only where this sheet has a front: a short last sheet stays blank behind
            # its empty slots. No cut marks: you cut from the front.
            pages.append(
                {
                    "side": "back",
                    "cards": [
                        _slot(r, back, "back", back_turn, layout.page_h, card)
                        for r, __ in zip(backs, group, strict=False)
                    ],
                    "marks": [],
                    "fold": None,
                    "note": None,
                    "print_note": None,
                    "sheet": number,
                }
            )
    return layout, pages


def deck_document(
    kind: DeckKind,
    entries: list[ContentEntry],
    options: BuildOptions,
    deck: DeckOptions,
    shop: ShopSpec | None = None,
) -> Document:
    """The deck on home paper, or as ``shop`` takes it: one card a page at the shop's
    size and bleed, each front followed by its back, text inside the shop's safe area."""
    stem, english_title = FILES[kind]
    title = _(english_title)
    faces = _faces(kind, entries)
    palette = INK_SAVER if options.ink_saver else PALETTE
    back = {
        "label": _(BACK_LABEL[kind]),
        "kind": kind,
        "credit": _(CREDIT),
        "es": [
            {
                "name": name,
                # Capitals, the first set apart: ECONOMY with a bold E.
                "initial": terms.defense(name)[:1].upper(),
                "rest": terms.defense(name)[1:].upper(),
                "color": palette[colour],
            }
            for name, colour in DEFENSE_COLOUR.items()
        ],
    }
    layout = one_up(shop.trim_mm, shop.bleed_mm) if shop is not None else None
    layout, pages = deck_pages(faces, back, options.paper, deck, layout)
    safe = max(CARD_SAFE_MM, shop.safe_mm) if shop is not None else CARD_SAFE_MM
    context = {
        "title": title,
        "page": page_context(options),
        "sheet": {
            **page_view(layout),
            "band": mm(safe + HEAD_MM + layout.bleed),
            "head": mm(HEAD_MM),
            "safe": mm(safe),
        },
        "kind": kind,
        "palette": palette,
        "pages": pages,
        "bleed": deck.bleed,
        "backs": deck.backs,
        "count": len(faces),
        "per_sheet": per_sheet(kind, options.paper, deck),
        # A press prints no transparency (PDF/X-1a): faded and see-through parts are
        # drawn solid for a shop (templates/deck/deck.css, ``for-press``).
        "press": shop is not None,
    }
    if shop is not None:
        context["per_sheet"] = (
            f"{kind} for {shop.title}: one card a page, {shop.trim_mm[0]:g} x"
            f" {shop.trim_mm[1]:g} mm with {shop.bleed_mm:.1f} mm bleed, each front"
            " followed by its back"
        )
        return Document(
            kind=kind,
            title=_("%(deck)s for %(shop)s") % {"deck": title, "shop": shop.title},
            stem=f"{stem}-{shop.name}",
            template=TEMPLATE,
            context=context,
            imposed=card_units(layout, context) if pages else None,
            file_name=f"{shop.name}/{stem}.pdf",
            shop=shop,
        )
    return Document(
        kind=kind,
        title=title,
        stem=stem,
        template=TEMPLATE,
        context=context,
        duplex=deck.backs == "duplex",
        imposed=card_units(layout, context) if pages else None,
        print_flip=print_flip(deck),
    )


def card_units(layout: Imposition, context: dict[str, Any]) -> Imposed:
    """The deck as units to render once and cache: every distinct card face (a page the
    size of the card plus its bleed, ``card_page``) and every distinct set of sheet
    furniture (cut marks, fold line, note: a page the size of the paper), placed onto
    sheets in print order, furniture last so the marks print over the bleed.

    The pages come from ``deck_pages``, so the imposed deck puts every card exactly where
    the one-document layout in ``context`` does; the back is one unit used on every sheet.
    """
    b = layout.bleed
    slot_w, slot_h = layout.slot
    width, height = card_page(layout)
    card_sheet = {
        **context["sheet"],
        "width": mm(width),
        "height": mm(height),
        "size": f"{mm(width)} {mm(height)}",
    }
    contexts = {
        "card": {**context, "sheet": card_sheet, "pages": []},
        "sheet": {**context, "pages": []},
    }
    slot = Rect(b, b, slot_w, slot_h)
    size = (layout.card_w, layout.card_h)
    units: list[tuple[str, dict[str, Any]]] = []
    seen: dict[str, int] = {}

    def unit(group: str, page: dict[str, Any]) -> int:
        marker = json.dumps([group, page], sort_keys=True, default=str)
        if marker not in seen:
            seen[marker] = len(units)
            units.append((group, page))
        return seen[marker]

    sheets: list[list[Placement]] = []
    for page in context["pages"]:
        placements: list[Placement] = []
        for card in page["cards"]:
            alone = {
                "side": page["side"],
                "cards": [_slot(slot, card["face"], card["side"], card["turn"], card=size)],
                "marks": [],
                "fold": None,
                "note": None,
                "print_note": None,
                "sheet": 0,
            }
            placements.append(Placement(unit("card", alone), card["x_mm"] - b, card["y_mm"] - b))
        # Marks, fold and note go on last, over the cards' bleed, as in the template.
        if page["marks"] or page["fold"] or page["note"] or page["print_note"]:
            furniture = {**page, "cards": [], "sheet": 0}
            placements.append(Placement(unit("sheet", furniture), 0.0, 0.0))
        sheets.append(placements)
    return Imposed(contexts, units, sheets, (layout.page_w, layout.page_h))


def _with_shop(kind: DeckKind, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """The deck for home printing and, with ``--for SHOP``, the deck as that shop takes
    it (in a folder named after the shop)."""
    entries = merged_entries(campaign, kind)
    made = [deck_document(kind, entries, options, deck_options(options, campaign))]
    if options.print_shop is not None:
        # A shop's pages are cut one by one: no duplex shift, no home printer's settings.
        press = DeckOptions(backs="duplex", bleed=True)
        made.append(deck_document(kind, entries, options, press, SHOPS[options.print_shop]))
    return made


def event_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> list[Document]:
    """``--only events``: every built-in and campaign event, one PDF (and a shop's)."""
    return _with_shop("events", campaign, options)


def career_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> list[Document]:
    """``--only careers``: every built-in and campaign career, one PDF (and a shop's)."""
    return _with_shop("careers", campaign, options)


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """Both decks, for a registry that maps one kind to this module."""
    return event_documents(computed, campaign, options) + career_documents(
        computed, campaign, options
    )


def layout_problems(kind: DeckKind, campaign: Campaign | None, rendered: Any) -> list[Problem]:
    """The build's layout lint for a rendered deck (``rendered`` is WeasyPrint's document)."""
    return describe_layout(kind, campaign, card_overflows(rendered), card_collisions(rendered))


def describe_layout(
    kind: DeckKind,
    campaign: Campaign | None,
    overflows: list[tuple[str, float]],
    collisions: list[tuple[str, str, str]],
) -> list[Problem]:
    """One warning per card whose text runs off the card or over other text, placed at the
    campaign entry that wrote it (built-in cards are tested to fit, so they name no file).
    Takes measurements rather than the document so render workers can send them back."""
    sources = {e.id: e for e in merged_entries(campaign, kind)}
    noun = "event" if kind == "events" else "career"
    problems: list[Problem] = []

    def warn(card: str, message: str) -> None:
        entry = sources.get(card)
        source = entry.source if entry is not None else None
        definition = entry.definition if entry is not None else None
        name = str(getattr(definition, "title", None) or getattr(definition, "name", card))
        problems.append(
            Problem(
                message,
                source.file if source else "",
                source.line() if source else None,
                name,
                severity="warning",
            )
        )

    reported: set[str] = set()
    for card, over in overflows:
        warn(card, f"the {noun} card's text runs {over:g} mm past its edge; shorten it")
        reported.add(card)
    for card, first, second in collisions:
        if card not in reported:  # one warning a card: an overflow collides as well
            warn(card, f"text prints over other text on the card ({first!r} / {second!r})")
            reported.add(card)
    return problems
