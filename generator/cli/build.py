"""`scratchpress build`: every printable of a campaign, once or on every save (``--watch``)."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from ..definitions.campaign import Campaign
from ..documents.registry import KINDS as KIND_NAMES
from ..problems import InputError, Problem
from . import stamp
from .common import RulesOpt, blocking_errors, choice, fail, load, plural


def build(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign folder (default: the bundled example campaign).", show_default=False
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Output folder.", show_default="output/")
    ] = None,
    paper: Annotated[
        str | None, typer.Option("--paper", help="letter or a4 (default: the campaign's).")
    ] = None,
    only: Annotated[
        str | None,
        typer.Option("--only", help="Comma-separated kinds: " + ",".join(KIND_NAMES) + "."),
    ] = None,
    units: Annotated[str | None, typer.Option("--units", help="metric, imperial or both.")] = None,
    ink_saver: Annotated[
        bool, typer.Option("--ink-saver", help="No filled backgrounds, greys instead of colour.")
    ] = False,
    cards: Annotated[
        str, typer.Option("--cards", help="Initiative card size: poker or index.")
    ] = "poker",
    tent: Annotated[
        bool, typer.Option("--tent", help="Fold-over initiative cards (no duplex needed).")
    ] = False,
    carry_range: Annotated[
        str, typer.Option("--carry-range", help="Strength range of the carry table, e.g. 1-40.")
    ] = "10-20",
    backs: Annotated[
        str, typer.Option("--backs", help="Card backs for decks: none, duplex or fold.")
    ] = "duplex",
    bleed: Annotated[bool, typer.Option("--bleed", help="3 mm bleed around deck cards.")] = False,
    duplex_edge: Annotated[
        str, typer.Option("--duplex-edge", help="Which edge your printer flips: long or short.")
    ] = "long",
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", help="Worker processes (0: one per core).", min=0)
    ] = 0,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Render everything again, ignoring the cache.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Layout problems (overflowing text) fail the build.")
    ] = False,
    png: Annotated[
        bool, typer.Option("--png", help="Also write every page as PNG (for virtual tabletops).")
    ] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Rebuild whenever a campaign file is saved.")
    ] = False,
    impose: Annotated[
        str, typer.Option("--impose", help="Booklets: also write a 2-up copy: none or saddle.")
    ] = "none",
    force: Annotated[
        bool, typer.Option("--force", help="Replace files in the output folder we did not write.")
    ] = False,
    rules: RulesOpt = None,
) -> None:
    """Render every printable of a campaign to PDF."""
    from ..documents.base import BuildOptions
    from ..resources import examples_dir

    folder = campaign if campaign is not None else examples_dir()
    out_dir = output if output is not None else Path("output")
    problems: list[Problem] = []
    kinds = None
    if only is not None:
        kinds = [k.strip() for k in only.split(",") if k.strip()]
        for kind in kinds:
            if kind not in KIND_NAMES:
                problems.append(
                    Problem(f"--only: unknown kind {kind!r}; choose from {', '.join(KIND_NAMES)}")
                )
    if not folder.is_dir():
        problems.append(Problem("not a campaign folder", str(folder)))
    if out_dir.exists() and not out_dir.is_dir():
        problems.append(Problem("-o: not a folder (an output folder is needed)", str(out_dir)))
    try:
        low, high = (int(x) for x in carry_range.split("-", 1))
        if not 1 <= low <= high <= 40:
            raise ValueError
    except ValueError:
        problems.append(Problem(f"--carry-range: {carry_range!r} must be like 10-20, within 1-40"))
        low, high = 10, 20
    problems += choice("--paper", paper, ("letter", "a4"))
    problems += choice("--units", units, ("metric", "imperial", "both"))
    problems += choice("--cards", cards, ("poker", "index"))
    problems += choice("--backs", backs, ("none", "duplex", "fold"))
    problems += choice("--duplex-edge", duplex_edge, ("long", "short"))
    problems += choice("--impose", impose, ("none", "saddle"))
    if problems:
        fail(problems)

    def options_for(loaded: Campaign) -> BuildOptions:
        return BuildOptions(
            paper=paper or loaded.settings.paper,  # type: ignore[arg-type]
            units=units or loaded.settings.units,  # type: ignore[arg-type]
            ink_saver=ink_saver,
            card_size=cards,  # type: ignore[arg-type]
            tent=tent,
            carry_low=low,
            carry_high=high,
            backs=backs,  # type: ignore[arg-type]
            bleed=bleed,
            duplex_edge=duplex_edge,  # type: ignore[arg-type]
            impose=impose,  # type: ignore[arg-type]
        )

    from ..build import BuildSettings

    settings = BuildSettings(jobs=jobs, use_cache=not no_cache, force=force)
    run = _BuildRun(folder, out_dir, kinds, rules, options_for, settings, strict, png)
    if not watch:
        raise typer.Exit(run.once())
    run.watch()


class _BuildRun:
    """One build, or a build that repeats on every save (``--watch``)."""

    def __init__(
        self,
        folder: Path,
        out_dir: Path,
        kinds: list[str] | None,
        rules: str | None,
        options_for: Any,
        settings: Any,
        strict: bool,
        png: bool,
    ) -> None:
        self.folder, self.out_dir, self.kinds, self.rules = folder, out_dir, kinds, rules
        self.options_for, self.settings, self.strict, self.png = options_for, settings, strict, png
        self.session: Any = None  # kept between builds by watch()

    def once(self) -> int:
        """Build; returns the exit code (0 fine, 1 input errors or a partly failed build)."""
        import time

        from ..build import build as run_build
        from ..render.images import ImageProblem

        started = time.perf_counter()
        said: dict[bool, list[str]] = {False: [], True: []}

        def say(text: str, err: bool = False) -> None:
            typer.echo(text, err=err)
            said[err].append(text)

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
        options = self.options_for(loaded)
        with _progress() as on_rendered:
            try:
                report = run_build(
                    computed,
                    loaded,
                    options,
                    self.out_dir,
                    self.kinds,
                    settings=self.settings,
                    session=self.session,
                    progress=lambda w: typer.echo(
                        f"wrote {w.path} ({plural(w.pages, 'page')}"
                        + (", unchanged)" if w.cached else ")")
                    ),
                    on_rendered=on_rendered,
                )
            except ImageProblem as err:
                say(str(err), err=True)
                return 1
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
        if self.png:
            from ..render.png import write_contact_sheet, write_pngs

            count = write_pngs([w.path for w in report.written], self.out_dir / "png")
            for written in report.written:
                if written.document.kind in {"events", "careers", "initiative"}:
                    write_contact_sheet(
                        written.path, self.out_dir / "png" / f"{written.path.stem}-contact.png"
                    )
                    count += 1
            say(f"wrote {count} PNG files in {self.out_dir / 'png'}/")
        seconds = time.perf_counter() - started
        rendered = len(report.written) - report.from_cache
        summary = (
            f"{plural(len(report.written), 'document')}, {plural(report.pages, 'page')}, "
            f"{plural(report.sheets, 'sheet')} of paper ({options.paper}) in {self.out_dir}/"
        )
        typer.echo(
            f"{summary} ({rendered} rendered, {report.from_cache} unchanged, {seconds:.1f} s)"
        )
        if report.problems:
            stamp.forget()
            typer.echo(
                "the build partly failed: the files above were written, the rest not.", err=True
            )
            return 1
        if self.strict and report.lint:
            stamp.forget()
            typer.echo(f"--strict: {plural(len(report.lint), 'layout problem')}.", err=True)
            return 1
        # The next identical command can answer from this stamp if nothing changes.
        stamp.record(
            [self.folder, *stamp.dependencies()],
            self.out_dir,
            said[True],
            [f"wrote {w.path} ({plural(w.pages, 'page')}, unchanged)" for w in report.written]
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
        output = str(self.out_dir.resolve())

        def wanted(_: object, path: str) -> bool:
            # Our own output (the folder may sit inside the campaign) must not trigger a
            # build, or every build would start the next.
            inside_output = path == output or path.startswith(output + os.sep)
            return not inside_output and ".scratchpress" not in path and not path.endswith(".pdf")

        self.once()
        typer.echo(f"watching {self.folder} for changes (Ctrl-C to stop)")
        try:
            # 20 ms of quiet after a save before building (watchfiles waits 50 ms by default).
            for _changes in watch(self.folder, templates_dir(), watch_filter=wanted, step=20):
                self.once()
        except KeyboardInterrupt:
            return


class _progress:
    """A progress bar on a terminal for builds that render more than a handful of files."""

    def __enter__(self) -> Any:
        import sys

        self.bar: Any = None
        if not sys.stderr.isatty():
            return None
        from rich.progress import Progress

        self.bar = Progress(transient=True)
        self.bar.start()
        self.task = self.bar.add_task("rendering", total=None)

        def update(done: int, total: int) -> None:
            self.bar.update(self.task, completed=done, total=total)

        return update

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
