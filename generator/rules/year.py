"""The Resilience year: which events strike, drawn without repeats (RULES.md §14).

Pure and reproducible: ``random.Random(seed)`` samples the sorted event ids, so one seed
gives the same events on every machine, however a campaign's files are ordered.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Protocol, TypeVar


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


E = TypeVar("E", bound=_HasId)


def seed_value(text: str) -> int | str:
    """``--seed 42`` seeds with the number 42; any other text (``--seed weir``) with the text."""
    stripped = text.strip()
    return int(stripped) if re.fullmatch(r"[+-]?\d+", stripped) else stripped


def draw_events(events: Sequence[E], years: int, seed: int | str) -> list[E]:
    """``years`` different events, the same for one seed on every machine and run.

    Sampling the sorted ids (not the file order) keeps a draw stable when a campaign's
    files are reordered; ``random.Random`` is seeded the same way on every platform.
    """
    by_id = {e.id: e for e in events}
    if years < 1:
        raise ValueError(f"--years must be 1 or more, not {years}")
    if years > len(by_id):
        raise ValueError(
            f"--years {years} asks for more events than the {len(by_id)} there are"
            " to draw without repeats"
        )
    picked = random.Random(seed).sample(sorted(by_id), years)
    return [by_id[i] for i in picked]
