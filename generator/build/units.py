"""Imposed documents (card decks, the roster): render only the units that changed.

A deck of 540 cards is 540 units plus a unit or two of sheet furniture (cut marks, the fold
line); a roster is a unit per page. Each unit is cached on its own, keyed by its data and
the digest of the templates that draw it. The units missing from the cache are rendered in
a few batches (one document each, so a batch shares its font subsets; a roster's batches
are runs of consecutive pages), and ``impose_units`` then puts the sheets together from
the cached pages. Editing one card renders one card; editing one NPC renders its page.

Cache layout (all entries signed, see render/cache.py):
- a batch: an ordinary PDF entry under the hash of its units' keys;
- a unit: a small record naming its batch, its first page there and how many pages it
  took, with the card's own layout lint.
"""

from __future__ import annotations

import hashlib
import html as html_text
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..documents.base import Document, Imposed
from ..render.cache import RenderCache, cache_key
from ..render.impose import POINTS_PER_MM, Imposer, impose_units
from ..render.jobs import Job, Outcome
from ..render.templating import render_html, template_digest

# A render worker costs a fork and its own font loading: below this many units a batch is
# not split across workers.
MIN_BATCH = 12


@dataclass
class Batch:
    key: str
    group: str
    units: list[int]


@dataclass
class UnitPlan:
    """One imposed document on its way through the build."""

    document: Document
    imposed: Imposed
    key: str  # the whole document's cache key (every unit key and every placement)
    unit_keys: list[str]
    shells: dict[str, str]  # group -> the template's HTML with no pages: CSS, palette...
    text: str  # every unit's data, for the missing-glyph lint
    records: dict[int, dict[str, Any]] = field(default_factory=dict)
    # (template, themes, time limit, base folder, allowed roots): how batches are rendered
    render_args: tuple[Any, ...] = ()
    sources: dict[str, bytes] = field(default_factory=dict)  # batch key -> PDF
    batches: list[Batch] = field(default_factory=list)
    preview: bool = False  # rendered for the live preview (templates' ``preview``)


def _previewed(context: dict[str, Any], preview: bool) -> dict[str, Any]:
    """The template context, with ``preview`` only when set: a printed render's HTML
    stays exactly what it was."""
    return {**context, "preview": True} if preview else context


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def plan_units(
    document: Document,
    themes: tuple[Path, ...],
    roots: tuple[Path, ...],
    seconds: float,
    preview: bool = False,
) -> UnitPlan:
    """Keys for every unit and for the document. Renders each group's template once with
    no pages (template errors surface here, as for any document)."""
    imposed = document.imposed
    assert imposed is not None
    shells = {
        group: render_html(document.template, _previewed(context, preview), themes, seconds)
        for group, context in imposed.contexts.items()
    }
    digest = template_digest(document.template, themes)
    extra = f"{document.kind}/unit/{digest}"
    shell_keys = {group: cache_key(shell, extra, roots) for group, shell in shells.items()}
    unit_keys = []
    texts = []
    for group, page in imposed.units:
        data = _canonical(page)
        texts.append(data)
        unit_keys.append(
            hashlib.sha256(f"{shell_keys[group]}\0{group}\0{data}".encode()).hexdigest()
        )
    placements = _canonical([[[p.unit, p.x_mm, p.y_mm] for p in sheet] for sheet in imposed.sheets])
    whole = hashlib.sha256(
        "\0".join([*unit_keys, placements, _canonical(imposed.paper_mm)]).encode()
    ).hexdigest()
    return UnitPlan(
        document,
        imposed,
        whole,
        unit_keys,
        shells,
        html_text.escape("\n".join(texts)),
        preview=preview,
    )


def find_cached(plan: UnitPlan, cache: RenderCache) -> list[int]:
    """Fill in the units the cache holds (reading and checking each batch once); return
    the indexes of the units to render."""
    missing: list[int] = []
    bad_sources: set[str] = set()
    for index, key in enumerate(plan.unit_keys):
        record = cache.get_unit(key)
        source = str(record.get("source", "")) if record else ""
        if record is not None and source not in plan.sources and source not in bad_sources:
            hit = cache.get(source)
            if hit is None:
                bad_sources.add(source)
            else:
                plan.sources[source] = hit[0]
        if record is None or source not in plan.sources:
            missing.append(index)
            continue
        plan.records[index] = record
    return missing


