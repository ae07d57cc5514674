"""``encounters.pdf``: every Resilience event's opponents, ready for the fight it leads to.

One section per event of the deck, in deck order: the event's title as the heading (with
the opponents' group initiative), the card's encounter line under it, then the opponents'
stat blocks with their attacks, HP tracks and minions. The layout is the NPC roster's
(documents/roster/): only what goes in the sections differs.
"""

from __future__ import annotations

from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions, Encounter, EncounterOutcome
from ..encounters import EventEncounter, compute_encounters
from ..statblocks import Computed, compute_campaign
from ..wording import N_, _, ngettext
from . import terms
from .base import Document
from .common import signed
from .roster import paged_document
from .roster.pages import Roster, plan_titled
from .roster.sections import Stake, Titled

KIND = "encounters"
LABEL = N_("Encounters")  # worded where it is printed


# The kinds of scene (definitions/models.py EncounterShape), worded where they are printed.
# "Parley" is also the label of the way to end any encounter by talking: one word for both.
SHAPES = {
    "ambush": N_("Ambush"),
    "raid": N_("Raid"),
    "parley": N_("Parley"),
    "chase": N_("Chase"),
    "siege": N_("Siege"),
    "duel": N_("Duel"),
    "hazard": N_("Hazard"),
    "hunt": N_("Hunt"),
    "standoff": N_("Standoff"),
    "escort": N_("Escort"),
}


def _changes(outcome: EncounterOutcome) -> str:
    """ "+1 economy, −1 equity": what an outcome does to the defenses, at once."""
    return ", ".join(
        f"{signed(levels)} {terms.defense(name)}" for name, levels in outcome.defenses.items()
    )


def _outcome(outcome: EncounterOutcome) -> str:
    return _("%(pcs)s Defenses: %(changes)s.") % {
        "pcs": outcome.character.rstrip(),
        "changes": _changes(outcome),
    }


def stakes(encounter: Encounter) -> tuple[Stake, ...]:
    """What a GM needs to run the encounter cold, a paragraph each: the scene, what the
    opponents want, when they break off (and the parley that ends it), what winning and
    losing change, and how each of the community's choices changes the scene."""
    out: list[Stake] = []
    if encounter.shape and encounter.scene:
        out.append((_(SHAPES[encounter.shape]) + ".", encounter.scene))
    elif encounter.scene:
        out.append((_("Scene."), encounter.scene))
    if encounter.want:
        out.append((_("They want"), encounter.want))
    if encounter.break_off:
        out.append((_("They break off"), encounter.break_off.when))
        parley = encounter.break_off.parley
        if parley:
            out.append(
                (
                    _("Parley"),
                    _("%(ability)s %(difficulty)s, offering %(offer)s")
                    % {
                        "ability": terms.ability(parley.ability),
                        "difficulty": parley.difficulty,
                        "offer": parley.offer,
                    },
                )
            )
    if encounter.win:
        out.append((_("If the PCs win:"), _outcome(encounter.win)))
    if encounter.lose:
        out.append((_("If the PCs lose:"), _outcome(encounter.lose)))
    for choice, line in encounter.branches.items():
        out.append((_("If the town chose “%(choice)s”:") % {"choice": choice}, line))
    return tuple(out)


def _parts(found: EventEncounter) -> list[Titled]:
    """The event's opponents under its title and card line, with the stakes; then each
    group of reinforcements under the same title, saying when they join."""
    event = found.event
    first = Titled(event.id, event.title, event.encounter, found.computed, stakes(found.encounter))
    parts = [first]
    parts += [
        Titled(
            f"{event.id}/joins-{number}",
            event.title,
            _("Joining the fight: %(when)s") % {"when": later.joins},
            later.computed,
        )
        for number, later in enumerate(found.reinforcements)
    ]
    return parts


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
    parts = [part for f in found for part in _parts(f)]
    roster = plan_titled(parts, options)
    if not roster.npcs:
        return None
    opponents = sum(_opponents(part.computed) for part in parts)
    # The line under the title.
    summary = ngettext(
        "%(opponents)s opponents in %(num)s event · %(rules)s rules",
        "%(opponents)s opponents in %(num)s events · %(rules)s rules",
        len(found),
    ) % {"opponents": opponents, "num": len(found), "rules": terms.ruleset(computed.rules.name)}
    return roster, summary


def encounter_pages(campaign: Campaign, options: BuildOptions) -> dict[str, int]:
    """Event id -> the page of ``encounters.pdf`` where its opponents start, as a build of
    ``campaign`` with ``options`` prints it (the plan decides every page before rendering).
    Names the page a drawn event sends the GM to."""
    planned = _planned(compute_campaign(campaign), campaign, options)
    if planned is None:
        return {}
    pages: dict[str, int] = {}
    for page in planned[0].pages:
        for column in page.columns:
            for item in column:
                if item.kind == "group":
                    pages.setdefault(item.group.split("/", 1)[0], page.number)
    return pages


__all__ = ["documents", "encounter_pages", "stakes"]
