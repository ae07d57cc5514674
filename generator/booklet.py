"""Booklets: a campaign's own handout or rules digest, written in Markdown, printed as a book.

A campaign folder may hold one ``booklet.yaml`` naming a title, an author, a cover picture
and the chapters (Markdown files). Booklets come from strangers, so:

* the YAML goes through our safe loader and a pydantic model (unknown keys are errors, every
  problem names its file and line);
* Markdown is parsed by markdown-it-py with raw HTML switched off, so ``<script>`` prints as
  text; the HTML we hand to the template is what markdown-it escaped plus what we generate;
* images must be files inside the campaign folder; they are checked and re-encoded by Pillow
  and embedded, so the renderer never opens a user's file itself;
* generated tables ("inserts": the carry table, the pace table, stat blocks...) are asked
  for with a fenced block whose info string is ``scratchpress``; its body is YAML data, read
  by Python. User text is never treated as a template.

This module is pure apart from reading the booklet's own files: it turns a booklet into a
view model for ``templates/booklet/booklet.html``. Rendering to PDF is
:func:`render_booklet_pdf` (PDF/UA tags on).
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markupsafe import Markup
from PIL import Image, UnidentifiedImageError
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from .content.loader import resilience_content
from .definitions.campaign import Campaign, Source, _validation_problems, display_path
from .definitions.resilience_models import DEFENSES, Defense, Threat
from .definitions.yamlsafe import load_yaml
from .documents.base import BuildOptions, page_context
from .documents.common import carry_cells, signed
from .problems import InputError, Problem
from .render.confine import RefusedResource, check_local_file
from .render.images import ImageProblem, portrait_data_url
from .render.names import slug
from .render.templating import render_html
from .rules import CharacterStats, CommunityStats, VehicleStats
from .rules.abilities import closest, display
from .rules.carry import carry_table
from .rules.tables import (
    CARD_RESHUFFLE_DRAWS,
    D6_GRID,
    D6_TIMES_FOUR,
    HIGH_SUITS,
    LOW_SUITS,
    PACE_LENGTH,
    PACES,
    RANDOM_DAMAGE_HP_FACTOR,
    card_table,
    pace_table,
    random_damage_table,
    round_fraction,
)
from .statblocks import Block, Computed

if TYPE_CHECKING:
    from .render.engine import Rendered

BOOKLET_FILE = "booklet.yaml"
INSERT_FENCE = "scratchpress"  # ```scratchpress opens an insert
MAX_CHAPTER_BYTES = 1024 * 1024  # a chapter is prose; a megabyte of it is a mistake
CHAPTER_SUFFIXES = (".md", ".markdown")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
IMAGE_DPI = 150  # the size an image prints at when it is smaller than the text column
MM_PER_INCH = 25.4

BookletPaper = Literal["letter", "a4", "a5", "half-letter"]
Line = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
RelPath = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=400)]


# ---------------------------------------------------------------------------- booklet.yaml


class BookletDef(BaseModel):
    """``booklet.yaml``: what the cover says and which Markdown files are the chapters."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    title: Line
    subtitle: Line | None = None
    author: Line | None = None
    version: Line | None = None  # "1.2", or a number (written as given)
    paper: BookletPaper | None = None  # default: the build's --paper
    cover: RelPath | None = None  # a picture, relative to the campaign folder
    chapters: list[RelPath] = Field(min_length=1, max_length=60)


@dataclass(frozen=True)
class ChapterFile:
    path: Path
    shown: str  # how messages name it
    text: str


@dataclass(frozen=True)
class Booklet:
    definition: BookletDef
    file: str  # booklet.yaml as messages name it
    root: Path  # the campaign folder: every file a booklet uses must be inside it
    chapters: tuple[ChapterFile, ...]
    cover: Path | None
    cover_line: int | None = None  # where booklet.yaml names the cover, for messages


@dataclass(frozen=True)
class Layout:
    """Page geometry per paper. Small pages (A5, half-letter) are the fold-and-staple size;
    on Letter and A4 the type is larger and the outer margin wide, so a line stays near 80
    characters instead of running across the whole page."""

    size: str  # CSS page size
    width_mm: float
    height_mm: float
    top_mm: float
    bottom_mm: float
    inner_mm: float
    outer_mm: float
    body_pt: float
    small: bool

    @property
    def text_mm(self) -> float:
        return self.width_mm - self.inner_mm - self.outer_mm

    @property
    def text_height_mm(self) -> float:
        return self.height_mm - self.top_mm - self.bottom_mm


