"""Tests for scratchpress.definitions.importer: book-format stat blocks to YAML definitions.

The seed texts and the golden examples live in the shared reference folder, which is read at
run time and never copied here. The small fixtures below are invented for these tests.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ruamel.yaml import YAML

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.importer import dump_definitions, parse_stat_blocks, read_stat_blocks
from scratchpress.definitions.importer.pieces import Definition

from conftest import shared_location

COMPLETE_SYSTEM = "scratch-complete-system.txt"
RESILIENCE = "resilience.txt"
BASIC_RULES_WIKI = "scratch-basic-rules-2011-06-22.txt"


# --------------------------------------------------------------------------------------------
# Shared reference folder


def _shared_dir() -> Path:
    configured = os.environ.get("SCRATCHPRESS_SHARED")
    folder = Path(configured) if configured else Path(__file__).resolve().parents[3] / "shared"
    if not (folder / "seeds").is_dir() or not (folder / "golden" / "examples.json").is_file():
        pytest.skip(
            f"imports the rule texts themselves: shared reference folder with seeds/ and "
            f"golden/examples.json not found at {folder}; set SCRATCHPRESS_SHARED to it"
        )
    return folder


@pytest.fixture(scope="module")
def shared() -> Path:
    return _shared_dir()


def _seed(shared: Path, name: str) -> str:
    return (shared / "seeds" / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def golden(shared: Path) -> list[dict[str, Any]]:
    data = json.loads((shared / "golden" / "examples.json").read_text(encoding="utf-8"))
    examples: list[dict[str, Any]] = data["examples"]
    return examples


@pytest.fixture(scope="module")
def complete_system(shared: Path) -> dict[str, list[Definition]]:
    return parse_stat_blocks(_seed(shared, COMPLETE_SYSTEM))


def _from_complete_system(example: dict[str, Any]) -> bool:
    return str(example["source"]).startswith("002_")


def _line_number(example: dict[str, Any]) -> int:
    match = re.search(r"line (\d+)", example["occurrences"][0])
    assert match is not None, example["id"]
    return int(match.group(1))


def _expected_abilities(example: dict[str, Any]) -> dict[str, Any]:
    """Golden abilities and notes in the importer's shape: bare level, or level and note."""
    notes: dict[str, str] = example["notes"]
    return {
        ability: {"level": level, "note": notes[ability]} if notes.get(ability) else level
        for ability, level in example["abilities"].items()
    }


def _unique_names(examples: list[dict[str, Any]]) -> dict[str, str]:
    """Golden id -> unique name, numbering repeats in text order ("Chokestar 2")."""
    seen: Counter[str] = Counter()
    unique: dict[str, str] = {}
    for example in sorted(examples, key=_line_number):
        seen[example["name"]] += 1
        number = seen[example["name"]]
        unique[example["id"]] = example["name"] if number == 1 else f"{example['name']} {number}"
    return unique


def _latest_before(examples: list[dict[str, Any]], name: str, line: int) -> dict[str, Any]:
    earlier = [e for e in examples if e["name"] == name and _line_number(e) < line]
    return max(earlier, key=_line_number)


# --------------------------------------------------------------------------------------------
# The complete-system seed against the golden examples


def test_complete_system_finds_every_block(
    complete_system: dict[str, list[Definition]], golden: list[dict[str, Any]]
) -> None:
    kinds = Counter(e["kind"] for e in golden if _from_complete_system(e))
    minions = [m for c in complete_system["characters"] for m in c.get("minions", [])]

    assert list(complete_system) == ["characters", "vehicles"]
    assert len(complete_system["characters"]) == kinds["character"] == 22
    assert len(complete_system["vehicles"]) == kinds["vehicle"] == 2
    assert len(minions) == kinds["minion"] == 1


def test_complete_system_characters_match_golden(
    complete_system: dict[str, list[Definition]], golden: list[dict[str, Any]]
) -> None:
    from_seed = [e for e in golden if _from_complete_system(e)]
    unique = _unique_names(from_seed)
    expected = sorted((e for e in from_seed if e["kind"] == "character"), key=_line_number)

    assert [c["name"] for c in complete_system["characters"]] == [unique[e["id"]] for e in expected]
    for character, example in zip(complete_system["characters"], expected, strict=True):
        assert character.get("description", "") == example["description"]
        # Compare as item lists so the order of the text is checked too.
        assert list(character["abilities"].items()) == list(_expected_abilities(example).items())
        assert list(character["printed"].items()) == list(example["printed"].items())


def test_both_header_styles_are_read(complete_system: dict[str, list[Definition]]) -> None:
    styles = {tuple(c["printed"]) for c in complete_system["characters"]}
    assert styles == {("agility", "intelligence", "strength", "stamina"), ("defense", "stamina")}
    chokestars = [c for c in complete_system["characters"] if c["name"].startswith("Chokestar")]
    assert [c["printed"] for c in chokestars] == [
        {"agility": 13, "intelligence": 10, "strength": 12, "stamina": 1},
        {"defense": 13, "stamina": 1},
    ]


