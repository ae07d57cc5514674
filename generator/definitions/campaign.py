"""Load a campaign: ``scratchpress.toml`` plus every ``*.yaml`` file, validated with positions.

All problems are collected before anything is reported, so a user fixes a file in one pass.
Finding and reading the files safely is :mod:`.files`, the settings :mod:`.settings`, the
messages and their lines :mod:`.validation`; this module builds the :class:`Campaign`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..problems import InputError, Problem
from ..rules.abilities import closest
from .files import (
    RESERVED_FILES,
    SETTINGS_FILE,
    NotText,
    RefusedFile,
    campaign_files,
    display_path,
    inside,
    read_text_capped,
    unread_files,
)
from .labels import load_labels
from .models import ENTRY_MODELS, Settings
from .settings import load_settings
from .validation import (
    Source,
    entry_name,
    entry_problems,
    raw_ability_problems,
    validation_problems,
)
from .yamlsafe import ParseMemo, load_yaml

# Entries of this list are characters in every way but one: no sheet unless asked.
NPC_LIST = "npcs"
# Lists loaded into another list of the Campaign: roster NPCs are characters, so crews,
# minion leaders, unique names and careers treat them exactly alike.
LOADED_INTO = {NPC_LIST: "characters"}


def listed_as_npc(source: Source) -> bool:
    """Written under ``npcs:`` rather than ``characters:``."""
    return source.path[:1] == (NPC_LIST,)


def gets_sheet(definition: Any, source: Source) -> bool:
    """A character sheet for this character: ``sheet:`` if given, else only for entries
    under ``characters:``."""
    chosen = getattr(definition, "sheet", None)
    return bool(chosen) if chosen is not None else not listed_as_npc(source)


@dataclass(frozen=True)
class Located:
    definition: Any
    source: Source

    @property
    def name(self) -> str:
        return str(self.definition.name)

    @property
    def npc(self) -> bool:
        """A roster NPC (under ``npcs:``); it is in ``Campaign.characters`` all the same."""
        return listed_as_npc(self.source)


@dataclass
class Campaign:
    root: Path | None
    settings: Settings
    characters: list[Located] = field(default_factory=list)
    vehicles: list[Located] = field(default_factory=list)
    communities: list[Located] = field(default_factory=list)
    events: list[Located] = field(default_factory=list)
    careers: list[Located] = field(default_factory=list)
    project_ideas: list[Located] = field(default_factory=list)
    factions: list[Located] = field(default_factory=list)
    encounters: list[Located] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    # labels.yaml: the campaign's own words for our labels, by the English message.
    labels: dict[str, str] = field(default_factory=dict)

    def character(self, name: str) -> Located | None:
        """A character by name, roster NPCs included."""
        return next((c for c in self.characters if c.name == name), None)

    @property
    def npcs(self) -> list[Located]:
        """The characters written under ``npcs:`` (kept in ``characters`` with the rest)."""
        return [c for c in self.characters if c.npc]


def load_file(
    path: Path, campaign: Campaign, problems: list[Problem], memo: ParseMemo | None = None
) -> None:
    """Read one definitions file into ``campaign``; its problems join ``problems`` in the
    order of their lines (stable: one line's problems keep the order they were found in),
    the whole file's own problems first."""
    found: list[Problem] = []
    _read_file(path, campaign, found, memo)
    problems.extend(sorted(found, key=lambda p: p.line or 0))


def _read_file(
    path: Path, campaign: Campaign, problems: list[Problem], memo: ParseMemo | None
) -> None:
    shown = display_path(path)
    try:
        text = read_text_capped(path)
    except NotText as err:
        problems.append(Problem(err.message, shown, err.line))
        return
    except UnicodeDecodeError:
        problems.append(Problem("not UTF-8 text", shown))
        return
    except RefusedFile as err:
        problems.append(Problem(str(err), shown))
        return
    except OSError as err:
        problems.append(Problem(f"cannot read: {err.strerror}", shown))
        return
    if path.name.lower() == "booklet.yml":
        problems.append(
            Problem("the booklet is read only from booklet.yaml; rename it booklet.yaml", shown)
        )
        return
    try:
        data, positions = load_yaml(text, shown, memo)
    except InputError as err:
        problems.extend(err.problems)
        return
    if data is None:
        said = "is empty" if not text.strip() else "holds only comments"
        campaign.warnings.append(Problem(f"{said}: nothing in it is built", shown, severity="note"))
        return
    if not isinstance(data, dict):
        problems.append(
            Problem("a definitions file holds top-level lists such as characters:", shown, 1)
        )
        return
    for key, items in data.items():
        if key not in ENTRY_MODELS and key in Settings.model_fields:
            problems.append(_misplaced_setting(key, items, shown, positions.get((key,))))
            continue
        if key not in ENTRY_MODELS:
            hint = closest(key, tuple(ENTRY_MODELS))
            problems.append(
                Problem(
                    f"unknown top-level key {key!r}"
                    + (f" (did you mean {hint!r}?)" if hint else "")
                    + f"; allowed: {', '.join(ENTRY_MODELS)}",
                    shown,
                    positions.get((key,)),
                    None,
                    key,
                )
            )
            continue
        if items is None:
            campaign.warnings.append(
                Problem(
                    "is empty: nothing under it is built",
                    shown,
                    positions.get((key,)),
                    None,
                    key,
                    "note",
                )
            )
            continue
        if not isinstance(items, list):
            problems.append(
                Problem(
                    "must be a list of entries (each starting with '- name:'),"
                    f" got {type(items).__name__}",
                    shown,
                    positions.get((key,)),
                    None,
                    key,
                )
            )
            continue
        model = ENTRY_MODELS[key]
        for index, raw in enumerate(items):
            source = Source(shown, (key, index), positions)
            entry = entry_name(raw, key, index)
            try:
                definition = model.model_validate(raw)
            except ValidationError as err:
                problems.extend(validation_problems(err, model, source, entry, raw))
                # Unknown ability names are worth reporting alongside a bad level.
                problems.extend(raw_ability_problems(key, raw, source, entry))
                continue
            found = entry_problems(key, definition, source)
            if found:
                problems.extend(found)
                continue
            into = LOADED_INTO.get(str(key), str(key))
            getattr(campaign, into).append(Located(definition, source))


def _misplaced_setting(key: str, value: Any, shown: str, line: int | None) -> Problem:
    """``paper: a4`` in a YAML file (a ``settings.yaml``, say): said as the line it makes
    in scratchpress.toml."""
    if isinstance(value, dict):
        where = f"its [{key}] table"
    else:
        where = f"{key} = {_toml_value(value)}" if _toml_value(value) else "it"
    return Problem(
        f"a setting, not a list of entries: settings go in {SETTINGS_FILE}, not in a YAML"
        f" file; write {where} there",
        shown,
        line,
        None,
        key,
    )


def _toml_value(value: Any) -> str | None:
    """A YAML value as TOML writes it (JSON's strings, numbers and lists are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float) or (
        isinstance(value, list) and all(isinstance(v, str | int | float) for v in value)
    ):
        return json.dumps(value, ensure_ascii=False)
    return None


def load_campaign(
    paths: list[Path], rules: str | None = None, memo: ParseMemo | None = None
) -> Campaign:
    """Read and validate; raises InputError listing every problem found. ``memo`` keeps
    each file's parse for the next load (``build --watch``). Files a build does not read
    though they look meant for it, and empty files, are notes in ``Campaign.warnings``
    (and in the InputError, first, where they may explain its errors)."""
    problems: list[Problem] = []
    for path in paths:
        if not path.exists():
            problems.append(Problem("no such file or folder", display_path(path)))
    if problems:
        raise InputError(problems)
    root, files = campaign_files(paths)
    settings = load_settings(root or Path("."), rules, problems)
    campaign = Campaign(root=root, settings=settings)
    for path in paths:
        if path.is_dir():
            campaign.warnings += unread_files(path)
    # A publisher's folder may hold only a booklet (booklet.yaml and its chapters): that is
    # a campaign too, with nothing to compute.
    booklet_only = any(
        child.name.lower() in RESERVED_FILES and child.is_file()
        for path in paths
        if path.is_dir()
        for child in path.iterdir()
    )
    if not files and not booklet_only:
        raise InputError(
            [
                *campaign.warnings,
                Problem("no *.yaml definitions found", display_path(paths[0])),
            ]
        )
    for file in files:
        if root is not None and file.parent == root and not inside(file, root):
            problems.append(
                Problem("a link to a file outside the campaign folder; refused", display_path(file))
            )
            continue
        load_file(file, campaign, problems, memo)
    if root is not None:
        campaign.labels = load_labels(root, problems)
    if problems:
        raise InputError([*campaign.warnings, *problems])
    return campaign


__all__ = [
    "Campaign",
    "Located",
    "gets_sheet",
    "listed_as_npc",
    "load_campaign",
]
