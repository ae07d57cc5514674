"""The only way a document may load a file: from the folders we allow, and nothing else.

Campaign folders come from strangers. A note, a portrait path or a user stylesheet must not
be able to read ``/etc/passwd``, follow a symlink out of the campaign, open a FIFO or a
device, or make a network request. Every body served passes the picture gate
(``render/images.py``) first, since WeasyPrint may show any of them as an image. Every
refusal is recorded so the build can report it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from ..definitions.files import display_path
from .confine import MAX_RESOURCE_BYTES, RefusedResource, check_local_file
from .images import ImageProblem, check_image_bytes
from .svg import NestedPictures

MIME_TYPES = {
    ".css": "text/css",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
}


class ConfinedFetcher(URLFetcher):  # type: ignore[misc]
    """A WeasyPrint URL fetcher that serves local files under ``roots`` and data: URLs."""

    def __init__(self, roots: list[Path]) -> None:
        super().__init__(allowed_protocols={"file", "data"}, allow_redirects=False)
        self.roots = [Path(os.path.realpath(r)) for r in roots]
        self.refused: list[str] = []
        self._nested = NestedPictures(self._body)  # SVGs shown in SVGs, counted once

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        try:
            body, served, served_headers, shown = self._load(url, headers)
            try:
                check_image_bytes(body, shown, self._nested.costs(url))
            except ImageProblem as err:
                raise RefusedResource(str(err)) from None
        except RefusedResource as err:
            self.refused.append(str(err))
            raise
        return URLFetcherResponse(served, body, served_headers)

    def _load(self, url: str, headers: object = None) -> tuple[bytes, str, Any, str]:
        """(body, URL served as, headers, name for messages) of a URL we may serve.
        Raises RefusedResource."""
        parts = urlsplit(url)
        if parts.scheme == "data":
            if len(url) > MAX_RESOURCE_BYTES:
                raise RefusedResource("data: URL too large")
            response = super().fetch(url, headers)
            declared = url[5 : url.find(",")][:40] if "," in url else ""
            shown = f"a data: URL ({declared or 'no type'})"  # never its data
            return response.read(), response.url, response.headers, shown
        if parts.scheme != "file" or parts.netloc not in {"", "localhost"}:
            raise RefusedResource(f"{url}: only files from the campaign may be used")
        real = check_local_file(Path(unquote(parts.path)), self.roots)
        mime = MIME_TYPES.get(real.suffix.lower())
        if mime is None:
            raise RefusedResource(f"{real.name}: not a stylesheet, image or font")
        return real.read_bytes(), real.as_uri(), {"Content-Type": mime}, display_path(real)

    def _body(self, url: str) -> tuple[bytes, str]:
        body, _, _, shown = self._load(url)
        return body, shown


__all__ = ["MIME_TYPES", "ConfinedFetcher"]
