"""Resilience table aids as terminal text and JSON: a project's check, a drawn event, a
simulation of many years.

What ``scratchpress resilience project``, ``draw`` and ``simulate`` print. The numbers come from
``rules.community``; this module only words and lays them out (or lists them for
``--json``).
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..definitions.campaign import Campaign
from ..definitions.models import CommunityDef, level_and_note
from ..definitions.resilience_models import (
    Career,
    Event,
    Mark,
    answer_named,
    events_by_name,
    marks_bonus,
    marks_left,
    memories_held,
)
from ..rules.community import DEFENSES, ProjectPlan, yearly_attack
from ..rules.simulate import Policy, Simulation, Spread, simulate

WRAP = 88
LABEL_WIDTH = 12


@dataclass(frozen=True)
class FoundCommunity:
    name: str
    definition: CommunityDef
    now: dict[str, int]


def _defense_line(values: dict[str, int]) -> str:
    return ", ".join(f"{d} {values[d]}" for d in DEFENSES)


def _chance(plan: ProjectPlan) -> float:
    """Chance of success on a d20 (equal or higher than the difficulty)."""
    if plan.automatic:
        return 1.0
    return max(0, min(20, 21 - plan.difficulty)) / 20


def project_report(
    plan: ProjectPlan, players: int, community: FoundCommunity | None
) -> dict[str, Any]:
    """Everything ``project`` prints, as JSON-ready data."""
    report: dict[str, Any] = {
        "players": players,
        "size": plan.size.size,
        "projects_per_player": plan.size.projects_per_player,
        "max_development": plan.size.max_development,
        "develop": dict(plan.develop),
        "sacrifice": dict(plan.sacrifice),
        "developed": sum(plan.develop.values()),
        "sacrificed": sum(plan.sacrifice.values()),
        "difficulty": plan.difficulty,
        "automatic": plan.automatic,
        "chance": _chance(plan),
        "legal": plan.legal,
        "problems": list(plan.problems),
        "community": None,
    }
    if community is not None:
        now = community.now

        def after(succeeded: bool) -> dict[str, int]:
            change = plan.outcome(succeeded)
            return {d: now[d] + change[d] for d in DEFENSES}

        report["community"] = {
            "name": community.name,
            "now": dict(now),
            "on_success": after(True),
            "on_failure": after(False),
        }
    return report


def _changes_text(changes: dict[str, int], sign: str) -> str:
    return ", ".join(f"{name} {sign}{n}" for name, n in changes.items()) or "nothing"


def project_text(report: dict[str, Any]) -> str:
    players = report["players"]
    each = report["projects_per_player"]
    lines = [
        f"{report['size'].capitalize()} project: {players} player{'s' if players != 1 else ''},"
        f" {each} project{'s' if each != 1 else ''} each,"
        f" up to {report['max_development']} levels developed",
        f"{'Develops':<{LABEL_WIDTH}}{_changes_text(report['develop'], '+')}"
        f" ({report['developed']} level{'s' if report['developed'] != 1 else ''})",
        f"{'Sacrifices':<{LABEL_WIDTH}}{_changes_text(report['sacrifice'], '-')}"
        f" ({report['sacrificed']} level{'s' if report['sacrificed'] != 1 else ''})",
        f"{'Difficulty':<{LABEL_WIDTH}}7 + 2 × {report['developed']} - 5 × {report['sacrificed']}"
        f" = {report['difficulty']}",
    ]
    if report["automatic"]:
        result = "succeeds automatically (1 or less: a d20 never rolls under 1)"
    elif report["chance"] == 0:
        result = "cannot succeed: a d20 never rolls over 20"
    else:
        result = (
            f"roll d20: {report['difficulty']} or more succeeds"
            f" ({round(report['chance'] * 100)}% chance)"
        )
    lines.append(f"{'Result':<{LABEL_WIDTH}}{result}")
    community = report["community"]
    if community is not None:
        lines.append(
            f"{'Now':<{LABEL_WIDTH}}{community['name']}: {_defense_line(community['now'])}"
        )
        if report["automatic"]:
            lines.append(f"{'After':<{LABEL_WIDTH}}{_defense_line(community['on_success'])}")
        else:
            lines.append(f"{'On success':<{LABEL_WIDTH}}{_defense_line(community['on_success'])}")
            lines.append(f"{'On failure':<{LABEL_WIDTH}}{_defense_line(community['on_failure'])}")
    return "\n".join(lines)


def _wrapped(label: str, text: str, indent: int = 2, hang: int = 0) -> list[str]:
    """``label`` in a fixed column, ``text`` wrapped beside it (``hang`` more on later lines)."""
    first = " " * indent + f"{label:<{LABEL_WIDTH}}"
    rest = " " * (indent + LABEL_WIDTH + hang)
    return textwrap.wrap(
        text, WRAP, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    ) or [first.rstrip()]


def _bonus(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def history_marks(community: CommunityDef | None, events: Sequence[Event]) -> dict[str, Mark]:
    """The marks in a community's history, by id, in the order they were left: those its
    logged answers leave (the event found by its title or id, the answer in the card's
    words, any case) and those the GM wrote in by id."""
    if community is None:
        return {}
    by_name = events_by_name(events)
    left = marks_left(events)
    found: dict[str, Mark] = {}
    for year in sorted(community.history, key=lambda h: h.year):
        event = by_name.get(year.event.strip().casefold())
        answer = answer_named(event, year.choice) if event is not None and year.choice else None
        if answer is not None and answer.leaves is not None:
            found[answer.leaves.id] = answer.leaves
        for mark_id in year.marks:
            found[mark_id] = left[mark_id][0] if mark_id in left else Mark(id=mark_id, name=mark_id)
    return found


def event_text(
    year: int,
    event: Event,
    now: dict[str, int] | None = None,
    page: int | None = None,
    held: Mapping[str, Mark] | None = None,
) -> str:
    """One drawn event, laid out for a terminal; ``page``, that of encounters.pdf with its
    opponents; ``held``, the marks in the community's history."""
    held = held or {}
    defense = event.attacks
    against = f"{defense} ({now[defense]} now)" if now is not None else defense
    lines = [f"Year {year} · {event.title} [{event.id}]"]
    lines += _wrapped("Threat", f"{event.threat}; attacks {defense}")
    attack = yearly_attack(event.attack_bonus, event.damage, year)
    extra = marks_bonus(event, held)
    why = "; ".join(
        part for part in (attack.why, f"marks {_bonus(extra)}" if extra else "") if part
    )
    lines += _wrapped(
        "GM's roll",
        f"d20 {_bonus(attack.bonus + extra)} vs {against}; on a hit {defense} loses"
        f" {attack.damage} level{'s' if attack.damage != 1 else ''}" + (f" ({why})" if why else ""),
    )
    for memory in memories_held(event, held):
        said = memory.text + (
            f" Attack bonus {_bonus(memory.attack_bonus)}." if memory.attack_bonus else ""
        )
        lines += _wrapped("Remembers", f"{held[memory.mark].name}: {said}")
    lines += _wrapped("Temporary", event.temporary)
    challenge = event.challenge
    lines += _wrapped(
        "Challenge", f"d20 + {challenge.ability} vs difficulty {challenge.difficulty}"
    )
    lines += _wrapped("", f"success: {challenge.success}", hang=9)
    lines += _wrapped("", f"failure: {challenge.failure}", hang=9)
    lines += _wrapped("Decision", event.decision.prompt)
    for number, choice in enumerate(event.decision.choices, 1):
        leaves = f" [leaves: {choice.leaves.name}]" if choice.leaves else ""
        lines += _wrapped("", f"{number}. {choice.choice}: {choice.consequence}{leaves}", hang=3)
    lines += _wrapped("Encounter", event.encounter)
    if page is not None:
        lines += _wrapped("Opponents", f"encounters.pdf, page {page}")
    return "\n".join(lines)


