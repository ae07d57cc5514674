"""Draw the example campaign's portraits: stylised silhouette busts in flat tones.

Run from anywhere:  python examples/portraits/make_portraits.py
The output is deterministic (fixed seeds, no system fonts), so re-running it rewrites
the same PNG files beside this script. Only Pillow is needed.

Each portrait is 600 x 800 px: a textured, weathered-paper background in one tone,
an accent shape in a second tone and the figure in a third, dark tone.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

WIDTH, HEIGHT = 600, 800
SCALE = 3  # shapes are drawn oversized and reduced, which smooths their edges
HERE = Path(__file__).resolve().parent

Colour = tuple[int, int, int]
Painter = Callable[[ImageDraw.ImageDraw, ImageDraw.ImageDraw], None]


def s(*values: float) -> list[int]:
    """Scale design coordinates (given for 600 x 800) to the oversized canvas."""
    return [round(v * SCALE) for v in values]


def texture(seed: int, base: Colour) -> Image.Image:
    """A flat background tone roughened with grain, fibres and faint water stains."""
    rng = random.Random(seed)
    img = Image.new("RGB", (WIDTH, HEIGHT), base)

    # Fine grain: random grey noise, softened a little, laid over the base tone.
    noise = Image.frombytes("L", (WIDTH, HEIGHT), rng.randbytes(WIDTH * HEIGHT))
    noise = noise.filter(ImageFilter.GaussianBlur(0.7))
    grain = Image.merge("RGB", (noise, noise, noise))
    img = Image.blend(img, ImageChops.overlay(img, grain), 0.55)

    # Paper fibres and scratches: short pale and dark strokes.
    draw = ImageDraw.Draw(img)
    for _ in range(900):
        x, y = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        dx, dy = rng.uniform(-14, 14), rng.uniform(-5, 5)
        shade = rng.choice((18, -22))
        colour = tuple(max(0, min(255, c + shade)) for c in base)
        draw.line([(x, y), (x + dx, y + dy)], fill=colour, width=1)

    # Water stains: a few large, very soft blotches a shade darker than the paper.
    stains = Image.new("L", (WIDTH, HEIGHT), 0)
    sd = ImageDraw.Draw(stains)
    for _ in range(7):
        cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        r = rng.uniform(60, 190)
        sd.ellipse([cx - r, cy - r * 0.8, cx + r, cy + r * 0.8], fill=rng.randint(25, 55))
    stains = stains.filter(ImageFilter.GaussianBlur(40))
    darker = Image.new("RGB", (WIDTH, HEIGHT), tuple(int(c * 0.78) for c in base))
    img = Image.composite(darker, img, stains)

    # A darker border fading inwards, like an old print.
    vignette = Image.new("L", (WIDTH, HEIGHT), 255)
    ImageDraw.Draw(vignette).rectangle([28, 28, WIDTH - 29, HEIGHT - 29], fill=0)
    vignette = vignette.filter(ImageFilter.GaussianBlur(45)).point(lambda v: v * 0.6)
    edge = Image.new("RGB", (WIDTH, HEIGHT), tuple(int(c * 0.6) for c in base))
    return Image.composite(edge, img, vignette)


def shoulders(d: ImageDraw.ImageDraw, neck_width: float = 70) -> None:
    """The common bust: a neck and a broad curve of shoulders running off the bottom."""
    d.rectangle(s(300 - neck_width / 2, 330, 300 + neck_width / 2, 560), fill=255)
    d.ellipse(s(56, 540, 544, 1100), fill=255)


def head(d: ImageDraw.ImageDraw, cx: float = 300, cy: float = 270) -> None:
    d.ellipse(s(cx - 82, cy - 105, cx + 82, cy + 105), fill=255)


# --- the three figures ------------------------------------------------------------------
# Each painter draws into two masks: `figure` (the dark tone) and `accent` (the second
# tone, drawn first so the figure can overlap it).


def teodora(figure: ImageDraw.ImageDraw, accent: ImageDraw.ImageDraw) -> None:
    """Scout: wide-brimmed hat, scarf over the mouth, rifle barrel over one shoulder."""
    # Low sun hanging over the left shoulder.
    accent.ellipse(s(36, 70, 266, 300), fill=255)
    # Rifle slung across the back: a long thin bar rising past the right shoulder.
    figure.polygon(s(420, 120, 434, 124, 360, 640, 344, 636), fill=255)
    figure.polygon(s(426, 96, 440, 98, 436, 132, 422, 130), fill=255)  # muzzle
    shoulders(figure, neck_width=80)
    head(figure, cy=285)
    # Hat: crown and a wide, slightly tilted brim.
    figure.polygon(s(222, 215, 236, 120, 300, 104, 366, 122, 378, 215), fill=255)
    figure.ellipse(s(128, 192, 478, 250), fill=255)
    # Duster collar turned up on both sides of the neck.
    figure.polygon(s(180, 580, 226, 420, 280, 470, 300, 580), fill=255)
    figure.polygon(s(420, 580, 374, 420, 320, 470, 300, 580), fill=255)


def teodora_scarf(accent: ImageDraw.ImageDraw) -> None:
    """The scarf sits on top of the figure, so it is painted in a second pass."""
    scarf = (220, 318, 380, 318, 388, 372, 352, 420, 300, 436, 248, 420, 212, 372)
    accent.polygon(s(*scarf), fill=255)
    accent.polygon(s(352, 400, 410, 470, 396, 520, 352, 440), fill=255)  # loose tail


def ilse(figure: ImageDraw.ImageDraw, accent: ImageDraw.ImageDraw) -> None:
    """Warden: lantern-glow halo, hair pinned up in a knot, a high coat collar."""
    accent.ellipse(s(110, 70, 490, 450), fill=255)
    shoulders(figure, neck_width=62)
    head(figure, cy=280)
    figure.ellipse(s(250, 130, 350, 205), fill=255)  # knot of hair on the crown
    figure.ellipse(s(212, 195, 388, 300), fill=255)  # hairline filling out the skull
    # Tall coat collar standing up on both sides of the neck.
    figure.polygon(s(176, 600, 220, 390, 272, 440, 300, 600), fill=255)
    figure.polygon(s(424, 600, 380, 390, 328, 440, 300, 600), fill=255)


def ilse_badge(accent: ImageDraw.ImageDraw) -> None:
    """A warden's disc pinned on the coat, in the accent tone."""
    accent.ellipse(s(380, 620, 430, 670), fill=255)
    accent.line(s(240, 600, 300, 700, 360, 600), fill=255, width=5 * SCALE)  # coat lapels


