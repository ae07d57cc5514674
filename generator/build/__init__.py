"""`scratchpress build`: every printable of a campaign, rendered and written safely.

HTML is made in this process (fast); PDFs are rendered in worker processes (render/pool.py)
unless the content-hash cache (render/cache.py) already holds them; each file is written
atomically and recorded in the output folder's manifest. Card decks and the NPC roster
are imposed documents (build/units.py): their cards and pages are cached one by one and
put together with pikepdf, so an edit re-renders only the card or page it touched.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from ..definitions.campaign import Campaign
from ..definitions.files import display_path
from ..definitions.models import BuildOptions
from ..documents.base import Document
from ..documents.registry import kinds_to_build, maker, skips_resilience
from ..problems import Problem
from ..render.files import CannotWrite, reason
from ..render.lock import OutputBusy, output_lock
from ..statblocks import Computed
from ..wording import Wording, speaking
from .report import BuildInterrupted, BuildReport, BuildSettings, Written
from .run import BuildRun
from .session import BuildSession


def collect_documents(
    computed: Computed, campaign: Campaign, options: BuildOptions, only: list[str] | None
) -> list[Document]:
    documents: list[Document] = []
    for kind in kinds_to_build(campaign, only):
        documents += maker(kind)(computed, campaign, options)
    return documents


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
    whole_campaign: bool = True,
) -> BuildReport:
    """Build every printable of a campaign into ``out_dir``, one build per output folder at
    a time: a second build waits for the first (``on_wait`` is told once), or with
    ``settings.wait`` off raises :class:`OutputBusy`. Files of the kinds built that an
    earlier build of the same campaign wrote and this one no longer makes (a renamed
    character's sheet) are removed, if nobody changed them since; not when the campaign
    was read from some of its files only (``whole_campaign`` False), nor after a problem."""
    kinds = kinds_to_build(campaign, only) if whole_campaign else []

    def documents(report: BuildReport) -> list[Document]:
        # Said to a campaign of characters; a publisher's folder of booklets only is not
        # missing anything.
        if skips_resilience(campaign, only) and computed.blocks:
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
    labels: dict[str, str] | None = None,
) -> BuildReport:
    """Render and write documents made outside a campaign build (the duplex calibration
    sheet, the GM's year sheets) the way a build does: the same worker limits, cache,
    manifest and lock. ``root`` is the campaign folder they may load files from, if any;
    ``labels`` its own words for our labels. Nothing else in ``out_dir`` is removed."""
    from ..definitions.models import Settings

    campaign = Campaign(root=root, settings=Settings(), labels=labels or {})
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
    settings = settings or BuildSettings()
    if force and not settings.force:
        settings = dataclasses.replace(settings, force=True)
    report = BuildReport(options=options)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        report.problems.append(Problem(str(CannotWrite(display_path(out_dir), reason(err)))))
        return report
    # Every label made from here on, in Python or a template, is in the build's language
    # (and the campaign's own words for it, from labels.yaml).
    words = Wording(options.language, campaign.labels)
    with output_lock(out_dir, settings.wait, on_wait), speaking(words):
        try:
            run = BuildRun(
                campaign, options, out_dir, settings, report, session, progress, on_rendered
            )
            run.run(documents, prune)
            return report
        except KeyboardInterrupt:  # while planning, before the first document was written
            raise BuildInterrupted(0, 0) from None


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