def test_thugs_are_minions_of_the_boss(
    complete_system: dict[str, list[Definition]], golden: list[dict[str, Any]]
) -> None:
    thugs = next(e for e in golden if e["id"] == "thugs")
    boss = next(c for c in complete_system["characters"] if c["name"] == thugs["minion_of"])
    assert "Thugs" not in [c["name"] for c in complete_system["characters"]]
    assert boss["minions"] == [
        {
            "name": "Thugs",
            "count": thugs["count"],
            "abilities": _expected_abilities(thugs),
            "description": thugs["description"],
            "printed": thugs["printed"],
        }
    ]
    assert list(boss) == ["name", "description", "abilities", "printed", "minions"]
    assert list(boss["minions"][0]) == ["name", "count", "abilities", "description", "printed"]


def test_complete_system_vehicles_match_golden(
    complete_system: dict[str, list[Definition]], golden: list[dict[str, Any]]
) -> None:
    from_seed = [e for e in golden if _from_complete_system(e)]
    unique = _unique_names(from_seed)
    expected = sorted((e for e in from_seed if e["kind"] == "vehicle"), key=_line_number)

    for vehicle, example in zip(complete_system["vehicles"], expected, strict=True):
        crew = {
            role: unique[_latest_before(from_seed, member["name"], _line_number(example))["id"]]
            for role, member in example["crew"].items()
        }
        assert vehicle == {
            "name": unique[example["id"]],
            "description": example["description"],
            "movement": "spaceflight",
            "abilities": _expected_abilities(example),
            "crew": crew,
            "printed": {
                **example["printed"],
                "crewed_abilities": example["printed_crewed_abilities"],
            },
        }
        assert list(vehicle) == [
            "name",
            "description",
            "movement",
            "abilities",
            "crew",
            "printed",
        ]
        assert list(vehicle["abilities"]) == list(example["abilities"])


def test_vehicle_crew_points_at_the_suffixed_blocks(
    complete_system: dict[str, list[Definition]],
) -> None:
    crews = {v["name"]: v["crew"] for v in complete_system["vehicles"]}
    assert crews == {
        "Sadisto": {"operator": "Chokestar 2", "gunner": "Flipfire 2"},
        "Final Horizon": {"operator": "Breakhelm X-19 2", "gunner": "Breakhelm X-19 2"},
    }
    names = {c["name"] for c in complete_system["characters"]}
    assert all(member in names for crew in crews.values() for member in crew.values())


def test_wiki_basic_rules_hold_the_same_current_blocks(
    shared: Path, complete_system: dict[str, list[Definition]]
) -> None:
    wiki = parse_stat_blocks(_seed(shared, BASIC_RULES_WIKI))
    current = [c for c in complete_system["characters"] if "agility" in c["printed"]]
    assert wiki == {"characters": current}


# --------------------------------------------------------------------------------------------
# Resilience communities


def test_resilience_communities_match_golden(shared: Path, golden: list[dict[str, Any]]) -> None:
    parsed = parse_stat_blocks(_seed(shared, RESILIENCE))
    expected = [e for e in golden if e["kind"] == "community"]

    assert list(parsed) == ["communities"]
    assert [c["name"] for c in parsed["communities"]] == [
        "New Manchester",
        "Happy Bunny Commune",
    ]
    for community, example in zip(parsed["communities"], expected, strict=True):
        assert community == {"name": example["name"], **_expected_abilities(example)}
    assert parsed["communities"][0]["economy"] == {"level": 15, "note": "factories"}


# --------------------------------------------------------------------------------------------
# Invented fixtures

WIKI_LIST = """\
A few townsfolk for the harbour chapter.

*'''Marigold Venn''' (12 agility, 11 intelligence, 10 strength, 2 stamina): hedge alchemist
**2 craftsmanship: brews smoke pellets
**1 healing
**4 toughness: leather apron
:Old Pell (11 defense, 1 stamina): retired lighthouse keeper
:    3 swimming: still braves the winter surf
:    3 toughness
That is everyone on the quay.
2 shooting: a stray line after the prose belongs to no block
"""


def test_wiki_list_items_and_indented_lines() -> None:
    parsed = parse_stat_blocks(WIKI_LIST)
    assert parsed == {
        "characters": [
            {
                "name": "Marigold Venn",
                "description": "hedge alchemist",
                "abilities": {
                    "craftsmanship": {"level": 2, "note": "brews smoke pellets"},
                    "healing": 1,
                    "toughness": {"level": 4, "note": "leather apron"},
                },
                "printed": {"agility": 12, "intelligence": 11, "strength": 10, "stamina": 2},
            },
            {
                "name": "Old Pell",
                "description": "retired lighthouse keeper",
                "abilities": {
                    "swimming": {"level": 3, "note": "still braves the winter surf"},
                    "toughness": 3,
                },
                "printed": {"defense": 11, "stamina": 1},
            },
        ]
    }


BARE_LINES = """\
Tumbleweed (10 agility, 10 intelligence, 13 strength, 2 stamina)
3 wrestling
4 toughness
"""


