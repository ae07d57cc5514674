"""``encounters.pdf``: every Resilience event's opponents, ready for the fight it leads to.

One section per event of the deck, in deck order: the event's title as the heading (with
the opponents' group initiative), the card's encounter line under it, then the opponents'
stat blocks with their attacks, HP tracks and minions. The layout is the NPC roster's
(documents/roster/): only what goes in the sections differs.
"""

from __future__ import annotations

from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions
from ..encounters import compute_encounters
from ..statblocks import Computed
from ..wording import N_, _, ngettext
from . import terms
from .base import Document
from .roster import paged_document
from .roster.pages import Roster, plan_titled
from .roster.sections import Titled

KIND = "encounters"
LABEL = N_("Encounters")  # worded where it is printed


def _opponents(computed: Computed) -> int:
    """Everyone who fights: each character, and each of a leader's minions."""
    return sum(b.count for b in computed.blocks if b.kind in ("character", "minion"))


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """``encounters.pdf`` as pages rendered in batches on every core, each page cached, and
    put together by pikepdf (as the NPC roster is): nineteen pages rendered as one
    document would keep one core busy long after the rest of the build is done.
    ``context`` stays the whole document, the reference for tests."""
    planned = _planned(computed, campaign, options)
    if planned is None:
        return []
    roster, summary = planned
    label = _(LABEL)
    return [
        paged_document(
            KIND,
            label,
            "encounters",
            roster,
            computed,
            campaign,
            options,
            label=label,
            summary=summary,
        )
    ]


def _planned(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> tuple[Roster, str] | None:
    found = compute_encounters(campaign, computed.rules.name)
    parts = [Titled(f.event.id, f.event.title, f.event.encounter, f.computed) for f in found]
    roster = plan_titled(parts, options)
    if not roster.npcs:
        return None
    opponents = sum(_opponents(f.computed) for f in found)
    # The line under the title.
    summary = ngettext(
        "%(opponents)s opponents in %(num)s event · %(rules)s rules",
        "%(opponents)s opponents in %(num)s events · %(rules)s rules",
        len(parts),
    ) % {"opponents": opponents, "num": len(parts), "rules": terms.ruleset(computed.rules.name)}
    return roster, summary


__all__ = ["documents"]
