"""``scratchpress theme``: start a campaign theme from copies of the default templates,
thin over render/theme.py. Themes are described in docs/themes.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import api

theme_app = typer.Typer(
    name="theme",
    help="Themes: a campaign's own templates and stylesheets, in its theme/ folder.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@theme_app.command("init")
def init_command(
    campaign: Annotated[
        Path,
        typer.Argument(
            help="The campaign folder (default: the current folder).",
            show_default=False,
            metavar="CAMPAIGN",
        ),
    ] = Path("."),
    force: Annotated[
        bool, typer.Option("--force", help="Replace files already in theme/ with the defaults.")
    ] = False,
) -> None:
    """Copy the default templates and stylesheets into CAMPAIGN/theme/, to edit.

    If any of them is already there, nothing is written, unless --force is given.

    Links in theme/ are never followed, with or without --force.

    Example: scratchpress theme init my-campaign
    """
    if not campaign.is_dir():
        typer.echo(f"{api.display_path(campaign)}: no such folder", err=True)
        raise typer.Exit(1)
    try:
        result = api.init_theme(campaign, force)
    except api.CannotWrite as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from None
    if result.refused:
        for line in result.refused:
            typer.echo(line, err=True)
        typer.echo("nothing written", err=True)
        raise typer.Exit(1)
    theme = api.display_path(campaign / "theme")
    typer.echo(f"wrote {len(result.written)} files in {theme}/")
    typer.echo(
        f"Edit them and run `scratchpress build {api.display_path(campaign)}` to see the result."
        " Delete the files you do not change, so they keep following scratchpress's own"
        " (docs/themes.md)."
    )
