"""What `scratchpress check` says about marks and factions: a reference that finds
nothing is a warning on its own line (file, line, entry, field), and the build goes on."""

from __future__ import annotations

from conftest import Cli, WriteCampaign

CAMPAIGN = """\
communities:
  - name: Ashford
    economy: 10
    environment: 10
    equity: 10
    history:
      - year: 1
        event: Grain Blight
        choice: Beg clean seed from the hill kamps
        marks: [owes-the-moon]
      - {year: 2, event: The Recruiter, choice: nothing}
factions:
  - id: moon-cult
    name: The Moon Cult
    kind: zealots
    want: The town's children.
    strength: Faith.
    weakness: Daylight.
    dealing: Talk (command 14).
    appears_in: [grain-blight, no-such-event]
events:
  - id: odd-event
    title: Odd Event
    threat: siege
    attacks: environment
    attack_bonus: 3
    damage: 3
    story: The moon rose red and the wells went quiet for a week.
    temporary: None.
    challenge: {ability: healing, difficulty: 10, success: Good., failure: Bad.}
    decision:
      prompt: What?
      choices:
        - {choice: A, consequence: "-1 economy now."}
        - {choice: B, consequence: "-1 equity now."}
    encounter: Someone.
    remembers:
      - {mark: not-a-mark, text: Nothing happens., attack_bonus: 1}
      - {mark: owes-the-hill-camps, text: The camps call in the debt., attack_bonus: 2}
"""


def test_dead_references_to_marks_and_events_are_warnings(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    folder = write_campaign({"c.yaml": CAMPAIGN})
    result = cli("check", folder)
    assert result.exit_code == 0  # warnings: the build goes on
    lines = [line for line in result.stderr.splitlines() if "warning" in line]
    assert lines == [
        "campaign/c.yaml:9: warning: entry \"Ashford\": history.0.choice: 'Beg clean seed from"
        " the hill kamps' is not an answer of 'Grain Blight' ('Burn them'; 'Harvest what you"
        " can'; 'Beg clean seed from the hill camps'), so no mark it leaves joins the history",
        "campaign/c.yaml:10: warning: entry \"Ashford\": history.0.marks.0: no answer on the"
        " deck leaves the mark 'owes-the-moon', so no card reads it",
        "campaign/c.yaml:20: warning: entry \"The Moon Cult\": appears_in.1: no event has the"
        " id 'no-such-event'",
        "campaign/c.yaml:38: warning: entry \"Odd Event\": remembers.0.mark: no answer on the"
        " deck leaves the mark 'not-a-mark', so this line never comes up",
    ]


def test_a_history_in_the_cards_words_any_case_is_quiet(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    fixed = CAMPAIGN.replace("hill kamps", "hill camps").replace("owes-the-moon", "let-the-young-go")
    fixed = fixed.replace("no-such-event", "kiln-collapse").replace("not-a-mark", "trained-its-own-healer")
    result = cli("check", write_campaign({"c.yaml": fixed}))
    assert result.exit_code == 0
    assert "warning" not in result.stderr, result.stderr


def test_bad_marks_factions_and_large_variants_are_one_line_each(
    write_campaign: WriteCampaign, cli: Cli
) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            communities:
              - name: Ashford
                economy: 10
                environment: 10
                equity: 10
                abundances: fish
                history:
                  - {year: 1, event: Grain Blight, marks: [Bad Id]}
            factions:
              - {id: moon-cult, name: The Moon Cult, kind: zealots, want: Children., strength: Faith., weakness: Daylight.}
            project_ideas:
              - id: wall
                name: Wall
                theme: defense
                develops: {environment: 2}
                summary: A wall.
                large: {develops: {environment: 4}, summary: A bigger wall.}
            """
        }
    )
    result = cli("check", folder)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:4] == [
        "campaign/c.yaml:6: entry \"Ashford\": abundances: must be a list, got 'fish'",
        "campaign/c.yaml:8: entry \"Ashford\": history.0.marks.0: must be lower-case words"
        " joined by hyphens, such as owes-the-guild, got 'Bad Id'",
        'campaign/c.yaml:10: entry "The Moon Cult": dealing: required, but missing',
        'campaign/c.yaml:17: entry "Wall": large: a large variant develops 5 levels in all,'
        " not 4",
    ]
    assert "Traceback" not in result.stdout + result.stderr
