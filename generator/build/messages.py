"""The build's messages about what it rendered: layout lint, missing glyphs and the font
packages that would draw them, template errors; and what the cache keeps beside a PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import TemplateSyntaxError

from ..definitions.campaign import Campaign
from ..definitions.files import display_path
from ..documents.base import Document
from ..problems import Problem
from ..render.audit import describe_lost, lost_words
from ..render.fonts import missing_font_packages
from ..render.jobs import Outcome
from ..render.lint import CUT_PREFIX, page_source, split_source
from ..render.templating import TEMPLATE_MEMORY_MB
from ..typesetting.fonts import SYSTEM_FONT_SCRIPTS, font_package_for

CARD_KINDS = {"events", "careers"}  # decks whose layout is measured card by card


def _frame_problem(document: Document, entry: str, field: str, mm: float) -> Problem:
    page, file, line = page_source(field)
    if file:  # the author's own line (a booklet chapter): named where it was written
        return Problem(
            f"{document.filename}, {page}: this text runs {mm:.1f} mm past the page's"
            " printable edge, where it is lost",
            file,
            line,
            severity="warning",
        )
    return Problem(
        f"{field.removeprefix(CUT_PREFIX)}: cut short with … to fit ({mm:.1f} mm of text"
        " hidden)"
        if field.startswith(CUT_PREFIX)
        else f"{field} overflows by {mm:.1f} mm",
        document.filename,
        None,
        entry or document.title,
        None,
        "warning",
    )


def lost_text_problems(document: Document, outcome: Outcome) -> list[Problem]:
    """The completeness audit (render/audit.py): each block of the author's text with
    words the PDF does not hold, named at its source line; for every other printable, each
    entry whose words its render did not print (audited where it was rendered)."""
    if not document.expected:
        return [
            Problem(
                f"missing from the PDF's text: {describe_lost(words)}"
                " (off the page, or hidden by the theme)",
                document.filename,
                entry=entry or None,
                field=frame or None,
                severity="warning",
            )
            for entry, frame, words in outcome.lost
        ]
    pdf = outcome.pdf
    problems = []
    for source, words in lost_words(pdf, document.expected):
        file, line = split_source(source)
        problems.append(
            Problem(
                f"{document.filename}: missing from the PDF's text: {describe_lost(words)}"
                " (off the page, or hidden by the theme)",
                file,
                line,
                severity="warning",
            )
        )
    return problems


def layout_problems(document: Document, campaign: Campaign, outcome: Outcome) -> list[Problem]:
    problems = [_frame_problem(document, entry, field, mm) for entry, field, mm in outcome.frames]
    if document.kind not in CARD_KINDS:
        return problems
    from ..documents.deck import describe_layout

    return problems + describe_layout(
        document.kind,  # type: ignore[arg-type]
        campaign,
        [(str(c), float(m)) for c, m in outcome.overflows],
        [(str(c), str(a), str(b)) for c, a, b in outcome.collisions],
    )


def says_more(outcome: Outcome) -> bool:
    """A merged document's render said something that must name its own file: a refused
    load or a warning (missing glyphs are reported by our lint per entry instead)."""
    return bool(outcome.refused) or any(
        not message.startswith(".notdef glyph") for message in outcome.warnings
    )


GLYPHS_SHOWN = 12  # characters a missing-glyph warning quotes before "and N more"


def missing_glyph_problem(document: Document, missing: dict[str, list[str]]) -> Problem:
    """One warning per document, however many characters and entries: the entry (the
    document's own name when several entries share it) and the characters."""
    chars: list[str] = []
    for found in missing.values():
        chars += [char for char in found if char not in chars]
    shown = " ".join(repr(char) for char in chars[:GLYPHS_SHOWN])
    if len(chars) > GLYPHS_SHOWN:
        shown += f" and {len(chars) - GLYPHS_SHOWN} more"
    entries = [entry for entry in missing if entry]
    entry = entries[0] if len(entries) == 1 else document.title
    where = ""
    if len(entries) > 1:
        where = " (in " + ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "") + ")"
    noun = "character" if len(chars) == 1 else "characters"
    # Entries are marked by their names: characters all found in the name are the name's.
    field = "name" if len(entries) == 1 and set(chars) <= set(entries[0]) else None
    return Problem(
        f"no font draws {len(chars)} {noun}{where}: {shown}",
        document.filename,
        None,
        entry,
        field,
        "warning",
    )


# How to install the faces of each group of system faces, platform by platform.
FONT_INSTALLS = {
    "fonts-noto-cjk": (
        "Noto Sans CJK and Noto Serif CJK: on Debian or Ubuntu `sudo apt install"
        " fonts-noto-cjk`, on Fedora `sudo dnf install google-noto-sans-cjk-fonts"
        " google-noto-serif-cjk-fonts`, on Arch `sudo pacman -S noto-fonts-cjk`, on macOS"
        " `brew install --cask font-noto-sans-cjk font-noto-serif-cjk`, on Windows download"
        " Noto Sans CJK from https://github.com/notofonts/noto-cjk/releases and install it;"
        " or, anywhere, put those files in the campaign's fonts/ folder"
    ),
}


def font_package_hints(missing: dict[str, list[str]]) -> list[str]:
    """How to add the faces that would draw these characters, if system faces would: one
    line whatever the entries (the build says it once; each document's missing-glyph
    warning names its entries)."""
    absent = set(missing_font_packages())
    wanted = {font_package_for(char) for chars in missing.values() for char in chars}
    return [
        f"{SYSTEM_FONT_SCRIPTS[group]} print in boxes until their faces are installed"
        f" ({FONT_INSTALLS[group]}); the next build finds them where the system keeps them"
        for group in sorted(g for g in wanted if g in absent)
    ]


def template_problem(err: Exception, path: Path) -> Problem:
    where = f"{err.filename}:{err.lineno}: " if isinstance(err, TemplateSyntaxError) else ""
    detail = getattr(err, "message", None) or f"{type(err).__name__}: {err}"
    if isinstance(err, MemoryError):
        detail = f"used more than {TEMPLATE_MEMORY_MB} MB while rendering; stopped"
    return Problem(f"{where}template error: {detail}", display_path(path))


def cache_meta(outcome: Outcome) -> dict[str, Any]:
    return {
        "pages": outcome.pages,
        "page_sizes": outcome.page_sizes,
        "warnings": outcome.warnings,
        "overflows": outcome.overflows,
        "collisions": outcome.collisions,
        "frames": outcome.frames,
        "lost": outcome.lost,
    }
