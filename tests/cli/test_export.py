"""`scratchpress export foundry|encounter|tokens`: a folder of files, nothing replaced
without --force, every problem one line and an exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Cli, WriteCampaign

PARTY = """\
    characters:
      - name: Ann Kell
        player: Kim
        group: Wardens
        portrait: face.png
        abilities: {toughness: 2, shooting: 1}
      - name: Bo
        group: Raiders
        abilities: {toughness: 1, fighting: 1}
    """


@pytest.fixture
def campaign(write_campaign: WriteCampaign) -> Path:
    folder = write_campaign({"party.yaml": PARTY, "scratchpress.toml": 'title = "Gull Rock"\n'})
    (folder / "face.png").write_bytes(b"\x89PNG\r\n\x1a\n not a picture")
    return folder


def test_export_foundry_writes_actors_tokens_and_the_module(cli: Cli, campaign: Path) -> None:
    result = cli("export", "foundry", campaign, "-o", "vtt")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in Path("vtt/actors").iterdir()) == ["ann-kell.json", "bo.json"]
    assert len(list(Path("vtt/packs/actors/_source").iterdir())) == 2
    assert len(list(Path("vtt/tokens").iterdir())) == 4
    manifest = json.loads(Path("vtt/module.json").read_text(encoding="utf-8"))
    assert manifest["id"] == "scratchpress-gull-rock"
    assert result.stderr.splitlines() == [
        'campaign/party.yaml:5: warning: entry "Ann Kell": portrait: face.png is not an image'
        " scratchpress can read; portraits must be PNG, JPEG or WebP; its token shows AK"
        " instead",
        "wrote vtt: 2 actors, 2 tokens (256 and 512 px), module.json and the compendium's sources"
        " (packs/actors/_source/)",
        "next: copy it to Foundry's Data/modules/scratchpress-gull-rock/ and import"
        ' (docs/vtt.md, "Foundry VTT")',
    ]


def test_an_export_replaces_nothing_without_force(cli: Cli, campaign: Path) -> None:
    assert cli("export", "foundry", campaign, "-o", "vtt").exit_code == 0
    actor = Path("vtt/actors/bo.json")
    actor.write_text("a GM's edits", encoding="utf-8")
    again = cli("export", "foundry", campaign, "-o", "vtt")
    assert again.exit_code == 2
    assert again.stderr.splitlines()[-1] == (
        "vtt/actors/ann-kell.json exists (and 8 more of the files to write); it may hold a"
        " GM's edits. Use --force to replace, or choose another folder"
    )
    assert actor.read_text(encoding="utf-8") == "a GM's edits"
    assert cli("export", "foundry", campaign, "-o", "vtt", "--force").exit_code == 0
    assert json.loads(actor.read_text(encoding="utf-8"))["name"] == "Bo"


def test_an_output_that_is_a_file_is_an_input_error(cli: Cli, campaign: Path) -> None:
    Path("vtt").write_text("a file", encoding="utf-8")
    result = cli("export", "tokens", campaign, "-o", "vtt")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "vtt: -o: not a folder (an export writes a folder of files)"
    )


def test_the_output_folder_must_be_named(cli: Cli, campaign: Path) -> None:
    result = cli("export", "foundry", campaign)
    assert result.exit_code == 2
    assert "-o" in result.stderr


def test_export_encounter_writes_the_party_and_each_side(cli: Cli, campaign: Path) -> None:
    result = cli("export", "encounter", campaign, "-o", "ie")
    assert result.exit_code == 0, result.stderr
    assert sorted(str(p) for p in Path("ie").rglob("*.json")) == [
        "ie/all.json",
        "ie/groups/raiders.json",
        "ie/party.json",
    ]
    assert result.stderr.splitlines()[0] == (
        "wrote ie: party.json, 1 group, 0 encounters, all.json (everything, for one import)"
    )


def test_export_encounter_of_the_example_writes_each_resilience_encounter(cli: Cli) -> None:
    result = cli("export", "encounter", "--example", "-o", "ie")
    assert result.exit_code == 0, result.stderr
    assert len(list(Path("ie/encounters").iterdir())) == 50
    weeping = json.loads(Path("ie/encounters/weeping-dam.json").read_text(encoding="utf-8"))
    (encounter,) = [v for k, v in weeping.items() if k.startswith("SavedEncounters.")]
    assert encounter["Name"] == "The Weeping Dam"


def test_export_tokens_writes_the_tokens_alone(cli: Cli, campaign: Path) -> None:
    result = cli("export", "tokens", campaign, "-o", "tokens-out")
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in Path("tokens-out/tokens").iterdir()) == [
        "ann-kell-256.png",
        "ann-kell-512.png",
        "bo-256.png",
        "bo-512.png",
    ]
    assert result.stderr.splitlines()[-1] == "wrote tokens-out: 2 tokens (256 and 512 px)"


def test_a_campaign_with_errors_exports_nothing(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {
            "party.yaml": """\
                characters:
                  - name: Ann
                    abilities: {toughness: 1}
                vehicles:
                  - name: Cart
                    movement: quickness
                    abilities: {toughness: 5, quickness: 1}
                    crew: {operator: Nobody}
                """
        }
    )
    result = cli("export", "foundry", folder, "-o", "vtt")
    assert result.exit_code == 1
    assert "no character named 'Nobody'" in result.stderr
    assert not Path("vtt").exists()


def test_an_export_never_writes_through_a_link(cli: Cli, campaign: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    Path("vtt").mkdir()
    Path("vtt/tokens").symlink_to(elsewhere)
    result = cli("export", "tokens", campaign, "-o", "vtt")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "cannot write vtt/tokens/ann-kell-256.png: tokens/ is a symbolic link; refused"
    )
    assert list(elsewhere.iterdir()) == []
