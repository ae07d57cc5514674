"""Faults injected while we write: a full disk, a read-only folder, kill -9 mid-build, two
builds at once, Ctrl-C and SIGTERM, and a planted symlink at every path we write. Each
ends in a clean message and exit code, with nothing half-written and nothing written
where it does not belong. No root needed: disk errors are injected, not provoked."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from pypdf import PdfReader

from scratchpress.render import files
from scratchpress.render.lock import output_lock
from scratchpress.render.manifest import JOURNAL, MANIFEST

from conftest import Cli, WriteCampaign
from standin import stand_in_command

# What is checked here is what happens around a render, not what it draws: builds in this
# process render with the stand-in (standin.py), and so do processes started with
# stand_in_command; a build that must still be rendering when it is stopped renders for real.
pytestmark = pytest.mark.usefixtures("stand_in_renderer")

SCRATCHPRESS = (sys.executable, "-m", "scratchpress")
ONE = "characters:\n  - name: Odile Marsh\n    abilities: {shooting: 2, toughness: 3}\n"


def _guards(count: int, prefix: str = "Guard") -> str:
    return "characters:\n" + "".join(
        f"  - name: {prefix} {i:02d}\n    abilities: {{shooting: 2, toughness: 3}}\n"
        for i in range(count)
    )


def _scratchpress(*args: str, cwd: Path, stand_in: bool = False) -> subprocess.Popen[str]:
    return subprocess.Popen(
        stand_in_command(*args) if stand_in else [*SCRATCHPRESS, *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _fail_writes(monkeypatch: pytest.MonkeyPatch, code: int, when: str = "") -> None:
    """Every write whose file name contains ``when`` fails as the OS would fail it."""
    real = files.write_atomic

    def failing(path: Path, data: bytes, durable: bool = True, make_folder: bool = True) -> None:
        if when in path.name:
            raise OSError(code, os.strerror(code), str(path))
        real(path, data, durable, make_folder)

    monkeypatch.setattr(files, "write_atomic", failing)


def _no_temps(folder: Path) -> None:
    assert not [p for p in folder.rglob(f"{files.TEMP_PREFIX}*.tmp")], "temporary files left"


# ----------------------------------------------------------------------- disk errors


def test_a_full_disk_while_the_manifest_is_saved(
    cli: Cli, write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    _fail_writes(monkeypatch, errno.ENOSPC, MANIFEST)
    result = cli("build", folder, "-o", "output", "--only", "sheets")
    assert result.exit_code == 1
    assert (
        "cannot write output/.scratchpress-manifest.json: No space left on device"
        in result.stderr.splitlines()
    )
    assert len(PdfReader("output/sheet-odile-marsh.pdf").pages) == 1  # whole, not half
    _no_temps(Path("output"))


def test_a_read_only_output_folder(
    cli: Cli, write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    _fail_writes(monkeypatch, errno.EROFS)
    result = cli("build", folder, "-o", "output", "--only", "sheets,carry")
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert "cannot write output/sheet-odile-marsh.pdf: Read-only file system" in lines
    assert "cannot write output/carry-table.pdf: Read-only file system" in lines
    assert "the build partly failed: the files above were written, the rest not." in lines
    assert not list(Path("output").glob("*.pdf"))


def test_an_output_folder_under_a_regular_file(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"party.yaml": ONE})
    Path("notes.txt").write_text("mine")
    result = cli("build", folder, "-o", "notes.txt/out")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2:] == [
        "cannot write notes.txt/out: Not a directory",
        "the build partly failed: the files above were written, the rest not.",
    ]
    assert Path("notes.txt").read_text() == "mine"


def test_a_png_write_error(
    cli: Cli, write_campaign: WriteCampaign, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    _fail_writes(monkeypatch, errno.ENOSPC, ".png")
    result = cli("build", folder, "-o", "output", "--only", "sheets", "--png")
    assert result.exit_code == 1
    assert (
        "cannot write output/png/sheet-odile-marsh-01.png: No space left on device"
        in result.stderr.splitlines()
    )


def test_calibrate_into_a_folder_and_onto_a_full_disk(
    cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    Path("prints").mkdir()
    written = cli("calibrate", "-o", "prints")
    assert written.exit_code == 0, written.stderr
    assert len(PdfReader("prints/duplex-calibration.pdf").pages) == 2
    _fail_writes(monkeypatch, errno.ENOSPC)
    full = cli("calibrate", "-o", "prints/again.pdf")
    assert full.exit_code == 1
    # The manifest beside it cannot be saved either; the sheet is named first.
    assert full.stderr.splitlines()[0] == "cannot write prints/again.pdf: No space left on device"
    assert not Path("prints/again.pdf").exists()


def test_a_missing_text_to_import_cannot_be_read(cli: Cli) -> None:
    result = cli("import", "nothing.txt")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "cannot read nothing.txt: no such file"


# ----------------------------------------------------------------- symlinks we refuse


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file elsewhere that a planted link points at; it must never change."""
    target = tmp_path / "victim" / "precious.txt"
    target.parent.mkdir()
    target.write_text("precious")
    return target


