"""`scratchpress build`: every printable of a campaign, once or on every save (``--watch``).

The options and their choices come from the one options model
(:class:`scratchpress.api.BuildOptions`); merging them with the campaign's ``[build]``
table is the library's job (:func:`scratchpress.api.build_options`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .. import api
from ..problems import Problem, safe_text
from . import stamp
from .common import (
    CampaignArg,
    ExampleOpt,
    RulesOpt,
    choice,
    fail,
    find,
    plural,
    usage_error,
)

INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C


def _kinds(value: str | None) -> str | None:
    if value is not None:
        for kind in (k.strip().lower() for k in value.split(",")):
            if kind not in api.BUILD_KINDS:
                hint = api.closest(kind, api.BUILD_KINDS)
                guess = f" (did you mean {hint!r}?)" if hint else ""
                raise typer.BadParameter(
                    f"unknown kind {kind!r}{guess}; choose from {', '.join(api.BUILD_KINDS)}"
                )
    return value


def _complete_kinds(incomplete: str) -> list[str]:
    done, _, last = incomplete.rpartition(",")
    prefix = f"{done}," if done else ""
    return [prefix + kind for kind in api.BUILD_KINDS if kind.startswith(last)]


def _carry_range(value: str | None) -> str | None:
    if value is not None:
        try:
            api.BuildOptions(carry_range=value)
        except ValueError:
            raise typer.BadParameter(f"{value!r} must be like 10-20, within 1-40") from None
    return value


def flag(name: str, on: str) -> Any:
    """A yes/no build option: both spellings, so a saved ``true`` can be turned off."""
    return typer.Option(f"--{on}/--no-{on}", help=api.option_help(name), show_default=False)


def build(
    campaign: CampaignArg = None,
    example: ExampleOpt = False,
    output: Annotated[
        Path | None,
        typer.Option(
            "-o",
            "--output",
            help="Output folder (default: the campaign's own output/; the example's in"
            " this folder's output/).",
            show_default=False,
        ),
    ] = None,
    paper: Annotated[api.Paper | None, choice("paper")] = None,
    language: Annotated[api.Language | None, choice("language")] = None,
    only: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated kinds: " + ",".join(api.BUILD_KINDS) + ".",
            callback=_kinds,
            autocompletion=_complete_kinds,
        ),
    ] = None,
    units: Annotated[api.Units | None, choice("units")] = None,
    ink_saver: Annotated[bool | None, flag("ink_saver", "ink-saver")] = None,
    cards: Annotated[api.CardSize | None, choice("cards")] = None,
    tent: Annotated[bool | None, flag("tent", "tent")] = None,
    carry_range: Annotated[
        str | None, typer.Option(help=api.option_help("carry_range"), callback=_carry_range)
    ] = None,
    backs: Annotated[api.Backs | None, choice("backs")] = None,
    bleed: Annotated[bool | None, flag("bleed", "bleed")] = None,
    duplex_edge: Annotated[api.DuplexEdge | None, choice("duplex_edge")] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", help=api.option_help("jobs"), min=0, max=64),
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
    strict: Annotated[bool | None, flag("strict", "strict")] = None,
    png: Annotated[bool | None, flag("png", "png")] = None,
    print_all: Annotated[bool | None, flag("print_all", "print-all")] = None,
    print_shop: Annotated[
        api.Shop | None,
        typer.Option(
            "--for",
            help=api.option_help("print_shop").replace(" (--for on the command line)", ""),
            case_sensitive=False,
            show_default=False,
        ),
    ] = None,
    watch: Annotated[
        bool, typer.Option("--watch", help="Rebuild whenever a campaign file is saved.")
    ] = False,
    impose: Annotated[api.Impose | None, choice("impose")] = None,
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
    scratchpress.toml (see docs/definitions.md), then from the defaults.

    Example: scratchpress build my-campaign --paper a4 --only sheets,initiative
    """
    given = {
        "language": language,
        "paper": paper,
        "units": units,
        "cards": cards,
        "tent": tent,
        "backs": backs,
        "bleed": bleed,
        "duplex_edge": duplex_edge,
        "ink_saver": ink_saver,
        "carry_range": carry_range,
        "only": only,
        "impose": impose,
        "jobs": jobs,
        "png": png,
        "print_all": print_all,
        "print_shop": print_shop,
        "strict": strict,
    }
    found = find([campaign] if campaign is not None else None, example)
    problems: list[Problem] = []
    if not found.root.is_dir():
        problems.append(Problem("not a campaign folder", str(found.root)))
    try:
        out_dir = api.output_folder(found, output)
    except api.InputError as err:
        problems += err.problems
    if problems:
        fail(problems)
    run = _BuildRun(found, out_dir, rules, given, no_cache, force)
    run.wait = not no_wait
    run.cache_dir = cache_dir
    if not watch:
        raise typer.Exit(run.once())
    run.watch()


