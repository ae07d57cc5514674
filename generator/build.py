"""`scratchpress build`: every printable of a campaign, rendered and written safely.

HTML is made in this process (fast); PDFs are rendered in worker processes (render/pool.py)
unless the content-hash cache (render/cache.py) already holds them; each file is written
atomically and recorded in the output folder's manifest. Card decks and the NPC roster
are imposed documents (render/units.py): their cards and pages are cached one by one and
put together with pikepdf, so an edit re-renders only the card or page it touched.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import TemplateError, TemplateSyntaxError

from .definitions.campaign import Campaign, display_path
from .definitions.yamlsafe import ParseMemo
from .documents.base import BuildOptions, Document
from .documents.registry import kinds_to_build, maker, skips_resilience
from .problems import Problem
from .render.cache import RenderCache, cache_key
from .render.files import CannotWrite, clean_stale_temps, reason, signals_held, write_file
from .render.fonts import SYSTEM_FONT_SCRIPTS, missing_font_packages
from .render.impose import Imposer
from .render.lint import CUT_PREFIX, font_package_for, missing_glyphs_by_entry
from .render.lock import OutputBusy, output_lock
from .render.manifest import Manifest
from .render.merged import merge_jobs
from .render.pool import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, Job, Outcome, limits_note, run_jobs
from .render.templating import TEMPLATE_MEMORY_MB, render_html, theme_dirs
from .render.units import (
    UnitPlan,
    assemble,
    batch_jobs,
    find_cached,
    plan_units,
    sample_job,
    settle,
)
from .resources import fonts_dir, templates_dir
from .statblocks import Computed

CARD_KINDS = {"events", "careers"}  # decks whose layout is measured card by card
WARM_UP_SECONDS = 3.0  # how long `build --watch` may spend warming its renderer, once


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


@dataclass
class BuildSession:
    """What ``build --watch`` keeps from one build to the next in its one process: cache
    entries already checked, each deck's imposer with its sources open, the last parse of
    each definitions file, and whether the renderer has been warmed. A plain build has none
    and keeps nothing."""

    memory: dict[str, Any] = field(default_factory=dict)
    imposers: dict[str, Imposer] = field(default_factory=dict)
    parse: ParseMemo = field(default_factory=ParseMemo)
    warm: bool = False

    def imposer(self, stem: str) -> Imposer:
        if stem not in self.imposers:
            self.imposers[stem] = Imposer()
        return self.imposers[stem]

    def warm_up(self, jobs: list[Job]) -> None:
        """Once, render in this process the smallest job of each kind: later workers fork
        from a parent whose fonts, shaping and style caches are warm, which halves the time
        one edited card takes. Each job has already rendered within its limits, in a worker
        of this build or of one whose result the cache holds, so it is known to finish;
        warming stops after a few seconds."""
        if self.warm or not jobs:
            return
        self.warm = True
        from .render import engine

        smallest: dict[str, Job] = {}
        for job in jobs:
            if job.kind not in smallest or len(job.html) < len(smallest[job.kind].html):
                smallest[job.kind] = job
        started = time.monotonic()
        for job in sorted(smallest.values(), key=lambda job: len(job.html)):
            if time.monotonic() - started > WARM_UP_SECONDS:
                break
            with contextlib.suppress(Exception):
                engine.render_pdf(job.html, job.base_dir, list(job.roots))


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

    @property
    def workers(self) -> int:
        return self.jobs if self.jobs > 0 else (os.cpu_count() or 1)


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


def _lint(document: Document, campaign: Campaign, outcome: Outcome) -> list[Problem]:
    problems = [
        Problem(
            f"{field.removeprefix(CUT_PREFIX)}: cut short with … to fit ({mm:.1f} mm of text"
            " hidden)"
            if field.startswith(CUT_PREFIX)
            else f"{field} overflows by {mm:.1f} mm",
            document.filename,
            None,
            entry or document.title,
            None,
            "warning",
        )
        for entry, field, mm in outcome.frames
    ]
    if document.kind not in CARD_KINDS:
        return problems
    from .documents.deck import describe_layout

    return problems + describe_layout(
        document.kind,  # type: ignore[arg-type]
        campaign,
        [(str(c), float(m)) for c, m in outcome.overflows],
        [(str(c), str(a), str(b)) for c, a, b in outcome.collisions],
    )


def _says_more(outcome: Outcome) -> bool:
    """A merged document's render said something that must name its own file: a refused
    load or a warning (missing glyphs are reported by our lint per entry instead)."""
    return bool(outcome.refused) or any(
        not message.startswith(".notdef glyph") for message in outcome.warnings
    )


def _not_ours(path: Path) -> Problem:
    """A file in the output folder the manifest does not vouch for: never replaced."""
    return Problem(
        "exists and was not written by scratchpress (or was changed since);"
        " left untouched; use --force to replace it",
        display_path(path),
    )


def _write_saddle(
    document: Document,
    pdf: bytes,
    out_dir: Path,
    manifest: Manifest,
    force: bool,
    report: BuildReport,
    written: Written,
) -> None:
    """The printer's copy: pages reordered 2-up for folding and stapling, listed and
    counted like any document. The tagged reading copy stays as it is beside it."""
    from .documents.booklet.imposition import impose_saddle, saddle_order

    name = f"{document.stem}-saddle.pdf"
    if not force and not manifest.may_write(name):
        report.problems.append(_not_ours(out_dir / name))
        return
    sheet = document.context.get("saddle") or {}
    imposed = impose_saddle(pdf, sheet.get("size_pt"))
    try:
        write_file(out_dir / name, imposed, out_dir, shown=display_path(out_dir / name))
    except CannotWrite as err:
        report.problems.append(Problem(str(err)))
        return
    manifest.record(name, imposed)
    sides = len(saddle_order(written.pages))  # two pages a side, both sides of each sheet
    width, height = written.page_sizes[0]
    report.written.append(
        dataclasses.replace(
            written,
            path=out_dir / name,
            pages=sides,
            sheets=sides // 2,
            page_sizes=[sheet.get("size_pt") or (2 * width, height)] * sides,
            printers_copy=True,
            paper=sheet.get("paper"),
        )
    )


PNG_FOLDER = "png"
CONTACT_KINDS = {"events", "careers", "initiative"}  # decks get a one-image preview too


def _write_previews(out_dir: Path, manifest: Manifest, force: bool, report: BuildReport) -> None:
    """``--png``: every page as ``png/<stem>-NN.png``, and a contact sheet per deck. They
    are output like the PDFs: in the manifest, never written over a file we did not
    write, never through a link."""
    from .render.png import contact_sheet, page_pngs

    for written in report.written:
        if written.printers_copy:  # the booklet's own pages are previewed already
            continue
        images = page_pngs(written.path)
        if written.document.kind in CONTACT_KINDS:
            sheet = contact_sheet(written.path)
            if sheet is not None:
                images[f"{written.path.stem}-contact.png"] = sheet
        for name, data in images.items():
            relative = f"{PNG_FOLDER}/{name}"
            target = out_dir / PNG_FOLDER / name
            if not force and not manifest.may_write(relative) and not _same_bytes(target, data):
                report.problems.append(_not_ours(target))
                continue
            try:
                if not manifest.holds(relative, data):
                    write_file(target, data, out_dir, shown=display_path(target))
            except CannotWrite as err:
                report.problems.append(Problem(str(err)))
                continue
            manifest.record(relative, data)
            report.pngs += 1


def _same_bytes(path: Path, data: bytes) -> bool:
    """A picture already there with exactly our bytes (an older version wrote it before
    PNGs were in the manifest) is ours to record, not a GM's file to refuse."""
    try:
        return path.is_file() and not path.is_symlink() and path.read_bytes() == data
    except OSError:
        return False


