"""Import stat blocks written in the books' plain-text format as scratchpress definitions.

The Scratch books print characters, vehicles and communities as short runs of lines (RULES.md
§15). This module turns such text into the dictionaries of our YAML schema, so a game master
can paste a block from a wiki page and get a definition file back. It is pure: it reads
strings and returns data or text, and never prints or touches files.

Formats recognised
------------------
* Current character header: ``Name (13 agility, 10 intelligence, 12 strength, 1 stamina): text``
* Old single-defense header: ``Name (13 defense, 1 stamina): text``
* Ability lines under a header: ``3 stealth: note`` or a bare ``3 toughness``. Wiki list
  markers (``*``, ``:``, ``#``) and indentation in front of a line are ignored.
* Vehicle lines: ``3 spaceflight (5 with Chokestar as pilot): note``; the role may be pilot,
  driver, navigator, operator (all the vehicle's operator) or gunner.
* Communities (a wiki definition list): a name line (``;Name`` or plain ``Name``) followed by
  ``:15 economy: note``, ``:5 environment: note`` and ``:10 equity: note``.

Decisions where the text is ambiguous
-------------------------------------
* Blank lines do not end a block: the books put a blank line between every ability line. A
  block ends at the first other line that is neither a header nor an ability line.
* A header followed by no ability line is skipped and reported (it is not a usable
  definition, and is most likely a sentence that merely looks like a header).
* A community line run with no plausible name line before it is skipped and reported.
* If an ability appears twice in one block, the first line wins.
* If a vehicle names two different people for the same crew role, the first one wins.
* Names are unique across every kind of definition: the second "Chokestar" becomes
  "Chokestar 2", a third "Chokestar 3".
* A vehicle with no movement ability gets no ``movement`` key.

Wiki pages as the feed carries them
-----------------------------------
The wiki's contributions feed holds whole revisions of a page as HTML: every line ends in
``<br />``, characters such as ``&amp;`` or ``&#39;`` are entities, and each revision is
wrapped in a ``<div>``. Text with HTML line breaks, block tags or entities is read as such
markup (:func:`_markup_lines`): ``<br>`` (any spelling), ``<p>``, ``<div>`` and the other
block tags end a line, every other tag is dropped and its text kept, ``<script>`` and
``<style>`` are dropped with their content, comments vanish, and entities are decoded with
:func:`html.unescape`. Nothing is ever executed or fetched: tags are only recognised by a
regular expression and thrown away. An Atom or RSS feed file is read entry by entry, the
XML layer decoded first. Plain text is read exactly as before.

Revisions: each entry of a feed, or each top-level ``<div>``, is one revision of the page.
They are read in file order, newest first, as the wiki lists them. The same name in two
revisions is the same character: an identical block is merged into the one kept; a block
that differs is reported (a warning) and the newest kept. Inside one revision, a repeated
name is a second character, numbered as above. A name that clashes with another kind of
block kept from another revision (a minion group and a character, say) is reported and the
older block skipped.

Everything skipped is reported, one :class:`~scratchpress.problems.Problem` (a note) per
piece with its line: a run of prose between blocks, a header with no ability lines, an
ability line outside any block, a line that looks like a header with unknown numbers, a
dropped ``<script>`` element.
"""

from __future__ import annotations

import html
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

from ruamel.yaml import YAML

from ..problems import Problem, Severity, quoted
from ..rules.abilities import CHARACTER_ABILITIES, OLDER_NAMES, VEHICLE_ABILITIES, VEHICLE_MOVEMENT

__all__ = [
    "Definition",
    "ImportResult",
    "dump_definitions",
    "parse_stat_blocks",
    "read_stat_blocks",
]

# One definition (character, vehicle or community) as it will be written to YAML.
Definition = dict[str, Any]

SECTION_ORDER: Final[tuple[str, ...]] = ("characters", "vehicles", "communities")
_SINGULAR: Final[dict[str, str]] = {
    "characters": "character",
    "vehicles": "vehicle",
    "communities": "community",
}

