"""Where each printed number came from (issue 29): the view models' source queries name
the file, the line of the field that decides the number, the entry, the field and the
``--explain`` line."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from scratchpress.definitions.campaign import load_campaign
from scratchpress.documents.sources import Origins, query
from scratchpress.statblocks import Computed, compute_campaign

from conftest import WriteCampaign

PARTY = """\
    characters:
      - name: Wren Hollis
        abilities:
          toughness: 3
          stalking: 3
          command: 2
        minions:
          - name: Dogs
            count: 2
            abilities:
              toughness: 1
              fighting: 1
"""


def decoded(source: str) -> dict[str, Any]:
    values = parse_qs(source, keep_blank_values=True)
    return {key: value[0] for key, value in values.items()}


@pytest.fixture
def computed(write_campaign: WriteCampaign) -> Computed:
    folder: Path = write_campaign({"party.yaml": PARTY})
    return compute_campaign(load_campaign([folder]))


def test_a_derived_value_points_at_the_ability_its_rule_names(computed: Computed) -> None:
    wren = computed.blocks[0]
    agility = decoded(Origins(wren, computed).stat("agility"))
    assert agility["file"].endswith("party.yaml")
    assert agility["entry"] == "Wren Hollis"
    # The older "stalking" is read as stealth, but the link names the key as written.
    assert (agility["line"], agility["field"]) == ("5", "abilities.stalking")
    assert agility["trace"] == "agility 13 = 10 + stealth 3"


def test_a_value_no_ability_decides_points_at_the_entry(computed: Computed) -> None:
    wren = computed.blocks[0]
    intelligence = decoded(Origins(wren, computed).stat("intelligence"))
    assert intelligence["field"] == "abilities.command"
    strength = decoded(Origins(wren, computed).stat("strength"))
    assert strength["field"] == "abilities.toughness"
    hp = decoded(Origins(wren, computed).stat("hit_points"))
    assert (hp["line"], hp["trace"]) == ("4", "hit points 3 = toughness 3")


def test_an_initiative_of_nothing_points_at_the_entry_line(
    write_campaign: WriteCampaign,
) -> None:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"}
    )
    computed = compute_campaign(load_campaign([folder]))
    agility = decoded(Origins(computed.blocks[0], computed).stat("agility"))
    assert (agility["line"], agility["field"]) == ("2", "agility")
    assert agility["trace"].startswith("agility 10 = 10 (none of")


def test_a_minions_numbers_point_inside_its_leaders_entry(computed: Computed) -> None:
    dogs = computed.block("minion", "Dogs")
    assert dogs is not None
    hp = decoded(Origins(dogs, computed).stat("hit_points"))
    assert hp["entry"] == "Wren Hollis"
    assert hp["field"] == "minions.0.abilities.toughness"
    assert hp["line"] == "11"


def test_an_ability_level_points_at_its_own_line(computed: Computed) -> None:
    wren = computed.blocks[0]
    command = decoded(Origins(wren, computed).ability("command", 2))
    assert (command["line"], command["field"]) == ("6", "abilities.command")
    assert command["trace"] == "command 2, as written"


def test_a_query_keeps_an_unknown_line_empty() -> None:
    assert decoded(query("party.yaml", None, "Ann", "agility", "")) == {
        "file": "party.yaml",
        "line": "",
        "entry": "Ann",
        "field": "agility",
        "trace": "",
    }
