"""Round tokens: a portrait or initials inside a coloured ring, transparent outside it."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from scratchpress.render import tokens
from scratchpress.render.tokens import PALETTE, TOKEN_SIZES, initials, token_image, token_png

BLUE = "#0072B2"


def _near(pixel: tuple[int, ...], colour: tuple[int, int, int], slack: int = 12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel[:3], colour, strict=True))


def _white(image: Image.Image) -> int:
    """How many pixels are (almost) white: the letters and the thin inner line."""
    red, green, blue, alpha = image.split()
    darkest = ImageChops.darker(ImageChops.darker(red, green), blue)
    bright = darkest.point(lambda v: 255 if v > 235 else 0)
    opaque = alpha.point(lambda v: 255 if v == 255 else 0)
    return ImageChops.multiply(bright, opaque).histogram()[255]


@pytest.mark.parametrize("size", TOKEN_SIZES)
def test_a_token_is_a_disc_at_the_size_asked_with_transparent_corners(size: int) -> None:
    image = Image.open(io.BytesIO(token_png(size, BLUE, "TV")))
    assert (image.format, image.mode, image.size) == ("PNG", "RGBA", (size, size))
    for corner in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)):
        assert image.getpixel(corner)[3] == 0  # type: ignore[index]
    assert image.getpixel((size // 2, size // 2))[3] == 255  # type: ignore[index]


def test_the_ring_is_the_colour_given() -> None:
    image = token_image(256, BLUE)
    ring_middle = round(256 * tokens.RING / 2) + 2
    assert _near(image.getpixel((ring_middle, 128)), (0x00, 0x72, 0xB2))  # type: ignore[arg-type]
    assert _near(image.getpixel((128, ring_middle)), (0x00, 0x72, 0xB2))  # type: ignore[arg-type]


def test_a_placeholder_shows_white_letters_on_the_rings_colour_darker() -> None:
    lettered, plain = token_image(256, BLUE, "TV"), token_image(256, BLUE, "")
    assert _white(lettered) > _white(plain) + 1000  # the letters
    inside = plain.getpixel((128, 128))
    assert _near(inside, (0, round(0x72 * 0.72), round(0xB2 * 0.72)))  # type: ignore[arg-type]


def test_a_portrait_fills_the_disc_inside_the_ring() -> None:
    portrait = Image.new("RGB", (300, 400), (200, 30, 40))
    image = token_image(256, BLUE, "TV", portrait)
    assert _near(image.getpixel((128, 128)), (200, 30, 40))  # type: ignore[arg-type]
    assert _near(image.getpixel((60, 128)), (200, 30, 40))  # type: ignore[arg-type]


def test_a_name_no_font_draws_gives_a_plain_disc(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chinese initials need Debian's CJK fonts; without them the disc has no letters
    rather than boxes."""
    monkeypatch.setattr(tokens, "system_fonts", lambda: iter(()))
    assert _white(token_image(256, BLUE, "王")) == _white(token_image(256, BLUE, ""))


@pytest.mark.parametrize("name", ["கார்த்திகேயன்", "ნინო ბერიძე", "Αλέξανδρος Παπαδόπουλος"])
def test_initials_in_tamil_georgian_and_greek_are_drawn(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The bundled faces draw them, with no system font to fall back on."""
    monkeypatch.setattr(tokens, "system_fonts", lambda: iter(()))
    letters = initials(name)
    assert _white(token_image(256, BLUE, letters)) > _white(token_image(256, BLUE, "")) + 500


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Teodora Vance", "TV"),
        ("Ballast", "B"),
        ("Ledger-hands", "L"),
        ("Marisol de la Achterberg", "MA"),
        ("Αλέξανδρος Παππάς", "ΑΠ"),
        ("王小明", "王"),
        ("Unit 7", "U"),
        ("42", "4"),
        ("", ""),
    ],
)
def test_initials_are_the_first_letters_of_the_first_and_last_words(
    name: str, expected: str
) -> None:
    assert initials(name) == expected


def test_the_palette_has_no_colour_white_letters_cannot_be_read_on() -> None:
    for colour in PALETTE:
        red, green, blue = Image.new("RGB", (1, 1), colour).getpixel((0, 0))  # type: ignore[misc]
        assert 0.299 * red + 0.587 * green + 0.114 * blue < 180, colour