def event_json(
    year: int, event: Event, page: int | None = None, held: Mapping[str, Mark] | None = None
) -> dict[str, Any]:
    """The card as written, with the attack as it stands in ``year`` (harder years, and
    the history's marks), the lines the marks call up, and the page of encounters.pdf
    with its opponents (None when it prints none)."""
    held = held or {}
    attack = yearly_attack(event.attack_bonus, event.damage, year)
    extra = marks_bonus(event, held)
    return {
        "year": year,
        **event.model_dump(mode="json"),
        "year_attack_bonus": attack.bonus + extra,
        "marks_attack_bonus": extra,
        "year_damage": attack.damage,
        "remembered": [
            {
                "mark": m.mark,
                "name": held[m.mark].name,
                "text": m.text,
                "attack_bonus": m.attack_bonus,
            }
            for m in memories_held(event, held)
        ],
        "encounters_page": page,
    }


# ------------------------------------------------------------------------------ simulate

DEFAULT_START = {"economy": 10, "environment": 10, "equity": 10}  # the rules' average
DEFAULT_PLAYERS = 4


def only_community(campaign: Campaign | None) -> CommunityDef | None:
    """The campaign's community when there is exactly one, for numbering and "before"."""
    if campaign is None or len(campaign.communities) != 1:
        return None
    definition: CommunityDef = campaign.communities[0].definition
    return definition


