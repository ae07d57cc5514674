"""Problems found in a campaign, reported one line each with where they come from."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "note"]

QUOTE_LIMIT = 80  # characters of a quoted value (an entry's name, ``got 'xxx'``) shown
MESSAGE_LIMIT = 500  # characters of a message, as a last resort
# What a terminal would act on rather than show: C0 and C1 controls, DEL, the bidi marks,
# embeddings, overrides and isolates (which reorder the rest of the line), line separators.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
UNSAFE_CHARACTERS = _UNSAFE  # the same set, for the YAML writer (definitions/yamlio.py)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# A value quoted in a message: by repr() or by hand, the quotes not part of a word (it's).
_QUOTED = re.compile(
    r"(?<!\w)'[^'\\]*(?:\\.[^'\\]*)*'(?!\w)|(?<!\w)\"[^\"\\]*(?:\\.[^\"\\]*)*\"(?!\w)", re.DOTALL
)
# An unbroken run of text longer than this (a data: URL, a 2 MB name) is shortened to
# QUOTE_LIMIT characters, its start … its end; any real path stays whole.
RUN_LIMIT = 2 * QUOTE_LIMIT
_LONG_RUN = re.compile(rf"\S{{{RUN_LIMIT + 1},}}")
_CUT_ESCAPE = re.compile(r"\\(?:x[0-9a-f]?|u[0-9a-f]{0,3})?$")


def _escape(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(value: str, limit: int | None = QUOTE_LIMIT) -> str:
    """``value`` fit for a terminal line: controls and bidi characters shown escaped
    (``\\x1b``, ``\\n``, ``\\u202e``), and cut after ``limit`` characters (escapes counted as
    shown, never split) with an ellipsis."""
    if limit is None:
        return _UNSAFE.sub(lambda m: _escape(m.group()), value)
    head = value[: limit + 1]  # escaping never shortens: enough to fill ``limit``
    shown = _UNSAFE.sub(lambda m: _escape(m.group()), head)
    if len(shown) <= limit and len(value) <= limit:
        return shown
    return "".join(_fit(head, limit)) + "\u2026"


def safe_lines(text: str) -> str:
    """Text of several lines (a stat block, an event) fit for a terminal: every line as
    :func:`safe_text` shows it, uncut; only the line breaks between them stay real."""
    return "\n".join(safe_text(line, None) for line in text.split("\n"))


def safe_json(value: object) -> str:
    """``value`` as indented JSON fit for a terminal. JSON escapes the C0 controls itself,
    but with ``ensure_ascii=False`` (accents and CJK kept readable) it leaves DEL, the C1
    controls (``\\x9b`` is a CSI to some terminals) and the bidi marks raw: those are
    written as ``\\uXXXX`` escapes, which any JSON reader turns back into the same text.
    Outside strings, JSON holds no such character, only the indent's line breaks."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return char if char == "\n" else f"\\u{ord(char):04x}"

    return _UNSAFE.sub(escape, json.dumps(value, indent=2, ensure_ascii=False))


def _fit(chars: Iterable[str], limit: int) -> list[str]:
    """The escaped characters that fit in ``limit``, in order, an escape never split."""
    pieces: list[str] = []
    size = 0
    for char in chars:
        piece = _escape(char) if _UNSAFE.match(char) else char
        if size + len(piece) > limit:
            break
        pieces.append(piece)
        size += len(piece)
    return pieces


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for a message, a long text cut inside its quotes: ``'Tall Ann…'``."""
    if isinstance(value, str) and len(value) > limit:
        text = repr(value[:limit])
        return f"{text[:-1]}\u2026{text[-1]}"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}\u2026"


def safe_message(message: str, limit: int = QUOTE_LIMIT, total: int = MESSAGE_LIMIT) -> str:
    """A message fit for one terminal line: escaped as :func:`safe_text`, each quoted value
    cut at ``limit``, each unbroken run of more than RUN_LIMIT characters (a ``data:`` URL)
    shortened to ``limit`` around an ellipsis, the whole cut at ``total``."""
    pieces: list[str] = []
    start = size = 0
    for match in _QUOTED.finditer(message):
        if size > total:
            break
        quote = match.group()[0]
        pieces.append(_safe_prose(message[start : match.start()], limit))
        pieces.append(quote + safe_text(match.group()[1:-1], limit) + quote)
        size += len(pieces[-2]) + len(pieces[-1])
        start = match.end()
    else:
        pieces.append(_safe_prose(message[start:], limit))
    text = "".join(pieces)
    if len(text) <= total:
        return text
    return _CUT_ESCAPE.sub("", text[:total]) + "\u2026"


def _safe_prose(text: str, limit: int) -> str:
    def cut(match: re.Match[str]) -> str:
        run = match.group()
        word = run.rstrip(":;,.)")  # the punctuation after it stays
        if len(word) <= RUN_LIMIT:
            return run
        head = _fit(word[: limit // 2], limit // 2)
        tail = _fit(reversed(word[-limit:]), limit - limit // 2 - 1)
        return "".join(head) + "\u2026" + "".join(reversed(tail)) + run[len(word) :]

    return safe_text(_LONG_RUN.sub(cut, text), None)


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or worth knowing) about the input.

    Printed as ``file:line: entry "Name": field: message``; warnings and notes say so after
    the position, so an error line always reads exactly as the format promises.
    """

    message: str
    file: str = ""
    line: int | None = None
    entry: str | None = None
    field: str | None = None
    severity: Severity = "error"

    def __str__(self) -> str:
        parts = []
        if self.file:
            file = safe_text(self.file, None)
            parts.append(f"{file}:{self.line}" if self.line else file)
        if self.severity != "error":
            parts.append(self.severity)
        if self.entry is not None:
            parts.append(f'entry "{safe_text(self.entry)}"')
        if self.field:
            parts.append(safe_text(self.field))
        parts.append(safe_message(self.message))
        return ": ".join(parts)

    def as_error(self) -> Problem:
        """The same problem made fatal (a layout warning under ``--strict``)."""
        return dataclasses.replace(self, severity="error")


class Findings:
    """What holds a list of problems (a computed campaign, a check): its errors and its
    warnings, picked the same way everywhere."""

    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity == "warning"]


class InputError(Exception):
    """Raised with every problem at once when input cannot be used."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems


class UsageError(Exception):
    """A request that cannot work as asked (two options that exclude each other, a name
    that names nothing): the command line's exit code 2, not bad input's 1."""
