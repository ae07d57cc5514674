"""Problems with their lines: pydantic's errors reworded for a GM, and the checks the models
cannot express (ability names, vehicle movement), each pinned to the line it is about."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

from ..problems import Problem, quoted
from ..rules.abilities import (
    CHARACTER_ABILITIES,
    OLDER_NAMES,
    VEHICLE_ABILITIES,
    VEHICLE_MOVEMENT,
    closest,
)
from . import models, resilience_models
from .models import KIND_OF_LIST, CharacterDef, Encounter, VehicleDef
from .yamlsafe import MAX_NUMBER_DIGITS
from .yamlsafe import Path as DataPath

_MODEL_NAMES: set[str] = {
    name
    for module in (models, resilience_models)
    for name, obj in vars(module).items()
    if isinstance(obj, type) and issubclass(obj, BaseModel)
}


@dataclass(frozen=True)
class Source:
    """Where an entry came from, able to name the line of any of its fields."""

    file: str
    path: DataPath
    positions: dict[DataPath, int]

    def line(self, *fields: str | int) -> int | None:
        """The line of the deepest known value along ``fields`` (or of the entry itself)."""
        full = (*self.path, *fields)
        while full:
            if full in self.positions:
                return self.positions[full]
            full = full[:-1]
        return None


def _friendly(error: Any) -> str:
    """Pydantic's message, reworded where a GM would not know what it means."""
    kind, got = error["type"], error.get("input")
    shown = quoted(got) if not isinstance(got, dict | list) else type(got).__name__
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required, but missing"
    if kind in {"bool_type", "bool_parsing"}:
        return f"must be true or false (without quotes), got {shown}"
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        if isinstance(got, str) and _WHOLE_NUMBER.fullmatch(got):
            return f"must be a whole number, got {shown} in quotes; remove the quotes"
        return f"must be a whole number, got {shown}"
    if kind in {"greater_than_equal", "greater_than"}:
        limit = error.get("ctx", {}).get("ge", error.get("ctx", {}).get("gt"))
        return f"must be {limit} or more, got {shown}"
    if kind == "less_than_equal":
        return f"must be {error['ctx']['le']} or less, got {shown}"
    if kind == "string_type":
        return f"must be text, got {shown}"
    if kind in {"dict_type", "model_type"}:
        message = f"must be a mapping of keys to values, got {shown}"
        return message + _dashes_hint(got) if isinstance(got, list) and got else message
    if kind == "list_type":
        return f"must be a list, got {shown}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "value_error":  # our own validators: their words, without pydantic's prefix
        said = str(error.get("ctx", {}).get("error", error["msg"]))
        # A whole entry's validator says what it found; "got dict" would add nothing.
        return said if isinstance(got, dict | list) else f"{said}, got {shown}"
    pattern = error.get("ctx", {}).get("pattern")
    if kind == "string_pattern_mismatch" and pattern == resilience_models.ID_PATTERN:
        return f"must be lower-case words joined by hyphens, such as owes-the-guild, got {shown}"
    if kind == "literal_error":
        choices = tuple(re.findall(r"'([^']*)'", error.get("ctx", {}).get("expected", "")))
        hint = closest(str(got), choices) if isinstance(got, str) and choices else None
        message = f"{error['msg'].replace('Input should be', 'must be')}, got {shown}"
        return message + (f" (did you mean {hint!r}?)" if hint else "")
    return f"{error['msg']}, got {shown}"


# A number in quotes; a longer run of digits is no quoted number but one YAML kept as text.
_WHOLE_NUMBER = re.compile(rf"\s*[+-]?\d{{1,{MAX_NUMBER_DIGITS}}}\s*")


def _dashes_hint(items: list[Any]) -> str:
    """For a mapping written as a list (``- shooting: 2``): how to write it instead."""
    first = items[0]
    if isinstance(first, dict) and len(first) == 1:
        key, value = next(iter(first.items()))
        if not isinstance(value, dict | list):
            return f"; remove the dashes: write {key}: {value}, not - {key}: {value}"
    return "; remove the dashes ('- ') in front of its keys"


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models inside an annotation such as ``dict[str, int | AbilityEntry]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    found: list[type[BaseModel]] = []
    for arg in get_args(annotation):
        found += _models_in(arg)
    return found


def _allowed_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """The keys the model accepts where an unknown key was found, for "did you mean"."""
    current: type[BaseModel] | None = model
    parts = list(loc[:-1])
    while parts and current is not None:
        part = parts.pop(0)
        if part not in current.model_fields:
            return []
        annotation = current.model_fields[part].annotation
        origin = get_origin(annotation)
        # dict[...] and list[...] fields are followed by a key or an index in the location.
        if origin in (dict, list) and parts:
            parts.pop(0)
        models = _models_in(annotation)
        current = models[0] if models else None
    return list(current.model_fields) if current is not None else []


# The labels pydantic puts in a location to say which branch of a union failed.
_BRANCH_TAGS = {"int", "constrained-int", "dict[str,int]", "float", "str"}