def test_bare_ability_lines_and_header_without_description() -> None:
    (character,) = parse_stat_blocks(BARE_LINES)["characters"]
    assert character == {
        "name": "Tumbleweed",
        "abilities": {"wrestling": 3, "toughness": 4},
        "printed": {"agility": 10, "intelligence": 10, "strength": 13, "stamina": 2},
    }


CREWED_BARGE = """\
Quill (10 agility, 10 intelligence, 10 strength, 1 stamina): courier on foot

2 quickness: knows every alley

2 toughness

Quill (12 defense, 1 stamina): the courier, years later, on the river

2 navigation: reads the current

3 toughness

Dart (11 defense, 1 stamina): lookout

3 shooting: long rifle

2 toughness

Mudlark (14 defense, 5 stamina): flat river barge

1 stalking (3 with Quill as navigator)

2 swimming (4 with Quill as navigator): shallow keel

1 guns (4 with Dart as gunner): deck swivel gun

10 toughness

Quill (11 defense, 1 stamina): an unrelated Quill met downstream

1 detection

1 toughness
"""


def test_repeated_names_and_crew_annotations() -> None:
    parsed = parse_stat_blocks(CREWED_BARGE)
    assert [c["name"] for c in parsed["characters"]] == ["Quill", "Quill 2", "Dart", "Quill 3"]
    (barge,) = parsed["vehicles"]
    assert barge == {
        "name": "Mudlark",
        "description": "flat river barge",
        "movement": "swimming",
        "abilities": {
            "stalking": 1,
            "swimming": {"level": 2, "note": "shallow keel"},
            "guns": {"level": 1, "note": "deck swivel gun"},
            "toughness": 10,
        },
        # The navigator is the Quill read last before the barge, not the first or the third.
        "crew": {"operator": "Quill 2", "gunner": "Dart"},
        "printed": {
            "defense": 14,
            "stamina": 5,
            "crewed_abilities": {"stalking": 3, "swimming": 4, "guns": 4},
        },
    }


SKIFFS = """\
Sandpiper (13 defense, 3 stamina): desert sand yacht
1 guns (3 with Bell as gunner): harpoon
2 quickness
3 land sailing: tall striped sail
6 toughness

Moth (12 defense, 2 stamina): a tiny solar kite
2 solar sailing: gossamer vanes
4 toughness
"""


def test_vehicle_movement_without_pilot_and_snake_case_names() -> None:
    sandpiper, moth = parse_stat_blocks(SKIFFS)["vehicles"]
    # No pilot annotation: the first movement ability listed is the one the vehicle uses.
    assert sandpiper["movement"] == "quickness"
    assert list(sandpiper["abilities"]) == ["guns", "quickness", "land_sailing", "toughness"]
    # A crew member with no block of that name keeps the name as written.
    assert sandpiper["crew"] == {"gunner": "Bell"}
    # No crew annotation at all: the vehicle-only ability alone marks it as a vehicle.
    assert moth["movement"] == "solar_sailing"
    assert "crew" not in moth
    assert moth["printed"] == {"defense": 12, "stamina": 2}


MINION_GROUPS = """\
Captain Ashgrove (10 agility, 14 intelligence, 10 strength, 1 stamina): harbour master
4 command: never goes ashore without three dockhands
2 toughness
Dockhands (10 agility, 10 intelligence, 10 strength, 0 stamina): burly and loyal
1 toughness: thick wool coats

Widow Crane (12 defense, 1 stamina): herbalist
2 command: travels with her apprentice
2 healing
Apprentice (11 defense, 0 stamina)
1 toughness

The ferry leaves at dawn.

Dockhands (10 agility, 10 intelligence, 10 strength, 0 stamina): a separate crew after the prose
1 toughness
"""


def test_minion_counts_from_the_leaders_note() -> None:
    ashgrove, crane, loose_crew = parse_stat_blocks(MINION_GROUPS)["characters"]
    assert ashgrove["minions"] == [
        {
            "name": "Dockhands",
            "count": 3,
            "abilities": {"toughness": {"level": 1, "note": "thick wool coats"}},
            "description": "burly and loyal",
            "printed": {"agility": 10, "intelligence": 10, "strength": 10, "stamina": 0},
        }
    ]
    # A mention with no number word means a single minion.
    assert crane["minions"] == [
        {
            "name": "Apprentice",
            "count": 1,
            "abilities": {"toughness": 1},
            "printed": {"defense": 11, "stamina": 0},
        }
    ]
    # Prose between the leader and a block breaks the link: this one stands alone.
    assert loose_crew["name"] == "Dockhands 2"
    assert "minions" not in loose_crew


NO_ABILITIES = """\
Hollow Name (12 defense, 1 stamina): an entry nobody finished

Make a command roll (difficulty 25): this is prose, not a header.

Hollow Name (10 agility, 10 intelligence, 10 strength, 1 stamina): the finished entry
2 toughness
"""


