"""One test per error a user can see from the loader and the campaign checks.

Every test goes through ``scratchpress check`` and asserts the exit code, the exact
``file:line: entry "Name": field: message`` line (with the right line number), and that no
traceback leaks out (the ``cli`` fixture checks that on every run).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import (
    ENTRY_MODELS,
    CharacterDef,
    CrewDef,
    MinionDef,
    Settings,
)
from scratchpress.definitions.yamlsafe import MAX_NODES
from scratchpress.rules.abilities import VEHICLE_MOVEMENT

FILE = "campaign/c.yaml"


def allowed(model) -> str:  # type: ignore[no-untyped-def]
    """The "allowed:" list of an unknown-key message: the model's own fields, in order."""
    return ", ".join(model.model_fields)


CHARACTER_KEYS = allowed(CharacterDef)
MINION_KEYS = allowed(MinionDef)
SETTINGS_KEYS = allowed(Settings)
TOP_LEVEL_KEYS = ", ".join(ENTRY_MODELS)
MOVEMENTS = ", ".join(VEHICLE_MOVEMENT)


def problem_lines(result: Result) -> list[str]:
    """Error lines (stderr) without the closing summary."""
    return [
        line
        for line in result.stderr.splitlines()
        if line and not re.fullmatch(r"\d+ errors?; nothing was written\.", line)
    ]


def run_check(write_campaign: Any, cli: Any, yaml_text: str, *extra: str) -> Result:
    folder = write_campaign({"c.yaml": yaml_text})
    return cli("check", folder, *extra)


def assert_fails_with(result: Result, *expected: str) -> None:
    """Exit 1 and exactly these problem lines, in this order."""
    assert result.exit_code == 1, result.stdout + result.stderr
    assert problem_lines(result) == list(expected)
    count = len(expected)
    loader_summary = f"{count} error{'s' if count != 1 else ''}; nothing was written."
    check_summary = f"{count} error{'s' if count != 1 else ''},"
    assert loader_summary in result.stderr or check_summary in result.stdout


# --------------------------------------------------------------------------------------------
# keys and ability names


def test_unknown_key_suggests_the_closest_and_lists_the_allowed(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities: {toughness: 3}
            descripton: a typo
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: entry \"Bob\": descripton: unknown key (did you mean 'description'?);"
        f" allowed: {CHARACTER_KEYS}",
    )


def test_unknown_key_in_a_minion_lists_the_minion_keys(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Boss
            abilities: {toughness: 3, command: 2}
            minions:
              - name: Thug
                abilities: {toughness: 1}
                cout: 2
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:7: entry \"Boss\": minions.0.cout: unknown key (did you mean 'count'?);"
        f" allowed: {MINION_KEYS}",
    )


def test_unknown_ability_suggests_stealth_for_stelth(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              toughness: 3
              stelth: 2
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:5: entry \"Bob\": abilities.stelth: unknown character ability 'stelth'"
        " (did you mean 'stealth'?)",
    )