def _save(manifest: Manifest, report: BuildReport) -> None:
    try:
        with signals_held():
            manifest.save()
    except CannotWrite as err:
        # The PDFs are written, but without the record the next build would refuse them.
        report.problems.append(Problem(str(err)))


GLYPHS_SHOWN = 12  # characters a missing-glyph warning quotes before "and N more"


def _missing_glyph_problem(document: Document, missing: dict[str, list[str]]) -> Problem:
    """One warning per document, however many characters and entries: the entry (the
    document's own name when several entries share it) and the characters."""
    chars: list[str] = []
    for found in missing.values():
        chars += [char for char in found if char not in chars]
    shown = " ".join(repr(char) for char in chars[:GLYPHS_SHOWN])
    if len(chars) > GLYPHS_SHOWN:
        shown += f" and {len(chars) - GLYPHS_SHOWN} more"
    entries = [entry for entry in missing if entry]
    entry = entries[0] if len(entries) == 1 else document.title
    where = ""
    if len(entries) > 1:
        where = " (in " + ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "") + ")"
    noun = "character" if len(chars) == 1 else "characters"
    return Problem(
        f"no font draws {len(chars)} {noun}{where}: {shown}",
        document.filename,
        None,
        entry,
        None,
        "warning",
    )


def _font_package_hints(missing: dict[str, list[str]]) -> list[str]:
    """How to add the faces that would draw these characters, if a Debian package would."""
    absent = set(missing_font_packages())
    wanted = {font_package_for(char) for chars in missing.values() for char in chars}
    return [
        f"{SYSTEM_FONT_SCRIPTS[package]} print in boxes until Debian's {package} is "
        f"installed (sudo apt-get install {package}); the build uses it when it is there"
        for package in sorted(p for p in wanted if p in absent)
    ]


