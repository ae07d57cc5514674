"""Play a Resilience community through the years, many times, to see what the deck does.

Why one module of ~650 lines: its dice, valuing, event outcomes, project plans and yearly
run are one model of play whose steps weigh each other's numbers (an event's choice is
priced by the projects it leaves), so the helpers they share stay private.

One simulated year follows the order of the rules (RULES.md §14): the event is drawn and
its temporary modifier read; the PCs make the challenge roll; the community decides; the
GM rolls the attack against the defense; then the players do their projects (sized by the
number of players, checked and priced by ``rules.community.plan_project``, the code behind
``resilience project`` and the community sheet); then the GM's evaluation bonus. The
encounter and character development happen at the table and change no defense.

A **policy** plays the community's side, the part players decide:

* ``passive``: no projects; in a decision, whatever costs least now. The GM's evaluation
  gives the 1 level the rules give a group that struggled, to its weakest defense.
* ``balanced`` (the default): a well-played community. Projects and decisions are chosen for
  the best expected outcome, valuing a level more the lower its defense stands (a square
  root), so weak defenses are shored up first, and a defense at 0 as the end of the game
  it is. The evaluation gives 1 level to each of the two weakest defenses (the rules' "2
  bonus levels ... or 1 level to each of two").
* ``greedy``: economy first. The same weighing, but a level of economy counts twice what a
  level elsewhere does and ruin is not foreseen, so projects buy economy with the other two
  and decisions protect it. The evaluation gives 1 level, to economy.

Every year after the first is harder (``rules.community.escalation``, printed on the deck's
rules card): the attack bonus and, every second year, the damage grow.

Rulings the texts leave open, taken here and printed on the cards:

* The challenge is one roll by the PC best at the ability (d20 + level); a PC without the
  ability still rolls, at +0. A natural 20 succeeds whatever the difficulty.
* "The attack fails automatically" means the GM does not roll, so no natural 20 can beat it.
* Damage never goes below 0, and a defense never below 0.

Pure and reproducible: one ``random.Random(seed)`` drives every roll and draw in order.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal, Protocol

from .community import (
    CREATION_MIN,
    DEFENSES,
    SUCCESS_AT,
    escalation,
    plan_project,
    project_size,
)
from .effects import (
    Effect,
    ProjectModifier,
    parse_effect,
    parse_temporary,
    penalty_becomes,
    project_modifier,
)

Policy = Literal["passive", "balanced", "greedy", "story", "timid", "career", "no-sacrifice"]
POLICIES: tuple[Policy, ...] = (
    "passive",
    "balanced",
    "greedy",
    "story",
    "timid",
    "career",
    "no-sacrifice",
)
TYPICAL_LEVEL = 2  # a party's best level in an ability, when no party is given
NATURAL_20 = 20
GREEDY_WEIGHT = 2.0
GAME_OVER = -100.0  # what a table that foresees ruin thinks of a defense at 0
TIMID_CHANCE = 0.7  # a timid table starts only the projects at least this likely to succeed
STORY_FLOOR = 4  # a story-first table never sacrifices a defense that would fall to this or below
CAREER_WEIGHT = 1.5  # how much more a career-driven table values a level of what it favors
# The careers a table without a party brings (farmer, business owner, parent, engineer):
# what each favors, as indexes into DEFENSES.
DEFAULT_FAVOURS: tuple[int, ...] = (1, 0, 2, 0)


@dataclass(frozen=True)
class Table:
    """How a table plays, as the simulator needs it: what it values (``weights`` per
    defense; whether a defense at 0 is foreseen as the end), which projects it brings,
    and how it takes the community's decisions."""

    policy: Policy
    weights: tuple[float, float, float] = (1.0, 1.0, 1.0)
    foresees_ruin: bool = True
    projects: bool = True
    sacrifices: bool = True
    min_chance: float = 0.0
    story_answers: bool = False  # answers for the story: at random, not by their numbers
    story_projects: bool = False  # printed project ideas, picked for what they are
    cautious: bool = False  # decisions by their worst outcome, not their expected one
    favours: tuple[int, ...] = ()  # per player, the defense their career pushes for


