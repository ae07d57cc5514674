"""A deck's PDF made into what a print shop takes (``build --for SHOP``).

Every shop gets a TrimBox and a BleedBox on every page: the page is the card and its bleed
(documents/deck.py lays it out so), the trim is the card. A shop that asks for PDF/X-1a
(DriveThruCards) gets more, done here on the rendered file rather than in the templates,
so that every colour any template or theme writes is caught:

- **CMYK only.** Each RGB colour in the pages' drawing (text, fills, strokes, the
  shadings of gradients, pictures) becomes CMYK. A near-neutral colour becomes black ink
  alone, so 7 pt text prints in one ink that cannot blur out of register; any other takes
  as much black as its darkness allows (grey component replacement), and its total ink is
  scaled down to the shop's limit (240% for DriveThruCards). This is a device conversion,
  not a colour-managed one: no free CMYK profile exists to ship. The file names the
  printing condition it was made for (US Web Coated SWOP, registered as CGATS TR 001), and
  the shop's RIP converts from it.
- **No transparency.** The templates draw a shop's deck solid (``for-press`` in the deck
  CSS); the transparency groups WeasyPrint puts on its pages are dropped, and anything still
  translucent is a preflight finding (render/preflight.py), not silently flattened.
- **The PDF/X markers**: ``GTS_PDFXVersion`` and ``Trapped`` in the document information
  and XMP, an output intent, PDF 1.4, no object streams.
"""

from __future__ import annotations

import io
import os
import time
import zlib
from collections.abc import Sequence
from decimal import Decimal
from typing import Any, cast

import pikepdf

from ..typesetting.shops import ShopSpec
from ..typesetting.units import PT_PER_MM

PDFX_VERSION = "PDF/X-1a:2003"
FIXED_DATE = 946684800  # 2000-01-01, when SOURCE_DATE_EPOCH is not set
NEUTRAL = 0.06  # an RGB colour whose channels differ by less than this prints in black alone

CMYK = tuple[float, float, float, float]


def resource_values(resources: Any, key: str) -> list[Any]:
    """The objects of one kind a resource dictionary names (pikepdf 8's dictionaries have
    no ``values()``)."""
    named = resources.get(key)
    return [value for _, value in named.items()] if named is not None else []


def to_cmyk(rgb: Sequence[float], limit: float = 4.0) -> CMYK:
    """Device CMYK for sRGB channels in 0..1, with total ink at most ``limit`` (1.0 = 100%)."""
    r, g, b = rgb
    if max(r, g, b) - min(r, g, b) < NEUTRAL:
        # Text and rules in warm or cool blacks and greys: black ink only, as dark as the
        # colour's lightness (Rec. 709 weights).
        return (0.0, 0.0, 0.0, round(1 - (0.2126 * r + 0.7152 * g + 0.0722 * b), 4))
    k = 1 - max(r, g, b)
    c, m, y = ((1 - v - k) / (1 - k) for v in (r, g, b))
    colour = c + m + y
    if colour + k > limit and colour > 0:
        scale = max(0.0, limit - k) / colour
        c, m, y = c * scale, m * scale, y * scale
    return (round(c, 4), round(m, 4), round(y, 4), round(k, 4))


def _numbers(values: Any) -> list[float]:
    return [float(v) for v in values]


def _operand(value: float) -> Decimal:
    return Decimal(f"{value:.4f}").normalize()


