"""The ``scratchpress`` command.

:func:`main` is the console script. It first asks :mod:`.stamp` whether this exact build
already ran with nothing changed since (answered with the standard library alone, before
anything heavy is imported); only otherwise does it import the typer app in :mod:`.app`.
Keep this module free of imports: everything it pulls in is paid by every command.
"""

from __future__ import annotations

import sys


def main() -> None:
    from . import stamp

    arguments = sys.argv[1:]
    code = stamp.replay(arguments)
    if code is not None:
        sys.exit(code)
    stamp.ARGV = arguments
    from .app import run

    run()