LAYOUTS: dict[str, Layout] = {
    "a5": Layout("A5", 148.0, 210.0, 17.0, 17.0, 17.0, 13.0, 9.5, True),
    "half-letter": Layout("5.5in 8.5in", 139.7, 215.9, 17.0, 17.0, 16.0, 12.0, 9.5, True),
    "a4": Layout("A4", 210.0, 297.0, 22.0, 24.0, 24.0, 36.0, 10.5, False),
    "letter": Layout("letter", 215.9, 279.4, 21.0, 23.0, 24.0, 38.0, 10.5, False),
}


def booklet_file(campaign: Campaign) -> Path | None:
    if campaign.root is None:
        return None
    path = campaign.root / BOOKLET_FILE
    return path if path.is_file() else None


def campaign_file(path: Path, root: Path, name: str) -> Path:
    """The real path of a file the booklet names, which must be a regular file of modest
    size inside the campaign folder (symlinks resolved). RefusedResource says why not,
    naming the file as the author wrote it."""
    return check_local_file(path, [root], name, "the campaign folder")


def _read_text(path: Path, root: Path, name: str) -> str:
    """A campaign file's text, refused when outside the campaign, too big or not UTF-8."""
    real = campaign_file(path, root, name)
    if real.stat().st_size > MAX_CHAPTER_BYTES:
        raise RefusedResource(f"{name} is larger than {MAX_CHAPTER_BYTES // 1024} KB")
    try:
        return real.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RefusedResource(f"{name} is not UTF-8 text") from None


def _relative(text: str) -> bool:
    """A path written relative to the campaign: no scheme, no drive, not absolute."""
    parts = urlsplit(text)
    return not (parts.scheme or parts.netloc or text.startswith(("/", "\\")))


def load_booklet(campaign: Campaign) -> Booklet | None:
    """The campaign's booklet, or None when it has none. Raises InputError with every
    problem (file:line) when booklet.yaml or a chapter cannot be used."""
    path = booklet_file(campaign)
    if path is None or campaign.root is None:
        return None
    root = Path(os.path.realpath(campaign.root))
    shown = display_path(path)
    try:
        text = _read_text(path, root, BOOKLET_FILE)
    except RefusedResource as err:
        raise InputError([Problem(str(err), shown)]) from None
    data, positions = load_yaml(text, shown)
    if not isinstance(data, dict):
        raise InputError([Problem("a booklet file is a mapping: title:, chapters: ...", shown, 1)])
    source = Source(shown, (), positions)
    try:
        definition = BookletDef.model_validate(data)
    except ValidationError as err:
        raise InputError(_validation_problems(err, BookletDef, source, None)) from None

    problems: list[Problem] = []
    chapters: list[ChapterFile] = []
    for index, name in enumerate(definition.chapters):
        line = source.line("chapters", index)
        if not _relative(name):
            problems.append(
                Problem(
                    f"{name!r}: chapters are Markdown files in the campaign folder, given relative"
                    " to it (e.g. booklet/rolls.md)",
                    shown,
                    line,
                    None,
                    f"chapters.{index}",
                )
            )
            continue
        chapter = root / name
        if chapter.suffix.lower() not in CHAPTER_SUFFIXES:
            problems.append(
                Problem(
                    f"{name!r} is not a Markdown file (.md)", shown, line, None, f"chapters.{index}"
                )
            )
            continue
        try:
            chapters.append(
                ChapterFile(chapter, display_path(chapter), _read_text(chapter, root, name))
            )
        except RefusedResource as err:
            problems.append(Problem(str(err), shown, line, None, f"chapters.{index}"))
    cover: Path | None = None
    if definition.cover is not None:
        line = source.line("cover")
        if not _relative(definition.cover):
            problems.append(
                Problem(
                    f"{definition.cover!r}: the cover is a picture in the campaign folder, given"
                    " relative to it",
                    shown,
                    line,
                    None,
                    "cover",
                )
            )
        else:
            cover = root / definition.cover
            try:
                campaign_file(cover, root, definition.cover)
            except RefusedResource as err:
                problems.append(Problem(str(err), shown, line, None, "cover"))
    if problems:
        raise InputError(problems)
    return Booklet(definition, shown, root, tuple(chapters), cover, source.line("cover"))


