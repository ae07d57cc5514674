"""The faces we render with: only ours, a fallback for every script, measured as drawn."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from cjk_faces import a_cjk_collection, fontconfig_for
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from typer.testing import CliRunner

from scratchpress.cli.app import app
from scratchpress.render.fonts import confine_fonts, missing_font_packages
from scratchpress.resources import fonts_dir
from scratchpress.typesetting import measure
from scratchpress.typesetting.fonts import (
    CJK_FAMILIES,
    FALLBACKS,
    SYSTEM_FONT_SCRIPTS,
    USER_FONTCONFIG,
    system_fonts,
)

BUNDLED = sorted(p for p in fonts_dir().iterdir() if p.suffix in {".ttf", ".otf"})


def _families(path: Path) -> set[str]:
    font = TTFont(str(path), lazy=True)
    names = {font["name"].getDebugName(i) for i in (1, 16)} - {None}
    font.close()
    return {str(name) for name in names}


def test_fontconfig_sees_our_faces_and_nothing_else_of_the_machine() -> None:
    if shutil.which("fc-list") is None:
        pytest.skip("fc-list (Debian fontconfig) is not installed")
    config = confine_fonts()
    listed = subprocess.run(
        ["fc-list", "--format", "%{file}\n"],
        env={**os.environ, "FONTCONFIG_FILE": str(config)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    allowed = {str(p) for p in BUNDLED} | {str(p) for _, p in system_fonts()}
    assert set(listed) - allowed == set()
    assert {str(p) for p in BUNDLED} <= set(listed)


def test_every_family_a_fallback_chain_names_is_a_face_we_have() -> None:
    bundled = set().union(*(_families(p) for p in BUNDLED))
    assert "fonts-noto-cjk" in SYSTEM_FONT_SCRIPTS  # the system's, found where it keeps them
    named = {family for chain in FALLBACKS.values() for family in chain}
    assert named - bundled - CJK_FAMILIES == set()


# Han characters whose Japanese and Simplified Chinese shapes differ.
JAPANESE_SHAPED = "直骨"
RENDER_BY_LANGUAGE = """
import json, sys, io
import pikepdf
from scratchpress.typesetting import fonts
fonts.DEBIAN_CJK = ()  # only what fontconfig finds
from scratchpress.render.engine import render_pdf
from scratchpress.render.fonts import confine_fonts
from scratchpress.resources import templates_dir
embedded = {}
for lang in sys.argv[1:]:
    html = (  # each family with its generic after it, as the templates set them
        f"<html lang='{lang}'><p style='font-family: Lato, sans-serif'>Ab HAN</p>"
        "<p style='font-family: \\"Charis SIL\\", serif'>Ab HAN</p></html>"
    )
    with pikepdf.open(io.BytesIO(render_pdf(html, templates_dir(), []).pdf)) as pdf:
        font = pdf.pages[0].Resources.Font
        embedded[lang] = sorted(str(font[name].BaseFont) for name in font.keys())