def _template_problem(err: Exception, path: Path) -> Problem:
    where = f"{err.filename}:{err.lineno}: " if isinstance(err, TemplateSyntaxError) else ""
    detail = getattr(err, "message", None) or f"{type(err).__name__}: {err}"
    if isinstance(err, MemoryError):
        detail = f"used more than {TEMPLATE_MEMORY_MB} MB while rendering; stopped"
    return Problem(f"{where}template error: {detail}", display_path(path))


def _meta(outcome: Outcome) -> dict[str, Any]:
    return {
        "pages": outcome.pages,
        "page_sizes": outcome.page_sizes,
        "warnings": outcome.warnings,
        "overflows": outcome.overflows,
        "collisions": outcome.collisions,
        "frames": outcome.frames,
    }


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
    """Build into ``out_dir``, one build per output folder at a time: a second build waits
    for the first (``on_wait`` is told once), or with ``settings.wait`` off raises
    :class:`OutputBusy`."""
    settings = settings or BuildSettings(force=force)
    force = force or settings.force
    report = BuildReport()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        report.problems.append(Problem(str(CannotWrite(display_path(out_dir), reason(err)))))
        return report
    with output_lock(out_dir, settings.wait, on_wait):
        try:
            return _build_locked(
                computed,
                campaign,
                options,
                out_dir,
                only,
                progress,
                force,
                settings,
                on_rendered,
                session,
                report,
            )
        except KeyboardInterrupt:  # while planning, before the first document was written
            raise BuildInterrupted(0, 0) from None


def _build_locked(
    computed: Computed,
    campaign: Campaign,
    options: BuildOptions,
    out_dir: Path,
    only: list[str] | None,
    progress: Callable[[Written], None] | None,
    force: bool,
    settings: BuildSettings,
    on_rendered: Callable[[int, int], None] | None,
    session: BuildSession | None,
    report: BuildReport,
) -> BuildReport:
    clean_stale_temps(out_dir)
    manifest = Manifest(out_dir)
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
    documents = collect_documents(computed, campaign, options, only)
    if skips_resilience(campaign, only):
        report.notes.append(
            "no community or Resilience content in this campaign, so no events, careers or"
            " encounters; `--only events,careers,encounters` prints them"
        )
    by_key: dict[str, list[Document]] = {}
    order: list[tuple[Document, str]] = []
    outcomes: dict[str, Outcome] = {}
    jobs: list[Job] = []
    samples: list[Job] = []  # documents this build found cached, to warm a watch session
    plans: list[UnitPlan] = []
    for document in documents:
        if not force and not manifest.may_write(document.filename):
            report.problems.append(_not_ours(out_dir / document.filename))
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
            report.problems.append(_template_problem(err, out_dir / document.filename))
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
            report.lint.append(_missing_glyph_problem(document, undrawn))
            for hint in _font_package_hints(undrawn):
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
                report.problems.append(_template_problem(err, out_dir / document.filename))
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
        report.lint += _lint(document, campaign, outcome)
        with signals_held():  # written and recorded, or neither
            try:
                # A file that already holds exactly these bytes is left alone: no rewrite,
                # no new modification time for a printer queue or a sync tool to react to.
                if not manifest.holds(document.filename, outcome.pdf):
                    write_file(path, outcome.pdf, out_dir, shown=display_path(path))
            except CannotWrite as err:
                report.problems.append(Problem(str(err)))
                return
            manifest.record(document.filename, outcome.pdf)
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
            _write_saddle(document, outcome.pdf, out_dir, manifest, force, report, written)

    batch_keys = {batch.key for plan in plans for batch in plan.batches}
    units_done: dict[str, Outcome] = {}
    merged_done: dict[str, Outcome] = {}
    alone: list[Job] = []  # documents of a merged job that failed or warned, one by one

    def finished(outcome: Outcome) -> None:
        outcomes[outcome.key] = outcome
        if outcome.error is None and not outcome.refused:
            render_cache.put(outcome.key, outcome.pdf, _meta(outcome))
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
                if outcome.error or any(_says_more(part) for part in outcome.parts):
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
                render_cache.put(outcome.key, outcome.pdf, _meta(outcome))
            write_ready()
        # The summary lists documents in document order, whichever finished first.
        report.written.sort(key=lambda w: position[id(w.document)])
        if settings.png:
            _write_previews(out_dir, manifest, force, report)
    except KeyboardInterrupt:
        raise BuildInterrupted(len({id(w.document) for w in report.written}), len(order)) from None
    finally:
        # Whatever stopped us (Ctrl-C, a closed pipe, a bug), what was written stays ours:
        # recorded in the manifest, so the next run may replace it.
        _save(manifest, report)
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
    "BuildOptions",
    "BuildReport",
    "BuildSession",
    "BuildSettings",
    "OutputBusy",
    "build",
    "display_path",
]