# The two header styles (RULES.md §15). A header must carry exactly one of these label sets.
CURRENT_HEADER: Final[frozenset[str]] = frozenset(
    {"agility", "intelligence", "strength", "stamina"}
)
OLD_HEADER: Final[frozenset[str]] = frozenset({"defense", "stamina"})

# Abilities only a vehicle can have; one of them (or a crew annotation) marks a vehicle block.
# Stalking, toughness, quickness, flying and swimming are shared with characters (the old
# "stalking" is a character ability too), so they prove nothing.
VEHICLE_ONLY_ABILITIES: Final[frozenset[str]] = frozenset(VEHICLE_ABILITIES) - frozenset(
    (*CHARACTER_ABILITIES, *OLDER_NAMES)
)

COMMUNITY_DEFENSES: Final[tuple[str, ...]] = ("economy", "environment", "equity")

# Crew annotations name a role; the schema only knows operator and gunner. The operator's
# title depends on the medium (pilot for air and space, driver on the ground, navigator on
# water), and all of them steer the vehicle.
CREW_ROLES: Final[dict[str, str]] = {
    "pilot": "operator",
    "driver": "operator",
    "navigator": "operator",
    "operator": "operator",
    "gunner": "gunner",
}

# Words a leader's command note may use for the size of a minion group.
NUMBER_WORDS: Final[dict[str, int]] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "single": 1,
    "two": 2,
    "pair": 2,
    "couple": 2,
    "three": 3,
    "trio": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "dozen": 12,
}

# How many words before the minion's name in the note we search for a count: enough for
# "two loyal thugs", few enough not to pick up an unrelated number earlier in the sentence.
_COUNT_WINDOW: Final[int] = 3

# Community names are short titles; a long line or a sentence is prose, not a name.
_MAX_NAME_LENGTH: Final[int] = 60

_HEADER_COMMENT: Final[str] = (
    "# Imported by scratchpress from stat blocks in the books' plain-text format.\n"
    "# Check the result: printed values are copied as written, not recomputed.\n"
)

# Wiki list markers and indentation that may precede a line of a stat block. The possessive
# quantifiers (`*+`, `++`) and the greedy tails, stripped in code, keep matching linear:
# lazy groups followed by `\s*` backtrack quadratically on long lines full of spaces.
_LEAD: Final[str] = r"^[\s*:;#]*+"

_HEADER_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD
    + r"(?P<name>[^():]++)"
    + r"\((?P<stats>\d+\s+[a-z]+(?:\s*,\s*\d+\s+[a-z]+)*)\)\s*+"
    + r"(?::(?P<description>.*))?$",
    re.IGNORECASE,
)
_STAT_RE: Final[re.Pattern[str]] = re.compile(r"(\d+)\s+([a-z]+)", re.IGNORECASE)

# Ability names are one to three words ("land sailing"); a longer run is a prose sentence.
_ABILITY_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD
    + r"(?P<level>\d+)\s+(?P<ability>[a-z]+(?:[ _-][a-z]+){0,2})\s*+"
    + r"(?:\(\s*(?P<crewed>\d+)\s+with\s+(?P<crew>[^()]+?)\s+as\s+(?P<role>[a-z]+)\s*\)\s*+)?"
    + r"(?::(?P<note>.*))?$",
    re.IGNORECASE,
)

# Wiki bold/italic quotes and link brackets around a name are markup, not part of it.
_NAME_MARKUP_RE: Final[re.Pattern[str]] = re.compile(r"'{2,}|\[\[|\]\]")

# A line that has the shape of a header, "Name (N word, N word...)", whatever the words.
_HEADER_SHAPE_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD + r"[^():]++\(\s*\d+\s+[a-z]+(?:\s*,\s*\d+\s+[a-z]+)*\s*\)\s*+(?::.*)?$",
    re.IGNORECASE,
)

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


@dataclass(frozen=True)
class _AbilityLine:
    """One ``N ability (M with NAME as role): note`` line."""

    ability: str
    level: int
    note: str
    crewed_level: int | None = None
    crew_name: str | None = None
    crew_role: str | None = None


