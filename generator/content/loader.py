"""Resilience content as a campaign sees it: the built-in lists merged with its own.

The built-in events, careers, project ideas and encounters live in
``content/resilience/*.yaml``. A campaign may add entries of its own (top-level ``events:``,
``careers:``, ``project_ideas:`` and ``encounters:``, already validated by the campaign
loader); an encounter's id is the id of its event. A campaign entry whose id
equals a built-in id replaces that entry in place, so a group can rewrite one event without
copying the deck; every other campaign entry is appended, in the order the files give them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from ..definitions.campaign import Campaign, Located
from ..definitions.models import Encounter
from ..definitions.resilience_models import (
    Career,
    Event,
    Faction,
    ProjectIdea,
    ResilienceContent,
)
from ..definitions.validation import Source
from ..definitions.yamlio import read_builtin_yaml
from ..problems import InputError, Problem

CONTENT_DIR = Path(__file__).resolve().parent / "resilience"

ContentKind = Literal["events", "careers", "project_ideas", "factions", "encounters"]

# File and top-level key of every built-in list, and the model each entry must satisfy.
BUILTIN: dict[ContentKind, tuple[str, type[BaseModel]]] = {
    "events": ("events.yaml", Event),
    "careers": ("careers.yaml", Career),
    "project_ideas": ("project_ideas.yaml", ProjectIdea),
    "factions": ("factions.yaml", Faction),
    "encounters": ("encounters.yaml", Encounter),
}

_NOUN: dict[ContentKind, str] = {
    "events": "event",
    "careers": "career",
    "project_ideas": "project idea",
    "factions": "faction",
    "encounters": "encounter",
}


def _load_builtin(kind: ContentKind) -> list[Any]:
    filename, model = BUILTIN[kind]
    path = CONTENT_DIR / filename
    shown = f"{path.parent.name}/{filename}"
    # Our own file: the fast reader without positions (see definitions/yamlio.py).
    data = read_builtin_yaml(path)
    positions: dict[Any, int] = {}
    if not isinstance(data, dict) or not isinstance(data.get(kind), list):
        raise InputError([Problem(f"expected one top-level list {kind}:", shown, 1)])
    entries: list[Any] = []
    problems: list[Problem] = []
    for index, raw in enumerate(data[kind]):
        try:
            entries.append(model.model_validate(raw))
        except ValidationError as err:
            # Built-in content is ours, so this is a packaging bug; still say where.
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"])
            name = (raw.get("id") or raw.get("event")) if isinstance(raw, dict) else None
            problems.append(Problem(first["msg"], shown, positions.get((kind, index)), name, field))
    if problems:
        raise InputError(problems)
    return entries


@cache
def builtin_content() -> ResilienceContent:
    """The bundled lists, validated once per process (the models are frozen)."""
    return ResilienceContent(
        events=_load_builtin("events"),
        careers=_load_builtin("careers"),
        project_ideas=_load_builtin("project_ideas"),
        factions=_load_builtin("factions"),
    )


@cache
def builtin_encounters() -> tuple[Encounter, ...]:
    """The bundled encounters, one per built-in event (kept out of ResilienceContent, whose
    models know nothing of characters)."""
    return tuple(_load_builtin("encounters"))


def _builtin(kind: ContentKind) -> list[Any]:
    if kind == "encounters":
        return list(builtin_encounters())
    return list(getattr(builtin_content(), kind))


@dataclass(frozen=True)
class ContentEntry:
    """One merged entry and where it came from: ``source`` is None for built-in text."""

    definition: Any
    source: Source | None
    replaces_builtin: bool = False

    @property
    def id(self) -> str:
        return str(self.definition.id)


def merged_entries(campaign: Campaign | None, kind: ContentKind) -> list[ContentEntry]:
    """Built-ins in their order (replaced in place by a campaign entry with the same id),
    then the campaign's other entries in file order.

    Raises InputError when a campaign gives one id twice: which of the two should print is
    a question only the author can answer.
    """
    builtin = _builtin(kind)
    merged = [ContentEntry(entry, None) for entry in builtin]
    position = {entry.id: i for i, entry in enumerate(merged)}
    user: list[Located] = list(getattr(campaign, kind)) if campaign is not None else []
    seen: dict[str, Source] = {}
    problems: list[Problem] = []
    for located in user:
        definition = located.definition
        entry_id = str(definition.id)
        if entry_id in seen:
            first = seen[entry_id]
            where = f"{first.file}:{first.line()}" if first.line() else first.file
            problems.append(
                Problem(
                    f"duplicate {_NOUN[kind]} id {entry_id!r} (first given at {where})",
                    located.source.file,
                    located.source.line("id"),
                    _entry_name(definition),
                    "id",
                )
            )
            continue
        seen[entry_id] = located.source
        if entry_id in position:
            merged[position[entry_id]] = ContentEntry(definition, located.source, True)
        else:
            position[entry_id] = len(merged)
            merged.append(ContentEntry(definition, located.source))
    if problems:
        raise InputError(problems)
    return merged


def _entry_name(definition: Any) -> str:
    return str(getattr(definition, "title", None) or getattr(definition, "name", definition.id))


def content_problems(campaign: Campaign) -> list[Problem]:
    """What would stop the Resilience content from merging, for ``scratchpress check``."""
    problems: list[Problem] = []
    for kind in BUILTIN:
        try:
            merged_entries(campaign, kind)
        except InputError as err:
            problems += err.problems
    return problems


def resilience_content(campaign: Campaign | None = None) -> ResilienceContent:
    """Every event, career, project idea and faction this campaign plays with."""
    return ResilienceContent(
        events=[e.definition for e in merged_entries(campaign, "events")],
        careers=[e.definition for e in merged_entries(campaign, "careers")],
        project_ideas=[e.definition for e in merged_entries(campaign, "project_ideas")],
        factions=[e.definition for e in merged_entries(campaign, "factions")],
    )


__all__ = [
    "ContentEntry",
    "builtin_content",
    "builtin_encounters",
    "content_problems",
    "merged_entries",
    "resilience_content",
]
