"""Problems found in a campaign, reported one line each with where they come from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "note"]


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
            parts.append(f"{self.file}:{self.line}" if self.line else self.file)
        if self.severity != "error":
            parts.append(self.severity)
        if self.entry is not None:
            parts.append(f'entry "{self.entry}"')
        if self.field:
            parts.append(self.field)
        parts.append(self.message)
        return ": ".join(parts)


class InputError(Exception):
    """Raised with every problem at once when input cannot be used."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("\n".join(str(p) for p in problems))
        self.problems = problems
