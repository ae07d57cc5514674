"""The view model of one initiative card, a group's or a character's, and how many cards
its rows need: every height is counted in the millimetres of ``metrics``, so a group or an
attack list too long for one card goes on "cont." cards, never clipped."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...rules.character import CharacterStats
from ...statblocks import Block, Computed, InitiativeGroup
from ...typesetting.fonts import FACES
from ...typesetting.units import mm
from ...wording import _
from .. import actions as action_words
from .. import terms
from ..common import signed
from ..sources import Origins
from .fitting import fit_text, member_name
from .metrics import (
    CONDITIONS,
    HP_INDENT_MM,
    HP_LABEL_W,
    META_PT,
    MINION_INDENT_MM,
    NAME_W_ONE_LINE,
    Metrics,
)
from .wording import (
    bonus_lines,
    defenses,
    hp_lines,
    short,
    short_damage,
    short_target,
    stats_of,
    tick_letters,
)

# ------------------------------------------------------------------------------------------
# Group cards


@dataclass(frozen=True)
class Row:
    """One member line of a group card and the height it takes, in mm."""

    height: float
    view: dict[str, Any]


INIT_EXTRA_MM = 2.0  # "+30" is wider than a defense


def number_sources(stats: CharacterStats, origins: Origins, individual: bool) -> list[str]:
    """Where each number of a member row comes from, in the row's order."""
    keys = [key for key, _value in defenses(stats)] + ["stamina"]
    if individual:
        keys.append("initiative_bonus")
    return [origins.stat(key) for key in keys]


def group_columns(
    computed: Computed, members: Sequence[Block], m: Metrics
) -> list[tuple[str, float]]:
    """The number columns of a group card and their widths in mm: the ruleset's defenses,
    stamina, and each member's own initiative when everyone rolls alone."""
    sample = stats_of(members[0]) if members else None
    keys = (
        [key for key, _value in defenses(sample)]
        if sample
        else ["agility", "intelligence", "strength"]
    )
    columns = [(short(key), m.value_w) for key in [*keys, "stamina"]]
    if computed.rules.individual_initiative:
        columns.append((short("initiative_bonus"), m.value_w + INIT_EXTRA_MM))
    return columns


def member_rows(
    group: InitiativeGroup,
    m: Metrics,
    individual: bool,
    columns_w: float,
    computed: Computed | None = None,
) -> list[Row]:
    """One row per member; a minion group of two or more gets a numbered row each."""
    rows: list[Row] = []
    name_w = NAME_W_ONE_LINE if m.one_line else m.inner_w - columns_w
    for block in group.members:
        stats = stats_of(block)
        values = [str(v) for _key, v in defenses(stats)] + [str(stats.stamina)]
        if individual:
            values.append(signed(stats.initiative_bonus))
        sources = number_sources(stats, Origins(block, computed), individual)
        letters = tick_letters(stats.actions)
        ticks = [
            {"letter": letter, "title": action_words.named(key)} for key, letter in letters.items()
        ]
        if m.one_line:
            hp_w = m.inner_w - NAME_W_ONE_LINE - columns_w - 3 * m.tick_w - HP_INDENT_MM
        else:
            hp_w = m.inner_w - len(ticks) * m.tick_w - 1.0
        lines = hp_lines(stats.hit_points, stats.stamina, math.floor(hp_w / m.pitch))
        if m.one_line:
            height = max(m.name_h, len(lines) * m.pitch) + m.row_pad
        else:
            height = m.name_h + len(lines) * m.pitch + m.row_pad
        minion = block.kind == "minion"
        font = FACES["sans-italic"] if minion else FACES["sans-bold"]
        room = name_w - (MINION_INDENT_MM if minion else 0.0) - 0.8
        suffixes = [f" {i}" for i in range(1, block.count + 1)] if block.count > 1 else [""]
        for suffix in suffixes:
            size, shown = member_name(block.name, suffix, font, m.member_pt, room)
            view = {
                "name": block.name + suffix,
                "shown": shown,
                "name_size": "" if size == m.member_pt else f"{size}pt",
                "minion": minion,
                "cells": values,
                "sources": sources,
                "hp_lines": lines,
                "ticks": ticks,
                "height": mm(height),
                "track_h": mm(len(lines) * m.pitch + m.row_pad),
            }
            rows.append(Row(height, view))
    return rows


