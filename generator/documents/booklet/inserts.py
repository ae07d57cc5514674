"""Generated tables in a booklet ("inserts"): the carry table, die alternatives, random
damage, pace, stat blocks, and for Resilience the events (listed, or one card in full), a
year of projects worked out by the project rules, the project sizes, project ideas and
careers.

Why one module of ~720 lines: it is the catalogue of the eleven inserts, a small model and
a view for each, all dispatched by :func:`insert_view`, so what an author may ask for is
listed and checked in one place.

An author asks for one with a fenced block whose info string is ``scratchpress``; its body
is YAML data, validated by a pydantic model per insert and turned into a view model for
``templates/booklet/insert.html``. User text is never treated as a template.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Literal

from markdown_it.token import Token
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...content.loader import resilience_content
from ...definitions.resilience_models import (
    DEFENSES,
    MAX_PROJECT_DEVELOPMENT,
    Defense,
    ProjectIdea,
    Threat,
)
from ...definitions.validation import Source, validation_problems
from ...definitions.yamlsafe import load_yaml
from ...problems import InputError, Problem
from ...rules import CharacterStats, CommunityStats, VehicleStats
from ...rules.abilities import closest
from ...rules.carry import carry_table
from ...rules.community import PROJECT_SIZES, plan_project
from ...rules.simulate import POLICIES, Policy, Simulation
from ...rules.tables import (
    CARD_RESHUFFLE_DRAWS,
    D6_GRID,
    D6_TIMES_FOUR,
    HIGH_SUITS,
    LOW_SUITS,
    PACE_MINUTES,
    PACES,
    RANDOM_DAMAGE_HP_FACTOR,
    card_table,
    pace_table,
    random_damage_table,
    round_fraction,
)
from ...rules.vehicles import CrewMember
from ...statblocks import Block
from ...wording import N_, _, ngettext, number
from .. import terms
from ..common import carry_cells, signed
from ..community import minus, project_result
from ..deck import ROLE_WORDS, either
from ..resilience_text import SimulationSetup, play, simulation_setup
from .source import BookletContext, Line

# The card suits and paces as the tables name them (rules.tables keys them in English).
SUITS: dict[str, str] = {
    "clubs": N_("clubs"),
    "spades": N_("spades"),
    "blue": N_("blue"),
    "green": N_("green"),
    "hearts": N_("hearts"),
    "diamonds": N_("diamonds"),
    "yellow": N_("yellow"),
    "red": N_("red"),
}
PACE_WORDS: dict[str, str] = {
    "frantic": N_("frantic"),
    "normal": N_("normal"),
    "chase": N_("chase"),
    "hunt": N_("hunt"),
}

# ---------------------------------------------------------------------------------- inserts


INSERT_FENCE = "scratchpress"  # ```scratchpress opens an insert


class _Insert(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    caption: Line | None = None  # a line above the table, in the author's words


class CarryInsert(_Insert):
    insert: Literal["carry-table"]
    low: int = Field(default=10, alias="from", ge=1, le=40)
    high: int = Field(default=20, alias="to", ge=1, le=40)


DieTable = Literal["grid", "cards", "d6"]


def _every_die_table() -> list[DieTable]:
    return ["grid", "cards", "d6"]


class DieInsert(_Insert):
    insert: Literal["die-alternatives"]
    show: list[DieTable] = Field(default_factory=_every_die_table, min_length=1)


class DamageInsert(_Insert):
    insert: Literal["random-damage"]


class PaceInsert(_Insert):
    insert: Literal["pace"]
    low: int = Field(default=2, alias="from", ge=1, le=20)
    high: int = Field(default=12, alias="to", ge=1, le=20)


Roster = Literal["characters", "minions", "vehicles", "communities", "everyone"]


class StatblockInsert(_Insert):
    insert: Literal["statblock"]
    names: list[Line] | None = Field(default=None, min_length=1)
    group: Line | None = None
    roster: Roster | None = None


class EventsInsert(_Insert):
    insert: Literal["events"]
    attacks: Defense | None = None
    threat: Threat | None = None


class EventCardInsert(_Insert):
    insert: Literal["event-card"]
    id: Line


ProjectLevels = Annotated[int, Field(ge=1, le=MAX_PROJECT_DEVELOPMENT)]


class ProjectLine(BaseModel):
    """One project of a worked year: who starts it, what it moves, and the d20 it rolled."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    player: Line
    develop: dict[Defense, ProjectLevels] = Field(min_length=1)
    sacrifice: dict[Defense, ProjectLevels] = Field(default_factory=dict)
    roll: int | None = Field(default=None, ge=1, le=20)


