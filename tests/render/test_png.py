"""`--png` pictures are made in the build's own process: however large a stranger's theme
makes the pages, each picture and each contact sheet stays within its caps."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
from PIL import Image

from scratchpress.render.png import MAX_PNG_PAGES, MAX_PNG_PIXELS, contact_sheet, page_pngs


def _pdf(path: Path, sizes: list[tuple[float, float]]) -> Path:
    pdf = pikepdf.new()
    for width, height in sizes:
        pdf.add_blank_page(page_size=(width, height))
    pdf.save(path)
    return path


def test_a_120_inch_page_becomes_a_picture_within_the_pixel_cap(tmp_path: Path) -> None:
    """Regression: `[build] png = true` and `@page { size: 120in }` made 18000 x 18000
    pixel pictures, 3.5 GB of memory in the build's own process."""
    [picture] = page_pngs(_pdf(tmp_path / "huge.pdf", [(8640, 8640)])).values()
    with Image.open(io.BytesIO(picture)) as image:
        assert image.width * image.height <= MAX_PNG_PIXELS * 1.01  # pdfium rounds up
        assert image.width > 2000  # scaled down, not thrown away


def test_an_ordinary_page_keeps_its_150_dpi(tmp_path: Path) -> None:
    [picture] = page_pngs(_pdf(tmp_path / "letter.pdf", [(612, 792)])).values()
    with Image.open(io.BytesIO(picture)) as image:
        assert abs(image.width - 1275) <= 1 and abs(image.height - 1650) <= 1


def test_a_document_gives_at_most_its_cap_of_pictures(tmp_path: Path) -> None:
    pictures = page_pngs(_pdf(tmp_path / "long.pdf", [(72, 72)] * (MAX_PNG_PAGES + 5)))
    assert len(pictures) == MAX_PNG_PAGES
    assert sorted(pictures)[0] == "long-001.png"


def test_a_freak_tall_page_cannot_grow_the_contact_sheet(tmp_path: Path) -> None:
    sheet = contact_sheet(_pdf(tmp_path / "deck.pdf", [(180, 252), (180, 14_000)]))
    assert sheet is not None
    with Image.open(io.BytesIO(sheet)) as image:
        assert image.width == 1600 and image.height <= 801  # cells at most twice as tall as wide