@dataclass
class _RawBlock:
    """A header (or community name) and the ability lines read under it."""

    name: str
    is_community: bool
    description: str = ""
    printed: dict[str, int] = field(default_factory=dict)
    lines: list[_AbilityLine] = field(default_factory=list)
    # True when nothing but blank lines separates this block from the one before it; only
    # such a block can be the minion group of the previous leader.
    follows_block: bool = False
    line: int = 0  # of the header (or of a community's name) in the file


# A line of text and the line of the file it starts on (1-based).
_Line = tuple[int, str]


@dataclass(frozen=True)
class _Skipped:
    """A piece of the text that gave no definition: where, what kind, and the message."""

    line: int
    # "prose run", "header", "ability line", "markup element", "older block", "name clash"
    kind: str
    message: str
    entry: str | None = None
    severity: Severity = "note"


@dataclass(frozen=True)
class _Entry:
    """A definition read from one revision, with its section and the line of its header."""

    section: str
    definition: Definition
    line: int

    def names(self) -> list[str]:
        """Its own name and its minion groups' names, casefolded: the names it takes."""
        minions = self.definition.get("minions", [])
        return [str(d["name"]).casefold() for d in [self.definition, *minions]]


@dataclass
class ImportResult:
    """What :func:`read_stat_blocks` found: definitions, and a report of everything else."""

    definitions: dict[str, list[Definition]]
    problems: list[Problem]  # one per skipped piece, in the order of the file
    revisions: int = 1  # revisions of the page read (1 for plain text)
    merged: int = 0  # blocks that older revisions repeat exactly, merged into the kept ones
    skipped: Counter[str] = field(default_factory=Counter)  # skipped pieces by kind

    def summary(self) -> str:
        """One sentence: what was imported, from how many revisions, what was skipped."""
        found = [_count(len(v), _SINGULAR[k]) for k, v in self.definitions.items()]
        minions = sum(len(c.get("minions", [])) for c in self.definitions.get("characters", []))
        if minions:
            found.insert(1, _count(minions, "minion group"))
        parts = [f"imported {', '.join(found) or 'nothing'}"]
        if self.revisions > 1:
            parts[0] += f" from {self.revisions} revisions"
        if self.merged:
            parts.append(f"merged {_count(self.merged, 'block')} repeated in older revisions")
        total = sum(self.skipped.values())
        if total:
            kinds = ", ".join(_count(n, kind) for kind, n in sorted(self.skipped.items()))
            parts.append(f"skipped {_count(total, 'piece')} ({kinds})")
        return "; ".join(parts)


def _count(number: int, word: str) -> str:
    if number == 1:
        return f"1 {word}"
    if word.endswith("y"):
        return f"{number} {word[:-1]}ies"
    return f"{number} {word}{'es' if word.endswith(('s', 'sh', 'ch', 'x')) else 's'}"


@dataclass
class _Leader:
    """A character whose command note may announce the minion blocks that follow it."""

    definition: Definition
    command_note: str


class _Names:
    """Hands out unique names and remembers the latest block read under each name."""

    def __init__(self) -> None:
        self._used: set[str] = set()
        self._latest: dict[str, str] = {}
        self._next: dict[str, int] = {}  # where the search for a free number resumes

    def claim(self, name: str) -> str:
        # Numbers are never given back, so the search resumes where the last one ended:
        # a page of 40,000 blocks with one name stays linear.
        number = self._next.get(name.casefold(), 1)
        unique = name if number == 1 else f"{name} {number}"
        while unique.casefold() in self._used:
            number += 1
            unique = f"{name} {number}"
        self._next[name.casefold()] = number
        self._used.add(unique.casefold())
        self._latest[name.casefold()] = unique
        return unique

    def resolve(self, name: str) -> str:
        # A crew annotation means the most recent block of that name read so far.
        return self._latest.get(name.casefold(), name)


# --------------------------------------------------------------------------------------------
# Public API