class ProjectsInsert(_Insert):
    """A year of projects worked out: the author gives the plans and the rolls; the
    difficulties, results and the year's net change come from the project rules."""

    insert: Literal["projects"]
    players: int = Field(ge=1, le=max(PROJECT_SIZES))
    projects: list[ProjectLine] = Field(min_length=1, max_length=28)
    bonus: dict[Defense, Annotated[int, Field(ge=1, le=2)]] = Field(default_factory=dict)


class ProjectSizesInsert(_Insert):
    insert: Literal["project-sizes"]


class ProjectIdeasInsert(_Insert):
    insert: Literal["project-ideas"]
    develops: Defense | None = None
    each: int = Field(default=3, ge=1, le=50)  # ideas shown under each defense


class CareersInsert(_Insert):
    insert: Literal["careers"]


EXPECT_POLICIES: tuple[Policy, ...] = ("passive", "story", "career", "balanced")


class ExpectInsert(_Insert):
    """What a table can expect of the campaign's deck, from the simulator itself: for each
    way of playing, the share of towns ruined and of towns at 15/15/15 by two years."""

    insert: Literal["what-to-expect"]
    policies: list[Policy] = Field(
        default_factory=lambda: list(EXPECT_POLICIES),
        min_length=1,
        max_length=len(POLICIES),
    )
    years: Annotated[
        list[Annotated[int, Field(ge=1, le=30)]], Field(min_length=1, max_length=3)
    ] = Field(default_factory=lambda: [5, 10])
    runs: int = Field(default=200, ge=50, le=2000)


INSERTS: dict[str, type[_Insert]] = {
    "carry-table": CarryInsert,
    "die-alternatives": DieInsert,
    "random-damage": DamageInsert,
    "pace": PaceInsert,
    "statblock": StatblockInsert,
    "events": EventsInsert,
    "event-card": EventCardInsert,
    "projects": ProjectsInsert,
    "project-sizes": ProjectSizesInsert,
    "project-ideas": ProjectIdeasInsert,
    "careers": CareersInsert,
    "what-to-expect": ExpectInsert,
}


def did_you_mean(name: str, known: Sequence[str]) -> str:
    by_lower = {k.lower(): k for k in known}
    hint = closest(name.lower(), tuple(by_lower))
    return f" (did you mean {by_lower[hint]!r}?)" if hint else ""


def _character_block(block: Block, stats: CharacterStats) -> dict[str, Any]:
    numbers: list[tuple[str, int]]
    if stats.defense is not None:
        numbers = [(_title("defense"), stats.defense)]
    else:
        numbers = [
            (_title("agility"), stats.agility or 0),
            (_title("intelligence"), stats.intelligence or 0),
            (_title("strength"), stats.strength or 0),
        ]
    numbers += [(_title("stamina"), stats.stamina), (_("HP"), stats.hit_points)]
    if block.kind == "minion":
        role = ngettext("minion of %(leader)s", "%(num)s minions of %(leader)s", block.count) % {
            "num": block.count,
            "leader": block.leader,
        }
    else:
        role = _("group: %(group)s") % {"group": block.group} if block.group else ""
    return {
        "name": block.name,
        "role": role,
        "description": block.description,
        "numbers": [{"label": label, "value": str(value)} for label, value in numbers],
        "lines": [
            {"level": str(a.level), "name": terms.ability(a.name), "extra": "", "note": a.note}
            for a in stats.abilities
        ],
    }


