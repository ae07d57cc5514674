"""Every picture a document shows passes one gate here: portraits, booklet pictures and
covers (files we read ourselves), and the images and SVGs a theme loads (bytes the
WeasyPrint fetcher serves, ``render/fetcher.py``).

The gate for a raster picture: only PNG, JPEG (with its two-frame MPO flavour, read as its
first frame) and WebP are ever decoded, whatever the file is called; more than
MAX_PIXELS is refused from the header, before a pixel is decoded; then the whole picture
is decoded, and a truncated or damaged one is an error, never a grey band or a decoder's
traceback. An SVG is counted by ``render/svg.py``. Portraits, booklet pictures and covers
are then re-encoded and embedded as data: URLs, so the renderer never opens the user's
file itself.
"""

from __future__ import annotations

import base64
import io
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO
from urllib.parse import unquote, urlsplit
from urllib.request import DataHandler, Request

from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from ..typesetting.units import MM_PER_INCH
from .confine import MAX_RESOURCE_BYTES, RefusedResource, check_local_file
from .svg import ImageCost, SvgProblem, check_svg

# MPO is how phone cameras write a JPEG with a second frame (a depth map, a stereo pair).
ALLOWED_FORMATS = frozenset({"PNG", "JPEG", "MPO", "WEBP"})
READ_WITH = ["JPEG", "PNG", "WEBP"]  # the plugins asked; JPEG's own opens an MPO
MAX_PIXELS = 40_000_000  # a 40-megapixel photo is plenty; beyond that, refuse
MAX_DPI = 300
# A damaged file makes a decoder fail in many ways: OSError for truncated data, but also
# ValueError (a PNG chunk name that is not ASCII), EOFError, SyntaxError, struct.error (a
# ValueError's cousin, an Exception), ...
DECODER_ERRORS = (OSError, ValueError, EOFError, SyntaxError, IndexError, KeyError, TypeError)


class ImageProblem(ValueError):
    """A picture that cannot be used; the message is ready for the user."""


class UnreadablePicture(ImageProblem):
    """Bytes that none of our decoders recognises as a picture at all."""


@contextmanager
def _strict_pillow() -> Iterator[None]:
    """Pillow as the gate wants it, for one picture: a decompression bomb is an error, and
    so is a truncated file. WeasyPrint sets LOAD_TRUNCATED_IMAGES process-wide on import
    (before any picture is read); its own setting comes back afterwards."""
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    load_truncated = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            yield
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = load_truncated


def decode_picture(source: Path | IO[bytes], shown: str, kind: str = "portraits") -> Image.Image:
    """The gate for a raster picture: ``source`` decoded in full (its first frame), turned
    upright as its EXIF says. Raises ImageProblem, naming it ``shown``, for anything but
    a whole PNG, JPEG or WebP of at most MAX_PIXELS; ``kind`` is what messages call such
    files ("portraits", "pictures")."""
    try:
        # Only our decoders ever see the bytes; Pillow's other plugins (EPS, PSD, TGA, PPM,
        # SGI, ...) are never asked to parse a stranger's file.
        with _strict_pillow(), Image.open(source, formats=READ_WITH) as image:
            if image.format not in ALLOWED_FORMATS:
                raise ImageProblem(
                    f"{shown} is {image.format or 'an unknown format'};"
                    f" {kind} must be PNG, JPEG or WebP"
                )
            if image.width * image.height > MAX_PIXELS:
                raise ImageProblem(
                    f"{shown} is {image.width} x {image.height} pixels, more than"
                    f" {MAX_PIXELS // 1_000_000} megapixels"
                )
            image.load()  # the first frame: what a printed page shows of an MPO
            return ImageOps.exif_transpose(image)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageProblem(f"{shown} declares too many pixels (a decompression bomb?)") from None
    except ImageProblem:
        raise
    except UnidentifiedImageError:
        raise UnreadablePicture(
            f"{shown} is not an image scratchpress can read; {kind} must be PNG, JPEG or WebP"
        ) from None
    except DECODER_ERRORS as err:
        raise ImageProblem(f"{shown} is damaged or truncated ({err})") from None
    except MemoryError:  # in a render worker, at its memory limit (many large pictures)
        raise ImageProblem(f"{shown} needed more memory than a render may use") from None
    except Exception as err:  # a decoder bug we have not met: still one line, never a traceback
        raise ImageProblem(f"{shown} could not be decoded ({type(err).__name__})") from None


