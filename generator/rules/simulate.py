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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal, Protocol

from .community import CREATION_MIN, DEFENSES, escalation, plan_project, project_size
from .effects import (
    Effect,
    ProjectModifier,
    parse_effect,
    parse_temporary,
    penalty_becomes,
    project_modifier,
)

Policy = Literal["passive", "balanced", "greedy"]
POLICIES: tuple[Policy, ...] = ("passive", "balanced", "greedy")
TYPICAL_LEVEL = 2  # a party's best level in an ability, when no party is given
NATURAL_20 = 20
GREEDY_WEIGHT = 2.0
GAME_OVER = -100.0  # what balanced play thinks of a defense at 0: worse than any low value


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
    )


# ------------------------------------------------------------------------------------------
# Dice


@lru_cache(maxsize=4096)
def chance(needed: int, bonus: int = 0, natural_20: bool = True) -> float:
    """P(d20 + bonus >= needed); with ``natural_20`` a 20 always succeeds."""
    hits = sum(1 for roll in range(1, 21) if roll + bonus >= needed or (natural_20 and roll == 20))
    return hits / 20


# ------------------------------------------------------------------------------------------
# Valuing a community: what each policy wants


@lru_cache(maxsize=1024)
def _root(level: int) -> float:
    return 4.0 * math.sqrt(max(level, 0))


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


