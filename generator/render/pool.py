"""Render documents in worker processes: in parallel, each with a time and memory limit.

WeasyPrint spends 75-80% of its time in style and layout and cannot be made much faster
from outside, so a build wins by rendering on every core and by rendering less (see
render/cache.py). A worker per job (a document, a batch of cards or pages, or a few alike
sheets rendered together: render/merged.py) also contains runaway input: a user template that
nests thousands of elements or asks for a giant page is killed at its time limit or fails
its memory limit, and the rest of the build still comes out.

Workers are forked from a parent that has already imported WeasyPrint, so starting one
costs milliseconds, not the 0.35 s import. Where a platform cannot fork (Windows), workers
are spawned instead: slower to start, the same results. Where it has no ``resource``
module, workers run without the memory limit; :func:`limits_note` says so in one line.
Neither is imported at module level, so this module imports everywhere.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from .files import STOP_SIGNALS
from .jobs import Job, Outcome

DEFAULT_TIMEOUT_S = 180.0
DEFAULT_MEMORY_MB = 3072

# Set by the command line's handler of the stop signals (Ctrl-C, SIGTERM...), which
# also raises KeyboardInterrupt.
# Python drops an exception raised while it runs certain internals (the hooks around a
# fork, a finaliser), so the loops below look at this too and raise it themselves.
STOP = threading.Event()


def _stop_if_asked() -> None:
    if STOP.is_set():
        raise KeyboardInterrupt


def render_job(job: Job) -> Outcome:
    """Render one job in this process (the worker body; also used when jobs == 1)."""
    from .audit import lost_from_html
    from .engine import render_pdf
    from .lint import card_collisions, card_overflows

    started = time.perf_counter()

    if job.parts:
        return _render_parts(job, started)
    html = job.html
    rendered = render_pdf(
        html, job.base_dir, list(job.roots), keep_document=True, pdf_variant=job.pdf_variant
    )
    outcome = _outcome(job.key, rendered)
    if job.audit and job.pdf_variant is None:  # a booklet is audited by its Markdown lines
        outcome.lost = lost_from_html(html, [rendered.pdf])
    if job.lint_cards and rendered.document is not None:
        outcome.overflows = card_overflows(rendered.document)
        outcome.collisions = card_collisions(rendered.document)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _outcome(key: str, rendered: Any) -> Outcome:
    """What a render made, with the text its frames cut short (render/lint.py)."""
    from .lint import frame_overflows

    outcome = Outcome(
        key=key,
        pdf=rendered.pdf,
        pages=rendered.pages,
        page_sizes=rendered.page_sizes,
        warnings=rendered.warnings,
        refused=rendered.refused,
    )
    if rendered.document is not None:
        outcome.frames = frame_overflows(rendered.document)
    return outcome


def _render_parts(job: Job, started: float) -> Outcome:
    from .audit import lost_from_html, pdf_text
    from .engine import render_parts

    outcome = Outcome(key=job.key)
    html = job.html
    rendered = render_parts(html, job.base_dir, list(job.roots), job.parts)
    outcome.parts = [_outcome(p.key, r) for p, r in zip(job.parts, rendered, strict=True)]
    # One audit of the whole render; each entry's lost words go to the part that prints
    # its name (a sheet prints its character's), else to the first.
    lost = lost_from_html(html, [r.pdf for r in rendered]) if job.audit else []
    for entry, frame, words in lost:
        owner = next(
            (part for part, r in zip(outcome.parts, rendered, strict=True) if entry and
             entry.casefold() in pdf_text(r.pdf).casefold()),
            outcome.parts[0],
        )
        owner.lost.append((entry, frame, words))
    outcome.pages = sum(done.pages for done in outcome.parts)
    outcome.seconds = time.perf_counter() - started
    for done in outcome.parts:
        done.seconds = outcome.seconds / len(outcome.parts)
    return outcome


def estimated_cost(job: Job) -> int:
    """How long ``job`` will take, in arbitrary units: layout time grows with the number
    of elements, and a tag is one ``<`` (the stylesheet has none). A spooled job is a
    large one: its size stands in, not worth reading it back to count."""
    if isinstance(job.source, Path):
        return job.size // 16
    return job.source.count("<")


def _has_resource_limits() -> bool:
    try:
        import resource  # noqa: F401  (POSIX only)
    except ImportError:
        return False
    return True


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


def limits_note(workers: int) -> str | None:
    """One line for the user when this platform renders without a limit, else None."""
    if not _has_resource_limits():
        return (
            "note: this platform has no resource limits (no `resource` module): render"
            " workers run without their memory limit; the time limit still applies"
        )
    return None


def _limit_memory(memory_mb: int) -> None:
    try:
        import resource
    except ImportError:
        return  # announced once per build by limits_note()
    limit = memory_mb * 1024 * 1024
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:  # `ulimit -v`, a container: never above theirs
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _outlive_no_parent(timeout_s: float) -> None:
    """A worker whose build was killed outright (``kill -9``) must not render on alone:
    on Linux it dies with its parent, and everywhere its CPU time is capped a little past
    the build's own time limit (which only the parent enforces)."""
    try:
        import resource

        seconds = int(timeout_s) + 5
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if hard == resource.RLIM_INFINITY or hard > seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, hard))
    except (ImportError, ValueError, OSError):
        pass
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return  # not Linux: the CPU limit above still holds
    if os.getppid() == 1:  # the parent died before we asked
        os._exit(1)


