"""``scratchpress export``: the campaign's computed stat blocks for virtual tabletops,
thin over :func:`scratchpress.api.export_foundry`, ``export_encounters`` and
``export_tokens``. Each writes a folder of files (docs/vtt.md says how to import them)
and, like every command that writes a file a GM may have edited, replaces nothing
without ``--force``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from .. import api
from .common import ExampleOpt, PathsArg, RulesOpt, echo, fail, open_campaign, plural, stop

export_app = typer.Typer(
    name="export",
    help="Files for virtual tabletops: Foundry VTT actors, Improved Initiative encounters,"
    " round tokens.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

OutputOpt = Annotated[
    Path,
    typer.Option(
        "-o", "--output", help="The folder to write into (made if missing).", show_default=False
    ),
]
ForceOpt = Annotated[
    bool, typer.Option("--force", help="Replace files an earlier export wrote there.")
]
Export = Callable[[api.Opened, Path, bool], api.Exported]


def _export(
    run: Export,
    paths: list[Path] | None,
    example: bool,
    rules: str | None,
    output: Path,
    force: bool,
) -> api.Exported:
    """Open the campaign, export, say each warning; a problem is one line and an exit code."""
    opened = open_campaign(paths, example, rules)
    try:
        exported = run(opened, output, force)
    except api.UsageError as err:
        stop([str(err)], 2)
    except api.InputError as err:
        fail(err.problems)
    except api.CannotWrite as err:
        stop([str(err)])
    for problem in exported.problems:
        echo(str(problem), err=True)
    return exported


def _tokens(files: list[str]) -> str:
    """``15 tokens (256 and 512 px)``: one per actor, each in two sizes."""
    sizes = {f.rsplit("-", 1)[-1].removesuffix(".png") for f in files if f.startswith("tokens/")}
    names = {f.rsplit("-", 1)[0] for f in files if f.startswith("tokens/")}
    shown = " and ".join(sorted(sizes, key=lambda s: int(s) if s.isdigit() else 0))
    return plural(len(names), "token") + (f" ({shown} px)" if shown else "")


def _count(files: list[str], folder: str) -> int:
    return sum(1 for name in files if name.startswith(f"{folder}/"))


@export_app.command("foundry")
def foundry_command(
    output: OutputOpt,
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    force: ForceOpt = False,
) -> None:
    """Foundry VTT actors (Simple Worldbuilding system) and a module holding them.

    One actor per character, minion group and vehicle, with its computed defenses, hit
    points as the token's bar, initiative, abilities and an item per action; their tokens;
    and module.json with a compendium that Foundry's `fvtt package pack` builds from
    packs/actors/_source/. Made for Foundry 12 and Simple Worldbuilding 0.8.2.

    Example: scratchpress export foundry my-campaign -o foundry-module
    """
    exported = _export(api.export_foundry, paths, example, rules, output, force)
    files = exported.files
    echo(
        f"wrote {output}: {plural(_count(files, 'actors'), 'actor')},"
        f" {_tokens(files)}, module.json and the compendium's"
        " sources (packs/actors/_source/)",
        err=True,
    )
    echo(
        f"next: copy it to Foundry's Data/modules/{exported.module}/ and import"
        ' (docs/vtt.md, "Foundry VTT")',
        err=True,
    )


def encounter_command(
    output: OutputOpt,
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    force: ForceOpt = False,
) -> None:
    """Improved Initiative files: the party, the campaign's other sides, each encounter.

    Combatants with hit points, defense (as AC), initiative bonus, abilities and actions;
    one file for the party, one per other initiative group of the campaign, one per
    Resilience encounter, and all.json with everything. Import each with Improved
    Initiative's "Import characters, statblocks, encounters and spells from a JSON file".

    Example: scratchpress export encounter my-campaign -o improved-initiative
    """
    exported = _export(api.export_encounters, paths, example, rules, output, force)
    files = exported.files
    parts = ["party.json"] if "party.json" in files else []
    parts += [
        plural(_count(files, "groups"), "group"),
        plural(_count(files, "encounters"), "encounter"),
    ]
    if "all.json" in files:
        parts.append("all.json (everything, for one import)")
    echo(f"wrote {output}: {', '.join(parts)}", err=True)
    echo(
        "next: in Improved Initiative, Settings > Account > Import characters, statblocks,"
        ' encounters and spells from a JSON file (docs/vtt.md, "Improved Initiative")',
        err=True,
    )


export_app.command("encounter")(encounter_command)


@export_app.command("tokens")
def tokens_command(
    output: OutputOpt,
    paths: PathsArg = None,
    example: ExampleOpt = False,
    rules: RulesOpt = None,
    force: ForceOpt = False,
) -> None:
    """Round token pictures (PNG, 256 and 512 pixels) for any virtual tabletop.

    One per character, minion group and vehicle, in OUTPUT/tokens/: the portrait in a ring
    of its side's colour, else its initials.

    Example: scratchpress export tokens my-campaign -o tokens-for-the-table
    """
    exported = _export(api.export_tokens, paths, example, rules, output, force)
    echo(f"wrote {output}: {_tokens(exported.files)}", err=True)


__all__ = ["encounter_command", "export_app", "foundry_command", "tokens_command"]