def _title(derived: str) -> str:
    """A derived value as a stat block's label: "Agility"."""
    word = terms.derived(derived)
    return word[:1].upper() + word[1:]


def _crew_title(member: CrewMember) -> str:
    """The crew member's job, as the vehicle sheet names it: "pilot", "gunner"."""
    if member.role == "operator":
        return terms.operator_title(member.ability)
    return _("gunner")


def _vehicle_block(block: Block, stats: VehicleStats) -> dict[str, Any]:
    lines = []
    for a in stats.abilities:
        extra = ""
        if a.crew is not None and a.crewed != a.level:
            rest = _("with %(name)s as %(title)s") % {
                "name": a.crew.name,
                "title": _crew_title(a.crew),
            }
            extra = f"({a.crewed} {rest})"
        lines.append(
            {"level": str(a.level), "name": terms.ability(a.name), "extra": extra, "note": a.note}
        )
    return {
        "name": block.name,
        "role": _("vehicle · moves by %(movement)s") % {"movement": terms.ability(stats.movement)},
        "description": block.description,
        "numbers": [
            {"label": _title("defense"), "value": str(stats.defense)},
            {"label": _title("stamina"), "value": str(stats.stamina)},
            {"label": _("HP"), "value": str(stats.hit_points)},
            {"label": _("Fuel"), "value": str(stats.fuel)},
        ],
        "lines": lines,
    }


def _community_block(block: Block, stats: CommunityStats) -> dict[str, Any]:
    return {
        "name": block.name,
        "role": _("community"),
        "description": block.description,
        "numbers": [
            {"label": terms.defense_title(name), "value": str(value)}
            for name, value in stats.defenses.items()
        ],
        "lines": [
            {
                "level": str(value),
                "name": terms.defense(name),
                "extra": "",
                "note": stats.notes.get(name, ""),
            }
            for name, value in stats.defenses.items()
            if stats.notes.get(name)
        ],
    }


def statblock_view(block: Block) -> dict[str, Any]:
    stats = block.stats
    if isinstance(stats, CharacterStats):
        return _character_block(block, stats)
    if isinstance(stats, VehicleStats):
        return _vehicle_block(block, stats)
    assert isinstance(stats, CommunityStats)
    return _community_block(block, stats)


_ROSTER_KINDS: dict[str, tuple[str, ...]] = {
    "characters": ("character", "minion"),
    "minions": ("minion",),
    "vehicles": ("vehicle",),
    "communities": ("community",),
    "everyone": ("character", "minion", "vehicle", "community"),
}


@dataclass(frozen=True)
class _Where:
    """Lines inside one insert block: of a key, of a list item, else of the fence itself."""

    file: str
    fence: int
    source: Source

    def line(self, *keys: str | int) -> int:
        return (self.source.line(*keys) if keys else None) or self.fence


def _statblocks(spec: StatblockInsert, ctx: BookletContext, where: _Where) -> list[Block]:
    computed = ctx.computed
    file = where.file
    given = [k for k in ("names", "group", "roster") if getattr(spec, k) is not None]
    if len(given) != 1:
        ctx.problem(
            "a statblock insert takes exactly one of names:, group: or roster:",
            file,
            where.line(*given[1:2]),
            "statblock",
        )
        return []
    if spec.roster is not None:
        kinds = _ROSTER_KINDS[spec.roster]
        return [b for b in computed.blocks if b.kind in kinds]
    if spec.group is not None:
        group = next((g for g in computed.groups if g.name == spec.group), None)
        if group is None:
            known = [g.name for g in computed.groups]
            ctx.problem(
                f"no initiative group named {spec.group!r}{did_you_mean(spec.group, known)}",
                file,
                where.line("group"),
                "group",
            )
            return []
        return list(group.members)
    blocks: list[Block] = []
    known = [b.name for b in computed.blocks]
    for index, name in enumerate(spec.names or []):
        found = [b for b in computed.blocks if b.name == name]
        if not found:
            ctx.problem(
                f"no character, minion, vehicle or community named {name!r}"
                f"{did_you_mean(name, known)}",
                file,
                where.line("names", index),
                f"names.{index}",
            )
        blocks += found
    return blocks