def test_unknown_ability_with_nothing_close_lists_the_catalogue(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities: {toughness: 3, zzz: 1}
        """,
    )
    [line] = problem_lines(result)
    assert line.startswith(
        f"{FILE}:3: entry \"Bob\": abilities.zzz: unknown character ability 'zzz';"
        " known: toughness,"
    )
    assert "stealth, detection" in line
    assert result.exit_code == 1


def test_unknown_vehicle_ability_suggests_the_vehicle_catalogue(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        vehicles:
          - name: Kite
            movement: flying
            abilities:
              toughness: 9
              flying: 2
              missles: 1
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:7: entry \"Kite\": abilities.missles: unknown vehicle ability 'missles'"
        " (did you mean 'missiles'?)",
    )


def test_stalking_and_stealth_together_are_refused(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              stealth: 2
              stalking: 3
              toughness: 2
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:5: entry \"Bob\": abilities.stalking: 'stalking' is the older name of 'stealth';"
        " give only one of them",
    )


# --------------------------------------------------------------------------------------------
# levels


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("0", "must be 1 or more, got 0"),
        ("-2", "must be 1 or more, got -2"),
        ("2.5", "must be a whole number, got 2.5"),
        ("three", "must be a whole number, got 'three'"),
        ('"3"', "must be a whole number, got '3'"),
        ("true", "must be a whole number, got True"),
    ],
    ids=["zero", "negative", "fraction", "word", "quoted", "bool"],
)
def test_a_level_must_be_a_whole_number_from_one(write_campaign, cli, written, message) -> None:
    result = run_check(
        write_campaign,
        cli,
        f"""\
        characters:
          - name: Bob
            abilities:
              stealth: 2
              toughness: {written}
        """,
    )
    assert_fails_with(result, f'{FILE}:5: entry "Bob": abilities.toughness: {message}')


def test_a_level_inside_a_mapping_names_the_level_field(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              toughness:
                note: tough
                level: 0
        """,
    )
    lines = problem_lines(result)
    assert f'{FILE}:6: entry "Bob": abilities.toughness.level: must be 1 or more, got 0' in lines
    assert result.exit_code == 1


def test_a_level_inside_a_mapping_is_reported_once(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              toughness: {level: 0, note: tough}
        """,
    )
    assert_fails_with(
        result, f'{FILE}:4: entry "Bob": abilities.toughness.level: must be 1 or more, got 0'
    )


def test_an_unknown_key_inside_an_ability_mapping_suggests_level(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              toughness: {lvl: 3}
        """,
    )
    # `level` is required, so `lvl` is taken as its misspelling: one error, not two.
    assert_fails_with(
        result,
        f"{FILE}:4: entry \"Bob\": abilities.toughness.lvl: unknown key (did you mean 'level'?)",
    )


def test_community_defense_below_zero_is_refused(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        communities:
          - name: Weir
            economy: 10
            environment: -1
            equity: 10
        """,
    )
    assert_fails_with(result, f'{FILE}:4: entry "Weir": environment: must be 0 or more, got -1')


# --------------------------------------------------------------------------------------------
# missing and misplaced


def test_missing_name_is_reported_at_the_entry_by_its_number(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: First
            abilities: {toughness: 1}
          - description: nameless
            abilities: {toughness: 1}
        """,
    )
    assert_fails_with(result, f'{FILE}:4: entry "character #2": name: required, but missing')


def test_empty_name_is_refused(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: "  "
            abilities: {toughness: 1}
        """,
    )
    assert_fails_with(result, f'{FILE}:2: entry "  ": name: must not be empty')


def test_missing_abilities_is_reported_at_the_entry(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            description: forgot everything
        """,
    )
    assert_fails_with(result, f'{FILE}:2: entry "Bob": abilities: required, but missing')


def test_missing_vehicle_movement_is_reported(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        vehicles:
          - name: Cart
            abilities: {toughness: 10, quickness: 1}
        """,
    )
    assert_fails_with(result, f'{FILE}:2: entry "Cart": movement: required, but missing')


def test_unknown_top_level_key_suggests_characters(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        # a comment first
        charactors:
          - name: Bob
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:2: charactors: unknown top-level key 'charactors' (did you mean 'characters'?);"
        f" allowed: {TOP_LEVEL_KEYS}",
    )


def test_entries_must_be_a_list(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        communities:
          - name: Weir
            economy: 10
            environment: 10
            equity: 10
        characters:
          name: Bob
          abilities: {toughness: 2}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:6: characters: must be a list of entries (each starting with '- name:'), got dict",
    )


def test_an_entry_must_be_a_mapping(write_campaign, cli) -> None:
    result = run_check(write_campaign, cli, "characters:\n  - Bob\n")
    assert_fails_with(
        result, f"{FILE}:2: entry \"character #1\": must be a mapping of keys to values, got 'Bob'"
    )


def test_a_file_must_hold_a_mapping_at_the_top(write_campaign, cli) -> None:
    result = run_check(write_campaign, cli, "- name: Bob\n")
    assert_fails_with(
        result, f"{FILE}:1: a definitions file holds top-level lists such as characters:"
    )


# --------------------------------------------------------------------------------------------
# unsafe or broken YAML


def test_duplicate_yaml_key_names_both_lines(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              toughness: 3
              stealth: 1
              toughness: 4
        """,
    )
    assert_fails_with(result, f'{FILE}:6: duplicate key "toughness" (first given on line 4)')


