"""Printing at home, told in the file: a deck and a saddle booklet say in their viewer
preferences and in a line on the paper to print at actual size and which edge to flip;
``print-all.pdf`` is every document in one file, bookmarked by title."""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from scratchpress.render.viewer import print_all, with_print_preferences

from conftest import Cli


def _blank(pages: int, **root: pikepdf.Object) -> bytes:
    with pikepdf.new() as pdf:
        for _ in range(pages):
            pdf.add_blank_page(page_size=(612, 792))
        for key, value in root.items():
            pdf.Root[f"/{key}"] = value
        buffer = io.BytesIO()
        pdf.save(buffer)
        return buffer.getvalue()


def _preferences(data: bytes | Path) -> dict[str, object]:
    source = pikepdf.open(data) if isinstance(data, Path) else pikepdf.open(io.BytesIO(data))
    with source as pdf:
        return {str(k): v for k, v in pdf.Root.get("/ViewerPreferences", {}).items()}


def _page_text(path: Path, index: int) -> str:
    document = pdfium.PdfDocument(path)
    try:
        return str(document[index].get_textpage().get_text_range())
    finally:
        document.close()


@pytest.mark.parametrize(
    ("flip", "duplex"),
    [
        ("long", "/DuplexFlipLongEdge"),
        ("short", "/DuplexFlipShortEdge"),
        ("one-sided", "/Simplex"),
    ],
)
def test_a_deck_says_actual_size_and_its_flip_edge(flip: str, duplex: str) -> None:
    found = _preferences(with_print_preferences(_blank(2), flip))  # type: ignore[arg-type]
    assert found == {"/PrintScaling": "/None", "/Duplex": duplex}


def test_preferences_already_there_are_kept() -> None:
    tagged = _blank(1, ViewerPreferences=pikepdf.Dictionary(DisplayDocTitle=True))
    found = _preferences(with_print_preferences(tagged, "short"))
    assert found["/DisplayDocTitle"] is True and found["/Duplex"] == "/DuplexFlipShortEdge"


def test_the_same_pdf_gives_the_same_bytes() -> None:
    """Builds are byte-reproducible: the preferences add nothing that changes per run."""
    assert with_print_preferences(_blank(3), "long") == with_print_preferences(_blank(3), "long")


def test_print_all_holds_every_page_with_a_bookmark_per_document() -> None:
    merged = print_all([("Initiative cards", _blank(2)), ("Resilience events", _blank(5))])
    with pikepdf.open(io.BytesIO(merged)) as pdf:
        assert len(pdf.pages) == 7
        with pdf.open_outline() as outline:
            marks = [(item.title, pdf.pages.index(item.destination[0])) for item in outline.root]
        assert marks == [("Initiative cards", 0), ("Resilience events", 2)]
        assert pdf.Root.ViewerPreferences.PrintScaling == "/None"


# ----------------------------------------------------------------- the example, built once


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's event deck and booklet, saddle-stitched, with print-all.pdf: one real
    build for every test below."""
    out = tmp_path_factory.mktemp("viewer") / "out"
    result = Cli()(
        "build", "--example", "--no-cache", "-o", out,
        "--only", "events,booklets", "--impose", "saddle", "--print-all",
    )  # fmt: skip
    assert result.exit_code == 0, result.stdout + result.stderr
    return out


def test_the_built_deck_and_saddle_copy_carry_their_preferences(built: Path) -> None:
    assert _preferences(built / "resilience-events.pdf") == {
        "/PrintScaling": "/None",
        "/Duplex": "/DuplexFlipLongEdge",  # duplex backs, laid out for the long edge
    }
    assert _preferences(built / "booklet-scratch-at-the-table-saddle.pdf") == {
        "/PrintScaling": "/None",
        "/Duplex": "/DuplexFlipShortEdge",  # landscape sheets: the long edge turns backs over
    }
    # The reading copy is not for the printer: only what its tags need.
    assert "/Duplex" not in _preferences(built / "booklet-scratch-at-the-table.pdf")


def test_the_note_is_printed_on_the_paper(built: Path) -> None:
    deck = _page_text(built / "resilience-events.pdf", 0)
    assert "Print at 100% (actual size), flip on the long edge" in deck.replace("\xa0", " ")
    saddle = _page_text(built / "booklet-scratch-at-the-table-saddle.pdf", 0)
    assert "Print at 100% (actual size), flip on the short edge" in saddle
    with pikepdf.open(built / "booklet-scratch-at-the-table-saddle.pdf") as pdf:
        descriptors = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary)
                       and o.get("/Type") == "/FontDescriptor"]  # fmt: skip
        # The note's Lato is embedded, like every font of the pages.
        assert descriptors and all("/FontFile2" in d or "/FontFile3" in d for d in descriptors)


def test_print_all_is_every_document_once_bookmarked(built: Path) -> None:
    def pages(name: str) -> int:
        with pikepdf.open(built / name) as pdf:
            return len(pdf.pages)

    deck, saddle = pages("resilience-events.pdf"), pages("booklet-scratch-at-the-table-saddle.pdf")
    with pikepdf.open(built / "print-all.pdf") as pdf:
        # The booklet goes in as its saddle copy only, not as its reading copy as well.
        assert len(pdf.pages) == deck + saddle
        with pdf.open_outline() as outline:
            marks = [(item.title, pdf.pages.index(item.destination[0])) for item in outline.root]
    assert marks == [("Resilience events", 0), ("Scratch at the Table (saddle copy)", deck)]


def test_the_printing_note_is_worded_in_the_build_s_language() -> None:
    """The note printed on a sheet's margin is a catalogue message, not an English literal."""
    from gettext import NullTranslations

    from scratchpress.render.viewer import print_note
    from scratchpress.wording import Wording, speaking

    class Marked(NullTranslations):
        def gettext(self, message: str) -> str:
            return f"«{message}»"

    assert print_note("long") == "Print at 100% (actual size), flip on the long edge"
    with speaking(Wording("en", translations=Marked())):
        assert print_note("short") == "«Print at 100% (actual size), flip on the short edge»"