found = [str(path) for path in fonts.cjk_font_files()]
print(json.dumps({"found": found, "config": confine_fonts().read_text(), **embedded}))
""".replace("HAN", JAPANESE_SHAPED)


def test_a_cjk_face_found_through_fontconfig_draws_each_language_in_its_shapes(
    tmp_path: Path,
) -> None:
    # A user whose fontconfig keeps the CJK faces somewhere of its own (not Debian's path):
    # the build finds them there, confines rendering to exactly that file, and a Japanese
    # page takes the collection's Japanese face where Chinese takes the Simplified one.
    folder = tmp_path / "cjkfonts"
    folder.mkdir()
    copy = folder / "NotoSansCJK-Regular.ttc"
    shutil.copyfile(a_cjk_collection(), copy)
    env = {**os.environ, "FONTCONFIG_FILE": str(fontconfig_for(folder, tmp_path))}
    env.pop(USER_FONTCONFIG, None)
    result = subprocess.run(
        [sys.executable, "-c", RENDER_BY_LANGUAGE, "ja", "zh", "en"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["found"] == [str(copy)]
    assert f"<acceptfont><glob>{copy}</glob></acceptfont>" in out["config"]
    cjk = {lang: [name for name in out[lang] if "CJK" in name] for lang in ("ja", "zh", "en")}
    # One face each, of the copied collection's weight ("Noto-Sans-CJK-JP" or "-JP-Bold"),
    # for the serif paragraph too: the sans collection is the serif chain's last resort.
    assert len(cjk["ja"]) == 1 and "+Noto-Sans-CJK-JP" in cjk["ja"][0], out["ja"]
    assert len(cjk["zh"]) == 1 and "+Noto-Sans-CJK-SC" in cjk["zh"][0], out["zh"]
    assert cjk["en"] == cjk["zh"]  # no language to go by: the chains' Simplified Chinese


def test_every_bundled_face_can_be_measured() -> None:
    # A face added to fonts/ but not to the measuring table would be measured as another
    # face's missing-glyph boxes, and titles would be cut or overflow.
    for path in BUNDLED:
        assert measure.text_width_mm("Ab", path.name, 10) > 0, path.name


def test_greek_in_a_display_title_is_measured_in_the_face_that_draws_it() -> None:
    # Bebas Neue has no Greek: the whole title is set in the condensed fallback, so the band
    # must make room for its widths, not for Bebas Neue's missing-glyph boxes.
    greek = "ΦΎΛΑΚΕΣ"
    assert measure.text_width_mm(greek, "BebasNeue-Regular.otf", 15) == pytest.approx(
        measure.text_width_mm(greek, "NotoSansDisplay-ExtraCondensed.ttf", 15)
    )
    # A title mixing Latin and Greek is set whole in the fallback too, Latin letters and all.
    mixed = measure.text_width_mm("AB ΦΎ", "BebasNeue-Regular.otf", 15)
    assert mixed == pytest.approx(
        measure.text_width_mm("AB ΦΎ", "NotoSansDisplay-ExtraCondensed.ttf", 15)
    )


def test_han_characters_are_a_full_em_each_when_the_cjk_faces_are_installed() -> None:
    if not any(p == "fonts-noto-cjk" for p, _ in system_fonts()):
        pytest.skip("needs CJK faces (Debian's fonts-noto-cjk or the like)")
    em_mm = 10 * 25.4 / 72
    assert measure.text_width_mm("王小明", "Lato-Regular.ttf", 10) == pytest.approx(3 * em_mm)


# -------------------- formerly tests/render/test_every_script.py
# Every name prints: a campaign written in twelve scripts builds with real glyphs.
#
# The fixture campaign (tests/fixtures/every-script) has a character for each script the
# printables promise: Vietnamese and Polish diacritics, Greek, Cyrillic, Arabic and Hebrew
# (right to left, with Latin digits), Devanagari, Thai, Chinese, Japanese, Korean and emoji,
# each in its name, player, group, description and notes, plus a vehicle, a community and a
# booklet chapter. The build must pass ``--strict`` with no missing-glyph warning, and the
# PDFs must not draw a single missing glyph: every glyph a content stream shows is a real
# outline of the font embedded for it.

CAMPAIGN = Path(__file__).resolve().parents[1] / "fixtures" / "every-script"
runner = CliRunner()

needs_cjk_fonts = pytest.mark.skipif(
    "fonts-noto-cjk" in missing_font_packages(),
    reason="Chinese, Japanese and Korean need CJK faces (.ci/install adds fonts-noto-cjk)",
)


@pytest.fixture(scope="module")
def every_script(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("every-script") / "out"
    result = runner.invoke(app, ["build", str(CAMPAIGN), "-o", str(out), "--strict"])
    return out, result.output + f"\nexit {result.exit_code}"


# ------------------------------------------------------------------------------------------
# Reading the glyphs a PDF draws


def _to_unicode(font: Any) -> dict[int, str]:
    """Glyph id -> text, from the font's ToUnicode CMap (WeasyPrint writes bfchar pairs)."""
    if "/ToUnicode" not in font:
        return {}
    cmap = font.ToUnicode.read_bytes().decode("latin-1")
    found: dict[int, str] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.DOTALL):
        for gid, text in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            found[int(gid, 16)] = bytes.fromhex(text).decode("utf-16-be", "replace")
    return found