def party_favours(campaign: Campaign | None, careers: Sequence[Career]) -> tuple[int, ...]:
    """The defense (an index into DEFENSES) each player character's career favors, for
    career-driven play; empty without player characters whose careers favor one."""
    if campaign is None:
        return ()
    favors = {c.name.casefold(): c.favors for c in careers}
    favors.update({c.id: c.favors for c in careers})
    out = []
    for located in campaign.characters:
        character = located.definition
        career = (character.career or "").strip()
        favored = favors.get(career.casefold()) or favors.get(career)
        if character.player and favored:
            out.append(DEFENSES.index(favored))
    return tuple(out)


def party_levels(campaign: Campaign | None) -> dict[str, int] | None:
    """The player characters' best level in each ability (None: no player characters)."""
    if campaign is None:
        return None
    best: dict[str, int] = {}
    for located in campaign.characters:
        character = located.definition
        if not character.player:
            continue
        for ability, value in character.abilities.items():
            level, _ = level_and_note(value)
            best[ability] = max(best.get(ability, 0), level)
    return best or None


@dataclass(frozen=True)
class SimulationSetup:
    """What a simulation of a campaign plays: its deck, its community as it stands now (or
    10/10/10 with 4 players), its player characters' best levels and careers, the printed
    project ideas, and the year it goes on from."""

    events: list[Event]
    start: dict[str, int]
    players: int
    party: dict[str, int] | None
    first_year: int
    favours: tuple[int, ...]
    ideas: list[tuple[dict[str, int], dict[str, int]]]
    community: str | None


def simulation_setup(campaign: Campaign | None) -> SimulationSetup:
    """The setup `resilience simulate` and the booklet's what-to-expect table share."""
    from ..content.loader import resilience_content
    from .community import current_defenses, latest_year

    content = resilience_content(campaign)
    community = only_community(campaign)
    return SimulationSetup(
        events=list(content.events),
        start=current_defenses(community) if community is not None else dict(DEFAULT_START),
        players=(community.players if community is not None else None) or DEFAULT_PLAYERS,
        party=party_levels(campaign),
        # A campaign in play goes on from its next year, when the years are harder.
        first_year=latest_year(community) + 1 if community is not None else 1,
        favours=party_favours(campaign, content.careers),
        ideas=[
            (
                {str(d): n for d, n in idea.develops.items()},
                {str(d): n for d, n in idea.sacrifices.items()},
            )
            for idea in content.project_ideas
        ],
        community=community.name if community is not None else None,
    )


