"""Draw the example booklet's cover: a twenty-sided die on a grid of faint pencil rules.

Run from anywhere:  python examples/booklet/make_cover.py
The output is deterministic (a fixed seed, no fonts), so re-running it rewrites the same
cover.png beside this script. Only Pillow is needed.

The picture is 1200 x 900 px, 64 colours: warm paper, a ruled grid like graph paper, a die drawn as
an icosahedron seen face-on (a hexagon outline with its inner triangles), shaded in three
tones of ink, and a scatter of small pencil ticks like a tally kept at the table.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from PIL import Image, ImageDraw

WIDTH, HEIGHT = 1200, 900
SCALE = 3  # drawn oversized and reduced: smooth edges without antialiasing support
HERE = Path(__file__).resolve().parent
SEED = 20110622  # the date of the rules revision the booklet summarises

PAPER = (244, 239, 228)
RULE = (214, 206, 190)
INK = (38, 34, 32)
OXBLOOD = (140, 35, 24)
LIGHT = (226, 196, 184)
MID = (184, 92, 76)

Point = tuple[float, float]


def s(value: float) -> int:
    return round(value * SCALE)


def paper() -> Image.Image:
    """Flat paper tone and a ruled 30 px grid."""
    img = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), PAPER)
    draw = ImageDraw.Draw(img)
    for x in range(0, WIDTH, 30):
        draw.line([(s(x), 0), (s(x), s(HEIGHT))], fill=RULE, width=s(1))
    for y in range(0, HEIGHT, 30):
        draw.line([(0, s(y)), (s(WIDTH), s(y))], fill=RULE, width=s(1))
    return img


def icosahedron(cx: float, cy: float, r: float) -> tuple[list[Point], list[Point]]:
    """The outline (a hexagon, pointy top) and the inner triangle of a d20 seen face-on."""
    outer = [(cx + r * math.cos(math.radians(90 + 60 * i)),
              cy - r * math.sin(math.radians(90 + 60 * i))) for i in range(6)]
    inner_r = r * 0.56
    inner = [(cx + inner_r * math.cos(math.radians(90 + 120 * i)),
              cy - inner_r * math.sin(math.radians(90 + 120 * i))) for i in range(3)]
    return outer, inner


Colour = tuple[int, int, int]


def die(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, tones: list[Colour]) -> None:
    outer, inner = icosahedron(cx, cy, r)
    big = [(s(x), s(y)) for x, y in outer]
    tri = [(s(x), s(y)) for x, y in inner]
    # Faces around the central triangle, each a tone: gives the die its facets.
    faces = []
    for i in range(6):
        a, b = big[i], big[(i + 1) % 6]
        c = tri[((i + 1) // 2) % 3]
        faces.append([a, b, c])
    for i in range(3):
        faces.append([tri[i], big[(2 * i + 1) % 6], tri[(i + 1) % 3]])
    for index, face in enumerate(faces):
        draw.polygon(face, fill=tones[index % len(tones)])
    draw.polygon(tri, fill=PAPER)
    line = s(3)
    for face in faces:
        draw.line([*face, face[0]], fill=INK, width=line, joint="curve")
    draw.line([*tri, tri[0]], fill=INK, width=line, joint="curve")
    draw.line([*big, big[0]], fill=INK, width=s(5), joint="curve")


def twenty(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A "20" in the central face, drawn with strokes (no font files needed)."""
    w, h, t = size * 0.42, size, s(size * 0.14)
    # "2": a hook over the top, a diagonal down to the left, a flat foot.
    x0 = cx - w - size * 0.08
    top = cy - h / 2
    box = (x0, top, x0 + w, top + h * 0.5)
    draw.arc([s(v) for v in box], 180, 15, fill=INK, width=t)
    rx, ry = w / 2, h * 0.25
    end = (x0 + rx + rx * math.cos(math.radians(15)), top + ry + ry * math.sin(math.radians(15)))
    foot = (x0 + size * 0.02, cy + h / 2 - size * 0.07)
    draw.line([(s(end[0]), s(end[1])), (s(foot[0]), s(foot[1]))], fill=INK, width=t)
    draw.line([(s(x0), s(foot[1])), (s(x0 + w), s(foot[1]))], fill=INK, width=t)
    # "0"
    x1 = cx + size * 0.08
    draw.ellipse([s(x1), s(top), s(x1 + w), s(cy + h / 2)], outline=INK, width=t)


def ticks(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Tally marks in groups of five along the lower edge, like a GM's scribbled count."""
    x = 70.0
    for _ in range(9):
        count = rng.randint(2, 5)
        base_y = 800 + rng.uniform(-6, 6)
        for k in range(min(count, 4)):
            xx = x + k * 11
            draw.line([(s(xx), s(base_y)), (s(xx + rng.uniform(-2, 2)), s(base_y + 38))],
                      fill=INK, width=s(3))
        if count == 5:
            draw.line([(s(x - 6), s(base_y + 30)), (s(x + 40), s(base_y + 6))], fill=OXBLOOD,
                      width=s(3))
        x += 64 + rng.uniform(0, 24)


def main() -> None:
    rng = random.Random(SEED)
    img = paper()
    draw = ImageDraw.Draw(img)
    # Two small dice behind, one large in front.
    die(draw, 300, 290, 150, [LIGHT, PAPER, LIGHT])
    die(draw, 930, 250, 115, [PAPER, LIGHT])
    die(draw, 620, 450, 270, [MID, LIGHT, OXBLOOD, LIGHT, MID, LIGHT])
    twenty(draw, 620, 450, 78)
    ticks(draw, rng)
    img = img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    # Flat tones: a 64-colour palette keeps the file small and loses nothing visible.
    img = img.quantize(colors=64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    img.save(HERE / "cover.png", optimize=True)


if __name__ == "__main__":
    main()
