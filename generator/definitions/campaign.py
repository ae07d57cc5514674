"""Load a campaign: ``scratchpress.toml`` plus every ``*.yaml`` file, validated with positions.

All problems are collected before anything is reported, so a user fixes a file in one pass.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

from ..problems import InputError, Problem, quoted
from ..rules.abilities import (
    CHARACTER_ABILITIES,
    OLDER_NAMES,
    VEHICLE_ABILITIES,
    VEHICLE_MOVEMENT,
    closest,
)
from . import models, resilience_models
from .models import (
    ENTRY_MODELS,
    KIND_OF_LIST,
    CharacterDef,
    CommunityDef,
    Encounter,
    Settings,
    VehicleDef,
)
from .yamlsafe import MAX_DEPTH, MAX_NUMBER_DIGITS, ParseMemo, character_name, load_yaml
from .yamlsafe import Path as DataPath

_MODEL_NAMES: set[str] = {
    name
    for module in (models, resilience_models)
    for name, obj in vars(module).items()
    if isinstance(obj, type) and issubclass(obj, BaseModel)
}
SETTINGS_FILE = "scratchpress.toml"
MAX_SETTINGS_BYTES = 256 * 1024
MAX_FILE_BYTES = 5 * 1024 * 1024  # a campaign file is text; anything bigger is a mistake
# Files in a campaign folder that hold something other than entries (later: booklets).
RESERVED_FILES = {"booklet.yaml"}


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
    encounters: list[Located] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    def character(self, name: str) -> Located | None:
        """A character by name, roster NPCs included."""
        return next((c for c in self.characters if c.name == name), None)

    @property
    def npcs(self) -> list[Located]:
        """The characters written under ``npcs:`` (kept in ``characters`` with the rest)."""
        return [c for c in self.characters if c.npc]


def display_path(path: Path) -> str:
    """Paths in messages: the bundled example as ``example/…`` (wherever pip put it),
    else relative to where the user stands, else absolute; never ``../../..``."""
    from ..resources import examples_dir

    absolute = Path(os.path.abspath(path))
    example = Path(os.path.abspath(examples_dir()))
    if absolute == example or example in absolute.parents:
        return Path("example", absolute.relative_to(example)).as_posix()
    try:
        relative = os.path.relpath(absolute)
    except ValueError:  # another drive on Windows
        return str(absolute)
    return str(absolute) if relative.startswith("..") else relative


def _friendly(error: Any) -> str:
    """Pydantic's message, reworded where a GM would not know what it means."""
    kind, got = error["type"], error.get("input")
    shown = quoted(got) if not isinstance(got, dict | list) else type(got).__name__
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required, but missing"
    if kind in {"int_type", "int_parsing", "int_from_float"}:
        return f"must be a whole number, got {shown}"
    if kind in {"greater_than_equal", "greater_than"}:
        limit = error.get("ctx", {}).get("ge", error.get("ctx", {}).get("gt"))
        return f"must be {limit} or more, got {shown}"
    if kind == "less_than_equal":
        return f"must be {error['ctx']['le']} or less, got {shown}"
    if kind == "string_type":
        return f"must be text, got {shown}"
    if kind in {"dict_type", "model_type"}:
        return f"must be a mapping of keys to values, got {shown}"
    if kind == "list_type":
        return f"must be a list, got {shown}"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "value_error":  # our own validators: their words, without pydantic's prefix
        return f"{error.get('ctx', {}).get('error', error['msg'])}, got {shown}"
    if kind == "literal_error":
        return f"{error['msg'].replace('Input should be', 'must be')}, got {shown}"
    return f"{error['msg']}, got {shown}"


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


def _validation_problems(
    err: ValidationError, model: type[BaseModel], source: Source, entry: str | None
) -> list[Problem]:
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


def _entry_problems(kind: str, definition: BaseModel, source: Source) -> list[Problem]:
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


