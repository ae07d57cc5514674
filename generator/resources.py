"""Where the bundled templates, fonts and example campaign live.

They sit at the top of the repository (the layout our users asked for). A wheel carries
them inside the package as ``generator/_bundled/``; a source checkout or editable install
finds them beside the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def _find(name: str) -> Path:
    for candidate in (_PACKAGE / "_bundled" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"scratchpress is missing its {name}/ folder; reinstall it")


def templates_dir() -> Path:
    return _find("templates")


def fonts_dir() -> Path:
    return _find("fonts")


def examples_dir() -> Path:
    return _find("examples")
