"""``scratchpress roster``: random NPCs as ordinary definitions YAML, thin over npcs.py.

Mount with ``app.add_typer(roster_app, name="roster")`` in ``generator/cli.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..definitions.campaign import Campaign
from ..npcs import MAX_COUNT, RosterError, RosterSpec, archetype_summaries, seed_value
from ..problems import InputError, Problem
from .common import looks_like_campaign, write_output

roster_app = typer.Typer(
    name="roster",
    help="Rosters of NPCs: generate random ones that obey the CP budget and maximum level.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

SEED_RANGE = 1_000_000  # seeds picked for the user stay short enough to read out


def _stop(lines: Sequence[str], code: int = 2) -> NoReturn:
    for line in lines:
        typer.echo(line, err=True)
    raise typer.Exit(code)


@roster_app.command("generate")
def generate_command(
    count: Annotated[int, typer.Option("--count", "-n", help=f"How many NPCs (1 to {MAX_COUNT}).")],
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
    from ..content.loader import resilience_content
    from ..npcs import name_note, roster_yaml

    if output is not None and output.exists() and not force:
        _stop([f"{output} exists; it may hold a GM's edits. Use --force to replace it."])
    chosen_seed = seed if seed is not None else str(secrets.randbelow(SEED_RANGE))
    try:
        if campaign is None and looks_like_campaign(Path.cwd()):
            campaign = Path(".")  # the campaign you stand in, as every command reads it
        loaded = _load_campaign(campaign, output) if campaign is not None else None
        settings = loaded.settings if loaded is not None else None
        spec = RosterSpec(
            count=count,
            cp=cp if cp is not None else (settings.cp if settings else 10),
            max_level=max_level
            if max_level is not None
            else (settings.max_level if settings else 4),
            archetype=archetype,
            career=career,
            name_prefix=name_prefix,
            group=group,
            seed=seed_value(chosen_seed),
            avoid_names=_taken_names(loaded, output) if loaded is not None else (),
            campaign=str(campaign) if campaign is not None else None,
        )
        careers = resilience_content(loaded).careers if career is not None else []
        text, plan, npcs = roster_yaml(spec, careers)
    except RosterError as err:
        _stop([str(err)])
    except InputError as err:
        _stop([str(p) for p in err.problems], 1)
    if seed is None:
        typer.echo(
            f"seed {chosen_seed} (give --seed {chosen_seed} to make this roster again)", err=True
        )
    note = name_note(npcs)
    if note is not None:
        typer.echo(f"note: {note}", err=True)  # once, not once per repeated name
    if output is None:
        typer.echo(text, nl=False)
        return
    write_output(output, text.encode("utf-8"))
    leaders = sum(1 for n in npcs if n.minions)
    minions = sum(m.count for n in npcs for m in n.minions)
    extra = f", {leaders} with {minions} minions" if leaders else ""
    where = plan.group or f"{len(plan.bands)} bands (one initiative group each)"
    typer.echo(f"wrote {output}: {len(npcs)} NPCs in {where}{extra}", err=True)


def _same_file(shown: str, output: Path | None) -> bool:
    return output is not None and Path(shown).resolve() == output.resolve()


def _load_campaign(folder: Path, output: Path | None) -> Campaign:
    """The campaign the roster joins. A file about to be replaced is not part of it: its
    names are free again, so regenerating it with --force gives the same file."""
    from ..definitions.campaign import campaign_files, load_campaign

    if not folder.is_dir():
        raise RosterError(f"{folder}: not a campaign folder")
    _, files = campaign_files([folder])
    keep = [f for f in files if not _same_file(str(f), output)]
    if not keep:  # only the file being replaced: the campaign holds nothing else yet
        from ..definitions.campaign import Campaign, load_settings

        problems: list[Problem] = []
        settings = load_settings(folder, None, problems)
        if problems:
            raise InputError(problems)
        return Campaign(root=folder, settings=settings)
    return load_campaign(keep)


def _taken_names(campaign: Campaign, output: Path | None) -> tuple[str, ...]:
    return tuple(c.name for c in campaign.characters if not _same_file(c.source.file, output))


@roster_app.command("archetypes")
def archetypes_command() -> None:
    """List the archetypes --archetype accepts, and what each is good at.

    Example: scratchpress roster archetypes
    """
    rows = archetype_summaries()
    width = max(len(name) for name, _ in rows)
    for name, summary in rows:
        typer.echo(f"{name.ljust(width)}  {summary}")


__all__ = ["archetypes_command", "generate_command", "roster_app"]
