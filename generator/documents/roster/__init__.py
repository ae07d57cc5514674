"""The NPC roster: every non-player character as a compact stat block, two columns a page.

One block per NPC in the books' own format, ``Name (13 agility, 10 intelligence, 12
strength, 1 stamina): description`` then ``2 wrestling: note`` lines and the attacks it rolls
(the sheet's computed bonuses and damage), with an HP track and a tick box for each
unrepeatable action; minions sit under their leader. Blocks are grouped by
initiative group under a heading that carries the group's initiative bonus.

Pagination is done here, not by the renderer: every block's height is computed from the
bundled fonts' own advance widths and fixed line heights (the same millimetres the CSS
uses, passed to it as strings), then blocks are poured into two fixed-width columns. So:

* a block is never split across a column or a page, and a group heading never ends a column;
* the page count and every page's number are known before WeasyPrint runs, which is what
  lets a 1,000-NPC roster be rendered in chunks (:func:`roster_chunks`): each chunk is a
  Document of whole pages whose page counter starts at the right number
  (``@page :first { counter-reset: page N }``), with "of TOTAL" known too, so the merged
  PDF needs no stamping afterwards;
* two float columns filled in Python cost less to lay out than CSS ``columns``.

Estimates err on the tall side (a slightly narrower measure than the CSS gives, no break
after hyphens), so a column may end a little early but never overflows.

The parts: this module makes the documents and their context; ``measuring`` counts lines,
``geometry`` holds the page's and a block's millimetres, ``blocks`` makes the view model of
one NPC, ``sections`` picks and groups the NPCs, and ``pages`` pours them into columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...definitions.campaign import Campaign
from ...definitions.models import BuildOptions
from ...render.jobs import Placement
from ...statblocks import Computed
from ...typesetting.paper import PAPER_MM
from ...wording import _, ngettext
from .. import actions as action_words
from .. import terms
from ..base import Document, Imposed, page_context
from .blocks import attack_rows
from .geometry import TITLE_H, css_metrics
from .measuring import count_lines, text_mm
from .pages import Page, Roster, page_view, paginate, plan_roster, plan_titled
from .sections import Titled, is_npc, sections

# What other modules and the tests name as the printable's own.
__all__ = [
    "PAGES_PER_BATCH",
    "TITLE_H",
    "Titled",
    "attack_rows",
    "build_documents",
    "count_lines",
    "css_string",
    "documents",
    "is_npc",
    "paged_document",
    "paginate",
    "plan_roster",
    "plan_titled",
    "roster_context",
    "sections",
    "text_mm",
]

KIND = "roster"
TEMPLATE = "roster/roster.html"

# ------------------------------------------------------------------------------------------
# Documents


# ASCII that can neither end a CSS string nor be changed by HTML autoescaping.
CSS_PLAIN = frozenset(" .,:;!?()-+/#%=")


def css_string(text: str) -> str:
    """Text for a CSS string literal in the template: letters, digits, spaces and plain
    punctuation as they are, everything else as a CSS escape, so no campaign text can end
    the string (and HTML autoescaping has nothing to change). Each escape ends in a space,
    which CSS reads as the escape's end, so the space written after it is kept."""
    return "".join(
        c if c.isascii() and (c.isalnum() or c in CSS_PLAIN) else f"\\{ord(c):06x} " for c in text
    )


def campaign_title(campaign: Campaign) -> str:
    """The ``title`` of scratchpress.toml, else the campaign folder's name made readable:
    ``lantern-weir`` reads "Lantern Weir"."""
    if campaign.settings.title:
        return campaign.settings.title
    if campaign.root is None:
        return ""
    name = campaign.root.resolve().name.replace("_", " ").replace("-", " ").strip()
    return name.title() if name.islower() else name


