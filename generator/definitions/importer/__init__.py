"""Import stat blocks written in the books' plain-text format as scratchpress definitions.

The Scratch books print characters, vehicles and communities as short runs of lines (RULES.md
§15). This module turns such text into the dictionaries of our YAML schema, so a game master
can paste a block from a wiki page and get a definition file back. It is pure: it reads
strings and returns data or text, and never prints or touches files.

Formats recognised
------------------
* Current character header: ``Name (13 agility, 10 intelligence, 12 strength, 1 stamina): text``
* Old single-defense header: ``Name (13 defense, 1 stamina): text``
* Ability lines under a header: ``3 stealth: note`` or a bare ``3 toughness``. Wiki and
  Markdown list markers (``*``, ``:``, ``#``, ``-``, ``>``...) and indentation in front of a
  line are ignored.
* Vehicle lines: ``3 spaceflight (5 with Chokestar as pilot): note``; the role may be pilot,
  driver, navigator, operator (all the vehicle's operator) or gunner.

What people type besides: a dash or a full-width colon for the colon, spaces inside the
parentheses, stats joined by ``;`` or "and" in any order, a header without stamina,
parentheses in a name, a remark in parentheses after an ability (kept at the head of its
note), emphasis around a name or ability, no-break and zero-width spaces (read as a space,
or dropped). ``tests/definitions/fixtures/importer/`` holds a block for each.
* Communities (a wiki definition list): a name line (``;Name`` or plain ``Name``) followed by
  ``:15 economy: note``, ``:5 environment: note`` and ``:10 equity: note``.

Decisions where the text is ambiguous
-------------------------------------
* Blank lines do not end a block: the books put a blank line between every ability line. A
  block ends at the first other line that is neither a header nor an ability line.
* A header followed by no ability line is skipped and reported (it is not a usable
  definition, and is most likely a sentence that merely looks like a header).
* A community line run with no plausible name line before it is skipped and reported.
* An ability line that cannot go into a definition is left out and reported: an ability the
  block's kind does not have, level 0 (but for a community's defense), a level past the
  schema's maximum, an ability given a second time (the first line wins).
* If a vehicle names two different people for the same crew role, the first one wins and
  the other's crewed level is left out, with a note.
* An unknown crew role, "(5 with X as passenger)", stays in the note, with a note.
* Names are unique across every kind of definition: the second "Chokestar" becomes
  "Chokestar 2", a third "Chokestar 3".
* A vehicle with no movement ability gets no ``movement`` key.

Wiki pages as the feed carries them
-----------------------------------
The wiki's contributions feed holds whole revisions of a page as HTML: every line ends in
``<br />``, characters such as ``&amp;`` or ``&#39;`` are entities, and each revision is
wrapped in a ``<div>``. Text with HTML line breaks, block tags or entities is read as such
markup (:func:`.markup._markup_segments`): ``<br>`` (any spelling), ``<p>``, ``<div>`` and the other
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

The package, by step: :mod:`.markup` turns the text into numbered lines (plain, HTML,
feeds), :mod:`.scan` groups them into raw blocks, :mod:`.entries` makes definitions of
those, :mod:`.pieces` holds what the steps pass along; this module merges revisions and
writes the YAML. Names with a leading underscore are shared between these modules only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Final

from ...problems import Problem, quoted
from ..yamlio import dump_yaml
from .entries import _read_revision
from .markup import _segments
from .pieces import Definition, _Entry, _Skipped

__all__ = [
    "ImportResult",
    "dump_definitions",
    "parse_stat_blocks",
    "read_stat_blocks",
]

SECTION_ORDER: Final[tuple[str, ...]] = ("characters", "vehicles", "communities")
_SINGULAR: Final[dict[str, str]] = {
    "characters": "character",
    "vehicles": "vehicle",
    "communities": "community",
}

HEADER: Final[tuple[str, ...]] = (
    "Imported by scratchpress from stat blocks in the books' plain-text format.",
    "Check the result: printed values are copied as written, not recomputed.",
)


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
    ordered = {key: data[key] for key in SECTION_ORDER if key in data}
    ordered.update({key: value for key, value in data.items() if key not in ordered})
    return dump_yaml(ordered, HEADER)