def open_picture(
    path: Path, roots: list[Path], name: str | None = None, kind: str = "portraits"
) -> Image.Image:
    """A picture file through the gate: a regular, modest file inside ``roots`` (else
    ImageProblem, as ``decode_picture``), decoded. Messages call it ``name`` (as its author
    wrote it) when given."""
    try:
        real = check_local_file(path, roots, name)
    except RefusedResource as err:
        raise ImageProblem(str(err)) from None
    return decode_picture(real, name if name is not None else path.name, kind)


def check_portrait(path: Path, roots: list[Path], name: str | None = None) -> None:
    """Raise ImageProblem unless ``path`` is a portrait the build can use. The build runs
    these same checks (``portrait_data_url``), so ``check`` cannot disagree."""
    open_picture(path, roots, name)


def check_image_bytes(body: bytes, shown: str, image_cost: ImageCost | None = None) -> None:
    """The gate for bytes a theme loads (a file or a data: URL, which WeasyPrint may show
    as an image whatever it is called): as an image, they must be a whole PNG, JPEG or WebP
    within the pixel cap, or an SVG within ``render/svg.py``'s bound. Bytes that neither
    Pillow nor an XML parser would read (a stylesheet, a font) pass. ``image_cost`` tells
    what an SVG's own ``<image>`` costs to draw. Raises ImageProblem."""
    found = pillow_format(body)
    if found is not None:
        if found not in ALLOWED_FORMATS:
            raise ImageProblem(f"{shown}: holds {found} data; images must be PNG, JPEG or WebP")
        decode_picture(io.BytesIO(body), shown, "images")
    # WeasyPrint reads any XML shown as an image as SVG, and tries SVG first for a file it
    # is told is one, so every body is counted, whatever Pillow made of it.
    try:
        check_svg(body, shown, image_cost)
    except SvgProblem as err:
        raise ImageProblem(str(err)) from None


def local_reader(roots: list[Path]) -> Callable[[str], tuple[bytes, str]]:
    """What ``NestedPictures`` reads through outside the renderer (``check``): ``file:``
    URLs of modest files inside ``roots`` and ``data:`` URLs, as the fetcher serves them.
    Raises RefusedResource for anything else."""

    def read(url: str) -> tuple[bytes, str]:
        parts = urlsplit(url)
        if parts.scheme == "data" and len(url) <= MAX_RESOURCE_BYTES:
            with DataHandler().data_open(Request(url)) as response:
                return bytes(response.read()), "a data: URL"
        if parts.scheme != "file" or parts.netloc not in {"", "localhost"}:
            raise RefusedResource(f"{url}: only files from the campaign may be used")
        real = check_local_file(Path(unquote(parts.path)), roots)
        return real.read_bytes(), real.name

    return read


def pillow_format(body: bytes) -> str | None:
    """The format WeasyPrint's Pillow (every plugin) would open ``body`` as, from the header
    only, or None if none would."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(body)) as image:
                return str(image.format)
    except Image.DecompressionBombError:  # the header of one of ours: the gate says more
        if body.startswith(b"\x89PNG"):
            return "PNG"
        if body.startswith(b"\xff\xd8\xff"):
            return "JPEG"
        return "WEBP" if body[8:12] == b"WEBP" else "oversized image"
    except Exception:  # not an image to any plugin: a stylesheet, an SVG, a font
        return None


def picture_data_url(picture: Image.Image, frame_mm: tuple[float, float], grey: bool) -> str:
    """``picture`` cropped to ``frame_mm``, downscaled and embedded as a JPEG data: URL."""
    width_px = round(frame_mm[0] / MM_PER_INCH * MAX_DPI)
    height_px = round(frame_mm[1] / MM_PER_INCH * MAX_DPI)
    picture = picture.convert("L" if grey else "RGB")
    # Crop to the frame's aspect, then only ever shrink: upscaling adds no detail.
    aspect = frame_mm[0] / frame_mm[1]
    if picture.width / picture.height > aspect:
        crop_w, crop_h = round(picture.height * aspect), picture.height
    else:
        crop_w, crop_h = picture.width, round(picture.width / aspect)
    picture = ImageOps.fit(picture, (max(crop_w, 1), max(crop_h, 1)), Image.Resampling.LANCZOS)
    if crop_w > width_px:
        picture = picture.resize((max(width_px, 1), max(height_px, 1)), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG", quality=88, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def portrait_data_url(
    path: Path,
    roots: list[Path],
    frame_mm: tuple[float, float],
    grey: bool = False,
    name: str | None = None,
) -> str:
    """The portrait through the gate (``open_picture``), cropped to ``frame_mm``,
    downscaled and embedded as a JPEG data: URL. Raises ImageProblem."""
    return picture_data_url(open_picture(path, roots, name), frame_mm, grey)