def _raw_ability_problems(key: str, raw: Any, source: Source, entry: str) -> list[Problem]:
    """Ability names checked on the raw data, for entries the models already refused."""
    catalogues = {
        "characters": (CHARACTER_ABILITIES, "character"),
        NPC_LIST: (CHARACTER_ABILITIES, "character"),
        "vehicles": (VEHICLE_ABILITIES, "vehicle"),
    }
    if key not in catalogues or not isinstance(raw, dict):
        return []
    abilities = raw.get("abilities")
    if not isinstance(abilities, dict):
        return []
    catalogue, what = catalogues[key]
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


def _entry_name(raw: Any, key: str, index: int) -> str:
    """What messages call an entry: its name (or an event's title), else its position."""
    if isinstance(raw, dict):
        for field_name in ("name", "title", "id", "event"):
            if raw.get(field_name) is not None:
                return str(raw[field_name])
    return f"{KIND_OF_LIST[key]} #{index + 1}"


class RefusedFile(ValueError):
    pass


class NotText(UnicodeDecodeError):
    """Bytes that are not text in the encoding they were read as: ``message`` says which
    bytes, on which ``line`` and column, and what to do."""

    def __init__(self, err: UnicodeDecodeError, encoding: str) -> None:
        super().__init__(err.encoding, err.object, err.start, err.end, err.reason)
        before = err.object[: err.start].decode(err.encoding, "replace")
        self.line = before.count("\n") + 1
        column = len(before) - before.rfind("\n")
        bad = err.object[err.start : min(err.end, err.start + 4)]
        shown = " ".join(f"0x{byte:02x}" for byte in bad)
        self.message = (
            f"not {encoding} text: byte{'s' if len(bad) > 1 else ''} {shown} at column"
            f" {column}; save the file as UTF-8"
        )


# Byte order marks, the UTF-32 ones first (FF FE 00 00 starts with UTF-16's FF FE).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_WIDE = (("utf-32-le", 4), ("utf-32-be", 4), ("utf-16-le", 2), ("utf-16-be", 2))


def decode_text(data: bytes) -> str:
    """A file's text: UTF-8, or UTF-16 or UTF-32 (as Windows editors save), told by a byte
    order mark or, without one, by the NUL bytes of mostly-ASCII text; the mark dropped.
    Raises NotText (a UnicodeDecodeError) naming the first bad bytes and their line."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec)
            except UnicodeDecodeError as err:
                raise NotText(err, name) from None
    if b"\0" in data:
        for codec, unit in _WIDE:
            text = _wide_text(data, codec, unit)
            if text is not None:
                return text
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise NotText(err, "UTF-8") from None


def _wide_text(data: bytes, codec: str, unit: int) -> str | None:
    """``data`` as UTF-16 or UTF-32 if it reads as such, with no NUL and at least half of
    its first characters ASCII (keys, spaces, punctuation); else None. UTF-8 text with a
    stray NUL never passes: its pairs of ASCII bytes read as CJK."""
    if len(data) % unit:
        return None
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    sample = text[:4096]
    ascii_chars = len(sample.encode("ascii", "ignore"))
    return text if "\0" not in text and 2 * ascii_chars >= len(sample) else None


def read_text_capped(path: Path, cap: int = MAX_FILE_BYTES) -> str:
    """Read a definitions file, refusing anything that is not a modest regular file.

    Checked on the open descriptor, so a FIFO, ``/dev/zero`` or a file swapped in after the
    check can neither block the read nor fill memory.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise RefusedFile("not a regular file; refused")
        data = handle.read(cap + 1)
    if len(data) > cap:
        size = f"{cap // 1024 // 1024} MB" if cap >= 1024 * 1024 else f"{cap // 1024} KB"
        raise RefusedFile(f"larger than {size}; refused")
    return decode_text(data)


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
    try:
        data, positions = load_yaml(text, shown, memo)
    except InputError as err:
        problems.extend(err.problems)
        return
    if data is None:
        return
    if not isinstance(data, dict):
        problems.append(
            Problem("a definitions file holds top-level lists such as characters:", shown, 1)
        )
        return
    for key, items in data.items():
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
            entry_name = _entry_name(raw, key, index)
            try:
                definition = model.model_validate(raw)
            except ValidationError as err:
                problems.extend(_validation_problems(err, model, source, entry_name))
                # Unknown ability names are worth reporting alongside a bad level.
                problems.extend(_raw_ability_problems(key, raw, source, entry_name))
                continue
            found = _entry_problems(key, definition, source)
            if found:
                problems.extend(found)
                continue
            into = LOADED_INTO.get(str(key), str(key))
            getattr(campaign, into).append(Located(definition, source))


