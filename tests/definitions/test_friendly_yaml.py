"""Friendlier YAML (issue 11): the usual parser errors in plain words with a hint, on the
line to fix; ``*.YAML`` files read too; one misspelt key gives one error.

Every test goes through ``scratchpress check`` and asserts the exact problem lines, exit 1
and no traceback (the ``cli`` fixture checks that on every run).
"""

from __future__ import annotations

from typing import Any

from typer.testing import Result

from scratchpress.definitions.models import CharacterDef

FILE = "campaign/party.yaml"
CHARACTER_KEYS = ", ".join(CharacterDef.model_fields)


def problem_lines(result: Result) -> list[str]:
    """Error lines (stderr) without the closing summary."""
    return [
        line for line in result.stderr.splitlines() if line and "nothing was written" not in line
    ]


def check(write_campaign: Any, cli: Any, text: str, filename: str = "party.yaml") -> Result:
    return cli("check", write_campaign({filename: text}))


def assert_fails_with(result: Result, *expected: str) -> None:
    assert result.exit_code == 1, result.stdout + result.stderr
    assert problem_lines(result) == list(expected)
    count = len(expected)
    assert f"{count} error{'s' if count != 1 else ''}; nothing was written." in result.stderr


# --------------------------------------------------------------------------------------------
# parser errors


def test_a_key_indented_less_than_the_one_above(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester Greaves
            abilities:
              toughness: 3
             stealth: 2
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:5: bad indentation (did not find expected key): this line is indented less"
        " than the line above it; line up keys of the same entry",
    )


def test_a_key_indented_more_than_the_one_above(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester Greaves
            abilities:
              toughness: 3
                stealth: 2
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:5: bad indentation (mapping values are not allowed in this context): this line"
        " is indented more than the line above it; line up keys of the same entry",
    )


def test_a_list_item_out_of_line_with_the_one_before(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester Greaves
            abilities: {toughness: 3}
           - name: Ann
            abilities: {toughness: 2}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: bad indentation (did not find expected '-' indicator): this line is"
        " indented less than the line above it; line up each '- ' with the '- ' of the entry"
        " before it",
    )


def test_an_unquoted_colon_in_a_note_says_how_to_quote_it(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester Greaves
            abilities: {toughness: 3}
            description: Cost: 3 coins
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: a second ':' on this line (mapping values are not allowed in this context);"
        ' put the value in quotes: description: "Cost: 3 coins"',
    )


def test_an_unquoted_colon_in_a_list_item_keeps_the_key_alone(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester: the Greaves  # a comment
            abilities: {toughness: 3}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:2: a second ':' on this line (mapping values are not allowed in this context);"
        ' put the value in quotes: name: "Hester: the Greaves" # a comment',
    )


def test_tab_indentation(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Hester Greaves\n    abilities:\n\t  toughness: 3\n",
    )
    assert_fails_with(
        result,
        f"{FILE}:4: a tab character (found character that cannot start any token):"
        " YAML indents with spaces only; replace the tab with spaces",
    )


def test_a_tab_before_a_key(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Hester Greaves\n\tabilities:\n      toughness: 3\n",
    )
    assert_fails_with(
        result,
        f"{FILE}:3: a tab character (found a tab character that violates indentation):"
        " YAML indents with spaces only; replace the tab with spaces",
    )


def test_a_line_without_a_key_is_named_not_the_line_after(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester Greaves
            abilities: {toughness: 3}
            a stray line
            player: Jo
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: no 'key:' on this line (could not find expected ':'); write it as"
        " key: value, or indent it further to continue the value above",
    )


def test_a_nul_byte_gives_its_line_and_column(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Hestér\x00\n    abilities: {toughness: 3}\n",
    )
    assert_fails_with(
        result,
        f"{FILE}:2: a control character U+0000 (NUL) at column 17 (control characters are not"
        " allowed); delete it (most editors do not show it)",
    )


