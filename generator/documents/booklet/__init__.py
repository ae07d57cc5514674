"""Booklets (kind "booklets"): the campaign's ``booklet.yaml`` and its Markdown chapters as
a small book with a cover, contents, running heads and generated tables.

A campaign without ``booklet.yaml`` has no booklet, and that is not a problem. The work is
split by concern: ``source`` reads the booklet's files, ``markdown`` turns chapters into
HTML, ``inserts`` builds the generated tables, ``imposition`` holds the page geometry and
the printer's saddle-stitch copy; this module puts them together into one view model.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ... import __version__
from ...definitions.campaign import Campaign
from ...definitions.models import BuildOptions
from ...problems import InputError, Problem
from ...render.images import ImageProblem, picture_data_url
from ...render.names import slug
from ...statblocks import Computed
from ...wording import N_, _
from ..base import Document, page_context
from .contents import contents_columns
from .imposition import LAYOUTS, booklet_layout, impose_saddle, saddle_sheet
from .inserts import INSERTS, statblock_view
from .markdown import (
    check_inline,
    expected_text,
    mark_inserts,
    markdown,
    open_booklet_picture,
    parse_chapter,
)
from .source import BOOKLET_FILE, Booklet, BookletContext, BookletDef, booklet_file, load_booklet

KIND = "booklets"
TEMPLATE = "booklet/booklet.html"
PREFIX = "booklet-"

# scratchpress's credit, printed in every booklet: its inserts print our own writing (the
# rules summaries, the Resilience events, careers and project ideas), which a reader must
# not take for the games' own texts, and the games deserve their names on the page.
CREDIT = N_(
    "The rules summaries and the Resilience content scratchpress prints (its events,"
    " careers and project ideas) were written for scratchpress in its own words; they are"
    " not the official rule texts."
)
BASED_ON = N_(
    "Based on two games first published as wiki pages by SerpLord in 2011: the Scratch"
    " Role-Playing System (the Scratch RPS) and Resilience, the post-apocalyptic"
    " community game built on it."
)


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    """One Document per booklet; raises InputError (file:line) for a bad booklet."""
    booklet = load_booklet(campaign)
    if booklet is None:
        return []
    expected: list[tuple[str, str]] = []
    context = booklet_view(booklet, computed, campaign, options, expected=expected)
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
            expected=tuple(expected),
        )
    ]


def _cover_view(booklet: Booklet, ctx: BookletContext) -> dict[str, Any]:
    d = booklet.definition
    view: dict[str, Any] = {
        "title": d.title,
        "subtitle": d.subtitle or "",
        "author": d.author or "",
        "version": _("Version %(version)s") % {"version": d.version} if d.version else "",
        "image": "",
        "image_width": "",
        "image_alt": "",
    }
    if booklet.cover is not None:
        layout = ctx.layout
        box_w, box_h = layout.text_mm, layout.text_height_mm * (0.52 if layout.small else 0.55)
        try:
            picture = open_booklet_picture(booklet.cover, booklet.root, d.cover or "cover")
            w_px, h_px = picture.size
            scale = min(box_w / w_px, box_h / h_px)
            frame = (w_px * scale, h_px * scale)
            view["image"] = picture_data_url(picture, frame, grey=ctx.options.ink_saver)
            view["image_width"] = f"{frame[0]:.1f}mm"
            view["image_alt"] = _("Cover picture of %(title)s") % {"title": d.title}
        except ImageProblem as err:
            ctx.problem(str(err), booklet.file, booklet.cover_line, "cover")
    return view


def _colophon_view(booklet: Booklet) -> dict[str, Any]:
    """The imprint, on the back of the cover where a book keeps its copyright page: the
    booklet's title and edition, the author's own note, then scratchpress's credit."""
    d = booklet.definition
    said = {"title": d.title, "version": d.version, "author": d.author}
    if d.version and d.author:
        imprint = _("%(title)s, version %(version)s. %(author)s.") % said
    elif d.version:
        imprint = _("%(title)s, version %(version)s.") % said
    elif d.author:
        imprint = _("%(title)s. %(author)s.") % said
    else:
        imprint = _("%(title)s.") % said
    return {
        "imprint": imprint,
        "note": d.colophon or "",
        "credit": _(CREDIT),
        "based_on": _(BASED_ON),
        "printer": _("Set with scratchpress %(version)s.") % {"version": __version__},
    }


