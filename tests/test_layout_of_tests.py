"""Tests live beside what they test: ``tests/<folder>/test_<module>.py`` for the module
``generator/<folder>/<module>.py`` or the package ``generator/<folder>/<module>/``. A test
file with no module of that name is a test nobody finds when changing the module."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "generator"
# Tests of the package as a whole, not of one module.
PACKAGE_WIDE = {"test_packaging.py", "test_layout_of_tests.py"}


def misplaced(tests: Path, package: Path) -> list[str]:
    """Every test file under ``tests`` that mirrors no module of ``package``."""
    found = []
    for path in sorted(tests.rglob("test_*.py")):
        where = path.relative_to(tests)
        if where.parent == Path(".") and where.name in PACKAGE_WIDE:
            continue
        module = package / where.parent / where.name.removeprefix("test_")
        if not (module.is_file() or (module.with_suffix("") / "__init__.py").is_file()):
            found.append(
                f"tests/{where.as_posix()}: no generator/{where.parent.as_posix()}/"
                f"{module.stem}.py nor a package of that name".replace("/./", "/")
            )
    return found


def test_tests_mirror_the_package() -> None:
    offenders = misplaced(TESTS, PACKAGE)
    assert not offenders, "test files that mirror no module:\n" + "\n".join(offenders)


def test_a_test_file_of_no_module_is_found(tmp_path: Path) -> None:
    """The check can fail: a stray test file is named, a module's or a package's is not."""
    package = tmp_path / "generator"
    (package / "render").mkdir(parents=True)
    (package / "render" / "cache.py").write_text("")
    (package / "build").mkdir()
    (package / "build" / "__init__.py").write_text("")
    tests = tmp_path / "tests"
    (tests / "render").mkdir(parents=True)
    for name in ("render/test_cache.py", "test_build.py", "render/test_topic.py", "test_misc.py"):
        (tests / name).write_text("")
    assert [line.split(":")[0] for line in misplaced(tests, package)] == [
        "tests/render/test_topic.py",
        "tests/test_misc.py",
    ]