def test_yaml_syntax_error_names_the_line(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
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


def test_a_tab_in_the_indentation_is_named_as_the_cause(write_campaign, cli) -> None:
    result = run_check(
        write_campaign, cli, "characters:\n  - name: Bob\n    abilities:\n\t  toughness: 3\n"
    )
    assert_fails_with(
        result,
        f"{FILE}:4: a tab character (found character that cannot start any token):"
        " YAML indents with spaces only; replace the tab with spaces",
    )


def test_an_alias_without_its_anchor_names_the_alias(write_campaign, cli) -> None:
    result = run_check(write_campaign, cli, "characters:\n  - name: Bob\n    abilities: *stats\n")
    assert_fails_with(result, f'{FILE}:3: the alias "*stats" names no anchor above it')


def test_two_documents_in_one_file_are_refused_at_the_second(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        "characters:\n  - name: Bob\n    abilities: {toughness: 3}\n---\ncharacters: []\n",
    )
    assert_fails_with(result, f"{FILE}:4: holds more than one YAML document; give one per file")


def test_python_object_tag_is_refused_and_never_run(write_campaign, cli, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    result = run_check(
        write_campaign,
        cli,
        f"""\
        characters:
          - name: Bob
            description: !!python/object/apply:os.system ["touch {marker}"]
            abilities: {{toughness: 1}}
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:3: the tag !!python/object/apply:os.system is not allowed: definitions hold"
        " plain text, numbers, lists and mappings",
    )
    assert not marker.exists()


def test_local_tag_is_refused(write_campaign, cli) -> None:
    result = run_check(write_campaign, cli, "characters:\n  - !thing {name: Bob}\n")
    [line] = problem_lines(result)
    assert line.startswith(f"{FILE}:2: the tag !thing is not allowed")


def test_alias_bomb_is_refused(write_campaign, cli) -> None:
    rows = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        rows.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    result = run_check(write_campaign, cli, "\n".join(rows) + "\n")
    assert_fails_with(
        result,
        f"{FILE}:1: the document expands to more than {MAX_NODES} values (nested aliases?);"
        " refused",
    )


def test_small_aliases_are_fine(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Twin A
            abilities: &same {toughness: 2, fighting: 1}
          - name: Twin B
            abilities: *same
        """,
    )
    assert result.exit_code == 0, result.stderr
    assert "2 entries checked with the current rules: 0 errors, 0 warnings." in result.stdout


# --------------------------------------------------------------------------------------------
# vehicles, crew, names, minions (the campaign-wide checks)


def test_vehicle_movement_must_be_a_vehicle_movement_ability(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        vehicles:
          - name: Boat
            abilities: {toughness: 10, sailing: 2}
            movement: saling
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: entry \"Boat\": movement: 'saling' is not a vehicle movement ability"
        f" (did you mean 'sailing'?); allowed: {MOVEMENTS}",
    )


def test_vehicle_must_have_the_movement_ability_it_moves_by(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        vehicles:
          - name: Boat
            movement: sailing
            abilities: {toughness: 10, swimming: 2}
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:3: entry "Boat": movement: moves by sailing, which is not among its abilities',
    )


def test_unknown_crew_member_suggests_the_closest_name(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Chokestar
            abilities: {toughness: 3, piloting: 2}
          - name: Flipfire
            abilities: {toughness: 4, shooting: 2}
        vehicles:
          - name: Sadisto
            movement: spaceflight
            abilities: {toughness: 16, spaceflight: 3, guns: 3}
            crew:
              operator: Chokestar
              gunner: Flipfyre
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:12: entry \"Sadisto\": crew.gunner: no character named 'Flipfyre' in the"
        " campaign (did you mean 'Flipfire'?)",
    )
    assert "3 entries checked with the current rules: 1 error, 0 warnings." in result.stdout


def test_unknown_crew_key_lists_operator_and_gunner(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        vehicles:
          - name: Kite
            movement: flying
            abilities: {toughness: 9, flying: 2}
            crew: {pilot: Ludo}
        """,
    )
    assert_fails_with(
        result, f'{FILE}:5: entry "Kite": crew.pilot: unknown key; allowed: {allowed(CrewDef)}'
    )


def test_duplicate_character_names_point_at_the_first(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "a.yaml": "characters:\n  - name: Bob\n    abilities: {toughness: 2}\n",
            "b.yaml": "\n\ncharacters:\n  - name: Bob\n    abilities: {toughness: 3}\n",
        }
    )
    result = cli("check", folder)
    assert_fails_with(
        result,
        'campaign/b.yaml:4: entry "Bob": name: another character has this name'
        " (campaign/a.yaml:2); names must be unique",
    )


def test_a_character_and_a_vehicle_may_share_a_name(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Patience
            abilities: {toughness: 2}
        vehicles:
          - name: Patience
            movement: quickness
            abilities: {toughness: 20, quickness: 1}
        """,
    )
    assert result.exit_code == 0, result.stderr


def test_minion_limits_are_reported_under_the_leader(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Boss
            abilities: {toughness: 3, command: 4}
            minions:
              - name: Thugs
                count: 3
                abilities: {toughness: 2}
          - name: Loner
            abilities: {toughness: 3}
            minions:
              - name: Dog
                abilities: {toughness: 1}
          - name: General
            abilities: {toughness: 3, command: 4}
            minions:
              - name: Aide
                abilities: {toughness: 1}
              - name: Colonel
                abilities: {toughness: 1, command: 1}
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:4: entry "Boss": minions: command gives 1 or 2 minions, this character has 3',
        f'{FILE}:4: entry "Boss": minions: minions cost 6 CP (3 x 2 CP), more than command 4',
        f'{FILE}:10: entry "Loner": minions: only a character with command has minions',
        f'{FILE}:18: entry "General": minions.1: minions cannot have command',
    )


def test_minion_count_must_be_at_least_one(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Boss
            abilities: {toughness: 3, command: 4}
            minions:
              - name: Nobody
                count: 0
                abilities: {toughness: 1}
        """,
    )
    assert_fails_with(result, f'{FILE}:6: entry "Boss": minions.0.count: must be 1 or more, got 0')


# --------------------------------------------------------------------------------------------
# scratchpress.toml

GOOD = "characters:\n  - name: Bob\n    abilities: {toughness: 2}\n"
TOML = "campaign/scratchpress.toml"


def check_with_toml(write_campaign, cli, toml: str) -> Result:
    folder = write_campaign({"c.yaml": GOOD, "scratchpress.toml": toml})
    return cli("check", folder)


def test_toml_unknown_ruleset(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, 'rules = "modern"\n')
    assert_fails_with(
        result, f"{TOML}:1: rules: must be 'current', 'early' or 'classic', got 'modern'"
    )


def test_toml_negative_cp(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, 'paper = "a4"\ncp = -1\n')
    assert_fails_with(result, f"{TOML}:2: cp: must be 1 or more, got -1")


def test_toml_unknown_key(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, "cp = 10\nmax_levle = 5\n")
    assert_fails_with(
        result,
        f"{TOML}:2: max_levle: unknown key (did you mean 'max_level'?); allowed: {SETTINGS_KEYS}",
    )


def test_toml_problems_are_all_reported_at_once(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, 'rules = "modern"\ncp = -1\nthemes = 1\n')
    assert_fails_with(
        result,
        f"{TOML}:1: rules: must be 'current', 'early' or 'classic', got 'modern'",
        f"{TOML}:2: cp: must be 1 or more, got -1",
        f"{TOML}:3: themes: unknown key; allowed: {SETTINGS_KEYS}",
    )


def test_toml_syntax_error(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, "cp = \n")
    [line] = problem_lines(result)
    assert line.startswith(f"{TOML}:1: TOML syntax error: ")
    assert "line 1" in line
    assert result.exit_code == 1


def test_toml_problems_name_their_line(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, '# settings\npaper = "a4"\ncp = -1\n')
    assert_fails_with(result, f"{TOML}:3: cp: must be 1 or more, got -1")


def test_toml_and_yaml_problems_are_reported_together(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "c.yaml": "characters:\n  - name: Bob\n    abilities: {toughness: 0}\n",
            "scratchpress.toml": "cp = -1\n",
        }
    )
    result = cli("check", folder)
    lines = problem_lines(result)
    assert f"{TOML}:1: cp: must be 1 or more, got -1" in lines
    assert f'{FILE}:3: entry "Bob": abilities.toughness: must be 1 or more, got 0' in lines


# --------------------------------------------------------------------------------------------
# paths


def test_a_missing_path_is_a_clean_error(cli) -> None:
    result = cli("check", "nowhere")
    assert_fails_with(result, "nowhere: no such file or folder")


def test_a_folder_without_definitions_is_a_clean_error(write_campaign, cli) -> None:
    folder = write_campaign({"notes.txt": "nothing here\n"})
    result = cli("check", folder)
    assert_fails_with(result, "campaign: no *.yaml definitions found")


def test_a_single_file_can_be_checked(write_campaign, cli) -> None:
    folder = write_campaign(
        {"c.yaml": "characters:\n  - name: Bob\n    abilities: {toughness: 0}\n"}
    )
    result = cli("check", folder / "c.yaml")
    assert_fails_with(
        result, f'{FILE}:3: entry "Bob": abilities.toughness: must be 1 or more, got 0'
    )


def test_a_file_that_is_not_utf8_is_a_clean_error(write_campaign, cli) -> None:
    folder = write_campaign({})
    (folder / "c.yaml").write_bytes(b"characters:\n  - name: \xff\xfe\n")
    result = cli("check", folder)
    assert_fails_with(
        result, f"{FILE}:2: not UTF-8 text: byte 0xff at column 11; save the file as UTF-8"
    )


# --------------------------------------------------------------------------------------------
# many problems, one pass


def test_several_problems_in_one_file_are_all_reported(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Ann
            abilities: {toughness: 0}
          - name: Ben
            abilities: {stelth: 2, toughness: 2}
          - name: Cat
            abilites: {toughness: 2}
        vehicles:
          - name: Car
            movement: walking
            abilities: {toughness: 10}
        """,
    )
    lines = problem_lines(result)
    assert lines == [
        f'{FILE}:3: entry "Ann": abilities.toughness: must be 1 or more, got 0',
        f"{FILE}:5: entry \"Ben\": abilities.stelth: unknown character ability 'stelth'"
        " (did you mean 'stealth'?)",
        f"{FILE}:7: entry \"Cat\": abilites: unknown key (did you mean 'abilities'?)",
        f"{FILE}:10: entry \"Car\": movement: 'walking' is not a vehicle movement ability"
        f" (did you mean 'sailing'?); allowed: {MOVEMENTS}",
    ]
    assert "4 errors; nothing was written." in result.stderr
    assert result.exit_code == 1


def test_problems_in_several_files_are_all_reported(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "a.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 0}\n",
            "b.yaml": "characters:\n  - name: Ben\n    abilities: {toughness: 1, stelth: 1}\n",
        }
    )
    result = cli("check", folder)
    lines = problem_lines(result)
    assert len(lines) == 2
    assert lines[0].startswith('campaign/a.yaml:3: entry "Ann": abilities.toughness:')
    assert lines[1].startswith('campaign/b.yaml:3: entry "Ben": abilities.stelth:')


def test_a_bad_level_does_not_hide_an_unknown_ability_in_the_same_entry(
    write_campaign, cli
) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              toughness: 0
              stelth: 2
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:4: entry "Bob": abilities.toughness: must be 1 or more, got 0',
        f"{FILE}:5: entry \"Bob\": abilities.stelth: unknown character ability 'stelth'"
        " (did you mean 'stealth'?)",
    )


