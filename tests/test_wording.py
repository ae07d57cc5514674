"""Words in the GM's language: the current wording, numbers, a campaign's own labels."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pikepdf
import pytest
from typer.testing import CliRunner

from scratchpress import wording
from scratchpress.cli.app import app
from scratchpress.resources import examples_dir
from scratchpress.wording import Wording, _, ngettext, number, speaking


def test_a_build_speaks_one_language_and_gives_the_last_one_back() -> None:
    assert wording.current().language == "en"
    with speaking("de") as german:
        assert wording.current() is german
        with speaking("ja"):
            assert wording.current().language == "ja"
        assert wording.current().language == "de"
    assert wording.current().language == "en"


def test_numbers_take_the_language_s_decimal_mark_and_grouping() -> None:
    assert Wording("en").number(4.4, 1) == "4.4"
    assert Wording("de").number(4.4, 1) == "4,4"
    assert Wording("fr").number(4.4, 1) == "4,4"
    assert Wording("pt-BR").number(2.2, 1) == "2,2"
    assert Wording("ja").number(4.4, 1) == "4.4"
    assert Wording("de").number(1234) == "1.234"
    assert Wording("en").number(1234) == "1,234"
    with speaking("pl"):
        assert number(0.5, 1) == "0,5"


def test_only_english_weighs_in_pounds_by_default() -> None:
    assert not Wording("en").metric
    assert all(Wording(language).metric for language in wording.LANGUAGES if language != "en")


def test_a_campaign_s_labels_win_over_its_language_s_catalogue() -> None:
    words = Wording("de", {"stamina": "Puste", "%(num)s box": "%(num)s Kästchen"})
    with speaking(words):
        assert _("stamina") == "Puste"
        assert _("hit points") == wording.catalogue("de").gettext("hit points")
        assert ngettext("%(num)s box", "%(num)s boxes", 1) == "%(num)s Kästchen"


def test_the_cache_key_of_words_changes_with_language_and_labels() -> None:
    digests = {
        Wording("en").digest(),
        Wording("de").digest(),
        Wording("de", {"stamina": "Puste"}).digest(),
        Wording("de", {"stamina": "Atem"}).digest(),
    }
    assert len(digests) == 4
    assert Wording("de").digest() == Wording("de").digest()


def test_the_messages_a_campaign_may_reword_are_the_template_s() -> None:
    assert {"stamina", "hit points", "fighting"} <= wording.messages()
    assert "" not in wording.messages()


# ------------------------------------------------ the example, printed in every language


FLOOR_PT = 7.0  # the smallest type we print (DESIGN.md, "Look and feel")
CONTENT = Path(wording.__file__).resolve().parents[1] / "content"


def _pdf_text_and_smallest_type(path: Path) -> tuple[str, float]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = pdfium.PdfDocument(path)
    texts, smallest = [], math.inf
    for index in range(len(pdf)):
        page = pdf[index]
        textpage = page.get_textpage()
        texts.append(textpage.get_text_range())
        matrix = raw.FS_MATRIX()
        for char in range(textpage.count_chars()):
            if chr(raw.FPDFText_GetUnicode(textpage, char)).isspace():
                continue
            raw.FPDFText_GetMatrix(textpage, char, matrix)
            scale = math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c)) or 1.0
            smallest = min(smallest, raw.FPDFText_GetFontSize(textpage, char) * scale)
    pdf.close()
    return "\n".join(texts), smallest


def _flat(text: str) -> str:
    return " ".join(text.replace("\u00ad", "").lower().split())


def _content_text() -> str:
    """All the words that stay as the campaign wrote them: its YAML and Markdown, and our
    own Resilience content and names."""
    parts = []
    for folder in (examples_dir(), CONTENT):
        for path in sorted(folder.rglob("*")):
            if path.suffix in {".yaml", ".md"}:
                parts.append(path.read_text(encoding="utf-8"))
    return _flat("\n".join(parts))


def english_left(text: str, language: str, content: str) -> list[str]:
    """The English labels still printed in ``text``: every message whose translation in
    ``language`` differs from it, looked for as whole words (each stretch between its
    placeholders), unless the campaign's own text holds the same words."""
    translated = wording.catalogue(language)
    flat = _flat(text)
    # A word the language's own catalogue prints ("sections" in French, the game's name
    # "Scratch" everywhere) is no sign of English.
    own = _flat(" ".join(translated.gettext(m) for m in wording.messages()))
    left = set()
    for english in sorted(wording.messages()):
        if _flat(translated.gettext(english)) == _flat(english):
            continue
        for stretch in wording.PLACEHOLDER.split(english):
            stretch = _flat(stretch.strip(" :;,.()–-·"))
            if len(stretch) < 4 or stretch in content or stretch in own:
                continue
            if re.search(rf"(?<![\w]){re.escape(stretch)}(?![\w])", flat):
                left.add(stretch)
    return sorted(left)


