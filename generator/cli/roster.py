"""``scratchpress roster``: random NPCs as ordinary definitions YAML, thin over
:func:`scratchpress.api.generate_roster`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .. import api
from .common import stop, write_output

roster_app = typer.Typer(
    name="roster",
    help="Rosters of NPCs: generate random ones that obey the CP budget and maximum level.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@roster_app.command("generate")
def generate_command(
    count: Annotated[
        int, typer.Option("--count", "-n", help=f"How many NPCs (1 to {api.MAX_ROSTER}).")
    ],
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="Write the YAML here (default: print it)."),
    ] = None,
    cp: Annotated[
        int | None,
        typer.Option(
            "--cp",
            help="Character points each NPC spends (default: the campaign's, else 10).",
            show_default=False,
        ),
    ] = None,
    max_level: Annotated[
        int | None,
        typer.Option(
            "--max-level",
            help="No ability above this level (default: the campaign's, else 4).",
            show_default=False,
        ),
    ] = None,
    career: Annotated[
        str | None,
        typer.Option("--career", help="A Resilience career: its required abilities, by name."),
    ] = None,
    archetype: Annotated[
        str | None,
        typer.Option(
            "--archetype",
            help="bruiser, sniper, medic, leader, pilot ... (`roster archetypes` lists them);"
            " default: a mix.",
        ),
    ] = None,
    name_prefix: Annotated[
        str, typer.Option("--name-prefix", help="Put before every name, e.g. 'Sgt.'.")
    ] = "",
    group: Annotated[
        str | None,
        typer.Option(
            "--group",
            help="One initiative group for all (default: made-up bands of 6 to 12 NPCs).",
        ),
    ] = None,
    seed: Annotated[
        str | None,
        typer.Option("--seed", help="A number or any text; the same seed gives the same file."),
    ] = None,
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="A campaign folder the NPCs join: its names are not reused, its careers"
            " count, and its cp / max_level are the defaults.",
            show_default=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace the output file if it exists.")
    ] = False,
) -> None:
    """Random NPCs that spend exactly --cp with no ability above --max-level.

    They are written under `npcs:`, so a build prints them on the roster and the initiative
    cards but makes no character sheets (give one `sheet: true` for its own).

    Example: scratchpress roster generate my-campaign -n 12 -o my-campaign/thugs.yaml
    """
    if output is not None and output.exists() and not force:
        stop([f"{output} exists; it may hold a GM's edits. Use --force to replace it."], 2)
    try:
        roster = api.generate_roster(
            count,
            campaign=campaign,
            output=output,
            cp=cp,
            max_level=max_level,
            career=career,
            archetype=archetype,
            name_prefix=name_prefix,
            group=group,
            seed=seed,
        )
    except api.UsageError as err:
        stop([str(err)], 2)
    except api.InputError as err:
        stop([str(p) for p in err.problems])
    if not roster.seed_given:
        typer.echo(
            f"seed {roster.seed} (give --seed {roster.seed} to make this roster again)", err=True
        )
    if roster.note is not None:
        typer.echo(f"note: {roster.note}", err=True)  # once, not once per repeated name
    if output is None:
        typer.echo(roster.text, nl=False)
        return
    write_output(output, roster.text.encode("utf-8"))
    npcs = roster.npcs
    leaders = sum(1 for n in npcs if n.minions)
    minions = sum(m.count for n in npcs for m in n.minions)
    extra = f", {leaders} with {minions} minions" if leaders else ""
    where = roster.plan.group or f"{len(roster.plan.bands)} bands (one initiative group each)"
    typer.echo(f"wrote {output}: {len(npcs)} NPCs in {where}{extra}", err=True)
    unread = api.output_note(output, campaign)
    if unread is not None:
        typer.echo(f"note: {unread}", err=True)


@roster_app.command("archetypes")
def archetypes_command() -> None:
    """List the archetypes --archetype accepts, and what each is good at.

    Example: scratchpress roster archetypes
    """
    rows = api.archetypes()
    width = max(len(name) for name, _ in rows)
    for name, summary in rows:
        typer.echo(f"{name.ljust(width)}  {summary}")


__all__ = ["archetypes_command", "generate_command", "roster_app"]
