"""What an event card's words do to the year, read from the cards' own effect wording.

Event cards state their mechanics in a small fixed vocabulary (content/resilience/events.yaml
lists it): "attack bonus -2" changes the GM's attack roll, "damage +1" the levels lost if it
hits, "-1 equity now" applies at once, "the attack fails automatically" cancels the roll,
"Roll d20: on 11+ ..." is a gamble, and the temporary modifier's "projects that develop
economy roll at -2" changes the year's project rolls. The simulator reads these so that
what it plays is what the card says; anything else on a card (who joins the encounter, who
starts it injured) happens at the table, not in the community's numbers, and is kept as
``table_only`` so nobody mistakes it for a parsing gap.

Pure: text in, effects out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

_NUMBER = r"([+-−]\s?\d+)"
_DEFENSE = r"(economy|environment|equity)"


def _int(text: str) -> int:
    return int(text.replace("−", "-").replace(" ", ""))


@dataclass(frozen=True)
class Effect:
    """One outcome or choice: changes to this year's attack, and changes made at once."""

    attack_bonus: int = 0
    damage: int = 0
    now: Mapping[str, int] = field(default_factory=dict)
    attack_fails: bool = False
    damage_halved: bool = False
    ends_temporary: bool = False
    # "if the attack succeeds, also -1 equity" / "If the attack fails, +1 equity"
    on_hit: Mapping[str, int] = field(default_factory=dict)
    on_miss: Mapping[str, int] = field(default_factory=dict)
    gamble: Gamble | None = None
    temporary_becomes: int | None = None  # "the temporary penalty becomes -2"
    project_bonus: int = 0  # "+2 to one project that develops equity"
    project_bonus_develops: str = ""  # ... the defense that project develops ("" any)
    table_only: tuple[str, ...] = ()  # words that act in the encounter, not on the E's

    def plus(self, other: Effect) -> Effect:
        return Effect(
            attack_bonus=self.attack_bonus + other.attack_bonus,
            damage=self.damage + other.damage,
            now=_add(self.now, other.now),
            attack_fails=self.attack_fails or other.attack_fails,
            damage_halved=self.damage_halved or other.damage_halved,
            ends_temporary=self.ends_temporary or other.ends_temporary,
            on_hit=_add(self.on_hit, other.on_hit),
            on_miss=_add(self.on_miss, other.on_miss),
            gamble=self.gamble or other.gamble,
            temporary_becomes=(
                self.temporary_becomes
                if other.temporary_becomes is None
                else other.temporary_becomes
            ),
            project_bonus=self.project_bonus + other.project_bonus,
            project_bonus_develops=self.project_bonus_develops or other.project_bonus_develops,
            table_only=self.table_only + other.table_only,
        )


@dataclass(frozen=True)
class Gamble:
    """ "Roll d20: on 11+ X; otherwise Y", or "A PC rolls command (12): success, X;
    failure, Y": d20 (+ the party's level in ``ability``) reaching ``target`` gives
    ``won``, else ``lost``."""

    target: int
    won: Effect
    lost: Effect
    ability: str | None = None


