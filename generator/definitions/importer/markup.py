"""Text to numbered lines: plain text as it stands, wiki HTML and feeds of page revisions
(see "Wiki pages as the feed carries them" in the package's docstring)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Final

from .pieces import _Line, _Skipped

# --- HTML, as the wiki's feed carries a page (see "Wiki pages as the feed carries them").
# Text is markup when it holds a line-break or block tag (those of _BREAK_TAGS) or a
# character entity; plain text with a stray "<" or "&" stays plain.
_BREAK_TAG_RE: Final[re.Pattern[str]] = re.compile(
    r"</?(?:br|p|div|li|ul|ol|dl|dt|dd|tr|td|th|table|hr|pre|blockquote|h[1-6])\b[^<>]*>",
    re.IGNORECASE,
)
_MARKUP_RE: Final[re.Pattern[str]] = re.compile(
    _BREAK_TAG_RE.pattern + r"|&(?:#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});",
    re.IGNORECASE,
)
# HTML escaped once more (the body of a feed entry copied out of the XML as it stands).
_ESCAPED_MARKUP_RE: Final[re.Pattern[str]] = re.compile(
    r"&lt;(?:br|p|div)\b|&lt;/(?:p|div)\s*&gt;", re.IGNORECASE
)
# One token of markup. The tag pattern cannot run past the next "<" (a quoted value may hold
# a ">"), so a broken tag is text and the scan stays linear; comments and the hidden
# elements end at their close, or at the end of the text when there is none.
_TOKEN_RE: Final[re.Pattern[str]] = re.compile(
    r"(?P<comment><!--.*?(?:-->|\Z))"
    r"|(?P<hidden><(?P<hidden_name>script|style)\b[^<>]*>.*?(?:</(?P=hidden_name)\s*>|\Z))"
    r"|(?P<tag><(?P<close>/?)(?P<name>[a-z][a-z0-9]*)\b(?:[^<>\"']|\"[^\"<]*\"|'[^'<]*')*>)"
    r"|(?P<declaration><[!?][^<>]*>)"
    r"|\n",
    re.IGNORECASE | re.DOTALL,
)
# Tags that end a line of text (the rest are inline: dropped, their text kept).
_BREAK_TAGS: Final[frozenset[str]] = frozenset(
    {"br", "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th", "table", "hr"}
    | {"pre", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
)
# A feed: Atom entries or RSS items, the page's HTML in their summary, content or description.
_FEED_RE: Final[re.Pattern[str]] = re.compile(r"<(?:feed|rss)\b[^<>]*>", re.IGNORECASE)
# An entry's body never runs into the next entry, so an unclosed one costs no rescan.
_ENTRY_RE: Final[re.Pattern[str]] = re.compile(
    r"<(?P<tag>entry|item)\b[^<>]*>(?P<body>(?:(?!<(?:entry|item)\b).)*?)</(?P=tag)\s*>",
    re.IGNORECASE | re.DOTALL,
)
_ENTRY_TEXT_RE: Final[re.Pattern[str]] = re.compile(
    r"<(?P<tag>summary|content|description)\b(?P<attributes>[^<>]*)>"
    r"(?P<text>(?:(?!<(?:summary|content|description)\b).)*?)</(?P=tag)\s*>",
    re.IGNORECASE | re.DOTALL,
)
_UPDATED_RE: Final[re.Pattern[str]] = re.compile(r"<updated\b[^<>]*>\s*([^<>]*?)\s*</updated\s*>")
_CDATA_RE: Final[re.Pattern[str]] = re.compile(r"^\s*<!\[CDATA\[(.*?)\]\]>\s*$", re.DOTALL)


@dataclass
class _Segment:
    """Lines read as one unit: a revision of the page, or text outside any revision."""

    lines: list[_Line] = field(default_factory=list)
    revision: bool = False


def _segments(text: str) -> tuple[list[_Segment], list[_Skipped]]:
    """The text as segments of numbered lines, newest revision first, and what the markup
    layer dropped (hidden elements)."""
    if _FEED_RE.search(text) and _ENTRY_RE.search(text):
        return _feed_segments(text)
    if not _BREAK_TAG_RE.search(text) and _ESCAPED_MARKUP_RE.search(text):
        text = html.unescape(text)  # a feed entry's body copied out still escaped for XML
    if _MARKUP_RE.search(text):
        return _markup_segments(text)
    return [_Segment(_plain_lines(text))], []


def _plain_lines(text: str, first: int = 1) -> list[_Line]:
    """Lines numbered as an editor numbers them; a form feed or other separator inside a
    line splits it further, as :meth:`str.splitlines` does, under the same number."""
    return [
        (first + number, part)
        for number, physical in enumerate(re.split(r"\r\n|\r|\n", text))
        for part in physical.splitlines()
    ]


def _feed_segments(text: str) -> tuple[list[_Segment], list[_Skipped]]:
    """An Atom or RSS feed: one revision per entry, newest first. Atom entries are put in
    order by their ``updated`` time when every entry has one; otherwise file order is kept
    (the wiki writes the newest first)."""
    found: list[tuple[str, _Segment]] = []
    skipped: list[_Skipped] = []
    counted, first = 0, 1  # lines are counted on from the last entry: linear in the feed
    for entry in _ENTRY_RE.finditer(text):
        body = _ENTRY_TEXT_RE.search(entry["body"])
        if body is None:
            continue
        start = entry.start("body") + body.start("text")
        first += text.count("\n", counted, start)
        counted = start
        cdata = _CDATA_RE.match(body["text"])
        inner = cdata.group(1) if cdata else html.unescape(body["text"])  # the XML layer
        if re.search(r"type\s*=\s*[\"']?text\b", body["attributes"], re.IGNORECASE):
            segment = _Segment(_plain_lines(inner, first), revision=True)
        else:
            segments, dropped = _markup_segments(inner, first, split_divs=False)
            segment = _Segment([line for s in segments for line in s.lines], revision=True)
            skipped += dropped
        updated = _UPDATED_RE.search(entry["body"])
        found.append((updated.group(1) if updated else "", segment))
    if found and all(stamp for stamp, _ in found):
        found.sort(key=lambda item: item[0], reverse=True)  # ISO 8601 sorts as text
    return [segment for _, segment in found], skipped


def _markup_segments(
    text: str, first: int = 1, split_divs: bool = True
) -> tuple[list[_Segment], list[_Skipped]]:
    """Wiki HTML as numbered lines of plain text (see the module docstring).

    With ``split_divs``, each top-level ``<div>`` is a revision of its own and the text
    between them a segment that is not one. A line keeps the number of the file line it
    starts on; an entity is decoded only after the tags are gone, so ``&lt;b&gt;`` is text.
    """
    segments = [_Segment()]
    skipped: list[_Skipped] = []
    pieces: list[str] = []
    number = start = first
    depth = 0  # of <div> elements, to find the top-level ones

    def end_line() -> None:
        if pieces:
            decoded = html.unescape("".join(pieces)).replace("\xa0", " ")
            segments[-1].lines += [(start, part) for part in decoded.splitlines()]
            pieces.clear()

    def begin(revision: bool) -> None:
        end_line()
        segments.append(_Segment(revision=revision))

    position = 0
    for token in _TOKEN_RE.finditer(text):
        if token.start() > position:
            if not pieces:
                start = number
            pieces.append(text[position : token.start()])
        position = token.end()
        if token.group() == "\n":
            end_line()
            number += 1
            continue
        if token["hidden"]:
            name = token["hidden_name"].lower()
            skipped.append(
                _Skipped(
                    number, "markup element", f"skipped a <{name}> element: it is not page text"
                )
            )
            end_line()
        elif token["tag"]:
            name = token["name"].lower()
            if name in _BREAK_TAGS:
                end_line()
            if name == "div" and split_divs:
                if not token["close"] and not token.group().endswith("/>"):
                    depth += 1
                    if depth == 1:
                        begin(revision=True)
                elif token["close"] and depth > 0:
                    depth -= 1
                    if depth == 0:
                        begin(revision=False)
        number += token.group().count("\n")
    if position < len(text):
        if not pieces:
            start = number
        pieces.append(text[position:])
    end_line()
    return [segment for segment in segments if segment.lines], skipped
