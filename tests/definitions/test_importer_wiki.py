"""The importer reads the wiki's own pages: HTML line breaks, entities, feeds of revisions.

The fixture ``fixtures/wiki-feed/ashfall-example-characters.txt`` is ours: three revisions
of an invented "Example Characters" page, written the way the wiki's contributions feed
carries a page (every line ends in a line break tag, characters are entities, each revision
sits in a ``<div>``, newest first). It has a leader and a Thugs-style minion group, a
vehicle with crew, a prose paragraph with a tag inside, a script element, a block that an
older revision changed, a name clash, a header with nothing under it and a stray line.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.importer import parse_stat_blocks, read_stat_blocks

from conftest import shared_location

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