def play(
    setup: SimulationSetup,
    years: int,
    runs: int,
    seed: int | str,
    policy: Policy,
    stop_at_win: bool = False,
) -> Simulation:
    """The simulator, run on a campaign's setup (`resilience simulate` and the booklet)."""
    return simulate(
        setup.events,
        setup.start,
        setup.players,
        years,
        runs,
        seed,
        policy,
        setup.party,
        first_year=setup.first_year,
        favours=setup.favours,
        ideas=setup.ideas,
        stop_at_win=stop_at_win,
    )


POLICY_WORDS = {
    "passive": "a passive community (no projects)",
    "balanced": "a well-played community (weakest defense first)",
    "greedy": "a greedy community (economy first)",
    "story": "a story-first table (answers and project ideas for the story)",
    "timid": "a timid table (the safest answer, only likely projects)",
    "career": "a career-driven table (each player develops what their career favors)",
    "no-sacrifice": "a table that never sacrifices (no levels given up)",
}
EVENTS_SHOWN = 5  # hardest and mildest events the text report names
CHOICES_SHOWN = 12  # choices never taken, before "and N more"


def _years(result: Simulation) -> str:
    """ "10 years", or "10 years (years 2-11)" for a campaign already in play."""
    if result.first_year == 1:
        return f"{result.years} years"
    last = result.first_year + result.years - 1
    return f"{result.years} years (years {result.first_year}-{last})"


def simulation_text(result: Simulation, community: str | None) -> str:
    """The simulation as a GM reads it: the spread of each E every year, the risk, and
    which events hurt most and least."""
    start = _defense_line(dict(result.start))
    who = f"{community} ({start})" if community else f"a community of {start}"
    lines = [
        f"{result.runs} runs of {_years(result)}: {who}, {result.players}"
        f" player{'' if result.players == 1 else 's'}, "
        f"played as {POLICY_WORDS[result.policy]}; seed {result.seed}",
        "",
        "year  " + "".join(f"{d:<20}" for d in DEFENSES) + "ruined  15/15/15",
    ]
    for year in result.by_year:
        cells = [
            f"{s.mean:5.1f} ({s.p10:.0f}-{s.p90:.0f})".ljust(20)
            for s in (year.defenses[d] for d in DEFENSES)
        ]
        chances = f"{year.ruined:6.0%}  {year.won:8.0%}"
        lines.append(f"{year.year:>4}  " + "".join(cells) + chances)
    stopped = " (a run ends there: --stop-at-win)" if result.stop_at_win else ""
    lines += [
        "      mean (10th-90th percentile) at the end of each year; ruined: runs with a"
        " defense at 0 by then; 15/15/15: runs that have stood at 15 or more in all three"
        f" at a year's end{stopped}",
        "",
        f"any defense below 5 (the creation minimum) at some year end: "
        f"{result.p_any_below_minimum:.1%} of runs; any at 0: {result.p_any_zero:.1%};"
        f" 15/15/15 reached: {result.p_won:.1%}",
    ]
    drawn = [e for e in result.events if e.drawn]
    ranked = sorted(drawn, key=lambda e: (-e.expected_damage, e.id))
    if ranked:
        lines += ["", "hardest events (levels lost, all three E's, when drawn):"]
        lines += [f"  {e.expected_damage:+5.2f}  {e.title}" for e in ranked[:EVENTS_SHOWN]]
        lines += ["mildest events (negative: the community gains):"]
        lines += [f"  {e.expected_damage:+5.2f}  {e.title}" for e in ranked[-EVENTS_SHOWN:]]
    titles = {e.id: e.title for e in result.events}
    traps = sorted({(titles.get(d.event, d.event), d.choice, d.by) for d in result.dominated})
    if traps:
        lines += [
            "",
            f"choices another answer of the card beats on every defense, by expected value"
            f" ({len(traps)}):",
        ]
        lines += [f"  {title}: {choice} (beaten by {by})" for title, choice, by in traps]
    never = [f"{e.title}: {c}" for e in drawn for c, share in e.choices if share == 0]
    if never:
        lines += ["", f"choices this table never took ({len(never)}):"]
        lines += [f"  {line}" for line in never[:CHOICES_SHOWN]]
        if len(never) > CHOICES_SHOWN:
            lines.append(f"  and {len(never) - CHOICES_SHOWN} more (--json lists them all)")
    return "\n".join(lines)