def booklet_view(
    booklet: Booklet,
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    warnings: list[Problem] | None = None,
    expected: list[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The template's whole context. Raises InputError listing every problem found;
    ``warnings`` gets what does not stop a build (a heading that skips a level),
    ``expected`` the author's words by source line (for the completeness audit)."""
    paper, layout = booklet_layout(booklet.definition.paper, options)
    ctx = BookletContext(booklet, computed, campaign, options, layout)
    ctx.warnings = warnings if warnings is not None else []
    md = markdown()
    parsed = [parse_chapter(md, chapter, ctx) for chapter in booklet.chapters]
    for chapter in parsed:
        check_inline(chapter, ctx)
        mark_inserts(chapter, ctx)
    cover = _cover_view(booklet, ctx)
    if ctx.problems:
        raise InputError(ctx.problems)
    if expected is not None:
        for chapter in parsed:
            expected += expected_text(chapter)

    chapters: list[dict[str, Any]] = []
    toc: list[dict[str, Any]] = []
    for chapter in parsed:
        title = chapter.headings[0]
        # Markup: markdown-it escaped every character of the author's text (html is off)
        # and the inserts come from our own autoescaped templates.
        html = Markup(md.renderer.render(chapter.tokens, md.options, {}))
        label = _("Chapter %(number)s") % {"number": len(chapters) + 1}
        chapters.append({"id": title.id, "title": title.text, "label": label, "html": html})
        toc.append(
            {
                "id": title.id,
                "number": len(toc) + 1,
                "title": title.text,
                "sections": [
                    {"id": h.id, "title": h.text} for h in chapter.headings if h.level == 2
                ],
            }
        )
    d = booklet.definition
    page = {**page_context(options), "paper": paper, "paper_css": layout.size}
    return {
        "page": page,
        "title": d.title,
        "author": d.author or "",
        "description": d.subtitle or "",
        "layout": {
            "size": layout.size,
            "landscape": f"{layout.height_mm:g}mm {layout.width_mm:g}mm",
            "top": f"{layout.top_mm:g}mm",
            "bottom": f"{layout.bottom_mm:g}mm",
            "inner": f"{layout.inner_mm:g}mm",
            "outer": f"{layout.outer_mm:g}mm",
            # The cover is a single page, not half a spread: equal side margins.
            "centre": f"{(layout.inner_mm + layout.outer_mm) / 2:g}mm",
            "body": f"{layout.body_pt:g}pt",
            "scale": "small" if layout.small else "large",
            # The cover fills the first page's text area; a hair less, so it never spills.
            "text_height": f"{layout.text_height_mm - 0.5:g}mm",
        },
        "cover": cover,
        "colophon": _colophon_view(booklet),
        "toc": toc,
        # Balanced here (documents/booklet/contents.py); empty: CSS columns that run on.
        "toc_columns": contents_columns(toc, layout),
        "chapters": chapters,
        # For the build: the sheet the saddle copy goes on, and its name for the summary
        # when it is not the build's paper (a booklet that names its own page size).
        "saddle": saddle_sheet(paper, options),
    }


def booklet_problems(
    campaign: Campaign, computed: Computed, options: BuildOptions | None = None
) -> list[Problem]:
    """Everything wrong with the campaign's booklet, for ``scratchpress check``."""
    warnings: list[Problem] = []
    try:
        booklet = load_booklet(campaign)
        if booklet is not None:
            booklet_view(booklet, computed, campaign, options or BuildOptions(), warnings)
    except InputError as err:
        return [*err.problems, *warnings]
    return warnings


__all__ = [
    "BOOKLET_FILE",
    "INSERTS",
    "LAYOUTS",
    "Booklet",
    "BookletDef",
    "booklet_file",
    "booklet_problems",
    "booklet_view",
    "documents",
    "impose_saddle",
    "load_booklet",
    "markdown",
    "statblock_view",
]
