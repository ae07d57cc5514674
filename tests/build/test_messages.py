"""What a build says about its renders: one missing-glyph warning per document, naming the
entry, and how to add the faces that would draw the missing characters."""

from __future__ import annotations

import pytest

from scratchpress.build import messages
from scratchpress.documents.base import Document


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
    problem = messages.missing_glyph_problem(_document("Initiative cards"), missing)
    assert str(problem) == (
        'initiative-cards.pdf: warning: entry "Initiative cards": no font draws 4 characters '
        "(in Abebe ሰላም, Tifa ⴰ): 'ሰ' 'ላ' 'ም' 'ⴰ'"
    )
    one = messages.missing_glyph_problem(_document("Initiative cards"), {"Abebe ሰላም": ["ሰ"]})
    assert one.entry == "Abebe ሰላም"
    assert "no font draws 1 character: 'ሰ'" in one.message


def test_without_the_cjk_faces_the_build_says_once_how_to_add_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(messages, "missing_font_packages", lambda: ["fonts-noto-cjk"])
    hints = messages.font_package_hints({"王小明": ["王", "小", "明"], "Ann ሰ": ["ሰ"]})
    # One line for every entry (each document's missing-glyph warning names its own), saying
    # how on each system.
    assert len(hints) == 1
    assert hints[0].startswith("Chinese, Japanese and Korean print in boxes until their faces")
    for how in (
        "sudo apt install fonts-noto-cjk",
        "sudo dnf install google-noto-sans-cjk-fonts",
        "sudo pacman -S noto-fonts-cjk",
        "brew install --cask font-noto-sans-cjk",
        "on Windows download Noto Sans CJK",
    ):
        assert how in hints[0]
    assert messages.font_package_hints({"Ann ሰ": ["ሰ"]}) == []


def test_a_missing_glyph_in_a_name_names_the_entry_and_its_name_field() -> None:
    # An initiative card marks its entry with the character's name (cards.html).
    problem = messages.missing_glyph_problem(_document("Initiative cards"), {"Abebe ሰላም": ["ሰ"]})
    assert str(problem) == (
        'initiative-cards.pdf: warning: entry "Abebe ሰላም": name: no font draws 1 character: \'ሰ\''
    )
