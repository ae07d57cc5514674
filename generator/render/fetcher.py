"""The only way a document may load a file: from the folders we allow, and nothing else.

Campaign folders come from strangers. A note, a portrait path or a user stylesheet must not
be able to read ``/etc/passwd``, follow a symlink out of the campaign, open a FIFO or a
device, or make a network request. Every refusal is recorded so the build can report it.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from .confine import MAX_RESOURCE_BYTES, RefusedResource, check_local_file, is_inside

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

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        try:
            if parts.scheme == "data":
                if len(url) > MAX_RESOURCE_BYTES:
                    raise RefusedResource("data: URL too large")
                return super().fetch(url, headers)
            if parts.scheme != "file" or parts.netloc not in {"", "localhost"}:
                raise RefusedResource(f"{url}: only files from the campaign may be used")
            real = check_local_file(Path(unquote(parts.path)), self.roots)
        except RefusedResource as err:
            self.refused.append(str(err))
            raise
        mime = MIME_TYPES.get(real.suffix.lower())
        if mime is None:
            self.refused.append(f"{real.name}: not a stylesheet, image or font")
            raise RefusedResource(f"{real.name}: not a stylesheet, image or font")
        body = real.read_bytes()
        return URLFetcherResponse(real.as_uri(), body, {"Content-Type": mime})


__all__ = [
    "MAX_RESOURCE_BYTES",
    "ConfinedFetcher",
    "FatalURLFetchingError",
    "RefusedResource",
    "check_local_file",
    "is_inside",
]
