"""``scratchpress theme init``: copies of the default templates in CAMPAIGN/theme/, which the
next build uses; never an overwrite without --force, never through a link."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from scratchpress.render.theme import default_theme_files
from scratchpress.resources import templates_dir

from conftest import Cli, WriteCampaign

PARTY = "characters:\n  - name: Ann\n    abilities: {toughness: 2, wrestling: 1}\n"


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_init_copies_every_template_and_stylesheet(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign({"party.yaml": PARTY})
    result = cli("theme", "init", folder)
    assert result.exit_code == 0, result.output
    names = default_theme_files()
    assert {"sheet/sheet.css", "sheet/sheet.html", "base.css", "carry/carry.html"} <= set(names)
    assert all(n.endswith((".html", ".css")) for n in names)
    assert result.stdout.splitlines()[0] == f"wrote {len(names)} files in campaign/theme/"
    assert "scratchpress build campaign" in result.stdout
    assert _snapshot(folder / "theme") == {n: (templates_dir() / n).read_bytes() for n in names}


def test_init_defaults_to_the_current_folder(
    write_campaign: WriteCampaign, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_campaign({"party.yaml": PARTY})
    monkeypatch.chdir(folder)
    result = cli("theme", "init")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"wrote {len(default_theme_files())} files in theme/"
    assert "scratchpress build ." in result.stdout
    assert (folder / "theme" / "sheet" / "sheet.css").is_file()


def test_a_build_uses_the_edited_theme(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    folder = write_campaign({"party.yaml": PARTY})
    assert cli("theme", "init", folder).exit_code == 0
    page = folder / "theme" / "carry" / "carry.html"
    text = page.read_text(encoding="utf-8")
    assert '<h1>{{ _("Lifting &amp; carrying") }}</h1>' in text
    page.write_text(text.replace('_("Lifting &amp; carrying")', '"Hauling by the hour"'), "utf-8")
    result = cli("build", folder, "-o", tmp_path / "out", "--only", "carry", "-j", "1")
    assert result.exit_code == 0, result.output
    [pdf] = (tmp_path / "out").glob("*.pdf")
    words = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    assert "HAULING BY THE HOUR" in words  # a title: capitals, set by the stylesheet
    assert "Lifting & carrying" not in words


def test_a_second_init_refuses_and_changes_nothing(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign({"party.yaml": PARTY})
    assert cli("theme", "init", folder).exit_code == 0
    (folder / "theme" / "base.css").write_text("/* mine */\n", encoding="utf-8")
    (folder / "theme" / "sheet" / "sheet.css").unlink()  # one missing: still nothing written
    before = _snapshot(folder / "theme")
    result = cli("theme", "init", folder)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert "campaign/theme/base.css: exists; left untouched (use --force to replace it)" in lines
    assert len(lines) == len(default_theme_files()) - 1 + 1  # one per file there, then the end
    assert lines[-1] == "nothing written"
    assert _snapshot(folder / "theme") == before
    assert result.stdout == ""

    forced = cli("theme", "init", folder, "--force")
    assert forced.exit_code == 0, forced.output
    assert (folder / "theme" / "base.css").read_bytes() == (
        templates_dir() / "base.css"
    ).read_bytes()
    assert (folder / "theme" / "sheet" / "sheet.css").is_file()


def test_a_theme_folder_that_is_a_link_is_refused(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = write_campaign({"party.yaml": PARTY})
    (folder / "theme").symlink_to(elsewhere)
    for args in ([], ["--force"]):
        result = cli("theme", "init", folder, *args)
        assert result.exit_code == 1
        assert result.stderr.splitlines() == [
            "campaign/theme: a symbolic link; refused (theme init writes into real folders)",
            "nothing written",
        ]
        assert list(elsewhere.iterdir()) == []


def test_links_inside_the_theme_are_refused_even_with_force(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.css"
    secret.write_text("/* not yours */\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    folder = write_campaign({"party.yaml": PARTY})
    (folder / "theme").mkdir()
    (folder / "theme" / "base.css").symlink_to(secret)
    (folder / "theme" / "sheet").symlink_to(elsewhere)
    result = cli("theme", "init", folder, "--force")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "campaign/theme/base.css: a symbolic link; refused, even with --force",
        "campaign/theme/sheet: a symbolic link; refused (theme init writes into real folders)",
        "nothing written",
    ]
    assert secret.read_text(encoding="utf-8") == "/* not yours */\n"
    assert list(elsewhere.iterdir()) == []
    assert sorted(p.name for p in (folder / "theme").iterdir()) == ["base.css", "sheet"]


def test_a_campaign_folder_that_does_not_exist(cli: Cli) -> None:
    result = cli("theme", "init", "nowhere")
    assert result.exit_code == 1
    assert result.stderr == "nowhere: no such folder\n"
    assert not Path("nowhere").exists()
