"""Booklets (kind "booklets"): the campaign's ``booklet.yaml`` and its Markdown chapters as
a small book with a cover, contents, running heads and generated tables.

The work is in ``generator.booklet``; this module only turns it into a Document. A campaign
without ``booklet.yaml`` has no booklet, and that is not a problem.
"""

from __future__ import annotations

from ..booklet import booklet_view, load_booklet
from ..definitions.campaign import Campaign
from ..render.names import slug
from ..statblocks import Computed
from .base import BuildOptions, Document

KIND = "booklets"
TEMPLATE = "booklet/booklet.html"
PREFIX = "booklet-"


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """One Document per booklet; raises InputError (file:line) for a bad booklet."""
    booklet = load_booklet(campaign)
    if booklet is None:
        return []
    context = booklet_view(booklet, computed, campaign, options)
    title = booklet.definition.title
    return [
        Document(
            kind=KIND,
            title=title,
            stem=PREFIX + slug(title),
            template=TEMPLATE,
            context=context,
            # Printed on both sides of the paper, like any book.
            duplex=True,
            pdf_variant="pdf/ua-1",
        )
    ]