class _Face:
    """The font program embedded for one PDF font, and which of its glyphs have outlines."""

    def __init__(self, font: Any) -> None:
        descendant = font.DescendantFonts[0]
        self.name = str(descendant.BaseFont)
        descriptor = descendant.FontDescriptor
        stream = descriptor.get("/FontFile2") or descriptor.get("/FontFile3")
        self.font = TTFont(io.BytesIO(stream.read_bytes()))
        self.text = _to_unicode(font)

    def drawn(self, gid: int) -> bool:
        order = self.font.getGlyphOrder()
        if gid == 0 or gid >= len(order):
            return False
        if "glyf" in self.font:
            glyph = self.font["glyf"][order[gid]]
            return bool(glyph.numberOfContours)  # composites are -1, empty glyphs 0
        top = self.font["CFF "].cff.topDictIndex[0]
        charstring = top.CharStrings[order[gid]]
        charstring.decompile()
        return any(
            op in charstring.program
            for op in (
                "rlineto",
                "rrcurveto",
                "rmoveto",
                "hlineto",
                "vlineto",
                "hmoveto",
                "vmoveto",
                "hvcurveto",
                "vhcurveto",
                "rcurveline",
                "rlinecurve",
                "hhcurveto",
                "vvcurveto",
                "flex",
                "hflex",
                "hflex1",
                "flex1",
            )
        )


def _strings(operands: list[Any]) -> list[bytes]:
    found: list[bytes] = []
    for operand in operands:
        if isinstance(operand, pikepdf.String):
            found.append(bytes(operand))
        elif isinstance(operand, pikepdf.Array):
            found += _strings(list(operand))
    return found


def undrawn_glyphs(path: Path) -> list[str]:
    """'page 2, Noto-Serif, glyph 0 for "x"' for every glyph shown that has no outline
    (glyph 0 is .notdef; WeasyPrint draws a missing character as an empty unused glyph).
    Whitespace, which has no outline by nature, is left out."""
    problems: list[str] = []
    faces: dict[tuple[int, int], _Face] = {}

    def walk(content: Any, resources: Any, page: int, seen: set[tuple[int, int]]) -> None:
        fonts = resources.get("/Font", {})
        face: _Face | None = None
        for operands, operator in pikepdf.parse_content_stream(content):
            op = str(operator)
            if op == "Tf":
                font = fonts[operands[0]]
                key = font.objgen
                if key not in faces:
                    faces[key] = _Face(font)
                face = faces[key]
            elif op in {"Tj", "TJ", "'", '"'} and face is not None:
                for raw in _strings(list(operands)):
                    for i in range(0, len(raw) - 1, 2):
                        gid = int.from_bytes(raw[i : i + 2], "big")
                        text = face.text.get(gid, "")
                        if text.strip() and not face.drawn(gid):
                            problems.append(f"page {page}, {face.name}, glyph {gid} for {text!r}")
            elif op == "Do":
                xobject = resources.XObject[operands[0]]
                if xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                    walk(
                        xobject, xobject.get("/Resources", resources), page, seen | {xobject.objgen}
                    )

    with pikepdf.open(path) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            walk(page, page.Resources, number, set())
    return problems


# ------------------------------------------------------------------------------------------
# The campaign


@needs_cjk_fonts
def test_the_campaign_builds_strictly_with_no_missing_glyph(every_script: tuple[Path, str]) -> None:
    _, output = every_script
    assert output.endswith("exit 0"), output
    assert "no font draws" not in output
    assert "Traceback" not in output


@needs_cjk_fonts
def test_no_pdf_draws_a_glyph_its_font_does_not_have(every_script: tuple[Path, str]) -> None:
    out, _ = every_script
    pdfs = sorted(out.glob("*.pdf"))
    assert len(pdfs) >= 15
    problems = {pdf.name: undrawn_glyphs(pdf) for pdf in pdfs}
    assert {name: found[:5] for name, found in problems.items() if found} == {}


