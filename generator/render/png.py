"""PNG copies of every page, for virtual tabletops and previews (pypdfium2 + Pillow)."""

from __future__ import annotations

import io
from pathlib import Path

PNG_DPI = 150
# Pictures are made in the build's own process, from a PDF a stranger's theme may have
# made enormous (a 120-inch page, thousands of pages): each picture is scaled down to at
# most this many pixels (a Tabloid page at 150 dpi is 4.2 million), and a document gives
# at most MAX_PNG_PAGES of them (the build says so when it stops short).
MAX_PNG_PIXELS = 8_000_000
MAX_PNG_PAGES = 200


def _scale(page: object, wanted: float) -> float:
    width, height = page.get_size()  # type: ignore[attr-defined]
    most: float = (MAX_PNG_PIXELS / max(float(width * height), 1.0)) ** 0.5
    return min(wanted, most)


def page_pngs(pdf: Path, dpi: int = PNG_DPI) -> dict[str, bytes]:
    """``<stem>-<page>.png`` -> PNG bytes for each page of ``pdf``. Page numbers are
    zero-padded to the document's length (``-01`` … ``-12``), so a file browser or a
    virtual tabletop's import sorts page 10 after page 9."""
    import pypdfium2

    pages: dict[str, bytes] = {}
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        digits = max(2, len(str(len(document))))
        for number in range(1, min(len(document), MAX_PNG_PAGES) + 1):
            page = document[number - 1]
            image = page.render(scale=_scale(page, dpi / 72)).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=True)
            pages[f"{pdf.stem}-{number:0{digits}d}.png"] = buffer.getvalue()
    finally:
        document.close()
    return pages


def page_images(pdf: bytes, dpi: int, pages: list[int] | None = None) -> list[bytes]:
    """Pages of ``pdf`` (counted from 1; default all) as PNG bytes, made in memory for the
    live preview, under the same pixel cap as ``page_pngs``. Compressed lightly: a page
    on screen a moment after a save matters more than the size of a file nobody keeps."""
    import pypdfium2

    images: list[bytes] = []
    document = pypdfium2.PdfDocument(pdf)
    try:
        for number in pages if pages is not None else range(1, len(document) + 1):
            page = document[number - 1]
            buffer = io.BytesIO()
            page.render(scale=_scale(page, dpi / 72)).to_pil().save(
                buffer, format="PNG", compress_level=1
            )
            page.close()
            images.append(buffer.getvalue())
    finally:
        document.close()
    return images


def contact_sheet(pdf: Path, columns: int = 4, width_px: int = 1600) -> bytes | None:
    """One PNG with every page of ``pdf`` as a thumbnail: a preview of a whole deck."""
    import pypdfium2
    from PIL import Image

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        thumbs = []
        cell = width_px // columns
        for index in range(min(len(document), MAX_PNG_PAGES)):
            page = document[index]
            width, height = page.get_size()
            # A cell's width, and never taller than two: a freak page cannot grow the sheet.
            scale = min(cell / max(width, 1.0), 2 * cell / max(height, 1.0))
            thumbs.append(page.render(scale=scale).to_pil())
    finally:
        document.close()
    if not thumbs:
        return None
    rows = (len(thumbs) + columns - 1) // columns
    cell_h = max(t.height for t in thumbs)
    sheet = Image.new("RGB", (columns * cell, rows * cell_h), "white")
    for index, thumb in enumerate(thumbs):
        sheet.paste(thumb, ((index % columns) * cell, (index // columns) * cell_h))
    buffer = io.BytesIO()
    sheet.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def face_pngs(pdf: bytes, size: tuple[int, int], dpi: int) -> list[bytes]:
    """Every page of a print shop's deck as one PNG of exactly ``size`` pixels, marked
    ``dpi`` (the page is the card and its bleed at that resolution already)."""
    import pypdfium2
    from PIL import Image

    images: list[bytes] = []
    document = pypdfium2.PdfDocument(pdf)
    try:
        for page in document:
            width, _ = page.get_size()
            picture = page.render(scale=size[0] / width).to_pil().convert("RGB")
            if picture.size != size:  # a pixel of rounding: drawn to the shop's exact size
                picture = picture.resize(size, Image.Resampling.LANCZOS)
            buffer = io.BytesIO()
            picture.save(buffer, format="PNG", dpi=(dpi, dpi), optimize=False)
            page.close()
            images.append(buffer.getvalue())
    finally:
        document.close()
    return images
