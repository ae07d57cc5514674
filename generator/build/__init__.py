"""`scratchpress build`: every printable of a campaign, rendered and written safely.

HTML is made in this process (fast); PDFs are rendered in worker processes (render/pool.py)
unless the content-hash cache (render/cache.py) already holds them; each file is written
atomically and recorded in the output folder's manifest. Card decks and the NPC roster
are imposed documents (build/units.py): their cards and pages are cached one by one and
put together with pikepdf, so an edit re-renders only the card or page it touched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jinja2 import TemplateError

from ..definitions.campaign import Campaign
from ..definitions.files import display_path
from ..documents.base import BuildOptions, Document
from ..documents.registry import kinds_to_build, maker, skips_resilience
from ..problems import Problem
from ..render.cache import RenderCache, cache_key
from ..render.files import CannotWrite, clean_stale_temps, reason, signals_held, write_file
from ..render.jobs import Job, Outcome
from ..render.lint import missing_glyphs_by_entry
from ..render.lock import OutputBusy, output_lock
from ..render.manifest import Manifest
from ..render.merged import merge_jobs
from ..render.pool import limits_note, run_jobs
from ..render.templating import render_html, theme_dirs
from ..resources import fonts_dir, templates_dir
from ..statblocks import Computed
from .messages import (
    CARD_KINDS,
    cache_meta,
    font_package_hints,
    layout_problems,
    missing_glyph_problem,
    says_more,
    template_problem,
)
from .output import not_ours, remove_unmade, save_manifest, write_previews, write_saddle
from .report import BuildInterrupted, BuildReport, BuildSettings, Written
from .session import BuildSession
from .units import (
    UnitPlan,
    assemble,
    batch_jobs,
    find_cached,
    plan_units,
    sample_job,
    settle,
)


def collect_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions, only: list[str] | None
) -> list[Document]:
    documents: list[Document] = []
    for kind in kinds_to_build(campaign, only):
        documents += maker(kind)(computed, campaign, options)
    return documents


def allowed_roots(campaign: Campaign) -> list[Path]:
    roots = [templates_dir(), fonts_dir()]
    if campaign.root is not None:
        roots.insert(0, campaign.root.resolve())
    return roots


def build(
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    out_dir: Path,
    only: list[str] | None = None,
    progress: Callable[[Written], None] | None = None,
    force: bool = False,
    settings: BuildSettings | None = None,
    on_rendered: Callable[[int, int], None] | None = None,
    session: BuildSession | None = None,
    on_wait: Callable[[], None] | None = None,
) -> BuildReport:
    """Build every printable of a campaign into ``out_dir``, one build per output folder at
    a time: a second build waits for the first (``on_wait`` is told once), or with
    ``settings.wait`` off raises :class:`OutputBusy`. Files of the kinds built that an
    earlier build wrote and this one no longer makes (a renamed character's sheet) are
    removed, if nobody changed them since."""
    kinds = kinds_to_build(campaign, only)

    def documents(report: BuildReport) -> list[Document]:
        if skips_resilience(campaign, only):
            report.notes.append(
                "no community or Resilience content in this campaign, so no events, careers or"
                " encounters; `--only events,careers,encounters` prints them"
            )
        return collect_documents(computed, campaign, options, only)

    return _locked(
        documents,
        campaign,
        options,
        out_dir,
        progress,
        force,
        settings,
        on_rendered,
        session,
        on_wait,
        set(kinds),
    )


def build_documents(
    documents: list[Document],
    out_dir: Path,
    options: BuildOptions,
    root: Path | None = None,
    *,
    force: bool = False,
    settings: BuildSettings | None = None,
    progress: Callable[[Written], None] | None = None,
    on_wait: Callable[[], None] | None = None,
) -> BuildReport:
    """Render and write documents made outside a campaign build (the duplex calibration
    sheet, the GM's year sheets) the way a build does: the same worker limits, cache,
    manifest and lock. ``root`` is the campaign folder they may load files from, if any.
    Nothing else in ``out_dir`` is removed."""
    from ..definitions.models import Settings

    campaign = Campaign(root=root, settings=Settings())
    return _locked(
        lambda _: documents,
        campaign,
        options,
        out_dir,
        progress,
        force,
        settings,
        None,
        None,
        on_wait,
        set(),
    )


def _locked(
    documents: Callable[[BuildReport], list[Document]],
    campaign: Campaign,
    options: BuildOptions,
    out_dir: Path,
    progress: Callable[[Written], None] | None,
    force: bool,
    settings: BuildSettings | None,
    on_rendered: Callable[[int, int], None] | None,
    session: BuildSession | None,
    on_wait: Callable[[], None] | None,
    prune: set[str],
) -> BuildReport:
    settings = settings or BuildSettings(force=force)
    force = force or settings.force
    report = BuildReport(options=options)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        report.problems.append(Problem(str(CannotWrite(display_path(out_dir), reason(err)))))
        return report
    with output_lock(out_dir, settings.wait, on_wait):
        try:
            return _build_locked(
                documents,
                campaign,
                options,
                out_dir,
                progress,
                force,
                settings,
                on_rendered,
                session,
                report,
                prune,
            )
        except KeyboardInterrupt:  # while planning, before the first document was written
            raise BuildInterrupted(0, 0) from None


def _build_locked(
    make_documents: Callable[[BuildReport], list[Document]],
    campaign: Campaign,
    options: BuildOptions,
    out_dir: Path,
    progress: Callable[[Written], None] | None,
    force: bool,
    settings: BuildSettings,
    on_rendered: Callable[[int, int], None] | None,
    session: BuildSession | None,
    report: BuildReport,
    prune: set[str],
) -> BuildReport:
    clean_stale_temps(out_dir)
    manifest = Manifest(out_dir)
    # Whose files these are, in the manifest: a build removes only its own campaign's.
    owner = str(campaign.root.resolve()) if campaign.root is not None else ""
    render_cache = RenderCache.for_build(
        campaign.root,
        out_dir,
        settings.cache_dir,
        enabled=settings.use_cache,
        memory=session.memory if session else None,
        notes=report.notes,
    )
    roots = tuple(allowed_roots(campaign))

    try:
        themes = theme_dirs(campaign.root)
    except TemplateError as err:
        report.problems.append(Problem(str(err.message), display_path(campaign.root or out_dir)))
        return report
    documents = make_documents(report)
    by_key: dict[str, list[Document]] = {}
    order: list[tuple[Document, str]] = []
    outcomes: dict[str, Outcome] = {}
    jobs: list[Job] = []
    samples: list[Job] = []  # documents this build found cached, to warm a watch session
    plans: list[UnitPlan] = []
    for document in documents:
        if not force and not manifest.may_write(document.filename):
            report.problems.append(not_ours(out_dir / document.filename))
            continue
        try:
            if document.imposed is not None:
                plan = plan_units(document, themes, roots, settings.timeout_s)
                html = plan.text  # the cards' text, for the missing-glyph lint below
                key = plan.key
            else:
                html = render_html(document.template, document.context, themes, settings.timeout_s)
                key = cache_key(html, f"{document.kind}/{document.pdf_variant}", roots)
        except Exception as err:
            report.problems.append(template_problem(err, out_dir / document.filename))
            continue
        order.append((document, key))
        # What the view shortened to fit (documents/sheet.py): a layout warning, like the lint.
        report.lint += document.context.get("layout_problems", [])
        if key in by_key:  # the same PDF twice (rare): render once
            by_key[key].append(document)
            continue
        by_key[key] = [document]
        undrawn = missing_glyphs_by_entry(html)
        if undrawn:
            report.lint.append(missing_glyph_problem(document, undrawn))
            for hint in font_package_hints(undrawn):
                if hint not in report.notes:
                    report.notes.append(hint)
        hit = render_cache.get(key)
        # A watch session's first build puts each deck together from its cached cards even
        # when the whole deck is cached: opening them now, while the GM waits for the start,
        # spares the first edit that second or two.
        if session and document.imposed is not None and document.stem not in session.imposers:
            hit = None
        if hit is not None:
            pdf, meta = hit
            if session and not session.warm and document.imposed is None:  # rendered before
                samples.append(
                    Job(
                        key,
                        html,
                        templates_dir(),
                        roots,
                        pdf_variant=document.pdf_variant,
                        kind=document.kind,
                    )
                )
            outcomes[key] = Outcome(
                key,
                pdf,
                int(meta["pages"]),
                [(float(w), float(h)) for w, h in meta["page_sizes"]],
                list(meta["warnings"]),
                [],
                [tuple(o) for o in meta["overflows"]],
                [tuple(c) for c in meta["collisions"]],
                [tuple(f) for f in meta.get("frames", [])],
            )
            outcomes[key].seconds = -1.0  # marks a cache hit
        elif document.imposed is not None:
            missing = find_cached(plan, render_cache)
            try:
                batches = batch_jobs(
                    plan,
                    missing,
                    settings.workers,
                    templates_dir(),
                    roots,
                    themes,
                    settings.timeout_s,
                )
            except Exception as err:
                report.problems.append(template_problem(err, out_dir / document.filename))
                order.pop()
                continue
            queued = {job.key for job in jobs}
            jobs += [job for job in batches if job.key not in queued]
            cached = sorted(set(range(len(plan.unit_keys))) - set(missing))
            if session is not None and not session.warm and cached:
                samples.append(sample_job(plan, cached[0]))
            plans.append(plan)
        else:
            jobs.append(
                Job(
                    key,
                    html,
                    templates_dir(),
                    roots,
                    document.kind in CARD_KINDS,
                    document.pdf_variant,
                    document.kind,
                )
            )

    # A theme's CSS could count pages or repeat fixed boxes across merged sheets.
    jobs, merged = merge_jobs(jobs, settings.workers) if not themes else (jobs, {})
    note = limits_note(settings.workers) if jobs else None
    if note is not None:
        report.notes.append(note)
    position = {id(document): index for index, (document, _) in enumerate(order)}
    waiting = list(order)  # documents not yet written, in document order

    def write_ready() -> None:
        """Write every waiting document whose PDF is ready, so each "wrote" line comes
        when its file is on disk, not after the whole build has rendered."""
        ready = [item for item in waiting if item[1] in outcomes]
        waiting[:] = [item for item in waiting if item[1] not in outcomes]
        for item in ready:
            before = len(report.written)
            _write_document(item[0], outcomes[item[1]])
            if progress is not None:  # the document, and its saddle copy if it has one
                for written in report.written[before:]:
                    progress(written)

    def _write_document(document: Document, outcome: Outcome) -> None:
        path = out_dir / document.filename
        if outcome.error is not None:
            report.problems.append(Problem(outcome.error, display_path(path)))
            return
        for message in outcome.refused:
            report.problems.append(Problem(f"refused to load {message}", document.filename))
        for message in outcome.warnings:
            # Missing glyphs are reported once, by our lint, with the entry's name.
            if message.startswith(".notdef glyph"):
                continue
            if not any(message.endswith(r) for r in outcome.refused):
                report.warnings.append(f"{document.filename}: {message}")
        report.lint += layout_problems(document, campaign, outcome)
        with signals_held():  # written and recorded, or neither
            try:
                # A file that already holds exactly these bytes is left alone: no rewrite,
                # no new modification time for a printer queue or a sync tool to react to.
                if not manifest.holds(document.filename, outcome.pdf):
                    write_file(path, outcome.pdf, out_dir, shown=display_path(path))
            except CannotWrite as err:
                report.problems.append(Problem(str(err)))
                return
            manifest.record(document.filename, outcome.pdf, document.kind, owner)
        sheets = (outcome.pages + 1) // 2 if document.duplex else outcome.pages
        written = Written(
            document,
            path,
            outcome.pages,
            sheets,
            outcome.page_sizes,
            cached=outcome.seconds < 0,
        )
        report.written.append(written)
        if document.kind == "booklets" and options.impose == "saddle":
            write_saddle(document, outcome.pdf, out_dir, manifest, force, report, written, owner)

    batch_keys = {batch.key for plan in plans for batch in plan.batches}
    units_done: dict[str, Outcome] = {}
    merged_done: dict[str, Outcome] = {}
    alone: list[Job] = []  # documents of a merged job that failed or warned, one by one

    def finished(outcome: Outcome) -> None:
        outcomes[outcome.key] = outcome
        if outcome.error is None and not outcome.refused:
            render_cache.put(outcome.key, outcome.pdf, cache_meta(outcome))
        write_ready()

    try:
        write_ready()  # what the cache held
        rendered = run_jobs(jobs, settings.workers, settings.timeout_s, settings.memory_mb)
        for done, outcome in enumerate(rendered, start=1):
            if on_rendered:
                on_rendered(done, len(jobs))
            if outcome.key in batch_keys:  # units of an imposed document: assembled below
                units_done[outcome.key] = outcome
            elif outcome.key in merged:  # several documents: each its own file
                if outcome.error or any(says_more(part) for part in outcome.parts):
                    alone += merged[outcome.key]
                    continue
                merged_done[outcome.key] = outcome
                for part in outcome.parts:
                    finished(part)
            else:
                finished(outcome)
        for outcome in run_jobs(alone, settings.workers, settings.timeout_s, settings.memory_mb):
            finished(outcome)
        retries = [job for plan in plans for job in settle(plan, units_done)]
        for outcome in run_jobs(retries, settings.workers, settings.timeout_s, settings.memory_mb):
            units_done[outcome.key] = outcome
        for plan in plans:
            try:
                imposer = session.imposer(plan.document.stem) if session else None
                outcome = assemble(plan, units_done, render_cache, imposer)
            except Exception as err:  # a unit PDF pikepdf cannot read: say so, build the rest
                outcome = Outcome(
                    plan.key, error=f"could not be imposed: {type(err).__name__}: {err}"
                )
            outcomes[plan.key] = outcome
            if outcome.error is None and not outcome.refused:
                render_cache.put(outcome.key, outcome.pdf, cache_meta(outcome))
            write_ready()
        # The summary lists documents in document order, whichever finished first.
        report.written.sort(key=lambda w: position[id(w.document)])
        if settings.png:
            write_previews(out_dir, manifest, force, report, owner)
        if prune:
            remove_unmade(out_dir, manifest, prune, owner, [d for d, _ in order], options, report)
    except KeyboardInterrupt:
        raise BuildInterrupted(len({id(w.document) for w in report.written}), len(order)) from None
    finally:
        # Whatever stopped us (Ctrl-C, a closed pipe, a bug), what was written stays ours:
        # recorded in the manifest, so the next run may replace it.
        save_manifest(manifest, report)
    if render_cache.enabled:
        render_cache.prune()
        render_cache.forget_unused()
    if session is not None:
        rendered_well = {**outcomes, **units_done}
        alone += [merged[key][0] for key in merged_done]  # one sheet warms as well as eight
        session.warm_up(
            samples
            + [
                job
                for job in jobs + alone
                if (result := rendered_well.get(job.key)) is not None
                and result.error is None
                and not result.refused
            ]
        )
    return report


__all__ = [
    "BuildInterrupted",
    "BuildReport",
    "BuildSession",
    "BuildSettings",
    "OutputBusy",
    "Written",
    "build",
    "build_documents",
    "collect_documents",
]