def group_capacity(m: Metrics) -> float:
    return m.inner_h - m.band_h - m.band_gap - m.bonus_h - m.head_h - m.legend_h


def paginate(rows: Sequence[Row], capacity: float) -> list[list[Row]]:
    """Rows in order onto as many cards as they need; every card takes at least one."""
    pages: list[list[Row]] = [[]]
    used = 0.0
    for row in rows:
        if pages[-1] and used + row.height > capacity + 1e-6:
            pages.append([])
            used = 0.0
        pages[-1].append(row)
        used += row.height
    return pages


def legend(rows: Sequence[Row], limit: str = "once per target") -> str:
    seen: dict[str, str] = {}
    for row in rows:
        for tick in row.view["ticks"]:
            seen.setdefault(tick["letter"], tick["title"].lower())
    if not seen:
        return ""
    ticks = " · ".join(
        _("%(letter)s %(action)s") % {"letter": k, "action": v} for k, v in seen.items()
    )
    return _("%(limit)s: %(ticks)s") % {"limit": terms.capital(limit), "ticks": ticks}


def group_cards(group: InitiativeGroup, computed: Computed, m: Metrics) -> list[dict[str, Any]]:
    individual = computed.rules.individual_initiative
    columns = group_columns(computed, group.members, m)
    rows = member_rows(group, m, individual, sum(width for _, width in columns), computed)
    # The group's bonus: its rule names the member whose ability decides it.
    bonus_source = next(
        (
            origins.traced("initiative_bonus", group.rule, "group")
            for origins in (Origins(b, computed) for b in group.members)
            if origins.deciding(group.rule) is not None
        ),
        Origins(group.members[0], computed).traced("initiative_bonus", group.rule, "group")
        if group.members
        else "",
    )
    played = any(getattr(b.definition, "player", "") for b in group.members)
    chunks = paginate(rows, group_capacity(m))
    cards = []
    for index, chunk in enumerate(chunks):
        cards.append(
            {
                "kind": "group",
                "title": group.name,
                "label": _("Group"),
                "part": _part(index, len(chunks)),
                "bonus": signed(group.bonus),
                "bonus_source": bonus_source,
                "bonus_label": _("best single bonus") if individual else _("group initiative"),
                "bonus_lines": bonus_lines(group),
                "columns": [{"label": label, "width": mm(width)} for label, width in columns],
                "members": [row.view for row in chunk],
                "legend": legend(chunk, action_words.limit(computed.rules)),
                # The players' own group lists its members; an adversary group shows only
                # its name, so the tent tells the table no more than the GM does.
                "player": {
                    "title": group.name,
                    "subtitle": _("Initiative group"),
                    "lines": _unique([row.view["name"] for row in rows]) if played else [],
                },
            }
        )
    return cards


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _part(index: int, total: int) -> str:
    if total == 1:
        return ""
    if index:
        return _("cont. %(part)s/%(parts)s") % {"part": index + 1, "parts": total}
    return _("%(part)s/%(parts)s") % {"part": 1, "parts": total}


# ------------------------------------------------------------------------------------------
# Character cards


def initiative_roll(bonus: int) -> str:
    """What a card's framed initiative says: ``+38``, or ``d20`` when nothing is added."""
    return signed(bonus) if bonus else _("d20")


def attack_rows(stats: CharacterStats) -> list[dict[str, Any]]:
    """Every attack, one compact line each; unrepeatable ones carry their tick box."""
    letters = tick_letters(stats.actions)
    return [
        {
            "tick": action.unrepeatable,
            "letter": letters.get(action.name, ""),
            "name": action_words.name(action),
            # The sheet's words: an attack no ability adds to is rolled on the bare d20.
            "bonus": signed(action.bonus or 0) if action.roll else _("d20"),
            "target": short_target(action),
            "damage": short_damage(action),
            "range": action_words.range_(action),
        }
        for action in stats.actions
        if action.attack
    ]


