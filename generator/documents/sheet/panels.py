"""The front's panels, each as the template prints it: the defenses, health and
initiative, movement, carrying, the CP budget, the portrait and the career line."""

from __future__ import annotations

from typing import Any

from ...content.loader import merged_entries
from ...definitions.campaign import Campaign
from ...definitions.models import BuildOptions
from ...problems import InputError
from ...render.images import ImageProblem
from ...rules import CharacterStats
from ...rules.grid import GridMove
from ...statblocks import Block, Computed
from ...wording import N_, _
from .. import terms
from ..assets import portrait_problem, portrait_url
from ..common import capital, carry_cells, health_text, hp_track, signed
from ..sources import Origins, group_source
from .metrics import HP_SIZES, PORTRAIT_MM
from .text import GROUP_MAX, cut, whole

# What each defense stops, printed under its number so a new player learns where to look.
DEFENSE_CAPTIONS = {
    "agility": N_("normal attacks"),
    "intelligence": N_("psychic attacks"),
    "strength": N_("force attacks"),
    "defense": N_("every attack"),
}
# The passing states a player marks in pencil during a fight (RULES.md §5).
CONDITIONS = (
    N_("evading"),
    N_("delayed"),
    N_("engaged"),
    N_("panicked"),
    N_("in cover"),
    N_("held"),
)
# CP pips are drawn one per point only while that stays one short row under the CP line.
MAX_PIPS = 24
# Resilience's year runs an event, an encounter, then character development: a character
# who came through the encounter well may improve (RULES.md §14). The box is where the
# player keeps that record.
DEVELOPMENT_NOTE = N_("year by year: what improved")
# The grid movement table's columns, by GridMove field.
TERRAINS = {
    "ground": N_("ground"),
    "air": N_("air"),
    "rough": N_("rough"),
    "water": N_("water"),
}
# The carrying table's rows: what each weight is, and for how long.
CARRY_ROWS = (
    ("pack", N_("pack"), N_("all day")),
    ("carry", N_("carry"), N_("a few minutes")),
    ("lift", N_("lift"), N_("in place; drag it too")),
)


def see_page(page: str) -> str:
    """What follows a shortened text: where it is printed whole."""
    return _("see p. %(page)s") % {"page": page}


def parts(message: str, marked: str, **values: str) -> tuple[str, str]:
    """A worded ``message`` cut around its ``%(marked)s`` placeholder, the other
    placeholders filled in: the template prints the value between the two parts as a
    link of its own (the preview's), and the translator still sees one whole sentence."""
    sentinel = "\0"
    before, _unused, after = (message % {**values, marked: sentinel}).partition(sentinel)
    return before, after


def character_stats(block: Block) -> CharacterStats:
    if not isinstance(block.stats, CharacterStats):
        raise TypeError(f"{block.name} is a {block.kind}, not a character")
    return block.stats


def portrait(block: Block, campaign: Campaign, options: BuildOptions) -> str | None:
    path = getattr(block.definition, "portrait", None)
    if not path:
        return None
    try:
        return portrait_url(path, campaign.root, PORTRAIT_MM, grey=options.ink_saver)
    except ImageProblem as err:  # `party.yaml:4: entry "Ann": portrait: face.png: ...`
        raise InputError([portrait_problem(str(err), block.source, block.name)]) from None


def defenses(stats: CharacterStats, origins: Origins | None = None) -> list[dict[str, str]]:
    """The three defenses, or the classic single one, as large boxed numbers; ``origins``
    adds where each came from, for the preview."""
    names = ("defense",) if stats.defense is not None else ("agility", "intelligence", "strength")
    result = []
    for name in names:
        value = getattr(stats, name)
        if value is not None:
            result.append(
                {
                    "label": capital(terms.derived(name)),
                    # The lint's name for the box (an identifier, never worded).
                    "frame": name.capitalize(),
                    "value": str(value),
                    "caption": _(DEFENSE_CAPTIONS[name]),
                    "source": origins.stat(name) if origins else "",
                }
            )
    return result


def vitals(block: Block, stats: CharacterStats, computed: Computed) -> dict[str, Any]:
    group = cut(block.group or "", GROUP_MAX)
    origins = Origins(block, computed)
    individual = computed.rules.individual_initiative
    # The line in three parts, so the preview can link the bonus alone.
    line = {"before": "", "bonus": "", "after": "", "source": ""}
    if group and not individual:
        found = next((g for g in computed.groups if g.name == block.group), None)
        if found is not None:
            message = _("%(group)s: the group rolls d20 %(bonus)s")
            line["before"], line["after"] = parts(message, "bonus", group=group)
            line["bonus"] = signed(found.bonus)
            line["source"] = group_source(found, computed)
    elif group:
        line["before"] = _("%(group)s: each rolls alone") % {"group": group}
    else:
        line["before"], line["after"] = parts(_("no group: rolls d20 %(bonus)s alone"), "bonus")
        line["bonus"] = signed(stats.initiative_bonus)
        line["source"] = origins.stat("initiative_bonus")
    group_line = line["before"] + line["bonus"] + line["after"]
    return {
        "hp": str(stats.hit_points),
        "stamina": str(stats.stamina),
        "hp_label": capital(terms.derived("hit_points")),
        "stamina_label": capital(terms.derived("stamina")),
        "initiative": signed(stats.initiative_bonus),
        "initiative_label": _("d20 + this bonus") if individual else _("own bonus"),
        "group": group,
        "group_line": group_line,
        "group_parts": line,
        "sources": {
            "hp": origins.stat("hit_points"),
            "stamina": origins.stat("stamina"),
            "initiative": origins.stat("initiative_bonus"),
        },
    }


