"""What the preview's tests share: a small campaign, the server in this process, and the
real `scratchpress preview` command with a real browser (Debian's chromium)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

PARTY = """\
    characters:
      - name: Teodora Vance
        player: Priya
        abilities:
          stealth: 3
          detection: 2
          shooting: 2
          toughness: 2

      - name: Brannock Oduya
        player: Lena
        abilities:
          wrestling: 4
          toughness: 3
          driving: 2
"""
SETTINGS = """\
    title = "Preview Test"

    [build]
    only = ["sheets"]
"""


def small_campaign(folder: Path) -> Path:
    """Two characters, sheets only: a build takes a second or two."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "party.yaml").write_text(textwrap.dedent(PARTY), encoding="utf-8")
    (folder / "scratchpress.toml").write_text(textwrap.dedent(SETTINGS), encoding="utf-8")
    return folder


def get(port: int, path: str, host: str | None = None) -> tuple[int, bytes]:
    """A GET of ``path`` exactly as written (no client tidies ``..`` away)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


# ------------------------------------------------------------------ the real command


@dataclass
class Running:
    """`scratchpress preview --no-browser` running on a campaign."""

    process: subprocess.Popen[str]
    url: str
    folder: Path

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)

    @property
    def base(self) -> str:
        """``/TOKEN/``: every route is under it."""
        return urlsplit(self.url).path

    def state(self) -> dict[str, Any]:
        status, body = get(self.port, self.base + "state")
        assert status == 200
        return dict(json.loads(body))

    def until(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 120
    ) -> dict[str, Any]:
        """The state once ``wanted`` holds, the build over and every page image made."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state()
            done = not state["building"] and all(d["ready"] for d in state["documents"])
            if done and wanted(state):
                return state
            assert time.monotonic() < deadline, f"the preview never got there: {state}"
            time.sleep(0.1)

    def settled(self) -> dict[str, Any]:
        """The state once the first build is shown."""
        return self.until(lambda state: bool(state["documents"] or state["stale"]))

    def stop(self) -> tuple[int, str, str]:
        """Ctrl-C, as a GM stops it: the exit code and what it printed."""
        self.process.send_signal(signal.SIGINT)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err


@contextlib.contextmanager
def running_preview(folder: Path, *args: str) -> Iterator[Running]:
    process = subprocess.Popen(
        [sys.executable, "-m", "scratchpress", "preview", str(folder), "--no-browser", *args],
        cwd=folder.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline().strip()
        assert first.startswith("http://127.0.0.1:"), (
            first,
            process.stderr and process.stderr.read(),
        )
        yield Running(process, first, folder)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate(timeout=30)


# ------------------------------------------------------------------ the browser

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def browser_missing() -> str | None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (the test extra)")
    if not missing:
        return None
    if os.environ.get("CI"):  # CI installs chromium (.ci/install): there it must be found
        pytest.fail(f"CI: the browser tests need {', '.join(missing)}")
    return f"needs {', '.join(missing)} (apt-get install chromium chromium-driver)"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    reason = browser_missing()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


# ------------------------------------------------------------------ as fixtures
# (tests/conftest.py already answers to `import conftest`: the helpers come as fixtures)


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    return small_campaign(tmp_path / "campaign")


@pytest.fixture
def http_get() -> Callable[..., tuple[int, bytes]]:
    return get


@pytest.fixture
def start_preview() -> Callable[..., contextlib.AbstractContextManager[Running]]:
    return running_preview
