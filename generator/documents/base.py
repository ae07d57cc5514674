"""What every printable module produces: documents to render, and the options they obey."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..definitions.models import BuildOptions
from ..render.jobs import Placement
from ..render.viewer import Flip
from ..typesetting.paper import PAPER_CSS, PAPER_MM
from ..typesetting.shops import ShopSpec


@dataclass(frozen=True)
class Imposed:
    """A document assembled from small units (one card, one sheet's cut marks) that are
    rendered and cached one by one, then placed onto sheets with pikepdf.

    Editing one card re-renders that card only; the sheets are never laid out again.
    Every unit is a page of the document's template: ``contexts[group]`` is the template
    context without its ``pages``, and a unit is ``(group, page)``. Units of one group are
    rendered together as one document, so a batch shares its fonts. ``spans[i]`` is how
    many pages unit i is planned to fill (1 if not given).

    ``batch_context``, when given, makes batches runs of consecutive units and returns
    what the context of a batch needs besides its pages (a roster batch numbers its pages
    from its first one); ``max_batch`` caps a batch's units (WeasyPrint's memory grows
    with the document).
    """

    contexts: dict[str, dict[str, Any]]
    units: list[tuple[str, dict[str, Any]]]
    sheets: list[list[Placement]]  # in print order; the first placement is drawn first
    paper_mm: tuple[float, float]
    spans: list[int] | None = None
    batch_context: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None
    max_batch: int = 1000


@dataclass(frozen=True)
class Document:
    """One PDF to write: a template, the view model it presents and its file name."""

    kind: str  # the --only name: sheets, vehicles, initiative, carry ...
    title: str  # what the summary calls it: "Chokestar", "Initiative cards"
    stem: str  # safe file stem without ".pdf", from render.names
    template: str  # path under templates/, e.g. "sheet/sheet.html"
    context: dict[str, Any] = field(default_factory=dict)
    duplex: bool = False  # pages meant for both sides of a sheet (front + back)
    pdf_variant: str | None = None  # e.g. "pdf/ua-1": tagged for screen readers (booklets)
    # Set for card decks: the build renders these units and imposes them instead of
    # rendering ``context`` as one document (which stays the reference layout for tests).
    imposed: Imposed | None = None
    # A file name the user chose (`calibrate -o sheet.pdf`), instead of ``<stem>.pdf``.
    file_name: str | None = None
    # Cards to cut out: printed at actual size, flipped on this edge (or one-sided). The
    # build writes it into the PDF's viewer preferences (render/viewer.py).
    print_flip: Flip | None = None
    # The author's words the PDF must hold, by source line (``file:line``, text): the
    # build's completeness audit looks for each in the PDF's text (render/audit.py).
    expected: tuple[tuple[str, str], ...] = ()
    # A deck made for a print shop (`build --for`): the build turns its PDF into what the
    # shop takes (render/press.py) and checks it (render/preflight.py).
    shop: ShopSpec | None = None

    @property
    def filename(self) -> str:
        return self.file_name or f"{self.stem}.pdf"


def page_context(options: BuildOptions) -> dict[str, Any]:
    """What the shared page CSS needs: paper, ink saver, units."""
    return {
        "paper": options.paper,
        "paper_css": PAPER_CSS[options.paper],
        "paper_mm": PAPER_MM[options.paper],
        "ink_saver": options.ink_saver,
        "units": options.units,
        "language": options.language,
    }
