"""Where each printed number came from, for the live preview (issue 29).

A preview render wraps every computed value in a link (``templates/_macros.html``,
``sourced``) whose query names the campaign file, the line, the entry, the field and the
``--explain`` line behind the value; the preview turns it into "hover for the rule, click
for the line". The view models carry the query beside each value as a string. It is
percent-encoded, so a file or entry name in any script never reaches the glyph lint of an
imposed document, and it costs a printed PDF nothing: outside preview the macro prints the
bare value.

The line is the line of the field that decides the value: for a derived value the first
ability its rule names that the entry has ("agility 12 = 10 + acrobatics 2": the
acrobatics line), else the entry's own line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any
from urllib.parse import quote_plus

from ..rules import AbilityLine, CharacterStats, VehicleStats
from ..rules.abilities import OLDER_NAMES, display
from ..rules.actions import Action
from ..rules.grid import HEALTHY_BASE, INJURED_BASE, GridMove
from ..rules.printed import in_vocabulary
from ..rules.vehicles import CrewMember, VehicleAbility
from ..statblocks import Block, Computed, InitiativeGroup
from . import actions as action_words
from .common import signed

# The stats a sheet's rule lines are keyed by, as a GM names them in a field path.
STAT_FIELDS = {"initiative_bonus": "initiative", "hit_points": "hit points"}


def query(file: str, line: int | None, entry: str, field: str, trace: str) -> str:
    """The link's query, as common to the sheet, cards, roster and ``source_anchors``:
    what ``urlencode`` makes of the five, built from remembered parts, since every build
    (printed ones too) makes one per number: 7,000 for a roster of 1,000 NPCs, where
    ``urlencode`` itself took half a second."""
    shown = "" if line is None else str(line)
    return (
        f"file={_quoted(file)}&line={shown}&entry={_quoted(entry)}"
        f"&field={_quoted(field)}&trace={_quoted(trace)}"
    )


@lru_cache(maxsize=16384)
def _quoted(text: str) -> str:
    return quote_plus(text)


@lru_cache(maxsize=1024)
def _mention(name: str) -> re.Pattern[str]:
    """An ability named with a level in a rule line: ``stealth 3``."""
    return re.compile(rf"\b{re.escape(display(name))} \d")


class Origins:
    """The sources of one block's numbers (a character, a minion or a vehicle)."""

    def __init__(self, block: Block, computed: Computed | None = None) -> None:
        self.block = block
        self.entry = block.name
        self.prefix: tuple[str | int, ...] = ()
        if block.kind == "minion" and computed is not None and block.leader is not None:
            # A minion lives inside its leader's entry: `minions.0.abilities.toughness`,
            # named as `check` names its problems.
            leader = computed.block("character", block.leader)
            minions = getattr(leader.definition, "minions", []) if leader else []
            index = next((i for i, m in enumerate(minions) if m is block.definition), None)
            if index is not None:
                self.entry = block.leader
                self.prefix = ("minions", index)
        written = getattr(block.definition, "abilities", {}) or {}
        stats = block.stats
        # The key as written under the rules' name: a character's older "stalking" is read
        # as stealth; a vehicle's stalking is its own.
        older = OLDER_NAMES if isinstance(stats, CharacterStats) else {}
        self.written = {older.get(str(key), str(key)): str(key) for key in written}
        self.words = stats.ruleset if isinstance(stats, CharacterStats) else ""
        self.explain: Mapping[str, str] = getattr(stats, "explain", {})

    def _query(self, field: tuple[str | int, ...], trace: str) -> str:
        path = (*self.prefix, *field)
        source = self.block.source
        return query(
            source.file,
            source.line(*path),
            self.entry,
            ".".join(map(str, path)),
            in_vocabulary(trace, self.words) if self.words else trace,
        )

    def deciding(self, rule: str) -> str | None:
        """The first ability the entry has among those the rule names after its "=";
        an ability at 0 the entry lacks is not it (``2 x stealth 0 + 10 x detection 3``)."""
        formula = rule.partition(" = ")[2] or rule
        found: list[tuple[int, str]] = []
        for name in self.written:
            match = _mention(name).search(formula)
            if match is not None:
                found.append((match.start(), name))
        return min(found)[1] if found else None

    def traced(self, stat: str, rule: str, fallback: str | None = None) -> str:
        """A value the rule line ``rule`` computed; ``stat`` names it when no ability does."""
        name = self.deciding(rule)
        if name is not None:
            return self._query(("abilities", self.written[name]), rule)
        return self._query((fallback or STAT_FIELDS.get(stat, stat),), rule)

    def stat(self, stat: str) -> str:
        """A derived value by its ``explain`` key: ``agility``, ``hit_points`` ..."""
        return self.traced(stat, self.explain.get(stat, ""))

    def ability(self, ability: AbilityLine | str, level: int | None = None) -> str:
        """An ability's level: the line where it is written, and no rule behind it."""
        name = ability if isinstance(ability, str) else ability.name
        key = self.written.get(name, name)
        shown = level if level is not None or isinstance(ability, str) else ability.level
        trace = f"{display(name)} {shown}, as written" if shown is not None else ""
        return self._query(("abilities", key), trace)

    def action(self, action: Action) -> str:
        """An action's roll bonus: the ability it adds (``wrestling 2``)."""
        if action.bonus is None or not action.roll:  # a bare d20: nothing computed
            return ""
        named = action_words.name(action)
        rule = f"{named} roll d20 {signed(action.bonus)} = d20 + {action.roll} {action.bonus}"
        return self.traced("actions", rule, "abilities")

    def cp(self, stats: CharacterStats) -> str:
        spent = " + ".join(f"{display(a.name)} {a.level}" for a in stats.abilities) or "0"
        rule = f"CP {stats.cp} = {spent} (budget {stats.budget.cp})"
        return self._query(("abilities",), rule)

    def minion_cp(self, spent: int, breakdown: str, command: int) -> str:
        """What a leader's minions cost together, against the command that allows it."""
        rule = f"minion CP {spent} = {breakdown or '0'} (allowed: command {command})"
        return self._query(("minions",), rule)

    def carry(self, label: str, value: str) -> str:
        """A carrying figure: decided by strength, so it points where strength does."""
        strength = self.explain.get("strength", "")
        return self.traced("strength", f"{label} {value} from {strength or 'strength'}")

    def crewed(self, ability: VehicleAbility) -> str:
        """A vehicle ability with its crew's level added (a weapon's level is one): the
        line where the vehicle's own level is written, and the sum behind it."""
        key = self.written.get(ability.name, ability.name)
        name = display(ability.name)
        rule = f"{name} {ability.crewed} = {name} {ability.level}"
        if ability.crew is not None:
            crew = ability.crew
            rule += f" + {crew.ability} {crew.level} ({crew.name} as {crew.title})"
        return self._query(("abilities", key), rule)

    def seat(self, member: CrewMember) -> str:
        """What a crew member adds: their ability, named in the vehicle's crew."""
        rule = f"{member.ability} {member.level}, {member.name}'s, as written in their entry"
        return self._query(("crew", member.role), rule)

    def band(self, state: str, span: str) -> str:
        """A health band's range: decided by the stamina, so it points where stamina does."""
        stamina = self.explain.get("stamina", "")
        limit = stamina.partition(" = ")[0] or "stamina"
        where = "at or below" if state == "injured" else "above"
        rule = f"{state} {span}: hit points {where} {limit}" + (f" ({stamina})" if stamina else "")
        return self.traced("stamina", rule)

    def movement(self, terrain: str, healthy: bool, move: GridMove) -> str:
        base = HEALTHY_BASE if healthy else INJURED_BASE
        state = "healthy" if healthy else "injured"
        levels = self.block.stats.levels if isinstance(self.block.stats, CharacterStats) else {}
        formulas = {
            "ground": ("quickness", f"{base} + quickness {{}} // 2"),
            "air": ("flying", f"{base} + flying {{}} // 2"),
            "rough": ("acrobatics", f"({base} + acrobatics {{}}) // 2"),
            "water": ("swimming", f"({base} + swimming {{}}) // 2"),
        }
        ability, formula = formulas[terrain]
        value = getattr(move, terrain)
        rule = f"{terrain} {value} {state} = {formula.format(levels.get(ability, 0))}"
        return self.traced("movement", rule, "abilities")


def group_source(group: InitiativeGroup, computed: Computed) -> str:
    """A group's initiative bonus: its rule names the member whose ability decides it."""
    origins = [Origins(member, computed) for member in group.members]
    deciding = next((o for o in origins if o.deciding(group.rule) is not None), None)
    chosen = deciding or (origins[0] if origins else None)
    return chosen.traced("initiative_bonus", group.rule, "group") if chosen else ""


def vehicle_origins(block: Block) -> Origins:
    if not isinstance(block.stats, VehicleStats):
        raise TypeError(f"{block.name} is a {block.kind}, not a vehicle")
    return Origins(block)


def with_source(item: dict[str, Any], source: str) -> dict[str, Any]:
    item["source"] = source
    return item


__all__ = ["Origins", "group_source", "query", "vehicle_origins", "with_source"]
