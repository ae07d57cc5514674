"""The faces we render with: only ours, a fallback for every script, measured as drawn."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from scratchpress import build
from scratchpress.documents.base import Document
from scratchpress.render import measure
from scratchpress.render.fonts import FALLBACKS, SYSTEM_FONTS, confine_fonts, system_fonts
from scratchpress.resources import fonts_dir

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
    cjk = {"Noto Sans CJK SC", "Noto Serif CJK SC"}  # in Debian's fonts-noto-cjk
    assert "fonts-noto-cjk" in SYSTEM_FONTS
    named = {family for chain in FALLBACKS.values() for family in chain}
    assert named - bundled - cjk == set()


def test_every_bundled_face_can_be_measured() -> None:
    # A face added to fonts/ but not to the measuring table would be measured as another
    # face's missing-glyph boxes, and titles would be cut or overflow.
    for path in BUNDLED:
        assert measure.text_width_mm("Ab", path.name, 10) > 0, path.name


def test_greek_in_a_display_title_is_measured_in_the_face_that_draws_it() -> None:
    # Bebas Neue has no Greek; Lato Black draws it (render/fonts.py), so the band must
    # make room for Lato Black's widths, not for Bebas Neue's missing-glyph boxes.
    greek = "ΦΎΛΑΚΕΣ"
    assert measure.text_width_mm(greek, "BebasNeue-Regular.otf", 15) == pytest.approx(
        measure.text_width_mm(greek, "Lato-Black.ttf", 15)
    )
    mixed = measure.text_width_mm("AB ΦΎ", "BebasNeue-Regular.otf", 15)
    parts = measure.text_width_mm("AB ", "BebasNeue-Regular.otf", 15) + measure.text_width_mm(
        "ΦΎ", "Lato-Black.ttf", 15
    )
    assert mixed == pytest.approx(parts)


def test_han_characters_are_a_full_em_each_when_the_cjk_faces_are_installed() -> None:
    if not any(p == "fonts-noto-cjk" for p, _ in system_fonts()):
        pytest.skip("needs Debian's fonts-noto-cjk")
    em_mm = 10 * 25.4 / 72
    assert measure.text_width_mm("王小明", "Lato-Regular.ttf", 10) == pytest.approx(3 * em_mm)


def _document(title: str) -> Document:
    return Document(
        kind="initiative",
        stem="initiative-cards",
        title=title,
        template="initiative/cards.html",
        context={},
    )


def test_characters_no_face_draws_make_one_warning_per_document() -> None:
    missing = {"Abebe ሰላም": ["ሰ", "ላ", "ም"], "Tifa ⴰ": ["ⴰ", "ሰ"]}
    problem = build._missing_glyph_problem(_document("Initiative cards"), missing)
    assert str(problem) == (
        "initiative-cards.pdf: warning: entry \"Initiative cards\": no font draws 4 characters "
        "(in Abebe ሰላም, Tifa ⴰ): 'ሰ' 'ላ' 'ም' 'ⴰ'"
    )
    one = build._missing_glyph_problem(_document("Initiative cards"), {"Abebe ሰላም": ["ሰ"]})
    assert one.entry == "Abebe ሰላም"
    assert "no font draws 1 character: 'ሰ'" in one.message


def test_without_the_cjk_faces_the_build_says_once_how_to_add_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(build, "missing_font_packages", lambda: ["fonts-noto-cjk"])
    hints = build._font_package_hints({"王小明": ["王", "小", "明"], "Ann ሰ": ["ሰ"]})
    assert hints == [
        "Chinese, Japanese and Korean print in boxes until Debian's fonts-noto-cjk is "
        "installed (sudo apt-get install fonts-noto-cjk); the build uses it when it is there"
    ]
    assert build._font_package_hints({"Ann ሰ": ["ሰ"]}) == []