def test_header_without_abilities_is_skipped() -> None:
    # Documented choice: a header with no ability lines is dropped and claims no name.
    assert parse_stat_blocks(NO_ABILITIES) == {
        "characters": [
            {
                "name": "Hollow Name",
                "description": "the finished entry",
                "abilities": {"toughness": 2},
                "printed": {"agility": 10, "intelligence": 10, "strength": 10, "stamina": 1},
            }
        ]
    }


COMMUNITY_TERMS = """\
===Our Towns===

;Saltmarsh Landing
:6 economy: oyster beds
:12 environment
:12 equity: everyone takes a turn at the oars

:5 economy: a list with no name above it is not a community
"""


def test_definition_list_community_with_term_marker() -> None:
    assert parse_stat_blocks(COMMUNITY_TERMS) == {
        "communities": [
            {
                "name": "Saltmarsh Landing",
                "economy": {"level": 6, "note": "oyster beds"},
                "environment": 12,
                "equity": {"level": 12, "note": "everyone takes a turn at the oars"},
            }
        ]
    }


def test_text_without_stat_blocks_gives_nothing() -> None:
    assert parse_stat_blocks("") == {}
    assert parse_stat_blocks("Just a paragraph.\n\n3 toughness\n") == {}


# --------------------------------------------------------------------------------------------
# Writing YAML


def _load(text: str) -> Any:
    return YAML(typ="safe").load(io.StringIO(text))


def test_dump_round_trips_the_seeds(shared: Path) -> None:
    for seed in (COMPLETE_SYSTEM, RESILIENCE):
        data = parse_stat_blocks(_seed(shared, seed))
        assert _load(dump_definitions(data)) == data


@pytest.mark.parametrize(
    "fixture", [WIKI_LIST, CREWED_BARGE, SKIFFS, MINION_GROUPS, COMMUNITY_TERMS]
)
def test_dump_round_trips_fixtures(fixture: str) -> None:
    data = parse_stat_blocks(fixture)
    assert _load(dump_definitions(data)) == data


def test_dump_is_commented_block_style_in_schema_order() -> None:
    data = parse_stat_blocks(COMMUNITY_TERMS + "\n" + CREWED_BARGE)
    shuffled = {key: data[key] for key in ("communities", "vehicles", "characters")}
    text = dump_definitions(shuffled)

    assert text.startswith("# Imported")
    assert "{" not in text and "[" not in text  # block style throughout
    sections = [line for line in text.splitlines() if re.match(r"^[a-z]+:", line)]
    assert sections == ["characters:", "vehicles:", "communities:"]
    first = text.splitlines()[text.splitlines().index("characters:") + 1 :][:3]
    assert first == ["  - name: Quill", "    description: courier on foot", "    abilities:"]


# Text as a note or name may hold it: one line, as the parser produces (no line breaks).
_ONE_LINE = st.text(
    st.characters(
        codec="utf-8",  # no lone surrogates: they are not text a file can hold
        exclude_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    ),
    max_size=40,
)


@given(
    name=_ONE_LINE.filter(str.strip),
    note=_ONE_LINE,
    level=st.integers(min_value=0, max_value=30),
)
def test_dump_round_trips_awkward_strings(name: str, note: str, level: int) -> None:
    value: Any = {"level": level, "note": note} if note else level
    data: dict[str, list[Definition]] = {
        "characters": [
            {"name": name, "abilities": {"toughness": value}, "printed": {"defense": 10}}
        ],
        "communities": [{"name": name, "economy": value}],
    }
    assert _load(dump_definitions(data)) == data


_ABILITIES = ["shooting", "fighting", "stealth", "healing", "command", "quickness", "toughness"]
_BLOCK_NAME = st.from_regex(r"[A-Z][a-z]{1,8}( [A-Z][a-z.-]{0,8}){0,2}", fullmatch=True)
_NOTE = st.from_regex(r"[a-z][a-z ,.'()0-9-]{0,30}[a-z.]", fullmatch=True) | st.just("")


@given(
    name=_BLOCK_NAME,
    description=st.from_regex(r"[a-z][a-z ,;'-]{0,30}", fullmatch=True),
    old_style=st.booleans(),
    lines=st.lists(
        st.tuples(st.sampled_from(_ABILITIES), st.integers(1, 10), _NOTE),
        min_size=1,
        max_size=5,
        unique_by=lambda line: line[0],
    ),
)
def test_written_blocks_parse_back(
    name: str, description: str, old_style: bool, lines: list[tuple[str, int, str]]
) -> None:
    stats = (
        "12 defense, 1 stamina"
        if old_style
        else "11 agility, 10 intelligence, 12 strength, 1 stamina"
    )
    body = [
        f"{level} {ability}: {note}" if note else f"{level} {ability}"
        for ability, level, note in lines
    ]
    text = "\n\n".join([f"{name} ({stats}): {description}", *body])

    (character,) = parse_stat_blocks(text)["characters"]
    assert character["name"] == name
    assert character.get("description", "") == description.strip()
    assert character["abilities"] == {
        ability: {"level": level, "note": note.strip()} if note.strip() else level
        for ability, level, note in lines
    }