def _worker(job: Job, conn: Connection, memory_mb: int, timeout_s: float) -> None:
    outcome: Outcome
    # Ctrl-C, Ctrl-\ and a closing terminal reach every process of the terminal's group;
    # the parent alone handles them (and stops us), so a worker must not die printing a
    # traceback (or dumping core) of its own.
    for signum in STOP_SIGNALS - {signal.SIGTERM}:
        signal.signal(signum, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # held back while we were forked: let them in
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    # A worker renders one job and exits: collecting garbage along the way only costs time
    # (15-24% of a render, PERFORMANCE.md), and the memory limit still bounds the worker.
    gc.disable()
    try:
        _outlive_no_parent(timeout_s)
        _limit_memory(memory_mb)
        outcome = render_job(job)
    except (MemoryError, SystemError):
        # At the limit, an allocation that fails inside C code (cairo, pango, the XML
        # parser) often surfaces as "SystemError: error return without exception set".
        outcome = Outcome(job.key, error=f"needed more than {memory_mb} MB of memory; stopped")
    except Exception as err:  # report, never crash the build: the message names the cause
        last = traceback.extract_tb(err.__traceback__)[-1:]
        where = f" ({last[0].name})" if last else ""
        outcome = Outcome(
            job.key, error=f"could not be rendered: {type(err).__name__}: {err}{where}"
        )
    try:
        conn.send(outcome)
    except Exception as err:  # an outcome too large to send, a closed pipe
        # If even this fails, the build reports a worker that stopped unexpectedly.
        with contextlib.suppress(Exception):
            conn.send(Outcome(job.key, error=f"could not be sent back ({type(err).__name__})"))
    finally:
        conn.close()
    # Nothing after this may print a traceback of its own (multiprocessing would, as
    # "Process ForkProcess-1: Traceback ..."): the outcome is sent, the worker is done.
    os._exit(0)


def run_jobs(
    jobs: list[Job],
    workers: int,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
    on_done: Callable[[Outcome], None] | None = None,
) -> Iterator[Outcome]:
    """Yield an Outcome per job as each finishes, at most ``workers`` at a time.

    Every job gets a worker of its own, even a lone one and even with ``--jobs 1``: a
    campaign with one character and a runaway theme must not escape the time and memory
    limits, and a campaign's settings cannot switch them off.
    """
    if not jobs:
        return
    workers = max(1, workers)
    if not _can_fork():
        # Spawned workers start a fresh interpreter each: nothing to warm or freeze here.
        yield from _run_workers("spawn", jobs, workers, timeout_s, memory_mb, on_done)
        return
    from . import engine  # import WeasyPrint once, before forking

    if len(jobs) > workers:
        # More jobs than workers: each job forks a worker, and each would load the fonts
        # again; loading them once here first saves that on every fork after it.
        engine.warm_up()

    # Workers share the parent's memory copy-on-write, and a garbage collection in a worker
    # would walk, and so copy, most of it. Objects frozen before forking are never walked;
    # they thaw once the workers are done, so a long `--watch` session still collects them.
    gc.freeze()
    try:
        yield from _run_workers("fork", jobs, workers, timeout_s, memory_mb, on_done)
    finally:
        gc.unfreeze()


def _run_workers(
    method: str,
    jobs: list[Job],
    workers: int,
    timeout_s: float,
    memory_mb: int,
    on_done: Callable[[Outcome], None] | None,
) -> Iterator[Outcome]:
    context = (
        multiprocessing.get_context("fork")
        if method == "fork"
        else multiprocessing.get_context("spawn")
    )
    # Longest first: a build lasts as long as its slowest worker, and a 20-page document
    # started last would leave one core idle while it runs alone.
    pending = sorted(jobs, key=estimated_cost, reverse=True)
    running: dict[str, tuple[Any, Connection, float]] = {}
    exiting: list[Any] = []  # workers that sent their outcome and are on their way out
    try:
        yield from _drive(
            context, pending, running, exiting, workers, timeout_s, memory_mb, on_done
        )
    finally:
        # Ctrl-C, or a caller that stopped early: no worker outlives the build.
        for process, conn, _ in running.values():
            process.kill()
            process.join(5)
            conn.close()
        for process in exiting:
            process.join(5)
            if process.is_alive():  # sent its outcome, then hung on the way out
                process.kill()
                process.join(5)


def _start(
    context: Any, job: Job, child: Connection, memory_mb: int, timeout_s: float
) -> Any:
    """Start a worker with the stop signals held back until it has started. Raised in
    the middle of a fork, a KeyboardInterrupt would be dropped with a printed trace; held
    back, it arrives a moment later where the build can act on it. The worker itself
    ignores Ctrl-C from its first instruction (``_worker``), so it never prints one."""
    process = context.Process(
        target=_worker, args=(job, child, memory_mb, timeout_s), daemon=True
    )
    if hasattr(signal, "pthread_sigmask"):
        held = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        return process
    if threading.current_thread() is not threading.main_thread():
        process.start()  # signal handlers belong to the main thread
        return process
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # no sigmask (Windows)
    try:
        process.start()
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
    return process


def _drive(
    context: Any,
    pending: list[Job],
    running: dict[str, tuple[Any, Connection, float]],
    exiting: list[Any],
    workers: int,
    timeout_s: float,
    memory_mb: int,
    on_done: Callable[[Outcome], None] | None,
) -> Iterator[Outcome]:
    while pending or running:
        _stop_if_asked()
        while pending and len(running) < workers:
            job = pending.pop(0)
            parent, child = context.Pipe(duplex=False)
            process = _start(context, job, child, memory_mb, timeout_s)
            child.close()
            running[job.key] = (process, parent, time.monotonic())
        ready = multiprocessing.connection.wait([c for _, c, _ in running.values()], timeout=0.2)
        now = time.monotonic()
        for key, (process, conn, started) in list(running.items()):
            finished: Outcome | None = None
            if conn in ready:
                try:
                    finished = conn.recv()
                except (EOFError, OSError):
                    finished = Outcome(key, error="the renderer stopped unexpectedly (killed?)")
                # A worker that has sent its outcome is done; its exit (the kernel freeing
                # a few hundred MB) takes tens of milliseconds, which the next job need
                # not wait for. It is reaped when the build's jobs are all done.
                exiting.append(process)
            elif now - started > timeout_s:
                process.kill()
                process.join(5)
                finished = Outcome(key, error=f"took longer than {timeout_s:g} s; stopped")
            elif not process.is_alive() and not conn.poll():
                finished = Outcome(key, error="the renderer stopped unexpectedly (out of memory?)")
            if finished is not None:
                conn.close()
                del running[key]
                if on_done:
                    on_done(finished)
                yield finished
