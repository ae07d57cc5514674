"""The ``scratchpress`` command's entry point, in order of cost: answer an up-to-date build
from its stamp (uptodate.py), else hand the command to a warm server if one runs
(server.py), else import the CLI and its libraries and run it here."""

from __future__ import annotations

import sys


def main() -> None:
    from . import uptodate

    arguments = sys.argv[1:]
    code = uptodate.replay(arguments)
    if code is None and sys.platform.startswith("linux"):
        from .server import run_on_server

        code = run_on_server(arguments)
    if code is not None:
        sys.exit(code)
    uptodate.ARGV = arguments
    from .cli import main as run_cli

    run_cli()