# -------------------- formerly tests/definitions/test_importer_wiki.py
# The importer reads the wiki's own pages: HTML line breaks, entities, feeds of revisions.
#
# The fixture ``fixtures/wiki-feed/ashfall-example-characters.txt`` is ours: three revisions
# of an invented "Example Characters" page, written the way the wiki's contributions feed
# carries a page (every line ends in a line break tag, characters are entities, each revision
# sits in a ``<div>``, newest first). It has a leader and a Thugs-style minion group, a
# vehicle with crew, a prose paragraph with a tag inside, a script element, a block that an
# older revision changed, a name clash, a header with nothing under it and a stray line.

FEED = Path(__file__).resolve().parent / "fixtures" / "wiki-feed" / "ashfall-example-characters.txt"
SEEDS = shared_location() / "seeds"


@pytest.fixture(scope="module")
def feed_text() -> str:
    return FEED.read_text(encoding="utf-8")


def _line_of(text: str, needle: str, after: str = "") -> int:
    """The file line (1-based) where ``needle`` first occurs, after ``after`` if given."""
    start = text.index(after) if after else 0
    return text.count("\n", 0, text.index(needle, start)) + 1


def _strings(value: Any) -> list[str]:
    """Every string in a definition, keys included."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (str(k), *_strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return [value] if isinstance(value, str) else []


# --------------------------------------------------------------------------------------------
# The feed fixture


def test_the_feed_gives_its_characters_with_clean_names(feed_text: str) -> None:
    data = read_stat_blocks(feed_text, "feed.txt").definitions
    names = [c["name"] for c in data["characters"]]
    assert names == ["Marrow & Quince", "Captain Ember Sollis", "Old Tam Rusk", "Pell Harrow"]
    marrow, ember, tam, pell = data["characters"]
    assert marrow["abilities"]["fighting"] == {"level": 3, "note": 'hooked staves "for the gate"'}
    assert marrow["printed"] == {"agility": 11, "intelligence": 10, "strength": 12, "stamina": 2}
    assert ember["description"] == "the pass warden\u2019s own commander"
    # The Thugs-style block under the leader is its minion group, counted from the note.
    assert ember["minions"] == [
        {
            "name": "Gate Wardens",
            "count": 3,
            "abilities": {"toughness": {"level": 1, "note": "padded gambesons"}},
            "description": "grey cloaks and lanterns on poles",
            "printed": {"agility": 10, "intelligence": 10, "strength": 10, "stamina": 0},
        }
    ]
    # <b> around the name is dropped; &lt;POISON&gt; is text, so it stays as written.
    assert tam == {
        "name": "Old Tam Rusk",
        "description": "retired mule driver who still drinks at the gate",
        "abilities": {
            "healing": {"level": 2, "note": "keeps a tin marked <POISON> full of mint"},
            "toughness": 3,
        },
        "printed": {"defense": 12, "stamina": 1},
    }
    assert pell["abilities"] == {
        "quickness": {"level": 3, "note": "takes the goat paths"},
        "stealth": 2,
        "toughness": 1,
    }
    (cart,) = data["vehicles"]
    assert cart["description"] == "a two-wheeled cart with a bell on the shaft"  # &nbsp;
    assert cart["crew"] == {"operator": "Old Tam Rusk", "gunner": "Captain Ember Sollis"}
    assert cart["printed"]["crewed_abilities"] == {"guns": 3, "quickness": 3}
    everything = _strings(data)
    assert not [s for s in everything if re.search(r"<(?:br|/?div|/?p|b|span)\b|&\w+;|'''", s)]


def test_the_newest_revision_wins_and_an_older_difference_is_reported(feed_text: str) -> None:
    result = read_stat_blocks(feed_text, "feed.txt")
    ember = result.definitions["characters"][1]
    # Revision 3 (first in the feed) has 12 intelligence and 3 shooting; revision 2 had 11
    # and 2, and is reported rather than silently dropped.
    assert ember["printed"]["intelligence"] == 12
    assert ember["abilities"]["shooting"]["level"] == 3
    older = _line_of(feed_text, "Sollis&#39;&#39;&#39; (10 agility, 11 intelligence")
    newest = _line_of(feed_text, "Sollis&#39;&#39;&#39; (10 agility, 12 intelligence")
    warnings = [str(p) for p in result.problems if p.severity == "warning"]
    assert warnings[0] == (
        f'feed.txt:{older}: warning: entry "Captain Ember Sollis": an older revision\'s block'
        f" differs from the one kept from line {newest}; the newest is kept, this one skipped"
    )
    # A standalone "Gate Wardens" in revision 1 would take the minion group's name.
    loose = _line_of(feed_text, "<p>Gate Wardens (")
    assert warnings[1].startswith(
        f'feed.txt:{loose}: warning: entry "Gate Wardens": a newer revision already has a'
        f" minion group of 'Captain Ember Sollis' of that name (line {newest})"
    )
    # Identical blocks are merged: Marrow & Quince (revision 2) and Old Tam Rusk (revision 1).
    assert result.merged == 2
    assert result.revisions == 3


def test_every_skipped_piece_is_reported_with_its_line(feed_text: str) -> None:
    result = read_stat_blocks(feed_text, "feed.txt")
    at = {
        "title 3": _line_of(feed_text, "revision 3 (newest)"),
        "intro": _line_of(feed_text, "<div>The keepers"),
        "bell": _line_of(feed_text, "When the <span"),
        "script": _line_of(feed_text, "<script>"),
        "unfinished": _line_of(feed_text, "Unfinished Rider"),
        "stray": _line_of(feed_text, "2 swimming"),
        "hound": _line_of(feed_text, "Hound ("),
    }
    notes = {p.line: p.message for p in result.problems if p.severity == "note"}
    assert notes[at["title 3"]] == (
        "skipped a line of prose, not a stat block: 'Ashfall:Example Characters, revision 3"
        " (newest)'"
    )
    assert notes[at["intro"]].startswith(
        f"skipped 2 lines of prose (to line {at['intro'] + 2}), not a stat block: 'The keepers"
    )
    # The <span> inside the paragraph is stripped, its word kept.
    assert notes[at["bell"]] == (
        "skipped a line of prose, not a stat block: 'When the bell over the toll house rings"
        " twice, the wardens c\u2026'"
    )
    assert notes[at["script"]] == "skipped a <script> element: it is not page text"
    assert notes[at["unfinished"]] == (
        "skipped the header of 'Unfinished Rider': no ability lines under it"
    )
    assert notes[at["stray"]] == (
        "skipped an ability line with no stat block header above it: '2 swimming: a stray"
        " line that belongs to nobody'"
    )
    assert notes[at["hound"]].startswith("skipped a line shaped like a header whose numbers")
    # In the order of the file, one line each, and counted in the summary.
    lines = [p.line or 0 for p in result.problems]
    assert lines == sorted(lines) and len(result.problems) == 14
    assert result.summary() == (
        "imported 4 characters, 1 minion group, 1 vehicle from 3 revisions; merged 2 blocks"
        " repeated in older revisions; skipped 14 pieces (1 ability line, 2 headers,"
        " 1 markup element, 1 name clash, 1 older block, 8 prose runs)"
    )


def test_the_feed_as_atom_entries_gives_the_same_definitions(feed_text: str) -> None:
    """The real feed is Atom: each revision's HTML escaped once more inside an entry."""
    revisions = re.findall(r"<div>.*?</div>", feed_text, re.DOTALL | re.IGNORECASE)
    assert len(revisions) == 3
    stamps = ["2024-05-03T10:00:00Z", "2024-05-02T10:00:00Z", "2024-05-01T10:00:00Z"]
    # Oldest first in the file: the entries are put in order by their updated time.
    entries = [
        f"<entry><title>Ashfall:Example Characters</title><updated>{stamp}</updated>"
        f'<summary type="html">{html.escape(revision)}</summary></entry>'
        for stamp, revision in reversed(list(zip(stamps, revisions, strict=True)))
    ]
    atom = '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom">\n'
    atom += "\n".join(entries) + "\n</feed>\n"
    result = read_stat_blocks(atom, "feed.xml")
    assert result.definitions == read_stat_blocks(feed_text).definitions
    assert result.revisions == 3 and result.merged == 2


