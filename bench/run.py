#!/usr/bin/env python3
"""Benchmarks for scratchpress builds: prints numbers, never passes or fails.

    python bench/run.py [--runs 3] [--only deck|roster|memory|watch|example|pages|npcs] [--work DIR]

Each figure is a whole `scratchpress build` process (cold start included), the median of
--runs runs, measured with the standard library (time.perf_counter around subprocess, peak
RSS from getrusage of the children). Scenarios, matching the targets in the issue tracker:

  deck   a 540-card event deck (45 built-in events + 495 generated), 9-up on Letter
  roster a 1,000-NPC roster
  memory peak memory of a 2,000-NPC roster build; time for 500/1,000/2,000 NPCs
  example the bundled example campaign, cold (`--no-cache`, empty output folder)
  pages  ms per page for every printable of the example campaign, each rendered in one
         warm process (WeasyPrint imported, fonts loaded), median of --runs renders;
         decks are timed as the build renders them, card units in one batch
  npcs   a generated 300-NPC campaign (`roster generate -n 300`), cold

For deck and roster, each command runs on its own first:
  cold     empty output folder and cache
  warm     the same build again, nothing changed (answered from the build's stamp)
  touched  the definitions file saved again unchanged: the stamp no longer matches, so
           the build loads everything and finds every card or page in the cache
  changed  one card (one NPC) edited: that card (that NPC's page) renders again
  watch    one card (one NPC) edited while `scratchpress build --watch` runs: the time from
           saving the definitions file to the rebuilt PDF on disk (the warm process a GM who
           rebuilds on every save uses; it keeps imports, fonts and templates loaded)

The peers (Typst, headless Chromium, plain WeasyPrint) are measured by the harness in
../shared/peer-bench (see its README); run both in one session to compare like with like.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCRATCHPRESS = [sys.executable, "-m", "scratchpress"]


def event_yaml(index: int, variant: str = "") -> str:
    """A generated event in the same schema as the built-in ones (filler text of our own)."""
    defense = ("economy", "environment", "equity")[index % 3]
    threat = {"economy": "breakdown", "environment": "attrition", "equity": "propaganda"}[defense]
    return f"""\
  - id: bench-{index:04d}
    title: Bench Event {index}{variant}
    threat: {threat}
    attacks: {defense}
    attack_bonus: {index % 8}
    damage: {1 + index % 3}
    story: >-
      A generated event for the benchmark number {index}. The caravan is late, the well is
      low and the council argues late into the night about what to do before the frost. The
      children have started a rumour about lights on the ridge.
    temporary: "-1 to every project roll this year"
    challenge:
      ability: detection
      difficulty: {9 + index % 8}
      success: "+1 {defense} at the end of the year"
      failure: "-1 {defense} now"
    decision:
      prompt: Share the stores or guard them?
      choices:
        - choice: Share
          consequence: "-1 economy now; +1 equity"
        - choice: Guard
          consequence: "+1 economy; -1 equity"
    encounter: Three hungry drifters test the gate at dusk with clubs and a dog.
