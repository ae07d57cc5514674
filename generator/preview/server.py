"""The preview's web server (aiohttp), in a thread of its own.

Every route sits under ``/TOKEN/``: a random token made at start, so another user of the
machine, or a web page in the browser guessing ports, reaches nothing (404, as for any
other path). It listens on 127.0.0.1 only. Pages come from memory; the source route shows
only the campaign's own files (:func:`scratchpress.api.source_files`), and the static
route only the files of ``static/`` read at start. No request names a path on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote

from aiohttp import web

from .page import static_files
from .state import Preview

SOURCE_CONTEXT = 6  # lines shown either side of a number's source line
KEEPALIVE_S = 15.0
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    # The token is in the URL: no page we link to (vscode://) may be told it.
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; frame-ancestors 'none'",
}


class Server:
    """Serves one :class:`Preview` on 127.0.0.1 until :meth:`stop`."""

    def __init__(self, preview: Preview, port: int = 0, token: str | None = None) -> None:
        self.preview = preview
        self.token = token or secrets.token_urlsafe(24)
        self.static = static_files()
        # Bound here, before the thread starts, so a taken port fails at once and the
        # address can be printed before the first build.
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            self.socket.bind(("127.0.0.1", port))
        except OSError:
            self.socket.close()
            raise
        self.port = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/{self.token}/"
        self.loop = asyncio.new_event_loop()
        self.listeners: set[asyncio.Queue[str | None]] = set()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, name="preview-server", daemon=True)
        self.runner: web.AppRunner | None = None
        self.painter = ThreadPoolExecutor(1, thread_name_prefix="preview-pages")

    # -------------------------------------------------------------- life

    def start(self) -> None:
        def changed() -> None:
            self.loop.call_soon_threadsafe(self._broadcast)

        self.preview.on_change = changed
        self.thread.start()
        self.ready.wait(10)

    def stop(self) -> None:
        if not self.thread.is_alive():
            return
        if self.runner is not None:
            done = asyncio.run_coroutine_threadsafe(self._close(), self.loop)
            # Stopping: a client slow to let go must not keep us.
            with contextlib.suppress(Exception):
                done.result(5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.painter.shutdown(wait=False, cancel_futures=True)

    async def _close(self) -> None:
        for queue in list(self.listeners):
            queue.put_nowait(None)
        if self.runner is not None:
            await self.runner.cleanup()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.runner = web.AppRunner(self.app(), access_log=None)
        self.loop.run_until_complete(self.runner.setup())
        self.loop.run_until_complete(web.SockSite(self.runner, self.socket).start())
        self.ready.set()
        self.loop.run_forever()

    def app(self) -> web.Application:
        routes = web.Application(middlewares=[self._headers])
        base = f"/{self.token}/"
        routes.router.add_get(base, self.index)
        routes.router.add_get(base + "static/{name}", self.asset)
        routes.router.add_get(base + "state", self.state)
        routes.router.add_get(base + "events", self.events)
        routes.router.add_post(base + "showing", self.showing)
        routes.router.add_get(base + "page/{doc}/{page:[0-9]+}.png", self.page)
        routes.router.add_get(base + "anchors/{doc}", self.anchors)
        routes.router.add_get(base + "find", self.find)
        routes.router.add_get(base + "source", self.source)
        return routes

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        # A page of another site that makes the browser ask for "localhost" (a DNS
        # rebinding) names its own host: refused before any route.
        if request.host not in {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}:
            raise web.HTTPNotFound()
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    # -------------------------------------------------------------- change notices

    def _broadcast(self) -> None:
        data = json.dumps(self.preview.snapshot())
        for queue in self.listeners:
            queue.put_nowait(data)

    # -------------------------------------------------------------- routes

    async def index(self, request: web.Request) -> web.Response:
        return self._static("index.html")

    async def asset(self, request: web.Request) -> web.Response:
        return self._static(request.match_info["name"])

    def _static(self, name: str) -> web.Response:
        if name not in self.static:
            raise web.HTTPNotFound()
        body, kind = self.static[name]
        return web.Response(body=body, content_type=kind, charset="utf-8")

    async def state(self, request: web.Request) -> web.Response:
        return web.json_response(self.preview.snapshot())

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: the whole state (a few lines per document) on every
        change; the page reloads the images whose version moved."""
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.listeners.add(queue)
        try:
            await response.write(f"data: {json.dumps(self.preview.snapshot())}\n\n".encode())
            while True:
                try:
                    data = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if data is None:
                    break
                await response.write(f"data: {data}\n\n".encode())
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.listeners.discard(queue)
        return response

    async def showing(self, request: web.Request) -> web.Response:
        name = request.query.get("doc", "")
        self.preview.show(name)
        return web.Response(status=204)

    async def page(self, request: web.Request) -> web.Response:
        # Made on demand, one at a time, out of the way of the event loop.
        image = await self.loop.run_in_executor(
            self.painter,
            self.preview.image,
            request.match_info["doc"],
            int(request.match_info["page"]),
        )
        if image is None:
            raise web.HTTPNotFound()
        return web.Response(body=image, content_type="image/png")

    async def anchors(self, request: web.Request) -> web.Response:
        found = self.preview.anchors(request.match_info["doc"])
        if found is None:
            raise web.HTTPNotFound()
        return web.json_response(found)

    async def find(self, request: web.Request) -> web.Response:
        where = self.preview.holding(request.query.get("file", ""), request.query.get("line", ""))
        return web.json_response(where)

    async def source(self, request: web.Request) -> web.Response:
        """The lines around ``line`` of ``file``, a file of the campaign's own (as its
        problems name it); any other name is refused, whatever it points at."""
        name = request.query.get("file", "")
        path = self.preview.source(name)
        if path is None:
            raise web.HTTPNotFound(text=f"{name!r} is not a file of this campaign")
        try:
            line = max(1, int(request.query.get("line", "1")))
        except ValueError:
            raise web.HTTPBadRequest(text="line: a number is needed") from None
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as err:
            raise web.HTTPNotFound(text=f"{name}: {err.strerror}") from None
        lines = text.splitlines()
        first = max(1, line - SOURCE_CONTEXT)
        last = min(len(lines), line + SOURCE_CONTEXT)
        return web.json_response(
            {
                "file": name,
                "line": line,
                "path": str(path),
                "editor": f"vscode://file/{quote(path.as_posix().lstrip('/'), safe='/:')}:{line}",
                "lines": [{"n": n, "text": lines[n - 1]} for n in range(first, last + 1)],
            }
        )