def character_cards(
    block: Block, group: InitiativeGroup | None, computed: Computed, m: Metrics
) -> list[dict[str, Any]]:
    stats = stats_of(block)
    individual = computed.rules.individual_initiative
    player = getattr(block.definition, "player", "")
    hp_w = (m.side_w or m.inner_w) - HP_LABEL_W
    lines = hp_lines(stats.hit_points, stats.stamina, math.floor(hp_w / m.pitch))
    hp_h = len(lines) * m.pitch
    top = m.band_h + m.band_gap
    if m.side_w:
        # Wide card: defenses and HP in a left column, attacks fill the right one.
        first = m.inner_h - top - m.head_h
    else:
        first = m.inner_h - top - m.meta_h - m.defense_h - hp_h - 2 * m.section_gap - m.head_h
    later = m.inner_h - top - m.head_h
    conditions: list[list[str]] = []
    if m.side_w:
        # The wide card's left column has room below HP for the states a turn leaves
        # behind; shown only when they fit, at the same place on every card.
        used = m.meta_h + 2 * m.defense_h + 2 * m.section_gap + hp_h
        rows_needed = math.ceil(len(CONDITIONS) / 2)
        if used + m.legend_h + rows_needed * m.pitch + m.section_gap <= m.inner_h - top:
            worded = [_(condition) for condition in CONDITIONS]
            conditions = [worded[i : i + 2] for i in range(0, len(worded), 2)]
    origins = Origins(block, computed)
    attacks = attack_rows(stats)
    # Where each attack's bonus comes from, for the preview, in the attacks' order.
    sources = [origins.action(action) for action in stats.actions if action.attack]
    chunks: list[list[dict[str, Any]]] = []
    room = max(1, math.floor((first + 1e-6) / m.attack_h))
    chunks.append(attacks[:room])
    rest = attacks[room:]
    per_later = max(1, math.floor((later + 1e-6) / m.attack_h))
    while rest:
        chunks.append(rest[:per_later])
        rest = rest[per_later:]
    starts = [sum(len(chunk) for chunk in chunks[:i]) for i in range(len(chunks))]
    # The framed number is the one this player adds to d20: the group's when the group
    # rolls together, else their own. No second number beside it may contradict it.
    if group is None:
        group_line, rolled = _("Rolls alone: no group"), stats.initiative_bonus
    elif individual:
        group_line = _("Rolls alone · %(group)s") % {"group": group.name}
        rolled = stats.initiative_bonus
    else:
        group_line, rolled = _("Rolls with %(group)s") % {"group": group.name}, group.bonus
    init_source = (
        origins.traced("initiative_bonus", group.rule, "group")
        if group is not None and not individual
        else origins.stat("initiative_bonus")
    )
    # What to roll comes first, so a long group name is what gets cut.
    meta_w = (m.side_w or m.inner_w) - 0.5
    group_line = fit_text(group_line, FACES["sans"], META_PT, meta_w)
    cards = []
    for index, chunk in enumerate(chunks):
        cards.append(
            {
                "kind": "character",
                "title": block.name,
                "label": _("Character"),
                "part": _part(index, len(chunks)),
                "first": index == 0,
                "group": group.name if group else "",
                "group_line": group_line,
                "init": initiative_roll(rolled),
                "init_source": init_source if rolled else "",
                "defenses": [
                    {"label": short(k), "value": str(v), "source": origins.stat(k)}
                    for k, v in defenses(stats)
                ],
                "stamina": str(stats.stamina),
                "stamina_source": origins.stat("stamina"),
                "hit_points": str(stats.hit_points),
                "hit_points_source": origins.stat("hit_points"),
                "hp_lines": lines,
                "attacks": chunk,
                "attack_sources": sources[starts[index] : starts[index] + len(chunk)],
                "conditions": conditions if index == 0 else [],
                "player": {
                    "title": block.name,
                    "subtitle": group.name if group else "",
                    "lines": [_("played by %(player)s") % {"player": player}] if player else [],
                },
            }
        )
    return cards