def _choose(
    policy: Policy,
    card: _Read,
    state: Mapping[str, int],
    challenge: Effect,
    party: Mapping[str, int],
    players: int,
) -> int:
    """The index of the choice the policy takes."""
    if policy == "passive":
        # What costs least now; ties go to the card's first choice.
        def cost_now(index: int) -> int:
            return -sum(v for v in card.choices[index].now.values() if v < 0)

        return min(range(len(card.choices)), key=cost_now)
    scores = []
    for choice in card.choices:
        effect = challenge.plus(choice)
        outcomes = _attack_outcomes(card, state, effect, party)
        modifiers = _year_modifiers(card, effect)
        scores.append(
            sum(
                p
                * _with_projects(
                    policy, players, _key(_apply(state, change)), modifiers, effect.project_bonus
                )
                for p, change in outcomes
            )
        )
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def _with_projects(
    policy: Policy,
    players: int,
    state: tuple[int, int, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: int,
) -> float:
    """What a state after the attack is worth, counting the year's projects still to come,
    so a choice that ends a penalty on projects or gives one a bonus is valued for it: each
    project's expected gain under the year's modifiers, the bonus on the first."""
    now = _tuple_value(policy, state)
    if min(state) <= 0:
        return now  # the game is over: no projects follow
    count = project_size(players).projects_per_player * players
    plain = _best_plan_scored(policy, players, state, modifiers, 0)[1] - now
    first = _best_plan_scored(policy, players, state, modifiers, bonus)[1] - now
    return now + first + (count - 1) * plain


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


@lru_cache(maxsize=16)
def _candidates(policy: Policy, players: int) -> tuple[Plan, ...]:
    """The projects players actually bring to the table: develop one defense by up to the
    size's maximum, optionally paying for it with levels of one other defense. Each is
    checked and priced by ``plan_project``, as ``resilience project`` does."""
    size = project_size(players)
    plans: list[Plan] = []
    for target in DEFENSES:
        for levels in range(1, size.max_development + 1):
            for payer in [None, *[d for d in DEFENSES if d != target]]:
                for paid in range(1, levels + 1) if payer else [0]:
                    sacrifice = {payer: paid} if payer else {}
                    plan = plan_project(players, {target: levels}, sacrifice)
                    if plan.legal:
                        plans.append(
                            Plan({target: levels}, sacrifice, plan.difficulty, plan.automatic)
                        )
    return tuple(plans)


@lru_cache(maxsize=4096)
def _modifiers_for(
    policy: Policy, players: int, modifiers: tuple[ProjectModifier, ...]
) -> tuple[int, ...]:
    return tuple(
        project_modifier(list(modifiers), plan.develop, plan.sacrifice)
        for plan in _candidates(policy, players)
    )


@lru_cache(maxsize=16)
def _vectors(policy: Policy, players: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Each candidate's development and sacrifice as (economy, environment, equity)."""
    return tuple(
        (
            tuple(plan.develop.get(d, 0) for d in DEFENSES),
            tuple(plan.sacrifice.get(d, 0) for d in DEFENSES),
        )
        for plan in _candidates(policy, players)
    )


def _best_plan(
    policy: Policy,
    players: int,
    state: tuple[int, int, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: int,
) -> Plan:
    return _best_plan_scored(policy, players, state, modifiers, bonus)[0]


@lru_cache(maxsize=200_000)
def _best_plan_scored(
    policy: Policy,
    players: int,
    state: tuple[int, int, int],
    modifiers: tuple[ProjectModifier, ...],
    bonus: int,
) -> tuple[Plan, float]:
    """The candidate project with the best expected value for the policy in this state
    (a sacrifice may not exceed what a defense has), and that value. Worked on tuples:
    this runs for every project of every simulated year."""
    best_score = -math.inf
    best: Plan | None = None
    plans = _candidates(policy, players)
    mods = _modifiers_for(policy, players, modifiers)
    for plan, mod, (dev, sac) in zip(plans, mods, _vectors(policy, players), strict=True):
        failure = (state[0] - sac[0], state[1] - sac[1], state[2] - sac[2])
        if min(failure) < 0:
            continue
        success = (failure[0] + dev[0], failure[1] + dev[1], failure[2] + dev[2])
        p = 1.0 if plan.automatic else chance(plan.difficulty, mod + bonus, natural_20=False)
        score = p * _tuple_value(policy, success) + (1 - p) * _tuple_value(policy, failure)
        if score > best_score + 1e-9:
            best_score, best = score, plan
    assert best is not None  # developing 1 level with no sacrifice is always legal
    return best, best_score


def _tuple_value(policy: Policy, state: tuple[int, int, int]) -> float:
    if policy == "greedy":  # economy counts GREEDY_WEIGHT times, and ruin is not foreseen
        return GREEDY_WEIGHT * _root(state[0]) + _root(state[1]) + _root(state[2])
    if min(state) <= 0:
        return GAME_OVER
    return _root(state[0]) + _root(state[1]) + _root(state[2])


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


@dataclass(frozen=True)
class EventEffect:
    id: str
    title: str
    expected_damage: float  # mean levels lost across the three E's; negative: a windfall
    drawn: int
    # (choice, share of the draws it was taken): a choice never taken by any policy is
    # dominated, a trap on the card
    choices: tuple[tuple[str, float], ...] = ()


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

    def to_json(self) -> dict[str, object]:
        return {
            "years": self.years,
            "runs": self.runs,
            "policy": self.policy,
            "seed": self.seed,
            "start": dict(self.start),
            "players": self.players,
            "first_year": self.first_year,
            "by_year": [
                {
                    "year": y.year,
                    **{
                        d: {"mean": s.mean, "p10": s.p10, "p90": s.p90}
                        for d, s in y.defenses.items()
                    },
                }
                for y in self.by_year
            ],
            "p_any_below_minimum": self.p_any_below_minimum,
            "p_any_zero": self.p_any_zero,
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
) -> Simulation:
    """``runs`` communities from ``start``, each through ``years`` drawn years."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; use one of {', '.join(POLICIES)}")
    if years < 1 or runs < 1:
        raise ValueError("--years and --runs must be 1 or more")
    if not events:
        raise ValueError("there are no events to draw")
    project_size(players)  # raises for a count the rules do not cover
    cards = [_read(e) for e in sorted(events, key=lambda e: e.id)]
    levels = {} if party is None else dict(party)
    rng = random.Random(seed)
    history: list[list[dict[str, int]]] = [[] for _ in range(years)]
    below = zero = 0
    tallies = {c.id: _EventTally(c.title, c.labels, taken=[0] * len(c.labels)) for c in cards}
    size = project_size(players)
    for _ in range(runs):
        state = {d: start[d] for d in DEFENSES}
        deck: list[_Read] = []
        fell = hit_zero = False
        for year in range(years):
            if not deck:
                deck = rng.sample(cards, len(cards))
            card = deck.pop()
            before = sum(state.values())
            state, modifiers, bonus, chosen = _play_event(
                rng, card, state, policy, levels, players, first_year + year
            )
            tallies[card.id].drawn += 1
            tallies[card.id].taken[chosen] += 1
            tallies[card.id].lost += before - sum(state.values())
            if policy != "passive" and min(state.values()) > 0:
                for _project in range(size.projects_per_player * players):
                    plan = _best_plan(policy, players, _key(state), modifiers, bonus)
                    mod = project_modifier(list(modifiers), plan.develop, plan.sacrifice) + bonus
                    bonus = 0  # "+2 to one project": the first project takes it
                    roll = None if plan.automatic else rng.randint(1, 20)
                    state = resolve_project(state, plan, roll, mod)
            if min(state.values()) > 0:
                state = _apply(state, _evaluation(policy, state))
            history[year].append(dict(state))
            fell = fell or min(state.values()) < CREATION_MIN
            if min(state.values()) <= 0:  # the community has failed: the game ends
                hit_zero = True
                for later in history[year + 1 :]:
                    later.append(dict(state))
                break
        below += fell
        zero += hit_zero
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
    policy: Policy,
    party: Mapping[str, int],
    players: int,
    year: int = 1,
) -> tuple[dict[str, int], tuple[ProjectModifier, ...], int, int]:
    """The event's part of the year: challenge, decision, attack. Returns the new state,
    the year's project modifiers, a bonus for one project and the choice taken."""
    level = party.get(card.ability, TYPICAL_LEVEL if not party else 0)
    roll = rng.randint(1, 20)
    challenge = (
        card.success if roll == NATURAL_20 or roll + level >= card.difficulty else card.failure
    )
    harder = escalation(year)
    challenge = challenge.plus(Effect(attack_bonus=harder.attack_bonus, damage=harder.damage))
    index = _choose(policy, card, state, challenge, party, players)
    effect = challenge.plus(card.choices[index])
    modifiers = _year_modifiers(card, effect)
    change = _sample(rng, _attack_outcomes(card, state, effect, party))
    return _apply(state, change), modifiers, effect.project_bonus, index


def _evaluation(policy: Policy, state: Mapping[str, int]) -> dict[str, int]:
    weakest = sorted(DEFENSES, key=lambda d: (state[d], DEFENSES.index(d)))
    if policy == "balanced":
        return {weakest[0]: 1, weakest[1]: 1}
    if policy == "greedy":
        return {"economy": 1}
    return {weakest[0]: 1}


__all__ = ["POLICIES", "Policy", "Simulation", "chance", "resolve_project", "simulate"]
