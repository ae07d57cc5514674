"""`scratchpress schema`: the JSON Schemas an editor uses to check files as they are typed,
and the one `stats --json` output follows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Literal

import typer

from .. import api
from .common import write_output


def schema(
    kind: Annotated[
        Literal["definitions", "settings", "stats"],
        typer.Argument(
            help="definitions (a campaign's *.yaml files), settings (scratchpress.toml)"
            " or stats (the output of stats --json).",
            case_sensitive=False,
        ),
    ] = "definitions",
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write the schema here (default: print it)."),
    ] = None,
) -> None:
    """Print a JSON Schema for editors, so a typo is underlined as you type.

    Example: scratchpress schema -o .scratchpress/definitions.schema.json
    """
    text = json.dumps(api.json_schema(kind), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    write_output(output, text.encode("utf-8"))
    typer.echo(f"wrote {output}", err=True)
