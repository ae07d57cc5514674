"""Every printed word in the GM's language: message catalogues, numbers and units.

The words on our printables are gettext messages, written in English in the templates
(``{{ _("Hit points") }}``) and in the documents' Python (``_("Hit points")``), and
translated in ``locales/<language>/LC_MESSAGES/scratchpress.po``. The rules never word
anything: they return keys and numbers, and the documents word them through here.

A build speaks one language at a time (:func:`speaking`); the templates and the documents
ask :func:`current` for it, so no function between the command line and a label needs a
language argument. A campaign may reword any message in ``labels.yaml`` (keyed by the
English message), over the catalogue of its language.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from gettext import NullTranslations
from importlib.resources import files
from typing import Literal, get_args

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

DOMAIN = "scratchpress"
# The languages we ship a catalogue for, by their BCP 47 tag (what HTML's lang and the
# PDF's /Lang take); each name is the language's own, as a menu shows it.
Language = Literal["en", "de", "fr", "es", "pt-BR", "it", "pl", "ja"]
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "fr": "Français",
    "es": "Español",
    "pt-BR": "Português (Brasil)",
    "it": "Italiano",
    "pl": "Polski",
    "ja": "日本語",
}
assert tuple(LANGUAGES) == get_args(Language)
SOURCE_LANGUAGE = "en"
# The one country of ours that weighs in pounds and prints on Letter: every other
# language defaults to metric units and A4 paper.
IMPERIAL = frozenset({"en"})
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def folder_name(language: str) -> str:
    """gettext's folder for a language tag: ``pt-BR`` -> ``pt_BR``."""
    return language.replace("-", "_")


def catalogue_path(language: str) -> str:
    return f"locales/{folder_name(language)}/LC_MESSAGES/{DOMAIN}.po"


@cache
def messages() -> frozenset[str]:
    """Every English message we print (singulars and plurals), from the shipped template:
    what a campaign's labels.yaml may reword."""
    source = files(__package__).joinpath(f"locales/{DOMAIN}.pot").read_bytes()
    found: set[str] = set()
    for message in read_po(io.BytesIO(source)):
        found.update((message.id,) if isinstance(message.id, str) else message.id)
    found.discard("")
    return frozenset(found)


@cache
def catalogue(language: str) -> NullTranslations:
    """The shipped catalogue of ``language``, compiled in memory from its .po file (the
    package carries no compiled .mo files to fall out of step with their sources)."""
    if language == SOURCE_LANGUAGE:
        return NullTranslations()
    source = files(__package__).joinpath(catalogue_path(language)).read_bytes()
    compiled = io.BytesIO()
    write_mo(compiled, read_po(io.BytesIO(source), locale=folder_name(language)))
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


@cache
def _catalogue_digest(language: str) -> bytes:
    """A shipped catalogue's hash, read once a process (a build asks for it per card)."""
    source = files(__package__).joinpath(catalogue_path(language)).read_bytes()
    return hashlib.sha256(source).digest()


@dataclass(frozen=True)
class Wording:
    """One language's words, with a campaign's own labels over its catalogue."""

    language: str = SOURCE_LANGUAGE
    # A campaign's labels.yaml: the English message -> the campaign's words for it.
    overrides: Mapping[str, str] = field(default_factory=dict)
    translations: NullTranslations | None = None  # a test's own catalogue, else shipped

    @property
    def catalogue(self) -> NullTranslations:
        return self.translations or catalogue(self.language)

    def gettext(self, message: str) -> str:
        return self.overrides.get(message) or self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        chosen = self.catalogue.ngettext(singular, plural, count)
        english = singular if count == 1 else plural
        return self.overrides.get(english) or chosen

    def pgettext(self, context: str, message: str) -> str:
        return self.overrides.get(message) or self.catalogue.pgettext(context, message)

    @property
    def locale(self) -> Locale:
        return Locale.parse(self.language, sep="-")

    @property
    def metric(self) -> bool:
        """Whether this language weighs in kilograms unless the campaign says otherwise."""
        return self.language not in IMPERIAL

    def number(self, value: float | Decimal, places: int = 0) -> str:
        """``value`` with the language's decimal mark and grouping: 4.5 -> "4,5" in German."""
        pattern = "#,##0" + ("." + "0" * places if places else "")
        return format_decimal(value, format=pattern, locale=self.locale)

    def digest(self) -> str:
        """What a cache key needs of these words: the language, its catalogue's bytes and
        the campaign's labels (a template's digest says nothing of either)."""
        digest = hashlib.sha256(self.language.encode())
        if self.translations is not None:
            digest.update(repr(id(self.translations)).encode())
        elif self.language != SOURCE_LANGUAGE:
            digest.update(_catalogue_digest(self.language))
        for english, words in sorted(self.overrides.items()):
            digest.update(f"\0{english}\0{words}".encode())
        return digest.hexdigest()[:16]


ENGLISH = Wording()
_current: ContextVar[Wording] = ContextVar("wording", default=ENGLISH)


def current() -> Wording:
    return _current.get()


@contextmanager
def speaking(wording: Wording | str) -> Iterator[Wording]:
    """Word everything printed inside the block in ``wording`` (a Wording or a language)."""
    if isinstance(wording, str):
        wording = Wording(wording)
    token = _current.set(wording)
    try:
        yield wording
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return _current.get().gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue without wording it yet: for tables of labels
    built at import time, worded with :func:`_` where they are printed."""
    return message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or the plural of a message, as the current language counts."""
    return _current.get().ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English in another
    sense by ``context`` (a range's "close" is not a door's)."""
    return _current.get().pgettext(context, message)


def number(value: float | Decimal, places: int = 0) -> str:
    return _current.get().number(value, places)
