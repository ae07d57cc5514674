"""The Jinja2 environment: sandboxed, autoescaped, strict about missing values.

Templates only present. Every number they print is computed in ``documents/`` first, so
the sandbox never needs more than attribute access and loops.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..resources import fonts_dir, templates_dir


@cache
def environment(extra: tuple[Path, ...] = ()) -> ImmutableSandboxedEnvironment:
    """One environment per set of template folders; a campaign's own folder comes first."""
    env = ImmutableSandboxedEnvironment(
        loader=FileSystemLoader([*map(str, extra), str(templates_dir())]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["fonts_url"] = fonts_dir().as_uri()
    return env


def render_html(template: str, context: dict[str, Any]) -> str:
    return environment().get_template(template).render(**context)