def _carry_view(spec: CarryInsert, ctx: BookletContext) -> dict[str, Any]:
    units = ctx.options.units
    return {
        "units": units,
        "rows": [carry_cells(row, units) for row in carry_table(spec.low, spec.high)],
    }


def _die_view(spec: DieInsert) -> dict[str, Any]:
    view: dict[str, Any] = {"show": list(spec.show)}
    view["grid"] = {
        "columns": [str(c) for c in range(1, 7)],
        "rows": [
            {"die": str(r), "cells": [str(v) for v in row]}
            for r, row in enumerate(D6_GRID, start=1)
        ],
    }
    suits = (*LOW_SUITS, *HIGH_SUITS)
    values = card_table(suits)
    # Every low suit gives the same value, and so does every high suit: one row for each
    # half of the deck, ranks across, keeps the table three lines tall.
    view["cards"] = {
        "ranks": [
            _("ace") if rank == 1 else (_("10 or 0") if rank == 10 else str(rank))
            for rank in range(1, len(values) + 1)
        ],
        "rows": [
            {
                "suits": ", ".join(_(SUITS[suit]) for suit in LOW_SUITS),
                "cells": [str(row[0]) for row in values],
            },
            {
                "suits": ", ".join(_(SUITS[suit]) for suit in HIGH_SUITS),
                "cells": [str(row[len(LOW_SUITS)]) for row in values],
            },
        ],
        "reshuffle": _(
            "Reshuffle all 40 cards after %(draws)s draws, or as soon as a card worth 20 is drawn."
        )
        % {"draws": CARD_RESHUFFLE_DRAWS},
    }
    faces = ", ".join(str(v) for v in sorted(D6_TIMES_FOUR))
    view["d6"] = [
        _(
            "One d6 × 4, a six counting as 0: %(faces)s. A 5 (20) is an automatic success"
            " only if a second roll shows 5 or 6."
        )
        % {"faces": faces},
        _(
            "Two d6 added and doubled, sixes counting as 0: 0 to 20 in steps of 2."
            " Only a double 5 is an automatic success."
        ),
    ]
    return view


def _decimal(value: Fraction, places: int, keep_zeros: bool = False) -> str:
    """A table's average or ratio, rounded as the rules round it (half up, exactly), with
    the language's decimal mark; "3.0" prints as "3" unless the column keeps its places."""
    text = round_fraction(value, places)
    if not keep_zeros and text.endswith(".0"):
        places = 0
    return number(Decimal(text), places)


def _damage_view() -> dict[str, Any]:
    rows = [
        {
            "normal": str(r.normal),
            "extra": str(r.extra),
            "total": r.total,
            "average": _decimal(r.average, 1),
            "ratio": _decimal(r.ratio, 2, keep_zeros=True) + "×",
        }
        for r in random_damage_table()
    ]
    return {
        "rows": rows,
        "above": _("Above 10: roll 1d20 and add the normal damage."),
        "hp": _("Maximum HP × %(factor)s while this rule is in use.")
        % {"factor": RANDOM_DAMAGE_HP_FACTOR},
    }


def _pace_view(spec: PaceInsert) -> dict[str, Any]:
    table = pace_table(spec.low, spec.high)
    return {
        "columns": [str(n) for n in range(spec.low, spec.high + 1)],
        "rows": [
            {
                "pace": _(PACE_WORDS[pace]),
                "length": _("%(minutes)s min") % {"minutes": PACE_MINUTES[pace]},
                "cells": [str(v) for v in table[pace]],
            }
            for pace in PACES
        ],
    }


