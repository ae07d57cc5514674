"""The public API, as a GM's script or notebook uses it: its names are a promise (listed here,
as httpx lists its own), and a whole check-and-build runs through it with no CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, get_origin

import pytest
from pypdf import PdfReader

import scratchpress
from scratchpress import api

PUBLIC_NAMES = [
    "BUILD_KINDS",
    "Backs",
    "BuildInterrupted",
    "BuildOptions",
    "BuildReport",
    "BuildSession",
    "CannotRead",
    "CannotWrite",
    "CardSize",
    "CheckReport",
    "Computed",
    "DEFENSES",
    "Draw",
    "DuplexEdge",
    "Exported",
    "Found",
    "Impose",
    "InputError",
    "Language",
    "MAX_ROSTER",
    "STOP_SIGNALS",
    "Opened",
    "OutputBusy",
    "Paper",
    "Problem",
    "Roster",
    "Ruleset",
    "SHOPS",
    "Shop",
    "Units",
    "UsageError",
    "Written",
    "__version__",
    "archetypes",
    "build",
    "build_options",
    "bundled_folders",
    "calibrate",
    "check",
    "closest",
    "definitions_yaml",
    "display_path",
    "draw",
    "event_json",
    "event_text",
    "export_encounters",
    "export_foundry",
    "export_tokens",
    "find_campaign",
    "find_community",
    "generate_roster",
    "import_stat_blocks",
    "init_theme",
    "json_schema",
    "new_campaign",
    "open_campaign",
    "option_choices",
    "option_help",
    "output_folder",
    "output_note",
    "page_images",
    "preview_folder",
    "project_text",
    "simulate",
    "simulation_png",
    "simulation_text",
    "size_project",
    "source_anchors",
    "source_files",
    "stats_json",
    "stats_text",
    "stop_rendering",
    "write_output",
    "year_sheets",
]


def test_the_public_names_are_these_and_each_is_documented() -> None:
    assert sorted(api.__all__) == sorted(PUBLIC_NAMES)
    docs = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    for name in PUBLIC_NAMES:
        assert hasattr(api, name), name
        value = getattr(api, name)
        if get_origin(value) is Literal:  # a choice type such as Paper: its values say it all
            continue
        if callable(value) and not isinstance(value, type):
            assert value.__doc__, f"api.{name} has no docstring"
        if not name.startswith("_") and not name.isupper():
            assert f"`{name}" in docs, f"docs/api.md does not mention {name}"
    assert scratchpress.__version__ == api.__version__


def test_a_script_checks_and_builds_a_campaign_with_its_own_settings(
    write_campaign: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The campaign's [build] table sets A4 and index cards; the script asks for the carry
    table's range itself; no CLI is involved."""
    folder = write_campaign(  # type: ignore[operator]
        {
            "scratchpress.toml": """
                paper = "letter"
                [build]
                paper = "a4"
                cards = "index"
            """,
            "party.yaml": """
                characters:
                  - name: Teodora Vance
                    abilities: {stealth: 3, shooting: 2}
            """,
        }
    )
    monkeypatch.chdir(tmp_path)
    opened = api.open_campaign(folder)
    report = api.check(opened)
    assert report.errors == [] and report.entries == 1
    options = api.build_options(opened.campaign, {"carry_range": "12-14", "only": "carry,sheets"})
    assert (options.paper, options.cards, options.carry_low, options.carry_high) == (
        "a4",
        "index",
        12,
        14,
    )
    built = api.build(opened, {"carry_range": "12-14", "only": "carry,sheets"})
    assert built.problems == []
    names = sorted(w.path.name for w in built.written)
    assert names == ["carry-table.pdf", "sheet-teodora-vance.pdf"]
    # A named campaign builds into its own output folder, not the current one.
    assert {w.path.parent.resolve() for w in built.written} == {(folder / "output").resolve()}
    page = PdfReader(folder / "output" / "carry-table.pdf").pages[0]
    assert round(float(page.mediabox.width) * 25.4 / 72) == 210  # A4 from [build]
    text = page.extract_text()
    assert "12" in text and "14" in text and "15" not in text.split()


