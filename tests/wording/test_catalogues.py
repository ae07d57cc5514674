"""The catalogues hold every printed message, in every language we ship.

Adding a label: run this file with SCRATCHPRESS_UPDATE_CATALOGUES=1, which extracts the
template again and adds the new message to every catalogue; then translate it in each
(the completeness test names what is left).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from scratchpress.wording import LANGUAGES, catalogue
from scratchpress.wording.catalogues import (
    LOCALES,
    TEMPLATE,
    extract,
    gaps,
    po_bytes,
    read,
    write_all,
)

ROOT = Path(__file__).resolve().parents[2]
UPDATE = os.environ.get("SCRATCHPRESS_UPDATE_CATALOGUES") == "1"


def test_the_template_lists_every_message_the_code_prints() -> None:
    if UPDATE:
        write_all(ROOT / "generator", ROOT / "templates")
    fresh = po_bytes(extract(ROOT / "generator", ROOT / "templates"))
    assert TEMPLATE.read_bytes() == fresh, (
        "locales/scratchpress.pot is out of step with the code: run"
        " SCRATCHPRESS_UPDATE_CATALOGUES=1 python -m pytest -n0 tests/wording/test_catalogues.py"
    )


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_catalogue_translates_every_message(language: str) -> None:
    template = read(TEMPLATE)
    assert len(template) > 300  # the printables' labels, not a stub
    path = LOCALES.parent / f"locales/{language.replace('-', '_')}/LC_MESSAGES/scratchpress.po"
    problems = gaps(template, read(path, language), language)
    assert not problems, f"{len(problems)} gaps:\n" + "\n".join(problems[:40])


def test_a_gap_is_found() -> None:
    """The completeness check can fail: missing, empty, fuzzy and misplaced placeholders."""
    template = Catalog()
    for english in ("Hit points", "Stamina", "Page %(page)s", "Agility", "Career"):
        template.add(english)
    german = Catalog(locale="de")
    german.add("Hit points", "Trefferpunkte")
    german.add("Stamina", "")
    german.add("Page %(page)s", "Seite %(seite)s")
    german.add("Agility", "Geschick", flags={"fuzzy"})
    assert gaps(template, german, "de") == [
        "de: untranslated 'Stamina'",
        "de: placeholders differ in 'Page %(page)s': 'Seite %(seite)s'",
        "de: untranslated 'Agility'",
        "de: missing 'Career'",
    ]


def test_a_shipped_catalogue_words_the_game_in_its_language() -> None:
    assert catalogue("de").gettext("stamina") != "stamina"
    assert catalogue("ja").gettext("hit points") != "hit points"
    assert catalogue("en").gettext("stamina") == "stamina"


def test_updating_keeps_translations_and_adds_new_messages(tmp_path: Path) -> None:
    package, templates = tmp_path / "generator", tmp_path / "templates"
    package.mkdir()
    templates.mkdir()
    (package / "labels.py").write_text('from x import _\nA = _("Hit points")\n')
    (templates / "card.html").write_text('<b>{{ _("Stamina") }}</b>\n')
    locales = tmp_path / "locales"
    write_all(package, templates, locales)
    german = locales / "de" / "LC_MESSAGES" / "scratchpress.po"
    kept = read(german, "de")
    kept["Hit points"].string = "Trefferpunkte"
    german.write_bytes(po_bytes(kept))
    (templates / "card.html").write_text('<b>{{ _("Stamina") }}</b> {{ _("Agility") }}\n')
    write_all(package, templates, locales)
    after = read(german, "de")
    assert after["Hit points"].string == "Trefferpunkte"
    assert after["Agility"].string == ""
    assert read(locales / "en" / "LC_MESSAGES" / "scratchpress.po", "en")["Agility"].string == (
        "Agility"
    )