"""


def make_deck_campaign(folder: Path, extra: int = 495) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "events.yaml").write_text(
        "events:\n" + "".join(event_yaml(i) for i in range(extra)), encoding="utf-8"
    )


def make_roster_campaign(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    archetypes = [
        {"fighting": 3, "wrestling": 3, "toughness": 4},
        {"shooting": 4, "stealth": 3, "toughness": 3},
        {"healing": 4, "craftsmanship": 2, "acrobatics": 1, "toughness": 3},
        {"blasting": 4, "quickness": 2, "toughness": 4},
    ]
    lines = ["characters:"]
    for i in range(count):
        abilities = ", ".join(f"{k}: {v}" for k, v in archetypes[i % 4].items())
        lines.append(
            f"  - {{name: NPC {i:04d}, group: Band {i // 40:02d},"
            f" description: generated for the benchmark, abilities: {{{abilities}}}}}"
        )
    (folder / "npcs.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def run(args: list[str]) -> tuple[float, int]:
    """Seconds and peak RSS (MB) of one build process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run([*SCRATCHPRESS, *args], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode not in (0,):
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise SystemExit(f"build failed: {' '.join(args)}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before) // 1024


def median_of(runs: int, prepare: Any, args: list[str]) -> float:
    times = []
    for _ in range(runs):
        if callable(prepare):
            prepare()
        times.append(run(args)[0])
    return statistics.median(times)


def _stamp(path: Path) -> tuple[int, int, int]:
    try:
        info = path.stat()
    except FileNotFoundError:
        return (0, 0, 0)
    return (info.st_mtime_ns, info.st_ino, info.st_size)


def watch_times(build: list[str], output: Path, change: Any, runs: int) -> list[float]:
    """Save-to-file seconds for ``runs`` edits under one ``build --watch`` process."""
    process = subprocess.Popen(
        [*SCRATCHPRESS, *build, "--watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        bufsize=1,
    )
    assert process.stdout is not None
    try:
        for line in process.stdout:  # the first build, then the watcher is ready
            if line.startswith("watching "):
                break
        time.sleep(0.5)  # let the watcher settle before the first save
        times = []
        for _ in range(runs):
            before = _stamp(output)
            started = time.perf_counter()
            change()
            while _stamp(output) == before:
                if time.perf_counter() - started > 120:
                    raise SystemExit("watch mode did not rewrite the output within 120 s")
                time.sleep(0.002)
            times.append(time.perf_counter() - started)
            for line in process.stdout:  # wait for the summary: the build is over
                if " documents" in line or " document," in line:
                    break
            time.sleep(0.3)
        return times
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def scenario(
    label: str,
    build: list[str],
    path: Path,
    edit: Any,
    runs: int,
    output: Path,
    watch_only: bool = False,
) -> None:
    """Cold, warm, touched and changed, each a process of its own; then one change saved
    while ``build --watch`` runs, timed from the save to the PDF on disk."""
    out = Path(build[build.index("-o") + 1])
    counter = [0]

    def touch() -> None:
        os.utime(path)

    def change() -> None:
        counter[0] += 1
        edit(counter[0])

    if watch_only:
        run(build)  # whatever the cache holds, the deck is built before watching
        watched = watch_times(build, output, change, runs)
        print(
            f"{label}: --watch, one changed, save to file: median"
            f" {statistics.median(watched):.2f} s (min {min(watched):.2f},"
            f" max {max(watched):.2f}, {runs} edits)"
        )
        return
    cold = median_of(runs, lambda: shutil.rmtree(out, ignore_errors=True), build)
    run(build)
    warm = median_of(runs, None, build)
    touched = median_of(runs, touch, build)
    changed = median_of(runs, change, build)
    watched = watch_times(build, output, change, runs)
    print(
        f"{label}: cold {cold:.2f} s | warm {warm:.2f} s | touched {touched:.2f} s"
        f" | one changed {changed:.2f} s"
    )
    print(
        f"{' ' * len(label)}  --watch, one changed, save to file: median"
        f" {statistics.median(watched):.2f} s (min {min(watched):.2f}, max {max(watched):.2f})"
    )


def bench_deck(work: Path, runs: int, watch_only: bool = False) -> None:
    campaign, out = work / "deck", work / "deck-out"
    shutil.rmtree(campaign, ignore_errors=True)
    make_deck_campaign(campaign)
    build = [
        "build",
        str(campaign),
        "-o",
        str(out),
        "--only",
        "events",
        "--backs",
        "none",
        "--force",
    ]
    events = campaign / "events.yaml"

    def edit(version: int) -> None:
        text = events.read_text(encoding="utf-8")
        old = "title: Bench Event 7\n" if version == 1 else f"title: Bench Event 7 v{version - 1}\n"
        events.write_text(text.replace(old, f"title: Bench Event 7 v{version}\n", 1), "utf-8")

    scenario("deck 540 cards", build, events, edit, runs, out / "resilience-events.pdf", watch_only)


def bench_roster(work: Path, runs: int, watch_only: bool = False) -> None:
    campaign, out = work / "roster", work / "roster-out"
    shutil.rmtree(campaign, ignore_errors=True)
    make_roster_campaign(campaign, 1000)
    build = ["build", str(campaign), "-o", str(out), "--only", "roster", "--force"]
    npcs = campaign / "npcs.yaml"

    def edit(version: int) -> None:
        text = npcs.read_text(encoding="utf-8")
        old = "NPC 0500," if version == 1 else f"NPC 0500 v{version - 1},"
        npcs.write_text(text.replace(old, f"NPC 0500 v{version},", 1), encoding="utf-8")

    scenario("roster 1000 NPCs", build, npcs, edit, runs, out / "roster.pdf", watch_only)


def bench_memory(work: Path) -> None:
    for count in (500, 1000, 2000):
        campaign, out = work / f"mem{count}", work / f"mem{count}-out"
        shutil.rmtree(campaign, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        make_roster_campaign(campaign, count)
        # A fresh interpreter per size, so peak memory is this build's alone.
        code = (
            "import resource,subprocess,sys,time;t=time.perf_counter();"
            f"subprocess.run({[*SCRATCHPRESS, 'build', str(campaign), '-o', str(out), '--only', 'roster']!r},"
            "check=True,capture_output=True);"
            "print(round(time.perf_counter()-t,2), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss//1024)"
        )
        seconds, peak = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
        print(
            f"roster {count:5d} NPCs cold {float(seconds):6.2f} s   peak process memory {peak} MB"
        )


def bench_example(work: Path, runs: int) -> None:
    out = work / "example-out"
    build = ["build", str(HERE.parent / "examples"), "-o", str(out), "--no-cache"]
    cold = median_of(runs, lambda: shutil.rmtree(out, ignore_errors=True), build)
    pages = sum(_pdf_pages(pdf) for pdf in out.glob("*.pdf"))
    documents = len(list(out.glob("*.pdf")))
    print(f"example campaign cold ({documents} documents, {pages} pages): {cold:.2f} s")


def bench_npcs(work: Path, runs: int) -> None:
    campaign, out = work / "npcs300", work / "npcs300-out"
    shutil.rmtree(campaign, ignore_errors=True)
    campaign.mkdir(parents=True)
    done = subprocess.run(
        [
            *SCRATCHPRESS,
            "roster",
            "generate",
            str(campaign),
            "-n",
            "300",
            "--seed",
            "1",
            "-o",
            str(campaign / "npcs.yaml"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    build = ["build", str(campaign), "-o", str(out), "--no-cache"]
    cold = median_of(runs, lambda: shutil.rmtree(out, ignore_errors=True), build)
    names = ", ".join(sorted(p.name for p in out.glob("*.pdf")))
    print(f"300-NPC campaign cold: {cold:.2f} s ({names})")


def _pdf_pages(path: Path) -> int:
    import pikepdf

    with pikepdf.open(path) as pdf:
        return len(pdf.pages)


def bench_pages(runs: int) -> None:
    """ms per page for each printable of the example campaign, in one warm process."""
    from scratchpress.build import allowed_roots, collect_documents
    from scratchpress.definitions.campaign import load_campaign
    from scratchpress.documents.base import BuildOptions
    from scratchpress.render.engine import render_pdf, warm_up
    from scratchpress.render.templating import render_html, theme_dirs
    from scratchpress.render.units import batch_jobs, plan_units
    from scratchpress.statblocks import compute_campaign

    folder = HERE.parent / "examples"
    campaign = load_campaign([folder])
    documents = collect_documents(compute_campaign(campaign), campaign, BuildOptions(), None)
    themes, roots = theme_dirs(campaign.root), tuple(allowed_roots(campaign))
    warm_up()
    by_kind: dict[str, list[tuple[float, int]]] = {}
    for document in documents:
        if document.imposed is not None:
            plan = plan_units(document, themes, roots, 120)
            missing = list(range(len(plan.unit_keys)))
            jobs = batch_jobs(plan, missing, 1, folder, roots, themes, 120)
            htmls = [(job.html, job.pdf_variant) for job in jobs]
        else:
            html = render_html(document.template, document.context, themes, 120)
            htmls = [(html, document.pdf_variant)]
        for html, variant in htmls:
            times, pages = [], 0
            for _ in range(runs):
                started = time.perf_counter()
                pages = render_pdf(html, folder, list(roots), pdf_variant=variant).pages
                times.append(time.perf_counter() - started)
            by_kind.setdefault(document.kind, []).append((statistics.median(times), pages))
    print(f"{'printable':<12} {'renders':>7} {'pages':>6} {'seconds':>8} {'ms/page':>8}")
    for kind, measured in by_kind.items():
        seconds = sum(t for t, _ in measured)
        pages = sum(p for _, p in measured)
        per_page = 1000 * seconds / pages
        print(f"{kind:<12} {len(measured):>7} {pages:>6} {seconds:>8.2f} {per_page:>8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--only", choices=["deck", "roster", "memory", "watch", "example", "pages", "npcs"]
    )
    parser.add_argument(
        "--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "scratchpress-bench"
    )
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    print(f"scratchpress bench on {os.cpu_count()} cores, median of {options.runs} runs")
    if options.only in (None, "deck"):
        bench_deck(options.work, options.runs)
    if options.only in (None, "roster"):
        bench_roster(options.work, options.runs)
    if options.only in (None, "memory"):
        bench_memory(options.work)
    if options.only in (None, "example"):
        bench_example(options.work, options.runs)
    if options.only in (None, "pages"):
        bench_pages(options.runs)
    if options.only in (None, "npcs"):
        bench_npcs(options.work, options.runs)
    if options.only == "watch":  # only the --watch figures, more edits for a steadier median
        bench_deck(options.work, options.runs, watch_only=True)
        bench_roster(options.work, options.runs, watch_only=True)


if __name__ == "__main__":
    main()