def _events_view(spec: EventsInsert, ctx: BookletContext) -> dict[str, Any]:
    """Events grouped under the defense they attack, in the content's order."""
    events = [
        e
        for e in resilience_content(ctx.campaign).events
        if (spec.attacks is None or e.attacks == spec.attacks)
        and (spec.threat is None or e.threat == spec.threat)
    ]
    groups = []
    for defense in DEFENSES:
        rows = [
            {
                "title": e.title,
                "threat": terms.threat(e.threat),
                "bonus": signed(e.attack_bonus),
                "damage": str(e.damage),
            }
            for e in events
            if e.attacks == defense
        ]
        if rows:
            groups.append({"defense": terms.defense_title(defense), "rows": rows})
    return {"groups": groups, "count": len(events)}


# ------------------------------------------------------------------------- Resilience


def _moves(develop: Mapping[str, int], sacrifice: Mapping[str, int]) -> str:
    """A project as the table says it aloud: ``+5 economy, −4 environment``."""
    gains = [
        _("+%(levels)s %(defense)s") % {"levels": n, "defense": terms.defense(name)}
        for name, n in develop.items()
    ]
    losses = [
        _("−%(levels)s %(defense)s") % {"levels": n, "defense": terms.defense(name)}
        for name, n in sacrifice.items()
    ]
    return ", ".join(gains + losses)


def _change(value: int, zero: str = "") -> str:
    """A defense's change in a table cell: +5, −4; nothing (or ``zero``) when it stays."""
    if value == 0:
        return zero
    return f"+{value}" if value > 0 else minus(value)


def _by_name(levels: Mapping[Defense, int]) -> dict[str, int]:
    """Levels keyed by plain defense names, as the project rules take them."""
    return {str(name): n for name, n in levels.items()}


def _event_card_view(spec: EventCardInsert, ctx: BookletContext, where: _Where) -> dict[str, Any]:
    events = resilience_content(ctx.campaign).events
    event = next((e for e in events if e.id == spec.id), None)
    if event is None:
        known = [e.id for e in events]
        ctx.problem(
            f"no event with id {spec.id!r}{did_you_mean(spec.id, known)}",
            where.file,
            where.line("id"),
            "id",
        )
        return {}
    challenge = event.challenge
    return {
        "title": event.title,
        "threat": terms.threat(event.threat),
        "attacks": terms.defense_title(event.attacks),
        "attack": _("d20 %(bonus)s against %(defense)s")
        % {"bonus": signed(event.attack_bonus), "defense": terms.defense(event.attacks)},
        "damage": str(event.damage),
        "story": event.story,
        "temporary": event.temporary,
        "challenge": _("%(ability)s, difficulty %(difficulty)s")
        % {
            "ability": terms.capital(terms.ability(challenge.ability)),
            "difficulty": challenge.difficulty,
        },
        "success": challenge.success,
        "failure": challenge.failure,
        "prompt": event.decision.prompt,
        "choices": [
            {"choice": c.choice, "consequence": c.consequence} for c in event.decision.choices
        ],
        "encounter": event.encounter,
    }