def test_the_cli_and_the_api_merge_options_alike(write_campaign: object) -> None:
    """The command line over [build] over the campaign's paper over the defaults."""
    folder = write_campaign(  # type: ignore[operator]
        {
            "scratchpress.toml": 'paper = "a4"\nunits = "metric"\n[build]\ntent = true\n',
            "party.yaml": "characters:\n  - name: Ada\n    abilities: {stealth: 2}\n",
        }
    )
    campaign = api.open_campaign(folder).campaign
    merged = api.build_options(campaign, {"tent": None, "units": "imperial"})
    assert (merged.paper, merged.units, merged.tent, merged.backs) == (
        "a4",
        "imperial",
        True,
        "duplex",
    )
    assert api.build_options(campaign, {"tent": False}).tent is False
    with pytest.raises(api.UsageError, match="carry-range"):
        api.build_options(campaign, {"carry_range": "30-10"})


def options_table() -> str:
    """The build options as docs/api.md lists them, made from the model itself."""

    def choices(name: str) -> str:
        listed = api.option_choices(name)
        if listed:
            return ", ".join(f"`{choice}`" for choice in listed)
        field = api.BuildOptions.model_fields[name]
        if field.annotation is bool:
            return "`true`, `false`"
        bounds = {
            kind: getattr(rule, kind)
            for rule in field.metadata
            for kind in ("ge", "le")
            if hasattr(rule, kind)
        }
        return f"{bounds['ge']} to {bounds['le']}" if bounds else "text"

    def default(name: str) -> str:
        value = api.BuildOptions.model_fields[name].default
        if value is None:
            return "none"
        return f"`{str(value).lower() if isinstance(value, bool) else value}`"

    lines = [
        "| `[build]` key | command line | choices | default | what it does |",
        "|---|---|---|---|---|",
    ]
    for name in api.BuildOptions.model_fields:
        flag = {"print_shop": "--for"}.get(name, "--" + name.replace("_", "-"))
        lines.append(
            f"| `{name}` | `{flag}` | {choices(name)} | {default(name)} | {api.option_help(name)} |"
        )
    return "\n".join(lines)


def test_the_options_table_in_the_docs_is_the_models() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    assert options_table() in docs, "docs/api.md: paste the output of options_table() again"


def test_options_choices_come_from_the_model() -> None:
    assert api.option_choices("paper") == ["letter", "a4"]
    assert api.option_choices("only") == list(api.BUILD_KINDS)
    assert "saddle" in api.option_help("impose")


def test_check_gives_problems_as_data(write_campaign: object) -> None:
    folder = write_campaign(  # type: ignore[operator]
        {"party.yaml": "characters:\n  - name: Ada\n    abilities: {stealth: 2}\n    printed: {strength: 99}\n"}
    )
    report = api.check(api.open_campaign(folder))
    [problem] = report.errors
    assert (Path(problem.file).name, problem.line, problem.entry) == ("party.yaml", 4, "Ada")
    assert problem.field == "printed.strength"


# ------------------------------------------------------------- rough edges at the front door


def _starter(tmp_path: Path) -> Path:
    folder = tmp_path / "my-campaign"
    api.new_campaign(folder)
    (folder / "chapters").mkdir(exist_ok=True)
    return folder


def test_standing_in_a_campaigns_subfolder_finds_the_campaign_above(tmp_path: Path) -> None:
    """As git and cargo find their roots: the nearest folder upwards with scratchpress.toml,
    not the bundled example."""
    folder = _starter(tmp_path)
    found = api.find_campaign(start=folder / "chapters")
    assert not found.example
    assert found.paths == [folder]
    assert "nearest folder above" in (found.said or "")
    nowhere = tmp_path / "empty"
    nowhere.mkdir()
    assert api.find_campaign(start=nowhere).example


def test_every_command_in_a_subfolder_uses_that_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: object
) -> None:
    folder = _starter(tmp_path)
    monkeypatch.chdir(folder / "chapters")
    checked = cli("check")  # type: ignore[operator]
    assert checked.exit_code == 0, checked.stderr
    assert "nearest folder above" in checked.stderr and "Lantern Weir" not in checked.stderr
    # `resilience project` without a campaign argument: the community of the campaign here.
    project = cli("resilience", "project", "-d", "economy=2")  # type: ignore[operator]
    assert project.exit_code == 0, project.stderr
    community = api.open_campaign(folder).campaign.communities[0].definition.name
    assert community in project.stdout