def table_for(policy: Policy, favours: Sequence[int] = ()) -> Table:
    """The table a policy describes; ``favours`` the defense each player's career favors
    (DEFENSES indexes), for career-driven play."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; use one of {', '.join(POLICIES)}")
    if policy == "passive":
        return Table(policy, projects=False)
    if policy == "greedy":
        return Table(policy, (GREEDY_WEIGHT, 1.0, 1.0), foresees_ruin=False)
    if policy == "story":
        return Table(policy, story_answers=True, story_projects=True)
    if policy == "timid":
        return Table(policy, min_chance=TIMID_CHANCE, cautious=True)
    if policy == "no-sacrifice":
        return Table(policy, sacrifices=False)
    if policy == "career":
        chosen = tuple(favours) or DEFAULT_FAVOURS
        weights = tuple(1.0 + (CAREER_WEIGHT - 1.0) * (d in chosen) for d in range(3))
        return Table(policy, (weights[0], weights[1], weights[2]), favours=chosen)
    return Table(policy)


class _Challenge(Protocol):
    @property
    def ability(self) -> str: ...
    @property
    def difficulty(self) -> int: ...
    @property
    def success(self) -> str: ...
    @property
    def failure(self) -> str: ...


class _Choice(Protocol):
    @property
    def choice(self) -> str: ...
    @property
    def consequence(self) -> str: ...


class _Decision(Protocol):
    @property
    def choices(self) -> Sequence[_Choice]: ...


class EventCard(Protocol):
    """What the simulator reads of an event (definitions.resilience_models.Event)."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def attacks(self) -> str: ...
    @property
    def attack_bonus(self) -> int: ...
    @property
    def damage(self) -> int: ...
    @property
    def temporary(self) -> str: ...
    @property
    def challenge(self) -> _Challenge: ...
    @property
    def decision(self) -> _Decision: ...


@dataclass(frozen=True)
class _Read:
    """An event card as effects: parsed once per simulation, not once per year."""

    id: str
    title: str
    attacks: str
    attack_bonus: int
    damage: int
    modifiers: tuple[ProjectModifier, ...]
    ability: str
    difficulty: int
    success: Effect
    failure: Effect
    choices: tuple[Effect, ...]
    labels: tuple[str, ...]
    leaves: tuple[str | None, ...] = ()  # the mark each answer leaves in the history
    remembers: tuple[tuple[str, int], ...] = ()  # (mark, attack bonus) the card reads

    def with_marks(self, held: Collection[str]) -> _Read:
        """The card as it plays with these marks in the history: its attack changed by
        every line they call up."""
        extra = sum(bonus for mark, bonus in self.remembers if mark in held)
        return replace(self, attack_bonus=self.attack_bonus + extra) if extra else self


def _read(event: EventCard) -> _Read:
    return _Read(
        id=event.id,
        title=event.title,
        attacks=event.attacks,
        attack_bonus=event.attack_bonus,
        damage=event.damage,
        modifiers=tuple(parse_temporary(event.temporary)),
        ability=event.challenge.ability,
        difficulty=event.challenge.difficulty,
        success=parse_effect(event.challenge.success),
        failure=parse_effect(event.challenge.failure),
        choices=tuple(parse_effect(c.consequence) for c in event.decision.choices),
        labels=tuple(c.choice for c in event.decision.choices),
        # Marks are optional on a card the simulator reads (a test's own card has none).
        leaves=tuple(
            mark.id if (mark := getattr(c, "leaves", None)) else None
            for c in event.decision.choices
        ),
        remembers=tuple((m.mark, m.attack_bonus) for m in getattr(event, "remembers", ())),
    )


# ------------------------------------------------------------------------------------------
# Dice


@lru_cache(maxsize=4096)
def chance(needed: int, bonus: int = 0, natural_20: bool = True) -> float:
    """P(d20 + bonus >= needed); with ``natural_20`` a 20 always succeeds."""
    hits = sum(1 for roll in range(1, 21) if roll + bonus >= needed or (natural_20 and roll == 20))
    return hits / 20


# The year's bonus to one project: (levels, the index of the defense that project must
# develop, or -1 for any project). "+2 to one project that develops equity" is (2, 2).
Bonus = tuple[int, int]
NO_BONUS: Bonus = (0, -1)


def _bonus(effect: Effect) -> Bonus:
    if not effect.project_bonus:
        return NO_BONUS
    target = effect.project_bonus_develops
    return (effect.project_bonus, DEFENSES.index(target) if target in DEFENSES else -1)


def bonus_for(bonus: Bonus, develop: Mapping[str, int]) -> int:
    """What the year's one-project bonus adds to this project's roll."""
    amount, target = bonus
    if not amount or (target >= 0 and not develop.get(DEFENSES[target])):
        return 0
    return amount


# ------------------------------------------------------------------------------------------
# Valuing a community: what each table wants


@lru_cache(maxsize=1024)
def _root(level: int) -> float:
    return 4.0 * math.sqrt(max(level, 0))


def _value(table: Table, state: tuple[int, int, int]) -> float:
    """What a state is worth to the table: each defense's level on a square root (a level
    counts more where the defense is low), by the table's weights; a defense at 0 is the
    end of the game to a table that foresees it. (_pick inlines this.)"""
    if table.foresees_ruin and min(state) <= 0:
        return GAME_OVER
    w = table.weights
    return w[0] * _root(state[0]) + w[1] * _root(state[1]) + w[2] * _root(state[2])


def _apply(state: Mapping[str, int], change: Mapping[str, int]) -> dict[str, int]:
    return {d: max(0, state[d] + change.get(d, 0)) for d in DEFENSES}


# ------------------------------------------------------------------------------------------
# The event: outcomes as (probability, change) lists, so choices can be weighed exactly


