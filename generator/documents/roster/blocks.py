"""The view model of one NPC's block in the books' own format, with its minions, and the
height it takes in a column: header, ability lines, attacks, HP track and tick boxes."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...rules.actions import Action
from ...rules.character import CharacterStats
from ...statblocks import Block, Computed
from ...typesetting.units import mm
from ...wording import N_, Wording, _, current
from .. import actions as action_words
from .. import terms
from ..common import hp_track, signed
from ..sources import Origins
from .geometry import (
    BLOCK_PAD_BOTTOM,
    BLOCK_PAD_TOP,
    HP_LABEL,
    INIT_W,
    INSTANCE_GAP,
    INSTANCE_LABEL,
    LINE,
    MINION_GAP,
    PITCH,
    RULE,
    TICK_W,
    TRACK,
    Geometry,
)
from .measuring import Run, count_lines


def stats_of(block: Block) -> CharacterStats:
    assert isinstance(block.stats, CharacterStats)
    return block.stats


def header_values(stats: CharacterStats) -> list[dict[str, str]]:
    """The parenthesis of the books' header, in their order: agility, intelligence, strength,
    stamina; or the older defense, stamina."""
    named: list[tuple[str, int | None]] = [
        ("agility", stats.agility),
        ("intelligence", stats.intelligence),
        ("strength", stats.strength),
    ]
    if stats.defense is not None:
        named = [("defense", stats.defense)]
    named.append(("stamina", stats.stamina))
    return [
        {"value": str(v), "key": key, "label": terms.derived(key)}
        for key, v in named
        if v is not None
    ]


def header_runs(name: str, count: str, values: list[dict[str, str]], description: str) -> list[Run]:
    runs: list[Run] = [(name, "bold")]
    if count:
        runs.append((f" {count}", "bold"))
    runs.append((" (", "regular"))
    for index, item in enumerate(values):
        runs.append((item["value"], "bold"))
        runs.append((f" {item['label']}" + (", " if index < len(values) - 1 else ""), "regular"))
    runs.append((")" + (": " if description else ""), "regular"))
    if description:
        runs.append((description, "regular"))
    return runs


def ability_rows(stats: CharacterStats, width: float) -> tuple[list[dict[str, str]], int]:
    """``2 wrestling: note`` lines in the author's order, and how many lines they take."""
    rows, lines = [], 0
    for ability in stats.abilities:
        name = terms.ability(ability.name)
        runs: list[Run] = [(name + (":" if ability.note else ""), "regular")]
        if ability.note:
            runs.append((" " + ability.note, "italic"))
        lines += count_lines(runs, width)
        rows.append({"level": str(ability.level), "name": name, "note": ability.note})
    return rows, lines


# Targets too long for a run-in line, said shorter (the sheet spells them out).
ATTACKS_LABEL = N_("Attacks:")


def _attack_text(action: Action) -> str:
    """Everything after the attack's name: ``+1 vs agility, long, 2 damage, 5 on a 20``."""
    return f"{signed(action.bonus or 0)} {action_words.roster_attack(action)}"


def chosen_attacks(stats: CharacterStats) -> list[Action]:
    """The attacks the sheet computes, those this NPC rolls with an ability, in the sheet's
    order; an NPC without one shows its basic attack, so every block says how it fights.
    The bare-d20 attacks everyone has (hold, throw, distract) would only repeat."""
    attacks = [a for a in stats.actions if a.attack and a.bonus is not None]
    return [a for a in attacks if a.roll] or attacks[:1]


def attack_rows(stats: CharacterStats) -> list[dict[str, str]]:
    """The attacks line's entries: each chosen attack's name and roll."""
    rows = []
    for action in chosen_attacks(stats):
        text = _attack_text(action)
        bonus = signed(action.bonus or 0)
        # "bonus" + "rest" is "text" split, so the preview can link the bonus alone while
        # the line sets, and measures, as one run.
        name = action_words.name(action)
        rows.append({"name": name, "text": text, "bonus": bonus, "rest": text[len(bonus) :]})
    return rows


def attack_runs(attacks: Sequence[dict[str, str]]) -> list[Run]:
    """The attacks line as it sets: the label, each name in bold, then its roll."""
    runs: list[Run] = [(_(ATTACKS_LABEL) + " ", "italic")] if attacks else []
    for index, attack in enumerate(attacks):
        runs.append((attack["name"], "bold"))
        runs.append((" " + attack["text"] + ("; " if index < len(attacks) - 1 else ""), "regular"))
    return runs