class _BuildRun:
    """One build, or a build that repeats on every save (``--watch``)."""

    def __init__(
        self,
        found: api.Found,
        out_dir: Path,
        rules: str | None,
        given: dict[str, Any],
        no_cache: bool,
        force: bool,
    ) -> None:
        self.found, self.folder, self.out_dir, self.rules = found, found.root, out_dir, rules
        self.given = given
        self.no_cache, self.force = no_cache, force
        self.wait = True  # --no-wait: fail at once when another build holds the folder
        # The output folder as messages show it: a name with control characters escaped.
        self.shown_out = safe_text(str(out_dir), None)
        self.cache_dir: Path | None = None  # --cache-dir
        self.session: api.BuildSession | None = None  # kept between builds by watch()
        # A build that fell back to the example has no stamp: its choice hangs on what
        # this folder holds, which the stamp's snapshot does not cover.
        self.stamped = not found.example

    def once(self) -> int:
        """Build; returns the exit code (0 fine, 1 input errors or a partly failed build,
        130 interrupted)."""
        import time

        started = time.perf_counter()
        said: dict[bool, list[str]] = {False: [], True: []}

        def say(text: str, err: bool = False) -> None:
            typer.echo(text, err=err)
            said[err].append(text)

        if self.found.said is not None:
            said[True].append(self.found.said)  # printed by find(), replayed by the stamp
        try:
            memo = self.session.parse if self.session is not None else None
            opened = api.open_campaign(self.found, rules=self.rules, memo=memo)
        except api.InputError as err:
            for problem in err.problems:
                say(str(problem), err=True)
            return 1
        if opened.blocking:
            for problem in opened.blocking:
                say(str(problem), err=True)
            return 1
        for problem in opened.computed.warnings:
            say(str(problem), err=True)
        with _Progress() as progress:
            try:
                report = api.build(
                    opened,
                    self.given,
                    self.out_dir,
                    use_cache=not self.no_cache,
                    cache_dir=self.cache_dir,
                    force=self.force,
                    wait=self.wait,
                    session=self.session,
                    progress=progress.wrote,
                    on_rendered=progress.rendered,
                    on_wait=lambda: typer.echo(
                        f"waiting: another build is writing into {self.shown_out}/"
                        " (--no-wait to stop instead)",
                        err=True,
                    ),
                )
            except api.UsageError as err:
                usage_error(str(err))
            except api.CannotWrite as err:  # no lock to be had: nothing was written
                say(str(err), err=True)
                return 1
            except api.OutputBusy:
                say(
                    f"another build is writing into {self.shown_out}/; run again when it has"
                    " finished",
                    err=True,
                )
                return 1
            except api.BuildInterrupted as stop:
                progress.close()
                done = (
                    f"{stop.written} of {plural(stop.total, 'document')} written"
                    if stop.total
                    else "nothing written yet"
                )
                typer.echo(f"interrupted: {done}; run again to finish", err=True)
                stamp.forget()
                return INTERRUPTED
            except api.InputError as err:  # a booklet or other content that cannot be used
                for problem in err.problems:
                    say(str(problem), err=True)
                return 1
        options = report.options or api.BuildOptions()
        for note in report.notes:
            if note in report.removal_notes:  # true of this build only, not of a replay
                typer.echo(note, err=True)
            else:
                say(note, err=True)
        for warning in report.warnings:
            say(f"warning: {warning}", err=True)
        for problem in report.lint:
            # Printed as `file: entry "Name": notes overflows by 4.2 mm`; --strict decides.
            say(str(problem.as_error()), err=True)
        for problem in report.problems:
            say(str(problem), err=True)
        if options.png:
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
        if options.strict and report.lint:
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

        self.session = api.BuildSession()
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
            shown = api.display_path(self.folder)
            where = "this folder" if shown == "." else safe_text(shown, None)
            typer.echo(f"watching {where} for changes (Ctrl-C to stop)")
            # 20 ms of quiet after a save before building (watchfiles waits 50 ms by default).
            folders = (self.folder.resolve(), api.bundled_folders()[0])
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