def parse_stat_blocks(text: str) -> dict[str, list[Definition]]:
    """Find every stat block in ``text`` and return it as definitions of our schema.

    The result has the keys ``characters``, ``vehicles`` and ``communities`` in that order,
    each present only when it is not empty. Blocks keep the order of the text. See the
    module docstring for the formats handled and for the choices made on ambiguous input;
    :func:`read_stat_blocks` does the same and also reports what it skipped.
    """
    return read_stat_blocks(text).definitions


def read_stat_blocks(text: str, source: str = "") -> ImportResult:
    """Read stat blocks from plain text, wiki HTML or a feed of page revisions.

    ``source`` names the file in the problems reported (their ``file``). Revisions are
    merged newest first (see the module docstring); every piece of text that gave no
    definition is reported, one problem per piece, in the order of the file.
    """
    segments, markup_skipped = _segments(text)
    skipped: list[_Skipped] = list(markup_skipped)
    kept: dict[str, _Entry] = {}  # every name taken (minion groups too) -> its entry
    sections: dict[str, list[Definition]] = {key: [] for key in SECTION_ORDER}
    merged = 0
    for segment in segments:
        for entry in _read_revision(segment.lines, skipped):
            outcome = _merge(entry, kept, skipped)
            if outcome == "added":
                sections[entry.section].append(entry.definition)
            merged += outcome == "merged"
    skipped.sort(key=lambda piece: piece.line)  # stable: a line's pieces keep their order
    return ImportResult(
        definitions={key: items for key, items in sections.items() if items},
        problems=[
            Problem(piece.message, source, piece.line, piece.entry, severity=piece.severity)
            for piece in skipped
        ],
        revisions=max(1, sum(1 for segment in segments if segment.revision)),
        merged=merged,
        skipped=Counter(piece.kind for piece in skipped),
    )


def _merge(entry: _Entry, kept: dict[str, _Entry], skipped: list[_Skipped]) -> str:
    """Keep ``entry`` unless a newer revision already gave its name: "added", "merged" (the
    same block again), or "skipped" (a different one, reported)."""
    name = str(entry.definition["name"])
    same = kept.get(name.casefold())
    if same is not None and same.names()[0] == name.casefold():
        if same.definition == entry.definition:
            return "merged"
        skipped.append(
            _Skipped(
                entry.line,
                "older block",
                f"an older revision's block differs from the one kept from line {same.line};"
                " the newest is kept, this one skipped",
                entry=name,
                severity="warning",
            )
        )
        return "skipped"
    key = next((key for key in entry.names() if key in kept), None)
    if key is not None:
        clash = kept[key]
        owner = quoted(clash.definition["name"])
        holder = f"the block {owner}" if key == clash.names()[0] else f"a minion group of {owner}"
        skipped.append(
            _Skipped(
                entry.line,
                "name clash",
                f"a newer revision already has {holder} of that name (line {clash.line});"
                " this block is skipped: rename one of them to keep both",
                entry=name,
                severity="warning",
            )
        )
        return "skipped"
    for key in entry.names():
        kept[key] = entry
    return "added"


def dump_definitions(data: dict[str, list[Definition]]) -> str:
    """Write definitions as block-style YAML with a comment saying they were imported.

    Sections come in the schema's order (characters, vehicles, communities, then anything
    else); keys inside each definition keep the order they have in ``data``.
    """
    yaml = YAML()  # round-trip mode: keeps insertion order instead of sorting keys
    yaml.default_flow_style = False
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096  # keep each note on one line; folded notes are harder to edit
    ordered = {key: data[key] for key in SECTION_ORDER if key in data}
    ordered.update({key: value for key, value in data.items() if key not in ordered})
    stream = io.StringIO()
    yaml.dump(ordered, stream)
    return _HEADER_COMMENT + stream.getvalue()


# --------------------------------------------------------------------------------------------
# Text to lines: plain text, wiki HTML, feeds


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


# --------------------------------------------------------------------------------------------
# Scanning lines into raw blocks