def _is_branch(part: Any) -> bool:
    return isinstance(part, str) and (
        part in _BRANCH_TAGS or part in _MODEL_NAMES or part.startswith("function-")
    )


def _clean_loc(loc: tuple[Any, ...]) -> tuple[str | int, ...]:
    """Drop pydantic's union-branch labels (``constrained-int``, ``AbilityEntry``)."""
    return tuple(p for p in loc if not _is_branch(p))


def _wrong_branch(error: Any) -> bool:
    """A union reports every branch; keep only the one the user evidently meant: the
    mapping form when they wrote a mapping, the plain number otherwise."""
    if not any(_is_branch(p) for p in error["loc"]):
        return False
    given_mapping = isinstance(error.get("input"), dict)
    if error["type"] in {"int_type", "int_parsing", "int_from_float", "float_type"}:
        return given_mapping
    if error["type"] in {"model_type", "dict_type", "model_attributes_type"}:
        return not given_mapping
    return False


def _split_text(
    loc: tuple[Any, ...], source: Source, raw: Any, allowed: list[str]
) -> tuple[tuple[Any, ...], str, list[tuple[Any, ...]]] | None:
    """A text cut by a comma inside ``{ }`` (``{level: 2, note: rope, hook}``): YAML reads
    ``hook`` as a key with no value (``hook: and line`` as a key with one), on the line of
    its mapping. Returns the location of the text cut, the message, and the locations of
    every piece read as a key; None for a misspelt key (``{operator: Ann, gunnr}``)."""
    if not loc or source.line(*loc) != source.line(*loc[:-1]):
        return None
    parent = raw
    for part in loc[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(parent, dict) or loc[-1] not in parent:
        return None

    def scalar(value: Any) -> bool:
        return isinstance(value, str | int | float) and not isinstance(value, bool)

    def piece(key: str) -> bool:  # no key of ours has a space: one that does is prose
        return parent[key] is None or (" " in key.strip() and scalar(parent[key]))

    keys = list(parent)
    at = keys.index(loc[-1])
    if not piece(keys[at]):
        return None
    start = end = at
    while start > 0 and piece(keys[start - 1]):
        start -= 1
    while end + 1 < len(keys) and piece(keys[end + 1]):
        end += 1
    pieces = keys[start : end + 1]
    if all(" " not in p.strip() for p in pieces) and any(
        closest(p, tuple(allowed)) for p in pieces
    ):
        return None
    cut = keys[start - 1] if start > 0 else None
    if cut is None or not isinstance(parent[cut], str):  # numbers are no prose
        if " " not in str(loc[-1]).strip():
            return None  # `{toughness: 2, stelth}`: a misspelt key, said as such
        message = (
            "a comma in a text inside { } splits it (the rest became this key);"
            " put the text in quotes"
        )
        return loc, message, [loc]
    whole = ", ".join(
        [str(parent[cut])] + [p if parent[p] is None else f"{p}: {parent[p]}" for p in pieces]
    )
    became = " and ".join(repr(p) for p in pieces)
    became += " became keys" if len(pieces) > 1 else " became a key"
    message = (
        f"a comma in the {cut} inside {{ }} splits it ({became}); put the {cut} in quotes:"
        f" {cut}: {json.dumps(whole, ensure_ascii=False)}"
    )
    return (*loc[:-1], cut), message, [(*loc[:-1], p) for p in pieces]


def validation_problems(
    err: ValidationError,
    model: type[BaseModel],
    source: Source,
    entry: str | None,
    raw: Any = None,
) -> list[Problem]:
    """Pydantic's errors for one entry (or the settings), each on its line and in a GM's
    words; ``raw``, the entry as read, lets a text split by a comma be recognised."""
    located: list[tuple[tuple[Any, ...], Any]] = []
    for error in err.errors():
        if _wrong_branch(error):
            continue
        raw_loc = tuple(error["loc"])
        if error["type"] == "extra_forbidden" and raw_loc:
            # The last part is the user's own key, even if it looks like a branch label.
            located.append(((*_clean_loc(raw_loc[:-1]), raw_loc[-1]), error))
        else:
            located.append((_clean_loc(raw_loc), error))
    missing = {loc for loc, error in located if error["type"] == "missing"}
    misspelt: set[tuple[Any, ...]] = set()  # required keys given under a misspelt name
    problems: list[tuple[tuple[Any, ...], Problem]] = []
    seen: set[tuple[Any, ...]] = set()
    for loc, error in located:
        if loc in seen:
            continue
        seen.add(loc)
        split = (
            _split_text(loc, source, raw, _allowed_keys(model, loc))
            if error["type"] == "extra_forbidden"
            else None
        )
        if split is not None:
            where, message, pieces = split
            seen.update(pieces)
            field_name = ".".join(str(p) for p in where)
            problems.append(
                (loc, Problem(message, source.file, source.line(*where), entry, field_name))
            )
            continue
        message = _friendly(error)
        if error["type"] == "extra_forbidden" and loc:
            allowed = _allowed_keys(model, loc)
            hint = closest(str(loc[-1]), tuple(allowed)) if allowed else None
            message += f" (did you mean {hint!r}?)" if hint else ""
            if hint and (*loc[:-1], hint) in missing:
                # `abilites:` for a missing `abilities:` is one mistake: one message.
                misspelt.add((*loc[:-1], hint))
            elif allowed:
                message += f"; allowed: {', '.join(allowed)}"
        field_name = ".".join(str(p) for p in loc)
        problem = Problem(message, source.file, source.line(*loc), entry, field_name)
        problems.append((loc, problem))
    return [problem for loc, problem in problems if loc not in misspelt]


def _ability_problems(
    abilities: dict[str, Any],
    catalogue: tuple[str, ...],
    source: Source,
    entry: str,
    where: tuple[str | int, ...],
    what: str,
) -> list[Problem]:
    problems = []
    for name in abilities:
        if name in catalogue or (what == "character" and name in OLDER_NAMES):
            continue
        hint = closest(name, catalogue)
        message = f"unknown {what} ability {name!r}"
        message += f" (did you mean {hint!r}?)" if hint else f"; known: {', '.join(catalogue)}"
        problems.append(
            Problem(
                message,
                source.file,
                source.line(*where, name),
                entry,
                ".".join(map(str, (*where, name))),
            )
        )
    return problems


def _character_problems(
    definition: CharacterDef, source: Source, where: tuple[str | int, ...] = ()
) -> list[Problem]:
    """Ability names of a character and its minions; ``where`` leads to it in the entry
    (an encounter's opponents sit under ``opponents``)."""
    name = definition.name
    problems = _ability_problems(
        definition.abilities, CHARACTER_ABILITIES, source, name, (*where, "abilities"), "character"
    )
    for i, minion in enumerate(definition.minions):
        problems += _ability_problems(
            minion.abilities,
            CHARACTER_ABILITIES,
            source,
            name,
            (*where, "minions", i, "abilities"),
            "character",
        )
    return problems + _duplicate_older_names(
        definition.abilities, source, name, (*where, "abilities")
    )


def entry_problems(kind: str, definition: BaseModel, source: Source) -> list[Problem]:
    """Checks the models cannot express: ability names and vehicle movement."""
    name = str(getattr(definition, "name", ""))
    problems: list[Problem] = []
    if isinstance(definition, CharacterDef):
        problems += _character_problems(definition, source)
    elif isinstance(definition, Encounter):
        for i, opponent in enumerate(definition.opponents):
            problems += _character_problems(opponent, source, ("opponents", i))
    elif isinstance(definition, VehicleDef):
        problems += _ability_problems(
            definition.abilities, VEHICLE_ABILITIES, source, name, ("abilities",), "vehicle"
        )
        if definition.movement not in VEHICLE_MOVEMENT:
            hint = closest(definition.movement, VEHICLE_MOVEMENT)
            message = f"{definition.movement!r} is not a vehicle movement ability"
            message += f" (did you mean {hint!r}?)" if hint else ""
            message += f"; allowed: {', '.join(VEHICLE_MOVEMENT)}"
            problems.append(
                Problem(message, source.file, source.line("movement"), name, "movement")
            )
        elif definition.movement not in definition.abilities:
            problems.append(
                Problem(
                    f"moves by {definition.movement}, which is not among its abilities",
                    source.file,
                    source.line("movement"),
                    name,
                    "movement",
                )
            )
    return problems


def raw_ability_problems(key: str, raw: Any, source: Source, entry: str) -> list[Problem]:
    """Ability names checked on the raw data, for entries the models already refused."""
    catalogues = {
        "character": (CHARACTER_ABILITIES, "character"),
        "NPC": (CHARACTER_ABILITIES, "character"),  # roster NPCs are characters
        "vehicle": (VEHICLE_ABILITIES, "vehicle"),
    }
    kind = KIND_OF_LIST.get(key)
    if kind not in catalogues or not isinstance(raw, dict):
        return []
    abilities = raw.get("abilities")
    if not isinstance(abilities, dict):
        return []
    catalogue, what = catalogues[kind]
    return _ability_problems(
        {str(k): v for k, v in abilities.items()}, catalogue, source, entry, ("abilities",), what
    )


def _duplicate_older_names(
    abilities: dict[str, Any], source: Source, entry: str, where: tuple[str | int, ...]
) -> list[Problem]:
    problems = []
    for old, new in OLDER_NAMES.items():
        if old in abilities and new in abilities:
            problems.append(
                Problem(
                    f"{old!r} is the older name of {new!r}; give only one of them",
                    source.file,
                    source.line(*where, old),
                    entry,
                    ".".join(map(str, (*where, old))),
                )
            )
    return problems


def entry_name(raw: Any, key: str, index: int) -> str:
    """What messages call an entry: its name (or an event's title), else its position."""
    if isinstance(raw, dict):
        for field_name in ("name", "title", "id", "event"):
            if raw.get(field_name) is not None:
                return str(raw[field_name])
    return f"{KIND_OF_LIST[key]} #{index + 1}"


__all__ = [
    "Source",
    "entry_name",
    "entry_problems",
    "raw_ability_problems",
    "validation_problems",
]
