"""The roster file: ordinary definitions YAML a GM may edit and build from, with a header
that says how it was made, and the self-check that every NPC passes ``scratchpress check``."""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from ..definitions.resilience_models import Career
from ..definitions.yamlio import commented_list, double_quoted, dump_yaml, flow
from ..rules.character import Budget, budget_warnings
from ..rules.minions import MAX_MINIONS, MinionGroup, minion_problems
from .generation import generate
from .names import name_note, plural_npcs
from .options import plan
from .spec import MinionNpc, Npc, Plan, RosterSpec


def npc_problems(npc: Npc, budget: Budget) -> list[str]:
    """What ``scratchpress check`` would say about this NPC (empty when it passes)."""
    problems = [f"{npc.name}: {w}" for w in budget_warnings(npc.levels, budget)]
    if npc.cp != budget.cp:
        problems.append(f"{npc.name}: spends {npc.cp} CP, not {budget.cp}")
    groups = [MinionGroup(m.name, m.count, m.levels) for m in npc.minions]
    problems += [f"{npc.name}: {message}" for _, message in minion_problems(npc.levels, groups)]
    if sum(m.count for m in npc.minions) > MAX_MINIONS:
        problems.append(f"{npc.name}: more than {MAX_MINIONS} minions")
    for minion in npc.minions:
        if minion.levels.get("toughness", 0) < 1:
            problems.append(f"{npc.name}: minion {minion.name} has no toughness")
    return problems


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9 .'’-]*")
_YAML_WORDS = {"true", "false", "null", "yes", "no", "on", "off", "y", "n"}


def _text(value: str) -> str:
    """A name or a description: plain when nothing in it could be misread, else
    double-quoted, so a GM editing the file sees at once which values are plain words."""
    plain = (
        _PLAIN.fullmatch(value) is not None
        and value == value.strip()
        and value.casefold() not in _YAML_WORDS
        and "  " not in value
    )
    return value if plain else double_quoted(value)


def _abilities(levels: Mapping[str, int], notes: Mapping[str, str]) -> dict[str, Any]:
    """``toughness: 2``, or ``shooting: {level: 3, note: "..."}`` on one line, as the books
    print an ability and its note."""
    return {
        name: flow({"level": level, "note": double_quoted(notes[name])})
        if notes.get(name)
        else level
        for name, level in levels.items()
    }


def _npc(npc: Npc) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": _text(npc.name),
        "description": _text(npc.description),
        "group": _text(npc.group),
    }
    if npc.career is not None:
        entry["career"] = _text(npc.career)
    entry["abilities"] = _abilities(npc.levels, npc.notes)
    if npc.minions:
        entry["minions"] = [_minion(minion) for minion in npc.minions]
    return entry


def _minion(minion: MinionNpc) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": _text(minion.name)}
    if minion.count != 1:
        entry["count"] = minion.count
    entry["description"] = _text(minion.description)
    entry["abilities"] = dict(minion.levels)
    return entry


def command_line(spec: RosterSpec, group_given: bool) -> str:
    """The command that makes this file again. The campaign goes first, as the positional
    argument ``roster generate`` takes; a file written with ``-o`` is named with
    ``--force``, since running the command again replaces it."""
    parts = ["scratchpress", "roster", "generate"]
    if spec.campaign is not None:
        # A folder named like an option would be read as one: "./-x" is the same folder.
        parts.append(f"./{spec.campaign}" if spec.campaign.startswith("-") else spec.campaign)
    parts += ["--count", str(spec.count)]
    parts += ["--cp", str(spec.cp), "--max-level", str(spec.max_level)]
    if spec.archetype is not None:
        parts += ["--archetype", spec.archetype]
    if spec.career is not None:
        parts += ["--career", spec.career]
    if spec.name_prefix:
        parts += ["--name-prefix", spec.name_prefix]
    if group_given and spec.group is not None:
        parts += ["--group", spec.group]
    parts += ["--seed", str(spec.seed)]
    if spec.output is not None:
        parts += ["-o", f"./{spec.output}" if spec.output.startswith("-") else spec.output]
        parts.append("--force")
    return shlex.join(parts)


def _header(plan_: Plan, npcs: Sequence[Npc]) -> list[str]:
    spec = plan_.spec
    command = command_line(spec, spec.group is not None).replace("\n", " ")
    what = (
        f'career "{plan_.career.name}"'
        if plan_.career is not None
        else (f"archetype {plan_.archetype}" if plan_.archetype else "a mix of archetypes")
    )
    where = (
        f"in {len(plan_.bands)} bands, one initiative group each"
        if len(plan_.bands) > 1
        else f"in the initiative group {plan_.bands[0].name}"
    )
    lines = [
        f"{len(npcs)} NPCs ({what}) {where},",
        f"each built on {spec.cp} CP with no ability above {spec.max_level}.",
        f"Made by: {command}",
        "The same command makes the same file. Edit freely; `scratchpress check` says if an",
        "edit breaks a rule. NPCs print on the roster and as rows on their group's initiative",
        "card; add `sheet: true` to one for a sheet and an initiative card of its own.",
    ]
    note = name_note(npcs)
    if note is not None:
        lines.append(f"Note: {note}.")
    return [*lines, ""]


def to_yaml(plan_: Plan, npcs: Sequence[Npc]) -> str:
    """Ordinary definitions YAML: the GM may edit it and build from it like any other. The
    NPCs go under ``npcs:``: the roster and initiative cards print them, sheets do not."""
    # With several bands, a comment opens each: where one ends is easy to see and to edit.
    openings: dict[int, str] = {}
    if len(plan_.bands) > 1:
        first = 0
        for number, band in enumerate(plan_.bands, start=1):
            openings[first] = (
                f"Band {number} of {len(plan_.bands)}: {band.name}, {plural_npcs(band.size)}"
            )
            first += band.size
    entries = commented_list([_npc(npc) for npc in npcs], openings)
    return dump_yaml({"npcs": entries}, _header(plan_, npcs))


def roster_yaml(spec: RosterSpec, careers: Sequence[Career] = ()) -> tuple[str, Plan, list[Npc]]:
    """Plan, generate, self-check and write: the library entry point of the command.

    Raises RosterError for options it cannot honour, AssertionError if an NPC it made would
    fail ``scratchpress check`` (a bug: no user input can cause it).
    """
    plan_ = plan(spec, careers)
    npcs = generate(plan_)
    budget = Budget(plan_.spec.cp, plan_.spec.max_level)
    problems = [p for npc in npcs for p in npc_problems(npc, budget)]
    if problems:
        raise AssertionError("generated NPCs break the rules: " + "; ".join(problems[:5]))
    return to_yaml(plan_, npcs), plan_, npcs
