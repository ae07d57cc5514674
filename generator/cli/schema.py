"""`scratchpress schema`: the JSON Schemas an editor uses to check files as they are typed."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer


class SchemaKind(StrEnum):
    """Which file the schema describes (an Enum, so `--help` lists the choices)."""

    definitions = "definitions"
    settings = "settings"


def schema(
    kind: Annotated[
        SchemaKind,
        typer.Argument(
            help="definitions (a campaign's *.yaml files) or settings (scratchpress.toml).",
            case_sensitive=False,
        ),
    ] = SchemaKind.definitions,
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write the schema here (default: print it)."),
    ] = None,
) -> None:
    """Print a JSON Schema for editors, so a typo is underlined as you type.

    Example: scratchpress schema -o .scratchpress/definitions.schema.json
    """
    from ..definitions.schema import SCHEMAS
    from .common import write_output

    text = json.dumps(SCHEMAS[kind.value](), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        typer.echo(text, nl=False)
        return
    write_output(output, text.encode("utf-8"))
    typer.echo(f"wrote {output}", err=True)