def _read_revision(lines: list[_Line], skipped: list[_Skipped]) -> list[_Entry]:
    """The definitions of one revision (or of a whole plain text), in text order; names are
    made unique within it ("Chokestar 2")."""
    names = _Names()
    entries: list[_Entry] = []
    leader: _Leader | None = None
    for block in _scan(lines, skipped):
        if not block.lines:
            continue  # reported by _scan
        if block.is_community:
            entries.append(_Entry("communities", _community(block, names), block.line))
            leader = None
        elif _is_vehicle(block):
            entries.append(_Entry("vehicles", _vehicle(block, names), block.line))
            leader = None
        else:
            leader, character = _add_character(block, names, leader)
            if character is not None:
                entries.append(_Entry("characters", character, block.line))
    return entries


class _Prose:
    """Lines that belong to no block, reported as one piece per run between blocks."""

    def __init__(self, skipped: list[_Skipped]) -> None:
        self.skipped = skipped
        self.run: list[_Line] = []

    def add(self, line: _Line) -> None:
        self.run.append(line)

    def take_last(self) -> None:
        """The last line turned out to be a community's name: it is not prose after all."""
        self.run.pop()

    def flush(self) -> None:
        if not self.run:
            return
        (first, text), last = self.run[0], self.run[-1][0]
        what = (
            "a line of prose"
            if len(self.run) == 1
            else f"{len(self.run)} lines of prose (to line {last})"
        )
        self.skipped.append(
            _Skipped(
                first, "prose run", f"skipped {what}, not a stat block: {quoted(text.strip(), 60)}"
            )
        )
        self.run = []


def _scan(lines: list[_Line], skipped: list[_Skipped]) -> list[_RawBlock]:
    """Group numbered lines into raw blocks; report the lines that fit in none."""
    blocks: list[_RawBlock] = []
    current: _RawBlock | None = None
    name_line: _Line | None = None  # the last prose line: a community's name, if one follows
    prose = _Prose(skipped)
    shaped: _Skipped | None = None  # the report on the last header-shaped line, if any
    for number, line in lines:
        if not line.strip():
            continue  # the books separate every line with a blank one
        header = _parse_header(line)
        if header is not None:
            _close(current, skipped)
            prose.flush()
            shaped = None
            header.follows_block = current is not None
            header.line = number
            blocks.append(header)
            current, name_line = header, None
            continue
        ability = _parse_ability(line)
        if ability is None:
            _close(current, skipped)
            shaped = None
            if _looks_like_header(line):
                prose.flush()
                shaped = _Skipped(
                    number,
                    "header",
                    "skipped a line shaped like a header whose numbers are neither"
                    " agility, intelligence, strength and stamina nor defense and"
                    f" stamina: {quoted(line.strip(), 60)}",
                )
                skipped.append(shaped)
            else:
                prose.add((number, line))
            current, name_line = None, (number, line)
            continue
        placed = _place_ability(ability, current, name_line, blocks)
        if placed is None:
            prose.flush()
            skipped.append(_stray(number, line, ability))
        elif placed is not current:  # a community opened under its name line
            if prose.run and prose.run[-1] == name_line:
                prose.take_last()
            elif shaped is not None and shaped.line == placed.line:
                skipped.remove(shaped)  # the odd "header" named the community after all
            prose.flush()
        current, name_line, shaped = placed, None, None
    _close(current, skipped)
    prose.flush()
    return blocks


def _close(block: _RawBlock | None, skipped: list[_Skipped]) -> None:
    """Report a header that ends with no ability line under it (it gives no definition)."""
    if block is not None and not block.lines:
        skipped.append(
            _Skipped(
                block.line,
                "header",
                f"skipped the header of {quoted(block.name)}: no ability lines under it",
            )
        )


def _looks_like_header(line: str) -> bool:
    """A header's shape with at least one of the header's labels, such as "Rook (12 agility,
    1 stamina)": worth its own report. "20 kg (44 lbs)" in a table is only prose."""
    match = _HEADER_SHAPE_RE.match(line)
    labels = CURRENT_HEADER | OLD_HEADER
    return match is not None and any(
        label.lower() in labels for _, label in _STAT_RE.findall(line[line.find("(") :])
    )