# A TOML key: bare, "quoted" or 'literal', dotted (build.pdf) or not.
_TOML_PART = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')"""
_TOML_KEY = rf"{_TOML_PART}(?:\s*\.\s*{_TOML_PART})*"
_TOML_HEADER = re.compile(rf"\s*\[\s*({_TOML_KEY})\s*\]")
_TOML_ASSIGN = re.compile(rf"\s*({_TOML_KEY})\s*=")


def _toml_key(key: str) -> tuple[str, ...]:
    parts = re.findall(_TOML_PART, key)
    return tuple(p[1:-1] if p[:1] in {'"', "'"} else p for p in parts)


def _toml_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """Line of each key, under its ``[table]``; tomllib keeps no positions, and our file is
    a flat list of keys plus the ``[build]`` table. Lines are counted as tomllib counts
    them, at ``\\n`` only (``str.splitlines`` would count a U+2028 inside a string too)."""
    lines: dict[tuple[str | int, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.split("\n"), start=1):
        header = _TOML_HEADER.match(line)
        if header:
            table = _toml_key(header.group(1))
            lines.setdefault(table, number)
            continue
        match = _TOML_ASSIGN.match(line)
        if match:
            key = (*table, *_toml_key(match.group(1)))
            for depth in range(len(table) + 1, len(key) + 1):
                lines.setdefault(key[:depth], number)
    return lines


# Characters TOML allows nowhere, strings and comments included (a tab is fine).
_TOML_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)")
_TOML_NEXT = re.compile(r"""[\[\]{}"'#A-Za-z0-9_+-]""")  # what the scan below looks at
_TOML_WORD = re.compile(r"[A-Za-z0-9_+.:-]+")  # bare keys, numbers, dates, true
_TOML_STRINGS = (  # each ends at its closing quotes or, unterminated, at the line's or file's end
    ('"""', re.compile(r'"""(?:[^"\\]|\\.|\\\Z|"(?!""))*(?:"{3,5}|\Z)', re.DOTALL)),
    ("'''", re.compile(r"'''.*?(?:'{3,5}|\Z)", re.DOTALL)),
    ('"', re.compile(r'"(?:[^"\\\n]|\\.)*"?')),
    ("'", re.compile(r"'[^'\n]*'?")),
)


def _toml_refusal(text: str) -> tuple[str, int] | None:
    """What tomllib must not be given, with its line: a control character, arrays or
    inline tables nested deeper than YAML may be (tomllib recurses into them), or a number
    longer than Python reads. One linear pass, strings and comments skipped."""
    control = _TOML_CONTROL.search(text)
    if control is not None:
        at = control.start()
        column = at - text.rfind("\n", 0, at)
        return (
            f"{character_name(ord(text[at]))} at column {column} (control characters are"
            " not allowed in TOML); delete it (most editors do not show it)",
            text.count("\n", 0, at) + 1,
        )
    depth = at = 0
    while (found := _TOML_NEXT.search(text, at)) is not None:
        at = found.start()
        char = text[at]
        if char == "#":
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
        elif char in "\"'":
            pattern = next(p for opening, p in _TOML_STRINGS if text.startswith(opening, at))
            string = pattern.match(text, at)
            at = string.end() if string is not None else len(text)
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                message = f"nested more than {MAX_DEPTH} levels deep; refused"
                return message, text.count("\n", 0, at) + 1
            at += 1
        elif char in "]}":
            depth = max(depth - 1, 0)
            at += 1
        else:
            word = _TOML_WORD.match(text, at)
            end = word.end() if word is not None else at + 1
            if char in "+-0123456789" and end - at > MAX_NUMBER_DIGITS:
                message = f"a number longer than {MAX_NUMBER_DIGITS} digits; refused"
                return message, text.count("\n", 0, at) + 1
            at = end
    return None


