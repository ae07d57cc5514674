"""``labels.yaml``: a campaign's own words for any label we print, over its language's.

Keyed by the English message, as the template catalogue lists it (docs/languages.md
tells where to find them), so one file serves a campaign whatever language it prints in::

    hit points: wounds
    Gear & notes: Kit and notes

A value must keep the English message's placeholders (``%(page)s``): the printables fill
them in.
"""

from __future__ import annotations

from pathlib import Path

from ..problems import InputError, Problem
from ..rules.abilities import closest
from ..wording import PLACEHOLDER, messages
from .files import NotText, RefusedFile, display_path, read_text_capped
from .yamlsafe import load_yaml

LABELS_FILE = "labels.yaml"
MAX_LABEL = 300  # characters: a label, not a chapter


def load_labels(root: Path, problems: list[Problem]) -> dict[str, str]:
    """The campaign's labels from ``root/labels.yaml`` (none when it has no such file);
    each bad line is a problem naming the file, the line and the label."""
    path = root / LABELS_FILE
    if not path.is_file():
        return {}
    shown = display_path(path)
    try:
        data, positions = load_yaml(read_text_capped(path), shown)
    except (NotText, RefusedFile, UnicodeDecodeError, OSError) as err:
        problems.append(Problem(f"cannot read: {err}", shown))
        return {}
    except InputError as err:  # not YAML: the parser's own problems
        problems.extend(err.problems)
        return {}
    if data is None:
        return {}
    if not isinstance(data, dict):
        problems.append(
            Problem("labels.yaml maps an English label to your words, one per line", shown, 1)
        )
        return {}
    known = messages()
    labels: dict[str, str] = {}
    for english, words in data.items():
        line = positions.get((english,))
        key = str(english)
        if key not in known:
            hint = closest(key, tuple(known)) or _other_case(key, known)
            problems.append(
                Problem(
                    "no label of ours reads exactly this"
                    + (f" (did you mean {hint!r}?)" if hint else ""),
                    shown,
                    line,
                    key,
                )
            )
            continue
        if not isinstance(words, str) or not words.strip() or len(words) > MAX_LABEL:
            problems.append(
                Problem(f"must be words (1 to {MAX_LABEL} characters)", shown, line, key)
            )
            continue
        wanted, given = set(PLACEHOLDER.findall(key)), set(PLACEHOLDER.findall(words))
        if wanted != given:
            needs = ", ".join(f"%({name})s" for name in sorted(wanted)) or "none"
            problems.append(
                Problem(f"must keep the label's placeholders ({needs})", shown, line, key)
            )
            continue
        labels[key] = words.strip()
    return labels


def _other_case(key: str, known: frozenset[str]) -> str | None:
    return next((message for message in known if message.lower() == key.lower()), None)
