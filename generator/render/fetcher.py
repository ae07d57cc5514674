"""The only way a document may load a file: from the folders we allow, and nothing else.

Campaign folders come from strangers. A note, a portrait path or a user stylesheet must not
be able to read ``/etc/passwd``, follow a symlink out of the campaign, open a FIFO or a
device, or make a network request. Every refusal is recorded so the build can report it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

MAX_RESOURCE_BYTES = 32 * 1024 * 1024
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


class RefusedResource(ValueError):
    pass


def is_inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def check_local_file(path: Path, roots: list[Path]) -> Path:
    """Resolve symlinks, then insist on a regular, modest file inside an allowed folder."""
    real = Path(os.path.realpath(path))
    if not is_inside(real, roots):
        raise RefusedResource(f"{path} is outside the campaign, templates and fonts folders")
    try:
        info = real.stat()
    except OSError as err:
        raise RefusedResource(f"{path}: {err.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise RefusedResource(f"{path} is not a regular file")
    if info.st_size > MAX_RESOURCE_BYTES:
        raise RefusedResource(f"{path} is larger than {MAX_RESOURCE_BYTES // 2**20} MB")
    return real


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


__all__ = ["ConfinedFetcher", "FatalURLFetchingError", "RefusedResource", "check_local_file"]
