"""The NPC roster's title and attack lines: the campaign's ``title`` from scratchpress.toml
(else its folder's name in title case), and every stat block giving the attacks the sheet
computes, with the same bonuses and damage.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader

from scratchpress.build import allowed_roots
from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.base import BuildOptions
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
    from scratchpress.definitions.campaign import load_settings

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
        actions = {a.name: a for a in block.stats.actions}
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
        {"name": "Basic attack", "text": "+0 vs agility, close, 1 damage, 2 on a 20"}
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
