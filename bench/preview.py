#!/usr/bin/env python3
"""Save-to-image times of `scratchpress preview`: prints numbers, never passes or fails.

    python bench/preview.py [--runs 5] [--only event|npc] [--work DIR]

One `scratchpress preview --no-browser` process per scenario, on the campaigns bench/run.py
generates (a 540-card event deck, a 1,000-NPC roster). After its first build, each of
--runs edits changes one event's title (one NPC's name), and the figure is the time from
saving the file to having the PNG of the page that shows the change, as the browser gets
it: the server's event stream says the document changed, then the page image is asked
for (made on demand, like the page on screen). Median, min and max of the edits; the
target is `build --watch`'s save-to-PDF figure for the same edit (bench/run.py --only watch).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from run import SCRATCHPRESS, make_deck_campaign, make_roster_campaign


class Events:
    """The preview's server-sent events, read as they come."""

    def __init__(self, url: str) -> None:
        self.stream = urllib.request.urlopen(url + "events", timeout=300)

    def until(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for raw in self.stream:
            line = raw.decode("utf-8").strip()
            if line.startswith("data: "):
                state = json.loads(line[6:])
                if wanted(state):
                    return dict(state)
        raise SystemExit("the preview stopped")


def version(state: dict[str, Any], name: str) -> int:
    """The document's version: the page asks for its images as soon as it moves, while
    the build goes on with the rest (the boxes over its numbers follow when their links
    are read)."""
    for doc in state["documents"]:
        if doc["name"] == name:
            return int(doc["version"])
    return 0


def page_holding(pdf: Path, text: str) -> int:
    """The page (from 1) whose text holds ``text``: the one the GM would be looking at."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        for number, page in enumerate(document, start=1):
            # Case aside: titles are set in capitals by the stylesheet.
            if text.upper() in page.get_textpage().get_text_range().upper():
                return number
    finally:
        document.close()
    raise SystemExit(f"no page of {pdf.name} shows {text!r}")


def measure(
    label: str,
    campaign: Path,
    document: str,
    edit: Callable[[int], str],
    runs: int,
) -> None:
    # A cache of its own, emptied: edits an earlier run made must render again.
    cache = campaign.with_name(campaign.name + "-cache")
    shutil.rmtree(cache, ignore_errors=True)
    env = {
        **os.environ,
        "XDG_CACHE_HOME": str(cache),
        "SCRATCHPRESS_CACHE_DIR": str(cache / "render"),
    }
    process = subprocess.Popen(
        [*SCRATCHPRESS, "preview", str(campaign), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    try:
        url = process.stdout.readline().strip()
        events = Events(url)
        started = time.perf_counter()
        state = events.until(lambda s: version(s, document) > 0)
        first = time.perf_counter() - started
        current = version(state, document)
        time.sleep(0.5)  # let the warm-up after the first build finish
        times = []
        for run in range(1, runs + 1):
            saved = time.perf_counter()
            shown = edit(run)
            state = events.until(lambda s, now=current: version(s, document) > now)
            current = version(state, document)
            if run == 1:  # the page with the edit on it, found once
                [pdf] = (cache / "scratchpress" / "preview").glob(f"*/{document}")
                page = page_holding(pdf, shown)
            with urllib.request.urlopen(f"{url}page/{document}/{page}.png?v={current}") as got:
                got.read()
            times.append(time.perf_counter() - saved)
            time.sleep(0.3)
        print(
            f"{label}: first build on screen {first:.1f} s; one edit, save to page image:"
            f" median {statistics.median(times):.2f} s (min {min(times):.2f},"
            f" max {max(times):.2f}, {runs} edits, page {page})"
        )
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def bench_event(work: Path, runs: int) -> None:
    campaign = work / "preview-deck"
    shutil.rmtree(campaign, ignore_errors=True)
    make_deck_campaign(campaign)
    (campaign / "scratchpress.toml").write_text(
        '[build]\nonly = ["events"]\nbacks = "none"\n', encoding="utf-8"
    )
    events = campaign / "events.yaml"

    def edit(run: int) -> str:
        text = events.read_text(encoding="utf-8")
        old = "title: Bench Event 7\n" if run == 1 else f"title: Bench Event 7 v{run - 1}\n"
        events.write_text(text.replace(old, f"title: Bench Event 7 v{run}\n", 1), "utf-8")
        return f"Bench Event 7 v{run}"

    measure("event deck 540 cards", campaign, "resilience-events.pdf", edit, runs)


def bench_npc(work: Path, runs: int) -> None:
    campaign = work / "preview-roster"
    shutil.rmtree(campaign, ignore_errors=True)
    make_roster_campaign(campaign, 1000)
    (campaign / "scratchpress.toml").write_text('[build]\nonly = ["roster"]\n', "utf-8")
    npcs = campaign / "npcs.yaml"

    def edit(run: int) -> str:
        text = npcs.read_text(encoding="utf-8")
        old = "NPC 0500," if run == 1 else f"NPC 0500 v{run - 1},"
        npcs.write_text(text.replace(old, f"NPC 0500 v{run},", 1), encoding="utf-8")
        return f"NPC 0500 v{run}"

    measure("roster 1000 NPCs", campaign, "roster.pdf", edit, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", choices=["event", "npc"])
    parser.add_argument(
        "--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "scratchpress-bench"
    )
    options = parser.parse_args()
    options.work.mkdir(parents=True, exist_ok=True)
    print(f"scratchpress preview bench on {os.cpu_count()} cores, {options.runs} edits each")
    if options.only in (None, "event"):
        bench_event(options.work, options.runs)
    if options.only in (None, "npc"):
        bench_npc(options.work, options.runs)


if __name__ == "__main__":
    sys.exit(main())
