"""``build --watch`` re-parses only the entry an edit touched (``ParseMemo``); whatever the
edit, the result must be exactly what parsing the whole file gives: the same data, the same
line for every value, the same errors."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scratchpress.definitions.yamlsafe import ParseMemo, load_yaml
from scratchpress.problems import InputError

FILE = "campaign/events.yaml"


def events(count: int) -> str:
    entries = "".join(
        f"  - id: event-{i}\n"
        f"    title: Event {i}\n"
        f"    damage: {1 + i % 3}\n"
        "    story: >-\n"
        f"      Line one of story {i}.\n"
        "      Line two.\n"
        for i in range(count)
    )
    return "characters:\n  - name: Ada\n    abilities: {toughness: 2}\nevents:\n" + entries


def outcome(text: str, memo: ParseMemo | None = None) -> Any:
    try:
        return load_yaml(text, FILE, memo)
    except InputError as err:
        return [str(p) for p in err.problems]


def memo_after(text: str) -> ParseMemo:
    memo = ParseMemo()
    load_yaml(text, FILE, memo)
    return memo


def test_an_edit_inside_one_event_is_spliced_and_equals_a_whole_parse() -> None:
    before = events(20)
    after = before.replace("title: Event 7\n", "title: Event seven, renamed\n    note: new key\n")
    memo = memo_after(before)
    assert outcome(after, memo) == outcome(after)
    data, positions = load_yaml(after, FILE, memo)
    assert data["events"][7]["note"] == "new key"
    assert positions[("events", 8, "title")] == positions[("events", 7, "title")] + 7


def test_the_splice_really_happens() -> None:
    """Only the edited entry is parsed: the memo's parse of one entry counts few values."""
    before = events(50)
    memo = memo_after(before)
    whole = memo.files[FILE].nodes
    spliced = memo.splice(before.replace("Event 30\n", "Event 30b\n"), FILE)
    assert spliced is not None
    assert spliced[0]["events"][30]["title"] == "Event 30b"
    assert 0 < memo.files[FILE].nodes - whole < 20


@pytest.mark.parametrize(
    "edit",
    [
        ("title: Event 3\n", "title: Event 3\n  - id: inserted\n"),  # a new entry
        ("    damage: 2\n", "damage: 2\n"),  # dedented out of its entry
        ("    title: Event 4\n", "    title: [unclosed\n"),  # a syntax error
        ("    title: Event 5\n", "    title: &t Event 5\n"),  # an anchor
        ("    title: Event 6\n", "\ttitle: Event 6\n"),  # a tab
        ("events:\n", "events:\n  - id: first\n"),  # before the first entry
        ("  - id: event-9\n", "  -   id: event-9\n"),  # the item's own line, re-indented
    ],
)
def test_edits_that_reach_outside_an_entry_are_parsed_whole(edit: tuple[str, str]) -> None:
    before = events(12)
    after = before.replace(*edit, 1)
    assert after != before
    assert outcome(after, memo_after(before)) == outcome(after)


@settings(max_examples=60, deadline=None)
@given(
    line=st.integers(min_value=0, max_value=60),
    replacement=st.sampled_from(
        [
            "",
            "    extra: 1\n",
            "    title: Other\n",
            "  - id: new-entry\n",
            "      more story\n",
            "bad: [\n",
            "    title: *alias\n",
            "# a comment\n",
            "\n",
            "    damage: two\n",
        ]
    ),
    delete=st.booleans(),
)
def test_any_one_line_edit_gives_what_a_whole_parse_gives(
    line: int, replacement: str, delete: bool
) -> None:
    before = events(8)
    lines = before.splitlines(keepends=True)
    at = min(line, len(lines) - 1)
    lines[at : at + (1 if delete else 0)] = [replacement]
    after = "".join(lines)
    memo = memo_after(before)
    assert outcome(after, memo) == outcome(after)
    # and the memo stays right for the edit after that
    again = after.replace("Event 2\n", "Event 2 again\n")
    assert outcome(again, memo) == outcome(again)


@settings(max_examples=200, deadline=None)
@given(
    old=st.lists(st.sampled_from(["a", "ab", "b", "", "  - x", "a b"]), max_size=8),
    new=st.lists(st.sampled_from(["a", "ab", "b", "", "  - x", "a b"]), max_size=8),
)
def test_unchanged_lines_are_counted_as_a_line_by_line_comparison_would(
    old: list[str], new: list[str]
) -> None:
    from scratchpress.definitions.yamlsafe import _unchanged_lines

    a, b = "".join(f"{line}\n" for line in old), "".join(f"{line}\n" for line in new)
    first = 0
    while first < min(len(old), len(new)) and old[first] == new[first]:
        first += 1
    last = 0
    while last < min(len(old), len(new)) - first and old[-1 - last] == new[-1 - last]:
        last += 1
    assert _unchanged_lines(a, b) == (first, last)
