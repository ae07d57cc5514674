"""The completeness audit: is every word a document meant to print in its PDF's text?

A page can lose text without any box overflowing where the layout lint looks: a word
past the paper's edge, an element a theme hides, a glyph run dropped. So after a render
the words each block of the author's text was to print (``Document.expected``) are looked
for, in order, in the text on the paper as pdfium reads it back (what a search, a screen
reader or ``pdftotext`` finds). Text clipped by ``overflow: hidden`` is still in that
layer: the frame lint (render/lint.py) is what catches it.

Both sides are compared as letters and digits only, case-folded: line breaks, the hyphens
of hyphenation, the spaces a justified line stretches, CSS capitals and where a shaped
script's marks land change nothing a reader would call lost.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from .lint import entry_texts

# A word of the expected text: anything between spaces and punctuation.
_WORD = re.compile(r"[^\s!-/:-@\[-`{-~\u00a0-\u00bf\u2000-\u206f]+")
# Scripts whose conjuncts the text layer cannot give back letter for letter (WeasyPrint maps
# a conjunct glyph to some of its letters: "अर्जुन" reads back "अ Eर्जुन"): their words are
# not audited, rather than reported lost when they print well. Indic, Thai and Lao (whose
# stacked vowels and tone marks read back as other code points), Tibetan, Myanmar, Khmer.
_CONJUNCTS = re.compile(r"[\u0900-\u0eff\u0f00-\u0fff\u1000-\u109f\u1780-\u17ff]")
# Hebrew, Arabic, Syriac, Thaana, N'Ko and the presentation forms.
_RIGHT_TO_LEFT = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
# The words of one block shown in a report before "…".
SHOWN_WORDS = 3


def _folded(text: str) -> str:
    """Letters and digits only: no spaces, punctuation or hyphens, and no combining marks
    (a PDF's text layer gives an Indic vowel sign where it is drawn, not where it is
    written, so marks are not compared)."""
    return "".join(
        char
        for char in unicodedata.normalize("NFKC", text).casefold()
        if unicodedata.category(char)[0] in "LN"
    )


def pdf_text(pdf: bytes) -> str:
    """Every page's text on the paper, as pdfium reads it (what search and copy find)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        pages = []
        for page in document:
            textpage = page.get_textpage()
            # Only what lies on the paper: pdfium would also read text drawn past the
            # page's edge, which no printer prints and pdftotext does not find.
            width, height = page.get_size()
            pages.append(textpage.get_text_bounded(0, 0, width, height))
            textpage.close()
            page.close()
        return "\n".join(pages)
    finally:
        document.close()


def lost_words(pdf: bytes, expected: Sequence[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """For each block (``source``, ``text``) with words the PDF does not hold, its source
    and those words, in order."""
    printed = _folded(pdf_text(pdf))
    lost: list[tuple[str, list[str]]] = []
    for source, text in expected:
        # In order: each word after the one before it, so a "3" or a "the" is not found
        # in some other paragraph while this one lost its column of numbers. A running
        # head or a page number between two words of a block changes nothing.
        at, missing = 0, []
        # A block mixing directions reads back in the order it is drawn, not written:
        # its words are looked for anywhere.
        anywhere = bool(_RIGHT_TO_LEFT.search(text))
        for word in _WORD.findall(text):
            folded = _folded(word)
            if not folded or _CONJUNCTS.search(word):
                continue
            if anywhere:
                if folded not in printed:
                    missing.append(word)
                continue
            found = printed.find(folded, at)
            if found < 0:
                missing.append(word)
            else:
                at = found + len(folded)
        if missing:
            lost.append((source, missing))
    return lost


def lost_from_html(html: str, pdfs: Sequence[bytes]) -> list[tuple[str, str, list[str]]]:
    """The audit of a printable whose words are its HTML's (every printable but the
    booklet, whose blocks know their Markdown lines): each entry with words the PDFs
    (one document's, or a merged render's parts together) do not hold, by the part of its
    page they were in (``data-lint-frame``, "" for none). Each run of text
    (an element's own words) is looked for in order, the runs in any order: a sheet's
    positioned panels are drawn in an order of their own."""
    printed = "".join(_folded(pdf_text(pdf)) for pdf in pdfs)
    lost: dict[tuple[str, str], list[str]] = {}
    for entry, frame, text in entry_texts(html):
        anywhere = bool(_RIGHT_TO_LEFT.search(text))
        at = -1
        for word in _WORD.findall(text):
            folded = _folded(word)
            if not folded or _CONJUNCTS.search(word):
                continue
            found = printed.find(folded) if anywhere or at < 0 else printed.find(folded, at)
            if found < 0:
                lost.setdefault((entry, frame), []).append(word)
            elif not anywhere:
                at = found + len(folded)
    return [(entry, frame, words) for (entry, frame), words in lost.items()]


def describe_lost(words: list[str]) -> str:
    shown = ", ".join(f"'{word}'" for word in words[:SHOWN_WORDS])
    return shown + (f" and {len(words) - SHOWN_WORDS} more" if len(words) > SHOWN_WORDS else "")


__all__ = ["describe_lost", "lost_from_html", "lost_words", "pdf_text"]
