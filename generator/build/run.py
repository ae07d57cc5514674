"""One build in progress, phase by phase: plan every document (HTML, cache key, cache
hit or render job), render what the cache lacks, write each PDF as soon as it is ready,
then the previews, the removals and the manifest.

The phases share what a build holds while it runs (the manifest, the cache, the report,
the jobs and their outcomes), so they are methods of one object, :class:`BuildRun`.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jinja2 import TemplateError

from ..definitions.campaign import Campaign
from ..definitions.files import display_path
from ..definitions.models import BuildOptions
from ..documents.base import Document
from ..problems import Problem
from ..render.cache import RenderCache, cache_key
from ..render.files import CannotWrite, clean_stale_temps, signals_held, write_file
from ..render.jobs import Job, Outcome
from ..render.lint import missing_glyphs_by_entry
from ..render.manifest import Manifest
from ..render.merged import merge_jobs
from ..render.pool import limits_note, run_jobs
from ..render.press import for_shop
from ..render.tagging import REVISION as TAGS_REVISION
from ..render.templating import render_html, theme_dirs
from ..render.viewer import with_print_preferences
from ..resources import fonts_dir, templates_dir
from .messages import (
    CARD_KINDS,
    cache_meta,
    font_package_hints,
    layout_problems,
    lost_text_problems,
    missing_glyph_problem,
    says_more,
    template_problem,
)
from .output import (
    not_ours,
    remove_unmade,
    save_manifest,
    write_previews,
    write_print_all,
    write_saddle,
    write_shop_files,
)
from .report import BuildInterrupted, BuildReport, BuildSettings, Written
from .session import BuildSession
from .units import UnitPlan, assemble, batch_jobs, find_cached, plan_units, sample_job, settle

# HTML waiting for a worker that this process keeps in memory; past it, each document's
# HTML waits in a private file instead. A theme from a stranger can make every document
# huge (a loop in a template: 256 MB a sheet), and the build must hold one at a time.
HTML_IN_MEMORY = 64 * 1024 * 1024


def allowed_roots(campaign: Campaign) -> list[Path]:
    """The folders a render may load files from: the campaign's, our templates and fonts."""
    roots = [templates_dir(), fonts_dir()]
    if campaign.root is not None:
        roots.insert(0, campaign.root.resolve())
    return roots


def _lost(kept: Any) -> list[tuple[str, str, list[str]]]:
    """A cached audit: (entry, part of the page, words) each; any other shape (an entry
    written before the part was kept) is dropped rather than misread."""
    return [(str(e), str(f), list(w)) for e, f, w in (k for k in kept if len(k) == 3)]


def _cached_outcome(key: str, pdf: bytes, meta: dict[str, object]) -> Outcome:
    """A render the cache held, as if it had just finished (``seconds`` -1 marks it)."""
    outcome = Outcome(
        key,
        pdf,
        int(meta["pages"]),  # type: ignore[call-overload]
        [(float(w), float(h)) for w, h in meta["page_sizes"]],  # type: ignore[attr-defined]
        list(meta["warnings"]),  # type: ignore[call-overload]
        [],
        [tuple(o) for o in meta["overflows"]],  # type: ignore[attr-defined]
        [tuple(c) for c in meta["collisions"]],  # type: ignore[attr-defined]
        [tuple(f) for f in meta.get("frames", [])],  # type: ignore[attr-defined]
        _lost(meta.get("lost", [])),
    )
    outcome.seconds = -1.0
    return outcome


