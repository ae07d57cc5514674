"""The only way a document may load a file: from the folders we allow, and nothing else.

Campaign folders come from strangers. A note, a portrait path or a user stylesheet must not
be able to read ``/etc/passwd``, follow a symlink out of the campaign, open a FIFO or a
device, or make a network request. Every refusal is recorded so the build can report it.
"""

from __future__ import annotations

import io
import os
import warnings
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import URLFetcher, URLFetcherResponse

from .confine import MAX_RESOURCE_BYTES, RefusedResource, check_local_file

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


# WeasyPrint hands any image body to Pillow with every plugin enabled. Whatever a file is
# called (or a data: URL declares), bytes Pillow would read as another format are refused:
# an EPS would go to Ghostscript, and the other decoders have no business here either.
IMAGE_FORMATS = {"PNG", "JPEG", "WEBP"}


def pillow_format(body: bytes) -> str | None:
    """The format Pillow would open ``body`` as (header only), or None if none would."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(body)) as image:
                return str(image.format)
    except Image.DecompressionBombError:  # one of ours is refused later, by WeasyPrint
        if body.startswith((b"\x89PNG", b"\xff\xd8\xff")) or body[8:12] == b"WEBP":
            return "PNG"
        return "oversized image"
    except Exception:  # not an image to any plugin: a stylesheet, an SVG, a font
        return None


def check_body(name: str, body: bytes) -> None:
    found = pillow_format(body)
    if found is not None and found not in IMAGE_FORMATS:
        raise RefusedResource(f"{name}: holds {found} data; images must be PNG, JPEG or WebP")


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
                response = super().fetch(url, headers)
                body = response.read()
                declared = url[5 : url.find(",")][:40] if "," in url else ""
                check_body(f"a data: URL ({declared or 'no type'})", body)  # never its data
                return URLFetcherResponse(response.url, body, response.headers)
            if parts.scheme != "file" or parts.netloc not in {"", "localhost"}:
                raise RefusedResource(f"{url}: only files from the campaign may be used")
            real = check_local_file(Path(unquote(parts.path)), self.roots)
            mime = MIME_TYPES.get(real.suffix.lower())
            if mime is None:
                raise RefusedResource(f"{real.name}: not a stylesheet, image or font")
            body = real.read_bytes()
            check_body(real.name, body)
        except RefusedResource as err:
            self.refused.append(str(err))
            raise
        return URLFetcherResponse(real.as_uri(), body, {"Content-Type": mime})


__all__ = ["ConfinedFetcher"]
