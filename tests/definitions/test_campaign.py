"""One test per error a user can see from the loader and the campaign checks.

Every test goes through ``scratchpress check`` and asserts the exit code, the exact
``file:line: entry "Name": field: message`` line (with the right line number), and that no
traceback leaks out (the ``cli`` fixture checks that on every run).
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import resource
import shutil
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from PIL import Image
from ruamel.yaml import YAML
from typer.testing import CliRunner, Result

from scratchpress.cli.app import app
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import (
    ENTRY_MODELS,
    CharacterDef,
    CrewDef,
    MinionDef,
    Settings,
)
from scratchpress.definitions.yamlsafe import MAX_NODES, load_yaml
from scratchpress.problems import InputError
from scratchpress.render import engine
from scratchpress.render.images import ImageProblem, portrait_data_url
from scratchpress.resources import examples_dir
from scratchpress.rules.abilities import CHARACTER_ABILITIES, VEHICLE_ABILITIES, VEHICLE_MOVEMENT

from standin import install_stand_in

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
        ('"3"', "must be a whole number, got '3' in quotes; remove the quotes"),
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
    ) in result.stderr.splitlines()


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


# -------------------- formerly tests/test_fuzz.py
# Fuzzing: random and mutated definitions through ``check`` and ``build``.
#
# Whatever a campaign holds, scratchpress answers with exit code 0 (fine) or 1 (problems,
# each named), never a traceback, and writes nothing outside the output folder.
#
# Most examples run the real pipeline (YAML, validation, rules, view models, the real Jinja
# templates, the cache and the writes) with WeasyPrint replaced by a stub, so that a few
# hundred campaigns fit in seconds; ``test_mutated_campaigns_render_for_real`` keeps WeasyPrint
# for a handful. Renderer failures are caught per document anyway (render/pool.py).

runner = CliRunner()


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- strategies ------------------------------------------------------------------------------

NASTY_TEXT = [
    "No", "yes", "007", "1e3", ".inf", "-.nan", "0x1F", "~", "", " ", "<script>x</script>",
    '<img src="file:///etc/passwd">', "{{ 7*7 }}", "{% include '../x' %}", "%s%n", "../../x",
    "/dev/zero", "portraits/teodora-vance.png", "../outside.png", "CON", "a\\b", "\u202eevil",
    "\0", "é" * 150, "x" * 5000, "😀" * 30, "\ufeff", "&amp;", "]]>",
]  # fmt: skip
FIELD_NAMES = [
    "name", "player", "description", "group", "portrait", "career", "abilities", "minions",
    "printed", "level", "note", "count", "movement", "crew", "operator", "gunner", "economy",
    "environment", "equity", "players", "projects", "history", "year", "event", "develop",
    "sacrifice", "roll", "title", "id", "agility", "hit_points", "stamina",
]  # fmt: skip
TOP_KEYS = ["characters", "vehicles", "communities", "events", "careers", "project_ideas"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-3, max_value=40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(NASTY_TEXT),
)
keys = st.one_of(
    st.sampled_from(FIELD_NAMES + list(CHARACTER_ABILITIES) + list(VEHICLE_ABILITIES)),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=25,
)
levels = st.integers(min_value=1, max_value=6) | st.integers(min_value=-2, max_value=30) | values
abilities = st.dictionaries(
    st.sampled_from(CHARACTER_ABILITIES) | st.text(max_size=10),
    levels | st.fixed_dictionaries({"level": levels}, optional={"note": st.text() | values}),
    max_size=6,
)
texts = st.text(max_size=80) | st.sampled_from(NASTY_TEXT)
known_fields = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=60) | st.sampled_from(NASTY_TEXT),
        "abilities": abilities,
    },
    optional={
        "description": texts | values,
        "player": texts | values,
        "group": texts,
        "portrait": st.sampled_from(NASTY_TEXT),
        "minions": st.lists(
            st.fixed_dictionaries({"name": st.text(max_size=20), "abilities": abilities}),
            max_size=3,
        ),
        "printed": st.dictionaries(st.text(max_size=10), values, max_size=3),
    },
)
characters = st.builds(
    lambda extra, known: {**extra, **known},
    st.just({}) | st.dictionaries(st.text(max_size=8), values, max_size=2),  # unknown keys
    known_fields,
)
campaign_data = st.dictionaries(
    st.sampled_from(TOP_KEYS) | st.text(max_size=10),
    st.lists(characters | values, max_size=4) | values,
    max_size=3,
) | st.fixed_dictionaries({"characters": st.lists(characters, min_size=1, max_size=3)})
settings_text = st.sampled_from(
    ["", 'rules = "classic"\n', "cp = 1000000000000\n", "max_level = -1\n", "paper = 3\n",
     'rules = "nope"\n', "cp = [\n", "duplex_offset_mm = [1e308, -1e308]\n", "\0"]
)  # fmt: skip


def dump(data: Any) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buffer = io.StringIO()
    try:
        yaml.dump(data, buffer)
    except RecursionError:  # ruamel's emitter recurses; JSON is YAML too
        return json.dumps(data)
    return buffer.getvalue()


def _example(name: str) -> Any:
    return YAML(typ="safe", pure=True).load((examples_dir() / name).read_text(encoding="utf-8"))


EXAMPLES = {
    name: _example(name)
    for name in ("party.yaml", "adversaries.yaml", "vehicles.yaml", "community.yaml")
}


def _paths(data: Any) -> Iterator[tuple[Any, ...]]:
    """Every path into ``data``, without recursion (mutations nest values 150 deep)."""
    stack: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while stack:
        here, value = stack.pop()
        yield here
        if isinstance(value, dict):
            stack += [((*here, k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [((*here, i), v) for i, v in enumerate(value)]


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _deep(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


MUTATIONS: list[str] = ["drop", "replace", "huge", "unicode", "deep", "wrap", "duplicate", "type"]


def mutate(data: Any, rng: random.Random, replacement: Any) -> Any:
    """One random change at a random place: a dropped key, a wrong type, a huge number..."""
    paths = [p for p in _paths(data) if p]
    if not paths:
        return _copy(replacement)
    path = rng.choice(paths)
    parent, last = _at(data, path[:-1]), path[-1]
    kind = rng.choice(MUTATIONS)
    if kind == "drop":
        del parent[last]
    elif kind == "replace":
        parent[last] = _copy(replacement)  # a copy: the same list put inside itself is a cycle
    elif kind == "huge":
        parent[last] = rng.choice([10**100, -(10**100), 2**63, 1e308, float("inf"), -1])
    elif kind == "unicode":
        parent[last] = rng.choice(NASTY_TEXT[-8:]) + str(parent[last])
    elif kind == "deep":
        parent[last] = _deep(rng.choice([10, 63, 70, 150]))
    elif kind == "wrap":
        parent[last] = [parent[last]] if rng.random() < 0.5 else {"x": parent[last]}
    elif kind == "duplicate" and isinstance(parent, list):
        parent.append(parent[last])
    else:
        value = parent[last]
        parent[last] = str(value) if not isinstance(value, str) else rng.randint(-5, 50)
    return data


# --- running ---------------------------------------------------------------------------------


@contextmanager
def stub_renderer() -> Iterator[None]:
    """WeasyPrint replaced by the suite's stand-in (standin.py) for the examples inside."""
    with pytest.MonkeyPatch.context() as patch:
        install_stand_in(patch)
        yield


