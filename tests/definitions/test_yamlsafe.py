"""Friendlier YAML (issue 11): the usual parser errors in plain words with a hint, on the
line to fix; ``*.YAML`` files read too; one misspelt key gives one error.

Every test goes through ``scratchpress check`` and asserts the exact problem lines, exit 1
and no traceback (the ``cli`` fixture checks that on every run).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import Result

from scratchpress.definitions.models import CharacterDef
from scratchpress.definitions.yamlsafe import ParseMemo, load_yaml
from scratchpress.problems import InputError, Problem, quoted, safe_message, safe_text

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
        " factions, encounters",
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


# -------------------- formerly tests/test_hostile_input.py
# Input from strangers (issue 13): every problem line is safe to print and short, files in
# any usual encoding are read or refused in one line, and ``scratchpress.toml`` is as
# untrusted as the definitions.
#
# Each test asserts the exact problem lines a user sees, with file and line.

FILE_HOSTILE = "campaign/c.yaml"
TOML = "campaign/scratchpress.toml"
ONE = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"
BAD_TOUGHNESS = 'entry "Ann": abilities.toughness: must be 1 or more, got 0'


def problem_lines_hostile(result: Result) -> list[str]:
    """Error lines (stderr) without the closing summary."""
    return [
        line
        for line in result.stderr.splitlines()
        if line and not re.fullmatch(r"\d+ errors?; nothing was written\.", line)
    ]


def assert_fails_with_hostile(result: Result, *expected: str) -> None:
    """Exit 1 and exactly these problem lines, each short and free of control characters."""
    assert result.exit_code == 1, result.stdout + result.stderr
    assert problem_lines_hostile(result) == list(expected)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", result.stderr)


def write_bytes(folder: Path, files: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def check_yaml(write_campaign: Any, cli: Any, yaml_text: str) -> Result:
    return cli("check", write_campaign({"c.yaml": yaml_text}))


# --------------------------------------------------------------------------------------------
# safe messages


def test_a_terminal_escape_in_a_name_is_shown_escaped(write_campaign, cli) -> None:
    result = check_yaml(
        write_campaign,
        cli,
        'characters:\n  - name: "Ann\\e]0;pwned\\a"\n    abilities: {toughness: 0}\n',
    )
    assert_fails_with_hostile(
        result,
        f'{FILE_HOSTILE}:3: entry "Ann\\x1b]0;pwned\\x07": abilities.toughness: must be 1 or more, got 0',
    )
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr


def test_a_2_mb_name_gives_short_lines(write_campaign, cli) -> None:
    name = "x" * 2_000_000
    result = check_yaml(
        write_campaign, cli, f"characters:\n  - name: {name}\n    abilities: {{toughness: 0}}\n"
    )
    cut = "x" * 80 + "\u2026"
    assert_fails_with_hostile(
        result,
        f"{FILE_HOSTILE}:2: entry \"{cut}\": name: String should have at most 200 characters, got '{cut}'",
        f'{FILE_HOSTILE}:3: entry "{cut}": abilities.toughness: must be 1 or more, got 0',
    )
    assert all(len(line) < 400 for line in result.stderr.splitlines())


def test_a_name_with_an_escape_and_2_mb_is_cut_after_escaping(write_campaign, cli) -> None:
    result = check_yaml(
        write_campaign,
        cli,
        'characters:\n  - name: "\\e]0;pwned\\a' + "y" * 2_000_000 + '"\n    player: [3]\n',
    )
    cut = "\\x1b]0;pwned\\x07" + "y" * 64 + "\u2026"  # 80 characters as shown
    assert_fails_with_hostile(
        result,
        f"{FILE_HOSTILE}:2: entry \"{cut}\": name: String should have at most 200 characters, got '{cut}'",
        f'{FILE_HOSTILE}:2: entry "{cut}": abilities: required, but missing',
        f'{FILE_HOSTILE}:3: entry "{cut}": player: must be text, got list',
    )
    assert all(len(line) < 400 for line in result.stderr.splitlines())


def test_a_bidi_override_in_a_name_is_shown_escaped(write_campaign, cli) -> None:
    result = check_yaml(
        write_campaign,
        cli,
        'characters:\n  - name: "\u202eAnn\u2066x\u2069"\n    abilities: {toughness: 0}\n',
    )
    assert_fails_with_hostile(
        result,
        f'{FILE_HOSTILE}:3: entry "\\u202eAnn\\u2066x\\u2069": abilities.toughness: must be 1 or more,'
        " got 0",
    )


def test_a_control_character_in_a_value_is_shown_escaped(write_campaign, cli) -> None:
    result = check_yaml(
        write_campaign,
        cli,
        'characters:\n  - name: Ann\n    abilities: {toughness: "\\e[2J\\r\\nfake: error"}\n',
    )
    assert_fails_with_hostile(
        result,
        f'{FILE_HOSTILE}:3: entry "Ann": abilities.toughness: must be a whole number, got'
        " '\\x1b[2J\\r\\nfake: error'",
    )


def test_a_5000_digit_number_in_yaml_is_cut_in_the_message(write_campaign, cli) -> None:
    result = check_yaml(
        write_campaign,
        cli,
        "characters:\n  - name: Ann\n    abilities: {toughness: " + "9" * 5000 + "}\n",
    )
    assert_fails_with_hostile(
        result,
        f'{FILE_HOSTILE}:3: entry "Ann": abilities.toughness: must be a whole number, got'
        f" '{'9' * 80}\u2026'",
    )


def test_a_long_unknown_ability_is_cut_in_field_and_message(write_campaign, cli) -> None:
    key = "q" * 500
    result = check_yaml(
        write_campaign, cli, f"characters:\n  - name: Ann\n    abilities: {{{key}: 2}}\n"
    )
    lines = problem_lines_hostile(result)
    assert result.exit_code == 1
    assert len(lines) == 1
    cut = "q" * 80 + "\u2026"
    assert lines[0].startswith(
        f'{FILE_HOSTILE}:3: entry "Ann": abilities.{"q" * 70}\u2026: unknown character ability'
        f" '{cut}'; known: "
    )
    assert len(lines[0]) < 500


def test_a_newline_in_a_file_name_stays_on_one_line(write_campaign, cli) -> None:
    folder = write_campaign(
        {"a\nb.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 0}\n"}
    )
    result = cli("check", folder)
    assert_fails_with_hostile(result, f"campaign/a\\nb.yaml:3: {BAD_TOUGHNESS}")


def test_an_escape_in_a_file_name_is_shown_escaped(write_campaign, cli) -> None:
    folder = write_campaign(
        {"\x1b[31mc.yaml": "characters:\n  - name: Ann\n    abilities: {toughness: 0}\n"}
    )
    result = cli("check", folder)
    assert_fails_with_hostile(result, f"campaign/\\x1b[31mc.yaml:3: {BAD_TOUGHNESS}")


def test_the_current_folder_s_name_is_shown_escaped(
    tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "camp\x1b]0;pwned\x07"
    folder.mkdir()
    (folder / "c.yaml").write_text(ONE, encoding="utf-8")
    monkeypatch.chdir(folder)
    result = cli("check")
    assert result.exit_code == 0, result.output
    here = os.getcwd().replace("\x1b", "\\x1b").replace("\x07", "\\x07")
    assert result.stderr.splitlines()[0] == f"campaign: this folder ({here})"
    assert here.endswith("/camp\\x1b]0;pwned\\x07")
    assert "\x1b" not in result.stderr


def test_a_900_kb_data_url_in_a_message_is_cut() -> None:
    url = "data:image/png;base64," + "A" * 900_000 + "QmCC"
    problem = Problem(f"{url}: only pictures inside the campaign folder can be used", "b.yaml", 3)
    shown = "data:image/png;base64," + "A" * 18 + "\u2026" + "A" * 35 + "QmCC"  # 80 in all
    assert (
        str(problem) == f"b.yaml:3: {shown}: only pictures inside the campaign folder can be used"
    )
    quoted_url = Problem(f"{url!r}: the cover is a picture in the campaign folder", "b.yaml", 4)
    cut = "data:image/png;base64," + "A" * 58 + "\u2026"
    assert str(quoted_url) == f"b.yaml:4: '{cut}': the cover is a picture in the campaign folder"


def test_a_long_path_in_a_message_stays_whole() -> None:
    path = "/home/gm/" + "campaigns/" * 12 + "output/sheet-ann.pdf"  # 149 characters
    problem = Problem(f"cannot write {path}: exists and is not a regular file")
    assert str(problem) == f"cannot write {path}: exists and is not a regular file"


def test_safe_text_escapes_every_unsafe_character() -> None:
    unsafe = "".join(map(chr, [*range(0x20), *range(0x7F, 0xA0)]))
    unsafe += "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    shown = safe_text(unsafe, None)
    assert shown.isascii() and shown.isprintable()
    assert shown.startswith("\\x00\\x01") and "\\t\\n\\x0b\\x0c\\r" in shown
    assert shown.endswith(
        "\\x9f\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069"
    )
    assert safe_text("Hestér 日本 😀") == "Hestér 日本 😀"
    assert safe_text("\x1b" * 30) == "\\x1b" * 20 + "\u2026"  # an escape is never split
    assert quoted("it's") == '"it\'s"'
    assert safe_message("don't cut 'x' and it's fine") == "don't cut 'x' and it's fine"


# --------------------------------------------------------------------------------------------
# encodings


def test_invalid_utf8_in_yaml_gives_its_line_and_column(tmp_path: Path, cli) -> None:
    yaml = b"characters:\n  - name: Ann\n    player: Jo\xff\n"
    folder = write_bytes(tmp_path / "campaign", {"party.yaml": yaml})
    result = cli("check", folder)
    assert_fails_with_hostile(
        result,
        "campaign/party.yaml:3: not UTF-8 text: byte 0xff at column 15; save the file as UTF-8",
    )


def test_a_nul_byte_in_yaml_gives_its_line_and_column(tmp_path: Path, cli) -> None:
    folder = write_bytes(tmp_path / "campaign", {"c.yaml": b"characters:\n  - name: An\x00n\n"})
    result = cli("check", folder)
    assert_fails_with_hostile(
        result,
        f"{FILE_HOSTILE}:2: a control character U+0000 (NUL) at column 13 (control characters are not"
        " allowed); delete it (most editors do not show it)",
    )


@pytest.mark.parametrize(
    "encoding",
    ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"],
)
def test_utf16_and_utf32_yaml_are_read(tmp_path: Path, cli, encoding: str) -> None:
    text = "# Hestér's party\ncharacters:\n  - name: Hestér 日本\n    abilities: {toughness: 0}\n"
    folder = write_bytes(tmp_path / "campaign", {"c.yaml": text.encode(encoding)})
    result = cli("check", folder)
    assert_fails_with_hostile(
        result,
        f'{FILE_HOSTILE}:4: entry "Hestér 日本": abilities.toughness: must be 1 or more, got 0',
    )


def test_broken_utf16_is_refused_in_one_line(tmp_path: Path, cli) -> None:
    data = "characters:\n  - name: Ann".encode("utf-16") + b"\x00\xd8\n\x00"  # a lone surrogate
    folder = write_bytes(tmp_path / "campaign", {"c.yaml": data})
    result = cli("check", folder)
    assert_fails_with_hostile(
        result,
        f"{FILE_HOSTILE}:2: not UTF-16 text: bytes 0x00 0xd8 at column 14; save the file as UTF-8",
    )


# --------------------------------------------------------------------------------------------
# scratchpress.toml: through check and calibrate alike


def settings_campaign(tmp_path: Path, toml: bytes) -> Path:
    return write_bytes(tmp_path / "campaign", {"c.yaml": ONE.encode(), "scratchpress.toml": toml})


def assert_both_fail_with(cli: Any, folder: Path, expected: str) -> None:
    assert_fails_with_hostile(cli("check", folder), expected)
    assert_fails_with_hostile(cli("calibrate", folder, "-o", "x.pdf"), expected)
    assert not Path("x.pdf").exists()


def test_deeply_nested_toml_arrays_are_refused(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b'paper = "a4"\na = ' + b"[" * 3000 + b"]" * 3000 + b"\n")
    assert_both_fail_with(cli, folder, f"{TOML}:2: nested more than 64 levels deep; refused")


def test_deeply_nested_toml_inline_tables_are_refused(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b"\n\na = " + b"{b = " * 3000 + b"1" + b"}" * 3000)
    assert_both_fail_with(cli, folder, f"{TOML}:3: nested more than 64 levels deep; refused")


def test_brackets_inside_toml_strings_and_comments_are_not_nesting(tmp_path: Path, cli) -> None:
    toml = "# [[[[" + "[" * 100 + f"\nrules = \"current\" # {'{' * 100}\nx = '''{'[' * 100}'''\n"
    folder = settings_campaign(tmp_path, toml.encode())
    assert_fails_with_hostile(
        cli("check", folder),
        f"{TOML}:3: x: unknown key; allowed: title, rules, cp, max_level, language, paper, units,"
        " duplex_offset_mm, build",
    )


def test_a_5000_digit_number_in_toml_is_refused(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b"paper = 'a4'\ncp = " + b"9" * 5000 + b"\n")
    assert_both_fail_with(cli, folder, f"{TOML}:2: a number longer than 4300 digits; refused")


def test_a_huge_float_in_duplex_offset_mm_is_out_of_range(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b"\nduplex_offset_mm = [1e99999, 0]\n")
    assert_both_fail_with(
        cli, folder, f"{TOML}:2: duplex_offset_mm.0: must be 20.0 or less, got inf"
    )


def test_a_nul_byte_in_toml_gives_its_line_and_column(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b'cp = 10\npaper = "a4\x00"\n')
    assert_both_fail_with(
        cli,
        folder,
        f"{TOML}:2: a control character U+0000 (NUL) at column 12 (control characters are not"
        " allowed in TOML); delete it (most editors do not show it)",
    )


def test_invalid_utf8_in_toml_gives_its_line_and_column(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b'cp = 10\npaper = "a4\xff"\n')
    assert_both_fail_with(
        cli, folder, f"{TOML}:2: not UTF-8 text: byte 0xff at column 12; save the file as UTF-8"
    )


def test_a_bom_in_toml_is_accepted(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b'\xef\xbb\xbfpaper = "a4"\n')
    assert cli("check", folder).exit_code == 0
    folder = settings_campaign(tmp_path, b'\xef\xbb\xbfpaper = "a4"\ncp = 0\n')
    assert_both_fail_with(cli, folder, f"{TOML}:2: cp: must be 1 or more, got 0")


def test_a_utf16_toml_is_read(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, 'paper = "a4"\n\ncp = 0\n'.encode("utf-16"))
    assert_both_fail_with(cli, folder, f"{TOML}:3: cp: must be 1 or more, got 0")


def test_a_toml_over_256_kb_is_refused(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b"# " + b"x" * 300_000 + b"\n")
    assert_both_fail_with(cli, folder, f"{TOML}: larger than 256 KB; refused")


def test_dotted_toml_keys_get_their_line(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b'paper = "a4"\n\nbuild.nonsense = 1\n')
    result = cli("check", folder)
    assert result.exit_code == 1
    assert problem_lines_hostile(result)[0].startswith(f"{TOML}:3: build.nonsense: unknown key")


def test_a_recursion_error_from_tomllib_is_a_clean_problem(
    tmp_path: Path, cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tomllib

    def explode(text: str) -> dict[str, Any]:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(tomllib, "loads", explode)
    folder = settings_campaign(tmp_path, b'paper = "a4"\n')
    assert_both_fail_with(
        cli,
        folder,
        f"{TOML}: cannot be read as TOML (nested too deep, or a number too long); refused",
    )


# -------------------- formerly tests/definitions/test_parse_memo.py
# ``build --watch`` re-parses only the entry an edit touched (``ParseMemo``); whatever the
# edit, the result must be exactly what parsing the whole file gives: the same data, the same
# line for every value, the same errors.

FILE_MEMO = "campaign/events.yaml"


def events(count: int) -> str:
    entries = "".join(
        f"  - id: event-{i}\n"
        f"    title: Event {i}\n"
        f"    damage: {1 + i % 3}\n"
        "    story: >-\n"
        f"      Line one of story {i}.\n"
        "      Line two.\n"
        for i in range(count)
    )
    return "characters:\n  - name: Ada\n    abilities: {toughness: 2}\nevents:\n" + entries


def outcome(text: str, memo: ParseMemo | None = None) -> Any:
    try:
        return load_yaml(text, FILE_MEMO, memo)
    except InputError as err:
        return [str(p) for p in err.problems]


def memo_after(text: str) -> ParseMemo:
    memo = ParseMemo()
    load_yaml(text, FILE_MEMO, memo)
    return memo


def test_an_edit_inside_one_event_is_spliced_and_equals_a_whole_parse() -> None:
    before = events(20)
    after = before.replace("title: Event 7\n", "title: Event seven, renamed\n    note: new key\n")
    memo = memo_after(before)
    assert outcome(after, memo) == outcome(after)
    data, positions = load_yaml(after, FILE_MEMO, memo)
    assert data["events"][7]["note"] == "new key"
    assert positions[("events", 8, "title")] == positions[("events", 7, "title")] + 7


def test_the_splice_really_happens() -> None:
    """Only the edited entry is parsed: the memo's parse of one entry counts few values."""
    before = events(50)
    memo = memo_after(before)
    whole = memo.files[FILE_MEMO].nodes
    spliced = memo.splice(before.replace("Event 30\n", "Event 30b\n"), FILE_MEMO)
    assert spliced is not None
    assert spliced[0]["events"][30]["title"] == "Event 30b"
    assert 0 < memo.files[FILE_MEMO].nodes - whole < 20


