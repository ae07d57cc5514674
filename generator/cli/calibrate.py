"""`scratchpress calibrate`: the duplex test sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..problems import Problem
from ..render.files import CannotWrite
from .common import (
    DEFAULT_OUTPUT,
    CampaignArg,
    Edge,
    Paper,
    fail,
    linked_default_output,
    looks_like_campaign,
)


def calibrate(
    campaign: CampaignArg = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Where to write the test sheet (a file, or a folder to put it in).",
            show_default="output/duplex-calibration.pdf",
        ),
    ] = None,
    paper: Annotated[
        Paper | None,
        typer.Option(help="Paper size (default: the campaign's).", case_sensitive=False),
    ] = None,
    duplex_edge: Annotated[
        Edge | None,
        typer.Option(
            help="Which edge your printer flips (default: the campaign's [build] duplex_edge,"
            " else long).",
            case_sensitive=False,
        ),
    ] = None,
) -> None:
    """Print a duplex test sheet; its back shows how far your printer shifts back pages.

    Example: scratchpress calibrate my-campaign --paper a4 --duplex-edge short
    """
    from ..definitions.campaign import load_settings
    from ..documents.calibrate import CalibrationOptions, write_calibration

    problems: list[Problem] = []
    if campaign is None and looks_like_campaign(Path.cwd()):
        campaign = Path(".")  # this folder's duplex_offset_mm, as build would use it
    settings = load_settings(campaign, None, problems) if campaign is not None else None
    if problems:
        fail(problems)
    chosen = paper.value if paper else (settings.paper if settings else "letter")
    offset = settings.duplex_offset_mm if settings else (0.0, 0.0)
    if output is None:
        if linked := linked_default_output():
            fail(linked)
        output = DEFAULT_OUTPUT / "duplex-calibration.pdf"
    elif output.is_dir():
        output = output / "duplex-calibration.pdf"  # `-o DIR`: the usual name inside it
    edge = (
        duplex_edge.value if duplex_edge else (settings.build.duplex_edge if settings else "long")
    )
    try:
        warnings = write_calibration(
            output,
            CalibrationOptions(
                paper=chosen,
                duplex_edge=edge,
                duplex_offset_mm=offset,
            ),
        )
    except CannotWrite as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from None
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo(
        f"wrote {output}: print it on both sides ({edge}-edge flip), hold it to the"
        " light and read the offset off the back; then set duplex_offset_mm = [dx, dy]"
        " in scratchpress.toml"
    )
