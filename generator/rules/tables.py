"""The rule books' reference tables as data: die alternatives, random damage and pace.

RULES.md §11 (twenty-sided die alternatives), §12 (random damage) and §13 (pace). The 6 x 6
grid has no formula behind it, so it is typed in and its distribution tested; the card
values, the random damage dice and the pace gaps follow rules, so they are computed here
and tested against every printed cell.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from .derived import rhu_div

# --------------------------------------------------------------------------------------
# §11.1 two d6 and a 6 x 6 grid

#: Row die down the side, column die across the top. Symmetric, so the order of the two
#: dice does not matter. 4, 7, 14 and 17 appear once; 1 twice, both on the diagonal.
D6_GRID: Final[tuple[tuple[int, ...], ...]] = (
    (1, 2, 3, 9, 5, 11),
    (2, 4, 6, 8, 10, 13),
    (3, 6, 7, 12, 15, 18),
    (9, 8, 12, 14, 20, 16),
    (5, 10, 15, 20, 17, 19),
    (11, 13, 18, 16, 19, 1),
)


def d6_grid_value(row: int, column: int) -> int:
    """The d20 result a pair of d6 stands for (both 1-6)."""
    if not (1 <= row <= 6 and 1 <= column <= 6):
        raise ValueError(f"both dice must be 1-6, got {row} and {column}")
    return D6_GRID[row - 1][column - 1]


def d6_grid_distribution() -> dict[int, int]:
    """How many of the 36 ordered pairs give each value 1-20."""
    counts = Counter(value for row in D6_GRID for value in row)
    return {value: counts[value] for value in range(1, 21)}


# §11.2 and §11.3: a six counts as 0.
D6_TIMES_FOUR: Final[tuple[int, ...]] = tuple(4 * (face % 6) for face in range(1, 7))
TWO_D6_DOUBLED: Final[tuple[int, ...]] = tuple(
    sorted({2 * ((a % 6) + (b % 6)) for a in range(1, 7) for b in range(1, 7)})
)

# --------------------------------------------------------------------------------------
# §11.4 cards: a 40-card deck, ranks 1 (ace) to 10, one card per d20 roll

CARD_RANKS: Final[tuple[int, ...]] = tuple(range(1, 11))
#: Suits (and the colours of colour-suited decks) worth the rank itself...
LOW_SUITS: Final[tuple[str, ...]] = ("clubs", "spades", "blue", "green")
#: ...and those worth ten more.
HIGH_SUITS: Final[tuple[str, ...]] = ("hearts", "diamonds", "yellow", "red")
CARD_SUITS: Final[tuple[str, ...]] = (
    "clubs",
    "spades",
    "hearts",
    "diamonds",
    "blue",
    "green",
    "yellow",
    "red",
)
#: Reshuffle when the discard pile is as large as the stock: after this many draws.
CARD_RESHUFFLE_DRAWS: Final = 20


def card_value(rank: int, suit: str) -> int:
    """The d20 result of one card; a 0 card counts as rank 10."""
    if rank == 0:
        rank = 10
    if rank not in CARD_RANKS:
        raise ValueError(f"card ranks are 1-10 (or 0 for 10), got {rank}")
    if suit in LOW_SUITS:
        return rank
    if suit in HIGH_SUITS:
        return 10 + rank
    raise ValueError(f"unknown suit {suit!r}; known: {', '.join(CARD_SUITS)}")


def card_table(suits: tuple[str, ...] = CARD_SUITS) -> list[tuple[int, ...]]:
    """One row per rank 1-10: the value in each suit, in the order of ``suits``."""
    return [tuple(card_value(rank, suit) for suit in suits) for rank in CARD_RANKS]


# --------------------------------------------------------------------------------------
# §12 random damage (optional rule: max HP x 5)

RANDOM_DAMAGE_HP_FACTOR: Final = 5


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"

    @property
    def average(self) -> Fraction:
        return Fraction(self.count * (self.sides + 1), 2)


#: Extra dice per normal damage 1-10; anything above 10 adds 1d20.
RANDOM_DAMAGE_DICE: Final[dict[int, Dice]] = {
    1: Dice(1, 4),
    2: Dice(1, 6),
    3: Dice(1, 8),
    4: Dice(1, 10),
    5: Dice(1, 12),
    6: Dice(2, 6),
    7: Dice(3, 4),
    8: Dice(2, 8),
    9: Dice(3, 6),
    10: Dice(1, 20),
}
ABOVE_TEN_DICE: Final = Dice(1, 20)


@dataclass(frozen=True)
class RandomDamage:
    normal: int
    extra: Dice
    average: Fraction  # normal + the dice's average

    @property
    def total(self) -> str:
        """``1d4 + 1``: what to roll and add."""
        return f"{self.extra} + {self.normal}"

    @property
    def ratio(self) -> Fraction:
        """Average damage as a multiple of the normal damage."""
        return self.average / self.normal


def random_damage(normal: int) -> RandomDamage:
    if normal < 1:
        raise ValueError(f"random damage needs a normal damage of 1 or more, got {normal}")
    dice = RANDOM_DAMAGE_DICE.get(normal, ABOVE_TEN_DICE)
    return RandomDamage(normal, dice, normal + dice.average)


def random_damage_table() -> list[RandomDamage]:
    """The printed rows, normal damage 1-10 (above 10 follows the last row's dice)."""
    return [random_damage(normal) for normal in sorted(RANDOM_DAMAGE_DICE)]


def round_fraction(value: Fraction, places: int) -> str:
    """Round half up to ``places`` decimals without float error: 2.375 -> ``2.38``."""
    scale = 10**places
    scaled = rhu_div(value.numerator * scale, value.denominator)
    whole, part = divmod(scaled, scale)
    return f"{whole}.{part:0{places}d}" if places else str(whole)


# --------------------------------------------------------------------------------------
# §13 pace: the longest gap between two characters' turns, in seconds

Pace = Literal["frantic", "normal", "chase", "hunt"]
PACES: Final[tuple[Pace, ...]] = ("frantic", "normal", "chase", "hunt")
#: Roughly how long an encounter at each pace lasts, in minutes (the printables word it).
PACE_MINUTES: Final[dict[Pace, int]] = {"frantic": 4, "normal": 8, "chase": 15, "hunt": 30}
#: Seconds shared by all the characters between one turn and the next at each pace.
PACE_BUDGET: Final[dict[Pace, int]] = {"frantic": 0, "normal": 30, "chase": 60, "hunt": 120}
PACE_MIN_CHARACTERS: Final = 2
PACE_MAX_PRINTED: Final = 12


def pace_seconds(pace: Pace, characters: int) -> int:
    """Seconds that may pass between turns.

    The printed table is reproduced in every cell only by rounding twice: the hunt row is
    rhu(120 / n) and the other rows halve or quarter that rounded value (rhu again). A
    single rhu(budget / n) would print 5 for a chase with 11 characters, where the book
    prints 6; Python's round() would also get normal with 12 characters wrong (2.5 -> 2).
    """
    if characters < 1:
        raise ValueError(f"a pace needs at least one character, got {characters}")
    if pace == "frantic":
        return 0
    hunt = rhu_div(PACE_BUDGET["hunt"], characters)
    if pace == "hunt":
        return hunt
    return rhu_div(hunt, PACE_BUDGET["hunt"] // PACE_BUDGET[pace])


def pace_table(
    low: int = PACE_MIN_CHARACTERS, high: int = PACE_MAX_PRINTED
) -> dict[Pace, list[int]]:
    """Each pace's row for ``low``..``high`` characters; the book prints 2-12."""
    if not 1 <= low <= high:
        raise ValueError(f"the range of characters {low}-{high} is empty")
    return {pace: [pace_seconds(pace, n) for n in range(low, high + 1)] for pace in PACES}


__all__ = [
    "CARD_SUITS",
    "D6_GRID",
    "D6_TIMES_FOUR",
    "HIGH_SUITS",
    "LOW_SUITS",
    "PACES",
    "TWO_D6_DOUBLED",
    "Dice",
    "RandomDamage",
    "card_table",
    "card_value",
    "d6_grid_distribution",
    "d6_grid_value",
    "pace_seconds",
    "pace_table",
    "random_damage",
    "random_damage_table",
    "round_fraction",
]
