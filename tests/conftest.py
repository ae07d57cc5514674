"""Shared fixtures: the golden examples, the shared reference folder, campaign folders, the CLI,
the example campaign built once per test session, and a stand-in for the renderer.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock
from typer.testing import CliRunner, Result

from scratchpress.cli.app import app

from standin import install_stand_in

GOLDEN_FILE = Path("golden") / "examples.json"
OUR_GOLDEN = Path(__file__).resolve().parent / GOLDEN_FILE

# The tests' stamps and cache signing key stay out of the developer's own ~/.cache. Once a
# process: pytest imports this file as ``tests.conftest`` (importlib mode) and the tests
# import it again as ``conftest`` for its helpers.
if os.environ.get("SCRATCHPRESS_TESTS_PROCESS") != str(os.getpid()):
    os.environ["SCRATCHPRESS_TESTS_PROCESS"] = str(os.getpid())
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


# --------------------------------------------------------------- the example, built once


# The example's printables by file name: the kind (as `--only` names it) each belongs to.
EXAMPLE_KINDS = (
    ("sheet-", "sheets"),
    ("vehicle-", "vehicles"),
    ("initiative-cards", "initiative"),
    ("community-", "community"),
    ("roster", "roster"),
    ("encounters", "encounters"),
    ("booklet-", "booklets"),
    ("carry-table", "carry"),
    ("careers", "careers"),
    ("resilience-events", "events"),
    ("kit-", "kit"),
)
EXAMPLE_BUILD_ARGS = ("build", "--example", "--no-cache")


@dataclass(frozen=True)
class ExampleBuild:
    """The bundled example built once for the whole session, as `scratchpress build` makes it
    (its own settings: Letter, colour, every printable). Shared by every
    test and every xdist worker: read it, never change it; a test that edits a file copies
    it first (``copy``)."""

    folder: Path
    exit_code: int
    stdout: str
    stderr: str

    def pdf(self, name: str) -> Path:
        path = self.folder / name
        assert path.is_file(), f"the example build wrote no {name}: {self.stdout}{self.stderr}"
        return path

    def kinds(self) -> dict[str, list[Path]]:
        """Every PDF written, by kind; a PDF of no known kind is an error (a new printable
        must be added to EXAMPLE_KINDS, so the kind's tests see it)."""
        found: dict[str, list[Path]] = {}
        for path in sorted(self.folder.glob("*.pdf")):
            kind = next((k for prefix, k in EXAMPLE_KINDS if path.name.startswith(prefix)), None)
            assert kind is not None, f"{path.name}: a printable of no kind in EXAMPLE_KINDS"
            found.setdefault(kind, []).append(path)
        return found

    def copy(self, to: Path) -> Path:
        """A private copy of the output folder, for a test that changes files in it."""
        shutil.copytree(self.folder, to, symlinks=True)
        return to


def _build_example(out: Path) -> dict[str, Any]:
    result = CliRunner().invoke(app, [*EXAMPLE_BUILD_ARGS, "-o", str(out)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return {"exit_code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}


@pytest.fixture(scope="session")
def example_build(tmp_path_factory: pytest.TempPathFactory) -> ExampleBuild:
    """The example, built by the first worker that asks (the pytest-xdist recipe: a folder
    beside the workers' own, a file lock around it); the others wait for it and read it."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = tmp_path_factory.getbasetemp().parent  # this session's, shared by its workers
    else:
        root = tmp_path_factory.getbasetemp()
    out = root / "example-build"
    record = root / "example-build.json"
    with FileLock(str(record) + ".lock"):
        if not record.is_file():
            record.write_text(json.dumps(_build_example(out)), encoding="utf-8")
        done = json.loads(record.read_text(encoding="utf-8"))
    built = ExampleBuild(out, done["exit_code"], done["stdout"], done["stderr"])
    assert built.exit_code == 0, built.stdout + built.stderr
    return built


# ---------------------------------------------------------------- a stand-in renderer


@pytest.fixture
def stand_in_renderer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Builds in this test render through the stand-in (standin.py). A module can
    ask for it in ``pytestmark``; a test in it marked ``real_renderer`` renders for real."""
    if request.node.get_closest_marker("real_renderer") is None:
        install_stand_in(monkeypatch)