class _Converter:
    """Walks a PDF's pages, forms, patterns and shadings once each, turning RGB into CMYK."""

    def __init__(self, pdf: pikepdf.Pdf, limit: float) -> None:
        self.pdf, self.limit = pdf, limit
        self.done: set[tuple[int, int]] = set()

    def _first_time(self, obj: pikepdf.Object) -> bool:
        key = obj.objgen
        if key == (0, 0):  # a direct object: visited through its one parent
            return True
        if key in self.done:
            return False
        self.done.add(key)
        return True

    def content(self, owner: pikepdf.Object, is_page: bool = False) -> None:
        """A page's or a form's (or a tiling pattern's) drawing and everything it uses."""
        if not self._first_time(owner):
            return
        instructions: list[Any] = []
        rgb_space = {False: False, True: False}  # by stroke: the last `cs` was DeviceRGB
        for instruction in pikepdf.parse_content_stream(owner):
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                instructions.append(instruction)  # a picture in the stream: left as drawn
                continue
            operands: list[Any] = list(instruction.operands)
            operator, op = instruction.operator, str(instruction.operator)
            if op in ("rg", "RG"):
                operands = [_operand(v) for v in to_cmyk(_numbers(operands), self.limit)]
                operator = pikepdf.Operator("k" if op == "rg" else "K")
            elif op in ("g", "G"):
                grey = float(operands[0])
                operands = [0, 0, 0, _operand(round(1 - grey, 4))]
                operator = pikepdf.Operator("k" if op == "g" else "K")
            elif op in ("cs", "CS"):
                stroke = op == "CS"
                rgb_space[stroke] = str(operands[0]) == "/DeviceRGB"
                if rgb_space[stroke]:
                    operands = [pikepdf.Name.DeviceCMYK]
            elif op.lower() in ("sc", "scn") and rgb_space[op.isupper()] and len(operands) == 3:
                operands = [_operand(v) for v in to_cmyk(_numbers(operands), self.limit)]
            instructions.append(pikepdf.ContentStreamInstruction(operands, operator))
        data = pikepdf.unparse_content_stream(instructions)
        if is_page:
            owner.Contents = self.pdf.make_stream(data)
        else:
            owner.write(data)  # a form or pattern stream: its dictionary stays
        if "/Group" in owner:  # transparency groups: PDF/X-1a has no transparency
            del owner["/Group"]
        self.resources(owner.get("/Resources"))

    def resources(self, resources: Any) -> None:
        if resources is None:
            return
        for xobject in resource_values(resources, "/XObject"):
            if xobject.get("/Subtype") == pikepdf.Name.Form:
                self.content(xobject)
            elif xobject.get("/Subtype") == pikepdf.Name.Image:
                self.image(xobject)
        for pattern in resource_values(resources, "/Pattern"):
            if pattern.get("/PatternType") == 1:
                self.content(pattern)
            elif "/Shading" in pattern:
                self.shading(pattern.Shading)
        for shading in resource_values(resources, "/Shading"):
            self.shading(shading)
        # Colour spaces WeasyPrint declares on every page (Lab) but no operator uses.
        if "/ColorSpace" in resources:
            del resources["/ColorSpace"]

    def shading(self, shading: pikepdf.Object) -> None:
        if not self._first_time(shading) or shading.get("/ColorSpace") != pikepdf.Name.DeviceRGB:
            return
        shading.ColorSpace = pikepdf.Name.DeviceCMYK
        if "/Function" in shading:
            self.function(shading.Function)

    def function(self, function: pikepdf.Object) -> None:
        """Type 2 (two colours) and type 3 (a run of type 2s); other types stay as they are
        and the preflight names the RGB left in them."""
        if function.get("/FunctionType") == 3:
            for part in function.Functions:
                self.function(part)
        elif function.get("/FunctionType") == 2:
            for end in ("/C0", "/C1"):
                values = _numbers(function.get(end, [0, 0, 0] if end == "/C0" else [1, 1, 1]))
                if len(values) == 3:
                    function[end] = [_operand(v) for v in to_cmyk(values, self.limit)]

    def image(self, image: pikepdf.Object) -> None:
        """An RGB picture as CMYK pixels, converted like every other colour."""
        if not self._first_time(image):
            return
        try:
            picture = pikepdf.PdfImage(cast(pikepdf.Stream, image)).as_pil_image()
        except Exception:  # a filter or space Pillow cannot read: the preflight says so
            return
        if picture.mode not in ("RGB", "P", "L"):
            return
        rgb = picture.convert("RGB")
        pixels = rgb.tobytes()
        table: dict[bytes, bytes] = {}
        out = bytearray()
        for i in range(0, len(pixels), 3):
            triple = pixels[i : i + 3]
            if triple not in table:
                c, m, y, k = to_cmyk([v / 255 for v in triple], self.limit)
                table[triple] = bytes(round(v * 255) for v in (c, m, y, k))
            out += table[triple]
        image.write(zlib.compress(bytes(out)), filter=pikepdf.Name.FlateDecode)
        image.ColorSpace = pikepdf.Name.DeviceCMYK
        image.BitsPerComponent = 8
        for key in ("/DecodeParms", "/Decode", "/SMask", "/Mask"):
            if key in image:
                del image[key]