@needs_cjk_fonts
def test_the_checker_sees_a_missing_glyph(tmp_path: Path) -> None:
    # The test above passes only if the checker can fail: a character no face has
    # (Ethiopic) is drawn by WeasyPrint as an empty glyph, and the checker says so.
    from scratchpress.render.engine import render_pdf
    from scratchpress.resources import templates_dir

    pdf = render_pdf("<p style='font-family: Lato'>A ሰላም</p>", templates_dir(), []).pdf
    path = tmp_path / "missing.pdf"
    path.write_bytes(pdf)
    assert [p.split(" for ")[1] for p in undrawn_glyphs(path)] == ["'ሰ'", "'ላ'", "'ም'"]


NAMES = {
    "sheet-nguyen-thi-hang.pdf": ["Nguyễn Thị Hằng", "Trần Quốc Bảo"],
    "sheet-lukasz-zolkiewski.pdf": ["Łukasz Żółkiewski", "Straż Źródła"],
    "sheet-alexandros-konstantinoy.pdf": ["Αλέξανδρος Κωνσταντίνου", "κολυμπά κάτω από τον πάγο"],
    "sheet-anna-kuznetsova.pdf": ["Анна Кузнецова", "Речная стража"],
    # Only the first word: WeasyPrint gives a glyph the text of its first use, so a conjunct
    # glyph met again in another cluster (the reph of शर्मा) copies out wrong, though it
    # prints right (looked at). The glyph check above covers what prints.
    "sheet-arjun-srma.pdf": ["अर्जुन"],
    "sheet-wang-xiao-ming.pdf": ["王小明", "用铁丝和耐心修好一切"],
    "sheet-sa-ku-ra-tian-zhong.pdf": ["さくら", "田中", "カタカナもひらがなも読める"],
    "sheet-gim-min-jun.pdf": ["김민준", "이서연"],
    "sheet-fox-redtail.pdf": ["🦊", "🎲", "🔥"],
    # Display titles in Bebas Neue, whose missing Greek comes from Lato, still fit the band.
    "initiative-cards.pdf": ["ΦΎΛΑΚΕΣ", "Αλέξανδρος", "王小明", "김민준"],
}


@needs_cjk_fonts
@pytest.mark.parametrize(("filename", "words"), NAMES.items(), ids=list(NAMES))
def test_each_sheet_carries_its_name_as_text(
    every_script: tuple[Path, str], filename: str, words: list[str]
) -> None:
    out, _ = every_script
    text = "".join(page.extract_text() for page in PdfReader(out / filename).pages)
    for word in words:
        assert word in text, f"{word!r} not in {filename}"


@needs_cjk_fonts
def test_right_to_left_names_keep_their_letters(every_script: tuple[Path, str]) -> None:
    # Extraction order of right-to-left text varies between readers; the letters and the
    # Latin digits beside them must all be there.
    out, _ = every_script
    for filename, letters in {
        "sheet-ly-hsn.pdf": set("علي حسن") | set("12"),
        "sheet-dvd-lvy.pdf": set("דוד לוי") | {"3"},
    }.items():
        text = "".join(page.extract_text() for page in PdfReader(out / filename).pages)
        assert letters - set(text) == set(), filename


@needs_cjk_fonts
def test_the_same_campaign_prints_the_same_bytes(
    every_script: tuple[Path, str], tmp_path: Path
) -> None:
    out, _ = every_script
    again = tmp_path / "again"
    copy = tmp_path / "campaign"
    shutil.copytree(CAMPAIGN, copy)
    result = runner.invoke(
        app, ["build", str(copy), "-o", str(again), "--only", "initiative,booklets", "--no-cache"]
    )
    assert result.exit_code == 0, result.output
    for pdf in sorted(again.glob("*.pdf")):
        assert pdf.read_bytes() == (out / pdf.name).read_bytes(), pdf.name


# ------------------------------------------------------------------------------------------
# Display titles in every script (issue 25): a name Bebas Neue cannot set whole is set whole
# in the condensed fallback, in capitals, on one line, with no missing glyph.

TITLES = {
    "vietnamese": "Nguyễn Thị Ánh Tuyết",
    "greek": "Αλέξανδρος Παπαδόπουλος",
    "cyrillic": "Александра Петрова",
    "tamil": "கார்த்திகேயன்",
    "georgian": "ნინო ბერიძე",
}