def test_a_named_campaign_builds_into_its_own_output_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: object
) -> None:
    """Two campaigns built from one parent folder do not mix their PDFs."""
    first, second = _starter(tmp_path), tmp_path / "second"
    api.new_campaign(second)
    monkeypatch.chdir(tmp_path)
    for campaign in (first, second):
        result = cli("build", campaign.name, "--only", "carry")  # type: ignore[operator]
        assert result.exit_code == 0, result.stderr
        assert (campaign / "output" / "carry-table.pdf").is_file()
    assert not (tmp_path / "output").exists()
    elsewhere = tmp_path / "elsewhere"
    result = cli("build", "second", "--only", "carry", "-o", elsewhere)  # type: ignore[operator]
    assert result.exit_code == 0 and (elsewhere / "carry-table.pdf").is_file()


def test_a_renamed_characters_old_sheet_is_removed_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: object
) -> None:
    folder = _starter(tmp_path)
    monkeypatch.chdir(folder)
    first = cli("build", "--only", "sheets")  # type: ignore[operator]
    assert first.exit_code == 0, first.stderr
    before = sorted(p.name for p in (folder / "output").glob("sheet-*.pdf"))
    old = before[0]
    old_name = api.open_campaign(folder).campaign.characters[0].definition.name
    for file in folder.glob("*.yaml"):
        text = file.read_text(encoding="utf-8")
        file.write_text(text.replace(old_name, "Renamed Person"), encoding="utf-8")
    keep = folder / "output" / "my-notes.pdf"  # a GM's own file is never touched
    keep.write_bytes(b"%PDF-1.4 mine")
    second = cli("build", "--only", "sheets")  # type: ignore[operator]
    assert second.exit_code == 0, second.stderr
    after = sorted(p.name for p in (folder / "output").glob("sheet-*.pdf"))
    assert old not in after and "sheet-renamed-person.pdf" in after
    [line] = [x for x in second.stderr.splitlines() if x.startswith("removed")]
    assert line == f"removed 1 file this build no longer makes: {old}"
    assert keep.read_bytes() == b"%PDF-1.4 mine"
    # --only carry does not build sheets: it removes none of them.
    third = cli("build", "--only", "carry")  # type: ignore[operator]
    assert "removed" not in third.stderr
    assert sorted(p.name for p in (folder / "output").glob("sheet-*.pdf")) == after


def test_a_changed_old_sheet_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: object) -> None:
    folder = _starter(tmp_path)
    monkeypatch.chdir(folder)
    assert cli("build", "--only", "sheets").exit_code == 0  # type: ignore[operator]
    old = sorted((folder / "output").glob("sheet-*.pdf"))[0]
    old.write_bytes(old.read_bytes() + b"\n% annotated by the GM")
    name = api.open_campaign(folder).campaign.characters[0].definition.name
    for file in folder.glob("*.yaml"):
        file.write_text(file.read_text(encoding="utf-8").replace(name, "Someone Else"), encoding="utf-8")
    result = cli("build", "--only", "sheets")  # type: ignore[operator]
    assert result.exit_code == 0 and old.is_file() and "removed" not in result.stderr


def test_check_prints_every_problem_on_stderr_and_only_the_summary_on_stdout(
    write_campaign: object, cli: object
) -> None:
    folder = write_campaign(  # type: ignore[operator]
        {
            "party.yaml": """
                characters:
                  - name: Ada
                    abilities: {stealth: 2}
                    printed: {strength: 99}
                  - name: Bo
                    abilities: {stealth: 9}
            """
        }
    )
    result = cli("check", folder)  # type: ignore[operator]
    assert result.exit_code == 1
    assert result.stdout.count("\n") == 1 and result.stdout.startswith("2 entries checked")
    assert "printed.strength" in result.stderr and "warning" in result.stderr


def test_import_refuses_to_overwrite_without_force(tmp_path: Path, cli: object) -> None:
    text = tmp_path / "npcs.txt"
    text.write_text("Grub (10 agility, 10 intelligence, 13 strength, 2 stamina)\n3 wrestling\n")
    target = tmp_path / "imported.yaml"
    target.write_text("# my own edits\n")
    refused = cli("import", text, "-o", target)  # type: ignore[operator]
    assert refused.exit_code == 2
    assert "exists" in refused.stderr and "--force" in refused.stderr
    assert target.read_text() == "# my own edits\n"
    forced = cli("import", text, "-o", target, "--force")  # type: ignore[operator]
    assert forced.exit_code == 0, forced.stderr
    assert "Grub" in target.read_text()


