"""`scratchpress calibrate`: the duplex test sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import api
from .common import CampaignArg, choice, fail, stop


def calibrate(
    campaign: CampaignArg = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Where to write the test sheet: a folder, or a file name ending in .pdf"
            " (default: the campaign's output/duplex-calibration.pdf).",
            show_default=False,
        ),
    ] = None,
    paper: Annotated[
        api.Paper | None, choice("paper", "Paper size (default: the campaign's).")
    ] = None,
    duplex_edge: Annotated[
        api.DuplexEdge | None,
        choice(
            "duplex_edge",
            "Which edge your printer flips (default: the campaign's [build] duplex_edge,"
            " else long).",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a file there that we did not write.")
    ] = False,
) -> None:
    """Print a duplex test sheet; its back shows how far your printer shifts back pages.

    Example: scratchpress calibrate my-campaign --paper a4 --duplex-edge short
    """
    given = {"paper": paper, "duplex_edge": duplex_edge}
    try:
        report = api.calibrate(campaign, output, given, force=force)
    except api.InputError as err:
        fail(err.problems)
    except api.CannotWrite as err:
        stop([str(err)])
    for warning in report.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if report.problems or not report.written:
        fail(report.problems)
    edge = (report.options or api.BuildOptions()).duplex_edge
    typer.echo(
        f"wrote {report.written[0].path}: print it on both sides ({edge}-edge flip), hold it"
        " to the light and read the offset off the back; then set duplex_offset_mm = [dx, dy]"
        " in scratchpress.toml"
    )