@pytest.mark.parametrize(
    "edit",
    [
        ("title: Event 3\n", "title: Event 3\n  - id: inserted\n"),  # a new entry
        ("    damage: 2\n", "damage: 2\n"),  # dedented out of its entry
        ("    title: Event 4\n", "    title: [unclosed\n"),  # a syntax error
        ("    title: Event 5\n", "    title: &t Event 5\n"),  # an anchor
        ("    title: Event 6\n", "\ttitle: Event 6\n"),  # a tab
        ("events:\n", "events:\n  - id: first\n"),  # before the first entry
        ("  - id: event-9\n", "  -   id: event-9\n"),  # the item's own line, re-indented
    ],
)
def test_edits_that_reach_outside_an_entry_are_parsed_whole(edit: tuple[str, str]) -> None:
    before = events(12)
    after = before.replace(*edit, 1)
    assert after != before
    assert outcome(after, memo_after(before)) == outcome(after)


@settings(max_examples=60, deadline=None)
@given(
    line=st.integers(min_value=0, max_value=60),
    replacement=st.sampled_from(
        [
            "",
            "    extra: 1\n",
            "    title: Other\n",
            "  - id: new-entry\n",
            "      more story\n",
            "bad: [\n",
            "    title: *alias\n",
            "# a comment\n",
            "\n",
            "    damage: two\n",
        ]
    ),
    delete=st.booleans(),
)
def test_any_one_line_edit_gives_what_a_whole_parse_gives(
    line: int, replacement: str, delete: bool
) -> None:
    before = events(8)
    lines = before.splitlines(keepends=True)
    at = min(line, len(lines) - 1)
    lines[at : at + (1 if delete else 0)] = [replacement]
    after = "".join(lines)
    memo = memo_after(before)
    assert outcome(after, memo) == outcome(after)
    # and the memo stays right for the edit after that
    again = after.replace("Event 2\n", "Event 2 again\n")
    assert outcome(again, memo) == outcome(again)


