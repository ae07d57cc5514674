"""Who goes to the tabletop: every character, minion group and vehicle of a computed
campaign, with what each export needs to agree on (its file stem, its side and colour,
the initiative it rolls with).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..render.names import unique_stems
from ..render.tokens import palette_colour
from ..rules.vehicles import VehicleStats
from ..statblocks import Block, Computed

EXPORTED_KINDS = ("character", "minion", "vehicle")
BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Entry:
    """One stat block bound for a tabletop."""

    block: Block
    stem: str  # its files' name: tokens/<stem>-256.png, actors/<stem>.json
    side: str  # its initiative group's, its crew's for a vehicle, else its own
    colour: str  # its token ring: one colour per side, the party's first
    player: str  # who plays it (a minion: its leader's player); "" for the GM's own
    rolls: int  # the initiative bonus it rolls with: its group's, when the group rolls once
    grouped: bool  # rolls once with its group (the current rules)
    party: bool  # on the player characters' side

    @property
    def kind(self) -> str:
        return self.block.kind

    @property
    def name(self) -> str:
        return self.block.name


def plain(value: Any, html: frozenset[str] = frozenset()) -> Any:
    """``value`` (a document of nested dicts and lists) with every text's ``<`` and ``>``
    turned into ``‹`` and ``›``, but under the keys in ``html``. A tabletop shows many of
    its texts as HTML (Improved Initiative's event log says "<name> added to combat" that
    way, Foundry a roll's label in the chat), and a name or note from a stranger's campaign
    must stay words there."""
    if isinstance(value, str):
        return value.replace("<", "\u2039").replace(">", "\u203a")
    if isinstance(value, list):
        return [plain(item, html) for item in value]
    if isinstance(value, dict):
        return {k: v if k in html else plain(v, html) for k, v in value.items()}
    return value


def stable_id(*parts: str, length: int = 16) -> str:
    """A letters-and-digits id made from ``parts``: the same entry gets the same id on
    every export, so a re-import replaces a document rather than adding a copy (Foundry
    asks for 16 such characters)."""
    digest = int.from_bytes(hashlib.sha256("\x00".join(parts).encode("utf-8")).digest(), "big")
    chars = []
    for _ in range(length):
        digest, index = divmod(digest, len(BASE62))
        chars.append(BASE62[index])
    return "".join(chars)


def _player(block: Block, computed: Computed) -> str:
    if block.kind == "character":
        return str(getattr(block.definition, "player", "") or "")
    if block.kind == "minion" and block.leader is not None:
        leader = computed.block("character", block.leader)
        return _player(leader, computed) if leader is not None else ""
    return ""


def initiative(block: Block, computed: Computed) -> tuple[int, bool]:
    """(the bonus ``block`` rolls initiative with, whether its whole group rolls it once).
    Under the current rules a group rolls once, with the group's bonus; the older texts
    have each character roll alone, with their own."""
    stats = block.stats
    own = stats.initiative_bonus if hasattr(stats, "initiative_bonus") else 0
    if isinstance(stats, VehicleStats) or not block.group or computed.rules.individual_initiative:
        return own, False
    group = next((g for g in computed.groups if g.name == block.group), None)
    return (group.bonus, True) if group is not None else (own, False)


def _side(block: Block, computed: Computed) -> str:
    """Who a token's colour follows: the initiative group, the crew's group for a
    vehicle, else the entry alone."""
    if block.group:
        return f"group:{block.group}"
    if isinstance(block.stats, VehicleStats):
        for member in (block.stats.operator, block.stats.gunner):
            crew = computed.block("character", member.name) if member is not None else None
            if crew is not None and crew.group:
                return f"group:{crew.group}"
    return f"{block.kind}:{block.leader or ''}:{block.name}"


def entries(computed: Computed) -> list[Entry]:
    """Every character, minion group and vehicle, in ``stats`` order."""
    blocks = [b for b in computed.blocks if b.kind in EXPORTED_KINDS]
    labels = []
    for block in blocks:
        label = f"{block.leader} {block.name}" if block.kind == "minion" else block.name
        while label in labels:  # a character and a vehicle of one name
            label += f" {block.kind}"
        labels.append(label)
    stems = unique_stems(labels)
    sides = [_side(b, computed) for b in blocks]
    played = {side for b, side in zip(blocks, sides, strict=True) if _player(b, computed)}
    # The party's side takes the palette's first colour, the others follow in order.
    order = sorted(dict.fromkeys(sides), key=lambda side: (side not in played, sides.index(side)))
    colours = {side: palette_colour(index) for index, side in enumerate(order)}
    found = []
    for block, label, side in zip(blocks, labels, sides, strict=True):
        rolls, grouped = initiative(block, computed)
        found.append(
            Entry(
                block,
                stems[label],
                side,
                colours[side],
                _player(block, computed),
                rolls,
                grouped,
                side in played,
            )
        )
    return found


__all__ = ["EXPORTED_KINDS", "Entry", "entries", "initiative", "plain", "stable_id"]