class BuildRun:
    """A build into ``out_dir`` that holds its lock: :meth:`run` does the rest."""

    def __init__(
        self,
        campaign: Campaign,
        options: BuildOptions,
        out_dir: Path,
        settings: BuildSettings,
        report: BuildReport,
        session: BuildSession | None = None,
        progress: Callable[[Written], None] | None = None,
        on_rendered: Callable[[int, int], None] | None = None,
    ) -> None:
        self.campaign, self.options, self.out_dir = campaign, options, out_dir
        self.settings, self.report, self.session = settings, report, session
        self.progress, self.on_rendered = progress, on_rendered
        self.force = settings.force
        self.manifest = Manifest(out_dir)
        # Whose files these are, in the manifest: a build removes only its own campaign's.
        self.owner = str(campaign.root.resolve()) if campaign.root is not None else ""
        self.render_cache = RenderCache.for_build(
            campaign.root,
            out_dir,
            settings.cache_dir,
            enabled=settings.use_cache,
            memory=session.memory if session else None,
            notes=report.notes,
        )
        self.roots = tuple(allowed_roots(campaign))
        self.themes: tuple[Path, ...] = ()
        self.order: list[tuple[Document, str]] = []  # every document planned, with its key
        self.by_key: dict[str, list[Document]] = {}
        self.outcomes: dict[str, Outcome] = {}  # finished renders (or cache hits), by key
        self.jobs: list[Job] = []
        self.samples: list[Job] = []  # documents found cached, to warm a watch session
        self.plans: list[UnitPlan] = []  # imposed documents: their units
        self.merged: dict[str, list[Job]] = {}
        self.units_done: dict[str, Outcome] = {}
        self.merged_done: dict[str, Outcome] = {}
        self.alone: list[Job] = []  # documents of a merged job that failed or warned
        self.waiting: list[tuple[Document, str]] = []  # planned, not yet written
        # Every document this build makes, written or not: one that failed this time
        # keeps its last good PDF (nothing of it is removed as "no longer made").
        self.made: list[Document] = []
        self.held = 0  # characters of HTML kept in memory by jobs (HTML_IN_MEMORY)
        self.spool: tempfile.TemporaryDirectory[str] | None = None

    # ----------------------------------------------------------------------------- phases

    def run(self, make_documents: Callable[[BuildReport], list[Document]], prune: set[str]) -> None:
        """Plan, render, write; ``prune``: the kinds whose files no longer made are removed
        (empty for documents made outside a campaign build, which share their folder)."""
        clean_stale_temps(self.out_dir, subfolders=bool(prune))
        try:
            self.themes = theme_dirs(self.campaign.root)
        except TemplateError as err:
            shown = display_path(self.campaign.root or self.out_dir)
            self.report.problems.append(Problem(str(err.message), shown))
            return
        try:
            self.run_phases(make_documents, prune)
        finally:
            if self.spool is not None:
                self.spool.cleanup()

    def run_phases(
        self, make_documents: Callable[[BuildReport], list[Document]], prune: set[str]
    ) -> None:
        self.made = make_documents(self.report)
        for document in self.made:
            self.plan(document)
        # A theme's CSS could count pages or repeat fixed boxes across merged sheets.
        if not self.themes:
            self.jobs, self.merged = merge_jobs(self.jobs, self.settings.workers)
        note = limits_note(self.settings.workers) if self.jobs else None
        if note is not None:
            self.report.notes.append(note)
        self.waiting = list(self.order)
        try:
            self.render_and_write()
            self.finish(prune)
        except KeyboardInterrupt:
            written = len({id(w.document) for w in self.report.written})
            raise BuildInterrupted(written, len(self.order)) from None
        finally:
            # Whatever stopped us (Ctrl-C, a closed pipe, a bug), what was written stays
            # ours: recorded in the manifest, so the next run may replace it.
            save_manifest(self.manifest, self.report)
        if self.render_cache.enabled:
            self.render_cache.prune()
            self.render_cache.forget_unused()
        self.warm_session()

    def plan(self, document: Document) -> None:
        """The document's HTML and cache key; then a cache hit, or the jobs to render it."""
        report, settings = self.report, self.settings
        if not self.force and not self.manifest.may_write(document.filename):
            report.problems.append(not_ours(self.out_dir / document.filename))
            return
        plan: UnitPlan | None = None
        try:
            if document.imposed is not None:
                plan = plan_units(
                    document, self.themes, self.roots, settings.timeout_s, settings.preview
                )
                html, key = plan.text, plan.key  # the cards' text, for the glyph lint below
            else:
                # A preview render's numbers link to their sources (issue 29); a printed
                # one's context, and so its HTML, is left exactly as it was.
                context = document.context
                if settings.preview:
                    context = {**context, "preview": True}
                html = render_html(document.template, context, self.themes, settings.timeout_s)
                variant = document.pdf_variant
                if variant:  # tagged: mended after WeasyPrint (render/tagging.py)
                    variant += f"/tags-{TAGS_REVISION}"
                key = cache_key(html, f"{document.kind}/{variant}", self.roots)
        except Exception as err:
            report.problems.append(template_problem(err, self.out_dir / document.filename))
            return
        self.order.append((document, key))
        # What the view shortened to fit (documents/sheet/): a layout warning, like the lint.
        report.lint += document.context.get("layout_problems", [])
        if key in self.by_key:  # the same PDF twice (rare): render once
            self.by_key[key].append(document)
            return
        self.by_key[key] = [document]
        undrawn = missing_glyphs_by_entry(html)
        if undrawn:
            report.lint.append(missing_glyph_problem(document, undrawn))
            for hint in font_package_hints(undrawn):
                if hint not in report.notes:
                    report.notes.append(hint)
        hit = self.render_cache.get(key)
        session = self.session
        # A watch session's first build puts each deck together from its cached cards even
        # when the whole deck is cached: opening them now, while the GM waits for the start,
        # spares the first edit that second or two.
        if session and document.imposed is not None and document.stem not in session.imposers:
            hit = None
        if hit is not None:
            pdf, meta = hit
            if session and not session.warm and document.imposed is None:  # rendered before
                sample = Job(
                    key,
                    html,
                    templates_dir(),
                    self.roots,
                    pdf_variant=document.pdf_variant,
                    kind=document.kind,
                )
                self.samples.append(self.kept(sample))
            self.outcomes[key] = _cached_outcome(key, pdf, meta)
        elif plan is not None:
            self.plan_units(document, plan)
        else:
            job = Job(
                key,
                html,
                templates_dir(),
                self.roots,
                document.kind in CARD_KINDS,
                document.pdf_variant,
                document.kind,
                audit=not self.settings.preview,
            )
            self.jobs.append(self.kept(job))

    def kept(self, job: Job) -> Job:
        """``job`` as it waits for its worker: its HTML in memory while the build holds
        less than HTML_IN_MEMORY of it, else in a private file the worker reads."""
        if isinstance(job.source, Path):
            return job
        if self.held + len(job.source) <= HTML_IN_MEMORY:
            self.held += len(job.source)
            return job
        if self.spool is None:
            self.spool = tempfile.TemporaryDirectory(prefix="scratchpress-html-")
        path = Path(self.spool.name) / f"{len(self.jobs) + len(self.samples)}-{job.key}.html"
        path.write_text(job.source, encoding="utf-8", errors="surrogatepass")
        return dataclasses.replace(job, source=path)

    def plan_units(self, document: Document, plan: UnitPlan) -> None:
        """An imposed document: batches of the units the cache lacks."""
        missing = find_cached(plan, self.render_cache)
        try:
            batches = batch_jobs(
                plan,
                missing,
                self.settings.workers,
                templates_dir(),
                self.roots,
                self.themes,
                self.settings.timeout_s,
            )
        except Exception as err:
            self.report.problems.append(template_problem(err, self.out_dir / document.filename))
            self.order.pop()
            return
        queued = {job.key for job in self.jobs}
        self.jobs += [self.kept(job) for job in batches if job.key not in queued]
        cached = sorted(set(range(len(plan.unit_keys))) - set(missing))
        if self.session is not None and not self.session.warm and cached:
            self.samples.append(sample_job(plan, cached[0]))
        self.plans.append(plan)

    def render_and_write(self) -> None:
        """Render every job; each document is written as soon as its PDF is ready."""
        settings = self.settings
        limits = (settings.workers, settings.timeout_s, settings.memory_mb)
        batch_keys = {batch.key for plan in self.plans for batch in plan.batches}
        self.write_ready()  # what the cache held
        for done, outcome in enumerate(run_jobs(self.jobs, *limits), start=1):
            if self.on_rendered:
                self.on_rendered(done, len(self.jobs))
            if outcome.key in batch_keys:  # units of an imposed document: assembled below
                self.units_done[outcome.key] = outcome
            elif outcome.key in self.merged:  # several documents: each its own file
                if outcome.error or any(says_more(part) for part in outcome.parts):
                    self.alone += self.merged[outcome.key]
                    continue
                self.merged_done[outcome.key] = outcome
                for part in outcome.parts:
                    self.finished(part)
            else:
                self.finished(outcome)
        for outcome in run_jobs(self.alone, *limits):
            self.finished(outcome)
        retries = [job for plan in self.plans for job in settle(plan, self.units_done)]
        for outcome in run_jobs(retries, *limits):
            self.units_done[outcome.key] = outcome
        for plan in self.plans:
            try:
                imposer = self.session.imposer(plan.document.stem) if self.session else None
                outcome = assemble(plan, self.units_done, self.render_cache, imposer)
            except Exception as err:  # a unit PDF pikepdf cannot read: say so, build the rest
                outcome = Outcome(
                    plan.key, error=f"could not be imposed: {type(err).__name__}: {err}"
                )
            self.finished(outcome)

    def finish(self, prune: set[str]) -> None:
        """The summary in document order, then previews and what is no longer made."""
        position = {id(document): index for index, (document, _) in enumerate(self.order)}
        self.report.written.sort(key=lambda w: position[id(w.document)])
        if self.settings.png:
            write_previews(self.out_dir, self.manifest, self.force, self.report, self.owner)
        if self.options.print_shop is not None:
            strict = self.options.strict
            write_shop_files(
                self.out_dir, self.manifest, self.force, self.report, self.owner, strict
            )
        if self.options.print_all:
            write_print_all(self.out_dir, self.manifest, self.force, self.report, self.owner)
        # Only after a build that went well: a problem could mean a document was not made
        # that still should be (and whatever it was, the GM sorts it out first).
        if prune and not self.report.problems:
            remove_unmade(
                self.out_dir, self.manifest, prune, self.owner, self.made, self.options, self.report
            )

    def warm_session(self) -> None:
        """``--watch``: warm the renderer with documents this build rendered well."""
        if self.session is None:
            return
        rendered_well = {**self.outcomes, **self.units_done}
        # One sheet warms as well as eight.
        alone = self.alone + [self.merged[key][0] for key in self.merged_done]
        self.session.warm_up(
            self.samples
            + [
                job
                for job in self.jobs + alone
                if (result := rendered_well.get(job.key)) is not None
                and result.error is None
                and not result.refused
            ]
        )

    # ---------------------------------------------------------------------------- writing

    def finished(self, outcome: Outcome) -> None:
        """A render is done: cache it if it is good, and write whatever is now ready."""
        self.outcomes[outcome.key] = outcome
        if outcome.error is None and not outcome.refused:
            self.render_cache.put(outcome.key, outcome.pdf, cache_meta(outcome))
        self.write_ready()

    def write_ready(self) -> None:
        """Write every waiting document whose PDF is ready, so each "wrote" line comes
        when its file is on disk, not after the whole build has rendered."""
        ready = [item for item in self.waiting if item[1] in self.outcomes]
        self.waiting[:] = [item for item in self.waiting if item[1] not in self.outcomes]
        for document, key in ready:
            # Written, recorded and announced, or none of it: a Ctrl-C lands after the
            # "wrote" line, so the lines printed and the count it gives always agree.
            with signals_held():
                before = len(self.report.written)
                self.write_document(document, self.outcomes[key])
                if self.progress is not None:  # the document, and its saddle copy if any
                    for written in self.report.written[before:]:
                        self.progress(written)

    def write_document(self, document: Document, outcome: Outcome) -> None:
        report, manifest, out_dir = self.report, self.manifest, self.out_dir
        path = out_dir / document.filename
        if outcome.error is not None:
            report.problems.append(Problem(outcome.error, display_path(path)))
            return
        if document.shop is not None:  # a print shop's deck: its boxes, colour and markers
            outcome = dataclasses.replace(outcome, pdf=for_shop(outcome.pdf, document.shop))
        # How to print a deck, told in the file: set by the imposer for imposed decks.
        if document.print_flip is not None and document.imposed is None:
            printable = with_print_preferences(outcome.pdf, document.print_flip)
            outcome = dataclasses.replace(outcome, pdf=printable)
        for message in outcome.refused:
            refused = Problem(f"refused a file it loads: {message}", document.filename)
            report.problems.append(refused)
        for message in outcome.warnings:
            # Missing glyphs are reported once, by our lint, with the entry's name.
            if message.startswith(".notdef glyph"):
                continue
            if not any(message.endswith(r) for r in outcome.refused):
                report.warnings.append(f"{document.filename}: {message}")
        lint = layout_problems(document, self.campaign, outcome)
        # The preview's server draws pages with pdfium meanwhile, and pdfium is not
        # thread-safe: its builds leave the audit to the GM's own build.
        if not self.settings.preview:
            lint += lost_text_problems(document, outcome)
        report.lint += lint
        if lint and self.options.strict:
            # --strict: a page that lost text is not a page to print. The last good file,
            # if any, stays where it is, still ours (the manifest keeps it).
            shown = display_path(path)
            count = f"{len(lint)} layout problem" + ("s" if len(lint) > 1 else "")
            ours = path.exists() and manifest.may_write(document.filename)
            kept = " (the last good copy stays)" if ours else ""
            said = f"not written: --strict, and {count} in it{kept}"
            report.problems.append(Problem(said, shown))
            return
        with signals_held():  # written and recorded, or neither
            try:
                # A file that already holds exactly these bytes is left alone: no rewrite,
                # no new modification time for a printer queue or a sync tool to react to.
                if not manifest.holds(document.filename, outcome.pdf):
                    manifest.announce(document.filename, outcome.pdf, document.kind, self.owner)
                    write_file(path, outcome.pdf, out_dir, shown=display_path(path))
            except CannotWrite as err:
                report.problems.append(Problem(str(err)))
                return
            manifest.record(document.filename, outcome.pdf, document.kind, self.owner)
        sheets = (outcome.pages + 1) // 2 if document.duplex else outcome.pages
        if document.shop is not None:  # the shop's cards, not sheets of the GM's paper
            sheets = 0
        written = Written(
            document, path, outcome.pages, sheets, outcome.page_sizes, cached=outcome.seconds < 0
        )
        report.written.append(written)
        if document.kind == "booklets" and self.options.impose == "saddle":
            write_saddle(
                document, outcome.pdf, out_dir, manifest, self.force, report, written, self.owner
            )
