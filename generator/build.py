"""`scratchpress build`: every printable of a campaign, rendered and written safely."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .definitions.campaign import Campaign, display_path
from .documents.base import BuildOptions, Document
from .documents.registry import KINDS, maker
from .problems import Problem
from .render.files import clean_stale_temps, write_atomic
from .render.manifest import Manifest
from .render.templating import render_html
from .resources import fonts_dir, templates_dir
from .statblocks import Computed


@dataclass(frozen=True)
class Written:
    document: Document
    path: Path
    pages: int
    sheets: int  # sheets of paper when printed (duplex documents use both sides)
    page_sizes: list[tuple[float, float]]


@dataclass
class BuildReport:
    written: list[Written] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return sum(w.pages for w in self.written)

    @property
    def sheets(self) -> int:
        return sum(w.sheets for w in self.written)


def collect_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions, only: list[str] | None
) -> list[Document]:
    documents: list[Document] = []
    for kind in KINDS:
        if only is None or kind in only:
            documents += maker(kind)(computed, campaign, options)
    return documents


def allowed_roots(campaign: Campaign) -> list[Path]:
    roots = [templates_dir(), fonts_dir()]
    if campaign.root is not None:
        roots.insert(0, campaign.root.resolve())
    return roots


def render_document(
    document: Document, campaign: Campaign
) -> tuple[bytes, int, list[tuple[float, float]], list[str], list[str]]:
    from .render.engine import render_pdf  # imports WeasyPrint: only when rendering

    html = render_html(document.template, document.context)
    rendered = render_pdf(html, templates_dir(), allowed_roots(campaign))
    return rendered.pdf, rendered.pages, rendered.page_sizes, rendered.warnings, rendered.refused


def build(
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    out_dir: Path,
    only: list[str] | None = None,
    progress: Callable[[Written], None] | None = None,
    force: bool = False,
) -> BuildReport:
    report = BuildReport()
    out_dir.mkdir(parents=True, exist_ok=True)
    clean_stale_temps(out_dir)
    manifest = Manifest(out_dir)
    for document in collect_documents(computed, campaign, options, only):
        pdf, pages, sizes, warnings, refused = render_document(document, campaign)
        for message in refused:
            report.problems.append(Problem(f"refused to load {message}", document.filename))
        for message in warnings:
            if not any(message.endswith(r) for r in refused):
                report.warnings.append(f"{document.filename}: {message}")
        path = out_dir / document.filename
        if not force and not manifest.may_write(document.filename):
            report.problems.append(Problem(
                "exists and was not written by scratchpress (or was changed since);"
                " left untouched; use --force to replace it", display_path(path)))
            continue
        write_atomic(path, pdf)
        manifest.record(document.filename, pdf)
        manifest.save()
        sheets = (pages + 1) // 2 if document.duplex else pages
        written = Written(document, path, pages, sheets, sizes)
        report.written.append(written)
        if progress is not None:
            progress(written)
    return report


__all__ = ["BuildOptions", "BuildReport", "build", "display_path"]