def test_english_left_finds_an_english_label() -> None:
    """The check below can fail: an English label in a German page is found, content is not."""
    label = next(m for m in sorted(wording.messages()) if m == "hit points")
    assert "hit points" in english_left(f"Lebenspunkte 7 {label} 7", "de", "")
    assert english_left(f"{label} 7", "de", "the dam has hit points") == []


@pytest.mark.parametrize("language", [lang for lang in wording.LANGUAGES if lang != "en"])
def test_the_example_prints_in_every_language_with_no_english_label_and_nothing_cramped(
    language: str, tmp_path: Path
) -> None:
    out = tmp_path / language
    result = CliRunner().invoke(
        app, ["build", "--example", "--no-cache", "--strict", "--language", language, "-o", str(out)]
    )
    assert result.exit_code == 0, result.stdout + result.stderr  # --strict: no layout problem
    content = _content_text()
    found = {}
    for pdf in sorted(out.glob("*.pdf")):
        with pikepdf.open(pdf) as opened:  # hyphenation and screen readers follow it
            assert str(opened.Root.get("/Lang")) == language, pdf.name
        text, smallest = _pdf_text_and_smallest_type(pdf)
        assert smallest >= FLOOR_PT - 0.01, f"{pdf.name}: type of {smallest:.2f} pt"
        left = english_left(text, language, content)
        if left:
            found[pdf.name] = left
    assert not found, f"English labels in the {language} build: {found}"


def test_no_printed_word_comes_from_outside_the_catalogues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every message printed through a pseudo-language of look-alike letters (tests/pseudo.py):
    a word still in plain letters, other than the campaign's own text, was never a message.
    Every printable of the example, its year sheets and the calibration sheet."""
    import shutil

    from pseudo import PseudoTranslations, content_words, leaks

    campaign = tmp_path / "weir"
    shutil.copytree(examples_dir(), campaign)
    settings = campaign / "scratchpress.toml"
    settings.write_text(
        settings.read_text(encoding="utf-8").replace('language = "en"', 'language = "de"'),
        encoding="utf-8",
    )
    monkeypatch.setattr(wording, "catalogue", lambda language: PseudoTranslations())
    out = tmp_path / "out"
    runner = CliRunner()
    for args in (
        ["build", str(campaign), "--no-cache", "-o", str(out)],
        ["resilience", "draw", str(campaign), "--years", "2", "--seed", "1", "-o", str(out / "year.pdf")],
        ["calibrate", str(campaign), "-o", str(out / "calibrate.pdf")],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.stdout + result.stderr
    content = content_words(campaign, CONTENT)
    found = {}
    for pdf in sorted(out.glob("*.pdf")):
        text, __ = _pdf_text_and_smallest_type(pdf)
        # A word of the campaign's own text broken at a line's end is two pieces of it.
        left = [w for w in leaks(text, content) if not _piece_of_content(w, content)]
        if left:
            found[pdf.name] = left
    assert {"year.pdf", "calibrate.pdf", "roster.pdf"} <= {p.name for p in out.glob("*.pdf")}
    assert not found, f"words printed from outside the catalogues: {found}"


def _piece_of_content(word: str, content: set[str]) -> bool:
    """A stretch of a content word (its head or tail, where hyphenation split it)."""
    piece = word.lower()
    return len(piece) <= 12 and any(
        w.startswith(piece) or w.endswith(piece) for w in content if len(w) > len(piece)
    )
