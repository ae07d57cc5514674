"""Resilience communities and projects (RULES.md §14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

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


@dataclass(frozen=True)
class Broken:
    """One rule a project or a logged year breaks: where (the field of the log entry), the
    English ``message`` that `check` and the terminal print, and the same as ``code`` and
    ``args`` (numbers, the defenses' and sizes' keys, the campaign's names), which the
    printables word in their language (documents.community.finding_words)."""

    where: tuple[str, ...]
    message: str
    code: str
    args: Mapping[str, Any] = field(default_factory=dict)


def _plan_problems(
    size: ProjectSize,
    develop: Mapping[str, int],
    sacrifice: Mapping[str, int],
    current: Mapping[str, int] | None,
) -> list[Broken]:
    """Every rule the project breaks, each with the field of the log entry it is about."""
    problems: list[Broken] = []
    for part, changes in (("develop", develop), ("sacrifice", sacrifice)):
        for name in changes:
            if name not in DEFENSES:
                problems.append(
                    Broken(
                        (part, name),
                        f"{name!r} is not a defense; use economy, environment or equity",
                        "not_a_defense",
                        {"name": repr(name)},
                    )
                )
    developed, sacrificed = sum(develop.values()), sum(sacrifice.values())
    if developed < 1:
        problems.append(
            Broken(("develop",), "a project must develop at least 1 level", "develops_nothing")
        )
    if developed > size.max_development:
        problems.append(
            Broken(
                ("develop",),
                f"a {size.size} project develops at most {size.max_development} levels,"
                f" this one develops {developed}",
                "develops_too_much",
                {"size": size.size, "most": size.max_development, "developed": developed},
            )
        )
    for name in sorted(set(develop) & set(sacrifice)):
        problems.append(
            Broken(
                ("sacrifice", name),
                f"cannot sacrifice {name}, the defense this project develops",
                "sacrifices_developed",
                {"defense": name},
            )
        )
    if sacrificed > developed:
        problems.append(
            Broken(
                ("sacrifice",),
                f"sacrifices {sacrificed} levels, more than the {developed} it develops",
                "sacrifices_too_much",
                {"sacrificed": sacrificed, "developed": developed},
            )
        )
    if current is not None:
        for name, value in sacrifice.items():
            if value > current.get(name, 0):
                problems.append(
                    Broken(
                        ("sacrifice", name),
                        f"cannot sacrifice {value} {name}:"
                        f" the community only has {current.get(name, 0)}",
                        "sacrifices_lacking",
                        {"levels": value, "defense": name, "has": current.get(name, 0)},
                    )
                )
    return problems


def _plan(
    size: ProjectSize, develop: Mapping[str, int], sacrifice: Mapping[str, int], problems: list[str]
) -> ProjectPlan:
    difficulty = project_difficulty(sum(develop.values()), sum(sacrifice.values()))
    # A d20 never rolls below 1, so difficulty 1 or less always succeeds.
    return ProjectPlan(
        size=size,
        develop=dict(develop),
        sacrifice=dict(sacrifice),
        difficulty=difficulty,
        automatic=difficulty <= 1,
        problems=tuple(problems),
    )


def plan_project(
    players: int,
    develop: Mapping[str, int],
    sacrifice: Mapping[str, int],
    current: Mapping[str, int] | None = None,
) -> ProjectPlan:
    size = project_size(players)
    found = _plan_problems(size, develop, sacrifice, current)
    return _plan(size, develop, sacrifice, [broken.message for broken in found])


# --------------------------------------------------------------- a community's logged years

# The evaluation gives 2 levels to one defense or 1 to each of two (1 to one after a poor
# year), so a logged bonus of more than 2 levels in all breaks the rule, however it is split.
BONUS_MAX = 2
LOG_FIELDS = ("projects", "history")  # a community's fields that review_log reads
FALLEN_AT = 0  # the text's tentative failure: any of the three E's at 0
SUCCESS_AT = 15  # its tentative success: at least this much in all three

Result = Literal["automatic", "success", "failed", ""]
# A broken rule is an error; the community's end (0, or 15/15/15) is news, a note.
Severity = Literal["error", "note"]


class LoggedProject(Protocol):
    """A project as a community's ``projects:`` log gives it (definitions' ProjectLog)."""

    @property
    def year(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def develop(self) -> Mapping[Any, int]: ...
    @property
    def sacrifice(self) -> Mapping[Any, int]: ...
    @property
    def roll(self) -> int | None: ...
    @property
    def modifier(self) -> int: ...


class LoggedYear(Protocol):
    """A ``history:`` row (definitions' HistoryYear); its three E's are read by name."""

    @property
    def year(self) -> int: ...
    @property
    def damage(self) -> Mapping[Any, int]: ...
    @property
    def bonus(self) -> Mapping[Any, int]: ...


@dataclass(frozen=True)
class LogFinding:
    """One thing the rules say about a community's log, and where in the community it is:
    ``where`` is the field path under the entry (``("projects", 2, "sacrifice", "equity")``)."""

    where: tuple[str | int, ...]
    message: str
    year: int
    severity: Severity = "error"
    code: str = ""  # which rule, as Broken.code: what the printables word
    args: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReviewedProject:
    """One logged project, planned against the community as it stood at that moment. The
    plan's ``problems`` are every error found on this project, the per-year ones included."""

    index: int  # position in the community's ``projects:`` list
    plan: ProjectPlan
    result: Result
    before: dict[str, int]
    after: dict[str, int] | None  # None while the project is still unresolved
    findings: tuple[LogFinding, ...]


@dataclass(frozen=True)
class LogReview:
    """A community's whole log checked: the projects in the order played, every finding
    (the projects' and the years') in that order, and the three E's at the end."""

    projects: tuple[ReviewedProject, ...]
    findings: tuple[LogFinding, ...]
    now: dict[str, int]


def project_result(plan: ProjectPlan, roll: int | None, modifier: int = 0) -> Result:
    """Blank until a roll is logged, unless the difficulty needs none. ``modifier`` is what
    the year adds to the roll (an event's "projects that develop economy roll at -2")."""
    if plan.automatic:
        return "automatic"
    if roll is None:
        return ""
    return "success" if roll + modifier >= plan.difficulty else "failed"


def _levels(changes: Mapping[Any, int]) -> dict[str, int]:
    return {str(name): n for name, n in changes.items()}


def _label_args(log: LoggedProject, index: int) -> dict[str, Any]:
    """What names a logged project (see _label), for the printables to word."""
    return {"player": log.player, "project": log.name, "number": index + 1}


def _label(named: Mapping[str, Any]) -> str:
    """How a message names a logged project (from _label_args): ``Ben's Quarry``,
    ``Quarry``, ``project 3``."""
    player, name = named["player"], named["project"]
    if player and name:
        return f"{player}'s {name}"
    if name or player:
        return str(name or f"{player}'s project")
    return f"project {named['number']}"


class _Review:
    """The running state of one review; review_log is the only caller."""

    def __init__(self, founding: Mapping[str, int]) -> None:
        self.state = {d: founding[d] for d in DEFENSES}
        self.findings: list[LogFinding] = []
        self.fallen = False
        self.won = False

    def find(
        self,
        where: tuple[str | int, ...],
        message: str,
        year: int,
        severity: Severity = "error",
        code: str = "",
        args: Mapping[str, Any] | None = None,
    ) -> LogFinding:
        found = LogFinding(where, message, year, severity, code, dict(args or {}))
        self.findings.append(found)
        return found

    def change(self, by: Mapping[str, int]) -> None:
        # A defense has nothing below 0 to give: the worksheet never shows a negative E.
        self.state = {d: max(FALLEN_AT, self.state[d] + by.get(d, 0)) for d in DEFENSES}

    def ends(
        self,
        where: tuple[str | int, ...],
        year: int,
        when: str,
        after: Mapping[str, Any] | None = None,
    ) -> list[LogFinding]:
        """Notes for the first time the community falls to 0 or stands at 15/15/15. ``when``
        is "event", "year end" or "project" (then ``after`` names the project, _label_args)."""
        found = []
        said = {"year": year, "when": when, **(after or {})}
        if when == "event":
            told = "after the event"
        elif when == "year end":
            told = "at the end of the year"
        else:
            told = f"after {_label(after or {})}"
        fallen = [d for d in DEFENSES if self.state[d] <= FALLEN_AT]
        if fallen and not self.fallen:
            self.fallen = True
            found.append(
                self.find(
                    where,
                    f"{' and '.join(fallen)} {'falls' if len(fallen) == 1 else 'fall'} to 0 in"
                    f" year {year}, {told}: by the text's tentative end, a community at 0 in"
                    " any of the three E's has failed and the game is over",
                    year,
                    "note",
                    "fallen",
                    {**said, "defenses": tuple(fallen)},
                )
            )
        if all(self.state[d] >= SUCCESS_AT for d in DEFENSES) and not self.won:
            self.won = True
            found.append(
                self.find(
                    where,
                    f"the community stands at {SUCCESS_AT} or more in all three E's in year"
                    f" {year}, {told}: by the text's tentative end, it has made it and the game"
                    " is won",
                    year,
                    "note",
                    "won",
                    {**said, "level": SUCCESS_AT},
                )
            )
        return found


def review_log(
    founding: Mapping[str, int],
    players: int | None,
    projects: Sequence[LoggedProject],
    history: Sequence[LoggedYear],
) -> LogReview:
    """A community's logged years checked against the project and evaluation rules, and
    played out from its founding values: the one reading the sheet and `check` share.

    Each year runs in the rules' order: the event (a history row's ``damage``) strikes
    before the year's projects, whose sacrifices are checked against what it left; the
    GM's ``bonus`` follows them; a history row's own values state the year's end and
    replace the running ones. Projects are played in year order, file order within a
    year. Without ``players`` a project may be as large, and a player start as many a
    year, as any group size allows (the one-player row).
    """
    size = project_size(players if players is not None else 1)
    review = _Review(founding)
    rows = {row.year: (j, row) for j, row in enumerate(history)}
    ordered = sorted(enumerate(projects), key=lambda pair: pair[1].year)
    reviewed: list[ReviewedProject] = []
    for year in sorted({log.year for _, log in ordered} | set(rows)):
        row = rows.get(year)
        if row is not None and row[1].damage:
            review.change({d: -n for d, n in _levels(row[1].damage).items()})
            review.ends(("history", row[0], "damage"), year, "event")
        started: dict[str, int] = {}
        for index, log in ((i, p) for i, p in ordered if p.year == year):
            reviewed.append(_review_project(review, size, players, index, log, started))
        if row is not None:
            j, logged = row
            bonus = _levels(logged.bonus)
            if sum(bonus.values()) > BONUS_MAX:
                review.find(
                    ("history", j, "bonus"),
                    f"the GM's bonus is {sum(bonus.values())} levels; the evaluation gives at"
                    f" most {BONUS_MAX} (2 to one defense or 1 to each of two, only 1 after a"
                    " poor year)",
                    year,
                    code="bonus_too_large",
                    args={"bonus": sum(bonus.values()), "most": BONUS_MAX},
                )
            review.change(bonus)
            for d in DEFENSES:
                value = getattr(logged, d, None)
                if isinstance(value, int):
                    review.state[d] = value
            review.ends(("history", j), year, "year end")
    return LogReview(tuple(reviewed), tuple(review.findings), dict(review.state))


def _review_project(
    review: _Review,
    size: ProjectSize,
    players: int | None,
    index: int,
    log: LoggedProject,
    started: dict[str, int],
) -> ReviewedProject:
    year, at = log.year, ("projects", index)
    develop, sacrifice = _levels(log.develop), _levels(log.sacrifice)
    found = [
        review.find((*at, *broken.where), broken.message, year, code=broken.code, args=broken.args)
        for broken in _plan_problems(size, develop, sacrifice, review.state)
    ]
    who = log.player.strip().casefold()
    if who:
        started[who] = started.get(who, 0) + 1
        each = size.projects_per_player
        if started[who] == each + 1:
            allowance = (
                f"with {players} player{'s' if players != 1 else ''} each starts {each} a year"
                if players is not None
                else f"no player starts more than {each} a year"
            )
            found.append(
                review.find(
                    (*at, "player"),
                    f"{log.player} starts a project too many in year {year}: {allowance}",
                    year,
                    code="starts_too_many",
                    args={"player": log.player, "year": year, "players": players, "each": each},
                )
            )
        if players is not None and len(started) == players + 1 and started[who] == 1:
            found.append(
                review.find(
                    (*at, "player"),
                    f"{log.player} is player {players + 1} to start a project in year {year},"
                    f" but players: is {players}",
                    year,
                    code="players_too_many",
                    args={
                        "player": log.player,
                        "number": players + 1,
                        "year": year,
                        "players": players,
                    },
                )
            )
    plan = _plan(size, develop, sacrifice, [f.message for f in found])
    result = project_result(plan, log.roll, log.modifier)
    before = dict(review.state)
    after: dict[str, int] | None = None
    if result:
        review.change(plan.outcome(result != "failed"))
        after = dict(review.state)
        found += review.ends(at, year, "project", _label_args(log, index))
    return ReviewedProject(index, plan, result, before, after, tuple(found))
