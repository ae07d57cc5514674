"""`scratchpress preview`: every printable as page images in the browser, beside its
source, rebuilt and refreshed on every save.

Two threads: the main one watches the campaign and builds (as ``build --watch`` does, with
one warm ``BuildSession``; Ctrl-C reaches it there), and a server thread answers the
browser (aiohttp). They share one :class:`~.state.Preview`. The server listens on the
loopback address only, under a random token, and serves pages from memory, the campaign's
own files as source, and its own static assets: nothing else, whatever the request says.
"""

from __future__ import annotations

from .server import Server
from .state import Preview

__all__ = ["Preview", "Server"]