def _boxes(pdf: pikepdf.Pdf, shop: ShopSpec) -> None:
    """Trim and bleed boxes on every page: the page is the card and its bleed."""
    bleed = shop.bleed_mm * PT_PER_MM
    for page in pdf.pages:
        left, bottom, right, top = (float(v) for v in page.mediabox)
        page.obj.BleedBox = pikepdf.Array([left, bottom, right, top])
        page.obj.TrimBox = pikepdf.Array(
            [round(v, 3) for v in (left + bleed, bottom + bleed, right - bleed, top - bleed)]
        )


def _made_at() -> tuple[str, str]:
    """The file's date, as PDF/X requires one, in the PDF's and XMP's spelling. Builds are
    reproducible, so it is not the clock: SOURCE_DATE_EPOCH when the environment sets it
    (reproducible-builds.org), else a fixed date."""
    seconds = int(os.environ.get("SOURCE_DATE_EPOCH", "") or FIXED_DATE)
    when = time.gmtime(max(0, seconds))
    return time.strftime("D:%Y%m%d%H%M%SZ", when), time.strftime("%Y-%m-%dT%H:%M:%SZ", when)


def _mark_pdfx(pdf: pikepdf.Pdf, shop: ShopSpec) -> None:
    pdf_date, xmp_date = _made_at()
    pdf.docinfo["/CreationDate"] = pdf_date
    pdf.docinfo["/ModDate"] = pdf_date
    pdf.docinfo["/GTS_PDFXVersion"] = PDFX_VERSION
    pdf.docinfo["/Trapped"] = pikepdf.Name("/False")
    pdf.Root.OutputIntents = pikepdf.Array(
        [
            pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent,
                S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier=pikepdf.String(shop.condition),
                RegistryName=pikepdf.String("http://www.color.org"),
                Info=pikepdf.String(shop.condition_info),
            )
        ]
    )
    title = str(pdf.docinfo.get("/Title", ""))
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
        meta["pdfxid:GTS_PDFXVersion"] = PDFX_VERSION
        meta["pdf:Trapped"] = "False"
        meta["dc:title"] = title
        meta["xmp:CreatorTool"] = "scratchpress"
        meta["xmp:CreateDate"] = xmp_date
        meta["xmp:ModifyDate"] = xmp_date


def for_shop(data: bytes, shop: ShopSpec) -> bytes:
    """``data`` (a one-card-a-page deck) as ``shop`` takes it; byte for byte the same for
    the same input."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        _boxes(pdf, shop)
        if shop.pdfx:
            converter = _Converter(pdf, (shop.ink_limit or 400) / 100)
            for page in pdf.pages:
                converter.content(page.obj, is_page=True)
            _mark_pdfx(pdf, shop)
        out = io.BytesIO()
        pdf.remove_unreferenced_resources()
        pdf.save(
            out,
            deterministic_id=True,
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
            force_version="1.4" if shop.pdfx else "",  # PDF/X-1a:2003 is PDF 1.4
        )
        return out.getvalue()


__all__ = ["for_shop", "resource_values", "to_cmyk"]