def _runs(indexes: list[int], consecutive: bool, most: int, parts: int) -> list[list[int]]:
    """Split units into batches: at most ``most`` each, about ``parts`` of them, and only
    runs of consecutive units when pages are numbered from a batch's first unit."""
    if not indexes:
        return []
    size = min(most, -(-len(indexes) // parts))
    runs: list[list[int]] = [[indexes[0]]]
    for index in indexes[1:]:
        broken = consecutive and index != runs[-1][-1] + 1
        if broken or len(runs[-1]) >= size:
            runs.append([])
        runs[-1].append(index)
    return runs


def _job(
    plan: UnitPlan, group: str, units: list[int], alone: bool = False, planned: bool = True
) -> Job:
    key = hashlib.sha256(
        ("alone:" if alone else "").encode() + "".join(plan.unit_keys[i] for i in units).encode()
    ).hexdigest()
    imposed = plan.imposed
    pages = [imposed.units[i][1] for i in units]
    context = {**imposed.contexts[group], "pages": pages}
    if imposed.batch_context is not None:
        context.update(imposed.batch_context(pages))
    template, themes, seconds, base_dir, roots = plan.render_args
    html = render_html(template, _previewed(context, plan.preview), themes, seconds)
    if planned:
        plan.batches.append(Batch(key, group, units))
    return Job(
        key,
        html,
        base_dir,
        roots,
        lint_cards=group == "card",
        kind=plan.document.kind,
        audit=not plan.preview,
    )


def batch_jobs(
    plan: UnitPlan,
    missing: list[int],
    workers: int,
    base_dir: Path,
    roots: tuple[Path, ...],
    themes: tuple[Path, ...],
    seconds: float,
) -> list[Job]:
    """The missing units as render jobs: per group, split evenly over the workers."""
    plan.render_args = (plan.document.template, themes, seconds, base_dir, roots)
    by_group: dict[str, list[int]] = {}
    for index in missing:
        by_group.setdefault(plan.imposed.units[index][0], []).append(index)
    imposed = plan.imposed
    jobs = []
    for group, indexes in by_group.items():
        parts = max(1, min(workers, len(indexes) // MIN_BATCH))
        consecutive = imposed.batch_context is not None
        for units in _runs(indexes, consecutive, imposed.max_batch, parts):
            jobs.append(_job(plan, group, units))
    return jobs


def sample_job(plan: UnitPlan, cached: int) -> Job:
    """Unit ``cached`` (one the cache holds, so rendered fine before) as a job of its own,
    not part of the plan: ``build --watch`` renders it once to warm its renderer."""
    return _job(plan, plan.imposed.units[cached][0], [cached], alone=True, planned=False)


def _span(plan: UnitPlan, unit: int) -> int:
    return plan.imposed.spans[unit] if plan.imposed.spans else 1


def settle(plan: UnitPlan, rendered: dict[str, Outcome]) -> list[Job]:
    """Check that every batch came out with the pages its units were planned to fill. A
    batch that did not cannot say which page is whose, so its units are rendered again,
    each alone (rare: the roster plans its pages from the same measures as its CSS)."""
    again: list[Job] = []
    for batch in list(plan.batches):
        done = rendered.get(batch.key)
        if done is None or done.error is not None or len(batch.units) == 1:
            continue
        if done.pages != sum(_span(plan, u) for u in batch.units):
            plan.batches.remove(batch)
            again += [_job(plan, batch.group, [unit], alone=True) for unit in batch.units]
    return again


def _card_ids(page: dict[str, Any]) -> set[str]:
    """The deck cards on a unit's page, for the card lint. Initiative sheets place cards
    without a face: the frame lint measures them instead."""
    return {str(slot["face"].get("id", "")) for slot in page.get("cards", []) if "face" in slot}


def assemble(
    plan: UnitPlan,
    rendered: dict[str, Outcome],
    cache: RenderCache,
    imposer: Imposer | None = None,
) -> Outcome:
    """Store the freshly rendered units, then impose every sheet (with ``imposer``, one kept
    from the last build of this document, when watching). Returns the document's outcome,
    as if it had been rendered in one piece."""
    outcome = Outcome(plan.key)
    for batch in plan.batches:
        done = rendered[batch.key]
        if done.error is not None:
            return Outcome(plan.key, error=done.error)
        outcome.warnings += done.warnings
        outcome.refused += done.refused
        if batch.group != "card":  # card pages are measured by the card lint instead
            outcome.frames += done.frames
        plan.sources[batch.key] = done.pdf
        cache.put(batch.key, done.pdf, {"pages": done.pages, "warnings": done.warnings})
        first = 0
        for unit in batch.units:
            ids = _card_ids(plan.imposed.units[unit][1])
            count = done.pages if len(batch.units) == 1 else _span(plan, unit)
            record: dict[str, Any] = {
                "source": batch.key,
                "page": first,
                "pages": count,
                "overflows": [list(o) for o in done.overflows if o[0] in ids],
                "collisions": [list(c) for c in done.collisions if c[0] in ids],
                # The batch's audit, kept with its first unit (a batch is cached whole).
                "lost": [[e, f, w] for e, f, w in done.lost] if not first else [],
            }
            first += count
            plan.records[unit] = record
            if not done.refused:
                cache.put_unit(plan.unit_keys[unit], record)
    for index in range(len(plan.unit_keys)):
        record = plan.records[index]
        outcome.overflows += [(str(c), float(m)) for c, m in record["overflows"]]
        outcome.collisions += [(str(c), str(a), str(b)) for c, a, b in record["collisions"]]
        kept = [k for k in record.get("lost", []) if len(k) == 3]  # (entry, part, words)
        outcome.lost += [(str(e), str(f), list(w)) for e, f, w in kept]
    locations = [
        (
            str(plan.records[i]["source"]),
            int(plan.records[i]["page"]),
            int(plan.records[i].get("pages", 1)),
        )
        for i in range(len(plan.unit_keys))
    ]
    imposed = plan.imposed
    impose = imposer.impose if imposer is not None else impose_units
    outcome.pdf, outcome.pages = impose(
        plan.sources,
        locations,
        imposed.sheets,
        imposed.paper_mm,
        plan.document.title,
        links=plan.preview,  # forms carry no links: the preview's come along by hand
        flip=plan.document.print_flip,
    )
    width, height = (round(v * POINTS_PER_MM, 3) for v in imposed.paper_mm)
    outcome.page_sizes = [(width, height)] * outcome.pages
    outcome.seconds = sum(rendered[b.key].seconds for b in plan.batches)
    if not plan.batches:
        outcome.seconds = -1.0  # every unit came from the cache
    return outcome