def roster_context(
    roster: Roster,
    pages: Sequence[Page],
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    label: str = "",
    summary: str = "",
) -> dict[str, Any]:
    """The template's context; ``label`` names the printable in the running header and
    the title block ("NPC roster", "Encounters"), ``summary`` the line under the title."""
    label = label or _("NPC roster")
    title = campaign_title(campaign)
    running = (
        _("%(printable)s · %(campaign)s") % {"printable": label, "campaign": title}
        if title
        else label
    )
    summary = summary or _("%(npcs)s in %(sections)s · %(rules)s rules") % {
        "npcs": ngettext("%(num)s NPC", "%(num)s NPCs", roster.npcs) % {"num": roster.npcs},
        "sections": ngettext("%(num)s section", "%(num)s sections", roster.groups)
        % {"num": roster.groups},
        "rules": terms.ruleset(computed.rules.name),
    }
    total_pages = sum(p.span for p in roster.pages)
    # The page's margins print these through CSS strings: the words around the page
    # counter, and the key to the tracks and tick boxes.
    page_before, _counter, page_after = (
        _("Page %(page)s of %(pages)s") % {"page": "\0", "pages": total_pages}
    ).partition("\0")
    context = {
        "title": running,
        "page": page_context(options),
        "m": css_metrics(roster.geometry),
        "running_css": css_string(running),
        "label": label,
        "doc_heading": title or label,
        "has_title": bool(pages) and pages[0].title,
        "summary": summary,
        "psychic_limit": action_words.limit(computed.rules),
        "first_page": pages[0].number if pages else 1,
        "total_pages": total_pages,
        "page_before_css": css_string(page_before),
        "page_after_css": css_string(page_after),
        "pages": [page_view(p) for p in pages],
    }
    context["key_css"] = css_string(
        _(
            "HP: dashed boxes are injured, the round box is incapacitated   ·   D distract,"
            " S surprise, I intimidate: %(limit)s, tick when used"
        )
        % {"limit": context["psychic_limit"]}
    )
    return context


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """``roster.pdf``: every NPC of the campaign; none when the campaign has no NPCs."""
    roster = plan_roster(computed, options)
    if not roster.npcs:
        return []
    context = roster_context(roster, roster.pages, computed, campaign, options)
    return [Document(KIND, _("NPC roster"), "roster", TEMPLATE, context)]


# Pages per rendered batch: up to about 130 NPC blocks (16 to a page of short blocks), so
# a worker stays near 150 MB (WeasyPrint takes about 0.5 MB a block). Pages are cached one
# by one, so changing one NPC re-renders its page only.
PAGES_PER_BATCH = 8


def build_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions
) -> list[Document]:
    """What `scratchpress build` renders: the roster as pages rendered and cached one by
    one (in batches of consecutive pages when many are missing), put together by pikepdf.
    ``context`` stays the whole roster as one document, the reference for tests."""
    roster = plan_roster(computed, options)
    if not roster.npcs:
        return []
    return [paged_document(KIND, _("NPC roster"), "roster", roster, computed, campaign, options)]


def paged_document(
    kind: str,
    title: str,
    stem: str,
    roster: Roster,
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    **context: str,
) -> Document:
    """A roster-layout document whose pages render in batches (on every core, each page
    cached) and are put together by pikepdf; ``context`` goes to :func:`roster_context`."""
    whole = roster_context(roster, roster.pages, computed, campaign, options, **context)
    shell = roster_context(roster, [], computed, campaign, options, **context)
    units = [("page", page_view(page)) for page in roster.pages]
    imposed = Imposed(
        contexts={"page": shell},
        units=units,
        sheets=[[Placement(index, all_pages=True)] for index in range(len(units))],
        paper_mm=PAPER_MM[options.paper],
        spans=[page.span for page in roster.pages],
        batch_context=_numbered_from,
        max_batch=PAGES_PER_BATCH,
    )
    return Document(kind, title, stem, TEMPLATE, whole, imposed=imposed)


def _numbered_from(pages: list[dict[str, Any]]) -> dict[str, Any]:
    """A batch of consecutive pages numbers on from its first page, and only the roster's
    first page drops the running header for the title block."""
    return {"first_page": pages[0]["number"], "has_title": bool(pages[0]["title"])}
