"""``scratchpress check`` refuses what ``build`` would: portraits, booklet chapters and theme
templates, each reported as ``file:line: entry "Name": field: message``. The build's own
message for a bad portrait reads the same."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from conftest import Cli, WriteCampaign

PARTY = """\
characters:
  - name: Ann
    description: a test character
    portrait: {portrait}
    abilities: {{toughness: 2}}
"""


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (30, 40), (180, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


def _portrait_campaign(write_campaign: WriteCampaign, portrait: str) -> Path:
    return write_campaign({"party.yaml": PARTY.format(portrait=portrait)})


def _check_fails_with(cli: Cli, folder: Path, line: str) -> None:
    result = cli("check", folder)
    assert result.exit_code == 1, result.output
    assert line in result.stderr.splitlines(), result.stderr


def test_a_missing_portrait(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = _portrait_campaign(write_campaign, "face.png")
    _check_fails_with(
        cli, folder, 'campaign/party.yaml:4: entry "Ann": portrait: face.png: no such file'
    )


def test_a_portrait_outside_the_campaign(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())  # a real picture, but not the campaign's
    folder = _portrait_campaign(write_campaign, "../outside.png")
    _check_fails_with(
        cli,
        folder,
        'campaign/party.yaml:4: entry "Ann": portrait: ../outside.png is outside the campaign'
        " folder",
    )


def test_a_portrait_symlink_out_of_the_campaign(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())
    folder = _portrait_campaign(write_campaign, "face.png")
    (folder / "face.png").symlink_to(tmp_path / "outside.png")
    _check_fails_with(
        cli,
        folder,
        'campaign/party.yaml:4: entry "Ann": portrait: face.png is outside the campaign folder',
    )


def test_an_absolute_portrait_path_inside_the_campaign(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path
) -> None:
    face = tmp_path / "campaign" / "face.png"
    folder = _portrait_campaign(write_campaign, str(face))
    face.write_bytes(_png())
    _check_fails_with(
        cli,
        folder,
        f'campaign/party.yaml:4: entry "Ann": portrait: {face}: give the portrait relative to'
        " the campaign folder (e.g. portraits/ann.png), so the campaign still works when moved",
    )


def test_a_text_file_named_png(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = _portrait_campaign(write_campaign, "face.png")
    (folder / "face.png").write_text("not a picture\n", encoding="utf-8")
    _check_fails_with(
        cli,
        folder,
        'campaign/party.yaml:4: entry "Ann": portrait: face.png is not an image scratchpress'
        " can read; portraits must be PNG, JPEG or WebP",
    )


def test_a_good_portrait_passes(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = _portrait_campaign(write_campaign, "portraits/face.png")
    (folder / "portraits").mkdir()
    (folder / "portraits" / "face.png").write_bytes(_png())
    result = cli("check", folder)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_a_booklet_with_a_missing_chapter(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {
            "party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n",
            "booklet.yaml": "title: Test Book\nchapters:\n  - one.md\n  - two.md\n",
            "one.md": "# One\n\nSome text.\n",
        }
    )
    _check_fails_with(cli, folder, "campaign/booklet.yaml:4: chapters.1: two.md: no such file")


def test_a_theme_template_that_does_not_parse(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"}
    )
    (folder / "theme" / "carry").mkdir(parents=True)
    (folder / "theme" / "carry" / "carry.html").write_text(
        '{% extends "base.html" %}\n{% block body %}\n{% if carry %}\n<p>hi</p>\n{% endblock %}\n',
        encoding="utf-8",
    )
    _check_fails_with(
        cli,
        folder,
        "campaign/theme/carry/carry.html:5: template error: Encountered unknown tag 'endblock'."
        " You probably made a nesting mistake. Jinja is expecting this tag, but currently"
        " looking for 'elif' or 'else' or 'endif'. The innermost block that needs to be closed"
        " is 'if'.",
    )


def test_a_theme_template_unclosed_at_the_end(write_campaign: WriteCampaign, cli: Cli) -> None:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"}
    )
    (folder / "theme").mkdir()
    (folder / "theme" / "base.css").write_text("p { color: red; }\n{% if x %}\n", encoding="utf-8")
    _check_fails_with(
        cli,
        folder,
        "campaign/theme/base.css:2: template error: Unexpected end of template. Jinja was"
        " looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that"
        " needs to be closed is 'if'.",
    )


@pytest.mark.parametrize("portrait", ["face.png", "../outside.png"])
def test_build_says_the_same_about_a_bad_portrait(
    write_campaign: WriteCampaign, cli: Cli, tmp_path: Path, portrait: str
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())
    folder = _portrait_campaign(write_campaign, portrait)
    checked = cli("check", folder)
    [line] = [s for s in checked.stderr.splitlines() if "portrait:" in s]
    built = cli("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1")
    assert built.exit_code == 1, built.output
    assert line in built.stderr.splitlines(), built.stderr
    assert line.startswith('campaign/party.yaml:4: entry "Ann": portrait: ')
    assert not list((tmp_path / "out").glob("*.pdf"))
