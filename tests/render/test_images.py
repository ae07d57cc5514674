"""The picture gate (render/images.py) and the SVG bound (render/svg.py), case by case.

Every picture a document shows passes here: portraits, booklet pictures and covers as
files, theme images as the bytes the fetcher serves. The end-to-end hostile cases (a
theme, a booklet, the command line) are in tests/render/test_fetcher.py and
tests/documents/test_booklet.py.
"""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from scratchpress.render.engine import weasyprint
from scratchpress.render.images import (
    ImageProblem,
    check_image_bytes,
    decode_picture,
    local_reader,
    open_picture,
    portrait_data_url,
)
from scratchpress.render.svg import (
    MAX_SVG_ELEMENTS,
    NestedPictures,
    SvgProblem,
    check_svg,
    tame_inline_svgs,
)

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'


def png(width: int = 30, height: int = 20, colour: tuple[int, int, int] = (200, 0, 0)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A PNG of a few dozen bytes whose header claims ``width`` x ``height`` pixels, its
    pixel data cut short (a truncated decompression bomb)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + body))
        return struct.pack(">I", len(body)) + kind + body + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64))


def two_frame_jpeg() -> bytes:
    """What a phone camera writes: a JPEG with a second frame (MPO), red then green."""
    first = Image.new("RGB", (64, 48), (200, 10, 10))
    second = Image.new("RGB", (64, 48), (10, 200, 10))
    buffer = io.BytesIO()
    first.save(buffer, format="MPO", save_all=True, append_images=[second])
    return buffer.getvalue()


def use_bomb(levels: int = 10, fan: int = 10) -> bytes:
    """``levels`` groups, each ``fan`` <use> of the one below: fan ** levels rectangles."""
    groups = "".join(
        f'<g id="l{level}">' + f'<use xlink:href="#l{level - 1}"/>' * fan + "</g>"
        for level in range(1, levels + 1)
    )
    return (
        f'{SVG} width="10" height="10"><defs><rect id="l0" width="1" height="1"/>{groups}</defs>'
        f'<use xlink:href="#l{levels}"/></svg>'
    ).encode()


# --- raster pictures -------------------------------------------------------------------------


def test_a_two_frame_jpeg_from_a_phone_is_a_portrait_read_as_its_first_frame(
    tmp_path: Path,
) -> None:
    face = tmp_path / "face.jpg"
    face.write_bytes(two_frame_jpeg())
    picture = open_picture(face, [tmp_path], "face.jpg")
    assert picture.size == (64, 48)
    red, green, _ = picture.convert("RGB").getpixel((32, 24))  # type: ignore[misc]
    assert red > 150 and green < 60  # the first frame, not the second
    assert portrait_data_url(face, [tmp_path], (30.0, 40.0)).startswith("data:image/jpeg")


@pytest.mark.parametrize(
    ("header", "what"),
    [
        (b"P6\n-5 99999999999\n255\n", "a PPM header with a token too long"),
        (b"\x01\xda\x00\x01\x00\x03" + b"\0" * 20, "an SGI header"),
        (png()[:20], "a PNG header cut short"),
        (b"BM" + b"\xff" * 40, "a BMP header"),
    ],
)
def test_a_broken_header_of_any_format_is_one_line_not_a_decoder_traceback(
    tmp_path: Path, header: bytes, what: str
) -> None:
    picture = tmp_path / "map.png"
    picture.write_bytes(header)
    with pytest.raises(ImageProblem) as caught:
        open_picture(picture, [tmp_path], "pictures/map.png", kind="pictures")
    message = str(caught.value)
    assert message.startswith("pictures/map.png "), what
    assert "\n" not in message


