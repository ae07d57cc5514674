"""Comparing a rendered page with a reference picture, shared by the pixel-regression tests.

Pages are compared at 50 dpi in grey. A block moved by a millimetre, a gutter closed, a
column narrowed or a line wrapped differently changes thousands of pixels; anti-aliasing
and a font's hinting change a few. After an intended change of the layout, look at the new
pictures, then refresh them:

    SCRATCHPRESS_UPDATE_SNAPSHOTS=1 python -m pytest tests/documents -k pixels
"""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageStat

PIXELS = Path(__file__).parent / "pixels"
UPDATE = os.environ.get("SCRATCHPRESS_UPDATE_SNAPSHOTS") == "1"
DPI = 50
MEAN_LIMIT = 1.5  # mean absolute difference, of 255
CHANGED_LIMIT = 0.004  # share of pixels that differ by more than a quarter of the range


def page_image(pdf: bytes | Path, index: int = 0) -> Image.Image:
    """Page ``index`` of a PDF, as a grey picture at 50 dpi."""
    document = pdfium.PdfDocument(pdf)
    try:
        return document[index].render(scale=DPI / 72).to_pil().convert("L")
    finally:
        document.close()


def difference(ours: Image.Image, reference: Image.Image) -> tuple[float, float]:
    """Mean absolute difference (0-255) and the share of pixels off by more than 64."""
    diff = ImageChops.difference(ours, reference)
    mean = ImageStat.Stat(diff).mean[0]
    changed = sum(diff.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    return mean, changed / (diff.size[0] * diff.size[1])


def assert_looks_like(image: Image.Image, name: str) -> None:
    path = PIXELS / f"{name}.png"
    if UPDATE:
        PIXELS.mkdir(exist_ok=True)
        image.save(path, optimize=True)
    assert path.exists(), f"missing {path.name}; run with SCRATCHPRESS_UPDATE_SNAPSHOTS=1"
    assert path.stat().st_size <= 100_000
    reference = Image.open(path).convert("L")
    assert image.size == reference.size, f"{name}: the page changed size"
    mean, changed = difference(image, reference)
    assert mean <= MEAN_LIMIT and changed <= CHANGED_LIMIT, (
        f"{name}: mean difference {mean:.2f}, {changed:.2%} of pixels changed; look at the"
        " page and refresh with SCRATCHPRESS_UPDATE_SNAPSHOTS=1 if that is intended"
    )
