"""Character sheets: one PDF per character, a front page and, for leaders, a minion back.

The front is what a player keeps in front of them at the table: name, the defenses as large
boxed numbers, the HP track, every action with its roll, abilities, movement, carrying and
the CP budget. Characters with command get a back page with their minions (and blank frames
for the minions they may still recruit), meant to be printed on the other side of the sheet.

Everything the template prints is formatted here. The template never adds, compares or
looks anything up; it only lays out strings and flags.

The front must stay one page whatever the campaign holds, so the package also estimates how
tall the variable parts will be and picks the roomiest layout that fits (layout.py): a type
scale, one or two ability columns and, only as a last resort, shortened ability notes. The
sizes it counts with are metrics.py's, which hands them to sheet.css, so each is written
once.

Nothing a player wrote is lost to that fit: whatever the front or the back had to shorten
(ability notes, descriptions, a minion's notes) is printed whole on a continuation page,
"Notes, continued", after the sheet. What is shortened with nowhere else to go (a player's
or a group's name too long for its line) is reported as a layout warning, which
``build --strict`` turns into a failure.

The parts: this module makes the documents and their context; ``metrics`` holds the
layout facts, ``text`` cuts free text, ``rows`` words abilities and actions, ``panels``
the front's other panels, ``layout`` fits the front, ``minions`` makes the back and
``more`` the continuation page.
"""

from __future__ import annotations

from typing import Any

from ...definitions.campaign import Campaign, gets_sheet
from ...definitions.models import BuildOptions
from ...problems import InputError, Problem
from ...render.names import unique_stems
from ...statblocks import Block, Computed
from ...typesetting.paper import page_area_mm
from ...wording import _
from .. import actions as action_words
from .. import terms
from ..base import Document, page_context
from ..sources import Origins
from . import metrics, minions, panels, text
from .layout import ability_columns, fit, head_height
from .metrics import PAGE_MARGIN_MM, PAGE_SLACK_MM, SIDE_COLUMN_MM
from .more import more as continuation
from .panels import CONDITIONS, DEVELOPMENT_NOTE
from .rows import action_row
from .text import (
    DESCRIPTION_MAX,
    DESCRIPTION_SHORT,
    FOOTER_NAME_MAX,
    GROUP_MAX,
    PLAYER_MAX,
)

KIND = "sheets"
TEMPLATE = "sheet/sheet.html"


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    # Roster NPCs (under `npcs:`) have no sheet unless their entry says `sheet: true`.
    characters = [b for b in computed.of_kind("character") if gets_sheet(b.definition, b.source)]
    stems = unique_stems([b.name for b in characters], prefix="sheet-")
    result = []
    problems: list[Problem] = []
    careers = panels.career_names(campaign)
    for block in characters:
        try:
            context = sheet_context(block, computed, campaign, options, careers)
        except InputError as err:  # a bad portrait: report every one, then stop
            problems += err.problems
            continue
        filename = f"{stems[block.name]}.pdf"
        # The build reports these with the layout lint: `sheet-ann.pdf: entry "Ann": player:`.
        context["layout_problems"] = [
            Problem(message, filename, None, block.name, field, "warning")
            for field, message in context["shortened"]
        ]
        result.append(
            Document(
                kind=KIND,
                title=block.name,
                stem=stems[block.name],
                template=TEMPLATE,
                context=context,
                # The back and the continuation page print on the other side of the front.
                duplex=context["back"] is not None or context["more"] is not None,
            )
        )
    if problems:
        raise InputError(problems)
    return result


def sheet_context(
    block: Block,
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    careers: dict[str, str] | None = None,
) -> dict[str, Any]:
    stats = panels.character_stats(block)
    definition = block.definition
    width, area_height = page_area_mm(options.paper, PAGE_MARGIN_MM)
    height = area_height - PAGE_SLACK_MM
    origins = Origins(block, computed)
    defenses = panels.defenses(stats, origins)
    name_size = text.name_size(block.name)
    command = stats.levels.get("command", 0)
    # The continuation page, if there is one, follows the front and the minion back.
    more_page = "3" if command >= 1 else "2"
    description = text.cut(block.description, DESCRIPTION_MAX)
    description_cut = description != text.whole(block.description)
    description_more = panels.see_page(more_page) if description_cut else ""
    description_size = "normal" if len(description) <= DESCRIPTION_SHORT else "small"
    layout = fit(
        stats,
        head_mm=head_height(
            block.name,
            name_size,
            f"{description} {description_more}".strip(),
            description_size,
            len(defenses),
            width,
        ),
        width_mm=width,
        height_mm=height,
    )
    back = (
        minions.back(block, stats, computed, command, (width, height), more_page)
        if command >= 1
        else None
    )
    front = ability_columns(
        stats, layout, width - SIDE_COLUMN_MM, panels.see_page(more_page), origins
    )
    notes_cut = any(row["cut"] for column in front for group in column for row in group["rows"])
    frames = back["frames"] if back is not None else []
    more = continuation(
        block,
        stats,
        layout,
        description=text.whole(block.description) if description_cut else "",
        abilities=notes_cut,
        minions=[
            m
            for m, frame in zip(computed.minions_of(block.name), frames, strict=True)
            if frame["cut"]
        ],
        size_mm=(width, height),
        page=more_page,
        computed=computed,
    )
    player = text.whole(str(getattr(definition, "player", "") or ""))
    group = text.whole(block.group or "")
    # Cut with nowhere else to print them whole: said in the build's layout warnings.
    shortened = [
        (field, text.shortened_message(written, limit))
        for field, written, limit in (("player", player, PLAYER_MAX), ("group", group, GROUP_MAX))
        if len(written) > limit
    ]
    actions = [action_row(a, origins.action(a)) for a in stats.actions]
    return {
        "page": page_context(options),
        "title": _("%(name)s — character sheet") % {"name": block.name},
        "layout": metrics.css(layout, width, height),
        "density": layout.density,
        "condensed": layout.condensed,
        "name_size": name_size,
        "identity": {
            "name": block.name,
            "player": text.cut(player, PLAYER_MAX),
            "career": panels.career(definition, careers or {}),
            "description": description,
            "description_more": description_more,
            "description_size": description_size,
            "footer_name": text.cut(block.name, FOOTER_NAME_MAX),
            "ruleset": terms.ruleset(computed.rules.name),
            # where the older texts have gaps, the rules line says so rather than pass
            # today's rules off as theirs
            "ruleset_note": action_words.source_note(computed.rules),
            # distract, surprise, intimidate: once per target, or once per battle (older texts)
            "psychic_limit": action_words.limit(computed.rules),
        },
        "portrait": panels.portrait(block, campaign, options),
        "defenses": defenses,
        "vitals": panels.vitals(block, stats, computed),
        "health": panels.health(stats, origins),
        "warnings": panels.warnings(stats),
        "abilities": front,
        "abilities_note": (
            _("notes in full on p. %(page)s") % {"page": more_page} if notes_cut else ""
        ),
        "actions": {
            "rolled": [a for a in actions if a["rolled"]],
            "other": [a for a in actions if not a["rolled"]],
        },
        "conditions": [_(condition) for condition in CONDITIONS],
        "movement": panels.movement(stats, origins),
        "carry": panels.carry(stats, options, origins),
        "cp": panels.cp(stats, origins),
        "development": _(DEVELOPMENT_NOTE),
        "minion_note": panels.minion_note(back),
        "more_note": (
            _("notes continued on p. %(page)s") % {"page": more_page} if more is not None else ""
        ),
        "back": back,
        "more": more,
        "shortened": shortened,
    }
