"""Numbered lines grouped into raw blocks: headers, ability lines, community names, and the
prose between them, reported."""

from __future__ import annotations

import re
from typing import Final

from ...problems import quoted
from .pieces import COMMUNITY_DEFENSES, CREW_ROLES, _AbilityLine, _Line, _RawBlock, _Skipped

# The two header styles (RULES.md §15). A header must carry one of these label sets; stamina
# may be left out (people often drop it, and it is only a printed value to check).
CURRENT_HEADER: Final[frozenset[str]] = frozenset(
    {"agility", "intelligence", "strength", "stamina"}
)
OLD_HEADER: Final[frozenset[str]] = frozenset({"defense", "stamina"})
_OPTIONAL_LABEL: Final[str] = "stamina"


# Community names are short titles; a long line or a sentence is prose, not a name.
_MAX_NAME_LENGTH: Final[int] = 60


# Wiki list markers, Markdown bullets, quote marks and indentation that may precede a line
# of a stat block. A dash or bullet counts only with a space after it, so "-2 toughness" is
# not read as 2. The possessive quantifiers (`*+`, `++`) and the greedy tails, stripped in
# code, keep matching linear: lazy groups followed by `\s*` backtrack quadratically on long
# lines full of spaces.
_LEAD: Final[str] = r"^(?:[\s*:;#>]|[-+\u2022\u00b7\u2013\u2014](?=\s))*+"

# What people type between a name or ability and its text: the books' colon, a full-width
# colon, an en, em or figure dash or a horizontal bar, or a hyphen with a space after it
# (a hyphen inside a word belongs to the word: "land-sailing").
_SEPARATOR: Final[str] = r"(?:[:\uff1a\u2012\u2013\u2014\u2015]|-++(?=\s|$))"

# Bold or italic markers around a name or an ability: Markdown ** and __, wiki '' and '''.
_EMPHASIS: Final[str] = r"(?:\*{1,3}|_{2,3}|'{2,5})?+"

# "13 agility, 10 intelligence": pairs joined by commas, semicolons, slashes or "and".
_STATS: Final[str] = r"\d+\s+[a-z]+(?:(?:\s*+[,;/]\s*+(?:and\s+)?|\s+and\s+)\d+\s+[a-z]+)*+"

# A name may hold a parenthetical of its own ("Roe (the Elder)") as long as it does not
# open with a number and a word, as the stats do.
_NAME: Final[str] = r"(?:[^():]|\((?!\s*\d+\s+[a-z])[^():]*\))++"

_HEADER_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD
    + rf"(?P<name>{_NAME})"
    + rf"\(\s*+(?P<stats>{_STATS})\s*+\)"
    + rf"{_EMPHASIS}\s*+(?:{_SEPARATOR}\s*+)?(?P<description>.*)$",
    re.IGNORECASE,
)
_STAT_RE: Final[re.Pattern[str]] = re.compile(r"(\d+)\s+([a-z]+)", re.IGNORECASE)

# Ability names are one to three words ("land sailing"); a longer run is a prose sentence.
# A parenthetical after the ability is either a crewed level, "(5 with Quill as pilot)", or
# the author's aside, "(crossbow)", which goes into the note.
_ABILITY_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD
    + _EMPHASIS
    + r"(?P<level>\d+)\s+(?P<ability>[a-z]+(?:[ _-][a-z]+){0,2})"
    + _EMPHASIS
    + r"\s*+(?:\((?P<aside>[^()]*)\)"
    + _EMPHASIS
    + r"\s*+)?"
    + rf"(?:{_SEPARATOR}\s*+(?P<note>.*))?$",
    re.IGNORECASE,
)
_CREW_RE: Final[re.Pattern[str]] = re.compile(
    r"\s*(?P<crewed>\d+)\s+with\s+(?P<crew>.+?)\s+as\s+(?:(?:the|a|an|its)\s+)?"
    r"(?P<role>[a-z]+)\s*",
    re.IGNORECASE,
)

