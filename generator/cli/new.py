"""`scratchpress new FOLDER`: a starter campaign to edit, or a copy of the example.

The starter is a handful of small files (``content/starter/``) that pass `check --strict`
and build: one of everything a campaign can hold, each file saying in comments what its
keys mean. Editors that speak the YAML language server validate as you type through the
schema files written beside them (``.scratchpress/``, see docs/definitions.md).
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

from ..definitions.campaign import display_path
from ..problems import safe_text
from ..render.files import CannotWrite, write_file
from .common import plural

SCHEMA_DIR = ".scratchpress"  # beside the definitions, so the modelines need no path


def _walk(folder: resources.abc.Traversable, prefix: str = "") -> dict[str, str]:
    files: dict[str, str] = {}
    for item in sorted(folder.iterdir(), key=lambda i: i.name):
        if item.name.startswith(("_", ".")) or item.name.endswith(".py"):
            continue
        name = f"{prefix}{item.name}"
        if item.is_dir():
            files.update(_walk(item, f"{name}/"))
        else:
            files[name] = item.read_text(encoding="utf-8")
    return files


def starter_files() -> dict[str, str]:
    """The starter campaign, as relative path -> text."""
    return _walk(resources.files("scratchpress.content") / "starter")


def example_files() -> dict[str, bytes]:
    """The bundled example campaign, as relative path -> bytes (it holds pictures)."""
    from ..resources import examples_dir

    root = examples_dir()
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py"
    }


def schema_files() -> dict[str, str]:
    """The editor schemas the starter's modelines point to."""
    from ..definitions.schema import definitions_schema, settings_schema

    return {
        f"{SCHEMA_DIR}/definitions.schema.json": json.dumps(definitions_schema(), indent=2),
        f"{SCHEMA_DIR}/settings.schema.json": json.dumps(settings_schema(), indent=2),
    }


def new(
    folder: Annotated[Path, typer.Argument(help="Folder to create (must be new or empty).")],
    from_example: Annotated[
        bool,
        typer.Option("--from-example", help="Copy the full example campaign, Lantern Weir."),
    ] = False,
) -> None:
    """Start a campaign in a new folder, ready to edit.

    The starter holds a settings file, a character, an adversary with minions, a vehicle
    with crew, a community and a booklet chapter, each explained in its comments.

    Example: scratchpress new my-campaign && cd my-campaign && scratchpress build
    """
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        typer.echo(
            f"cannot create {safe_text(str(folder), None)}: a file or link is in the way", err=True
        )
        raise typer.Exit(1)
    if folder.is_dir() and any(folder.iterdir()):
        typer.echo(f"{folder} is not empty; give a new folder name (nothing was written)", err=True)
        raise typer.Exit(1)
    texts = {name: text.encode("utf-8") for name, text in starter_files().items()}
    files = example_files() if from_example else texts
    files.update({name: text.encode("utf-8") for name, text in schema_files().items()})
    try:
        for name, data in files.items():
            write_file(folder / name, data, folder, shown=display_path(folder / name))
    except CannotWrite as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from None
    what = "a copy of the example campaign" if from_example else "a starter campaign"
    typer.echo(
        f"wrote {what} in {safe_text(str(folder), None)}{os.sep} ({plural(len(files), 'file')})"
    )
    typer.echo("next:", err=True)
    typer.echo(f"  cd {safe_text(str(folder), None)}", err=True)
    typer.echo("  scratchpress check      # edit the .yaml files, then check them", err=True)
    typer.echo("  scratchpress build      # PDFs into output/", err=True)