# ---------------------------------------------------------------------------------- inserts


class _Insert(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    caption: Line | None = None  # a line above the table, in the author's words


class CarryInsert(_Insert):
    insert: Literal["carry-table"]
    low: int = Field(default=10, alias="from", ge=1, le=40)
    high: int = Field(default=20, alias="to", ge=1, le=40)


DieTable = Literal["grid", "cards", "d6"]


def _every_die_table() -> list[DieTable]:
    return ["grid", "cards", "d6"]


class DieInsert(_Insert):
    insert: Literal["die-alternatives"]
    show: list[DieTable] = Field(default_factory=_every_die_table, min_length=1)


class DamageInsert(_Insert):
    insert: Literal["random-damage"]


class PaceInsert(_Insert):
    insert: Literal["pace"]
    low: int = Field(default=2, alias="from", ge=1, le=20)
    high: int = Field(default=12, alias="to", ge=1, le=20)


Roster = Literal["characters", "minions", "vehicles", "communities", "everyone"]


class StatblockInsert(_Insert):
    insert: Literal["statblock"]
    names: list[Line] | None = Field(default=None, min_length=1)
    group: Line | None = None
    roster: Roster | None = None


class EventsInsert(_Insert):
    insert: Literal["events"]
    attacks: Defense | None = None
    threat: Threat | None = None


INSERTS: dict[str, type[_Insert]] = {
    "carry-table": CarryInsert,
    "die-alternatives": DieInsert,
    "random-damage": DamageInsert,
    "pace": PaceInsert,
    "statblock": StatblockInsert,
    "events": EventsInsert,
}


@dataclass
class _Context:
    """What inserts and images need while one booklet is rendered; problems pile up here."""

    booklet: Booklet
    computed: Computed
    campaign: Campaign
    options: BuildOptions
    layout: Layout
    problems: list[Problem] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)  # heading ids given so far, booklet-wide

    def problem(self, message: str, file: str, line: int | None, where: str | None = None) -> None:
        self.problems.append(Problem(message, file, line, None, where))


def _did_you_mean(name: str, known: Sequence[str]) -> str:
    by_lower = {k.lower(): k for k in known}
    hint = closest(name.lower(), tuple(by_lower))
    return f" (did you mean {by_lower[hint]!r}?)" if hint else ""


def _character_block(block: Block, stats: CharacterStats) -> dict[str, Any]:
    numbers: list[tuple[str, int]]
    if stats.defense is not None:
        numbers = [("Defense", stats.defense)]
    else:
        numbers = [
            ("Agility", stats.agility or 0),
            ("Intelligence", stats.intelligence or 0),
            ("Strength", stats.strength or 0),
        ]
    numbers += [("Stamina", stats.stamina), ("HP", stats.hit_points)]
    if block.kind == "minion":
        many = "minions" if block.count > 1 else "minion"
        role = (
            f"{block.count} {many} of {block.leader}"
            if block.count > 1
            else (f"{many} of {block.leader}")
        )
    else:
        role = f"group: {block.group}" if block.group else ""
    return {
        "name": block.name,
        "role": role,
        "description": block.description,
        "numbers": [{"label": label, "value": str(value)} for label, value in numbers],
        "lines": [
            {"level": str(a.level), "name": display(a.name), "extra": "", "note": a.note}
            for a in stats.abilities
        ],
    }


def _vehicle_block(block: Block, stats: VehicleStats) -> dict[str, Any]:
    lines = []
    for a in stats.abilities:
        extra = ""
        if a.crew is not None and a.crewed != a.level:
            extra = f"({a.crewed} with {a.crew.name} as {a.crew.title})"
        lines.append(
            {"level": str(a.level), "name": display(a.name), "extra": extra, "note": a.note}
        )
    return {
        "name": block.name,
        "role": f"vehicle · moves by {display(stats.movement)}",
        "description": block.description,
        "numbers": [
            {"label": "Defense", "value": str(stats.defense)},
            {"label": "Stamina", "value": str(stats.stamina)},
            {"label": "HP", "value": str(stats.hit_points)},
            {"label": "Fuel", "value": str(stats.fuel)},
        ],
        "lines": lines,
    }


