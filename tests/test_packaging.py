"""The package as strangers meet it: its import name, its layers (docs/architecture.md draws
the same ones), no import circles, nothing POSIX-only at module level, and a command that
still runs beside a package named ``generator`` (the folder's name, which PyPI gives to
somebody else's project).
"""

from __future__ import annotations

import ast
import importlib.metadata
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import scratchpress
from scratchpress.render import pool
from scratchpress.render.jobs import Job
from scratchpress.render.pool import run_jobs

from conftest import scratchpress_process

PACKAGE = Path(scratchpress.__file__).resolve().parent
NAME = "scratchpress"
POSIX_ONLY = {"resource", "fcntl", "pwd", "grp", "termios", "posix"}


def _modules() -> dict[str, Path]:
    """Every module of the package under its import name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join([NAME, *parts])] = path
    return found


MODULES = _modules()


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def _imports(module: str, typing_too: bool = False) -> Iterator[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every import that runs, lazy ones
    inside functions included; imports only a type checker sees only with ``typing_too``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    here = module if _is_package(module) else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if not typing_too and _type_checking_only(node, parents):
            continue
        top = parents.get(node) is tree
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno, top
            continue
        base = node.module or ""
        if node.level:
            anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
            base = ".".join([*anchor, *([base] if base else [])])
        for alias in node.names:
            submodule = f"{base}.{alias.name}"
            yield (submodule if submodule in MODULES else base), node.lineno, top


def _ancestors(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts))]


def import_graph() -> dict[str, set[str]]:
    """Which of our modules each module imports, directly or by importing a submodule of a
    package (which runs the package's ``__init__`` first); lazy imports and those only a
    type checker sees included."""
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        edges = graph.setdefault(module, set())
        own = set(_ancestors(module))
        for target, _, _ in _imports(module, typing_too=True):
            if target not in MODULES or target == module:
                continue
            edges.add(target)
            edges.update(a for a in _ancestors(target) if a in MODULES and a not in own | {module})
    return graph


def test_the_import_name_is_scratchpress_and_its_version_is_the_distributions() -> None:
    assert scratchpress.__name__ == "scratchpress"
    assert scratchpress.__version__ == importlib.metadata.version("scratchpress")
    assert "scratchpress.cli" in MODULES and "scratchpress.npcs" in MODULES


# The layers, bottom first: a module imports only from its own layer and those below.
# docs/architecture.md draws these; keep the two alike.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("rules", ("rules", "problems", "resources", "")),
    ("definitions and typesetting", ("definitions", "typesetting", "wording")),
    ("the campaign computed", ("statblocks", "content", "encounters", "npcs")),
    ("render", ("render",)),
    ("documents", ("documents", "export")),
    ("build", ("build", "resilience")),
    ("api", ("api",)),
    ("cli", ("cli", "__main__", "preview")),
]


def layer_of(module: str) -> int:
    """The index in LAYERS of a module of ours (``scratchpress.render.pool`` -> 3)."""
    first = module.removeprefix(NAME).removeprefix(".").split(".")[0]
    for index, (_, rooms) in enumerate(LAYERS):
        if first in rooms:
            return index
    raise AssertionError(f"{module} is in no layer: add its folder to LAYERS and the docs")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module in a higher layer, as a readable line."""
    return [
        f"{module} ({LAYERS[layer_of(module)][0]}) imports {target}"
        f" ({LAYERS[layer_of(target)][0]})"
        for module, targets in sorted(graph.items())
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle (``[a, b, a]``), or None: a depth-first walk that meets a module
    still on its own path has gone round."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def walk(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for target in sorted(graph.get(module, ())):
            if target in on_path:
                return [*path[path.index(target) :], target]
            if target not in done:
                circle = walk(target)
                if circle:
                    return circle
        on_path.discard(path.pop())
        done.add(module)
        return None

    for module in sorted(graph):
        if module not in done:
            circle = walk(module)
            if circle:
                return circle
    return None


def test_every_module_sits_in_a_layer_and_imports_only_from_below() -> None:
    graph = import_graph()
    # The graph sees lazy imports and those only a type checker sees.
    assert "scratchpress.build" in graph["scratchpress.api"]
    assert "scratchpress.api" in graph["scratchpress.cli.build"]
    assert upward_imports(graph) == []


def test_nothing_in_the_package_imports_in_a_circle() -> None:
    circle = find_circle(import_graph())
    assert circle is None, "import circle: " + " -> ".join(circle or [])


def test_the_layer_and_circle_checks_can_fail() -> None:
    """The checks above see what they are for: a rule importing the renderer, and three
    modules that import each other round."""
    rules, pool = f"{NAME}.rules.abilities", f"{NAME}.render.pool"
    assert upward_imports({rules: {pool}, pool: set()}) == [
        f"{rules} (rules) imports {pool} (render)"
    ]
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_command_line_calls_only_the_api() -> None:
    """The CLI parses, calls the public API, prints and exits: of ours it imports only
    ``api`` and ``problems`` (and its own modules, and the preview server beside it)."""
    allowed = {NAME, f"{NAME}.api", f"{NAME}.problems", f"{NAME}.preview"}
    for module in (m for m in MODULES if m.startswith(f"{NAME}.cli")):
        for target, line, _ in _imports(module, typing_too=True):
            if target.startswith(f"{NAME}.cli") or not target.startswith(NAME):
                continue
            assert target in allowed, f"{MODULES[module].name}:{line} imports {target}"


def test_the_rules_are_pure_and_import_nothing_above_them() -> None:
    io_modules = {"os", "pathlib", "io", "subprocess", "socket", "shutil", "tempfile", "open"}
    for module in (m for m in MODULES if m.startswith(f"{NAME}.rules")):
        for target, line, _ in _imports(module):
            where = f"{MODULES[module].name}:{line}"
            assert target.split(".")[0] not in io_modules, f"{where} imports {target}"
            if target.startswith(f"{NAME}."):
                assert target.startswith(f"{NAME}.rules"), f"{where} imports {target}"


def test_only_the_command_line_knows_typer_and_nothing_imports_the_command_line() -> None:
    for module in MODULES:
        in_cli = module.startswith(f"{NAME}.cli") or module == f"{NAME}.__main__"
        for target, line, _ in _imports(module):
            if in_cli:
                continue
            where = f"{MODULES[module].name}:{line}"
            assert target.split(".")[0] != "typer", f"{where} imports typer"
            assert not target.startswith(f"{NAME}.cli"), f"{where} imports {target}"


def test_nothing_posix_only_is_imported_at_module_level() -> None:
    for module in MODULES:
        for target, line, top in _imports(module):
            if top:
                assert target not in POSIX_ONLY, f"{MODULES[module]}:{line} imports {target}"


def test_the_command_runs_beside_a_package_named_generator(tmp_path: Path) -> None:
    """A folder called ``generator`` on PYTHONPATH (somebody's own project, or the PyPI
    package of that name) must not be what the command imports."""
    impostor = tmp_path / "generator"
    impostor.mkdir()
    (impostor / "__init__.py").write_text("raise ImportError('the wrong generator package')\n")
    (impostor / "cli.py").write_text("raise SystemExit('the wrong generator.cli')\n")
    env = {
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    }
    script = Path(sys.executable).with_name("scratchpress")
    assert script.is_file(), "the console script is installed beside this Python"
    version = subprocess.run(
        [str(script), "--version"],
        cwd=tmp_path,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert version.returncode == 0, version.stderr
    assert version.stdout.strip() == f"scratchpress {scratchpress.__version__}"
    from scratchpress.resources import examples_dir

    example = scratchpress_process("stats", str(examples_dir()), cwd=tmp_path, env=env)
    assert example.returncode == 0, example.stderr
    assert "Teodora Vance" in example.stdout
    assert "wrong generator" not in example.stderr + version.stderr


def _tiny_job() -> Job:
    from scratchpress.resources import fonts_dir, templates_dir

    html = "<html><body><p>Initiative</p></body></html>"
    return Job("tiny", html, templates_dir(), (templates_dir(), fonts_dir()))


def test_without_fork_or_resource_workers_are_spawned_and_the_limits_note_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Windows has neither ``fork`` nor ``resource``: rendering still works, in spawned
    workers, and the build says in one line that the memory limit is off."""
    monkeypatch.setitem(sys.modules, "resource", None)  # `import resource` now fails
    monkeypatch.setattr(pool.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    started: list[str] = []
    real = pool.multiprocessing.get_context

    def context(method: str | None = None) -> object:
        started.append(str(method))
        return real(method)

    monkeypatch.setattr(pool.multiprocessing, "get_context", context)
    [outcome] = list(run_jobs([_tiny_job()], workers=2))
    assert outcome.error is None and outcome.pages == 1
    assert started == ["spawn"]
    note = pool.limits_note(2)
    assert note is not None and note.startswith("note: this platform has no resource limits")
    assert "\n" not in note
    assert pool.limits_note(1) == note  # --jobs 1 renders in a worker too, as limited


def test_with_fork_and_resource_no_note_is_printed() -> None:
    if "fork" not in pool.multiprocessing.get_all_start_methods():
        pytest.skip("this platform cannot fork")
    assert pool.limits_note(2) is None


def test_a_build_without_resource_limits_prints_the_note_once(
    monkeypatch: pytest.MonkeyPatch, cli: object, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "resource", None)
    from scratchpress.resources import examples_dir

    result = cli("build", examples_dir(), "-o", tmp_path / "out", "--only", "carry", "-j", "2")  # type: ignore[operator]
    assert result.exit_code == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "no resource limits" in notes[0]
    assert (tmp_path / "out" / "carry-table.pdf").is_file()


def test_the_architecture_doc_draws_these_layers() -> None:
    """docs/architecture.md's diagram lists the layers of LAYERS, in order, by name."""
    import re

    doc = (PACKAGE.parents[0] / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = doc.split("## The layers", 1)[1].split("```", 2)[1]
    drawn = re.findall(r"^\s*(\d)  (\S.*?)\s{2,}", section, re.MULTILINE)
    assert [(int(n), name) for n, name in drawn] == [
        (index, name) for index, (name, _) in reversed(list(enumerate(LAYERS)))
    ]