def hester(figure: ImageDraw.ImageDraw, accent: ImageDraw.ImageDraw) -> None:
    """Ledger-keeper: deep hood, goggles pushed up, a coil of copper wire at the throat."""
    # Copper rings behind the figure, like the wire spools she hoards.
    for r in (250, 215, 180):
        accent.ellipse(s(300 - r, 300 - r, 300 + r, 300 + r), outline=255, width=9 * SCALE)
    shoulders(figure, neck_width=90)
    # Pointed hood around the head.
    hood = (300, 100, 398, 190, 420, 330, 392, 470, 208, 470, 180, 330, 202, 190)
    figure.polygon(s(*hood), fill=255)
    figure.ellipse(s(186, 150, 414, 420), fill=255)
    # Cape falling from the hood onto the shoulders.
    figure.polygon(s(150, 600, 200, 440, 400, 440, 450, 600), fill=255)


def hester_details(accent: ImageDraw.ImageDraw) -> None:
    """Goggle lenses on the hood's brow and the wire coil at the throat."""
    accent.ellipse(s(236, 206, 290, 252), fill=255)
    accent.ellipse(s(310, 206, 364, 252), fill=255)
    for i in range(4):
        y = 480 + i * 16
        accent.arc(s(230, y - 20, 370, y + 20), start=0, end=180, fill=255, width=6 * SCALE)
    accent.line(s(300, 540, 318, 660), fill=255, width=3 * SCALE)  # chain of the derringer
    accent.ellipse(s(304, 656, 334, 690), fill=255)


@dataclass(frozen=True)
class Portrait:
    filename: str
    seed: int
    paper: Colour
    accent: Colour
    ink: Colour
    painter: Painter
    overlay: Callable[[ImageDraw.ImageDraw], None]


PORTRAITS = [
    Portrait(
        filename="teodora-vance.png",
        seed=11,
        paper=(214, 186, 140),
        accent=(178, 92, 52),
        ink=(52, 38, 30),
        painter=teodora,
        overlay=teodora_scarf,
    ),
    Portrait(
        filename="ilse-marrow.png",
        seed=23,
        paper=(152, 172, 178),
        accent=(226, 184, 96),
        ink=(30, 40, 50),
        painter=ilse,
        overlay=ilse_badge,
    ),
    Portrait(
        filename="hester-greaves.png",
        seed=37,
        paper=(214, 210, 198),
        accent=(176, 104, 58),
        ink=(44, 36, 40),
        painter=hester,
        overlay=hester_details,
    ),
]


def render(p: Portrait) -> Image.Image:
    big = (WIDTH * SCALE, HEIGHT * SCALE)
    figure_mask, back_mask, front_mask = (Image.new("L", big, 0) for _ in range(3))
    p.painter(ImageDraw.Draw(figure_mask), ImageDraw.Draw(back_mask))
    p.overlay(ImageDraw.Draw(front_mask))

    def small(mask: Image.Image) -> Image.Image:
        return mask.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)

    img = texture(p.seed, p.paper)
    for colour, mask in ((p.accent, back_mask), (p.ink, figure_mask), (p.accent, front_mask)):
        img = Image.composite(Image.new("RGB", (WIDTH, HEIGHT), colour), img, small(mask))
    return img


def main() -> None:
    for p in PORTRAITS:
        path = HERE / p.filename
        # A 48-colour palette keeps the grain and smooth edges at a third of the file size.
        image = render(p).quantize(48, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        image.save(path, format="PNG", optimize=True)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