def _parse_toml(text: str, shown: str, problems: list[Problem]) -> dict[str, Any]:
    """The values of ``scratchpress.toml``, or ``{}`` and one problem on its line."""
    refused = _toml_refusal(text)
    if refused is not None:
        problems.append(Problem(refused[0], shown, refused[1]))
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line = re.search(r"line (\d+)", str(err))
        problems.append(
            Problem(f"TOML syntax error: {err}", shown, int(line.group(1)) if line else None)
        )
    except (RecursionError, ValueError, OverflowError):  # the scan above should prevent these
        problems.append(
            Problem(
                "cannot be read as TOML (nested too deep, or a number too long); refused", shown
            )
        )
    return {}


def load_settings(folder: Path, override_rules: str | None, problems: list[Problem]) -> Settings:
    """Read ``scratchpress.toml``; problems are added to ``problems`` and defaults used, so
    the YAML files are still checked in the same run."""
    file = folder / SETTINGS_FILE
    settings = Settings()
    if file.exists() and not _inside(file, folder):
        problems.append(
            Problem("a link to a file outside the campaign folder; refused", display_path(file))
        )
    elif file.exists():
        shown = display_path(file)
        try:
            text = read_text_capped(file, MAX_SETTINGS_BYTES)
        except NotText as err:
            problems.append(Problem(err.message, shown, err.line))
            text = ""
        except RefusedFile as err:
            problems.append(Problem(str(err), shown))
            text = ""
        except (OSError, UnicodeDecodeError) as err:
            problems.append(Problem(f"cannot read: {err}", shown))
            text = ""
        values = _parse_toml(text, shown, problems)
        try:
            settings = Settings.model_validate(values)
        except ValidationError as err:
            source = Source(shown, (), _toml_lines(text))
            problems.extend(_validation_problems(err, Settings, source, None))
    if override_rules is not None:
        settings = settings.model_copy(update={"rules": override_rules})
    return settings


def _inside(path: Path, root: Path) -> bool:
    real, base = Path(os.path.realpath(path)), Path(os.path.realpath(root))
    return base in real.parents


def is_definitions_file(path: Path) -> bool:
    """A file a campaign folder's loader reads: ``*.yaml`` or ``*.yml`` in any case, other
    than the reserved ones (``booklet.yaml``)."""
    return (
        path.suffix.lower() in {".yaml", ".yml"}
        and path.name.lower() not in RESERVED_FILES
        and not path.is_dir()
    )


def campaign_files(paths: list[Path]) -> tuple[Path | None, list[Path]]:
    """The YAML files to read and the campaign folder whose settings apply."""
    files: list[Path] = []
    root: Path | None = None
    for path in paths:
        if path.is_dir():
            root = root or path
            # party.YAML and Party.Yml too; backups (party.yaml~) are not definitions.
            files += sorted(p for p in path.iterdir() if is_definitions_file(p))
        else:
            root = root or path.parent
            files.append(path)
    return root, files


def load_campaign(
    paths: list[Path], rules: str | None = None, memo: ParseMemo | None = None
) -> Campaign:
    """Read and validate; raises InputError listing every problem found. ``memo`` keeps
    each file's parse for the next load (``build --watch``)."""
    problems: list[Problem] = []
    for path in paths:
        if not path.exists():
            problems.append(Problem("no such file or folder", display_path(path)))
    if problems:
        raise InputError(problems)
    root, files = campaign_files(paths)
    settings = load_settings(root or Path("."), rules, problems)
    campaign = Campaign(root=root, settings=settings)
    if not files:
        raise InputError([Problem("no *.yaml definitions found", display_path(paths[0]))])
    for file in files:
        if root is not None and file.parent == root and not _inside(file, root):
            problems.append(
                Problem("a link to a file outside the campaign folder; refused", display_path(file))
            )
            continue
        load_file(file, campaign, problems, memo)
    if problems:
        raise InputError(problems)
    return campaign


__all__ = [
    "Campaign",
    "CommunityDef",
    "Located",
    "Source",
    "gets_sheet",
    "listed_as_npc",
    "load_campaign",
]