def test_the_bundled_example_named_by_its_path_still_builds_into_this_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The installed example's folder is not ours to write in, however it is named."""
    from scratchpress.resources import examples_dir

    monkeypatch.chdir(tmp_path)
    assert api.find_campaign(examples_dir()).output == Path("output")
    assert api.find_campaign(example=True).output == Path("output")


def test_a_build_that_partly_fails_or_reads_some_files_removes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: object
) -> None:
    """A sheet that fails to render this time keeps its last good PDF, and a build of
    some of the campaign's files does not call the others' sheets "no longer made"."""
    folder = _starter(tmp_path)
    monkeypatch.chdir(folder)
    assert cli("build", "--only", "sheets").exit_code == 0  # type: ignore[operator]
    sheets = sorted(p.name for p in (folder / "output").glob("sheet-*.pdf"))
    assert len(sheets) >= 2
    (folder / "theme" / "sheet").mkdir(parents=True)
    (folder / "theme" / "sheet" / "sheet.html").write_text("{% if %}", encoding="utf-8")
    broken = cli("build", "--only", "sheets")  # type: ignore[operator]
    assert broken.exit_code == 1 and "removed" not in broken.stderr
    assert sorted(p.name for p in (folder / "output").glob("sheet-*.pdf")) == sheets
    (folder / "theme" / "sheet" / "sheet.html").unlink()
    some = cli("build", "party.yaml", "--only", "sheets", "-o", "output")  # type: ignore[operator]
    assert some.exit_code == 0, some.stderr
    assert "removed" not in some.stderr
    assert sorted(p.name for p in (folder / "output").glob("sheet-*.pdf")) == sheets


def test_a_script_may_name_paths_as_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _starter(tmp_path)
    monkeypatch.chdir(tmp_path)
    found = api.find_campaign("my-campaign")
    assert found.paths == [Path("my-campaign")]
    assert api.open_campaign("my-campaign").campaign.root == Path("my-campaign")
    assert api.draw(str(folder), years=2, seed="x").years[0][0] >= 1


def test_calibrate_refuses_a_campaign_that_is_not_a_folder_and_a_paper_no_one_sells(
    tmp_path: Path, cli: object
) -> None:
    result = cli("calibrate", tmp_path / "typo")  # type: ignore[operator]
    assert result.exit_code == 1
    assert "not a campaign folder" in result.stderr
    assert not (tmp_path / "typo").exists()
    with pytest.raises(api.UsageError, match="paper"):
        api.calibrate(None, tmp_path / "cal.pdf", {"paper": "b5"})


@pytest.mark.usefixtures("stand_in_renderer")
@pytest.mark.parametrize(
    ("given", "workers", "noted"), [(None, 2, True), ({"jobs": 64}, 64, False)]
)
def test_a_campaign_asks_for_no_more_workers_than_the_machine_has_cores(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    given: dict[str, int] | None,
    workers: int,
    noted: bool,
) -> None:
    """A stranger's `[build] jobs = 64` would start 64 workers of 3 GB each on two cores;
    the GM's own -j may ask for more."""
    import scratchpress.build

    (tmp_path / "scratchpress.toml").write_text("[build]\njobs = 64\n")
    party = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"
    (tmp_path / "party.yaml").write_text(party)
    monkeypatch.setattr(api.os, "cpu_count", lambda: 2)
    started: list[int] = []
    real = scratchpress.build.build

    def spy(*args: object, settings: scratchpress.build.BuildSettings, **kw: object) -> object:
        started.append(settings.jobs)
        return real(*args, settings=settings, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(scratchpress.build, "build", spy)
    opened = api.open_campaign(api.find_campaign([tmp_path]))
    report = api.build(opened, {"only": "sheets", **(given or {})}, tmp_path / "out")
    assert started == [workers]
    note = (
        "note: scratchpress.toml asks for 64 render workers ([build] jobs); this machine"
        " has 2 cores, so 2 are used (-j asks for more)"
    )
    assert (note in report.notes) is noted


def test_a_misspelt_kind_given_to_build_options_says_did_you_mean() -> None:
    campaign = api.open_campaign(api.find_campaign(example=True)).campaign
    with pytest.raises(api.UsageError, match=r"'sheet' .* \(did you mean 'sheets'\?\)"):
        api.build_options(campaign, {"only": "sheet,roster"})
