"""`scratchpress calibrate`: the duplex test sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..problems import Problem
from .common import fail


def calibrate(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign whose duplex_offset_mm to apply (optional).", show_default=False
        ),
    ] = None,
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the test sheet.")
    ] = Path("output/duplex-calibration.pdf"),
    paper: Annotated[str | None, typer.Option("--paper", help="letter or a4.")] = None,
    duplex_edge: Annotated[
        str, typer.Option("--duplex-edge", help="Which edge your printer flips: long or short.")
    ] = "long",
) -> None:
    """Print a duplex test sheet; its back shows how far your printer shifts back pages."""
    from ..definitions.campaign import load_settings
    from ..documents.calibrate import CalibrationOptions, write_calibration

    problems: list[Problem] = []
    settings = load_settings(campaign, None, problems) if campaign is not None else None
    if paper is not None and paper not in ("letter", "a4"):
        problems.append(Problem(f"--paper: {paper!r} is not one of letter, a4"))
    if duplex_edge not in ("long", "short"):
        problems.append(Problem(f"--duplex-edge: {duplex_edge!r} is not one of long, short"))
    if problems:
        fail(problems)
    chosen = paper or (settings.paper if settings else "letter")
    offset = settings.duplex_offset_mm if settings else (0.0, 0.0)
    warnings = write_calibration(
        output,
        CalibrationOptions(
            paper=chosen,  # type: ignore[arg-type]
            duplex_edge=duplex_edge,  # type: ignore[arg-type]
            duplex_offset_mm=offset,
        ),
    )
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo(
        f"wrote {output}: print it on both sides ({duplex_edge}-edge flip), hold it to the"
        " light and read the offset off the back; then set duplex_offset_mm = [dx, dy]"
        " in scratchpress.toml"
    )
