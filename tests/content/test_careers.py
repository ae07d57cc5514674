"""Career warnings name the character they are about, even when two share a name."""

from __future__ import annotations

from conftest import Cli, WriteCampaign

TWO_WRENS = """\
characters:
  - name: Wren Calloway
    player: Ana
    career: Mechanic
    abilities: {craftsmanship: 3, knockout: 1, toughness: 3}
  - name: Wren Calloway
    player: Bob
    career: Mechanic
    abilities: {toughness: 3}
"""


def test_two_characters_of_one_name_each_get_their_own_career_warnings(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    result = cli("check", write_campaign({"party.yaml": TWO_WRENS}))
    assert result.exit_code == 1  # the shared name is an error of its own
    lines = result.stderr.splitlines()
    assert lines[0] == (
        'campaign/party.yaml:6: entry "Wren Calloway": name: another character has this name'
        " (campaign/party.yaml:2); names must be unique"
    )
    # The second Wren lacks what the career needs; the first has it and is not blamed.
    careers = [line for line in lines if ": career: " in line]
    assert careers == [
        'campaign/party.yaml:8: warning: entry "Wren Calloway": career: career "Mechanic" needs'
        " knockout (level 1)",
        'campaign/party.yaml:8: warning: entry "Wren Calloway": career: career "Mechanic" needs'
        " craftsmanship (level 1)",
        'campaign/party.yaml:8: warning: entry "Wren Calloway": career: career "Mechanic" is'
        " also the other Wren Calloway's (campaign/party.yaml:2, player Ana); give every"
        " player's character a career of their own, so that their interests clash at the"
        " council",
    ]