def test_a_revision_copied_out_still_escaped_reads_the_same(feed_text: str) -> None:
    assert parse_stat_blocks(html.escape(feed_text)) == parse_stat_blocks(feed_text)


# --------------------------------------------------------------------------------------------
# Markup, piece by piece


@pytest.mark.parametrize(
    "brk", ["<br>", "<br/>", "<br />", "<BR>", '<br clear="all">', "</p><p>", "<li>", "\n"]
)
def test_every_spelling_of_a_line_break_ends_a_line(brk: str) -> None:
    text = f"Rook Vane (12 defense, 1 stamina): a scout{brk}2 stealth: quiet{brk}1 toughness{brk}"
    result = read_stat_blocks(text)
    (rook,) = result.definitions["characters"]
    assert rook["name"] == "Rook Vane" and rook["description"] == "a scout"
    assert rook["abilities"] == {"stealth": {"level": 2, "note": "quiet"}, "toughness": 1}


def test_lines_joined_by_breaks_keep_their_file_line() -> None:
    text = (
        "<div>Intro line.<br>\nRook (12 defense, 1 stamina): x<br>Some prose.<br>1 toughness</div>"
    )
    problems = read_stat_blocks(text, "page.html").problems
    assert [str(p) for p in problems] == [
        "page.html:1: note: skipped a line of prose, not a stat block: 'Intro line.'",
        "page.html:2: note: skipped the header of 'Rook': no ability lines under it",
        "page.html:2: note: skipped a line of prose, not a stat block: 'Some prose.'",
        "page.html:2: note: skipped an ability line with no stat block header above it:"
        " '1 toughness'",
    ]


