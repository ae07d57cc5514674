"""The ``scratchpress`` command: thin over the library, one function per command."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from . import uptodate
from .definitions.campaign import Campaign, load_campaign
from .documents.registry import KINDS as KIND_NAMES
from .problems import InputError, Problem
from .rules.rulesets import RULESETS
from .statblocks import Computed, compute_campaign

app = typer.Typer(
    name="scratchpress",
    help="Stat blocks and print-ready PDFs for the Scratch Role-Playing System and Resilience.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

PathsArg = Annotated[
    list[Path], typer.Argument(help="Definition files or campaign folders.", show_default=False)
]
RulesOpt = Annotated[
    str | None,
    typer.Option(
        "--rules",
        help=f"Ruleset: {', '.join(RULESETS)} (default: the campaign's, else current).",
        show_default=False,
    ),
]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def fail(problems: list[Problem]) -> NoReturn:
    for problem in problems:
        typer.echo(str(problem), err=True)
    errors = sum(1 for p in problems if p.severity == "error")
    typer.echo(f"{errors} error{'s' if errors != 1 else ''}; nothing was written.", err=True)
    raise typer.Exit(1)


def _check_rules(rules: str | None) -> None:
    if rules is not None and rules not in RULESETS:
        typer.echo(f"unknown ruleset {rules!r}; choose one of: {', '.join(RULESETS)}", err=True)
        raise typer.Exit(2)


def blocking_errors(computed: Computed) -> list[Problem]:
    """Errors that make printed numbers misleading (an unknown crew member, too many
    minions). Printed values that differ from ours are `check`'s business, not a reason
    to refuse stat blocks or sheets."""
    return [p for p in computed.errors if "printed" not in (p.field or "").split(".")]


def load(paths: list[Path], rules: str | None) -> tuple[Campaign, Computed]:
    """Load and compute, turning every input problem into a clean exit 1."""
    _check_rules(rules)
    try:
        campaign = load_campaign(paths, rules)
    except InputError as err:
        fail(err.problems)
    return campaign, compute_campaign(campaign)


@app.command()
def stats(
    paths: PathsArg,
    rules: RulesOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON list.")] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show the rule behind every derived number.")
    ] = False,
) -> None:
    """Print stat blocks in the books' format (or JSON)."""
    from .documents.text import render_json, render_text

    _, computed = load(paths, rules)
    blocking = blocking_errors(computed)
    if blocking:
        fail(blocking)
    if as_json:
        typer.echo(json.dumps(render_json(computed), indent=2, ensure_ascii=False))
    else:
        typer.echo(render_text(computed, explain), nl=False)


@app.command()
def check(
    paths: PathsArg,
    rules: RulesOpt = None,
    strict: Annotated[bool, typer.Option("--strict", help="Count warnings as errors.")] = False,
) -> None:
    """Validate definitions and compare printed: values with the rules."""
    from .booklet import booklet_problems
    from .careers import career_problems
    from .content.loader import content_problems, resilience_content

    campaign, computed = load(paths, rules)
    try:
        careers = resilience_content(campaign).careers
    except InputError as err:
        fail(err.problems)
    computed.problems += career_problems(campaign, computed, careers)
    computed.problems += content_problems(campaign)
    computed.problems += booklet_problems(campaign, computed)
    for problem in computed.problems:
        typer.echo(str(problem), err=problem.severity == "error")
    errors, warnings = len(computed.errors), len(computed.warnings)
    entries = len(computed.blocks)
    typer.echo(
        f"{entries} entries checked with the {computed.rules.name} rules: "
        f"{plural(errors, 'error')}, {plural(warnings, 'warning')}."
    )
    if errors or (strict and warnings):
        raise typer.Exit(1)


@app.command("import")
def import_(
    text_file: Annotated[Path, typer.Argument(help="Plain text holding stat blocks.")],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write YAML here (default: print it).")
    ] = None,
) -> None:
    """Read stat blocks in the books' plain-text format and write definitions."""
    from .definitions.importer import dump_definitions, parse_stat_blocks
    from .render.files import write_atomic

    try:
        text = text_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        fail([Problem("no such file", str(text_file))])
    except (OSError, UnicodeDecodeError) as err:
        fail([Problem(f"cannot read as UTF-8 text: {err}", str(text_file))])
    data = parse_stat_blocks(text)
    found = sum(len(v) for v in data.values())
    if not found:
        fail(
            [
                Problem(
                    "no stat blocks found (expected lines like 'Name (13 agility, ...): ...')",
                    str(text_file),
                )
            ]
        )
    yaml_text = dump_definitions(data)
    if output is None:
        typer.echo(yaml_text, nl=False)
    else:
        write_atomic(output, yaml_text.encode("utf-8"))
        counts = ", ".join(f"{len(v)} {k}" for k, v in data.items() if v)
        typer.echo(f"wrote {output} ({counts})", err=True)


