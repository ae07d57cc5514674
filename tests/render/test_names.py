"""File names for names in every script: readable Latin stems, still safe and stable."""

from __future__ import annotations

import pytest

from scratchpress.render.names import slug, unique_stems


@pytest.mark.parametrize(
    ("name", "stem"),
    [
        ("王小明", "wang-xiao-ming"),
        ("김민준", "gim-min-jun"),
        ("Αλέξανδρος Κωνσταντίνου", "alexandros-konstantinoy"),
        ("Алексей Смирнов", "aleksey-smirnov"),
        ("Nguyễn Văn An", "nguyen-van-an"),
        ("Łukasz Żółw", "lukasz-zolw"),
        ("Straße", "strasse"),
        ("محمد علي", "mhmd-ly"),
        ("Teodora Vance", "teodora-vance"),
    ],
)
def test_every_script_gets_a_readable_stem(name: str, stem: str) -> None:
    assert slug(name) == stem


def test_names_that_romanise_alike_still_get_their_own_files() -> None:
    stems = unique_stems(["Алекс", "Aleks"], "sheet-")
    assert len(set(stems.values())) == 2
    assert all(s.startswith("sheet-aleks-") for s in stems.values())
    assert stems == unique_stems(["Алекс", "Aleks"], "sheet-")  # the same next run


def test_symbols_in_a_name_are_left_out_of_its_file_name() -> None:
    assert slug("Ann ☃") == "ann"
    assert slug("🐉 Dragon") == "dragon"
