"""The shapes of render work, shared by the modules that plan, run and impose it.

A :class:`Job` is what a worker renders (render/pool.py), an :class:`Outcome` what it
sends back, a :class:`Part` one document of a job that renders several together
(render/merged.py), and a :class:`Placement` where a rendered unit goes on a sheet
(render/impose.py). They live here, importing nothing, so that the engine, the merger,
the pool and the documents that plan sheets can all use them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Part:
    """One document of a merged job: its own cache key and PDF title."""

    key: str
    title: str


@dataclass(frozen=True)
class Job:
    key: str  # the cache key; also identifies the job in results
    # The HTML itself, or the private file it waits in: a build keeps only so much HTML
    # in memory (build/run.py), since a stranger's theme can make any document huge.
    source: str | Path
    base_dir: Path
    roots: tuple[Path, ...]
    lint_cards: bool = False
    pdf_variant: str | None = None
    kind: str = ""  # the printable it belongs to (``build --watch`` warms one of each)
    parts: tuple[Part, ...] = ()  # several documents rendered as one (render/merged.py)
    # The completeness audit in the worker; the live preview's renders go without it, as
    # its builds go without the booklet's (its page is on screen a moment sooner).
    audit: bool = True

    @property
    def html(self) -> str:
        if isinstance(self.source, Path):
            return self.source.read_text(encoding="utf-8", errors="surrogatepass")
        return self.source

    @property
    def size(self) -> int:
        """The HTML's length (in characters, or bytes once spooled): for ordering work."""
        if isinstance(self.source, Path):
            return self.source.stat().st_size
        return len(self.source)


@dataclass
class Outcome:
    key: str
    pdf: bytes = b""
    pages: int = 0
    page_sizes: list[tuple[float, float]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    overflows: list[tuple[str, float]] = field(default_factory=list)
    collisions: list[tuple[str, str, str]] = field(default_factory=list)
    frames: list[tuple[str, str, float]] = field(default_factory=list)  # text out of its frame
    # The completeness audit (render/audit.py): each entry's words the PDF's text lacks.
    lost: list[tuple[str, str, list[str]]] = field(default_factory=list)  # entry, frame, words
    error: str | None = None  # set when the document could not be rendered
    seconds: float = 0.0
    parts: list[Outcome] = field(default_factory=list)  # a merged job's documents, in order


@dataclass(frozen=True)
class Placement:
    """Where one rendered unit goes on a sheet: its top-left corner, in millimetres from
    the paper's top-left corner."""

    unit: int  # index into Imposed.units
    x_mm: float = 0.0
    y_mm: float = 0.0
    # A unit of whole pages (a roster page, or an oversized block's several pages): one
    # sheet per page the unit came out as, this placement alone on each.
    all_pages: bool = False
