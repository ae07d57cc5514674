"""The terminal gate's escaping (``safe_lines``, ``safe_json``): what a campaign's text may
hold that a terminal would act on is shown escaped, in text and in JSON alike, and nothing
else changes. (``safe_text`` and ``safe_message`` are tested with the YAML reader, in
tests/definitions/test_yamlsafe.py.)"""

from __future__ import annotations

import json
import re

from scratchpress.problems import safe_json, safe_lines

# ESC with an OSC title (ended by BEL), a CSI colour, a C1 CSI, DEL, a right-to-left override
# and a line separator: each would retitle the window, recolour or reorder what follows.
HOSTILE = "Ann\x1b]0;pwned\x07\x1b[31m\x9b2J\x7f\u202eevil\u2028"
# What no terminal line from us may hold raw (the line break between lines aside).
RAW = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def test_safe_lines_escapes_each_line_and_keeps_the_line_breaks() -> None:
    shown = safe_lines(f"{HOSTILE} (10 agility)\n2 toughness\n")
    assert shown == (
        "Ann\\x1b]0;pwned\\x07\\x1b[31m\\x9b2J\\x7f\\u202eevil\\u2028 (10 agility)\n2 toughness\n"
    )
    assert not RAW.search(shown)


def test_safe_lines_leaves_ordinary_text_alone() -> None:
    text = "Hestér Ünïcødé 日本 😀: a tyre iron\n\n  Threat      siege"
    assert safe_lines(text) == text


def test_safe_lines_shows_a_carriage_return_and_a_tab() -> None:
    # A carriage return would let a name print over the start of its own line.
    assert safe_lines("Ann\rEvil\tx") == "Ann\\rEvil\\tx"


def test_safe_json_escapes_what_json_leaves_raw_and_reads_back_the_same() -> None:
    value = [{"name": HOSTILE, "note": "Ünïcødé 日本", "n": 3}]
    shown = safe_json(value)
    assert not RAW.search(shown)
    assert "\\u009b2J\\u007f\\u202eevil\\u2028" in shown  # C1, DEL, bidi, line separator
    assert "Ünïcødé 日本" in shown  # kept readable, not \u escapes
    assert json.loads(shown) == value


def test_safe_json_is_json_dumps_for_ordinary_values() -> None:
    value = {"name": "Lantern Weir", "levels": [1, 2], "note": 'a "quoted" word\nnext'}
    assert safe_json(value) == json.dumps(value, indent=2, ensure_ascii=False)
