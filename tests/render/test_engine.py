"""The renderer's seam: the stand-in that tests use where pixels do not matter (conftest.py)
must make what the real engine makes, page for page, in every worker a build forks."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pytest

from scratchpress.render import engine
from scratchpress.resources import templates_dir

from conftest import Cli, WriteCampaign
from standin import STAND_IN_PRODUCER, stand_in_page_size, stand_in_pages

THREE = """\
characters:
  - name: Odile Marsh
    abilities: {shooting: 2, toughness: 3}
  - name: Piet Varr
    abilities: {wrestling: 2}
  - name: Wren Halloway
    abilities: {stealth: 3}
"""


@pytest.mark.parametrize(
    ("css", "size"),
    [
        ("", (612.0, 792.0)),
        ("@page { size: letter; }", (612.0, 792.0)),
        ("@page { size: A4; }", (595.28, 841.89)),
        ("@page { size: letter; } @page { size: letter landscape; margin: 0 }", (792.0, 612.0)),
        ("@page :first { margin: 0; size: 63.5mm 88.9mm }", (180.0, 252.0)),
        ("@page {\n  size: 5.5in 8.5in;\n}", (396.0, 612.0)),
    ],
)
def test_the_stand_in_reads_the_page_size_as_weasyprint_does(
    css: str, size: tuple[float, float]
) -> None:
    assert stand_in_page_size(f"<style>{css}</style><p>x</p>") == pytest.approx(size, abs=0.01)


SHEETS = '<section class="sheet">a</section><section class="sheet">b</section>'
PAGE_BREAKS = [
    ("", "<p>one</p>", 1),
    (".sheet + .sheet { break-before: page; }", SHEETS * 2, 4),
    (".pg { break-after: page } .pg:last-child { break-after: auto }", SHEETS, 1),
    (".x { break-after: page } .x:last-child { break-after: auto }", '<p class="x">1</p>' * 3, 3),
    (
        ".page.back, .page.more { break-before: page; }",
        '<p class="page front">f</p><p class="page back">b</p>',
        2,
    ),
    ("/* .sheet { break-before: page } */", SHEETS, 1),
]


@pytest.mark.parametrize(("css", "body", "pages"), PAGE_BREAKS)
def test_the_stand_in_counts_the_forced_page_breaks(css: str, body: str, pages: int) -> None:
    html = f"<html><head><style>{css}</style></head><body>{body}</body></html>"
    assert stand_in_pages(html, body) == pages
    # and WeasyPrint agrees
    assert engine.render_pdf(html, templates_dir(), [templates_dir()]).pages == pages


def test_the_stand_in_sizes_a_page_as_the_engine_does() -> None:
    html = "<style>@page { size: A4 landscape; margin: 0 }</style><p>One page.</p>"
    real = engine.render_pdf(html, templates_dir(), [templates_dir()])
    assert real.page_sizes[0] == pytest.approx(stand_in_page_size(html), abs=0.01)


def test_forked_render_workers_render_with_the_stand_in(
    stand_in_renderer: None, cli: Cli, write_campaign: WriteCampaign
) -> None:
    """Three sheets rendered together (more sheets than workers: render/merged.py) and a
    carry table, in two forked workers: every PDF is the stand-in's, at the paper asked for."""
    folder = write_campaign({"party.yaml": THREE})
    result = cli(
        "build", folder, "-o", "output", "--only", "sheets,carry", "-j", "2", "--paper", "a4"
    )
    assert result.exit_code == 0, result.stderr
    written = sorted(Path("output").glob("*.pdf"))
    assert [p.name for p in written] == [
        "carry-table.pdf",
        "sheet-odile-marsh.pdf",
        "sheet-piet-varr.pdf",
        "sheet-wren-halloway.pdf",
    ]
    for path in written:
        with pikepdf.open(path) as pdf:
            assert str(pdf.docinfo["/Producer"]) == STAND_IN_PRODUCER, path.name
            assert [float(v) for v in pdf.pages[0].mediabox] == pytest.approx(
                [0, 0, 595.28, 841.89], abs=0.01
            )


def test_a_link_to_a_file_on_this_machine_never_reaches_the_pdf() -> None:
    """A theme's relative link resolves against our templates folder: in the PDF it would
    print this machine's install path (a home folder, a user name), and lead nowhere."""
    import pikepdf

    from scratchpress.render.engine import render_pdf
    from scratchpress.resources import templates_dir

    html = '<p><a href="notes.html">notes</a> <a href="https://example.org/rules">rules</a></p>'
    rendered = render_pdf(html, templates_dir(), [templates_dir()])
    assert str(templates_dir()).encode() not in rendered.pdf
    with pikepdf.open(io.BytesIO(rendered.pdf)) as pdf:
        targets = [
            str(annot.A.URI) for annot in pdf.pages[0].get("/Annots", []) if "/A" in annot
        ]
    assert targets == ["https://example.org/rules"]