def _community_block(block: Block, stats: CommunityStats) -> dict[str, Any]:
    return {
        "name": block.name,
        "role": "community",
        "description": block.description,
        "numbers": [
            {"label": name.title(), "value": str(value)} for name, value in stats.defenses.items()
        ],
        "lines": [
            {"level": str(value), "name": name, "extra": "", "note": stats.notes.get(name, "")}
            for name, value in stats.defenses.items()
            if stats.notes.get(name)
        ],
    }


def statblock_view(block: Block) -> dict[str, Any]:
    stats = block.stats
    if isinstance(stats, CharacterStats):
        return _character_block(block, stats)
    if isinstance(stats, VehicleStats):
        return _vehicle_block(block, stats)
    assert isinstance(stats, CommunityStats)
    return _community_block(block, stats)


_ROSTER_KINDS: dict[str, tuple[str, ...]] = {
    "characters": ("character", "minion"),
    "minions": ("minion",),
    "vehicles": ("vehicle",),
    "communities": ("community",),
    "everyone": ("character", "minion", "vehicle", "community"),
}


@dataclass(frozen=True)
class _Where:
    """Lines inside one insert block: of a key, of a list item, else of the fence itself."""

    file: str
    fence: int
    source: Source

    def line(self, *keys: str | int) -> int:
        return (self.source.line(*keys) if keys else None) or self.fence


def _statblocks(spec: StatblockInsert, ctx: _Context, where: _Where) -> list[Block]:
    computed = ctx.computed
    file = where.file
    given = [k for k in ("names", "group", "roster") if getattr(spec, k) is not None]
    if len(given) != 1:
        ctx.problem(
            "a statblock insert takes exactly one of names:, group: or roster:",
            file,
            where.line(*given[1:2]),
            "statblock",
        )
        return []
    if spec.roster is not None:
        kinds = _ROSTER_KINDS[spec.roster]
        return [b for b in computed.blocks if b.kind in kinds]
    if spec.group is not None:
        group = next((g for g in computed.groups if g.name == spec.group), None)
        if group is None:
            known = [g.name for g in computed.groups]
            ctx.problem(
                f"no initiative group named {spec.group!r}{_did_you_mean(spec.group, known)}",
                file,
                where.line("group"),
                "group",
            )
            return []
        return list(group.members)
    blocks: list[Block] = []
    known = [b.name for b in computed.blocks]
    for index, name in enumerate(spec.names or []):
        found = [b for b in computed.blocks if b.name == name]
        if not found:
            ctx.problem(
                f"no character, minion, vehicle or community named {name!r}"
                f"{_did_you_mean(name, known)}",
                file,
                where.line("names", index),
                f"names.{index}",
            )
        blocks += found
    return blocks


def _carry_view(spec: CarryInsert, ctx: _Context) -> dict[str, Any]:
    units = ctx.options.units
    return {
        "units": units,
        "rows": [carry_cells(row, units) for row in carry_table(spec.low, spec.high)],
    }


def _die_view(spec: DieInsert) -> dict[str, Any]:
    view: dict[str, Any] = {"show": list(spec.show)}
    view["grid"] = {
        "columns": [str(c) for c in range(1, 7)],
        "rows": [
            {"die": str(r), "cells": [str(v) for v in row]}
            for r, row in enumerate(D6_GRID, start=1)
        ],
    }
    suits = (*LOW_SUITS, *HIGH_SUITS)
    values = card_table(suits)
    # Every low suit gives the same value, and so does every high suit: one row for each
    # half of the deck, ranks across, keeps the table three lines tall.
    view["cards"] = {
        "ranks": [
            "ace" if rank == 1 else ("10 or 0" if rank == 10 else str(rank))
            for rank in range(1, len(values) + 1)
        ],
        "rows": [
            {"suits": ", ".join(LOW_SUITS), "cells": [str(row[0]) for row in values]},
            {"suits": ", ".join(HIGH_SUITS), "cells": [str(row[len(LOW_SUITS)]) for row in values]},
        ],
        "reshuffle": (
            f"Reshuffle all 40 cards after {CARD_RESHUFFLE_DRAWS} draws, or as soon as a"
            " card worth 20 is drawn."
        ),
    }
    faces = ", ".join(str(v) for v in sorted(D6_TIMES_FOUR))
    view["d6"] = [
        f"One d6 × 4, a six counting as 0: {faces}. A 5 (20) is an automatic success"
        " only if a second roll shows 5 or 6.",
        "Two d6 added and doubled, sixes counting as 0: 0 to 20 in steps of 2."
        " Only a double 5 is an automatic success.",
    ]
    return view


