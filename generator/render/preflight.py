"""The preflight of a print shop's files (``build --for SHOP``): what a shop's prepress
would refuse, found before the upload.

Each file is checked against its shop (typesetting/shops.py):

- **size**: every page (image) is the card and its bleed, at the shop's size;
- **bleed**: a BleedBox and a TrimBox on every page, the bleed as wide as the shop asks
  on every edge, and filled: the art at each trim edge carries on into the bleed (a white
  strip would show if the cut wanders);
- **safe area**: no text outside the safe area (the trim inset by the shop's margin);
- **fonts**: every font embedded;
- **resolution**: every picture at 300 dpi or more where it is placed, and images at the
  shop's pixel size;
- **ink** (PDF/X shops): no RGB left, total ink within the shop's limit;
- **PDF/X**: the version markers, the output intent and no transparency.

Findings are plain records; the build words them as warnings (errors with ``--strict``)
and writes the report as text and JSON beside the files.
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass, field
from typing import Any

import pikepdf

from ..typesetting.shops import PRESS_DPI, ShopSpec
from ..typesetting.units import MM_PER_PT, PT_PER_MM
from .press import PDFX_VERSION, resource_values

SIZE_TOLERANCE_MM = 0.1
# The check measures glyphs' ink, and a descender on the last line or an italic's
# overhang reaches a little past the line box the layout keeps inside the safe area.
SAFE_TOLERANCE_MM = 0.35
BLEED_SAMPLES = 24  # points along each edge where the bleed is compared with the trim
BLEED_DIFFERENT = 60  # summed RGB difference past which a bleed pixel is not the art's
BLEED_SHARE = 0.25  # an edge whose bleed differs from its trim at more samples is unfilled
CHECKS = ("size", "bleed", "safe area", "fonts", "resolution", "ink", "PDF/X")



@dataclass
class Check:
    name: str
    ok: bool = True
    detail: str = ""  # what was measured, said either way
    findings: list[str] = field(default_factory=list)

    def fail(self, finding: str) -> None:
        self.ok = False
        if len(self.findings) < 20:  # a file wrong on every page says so 20 times, not 500
            self.findings.append(finding)


@dataclass
class FileReport:
    file: str  # relative to the output folder
    description: str
    checks: list[Check]

    @property
    def findings(self) -> int:
        return sum(len(check.findings) for check in self.checks)


def _check(checks: dict[str, Check], name: str) -> Check:
    return checks.setdefault(name, Check(name))


def _edges_filled(pixels: Any, width: int, height: int, bleed_px: float) -> list[str]:
    """The edges whose bleed does not carry the art at the trim on (``pixels``: an RGB
    PIL image of the whole page)."""
    inset = max(1, round(bleed_px))
    outer = max(0, round(bleed_px / 3))
    unfilled = []
    for edge in ("top", "bottom", "left", "right"):
        different = 0
        for i in range(BLEED_SAMPLES):
            t = (i + 0.5) / BLEED_SAMPLES
            if edge in ("top", "bottom"):
                x = min(width - 1, round(inset + t * (width - 2 * inset)))
                y_out = outer if edge == "top" else height - 1 - outer
                y_in = inset + 1 if edge == "top" else height - 2 - inset
                a, b = pixels.getpixel((x, y_out)), pixels.getpixel((x, y_in))
            else:
                y = min(height - 1, round(inset + t * (height - 2 * inset)))
                x_out = outer if edge == "left" else width - 1 - outer
                x_in = inset + 1 if edge == "left" else width - 2 - inset
                a, b = pixels.getpixel((x_out, y)), pixels.getpixel((x_in, y))
            if sum(abs(p - q) for p, q in zip(a, b, strict=False)) > BLEED_DIFFERENT:
                different += 1
        if different > BLEED_SHARE * BLEED_SAMPLES:
            unfilled.append(edge)
    return unfilled


def _fonts(pdf: pikepdf.Pdf) -> tuple[int, list[str]]:
    """How many fonts the file uses, and the names of those not embedded."""
    seen: set[tuple[int, int]] = set()
    count, missing = 0, []

    def visit(resources: Any) -> None:
        nonlocal count
        if resources is None:
            return
        for font in resource_values(resources, "/Font"):
            if font.objgen in seen:
                continue
            seen.add(font.objgen)
            count += 1
            if font.get("/Subtype") == pikepdf.Name.Type3:
                visit(font.get("/Resources"))  # its glyphs are drawings: nothing to embed
                continue
            described = font.DescendantFonts[0] if "/DescendantFonts" in font else font
            descriptor = described.get("/FontDescriptor", {})
            if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                missing.append(str(font.get("/BaseFont", "?")).lstrip("/"))
        for xobject in resource_values(resources, "/XObject"):
            if xobject.objgen not in seen and xobject.get("/Subtype") == pikepdf.Name.Form:
                seen.add(xobject.objgen)
                visit(xobject.get("/Resources"))
        for pattern in resource_values(resources, "/Pattern"):
            if pattern.objgen not in seen and pattern.get("/PatternType") == 1:
                seen.add(pattern.objgen)
                visit(pattern.get("/Resources"))

    for page in pdf.pages:
        visit(page.obj.get("/Resources"))
    return count, missing


def _colour(pdf: pikepdf.Pdf, limit: float | None) -> tuple[float, list[str], list[str]]:
    """The highest total ink of any CMYK colour drawn (1.0 = 100%), what is still RGB, and
    what is translucent."""
    highest = 0.0
    rgb: list[str] = []
    translucent: list[str] = []
    seen: set[tuple[int, int]] = set()

    def ink(values: Any, where: str) -> None:
        nonlocal highest
        numbers = [float(v) for v in values]
        if len(numbers) == 4:
            highest = max(highest, sum(numbers))

    def stream(owner: Any, where: str) -> None:
        for instruction in pikepdf.parse_content_stream(owner):
            if isinstance(instruction, pikepdf.ContentStreamInlineImage):
                continue
            operands, op = instruction.operands, str(instruction.operator)
            if op in ("k", "K"):
                ink(operands, where)
            elif where not in rgb and (
                op in ("rg", "RG") or (op in ("cs", "CS") and str(operands[0]) == "/DeviceRGB")
            ):
                rgb.append(where)
        if "/Group" in owner and where not in translucent:
            translucent.append(f"{where} (transparency group)")
        visit(owner.get("/Resources"), where)

    def function(fn: Any, where: str) -> None:
        if fn.get("/FunctionType") == 3:
            for part in fn.Functions:
                function(part, where)
        for end in ("/C0", "/C1"):
            if end in fn:
                ink(fn[end], where)

    def visit(resources: Any, where: str) -> None:
        if resources is None:
            return
        for state in resource_values(resources, "/ExtGState"):
            alpha = min(float(state.get("/ca", 1)), float(state.get("/CA", 1)))
            mask = state.get("/SMask", pikepdf.Name.None_)
            if (alpha < 1 or mask != pikepdf.Name.None_) and where not in translucent:
                translucent.append(where)
        for kind in ("/XObject", "/Pattern", "/Shading"):
            for thing in resource_values(resources, kind):
                if thing.objgen in seen:
                    continue
                seen.add(thing.objgen)
                shading = thing.get("/Shading", thing)
                if thing.get("/Subtype") == pikepdf.Name.Form or thing.get("/PatternType") == 1:
                    stream(thing, where)
                elif thing.get("/Subtype") == pikepdf.Name.Image:
                    space = thing.get("/ColorSpace")
                    if space != pikepdf.Name.DeviceCMYK and space != pikepdf.Name.DeviceGray:
                        rgb.append(f"{where} (a picture)")
                    if "/SMask" in thing:
                        translucent.append(f"{where} (a picture's mask)")
                elif "/ColorSpace" in shading:
                    if shading.ColorSpace == pikepdf.Name.DeviceRGB:
                        rgb.append(f"{where} (a gradient)")
                    if "/Function" in shading:
                        function(shading.Function, where)

    for number, page in enumerate(pdf.pages, start=1):
        stream(page.obj, f"page {number}")
    return highest, rgb, translucent


def check_pdf(data: bytes, shop: ShopSpec, name: str) -> FileReport:
    """Every check a shop's PDF must pass; ``name`` is how the report names the file."""
    import pypdfium2

    checks: dict[str, Check] = {check: Check(check) for check in CHECKS}
    width_mm, height_mm = shop.page_mm
    bleed_pt = shop.bleed_mm * PT_PER_MM
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pages = len(pdf.pages)
        for number, page in enumerate(pdf.pages, start=1):
            left, bottom, right, top = (float(v) for v in page.mediabox)
            w, h = (right - left) * MM_PER_PT, (top - bottom) * MM_PER_PT
            if abs(w - width_mm) > SIZE_TOLERANCE_MM or abs(h - height_mm) > SIZE_TOLERANCE_MM:
                checks["size"].fail(
                    f"page {number} is {w:.2f} x {h:.2f} mm, not {width_mm:.2f} x {height_mm:.2f}"
                )
            if "/TrimBox" not in page.obj or "/BleedBox" not in page.obj:
                checks["bleed"].fail(f"page {number} has no TrimBox or BleedBox")
                continue
            trim = [float(v) for v in page.obj.TrimBox]
            bleed = [float(v) for v in page.obj.BleedBox]
            margins = [trim[0] - bleed[0], trim[1] - bleed[1]]
            margins += [bleed[2] - trim[2], bleed[3] - trim[3]]
            if min(margins) < bleed_pt - 0.05:
                checks["bleed"].fail(
                    f"page {number}: the bleed is {min(margins) * MM_PER_PT:.2f} mm on one edge,"
                    f" not {shop.bleed_mm:.2f}"
                )
        fonts, unembedded = _fonts(pdf)
        for font in unembedded:
            checks["fonts"].fail(f"{font} is not embedded")
        checks["fonts"].detail = f"{fonts} fonts"
        if shop.pdfx:
            _check_pdfx(pdf, shop, checks)
        else:
            checks["ink"].detail = "RGB: the shop converts its images itself"
            checks["PDF/X"].detail = "not asked for by this shop"
    checks["size"].detail = f"{pages} pages of {width_mm:.2f} x {height_mm:.2f} mm"
    _check_drawn(pypdfium2.PdfDocument(data), shop, checks)
    trim_w, trim_h = shop.trim_mm
    description = (
        f"{pages} pages, each a {trim_w:g} x {trim_h:g} mm card with {shop.bleed_mm:.2f} mm"
        " bleed, each front followed by its back"
    )
    return FileReport(name, description, list(checks.values()))


