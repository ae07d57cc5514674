"""Ship the top-level templates/, fonts/ and examples/ inside the wheel.

Our users asked for those folders at the top of the repository, where package-data cannot
reach; this build step copies them to ``generator/_bundled/`` so `pip install .` works
without a checkout. Editable installs read them in place (see generator/resources.py).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

BUNDLED = ("templates", "fonts", "examples")


class BuildWithBundled(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "generator" / "_bundled"
        for name in BUNDLED:
            shutil.copytree(here / name, target / name, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithBundled})
