"""PNG copies of every page, for virtual tabletops and previews (pypdfium2 + Pillow)."""

from __future__ import annotations

import io
from pathlib import Path

PNG_DPI = 150


def page_pngs(pdf: Path, dpi: int = PNG_DPI) -> dict[str, bytes]:
    """``<stem>-<page>.png`` -> PNG bytes for each page of ``pdf``. Page numbers are
    zero-padded to the document's length (``-01`` … ``-12``), so a file browser or a
    virtual tabletop's import sorts page 10 after page 9."""
    import pypdfium2

    pages: dict[str, bytes] = {}
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        digits = max(2, len(str(len(document))))
        for number, page in enumerate(document, start=1):
            image = page.render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=True)
            pages[f"{pdf.stem}-{number:0{digits}d}.png"] = buffer.getvalue()
    finally:
        document.close()
    return pages


def contact_sheet(pdf: Path, columns: int = 4, width_px: int = 1600) -> bytes | None:
    """One PNG with every page of ``pdf`` as a thumbnail: a preview of a whole deck."""
    import pypdfium2
    from PIL import Image

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        thumbs = []
        cell = width_px // columns
        for page in document:
            image = page.render(scale=cell / page.get_width()).to_pil()
            thumbs.append(image)
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