def _check_pdfx(pdf: pikepdf.Pdf, shop: ShopSpec, checks: dict[str, Check]) -> None:
    marks = checks["PDF/X"]
    if str(pdf.docinfo.get("/GTS_PDFXVersion", "")) != PDFX_VERSION:
        marks.fail(f"the document information does not say {PDFX_VERSION}")
    with pdf.open_metadata() as meta:
        if meta.get("pdfxid:GTS_PDFXVersion") != PDFX_VERSION:
            marks.fail(f"the XMP metadata does not say {PDFX_VERSION}")
    intents: Any = pdf.Root.get("/OutputIntents", [])
    if not any(
        intent.get("/S") == pikepdf.Name.GTS_PDFX and "/OutputConditionIdentifier" in intent
        for intent in intents
    ):
        marks.fail("no PDF/X output intent")
    if pdf.docinfo.get("/Trapped") not in (pikepdf.Name("/False"), pikepdf.Name("/True")):
        marks.fail("Trapped is not set to True or False")
    if str(pdf.pdf_version) > "1.4":
        marks.fail(f"PDF {pdf.pdf_version}: PDF/X-1a:2003 is PDF 1.4 at most")
    highest, rgb, translucent = _colour(pdf, shop.ink_limit)
    for where in translucent:
        marks.fail(f"{where}: transparency, which PDF/X-1a does not allow")
    marks.detail = f"{PDFX_VERSION}, output intent {shop.condition}"
    colour = checks["ink"]
    for where in rgb:
        colour.fail(f"{where}: RGB colour in a CMYK file")
    limit = (shop.ink_limit or 400) / 100
    if highest > limit + 0.005:
        colour.fail(f"total ink reaches {highest:.0%}, over the shop's {limit:.0%}")
    colour.detail = f"CMYK, highest total ink {highest:.0%} (limit {limit:.0%})"


