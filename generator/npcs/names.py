"""Names: of people (unique, least used first), of beasts, and of the bands a big roster is
split into without --group.

A given or family name never comes back before its list is used up; a full name never
repeats: one that would carries a numeral, "Mara Voss II". When a list does run out, the
roster says so once (:func:`name_note`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from random import Random

from .content import name_lists
from .drawing import Fresh, below
from .spec import BAND_SIZE, Band, Npc

_ROMAN = (
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
)  # fmt: skip


def roman(number: int) -> str:
    """2 -> "II": how a second bearer of a name is told apart, as in a family line."""
    out = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def numbered(name: str, taken: Collection[str]) -> str:
    """``name`` with the first numeral not taken yet: "Mara Voss II", then "III"."""
    number = 2
    while f"{name} {roman(number)}" in taken:
        number += 1
    return f"{name} {roman(number)}"


class Names:
    """Unique full names. The given name and the family name are each drawn least used
    first, so neither repeats before its list is used up; after that they come back in new
    pairings. A full name that is taken anyway gets a numeral (:func:`_numbered`)."""

    def __init__(self, prefix: str, avoid: Sequence[str] = ()) -> None:
        self.prefix = prefix
        self.taken: set[str] = set(avoid)
        self.given, self.family = Fresh(), Fresh()
        self.reused = 0  # NPCs whose given or family name was already in the roster
        lists = name_lists()
        # The campaign's own people count as uses: the new roster avoids their names too.
        for name in avoid:
            words = name.split()
            self.given.uses.update(w for w in dict.fromkeys(words) if w in lists.given)
            self.family.uses.update(f for f in lists.family if name.endswith(f" {f}"))

    def draw(self, rng: Random) -> tuple[str, str]:
        lists = name_lists()
        given = self.given.pick(rng, lists.given)
        # A family name that makes a taken full name is passed over while another is left.
        clashing = [f for f in lists.family if self._full(given, f) in self.taken]
        family = self.family.pick(rng, lists.family, exclude=clashing)
        if self.given.uses[given] > 1 or self.family.uses[family] > 1:
            self.reused += 1
        name = self._full(given, family)
        if name in self.taken:
            name = numbered(name, self.taken)
        self.taken.add(name)
        return name, given

    def _full(self, given: str, family: str) -> str:
        name = f"{given} {family}"
        return f"{self.prefix} {name}" if self.prefix else name


class BeastNames:
    """An animal's name from its archetype's list ("Torn Ear"), least used first, numbered
    once the list is used up; ``taken`` is shared with the people's names."""

    def __init__(self, prefix: str, taken: set[str]) -> None:
        self.prefix, self.taken, self.fresh = prefix, taken, Fresh()

    def draw(self, rng: Random, names: Sequence[str]) -> str:
        name = self.fresh.pick(rng, names)
        name = f"{self.prefix} {name}" if self.prefix else name
        if name in self.taken:
            name = numbered(name, self.taken)
        self.taken.add(name)
        return name


def band_name(seed: int | str) -> str:
    """The default group name of a small roster (the first band of any roster)."""
    return band_plan(seed, 1)[0].name


def _band_size(rng: Random, remaining: int) -> int:
    """The next band's size, 6 to 12: up to 12 NPCs left are one band; a remainder too
    small to be a band of its own is shared with the band before it."""
    least, most = BAND_SIZE
    if remaining <= most:
        return remaining
    size = least + below(rng, most - least + 1)
    if remaining - size < least:
        size = remaining // 2  # 13 to 17 left: two bands of 6 to 9
    return size


def band_plan(seed: int | str, count: int) -> tuple[Band, ...]:
    """The default initiative groups: their own random stream, so giving --group changes
    no NPC. Band names are distinct, their two words drawn least used first. Each band's
    size and name are drawn in turn, so a bigger count keeps the bands before its last."""
    bands = name_lists().bands
    rng = Random(f"band:{seed}")
    firsts, seconds = Fresh(), Fresh()
    taken: set[str] = set()
    out: list[Band] = []
    remaining = count
    while remaining > 0:
        size = _band_size(rng, remaining)
        remaining -= size
        name = ""
        for _ in range(len(bands.first) * len(bands.second)):
            name = f"The {firsts.pick(rng, bands.first)} {seconds.pick(rng, bands.second)}"
            if name not in taken:
                break
        else:  # every pairing taken (only with tiny lists): number it, as names are
            name = numbered(name, taken)
        taken.add(name)
        out.append(Band(name, size))
    return tuple(out)


def name_note(npcs: Sequence[Npc]) -> str | None:
    """One sentence when the name lists ran out, None while every name is fresh."""
    reused = [npc for npc in npcs if npc.name_reused]
    if not reused:
        return None
    lists = name_lists()
    return (
        f"the name lists ({len(set(lists.given))} given, {len(set(lists.family))} family"
        f" names) ran out at {reused[0].name}: {plural_npcs(len(reused))} share a given or"
        " family name with someone else in the roster or campaign (full names stay unique;"
        " one that would repeat carries a numeral, like II)"
    )


def plural_npcs(count: int) -> str:
    return f"{count} NPC" if count == 1 else f"{count} NPCs"
