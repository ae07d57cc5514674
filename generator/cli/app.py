"""The ``scratchpress`` typer app: the root command and where each command group is mounted.

Every command lives in a module of its own (``definitions``, ``build``, ``calibrate``,
``roster``, ``resilience``); each is thin: it parses options, calls one library function
and maps problems to exit codes (1 for bad input, 2 for bad usage).
"""

from __future__ import annotations

import signal
import sys
from typing import Annotated

import typer

from .. import __version__
from . import build, calibrate, definitions, new, preview, schema
from .export import export_app
from .resilience import resilience_app
from .roster import roster_app
from .theme import theme_app

app = typer.Typer(
    name="scratchpress",
    help="Stat blocks and print-ready PDFs for the Scratch Role-Playing System and Resilience.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # `scratchpress --install-completion` teaches bash, zsh, fish or PowerShell our
    # commands, options and choices.
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"scratchpress {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_show_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    """Stat blocks and print-ready PDFs for the Scratch Role-Playing System and Resilience."""


app.command()(new.new)
app.command()(definitions.stats)
app.command()(definitions.check)
app.command("import")(definitions.import_)
app.command()(build.build)
app.command()(preview.preview)
app.command()(calibrate.calibrate)
app.command()(schema.schema)
app.add_typer(roster_app, name="roster", help="NPC rosters: generate random NPCs.")
app.add_typer(resilience_app, name="resilience", help="Resilience: projects and yearly events.")
app.add_typer(theme_app, name="theme", help="Themes: start one with `theme init`.")
app.add_typer(export_app, name="export", help="Virtual tabletops: Foundry, Improved Initiative.")


def _interrupted(signum: int, frame: object) -> None:
    # Ctrl-C, and `kill`, a closing session manager or a CI timeout (SIGTERM), a closed
    # terminal (SIGHUP) and Ctrl-\ (SIGQUIT) alike: stop, keeping what is finished,
    # recorded in the manifest, and leaving no temporary files.
    from .. import api

    if not api.stop_rendering():  # else the file being written is finished first
        raise KeyboardInterrupt


def run() -> None:
    from .. import api
    from ..api import CannotRead, CannotWrite

    for signum in api.STOP_SIGNALS:
        signal.signal(signum, _interrupted)
    try:
        app()
    except BrokenPipeError:
        # Broken pipes (`scratchpress stats | head`) are not errors worth a traceback.
        sys.stderr.close()
    except (CannotWrite, CannotRead) as err:
        # Every command reports its own; this is the net under all of them.
        sys.stderr.write(f"{err}\n")
        sys.exit(1)
    except KeyboardInterrupt:
        # Ctrl-C outside a build's render (which says how far it got): one line, no trace.
        sys.stderr.write("interrupted\n")
        sys.exit(130)
