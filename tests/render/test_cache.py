"""The render cache: a rebuild re-renders exactly the documents whose inputs changed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from scratchpress.build import BuildSettings, build
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.base import BuildOptions
from scratchpress.render import cache as cache_module
from scratchpress.render.cache import cache_folder
from scratchpress.statblocks import compute_campaign

PARTY = """\
characters:
  - name: Odile Marsh
    group: Reedmen
    abilities: {stealth: 2, shooting: 2, toughness: 3}
  - name: Piet Varr
    group: Reedmen
    abilities: {wrestling: 2, toughness: 4}
communities:
  - name: Saltstead
    economy: 10
    environment: 10
    equity: 10
"""
ONLY = ["sheets", "initiative", "community"]


def _build(folder: Path, out: Path, options: BuildOptions | None = None) -> dict[str, bool]:
    """Build and return {file name: was it rendered (True) or taken from the cache}."""
    campaign = load_campaign([folder])
    report = build(
        compute_campaign(campaign),
        campaign,
        options or BuildOptions(),
        out,
        ONLY,
        settings=BuildSettings(jobs=1),
    )
    assert not report.problems, report.problems
    return {w.path.name: not w.cached for w in report.written}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(PARTY)
    return folder


def test_a_second_build_renders_nothing(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _build(campaign, out)
    assert all(first.values())
    assert not any(_build(campaign, out).values())


def test_changing_a_character_rerenders_its_sheet_and_the_cards_only(
    campaign: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    text = (campaign / "party.yaml").read_text().replace("wrestling: 2", "wrestling: 3")
    (campaign / "party.yaml").write_text(text)
    rendered = {name for name, again in _build(campaign, out).items() if again}
    assert rendered == {"sheet-piet-varr.pdf", "initiative-cards.pdf"}


def test_a_theme_stylesheet_rerenders_only_what_uses_it(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    theme = campaign / "theme" / "community"
    shutil.copytree(Path(__file__).parents[2] / "templates" / "community", theme)
    css = theme / "community.css"
    css.write_text(css.read_text() + "\n/* a GM's tweak */ h1 { letter-spacing: 0.2em; }\n")
    rendered = {name for name, again in _build(campaign, out).items() if again}
    assert rendered == {"community-saltstead.pdf"}


def test_a_setting_rerenders_what_it_affects(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    rendered = _build(campaign, out, BuildOptions(paper="a4"))
    assert all(rendered.values())  # paper size changes every page


def test_a_font_change_rerenders_everything(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    fonts = tmp_path / "fonts"
    shutil.copytree(Path(__file__).parents[2] / "fonts", fonts)
    (fonts / "extra.txt").write_text("a new font file changes the fonts digest")
    monkeypatch.setattr(cache_module, "fonts_dir", lambda: fonts)
    cache_module._fonts_digest.cache_clear()
    try:
        assert all(_build(campaign, out).values())
    finally:
        cache_module._fonts_digest.cache_clear()


def test_a_corrupt_cache_entry_is_detected_and_rendered_again(
    campaign: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    # The sheet's entry, by its bytes: which entry sorts first depends on the machine's
    # fonts (they are in every key), and an imposed document's own entry, corrupted, is
    # put together again from its cached cards without rendering anything.
    sheet = (out / "sheet-odile-marsh.pdf").read_bytes()
    (entry,) = [
        e for e in cache_folder(campaign, out).glob("*.pdf") if e.read_bytes() == sheet
    ]
    entry.write_bytes(b"%PDF-1.7 truncated")
    rendered = [name for name, again in _build(campaign, out).items() if again]
    assert rendered == ["sheet-odile-marsh.pdf"]
    assert (out / rendered[0]).read_bytes() == sheet
    assert not any(_build(campaign, out).values())


def test_an_unchanged_output_is_not_rewritten(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    sheet = out / "sheet-odile-marsh.pdf"
    os.utime(sheet, ns=(1_000_000_000, 1_000_000_000))  # a time no rewrite could give it
    _build(campaign, out)
    assert sheet.stat().st_mtime_ns == 1_000_000_000
    (campaign / "party.yaml").write_text(PARTY.replace("stealth: 2", "stealth: 3"))
    _build(campaign, out)
    assert sheet.stat().st_mtime_ns != 1_000_000_000


def test_a_deleted_output_is_written_again_from_the_cache(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    (out / "sheet-odile-marsh.pdf").unlink()
    assert _build(campaign, out)["sheet-odile-marsh.pdf"] is False  # from the cache...
    assert (out / "sheet-odile-marsh.pdf").read_bytes().startswith(b"%PDF")  # ...and written


def test_past_its_limit_the_cache_drops_what_the_build_did_not_use(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    first = {p.name for p in cache_folder(campaign, out).iterdir()}
    (campaign / "party.yaml").write_text(PARTY.replace("stealth: 2", "stealth: 3"))
    monkeypatch.setattr(cache_module, "CACHE_LIMIT_BYTES", 1)
    rendered = _build(campaign, out)
    assert rendered["sheet-odile-marsh.pdf"] is True
    left = {p.name for p in cache_folder(campaign, out).iterdir()}
    # Odile's old sheet and the old initiative cards are gone...
    assert first - left
    # ...and everything this build used is still there: the next build renders nothing.
    assert not any(_build(campaign, out).values())