def _add(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return {k: v for k, v in out.items() if v}


NO_EFFECT = Effect()

_CLAUSES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^attack bonus {_NUMBER}\b", re.I), "attack_bonus"),
    (re.compile(rf"^(?:otherwise |if it succeeds, )?damage {_NUMBER}\b", re.I), "damage"),
    (re.compile(rf"^{_NUMBER} {_DEFENSE} now\b", re.I), "now"),
    (re.compile(rf"^if the attack succeeds, also {_NUMBER} {_DEFENSE}\b", re.I), "on_hit"),
    (re.compile(rf"^if the attack fails, {_NUMBER} {_DEFENSE}\b", re.I), "on_miss"),
    (re.compile(r"^the attack fails automatically\b", re.I), "attack_fails"),
    (re.compile(r"damage is halved", re.I), "damage_halved"),
    (re.compile(r"^the temporary (?:modifier|penalty) ends\b", re.I), "ends_temporary"),
    (re.compile(rf"^{_NUMBER} to one project that develops {_DEFENSE}", re.I), "project_bonus"),
    (re.compile(r"^(?:no cost(?: now)?|roll the attack as normal)\b", re.I), "nothing"),
]
# "Roll d20: on 11+ X", "Roll d20: on 1-10, X" (the other branch is the next clause:
# "otherwise Y", "on 11-20, Y", "on 11+, Y"); "A PC rolls command (12): success, X".
_GAMBLE = re.compile(r"^roll d20: on (\d+)(?:-(\d+)|\+),? (.*)$", re.I)
_BRANCH = re.compile(r"^(?:otherwise|on (\d+)(?:-\d+|\+),?) (.*)$", re.I)
_ABILITY_ROLL = re.compile(r"^a PC rolls (\w+) \((\d+)\): success, (.*)$", re.I)
_FAILURE = re.compile(r"^failure, (.*)$", re.I)
# "(+2 economy, -2 equity now)": changes at once, listed inside a story clause.
_NOW_LIST = re.compile(rf"\(((?:{_NUMBER} {_DEFENSE},? ?)+) now\)", re.I)
_NOW_ITEM = re.compile(rf"{_NUMBER} {_DEFENSE}", re.I)


def _clauses(text: str) -> list[str]:
    """The effect part of a card line, split into clauses: "Both pull through: attack bonus
    -2." -> ["attack bonus -2"]; "-1 equity now; damage -1." -> two clauses."""
    body = text.strip()
    if ":" in body and not body.lower().startswith("roll d20"):
        head, tail = body.split(":", 1)
        if not re.search(r"\d", head):  # "story words: effect"
            body = tail
    body = body.strip().rstrip(".")
    return [
        c.strip()
        for c in re.split(r";\s*|,\s+and\s+(?=(?:attack|damage|[+-−]\d))", body)
        if c.strip()
    ]


def parse_effect(text: str) -> Effect:
    """The effect of one challenge outcome or decision choice, as its words state it."""
    effect = NO_EFFECT
    clauses = _clauses(text)
    index = 0
    while index < len(clauses):
        clause = clauses[index]
        following = clauses[index + 1] if index + 1 < len(clauses) else ""
        gamble = _GAMBLE.match(clause)
        ability = _ABILITY_ROLL.match(clause)
        if gamble:
            start, end, first = int(gamble.group(1)), gamble.group(2), parse_effect(gamble.group(3))
            branch = _BRANCH.match(following)
            other = parse_effect(branch.group(2)) if branch else NO_EFFECT
            index += 1 if branch else 0
            if start == 1 and end is not None:  # "on 1-10 X; on 11+ Y": Y is the high side
                target = int(end) + 1
                effect = effect.plus(Effect(gamble=Gamble(target, other, first)))
            else:
                effect = effect.plus(Effect(gamble=Gamble(start, first, other)))
        elif ability:
            won = parse_effect(ability.group(3))
            failure = _FAILURE.match(following)
            lost = parse_effect(failure.group(1)) if failure else NO_EFFECT
            index += 1 if failure else 0
            gamble_roll = Gamble(int(ability.group(2)), won, lost, ability.group(1).lower())
            effect = effect.plus(Effect(gamble=gamble_roll))
        else:
            effect = effect.plus(_clause(clause))
        index += 1
    return effect