def _projects_view(spec: ProjectsInsert, ctx: BookletContext, where: _Where) -> dict[str, Any]:
    """Each plan priced by ``plan_project`` and settled by its roll; the evaluation bonus;
    the year's net change. Plans the rules refuse are problems on their Markdown line."""
    size = PROJECT_SIZES[spec.players]
    each = size.projects_per_player
    rows: list[dict[str, Any]] = []
    year = dict.fromkeys(DEFENSES, 0)
    done: dict[str, int] = {}
    for index, line in enumerate(spec.projects):
        at = where.line("projects", index)
        done[line.player] = done.get(line.player, 0) + 1
        if done[line.player] == each + 1:
            ctx.problem(
                f"{line.player} starts a project too many: with {spec.players} players each"
                f" starts {each} a year",
                where.file,
                at,
                f"projects.{index}",
            )
        plan = plan_project(spec.players, _by_name(line.develop), _by_name(line.sacrifice))
        for message in plan.problems:
            ctx.problem(message, where.file, at, f"projects.{index}")
        # A plan the rules refuse has no roll to ask about.
        if not plan.problems and plan.automatic and line.roll is not None:
            ctx.problem(
                f"difficulty {minus(plan.difficulty)} succeeds without a roll: leave out roll:",
                where.file,
                where.line("projects", index, "roll"),
                f"projects.{index}.roll",
            )
        elif not plan.problems and not plan.automatic and line.roll is None:
            ctx.problem(
                f"difficulty {minus(plan.difficulty)} needs the d20 the player rolled:"
                " add roll: 1-20",
                where.file,
                at,
                f"projects.{index}",
            )
        result = project_result(plan, line.roll)
        change = plan.outcome(result != "failed")
        for name in DEFENSES:
            year[name] += change[name]
        rows.append(
            {
                "player": line.player,
                "moves": _moves(plan.develop, plan.sacrifice),
                "difficulty": minus(plan.difficulty),
                "roll": "–" if plan.automatic else str(line.roll or ""),
                "result": terms.project_result(result),
                "changes": [_change(change[d]) for d in DEFENSES],
            }
        )
    if len(done) > spec.players:
        ctx.problem(
            f"{len(done)} players start projects, but players: is {spec.players}",
            where.file,
            where.line("players"),
            "players",
        )
    bonus_total = sum(spec.bonus.values())  # each defense's share is 1 or 2 (the model)
    if bonus_total > 2:
        ctx.problem(
            "the GM's bonus is 2 levels of one defense, 1 of each of two, or 1 of one;"
            f" this one gives {bonus_total}",
            where.file,
            where.line("bonus"),
            "bonus",
        )
    for name, levels in spec.bonus.items():
        year[name] += levels
    view: dict[str, Any] = {
        "defenses": [terms.defense_short(d) for d in DEFENSES],
        "rows": rows,
        "size": ngettext(
            "%(players)s players: %(num)s %(size)s project each, up to %(levels)s levels",
            "%(players)s players: %(num)s %(size)s projects each, up to %(levels)s levels",
            each,
        )
        % {
            "players": spec.players,
            "num": each,
            "size": terms.project_size(size.size),
            "levels": size.max_development,
        },
        "bonus": [_change(spec.bonus.get(d, 0)) for d in DEFENSES] if spec.bonus else [],
        "year": [_change(year[d], zero="0") for d in DEFENSES],
    }
    return view


def _project_sizes_view() -> dict[str, Any]:
    """PROJECT_SIZES turned on its side: one column per number of players."""
    counts = list(PROJECT_SIZES)
    sizes = [PROJECT_SIZES[n] for n in counts]
    return {
        "players": [str(n) for n in counts],
        "rows": [
            {"label": _("Projects each"), "cells": [str(s.projects_per_player) for s in sizes]},
            {"label": _("Size"), "cells": [terms.project_size(s.size) for s in sizes]},
            {"label": _("Levels, at most"), "cells": [str(s.max_development) for s in sizes]},
            {
                "label": _("The group's levels"),
                "cells": [
                    str(n * s.projects_per_player * s.max_development)
                    for n, s in zip(counts, sizes, strict=True)
                ],
            },
        ],
        "beyond": _("%(more)s or more players: the rules stop at %(most)s.")
        % {"more": max(counts) + 1, "most": max(counts)},
    }


def _main_defense(idea: ProjectIdea) -> str:
    """The defense an idea develops most (the first named, on a tie)."""
    return max(idea.develops, key=lambda name: idea.develops[name])


