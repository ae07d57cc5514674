"""`scratchpress build`'s options are the options model's: one definition, every spelling."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pikepdf
import pytest
import typer.main
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from scratchpress import api
from scratchpress.cli.app import app
from scratchpress.resources import templates_dir

from conftest import Cli

SCRATCHPRESS_CMD = (sys.executable, "-m", "scratchpress")

CHOICES = ["paper", "units", "cards", "backs", "duplex_edge", "impose"]


def _build_params() -> dict[str, Any]:
    command = typer.main.get_command(app).commands["build"]  # type: ignore[attr-defined]
    return {p.name: p for p in command.params if p.name}


# Options the issue tracker named otherwise than their setting ("build --for SHOP").
FLAGS = {"print_shop": "--for"}


def test_every_build_option_of_the_model_is_on_the_command_line() -> None:
    params = _build_params()
    for name in api.BuildOptions.model_fields:
        flag = FLAGS.get(name, f"--{name.replace('_', '-')}")
        assert name in params and flag in params[name].opts, f"{flag} is missing from `build`"
        # A default on the command line would hide the campaign's [build] table.
        assert params[name].default is None, flag
        if api.BuildOptions.model_fields[name].annotation in (bool, "StrictBool"):
            assert f"--no-{name.replace('_', '-')}" in params[name].secondary_opts, flag
    for name in ("tent", "bleed", "ink_saver", "png", "strict"):
        assert f"--no-{name.replace('_', '-')}" in params[name].secondary_opts, name


@pytest.mark.parametrize("name", CHOICES)
def test_a_choice_option_takes_exactly_the_models_choices(cli: Cli, name: str) -> None:
    flag = f"--{name.replace('_', '-')}"
    refused = cli("build", "--example", flag, "no-such-choice")
    assert refused.exit_code == 2
    for choice in api.option_choices(name):
        assert repr(choice) in refused.stderr, (flag, choice, refused.stderr)


def test_the_help_of_an_option_is_the_models_description() -> None:
    params = _build_params()
    for name in ("cards", "backs", "bleed", "impose", "png"):
        assert params[name].help == api.option_help(name)


# ---------------------------------------------------------------------------- --watch
# ``scratchpress build --watch`` as a GM runs it: one process, a rebuild per save, its own
# output (even inside the campaign) never starting another build, Ctrl-C a clean exit.


def _reader(process: subprocess.Popen[str], lines: list[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)


def _wait_for(condition: object, seconds: float = 90) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_watch_rebuilds_once_per_save_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    campaign = tmp_path / "campaign"
    campaign.mkdir()
    party = campaign / "party.yaml"
    party.write_text("characters:\n  - name: Odile Marsh\n    abilities: {toughness: 3}\n")
    out = campaign / "out"  # inside the campaign: its writes must not trigger builds
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scratchpress",
            "build",
            str(campaign),
            "-o",
            str(out),
            "--only",
            "sheets",
            "--watch",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    lines: list[str] = []
    threading.Thread(target=_reader, args=(process, lines), daemon=True).start()
    summaries = lambda: [line for line in lines if " document" in line and " in " in line]  # noqa: E731
    try:
        assert _wait_for(lambda: any(line.startswith("watching ") for line in lines)), lines
        assert len(summaries()) == 1
        sheet = out / "sheet-odile-marsh.pdf"
        before = sheet.stat().st_mtime_ns
        party.write_text("characters:\n  - name: Odile Marsh\n    abilities: {toughness: 4}\n")
        assert _wait_for(lambda: sheet.stat().st_mtime_ns != before), lines
        assert _wait_for(lambda: len(summaries()) == 2), lines
        time.sleep(2)  # the rebuild wrote files in out/: no third build may follow
        assert len(summaries()) == 2, lines
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "Traceback" not in stderr


def test_watch_follows_a_theme_file_deleted_renamed_and_restored(tmp_path: Path) -> None:
    from pypdf import PdfReader

    from scratchpress.resources import templates_dir

    campaign = tmp_path / "campaign"
    (campaign / "theme" / "sheet").mkdir(parents=True)
    (campaign / "party.yaml").write_text(
        "characters:\n  - name: Odile Marsh\n    abilities: {toughness: 3}\n"
    )
    ours = (templates_dir() / "sheet" / "sheet.html").read_text()
    themed = ours.replace("{{ identity.name }}</h1>", "{{ identity.name }} of the Weir</h1>", 1)
    assert themed != ours
    template = campaign / "theme" / "sheet" / "sheet.html"
    template.write_text(themed)
    out = tmp_path / "out"
    sheet = out / "sheet-odile-marsh.pdf"
    process = subprocess.Popen(
        [*SCRATCHPRESS_CMD, "build", str(campaign), "-o", str(out), "--only", "sheets", "--watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    lines: list[str] = []
    threading.Thread(target=_reader, args=(process, lines), daemon=True).start()
    builds = lambda: [line for line in lines if " document" in line and " in " in line]  # noqa: E731

    def rebuilt_with(change: Callable[[], None], themed_name: bool) -> None:
        count = len(builds())
        change()
        assert _wait_for(lambda: len(builds()) > count), lines
        text = "".join(page.extract_text() for page in PdfReader(sheet).pages)
        assert ("WEIR" in text.upper()) is themed_name, (lines, text[:200])

    try:
        assert _wait_for(lambda: any(line.startswith("watching ") for line in lines)), lines
        assert "WEIR" in PdfReader(sheet).pages[0].extract_text().upper()
        rebuilt_with(template.unlink, themed_name=False)  # back to our own template
        rebuilt_with(lambda: template.write_text(themed), themed_name=True)  # added again
        renamed = template.with_name("sheet.html.old")
        rebuilt_with(lambda: template.rename(renamed), themed_name=False)
        rebuilt_with(lambda: renamed.rename(template), themed_name=True)
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "template error" not in stderr and "Traceback" not in stderr, stderr


# ------------------------------------------------------------------------- --for SHOP
# The careers deck (16 cards) as each print shop takes it, read back as its prepress would.


@pytest.fixture(scope="module")
def shop_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    built = {}
    for shop in api.SHOPS:
        out = tmp_path_factory.mktemp(shop)
        result = CliRunner().invoke(
            app, ["build", "--example", "--only", "careers", "--for", shop, "-o", str(out)]
        )
        assert result.exit_code == 0, result.output
        assert f"{shop}/preflight.txt: 0 findings in 1 deck for" in result.stderr
        built[shop] = out
    return built


def test_drivethrucards_gets_one_pdfx_file_a_card_a_page_front_then_back(
    shop_builds: dict[str, Path],
) -> None:
    out = shop_builds["drivethrucards"] / "drivethrucards"
    with pikepdf.open(out / "careers.pdf") as pdf:
        assert len(pdf.pages) == 2 * 16  # 16 careers
        for page in pdf.pages:
            assert [round(float(v), 2) for v in page.mediabox] == [0, 0, 198.0, 270.0]  # 2.75x3.75 in
            assert [round(float(v), 2) for v in page.obj.TrimBox] == [9.0, 9.0, 189.0, 261.0]
            assert [round(float(v), 2) for v in page.obj.BleedBox] == [0, 0, 198.0, 270.0]
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
        assert pdf.Root.OutputIntents[0].S == pikepdf.Name.GTS_PDFX
        assert pdf.pdf_version == "1.4"
    # Capitals: the stylesheet sets the labels in caps, and the text layer holds them so.
    text = [page.extract_text().upper() for page in PdfReader(out / "careers.pdf").pages]
    assert all("CAREER" in t and "REQUIRES" in t for t in text[0::2]), "fronts on odd pages"
    assert all("RESILIENCE" in t and "REQUIRES" not in t for t in text[1::2]), "backs on even"
    report = json.loads((out / "preflight.json").read_text(encoding="utf-8"))
    assert report["findings"] == 0
    assert {c["name"] for c in report["files"][0]["checks"]} >= {"bleed", "ink", "PDF/X"}
    assert "0 findings in 1 files" in (out / "preflight.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("shop", "pixels"), [("gamecrafter", (825, 1125)), ("makeplayingcards", (822, 1122))]
)
def test_image_shops_get_a_300_dpi_png_per_front_and_one_back(
    shop_builds: dict[str, Path], shop: str, pixels: tuple[int, int]
) -> None:
    folder = shop_builds[shop] / shop / "careers"
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"{n:03d}-front.png" for n in range(1, 17)] + ["back.png"]
    for name in ("001-front.png", "back.png"):
        with Image.open(folder / name) as face:
            assert face.size == pixels
            assert round(face.info["dpi"][0]) == 300
            # The bleed is the card's own cream (or its band), not the white of paper.
            assert face.convert("RGB").getpixel((pixels[0] // 2, pixels[1] - 3)) != (255, 255, 255)
    json_report = json.loads((shop_builds[shop] / shop / "preflight.json").read_text("utf-8"))
    assert json_report["findings"] == 0 and json_report["shop"] == shop


def test_strict_fails_a_shop_build_on_a_preflight_finding(cli: Cli, tmp_path: Path) -> None:
    """A theme that sets the cards' text on the trim: the preflight finds it, and --strict
    makes that an error."""
    theme = tmp_path / "campaign" / "theme" / "deck"
    theme.mkdir(parents=True)
    (tmp_path / "campaign" / "party.yaml").write_text(
        "characters:\n  - name: Odile Marsh\n    abilities: {shooting: 2}\n", encoding="utf-8"
    )
    css = (templates_dir() / "deck" / "deck.css").read_text(encoding="utf-8")
    (theme / "deck.css").write_text(css + "\n.card-safe { left: 0.5mm !important; }\n", "utf-8")
    args = ("build", "campaign", "--only", "careers", "--for", "drivethrucards", "-o", "out")
    warned = cli(*args)
    assert warned.exit_code == 0
    assert "preflight for DriveThruCards: safe area: page 1:" in warned.stderr
    failed = cli(*args, "--strict")
    assert failed.exit_code == 1
    assert "drivethrucards/careers.pdf: preflight for DriveThruCards: safe area" in failed.stderr