Outcomes = list[tuple[float, dict[str, int]]]


def _attack_outcomes(
    card: _Read, state: Mapping[str, int], effect: Effect, party: Mapping[str, int]
) -> Outcomes:
    """Every way the attack can end after ``effect``, with its probability."""
    if effect.gamble is not None:
        gamble = effect.gamble
        level = party.get(gamble.ability, 0) if gamble.ability else 0
        p = chance(gamble.target, level)
        rest = Effect(
            attack_bonus=effect.attack_bonus,
            damage=effect.damage,
            now=effect.now,
            attack_fails=effect.attack_fails,
            damage_halved=effect.damage_halved,
            on_hit=effect.on_hit,
            on_miss=effect.on_miss,
        )
        won = [(p * q, c) for q, c in _attack_outcomes(card, state, rest.plus(gamble.won), party)]
        lost = [
            ((1 - p) * q, c)
            for q, c in _attack_outcomes(card, state, rest.plus(gamble.lost), party)
        ]
        return [o for o in won + lost if o[0] > 0]
    now = {d: v for d, v in effect.now.items() if v}
    after_now = _apply(state, now)
    if effect.attack_fails:
        return [(1.0, _add(now, effect.on_miss))]
    damage = max(0, card.damage + effect.damage)
    if effect.damage_halved:
        damage //= 2
    defense = after_now[card.attacks]
    p_hit = chance(defense, card.attack_bonus + effect.attack_bonus, natural_20=True)
    hit = _add(now, {card.attacks: -damage}, effect.on_hit)
    miss = _add(now, effect.on_miss)
    return [o for o in ((p_hit, hit), (1 - p_hit, miss)) if o[0] > 0]


