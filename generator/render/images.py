"""Portraits through Pillow: checked, cropped to the frame, downscaled, embedded.

Only PNG, JPEG and WebP are read, whatever the file is called; Pillow's decompression-bomb
guard is an error, not a warning; a truncated file is an error. The result is embedded as a
data: URL so the renderer never opens the user's file itself.
"""

from __future__ import annotations

import base64
import io
import warnings
from pathlib import Path

from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError

from ..typesetting.units import MM_PER_INCH
from .confine import RefusedResource, check_local_file

ALLOWED_FORMATS = {"PNG", "JPEG", "WEBP"}
MAX_PIXELS = 40_000_000  # a 40-megapixel photo is plenty; beyond that, refuse
MAX_DPI = 300


class ImageProblem(ValueError):
    """A portrait that cannot be used; the message is ready for the user."""


def check_portrait(path: Path, roots: list[Path], name: str | None = None) -> None:
    """Raise ImageProblem unless ``path`` is a portrait the build can use: a regular, modest
    file inside ``roots`` that PNG, JPEG or WebP decodes in full, within the pixel cap. The
    build runs these same checks (``portrait_data_url``), so ``check`` cannot disagree."""
    _decoded(path, roots, name)


def _decoded(path: Path, roots: list[Path], name: str | None) -> Image.Image:
    try:
        real = check_local_file(path, roots, name)
    except RefusedResource as err:
        raise ImageProblem(str(err)) from None
    shown = name if name is not None else path.name
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    # WeasyPrint sets this process-wide on import (and it is imported before portraits are
    # read); for a portrait, a truncated file must be an error, not a grey band.
    load_truncated = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            # Only our three decoders ever see the bytes; Pillow's other plugins (EPS, PSD,
            # TGA, ...) are never asked to parse a stranger's file.
            with Image.open(real, formats=sorted(ALLOWED_FORMATS)) as image:
                if image.format not in ALLOWED_FORMATS:
                    raise ImageProblem(
                        f"{shown} is {image.format or 'an unknown format'};"
                        " portraits must be PNG, JPEG or WebP"
                    )
                if image.width * image.height > MAX_PIXELS:
                    raise ImageProblem(
                        f"{shown} is {image.width} x {image.height} pixels, more than"
                        f" {MAX_PIXELS // 1_000_000} megapixels"
                    )
                image.load()
                picture = ImageOps.exif_transpose(image)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageProblem(f"{shown} declares too many pixels (a decompression bomb?)") from None
    except ImageProblem:
        raise
    except UnidentifiedImageError:
        raise ImageProblem(
            f"{shown} is not an image scratchpress can read; portraits must be PNG, JPEG or WebP"
        ) from None
    # A damaged file makes a decoder fail in many ways: OSError for truncated data, but
    # also ValueError (a PNG chunk name that is not ASCII), EOFError, SyntaxError, ...
    except (OSError, ValueError, EOFError, SyntaxError, IndexError, KeyError) as err:
        raise ImageProblem(f"{shown} is damaged or truncated ({err})") from None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = load_truncated
    return picture


def portrait_data_url(
    path: Path,
    roots: list[Path],
    frame_mm: tuple[float, float],
    grey: bool = False,
    name: str | None = None,
) -> str:
    """The picture cropped to ``frame_mm``, downscaled and embedded as a JPEG data: URL.

    Raises ImageProblem for a file that fails ``check_portrait``'s checks; messages call it
    ``name`` (as its author wrote it) when given."""
    picture = _decoded(path, roots, name)
    width_px = round(frame_mm[0] / MM_PER_INCH * MAX_DPI)
    height_px = round(frame_mm[1] / MM_PER_INCH * MAX_DPI)
    picture = picture.convert("L" if grey else "RGB")
    # Crop to the frame's aspect, then only ever shrink: upscaling adds no detail.
    aspect = frame_mm[0] / frame_mm[1]
    if picture.width / picture.height > aspect:
        crop_w, crop_h = round(picture.height * aspect), picture.height
    else:
        crop_w, crop_h = picture.width, round(picture.width / aspect)
    picture = ImageOps.fit(picture, (crop_w, crop_h), Image.Resampling.LANCZOS)
    if crop_w > width_px:
        picture = picture.resize((width_px, height_px), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    picture.save(buffer, format="JPEG", quality=88, optimize=True)
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
