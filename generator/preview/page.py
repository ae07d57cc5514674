"""The page the browser shows: plain HTML, CSS and JavaScript in ``static/`` (no build
step), read once at start and served from memory, so nothing a request says can reach
another file."""

from __future__ import annotations

from importlib import resources

TYPES = {"html": "text/html", "js": "text/javascript", "css": "text/css"}


def static_files() -> dict[str, tuple[bytes, str]]:
    """Each file of ``static/`` by name: its bytes and its content type."""
    folder = resources.files(__package__).joinpath("static")
    return {
        item.name: (item.read_bytes(), TYPES[item.name.rpartition(".")[2]])
        for item in folder.iterdir()
        if item.name.rpartition(".")[2] in TYPES
    }
