"""Deterministic drawing: integers only, and least used first.

Everything random comes from one ``random.Random(seed)`` (seed: an int, or any text), and
only through :func:`below`, i.e. ``Random.randrange`` on whole numbers. Its output for a
given seed has been the same since Python 3.2 on every platform, so a seed gives the same
roster file everywhere. Weighted picks walk integer cumulative weights (no floats, no
``random.choices``), and no set order or ``hash()`` ever decides anything.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from random import Random
from typing import TypeVar

T = TypeVar("T")


def below(rng: Random, n: int) -> int:
    """0 <= k < n. ``randrange`` on an int: the same numbers for a seed on every machine."""
    return rng.randrange(n)


def pick(rng: Random, items: Sequence[T]) -> T:
    return items[below(rng, len(items))]


def pick_weighted(rng: Random, items: Sequence[T], weights: Sequence[int]) -> T:
    """One item, with probability weight / total, by walking integer cumulative weights."""
    total = sum(weights)
    if total <= 0:
        return pick(rng, items)
    roll = below(rng, total)
    for item, weight in zip(items, weights, strict=True):
        if roll < weight:
            return item
        roll -= weight
    raise AssertionError("unreachable: roll < total")


_TRAIT_OPENING = re.compile(r"^(?:who|with) ")


def _said(phrase: str) -> str:
    """What a phrase says, whatever its opening: the trait "who likes a crowd to aim at" and
    the note "likes a crowd to aim at" are one phrase to a reader."""
    return _TRAIT_OPENING.sub("", phrase)


class Fresh:
    """Least-used-first drawing over one roster: the phrases of a pool used fewest times so
    far, one of them at random. Uses are counted by what a phrase says, so a phrase two pools
    share (an archetype's note and the shared one, a trait and a note) is counted once."""

    def __init__(self) -> None:
        self.uses: Counter[str] = Counter()

    def pick(self, rng: Random, items: Sequence[str], exclude: Collection[str] = ()) -> str:
        """One of the least used ``items`` (file order, a repeated entry counted once),
        skipping ``exclude`` (what this NPC already says) while anything else is left."""
        pool = list(dict.fromkeys(items))
        pool = [item for item in pool if item not in exclude] or pool
        fewest = min(self.uses[_said(item)] for item in pool)
        chosen = pick(rng, [item for item in pool if self.uses[_said(item)] == fewest])
        self.uses[_said(chosen)] += 1
        return chosen


def seed_value(text: str) -> int | str:
    """``--seed 42`` seeds with the number 42, ``--seed goblins`` with the text."""
    stripped = text.strip()
    return int(stripped) if re.fullmatch(r"[+-]?\d{1,30}", stripped) else stripped