def health(stats: CharacterStats, origins: Origins | None = None) -> dict[str, Any]:
    return {
        "track": boxes(stats.hit_points, stats.stamina),
        "size": hp_size(stats.hit_points),
        "bands": bands(stats, origins),
    }


def hp_size(hit_points: int) -> str:
    for size, per_row, _height in HP_SIZES:
        if hit_points + 1 <= per_row:
            return size
    return HP_SIZES[-1][0]


def bands(stats: CharacterStats, origins: Origins | None = None) -> list[dict[str, str]]:
    """``healthy 2–3 · injured 1 · incapacitated 0`` with typographic dashes; ``origins``
    adds where the healthy and injured ranges come from (the stamina), for the preview."""
    text = {state: span.replace("-", "–") for state, span in health_text(stats.health).items()}

    def source(state: str) -> str:
        return origins.band(state, text[state]) if origins else ""

    return [
        {
            "state": terms.health("healthy"),
            "range": text["healthy"],
            "style": "healthy",
            "source": source("healthy"),
        },
        {
            "state": terms.health("injured"),
            "range": text["injured"],
            "style": "injured",
            "source": source("injured"),
        },
        {
            "state": terms.health("incapacitated"),
            "range": text["incapacitated"],
            "style": "zero",
            "source": "",
        },
    ]


def boxes(max_hp: int, stamina_value: int) -> list[dict[str, Any]]:
    return [
        {"hp": str(box["hp"]), "injured": bool(box["injured"])}
        for box in hp_track(max_hp, stamina_value)
    ]


def warnings(stats: CharacterStats) -> dict[str, Any] | None:
    if not stats.warnings:
        return None
    budget = stats.budget
    return {
        "title": _("Outside the campaign limits (%(cp)s CP, maximum level %(level)s)")
        % {"cp": budget.cp, "level": budget.max_level},
        "items": [terms.caution(c.key, c.values) for c in stats.cautions],
    }


def career_names(campaign: Campaign) -> dict[str, str]:
    """Every career's name under its casefolded name and id, so ``career: sheriff`` prints
    as the career card spells it."""
    try:
        entries = merged_entries(campaign, "careers")
    except InputError:  # two careers with one id: `check` says so; print as written
        return {}
    return {
        key: entry.definition.name
        for entry in entries
        for key in (entry.definition.name.casefold(), entry.id.casefold())
    }


def career(definition: Any, careers: dict[str, str]) -> str:
    written = whole(str(getattr(definition, "career", None) or ""))
    return careers.get(written.casefold(), written)


def movement(stats: CharacterStats, origins: Origins | None = None) -> dict[str, Any]:
    healthy, injured = stats.movement.healthy, stats.movement.injured
    columns = ["ground"]  # GridMove's fields, worded as the table's heads below
    if healthy.air is not None:
        columns.append("air")
    columns += ["rough", "water"]

    def cells(move: GridMove) -> list[str]:
        values = {"ground": move.ground, "air": move.air, "rough": move.rough, "water": move.water}
        return [str(values[c]) for c in columns]

    def sources(move: GridMove, is_healthy: bool) -> list[str]:
        return [origins.movement(c, is_healthy, move) if origins else "" for c in columns]

    return {
        "columns": [_(TERRAINS[c]) for c in columns],
        "rows": [
            {
                "state": terms.health("healthy"),
                "cells": cells(healthy),
                "sources": sources(healthy, True),
            },
            {
                "state": terms.health("injured"),
                "cells": cells(injured),
                "sources": sources(injured, False),
            },
        ],
    }


def carry(
    stats: CharacterStats, options: BuildOptions, origins: Origins | None = None
) -> dict[str, Any] | None:
    if stats.carry is None:
        return None
    cells = carry_cells(stats.carry, options.units)
    rows = [
        {
            "label": _(label),
            "when": _(when),
            "value": cells[key],
            # The preview's trace names the row as the rules do, in English.
            "source": origins.carry(key, cells[key]) if origins else "",
        }
        for key, label, when in CARRY_ROWS
    ]
    return {
        "strength": cells["strength"],
        "strength_label": terms.derived("strength"),
        "source": origins.stat("strength") if origins else "",
        "rows": rows,
    }


def cp(stats: CharacterStats, origins: Origins | None = None) -> dict[str, Any]:
    budget = stats.budget
    highest = max((a.level for a in stats.abilities), default=0)
    pips = []
    if max(stats.cp, budget.cp) <= MAX_PIPS:
        for point in range(1, max(stats.cp, budget.cp) + 1):
            if point > budget.cp:
                pips.append("over")
            elif point <= stats.cp:
                pips.append("spent")
            else:
                pips.append("free")
    return {
        "spent": str(stats.cp),
        "source": origins.cp(stats) if origins else "",
        "budget": str(budget.cp),
        "max_level": str(budget.max_level),
        "over": stats.over_budget,
        "above_max": highest > budget.max_level,
        "pips": pips,
    }


def minion_note(back: dict[str, Any] | None) -> str:
    """The front's footer on the back page: "front: minions on the back"."""
    if back is None:
        return ""
    if back["frames"]:
        return _("front: minions on the back")
    return _("front: recruit minions on the back")