@pytest.fixture(scope="module")
def titled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("titles")
    campaign = folder / "campaign"
    campaign.mkdir()
    (campaign / "scratchpress.toml").write_text('rules = "current"\ncp = 10\nmax_level = 4\n')
    party = "characters:\n" + "".join(
        f"  - name: {name}\n    abilities: {{toughness: 2}}\n" for name in TITLES.values()
    )
    (campaign / "party.yaml").write_text(party, encoding="utf-8")
    out = folder / "out"
    result = runner.invoke(
        app, ["build", str(campaign), "-o", str(out), "--only", "sheets,initiative", "--strict"]
    )
    return out, result.output + f"\nexit {result.exit_code}"


def _title_chars(pdf: Path, title: str) -> list[tuple[str, str, float]]:
    """(character, font, baseline) of the first run of the page's text that reads ``title``."""
    import pypdfium2
    import pypdfium2.raw as raw

    document = pypdfium2.PdfDocument(str(pdf))
    page = document[0]
    text = page.get_textpage()
    whole = text.get_text_range()
    # The text layer holds what was drawn; a title is drawn in capitals.
    start = whole.find(title)
    assert start >= 0, f"{title!r} not in {pdf.name}: {whole[:200]!r}"
    found = []
    buffer = (raw.ctypes.c_char * 256)()
    flags = raw.ctypes.c_int()
    for index in range(start, start + len(title)):
        raw.FPDFText_GetFontInfo(text.raw, index, buffer, 256, flags)
        font = buffer.value.decode("latin-1").split("+")[-1]
        x, y = raw.ctypes.c_double(), raw.ctypes.c_double()
        raw.FPDFText_GetCharOrigin(text.raw, index, x, y)
        found.append((whole[index], font, round(y.value, 1)))
    document.close()
    return found


@pytest.mark.parametrize("script", sorted(TITLES))
def test_a_title_in_any_script_prints_whole_in_one_face_in_capitals(
    titled: tuple[Path, str], script: str
) -> None:
    out, output = titled
    assert "exit 0" in output, output
    assert "no font draws" not in output
    name = TITLES[script]
    # Tamil's vowel sign ே is drawn before its consonant, and the text layer reads it back
    # out of order: the letters up to it are the test there.
    read = name.upper() if script != "tamil" else name[: name.index("\u0bc7") - 1]
    sheets = [p for p in out.glob("sheet-*.pdf") if read in _page_text(p)]
    assert len(sheets) == 1, f"no sheet titled {read!r}"
    for pdf in (sheets[0], out / "initiative-cards.pdf"):
        assert undrawn_glyphs(pdf) == []
        chars = [c for c in _title_chars(pdf, read) if not c[0].isspace()]
        faces = {font for _, font, _ in chars}
        assert len(faces) == 1, f"{pdf.name}: {name!r} set in {faces}"
        expected = "Bebas" if script == "cyrillic" else "Noto-Sans"
        assert next(iter(faces)).startswith(expected)
        baselines = {baseline for _, _, baseline in chars}
        assert len(baselines) == 1, f"{pdf.name}: {name!r} wraps"


def _page_text(pdf: Path) -> str:
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    text = document[0].get_textpage().get_text_range()
    document.close()
    return str(text)


BUILD_WITH_FONTCONFIG_ONLY = """
import sys
from scratchpress.typesetting import fonts
fonts.DEBIAN_CJK = ()  # as on Fedora, Arch or macOS: nothing at Debian's path
from scratchpress.cli.app import app
sys.exit(app(sys.argv[1:]))
"""


def _japanese_campaign(tmp_path: Path) -> Path:
    campaign = tmp_path / "kura"
    campaign.mkdir()
    (campaign / "scratchpress.toml").write_text('language = "ja"\n', encoding="utf-8")
    (campaign / "party.yaml").write_text(
        f"characters:\n  - name: 山田 {JAPANESE_SHAPED}\n"
        "    abilities: {toughness: 2, stealth: 2, detection: 1}\n",
        encoding="utf-8",
    )
    return campaign