def _damage_view() -> dict[str, Any]:
    rows = [
        {
            "normal": str(r.normal),
            "extra": str(r.extra),
            "total": r.total,
            "average": round_fraction(r.average, 1).removesuffix(".0"),
            "ratio": round_fraction(r.ratio, 2) + "×",
        }
        for r in random_damage_table()
    ]
    return {
        "rows": rows,
        "above": "Above 10: roll 1d20 and add the normal damage.",
        "hp": f"Maximum HP × {RANDOM_DAMAGE_HP_FACTOR} while this rule is in use.",
    }


def _pace_view(spec: PaceInsert) -> dict[str, Any]:
    table = pace_table(spec.low, spec.high)
    return {
        "columns": [str(n) for n in range(spec.low, spec.high + 1)],
        "rows": [
            {"pace": pace, "length": PACE_LENGTH[pace], "cells": [str(v) for v in table[pace]]}
            for pace in PACES
        ],
    }


def _events_view(spec: EventsInsert, ctx: _Context) -> dict[str, Any]:
    """Events grouped under the defense they attack, in the content's order."""
    events = [
        e
        for e in resilience_content(ctx.campaign).events
        if (spec.attacks is None or e.attacks == spec.attacks)
        and (spec.threat is None or e.threat == spec.threat)
    ]
    groups = []
    for defense in DEFENSES:
        rows = [
            {
                "title": e.title,
                "threat": e.threat,
                "bonus": signed(e.attack_bonus),
                "damage": str(e.damage),
            }
            for e in events
            if e.attacks == defense
        ]
        if rows:
            groups.append({"defense": defense.title(), "rows": rows})
    return {"groups": groups, "count": len(events)}


def _insert_problems(err: ValidationError, model: type[_Insert], source: Source) -> list[Problem]:
    """The campaign loader's messages, except that unknown keys list the keys an author
    writes (``from``, ``to``) rather than the Python names behind them (``low``, ``high``)."""
    keys = [info.alias or name for name, info in model.model_fields.items()]
    problems = [
        p
        for p in _validation_problems(err, model, source, None)
        if not p.message.startswith("unknown key")
    ]
    for error in err.errors():
        if error["type"] != "extra_forbidden":
            continue
        key = str(error["loc"][-1])
        hint = closest(key, tuple(keys))
        message = "unknown key" + (f" (did you mean {hint!r}?)" if hint else "")
        message += f"; allowed: {', '.join(keys)}"
        problems.append(Problem(message, source.file, source.line(key), None, key))
    return sorted(problems, key=lambda p: p.line or 0)