def test_pixel_data_cut_short_is_damaged_not_a_grey_band() -> None:
    whole = png(300, 200)
    with pytest.raises(ImageProblem, match="damaged or truncated"):
        decode_picture(io.BytesIO(whole[: len(whole) // 2]), "map.png")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (png_declaring(12_000, 12_000), "declares too many pixels"),  # 144 MP, truncated
        (png_declaring(10_000, 10_000), "declares too many pixels"),  # 100 MP
        (png_declaring(7_000, 7_000), "declares too many pixels"),  # 49 MP: Pillow only warns
        (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n", "holds EPS data"),
        (png()[:-30], "damaged or truncated"),
    ],
    ids=["144mp-truncated", "100mp", "49mp", "eps", "truncated"],
)
def test_theme_image_bytes_get_the_portraits_checks(body: bytes, message: str) -> None:
    with pytest.raises(ImageProblem, match=message) as caught:
        check_image_bytes(body, "theme/bg.png")
    assert str(caught.value).startswith("theme/bg.png")


@pytest.mark.parametrize(
    "body",
    [
        png(),
        two_frame_jpeg(),
        b"body { background: url(bg.png) }\n",
        b"\x00\x01\x00\x00\x00\x0c" + b"\0" * 200,  # the start of a TrueType font
        f'{SVG} width="4" height="4"><rect width="2" height="2"/></svg>'.encode(),
    ],
    ids=["png", "mpo", "stylesheet", "font", "svg"],
)
def test_what_a_theme_really_loads_passes_the_gate(body: bytes) -> None:
    check_image_bytes(body, "theme/file")


# --- SVG ---------------------------------------------------------------------------------------


def test_a_use_bomb_of_ten_to_the_ten_shapes_is_refused_before_drawing() -> None:
    with pytest.raises(SvgProblem) as caught:
        check_svg(use_bomb(10, 10), "theme/bomb.svg")
    assert str(caught.value) == (
        f"theme/bomb.svg is an SVG that draws more than {MAX_SVG_ELEMENTS:,} shapes once its"
        " <use> and nested pictures are counted (an SVG bomb?)"
    )


def test_uses_count_each_time_they_are_drawn_and_defs_only_there() -> None:
    # root, defs, the drawn <use> and its group; three <use>, each with its rectangle
    assert check_svg(use_bomb(1, 3), "icons.svg") == 1 + 1 + 2 + 3 * 2
    # a level more: three uses of that group
    assert check_svg(use_bomb(2, 3), "icons.svg") == 1 + 1 + 2 + 3 * (2 + 3 * 2)


def test_the_bound_is_on_the_expanded_drawing_not_the_file() -> None:
    small_file = use_bomb(4, 18)  # under 2 KB, 18 ** 4 = 104,976 rectangles
    assert len(small_file) < 2_000
    with pytest.raises(SvgProblem, match="more than 100,000 shapes"):
        check_svg(small_file, "x.svg")
    check_svg(use_bomb(4, 12), "x.svg")  # 20,736 rectangles: a big drawing, but fine


def test_a_marker_counts_once_per_vertex() -> None:
    marker = '<marker id="m">' + '<circle r="1"/>' * 50 + "</marker>"
    points = " ".join(f"{i},{i}" for i in range(2_500))  # 5,000 numbers
    body = f'{SVG}><defs>{marker}</defs><polyline points="{points}" marker-mid="url(#m)"/></svg>'
    with pytest.raises(SvgProblem, match="shapes"):
        check_svg(body.encode(), "route.svg")


def test_a_stylesheet_gradient_is_no_loop_and_a_use_of_itself_is() -> None:
    gradient = (
        f'{SVG}><style>rect {{ fill: url(#g) }}</style><linearGradient id="g">'
        '<stop offset="0"/><stop offset="1"/></linearGradient><rect width="4" height="4"/></svg>'
    )
    assert check_svg(gradient.encode(), "shaded.svg") < 20
    loop = f'{SVG}><g id="a"><use xlink:href="#a"/></g></svg>'
    with pytest.raises(SvgProblem, match="leads back to itself"):
        check_svg(loop.encode(), "loop.svg")


def test_entity_declarations_are_refused_not_expanded() -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "hahahahahahahahahahahaha">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
        b'<svg xmlns="http://www.w3.org/2000/svg"><text>&c;</text></svg>'
    )
    with pytest.raises(SvgProblem, match="declares XML entities"):
        check_svg(laughs, "laughs.svg")
    with pytest.raises(ImageProblem, match="declares XML entities"):
        check_image_bytes(laughs, "laughs.svg")


def test_a_usual_doctype_is_fine() -> None:
    body = (
        b'<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"'
        b' "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
        b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'
    )
    assert check_svg(body, "plain.svg") == 2


def test_a_file_of_more_raw_elements_than_the_cap_stops_parsing_at_the_cap() -> None:
    body = f"{SVG}>{'<g/>' * (MAX_SVG_ELEMENTS + 10)}</svg>".encode()
    with pytest.raises(SvgProblem, match="shapes"):
        check_svg(body, "flat.svg")


def test_an_inline_svg_bomb_in_a_page_is_emptied_and_named() -> None:
    page = weasyprint.HTML(
        string=f"<p>Map</p>{SVG} width='5' height='5'><rect width='2' height='2'/></svg>"
        + use_bomb().decode()
    )
    refused = tame_inline_svgs(page.etree_element)
    assert refused == [
        f"the page's inline <svg> number 2 is an SVG that draws more than {MAX_SVG_ELEMENTS:,}"
        " shapes once its <use> and nested pictures are counted (an SVG bomb?)"
    ]
    svgs = list(page.etree_element.iter("{http://www.w3.org/2000/svg}svg"))
    assert [len(list(svg.iter())) for svg in svgs] == [2, 1]  # the small one kept whole
    page.render()  # and nothing left to draw: this returns at once


def test_svg_pictures_shown_in_an_svg_count_at_their_own_size(tmp_path: Path) -> None:
    """Each <image> of another SVG draws all of it; ``check`` reads them as the fetcher
    does (files inside the campaign, data: URLs) and counts each file once."""
    svg = f"{SVG}>{{}}</svg>"
    (tmp_path / "leaf.svg").write_text(svg.format('<rect width="1" height="1"/>' * 9))
    (tmp_path / "twice.svg").write_text(svg.format('<image href="leaf.svg"/>' * 2))
    nested = NestedPictures(local_reader([tmp_path]))
    body = (tmp_path / "twice.svg").read_bytes()
    assert check_svg(body, "twice.svg", nested.costs((tmp_path / "twice.svg").as_uri())) == (
        1 + 2 * (1 + 9)  # the root, two images each drawing a root and nine rectangles
    )
    many = svg.format('<image href="twice.svg"/>' * 10_000)
    with pytest.raises(SvgProblem, match="more than 100,000 shapes"):
        check_svg(many.encode(), "many.svg", nested.costs((tmp_path / "many.svg").as_uri()))
    outside = svg.format('<image href="file:///etc/hostname"/>')  # refused when fetched
    assert check_svg(outside.encode(), "o.svg", nested.costs((tmp_path / "o.svg").as_uri())) == 2
