"""Layout lint: overflowing frames and missing glyphs, measured from WeasyPrint's layout."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

from scratchpress.cli.app import app
from scratchpress.render.engine import render_pdf
from scratchpress.render.lint import frame_overflows, missing_glyphs
from scratchpress.resources import templates_dir

runner = CliRunner()
ANN = "characters:\n  - name: {name}\n    abilities: {{shooting: 2, toughness: 3}}\n"


def test_a_frame_that_overflows_is_measured_in_millimetres() -> None:
    html = (
        "<style>@page { size: 100mm 100mm; margin: 10mm } div { width: 40mm; height: 6mm;"
        " font: 10pt Lato; line-height: 5mm }</style>"
        '<div data-lint-frame="notes" data-lint-entry="Ann">one two three four five six seven'
        " eight nine ten eleven twelve</div>"
    )
    rendered = render_pdf(html, templates_dir(), [], keep_document=True)
    [(entry, field, mm)] = frame_overflows(rendered.document)
    assert (entry, field) == ("Ann", "notes")
    # Three or four 5 mm lines in a 6 mm box: about 9 to 14 mm too tall.
    assert 8 < mm < 15


def test_a_frame_with_room_to_spare_is_quiet() -> None:
    html = '<div data-lint-frame="notes" style="height: 30mm">short</div>'
    rendered = render_pdf(html, templates_dir(), [], keep_document=True)
    assert frame_overflows(rendered.document) == []


def test_text_past_the_paper_edge_is_reported() -> None:
    html = "<style>@page { size: 60mm 60mm; margin: 0 }</style><p style='margin-left: 58mm; white-space: nowrap'>edge</p>"
    rendered = render_pdf(html, templates_dir(), [], keep_document=True)
    assert [field for _, field, _ in frame_overflows(rendered.document)] == ["page 1"]


def test_missing_glyphs_are_found_in_text_not_in_markup() -> None:
    # Ethiopic and Tifinagh: scripts none of our faces draws.
    assert missing_glyphs("<style>/* ሰ */</style><p>Straße ሰ and ሰ again ⴰ</p>") == ["ሰ", "ⴰ"]
    assert missing_glyphs("<p>Ærøskøbing, naïve, ß, “quotes”, €</p>") == []


def _campaign(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(ANN.format(name=name), encoding="utf-8")
    return folder


def test_a_missing_glyph_is_reported_and_fails_with_strict(tmp_path: Path) -> None:
    folder = _campaign(tmp_path, "Ann ሰላም")
    args = ["build", str(folder), "-o", str(tmp_path / "out"), "--only", "sheets", "-j", "1"]
    relaxed = runner.invoke(app, args)
    assert relaxed.exit_code == 0, relaxed.output
    line = "sheet-ann-selam.pdf: entry \"Ann ሰላም\": name: no font draws 3 characters: 'ሰ' 'ላ' 'ም'"
    assert line in relaxed.output
    strict = runner.invoke(app, [*args, "--strict"])
    assert strict.exit_code == 1
    assert line in strict.output
    assert "Traceback" not in strict.output


def test_an_overflowing_sheet_panel_is_reported_with_strict(tmp_path: Path) -> None:
    folder = _campaign(tmp_path, "Ann")
    theme = folder / "theme" / "sheet"
    shutil.copytree(templates_dir() / "sheet", theme)
    css = theme / "sheet.css"
    # A GM's theme squeezes the actions panel far below what its rows need.
    css.write_text(css.read_text() + "\n.panel.actions { height: 12mm; overflow: visible; }\n")
    args = ["build", str(folder), "-o", str(tmp_path / "out"), "--only", "sheets", "-j", "1"]
    result = runner.invoke(app, [*args, "--strict"])
    assert result.exit_code == 1, result.output
    match = re.search(
        r'sheet-ann\.pdf: entry "Ann": actions overflows by (\d+\.\d) mm', result.output
    )
    assert match, result.output
    assert float(match.group(1)) > 10


def test_the_fast_path_characters_are_all_drawn_by_a_bundled_font() -> None:
    # missing_glyphs trusts COMMON without reading the fonts; a font swap must not make
    # that trust a lie.
    from scratchpress.render.lint import COMMON, bundled_codepoints

    undrawn = [c for c in COMMON if not c.isspace() and ord(c) not in bundled_codepoints()]
    assert undrawn == []


def test_a_rare_character_among_common_text_is_still_found() -> None:
    from scratchpress.render.lint import missing_glyphs

    assert missing_glyphs("<p>Plain text, café — “quoted” … and an Ethiopic ሰ.</p>") == ["ሰ"]


def test_text_a_stylesheet_cuts_short_with_an_ellipsis_is_reported(tmp_path: Path) -> None:
    # The roster sets group names on one line and hides what does not fit behind "…": the
    # words are lost on paper, so the build says so, and --strict fails.
    folder = tmp_path / "campaign"
    folder.mkdir()
    group = "The Extraordinarily Long-Named Brotherhood of the Lower Weir Spillway Terraces"
    (folder / "party.yaml").write_text(
        f"npcs:\n  - name: Ann\n    group: {group}\n    abilities: {{toughness: 2}}\n",
        encoding="utf-8",
    )
    args = ["build", str(folder), "-o", str(tmp_path / "out"), "--only", "roster", "-j", "1"]
    relaxed = runner.invoke(app, args)
    assert relaxed.exit_code == 0, relaxed.output
    assert f'roster.pdf: entry "{group}": group name: cut short with … to fit (' in relaxed.output
    strict = runner.invoke(app, [*args, "--strict"])
    assert strict.exit_code == 1


def test_a_name_that_fits_its_line_is_not_reported() -> None:
    from scratchpress.render.lint import ellipsized

    html = (
        "<style>p { width: 60mm; white-space: nowrap; overflow: hidden;"
        " text-overflow: ellipsis }</style><p data-lint-entry='Ann'>Ann</p>"
        "<p data-lint-entry='Bo'>" + "Bo " * 60 + "</p>"
    )
    rendered = render_pdf(html, templates_dir(), [], keep_document=True)
    assert [entry for entry, _, _ in ellipsized(rendered.document)] == ["Bo"]


def test_the_cjk_faces_are_read_only_for_a_text_that_needs_them() -> None:
    # Reading the Noto CJK collections' tables takes seconds: a campaign of Latin, Greek
    # and Arabic names must not pay for it on every build.
    from scratchpress.render.lint import _files_codepoints, missing_glyphs

    _files_codepoints.cache_clear()
    assert missing_glyphs("<p>Zoë Ἀθηνᾶ مريم, a ✓</p>") == []
    assert _files_codepoints.cache_info().currsize == 0
    missing_glyphs("<p>李小龍</p>")
    assert _files_codepoints.cache_info().currsize == 1