def _add(*changes: Mapping[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for change in changes:
        for key, value in change.items():
            out[key] = out.get(key, 0) + value
    return out


def _costs_now(effect: Effect) -> bool:
    return any(v < 0 for v in effect.now.values())


def _choose(
    rng: random.Random,
    table: Table,
    card: _Read,
    state: Mapping[str, int],
    challenge: Effect,
    party: Mapping[str, int],
    players: int,
) -> int:
    """The index of the choice the table takes."""
    indexes = list(range(len(card.choices)))
    if table.policy == "passive":
        # What costs least now; ties go to the card's first choice.
        def cost_now(index: int) -> int:
            return -sum(v for v in card.choices[index].now.values() if v < 0)

        return min(indexes, key=cost_now)
    if table.story_answers:
        # The answer that makes the better story: the numbers do not decide it.
        return rng.choice(indexes)
    if not table.sacrifices:
        # Nobody gives anything up now while another answer asks for nothing.
        free = [i for i in indexes if not _costs_now(challenge.plus(card.choices[i]))]
        indexes = free or indexes
    scores: dict[int, float] = {}
    for index in indexes:
        effect = challenge.plus(card.choices[index])
        outcomes = _attack_outcomes(card, state, effect, party)
        if table.cautious:
            # The answer whose worst outcome costs least, then the best on average.
            worst = min(sum(change.values()) for _, change in outcomes)
            mean = sum(p * sum(change.values()) for p, change in outcomes)
            scores[index] = worst * 1000 + mean
            continue
        modifiers = _year_modifiers(card, effect)
        scores[index] = sum(
            p
            * _outlook(
                table, players, _key(_apply(state, change)), modifiers, _bonus(effect), 0
            )
            for p, change in outcomes
        )
    return max(indexes, key=lambda i: (scores[i], -i))


@lru_cache(maxsize=400_000)
def _outlook(
    table: Table,
    players: int,
    state: tuple[int, int, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: Bonus,
    index: int,
) -> float:
    """What a state after the attack is worth once the year's projects from the
    ``index``-th on are done, each picked as the table picks it from the state the ones
    before left (success and failure both followed, by their chances). Valuing the year's
    projects from the state after the attack alone would count the large gain a project
    makes at a low defense once per project, and value economy 2 above economy 7."""
    count = project_size(players).projects_per_player * players
    if index >= count or min(state) <= 0 or not table.projects:
        return _value(table, state)
    plan, p = _pick(table, players, state, modifiers, bonus, index)
    dev, sac = _vector(plan.develop), _vector(plan.sacrifice)
    failure = (state[0] - sac[0], state[1] - sac[1], state[2] - sac[2])
    success = (failure[0] + dev[0], failure[1] + dev[1], failure[2] + dev[2])
    left = bonus if not bonus_for(bonus, plan.develop) else NO_BONUS  # taken, or kept
    after_success = _outlook(table, players, success, modifiers, left, index + 1) if p else 0.0
    after_failure = (
        _outlook(table, players, failure, modifiers, left, index + 1) if p < 1 else 0.0
    )
    return p * after_success + (1 - p) * after_failure


def _year_modifiers(card: _Read, effect: Effect) -> tuple[ProjectModifier, ...]:
    """The year's project modifiers after the challenge and the decision."""
    if effect.ends_temporary:
        return ()
    if effect.temporary_becomes is not None:
        return tuple(penalty_becomes(list(card.modifiers), effect.temporary_becomes))
    return card.modifiers


def _sample(rng: random.Random, outcomes: Outcomes) -> dict[str, int]:
    pick = rng.random()
    total = 0.0
    for p, change in outcomes:
        total += p
        if pick < total:
            return change
    return outcomes[-1][1]


# ------------------------------------------------------------------------------------------
# Projects


@dataclass(frozen=True)
class Plan:
    develop: Mapping[str, int]
    sacrifice: Mapping[str, int]
    difficulty: int
    automatic: bool


def _vector(levels: Mapping[str, int]) -> tuple[int, int, int]:
    return (levels.get("economy", 0), levels.get("environment", 0), levels.get("equity", 0))


def _splits(total: int, among: Sequence[str]) -> list[dict[str, int]]:
    """Every way to put ``total`` levels on one or two of ``among``."""
    out: list[dict[str, int]] = [{d: total} for d in among]
    for i, first in enumerate(among):
        for second in among[i + 1 :]:
            out += [{first: a, second: total - a} for a in range(1, total)]
    return out


@lru_cache(maxsize=16)
def _candidates(players: int) -> tuple[Plan, ...]:
    """The projects a table may bring: develop one or two defenses by up to the size's
    maximum, paying for it (or not) with levels of one or both of the others. Each is
    checked and priced by ``plan_project``, as ``resilience project`` does."""
    size = project_size(players)
    plans: list[Plan] = []
    for levels in range(1, size.max_development + 1):
        for develop in _splits(levels, DEFENSES):
            others = [d for d in DEFENSES if d not in develop]
            sacrifices: list[dict[str, int]] = [{}]
            for paid in range(1, levels + 1):
                sacrifices += _splits(paid, others)
            for sacrifice in sacrifices:
                plan = plan_project(players, develop, sacrifice)
                if plan.legal:
                    plans.append(Plan(develop, sacrifice, plan.difficulty, plan.automatic))
    return tuple(plans)


def _first_roll(players: int, index: int) -> bool:
    """Projects go round the table: the first ``players`` are each player's first."""
    return index < players


def _player(players: int, index: int) -> int:
    return index % players


@lru_cache(maxsize=64)
def _allowed_for(players: int, sacrifices: bool, favoured: int) -> tuple[int, ...]:
    out = []
    for i, plan in enumerate(_candidates(players)):
        if not sacrifices and any(plan.sacrifice.values()):
            continue
        if favoured >= 0 and not plan.develop.get(DEFENSES[favoured]):
            continue
        out.append(i)
    return tuple(out)


@lru_cache(maxsize=8192)
def _modifiers_for(
    players: int, modifiers: tuple[ProjectModifier, ...], first_roll: bool
) -> tuple[int, ...]:
    return tuple(
        project_modifier(list(modifiers), plan.develop, plan.sacrifice, first_roll)
        for plan in _candidates(players)
    )


@lru_cache(maxsize=64)
def _prepared(
    players: int, allowed: tuple[int, ...]
) -> tuple[tuple[int, int, int, int, int, int, int, int, bool], ...]:
    """The allowed candidates as flat tuples for the inner loop of _pick: the development
    and sacrifice per defense, the difficulty, whether automatic."""
    plans = _candidates(players)
    out = []
    for i in allowed:
        dev, sac = _vector(plans[i].develop), _vector(plans[i].sacrifice)
        out.append(
            (
                i,
                dev[0],
                dev[1],
                dev[2],
                sac[0],
                sac[1],
                sac[2],
                plans[i].difficulty,
                plans[i].automatic,
            )
        )
    return tuple(out)


# Every level a defense can reach in a simulation (MAX_YEARS years of the largest gains).
_ROOTS = tuple(4.0 * math.sqrt(level) for level in range(0, 8192))


def _pick(
    table: Table,
    players: int,
    state: tuple[int, int, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: Bonus,
    index: int,
) -> tuple[Plan, float]:
    """The project the table brings as its ``index``-th of the year in this state, and its
    chance of success: the one with the best expected value for the table, among those it
    would bring (a sacrifice may not exceed what a defense has; a timid table only brings
    projects likely to succeed). Which project of the year it is matters only through
    whether it is its player's first and which player brings it."""
    favoured = table.favours[_player(players, index) % len(table.favours)] if table.favours else -1
    return _pick_for(table, players, state, modifiers, bonus, _first_roll(players, index), favoured)


@lru_cache(maxsize=400_000)
def _pick_for(
    table: Table,
    players: int,
    state: tuple[int, int, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: Bonus,
    first_roll: bool,
    favoured: int,
) -> tuple[Plan, float]:
    """_pick's work. The loop runs for every project of every simulated year and every
    choice weighed: it works on flat tuples."""
    plans = _candidates(players)
    mods = _modifiers_for(players, modifiers, first_roll)
    w0, w1, w2 = table.weights
    ruin = GAME_OVER if table.foresees_ruin else None
    roots = _ROOTS
    e, v, q = state
    amount, target = bonus
    best_i, best_p, best_score = -1, 0.0, -math.inf
    fallback_i, fallback_p = -1, -1.0
    for i, d0, d1, d2, s0, s1, s2, difficulty, automatic in _prepared(
        players, _allowed_for(players, table.sacrifices, favoured)
    ):
        f0, f1, f2 = e - s0, v - s1, q - s2
        if f0 < 0 or f1 < 0 or f2 < 0:
            continue
        # d20 + modifier >= difficulty, no natural 20 for projects
        # The d20 must show this much; the year's one-project bonus only for a project
        # that develops its defense (or any project, when it names none).
        given = amount if amount and (target < 0 or (d0, d1, d2)[target] > 0) else 0
        need = difficulty - mods[i] - given
        p = 1.0 if automatic or need <= 1 else 0.0 if need > 20 else (21 - need) / 20
        if p < table.min_chance:
            if p > fallback_p:
                fallback_i, fallback_p = i, p
            continue
        if ruin is not None and (f0 == 0 or f1 == 0 or f2 == 0):
            fail_value = ruin
        else:
            fail_value = w0 * roots[f0] + w1 * roots[f1] + w2 * roots[f2]
        g0, g1, g2 = f0 + d0, f1 + d1, f2 + d2
        if ruin is not None and (g0 == 0 or g1 == 0 or g2 == 0):
            win_value = ruin
        else:
            win_value = w0 * roots[g0] + w1 * roots[g1] + w2 * roots[g2]
        score = p * win_value + (1 - p) * fail_value
        if score > best_score + 1e-9:
            best_i, best_p, best_score = i, p, score
    if best_i < 0:
        best_i, best_p = fallback_i, fallback_p
    assert best_i >= 0  # developing 1 level with no sacrifice is always legal
    return plans[best_i], best_p


def _story_project(
    rng: random.Random,
    players: int,
    state: Mapping[str, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: Bonus,
    index: int,
    ideas: Sequence[Plan],
    struck: str,
) -> tuple[Plan, float]:
    """A story-first table's project: one of the printed project ideas the group's size
    allows, picked for what it is, not for its numbers. The year's story sets the theme:
    after a fire in the market the table builds for the economy (an idea that develops
    ``struck``, the defense the event attacked, when one is left). Only what anyone at a
    table sees rules an idea out: a sacrifice that would leave a defense at STORY_FLOOR or
    below."""
    affordable = [
        idea
        for idea in ideas
        if all(
            state[d] - idea.sacrifice[d] > STORY_FLOOR for d in DEFENSES if idea.sacrifice.get(d)
        )
    ]
    affordable = [idea for idea in affordable if idea.develop.get(struck)] or affordable
    if not affordable:
        affordable = [p for p in _candidates(players) if not any(p.sacrifice.values())]
    plan = rng.choice(affordable)
    modifier = project_modifier(
        list(modifiers), plan.develop, plan.sacrifice, _first_roll(players, index)
    )
    given = bonus_for(bonus, plan.develop)
    p = 1.0 if plan.automatic else chance(plan.difficulty, modifier + given, natural_20=False)
    return plan, p


def project_ideas(
    players: int, ideas: Sequence[tuple[Mapping[str, int], Mapping[str, int]]]
) -> tuple[Plan, ...]:
    """The ideas (develops, sacrifices) the rules allow a group of ``players``, priced."""
    out = []
    for develop, sacrifice in ideas:
        plan = plan_project(players, develop, sacrifice)
        if plan.legal:
            out.append(Plan(dict(develop), dict(sacrifice), plan.difficulty, plan.automatic))
    return tuple(out)


# ------------------------------------------------------------------------------------------
# A run


@dataclass
class _EventTally:
    title: str
    labels: tuple[str, ...]
    drawn: int = 0
    lost: float = 0.0
    taken: list[int] = field(default_factory=list)  # times each choice was taken


@dataclass(frozen=True)
class Spread:
    mean: float
    p10: float
    p90: float


@dataclass(frozen=True)
class YearSpread:
    year: int
    defenses: Mapping[str, Spread]
    ruined: float = 0.0  # share of runs with a defense at 0 by the end of this year
    won: float = 0.0  # share of runs that have stood at 15/15/15 by the end of this year


@dataclass(frozen=True)
class EventEffect:
    id: str
    title: str
    expected_damage: float  # mean levels lost across the three E's; negative: a windfall
    drawn: int
    # (choice, share of the draws this table took it)
    choices: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Dominated:
    """A choice another choice of the same card beats on every defense, in expectation."""

    event: str
    choice: str
    by: str
    state: tuple[int, int, int]


@dataclass(frozen=True)
class Simulation:
    years: int
    runs: int
    policy: Policy
    seed: int | str
    start: Mapping[str, int]
    players: int
    by_year: list[YearSpread]
    p_any_below_minimum: float
    p_any_zero: float
    events: list[EventEffect] = field(default_factory=list)
    first_year: int = 1
    p_won: float = 0.0  # share of runs that stood at 15/15/15 at some year's end
    stop_at_win: bool = False
    # Choices another of their card beats on every defense by expected value (at 10/10/10,
    # 15/15/15, 20/20/20, in the first simulated year): traps, whoever plays.
    dominated: tuple[Dominated, ...] = ()

    def first_year_won(self, share: float) -> int | None:
        """The first year by whose end at least ``share`` of the runs had won."""
        return next((y.year for y in self.by_year if y.won >= share), None)

    def to_json(self) -> dict[str, object]:
        return {
            "years": self.years,
            "runs": self.runs,
            "policy": self.policy,
            "seed": self.seed,
            "start": dict(self.start),
            "players": self.players,
            "first_year": self.first_year,
            "stop_at_win": self.stop_at_win,
            "by_year": [
                {
                    "year": y.year,
                    **{
                        d: {"mean": s.mean, "p10": s.p10, "p90": s.p90}
                        for d, s in y.defenses.items()
                    },
                    "ruined": y.ruined,
                    "won": y.won,
                }
                for y in self.by_year
            ],
            "p_any_below_minimum": self.p_any_below_minimum,
            "p_any_zero": self.p_any_zero,
            "p_won": self.p_won,
            "dominated": [
                {"event": d.event, "choice": d.choice, "by": d.by, "at": list(d.state)}
                for d in self.dominated
            ],
            "events": [
                {
                    "id": e.id,
                    "title": e.title,
                    "expected_damage": e.expected_damage,
                    "drawn": e.drawn,
                    "choices": [{"choice": c, "taken": share} for c, share in e.choices],
                }
                for e in self.events
            ],
        }


def _quantile(values: Sequence[int], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return float(ordered[index])


def simulate(
    events: Sequence[EventCard],
    start: Mapping[str, int],
    players: int,
    years: int,
    runs: int,
    seed: int | str,
    policy: Policy = "balanced",
    party: Mapping[str, int] | None = None,
    first_year: int = 1,
    *,
    favours: Sequence[int] = (),
    ideas: Sequence[tuple[Mapping[str, int], Mapping[str, int]]] = (),
    stop_at_win: bool = False,
) -> Simulation:
    """``runs`` communities from ``start``, each through ``years`` drawn years, played as
    ``policy`` plays (``favours``: the defense each player's career pushes for, for
    career-driven play; ``ideas``: the printed project ideas, for story-first play). A run
    ends when a defense falls to 0, checked after the attack and after every project; with
    ``stop_at_win``, also when the community stands at 15/15/15 at a year's end."""
    table = table_for(policy, favours)
    if years < 1 or runs < 1:
        raise ValueError("--years and --runs must be 1 or more")
    if not events:
        raise ValueError("there are no events to draw")
    size = project_size(players)  # raises for a count the rules do not cover
    cards = [_read(e) for e in sorted(events, key=lambda e: e.id)]
    story_ideas = project_ideas(players, ideas)
    levels = {} if party is None else dict(party)
    rng = random.Random(seed)
    history: list[list[dict[str, int]]] = [[] for _ in range(years)]
    ruined_by = [0] * years
    won_by = [0] * years
    below = zero = won = 0
    tallies = {c.id: _EventTally(c.title, c.labels, taken=[0] * len(c.labels)) for c in cards}
    count = size.projects_per_player * players
    for _ in range(runs):
        state = {d: start[d] for d in DEFENSES}
        deck: list[_Read] = []
        held: set[str] = set()  # the marks the run's answers have left
        fell = hit_zero = has_won = False
        for year in range(years):
            if not deck:
                deck = rng.sample(cards, len(cards))
            card = deck.pop().with_marks(held)
            before = sum(state.values())
            state, modifiers, bonus, chosen = _play_event(
                rng, card, state, table, levels, players, first_year + year
            )
            if card.leaves and card.leaves[chosen]:
                held.add(str(card.leaves[chosen]))
            tallies[card.id].drawn += 1
            tallies[card.id].taken[chosen] += 1
            tallies[card.id].lost += before - sum(state.values())
            attempted = succeeded = 0
            if table.projects:
                for index in range(count):
                    if min(state.values()) <= 0:
                        break  # a project's sacrifice ended the game
                    if table.story_projects:
                        plan, _p = _story_project(
                            rng, players, state, modifiers, bonus, index, story_ideas, card.attacks
                        )
                    else:
                        plan, _p = _pick(table, players, _key(state), modifiers, bonus, index)
                    mod = project_modifier(
                        list(modifiers), plan.develop, plan.sacrifice, _first_roll(players, index)
                    )
                    roll = None if plan.automatic else rng.randint(1, 20)
                    given = bonus_for(bonus, plan.develop)
                    came_off = plan.automatic or (
                        roll is not None and roll + mod + given >= plan.difficulty
                    )
                    state = resolve_project(state, plan, roll, mod + given)
                    if given:  # "+2 to one project that develops X": the first such takes it
                        bonus = NO_BONUS
                    attempted += 1
                    succeeded += came_off
            if min(state.values()) > 0:
                state = _apply(state, evaluation(state, attempted, succeeded))
            history[year].append(dict(state))
            fell = fell or min(state.values()) < CREATION_MIN
            ended = False
            if min(state.values()) <= 0:  # the community has failed: the game ends
                hit_zero = ended = True
                for after_year in range(year, years):
                    ruined_by[after_year] += 1
            elif min(state.values()) >= SUCCESS_AT and not has_won:
                has_won = True
                ended = stop_at_win
                for after_year in range(year, years):
                    won_by[after_year] += 1
            if ended:
                for later in history[year + 1 :]:
                    later.append(dict(state))
                break
        below += fell
        zero += hit_zero
        won += has_won
    by_year = [
        YearSpread(
            first_year + year,
            {
                d: Spread(
                    round(sum(s[d] for s in states) / len(states), 2),
                    _quantile([s[d] for s in states], 0.1),
                    _quantile([s[d] for s in states], 0.9),
                )
                for d in DEFENSES
            },
            round(ruined_by[year] / runs, 4),
            round(won_by[year] / runs, 4),
        )
        for year, states in enumerate(history)
    ]
    effects = [
        EventEffect(
            card_id,
            t.title,
            round(t.lost / t.drawn, 3) if t.drawn else 0.0,
            t.drawn,
            tuple(
                (label, round(n / t.drawn, 3) if t.drawn else 0.0)
                for label, n in zip(t.labels, t.taken, strict=True)
            ),
        )
        for card_id, t in tallies.items()
    ]
    return Simulation(
        years=years,
        runs=runs,
        policy=policy,
        seed=seed,
        start={d: start[d] for d in DEFENSES},
        players=players,
        by_year=by_year,
        p_any_below_minimum=round(below / runs, 4),
        p_any_zero=round(zero / runs, 4),
        events=effects,
        first_year=first_year,
        p_won=round(won / runs, 4),
        stop_at_win=stop_at_win,
        dominated=tuple(dominated_choices(events, players=players, year=first_year)),
    )


class _Priced(Protocol):
    @property
    def develop(self) -> Mapping[str, int]: ...
    @property
    def sacrifice(self) -> Mapping[str, int]: ...
    @property
    def difficulty(self) -> int: ...
    @property
    def automatic(self) -> bool: ...


def resolve_project(
    state: Mapping[str, int], plan: _Priced, roll: int | None, modifier: int = 0
) -> dict[str, int]:
    """One project: on d20 + modifier >= difficulty (or automatically) the development is
    added; the sacrifice goes either way. ``roll`` is None for an automatic project."""
    succeeded = plan.automatic or (roll is not None and roll + modifier >= plan.difficulty)
    change = {d: -plan.sacrifice.get(d, 0) for d in DEFENSES}
    if succeeded:
        for d, v in plan.develop.items():
            change[d] += v
    return _apply(state, change)


def _key(state: Mapping[str, int]) -> tuple[int, int, int]:
    return (state["economy"], state["environment"], state["equity"])


def _play_event(
    rng: random.Random,
    card: _Read,
    state: dict[str, int],
    table: Table,
    party: Mapping[str, int],
    players: int,
    year: int = 1,
) -> tuple[dict[str, int], tuple[ProjectModifier, ...], Bonus, int]:
    """The event's part of the year: challenge, decision, attack. Returns the new state,
    the year's project modifiers, a bonus for one project and the choice taken."""
    level = party.get(card.ability, TYPICAL_LEVEL if not party else 0)
    roll = rng.randint(1, 20)
    challenge = (
        card.success if roll == NATURAL_20 or roll + level >= card.difficulty else card.failure
    )
    harder = escalation(year)
    challenge = challenge.plus(Effect(attack_bonus=harder.attack_bonus, damage=harder.damage))
    index = _choose(rng, table, card, state, challenge, party, players)
    effect = challenge.plus(card.choices[index])
    modifiers = _year_modifiers(card, effect)
    change = _sample(rng, _attack_outcomes(card, state, effect, party))
    return _apply(state, change), modifiers, _bonus(effect), index


def evaluation(state: Mapping[str, int], attempted: int, succeeded: int) -> dict[str, int]:
    """The GM's evaluation, judged on the year played whatever the table meant to do: a
    year whose projects mostly came off (at least half) was one of workable ideas and
    earns 1 level on each of the two weakest defenses; a year of failed projects or none,
    1 level on the weakest."""
    weakest = sorted(DEFENSES, key=lambda d: (state[d], DEFENSES.index(d)))
    if attempted and 2 * succeeded >= attempted:
        return {weakest[0]: 1, weakest[1]: 1}
    return {weakest[0]: 1}


# ------------------------------------------------------------------------------------------
# Judging a card's choices by expected value


def expected_change(
    card: EventCard,
    choice: int,
    state: Mapping[str, int],
    players: int = 4,
    year: int = 1,
    party: Mapping[str, int] | None = None,
) -> tuple[float, float, float]:
    """The levels each defense is expected to gain (negative: lose) in the year, after the
    challenge (rolled at the party's level, else a typical one) and the choice: the attack,
    the costs now, and the year's projects under the year's modifiers (so a choice that
    lifts a penalty on projects is worth what it lifts: _projects_expected)."""
    read = _read(card)
    levels = {} if party is None else dict(party)
    level = levels.get(read.ability, TYPICAL_LEVEL if not levels else 0)
    p_success = chance(read.difficulty, level)
    harder = escalation(year)
    total = [0.0, 0.0, 0.0]
    for p, challenge in ((p_success, read.success), (1 - p_success, read.failure)):
        effect = challenge.plus(Effect(attack_bonus=harder.attack_bonus, damage=harder.damage))
        effect = effect.plus(read.choices[choice])
        modifiers = _year_modifiers(read, effect)
        for q, change in _attack_outcomes(read, state, effect, levels):
            after = _key(_apply(state, change))
            gained = _projects_expected(players, modifiers, _bonus(effect))
            for i, d in enumerate(DEFENSES):
                total[i] += p * q * (after[i] - state[d] + gained[i])
    return (round(total[0], 4), round(total[1], 4), round(total[2], 4))


def _projects_expected(
    players: int, modifiers: tuple[ProjectModifier, ...], bonus: Bonus
) -> tuple[float, float, float]:
    """Levels the year's projects are expected to add to each defense under the year's
    modifiers: a plain project (3 levels, nothing sacrificed) for each defense in turn, so
    that what differs between a card's answers is only what they do to the project rolls (a
    penalty ended, a bonus to one project), not which projects a table would pick after."""
    count = project_size(players).projects_per_player * players
    levels = 3
    gained = []
    for defense in DEFENSES:
        plan = plan_project(players, {defense: levels}, {})
        modifier = project_modifier(list(modifiers), {defense: levels}, {})
        each = chance(plan.difficulty, modifier, natural_20=False)
        amount, target = bonus
        with_bonus = chance(plan.difficulty, modifier + amount, natural_20=False)
        # One project in three is this defense's. A bonus for one project that develops a
        # defense goes to a project of that defense; one that names none, to any of them.
        if target < 0:
            extra = (with_bonus - each) / len(DEFENSES)
        else:
            extra = (with_bonus - each) if DEFENSES[target] == defense else 0.0
        gained.append(levels * (count * each / len(DEFENSES) + extra))
    return (gained[0], gained[1], gained[2])


DOMINANCE_STATES: tuple[tuple[int, int, int], ...] = ((10, 10, 10), (15, 15, 15), (20, 20, 20))
DOMINANCE_MARGIN = 0.05  # levels: a choice must lose by more than this to count as beaten


def dominated_choices(
    events: Sequence[EventCard],
    states: Sequence[tuple[int, int, int]] = DOMINANCE_STATES,
    players: int = 4,
    year: int = 1,
) -> list[Dominated]:
    """Every choice that another choice of its card beats by expected value at one of
    ``states``: no worse on any defense and better on one by more than DOMINANCE_MARGIN. A
    choice no table should take is a trap printed on a card."""
    found: list[Dominated] = []
    for card in events:
        labels = [c.choice for c in card.decision.choices]
        for state in states:
            named = dict(zip(DEFENSES, state, strict=True))
            values = [expected_change(card, i, named, players, year) for i in range(len(labels))]
            for i, mine in enumerate(values):
                for j, theirs in enumerate(values):
                    if i == j:
                        continue
                    never_worse = all(t >= m - 1e-9 for t, m in zip(theirs, mine, strict=True))
                    better = any(
                        t > m + DOMINANCE_MARGIN for t, m in zip(theirs, mine, strict=True)
                    )
                    if never_worse and better:
                        found.append(Dominated(card.id, labels[i], labels[j], state))
                        break
    return found


def certain_hits(events: Sequence[EventCard], defense: int, year: int) -> list[str]:
    """The cards whose attack cannot miss a defense at ``defense`` in ``year`` as printed
    (before any choice): d20 + bonus reaches it even on a 1."""
    harder = escalation(year)
    return [
        e.id
        for e in events
        if not getattr(e, "windfall", False)
        and e.damage > 0
        and e.attack_bonus + harder.attack_bonus + 1 >= defense
    ]


__all__ = [
    "DOMINANCE_STATES",
    "POLICIES",
    "Dominated",
    "Policy",
    "Simulation",
    "Table",
    "certain_hits",
    "chance",
    "dominated_choices",
    "evaluation",
    "expected_change",
    "resolve_project",
    "simulate",
    "table_for",
]
