"""`scratchpress preview`: every printable in the browser, refreshed on every save, each
number a click away from its source line (the server is ``scratchpress.preview``)."""

from __future__ import annotations

import os
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .. import api
from ..problems import Problem, safe_text
from .common import CampaignArg, ExampleOpt, RulesOpt, fail, find, usage_error

if TYPE_CHECKING:
    from ..preview import Preview


def preview(
    campaign: CampaignArg = None,
    example: ExampleOpt = False,
    port: Annotated[
        int,
        typer.Option(help="Listen on this port (default: a free one).", min=0, max=65535),
    ] = 0,
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the address; do not open a browser.")
    ] = False,
    rules: RulesOpt = None,
) -> None:
    """Show every printable in your browser, refreshed whenever a campaign file is saved.

    Hover over a number to see how it was worked out; click it to see its line of YAML.
    The address printed first holds a secret token: only this machine, and only who has
    the address, can see the pages.

    Example: scratchpress preview my-campaign
    """
    from ..preview import Preview, Server  # the web server's libraries load for this alone

    found = find([campaign] if campaign is not None else None, example)
    if not found.root.is_dir():
        fail([Problem("not a campaign folder", str(found.root))])
    state = Preview(found, rules)
    try:
        server = Server(state, port)
    except OSError as err:
        usage_error(f"--port {port}: cannot listen there ({err.strerror or err})")
    server.start()
    typer.echo(server.url)
    if not no_browser:
        webbrowser.open(server.url)
    shown = api.display_path(found.root)
    where = "this folder" if shown == "." else safe_text(shown, None)
    try:
        _watch(found, state, where)
    except (KeyboardInterrupt, api.BuildInterrupted):
        pass  # Ctrl-C is how a preview ends: nothing to report
    finally:
        server.stop()


def _watch(found: api.Found, state: Preview, where: str) -> None:
    from watchfiles import watch

    output = os.path.realpath(found.output)

    def wanted(_: object, path: str) -> bool:
        # What builds write (the campaign's own output/, PDFs and page images anywhere)
        # must not start a preview build, or a build next door would restart ours.
        real = os.path.realpath(path)
        inside_output = real == output or real.startswith(output + os.sep)
        ours = any(part.startswith(".scratchpress") for part in Path(real).parts)
        return not inside_output and not ours and not real.endswith((".pdf", ".png"))

    folders = (found.root.resolve(), api.bundled_folders()[0])
    # The first build starts once the watcher runs (its first empty answer, after 0.1 s),
    # so a file saved while it builds is built again, not missed.
    first = True
    for changes in watch(
        *folders, watch_filter=wanted, step=20, rust_timeout=100, yield_on_timeout=True
    ):
        if changes or first:
            state.build()
        if first:
            first = False
            typer.echo(f"previewing {where}; rebuilding on every save (Ctrl-C to stop)", err=True)
