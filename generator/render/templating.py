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


THEME_DIR = "theme"


def theme_dirs(campaign_root: Path | None) -> tuple[Path, ...]:
    """A campaign may override any template or stylesheet by putting a file of the same
    name under ``theme/`` (e.g. ``theme/sheet/sheet.css``). Those files come from whoever
    shared the campaign, which is why every template runs in the sandbox."""
    if campaign_root is None:
        return ()
    theme = campaign_root / THEME_DIR
    return (theme.resolve(),) if theme.is_dir() else ()


def render_html(template: str, context: dict[str, Any], themes: tuple[Path, ...] = ()) -> str:
    return environment(themes).get_template(template).render(**context)