def test_a_misspelt_printed_value_is_an_error(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities: {toughness: 3}
            printed: {agilty: 10}
        """,
    )
    assert result.exit_code == 1
    [line] = problem_lines(result)
    assert line.startswith(f'{FILE}:4: entry "Bob": printed.agilty: ')
    assert "agility" in line.split("printed.agilty: ")[1]


# --------------------------------------------------------------------------------------------
# printed values compared


def test_a_printed_value_that_differs_is_an_error_with_the_rule(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Chokestar
            abilities: {wrestling: 2, stealth: 3, toughness: 3}
            printed:
              agility: 13
              strength: 14
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:6: entry "Chokestar": printed.strength: the book prints 14, the current rules'
        " give 12 (strength 12 = 10 + wrestling 2)",
    )


def test_a_printed_value_the_ruleset_does_not_compute_is_a_note(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Chokestar
            abilities: {wrestling: 2, stealth: 3, toughness: 3}
            printed: {defense: 13}
        """,
    )
    assert result.exit_code == 0
    assert (
        f'{FILE}:4: note: entry "Chokestar": printed.defense: the book prints defense 13;'
        " the current ruleset does not compute defense, so it is not compared"
    ) in result.stdout.splitlines()


def test_a_printed_crewed_ability_that_differs_is_an_error(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Ace
            abilities: {piloting: 2, toughness: 2}
        vehicles:
          - name: Kite
            movement: flying
            abilities: {toughness: 9, flying: 2}
            crew: {operator: Ace}
            printed:
              crewed_abilities: {flying: 5}
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:10: entry "Kite": printed.crewed_abilities.flying: the book prints flying 5'
        " with crew, we compute 4",
    )