# Wiki bold/italic quotes, Markdown emphasis and link brackets around a name are markup.
_NAME_MARKUP_RE: Final[re.Pattern[str]] = re.compile(r"'{2,}|\*+|_{2,}|`+|\[\[|\]\]")

# Spaces that only look like a space (no-break, thin, ideographic...) are read as one, and
# characters that take no room (zero-width spaces and joiners, a byte-order mark) are
# dropped, so a name pasted from a web page matches the same name typed by hand.
_SPACES: Final[dict[int, str | None]] = {
    **dict.fromkeys((0x09, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000), " "),
    **dict.fromkeys((0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF), None),
}

# A line with nothing but those markers is as blank as an empty one ("> " in a quoted mail).
_BLANK_RE: Final[re.Pattern[str]] = re.compile(_LEAD + "$")

# A line that has the shape of a header, "Name (N word, N word...)", whatever the words.
_HEADER_SHAPE_RE: Final[re.Pattern[str]] = re.compile(
    _LEAD + rf"{_NAME}\(\s*+(?P<stats>{_STATS})\s*+\)", re.IGNORECASE
)


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
    for number, raw in lines:
        line = raw.translate(_SPACES)
        if _BLANK_RE.match(line):
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
        ability = _parse_ability(line, number)
        if ability is None:
            _close(current, skipped)
            shaped = None
            if _looks_like_header(line):
                prose.flush()
                shaped = _Skipped(
                    number,
                    "header",
                    "skipped a line shaped like a header whose numbers are neither"
                    " agility, intelligence and strength nor defense (each with or without"
                    f" stamina): {quoted(line.strip(), 60)}",
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
        label.lower() in labels for _, label in _STAT_RE.findall(match["stats"])
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
        description=match["description"].strip(),
        printed=printed,
    )


def _parse_printed(stats: str) -> dict[str, int] | None:
    """Read ``13 agility, 10 intelligence, ...``; None unless it is one of the header styles
    (stamina may be missing)."""
    pairs = [(label.lower(), int(value)) for value, label in _STAT_RE.findall(stats)]
    labels = {label for label, _ in pairs}
    if len(labels) != len(pairs):
        return None
    if labels not in (CURRENT_HEADER, OLD_HEADER) and labels | {_OPTIONAL_LABEL} not in (
        CURRENT_HEADER,
        OLD_HEADER,
    ):
        return None
    return dict(pairs)  # in the order printed, as the schema asks


def _parse_ability(line: str, number: int = 0) -> _AbilityLine | None:
    match = _ABILITY_RE.match(line)
    if match is None:
        return None
    note = (match["note"] or "").strip()
    aside = match["aside"]
    crew = _CREW_RE.fullmatch(aside) if aside is not None else None
    role = crew["role"].lower() if crew is not None else ""
    seat = CREW_ROLES.get(role)
    if aside is not None and seat is None:
        # The author's own remark ("crossbow"), or a crew role we do not know: kept as
        # written at the head of the note, and reported later if it names a crew.
        aside = aside.strip()
        note = f"({aside}) {note}" if note and aside else note or aside
    seated = crew if seat is not None else None
    return _AbilityLine(
        ability=_snake_case(match["ability"]),
        level=int(match["level"]),
        note=note,
        crewed_level=int(seated["crewed"]) if seated is not None else None,
        crew_name=seated["crew"].strip() if seated is not None else None,
        crew_role=seat,
        crew_title=role if seat is not None else None,
        unknown_role=role if crew is not None and seat is None else None,
        line=number,
        text=line.strip(),
    )


def _snake_case(ability: str) -> str:
    return re.sub(r"[ \-]+", "_", ability.strip().lower())


def _clean_name(name: str) -> str:
    return " ".join(_NAME_MARKUP_RE.sub("", name).split())


def _community_name(line: str) -> str | None:
    """The name on a definition-list term line, or None when the line reads like prose."""
    name = _clean_name(line.strip().lstrip(";").strip())
    if not name or len(name) > _MAX_NAME_LENGTH:
        return None
    if name.startswith(("=", "*", "#", ":")) or name.endswith((".", "!", "?", ":")):
        return None  # a wiki heading, list item or sentence
    return name