def _clause(clause: str) -> Effect:
    listed = _NOW_LIST.search(clause)
    if listed:
        now: dict[str, int] = {}
        for number, defense in _NOW_ITEM.findall(listed.group(1)):
            now[defense.lower()] = now.get(defense.lower(), 0) + _int(number)
        return Effect(now=now)
    becomes = re.search(rf"^the temporary penalty becomes {_NUMBER}", clause, re.I)
    if becomes:
        return Effect(temporary_becomes=_int(becomes.group(1)))
    for pattern, kind in _CLAUSES:
        match = pattern.search(clause)
        if not match:
            continue
        if kind == "attack_bonus":
            return Effect(attack_bonus=_int(match.group(1)))
        if kind == "damage":
            return Effect(damage=_int(match.group(1)))
        if kind == "now":
            return Effect(now={match.group(2).lower(): _int(match.group(1))})
        if kind == "on_hit":
            return Effect(on_hit={match.group(2).lower(): _int(match.group(1))})
        if kind == "on_miss":
            return Effect(on_miss={match.group(2).lower(): _int(match.group(1))})
        if kind == "attack_fails":
            return Effect(attack_fails=True)
        if kind == "damage_halved":
            return Effect(damage_halved=True)
        if kind == "ends_temporary":
            return Effect(ends_temporary=True)
        if kind == "project_bonus":
            return Effect(
                project_bonus=_int(match.group(1)), project_bonus_develops=match.group(2).lower()
            )
        return NO_EFFECT
    return Effect(table_only=(clause,))


# ------------------------------------------------------------------------------------------
# The temporary modifier: what it does to this year's project rolls


@dataclass(frozen=True)
class ProjectModifier:
    """A change to project rolls: to every project (a general modifier), or to the projects
    that develop one of ``develops``, sacrifice one of ``sacrifices`` (both, when both are
    named), or sacrifice nothing (a specific one). ``except_develops`` exempts projects that
    develop one of them (they roll at ``except_amount``); ``first_roll`` limits it to each
    player's first project of the year.

    A card that names a general modifier and a specific one ("every project rolls at -1,
    and projects that develop equity at -2") gives the specific one *instead* to the
    projects it names: an equity project rolls at -2, not -3 (project_modifier)."""

    amount: int
    develops: frozenset[str] = frozenset()
    sacrifices_nothing: bool = False
    except_develops: frozenset[str] = frozenset()
    except_amount: int | None = None
    sacrifices: frozenset[str] = frozenset()
    first_roll: bool = False

    @property
    def specific(self) -> bool:
        return bool(self.develops or self.sacrifices or self.sacrifices_nothing)

    def concerns(
        self, develops: Mapping[str, int], sacrifices: Mapping[str, int], first_roll: bool = True
    ) -> bool:
        """Whether the modifier speaks of this project at all."""
        if self.first_roll and not first_roll:
            return False
        developed = {d for d, v in develops.items() if v}
        sacrificed = {d for d, v in sacrifices.items() if v}
        if self.except_develops & developed:
            return True
        if self.sacrifices_nothing:
            return not sacrificed
        if self.develops and not self.develops & developed:
            return False
        return not (self.sacrifices and not self.sacrifices & sacrificed)

    def applies(
        self, develops: Mapping[str, int], sacrifices: Mapping[str, int], first_roll: bool = True
    ) -> int:
        if not self.concerns(develops, sacrifices, first_roll):
            return 0
        if self.except_develops & {d for d, v in develops.items() if v}:
            return self.except_amount or 0
        return self.amount


_EVERY = re.compile(rf"every project(?: this year)? rolls? at {_NUMBER}", re.I)
_FIRST = re.compile(rf"first project roll of each player(?: this year)? is at {_NUMBER}", re.I)
_OTHER = re.compile(rf"every other project(?: rolls?)? at {_NUMBER}", re.I)
_DEVELOP = re.compile(
    rf"projects that develop {_DEFENSE}(?: or {_DEFENSE})?(?: roll)? at {_NUMBER}", re.I
)
_AND_IF = re.compile(rf"and {_NUMBER} if it develops {_DEFENSE}", re.I)
_EXCEPT = re.compile(
    rf"except projects that develop {_DEFENSE}(?:, which roll at {_NUMBER})?", re.I
)
_NOTHING = re.compile(rf"projects that sacrifice nothing roll at {_NUMBER}", re.I)
_DEVELOP_AND_SACRIFICE = re.compile(
    rf"projects that develop {_DEFENSE} and sacrifice {_DEFENSE}(?: roll)? at {_NUMBER}", re.I
)
_SACRIFICE = re.compile(rf"projects that sacrifice {_DEFENSE}(?: roll)? at {_NUMBER}", re.I)
_UNLESS_ALSO = re.compile(rf"unless they also develop {_DEFENSE}", re.I)


