#!/usr/bin/env python3
"""Benchmarks for scratchpress builds: prints numbers, never passes or fails.

    python bench/run.py [--runs 3] [--only SCENARIO] [--work DIR]
                        [--peers ../shared/peer-bench --peer-python VENV/bin/python]

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
  profile where one render of each printable spends its time (cProfile; not in the
         default run)

For deck and roster, each command runs on its own first:
  cold     empty output folder and cache
  warm     the same build again, nothing changed (answered from the build's stamp)
  touched  the definitions file saved again unchanged: the stamp no longer matches, so
           the build loads everything and finds every card or page in the cache
  changed  one card (one NPC) edited: that card (that NPC's page) renders again
  watch    one card (one NPC) edited while `scratchpress build --watch` runs: the time from
           saving the definitions file to the rebuilt PDF on disk (the warm process a GM who
           rebuilds on every save uses; it keeps imports, fonts and templates loaded)

With --peers, the same run then times the peer harness in ../shared/peer-bench (Typst and
headless Chromium on a 540-card deck and a 1,000-block roster, and plain WeasyPrint on the
deck as a gauge of the machine's speed that day) and prints each target of the issue
tracker beside this run's figures.
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
RESULTS: dict[str, float] = {}  # figures the targets are read against, by name


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
    key: str,
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
    cache = out.with_name(out.name + "-cache")  # its own render cache, emptied for cold runs
    build = [*build, "--cache-dir", str(cache)]
    counter = [0]

    def empty() -> None:
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)

    def touch() -> None:
        os.utime(path)

    def change() -> None:
        counter[0] += 1
        edit(counter[0])

    if watch_only:
        # A cache of its own, emptied: the edits below are the same every run, and a page an
        # earlier run rendered would come from the cache, which is not what a GM's edit does.
        empty()
        run(build)
        watched = watch_times(build, output, change, runs)
        print(
            f"{label}: --watch, one changed, save to file: median"
            f" {statistics.median(watched):.2f} s (min {min(watched):.2f},"
            f" max {max(watched):.2f}, {runs} edits)"
        )
        RESULTS[f"{key}_watch"] = statistics.median(watched)
        return
    cold = median_of(runs, empty, build)
    RESULTS[f"{key}_cold"] = cold
    run(build)
    warm = median_of(runs, None, build)
    touched = median_of(runs, touch, build)
    changed = median_of(runs, change, build)
    watched = watch_times(build, output, change, runs)
    RESULTS[f"{key}_watch"] = statistics.median(watched)
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

    scenario(
        "deck",
        "deck 540 cards",
        build,
        events,
        edit,
        runs,
        out / "resilience-events.pdf",
        watch_only,
    )


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

    scenario("roster", "roster 1000 NPCs", build, npcs, edit, runs, out / "roster.pdf", watch_only)


def bench_memory(work: Path) -> None:
    for count in (500, 1000, 2000):
        campaign, out = work / f"mem{count}", work / f"mem{count}-out"
        shutil.rmtree(campaign, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)
        make_roster_campaign(campaign, count)
        # A fresh interpreter per size, so peak memory is this build's alone.
        code = (
            "import resource,subprocess,sys,time;t=time.perf_counter();"
            f"subprocess.run({[*SCRATCHPRESS, 'build', str(campaign), '-o', str(out), '--only', 'roster', '--no-cache']!r},"
            "check=True,capture_output=True);"
            "print(round(time.perf_counter()-t,2), resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss//1024)"
        )
        seconds, peak = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.split()
        print(
            f"roster {count:5d} NPCs cold {float(seconds):6.2f} s   peak process memory {peak} MB"
        )
        RESULTS[f"memory_{count}_s"] = float(seconds)
        RESULTS[f"memory_{count}_mb"] = float(peak)


def bench_example(work: Path, runs: int) -> None:
    out = work / "example-out"
    build = ["build", str(HERE.parent / "examples"), "-o", str(out), "--no-cache"]
    cold = median_of(runs, lambda: shutil.rmtree(out, ignore_errors=True), build)
    pages = sum(_pdf_pages(pdf) for pdf in out.glob("*.pdf"))
    documents = len(list(out.glob("*.pdf")))
    print(f"example campaign cold ({documents} documents, {pages} pages): {cold:.2f} s")
    RESULTS["example_cold"] = cold


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
    RESULTS["npcs_cold"] = cold


def _pdf_pages(path: Path) -> int:
    import pikepdf

    with pikepdf.open(path) as pdf:
        return len(pdf.pages)


def example_renders() -> tuple[Path, list[Path], list[tuple[str, str, str | None]]]:
    """(kind, html, pdf variant) of every render the example campaign's build makes: one per
    document, and one per batch of card units for the decks."""
    from scratchpress.build import collect_documents
    from scratchpress.build.run import allowed_roots
    from scratchpress.build.units import batch_jobs, plan_units
    from scratchpress.definitions.campaign import load_campaign
    from scratchpress.definitions.models import BuildOptions
    from scratchpress.render.jobs import Job
    from scratchpress.render.merged import merge_jobs
    from scratchpress.render.templating import render_html, theme_dirs
    from scratchpress.resources import templates_dir
    from scratchpress.statblocks import compute_campaign

    campaign = load_campaign([HERE.parent / "examples"])
    documents = collect_documents(compute_campaign(campaign), campaign, BuildOptions(), None)
    themes, roots = theme_dirs(campaign.root), tuple(allowed_roots(campaign))
    jobs: list[Job] = []
    for document in documents:
        if document.imposed is not None:
            plan = plan_units(document, themes, roots, 120)
            missing = list(range(len(plan.unit_keys)))
            jobs += batch_jobs(plan, missing, 1, templates_dir(), roots, themes, 120)
        else:
            html = render_html(document.template, document.context, themes, 120)
            key = f"{document.kind}/{len(jobs)}"
            variant = document.pdf_variant
            jobs.append(Job(key, html, templates_dir(), roots, False, variant, document.kind))
    # Alike sheets render together, as in a build on this machine (render/merged.py).
    jobs, _ = merge_jobs(jobs, os.cpu_count() or 1)
    return templates_dir(), list(roots), [(job.kind, job.html, job.pdf_variant) for job in jobs]


def bench_pages(runs: int) -> None:
    """ms per page for each printable of the example campaign, in one warm process."""
    from scratchpress.render.engine import render_pdf, warm_up

    base, roots, renders = example_renders()
    warm_up()
    by_kind: dict[str, list[tuple[float, int]]] = {}
    for kind, html, variant in renders:
        times, pages = [], 0
        for _ in range(runs):
            started = time.perf_counter()
            pages = render_pdf(html, base, roots, pdf_variant=variant).pages
            times.append(time.perf_counter() - started)
        by_kind.setdefault(kind, []).append((statistics.median(times), pages))
    print(f"{'printable':<12} {'renders':>7} {'pages':>6} {'seconds':>8} {'ms/page':>8}")
    for kind, measured in by_kind.items():
        seconds = sum(t for t, _ in measured)
        pages = sum(p for _, p in measured)
        per_page = 1000 * seconds / pages
        print(f"{kind:<12} {len(measured):>7} {pages:>6} {seconds:>8.2f} {per_page:>8.0f}")
        RESULTS[f"page_{kind}"] = seconds / pages


# Where WeasyPrint spends a render, as cProfile's cumulative time of these functions. The
# layout lines overlap: flex and table layout call the min/max-content measures, which call
# the line breaker.
STAGES = [
    ("styles", "weasyprint/css/__init__.py", "get_all_computed_styles"),
    ("layout", "weasyprint/layout/__init__.py", "layout_document"),
    (" flex", "weasyprint/layout/flex.py", "flex_layout"),
    (" grid", "weasyprint/layout/grid.py", "grid_layout"),
    (" columns", "weasyprint/layout/column.py", "columns_layout"),
    (" tables", "weasyprint/layout/table.py", "table_layout"),
    (" min/max-content", "weasyprint/layout/preferred.py", "min_content_width"),
    (" line breaking", "weasyprint/text/line_break.py", "split_first_line"),
    ("write_pdf", "weasyprint/document.py", "write_pdf"),
]


def bench_profile() -> None:
    """Where one render of each printable spends its time (cProfile, warm process)."""
    import cProfile
    import pstats

    from scratchpress.render.engine import render_pdf, warm_up

    base, roots, renders = example_renders()
    warm_up()
    first: dict[str, tuple[str, str | None]] = {}
    for kind, html, variant in renders:
        first.setdefault(kind, (html, variant))
    names = [name for name, _, _ in STAGES]
    print(
        f"{'printable':<11} {'pages':>5} {'total':>6} "
        + " ".join(f"{n.strip():>8.8}" for n in names)
    )
    for kind, (html, variant) in first.items():
        profiler = cProfile.Profile()
        profiler.enable()
        started = time.perf_counter()
        pages = render_pdf(html, base, roots, pdf_variant=variant).pages
        total = time.perf_counter() - started
        profiler.disable()
        stats: Any = pstats.Stats(profiler).stats
        cells = []
        for _, path, function in STAGES:
            cumulative = sum(
                row[3]
                for (file, _, name), row in stats.items()
                if file.endswith(path) and name == function
            )
            cells.append(f"{cumulative:>8.2f}")
        print(f"{kind:<11} {pages:>5} {total:>6.2f} " + " ".join(cells))
    print("seconds under cProfile (about 1.5x the plain time); layout's lines overlap")


# The peers, run from ../shared/peer-bench with the Python of its own venv (setup.sh).
# Each: (name in RESULTS, script, its arguments).
PEERS = [
    ("chromium_deck", "chromium_render.py", ["deck", "540"]),
    ("typst_deck", "typst_render.py", ["deck", "540"]),
    ("chromium_roster", "chromium_render.py", ["roster", "1000"]),
    ("typst_roster", "typst_render.py", ["roster", "1000"]),
    # Plain WeasyPrint in one process: how fast this machine is today against the day the
    # absolute targets were set (2026-11-29: 8.59 s, ../shared/PERFORMANCE.md).
    ("weasyprint_deck", "wp_single.py", ["deck", "540"]),
    # The same cards split over both cores the way we split ours: WeasyPrint's own floor.
    ("weasyprint_deck_2_cores", "wp_parallel.py", ["deck", "540", "--workers", "2"]),
]
WEASYPRINT_DECK_ON_TARGET_DAY = 8.59


def bench_peers(harness: Path, python: Path, work: Path, runs: int) -> None:
    """The peer harness's engines on the same machine, in the same run: whole processes,
    median of ``runs``, timed like ours."""
    for name, script, args in PEERS:
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run(
                [str(python), str(harness / script), *args, str(work / f"peer-{name}.pdf")],
                check=True,
                capture_output=True,
            )
            times.append(time.perf_counter() - started)
        RESULTS[name] = statistics.median(times)
        print(f"peer {name:<16} {RESULTS[name]:6.2f} s")
    bench_chromium_on_our_deck(harness, work, runs)


# Writes the HTML of every render job of one build (our cards, as WeasyPrint gets them).
_DUMP_JOBS = """
import sys
from pathlib import Path
from scratchpress.render import pool
folder = Path(sys.argv[1])
render_job = pool.render_job
def dumped(job, *args, **kwargs):
    (folder / (job.key + ".html")).write_text(job.html, encoding="utf-8")
    return render_job(job, *args, **kwargs)