def _build_japanese_sheet(campaign: Path, fontconfig_folder: Path, tmp_path: Path) -> None:
    """Build the campaign's sheet with a fontconfig that knows only ``fontconfig_folder``
    and nothing at Debian's path, then check that its labels are Japanese and its Han
    characters (the name's and the labels') are drawn in a face's Japanese shapes."""
    from scratchpress.wording import catalogue

    env = {**os.environ, "FONTCONFIG_FILE": str(fontconfig_for(fontconfig_folder, tmp_path))}
    env.pop(USER_FONTCONFIG, None)
    out = tmp_path / "out"
    result = subprocess.run(
        [sys.executable, "-c", BUILD_WITH_FONTCONFIG_ONLY, "build", str(campaign),
         "--only", "sheets", "--no-cache", "--strict", "-o", str(out)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    [sheet] = out.glob("sheet-*.pdf")
    with pikepdf.open(sheet) as pdf:
        assert pdf.Root.Lang == "ja"
    # Han and kana; punctuation shared by every script (the footer's "・") may come from
    # whichever face fontconfig offers first, and looks the same in each.
    shaped = {
        char: face
        for char, face in _fonts_by_char(sheet).items()
        if "\u3041" <= char <= "\u30fa" or "\u4e00" <= char <= "\u9fff"
    }
    assert set(JAPANESE_SHAPED) <= set(shaped) and len(shaped) > 10
    assert all("-CJK-JP" in face for face in shaped.values()), shaped
    text = PdfReader(sheet).pages[0].extract_text()
    assert f"山田 {JAPANESE_SHAPED}" in text
    assert catalogue("ja").gettext("stamina") in text


def test_a_japanese_campaign_prints_japanese_labels_and_shapes_from_a_face_fontconfig_found(
    tmp_path: Path,
) -> None:
    """A campaign with ``language = "ja"`` and a Japanese name, on a machine whose CJK face
    is only where its own fontconfig says."""
    folder = tmp_path / "cjkfonts"
    folder.mkdir()
    shutil.copyfile(a_cjk_collection(), folder / "NotoSansCJK-Regular.ttc")
    _build_japanese_sheet(_japanese_campaign(tmp_path), folder, tmp_path)


def test_a_campaign_brings_its_own_cjk_face_in_its_fonts_folder(tmp_path: Path) -> None:
    """On a machine with no CJK face at all, the GM puts one in the campaign's ``fonts/``
    folder, under a name of their own: it is known by the family names inside it."""
    campaign = _japanese_campaign(tmp_path)
    (campaign / "fonts").mkdir()
    shutil.copyfile(a_cjk_collection(), campaign / "fonts" / "our-face.ttc")
    nothing = tmp_path / "no-fonts-here"
    nothing.mkdir()
    _build_japanese_sheet(campaign, nothing, tmp_path)


def test_a_campaign_fonts_folder_gives_only_cjk_faces_that_are_inside_it(
    tmp_path: Path,
) -> None:
    from scratchpress.typesetting.fonts import campaign_cjk

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copyfile(a_cjk_collection(), outside / "face.ttc")
    folder = tmp_path / "campaign" / "fonts"
    (folder / "more").mkdir(parents=True)
    shutil.copyfile(a_cjk_collection(), folder / "more" / "face.ttc")
    (folder / "broken.otf").write_bytes(b"not a font")
    shutil.copyfile(fonts_dir() / "Lato-Regular.ttf", folder / "Lato-Regular.ttf")
    (folder / "link.ttc").symlink_to(outside / "face.ttc")
    assert campaign_cjk(folder) == ((folder / "more" / "face.ttc").resolve(),)


def _fonts_by_char(pdf: Path) -> dict[str, str]:
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(pdf)
    found: dict[str, str] = {}
    textpage = document[0].get_textpage()
    for index in range(textpage.count_chars()):
        name = ctypes.create_string_buffer(256)
        raw.FPDFText_GetFontInfo(textpage, index, name, 256, ctypes.byref(ctypes.c_int()))
        if b"CJK" in name.value:
            found.setdefault(chr(raw.FPDFText_GetUnicode(textpage, index)), name.value.decode())
    document.close()
    return found
