"""Resilience communities and projects (RULES.md §14)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

DEFENSES = ("economy", "environment", "equity")
CREATION_POINTS = 30
CREATION_MIN, CREATION_MAX = 5, 15

# Harder years (our rule, printed on the deck's rules card): the world does not stand still
# while a community grows, so every year's attack gains a bonus, and later its damage too.
# Without it a community that plays its projects well soon stands out of every attack's reach.
ESCALATION_BONUS_EVERY = 1  # +1 attack bonus every this many years after the first
ESCALATION_DAMAGE_EVERY = 2  # +1 damage every this many years after the first


@dataclass(frozen=True)
class Escalation:
    """What year ``year`` adds to every event's attack bonus and damage."""

    year: int
    attack_bonus: int
    damage: int


def escalation(year: int) -> Escalation:
    """Year 1 adds nothing; the bonus grows by 1 every ESCALATION_BONUS_EVERY years, the
    damage by 1 every ESCALATION_DAMAGE_EVERY years."""
    if year < 1:
        raise ValueError(f"years count from 1, not {year}")
    return Escalation(
        year,
        (year - 1) // ESCALATION_BONUS_EVERY,
        (year - 1) // ESCALATION_DAMAGE_EVERY,
    )


@dataclass(frozen=True)
class YearlyAttack:
    """An event's attack as it stands in a given year: the card's numbers plus the year's."""

    year: int
    card_bonus: int
    card_damage: int
    harder: Escalation

    @property
    def bonus(self) -> int:
        return self.card_bonus + self.harder.attack_bonus

    @property
    def damage(self) -> int:
        return self.card_damage + self.harder.damage

    @property
    def bonus_why(self) -> str:
        """ "card +5, year 4 +3", or "" when the year adds nothing to the bonus."""
        if not self.harder.attack_bonus:
            return ""
        return f"card +{self.card_bonus}, year {self.year} +{self.harder.attack_bonus}"

    @property
    def damage_why(self) -> str:
        """ "card 5, year 4 +1", or "" when the year adds nothing to the damage."""
        if not self.harder.damage:
            return ""
        return f"card {self.card_damage}, year {self.year} +{self.harder.damage}"

    @property
    def why(self) -> str:
        """ "card +5, year 4 +3; damage 5 +1", or "" in year 1, when the card stands as printed."""
        if not self.bonus_why:
            return ""
        damage = f"; damage {self.card_damage} +{self.harder.damage}" if self.harder.damage else ""
        return self.bonus_why + damage


def yearly_attack(attack_bonus: int, damage: int, year: int) -> YearlyAttack:
    return YearlyAttack(year, attack_bonus, damage, escalation(year))


@dataclass(frozen=True)
class CommunityStats:
    name: str
    economy: int
    environment: int
    equity: int
    notes: Mapping[str, str]
    warnings: tuple[str, ...] = field(default=())

    @property
    def defenses(self) -> dict[str, int]:
        return {d: getattr(self, d) for d in DEFENSES}

    def value(self, name: str) -> int | None:
        got = getattr(self, name, None)
        return got if isinstance(got, int) else None


def creation_warnings(defenses: Mapping[str, int]) -> list[str]:
    """The creation check: 30 points, each defense 5-15 (the book's own example breaks it)."""
    warnings = []
    total = sum(defenses.values())
    if total != CREATION_POINTS:
        warnings.append(f"the three E's total {total}, not the {CREATION_POINTS} of creation")
    for name, value in defenses.items():
        if not CREATION_MIN <= value <= CREATION_MAX:
            warnings.append(
                f"{name} {value} is outside {CREATION_MIN}-{CREATION_MAX} allowed at creation"
            )
    return warnings


def compute_community(
    name: str, defenses: Mapping[str, int], notes: Mapping[str, str]
) -> CommunityStats:
    return CommunityStats(
        name=name,
        economy=defenses["economy"],
        environment=defenses["environment"],
        equity=defenses["equity"],
        notes=dict(notes),
        warnings=tuple(creation_warnings(defenses)),
    )


@dataclass(frozen=True)
class ProjectSize:
    projects_per_player: int
    size: str
    max_development: int


# Projects per player and their size by the number of players; 8+ is not in the text.
PROJECT_SIZES: dict[int, ProjectSize] = {
    1: ProjectSize(4, "large", 5),
    2: ProjectSize(2, "large", 5),
    3: ProjectSize(2, "small", 3),
    4: ProjectSize(1, "large", 5),
    5: ProjectSize(1, "medium", 4),
    6: ProjectSize(1, "small", 3),
    7: ProjectSize(1, "small", 3),
}


def project_size(players: int) -> ProjectSize:
    if players not in PROJECT_SIZES:
        raise ValueError(f"the project rules cover 1 to 7 players, not {players}")
    return PROJECT_SIZES[players]


@dataclass(frozen=True)
class ProjectPlan:
    size: ProjectSize
    develop: Mapping[str, int]
    sacrifice: Mapping[str, int]
    difficulty: int
    automatic: bool
    problems: tuple[str, ...]

    @property
    def legal(self) -> bool:
        return not self.problems

    def outcome(self, succeeded: bool) -> dict[str, int]:
        """Change to each defense: success adds the development, either way the sacrifice goes."""
        change = {d: -self.sacrifice.get(d, 0) for d in DEFENSES}
        if succeeded or self.automatic:
            for d, v in self.develop.items():
                change[d] += v
        return change


def project_difficulty(developed: int, sacrificed: int) -> int:
    return 7 + 2 * developed - 5 * sacrificed


def plan_project(
    players: int,
    develop: Mapping[str, int],
    sacrifice: Mapping[str, int],
    current: Mapping[str, int] | None = None,
) -> ProjectPlan:
    size = project_size(players)
    problems: list[str] = []
    for name in (*develop, *sacrifice):
        if name not in DEFENSES:
            problems.append(f"{name!r} is not a defense; use economy, environment or equity")
    developed, sacrificed = sum(develop.values()), sum(sacrifice.values())
    if developed < 1:
        problems.append("a project must develop at least 1 level")
    if developed > size.max_development:
        problems.append(
            f"a {size.size} project develops at most {size.max_development} levels,"
            f" this one develops {developed}"
        )
    for name in sorted(set(develop) & set(sacrifice)):
        problems.append(f"cannot sacrifice {name}, the defense this project develops")
    if sacrificed > developed:
        problems.append(f"sacrifices {sacrificed} levels, more than the {developed} it develops")
    if current is not None:
        for name, value in sacrifice.items():
            if value > current.get(name, 0):
                problems.append(
                    f"cannot sacrifice {value} {name}:"
                    f" the community only has {current.get(name, 0)}"
                )
    difficulty = project_difficulty(developed, sacrificed)
    # A d20 never rolls below 1, so difficulty 1 or less always succeeds.
    return ProjectPlan(
        size=size,
        develop=dict(develop),
        sacrifice=dict(sacrifice),
        difficulty=difficulty,
        automatic=difficulty <= 1,
        problems=tuple(problems),
    )