def _insert_view(token: Token, ctx: _Context, file: str) -> dict[str, Any] | None:
    """Validate a ```scratchpress block and build its view model (None after a problem)."""
    assert token.map is not None
    first = token.map[0] + 2  # 1-based line of the block's first line of YAML
    try:
        data, positions = load_yaml(token.content, file)
    except InputError as err:
        for p in err.problems:
            line = first + p.line - 1 if p.line else token.map[0] + 1
            ctx.problem(p.message, file, line)
        return None
    if not isinstance(data, dict) or "insert" not in data:
        ctx.problem(
            f"a ```{INSERT_FENCE} block holds YAML starting with 'insert: NAME'; known: "
            + ", ".join(INSERTS),
            file,
            token.map[0] + 1,
        )
        return None
    name = str(data["insert"])
    model = INSERTS.get(name)
    shifted = {path: first + line - 1 for path, line in positions.items()}
    if model is None:
        ctx.problem(
            f"unknown insert {name!r}{_did_you_mean(name, list(INSERTS))}; known: "
            + ", ".join(INSERTS),
            file,
            shifted.get(("insert",)),
            "insert",
        )
        return None
    try:
        spec = model.model_validate(data)
    except ValidationError as err:
        ctx.problems.extend(_insert_problems(err, model, Source(file, (), shifted)))
        return None
    where = _Where(file, token.map[0] + 1, Source(file, (), shifted))
    view: dict[str, Any] = {"type": name, "caption": spec.caption or ""}
    if isinstance(spec, CarryInsert | PaceInsert) and spec.low > spec.high:
        ctx.problem(f"{spec.low} is above to: {spec.high}", file, where.line("from"), "from")
        return None
    if isinstance(spec, CarryInsert):
        view.update(_carry_view(spec, ctx))
    elif isinstance(spec, DieInsert):
        view.update(_die_view(spec))
    elif isinstance(spec, DamageInsert):
        view.update(_damage_view())
    elif isinstance(spec, PaceInsert):
        view.update(_pace_view(spec))
    elif isinstance(spec, StatblockInsert):
        blocks = _statblocks(spec, ctx, where)
        if not blocks:
            return None
        view["blocks"] = [statblock_view(b) for b in blocks]
    elif isinstance(spec, EventsInsert):
        view.update(_events_view(spec, ctx))
        if not view["groups"]:
            ctx.problem("no event matches attacks:/threat:", file, where.line())
            return None
    return view


# --------------------------------------------------------------------------------- Markdown


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
class _Heading:
    level: int
    text: str
    id: str


@dataclass
class _Parsed:
    file: ChapterFile
    tokens: list[Token]
    headings: list[_Heading]


def _unique_id(text: str, ids: set[str]) -> str:
    """GitHub-like anchors (``## Pace`` -> ``#pace``), numbered when a title repeats."""
    base = slug(text)
    candidate, count = base, 1
    while candidate in ids:
        count += 1
        candidate = f"{base}-{count}"
    ids.add(candidate)
    return candidate


def _parse_chapter(md: MarkdownIt, chapter: ChapterFile, ctx: _Context) -> _Parsed:
    tokens = md.parse(chapter.text)
    headings: list[_Heading] = []
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
        text = _plain(tokens[index + 1]) or "untitled"
        heading = _Heading(level, text, _unique_id(text, ctx.ids))
        token.attrSet("id", heading.id)
        if level == 1:
            token.attrSet("class", "chapter-title")
        headings.append(heading)
    return _Parsed(chapter, tokens, headings)


def _image_url(src: str, chapter: ChapterFile, ctx: _Context) -> tuple[str, float]:
    """The picture as an embedded JPEG and the width (mm) it prints at. Raises
    ImageProblem with a message for the author."""
    if not _relative(src):
        raise ImageProblem(
            f"{src}: only pictures inside the campaign folder can be used, given relative to"
            " the chapter (e.g. pictures/map.png)"
        )
    path = chapter.path.parent / unquote(urlsplit(src).path)
    if path.suffix.lower() not in IMAGE_SUFFIXES:
        raise ImageProblem(f"{src}: pictures must be PNG, JPEG or WebP files")
    try:
        real = campaign_file(path, ctx.booklet.root, src)
    except RefusedResource as err:
        raise ImageProblem(str(err)) from None
    width_px, height_px = _picture_size(real, src)
    layout = ctx.layout
    natural = width_px / IMAGE_DPI * MM_PER_INCH
    width = min(layout.text_mm, natural)
    height = width * height_px / max(width_px, 1)
    tallest = layout.text_height_mm * 0.7  # leave room for a caption and a line or two
    if height > tallest:
        width, height = width * tallest / height, tallest
    url = portrait_data_url(real, [ctx.booklet.root], (width, height), grey=ctx.options.ink_saver)
    return url, width


