"""The ``scratchpress`` command: thin over the library, one function per command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

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
    # Printed values that differ from ours are `check`'s business; anything else that is
    # wrong (an unknown crew member, too many minions) would make the numbers misleading.
    blocking = [p for p in computed.errors if "printed" not in (p.field or "").split(".")]
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
    from .careers import career_problems
    from .content.loader import content_problems, resilience_content

    campaign, computed = load(paths, rules)
    try:
        careers = resilience_content(campaign).careers
    except InputError as err:
        fail(err.problems)
    computed.problems += career_problems(campaign, computed, careers)
    computed.problems += content_problems(campaign)
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
    force: Annotated[
        bool, typer.Option("--force", help="Replace files in the output folder we did not write.")
    ] = False,
    rules: RulesOpt = None,
) -> None:
    """Render every printable of a campaign to PDF."""
    from .build import build as run_build
    from .documents.base import BuildOptions
    from .documents.registry import KINDS
    from .resources import examples_dir

    folder = campaign if campaign is not None else examples_dir()
    out_dir = output if output is not None else Path("output")
    problems: list[Problem] = []
    kinds = None
    if only is not None:
        kinds = [k.strip() for k in only.split(",") if k.strip()]
        for kind in kinds:
            if kind not in KINDS:
                problems.append(
                    Problem(f"--only: unknown kind {kind!r}; choose from {', '.join(KINDS)}")
                )
    if not folder.is_dir():
        problems.append(Problem("not a campaign folder", str(folder)))
    try:
        low, high = (int(x) for x in carry_range.split("-", 1))
        if not 1 <= low <= high <= 40:
            raise ValueError
    except ValueError:
        problems.append(Problem(f"--carry-range: {carry_range!r} must be like 10-20, within 1-40"))
        low, high = 10, 20
    for name, value, allowed in (
        ("--paper", paper, ("letter", "a4")),
        ("--units", units, ("metric", "imperial", "both")),
        ("--cards", cards, ("poker", "index")),
    ):
        if value is not None and value not in allowed:
            problems.append(Problem(f"{name}: {value!r} is not one of {', '.join(allowed)}"))
    if problems:
        fail(problems)
    loaded, computed = load([folder], rules)
    blocking = [p for p in computed.errors if "printed" not in (p.field or "").split(".")]
    if blocking:
        fail(blocking)
    for problem in computed.warnings:
        typer.echo(str(problem), err=True)
    options = BuildOptions(
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
    )
    from .render.images import ImageProblem

    try:
        report = run_build(
            computed,
            loaded,
            options,
            out_dir,
            kinds,
            force=force,
            progress=lambda w: typer.echo(
                f"wrote {w.path} ({w.pages} page{'s' if w.pages != 1 else ''})"
            ),
        )
    except ImageProblem as err:
        fail([Problem(str(err))])
    for warning in report.warnings:
        typer.echo(f"warning: {warning}", err=True)
    for problem in report.problems:
        typer.echo(str(problem), err=True)
    typer.echo(
        f"{len(report.written)} documents, {report.pages} pages, "
        f"{report.sheets} sheets of paper ({options.paper}) in {out_dir}/"
    )
    if report.problems:
        raise typer.Exit(1)


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
