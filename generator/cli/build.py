"""`scratchpress build`: every printable of a campaign, once or on every save (``--watch``)."""

from __future__ import annotations

import dataclasses
import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..definitions.campaign import Campaign, display_path
from ..definitions.models import BUILD_KINDS as KIND_NAMES
from ..definitions.models import BuildDefaults, carry_bounds
from ..problems import InputError, Problem, safe_text
from . import stamp
from .common import (
    DEFAULT_OUTPUT,
    CampaignArg,
    Edge,
    ExampleOpt,
    Paper,
    RulesOpt,
    Units,
    blocking_errors,
    choose_campaign,
    fail,
    linked_default_output,
    load,
    plural,
)

INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C


class Cards(StrEnum):
    poker = "poker"
    index_card = "index"  # not `index`: that is str.index


class Backs(StrEnum):
    none = "none"
    duplex = "duplex"
    fold = "fold"


class Impose(StrEnum):
    none = "none"
    saddle = "saddle"


def _kinds(value: str | None) -> str | None:
    if value is not None:
        for kind in (k.strip().lower() for k in value.split(",")):
            if kind not in KIND_NAMES:
                raise typer.BadParameter(
                    f"unknown kind {kind!r}; choose from {', '.join(KIND_NAMES)}"
                )
    return value


def _complete_kinds(incomplete: str) -> list[str]:
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [prefix + kind for kind in KIND_NAMES if kind.startswith(last)]


def _carry_range(value: str | None) -> str | None:
    if value is not None and _parse_range(value) is None:
        raise typer.BadParameter(f"{value!r} must be like 10-20, within 1-40")
    return value


def _parse_range(value: str) -> tuple[int, int] | None:
    """``10-20`` -> (10, 20), by the same rule as ``carry_range`` in scratchpress.toml."""
    try:
        return carry_bounds(value)
    except ValueError:
        return None


Flag = typer.Option  # saved options need both spellings: --tent and --no-tent


