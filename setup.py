"""The two things pyproject.toml cannot say: the package list under its mapped name, and
the top-level templates/, fonts/ and examples/ shipped inside the wheel.

The package's folder is ``generator/`` and its import name ``scratchpress`` (the top level
of the repository was fixed by the people we build for); ``package-dir`` in pyproject.toml
maps one to the other, and the subpackages are found here under their import names.

Templates, fonts and the example campaign also sit at the top level, where package-data
cannot reach: this build step copies them to ``scratchpress/_bundled/``, so a wheel works
without a checkout. MANIFEST.in puts them in the sdist, so a wheel built from the sdist
has them too. Editable installs read them in place (see generator/resources.py).
"""

import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
BUNDLED = ("templates", "fonts", "examples")


class BuildWithBundled(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "scratchpress" / "_bundled"
        for name in BUNDLED:
            if not (HERE / name).is_dir():
                raise SystemExit(f"setup.py: the {name}/ folder is missing; cannot build")
            shutil.copytree(
                HERE / name,
                target / name,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.py"),
            )


setup(
    # Every folder, data-only ones too (content/resilience holds YAML and no __init__.py).
    packages=[
        "scratchpress",
        *(
            f"scratchpress.{p}"
            for p in find_namespace_packages("generator", exclude=["*__pycache__*"])
        ),
    ],
    cmdclass={"build_py": BuildWithBundled},
)
