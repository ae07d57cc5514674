"""The render pool's limits hold whatever a campaign asks for: one worker or many, every
render runs in a process of its own under the time and memory limits."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from scratchpress.render import pool
from scratchpress.render.jobs import Job
from scratchpress.resources import templates_dir

SLOW = "".join(f'<p style="break-after: page">page {i}</p>' for i in range(30000))


def _job(key: str, html: str) -> Job:
    return Job(key, html, templates_dir(), (templates_dir(),))


@pytest.mark.real_renderer
def test_one_worker_still_stops_a_runaway_document() -> None:
    """Regression: with one job at a time (`[build] jobs = 1`) documents rendered in the
    build's own process, without the time and memory limits."""

    def ring(*_: object) -> None:
        raise AssertionError("the runaway document was not stopped")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(30)
    try:
        outcomes = list(pool.run_jobs([_job("slow", SLOW), _job("fine", "<p>x</p>")], 1, 1.0))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    errors = {outcome.key: outcome.error for outcome in outcomes}
    assert errors == {"slow": "took longer than 1 s; stopped", "fine": None}


def test_one_worker_renders_in_a_process_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = tmp_path / "pids"

    def render_job(job: Job) -> pool.Outcome:
        with seen.open("a") as record:  # a file: the worker's memory is not ours
            record.write(f"{os.getpid()}\n")
        return pool.Outcome(job.key, b"%PDF", 1)

    monkeypatch.setattr(pool, "render_job", render_job)
    outcomes = list(pool.run_jobs([_job("a", "<p>a</p>"), _job("b", "<p>b</p>")], 1))
    assert [o.error for o in outcomes] == [None, None]
    pids = seen.read_text().split()
    assert len(pids) == 2 and str(os.getpid()) not in pids


def test_a_worker_out_of_memory_in_c_code_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the memory limit a failed allocation inside cairo or pango surfaces as
    SystemError; the GM is told it needed more memory, not about a SystemError."""

    def render_job(job: Job) -> pool.Outcome:
        raise SystemError("error return without exception set")

    monkeypatch.setattr(pool, "render_job", render_job)
    [outcome] = list(pool.run_jobs([_job("a", "<p>a</p>")], 1, memory_mb=512))
    assert outcome.error == "needed more than 512 MB of memory; stopped"


def test_a_spooled_job_reads_its_html_from_its_file(tmp_path: Path) -> None:
    waiting = tmp_path / "job.html"
    waiting.write_text("<p>é \U0001f3b2</p>", encoding="utf-8")
    job = _job("a", "")
    spooled = Job(job.key, waiting, job.base_dir, job.roots)
    assert spooled.html == "<p>é \U0001f3b2</p>"
    assert spooled.size == waiting.stat().st_size
    # Spooled jobs are the large ones: they go first, without being read back to count.
    waiting.write_text("<p>x</p>" * 10_000, encoding="utf-8")
    assert pool.estimated_cost(spooled) > pool.estimated_cost(_job("b", "<p>x</p>" * 100))


ORPHANED = """
import sys
from scratchpress.render.jobs import Job
from scratchpress.render.pool import run_jobs
from scratchpress.resources import templates_dir
t = templates_dir()
slow = "".join(f'<p style="break-after: page">page {i}</p>' for i in range(60000))
print("started", flush=True)
list(run_jobs([Job("slow", slow, t, (t,))], 1, 600.0))
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_a_worker_dies_with_a_build_killed_outright() -> None:
    """Regression: after `kill -9` on the build, its worker rendered on alone, with no
    time limit (only the parent enforces it)."""
    import subprocess
    import sys
    import time

    parent = subprocess.Popen([sys.executable, "-c", ORPHANED], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None and parent.stdout.readline() == "started\n"
    children = Path(f"/proc/{parent.pid}/task/{parent.pid}/children")
    deadline = time.monotonic() + 30
    while not children.read_text().split() and time.monotonic() < deadline:
        time.sleep(0.05)
    [worker] = [int(pid) for pid in children.read_text().split()]
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{worker}").exists() and time.monotonic() < deadline:
        status = Path(f"/proc/{worker}/status")
        if status.exists() and "State:\tZ" in status.read_text():
            break  # dead, waiting to be reaped by init
        time.sleep(0.05)
    status = Path(f"/proc/{worker}/status")
    assert not status.exists() or "State:\tZ" in status.read_text()