def build(
    campaign: CampaignArg = None,
    example: ExampleOpt = False,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Output folder.", show_default="output/")
    ] = None,
    paper: Annotated[
        Paper | None,
        typer.Option(help="Paper size (default: the campaign's).", case_sensitive=False),
    ] = None,
    only: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated kinds: " + ",".join(KIND_NAMES) + ".",
            callback=_kinds,
            autocompletion=_complete_kinds,
        ),
    ] = None,
    units: Annotated[
        Units | None,
        typer.Option(help="Carry-table weights (default: the campaign's).", case_sensitive=False),
    ] = None,
    ink_saver: Annotated[
        bool | None,
        Flag("--ink-saver/--no-ink-saver", help="No filled backgrounds, greys for colour."),
    ] = None,
    cards: Annotated[
        Cards | None,
        typer.Option(help="Initiative card size (default: poker).", case_sensitive=False),
    ] = None,
    tent: Annotated[
        bool | None,
        Flag("--tent/--no-tent", help="Fold-over initiative cards (no duplex needed)."),
    ] = None,
    carry_range: Annotated[
        str | None,
        typer.Option(
            help="Strength range of the carry table, e.g. 1-40 (default: 10-20).",
            callback=_carry_range,
        ),
    ] = None,
    backs: Annotated[
        Backs | None,
        typer.Option(help="Card backs for decks (default: duplex).", case_sensitive=False),
    ] = None,
    bleed: Annotated[
        bool | None, Flag("--bleed/--no-bleed", help="3 mm bleed around deck cards.")
    ] = None,
    duplex_edge: Annotated[
        Edge | None,
        typer.Option(help="Which edge your printer flips (default: long).", case_sensitive=False),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help="Worker processes (0: one per core).", min=0, max=64),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Render everything again, ignoring the cache.")
    ] = False,
    cache_dir: Annotated[
        Path | None,
        typer.Option(
            "--cache-dir",
            help="Keep the render cache in this folder (default: one per campaign and"
            " output folder in your user cache folder, or $SCRATCHPRESS_CACHE_DIR).",
            show_default=False,
        ),
    ] = None,
    strict: Annotated[
        bool | None,
        Flag("--strict/--no-strict", help="Layout problems (overflowing text) fail the build."),
    ] = None,
    png: Annotated[
        bool | None,
        Flag("--png/--no-png", help="Also write every page as PNG (for virtual tabletops)."),
    ] = None,
    watch: Annotated[
        bool, typer.Option("--watch", help="Rebuild whenever a campaign file is saved.")
    ] = False,
    impose: Annotated[
        Impose | None,
        typer.Option(
            help="Booklets: also write a 2-up saddle-stitch copy (default: none).",
            case_sensitive=False,
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace files in the output folder we did not write.")
    ] = False,
    no_wait: Annotated[
        bool,
        typer.Option(
            "--no-wait", help="If another build is writing into the folder, stop at once."
        ),
    ] = False,
    rules: RulesOpt = None,
) -> None:
    """Render every printable of a campaign to PDF.

    Options not given here come from the \\[build] table of the campaign's
    scratchpress.toml (see docs/definitions.md), then from the defaults shown.

    Example: scratchpress build my-campaign --paper a4 --only sheets,initiative
    """
    from ..documents.base import BuildOptions

    chosen_campaign = choose_campaign([campaign] if campaign is not None else None, example)
    folder = chosen_campaign.paths[0]
    out_dir = output if output is not None else DEFAULT_OUTPUT
    problems: list[Problem] = []
    if output is None:
        problems += linked_default_output()
    if not folder.is_dir():
        problems.append(Problem("not a campaign folder", str(folder)))
    if out_dir.exists() and not out_dir.is_dir():
        problems.append(Problem("-o: not a folder (an output folder is needed)", str(out_dir)))
    if problems:
        fail(problems)
    given = {
        "paper": paper and paper.value,
        "units": units and units.value,
        "cards": cards and cards.value,
        "tent": tent,
        "backs": backs and backs.value,
        "bleed": bleed,
        "duplex_edge": duplex_edge and duplex_edge.value,
        "ink_saver": ink_saver,
        "carry_range": carry_range,
        "only": [k.strip().lower() for k in only.split(",") if k.strip()] if only else None,
        "impose": impose and impose.value,
        "jobs": jobs,
        "png": png,
        "strict": strict,
    }

    def chosen(loaded: Campaign) -> BuildDefaults:
        """The command line over the [build] table over the campaign-wide settings."""
        saved = loaded.settings.build
        merged = saved.model_copy(
            update={key: value for key, value in given.items() if value is not None}
        )
        return merged.model_copy(
            update={
                "paper": merged.paper or loaded.settings.paper,
                "units": merged.units or loaded.settings.units,
            }
        )

    def options_for(loaded: Campaign) -> BuildOptions:
        picked = chosen(loaded)
        low, high = _parse_range(picked.carry_range) or (10, 20)
        return BuildOptions(
            paper=picked.paper,  # type: ignore[arg-type]
            units=picked.units,  # type: ignore[arg-type]
            ink_saver=picked.ink_saver,
            card_size=picked.cards,
            tent=picked.tent,
            carry_low=low,
            carry_high=high,
            backs=picked.backs,
            bleed=picked.bleed,
            duplex_edge=picked.duplex_edge,
            impose=picked.impose,
        )

    run = _BuildRun(folder, out_dir, rules, chosen, options_for, no_cache, force)
    run.said, run.stamped = chosen_campaign.said, not chosen_campaign.implicit_example
    run.wait = not no_wait
    run.cache_dir = cache_dir
    if not watch:
        raise typer.Exit(run.once())
    run.watch()


