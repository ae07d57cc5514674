"""`scratchpress new FOLDER`: a starter campaign to edit, or a copy of the example.

The starter is a handful of small files that pass `check --strict` and build: one of
everything a campaign can hold, each file saying in comments what its keys mean. Editors
that speak the YAML language server validate as you type through the schema files written
beside them (``.scratchpress/``, see docs/definitions.md).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from .. import api
from ..problems import safe_text
from .common import plural, stop


def new(
    folder: Annotated[Path, typer.Argument(help="Folder to create (must be new or empty).")],
    from_example: Annotated[
        bool,
        typer.Option("--from-example", help="Copy the full example campaign, Lantern Weir."),
    ] = False,
    language: Annotated[
        api.Language | None,
        typer.Option(
            help="The language of its printed labels (default: en). Paper and units follow"
            " it unless given: letter and both in English, A4 and metric in the others.",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
    paper: Annotated[
        api.Paper | None,
        typer.Option(
            help="Paper size for its printables.", case_sensitive=False, show_default=False
        ),
    ] = None,
    units: Annotated[
        api.Units | None,
        typer.Option(
            help="Weights on its carry table: metric, imperial or both.",
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """Start a campaign in a new folder, ready to edit.

    The starter holds a settings file, a character, an adversary with minions, a vehicle
    with crew, a community and a booklet chapter, each explained in its comments.

    Example: scratchpress new my-campaign --language de && cd my-campaign && scratchpress build
    """
    try:
        files = api.new_campaign(
            folder, from_example, language=language, paper=paper, units=units
        )
    except api.CannotWrite as err:
        stop([str(err)])
    shown = safe_text(str(folder), None)
    what = "a copy of the example campaign" if from_example else "a starter campaign"
    typer.echo(f"wrote {what} in {shown}{os.sep} ({plural(len(files), 'file')})")
    typer.echo("next:", err=True)
    typer.echo(f"  cd {shown}", err=True)
    typer.echo("  scratchpress check      # edit the .yaml files, then check them", err=True)
    typer.echo("  scratchpress build      # PDFs into output/", err=True)
