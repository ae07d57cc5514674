"""Which computed values a book may print beside an entry (its ``printed:`` keys), for
each kind of stat block, whichever ruleset computes them: what `check` compares, and what
the editor schema offers. Also what `check` knows about the books' own numbers: the
misprints no rule text explains, which ruleset a campaign's printed values fit best, and
the words each ruleset's text prints an ability under."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from . import CharacterStats, CommunityStats, VehicleStats

# Values a book may print for each kind, whichever ruleset computes them.
PRINTABLE: dict[type, tuple[str, ...]] = {
    CharacterStats: (
        "agility",
        "intelligence",
        "strength",
        "defense",
        "stamina",
        "hit_points",
        "initiative_bonus",
        "cp",
    ),
    VehicleStats: (
        "defense",
        "stamina",
        "hit_points",
        "initiative_bonus",
        "defense_uncrewed",
        "defense_evading",
        "fuel",
        "crewed_abilities",
    ),
    CommunityStats: ("economy", "environment", "equity"),
}


@dataclass(frozen=True)
class Misprint:
    """A number a published example prints that no formula of any revision gives
    (RULES.md I-3, I-5): the block's name, the value, what the book prints and what the
    rules give for the abilities the block lists."""

    name: str
    value: str
    printed: int
    rules_give: int


KNOWN_MISPRINTS: tuple[Misprint, ...] = (
    # I1 and I2 both give 10 + command 4; nothing gives 11.
    Misprint("The Boss", "intelligence", 11, 14),
    # D1 gives 10 + flying 5; no variant of the single defense gives 11.
    Misprint("Psikosys", "defense", 11, 15),
)


def known_misprint(name: str, value: str, printed: int, ours: int) -> Misprint | None:
    """The published misprint this mismatch is, if it is one. The abilities must be the
    book's too (the rules give the number they give for the book's block), so a GM's own
    "The Boss" with an 11 of their own is still compared as usual."""
    key = " ".join(name.split()).casefold()
    for misprint in KNOWN_MISPRINTS:
        numbers = (misprint.value, misprint.printed, misprint.rules_give)
        if misprint.name.casefold() == key and numbers == (value, printed, ours):
            return misprint
    return None


# How each ruleset's own text names a character ability, where it differs from the
# current one: the Example Characters chapters still print the umbrella "stalking".
ABILITY_WORDS: dict[str, Mapping[str, str]] = {"classic": {"stealth": "stalking"}}


def ability_word(ability: str, ruleset: str) -> str:
    """The name an ability is printed under in ``ruleset``'s vocabulary."""
    return ABILITY_WORDS.get(ruleset, {}).get(ability, ability)


def in_vocabulary(text: str, ruleset: str) -> str:
    """A rule line or a warning about a character ("agility 13 = 10 + stealth 3") with
    each ability named as ``ruleset``'s text names it."""
    words = ABILITY_WORDS.get(ruleset)
    if not words:
        return text
    return _words_pattern(ruleset).sub(lambda match: words[match.group()], text)


@cache
def _words_pattern(ruleset: str) -> re.Pattern[str]:
    """Any ability ``ruleset``'s text names in its own word (one pattern per ruleset: the
    preview words every printed number's trace with it)."""
    words = ABILITY_WORDS[ruleset]
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\b")


def comparable(stats: CharacterStats, printed: Mapping[str, object]) -> dict[str, int]:
    """The printed header values a ruleset's stats can be held to: whole numbers of keys
    the ruleset computes."""
    return {
        key: value
        for key, value in printed.items()
        if isinstance(value, int) and key in PRINTABLE[CharacterStats]
        if stats.value(key) is not None
    }


def reproduced(stats: CharacterStats, printed: Mapping[str, object]) -> int:
    """How many printed values ``stats`` gives exactly (a known misprint never counts:
    no ruleset gives it)."""
    return sum(1 for key, value in comparable(stats, printed).items() if stats.value(key) == value)


@dataclass
class PrintedTally:
    """Printed values across a campaign: how many the chosen ruleset compared, which ones
    it could not (it does not compute them), and how many of the characters' values each
    ruleset reproduces, for the hint that another ruleset fits better."""

    ruleset: str
    compared: int = 0
    uncompared: int = 0
    not_computed: set[str] = field(default_factory=set)
    reproduced: dict[str, int] = field(default_factory=dict)
    character_values: int = 0

    def count(self, printed: Mapping[str, object], under: Mapping[str, CharacterStats]) -> None:
        """One character's printed values, with its stats under every ruleset by name."""
        numbers = {k: v for k, v in printed.items() if isinstance(v, int)}
        self.character_values += len(numbers)
        for ruleset, stats in under.items():
            self.reproduced[ruleset] = self.reproduced.get(ruleset, 0) + reproduced(stats, numbers)

    def better_fit(self) -> str | None:
        """Another ruleset that reproduces more of the characters' printed values than the
        chosen one, the first of the best in RULESETS' order; None when the chosen fits as
        well as any."""
        mine = self.reproduced.get(self.ruleset, 0)
        best = max(self.reproduced, key=lambda name: self.reproduced[name], default=None)
        if best is None or best == self.ruleset or self.reproduced[best] <= mine:
            return None
        return best

    def better_fit_note(self) -> str | None:
        """What `check` says when another ruleset fits, in a GM's words."""
        best = self.better_fit()
        if best is None:
            return None
        total = self.character_values
        return (
            f"the printed values fit the {best} rules better: they give"
            f" {self.reproduced[best]} of the {total} printed character values, the"
            f" {self.ruleset} rules {self.reproduced.get(self.ruleset, 0)}; if the book follows"
            f" that edit of the rules, check with --rules {best} (or set"
            f' rules = "{best}" in scratchpress.toml)'
        )

    def summary(self) -> str:
        """The sentence `check` adds when some printed values were not compared, or ""."""
        if not self.uncompared:
            return ""
        total = self.compared + self.uncompared
        names = _and_list([name.replace("_", " ") for name in sorted(self.not_computed)])
        return (
            f"Only {self.compared} of {total} printed values compared:"
            f" the {self.ruleset} rules do not compute {names}."
        )


def _and_list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
