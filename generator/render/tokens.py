"""Round tokens for virtual tabletops: a portrait (or lettered placeholder) in a coloured
ring, as PNG with a transparent corner, at the sizes tabletops expect.

The picture handed in has already passed the one gate every picture passes
(``render/images.py``); nothing here opens a file of the campaign's.
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

from PIL import Image, ImageColor, ImageDraw, ImageFont, ImageOps

from ..resources import fonts_dir
from ..typesetting.fonts import FACE_FILES, system_fonts

# 256 px is a one-square token at Foundry's and most tabletops' 100-200 px grid, sharp
# when zoomed in; 512 px is the actor's artwork and a large creature's token.
TOKEN_SIZES = (256, 512)
# Okabe and Ito's palette (told apart with every common colour blindness), less its
# yellow, on which white letters cannot be read.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
RING = 0.07  # the ring's width, as a share of the token's
EDGE = 0.012  # the dark outline outside the ring and the light line inside it
WORK_PX = 1024  # drawn this large, then shrunk: smooth edges without anti-aliased drawing

# Faces the letters are drawn in, first that has every letter wins: Lato Black draws Latin,
# Greek and Cyrillic; the Noto faces the scripts the sheets fall back to.
LETTER_FACES = (
    FACE_FILES["Lato"]["black"],
    FACE_FILES["Noto Serif"]["bold"],
    FACE_FILES["Noto Sans Arabic"]["bold"],
    FACE_FILES["Noto Sans Hebrew"]["bold"],
    FACE_FILES["Noto Sans Devanagari"]["bold"],
    FACE_FILES["Noto Sans Thai"]["bold"],
    FACE_FILES["Noto Sans Tamil"]["bold"],
    FACE_FILES["Noto Sans Georgian"]["bold"],  # Mtavruli too: initials are capitals
)


def initials(name: str) -> str:
    """What a placeholder token shows: the first letters of the first and last words
    (``Teodora Vance`` -> ``TV``, ``Ballast`` -> ``B``, ``王小明`` -> ``王``)."""
    words: list[str] = re.findall(r"[^\W\d_][\w'’-]*", name) or re.findall(r"\w+", name)
    if not words:
        return ""
    letters = words[0][0] + (words[-1][0] if len(words) > 1 else "")
    return letters.upper()


def palette_colour(index: int) -> str:
    """The ``index``-th colour of the palette, round again after the last."""
    return PALETTE[index % len(PALETTE)]


@cache
def _cmap(path: Path, number: int = 0) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    font = TTFont(str(path), lazy=True, fontNumber=number)
    points = frozenset(font.getBestCmap() or {})
    font.close()
    return points


def _letter_face(text: str) -> Path | None:
    """The first face that draws every character of ``text``; None when none does (CJK
    with Debian's CJK fonts not installed): the token is then drawn without letters."""
    candidates = [fonts_dir() / name for name in LETTER_FACES]
    candidates += [path for _, path in system_fonts() if "Bold" in path.name]
    for path in candidates:
        if all(ord(char) in _cmap(path) for char in text):
            return path
    return None


def _shade(rgb: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    red, green, blue = rgb
    return (round(red * factor), round(green * factor), round(blue * factor))


def _placeholder(size: int, rgb: tuple[int, int, int], letters: str) -> Image.Image:
    face = Image.new("RGB", (size, size), _shade(rgb, 0.72))
    font_file = _letter_face(letters) if letters else None
    if font_file is None:
        return face
    # Two letters fill 60% of the disc's width, one letter is no taller than two.
    font = ImageFont.truetype(str(font_file), round(size * 0.42))
    draw = ImageDraw.Draw(face)
    left, top, right, bottom = draw.textbbox((0, 0), letters, font=font)
    scale = min(1.0, size * 0.6 / max(right - left, 1))
    if scale < 1.0:
        font = ImageFont.truetype(str(font_file), max(round(size * 0.42 * scale), 1))
        left, top, right, bottom = draw.textbbox((0, 0), letters, font=font)
    where = ((size - (right - left)) / 2 - left, (size - (bottom - top)) / 2 - top)
    draw.text(where, letters, font=font, fill=(255, 255, 255))
    return face


def token_image(
    size: int, colour: str, letters: str = "", picture: Image.Image | None = None
) -> Image.Image:
    """A round token ``size`` pixels wide: ``picture`` (a checked, decoded portrait; its
    middle square, a little above centre where a face usually is) or ``letters`` on the
    ring's colour, darker, inside a ring of ``colour`` (any CSS colour)."""
    rgb = ImageColor.getrgb(colour)[:3]
    work = max(WORK_PX, size)
    canvas = Image.new("RGBA", (work, work), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    edge = max(round(work * EDGE), 1)
    ring = round(work * RING)
    draw.ellipse((0, 0, work - 1, work - 1), fill=(*_shade(rgb, 0.45), 255))
    draw.ellipse((edge, edge, work - 1 - edge, work - 1 - edge), fill=(*rgb, 255))
    inner = work - 2 * ring
    if picture is not None:
        face = ImageOps.fit(
            picture.convert("RGB"), (inner, inner), Image.Resampling.LANCZOS, centering=(0.5, 0.25)
        )
    else:
        face = _placeholder(inner, (rgb[0], rgb[1], rgb[2]), letters)
    mask = Image.new("L", (inner, inner), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, inner - 1, inner - 1), fill=255)
    canvas.paste(face, (ring, ring), mask)
    # A light line between ring and face keeps a dark portrait apart from a dark ring.
    draw.ellipse(
        (ring, ring, work - 1 - ring, work - 1 - ring), outline=(255, 255, 255, 170), width=edge
    )
    return canvas.resize((size, size), Image.Resampling.LANCZOS)


def token_png(
    size: int, colour: str, letters: str = "", picture: Image.Image | None = None
) -> bytes:
    """:func:`token_image` as PNG bytes."""
    buffer = io.BytesIO()
    token_image(size, colour, letters, picture).save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


__all__ = ["PALETTE", "TOKEN_SIZES", "initials", "palette_colour", "token_image", "token_png"]
