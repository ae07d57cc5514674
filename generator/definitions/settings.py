"""``scratchpress.toml``: a campaign's settings, read safely and validated with lines.

tomllib keeps no positions and recurses into nested arrays, so the text is scanned first
(control characters, nesting, overlong numbers) and each key's line found by hand.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..problems import Problem
from .files import SETTINGS_FILE, NotText, RefusedFile, display_path, inside, read_text_capped
from .models import Settings
from .validation import Source, validation_problems
from .yamlsafe import MAX_DEPTH, MAX_NUMBER_DIGITS, character_name

MAX_SETTINGS_BYTES = 256 * 1024


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


_BARE_WORD = re.compile(r"[^\s\"'\[\]{},#=][^\"'\[\]{},#=\n]*")


def _toml_hint(error: str, text: str, line: int | None, column: int) -> str | None:
    """Plain words for the usual slip, a text value without its quotes (``paper = a4``,
    ``ink_saver = True``): the line as it should be written; None for any other error."""
    rows = text.split("\n")
    if line is None or not 1 <= line <= len(rows) or column < 1:
        return None
    if not error.startswith(("Invalid value", "Expected newline")):
        return None
    row = rows[line - 1]
    assign = _TOML_ASSIGN.match(row)
    if assign is None:
        return None
    value_at = assign.end() + len(row[assign.end() :]) - len(row[assign.end() :].lstrip())
    start = column - 1 if error.startswith("Invalid value") else value_at
    word = _BARE_WORD.match(row, start)
    value = word.group().strip() if word is not None else ""
    if not (value[:1].isalpha() if error.startswith("Invalid value") else " " in value):
        return None  # `jobs = 2x`, `a = -`: no text meant
    kind = _setting_kind(assign.group(1).strip(), rows[: line - 1])
    if value in {"True", "False", "TRUE", "FALSE"}:
        fixed = value.lower()
        why = "true and false are written in lower case"
    elif kind is bool:
        return (
            "a yes-or-no setting is true or false, without quotes: write"
            f" {assign.group(1)} = true (or false) (TOML syntax error: Invalid value)"
        )
    elif kind is int:
        return (
            f"{assign.group(1)} is a whole number, written without quotes: write"
            f" {assign.group(1)} = 2, say (TOML syntax error: Invalid value)"
        )
    else:
        fixed = json.dumps(value, ensure_ascii=False)
        why = "text values need quotes"
    phrase = error.split(" (at line")[0]
    written = f"{assign.group(1)} = {fixed}" if start == value_at else fixed
    return f"{why}: write {written} (TOML syntax error: {phrase})"


def _setting_kind(key: str, above: list[str]) -> type | None:
    """``bool``, ``int`` or ``str``: what the setting ``key`` takes, in the table the lines
    ``above`` it leave open (``[build]`` or the top level); None for a key we do not know."""
    from .models import BuildOptions

    tables = [row.strip() for row in above if row.strip().startswith("[")]
    model = BuildOptions if tables and tables[-1].startswith("[build]") else Settings
    field = model.model_fields.get(key.strip().strip('"'))
    if field is None:
        return None
    if field.annotation is bool:
        return bool
    return int if field.annotation is int else str


def _parse_toml(text: str, shown: str, problems: list[Problem]) -> dict[str, Any]:
    """The values of ``scratchpress.toml``, or ``{}`` and one problem on its line."""
    refused = _toml_refusal(text)
    if refused is not None:
        problems.append(Problem(refused[0], shown, refused[1]))
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        where = re.search(r"line (\d+)(?:, column (\d+))?", str(err))
        line = int(where.group(1)) if where else None
        column = int(where.group(2)) if where and where.group(2) else 0
        hint = _toml_hint(str(err), text, line, column)
        problems.append(Problem(hint or f"TOML syntax error: {err}", shown, line))
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
    if file.exists() and not inside(file, folder):
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
            problems.extend(validation_problems(err, Settings, source, None))
    if override_rules is not None:
        settings = settings.model_copy(update={"rules": override_rules})
    return settings


__all__ = ["MAX_SETTINGS_BYTES", "SETTINGS_FILE", "load_settings"]
