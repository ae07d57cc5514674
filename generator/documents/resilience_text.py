"""Resilience table aids as terminal text and JSON: a project's check and a drawn event.

What ``scratchpress resilience project`` and ``draw`` print. The numbers come from
``rules.community``; this module only words and lays them out (or lists them for
``--json``).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from ..definitions.models import CommunityDef
from ..definitions.resilience_models import Event
from ..rules.community import DEFENSES, ProjectPlan

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


def event_text(year: int, event: Event, now: dict[str, int] | None = None) -> str:
    """One drawn event, laid out for a terminal."""
    defense = event.attacks
    against = f"{defense} ({now[defense]} now)" if now is not None else defense
    lines = [f"Year {year} · {event.title} [{event.id}]"]
    lines += _wrapped("Threat", f"{event.threat}; attacks {defense}")
    lines += _wrapped(
        "GM's roll",
        f"d20 {_bonus(event.attack_bonus)} vs {against}; on a hit {defense} loses"
        f" {event.damage} level{'s' if event.damage != 1 else ''}",
    )
    lines += _wrapped("Temporary", event.temporary)
    challenge = event.challenge
    lines += _wrapped(
        "Challenge", f"d20 + {challenge.ability} vs difficulty {challenge.difficulty}"
    )
    lines += _wrapped("", f"success: {challenge.success}", hang=9)
    lines += _wrapped("", f"failure: {challenge.failure}", hang=9)
    lines += _wrapped("Decision", event.decision.prompt)
    for number, choice in enumerate(event.decision.choices, 1):
        lines += _wrapped("", f"{number}. {choice.choice}: {choice.consequence}", hang=3)
    lines += _wrapped("Encounter", event.encounter)
    return "\n".join(lines)


def event_json(year: int, event: Event) -> dict[str, Any]:
    return {"year": year, **event.model_dump(mode="json")}