def _check_drawn(document: Any, shop: ShopSpec, checks: dict[str, Check]) -> None:
    """What needs the page drawn or its text placed: the bleed's fill, the safe area,
    pictures' resolution."""
    import pypdfium2.raw as raw

    safe = (shop.bleed_mm + shop.safe_mm - SAFE_TOLERANCE_MM) * PT_PER_MM
    pictures = 0
    lowest: float | None = None
    try:
        for number, page in enumerate(document, start=1):
            width, height = page.get_size()
            text = page.get_textpage()
            outside = 0
            for index in range(text.count_chars()):
                if text.get_text_range(index, 1).isspace():
                    continue
                x0, y0, x1, y1 = text.get_charbox(index)
                if x0 < safe or y0 < safe or x1 > width - safe or y1 > height - safe:
                    outside += 1
            if outside:
                checks["safe area"].fail(
                    f"page {number}: {outside} characters outside the safe area"
                )
            for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=8):
                pictures += 1
                meta = obj.get_metadata()
                dpi = min(meta.horizontal_dpi, meta.vertical_dpi)
                lowest = dpi if lowest is None else min(lowest, dpi)
                if dpi < PRESS_DPI - 1:
                    checks["resolution"].fail(f"page {number}: a picture at {dpi:.0f} dpi")
            # A point a pixel is enough to see a white strip.
            image = page.render(scale=1).to_pil().convert("RGB")
            unfilled = _edges_filled(image, image.width, image.height, shop.bleed_mm * PT_PER_MM)
            if unfilled:
                checks["bleed"].fail(
                    f"page {number}: the bleed is not filled on the {', '.join(unfilled)} edge"
                )
    finally:
        document.close()
    checks["safe area"].detail = f"text at least {shop.safe_mm:.2f} mm inside the trim"
    checks["bleed"].detail = f"{shop.bleed_mm:.2f} mm on every edge, filled with the card's art"
    checks["resolution"].detail = (
        "no pictures" if not pictures else f"{pictures} pictures, the lowest at {lowest:.0f} dpi"
    )


