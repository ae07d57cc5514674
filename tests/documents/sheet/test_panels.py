"""The sheet's words come from the catalogues: printed through a pseudo-language, no label
of the front, the minion back or the continuation page is left in plain English, while
the lint's frame names (identifiers) stay as they are."""

from __future__ import annotations

import html as entities
import re
from pathlib import Path

from pseudo import PSEUDO, content_words, leaks

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import sheet
from scratchpress.documents.sheet.panels import parts
from scratchpress.render.templating import render_html
from scratchpress.statblocks import compute_campaign
from scratchpress.wording import speaking

LONG = "a note long enough to wrap twice or three times on the sheet " * 3
# A leader with a minion group and a frame left to recruit, over budget, in a group, with
# notes too long for the front (so a continuation page); and a leader with no minions yet.
PARTY = f"""\
characters:
  - name: Orla Everything
    player: Sam
    description: "{LONG}"
    group: Test Party
    abilities:
      toughness: {{level: 5, note: "{LONG}"}}
      shooting: {{level: 3, note: "{LONG}"}}
      stealth: {{level: 3, note: "{LONG}"}}
      flying: {{level: 2, note: "{LONG}"}}
      healing: {{level: 2, note: "{LONG}"}}
      command: {{level: 3, note: "{LONG}"}}
    minions:
      - name: Gull
        description: "{LONG}"
        abilities:
          toughness: {{level: 1, note: "{LONG}"}}
  - name: Thug Boss
    abilities:
      command: 4
      toughness: 3
    minions:
      - name: Thugs
        count: 2
        abilities:
          toughness: 2
"""
# The ruleset's name prints as the campaign's settings spell it.
KEPT = {"current"}


def _shown(page: str) -> str:
    """The text a reader meets: the body's text, and the alt and title attributes."""
    body = page.split("<body", 1)[1].split(">", 1)[1]
    # The actions' own words (names, effects, targets) are documents/actions.py's.
    body = re.sub(r'<table class="grid actions-grid.*?</table>', "", body, flags=re.S)
    # The banner's items are the rules' warnings, which the rules word (its title is ours).
    body = re.sub(r'(class="warning-banner">.*?</b>).*?(</table>)', r"\1\2", body, flags=re.S)
    attributes = " ".join(re.findall(r'(?:alt|title)="([^"]*)"', body))
    return entities.unescape(re.sub(r"<[^>]+>", " ", body) + " " + attributes)


def test_every_label_of_the_sheet_is_worded(tmp_path: Path) -> None:
    (tmp_path / "party.yaml").write_text(PARTY, encoding="utf-8")
    campaign = load_campaign([tmp_path])
    computed = compute_campaign(campaign)
    with speaking(PSEUDO):
        documents = sheet.documents(computed, campaign, BuildOptions())
        pages = {d.title: render_html(d.template, d.context) for d in documents}
    orla = next(d for d in documents if d.title == "Orla Everything").context
    assert orla["back"]["blanks"] and orla["more"] is not None  # every page is exercised
    content = content_words(tmp_path) | KEPT
    for title, page in pages.items():
        assert leaks(_shown(page), content) == [], title
        # The lint names its frames the same in every language.
        assert 'data-lint-frame="Agility box"' in page
        assert 'data-lint-frame="minion Stamina box"' in page


def test_a_link_cuts_its_worded_sentence_in_two() -> None:
    # A translation may put the linked value anywhere in its sentence.
    message = "%(bonus)s: so rolls %(group)s, with d20"
    assert parts(message, "bonus", group="The Rookery") == ("", ": so rolls The Rookery, with d20")
    assert parts("%(group)s rolls %(bonus)s", "bonus", group="50%") == ("50% rolls ", "")
