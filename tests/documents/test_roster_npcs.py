"""Roster NPCs (issue 14): entries under ``npcs:`` print on the roster and the initiative
cards and get a character sheet only with ``sheet: true``; ``roster generate`` writes them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

from scratchpress.definitions.campaign import load_campaign
from scratchpress.statblocks import compute_campaign

PARTY = """\
characters:
  - name: Rosa Quint
    player: Mei
    group: Couriers
    abilities: {driving: 3, stealth: 2, shooting: 2, toughness: 3}
  - name: Calder Voss
    group: Toll Gang
    abilities: {command: 3, fighting: 3, detection: 2, toughness: 2}
vehicles:
  - name: Sparrow
    movement: quickness
    abilities: {quickness: 2, toughness: 4}
    crew: {operator: Rosa Quint, gunner: Tollhouse Bruiser}
"""
NPC_NAMES = ("Tollhouse Bruiser", "Chain Warden", "Ditch Lurker", "Slate Runner", "Old Hobb")
GANG = "npcs:\n" + "".join(
    f"  - name: {name}\n    group: Toll Gang\n    abilities: {{fighting: 2, toughness: 2}}\n"
    for name in NPC_NAMES
)


def _pdfs(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.pdf"))


def _text(pdf: Path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(pdf).pages)


def _build(cli: Any, campaign: Path, out: Path, only: str) -> None:
    result = cli("build", campaign, "-o", out, "--only", only, "-j", "2")
    assert result.exit_code == 0, result.stderr


@pytest.fixture
def gang(write_campaign: Any) -> Path:
    folder: Path = write_campaign({"party.yaml": PARTY, "gang.yaml": GANG})
    return folder


def test_npcs_are_characters_for_crews_and_lookups(gang: Path) -> None:
    campaign = load_campaign([gang])
    assert [c.name for c in campaign.npcs] == list(NPC_NAMES)
    assert len(campaign.characters) == 7
    bruiser = campaign.character("Tollhouse Bruiser")
    assert bruiser is not None and bruiser.npc
    computed = compute_campaign(campaign)
    assert [p for p in computed.problems if p.severity == "error"] == []
    sparrow = next(b for b in computed.blocks if b.name == "Sparrow")
    assert sparrow.definition.crew.gunner == "Tollhouse Bruiser"


def test_npcs_get_no_sheet_but_are_on_the_roster_and_cards(
    gang: Path, cli: Any, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    _build(cli, gang, out, "sheets,roster,initiative")
    assert _pdfs(out) == [
        "initiative-cards.pdf",
        "roster.pdf",
        "sheet-calder-voss.pdf",
        "sheet-rosa-quint.pdf",
    ]
    roster = _text(out / "roster.pdf")
    assert all(name in roster for name in NPC_NAMES), roster
    cards = _text(out / "initiative-cards.pdf")
    assert all(name in cards for name in NPC_NAMES)


def _card_titles(campaign_dir: Path) -> list[tuple[str, str]]:
    from scratchpress.documents.base import BuildOptions
    from scratchpress.documents.initiative import all_cards

    computed = compute_campaign(load_campaign([campaign_dir]))
    return [(card["kind"], card["title"]) for card in all_cards(computed, BuildOptions())]


def test_npcs_in_a_group_are_rows_on_its_card_not_cards_of_their_own(
    write_campaign: Any,
) -> None:
    """The GM runs a band of extras from its group card (each one's defenses, HP track and
    once-per-target boxes) and the roster; a card each would be 300 cards to cut. The boss
    with ``sheet: true`` keeps a card of his own, and so does an NPC with no group, who
    would otherwise be on no card at all; so does a character under ``characters:``."""
    gang = GANG.replace("  - name: Old Hobb\n", "  - name: Old Hobb\n    sheet: true\n")
    loner = "  - name: Lone Drifter\n    abilities: {shooting: 2, toughness: 2}\n"
    party = PARTY.replace("  - name: Calder Voss\n", "  - name: Calder Voss\n    sheet: false\n")
    folder = write_campaign({"party.yaml": party, "gang.yaml": gang + loner})
    assert _card_titles(folder) == [
        ("group", "Toll Gang"),
        ("character", "Old Hobb"),
        ("character", "Calder Voss"),
        ("group", "Couriers"),
        ("character", "Rosa Quint"),
        ("character", "Lone Drifter"),
    ]


def test_a_campaign_without_resilience_prints_no_events_careers_or_encounters(
    write_campaign: Any, cli: Any, tmp_path: Path
) -> None:
    """A Scratch campaign of NPCs gets its roster, initiative cards and carry table, not
    37 pages of Resilience it did not ask for; the build says how to get them, and
    ``--only`` or a community brings them back."""
    from scratchpress.build import collect_documents
    from scratchpress.documents.base import BuildOptions

    folder = write_campaign({"gang.yaml": GANG})
    out = tmp_path / "out"
    result = cli("build", folder, "-o", out, "-j", "2")
    assert result.exit_code == 0, result.stderr
    assert _pdfs(out) == ["carry-table.pdf", "initiative-cards.pdf", "roster.pdf"]
    assert (
        "no community or Resilience content in this campaign, so no events, careers or"
        " encounters; `--only events,careers,encounters` prints them"
    ) in result.stdout + result.stderr

    def kinds(only: list[str] | None) -> set[str]:
        campaign = load_campaign([folder])
        documents = collect_documents(compute_campaign(campaign), campaign, BuildOptions(), only)
        return {document.kind for document in documents}

    assert kinds(["events", "careers", "encounters"]) == {"events", "careers", "encounters"}
    weir = "communities:\n  - {name: Weir, players: 4, economy: 10, environment: 10, equity: 10}\n"
    write_campaign({"weir.yaml": weir})
    assert {"events", "careers", "encounters", "community"} <= kinds(None)


def test_an_npc_with_sheet_true_gets_a_sheet(write_campaign: Any, cli: Any, tmp_path: Path) -> None:
    boss = GANG.replace("  - name: Old Hobb\n", "  - name: Old Hobb\n    sheet: true\n")
    folder = write_campaign({"party.yaml": PARTY, "gang.yaml": boss})
    out = tmp_path / "out"
    _build(cli, folder, out, "sheets")
    assert _pdfs(out) == ["sheet-calder-voss.pdf", "sheet-old-hobb.pdf", "sheet-rosa-quint.pdf"]


def test_a_character_with_sheet_false_gets_none(
    write_campaign: Any, cli: Any, tmp_path: Path
) -> None:
    party = PARTY.replace("  - name: Calder Voss\n", "  - name: Calder Voss\n    sheet: false\n")
    folder = write_campaign({"party.yaml": party, "gang.yaml": GANG})
    out = tmp_path / "out"
    _build(cli, folder, out, "sheets")
    assert _pdfs(out) == ["sheet-rosa-quint.pdf"]


def test_roster_generate_writes_npcs_that_check_accepts(
    write_campaign: Any, cli: Any, tmp_path: Path
) -> None:
    result = cli("roster", "generate", "-n", "5", "--seed", "1")
    assert result.exit_code == 0, result.stderr
    data = yaml.safe_load(result.stdout)
    assert list(data) == ["npcs"] and len(data["npcs"]) == 5
    folder = write_campaign({"npcs.yaml": result.stdout}, name="generated")
    checked = cli("check", folder)
    assert checked.exit_code == 0, checked.stdout + checked.stderr


def test_a_misspelt_npcs_key_gets_one_did_you_mean(write_campaign: Any, cli: Any) -> None:
    folder = write_campaign({"gang.yaml": GANG.replace("npcs:", "npc:", 1)})
    result = cli("check", folder)
    assert result.exit_code != 0
    output = result.stdout + result.stderr
    assert output.count("unknown top-level key 'npc' (did you mean 'npcs'?)") == 1
    assert output.count("unknown") == 1


def test_a_generated_300_npc_campaign_builds_no_sheet(cli: Any, tmp_path: Path) -> None:
    folder = tmp_path / "horde"
    folder.mkdir()
    made = cli("roster", "generate", "-n", "300", "--seed", "1", "-o", folder / "npcs.yaml")
    assert made.exit_code == 0, made.stderr
    assert len(load_campaign([folder]).npcs) == 300
    out = tmp_path / "out"
    _build(cli, folder, out, "sheets")
    assert _pdfs(out) == []


def test_a_big_roster_s_initiative_cards_render_in_batches_on_landscape_sheets(
    cli: Any, tmp_path: Path
) -> None:
    """300 characters make 40-odd sheets of cards: rendered in batches of sheets on every core
    and put together by pikepdf, each sheet still a landscape Letter page with 8 cards."""
    from scratchpress.build import collect_documents
    from scratchpress.definitions.campaign import load_campaign
    from scratchpress.documents.base import BuildOptions
    from scratchpress.documents.initiative import SHEETS_PER_BATCH
    from scratchpress.statblocks import compute_campaign

    campaign_dir = tmp_path / "camp"
    campaign_dir.mkdir()
    made = cli(
        "roster",
        "generate",
        str(campaign_dir),
        "-n",
        "300",
        "--seed",
        "1",
        "-o",
        str(campaign_dir / "npcs.yaml"),
    )
    assert made.exit_code == 0, made.output
    # As characters, so each of the 300 has a card of its own (roster NPCs in a group are
    # rows on their group's card: see the test above).
    npcs = campaign_dir / "npcs.yaml"
    npcs.write_text(npcs.read_text(encoding="utf-8").replace("npcs:", "characters:"), "utf-8")
    campaign = load_campaign([campaign_dir])
    (cards,) = collect_documents(
        compute_campaign(campaign), campaign, BuildOptions(), ["initiative"]
    )
    assert cards.imposed is not None
    sheets = len(cards.imposed.units)
    assert sheets > 2 * SHEETS_PER_BATCH  # enough for every core
    assert cards.imposed.paper_mm == (279.4, 215.9)  # landscape Letter, as the layout turns it
