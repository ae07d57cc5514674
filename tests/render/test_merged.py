"""Sheets rendered together as one WeasyPrint document come out as the same files."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from scratchpress.build import BuildSettings, build
from scratchpress.build import run as build_module
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.render import engine
from scratchpress.render.jobs import Job
from scratchpress.render.merged import MOST_PARTS, merge_jobs
from scratchpress.statblocks import compute_campaign

PARTY = """\
characters:
  - name: Odile Marsh
    abilities: {stealth: 2, shooting: 2, toughness: 3}
  - name: Piet Varr
    abilities: {wrestling: 2, toughness: 4, command: 2}
    minions:
      - name: Reed dog
        abilities: {fighting: 1, toughness: 1}
  - name: Wend Hollow
    abilities: {healing: 3, toughness: 1}
"""
SHEETS = ["sheet-odile-marsh.pdf", "sheet-piet-varr.pdf", "sheet-wend-hollow.pdf"]


def _build(folder: Path, out: Path, jobs: int = 1) -> tuple[Any, list[int]]:
    campaign = load_campaign([folder])
    counted: list[int] = []
    report = build(
        compute_campaign(campaign),
        campaign,
        BuildOptions(),
        out,
        ["sheets"],
        settings=BuildSettings(jobs=jobs, use_cache=False),
        on_rendered=lambda done, total: counted.append(total),
    )
    return report, counted


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(PARTY)
    return folder


def test_three_sheets_render_as_one_job_and_match_sheets_rendered_alone(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    together, jobs = _build(campaign, tmp_path / "together")
    assert not together.problems
    assert set(jobs) == {1}  # one render for the three sheets
    monkeypatch.setattr(build_module, "merge_jobs", lambda jobs, workers: (jobs, {}))
    _, jobs = _build(campaign, tmp_path / "alone")
    assert set(jobs) == {3}
    for name in SHEETS:
        merged_pdf = (tmp_path / "together" / name).read_bytes()
        assert merged_pdf == (tmp_path / "alone" / name).read_bytes(), name
    with pikepdf.open(tmp_path / "together" / "sheet-piet-varr.pdf") as pdf:
        assert len(pdf.pages) == 2  # the front and the minion's back
        assert str(pdf.docinfo["/Title"]) == "Piet Varr — character sheet"
        with pdf.open_outline() as outline:
            assert next(item.title for item in outline.root) == "Piet Varr"


def test_a_batch_that_warns_is_rendered_again_sheet_by_sheet(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A merged render cannot tell whose a warning is: its sheets are rendered again one by
    one, and what each of those says (here: nothing) is what the build reports."""
    real = engine.render_parts

    def warning_on_every_part(*args: Any) -> list[Any]:
        parts = real(*args)
        for part in parts:
            part.refused = ["file:///nowhere/picture.png is outside the campaign"]
        return parts

    monkeypatch.setattr(engine, "render_parts", warning_on_every_part)
    report, jobs = _build(campaign, tmp_path / "out")
    assert set(jobs) == {1}  # the merged job; then three more, one a sheet
    assert not report.problems and not report.warnings
    assert sorted(w.path.name for w in report.written) == SHEETS


def test_a_theme_keeps_the_sheets_apart(campaign: Path, tmp_path: Path) -> None:
    """A theme's CSS could count pages or repeat fixed boxes across merged sheets."""
    from scratchpress.resources import templates_dir

    theme = campaign / "theme" / "sheet"
    theme.mkdir(parents=True)
    css = (templates_dir() / "sheet" / "sheet.css").read_text(encoding="utf-8")
    (theme / "sheet.css").write_text(css + "\n.page { outline: 1pt solid red; }\n")
    report, jobs = _build(campaign, tmp_path / "out")
    assert not report.problems
    assert set(jobs) == {3}


def _job(key: str, body_class: str = "sheet-doc", kind: str = "sheets") -> Job:
    html = (
        f"<!DOCTYPE html><html><head><title>{key}</title><style>p{{}}</style></head>"
        f'<body class="{body_class}"><p>{key}</p></body></html>'
    )
    return Job(key, html, Path("."), (), kind=kind)


def test_only_documents_that_look_alike_go_together() -> None:
    jobs = [_job("a"), _job("b", "sheet-doc density-tight"), _job("c"), _job("d", kind="roster")]
    merged, originals = merge_jobs(jobs, workers=1)
    assert [job.key for job in merged[1:]] == ["b", "d"]
    assert [job.key for job in originals[merged[0].key]] == ["a", "c"]
    assert "<p>a</p>" in merged[0].html and "<p>c</p>" in merged[0].html


def test_many_sheets_are_spread_over_the_workers_a_few_at_a_time() -> None:
    jobs = [_job(f"s{index}") for index in range(20)]
    merged, originals = merge_jobs(jobs, workers=2)
    sizes = [len(originals[job.key]) for job in merged]
    assert sum(sizes) == 20 and max(sizes) <= MOST_PARTS and len(sizes) == 3
    assert [job.key for job in originals[merged[0].key]] == ["s0", "s1", "s2", "s3", "s4", "s5"]
    single, originals = merge_jobs([_job("alone")], workers=2)
    assert [job.key for job in single] == ["alone"] and originals == {}
    few, originals = merge_jobs([_job("x"), _job("y")], workers=2)  # a core each
    assert [job.key for job in few] == ["x", "y"] and originals == {}


def test_a_theme_styling_the_bodys_own_children_keeps_its_sheets_apart() -> None:
    """Inside a part's div, "body > section" would no longer match: such sheets render alone."""
    styled = [_job(key) for key in ("a", "b")]
    styled = [
        replace(job, source=job.html.replace("p{}", "body > p { color: red }")) for job in styled
    ]
    merged, originals = merge_jobs(styled, workers=1)
    assert [job.key for job in merged] == ["a", "b"] and originals == {}
    nested = [
        replace(job, source=job.html.replace("p{}", "body.deck .panel > p {}"))
        for job in (_job("c"), _job("d"))
    ]
    assert len(merge_jobs(nested, workers=1)[0]) == 1  # a child of .panel, not of body