def _picture_size(path: Path, name: str) -> tuple[int, int]:
    """Width and height from the file's header (nothing decoded yet); the full checks and
    the decoding happen in ``portrait_data_url``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as probe:
                return probe.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageProblem(f"{name} declares too many pixels (a decompression bomb?)") from None
    except (UnidentifiedImageError, OSError):
        raise ImageProblem(f"{name} is not a picture Pillow can read") from None


_LINK_SCHEMES = {"http", "https", "mailto"}


def _check_inline(parsed: _Parsed, ctx: _Context) -> None:
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


def _mark_inserts(parsed: _Parsed, ctx: _Context) -> None:
    for token in parsed.tokens:
        if token.type == "fence" and token.info.strip().split(" ")[0] == INSERT_FENCE:
            view = _insert_view(token, ctx, parsed.file.shown)
            # A failed insert renders as nothing: the build stops on the problem anyway.
            token.meta["insert"] = view if view is not None else {"type": "none"}


# ------------------------------------------------------------------------------ view model


def _layout(booklet: Booklet, options: BuildOptions) -> tuple[str, Layout]:
    paper = booklet.definition.paper or options.paper
    return paper, LAYOUTS[paper]


def _cover_view(booklet: Booklet, ctx: _Context) -> dict[str, Any]:
    d = booklet.definition
    view: dict[str, Any] = {
        "title": d.title,
        "subtitle": d.subtitle or "",
        "author": d.author or "",
        "version": f"Version {d.version}" if d.version else "",
        "image": "",
        "image_width": "",
        "image_alt": "",
    }
    if booklet.cover is not None:
        layout = ctx.layout
        box_w, box_h = layout.text_mm, layout.text_height_mm * (0.52 if layout.small else 0.55)
        try:
            w_px, h_px = _picture_size(booklet.cover, d.cover or "cover")
            scale = min(box_w / w_px, box_h / h_px)
            frame = (w_px * scale, h_px * scale)
            view["image"] = portrait_data_url(
                booklet.cover, [booklet.root], frame, grey=ctx.options.ink_saver
            )
            view["image_width"] = f"{frame[0]:.1f}mm"
            view["image_alt"] = f"Cover picture of {d.title}"
        except ImageProblem as err:
            ctx.problem(str(err), booklet.file, booklet.cover_line, "cover")
    return view


def booklet_view(
    booklet: Booklet, computed: Computed, campaign: Campaign, options: BuildOptions
) -> dict[str, Any]:
    """The template's whole context. Raises InputError listing every problem found."""
    paper, layout = _layout(booklet, options)
    ctx = _Context(booklet, computed, campaign, options, layout)
    md = markdown()
    parsed = [_parse_chapter(md, chapter, ctx) for chapter in booklet.chapters]
    for chapter in parsed:
        _check_inline(chapter, ctx)
        _mark_inserts(chapter, ctx)
    cover = _cover_view(booklet, ctx)
    if ctx.problems:
        raise InputError(ctx.problems)

    chapters, toc = [], []
    for chapter in parsed:
        title = chapter.headings[0]
        # Markup: markdown-it escaped every character of the author's text (html is off)
        # and the inserts come from our own autoescaped templates.
        html = Markup(md.renderer.render(chapter.tokens, md.options, {}))
        chapters.append({"id": title.id, "title": title.text, "html": html})
        toc.append(
            {
                "id": title.id,
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
        "toc": toc,
        "chapters": chapters,
    }


def booklet_problems(
    campaign: Campaign, computed: Computed, options: BuildOptions | None = None
) -> list[Problem]:
    """Everything wrong with the campaign's booklet, for ``scratchpress check``."""
    try:
        booklet = load_booklet(campaign)
        if booklet is not None:
            booklet_view(booklet, computed, campaign, options or BuildOptions())
    except InputError as err:
        return err.problems
    return []


# ---------------------------------------------------------------------------------- render


def render_booklet_pdf(
    html: str, base_dir: Path, roots: list[Path], pdf_variant: str | None = "pdf/ua-1"
) -> Rendered:
    """Like ``render.engine.render_pdf`` but tagged: PDF/UA-1 gives the structure tree
    (headings, lists, tables, figures with their alt text) that screen readers and reflow
    need. Until the engine takes PDF options, booklets are rendered here."""
    # render.engine first: importing it points fontconfig at our fonts before WeasyPrint
    # starts (see render/fonts.py); only then WeasyPrint itself.
    from .render import engine

    return engine.render_pdf(html, base_dir, roots, pdf_variant=pdf_variant)


__all__ = [
    "BOOKLET_FILE",
    "INSERTS",
    "LAYOUTS",
    "Booklet",
    "BookletDef",
    "booklet_file",
    "booklet_problems",
    "booklet_view",
    "load_booklet",
    "markdown",
    "render_booklet_pdf",
    "statblock_view",
]