def test_a_png_folder_that_is_a_link_is_not_followed(
    cli: Cli, write_campaign: WriteCampaign, victim: Path
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    Path("output").mkdir()
    Path("output/png").symlink_to(victim.parent)
    result = cli("build", folder, "-o", "output", "--only", "sheets", "--png")
    assert result.exit_code == 1
    assert (
        "cannot write output/png/sheet-odile-marsh-01.png: png/ is a symbolic link; refused"
        in result.stderr.splitlines()
    )
    assert sorted(p.name for p in victim.parent.iterdir()) == ["precious.txt"]


def test_png_files_we_did_not_write_are_left_alone(cli: Cli, write_campaign: WriteCampaign) -> None:
    folder = write_campaign({"party.yaml": ONE})
    Path("output/png").mkdir(parents=True)
    Path("output/png/sheet-odile-marsh-01.png").write_bytes(b"the GM's own picture")
    result = cli("build", folder, "-o", "output", "--only", "sheets", "--png")
    assert result.exit_code == 1
    assert (
        "output/png/sheet-odile-marsh-01.png: exists and was not written by scratchpress"
        " (or was changed since); left untouched; use --force to replace it"
        in result.stderr.splitlines()
    )
    assert Path("output/png/sheet-odile-marsh-01.png").read_bytes() == b"the GM's own picture"
    assert (
        cli("build", folder, "-o", "output", "--only", "sheets", "--png", "--force").exit_code == 0
    )
    again = cli(
        "build", folder, "-o", "output", "--only", "sheets", "--png"
    )  # ours now: no --force needed
    assert again.exit_code == 0, again.stderr
    recorded = json.loads(Path("output", MANIFEST).read_text())["files"]
    assert "png/sheet-odile-marsh-01.png" in recorded


def test_a_pdf_that_is_a_link_is_not_written_through(
    cli: Cli, write_campaign: WriteCampaign, victim: Path
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    Path("output").mkdir()
    Path("output/sheet-odile-marsh.pdf").symlink_to(victim)
    for force in ((), ("--force",)):
        result = cli("build", folder, "-o", "output", "--only", "sheets", *force)
        assert result.exit_code == 1
        assert victim.read_text() == "precious"
    assert result.stderr.splitlines()[0] == (
        "cannot write output/sheet-odile-marsh.pdf: is a symbolic link; refused"
    )


def test_a_default_output_folder_that_is_a_link_is_refused(
    cli: Cli, write_campaign: WriteCampaign, victim: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_campaign({"party.yaml": ONE, "output": ""})
    (folder / "output").unlink()
    (folder / "output").symlink_to(victim.parent)
    monkeypatch.chdir(folder)
    result = cli("build")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-2:] == [
        "output: is a symbolic link; refused as the default output (name it with -o)",
        "1 error; nothing was written.",
    ]
    assert sorted(p.name for p in victim.parent.iterdir()) == ["precious.txt"]


@pytest.mark.parametrize(
    "command",
    [
        ("calibrate", "-o", "LINK"),
        ("import", "stats.txt", "-o", "LINK"),
        ("roster", "generate", "-n", "3", "--seed", "1", "-o", "LINK", "--force"),
        ("resilience", "draw", "--seed", "1", "-o", "LINK"),
        ("schema", "-o", "LINK"),
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_an_output_file_that_is_a_link_is_refused(
    cli: Cli, victim: Path, command: tuple[str, ...]
) -> None:
    Path("stats.txt").write_text(
        "Old Pell (11 defense, 1 stamina): retired lighthouse keeper\n    3 toughness\n"
    )
    Path("link.out").symlink_to(victim)
    result = cli(*[("link.out" if part == "LINK" else part) for part in command])
    assert result.exit_code == 1, result.output
    assert "cannot write link.out: is a symbolic link; refused" in result.stderr.splitlines()
    assert victim.read_text() == "precious"


def test_new_will_not_write_through_a_linked_folder(cli: Cli, victim: Path) -> None:
    Path("camp").symlink_to(victim.parent)
    result = cli("new", "camp")
    assert result.exit_code == 1
    assert result.stderr.strip() == "cannot write camp: a file or link is in the way"
    assert sorted(p.name for p in victim.parent.iterdir()) == ["precious.txt"]


def test_nothing_is_written_outside_the_named_folder(tmp_path: Path) -> None:
    with pytest.raises(files.CannotWrite, match="outside"):
        files.write_file(tmp_path / "a" / ".." / "b.txt", b"x", tmp_path / "a")
    assert not (tmp_path / "b.txt").exists()


# ------------------------------------------------------------------ processes and signals


def _build(folder: Path, cwd: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SCRATCHPRESS, "build", str(folder), "-o", "out", *more],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _refused(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "was not written by scratchpress" in line]


def _stopped_after(folder: Path, cwd: Path, files: int, stop: signal.Signals) -> None:
    """A real build, stopped once ``files`` PDFs are written, as the terminal would: the
    signal goes to every process of its group."""
    process = _scratchpress("build", str(folder), "-o", "out", "-j", "2", cwd=cwd)
    assert process.stdout is not None
    for _ in range(files):
        line = process.stdout.readline()
        if not line.startswith("wrote out/"):
            process.kill()
            raise AssertionError(f"{line!r}; {process.communicate()}")
    os.killpg(process.pid, stop)
    process.wait(timeout=120)


@pytest.mark.parametrize("files", [1, 4, 9])
def test_a_build_killed_at_any_moment_still_knows_its_own_files(
    write_campaign: WriteCampaign, tmp_path: Path, files: int
) -> None:
    folder = write_campaign({"npcs.yaml": _guards(16)})
    _stopped_after(folder, tmp_path, files, signal.SIGKILL)
    out = tmp_path / "out"
    written = sorted(out.glob("*.pdf"))
    assert len(written) >= files
    for pdf in written:
        assert len(PdfReader(pdf).pages) >= 1, pdf  # whole, never half-written
    again = _build(folder, tmp_path)  # no --force: every file it finds is its own
    assert again.returncode == 0, again.stderr
    assert _refused(again.stderr) == []
    assert len(list(out.glob("sheet-*.pdf"))) == 16
    _no_temps(out)
    # ... and a file it did not write is still not its to replace.
    foreign = out / "sheet-guard-03.pdf"
    foreign.write_bytes(b"%PDF-1.7 the GM's own")
    third = _build(folder, tmp_path)
    assert third.returncode == 1
    assert [line.split(":")[0] for line in _refused(third.stderr)] == ["out/sheet-guard-03.pdf"]
    assert foreign.read_bytes() == b"%PDF-1.7 the GM's own"


@pytest.mark.parametrize("stop", ["SIGHUP", "SIGQUIT"])
def test_a_closed_terminal_or_ctrl_backslash_stops_like_ctrl_c(
    write_campaign: WriteCampaign, tmp_path: Path, stop: str
) -> None:
    folder = write_campaign({"npcs.yaml": _guards(30)})
    process = _scratchpress("build", str(folder), "-o", "out", "-j", "2", cwd=tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline().startswith("wrote out/")
    os.killpg(process.pid, getattr(signal, stop))  # the whole group, as a terminal does
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if not line.startswith("campaign:")]
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), err
    assert "Traceback" not in err
    out = tmp_path / "out"
    assert not (out / JOURNAL).exists()  # the manifest was saved, current
    recorded = json.loads((out / MANIFEST).read_text())["files"]
    assert sorted(recorded) == sorted(p.name for p in out.glob("*.pdf"))
    assert not list(tmp_path.glob("core*"))  # no worker dumped core
    _no_temps(out)


def test_sigterm_stops_like_ctrl_c(write_campaign: WriteCampaign, tmp_path: Path) -> None:
    folder = write_campaign({"npcs.yaml": _guards(30)})
    process = _scratchpress("build", str(folder), "-o", "out", "-j", "2", cwd=tmp_path)
    assert process.stdout is not None
    assert process.stdout.readline().startswith("wrote out/")
    process.send_signal(signal.SIGTERM)  # the parent only, as `kill PID` does
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    lines = [line for line in err.splitlines() if not line.startswith("campaign:")]
    assert len(lines) == 1 and lines[0].startswith("interrupted: "), err
    assert "Traceback" not in err
    _no_temps(tmp_path / "out")


def test_two_builds_into_one_folder_keep_every_manifest_entry(
    write_campaign: WriteCampaign, tmp_path: Path
) -> None:
    first = write_campaign({"a.yaml": _guards(8, "Archer")}, name="first")
    second = write_campaign({"b.yaml": _guards(8, "Bowman")}, name="second")
    args = ("-o", "out", "--only", "sheets")
    one = _scratchpress("build", str(first), *args, cwd=tmp_path, stand_in=True)
    two = _scratchpress("build", str(second), *args, cwd=tmp_path, stand_in=True)
    results = [p.communicate(timeout=600) for p in (one, two)]
    assert (one.returncode, two.returncode) == (0, 0), results
    recorded = json.loads((tmp_path / "out" / MANIFEST).read_text())["files"]
    assert len([name for name in recorded if name.startswith("sheet-")]) == 16
    for campaign in (first, second):
        again = subprocess.run(
            stand_in_command("build", str(campaign), *args),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert again.returncode == 0, again.stderr  # nothing refused as "not ours"


def test_a_second_build_waits_and_says_so(write_campaign: WriteCampaign, tmp_path: Path) -> None:
    folder = write_campaign({"party.yaml": ONE})
    out = tmp_path / "out"
    out.mkdir()
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with output_lock(out):
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(10)
    process = _scratchpress("build", str(folder), "-o", "out", "--only", "sheets", cwd=tmp_path)
    time.sleep(3)
    assert process.poll() is None  # still waiting
    release.set()
    holder.join()
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert "waiting: another build is writing into out/ (--no-wait to stop instead)" in err


def test_no_wait_fails_at_once_when_the_folder_is_busy(
    cli: Cli, write_campaign: WriteCampaign, tmp_path: Path
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    (tmp_path / "output").mkdir()
    with output_lock(tmp_path / "output"):
        result = cli("build", folder, "-o", "output", "--no-wait")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "another build is writing into output/; run again when it has finished"
    )


def test_calibrate_refuses_a_default_output_that_is_a_link(cli: Cli, victim: Path) -> None:
    Path("output").symlink_to(victim.parent)
    result = cli("calibrate")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        "output: is a symbolic link; refused as the default output (name it with -o)"
    )
    assert sorted(p.name for p in victim.parent.iterdir()) == ["precious.txt"]


def test_no_cache_folder_to_lock_in_is_one_clean_line(
    write_campaign: WriteCampaign, tmp_path: Path
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    (tmp_path / "not-a-folder").write_text("x")
    done = subprocess.run(
        [*SCRATCHPRESS, "build", str(folder), "-o", "out", "--only", "sheets"],
        cwd=tmp_path,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "not-a-folder")},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"cannot write {tmp_path}/not-a-folder/scratchpress: Not a directory"
        " (the output folder's lock)"
    )
    assert not list((tmp_path / "out").glob("*.pdf"))


def test_a_closed_pipe_keeps_the_manifest(write_campaign: WriteCampaign, tmp_path: Path) -> None:
    """`scratchpress build | head -1`: the files written before the pipe closed stay ours."""
    folder = write_campaign({"npcs.yaml": _guards(6)})
    shell = f"{sys.executable} -m scratchpress build {folder} -o out --only sheets -j 1 | head -1"
    subprocess.run(shell, shell=True, cwd=tmp_path, capture_output=True, timeout=300, check=False)
    recorded = json.loads((tmp_path / "out" / MANIFEST).read_text())["files"]
    on_disk = {p.name for p in (tmp_path / "out").glob("*.pdf")}
    assert on_disk and on_disk <= set(recorded)


def test_a_manifest_that_is_a_link_is_not_written_through(
    cli: Cli, write_campaign: WriteCampaign, victim: Path
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    Path("output").mkdir()
    Path("output", MANIFEST).symlink_to(victim)
    result = cli("build", folder, "-o", "output", "--only", "sheets")
    assert result.exit_code == 1
    assert (
        "cannot write output/.scratchpress-manifest.json: is a symbolic link; refused"
        in result.stderr.splitlines()
    )
    assert victim.read_text() == "precious"


def test_a_build_removes_only_its_own_leftover_temp_files(
    cli: Cli, write_campaign: WriteCampaign
) -> None:
    folder = write_campaign({"party.yaml": ONE})
    Path("output/png").mkdir(parents=True)
    # The GM's own files, named much like ours: never ours to delete.
    theirs = [
        Path("output/.scratchpress-notes.tmp"),
        Path("output/.scratchpress-0123456789abcdef.tmp"),
        Path("output/png/.scratchpress-draft.tmp"),
    ]
    for path in theirs:
        path.write_text("the GM's own")
    # What a build killed mid-write leaves: named as only we name them.
    ours = [Path("output", files.temp_name()), Path("output/png", files.temp_name())]
    for path in ours:
        path.write_bytes(b"half a PDF")
    result = cli("build", folder, "-o", "output", "--only", "sheets", "--png")
    assert result.exit_code == 0, result.stderr
    assert [path.read_text() for path in theirs] == ["the GM's own"] * 3
    assert not any(path.exists() for path in ours)