def tick_boxes(stats: CharacterStats) -> list[dict[str, str]]:
    """One box per unrepeatable action (distract, surprise, intimidate), lettered."""
    ticks: list[dict[str, str]] = []
    for action in stats.actions:
        worded = action_words.name(action)
        if action.unrepeatable and all(t["title"] != worded.lower() for t in ticks):
            ticks.append({"letter": worded[0].upper(), "title": worded.lower()})
    return ticks


def hp_boxes(stats: CharacterStats) -> list[dict[str, Any]]:
    boxes: list[dict[str, Any]] = [
        {"label": str(b["hp"]), "injured": b["injured"], "zero": False}
        for b in hp_track(stats.hit_points, stats.stamina)
    ]
    boxes.append({"label": "0", "injured": False, "zero": True})
    return boxes


def _rows_of(boxes: list[dict[str, Any]], per_row: int) -> list[list[dict[str, Any]]]:
    per_row = max(1, per_row)
    return [boxes[i : i + per_row] for i in range(0, len(boxes), per_row)] or [[]]


def tail_gap(width: float, boxes: int, tail: float) -> str:
    """The space between a track's first row of boxes and the tick boxes (and initiative)
    that end it at the column's right edge. They follow the boxes in the line rather than
    float right: a float stays in the column's list of floats to its foot, and WeasyPrint
    then measures every later line's min-content width and checks it against each float."""
    return mm(width - HP_LABEL - boxes * PITCH - tail)


@dataclass(frozen=True)
class Item:
    """A heading or a block in a column, with the height it takes (mm)."""

    kind: str  # "group" or "npc"
    height: float
    view: dict[str, Any]
    group: str = ""


def with_sources(
    origins: Origins,
    stats: CharacterStats,
    values: list[dict[str, str]],
    abilities: list[dict[str, str]],
    attacks: list[dict[str, str]],
) -> None:
    """Where the header's numbers, each ability's level and each attack's bonus come
    from, for the preview."""
    for value in values:
        value["source"] = origins.stat(value["key"])
    for row, ability in zip(abilities, stats.abilities, strict=True):
        row["source"] = origins.ability(ability)
    for attack, action in zip(attacks, chosen_attacks(stats), strict=True):
        attack["source"] = origins.action(action)


def minion_view(
    block: Block, g: Geometry, computed: Computed | None = None
) -> tuple[dict[str, Any], float]:
    stats = stats_of(block)
    values = header_values(stats)
    count = f"×{block.count}" if block.count > 1 else ""
    lines = count_lines(header_runs(block.name, count, values, block.description), g.minion_w)
    abilities, ability_lines = ability_rows(stats, g.minion_w - g.hang)
    attacks = attack_rows(stats)
    with_sources(Origins(block, computed), stats, values, abilities, attacks)
    ability_lines += count_lines(attack_runs(attacks), g.minion_w) if attacks else 0
    ticks = tick_boxes(stats)
    boxes = hp_boxes(stats)
    ticks_w = len(ticks) * TICK_W
    instances: list[dict[str, Any]]
    if block.count == 1:
        per_row = math.floor((g.minion_w - HP_LABEL - ticks_w - 1.0) / PITCH)
        box_rows = _rows_of(boxes, per_row)
        gap = tail_gap(g.minion_w, len(box_rows[0]), ticks_w)
        instances = [
            {"label": _("HP"), "numbered": False, "rows": box_rows, "ticks": ticks, "gap": gap}
        ]
        rows = [instances]
        track_rows = len(box_rows)
    else:
        # Each of a group of identical minions gets its own numbered track; tracks share
        # a row while they fit, and a track too long for one row wraps on its own rows.
        one_w = INSTANCE_LABEL + len(boxes) * PITCH + ticks_w
        per_row = max(1, math.floor((g.minion_w + INSTANCE_GAP) / (one_w + INSTANCE_GAP)))
        box_rows = [boxes]
        if one_w > g.minion_w:
            per_row = 1
            box_rows = _rows_of(
                boxes, math.floor((g.minion_w - INSTANCE_LABEL - ticks_w - 1.0) / PITCH)
            )
        instances = [
            {
                "label": _("#%(number)s") % {"number": i},
                "numbered": True,
                "rows": box_rows,
                "ticks": ticks,
            }
            for i in range(1, block.count + 1)
        ]
        rows = [instances[i : i + per_row] for i in range(0, len(instances), per_row)]
        track_rows = len(rows) * len(box_rows)
    height = MINION_GAP + (lines + ability_lines) * LINE + track_rows * TRACK
    view = {
        "name": block.name,
        "count": count,
        "stats": values,
        "description": block.description,
        "abilities": abilities,
        "attacks": attacks,
        "track_rows": rows,
    }
    return view, height


