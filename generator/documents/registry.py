"""Every printable kind `scratchpress build` knows, in the order it builds them."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions
from ..statblocks import Computed
from .base import Document

DocumentMaker = Callable[[Computed, Campaign, BuildOptions], list[Document]]

# --only name -> module under generator.documents with a `documents()` function.
KINDS: dict[str, str] = {
    "sheets": "sheet",
    "vehicles": "vehicle",
    "initiative": "initiative:build_documents",
    "carry": "carry",
    "community": "community",
    "events": "deck:event_documents",
    "careers": "deck:career_documents",
    "booklets": "booklet",
    "roster": "roster:build_documents",
    "encounters": "encounters",
    "kit": "kit",
}


# The printables of Resilience itself, from the built-in deck and opponents. A campaign
# builds them when it plays Resilience (see plays_resilience); a Scratch campaign of
# characters and NPCs, such as one `roster generate` just wrote, would otherwise get 37
# pages of events, careers and encounters it never asked for. `--only` always builds them.
RESILIENCE_KINDS = ("events", "careers", "encounters", "kit")


def plays_resilience(campaign: Campaign) -> bool:
    """True when the campaign has a community or Resilience content of its own."""
    return any(
        (
            campaign.communities,
            campaign.events,
            campaign.careers,
            campaign.project_ideas,
            campaign.encounters,
        )
    )


def skips_resilience(campaign: Campaign, only: list[str] | None) -> bool:
    """A build of everything (no ``--only``) for a campaign that does not play Resilience."""
    return only is None and not plays_resilience(campaign)


def kinds_to_build(campaign: Campaign, only: list[str] | None) -> list[str]:
    """The kinds a build makes, in build order: those asked for with ``--only``, else all
    but Resilience's for a campaign that does not play it."""
    if only is not None:
        return [kind for kind in KINDS if kind in only]
    skip = RESILIENCE_KINDS if skips_resilience(campaign, only) else ()
    return [kind for kind in KINDS if kind not in skip]


def maker(kind: str) -> DocumentMaker:
    """``module`` or ``module:function`` (two kinds share the deck module)."""
    module_name, _, function_name = KINDS[kind].partition(":")
    module = importlib.import_module(f"{__package__}.{module_name}")
    function: DocumentMaker = getattr(module, function_name or "documents")
    return function
