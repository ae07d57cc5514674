"""A round token per character, minion group and vehicle, at each of the usual tabletop
sizes: the portrait where the entry has one, else its initials in its side's colour.

Portraits are found and decoded exactly as the character sheet finds and decodes them
(``documents/assets.portrait_file``, then the picture gate ``render/images.open_picture``),
so a portrait the sheet refuses is refused here too, in the same words.
"""

from __future__ import annotations

from PIL import Image

from ..definitions.campaign import Campaign
from ..documents.assets import PORTRAIT_FIELD, portrait_file
from ..problems import Problem
from ..render.images import ImageProblem, open_picture
from ..render.tokens import TOKEN_SIZES, initials, token_png
from .entries import Entry

TOKENS_DIR = "tokens"


def token_path(entry: Entry, size: int) -> str:
    """Where ``entry``'s token of ``size`` pixels goes, relative to the export folder."""
    return f"{TOKENS_DIR}/{entry.stem}-{size}.png"


def portrait(entry: Entry, campaign: Campaign, problems: list[Problem]) -> Image.Image | None:
    """The entry's portrait through the picture gate, or None: it has none, or it cannot
    be used (then a warning joins ``problems``, and the token shows the initials)."""
    text = getattr(entry.block.definition, PORTRAIT_FIELD, None)
    if not text:
        return None
    try:
        real, root = portrait_file(text, campaign.root)
        return open_picture(real, [root], name=text)
    except ImageProblem as err:
        source = entry.block.source
        problems.append(
            Problem(
                f"{err}; its token shows {initials(entry.name) or 'a plain disc'} instead",
                source.file,
                source.line(PORTRAIT_FIELD),
                entry.name,
                PORTRAIT_FIELD,
                "warning",
            )
        )
        return None


def token_files(entries: list[Entry], campaign: Campaign) -> tuple[dict[str, bytes], list[Problem]]:
    """Every entry's tokens as ``{path: PNG}``, and the portraits that could not be used."""
    files: dict[str, bytes] = {}
    problems: list[Problem] = []
    for entry in entries:
        picture = portrait(entry, campaign, problems)
        for size in TOKEN_SIZES:
            files[token_path(entry, size)] = token_png(
                size, entry.colour, initials(entry.name), picture
            )
    return files, problems


__all__ = ["TOKENS_DIR", "portrait", "token_files", "token_path"]
