"""PNG copies of every page, for virtual tabletops and previews (pypdfium2 + Pillow)."""

from __future__ import annotations

import io
from pathlib import Path

from .files import write_atomic

PNG_DPI = 150


def write_pngs(pdfs: list[Path], folder: Path, dpi: int = PNG_DPI) -> int:
    """``<stem>-<page>.png`` for each page of each PDF; returns how many were written.
    Page numbers are zero-padded to the document's length (``-01`` … ``-12``), so a file
    browser or a virtual tabletop's import sorts page 10 after page 9."""
    import pypdfium2

    count = 0
    for pdf in pdfs:
        document = pypdfium2.PdfDocument(str(pdf))
        try:
            digits = max(2, len(str(len(document))))
            for number, page in enumerate(document, start=1):
                image = page.render(scale=dpi / 72).to_pil()
                buffer = io.BytesIO()
                image.save(buffer, format="PNG", optimize=True)
                write_atomic(folder / f"{pdf.stem}-{number:0{digits}d}.png", buffer.getvalue())
                count += 1
        finally:
            document.close()
    return count


def write_contact_sheet(pdf: Path, target: Path, columns: int = 4, width_px: int = 1600) -> None:
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
        return
    rows = (len(thumbs) + columns - 1) // columns
    cell_h = max(t.height for t in thumbs)
    sheet = Image.new("RGB", (columns * cell, rows * cell_h), "white")
    for index, thumb in enumerate(thumbs):
        sheet.paste(thumb, ((index % columns) * cell, (index // columns) * cell_h))
    buffer = io.BytesIO()
    sheet.save(buffer, format="PNG", optimize=True)
    write_atomic(target, buffer.getvalue())
