"""A booklet's own files: ``booklet.yaml`` and the Markdown chapters it names.

A campaign folder may hold one ``booklet.yaml`` naming a title, an author, a cover picture
and the chapters. Booklets come from strangers: the YAML goes through our safe loader and a
pydantic model (unknown keys are errors, every problem names its file and line), and every
file it names must be a regular file of modest size inside the campaign folder.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from ...definitions.campaign import Campaign
from ...definitions.files import display_path
from ...definitions.models import BuildOptions
from ...definitions.validation import Source, validation_problems
from ...definitions.yamlsafe import load_yaml
from ...problems import InputError, Problem
from ...render.confine import RefusedResource, check_local_file
from ...statblocks import Computed
from .imposition import BookletPaper, Layout

BOOKLET_FILE = "booklet.yaml"
MAX_CHAPTER_BYTES = 1024 * 1024  # a chapter is prose; a megabyte of it is a mistake
CHAPTER_SUFFIXES = (".md", ".markdown")

Line = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Paragraph = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=600)]
RelPath = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=400)]


# ---------------------------------------------------------------------------- booklet.yaml


class BookletDef(BaseModel):
    """``booklet.yaml``: what the cover says and which Markdown files are the chapters."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    title: Line
    subtitle: Line | None = None
    author: Line | None = None
    version: Line | None = None  # "1.2", or a number (written as given)
    paper: BookletPaper | None = None  # default: the build's --paper (halved for --impose saddle)
    cover: RelPath | None = None  # a picture, relative to the campaign folder
    colophon: Paragraph | None = None  # the author's own credits, above scratchpress's
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


def booklet_file(campaign: Campaign) -> Path | None:
    if campaign.root is None:
        return None
    path = campaign.root / BOOKLET_FILE
    if path.is_file():
        return path
    # `Booklet.YAML` is a booklet too: the loader skips it as a definitions file in any case.
    try:
        found = [p for p in campaign.root.iterdir() if p.name.lower() == BOOKLET_FILE]
    except OSError:
        return None
    return next((p for p in sorted(found) if p.is_file()), None)


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


def relative_path(text: str) -> bool:
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
        raise InputError(validation_problems(err, BookletDef, source, None)) from None

    problems: list[Problem] = []
    chapters: list[ChapterFile] = []
    for index, name in enumerate(definition.chapters):
        line = source.line("chapters", index)
        if not relative_path(name):
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
        if not relative_path(definition.cover):
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


@dataclass
class BookletContext:
    """What inserts and images need while one booklet is rendered; problems pile up here."""

    booklet: Booklet
    computed: Computed
    campaign: Campaign
    options: BuildOptions
    layout: Layout
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)  # heading ids given so far, booklet-wide

    def problem(self, message: str, file: str, line: int | None, where: str | None = None) -> None:
        self.problems.append(Problem(message, file, line, None, where))

    def warn(self, message: str, file: str, line: int | None) -> None:
        """Something ``check`` points out that does not stop a build."""
        self.warnings.append(Problem(message, file, line, severity="warning"))
