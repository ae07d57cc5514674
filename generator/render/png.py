"""PNG copies of every page, for virtual tabletops and previews (pypdfium2 + Pillow)."""

from __future__ import annotations

import io
from pathlib import Path

from .files import write_atomic

PNG_DPI = 150


def write_pngs(pdfs: list[Path], folder: Path, dpi: int = PNG_DPI) -> int:
    """``<stem>-<page>.png`` for each page of each PDF; returns how many were written."""
    import pypdfium2

    count = 0
    for pdf in pdfs:
        document = pypdfium2.PdfDocument(str(pdf))
        try:
            for number, page in enumerate(document, start=1):
                image = page.render(scale=dpi / 72).to_pil()
                buffer = io.BytesIO()
                image.save(buffer, format="PNG", optimize=True)
                write_atomic(folder / f"{pdf.stem}-{number}.png", buffer.getvalue())
                count += 1
        finally:
            document.close()
    return count