def _project_ideas_view(spec: ProjectIdeasInsert, ctx: BookletContext) -> dict[str, Any]:
    ideas = resilience_content(ctx.campaign).project_ideas
    groups = []
    for defense in DEFENSES:
        if spec.develops is not None and defense != spec.develops:
            continue
        chosen = [i for i in ideas if _main_defense(i) == defense][: spec.each]
        rows = []
        for idea in chosen:
            # Priced for a table that plays projects of the idea's size: the size only
            # limits the development, the price is the same at any table.
            players = next(n for n, s in PROJECT_SIZES.items() if s.size == idea.size)
            plan = plan_project(players, _by_name(idea.develops), _by_name(idea.sacrifices))
            rows.append(
                {
                    "name": idea.name,
                    "theme": idea.theme,
                    "moves": _moves(plan.develop, plan.sacrifice),
                    "size": terms.project_size(idea.size),
                    "difficulty": terms.project_result("automatic")
                    if plan.automatic
                    else minus(plan.difficulty),
                }
            )
        if rows:
            groups.append({"defense": terms.defense_title(defense), "rows": rows})
    return {"groups": groups}


# The ways of playing as the booklet names them (docs/resilience.md, "Policies").
POLICY_NAMES: dict[str, str] = {
    "passive": N_("A passive town: no projects, the cheapest answers"),
    "balanced": N_("A careful table: weakest defense first, answers weighed"),
    "greedy": N_("A greedy table: economy first, ruin not foreseen"),
    "story": N_("A story-first table: answers and project ideas for the story"),
    "timid": N_("A timid table: the safest answer, only likely projects"),
    "career": N_("A career-driven table: each player builds what their career favors"),
    "no-sacrifice": N_("A table that never sacrifices a level"),
}
EXPECT_SEED = 1  # the figures are reproducible: one seed, printed under the table


def _expect_view(spec: ExpectInsert, ctx: BookletContext) -> dict[str, Any]:
    setup = simulation_setup(ctx.campaign)
    last = max(spec.years)
    rows = []
    for policy in spec.policies:
        result = _simulated(setup, policy, last, spec.runs)
        by_year = {y.year - setup.first_year + 1: y for y in result.by_year}
        rows.append(
            {
                "name": _(POLICY_NAMES[policy]),
                "cells": [_percent(by_year[y].ruined) for y in spec.years]
                + [_percent(by_year[y].won) for y in spec.years],
            }
        )
    start = " / ".join(str(setup.start[d]) for d in DEFENSES)
    return {
        "years": [str(y) for y in spec.years],
        "rows": rows,
        "note": _(
            "From %(start)s with %(players)s players: %(runs)s simulated towns per row"
            " (scratchpress resilience simulate --runs %(runs)s --seed %(seed)s --policy ...)."
            " Ruined: a defense at 0. 15/15/15: the text's tentative success."
        )
        % {"start": start, "players": setup.players, "runs": spec.runs, "seed": EXPECT_SEED},
    }


def _percent(share: float) -> str:
    return number(round(100 * share)) + "%"


def _simulated(setup: SimulationSetup, policy: Policy, years: int, runs: int) -> Simulation:
    """One policy's simulation of the campaign's deck, remembered for the process: a build
    of every language (or a booklet that prints the table twice) plays it once."""
    key = (
        policy,
        years,
        runs,
        repr(setup.start),
        setup.players,
        repr(sorted((setup.party or {}).items())),
        setup.first_year,
        setup.favours,
        repr(setup.ideas),
        repr([e.model_dump_json() for e in setup.events]),
    )
    found = _SIMULATED.get(key)
    if found is None:
        found = _SIMULATED[key] = play(setup, years, runs, EXPECT_SEED, policy)
    return found


_SIMULATED: dict[tuple[Any, ...], Simulation] = {}


def _careers_view(ctx: BookletContext) -> dict[str, Any]:
    careers = resilience_content(ctx.campaign).careers
    return {
        "careers": [
            {
                "name": c.name,
                "role": _(ROLE_WORDS[c.combat_role]) if c.combat_role else "",
                "required": [either([terms.ability(a) for a in group]) for group in c.required],
                "wants": c.wants or "",
            }
            for c in careers
        ]
    }


