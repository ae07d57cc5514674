"""The warm server: a command run through it behaves exactly like the command run alone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import scratchpress_process

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")


def run(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return scratchpress_process(*args, cwd=cwd, env=env)


@pytest.fixture
def server_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    runtime = tmp_path / "run"
    runtime.mkdir()
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "XDG_CACHE_HOME": str(tmp_path / "c")}
    env["SCRATCHPRESS_NO_SERVER"] = ""  # empty: the server is used
    started = run("server", "start", "--idle", "2", env=env, cwd=tmp_path)
    assert started.returncode == 0, started.stderr
    assert "server running (pid" in started.stdout
    try:
        yield env
    finally:
        run("server", "stop", env=env, cwd=tmp_path)


def test_commands_run_on_the_server_with_our_folder_and_exit_code(
    server_env: dict[str, str], tmp_path: Path
) -> None:
    status = run("server", "status", env=server_env, cwd=tmp_path)
    assert status.returncode == 0 and "server running" in status.stdout

    (tmp_path / "party.yaml").write_text(
        "characters:\n  - name: Odile Marsh\n    abilities: {stealth: 2, toughness: 3}\n"
    )
    warm = run("stats", "party.yaml", env=server_env, cwd=tmp_path)  # a relative path
    alone = run(
        "stats", "party.yaml", env={**server_env, "SCRATCHPRESS_NO_SERVER": "1"}, cwd=tmp_path
    )
    assert warm.returncode == alone.returncode == 0
    assert warm.stdout == alone.stdout and "Odile Marsh" in warm.stdout

    (tmp_path / "bad.yaml").write_text("characters:\n  - name: Nobody\n")
    failed = run("check", "bad.yaml", env=server_env, cwd=tmp_path)
    assert failed.returncode == 1
    assert 'bad.yaml:2: entry "Nobody"' in failed.stderr
    assert "Traceback" not in failed.stderr


def test_a_build_through_the_server_writes_the_same_pdf(
    server_env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(
        "characters:\n  - name: Odile Marsh\n    abilities: {stealth: 2, toughness: 3}\n"
    )
    warm = run("build", "campaign", "-o", "warm", "--only", "sheets", env=server_env, cwd=tmp_path)
    alone = run(
        "build",
        "campaign",
        "-o",
        "alone",
        "--only",
        "sheets",
        env={**server_env, "SCRATCHPRESS_NO_SERVER": "1"},
        cwd=tmp_path,
    )
    assert warm.returncode == alone.returncode == 0, warm.stderr
    pdf = "sheet-odile-marsh.pdf"
    assert (tmp_path / "warm" / pdf).read_bytes() == (tmp_path / "alone" / pdf).read_bytes()


def test_stop_leaves_commands_running_alone(server_env: dict[str, str], tmp_path: Path) -> None:
    stopped = run("server", "stop", env=server_env, cwd=tmp_path)
    assert "stopped the server" in stopped.stdout
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if run("server", "status", env=server_env, cwd=tmp_path).returncode == 1:
            break
        time.sleep(0.2)
    else:
        pytest.fail("the server did not stop")
    alone = run("stats", "--help", env=server_env, cwd=tmp_path)
    assert alone.returncode == 0