def _stray(number: int, line: str, ability: _AbilityLine) -> _Skipped:
    what = (
        "a community line with no name above it"
        if ability.ability in COMMUNITY_DEFENSES
        else "an ability line with no stat block header above it"
    )
    return _Skipped(number, "ability line", f"skipped {what}: {quoted(line.strip(), 60)}")


def _place_ability(
    ability: _AbilityLine,
    current: _RawBlock | None,
    name_line: _Line | None,
    blocks: list[_RawBlock],
) -> _RawBlock | None:
    """Attach an ability line to the open block, or open a community; return the open block."""
    is_defense = ability.ability in COMMUNITY_DEFENSES
    if current is not None and (not current.is_community or is_defense):
        current.lines.append(ability)
        return current
    if current is None and is_defense and name_line is not None:
        name = _community_name(name_line[1])
        if name is not None:
            community = _RawBlock(name=name, is_community=True, lines=[ability], line=name_line[0])
            blocks.append(community)
            return community
    return None  # a stray ability line outside any block


def _parse_header(line: str) -> _RawBlock | None:
    match = _HEADER_RE.match(line)
    if match is None:
        return None
    printed = _parse_printed(match["stats"])
    name = _clean_name(match["name"])
    if printed is None or not name:
        return None
    return _RawBlock(
        name=name,
        is_community=False,
        description=(match["description"] or "").strip(),
        printed=printed,
    )


def _parse_printed(stats: str) -> dict[str, int] | None:
    """Read ``13 agility, 10 intelligence, ...``; None unless it is one of the header styles."""
    pairs = [(label.lower(), int(value)) for value, label in _STAT_RE.findall(stats)]
    labels = [label for label, _ in pairs]
    if len(set(labels)) != len(labels) or set(labels) not in (CURRENT_HEADER, OLD_HEADER):
        return None
    return dict(pairs)  # in the order printed, as the schema asks


def _parse_ability(line: str) -> _AbilityLine | None:
    match = _ABILITY_RE.match(line)
    if match is None:
        return None
    role = match["role"]
    crewed = match["crewed"]
    if role is not None and role.lower() not in CREW_ROLES:
        return None  # "(5 with X as passenger)" is not a format we know
    return _AbilityLine(
        ability=_snake_case(match["ability"]),
        level=int(match["level"]),
        note=(match["note"] or "").strip(),
        crewed_level=int(crewed) if crewed is not None else None,
        crew_name=match["crew"].strip() if match["crew"] is not None else None,
        crew_role=CREW_ROLES[role.lower()] if role is not None else None,
    )


def _snake_case(ability: str) -> str:
    return re.sub(r"[ \-]+", "_", ability.strip().lower())


def _clean_name(name: str) -> str:
    return _NAME_MARKUP_RE.sub("", name).strip()


def _community_name(line: str) -> str | None:
    """The name on a definition-list term line, or None when the line reads like prose."""
    name = _clean_name(line.strip().lstrip(";").strip())
    if not name or len(name) > _MAX_NAME_LENGTH:
        return None
    if name.startswith(("=", "*", "#", ":")) or name.endswith((".", "!", "?", ":")):
        return None  # a wiki heading, list item or sentence
    return name


# --------------------------------------------------------------------------------------------
# Building definitions


def _abilities(lines: list[_AbilityLine]) -> dict[str, Any]:
    """Ability levels in text order: a bare level, or level and note when there is a note."""
    abilities: dict[str, Any] = {}
    for line in lines:
        if line.ability not in abilities:
            abilities[line.ability] = _level_value(line)
    return abilities


def _level_value(line: _AbilityLine) -> int | dict[str, Any]:
    return {"level": line.level, "note": line.note} if line.note else line.level


def _with_description(name: str, description: str) -> Definition:
    definition: Definition = {"name": name}
    if description:
        definition["description"] = description
    return definition


def _is_vehicle(block: _RawBlock) -> bool:
    return any(
        line.ability in VEHICLE_ONLY_ABILITIES or line.crew_role is not None for line in block.lines
    )