def _choice(name: str, value: str | None, allowed: tuple[str, ...]) -> list[Problem]:
    if value is None or value in allowed:
        return []
    return [Problem(f"{name}: {value!r} is not one of {', '.join(allowed)}")]


@app.command()
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
    from .documents.base import BuildOptions
    from .resources import examples_dir

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
    problems += _choice("--paper", paper, ("letter", "a4"))
    problems += _choice("--units", units, ("metric", "imperial", "both"))
    problems += _choice("--cards", cards, ("poker", "index"))
    problems += _choice("--backs", backs, ("none", "duplex", "fold"))
    problems += _choice("--duplex-edge", duplex_edge, ("long", "short"))
    problems += _choice("--impose", impose, ("none", "saddle"))
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

    from .build import BuildSettings

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

    def once(self) -> int:
        """Build; returns the exit code (0 fine, 1 input errors or a partly failed build)."""
        import time

        from .build import build as run_build
        from .render.images import ImageProblem

        started = time.perf_counter()
        said: dict[bool, list[str]] = {False: [], True: []}

        def say(text: str, err: bool = False) -> None:
            typer.echo(text, err=err)
            said[err].append(text)

        try:
            loaded, computed = load([self.folder], self.rules)
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
        for warning in report.warnings:
            say(f"warning: {warning}", err=True)
        for problem in report.lint:
            # Printed as `file: entry "Name": notes overflows by 4.2 mm`; --strict decides.
            say(str(dataclasses.replace(problem, severity="error")), err=True)
        for problem in report.problems:
            say(str(problem), err=True)
        if self.png:
            from .render.png import write_contact_sheet, write_pngs

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
            uptodate.forget()
            typer.echo(
                "the build partly failed: the files above were written, the rest not.", err=True
            )
            return 1
        if self.strict and report.lint:
            uptodate.forget()
            typer.echo(f"--strict: {plural(len(report.lint), 'layout problem')}.", err=True)
            return 1
        # The next identical command can answer from this stamp if nothing changes.
        uptodate.record(
            [self.folder, *uptodate.dependencies()],
            self.out_dir,
            said[True],
            [f"wrote {w.path} ({plural(w.pages, 'page')}, unchanged)" for w in report.written]
            + said[False],
            summary,
        )
        return 0

    def watch(self) -> None:
        from watchfiles import watch

        from .resources import templates_dir

        self.once()
        typer.echo(f"watching {self.folder} for changes (Ctrl-C to stop)")
        try:
            for _changes in watch(
                self.folder,
                templates_dir(),
                watch_filter=lambda _, path: (
                    ".scratchpress" not in path and not path.endswith(".pdf")
                ),
            ):
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


@app.command()
def calibrate(
    campaign: Annotated[
        Path | None,
        typer.Argument(
            help="Campaign whose duplex_offset_mm to apply (optional).", show_default=False
        ),
    ] = None,
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Where to write the test sheet.")
    ] = Path("output/duplex-calibration.pdf"),
    paper: Annotated[str | None, typer.Option("--paper", help="letter or a4.")] = None,
    duplex_edge: Annotated[
        str, typer.Option("--duplex-edge", help="Which edge your printer flips: long or short.")
    ] = "long",
) -> None:
    """Print a duplex test sheet; its back shows how far your printer shifts back pages."""
    from .definitions.campaign import load_settings
    from .documents.calibrate import CalibrationOptions, write_calibration

    problems: list[Problem] = []
    settings = load_settings(campaign, None, problems) if campaign is not None else None
    if paper is not None and paper not in ("letter", "a4"):
        problems.append(Problem(f"--paper: {paper!r} is not one of letter, a4"))
    if duplex_edge not in ("long", "short"):
        problems.append(Problem(f"--duplex-edge: {duplex_edge!r} is not one of long, short"))
    if problems:
        fail(problems)
    chosen = paper or (settings.paper if settings else "letter")
    offset = settings.duplex_offset_mm if settings else (0.0, 0.0)
    warnings = write_calibration(
        output,
        CalibrationOptions(
            paper=chosen,  # type: ignore[arg-type]
            duplex_edge=duplex_edge,  # type: ignore[arg-type]
            duplex_offset_mm=offset,
        ),
    )
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo(
        f"wrote {output}: print it on both sides ({duplex_edge}-edge flip), hold it to the"
        " light and read the offset off the back; then set duplex_offset_mm = [dx, dy]"
        " in scratchpress.toml"
    )


def _mount_subcommands() -> None:
    from .resilience_cli import resilience_app
    from .roster_cli import roster_app
    from .server_cli import server_app

    app.add_typer(roster_app, name="roster", help="NPC rosters: generate random NPCs.")
    app.add_typer(server_app, name="server", help="A warm background process: faster commands.")

    app.add_typer(resilience_app, name="resilience", help="Resilience: projects and yearly events.")


_mount_subcommands()


def main() -> None:
    # Broken pipes (`scratchpress stats | head`) are not errors worth a traceback.
    try:
        app()
    except BrokenPipeError:
        sys.stderr.close()


if __name__ == "__main__":
    main()
