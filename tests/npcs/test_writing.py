"""The roster file's header: the command it prints runs and makes the same file again."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from scratchpress.cli.app import app

runner = CliRunner()


def _campaign(folder: Path) -> Path:
    """A small campaign with settings of its own and people whose names a roster avoids."""
    folder.mkdir(parents=True)
    (folder / "scratchpress.toml").write_text("cp = 12\nmax_level = 5\n", encoding="utf-8")
    (folder / "party.yaml").write_text(
        "characters:\n"
        "  - name: Ann Reed\n    abilities: {toughness: 2, detection: 3, stealth: 2}\n"
        "  - name: Bo Voss\n    abilities: {toughness: 3, shooting: 4}\n",
        encoding="utf-8",
    )
    return folder


def _made_by(text: str) -> list[str]:
    lines = [line for line in text.splitlines() if line.startswith("# Made by: ")]
    assert len(lines) == 1, text[:500]
    return shlex.split(lines[0].removeprefix("# Made by: "))


EVERY_OPTION = [
    *("CAMPAIGN", "--count", "14", "--seed", "night watch 7", "--cp", "9", "--max-level", "3"),
    *("--archetype", "guard", "--name-prefix", "Sgt.", "--group", "The Lamp's Men"),
]


@pytest.mark.parametrize(
    ("options", "budget"),
    [
        # Every option the header repeats, a campaign named on the command line (with a
        # space and a quote in its path) and a seed that is text, not a number.
        (EVERY_OPTION, "9 CP with no ability above 3"),
        # Bands instead of one group, the campaign's own cp and max_level, a numeric seed.
        (["CAMPAIGN", "--count", "30", "--seed", "42"], "12 CP with no ability above 5"),
        # No campaign argument: the campaign is the folder the GM stands in.
        (
            ["--count", "8", "--seed", "7", "--name-prefix", "Old 'Tin'"],
            "12 CP with no ability above 5",
        ),
    ],
    ids=["every-option", "bands", "found-from-the-folder"],
)
def test_the_made_by_command_makes_the_same_file(
    options: list[str], budget: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    campaign = _campaign(tmp_path / "Weir's camp")
    first = tmp_path / "out" / "first.yaml"
    first.parent.mkdir()
    monkeypatch.chdir(campaign if "CAMPAIGN" not in options else tmp_path)
    args = [str(campaign) if option == "CAMPAIGN" else option for option in options]
    made = runner.invoke(app, ["roster", "generate", *args, "-o", str(first)])
    assert made.exit_code == 0, made.output
    text = first.read_text(encoding="utf-8")
    assert f"each built on {budget}." in text  # the campaign's settings, unless overridden

    command = _made_by(text)
    assert command[:3] == ["scratchpress", "roster", "generate"]
    assert command[-3:] == ["-o", str(first), "--force"]  # it replaces the file it made
    first.write_text("# edited away\n", encoding="utf-8")
    again = runner.invoke(app, command[1:])
    assert again.exit_code == 0, again.output
    assert first.read_text(encoding="utf-8") == text


def test_a_roster_written_inside_its_campaign_is_made_again_by_its_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The documented use: the file joins the campaign, so its own names are taken the
    second time, unless the command replaces it (then they are free again)."""
    campaign = _campaign(tmp_path / "camp")
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(
        app, ["roster", "generate", "camp", "-n", "5", "--seed", "5", "-o", "camp/npcs.yaml"]
    )
    assert made.exit_code == 0, made.output
    text = (campaign / "npcs.yaml").read_text(encoding="utf-8")
    again = runner.invoke(app, _made_by(text)[1:])
    assert again.exit_code == 0, again.output
    assert (campaign / "npcs.yaml").read_text(encoding="utf-8") == text
