"""`scratchpress server start|stop|status`: the warm server of server.py."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

server_app = typer.Typer(no_args_is_help=True, add_completion=False)


@server_app.command()
def start(
    idle: Annotated[
        float, typer.Option("--idle", help="Minutes without a command before it stops.", min=1)
    ] = 30,
) -> None:
    """Keep a scratchpress loaded in the background, so commands start at once."""
    from .server import running_pid, start_background

    if not sys.platform.startswith("linux"):
        typer.echo("the warm server needs Linux; commands run on their own here.", err=True)
        raise typer.Exit(1)
    pid = running_pid()
    if pid is not None:
        typer.echo(f"a server is already running (pid {pid}).")
        return
    pid = start_background(idle)
    if not pid:
        typer.echo("the server did not start; see the log in the cache folder.", err=True)
        raise typer.Exit(1)
    typer.echo(
        f"server running (pid {pid}): commands now start warm. It stops after {idle:g}"
        " idle minutes, or with `scratchpress server stop`."
    )


@server_app.command()
def stop() -> None:
    """Stop the background server (commands then start on their own again)."""
    from .server import stop_server

    stopped = stop_server()
    if not stopped:
        typer.echo("no server was running.")
        return
    typer.echo(f"stopped the server (pid {', '.join(str(p) for p in stopped)}).")


@server_app.command()
def status() -> None:
    """Say whether a server is running for this version of scratchpress."""
    from .server import running_pid

    pid = running_pid()
    if pid is None:
        typer.echo("no server is running; commands start on their own.")
        raise typer.Exit(1)
    typer.echo(f"server running (pid {pid}).")
