"""Booklet chapters: CommonMark with tables, raw HTML off, so ``<script>`` prints as text.

The HTML we hand to the template is what markdown-it escaped plus what we generate: heading
anchors, web links with their addresses, inserts, and pictures checked and re-encoded by
Pillow and embedded, so the renderer never opens a user's file itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from PIL import Image

from ...render.confine import RefusedResource
from ...render.images import ImageProblem, open_picture, picture_data_url
from ...render.lint import SOURCE_ATTRIBUTE, source_line
from ...render.names import slug
from ...render.templating import render_html
from ...typesetting.units import MM_PER_INCH
from ...wording import _
from .inserts import INSERT_FENCE, insert_view
from .source import BookletContext, ChapterFile, campaign_file, relative_path

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
IMAGE_DPI = 150  # the size an image prints at when it is smaller than the text column


def markdown() -> MarkdownIt:
    """CommonMark plus tables, raw HTML off: ``<b>`` in a chapter prints as ``<b>``."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    default_fence = cast(RendererHTML, md.renderer).rules["fence"]

    def fence(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if "insert" in token.meta:
            return render_html("booklet/insert.html", {"insert": token.meta["insert"]})
        result: str = default_fence(tokens, idx, options, env)
        return result

    md.add_render_rule("fence", fence)
    return md


def _plain(inline: Token) -> str:
    """The words of a heading, without Markdown emphasis or code marks."""
    words = [c.content for c in inline.children or [] if c.type in {"text", "code_inline"}]
    return re.sub(r"\s+", " ", "".join(words)).strip()


@dataclass
class Heading:
    level: int
    text: str
    id: str


@dataclass
class ParsedChapter:
    file: ChapterFile
    tokens: list[Token]
    headings: list[Heading]


def _unique_id(text: str, ids: set[str]) -> str:
    """GitHub-like anchors (``## Pace`` -> ``#pace``), numbered when a title repeats."""
    base = slug(text)
    candidate, count = base, 1
    while candidate in ids:
        count += 1
        candidate = f"{base}-{count}"
    ids.add(candidate)
    return candidate


# Columns from which a Markdown table is set as ``wide`` (booklet.css): smaller type and
# no cell kept on one line, so it fits the text column instead of running off the page.
WIDE_TABLE_COLUMNS = 7
# From here a table gets a landscape page of its own (the reader turns the booklet), where
# its columns have half as much room again as on the upright page.
LANDSCAPE_COLUMNS = 10
READABLE_COLUMNS = 16  # beyond this even a landscape page breaks short words: ``check`` says so


def mark_sources(tokens: Sequence[Token], shown: str) -> None:
    """Every block (paragraph, heading, list item, table, code) names the chapter line it
    came from: a layout problem then points to the author's line (render/lint.py)."""
    for token in tokens:
        if token.map and token.nesting >= 0 and token.type != "inline":
            token.attrSet(SOURCE_ATTRIBUTE, source_line(shown, token.map[0] + 1))
    for index, token in enumerate(tokens):
        columns = _columns(tokens, index) if token.type == "table_open" else 0
        if columns >= WIDE_TABLE_COLUMNS:
            token.attrJoin("class", "wide")
        if columns >= LANDSCAPE_COLUMNS:
            token.attrJoin("class", "landscape")


def _columns(tokens: Sequence[Token], table: int) -> int:
    """The columns of the table opening at ``tokens[table]`` (its header row's cells)."""
    columns = 0
    for token in tokens[table:]:
        if token.type == "th_open":
            columns += 1
        elif token.type == "tr_close":
            break
    return columns


def parse_chapter(md: MarkdownIt, chapter: ChapterFile, ctx: BookletContext) -> ParsedChapter:
    tokens = md.parse(chapter.text)
    mark_sources(tokens, chapter.shown)
    for index, token in enumerate(tokens):
        columns = _columns(tokens, index) if token.type == "table_open" else 0
        if columns > READABLE_COLUMNS:
            ctx.warn(
                f"a table of {columns} columns: even on a landscape page it fits only with its"
                f" words broken mid-word; split it into tables of {READABLE_COLUMNS} columns"
                " or fewer",
                chapter.shown,
                token.map[0] + 1 if token.map else None,
            )
    for token in tokens:
        for child in token.children or []:
            if child.type == "image" and not child.content.strip():
                # A screen reader says nothing of it, and the booklet cannot claim PDF/UA.
                ctx.warn(
                    f"the picture {child.attrGet('src')} has no description; write one"
                    " between the brackets, ![like this](picture.png)",
                    chapter.shown,
                    token.map[0] + 1 if token.map else None,
                )
    headings: list[Heading] = []
    first_block = next((t for t in tokens if t.nesting >= 0 and t.level == 0), None)
    if first_block is None or first_block.type != "heading_open" or first_block.tag != "h1":
        first_line = first_block.map[0] + 1 if first_block is not None and first_block.map else 1
        ctx.problem(
            "a chapter begins with its title, a line such as '# Rolls'", chapter.shown, first_line
        )
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        level = int(token.tag[1])
        line = token.map[0] + 1 if token.map else None
        if level == 1 and headings:
            ctx.problem(
                "one '# title' per chapter file; use '## ' for its sections", chapter.shown, line
            )
        if headings and level > headings[-1].level + 1:
            # Screen readers list headings by level: a jump leaves a gap in the outline.
            ctx.warn(
                f"heading level {level} follows level {headings[-1].level}; use"
                f" '{'#' * (headings[-1].level + 1)} ' so the outline has no gap",
                chapter.shown,
                line,
            )
        text = _plain(tokens[index + 1]) or _("untitled")
        heading = Heading(level, text, _unique_id(text, ctx.ids))
        token.attrSet("id", heading.id)
        if level == 1:
            token.attrSet("class", "chapter-title")
        headings.append(heading)
    return ParsedChapter(chapter, tokens, headings)


def _image_url(src: str, chapter: ChapterFile, ctx: BookletContext) -> tuple[str, float]:
    """The picture as an embedded JPEG and the width (mm) it prints at. Raises
    ImageProblem with a message for the author."""
    if not relative_path(src):
        raise ImageProblem(
            f"{src}: only pictures inside the campaign folder can be used, given relative to"
            " the chapter (e.g. pictures/map.png)"
        )
    path = chapter.path.parent / unquote(urlsplit(src).path)
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise ImageProblem(f"{src}: pictures must be PNG, JPEG or WebP files")
    picture = open_booklet_picture(path, ctx.booklet.root, src)
    width_px, height_px = picture.size
    layout = ctx.layout
    natural = width_px / IMAGE_DPI * MM_PER_INCH
    width = min(layout.text_mm, natural)
    height = width * height_px / max(width_px, 1)
    tallest = layout.text_height_mm * 0.7  # leave room for a caption and a line or two
    if height > tallest:
        width, height = width * tallest / height, tallest
    url = picture_data_url(picture, (width, height), grey=ctx.options.ink_saver)
    return url, width


def open_booklet_picture(path: Path, root: Path, name: str) -> Image.Image:
    """A booklet picture or cover through the picture gate (``render/images.py``): inside
    the campaign folder, a whole PNG, JPEG or WebP within the pixel cap, decoded once.
    Raises ImageProblem naming it as its author wrote it."""
    try:
        real = campaign_file(path, root, name)
    except RefusedResource as err:
        raise ImageProblem(str(err)) from None
    return open_picture(real, [root], name, kind="pictures")


_LINK_SCHEMES = {"http", "https", "mailto"}


def check_inline(parsed: ParsedChapter, ctx: BookletContext) -> None:
    """Links and images: internal links must reach a heading, web links stay (their address
    is printed after them), other targets lose their link; pictures are embedded."""
    file = parsed.file.shown
    for token in parsed.tokens:
        if token.type != "inline" or not token.children:
            continue
        line = token.map[0] + 1 if token.map else 1
        closing: list[Token] = []
        for child in token.children:
            if child.type in {"softbreak", "hardbreak"}:
                line += 1
            elif child.type == "link_open":
                href = str(child.attrGet("href") or "")
                scheme = urlsplit(href).scheme.lower()
                if href.startswith("#"):
                    if unquote(href[1:]) not in ctx.ids:
                        ctx.problem(
                            f"the link {href} leads to no heading in this booklet", file, line
                        )
                    closing.append(child)
                elif scheme in _LINK_SCHEMES:
                    child.attrSet("class", "web")
                    closing.append(child)
                else:
                    # A file of the campaign or an unknown scheme means nothing on paper.
                    child.tag, child.attrs = "span", {}
                    closing.append(child)
            elif child.type == "link_close" and closing:
                child.tag = closing.pop().tag
            elif child.type == "image":
                try:
                    url, width = _image_url(str(child.attrGet("src") or ""), parsed.file, ctx)
                except ImageProblem as err:
                    ctx.problem(str(err), file, line)
                    continue
                child.attrSet("src", url)
                child.attrSet("style", f"width: {width:.1f}mm")


def _is_insert(token: Token) -> bool:
    return token.type == "fence" and token.info.strip().split(" ")[0] == INSERT_FENCE


def mark_inserts(parsed: ParsedChapter, ctx: BookletContext) -> None:
    for token in parsed.tokens:
        if _is_insert(token):
            view = insert_view(token, ctx, parsed.file.shown)
            # A failed insert renders as nothing: the build stops on the problem anyway.
            token.meta["insert"] = view if view is not None else {"type": "none"}
    keep_with_tables(parsed.tokens)


LEADS_IN = "leads-in"  # the CSS keeps such a paragraph on the page of what follows it
# How many paragraphs before a table introduce it: a section's opening words and the
# sentence that says how to read the table, together about a third of a small page.
INTRO_PARAGRAPHS = 2


def keep_with_tables(tokens: Sequence[Token]) -> None:
    """The paragraphs right before a table or an insert (up to INTRO_PARAGRAPHS) introduce
    it: mark them so the page never breaks between them and the table. Otherwise a page
    can end on the words that explain a table printed overleaf, or a chapter's last page
    hold a table alone, the rest of it blank."""
    for index, token in enumerate(tokens):
        if token.type != "table_open" and not _is_insert(token):
            continue
        # A paragraph is three tokens: paragraph_open, inline, paragraph_close.
        end = index
        for __ in range(INTRO_PARAGRAPHS):
            if end < 3 or tokens[end - 1].type != "paragraph_close":
                break
            opening = tokens[end - 3]
            if opening.type != "paragraph_open" or opening.level != token.level:
                break
            opening.attrJoin("class", LEADS_IN)
            end -= 3


def expected_text(parsed: ParsedChapter) -> list[tuple[str, str]]:
    """The words of each block of the chapter, by its ``file:line``, for the build's
    completeness audit (render/audit.py). Inserts are ours and checked by their own
    tests; a picture's description is not printed text."""
    found: list[tuple[str, str]] = []
    for token in parsed.tokens:
        if token.type == "inline" and token.map:
            words = " ".join(
                child.content
                for child in token.children or []
                if child.type in {"text", "code_inline"}
            )
            if words.strip():
                found.append((source_line(parsed.file.shown, token.map[0] + 1), words))
        elif token.type in {"fence", "code_block"} and token.map and not _is_insert(token):
            found.append((source_line(parsed.file.shown, token.map[0] + 1), token.content))
    return found