def _insert_problems(err: ValidationError, model: type[_Insert], source: Source) -> list[Problem]:
    """The campaign loader's messages, except that unknown keys list the keys an author
    writes (``from``, ``to``) rather than the Python names behind them (``low``, ``high``)."""
    keys = [info.alias or name for name, info in model.model_fields.items()]
    problems = [
        p
        for p in validation_problems(err, model, source, None)
        if not p.message.startswith("unknown key")
    ]
    for error in err.errors():
        if error["type"] != "extra_forbidden":
            continue
        key = str(error["loc"][-1])
        hint = closest(key, tuple(keys))
        message = "unknown key" + (f" (did you mean {hint!r}?)" if hint else "")
        message += f"; allowed: {', '.join(keys)}"
        problems.append(Problem(message, source.file, source.line(key), None, key))
    return sorted(problems, key=lambda p: p.line or 0)


def insert_view(token: Token, ctx: BookletContext, file: str) -> dict[str, Any] | None:
    """Validate a ```scratchpress block and build its view model (None after a problem)."""
    assert token.map is not None
    first = token.map[0] + 2  # 1-based line of the block's first line of YAML
    try:
        data, positions = load_yaml(token.content, file)
    except InputError as err:
        for p in err.problems:
            line = first + p.line - 1 if p.line else token.map[0] + 1
            ctx.problem(p.message, file, line)
        return None
    if not isinstance(data, dict) or "insert" not in data:
        ctx.problem(
            f"a ```{INSERT_FENCE} block holds YAML starting with 'insert: NAME'; known: "
            + ", ".join(INSERTS),
            file,
            token.map[0] + 1,
        )
        return None
    name = str(data["insert"])
    model = INSERTS.get(name)
    shifted = {path: first + line - 1 for path, line in positions.items()}
    if model is None:
        ctx.problem(
            f"unknown insert {name!r}{did_you_mean(name, list(INSERTS))}; known: "
            + ", ".join(INSERTS),
            file,
            shifted.get(("insert",)),
            "insert",
        )
        return None
    try:
        spec = model.model_validate(data)
    except ValidationError as err:
        ctx.problems.extend(_insert_problems(err, model, Source(file, (), shifted)))
        return None
    where = _Where(file, token.map[0] + 1, Source(file, (), shifted))
    view: dict[str, Any] = {"type": name, "caption": spec.caption or ""}
    if isinstance(spec, CarryInsert | PaceInsert) and spec.low > spec.high:
        ctx.problem(f"{spec.low} is above to: {spec.high}", file, where.line("from"), "from")
        return None
    if isinstance(spec, CarryInsert):
        view.update(_carry_view(spec, ctx))
    elif isinstance(spec, DieInsert):
        view.update(_die_view(spec))
    elif isinstance(spec, DamageInsert):
        view.update(_damage_view())
    elif isinstance(spec, PaceInsert):
        view.update(_pace_view(spec))
    elif isinstance(spec, StatblockInsert):
        blocks = _statblocks(spec, ctx, where)
        if not blocks:
            return None
        view["blocks"] = [statblock_view(b) for b in blocks]
    elif isinstance(spec, EventsInsert):
        view.update(_events_view(spec, ctx))
        if not view["groups"]:
            ctx.problem("no event matches attacks:/threat:", file, where.line())
            return None
    elif isinstance(spec, EventCardInsert):
        card = _event_card_view(spec, ctx, where)
        if not card:
            return None
        view["event"] = card
    elif isinstance(spec, ProjectsInsert):
        view.update(_projects_view(spec, ctx, where))
    elif isinstance(spec, ProjectSizesInsert):
        view.update(_project_sizes_view())
    elif isinstance(spec, ProjectIdeasInsert):
        view.update(_project_ideas_view(spec, ctx))
    elif isinstance(spec, CareersInsert):
        view.update(_careers_view(ctx))
    elif isinstance(spec, ExpectInsert):
        view.update(_expect_view(spec, ctx))
    return view
