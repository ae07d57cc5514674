"""The NPC roster's title and attack lines: the campaign's ``title`` from scratchpress.toml
(else its folder's name in title case), and every stat block giving the attacks the sheet
computes, with the same bonuses and damage.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

from scratchpress.build.run import allowed_roots
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import actions as action_words
from scratchpress.documents.roster import attack_rows, documents, is_npc
from scratchpress.render.engine import render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import templates_dir
from scratchpress.rules.character import CharacterStats
from scratchpress.statblocks import compute_campaign

from conftest import WriteCampaign

# Chokestar's abilities (RULES.md's combat example): wrestling 2, stealth 3, toughness 3.
RAIDERS = """\
npcs:
  - name: Chokestar
    group: Raiders
    abilities: {wrestling: 2, stealth: 3, toughness: 3}
  - name: Ditch Lurker
    group: Raiders
    abilities: {toughness: 2}
  - name: Gunhand
    abilities: {shooting: 2, toughness: 1, command: 2}
    minions:
      - {name: Thugs, count: 2, abilities: {shooting: 1}}
"""


def _context(folder: Path) -> dict[str, object]:
    campaign = load_campaign([folder])
    [document] = documents(compute_campaign(campaign), campaign, BuildOptions())
    return document.context


def _text(folder: Path) -> str:
    campaign = load_campaign([folder])
    [document] = documents(compute_campaign(campaign), campaign, BuildOptions())
    html = render_html(document.template, document.context)
    pdf = render_pdf(html, templates_dir(), allowed_roots(campaign)).pdf
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def _blocks(context: dict[str, object]) -> dict[str, dict[str, object]]:
    """Every NPC and minion block on the roster, by name."""
    found: dict[str, dict[str, object]] = {}
    pages = context["pages"]
    assert isinstance(pages, list)
    for page in pages:
        for column in page["columns"]:
            for item in column:
                if item["kind"] in ("npc", "big"):
                    found[item["name"]] = item
                    found.update({m["name"]: m for m in item["minions"]})
    return found


# --------------------------------------------------------------------------------------------
# the title


def test_the_roster_is_titled_with_the_campaigns_title(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {"raiders.yaml": RAIDERS, "scratchpress.toml": 'title = "The Salt Roads"\n'},
        name="examples",
    )
    context = _context(folder)
    assert context["doc_heading"] == "The Salt Roads"
    assert context["title"] == "NPC roster · The Salt Roads"


@pytest.mark.parametrize(
    ("folder", "title"),
    [("lantern-weir", "Lantern Weir"), ("salt_roads", "Salt Roads"), ("MyGame", "MyGame")],
)
def test_without_a_title_the_folders_name_in_title_case(
    write_campaign: WriteCampaign, folder: str, title: str
) -> None:
    context = _context(write_campaign({"raiders.yaml": RAIDERS}, name=folder))
    assert context["doc_heading"] == title


def test_a_blank_title_is_refused_with_its_line(write_campaign: WriteCampaign) -> None:
    from scratchpress.definitions.settings import load_settings

    folder = write_campaign({"scratchpress.toml": 'rules = "current"\ntitle = "  "\n'})
    problems: list[object] = []
    load_settings(folder, None, problems)  # type: ignore[arg-type]
    assert len(problems) == 1 and "title" in str(problems[0]) and ":2:" in str(problems[0])


# --------------------------------------------------------------------------------------------
# the attacks


def test_every_block_gives_its_attacks_with_the_sheets_bonuses(
    write_campaign: WriteCampaign,
) -> None:
    folder = write_campaign({"raiders.yaml": RAIDERS})
    computed = compute_campaign(load_campaign([folder]))
    blocks = _blocks(_context(folder))
    npcs = [
        b for b in computed.blocks if (b.kind == "character" and is_npc(b)) or b.kind == "minion"
    ]
    assert {b.name for b in npcs} == set(blocks)
    for block in npcs:
        assert isinstance(block.stats, CharacterStats)
        shown = blocks[block.name]["attacks"]
        assert shown, f"{block.name} shows no attack"
        actions = {action_words.name(a): a for a in block.stats.actions}
        for attack in shown:  # type: ignore[attr-defined]
            action = actions[attack["name"]]
            assert attack["text"].startswith(f"+{action.bonus} vs "), attack


def test_chokestars_attacks_read_like_the_book(write_campaign: WriteCampaign) -> None:
    """Wrestling 2 and stealth 3: his rolls are the ones an ability adds to (the bare-d20
    attacks everyone has would only repeat on every block)."""
    folder = write_campaign({"raiders.yaml": RAIDERS})
    shown = _blocks(_context(folder))["Chokestar"]["attacks"]
    assert isinstance(shown, list)
    assert [(a["name"], a["text"]) for a in shown] == [
        ("Basic attack", "+2 vs agility, close, 1 damage, 2 on a 20"),
        ("Wrestling hold", "+2 vs strength, close, 1 damage, 2 on a 20"),
        ("Hold", "+2 vs strength, close"),
        ("Surprise", "+3 vs intelligence, long"),
    ]


def test_an_npc_without_an_attack_ability_shows_its_basic_attack(
    write_campaign: WriteCampaign,
) -> None:
    folder = write_campaign({"raiders.yaml": RAIDERS})
    computed = compute_campaign(load_campaign([folder]))
    lurker = next(b for b in computed.blocks if b.name == "Ditch Lurker")
    assert isinstance(lurker.stats, CharacterStats)
    assert attack_rows(lurker.stats) == [
        {
            "name": "Basic attack",
            "text": "+0 vs agility, close, 1 damage, 2 on a 20",
            # The same text split, so the preview links the bonus alone.
            "bonus": "+0",
            "rest": " vs agility, close, 1 damage, 2 on a 20",
        }
    ]


def test_the_printed_roster_carries_title_and_attacks(write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {"raiders.yaml": RAIDERS, "scratchpress.toml": 'title = "The Salt Roads"\n'}
    )
    text = " ".join(_text(folder).split())
    assert "THE SALT ROADS" in text.upper()
    assert "Attacks: Shooting +2 vs agility, long, 2 damage, 5 on a 20" in text
    # One attacks line per block: three NPCs and the two thugs' shared block.
    assert text.count("Attacks:") == 4


# -------------------- formerly tests/documents/test_roster_npcs.py
# Roster NPCs (issue 14): entries under ``npcs:`` print on the roster and the initiative
# cards and get a character sheet only with ``sheet: true``; ``roster generate`` writes them.

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


def _text_npcs(pdf: Path) -> str:
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
    roster = _text_npcs(out / "roster.pdf")
    assert all(name in roster for name in NPC_NAMES), roster
    cards = _text_npcs(out / "initiative-cards.pdf")
    assert all(name in cards for name in NPC_NAMES)


def _card_titles(campaign_dir: Path) -> list[tuple[str, str]]:
    from scratchpress.definitions.models import BuildOptions
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
    from scratchpress.definitions.models import BuildOptions

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
    from scratchpress.definitions.models import BuildOptions
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


# --------------------------------------------------------------------------------------------
# the live preview's sources (issue 29)


def test_each_roster_number_knows_its_line_and_its_rule(write_campaign: WriteCampaign) -> None:
    from urllib.parse import parse_qs

    def decoded(source: object) -> dict[str, str]:
        return {k: v[0] for k, v in parse_qs(str(source), keep_blank_values=True).items()}

    context = _context(write_campaign({"raiders.yaml": RAIDERS}))
    chokestar = _blocks(context)["Chokestar"]
    stats = {v["label"]: decoded(v["source"]) for v in chokestar["stats"]}  # type: ignore[attr-defined]
    assert stats["agility"]["trace"] == "agility 13 = 10 + stealth 3"
    assert (stats["agility"]["line"], stats["agility"]["field"]) == ("4", "abilities.stealth")
    levels = [decoded(a["source"]) for a in chokestar["abilities"]]  # type: ignore[attr-defined]
    assert [a["field"] for a in levels] == [
        "abilities.wrestling",
        "abilities.stealth",
        "abilities.toughness",
    ]
    thugs = _blocks(context)["Thugs"]
    hp = decoded(thugs["stats"][-1]["source"])  # type: ignore[index]
    assert (hp["entry"], hp["field"]) == ("Gunhand", "minions.0.stamina")


# --------------------------------------------------------------------------------------------
# rebuilt on every save: an NPC's block is kept only while nothing it is made of changes


def test_a_kept_block_follows_its_level_and_its_lines(write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"raiders.yaml": RAIDERS})
    first = _blocks(_context(folder))
    again = _blocks(_context(folder))
    # The same NPC: its block is kept (the page copies the block's view, not its parts).
    assert again["Chokestar"]["stats"] is first["Chokestar"]["stats"]
    # Stealth 3 -> 4: the kept block is not used for the changed NPC, only for the others.
    (folder / "raiders.yaml").write_text(RAIDERS.replace("stealth: 3", "stealth: 4"), "utf-8")
    changed = _blocks(_context(folder))
    assert changed["Ditch Lurker"]["stats"] is first["Ditch Lurker"]["stats"]
    stealth = next(a for a in changed["Chokestar"]["abilities"] if "stealth" in a["name"].lower())
    assert "4" in str(stealth)
    # A comment above moves every entry a line down: every link to a line follows it.
    (folder / "raiders.yaml").write_text("# raiders\n" + RAIDERS, "utf-8")
    moved = _blocks(_context(folder))
    assert moved["Ditch Lurker"]["stats"] is not first["Ditch Lurker"]["stats"]
    source = str(moved["Ditch Lurker"]["stats"][0]["source"])
    assert "&line=6&" in source, source  # its agility points at its entry: line 5, now 6