# --------------------------------------------------------------------------------------------
# things that must load


def test_name_no_stays_the_string_no(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            characters:
              - name: No
                abilities: {toughness: 2}
              - name: yes
                abilities: {toughness: 2}
              - name: 1984
                abilities: {toughness: 2}
            """
        }
    )
    campaign = load_campaign([folder])
    assert [c.name for c in campaign.characters] == ["No", "yes", "1984"]
    result = cli("stats", folder)
    assert result.exit_code == 0
    assert result.stdout.startswith("No (10 agility, 10 intelligence, 9 strength, 1 stamina)\n")


def test_stalking_is_accepted_as_stealth(write_campaign, cli) -> None:
    folder = write_campaign(
        {"c.yaml": "characters:\n  - name: Robyn\n    abilities: {stalking: 3, toughness: 3}\n"}
    )
    assert cli("check", folder).exit_code == 0
    result = cli("stats", folder, "--explain")
    assert "agility 13 = 10 + stealth 3" in result.stdout
    assert "initiative bonus 6 = 2 x stealth 3" in result.stdout


def test_stalking_is_a_vehicle_ability_not_renamed(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "c.yaml": """\
            vehicles:
              - name: Kite
                movement: flying
                abilities: {toughness: 9, flying: 2, stalking: 1}
            """
        }
    )
    result = cli("stats", folder, "--json")
    assert result.exit_code == 0
    assert '"stalking": 1' in result.stdout
