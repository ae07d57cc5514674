"""Shared fixtures: the golden examples, the shared reference folder, campaign folders, the CLI.

The golden examples (the books' stat blocks: names and numbers, which are facts) live in
``tests/golden/examples.json``, so a bare clone runs every rules test. The rule texts
themselves and the full golden file with the books' notes live in the shared reference
folder beside the repo (``../shared``) or wherever ``SCRATCHPRESS_SHARED`` points; only the
few tests that need those texts skip without it, and they say why.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from scratchpress.cli.app import app

GOLDEN_FILE = Path("golden") / "examples.json"
OUR_GOLDEN = Path(__file__).resolve().parent / GOLDEN_FILE

# The tests' stamps and cache signing key stay out of the developer's own ~/.cache.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="scratchpress-tests-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], ignore_errors=True)
os.environ.pop("SCRATCHPRESS_CACHE_DIR", None)  # the render cache too (render/cache.py)


def shared_location() -> Path:
    configured = os.environ.get("SCRATCHPRESS_SHARED")
    return Path(configured) if configured else Path(__file__).resolve().parents[2] / "shared"


def _missing_reason(folder: Path) -> str:
    return (
        f"needs the rule texts' own words (shared reference folder with {GOLDEN_FILE}), "
        f"not found at {folder}; put it beside the repo or set SCRATCHPRESS_SHARED"
    )


def load_golden() -> list[dict[str, Any]]:
    """The golden examples: our own copy, names and numbers only."""
    examples: list[dict[str, Any]] = json.loads(OUR_GOLDEN.read_text(encoding="utf-8"))["examples"]
    return examples


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Any test that asks for ``golden_example`` runs once per example, named by its id."""
    if "golden_example" not in metafunc.fixturenames:
        return
    examples = load_golden()
    metafunc.parametrize("golden_example", examples, ids=[e["id"] for e in examples])


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared reference folder; tests that need the rule texts themselves skip without it."""
    folder = shared_location()
    if not (folder / GOLDEN_FILE).is_file():
        pytest.skip(_missing_reason(folder))
    return folder


@pytest.fixture(scope="session")
def shared_golden(shared_dir: Path) -> list[dict[str, Any]]:
    """The full golden file, notes and descriptions included (the books' own words)."""
    data = json.loads((shared_dir / GOLDEN_FILE).read_text(encoding="utf-8"))
    examples: list[dict[str, Any]] = data["examples"]
    return examples


@pytest.fixture(scope="session")
def golden() -> list[dict[str, Any]]:
    examples = load_golden()
    assert examples, f"no examples in {OUR_GOLDEN}"
    return examples


@pytest.fixture(scope="session")
def golden_by_id(golden: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in golden}


WriteCampaign = Callable[..., Path]


@pytest.fixture
def write_campaign(tmp_path: Path) -> WriteCampaign:
    """``write_campaign({"party.yaml": "...", "scratchpress.toml": "..."}, name="campaign")``.

    Texts are dedented, so they can be written indented inside a test. Returns the folder.
    """

    def write(files: dict[str, str], name: str = "campaign") -> Path:
        folder = tmp_path / name
        folder.mkdir(parents=True, exist_ok=True)
        for filename, text in files.items():
            (folder / filename).write_text(textwrap.dedent(text), encoding="utf-8")
        return folder

    return write


class Cli:
    """Runs ``scratchpress`` in-process with the temporary folder as the working directory,
    so messages name files as ``campaign/party.yaml``. stdout and stderr stay separate."""

    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str | os.PathLike[str]) -> Result:
        result = self.runner.invoke(app, [str(a) for a in args])
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        assert not crashed, f"scratchpress {args} crashed: {result.exception!r}\n{result.output}"
        assert "Traceback" not in result.stdout + result.stderr
        return result


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    monkeypatch.chdir(tmp_path)
    return Cli()


def scratchpress_process(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``scratchpress ARGS`` as its own process, through the real entry point (stamps
    are only reached that way; CliRunner calls the CLI directly)."""
    return subprocess.run(
        [sys.executable, "-m", "scratchpress", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