def check_images(images: dict[str, bytes], shop: ShopSpec, name: str) -> FileReport:
    """A deck's faces as images (``name`` their folder): pixel size, resolution and the
    bleed's fill of each (their text was checked in the PDF they were drawn from)."""
    from PIL import Image

    checks = {check: Check(check) for check in ("size", "resolution", "bleed")}
    want = shop.images
    for file, data in images.items():
        with Image.open(io.BytesIO(data)) as picture:
            size = picture.size
            dpi = round(float(picture.info.get("dpi", (0, 0))[0]))
            rgb = picture.convert("RGB")
        if want is not None and size != want:
            checks["size"].fail(f"{file}: {size[0]} x {size[1]} px, not {want[0]} x {want[1]}")
        if dpi < PRESS_DPI:
            checks["resolution"].fail(f"{file}: marked {dpi} dpi, not {PRESS_DPI}")
        unfilled = _edges_filled(rgb, size[0], size[1], shop.bleed_mm / 25.4 * PRESS_DPI)
        if unfilled:
            edges = ", ".join(unfilled)
            checks["bleed"].fail(f"{file}: the bleed is not filled on the {edges} edge")
    if want is not None:
        checks["size"].detail = f"{want[0]} x {want[1]} px each"
    checks["resolution"].detail = f"{PRESS_DPI} dpi"
    checks["bleed"].detail = f"{shop.bleed_mm:.2f} mm on every edge, filled with the card's art"
    return FileReport(name, f"{len(images)} images", list(checks.values()))


def report_text(shop: ShopSpec, files: list[FileReport]) -> str:
    lines = [f"Preflight for {shop.title}", ""]
    for report in files:
        lines.append(f"{report.file}: {report.description}")
        for check in report.checks:
            lines.append(f"  {'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
            lines += [f"        {finding}" for finding in check.findings]
    total = sum(report.findings for report in files)
    lines += ["", f"{total} finding{'s' if total != 1 else ''} in {len(files)} files"]
    return "\n".join(lines) + "\n"


def report_json(shop: ShopSpec, files: list[FileReport]) -> dict[str, Any]:
    return {
        "shop": shop.name,
        "title": shop.title,
        "trim_mm": list(shop.trim_mm),
        "bleed_mm": round(shop.bleed_mm, 3),
        "safe_mm": round(shop.safe_mm, 3),
        "findings": sum(report.findings for report in files),
        "files": [
            {
                "file": report.file,
                "description": report.description,
                "checks": [asdict(check) for check in report.checks],
            }
            for report in files
        ],
    }


__all__ = ["FileReport", "check_images", "check_pdf", "report_json", "report_text"]