pool.render_job = dumped
from scratchpress.cli import main
sys.argv = ["scratchpress", *sys.argv[2:]]
main()
"""


def bench_chromium_on_our_deck(harness: Path, work: Path, runs: int) -> None:
    """Headless Chromium printing our own 540 event cards (the HTML our deck's workers
    give WeasyPrint, joined into one document): the same work, where the harness's cards
    carry about a third of our text."""
    sys.path.insert(0, str(harness))
    from chromium_render import FLAGS  # the harness's own flags

    campaign, jobs = work / "deck", work / "deck-jobs"
    if not campaign.exists():
        make_deck_campaign(campaign)
    shutil.rmtree(jobs, ignore_errors=True)
    jobs.mkdir()
    out = work / "deck-jobs-out"
    build = ["build", str(campaign), "-o", str(out), "--no-cache", "--only", "events"]
    subprocess.run(
        [sys.executable, "-c", _DUMP_JOBS, str(jobs), *build, "--backs", "none", "--force"],
        check=True,
        capture_output=True,
    )
    bodies = []
    head = ""
    for page in sorted(jobs.glob("*.html")):
        text = page.read_text(encoding="utf-8")
        start = text.index(">", text.index("<body")) + 1
        head = head or text[:start]
        bodies.append(text[start : text.rindex("</body>")])
    whole = work / "deck-ours.html"
    whole.write_text(head + "".join(bodies) + "</body></html>", encoding="utf-8")
    cards = sum(body.count("<article") for body in bodies)
    chromium = shutil.which("chromium") or "chromium"
    times = []
    for index in range(runs):
        profile = work / f"chromium-profile-{index}"
        shutil.rmtree(profile, ignore_errors=True)
        pdf = work / "peer-chromium-our-deck.pdf"
        started = time.perf_counter()
        options = [f"--user-data-dir={profile}", f"--print-to-pdf={pdf}"]
        subprocess.run(
            [chromium, *FLAGS, *options, whole.as_uri()],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - started)
        shutil.rmtree(profile, ignore_errors=True)
    RESULTS["chromium_our_deck"] = statistics.median(times)
    print(f"peer chromium_our_deck {RESULTS['chromium_our_deck']:6.2f} s ({cards} of our cards)")


def print_targets() -> None:
    """The issue's targets against this run's figures. Absolute targets were set on a day
    this machine rendered plain WeasyPrint at 8.59 s a deck; ``scaled`` divides ours by how
    much slower it is today, so a slow day does not read as a miss (nor a fast one as a hit)."""
    r = RESULTS
    factor = (
        r["weasyprint_deck"] / WEASYPRINT_DECK_ON_TARGET_DAY if "weasyprint_deck" in r else None
    )
    rows: list[tuple[str, str, float | None, float | None, float | None]] = []

    def absolute(label: str, key: str, goal: float, unit: str = "s") -> None:
        if key in r:
            scaled = r[key] / factor if factor else None
            rows.append((label, f"at most {goal:g} {unit}", r[key], scaled, None))

    def relative(label: str, key: str, peer: str, most: float) -> None:
        if key in r and peer in r:
            rows.append((label, f"at most {most:g}x {peer}", r[key], None, r[key] / r[peer]))

    absolute("example campaign cold", "example_cold", 4.0)
    absolute("character sheet, s/page", "page_sheets", 0.25)
    relative("540-card deck cold", "deck_cold", "chromium_deck", 2.0)
    relative("  the same, our cards", "deck_cold", "chromium_our_deck", 2.0)
    relative("  WeasyPrint on 2 cores", "weasyprint_deck_2_cores", "chromium_deck", 2.0)
    relative("1,000-NPC roster cold", "roster_cold", "chromium_roster", 0.5)
    relative("--watch, one event", "deck_watch", "typst_deck", 2.0)
    absolute("300-NPC campaign cold", "npcs_cold", 8.0)
    if "memory_2000_mb" in r:
        rows.append(("2,000 NPCs, peak MB", "under 400 MB", r["memory_2000_mb"], None, None))
    if not rows:
        return
    print()
    if factor:
        print(f"this machine today: plain WeasyPrint {factor:.2f}x slower than on 2026-11-29")
    print(f"{'target':<26} {'goal':<28} {'ours':>7} {'scaled':>7} {'ratio':>6}")
    for label, goal, ours, scaled, ratio in rows:
        scaled_text = f"{scaled:7.2f}" if scaled is not None else " " * 7
        ratio_text = f"{ratio:6.2f}" if ratio is not None else ""
        print(f"{label:<26} {goal:<28} {ours:7.2f} {scaled_text} {ratio_text}")
    if "memory_500_s" in r and "memory_2000_s" in r:
        print(
            f"roster time per NPC: {1000 * r['memory_500_s'] / 500:.1f} ms at 500,"
            f" {1000 * r['memory_2000_s'] / 2000:.1f} ms at 2,000 (linear when these agree)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--only",
        choices=["deck", "roster", "memory", "watch", "example", "pages", "npcs", "profile"],
    )
    parser.add_argument(
        "--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "scratchpress-bench"
    )
    parser.add_argument(
        "--peers",
        type=Path,
        help="also run the peer harness (../shared/peer-bench) for the same work, then the targets",
    )
    parser.add_argument(
        "--peer-python",
        type=Path,
        help="the Python of the harness's venv (its setup.sh makes one); default: ours",
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
    if options.only == "profile":  # not in the default run: cProfile slows the render
        bench_profile()
    if options.peers is not None:
        bench_peers(
            options.peers, options.peer_python or Path(sys.executable), options.work, options.runs
        )
        print_targets()
    if options.only == "watch":  # only the --watch figures, more edits for a steadier median
        bench_deck(options.work, options.runs, watch_only=True)
        bench_roster(options.work, options.runs, watch_only=True)


if __name__ == "__main__":
    main()
