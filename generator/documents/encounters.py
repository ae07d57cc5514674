"""``encounters.pdf``: every Resilience event's opponents, ready for the fight it leads to.

One section per event of the deck, in deck order: the event's title as the heading (with
the opponents' group initiative), the card's encounter line under it, then the opponents'
stat blocks with their attacks, HP tracks and minions. The layout is the NPC roster's
(documents/roster.py): only what goes in the sections differs.
"""

from __future__ import annotations

from ..definitions.campaign import Campaign
from ..encounters import compute_encounters
from ..statblocks import Computed
from .base import BuildOptions, Document
from .roster import TEMPLATE, Titled, plan_titled, roster_context

KIND = "encounters"
LABEL = "Encounters"


def _opponents(computed: Computed) -> int:
    """Everyone who fights: each character, and each of a leader's minions."""
    return sum(b.count for b in computed.blocks if b.kind in ("character", "minion"))


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    found = compute_encounters(campaign, computed.rules.name)
    parts = [Titled(f.event.id, f.event.title, f.event.encounter, f.computed) for f in found]
    roster = plan_titled(parts, options)
    if not roster.npcs:
        return []
    opponents = sum(_opponents(f.computed) for f in found)
    summary = (
        f"{opponents} opponents in {len(parts)} event{'s' if len(parts) != 1 else ''}"
        f" · {computed.rules.name} rules"
    )
    context = roster_context(
        roster, roster.pages, computed, campaign, options, label=LABEL, summary=summary
    )
    return [Document(KIND, LABEL, "encounters", TEMPLATE, context)]


__all__ = ["documents"]