def parse_temporary(text: str) -> list[ProjectModifier]:
    """The project-roll modifiers a temporary effect states. Modifiers that depend on who
    rolls ("if the player's PC has healing") or on what a project builds ("unless they
    build a crossing") are read as they fall on most projects."""
    found: list[ProjectModifier] = []
    for part in re.split(r";\s*|,\s*(?:and|but)\s+(?=projects)", text):
        every = _EVERY.search(part)
        if every:
            amount = _int(every.group(1))
            extra = _AND_IF.search(part)
            exempt = _EXCEPT.search(part)
            if exempt:
                found.append(
                    ProjectModifier(
                        amount,
                        except_develops=frozenset([exempt.group(1).lower()]),
                        except_amount=_int(exempt.group(2)) if exempt.group(2) else 0,
                    )
                )
            else:
                found.append(ProjectModifier(amount))
            if extra:
                found.append(
                    ProjectModifier(_int(extra.group(1)), frozenset([extra.group(2).lower()]))
                )
            continue
        first = _FIRST.search(part)
        if first:
            found.append(ProjectModifier(_int(first.group(1)), first_roll=True))
            continue
        other = _OTHER.search(part)
        if other:  # the projects the modifiers before it leave out
            named = frozenset().union(*(m.develops for m in found))
            found.append(ProjectModifier(_int(other.group(1)), except_develops=named))
            continue
        nothing = _NOTHING.search(part)
        if nothing:
            found.append(ProjectModifier(_int(nothing.group(1)), sacrifices_nothing=True))
            continue
        both = _DEVELOP_AND_SACRIFICE.search(part)
        if both:
            found.append(
                ProjectModifier(
                    _int(both.group(3)),
                    frozenset([both.group(1).lower()]),
                    sacrifices=frozenset([both.group(2).lower()]),
                )
            )
            continue
        sacrifice = _SACRIFICE.search(part)
        if sacrifice:
            found.append(
                ProjectModifier(
                    _int(sacrifice.group(2)), sacrifices=frozenset([sacrifice.group(1).lower()])
                )
            )
            continue
        develop = _DEVELOP.search(part)
        if develop:
            names = {g.lower() for g in develop.groups()[:2] if g}
            unless = _UNLESS_ALSO.search(part)
            found.append(
                ProjectModifier(
                    _int(develop.group(3)),
                    frozenset(names),
                    except_develops=frozenset([unless.group(1).lower()]) if unless else frozenset(),
                    except_amount=0 if unless else None,
                )
            )
    return found


def project_modifier(
    modifiers: list[ProjectModifier],
    develops: Mapping[str, int],
    sacrifices: Mapping[str, int],
    first_roll: bool = True,
) -> int:
    """The year's modifier to one project's roll: the specific modifiers that name it,
    added up (a project developing two defenses may be named twice), else the general
    ones. ``first_roll``: whether this is its player's first project of the year."""
    specific = [m for m in modifiers if m.specific and m.concerns(develops, sacrifices, first_roll)]
    chosen = specific or [m for m in modifiers if not m.specific]
    return sum(m.applies(develops, sacrifices, first_roll) for m in chosen)


def penalty_becomes(modifiers: list[ProjectModifier], amount: int) -> list[ProjectModifier]:
    """ "The temporary penalty becomes -2": every penalty of the year now has that size."""
    return [
        ProjectModifier(
            amount,
            m.develops,
            m.sacrifices_nothing,
            m.except_develops,
            m.except_amount,
            m.sacrifices,
            m.first_roll,
        )
        if m.amount < 0
        else m
        for m in modifiers
    ]


__all__ = [
    "NO_EFFECT",
    "Effect",
    "Gamble",
    "ProjectModifier",
    "parse_effect",
    "parse_temporary",
    "penalty_becomes",
    "project_modifier",
]