def test_tags_are_dropped_never_obeyed() -> None:
    text = (
        '<div><a href="javascript:alert(1)">Moth</a> <img src="http://example.invalid/x.png"'
        ' onerror="alert(2)"> (12 defense, 1 stamina): a <span title="a>b">quiet</span> one<br>'
        "<style>body { color: red }</style><!-- an editor's comment -->"
        "<script src='http://example.invalid/x.js'>fetch('x')</script>"
        "2 stealth: &lt;b&gt;soft&lt;/b&gt; steps<br>1 toughness</div>"
    )
    result = read_stat_blocks(text)
    (moth,) = result.definitions["characters"]
    assert moth["name"] == "Moth"
    assert moth["description"] == "a quiet one"  # the quoted ">" did not end the tag
    assert moth["abilities"]["stealth"] == {"level": 2, "note": "<b>soft</b> steps"}
    kinds = [p.message for p in result.problems]
    assert kinds == [
        "skipped a <style> element: it is not page text",
        "skipped a <script> element: it is not page text",
    ]


def test_plain_text_with_an_ampersand_or_angle_bracket_stays_plain() -> None:
    text = "R&D Crew (12 defense, 1 stamina): builds <things>\n2 craftsmanship\n"
    (crew,) = parse_stat_blocks(text)["characters"]
    assert crew["name"] == "R&D Crew" and crew["description"] == "builds <things>"


def test_a_header_with_nothing_under_it_is_reported_in_plain_text_too() -> None:
    text = "Hollow (12 defense, 1 stamina): unfinished\n\nMake a roll (difficulty 25).\n"
    assert [str(p) for p in read_stat_blocks(text, "npcs.txt").problems] == [
        "npcs.txt:1: note: skipped the header of 'Hollow': no ability lines under it",
        "npcs.txt:3: note: skipped a line of prose, not a stat block: 'Make a roll (difficulty"
        " 25).'",
    ]


# --------------------------------------------------------------------------------------------
# The command


def test_import_lists_what_it_skipped_and_sums_it_up(cli: Any, tmp_path: Path) -> None:
    (tmp_path / "feed.txt").write_text(FEED.read_text(encoding="utf-8"), encoding="utf-8")
    result = cli("import", "feed.txt", "-o", "campaign/imported.yaml")
    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    assert sum(": note: " in line for line in lines) == 12
    assert sum(": warning: " in line for line in lines) == 2
    assert all(line.startswith(("feed.txt:", "wrote ")) for line in lines)
    assert "feed.txt: imported 4 characters, 1 minion group, 1 vehicle from 3 revisions" in (
        result.stderr
    )
    campaign = load_campaign([tmp_path / "campaign"])
    assert [c.name for c in campaign.characters] == [
        "Marrow & Quince",
        "Captain Ember Sollis",
        "Old Tam Rusk",
        "Pell Harrow",
    ]


def test_import_of_prose_alone_says_what_it_skipped_and_writes_nothing(cli: Any) -> None:
    Path("notes.html").write_text("<p>Nothing &amp; nobody here.</p>\n", encoding="utf-8")
    result = cli("import", "notes.html", "-o", "out.yaml")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "notes.html:1: note: skipped a line of prose, not a stat block: 'Nothing & nobody here.'",
        "notes.html: no stat blocks found (expected lines like 'Name (13 agility, ...): ...')",
        "1 error; nothing was written.",
    ]
    assert not Path("out.yaml").exists()


# --------------------------------------------------------------------------------------------
# Against the rule texts (skipped without the shared folder)

needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"needs the rule texts at {SEEDS}")


@needs_seeds
def test_the_wiki_markup_revision_reads_like_its_plain_text() -> None:
    markup = (SEEDS / "scratch-basic-rules-wiki-markup.txt").read_text(encoding="utf-8")
    plain = (SEEDS / "scratch-basic-rules-2011-06-22.txt").read_text(encoding="utf-8")
    result = read_stat_blocks(markup)
    assert result.definitions == parse_stat_blocks(plain)
    assert len(result.definitions["characters"]) == 5
    assert [m["name"] for c in result.definitions["characters"] for m in c.get("minions", [])] == [
        "Thugs"
    ]
    assert not [s for s in _strings(result.definitions) if "<" in s or "&" in s]


def _words(text: str) -> list[str]:
    return re.findall(
        r"[a-z]+(?:'[a-z]+)?|\d+", html.unescape(re.sub(r"<[^>]+>", " ", text)).lower()
    )


@needs_seeds
def test_the_fixture_is_in_our_own_words() -> None:
    """No run of six words shared with the rule texts, but for stat lines (numbers are facts)."""
    theirs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        words = _words(seed.read_text(encoding="utf-8"))
        theirs.update(tuple(words[i : i + 6]) for i in range(len(words) - 5))
    ours = _words(FEED.read_text(encoding="utf-8"))
    runs = {tuple(ours[i : i + 6]) for i in range(len(ours) - 5)}
    assert sorted(" ".join(r) for r in runs & theirs if not any(w.isdigit() for w in r)) == []


# --------------------------------------------------------------------------------------------
# The corpus: blocks as people type them
#
# ``fixtures/importer/`` holds blocks we wrote in the books' format, each with one variation
# people make (a dash for the colon, a header without stamina, a remark in parentheses, a
# no-break space pasted from a web page...). Beside each ``NN-case.txt`` is the YAML it must
# give (``NN-case.yaml``) and, where a line cannot go into the YAML, the notes it must print
# (``NN-case.notes``, one per line).

