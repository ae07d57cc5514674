"""The community worksheet plays each year in the rules' order: event, projects, bonus."""

from __future__ import annotations

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import CommunityDef
from scratchpress.documents.community import project_ledger
from scratchpress.resources import examples_dir


def _lantern_weir() -> CommunityDef:
    campaign = load_campaign([examples_dir()])
    found: CommunityDef = next(
        c.definition for c in campaign.communities if c.name == "Lantern Weir"
    )
    return found


def test_the_event_strikes_before_the_years_projects() -> None:
    # Lantern Weir is founded at economy 12, environment 7, equity 11. In year 1 the Weeping
    # Dam takes 7 economy (damage 6, +1 for the failed challenge); then Priya's cisterns (+3 environment, rolls 15 against 13)
    # succeed, Dan's greenhouses (13) fail on a 9, Lena's wagon (+3 economy -1
    # environment, 8) succeeds on an 11, Tom's lottery (+2 equity -2 economy) is automatic;
    # the GM gives +1 environment and +1 equity. The year ends at 6, 10, 14.
    ledger = project_ledger(_lantern_weir())
    befores = [entry.before for entry in ledger.entries]
    assert befores[0] == {"economy": 5, "environment": 7, "equity": 11}
    assert [entry.result for entry in ledger.entries] == ["success", "failed", "success", "automatic"]
    afters = [entry.after for entry in ledger.entries]
    assert afters[-1] == {"economy": 6, "environment": 9, "equity": 13}
    assert ledger.now == {"economy": 6, "environment": 10, "equity": 14}


def test_no_value_on_the_worksheet_is_one_the_table_never_saw() -> None:
    # Applied before the event, Lena's wagon would have taken economy to 15.
    ledger = project_ledger(_lantern_weir())
    seen = [entry.before["economy"] for entry in ledger.entries]
    seen += [entry.after["economy"] for entry in ledger.entries if entry.after]
    assert max(seen) == 8  # Lena's wagon, after the dam took 7
    assert 15 not in seen


def test_the_year_sheet_shows_the_years_attack_and_where_it_comes_from() -> None:
    from scratchpress.content.loader import resilience_content
    from scratchpress.documents.base import BuildOptions
    from scratchpress.documents.community import year_sheets_context

    river = next(e for e in resilience_content(None).events if e.id == "the-river-moves")
    first, third = year_sheets_context([(1, river), (3, river)], None, None, BuildOptions())[
        "years"
    ]
    assert (first["bonus"], first["damage"], first["bonus_why"]) == ("+8", "6", "")
    assert (third["bonus"], third["damage"]) == ("+10", "7")
    assert third["bonus_why"] == "card +8, year 3 +2"
    assert third["damage_why"] == "card 6, year 3 +1"
