"""What a build says it did (:class:`BuildReport`, one :class:`Written` per file) and how it
was asked to run (:class:`BuildSettings`, as opposed to what to print: BuildOptions)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..definitions.models import BuildOptions
from ..documents.base import Document
from ..problems import Problem
from ..render.pool import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S


class BuildInterrupted(Exception):
    """Ctrl-C during a build: ``written`` of ``total`` documents are on disk and kept."""

    def __init__(self, written: int, total: int) -> None:
        super().__init__(f"{written} of {total}")
        self.written, self.total = written, total


@dataclass(frozen=True)
class Written:
    document: Document
    path: Path
    pages: int
    sheets: int  # sheets of paper when printed (duplex documents use both sides)
    page_sizes: list[tuple[float, float]]
    cached: bool = False
    # A booklet's saddle copy: for the printer, not previewed; ``paper`` names the sheet it
    # needs when that is not the build's paper ("tabloid (11x17 in)").
    printers_copy: bool = False
    paper: str | None = None


@dataclass
class BuildReport:
    written: list[Written] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # errors: the build partly failed
    warnings: list[str] = field(default_factory=list)
    lint: list[Problem] = field(default_factory=list)  # layout warnings (fatal with --strict)
    notes: list[str] = field(default_factory=list)  # how the build ran, for the user
    pngs: int = 0  # --png: page images and contact sheets written
    removed: list[str] = field(default_factory=list)  # ours, unchanged, no longer made
    removal_notes: list[str] = field(default_factory=list)  # the notes that say so
    options: BuildOptions | None = None  # what the build printed with, merged

    @property
    def pages(self) -> int:
        return sum(w.pages for w in self.written)

    @property
    def sheets(self) -> int:
        return sum(w.sheets for w in self.written)

    @property
    def from_cache(self) -> int:
        return sum(1 for w in self.written if w.cached)

    @property
    def per_sheet(self) -> list[str]:
        """One line per card sheet written: how many cards a sheet of paper holds, and why
        fewer when an option costs some ("events: 6 cards per sheet, not 8, because ...")."""
        return [
            str(w.document.context["per_sheet"])
            for w in self.written
            if "per_sheet" in w.document.context
        ]


@dataclass(frozen=True)
class BuildSettings:
    """How to run the build, as opposed to what to print (BuildOptions)."""

    jobs: int = 0  # 0: one worker per core
    use_cache: bool = True
    # None: $SCRATCHPRESS_CACHE_DIR, else one folder per campaign and output folder in the
    # user's cache directory (render/cache.py); never the output folder.
    cache_dir: Path | None = None
    force: bool = False
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    wait: bool = True  # another build into the same folder: wait for it (else OutputBusy)
    png: bool = False  # also every page as PNG, in png/
    # The live preview's renders (issue 29): every computed number a link to its source.
    # The HTML differs, so the render cache keeps them apart from the printed PDFs.
    preview: bool = False

    @property
    def workers(self) -> int:
        return self.jobs if self.jobs > 0 else (os.cpu_count() or 1)