PNG_SIZE = (1200, 700)
LABEL_GAP_PX = 24
_COLOURS = {"economy": (176, 58, 46), "environment": (46, 125, 50), "equity": (40, 84, 160)}


def simulation_png(result: Simulation) -> bytes:
    """A chart of each E by year: the mean as a line, the 10th-90th percentile as a band."""
    import io

    from PIL import Image, ImageDraw, ImageFont

    from ..resources import fonts_dir

    width, height = PNG_SIZE
    left, right, top, bottom = 90, 200, 70, 70
    image = Image.new("RGB", PNG_SIZE, "white")
    draw = ImageDraw.Draw(image, "RGBA")
    label = ImageFont.truetype(str(fonts_dir() / "Lato-Regular.ttf"), 20)
    title = ImageFont.truetype(str(fonts_dir() / "Lato-Bold.ttf"), 26)
    highest = max([s.p90 for y in result.by_year for s in y.defenses.values()] + [15.0])
    top_value = 5 * (int(highest) // 5 + 1)
    # The year before the first played is where every run starts: the community as
    # founded (year 0) or as it stands now.
    years = [result.first_year - 1] + [y.year for y in result.by_year]
    series = {
        d: [Spread(result.start[d], result.start[d], result.start[d])]
        + [yr.defenses[d] for yr in result.by_year]
        for d in DEFENSES
    }
    span = max(1, years[-1] - years[0])

    def x(year: float) -> float:
        return left + (year - years[0]) / span * (width - left - right)

    def y(value: float) -> float:
        return height - bottom - value / top_value * (height - top - bottom)

    for value in range(0, top_value + 1, 5):
        draw.line([(left, y(value)), (width - right, y(value))], fill=(225, 225, 225), width=1)
        draw.text((left - 12, y(value)), str(value), font=label, fill="black", anchor="rm")
    minimum = y(5)
    draw.line([(left, minimum), (width - right, minimum)], fill=(120, 120, 120), width=2)
    step = max(1, len(years) // 10)
    for year in years[::step]:
        draw.text((x(year), height - bottom + 12), str(year), font=label, fill="black", anchor="mt")
    draw.text((width / 2, height - 24), "year", font=label, fill="black", anchor="mm")
    ends: list[tuple[float, str, tuple[int, int, int]]] = []
    for defense, colour in _COLOURS.items():
        spreads = series[defense]
        band = [(x(yr), y(s.p90)) for yr, s in zip(years, spreads, strict=True)]
        band += [(x(yr), y(s.p10)) for yr, s in reversed(list(zip(years, spreads, strict=True)))]
        draw.polygon(band, fill=(*colour, 40))
        draw.line(
            [(x(yr), y(s.mean)) for yr, s in zip(years, spreads, strict=True)], fill=colour, width=4
        )
        ends.append((y(spreads[-1].mean), defense, colour))
    ends.append((minimum, "creation minimum", (90, 90, 90)))
    # End labels never overlap: each sits at least a line below the one above it.
    placed = -math.inf
    for at, text, colour in sorted(ends):
        at = max(at, placed + LABEL_GAP_PX)
        draw.text((width - right + 10, at), text, font=label, fill=colour, anchor="lm")
        placed = at
    draw.text(
        (left, 24),
        f"{POLICY_WORDS[result.policy].capitalize()}: {result.runs} runs, seed {result.seed}",
        font=title,
        fill="black",
    )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