# The live preview and `build --watch` lay the roster out again on every save, though one
# NPC in a thousand changed: each NPC's item is kept, keyed by all it is made of (its
# stats as printed, its entry's lines in its file, its minions', the geometry), so the
# others are not measured and sourced again. Items are never changed once made (pages copy
# their views), and the memory is bounded. The words they hold are the language's of the
# build that made them, so the key has the wording's digest too.
_ITEMS: dict[tuple[Any, ...], Item] = {}
_ENTRY_LINES: dict[int, tuple[object, dict[tuple[Any, ...], tuple[Any, ...]]]] = {}
MAX_KEPT_ITEMS = 20_000


def _entry_lines(block: Block) -> tuple[Any, ...]:
    """The lines of every field of ``block``'s entry (its minions' included): grouped once
    per parse of its file, so that a thousand entries cost one pass, not a thousand."""
    positions = block.source.positions
    kept = _ENTRY_LINES.get(id(positions))
    if kept is None or kept[0] is not positions:
        grouped: dict[tuple[Any, ...], list[Any]] = {}
        for path, line in positions.items():
            grouped.setdefault(tuple(path[:2]), []).append((path, line))
        if len(_ENTRY_LINES) > 16:
            _ENTRY_LINES.clear()
        kept = (positions, {entry: tuple(lines) for entry, lines in grouped.items()})
        _ENTRY_LINES[id(positions)] = kept
    return kept[1].get(tuple(block.source.path[:2]), ())


_DIGEST: dict[int, tuple[Wording, str]] = {}


def _wording_digest() -> str:
    """The digest of the words the build speaks, worked out once per wording rather than
    once per NPC (a language's digest hashes its whole catalogue)."""
    wording = current()
    kept = _DIGEST.get(id(wording))
    if kept is None or kept[0] is not wording:
        if len(_DIGEST) > 16:
            _DIGEST.clear()
        kept = _DIGEST[id(wording)] = (wording, wording.digest())
    return kept[1]


def _made_of(block: Block) -> tuple[Any, ...]:
    return (
        block.kind,
        block.name,
        block.description,
        block.count,
        block.leader,
        repr(block.stats),
        block.source.file,
        tuple(block.source.path),
        _entry_lines(block),
    )


def npc_item(
    block: Block,
    minions: Sequence[Block],
    g: Geometry,
    show_init: bool,
    group: str,
    computed: Computed | None = None,
) -> Item:
    key = (
        _wording_digest(),
        _made_of(block),
        tuple(_made_of(m) for m in minions),
        g,
        show_init,
        group,
    )
    kept = _ITEMS.get(key)
    if kept is not None:
        return kept
    stats = stats_of(block)
    values = header_values(stats)
    lines = count_lines(header_runs(block.name, "", values, block.description), g.column_w)
    abilities, ability_lines = ability_rows(stats, g.ability_w)
    origins = Origins(block, computed)
    attacks = attack_rows(stats)
    with_sources(origins, stats, values, abilities, attacks)
    ability_lines += count_lines(attack_runs(attacks), g.column_w) if attacks else 0
    ticks = tick_boxes(stats)
    init = signed(stats.initiative_bonus) if show_init else ""
    room = g.column_w - HP_LABEL - len(ticks) * TICK_W - (INIT_W if init else 0.0) - 1.0
    box_rows = _rows_of(hp_boxes(stats), math.floor(room / PITCH))
    tail = len(ticks) * TICK_W + (INIT_W if init else 0.0)
    height = (
        BLOCK_PAD_TOP
        + (lines + ability_lines) * LINE
        + len(box_rows) * TRACK
        + BLOCK_PAD_BOTTOM
        + RULE
    )
    minion_views = []
    for minion in minions:
        view, extra = minion_view(minion, g, computed)
        minion_views.append(view)
        height += extra
    if len(_ITEMS) >= MAX_KEPT_ITEMS:
        _ITEMS.clear()
    item = _ITEMS[key] = Item(
        "npc",
        height,
        {
            "name": block.name,
            "stats": values,
            "description": block.description,
            "abilities": abilities,
            "attacks": attacks,
            "hp_rows": box_rows,
            "ticks": ticks,
            "init": init,
            "init_source": origins.stat("initiative_bonus") if init else "",
            "gap": tail_gap(g.column_w, len(box_rows[0]), tail),
            "minions": minion_views,
            "height": mm(height),
        },
        group,
    )
    return item
