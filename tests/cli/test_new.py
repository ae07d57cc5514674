"""A new GM's first ten minutes: which campaign a command works on, `new`, saved build
options, the command-line conventions, and a build that says what it is doing."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader

from scratchpress.cli.app import app
from scratchpress.content.starters import starter_files
from scratchpress.definitions.files import display_path
from scratchpress.definitions.models import BUILD_KINDS, BuildOptions, Settings
from scratchpress.documents.registry import KINDS
from scratchpress.resources import examples_dir

from conftest import Cli, WriteCampaign

ONE_CHARACTER = """\
characters:
  - name: Odile Marsh
    abilities: {shooting: 2, toughness: 3}
"""
MM_PER_PT = 25.4 / 72


def _page_mm(pdf: Path) -> tuple[int, int]:
    """The paper of the first page, short side first (sheets print in landscape)."""
    box = PdfReader(pdf).pages[0].mediabox
    sides = sorted((float(box.width), float(box.height)))
    return round(sides[0] * MM_PER_PT), round(sides[1] * MM_PER_PT)


# --------------------------------------------------------------------- which campaign


def test_a_campaign_folder_is_the_campaign_when_you_stand_in_it(
    cli: Cli, write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_campaign({"party.yaml": ONE_CHARACTER, "scratchpress.toml": 'paper = "a4"\n'})
    monkeypatch.chdir(folder)
    built = cli("build", "--only", "sheets")
    assert built.exit_code == 0, built.stderr
    assert built.stderr.splitlines()[0] == f"campaign: this folder ({folder})"
    assert built.stdout.splitlines()[0] == "wrote output/sheet-odile-marsh.pdf (1 page)"
    assert "(a4)" in built.stdout
    assert _page_mm(folder / "output" / "sheet-odile-marsh.pdf") == (210, 297)
    checked = cli("check")
    assert checked.exit_code == 0
    assert checked.stdout.strip() == "1 entry checked with the current rules: 0 errors, 0 warnings."
    stats = cli("stats")
    assert stats.exit_code == 0 and "Odile Marsh" in stats.stdout


def test_an_empty_folder_falls_back_to_the_example_and_says_so(cli: Cli) -> None:
    checked = cli("check")
    assert checked.exit_code == 0
    assert checked.stderr.splitlines() == [
        "campaign: no campaign in this folder, so the bundled example, Lantern Weir"
        " (start your own with `scratchpress new FOLDER`)"
    ]


def test_example_asks_for_the_example_even_inside_a_campaign(
    cli: Cli, write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(write_campaign({"party.yaml": ONE_CHARACTER}))
    stats = cli("stats", "--example")
    assert stats.exit_code == 0
    assert stats.stderr.strip() == "campaign: the bundled example, Lantern Weir (example/)"
    assert "Teodora Vance" in stats.stdout and "Odile Marsh" not in stats.stdout


def test_a_campaign_and_example_together_is_a_usage_error(cli: Cli, tmp_path: Path) -> None:
    result = cli("check", tmp_path, "--example")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == "usage error: give a campaign or --example, not both"


def test_the_example_has_no_warnings_and_its_paths_read_example(cli: Cli) -> None:
    checked = cli("check", "--example", "--strict")
    assert checked.exit_code == 0
    assert checked.stdout.strip().endswith("0 errors, 0 warnings.")
    assert display_path(examples_dir() / "party.yaml") == "example/party.yaml"


def test_beyond_budget_silences_the_budget_warning_only(
    cli: Cli, write_campaign: WriteCampaign
) -> None:
    boss = """\
    characters:
      - name: Big
        beyond_budget: true
        abilities: {command: 6, toughness: 5}
      - name: Small
        abilities: {command: 6, toughness: 5}
    """
    checked = cli("check", write_campaign({"c.yaml": boss}))
    assert checked.stderr.splitlines() == [
        'campaign/c.yaml:6: warning: entry "Small": abilities: spends 11 CP, over the budget of 10',
        'campaign/c.yaml:6: warning: entry "Small": abilities: command 6 is above the maximum'
        " level 4",
        'campaign/c.yaml:6: warning: entry "Small": abilities: toughness 5 is above the maximum'
        " level 4",
    ]
    assert checked.stdout == "2 entries checked with the current rules: 0 errors, 3 warnings.\n"


# ------------------------------------------------------------------------------- new


def test_new_writes_a_starter_that_passes_strict_check_and_builds(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = cli("new", "my-campaign")
    assert made.exit_code == 0, made.stderr
    assert made.stdout.strip() == "wrote a starter campaign in my-campaign/ (9 files)"
    folder = tmp_path / "my-campaign"
    assert sorted(p.name for p in folder.iterdir()) == [
        ".scratchpress",
        "adversaries.yaml",
        "booklet.yaml",
        "chapters",
        "community.yaml",
        "party.yaml",
        "scratchpress.toml",
        "vehicles.yaml",
    ]
    for name in ("party.yaml", "adversaries.yaml", "vehicles.yaml", "community.yaml"):
        first = (folder / name).read_text().splitlines()[0]
        assert first == "# yaml-language-server: $schema=.scratchpress/definitions.schema.json"
    assert (folder / ".scratchpress" / "definitions.schema.json").is_file()
    monkeypatch.chdir(folder)
    checked = cli("check", "--strict")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert (
        checked.stdout.strip() == "5 entries checked with the current rules: 0 errors, 0 warnings."
    )
    built = cli("build", "-j", "2")
    assert built.exit_code == 0, built.stderr
    names = sorted(p.name for p in (folder / "output").glob("*.pdf"))
    assert "sheet-wren-calloway.pdf" in names and "vehicle-rust-mule.pdf" in names
    assert "community-greyford.pdf" in names and "booklet-greyford-handout.pdf" in names
    text = PdfReader(folder / "output" / "initiative-cards.pdf").pages[0].extract_text()
    assert "Merrow" in text  # the adversary's minions share his card group


def test_the_starter_settings_name_every_setting(tmp_path: Path) -> None:
    text = starter_files()["scratchpress.toml"].decode("utf-8")
    for key in Settings.model_fields:
        if key != "build":
            assert f"\n{key} = " in text, key
    for key in BuildOptions.model_fields:
        assert f"\n{key} = " in text or f"\n# {key} = " in text, key


def test_new_refuses_a_folder_that_holds_anything(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    result = cli("new", "taken")
    assert result.exit_code == 1
    assert (
        result.stderr.strip()
        == "cannot write taken: not empty; give a new folder name (nothing was written)"
    )
    assert sorted(p.name for p in (tmp_path / "taken").iterdir()) == ["notes.txt"]


def test_new_from_example_copies_the_whole_example(cli: Cli, tmp_path: Path) -> None:
    result = cli("new", "weir", "--from-example")
    assert result.exit_code == 0
    copied = tmp_path / "weir"
    assert (copied / "portraits" / "teodora-vance.png").read_bytes() == (
        examples_dir() / "portraits" / "teodora-vance.png"
    ).read_bytes()
    assert (copied / "booklet" / "rolls.md").is_file()
    assert cli("check", copied, "--strict").exit_code == 0


def test_new_takes_a_language_and_paper_and_units_follow_it(cli: Cli, tmp_path: Path) -> None:
    """`new` asks nothing: --language, --paper and --units go into its settings file, and
    the paper and units nobody gave follow the language (A4 and metric outside English)."""
    assert cli("new", "german", "--language", "de").exit_code == 0
    text = (tmp_path / "german" / "scratchpress.toml").read_text(encoding="utf-8")
    assert '\nlanguage = "de"\n' in text
    assert '\npaper = "a4"\n' in text and '\nunits = "metric"\n' in text
    assert text.count("\nlanguage = ") == 1 and text.count("\npaper = ") == 1
    mixed = cli("new", "mixed", "--language", "ja", "--paper", "letter", "--units", "both")
    assert mixed.exit_code == 0
    text = (tmp_path / "mixed" / "scratchpress.toml").read_text(encoding="utf-8")
    assert '\nlanguage = "ja"\n' in text and '\npaper = "letter"\n' in text
    assert '\nunits = "both"\n' in text
    assert cli("check", tmp_path / "german", "--strict").exit_code == 0
    example = cli("new", "weir", "--from-example", "--language", "pt-BR")
    assert example.exit_code == 0
    text = (tmp_path / "weir" / "scratchpress.toml").read_text(encoding="utf-8")
    assert '\nlanguage = "pt-BR"\n' in text and '\npaper = "a4"\n' in text


def test_new_refuses_a_language_we_do_not_ship(cli: Cli) -> None:
    result = cli("new", "klingon", "--language", "tlh")
    assert result.exit_code == 2
    said = " ".join(result.stderr.replace("│", " ").split()).lower()
    assert "'--language'" in said and "'tlh' is not one of" in said and "'pt-br'" in said
    assert not Path("klingon").exists()


# ---------------------------------------------------------------------- saved options


def test_the_build_table_is_used_and_the_command_line_wins(
    cli: Cli, write_campaign: WriteCampaign
) -> None:
    folder = write_campaign(
        {
            "party.yaml": ONE_CHARACTER,
            "scratchpress.toml": '[build]\npaper = "a4"\ncards = "index"\ntent = true\n'
            'only = ["initiative"]\n',
        }
    )
    saved = cli("build", folder, "-o", "saved")
    assert saved.exit_code == 0, saved.stderr
    assert [p.name for p in Path("saved").glob("*.pdf")] == ["initiative-cards.pdf"]
    assert _page_mm(Path("saved/initiative-cards.pdf")) == (210, 297)
    assert "initiative: 2 index tents per sheet" in saved.stdout  # tent = true, from the toml
    over = cli("build", folder, "-o", "over", "--paper", "LETTER", "--no-tent")
    assert over.exit_code == 0, over.stderr
    assert _page_mm(Path("over/initiative-cards.pdf")) == (216, 279)
    assert "initiative: 4 index cards per sheet" in over.stdout.splitlines()  # --no-tent wins


def test_a_misspelt_build_key_is_one_error_with_its_line(
    cli: Cli, write_campaign: WriteCampaign
) -> None:
    folder = write_campaign(
        {
            "party.yaml": ONE_CHARACTER,
            "scratchpress.toml": 'rules = "current"\n[build]\ntnet = true\n',
        }
    )
    result = cli("build", folder, "-o", "output")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "campaign/scratchpress.toml:3: build.tnet: unknown key (did you mean 'tent'?);"
        " allowed: language, paper, units, cards, tent, backs, bleed, duplex_edge, ink_saver,"
        " carry_range, only, impose, jobs, png, print_all, strict, print_shop"
    )


def test_the_build_table_accepts_only_known_kinds(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {"party.yaml": ONE_CHARACTER, "scratchpress.toml": '[build]\nonly = ["sheet"]\n'}
    )
    result = cli("check", folder)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith(
        "campaign/scratchpress.toml:2: build.only.0: must be 'sheets', 'vehicles',"
    )


def test_a_carry_range_upside_down_is_refused(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {"party.yaml": ONE_CHARACTER, "scratchpress.toml": '[build]\ncarry_range = "30-10"\n'}
    )
    result = cli("check", folder)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "campaign/scratchpress.toml:2: build.carry_range: must be like 10-20, from low to high,"
        " within 1-40, got '30-10'"
    )


def test_build_kinds_and_the_registry_agree() -> None:
    assert tuple(KINDS) == BUILD_KINDS


# ----------------------------------------------------------------------- conventions


def test_version_and_short_help(cli: Cli) -> None:
    from scratchpress import __version__

    assert cli("--version").stdout.strip() == f"scratchpress {__version__}"
    assert "Usage: scratchpress build" in cli("build", "-h").stdout
    assert "--install-completion" in cli("-h").stdout


def _commands() -> list[tuple[str, object]]:
    import typer.main

    group = typer.main.get_command(app)
    found: list[tuple[str, object]] = []

    def walk(command: object, path: str) -> None:
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in subcommands.items():
                walk(sub, f"{path} {name}".strip())
        else:
            found.append((path, command))

    walk(group, "")
    return found


def test_every_command_has_an_example_in_its_help(cli: Cli) -> None:
    for path, _ in _commands():
        shown = cli(*path.split(), "-h")
        assert shown.exit_code == 0
        assert "Example: scratchpress " + path in " ".join(shown.stdout.split()), path


def test_arguments_have_one_shape_across_commands() -> None:
    for path, command in _commands():
        params = getattr(command, "params", [])
        for param in params:
            if param.name == "campaign":
                assert param.param_type_name == "argument", f"{path}: campaign is an option"
            if param.param_type_name == "option" and "-n" in param.opts:
                assert param.name == "count", f"{path}: -n means --{param.name}"


@pytest.mark.parametrize(
    "args",
    [
        ("build", "--paper", "A5"),
        ("build", "--cards", "tarot"),
        ("build", "--only", "sheet"),
        ("build", "--carry-range", "3"),
        ("build", "--jobs", "-1"),
        ("check", "--rules", "modern"),
        ("calibrate", "--duplex-edge", "sideways"),
        ("resilience", "draw", "--paper", "a3"),
        ("build", "--no-such-option"),
    ],
)
def test_every_usage_error_exits_2(cli: Cli, args: tuple[str, ...]) -> None:
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert "Try 'scratchpress" in result.stderr


def test_choices_are_taken_in_any_case(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"party.yaml": ONE_CHARACTER})
    result = cli(
        "build", folder, "-o", "output", "--paper", "A4", "--only", "Sheets", "--rules", "Early"
    )
    assert result.exit_code == 0, result.stderr
    assert _page_mm(Path("output/sheet-odile-marsh.pdf")) == (210, 297)


def test_input_errors_exit_1(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign(
        {"party.yaml": "characters:\n  - name: X\n    abilities: {toughness: 0}\n"}
    )
    result = cli("build", folder, "-o", "output")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        'campaign/party.yaml:3: entry "X": abilities.toughness: must be 1 or more, got 0'
    )


def test_completion_lists_the_choices(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "_SCRATCHPRESS_COMPLETE": "complete_bash",
        "COMP_WORDS": "scratchpress build --paper ",
        "COMP_CWORD": "3",
    }
    done = subprocess.run(
        [str(Path(sys.executable).parent / "scratchpress")],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.stdout.split() == ["letter", "a4"], done.stdout + done.stderr


# -------------------------------------------------------------------------- progress


def test_each_file_is_written_and_announced_before_the_next_renders(
    write_campaign: WriteCampaign, tmp_path: Path
) -> None:
    from scratchpress.build import BuildSettings, build
    from scratchpress.definitions.campaign import load_campaign
    from scratchpress.definitions.models import BuildOptions
    from scratchpress.statblocks import compute_campaign

    campaign = load_campaign([write_campaign({"party.yaml": ONE_CHARACTER})])
    events: list[str] = []
    build(
        compute_campaign(campaign),
        campaign,
        BuildOptions(),
        tmp_path / "out",
        ["sheets", "carry"],
        settings=BuildSettings(jobs=1, use_cache=False),
        progress=lambda w: events.append(f"wrote {w.path.name}:{w.path.exists()}"),
        on_rendered=lambda done, total: events.append(f"rendered {done}/{total}"),
    )
    assert events == [
        "rendered 1/2",
        "wrote sheet-odile-marsh.pdf:True",
        "rendered 2/2",
        "wrote carry-table.pdf:True",
    ]


def test_wrote_lines_stream_while_the_build_runs_and_ctrl_c_keeps_them(
    tmp_path: Path,
) -> None:
    """Piped output (a log, CI): a "wrote" line as each file lands. Ctrl-C then stops the
    whole process group as a terminal would, and the build says one line and exits 130."""
    campaign = tmp_path / "big"
    campaign.mkdir()
    people = "".join(
        f"  - name: Guard {i:02d}\n    abilities: {{shooting: 2, toughness: 3}}\n"
        for i in range(40)
    )
    (campaign / "npcs.yaml").write_text("characters:\n" + people)
    process = subprocess.Popen(
        [sys.executable, "-m", "scratchpress", "build", str(campaign), "-o", "out", "-j", "2"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdout is not None
    # Read from the pipe itself: a buffered readline() may take the second line too, and
    # communicate() below reads the pipe, not that buffer (the line would look unprinted).
    seen = b""
    while b"\n" not in seen:
        chunk = os.read(process.stdout.fileno(), 4096)
        assert chunk, "the build printed nothing"
        seen += chunk
    first = seen.decode().splitlines()[0] + "\n"
    # The longest document renders first (here the initiative cards), then the sheets.
    assert re.fullmatch(r"wrote out/[a-z0-9-]+\.pdf \(\d+ pages?\)\n", first), first
    time.sleep(0.3)
    os.killpg(process.pid, signal.SIGINT)
    rest, raw_err = process.communicate(timeout=120)
    out, err = (seen + rest).decode(), raw_err.decode()
    first = ""
    assert process.returncode == 130, err
    lines = err.splitlines()
    # Nothing but the one line (after the campaign's name, if the build names it).
    assert lines[:-1] in ([], [f"campaign: {campaign}"]), err
    written = [line for line in (first + out).splitlines() if line.startswith("wrote ")]
    assert re.fullmatch(
        f"interrupted: {len(written)} of 4[0-9] documents written; run again to finish", lines[-1]
    ), lines
    assert "Traceback" not in err and "Process" not in err and len(lines) == 1
    out_dir = tmp_path / "out"
    assert not list(out_dir.glob(".scratchpress-*.tmp"))
    for line in written:
        assert (tmp_path / line.split()[1]).stat().st_size > 1000
    again = subprocess.run(
        [sys.executable, "-m", "scratchpress", "build", str(campaign), "-o", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert again.returncode == 0, again.stderr  # its own files are its own: no --force
    assert f"{len(written)} from cache" in again.stdout


def test_on_a_terminal_the_bar_leaves_no_debris_on_the_wrote_lines(
    write_campaign: WriteCampaign, tmp_path: Path
) -> None:
    import pty

    folder = write_campaign({"party.yaml": ONE_CHARACTER})
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "scratchpress", "build", str(folder), "-o", "out", "-j", "2"],
        cwd=tmp_path,
        stdout=follower,
        stderr=follower,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm"},
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=300)
    os.close(leader)
    screen = b"".join(chunks).decode("utf-8", "replace")
    wrote = [line for line in screen.replace("\r\n", "\n").split("\n") if "wrote " in line]
    assert wrote, screen
    for line in wrote:
        # What stays on screen once the bar's "erase line" and carriage returns are done.
        clean = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line).split("\r")[-1]
        assert clean.startswith("wrote out/"), repr(line)
        assert "rendering" not in clean and "━" not in clean, repr(line)


# ---------------------------------------------------------------------- small truths


def test_png_page_numbers_sort_as_pages(tmp_path: Path) -> None:
    from scratchpress.render.png import page_pngs

    pdf = pikepdf.new()
    for _ in range(11):
        pdf.add_blank_page(page_size=(72, 72))
    pdf.save(tmp_path / "deck.pdf")
    names = sorted(page_pngs(tmp_path / "deck.pdf", dpi=10))
    assert len(names) == 11
    assert names[:2] == ["deck-01.png", "deck-02.png"] and names[-1] == "deck-11.png"


def test_the_summary_says_from_cache(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"party.yaml": ONE_CHARACTER})
    assert cli("build", folder, "-o", "output", "--only", "sheets").exit_code == 0
    again = cli("build", folder, "-o", "output", "--only", "sheets")
    assert again.stdout.splitlines() == [
        "wrote output/sheet-odile-marsh.pdf (1 page, from cache)",
        again.stdout.splitlines()[-1],
    ]
    assert "(0 rendered, 1 from cache, " in again.stdout.splitlines()[-1]


def test_a_booklet_file_in_capitals_is_still_the_booklet(tmp_path: Path) -> None:
    from scratchpress.definitions.campaign import Campaign
    from scratchpress.documents.booklet import booklet_file

    (tmp_path / "Booklet.YAML").write_text("title: T\nchapters: []\n")
    found = booklet_file(Campaign(root=tmp_path, settings=Settings()))
    assert found == tmp_path / "Booklet.YAML"
