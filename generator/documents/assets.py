"""The files a campaign's printables read besides its definitions: portraits, theme
templates and theme pictures. ``scratchpress check`` reports here, before any PDF is
rendered, what ``build`` would refuse; the sheet resolves its portraits through the same
functions, and theme pictures pass the fetcher's own gate, so the two cannot disagree.
(Booklet chapters and their pictures are checked by ``booklet_problems``.)

Every problem names the definitions file, the line and field that point at the file, so the
user fixes the entry rather than hunting for the picture.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path, PurePath

from jinja2 import TemplateError, TemplateNotFound, TemplateSyntaxError

from ..definitions.campaign import Campaign
from ..definitions.files import display_path
from ..definitions.validation import Source
from ..problems import Problem
from ..render.confine import RefusedResource, check_local_file
from ..render.images import (
    ImageProblem,
    check_image_bytes,
    check_portrait,
    local_reader,
    portrait_data_url,
)
from ..render.svg import NestedPictures
from ..render.templating import THEME_DIR, ConfinedLoader, environment, theme_dirs

PORTRAIT_FIELD = "portrait"
THEME_SUFFIXES = (".html", ".css", ".j2")  # what the build reads as a template
THEME_PICTURES = (".png", ".jpg", ".jpeg", ".webp", ".svg")  # what a theme shows as images


def _is_template(name: str) -> bool:
    return name.endswith(THEME_SUFFIXES)


def _is_picture(name: str) -> bool:
    return name.lower().endswith(THEME_PICTURES)  # the fetcher serves face.PNG too


def portrait_file(text: str, root: Path | None) -> tuple[Path, Path]:
    """The portrait an entry names, as (real path, campaign folder): a regular, modest file
    inside the campaign folder, given relative to it. Raises ImageProblem saying why not,
    naming the file as its author wrote it."""
    if root is None:
        raise ImageProblem("a portrait needs a campaign folder to be read from")
    real_root = Path(os.path.realpath(root))
    path = real_root / text  # an absolute ``text`` replaces the root
    try:
        real = check_local_file(path, [real_root], text, "the campaign folder")
    except RefusedResource as err:
        raise ImageProblem(str(err)) from None
    if PurePath(text).is_absolute():
        raise ImageProblem(
            f"{text}: give the portrait relative to the campaign folder"
            " (e.g. portraits/ann.png), so the campaign still works when moved"
        )
    return real, real_root


def portrait_url(text: str, root: Path | None, frame_mm: tuple[float, float], grey: bool) -> str:
    """The portrait embedded for a printable (raises ImageProblem, as ``portrait_file``)."""
    real, real_root = portrait_file(text, root)
    return portrait_data_url(real, [real_root], frame_mm, grey, name=text)


def portrait_problem(message: str, source: Source, entry: str) -> Problem:
    """``party.yaml:4: entry "Ann": portrait: face.png: no such file``."""
    return Problem(message, source.file, source.line(PORTRAIT_FIELD), entry, PORTRAIT_FIELD)


def portrait_problems(campaign: Campaign) -> list[Problem]:
    """Every portrait the sheets would refuse: missing, outside the campaign folder (by
    ``..``, an absolute path or a symlink), not PNG, JPEG or WebP, or not decodable."""
    problems = []
    for located in campaign.characters:
        text = getattr(located.definition, PORTRAIT_FIELD, None)
        if not text:
            continue
        try:
            real, real_root = portrait_file(text, campaign.root)
            check_portrait(real, [real_root], name=text)
        except ImageProblem as err:
            problems.append(portrait_problem(str(err), located.source, located.name))
    return problems


def theme_problems(campaign: Campaign) -> list[Problem]:
    """Theme templates the build could not load: Jinja syntax errors (with their line),
    links out of the theme, special or oversized files, text that is not UTF-8."""
    try:
        themes = theme_dirs(campaign.root)
    except TemplateError as err:
        assert campaign.root is not None
        return [Problem(str(err.message), display_path(campaign.root / THEME_DIR))]
    if not themes:
        return []
    theme = themes[0]
    env = environment(themes)
    loader = ConfinedLoader([theme])
    problems = []
    for name in _theme_files(theme):
        shown = display_path(campaign.root / THEME_DIR / name) if campaign.root else name
        try:
            source, filename, _ = loader.get_source(env, name)
            env.parse(source, name, filename)
        except TemplateSyntaxError as err:
            problems.append(Problem(f"template error: {err.message}", shown, err.lineno))
        except TemplateNotFound as err:
            why = str(err.message).removeprefix(name).strip(" ()") or "a link to nothing"
            problems.append(Problem(f"refused: {why}", shown))
        except UnicodeDecodeError:
            problems.append(Problem("refused: not UTF-8 text", shown))
        except OSError as err:
            problems.append(Problem(f"cannot read: {err.strerror or err}", shown))
    return problems


def theme_picture_problems(campaign: Campaign) -> list[Problem]:
    """Pictures in the theme folder that the renderer's fetcher would refuse: each goes
    through the same gate (``render/images.py``), so a damaged PNG, a 100-megapixel one or
    an SVG bomb is named here, before anything is rendered."""
    try:
        themes = theme_dirs(campaign.root)
    except TemplateError:
        return []  # theme_problems says why
    if not themes or campaign.root is None:
        return []
    root = Path(os.path.realpath(campaign.root))
    nested = NestedPictures(local_reader([root]))  # SVGs an SVG shows, as the fetcher reads them
    problems = []
    for name in _theme_files(themes[0], _is_picture):
        path = themes[0] / name
        shown = display_path(campaign.root / THEME_DIR / name)
        try:
            real = check_local_file(path, [root], "this picture", "the campaign folder")
            check_image_bytes(real.read_bytes(), "this picture", nested.costs(real.as_uri()))
        except (RefusedResource, ImageProblem) as err:
            problems.append(Problem(str(err), shown))
        except OSError as err:
            problems.append(Problem(f"cannot read: {err.strerror or err}", shown))
    return problems


def _theme_files(theme: Path, wanted: Callable[[str], bool] = _is_template) -> list[str]:
    """The names (``sheet/sheet.css``) of the ``wanted`` files under ``theme``, sorted;
    links to folders are not followed."""
    found = []
    for folder, subfolders, files in os.walk(theme):
        subfolders.sort()
        found += [
            (Path(folder) / file).relative_to(theme).as_posix() for file in files if wanted(file)
        ]
    return sorted(found)


def asset_problems(campaign: Campaign) -> list[Problem]:
    """What ``check`` adds to the definitions' own problems: portraits, theme templates and
    theme pictures."""
    return portrait_problems(campaign) + theme_problems(campaign) + theme_picture_problems(campaign)


__all__ = [
    "asset_problems",
    "portrait_file",
    "portrait_problem",
    "portrait_problems",
    "portrait_url",
    "theme_picture_problems",
    "theme_problems",
]
