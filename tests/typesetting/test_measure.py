"""Measuring text as WeasyPrint will set it: advance widths in the bundled faces, and the
lines a text takes in a box. The faces come from typesetting/fonts.py."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from scratchpress.resources import fonts_dir
from scratchpress.typesetting.fonts import (
    FACE_FILES,
    FACES,
    family_and_style,
    font_package_for,
)
from scratchpress.typesetting.measure import lines_for, text_width_mm, wrapped_lines
from scratchpress.typesetting.units import MM_PER_PT


def _advance_mm(file: str, text: str, size_pt: float) -> float:
    """The width from the font's own tables, read without PIL: the sum of the advances."""
    font = TTFont(str(fonts_dir() / file))
    cmap, metrics = font.getBestCmap(), font["hmtx"]
    units = sum(metrics[cmap[ord(char)]][0] for char in text)
    return units / font["head"].unitsPerEm * size_pt * MM_PER_PT


def test_every_named_face_is_bundled() -> None:
    files = set(FACES.values()) | {f for styles in FACE_FILES.values() for f in styles.values()}
    missing = [file for file in files if not (fonts_dir() / file).is_file()]
    assert missing == []
    assert family_and_style(FACES["sans-bold"]) == ("Lato", "bold")
    with pytest.raises(KeyError):
        family_and_style("Comic-Sans.ttf")


@pytest.mark.parametrize("face", ["sans-bold", "serif-italic", "display"])
def test_a_width_is_the_sum_of_the_faces_advances(face: str) -> None:
    # "III" has no kerning pair in our faces, so the advances add up exactly.
    expected = _advance_mm(FACES[face], "III", 10.0)
    assert text_width_mm("III", FACES[face], 10.0) == pytest.approx(expected, abs=0.01)
    # Twice the size, twice the width; tracking adds its ems after every character.
    assert text_width_mm("III", FACES[face], 20.0) == pytest.approx(2 * expected, abs=0.02)
    tracked = text_width_mm("III", FACES[face], 10.0, 0.1)
    assert tracked == pytest.approx(expected + 3 * 0.1 * 10 * MM_PER_PT, abs=0.01)


def test_a_known_width_in_a_bundled_face() -> None:
    # Lato Bold's "M" advances 1,890 of its 2,000 units to the em: 9.45 pt at 10 pt.
    assert text_width_mm("M", "Lato-Bold.ttf", 10.0) == pytest.approx(3.334, abs=0.001)


def test_lines_break_at_spaces_like_the_renderer() -> None:
    face, size = FACES["serif"], 9.0
    word = text_width_mm("lantern", face, size)
    space = text_width_mm(" ", face, size)
    assert wrapped_lines("", face, size, 50.0) == 0
    assert wrapped_lines("", face, size, 50.0, indent_mm=3.0) == 1  # the name before it
    assert wrapped_lines("lantern lantern", face, size, 2 * word + space + 0.01) == 1
    assert wrapped_lines("lantern lantern", face, size, 2 * word + space - 0.01) == 2
    # An indent takes room on the first line only.
    assert wrapped_lines("lantern", face, size, word + 0.01, indent_mm=1.0) == 2
    # Runs of white space are one space.
    assert wrapped_lines("lantern \n  lantern", face, size, 2 * word + space + 0.01) == 1


def test_a_word_longer_than_the_line_is_broken_anywhere() -> None:
    face, size = FACES["serif"], 9.0
    long = "x" * 40
    width = text_width_mm(long, face, size)
    assert wrapped_lines(long, face, size, width / 2.5) == 3


def test_rows_for_a_count() -> None:
    assert lines_for(11, 11) == 1
    assert lines_for(12, 11) == 2
    assert lines_for(0, 11) == 1  # an empty track still takes its row
    assert lines_for(0, 30, empty=0) == 0  # an empty text takes none


def test_chinese_japanese_and_korean_come_from_the_debian_package() -> None:
    assert font_package_for("王") == "fonts-noto-cjk"
    assert font_package_for("한") == "fonts-noto-cjk"
    assert font_package_for("A") is None
    assert font_package_for("Ж") is None


def test_a_display_title_is_set_whole_in_the_face_that_has_all_its_letters() -> None:
    from scratchpress.typesetting.measure import display_face

    # Bebas Neue has Latin and Cyrillic, Á but not Vietnamese's Ễ, and no Greek at all.
    assert display_face("Alexandra Petrova") == "BebasNeue-Regular.otf"
    assert display_face("Александра Петрова") == "BebasNeue-Regular.otf"
    assert display_face("Nguyễn Thị Ánh Tuyết") == "NotoSansDisplay-ExtraCondensed.ttf"
    assert display_face("Αλέξανδρος Παπαδόπουλος") == "NotoSansDisplay-ExtraCondensed.ttf"
    # An emoji is no letter: it falls back on its own and leaves the title in Bebas Neue.
    assert display_face("Ballast 🎲") == "BebasNeue-Regular.otf"


def test_a_control_character_in_a_name_takes_no_room_and_does_not_stop_the_measure() -> None:
    # U+001E in a stranger's YAML made raqm's layout fail and the build crash.
    from scratchpress.typesetting.measure import text_width_mm

    assert text_width_mm("ab\x1ecd", "Lato-Regular.ttf", 9) == text_width_mm(
        "abcd", "Lato-Regular.ttf", 9
    )