class _BuildRun:
    """One build, or a build that repeats on every save (``--watch``)."""

    def __init__(
        self,
        folder: Path,
        out_dir: Path,
        rules: Any,
        chosen: Any,
        options_for: Any,
        no_cache: bool,
        force: bool,
    ) -> None:
        self.folder, self.out_dir, self.rules = folder, out_dir, rules
        self.chosen, self.options_for = chosen, options_for
        self.no_cache, self.force = no_cache, force
        self.wait = True  # --no-wait: fail at once when another build holds the folder
        # The output folder as messages show it: a name with control characters escaped.
        self.shown_out = safe_text(str(out_dir), None)
        self.cache_dir: Path | None = None  # --cache-dir
        self.session: Any = None  # kept between builds by watch()
        self.said: str | None = None  # which campaign, when the user did not name it
        # A build that fell back to the example has no stamp: its choice hangs on what
        # this folder holds, which the stamp's snapshot does not cover.
        self.stamped = True

    def once(self) -> int:
        """Build; returns the exit code (0 fine, 1 input errors or a partly failed build,
        130 interrupted)."""
        import time

        from ..build import BuildInterrupted, BuildSettings, OutputBusy
        from ..build import build as run_build
        from ..render.files import CannotWrite

        started = time.perf_counter()
        said: dict[bool, list[str]] = {False: [], True: []}

        def say(text: str, err: bool = False) -> None:
            typer.echo(text, err=err)
            said[err].append(text)

        if self.said is not None:
            say(self.said, err=True)
            self.said = None  # once, not on every rebuild of a watch
        try:
            memo = self.session.parse if self.session is not None else None
            loaded, computed = load([self.folder], self.rules, memo)
        except typer.Exit as stop:
            return int(stop.exit_code or 1)
        blocking = blocking_errors(computed)
        if blocking:
            for problem in blocking:
                say(str(problem), err=True)
            return 1
        for problem in computed.warnings:
            say(str(problem), err=True)
        picked: BuildDefaults = self.chosen(loaded)
        options = self.options_for(loaded)
        settings = BuildSettings(
            jobs=picked.jobs,
            use_cache=not self.no_cache,
            cache_dir=self.cache_dir,
            force=self.force,
            wait=self.wait,
            png=picked.png,
        )
        with _Progress() as progress:
            try:
                report = run_build(
                    computed,
                    loaded,
                    options,
                    self.out_dir,
                    picked.only,
                    settings=settings,
                    session=self.session,
                    progress=progress.wrote,
                    on_rendered=progress.rendered,
                    on_wait=lambda: typer.echo(
                        f"waiting: another build is writing into {self.shown_out}/"
                        " (--no-wait to stop instead)",
                        err=True,
                    ),
                )
            except CannotWrite as err:  # no lock to be had: nothing was written
                say(str(err), err=True)
                return 1
            except OutputBusy:
                say(
                    f"another build is writing into {self.shown_out}/; run again when it has"
                    " finished",
                    err=True,
                )
                return 1
            except BuildInterrupted as stop:
                progress.close()
                done = (
                    f"{stop.written} of {plural(stop.total, 'document')} written"
                    if stop.total
                    else "nothing written yet"
                )
                typer.echo(f"interrupted: {done}; run again to finish", err=True)
                stamp.forget()
                return INTERRUPTED
            except InputError as err:  # a booklet or other content that cannot be used
                for problem in err.problems:
                    say(str(problem), err=True)
                return 1
        for note in report.notes:
            say(note, err=True)
        for warning in report.warnings:
            say(f"warning: {warning}", err=True)
        for problem in report.lint:
            # Printed as `file: entry "Name": notes overflows by 4.2 mm`; --strict decides.
            say(str(dataclasses.replace(problem, severity="error")), err=True)
        for problem in report.problems:
            say(str(problem), err=True)
        if picked.png:
            say(f"wrote {plural(report.pngs, 'PNG file')} in {self.shown_out}/png/")
        for line in report.per_sheet:  # card sheets: "events: 8 cards per sheet"
            say(line)
        seconds = time.perf_counter() - started
        rendered = len(report.written) - report.from_cache
        summary = (
            f"{plural(len(report.written), 'document')}, {plural(report.pages, 'page')}, "
            f"{plural(report.sheets, 'sheet')} of paper ({options.paper}) in {self.shown_out}/"
        )
        for other in (w for w in report.written if w.paper):  # a booklet's own page size
            summary += f"; {other.path.name} needs {other.paper} paper"
        typer.echo(
            f"{summary} ({rendered} rendered, {report.from_cache} from cache, {seconds:.1f} s)"
        )
        if report.problems:
            stamp.forget()
            typer.echo(
                "the build partly failed: the files above were written, the rest not.", err=True
            )
            return 1
        if picked.strict and report.lint:
            stamp.forget()
            typer.echo(f"--strict: {plural(len(report.lint), 'layout problem')}.", err=True)
            return 1
        # The next identical command can answer from this stamp if nothing changes.
        if not self.stamped:
            return 0
        stamp.record(
            [self.folder, *stamp.dependencies()],
            self.out_dir,
            said[True],
            [
                f"wrote {safe_text(str(w.path), None)} ({plural(w.pages, 'page')}, from cache)"
                for w in report.written
            ]
            + said[False],
            summary,
        )
        return 0

    def watch(self) -> None:
        """Build, then build again on every save, in this one warm process: the libraries
        stay imported, the fonts and templates loaded, checked cache entries in memory and
        every deck's imposer open (``BuildSession``), so an edited card is rewritten in a
        fraction of a second. Nothing here listens to anyone but the file system."""
        from watchfiles import watch

        from ..build import BuildSession
        from ..resources import templates_dir

        self.session = BuildSession()
        output = os.path.realpath(self.out_dir)

        def wanted(_: object, path: str) -> bool:
            # Our own output (the folder may sit inside the campaign) must not trigger a
            # build, or every build would start the next. watchfiles reports paths as it
            # was given them (`./output/png/x.png`): compare real paths.
            real = os.path.realpath(path)
            inside_output = real == output or real.startswith(output + os.sep)
            ours = any(part.startswith(".scratchpress") for part in Path(real).parts)
            return not inside_output and not ours and not real.endswith(".pdf")

        try:
            if self.once() == INTERRUPTED:
                raise typer.Exit(INTERRUPTED)
            shown = display_path(self.folder)
            where = "this folder" if shown == "." else safe_text(shown, None)
            typer.echo(f"watching {where} for changes (Ctrl-C to stop)")
            # 20 ms of quiet after a save before building (watchfiles waits 50 ms by default).
            folders = (self.folder.resolve(), templates_dir())
            for _changes in watch(*folders, watch_filter=wanted, step=20):
                if self.once() == INTERRUPTED:  # Ctrl-C in the middle of a rebuild
                    raise typer.Exit(INTERRUPTED)
        except KeyboardInterrupt:
            return  # Ctrl-C while waiting for a save is how a watch ends: nothing to report


class _Progress:
    """How a build shows it is alive. On a terminal, a rich bar on stderr, with each
    "wrote" line printed above it (never through it). Elsewhere (a log, CI, a pipe), the
    "wrote" lines alone, one per document as each is written, flushed at once."""

    def __enter__(self) -> _Progress:
        self.bar: Any = None
        self.task: Any = None
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.bar = Progress(
                TextColumn("rendering"),
                BarColumn(),
                MofNCompleteColumn(),
                console=Console(stderr=True),
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
        return self

    def rendered(self, done: int, total: int) -> None:
        if self.bar is None:
            return
        if self.task is None:
            self.bar.start()
            self.task = self.bar.add_task("rendering", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def wrote(self, written: Any) -> None:
        line = f"wrote {safe_text(str(written.path), None)} ({plural(written.pages, 'page')}" + (
            ", from cache)" if written.cached else ")"
        )
        if self.bar is not None and self.task is not None and sys.stdout.isatty():
            self.bar.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            typer.echo(line)

    def close(self) -> None:
        if self.bar is not None and self.task is not None:
            self.bar.stop()
            self.task = None

    def __exit__(self, *exc: object) -> None:
        self.close()