CORPUS = Path(__file__).resolve().parent / "fixtures" / "importer"
CORPUS_CASES = sorted(CORPUS.glob("*.txt"))


def _expected_yaml(case: Path) -> Any:
    return _load(case.with_suffix(".yaml").read_text(encoding="utf-8")) or {}


@pytest.mark.parametrize("case", CORPUS_CASES, ids=[case.stem for case in CORPUS_CASES])
def test_the_corpus_reads_every_block(case: Path) -> None:
    result = read_stat_blocks(case.read_text(encoding="utf-8"), case.name)
    expected = _expected_yaml(case)
    # As JSON text, so the order of sections, keys and abilities is checked too.
    assert json.dumps(result.definitions) == json.dumps(expected)
    notes = case.with_suffix(".notes")
    wanted = notes.read_text(encoding="utf-8").splitlines() if notes.exists() else []
    assert [str(p) for p in result.problems] == wanted
    assert _load(dump_definitions(result.definitions)) == result.definitions


def test_the_corpus_has_at_least_forty_blocks_and_all_of_them_load(tmp_path: Path) -> None:
    blocks = 0
    for case in CORPUS_CASES:
        data = _expected_yaml(case)
        blocks += sum(len(items) for items in data.values())
        blocks += sum(len(c.get("minions", [])) for c in data.get("characters", []))
        (tmp_path / case.with_suffix(".yaml").name).write_text(
            case.with_suffix(".yaml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    assert len(CORPUS_CASES) >= 40 and blocks >= 40
    campaign = load_campaign([tmp_path])
    assert not campaign.warnings
    assert len(campaign.characters) + len(campaign.vehicles) + len(campaign.communities) >= 40


def test_the_issue_s_variations_read_like_the_plain_block() -> None:
    """The five shapes the issue found missed, each read as the same plain block."""
    plain = (
        "Nia Cole (12 agility, 10 intelligence, 11 strength, 1 stamina): a scout\n2 stealth: soft"
    )
    variants = [
        "Nia Cole ( 12 agility, 10 intelligence, 11 strength, 1 stamina ): a scout\n2 stealth: soft",
        "Nia Cole (12 agility, 10 intelligence, 11 strength, 1 stamina) \u2013 a scout\n"
        "2 stealth \u2013 soft",
        "Nia Cole (12 agility, 10 intelligence, 11 strength, 1 stamina) \u2014 a scout\n"
        "2 stealth\u2014soft",
        "Nia Cole (12 agility, 10 intelligence, 11 strength, 1 stamina) - a scout\n"
        "2 stealth - soft",
        "Nia\u00a0Cole (12 agility, 10 intelligence, 11 strength, 1 stamina): a scout\n"
        "2 stealth: soft",
    ]
    expected = parse_stat_blocks(plain)
    for text in variants:
        assert parse_stat_blocks(text) == expected, text
    (no_stamina,) = parse_stat_blocks(
        "Nia Cole (12 agility, 10 intelligence, 11 strength): a scout\n2 stealth: soft"
    )["characters"]
    assert no_stamina["printed"] == {"agility": 12, "intelligence": 10, "strength": 11}


def test_unknown_abilities_and_level_zero_are_notes_not_yaml() -> None:
    text = "Ash Penn (12 defense, 1 stamina): a lookout\n2 sneaking\n0 toughness\n2 detection\n"
    result = read_stat_blocks(text, "npcs.txt")
    assert result.definitions["characters"][0]["abilities"] == {"detection": 2}
    assert [str(p) for p in result.problems] == [
        "npcs.txt:2: note: entry \"Ash Penn\": skipped '2 sneaking': 'sneaking' is not an"
        " ability a character can have",
        "npcs.txt:3: note: entry \"Ash Penn\": skipped '0 toughness': level 0 means no"
        " toughness at all, so there is nothing to write",
    ]


def test_a_bare_hyphen_before_a_number_is_not_a_bullet() -> None:
    text = "Ash Penn (12 defense, 1 stamina): a lookout\n-2 toughness\n2 detection\n"
    result = read_stat_blocks(text)
    # "-2 toughness" is not a level of 2: the block ends there and the line is reported.
    assert result.definitions == {}
    assert [p.line for p in result.problems] == [1, 2, 3]


@needs_seeds
def test_the_corpus_is_in_our_own_words() -> None:
    theirs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        words = _words(seed.read_text(encoding="utf-8"))
        theirs.update(tuple(words[i : i + 6]) for i in range(len(words) - 5))
    shared: list[str] = []
    for case in CORPUS_CASES:
        ours = _words(case.read_text(encoding="utf-8"))
        runs = {tuple(ours[i : i + 6]) for i in range(len(ours) - 5)}
        shared += [" ".join(r) for r in runs & theirs if not any(w.isdigit() for w in r)]
    assert sorted(shared) == []
