"""Initiative cards, the roster, vehicle sheets and the carry table word every label through
the catalogues (issue 28): built while a marking catalogue is spoken, each label comes back
marked, the campaign's own words do not, and the English still reads as before."""

from __future__ import annotations

from gettext import NullTranslations
from typing import Any

import pytest

from scratchpress.definitions.campaign import Campaign, load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import carry, vehicle
from scratchpress.documents.initiative import all_cards
from scratchpress.documents.roster import plan_roster, roster_context
from scratchpress.resources import examples_dir
from scratchpress.rules import Crew, compute_vehicle
from scratchpress.statblocks import Computed, compute_campaign
from scratchpress.wording import Wording, speaking


class Marked(NullTranslations):
    """Every message in «guillemets», so a label that skipped the catalogue shows bare."""

    def gettext(self, message: str) -> str:
        return f"«{message}»"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"«{singular if n == 1 else plural}»"

    def pgettext(self, context: str, message: str) -> str:
        return f"«{message}»"


MARKED = Wording("en", translations=Marked())


@pytest.fixture(scope="module")
def example() -> tuple[Campaign, Computed]:
    campaign = load_campaign([examples_dir()])
    return campaign, compute_campaign(campaign)


def _marked(text: str) -> bool:
    return text.startswith("«") and text.endswith("»")


def test_initiative_cards_word_their_labels(example: tuple[Campaign, Computed]) -> None:
    _, computed = example
    with speaking(MARKED):
        cards = all_cards(computed, BuildOptions())
    group = next(c for c in cards if c["kind"] == "group")
    assert group["label"] == "«Group»"
    assert [c["label"] for c in group["columns"]] == ["«AGI»", "«INT»", "«STR»", "«STA»"]
    # The rule's sum, worded term by term: the ability through the game's own terms.
    assert group["bonus_lines"][0] == "«2 × best «stealth» 4»"
    assert group["player"]["subtitle"] == "«Initiative group»"
    character = next(c for c in cards if c["kind"] == "character" and c["group"])
    assert character["group_line"] == f"«Rolls with {character['group']}»"
    assert all(_marked(d["label"]) for d in character["defenses"])
    assert character["title"] == character["player"]["title"]  # names stay as written


def test_the_roster_lays_its_blocks_out_anew_in_another_language(
    example: tuple[Campaign, Computed],
) -> None:
    """The blocks are kept between builds; a language change must not reuse the words."""
    campaign, computed = example
    options = BuildOptions()

    def first_block() -> dict[str, Any]:
        roster = plan_roster(computed, options)
        context = roster_context(roster, roster.pages, computed, campaign, options)
        items = [i for column in context["pages"][0]["columns"] for i in column]
        return next(i for i in items if i["kind"] == "npc") | {"context": context}

    english = first_block()
    with speaking(MARKED):
        marked = first_block()
    again = first_block()
    assert [v["label"] for v in english["stats"]][:1] == ["agility"]
    assert [v["label"] for v in marked["stats"]][:1] == ["«agility»"]
    assert again["stats"] == english["stats"]
    assert marked["context"]["label"] == "«NPC roster»"
    # The margins' words, for CSS strings: the page counter sits between two parts.
    assert english["context"]["page_before_css"] == "Page "
    assert english["context"]["page_after_css"].startswith(" of ")
    assert marked["context"]["page_before_css"].startswith("\\0000ab Page")


def test_the_vehicle_sheet_words_its_labels_but_not_the_lint_frames(
    example: tuple[Campaign, Computed],
) -> None:
    _, computed = example
    block = computed.of_kind("vehicle")[0]
    with speaking(MARKED):
        view = vehicle.vehicle_view(block)
    assert _marked(view["kind"])
    assert all(_marked(s["label"]) for s in view["stats"])
    assert [s["frame"] for s in view["stats"]][:2] == ["Defense", "Without crew"]
    assert all(_marked(r["title"]) for r in view["rules"])
    assert all(_marked(seat["adds"]) for seat in view["seats"])
    assert view["name"] == block.name


def test_a_vehicles_cautions_read_as_the_rules_warnings_in_english() -> None:
    """The sheet words the rules' keys; in English it says what the build reports."""
    armed = (("guns", 2, ""), ("toughness", 8, ""))
    stats = compute_vehicle("Cart", armed, "sailing", Crew(operator=("Mags", {"driving": 1})))
    assert len(stats.cautions) == len(stats.warnings) >= 2
    assert [vehicle._caution(c) for c in stats.cautions] == list(stats.warnings)


def test_the_carry_table_writes_numbers_and_units_as_the_language_does(
    example: tuple[Campaign, Computed],
) -> None:
    _, computed = example
    with speaking("de"):
        german = carry.carry_view(computed, BuildOptions(units="imperial"))
    assert german["limits"][0]["per_point"].startswith("4,4 ")  # a decimal comma
    with speaking(MARKED):
        marked = carry.carry_view(computed, BuildOptions(units="both"))
    assert {c["unit"] for c in marked["rows"][0]["cells"]} == {"«kg»", "«lb»"}
    assert marked["limits"][0]["per_point"] == "««2 kg» («4.4 lb»)»"
    assert _marked(marked["who_title"])