def _character(block: _RawBlock, name: str) -> Definition:
    definition = _with_description(name, block.description)
    definition["abilities"] = _abilities(block.lines)
    definition["printed"] = dict(block.printed)
    return definition


def _add_character(
    block: _RawBlock, names: _Names, leader: _Leader | None
) -> tuple[_Leader | None, Definition | None]:
    """A character, or None when the block nests under ``leader`` as its minion group; and
    the leader for the next block."""
    count = _minion_count(leader.command_note, block.name) if leader else None
    if leader is not None and block.follows_block and count is not None:
        minion: Definition = {"name": names.claim(block.name), "count": count}
        minion["abilities"] = _abilities(block.lines)
        if block.description:
            minion["description"] = block.description
        minion["printed"] = dict(block.printed)
        leader.definition.setdefault("minions", []).append(minion)
        return leader, None  # a leader may announce more than one minion group
    definition = _character(block, names.claim(block.name))
    command = next((line for line in block.lines if line.ability == "command"), None)
    return (_Leader(definition, command.note) if command and command.note else None), definition


def _minion_count(note: str, minion_name: str) -> int | None:
    """The group size a command note gives for ``minion_name``; None if it is not named.

    "accompanied by two thugs" names the block "Thugs" (or "Thug") with a count of 2. A
    mention with no number word shortly before it counts as one minion.
    """
    text = note.casefold()
    match = re.search(_name_pattern(minion_name), text)
    if match is None:
        return None
    before = re.findall(r"[a-z0-9]+", text[: match.start()])[-_COUNT_WINDOW:]
    for word in reversed(before):
        if word.isdigit():
            return int(word)
        if word in NUMBER_WORDS:
            return NUMBER_WORDS[word]
    return 1


def _name_pattern(name: str) -> str:
    """A regex for the name in singular or plural, with or without a leading "the"."""
    base = re.sub(r"^the\s+", "", name.casefold().strip())
    forms = {base, base + "s", base.removesuffix("s")} - {""}
    alternatives = "|".join(re.escape(form) for form in sorted(forms, key=len, reverse=True))
    return rf"\b(?:{alternatives})\b"


def _vehicle(block: _RawBlock, names: _Names) -> Definition:
    definition = _with_description(names.claim(block.name), block.description)
    movement = _movement(block.lines)
    if movement is not None:
        definition["movement"] = movement
    definition["abilities"] = _abilities(block.lines)
    crew, crewed = _crew(block.lines, names)
    if crew:
        definition["crew"] = crew
    printed: dict[str, Any] = dict(block.printed)
    if crewed:
        printed["crewed_abilities"] = crewed
    definition["printed"] = printed
    return definition


def _movement(lines: list[_AbilityLine]) -> str | None:
    """The movement ability the operator boosts; else the first movement ability listed."""
    movement = [line for line in lines if line.ability in VEHICLE_MOVEMENT]
    operated = [line for line in movement if line.crew_role == "operator"]
    chosen = operated or movement
    return chosen[0].ability if chosen else None


def _crew(lines: list[_AbilityLine], names: _Names) -> tuple[dict[str, str], dict[str, int]]:
    """Crew by role (resolved to unique names) and the crewed levels printed in parentheses."""
    crew: dict[str, str] = {}
    crewed: dict[str, int] = {}
    for line in lines:
        if line.crew_role is None or line.crew_name is None or line.crewed_level is None:
            continue
        crew.setdefault(line.crew_role, names.resolve(line.crew_name))
        crewed.setdefault(line.ability, line.crewed_level)
    # Schema order: operator before gunner, whatever order the lines came in.
    roles: tuple[str, ...] = ("operator", "gunner")
    ordered = {role: crew[role] for role in roles if role in crew}
    return ordered, crewed


def _community(block: _RawBlock, names: _Names) -> Definition:
    definition: Definition = {"name": names.claim(block.name)}
    by_defense = _abilities(block.lines)
    for defense in COMMUNITY_DEFENSES:
        if defense in by_defense:
            definition[defense] = by_defense[defense]
    return definition