def invoke(*args: str | os.PathLike[str]) -> Result:
    result = runner.invoke(app, [str(a) for a in args])
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"scratchpress {args} crashed: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    return result


def snapshot(root: Path, skip: Path) -> dict[str, bytes]:
    found = {}
    for path in sorted(root.rglob("*")):
        if path == skip or skip in path.parents:
            continue
        if path.is_symlink():
            found[str(path)] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            found[str(path)] = path.read_bytes()
        else:
            found[str(path)] = b"<dir>"
    return found


@contextmanager
def memory_guard(headroom_mb: int = 3072) -> Iterator[None]:
    """Lower this process's soft address-space limit while an example runs, so a memory
    bomb is a MemoryError (a failed example) rather than the machine's OOM killer."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as handle:
        vsz = int(handle.read().split()[0]) * resource.getpagesize()
    limit = vsz + headroom_mb * 2**20
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def check_and_build(files: dict[str, str], build_args: tuple[str, ...] = ()) -> None:
    """Write a campaign in a fresh folder, run check and build inside it, and compare the
    folder before and after: only the output folder may change."""
    with tempfile.TemporaryDirectory() as temp, pytest.MonkeyPatch.context() as patch:
        root = Path(temp)
        campaign = root / "campaign"
        (campaign / "portraits").mkdir(parents=True)
        for portrait in (examples_dir() / "portraits").glob("*.png"):
            shutil.copy(portrait, campaign / "portraits")
        (root / "outside.png").write_bytes(b"not for you")
        for name, text in files.items():
            (campaign / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        out = root / "out"
        before = snapshot(root, out)
        patch.chdir(root)  # hypothesis runs many examples in one test: undone on each exit
        with memory_guard():
            checked = invoke("check", campaign)
            built = invoke("build", campaign, "-o", out, "--only", "sheets", "-j", "1", *build_args)
        written = len(list(out.glob("*.pdf"))) if out.exists() else 0
        event(f"check {checked.exit_code}, build {built.exit_code}, PDFs: {written > 0}")
        assert snapshot(root, out) == before
        if out.exists():
            for path in out.rglob("*"):
                assert out.resolve() in path.resolve().parents


# --- the fuzz tests ----------------------------------------------------------------------------


@fuzz(400)
@given(st.text(max_size=300))
def test_any_text_loads_or_is_an_input_error(text: str) -> None:
    try:
        load_yaml(text, "fuzz.yaml")
    except InputError as err:
        assert all(p.file == "fuzz.yaml" for p in err.problems)


@fuzz(40)
@given(campaign_data, settings_text)
def test_random_definitions_never_crash(data: Any, toml: str) -> None:
    with stub_renderer():
        check_and_build({"party.yaml": dump(data), "scratchpress.toml": toml}, ("--no-cache",))


@fuzz(25)
@given(st.text(max_size=400), st.sampled_from(["party.yaml", "x.yml", "scratchpress.toml"]))
def test_random_text_files_never_crash(text: str, name: str) -> None:
    files = {"party.yaml": dump(EXAMPLES["party.yaml"])} if name != "party.yaml" else {}
    with stub_renderer():
        check_and_build({**files, name: text})


@fuzz(40)
@given(
    st.randoms(use_true_random=False),
    st.integers(min_value=1, max_value=5),
    values,
    st.sampled_from(sorted(EXAMPLES)),
)
def test_mutated_example_campaigns_never_crash(
    rng: random.Random, count: int, replacement: Any, name: str
) -> None:
    data = EXAMPLES[name]
    mutated = _copy(data)
    for _ in range(count):
        mutated = mutate(mutated, rng, replacement)
    files = {"party.yaml": dump(EXAMPLES["party.yaml"]), name: dump(mutated)}
    with stub_renderer():
        check_and_build(files)  # with the cache: a second look at its writes


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


@fuzz(4)
@given(st.randoms(use_true_random=False), st.lists(texts, min_size=1, max_size=4))
def test_mutated_campaigns_render_for_real(rng: random.Random, replacements: list[str]) -> None:
    """A few through WeasyPrint itself: one character of the example party, its text fields
    (name, description, notes) replaced by hostile or random text, with the real templates."""
    character = _copy(rng.choice(EXAMPLES["party.yaml"]["characters"]))
    text_paths = [
        p
        for p in _paths(character)
        if p and isinstance(_at(character, p), str) and p[0] != "portrait"
    ]
    for text in replacements:
        path = rng.choice(text_paths)
        _at(character, path[:-1])[path[-1]] = text
    check_and_build({"party.yaml": dump({"characters": [character]})}, ("--no-cache",))


# --- images ----------------------------------------------------------------------------------


def _seed_images() -> dict[str, bytes]:
    seeds = {}
    for fmt in ("PNG", "JPEG", "WEBP"):
        buffer = io.BytesIO()
        Image.new("RGB", (24, 32), (200, 30, 30)).save(buffer, format=fmt)
        seeds[fmt] = buffer.getvalue()
    buffer = io.BytesIO()
    image = Image.new("RGB", (24, 32))
    exif = image.getexif()
    exif[0x0112] = 6  # rotated: exercises exif_transpose
    image.save(buffer, format="JPEG", exif=exif)
    seeds["JPEG-EXIF"] = buffer.getvalue()
    header = struct.pack(">IIBBBBB", 60_000, 60_000, 8, 2, 0, 0, 0)
    ihdr = b"IHDR" + header
    seeds["PNG-BOMB"] = (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
    )
    return seeds


SEEDS = _seed_images()
edits = st.lists(
    st.tuples(st.integers(min_value=0, max_value=10_000), st.integers(0, 255)), max_size=8
)


@fuzz(300)
@given(
    st.sampled_from(sorted(SEEDS)), edits, st.integers(min_value=0, max_value=10_000) | st.none()
)
def test_damaged_portraits_are_an_image_problem_or_fine(
    seed: str, changes: list[tuple[int, int]], cut: int | None
) -> None:
    data = bytearray(SEEDS[seed])
    for position, byte in changes:
        data[position % len(data)] = byte
    if cut is not None:
        data = data[: cut % (len(data) + 1)]
    with tempfile.TemporaryDirectory() as temp:
        face = Path(temp) / "face.png"
        face.write_bytes(bytes(data))
        try:
            url = portrait_data_url(face, [Path(temp)], (30.0, 40.0))
        except ImageProblem as problem:
            assert "face.png" in str(problem)
        else:
            assert url.startswith("data:image/jpeg;base64,")


@pytest.fixture(autouse=True)
def _no_stub_left_behind() -> Iterator[None]:
    original: Callable[..., Any] = engine.render_pdf
    yield
    assert engine.render_pdf is original


# --------------------------------------------------------------------------------------------
# no file silently unread, every newcomer mistake explained (issue 31)

ANN = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"
NOT_A_DEFINITIONS_FILE = "note: is not read as a definitions file"
SUBFOLDER_NOTE = (
    "note: is not read: a build reads only the YAML files directly in the campaign folder,"
    " not in its subfolders; move it up one folder"
)


def notes_of(result: Result) -> list[str]:
    return [line for line in result.stderr.splitlines() if ": note: " in line]


def test_a_file_whose_txt_ending_windows_hid_is_a_note(write_campaign, cli) -> None:
    folder = write_campaign({"party.yaml": ANN, "villains.yaml.txt": ANN.replace("Ann", "Bo")})
    result = cli("check", folder)
    assert result.exit_code == 0, result.stderr
    assert notes_of(result) == [
        f"campaign/villains.yaml.txt: {NOT_A_DEFINITIONS_FILE}: its name ends in .txt (Windows"
        " hides that ending); rename it villains.yaml"
    ]
    assert "0 errors, 0 warnings" in result.stdout


def test_a_folder_holding_only_a_txt_file_says_why_nothing_was_found(write_campaign, cli) -> None:
    result = cli("check", write_campaign({"party.yaml.txt": ANN}))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"campaign/party.yaml.txt: {NOT_A_DEFINITIONS_FILE}: its name ends in .txt (Windows"
        " hides that ending); rename it party.yaml",
        "campaign: no *.yaml definitions found",
        "1 error; nothing was written.",
    ]


@pytest.mark.parametrize(
    ("name", "why_and_fix"),
    [
        (
            "party.yaml ",
            "its name has a space at its start or end ('party.yaml '); rename it party.yaml",
        ),
        ("party.YML.TXT", "its name ends in .TXT (Windows hides that ending); rename it party.YML"),
        (
            "party.yaml.rtf",
            "its name ends in .rtf (Windows hides that ending); rename it party.yaml",
        ),
        ("party.ymal", ".ymal is not .yaml or .yml; rename it party.yml"),
        ("party.yam", ".yam is not .yaml or .yml; rename it party.yaml"),
    ],
    ids=["trailing-space", "upper-case-txt", "rtf", "ymal", "yam"],
)
def test_a_near_miss_definitions_name_is_a_note(write_campaign, cli, name, why_and_fix) -> None:
    result = cli("check", write_campaign({"a.yaml": ANN, name: "characters: []\n"}))
    assert result.exit_code == 0, result.stderr
    assert notes_of(result) == [f"campaign/{name}: {NOT_A_DEFINITIONS_FILE}: {why_and_fix}"]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Scratchpress.toml", "the name must be in lower case"),
        ("scratchpress.toml.txt", "its name ends in .txt (Windows hides that ending)"),
        ("scratchpress.tml", ".tml is not .toml"),
    ],
)
def test_a_near_miss_settings_name_is_a_note(write_campaign, cli, name, why) -> None:
    result = cli("check", write_campaign({"a.yaml": ANN, name: 'paper = "a4"\n'}))
    assert result.exit_code == 0, result.stderr
    assert notes_of(result) == [
        f"campaign/{name}: note: is not read as the settings (scratchpress.toml): {why};"
        " rename it scratchpress.toml"
    ]


def test_backups_and_other_files_are_no_near_misses(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "a.yaml": ANN,
            "party.yaml~": ANN,
            "party.yaml.bak": ANN,
            "notes.txt": "a GM's notes\n",
            "map.xml": "<map/>\n",
            "crew.yml": ANN.replace("Ann", "Bo"),  # read, like .yaml
        }
    )
    result = cli("check", folder)
    assert result.exit_code == 0, result.stderr
    assert notes_of(result) == []
    assert "2 entries checked" in result.stdout


def test_yaml_in_a_subfolder_is_a_note_but_not_in_folders_of_other_things(
    write_campaign, cli, tmp_path: Path
) -> None:
    folder = write_campaign({"party.yaml": ANN})
    for sub in ("npcs", "output", "theme", "fonts", ".git", ".github/workflows"):
        (folder / sub).mkdir(parents=True)
        (folder / sub / "thugs.yaml").write_text(ANN.replace("Ann", "Thug"), encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "far.yaml").write_text(ANN, encoding="utf-8")
    (folder / "linked").symlink_to(tmp_path / "elsewhere")  # not followed out of the campaign
    result = cli("check", folder)
    assert result.exit_code == 0, result.stderr
    assert notes_of(result) == [f"campaign/npcs/thugs.yaml: {SUBFOLDER_NOTE}"]


def test_many_yaml_files_in_subfolders_are_ten_notes_and_a_count(write_campaign, cli) -> None:
    folder = write_campaign({"party.yaml": ANN})
    (folder / "old").mkdir()
    for n in range(13):
        (folder / "old" / f"v{n:02}.yaml").write_text(ANN, encoding="utf-8")
    notes = notes_of(cli("check", folder))
    assert notes[:10] == [f"campaign/old/v{n:02}.yaml: {SUBFOLDER_NOTE}" for n in range(10)]
    assert notes[10:] == [
        "campaign: note: and 3 more YAML files in its subfolders are not read either"
    ]


def test_a_subfolder_note_stands_beside_the_errors_it_explains(write_campaign, cli) -> None:
    folder = write_campaign(
        {
            "vehicles.yaml": "vehicles:\n  - name: Mule\n    movement: quickness\n"
            "    abilities: {toughness: 5, quickness: 1}\n    crew: {operator: Ann}\n"
        }
    )
    (folder / "npcs").mkdir()
    (folder / "npcs" / "crew.yaml").write_text(ANN, encoding="utf-8")
    result = cli("check", folder)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"campaign/npcs/crew.yaml: {SUBFOLDER_NOTE}"
    assert "crew.operator: no character named 'Ann' in the campaign" in lines[1]


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("", "campaign/npcs.yaml: note: is empty: nothing in it is built"),
        ("\n  \n", "campaign/npcs.yaml: note: is empty: nothing in it is built"),
        (
            "# thugs to come\n",
            "campaign/npcs.yaml: note: holds only comments: nothing in it is built",
        ),
        ("npcs:\n", "campaign/npcs.yaml:1: note: npcs: is empty: nothing under it is built"),
    ],
    ids=["empty", "blank-lines", "comments", "empty-list"],
)
def test_an_empty_file_is_a_note_not_a_silent_pass(write_campaign, cli, text, note) -> None:
    result = cli("check", write_campaign({"party.yaml": ANN, "npcs.yaml": text}))
    assert result.exit_code == 0, result.stderr
    assert notes_of(result) == [note]
    assert "1 entry checked with the current rules: 0 errors, 0 warnings." in result.stdout


@pytest.mark.parametrize("name", ["settings.yaml", "config.yaml", "scratchpress.yaml"])
def test_settings_in_a_yaml_file_point_to_scratchpress_toml(write_campaign, cli, name) -> None:
    folder = write_campaign(
        {"party.yaml": ANN, name: "paper: a4\ncp: 12\nonly: [sheets]\nbuild:\n  png: true\n"}
    )
    where = f"campaign/{name}"
    assert_fails_with(
        cli("check", folder),
        f"{where}:1: paper: a setting, not a list of entries: settings go in scratchpress.toml,"
        ' not in a YAML file; write paper = "a4" there',
        f"{where}:2: cp: a setting, not a list of entries: settings go in scratchpress.toml,"
        " not in a YAML file; write cp = 12 there",
        f"{where}:3: only: unknown top-level key 'only'; allowed: {TOP_LEVEL_KEYS}",
        f"{where}:4: build: a setting, not a list of entries: settings go in scratchpress.toml,"
        " not in a YAML file; write its [build] table there",
    )


def test_a_booklet_yml_is_told_its_name(write_campaign, cli) -> None:
    folder = write_campaign({"party.yaml": ANN, "booklet.yml": "title: Handout\n"})
    assert_fails_with(
        cli("check", folder),
        "campaign/booklet.yml: the booklet is read only from booklet.yaml; rename it booklet.yaml",
    )


def test_abilities_written_as_a_list_say_remove_the_dashes(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Bob
            abilities:
              - shooting: 2
              - toughness: 3
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:3: entry "Bob": abilities: must be a mapping of keys to values, got list;'
        " remove the dashes: write shooting: 2, not - shooting: 2",
    )


def test_a_quoted_number_in_scratchpress_toml_says_remove_the_quotes(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, 'cp = "12"\n')
    assert_fails_with(
        result, f"{TOML}:1: cp: must be a whole number, got '12' in quotes; remove the quotes"
    )


def test_a_misspelt_kind_in_the_build_table_says_did_you_mean(write_campaign, cli) -> None:
    result = check_with_toml(write_campaign, cli, '[build]\nonly = ["sheet"]\n')
    [line] = problem_lines(result)
    assert line.startswith(f"{TOML}:2: build.only.0: must be 'sheets', ")
    assert line.endswith(", got 'sheet' (did you mean 'sheets'?)")


@pytest.mark.parametrize(
    ("note", "pieces"),
    [
        (
            "the mill, the ferry and a Saturday market",
            "'the ferry and a Saturday market' became a key",
        ),
        ("the mill, the ferry, a market", "'the ferry' and 'a market' became keys"),
        ("the mill, the ferry: a market", "'the ferry' became a key"),
    ],
    ids=["one-comma", "two-commas", "comma-then-colon"],
)
def test_a_comma_in_a_note_inside_braces_says_to_quote_the_note(
    write_campaign, cli, note, pieces
) -> None:
    result = run_check(
        write_campaign,
        cli,
        f"""\
        communities:
          - name: Greyford
            economy: {{level: 11, note: {note}}}
            environment: 9
            equity: 10
        """,
    )
    assert_fails_with(
        result,
        f'{FILE}:3: entry "Greyford": economy.note: a comma in the note inside {{ }} splits it'
        f' ({pieces}); put the note in quotes: note: "{note}"',
    )


def test_an_unknown_key_with_a_value_inside_braces_is_still_an_unknown_key(
    write_campaign, cli
) -> None:
    """A misspelt key is no split note, even on the line of its mapping."""
    result = run_check(
        write_campaign,
        cli,
        "characters:\n  - name: Bob\n    abilities: {toughness: {level: 2, note: x, levl: 3}}\n",
    )
    assert_fails_with(
        result,
        f'{FILE}:3: entry "Bob": abilities.toughness.levl: unknown key (did you mean'
        " 'level'?); allowed: level, note",
    )


# --- fuzz: every near-miss name is read or noted, every split note says how to quote it ------

near_miss_names = st.builds(
    lambda space, base, ending, hidden: f"{space}{base}{ending}{hidden}",
    st.sampled_from(["", " "]),
    st.sampled_from(["party", "Crew", "npcs.old"]),
    st.sampled_from([".yaml", ".yml", ".YAML", ".Yml", ".ymal", ".yam", ".yaml "]),
    st.sampled_from(["", ".txt", ".TXT", ".rtf", ".text"]),
)


@fuzz(60)
@given(near_miss_names, st.booleans())
def test_a_file_meant_as_definitions_is_read_or_named_in_a_note(name: str, below: bool) -> None:
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "campaign"
        where = folder / "sub" if below else folder
        where.mkdir(parents=True)
        (folder / "a.yaml").write_text(ANN, encoding="utf-8")
        (where / name).write_text(ANN.replace("Ann", "Meant"), encoding="utf-8")
        campaign = load_campaign([folder])
        read = campaign.character("Meant") is not None
        noted = [w for w in campaign.warnings if w.file.endswith(name)]
        assert read != bool(noted), (name, read, [str(w) for w in campaign.warnings])
        assert all(w.severity == "note" for w in campaign.warnings)


note_words = st.lists(
    st.sampled_from(["a", "tyre", "iron", "for", "rope", "hook"]), min_size=2, max_size=3
)


@fuzz(80)
@given(
    st.lists(
        st.tuples(note_words, st.sampled_from([" ", ", ", ": "])),
        min_size=1,
        max_size=3,
        unique_by=lambda part: tuple(part[0]),  # "rope, rope" is a duplicate key: its own test
    )
)
def test_a_note_cut_by_a_comma_or_a_colon_says_how_to_quote_it(
    parts: list[tuple[list[str], str]],
) -> None:
    note = "".join(" ".join(words) + sep for words, sep in parts[:-1]) + " ".join(parts[-1][0])
    text = (
        f"characters:\n  - name: Ann\n    abilities:\n      toughness: {{level: 2, note: {note}}}\n"
    )
    with tempfile.TemporaryDirectory() as temp:
        (Path(temp) / "c.yaml").write_text(text, encoding="utf-8")
        try:
            campaign = load_campaign([Path(temp)])
        except InputError as err:
            assert [p.line for p in err.problems] == [4], [str(p) for p in err.problems]
            assert str(err.problems[0]).endswith(f'put the note in quotes: note: "{note}"')
        else:
            assert ", " not in note and ": " not in note
            ann = campaign.character("Ann")
            assert ann is not None
            assert ann.definition.abilities["toughness"].note == note


def test_a_bare_misspelt_key_inside_braces_is_still_an_unknown_key(write_campaign, cli) -> None:
    result = run_check(
        write_campaign,
        cli,
        "vehicles:\n  - name: Mule\n    movement: quickness\n"
        "    abilities: {toughness: 5, quickness: 1}\n    crew: {operator: Ann, gunnr}\n"
        "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n",
    )
    assert_fails_with(
        result,
        f"{FILE}:5: entry \"Mule\": crew.gunnr: unknown key (did you mean 'gunner'?);"
        " allowed: operator, gunner",
    )
