"""Initiative cards print whole names, and say so when one must be cut."""

from __future__ import annotations

from pathlib import Path

from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents import initiative
from scratchpress.documents.base import BuildOptions
from scratchpress.statblocks import compute_campaign

from conftest import Cli, WriteCampaign

PARTY = """
characters:
  - name: {name}
    group: {group}
    abilities: {{toughness: 2, detection: 1}}
  - name: Bo
    group: {group}
    abilities: {{toughness: 2}}
"""


def _cards(folder: Path) -> list[dict[str, object]]:
    campaign = load_campaign([folder])
    return initiative.all_cards(compute_campaign(campaign), BuildOptions())


def test_a_long_name_takes_the_labels_room_before_a_letter_is_cut(
    write_campaign: WriteCampaign,
) -> None:
    # 23 letters of Greek in Lato Black do not fit beside "CHARACTER" at the smallest
    # size; without the label they do, so the band drops the label and keeps every letter.
    name = "Αλέξανδρος Κωνσταντίνου"
    folder = write_campaign({"party.yaml": PARTY.format(name=name, group="Dam")})
    card = next(c for c in _cards(folder) if c["title"] == name)
    assert card["band_title"] == name
    assert card["band_label"] == ""
    assert initiative.shortened(_cards(folder)) == []


def test_a_member_line_steps_down_in_size_before_it_cuts(write_campaign: WriteCampaign) -> None:
    name = "Marisol Achterberg-Oduya"
    folder = write_campaign({"party.yaml": PARTY.format(name=name, group="Dam")})
    group = next(c for c in _cards(folder) if c["kind"] == "group")
    member = next(m for m in group["members"] if m["name"] == name)  # type: ignore[attr-defined]
    assert member["shown"] == name
    size = float(member["name_size"].removesuffix("pt"))
    assert initiative.TYPE_FLOOR_PT <= size < initiative.METRICS["poker"].member_pt


def test_a_name_that_cannot_fit_warns_and_fails_with_strict(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    name = "Wilhelmina Konstantinopoulou-Vandersloot of the Long Weir"
    folder = write_campaign({"party.yaml": PARTY.format(name=name, group="Dam")})
    args = ["build", str(folder), "-o", "out", "--only", "initiative", "-j", "1"]
    relaxed = cli(*args)
    assert relaxed.exit_code == 0, relaxed.output
    lines = relaxed.stderr.splitlines()
    line = next((text for text in lines if "name on the group card" in text), None)
    assert line is not None, relaxed.stderr
    assert line.startswith(f'initiative-cards.pdf: entry "{name}": name on the group card:')
    assert "shortened to fit the initiative card: prints '" in line
    strict = cli(*args, "--strict")
    assert strict.exit_code == 1
    assert "--strict:" in strict.stderr