def test_a_terminal_escape_gives_its_line_and_column(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Ann\n    abilities: {toughness: 3}\n    player: \x1b[1mJo\n",
    )
    assert_fails_with(
        result,
        f"{FILE}:4: a control character U+001B at column 13 (control characters are not"
        " allowed); delete it (most editors do not show it)",
    )


def test_other_syntax_errors_keep_the_parser_words(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Ann\n    abilities: {toughness: 2\n  - name: Bob\n",
    )
    assert_fails_with(result, f"{FILE}:4: YAML syntax error: did not find expected ',' or '}}'")


# --------------------------------------------------------------------------------------------
# which files are read


def test_upper_case_extensions_are_read(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "party.YAML": "characters:\n  - name: Hester Greaves\n    abilities: {toughness: 3}\n",
            "Crew.Yml": "characters:\n  - name: Ann Marlow\n    abilities: {toughness: 2}\n",
            "party.yaml~": "characters:\n  - name: Old Backup\n    abilities: {toughness: 2}\n",
            "party.yaml.txt": "not: [yaml\n",
            "BOOKLET.YAML": "title: Not an entries file\n",
        }
    )
    result = cli("stats", folder)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "Hester Greaves" in result.stdout
    assert "Ann Marlow" in result.stdout
    assert "Old Backup" not in result.stdout
    assert result.stderr == ""
    # Problems in such a file are reported under its own name.
    bad = write_campaign({"party.YAML": "characters:\n  - name: Ann\n    abilites: {}\n"}, "bad")
    assert_fails_with(
        cli("check", bad),
        "bad/party.YAML:3: entry \"Ann\": abilites: unknown key (did you mean 'abilities'?)",
    )


# --------------------------------------------------------------------------------------------
# one misspelt key, one error


def test_a_misspelt_required_key_is_one_error(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Hester Greaves
            player: Jo
            description: the lamplighter
            abilites:
              toughness: 3
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:5: entry \"Hester Greaves\": abilites: unknown key (did you mean 'abilities'?)",
    )


def test_a_misspelt_key_in_a_minion_is_one_error(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Boss
            abilities: {toughness: 3, command: 2}
            minions:
              - name: Thug
                abilitys: {toughness: 1}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:6: entry \"Boss\": minions.0.abilitys: unknown key (did you mean 'abilities'?)",
    )


def test_a_misspelt_vehicle_movement_is_one_error(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        vehicles:
          - name: Lantern Barge
            movment: sailing
            abilities: {sailing: 2, toughness: 4}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:3: entry \"Lantern Barge\": movment: unknown key (did you mean 'movement'?)",
    )


def test_a_misspelt_community_defense_is_one_error(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        communities:
          - name: Weir
            econmy: 2
            environment: 1
            equity: 1
        """,
    )
    assert_fails_with(
        result, f"{FILE}:3: entry \"Weir\": econmy: unknown key (did you mean 'economy'?)"
    )


def test_a_misspelt_top_level_key_is_one_error(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "charcters:\n  - name: Ann\n    abilities: {toughness: 2}\n",
    )
    assert_fails_with(
        result,
        f"{FILE}:1: charcters: unknown top-level key 'charcters' (did you mean 'characters'?);"
        " allowed: characters, npcs, vehicles, communities, events, careers, project_ideas,"
        " encounters",
    )


def test_a_misspelt_optional_key_still_lists_the_allowed(write_campaign, cli) -> None:
    """A key the entry does not lack gets the full message: the hint is only a guess."""
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Ann
            abilities: {toughness: 2}
            abilites: {toughness: 3}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: entry \"Ann\": abilites: unknown key (did you mean 'abilities'?);"
        f" allowed: {CHARACTER_KEYS}",
    )


# --------------------------------------------------------------------------------------------
# order


def test_problems_of_a_file_are_in_line_order(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Ann
            abilities: {toughness: 0, stelth: 2}
            minions:
              - name: Thug
                count: 0
                abilities: {toughness: 1}
          - abilities: {toughness: 2}
        vehicles:
          - name: Barge
            movment: sailing
            abilities: {sailing: 2}
        """,
    )
    lines = problem_lines(result)
    assert lines == [
        f'{FILE}:3: entry "Ann": abilities.toughness: must be 1 or more, got 0',
        f"{FILE}:3: entry \"Ann\": abilities.stelth: unknown character ability 'stelth'"
        " (did you mean 'stealth'?)",
        f'{FILE}:6: entry "Ann": minions.0.count: must be 1 or more, got 0',
        f'{FILE}:8: entry "character #2": name: required, but missing',
        f"{FILE}:11: entry \"Barge\": movment: unknown key (did you mean 'movement'?)",
    ]
    numbers = [int(line.split(":")[1]) for line in lines]
    assert numbers == sorted(numbers)
    assert result.exit_code == 1
