"""Our words are our own: nothing we ship repeats a run of six words of the rule texts.

Numbers, formulas and tables are facts and may be reproduced; prose must be ours. So a run
of six words shared with the rule texts (../shared/seeds) is a failure unless it is a fact:
it holds a number (a stat line such as "3 spaceflight (5 with Chokestar as pilot)") or is
made only of the game's own terms (ability names, the three E's, card suits and colours).
The check reads every file we write text in: content, the example campaign, templates,
docs and the Python sources (messages, help, notes).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from scratchpress.rules.abilities import CHARACTER_CATEGORIES
from scratchpress.rules.community import DEFENSES

from conftest import shared_location

ROOT = Path(__file__).resolve().parents[1]
SEEDS = shared_location() / "seeds"
RUN = 6
OURS = [
    "generator/**/*.py",
    "generator/content/**/*.yaml",
    "generator/content/**/*.md",
    "generator/content/**/*.toml",
    "examples/**/*.yaml",
    "examples/**/*.md",
    "templates/**/*.html",
    "docs/*.md",
    "README.md",
]
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+")


def _words(text: str) -> list[str]:
    return _WORD.findall(html.unescape(re.sub(r"<[^>]+>", " ", text)).lower())


def _terms() -> set[str]:
    abilities = {a for group in CHARACTER_CATEGORIES.values() for a in group}
    suits = {"clubs", "spades", "hearts", "diamonds", "blue", "green", "yellow", "red"}
    stats = {"agility", "intelligence", "strength", "stamina", "hp", "cp", "and", "or"}
    return abilities | set(DEFENSES) | suits | stats


def _is_fact(run: tuple[str, ...], terms: set[str]) -> bool:
    return any(word.isdigit() for word in run) or all(word in terms for word in run)


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"needs the rule texts at {SEEDS}")
def test_nothing_we_ship_repeats_six_words_of_the_rule_texts() -> None:
    theirs: set[tuple[str, ...]] = set()
    for seed in SEEDS.glob("*.txt"):
        words = _words(seed.read_text(encoding="utf-8"))
        theirs.update(tuple(words[i : i + RUN]) for i in range(len(words) - RUN + 1))
    terms = _terms()
    shared: dict[str, list[str]] = {}
    files = sorted({p for pattern in OURS for p in ROOT.glob(pattern)})
    assert len(files) > 50
    for path in files:
        words = _words(path.read_text(encoding="utf-8"))
        for i in range(len(words) - RUN + 1):
            run = tuple(words[i : i + RUN])
            if run in theirs and not _is_fact(run, terms):
                shared.setdefault(str(path.relative_to(ROOT)), []).append(" ".join(run))
    assert shared == {}