@settings(max_examples=200, deadline=None)
@given(
    old=st.lists(st.sampled_from(["a", "ab", "b", "", "  - x", "a b"]), max_size=8),
    new=st.lists(st.sampled_from(["a", "ab", "b", "", "  - x", "a b"]), max_size=8),
)
def test_unchanged_lines_are_counted_as_a_line_by_line_comparison_would(
    old: list[str], new: list[str]
) -> None:
    from scratchpress.definitions.yamlsafe import _unchanged_lines

    a, b = "".join(f"{line}\n" for line in old), "".join(f"{line}\n" for line in new)
    first = 0
    while first < min(len(old), len(new)) and old[first] == new[first]:
        first += 1
    last = 0
    while last < min(len(old), len(new)) - first and old[-1 - last] == new[-1 - last]:
        last += 1
    assert _unchanged_lines(a, b) == (first, last)


# --------------------------------------------------------------------------------------------
# newcomer mistakes: the fix in a GM's words (issue 31)


def test_a_colon_in_a_note_inside_braces_says_to_quote_the_note(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        characters:
          - name: Wren Calloway
            abilities:
              knockout: {level: 1, note: a tyre iron: for arguments}
              toughness: 3
        """,
    )
    assert_fails_with(
        result,
        f"{FILE}:4: a ':' inside {{ }} ends the note early (did not find expected ',' or '}}');"
        ' put the note in quotes: note: "a tyre iron: for arguments"',
    )


def test_a_colon_inside_square_brackets_says_to_quote_the_text(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        """\
        events:
          - {id: flood, title: Flood, summary: x, roll: [one: two: three]}
        """,
    )
    [line] = problem_lines(result)
    assert line.startswith(f"{FILE}:2: a ':' inside [ ] ends the one early")
    assert line.endswith('put the one in quotes: one: "two: three"')


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        (
            b"cp = 10\npaper = a4\n",
            f'{TOML}:2: text values need quotes: write paper = "a4" (TOML syntax error:'
            " Invalid value)",
        ),
        (
            b"title = Greyford Run # the town\n",
            f'{TOML}:1: text values need quotes: write title = "Greyford Run" (TOML syntax'
            " error: Invalid value)",
        ),
        (
            b"title = 1984 Run\n",
            f'{TOML}:1: text values need quotes: write title = "1984 Run" (TOML syntax error:'
            " Expected newline or end of document after a statement)",
        ),
        (
            b'[build]\nonly = ["sheets", roster]\n',
            f'{TOML}:2: text values need quotes: write "roster" (TOML syntax error: Invalid value)',
        ),
        (
            b"[build]\nink_saver = True\n",
            f"{TOML}:2: true and false are written in lower case: write ink_saver = true (TOML"
            " syntax error: Invalid value)",
        ),
    ],
    ids=["paper", "with-comment", "starts-with-digits", "in-a-list", "capital-true"],
)
def test_a_toml_text_value_without_quotes_says_to_add_them(
    tmp_path: Path, cli, toml: bytes, expected: str
) -> None:
    assert_both_fail_with(cli, settings_campaign(tmp_path, toml), expected)


def test_other_toml_syntax_errors_keep_the_parser_words(tmp_path: Path, cli) -> None:
    folder = settings_campaign(tmp_path, b"jobs = 2x\n")
    assert_both_fail_with(
        cli,
        folder,
        f"{TOML}:1: TOML syntax error: Expected newline or end of document after a statement"
        " (at line 1, column 9)",
    )


def test_a_note_split_into_twin_keys_says_to_quote_the_text(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Ann\n    abilities:\n"
        "      toughness: {level: 2, note: rope, hook, hook}\n",
    )
    assert_fails_with(
        result,
        f'{FILE}:4: duplicate key "hook" (first given on line 4); if a comma in a text inside'
        " { } made it, put the text in quotes",
    )


def test_a_key_given_twice_on_purpose_gets_no_advice_about_commas(write_campaign, cli) -> None:
    result = check(
        write_campaign,
        cli,
        "characters:\n  - name: Ann\n    abilities: {toughness: 2, toughness: 3}\n",
    )
    assert_fails_with(result, f'{FILE}:3: duplicate key "toughness" (first given on line 3)')


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("bleed = yes", "a yes-or-no setting is true or false, without quotes: write bleed = true"),
        ("jobs = many", "jobs is a whole number, written without quotes: write jobs = 2, say"),
        ('bleed = "yes"', "build.bleed: must be true or false (without quotes), got 'yes'"),
    ],
)
def test_a_setting_of_the_wrong_kind_says_how_to_write_it(
    tmp_path: Path, line: str, says: str
) -> None:
    """Regression: every bare word got "text values need quotes", which for a yes-or-no
    or a number setting is wrong, and quoting it then failed in pydantic's words."""
    from scratchpress.definitions.settings import load_settings

    (tmp_path / "scratchpress.toml").write_text(f"[build]\n{line}\n")
    problems: list[Any] = []
    load_settings(tmp_path, None, problems)
    assert len(problems) == 1 and says in str(problems[0]), problems
