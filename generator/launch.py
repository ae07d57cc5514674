"""The ``scratchpress`` command's entry point: answer an up-to-date build at once, before
importing the CLI and its libraries (see uptodate.py); otherwise run the CLI."""

from __future__ import annotations

import sys


def main() -> None:
    from . import uptodate

    arguments = sys.argv[1:]
    code = uptodate.replay(arguments)
    if code is not None:
        sys.exit(code)
    uptodate.ARGV = arguments
    from .cli import main as run_cli

    run_cli()
