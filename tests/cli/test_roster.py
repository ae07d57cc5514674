"""`roster generate -o` says when it writes where a build will not read the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Cli, WriteCampaign

PARTY = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"


@pytest.fixture
def campaign(write_campaign: WriteCampaign) -> Path:
    folder = write_campaign({"party.yaml": PARTY, "scratchpress.toml": "cp = 10\n"})
    (folder / "npcs").mkdir()
    return folder


def _generate(cli: Cli, *args: str | Path) -> list[str]:
    result = cli("roster", "generate", *args, "-n", "3", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("note: ")]


def test_a_roster_written_into_the_campaign_folder_says_nothing_more(
    cli: Cli, campaign: Path
) -> None:
    assert _generate(cli, campaign, "-o", "campaign/thugs.yaml") == []


def test_a_roster_in_a_subfolder_says_a_build_will_not_read_it(cli: Cli, campaign: Path) -> None:
    assert _generate(cli, campaign, "-o", "campaign/npcs/thugs.yaml") == [
        "note: campaign/npcs/thugs.yaml is in a subfolder of the campaign, and a build reads"
        " only the YAML files directly in the campaign folder; write it as campaign/thugs.yaml"
    ]


def test_a_roster_outside_its_campaign_says_so(cli: Cli, campaign: Path) -> None:
    assert _generate(cli, campaign, "-o", "thugs.yaml") == [
        "note: thugs.yaml is outside the campaign (campaign), so a build of it will not read"
        " it; write it as campaign/thugs.yaml"
    ]


def test_a_roster_named_without_yaml_says_so(cli: Cli, campaign: Path) -> None:
    assert _generate(cli, campaign, "-o", "campaign/thugs.txt") == [
        "note: campaign/thugs.txt does not end in .yaml, so a build will not read it; name it"
        " thugs.yaml"
    ]


def test_a_roster_in_a_subfolder_of_the_campaign_one_stands_in_says_so(
    cli: Cli, campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(campaign)
    assert _generate(cli, "-o", "npcs/thugs.yaml") == [
        "note: npcs/thugs.yaml is in a subfolder of the campaign, and a build reads only the"
        " YAML files directly in the campaign folder; write it as thugs.yaml"
    ]
