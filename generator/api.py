"""scratchpress as a library: the front door for scripts, notebooks and our own CLI.

Everything a command does is one call here, with the same rules the CLI follows::

    from scratchpress import api

    found = api.find_campaign()              # this folder, a folder above it, or the example
    opened = api.open_campaign(found)        # read, validate and compute every stat block
    report = api.check(opened)               # every problem as data
    result = api.build(opened, {"paper": "a4", "only": ["sheets"]})

Problems with the input raise :class:`InputError` (its ``problems`` are data, each with
its file, line, entry and field); a request that cannot work as asked raises
:class:`UsageError`; a file that cannot be read or written raises :class:`CannotRead` or
:class:`CannotWrite`. Nothing here prints or exits: the CLI (``scratchpress.cli``) parses,
calls one function, prints and picks the exit code. docs/api.md walks through it.

This module is long on purpose: it is the whole public surface in one place, each
function a few lines over the layers below it.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args, overload

from pydantic import ValidationError

from . import __version__
from .build import BuildInterrupted, BuildReport, BuildSession, BuildSettings, OutputBusy, Written
from .definitions.campaign import Campaign, load_campaign
from .definitions.files import RESERVED_FILES, display_path, is_definitions_file
from .definitions.models import (
    BUILD_KINDS,
    Backs,
    BuildOptions,
    CardSize,
    DuplexEdge,
    Impose,
    Paper,
    Ruleset,
    Settings,
    Units,
)
from .definitions.settings import SETTINGS_FILE
from .definitions.yamlsafe import ParseMemo
from .npcs import MAX_COUNT as MAX_ROSTER
from .problems import Findings, InputError, Problem, UsageError, safe_text
from .render.files import STOP_SIGNALS, CannotRead, CannotWrite, write_file
from .resilience import SEED_RANGE, Draw, opponents_pages
from .rules.abilities import closest
from .rules.community import DEFENSES, LOG_FIELDS
from .statblocks import Computed, compute_campaign
from .typesetting.shops import SHOPS, Shop
from .wording import Language, Wording, speaking

if TYPE_CHECKING:
    from .definitions.importer import ImportResult
    from .documents.resilience_text import FoundCommunity
    from .npcs.spec import Plan as RosterPlan
    from .render.theme import ThemeInit
    from .rules.simulate import Policy, Simulation

__all__ = [
    "BUILD_KINDS",
    "DEFENSES",
    "MAX_ROSTER",
    "SHOPS",
    "STOP_SIGNALS",
    "Backs",
    "BuildInterrupted",
    "BuildOptions",
    "BuildReport",
    "BuildSession",
    "CannotRead",
    "CannotWrite",
    "CardSize",
    "CheckReport",
    "Computed",
    "Draw",
    "DuplexEdge",
    "Exported",
    "Found",
    "Impose",
    "InputError",
    "Language",
    "Opened",
    "OutputBusy",
    "Paper",
    "Problem",
    "Roster",
    "Ruleset",
    "Shop",
    "Units",
    "UsageError",
    "Written",
    "__version__",
    "archetypes",
    "build",
    "build_options",
    "bundled_folders",
    "calibrate",
    "check",
    "closest",
    "definitions_yaml",
    "display_path",
    "draw",
    "event_json",
    "event_text",
    "export_encounters",
    "export_foundry",
    "export_tokens",
    "find_campaign",
    "find_community",
    "generate_roster",
    "import_stat_blocks",
    "init_theme",
    "json_schema",
    "new_campaign",
    "open_campaign",
    "option_choices",
    "option_help",
    "output_folder",
    "output_note",
    "page_images",
    "preview_folder",
    "project_text",
    "simulate",
    "simulation_png",
    "simulation_text",
    "size_project",
    "source_anchors",
    "source_files",
    "stats_json",
    "stats_text",
    "stop_rendering",
    "write_output",
    "year_sheets",
]

OUTPUT = "output"  # a campaign's own output folder, and the example's in the current folder


# ------------------------------------------------------------------------- finding one


@dataclass(frozen=True)
class Found:
    """The campaign a command works on, and how it was found."""

    paths: list[Path]
    said: str | None = None  # the line saying which campaign, when the user did not name it
    example: bool = False  # the bundled example stands in: no campaign was found here

    @property
    def root(self) -> Path:
        """The campaign folder (the first path's folder when files were named)."""
        first = self.paths[0]
        return first if first.is_dir() or not first.suffix else first.parent

    @property
    def output(self) -> Path:
        """Where its PDFs go unless told otherwise: the campaign's own ``output/``, so two
        campaigns built from one place never mix; the bundled example's (named or not)
        into ``./output/``, as the installed example's folder is not ours to write in."""
        from .resources import examples_dir

        bundled = self.example or self.root.resolve() == examples_dir().resolve()
        return Path(OUTPUT) if bundled else self.root / OUTPUT


def _holds_definitions(folder: Path, besides: str | None = None) -> bool:
    """Definitions files, or a booklet (a publisher's folder may hold nothing else)."""
    try:
        return any(
            (is_definitions_file(p) or p.name.lower() in RESERVED_FILES) and p.name != besides
            for p in folder.iterdir()
        )
    except OSError:
        return False


def _settings_above(start: Path) -> Path | None:
    """The nearest folder from ``start`` upwards that holds a scratchpress.toml, as git
    and cargo find their roots."""
    for folder in (start, *start.parents):
        if (folder / SETTINGS_FILE).is_file():
            return folder
    return None


PathLike = str | os.PathLike[str]


def _paths(where: Sequence[PathLike] | PathLike | None) -> list[Path]:
    """What a script may pass for a campaign: one path or several, as text or Path."""
    if where is None:
        return []
    if isinstance(where, str | os.PathLike):
        return [Path(where)]
    return [Path(p) for p in where]


def _path(where: PathLike | None) -> Path | None:
    return None if where is None else Path(where)


def find_campaign(
    paths: Sequence[PathLike] | PathLike | None = None,
    *,
    example: bool = False,
    start: PathLike | None = None,
) -> Found:
    """The campaign named; else ``example``; else the nearest folder from ``start`` (the
    current folder) upwards holding a scratchpress.toml; else ``start`` itself when it
    holds definitions files; else the bundled example. Every command finds it this way."""
    from .resources import examples_dir

    named = _paths(paths)
    if example and named:
        raise UsageError("give a campaign or --example, not both")
    if named:
        return Found(named)
    if example:
        return Found([examples_dir()], "campaign: the bundled example, Lantern Weir (example/)")
    here = Path(start).absolute() if start is not None else Path.cwd().absolute()
    above = _settings_above(here)
    if above == here or (above is None and _holds_definitions(here)):
        folder = Path(".") if start is None else here
        return Found([folder], f"campaign: this folder ({safe_text(str(here), None)})")
    if above is not None:
        shown = safe_text(str(above), None)
        # Named relative to where the user stands, so messages say ../output/, not a long path.
        folder = Path(os.path.relpath(above, here)) if start is None else above
        return Found([folder], f"campaign: {shown} (the nearest folder above with {SETTINGS_FILE})")
    return Found(
        [examples_dir()],
        "campaign: no campaign in this folder, so the bundled example, Lantern Weir"
        " (start your own with `scratchpress new FOLDER`)",
        example=True,
    )


def _here(start: PathLike | None = None) -> Path | None:
    """The campaign the user stands in (in it or below it), if any."""
    found = find_campaign(start=start)
    return None if found.example else found.paths[0]


# ------------------------------------------------------------------ reading and checking


@dataclass
class Opened:
    """A campaign read, validated and computed."""

    found: Found
    campaign: Campaign
    computed: Computed

    @property
    def blocking(self) -> list[Problem]:
        """Errors that make printed numbers misleading (an unknown crew member, too many
        minions). A printed value that differs from ours is `check`'s business, not a
        reason to refuse stat blocks or sheets; so is a community's log that breaks the
        project rules, which its sheet prints flagged for the table to mend."""
        return [
            p
            for p in self.computed.errors
            if "printed" not in (p.field or "").split(".")
            and (p.field or "").split(".")[0] not in LOG_FIELDS
        ]


def open_campaign(
    where: Found | Sequence[PathLike] | PathLike | None = None,
    *,
    rules: str | None = None,
    memo: ParseMemo | None = None,
) -> Opened:
    """Read and compute a campaign (found as :func:`find_campaign` finds it). ``rules``
    overrides the campaign's ruleset. Raises :class:`InputError` with every problem."""
    found = where if isinstance(where, Found) else find_campaign(where)
    campaign = load_campaign(found.paths, rules, memo)
    return Opened(found, campaign, compute_campaign(campaign))


@dataclass
class CheckReport(Findings):
    """Everything `check` found, as data (``errors`` and ``warnings`` pick from it)."""

    problems: list[Problem]
    entries: int
    rules: str
    # Printed values compared with the rules, and those the ruleset does not compute.
    printed_compared: int = 0
    printed_not_compared: int = 0
    # "Only 6 of 24 printed values compared: ..." when some were not, else "".
    printed_summary: str = ""


def check(opened: Opened) -> CheckReport:
    """Check everything a build would use: definitions, careers, events and encounters,
    booklets, portraits and printed values. Raises :class:`InputError` only when the
    Resilience content itself cannot be read."""
    from .content.careers import career_definition_problems, career_problems
    from .content.loader import content_problems, resilience_content
    from .content.marks import mark_problems
    from .documents.assets import asset_problems
    from .documents.booklet import booklet_problems
    from .encounters import encounter_problems

    campaign, computed = opened.campaign, opened.computed
    problems = [*campaign.warnings, *computed.problems]  # notes on files not read first
    problems += career_problems(campaign, computed, resilience_content(campaign).careers)
    problems += career_definition_problems(campaign)
    unmerged = content_problems(campaign)
    problems += unmerged
    if not unmerged:  # encounters and marks are read from the merged lists
        problems += encounter_problems(campaign)
        problems += mark_problems(campaign)
    problems += booklet_problems(campaign, computed)
    problems += asset_problems(campaign)
    tally = computed.printed
    return CheckReport(
        problems,
        len(computed.blocks),
        computed.rules.name,
        tally.compared,
        tally.uncompared,
        tally.summary(),
    )


def stats_text(opened: Opened, explain: bool = False) -> str:
    """Stat blocks in the books' format; ``explain`` adds the rule behind each number."""
    from .documents.text import render_text

    _refuse_blocking(opened)
    return render_text(opened.computed, explain)


@overload
def stats_json(opened: Opened, version: Literal[1] = 1) -> list[dict[str, Any]]: ...
@overload
def stats_json(opened: Opened, version: Literal[2]) -> dict[str, Any]: ...
def stats_json(opened: Opened, version: int = 1) -> list[dict[str, Any]] | dict[str, Any]:
    """Stat blocks as data (docs/json.md): format 1, the list of stat blocks, or with
    ``version=2`` the versioned document that adds the initiative groups and the Resilience
    encounters (it may also raise :class:`InputError` for an encounter's errors)."""
    from .documents.text import FORMAT_VERSION, render_document, render_json

    _refuse_blocking(opened)
    if version == 1:
        return render_json(opened.computed)
    if version == FORMAT_VERSION:
        return render_document(opened.computed, opened.campaign)
    raise ValueError(f"stats JSON comes in formats 1 and {FORMAT_VERSION}, not {version!r}")


def _refuse_blocking(opened: Opened) -> None:
    if opened.blocking:
        raise InputError(opened.blocking)


# ---------------------------------------------------------------------------- building


def option_choices(name: str) -> list[str]:
    """The values a build option takes (``"paper"`` -> ``["letter", "a4"]``)."""
    annotation = BuildOptions.model_fields[name].annotation
    args = get_args(annotation)
    while args and get_args(args[0]):  # tuple[Literal[...], ...] | None, for --only
        args = get_args(args[0])
    return [str(a) for a in args if a is not Ellipsis and a is not type(None)]


def option_help(name: str) -> str:
    """A build option's one-line help, as the ``[build]`` table documents it."""
    return BuildOptions.model_fields[name].description or ""


def build_options(campaign: Campaign, given: Mapping[str, Any] | None = None) -> BuildOptions:
    """The options a build of ``campaign`` uses: ``given`` (None meaning "not given"; ``only``
    may be a comma-separated string) over its ``[build]`` table over its paper and units
    over the defaults. Raises :class:`UsageError` for a value no option takes."""
    return _merged(campaign.settings, given)


def _merged(settings: Settings, given: Mapping[str, Any] | None) -> BuildOptions:
    values = dict(given or {})
    if isinstance(values.get("only"), str):
        values["only"] = [k.strip().lower() for k in values["only"].split(",") if k.strip()]
    try:
        return settings.build_options(values)
    except ValidationError as err:
        lines = [
            f"--{'.'.join(str(p) for p in e['loc'][:1]).replace('_', '-')}:"
            f" {e['input']!r} {e['msg'].removeprefix('Value error, ')}{_did_you_mean(e)}"
            for e in err.errors()
        ]
        raise UsageError("; ".join(lines)) from None


def _did_you_mean(error: Any) -> str:
    """`` (did you mean 'sheets'?)`` for a value one slip away from a choice (``sheet``)."""
    choices = tuple(re.findall(r"'([^']*)'", error.get("ctx", {}).get("expected", "")))
    given = error.get("input")
    hint = closest(given, choices) if isinstance(given, str) and choices else None
    return f" (did you mean {hint!r}?)" if hint else ""


def _default_output(found: Found) -> Path:
    """The default output folder, refused when it is a link: it may have come inside a
    downloaded campaign, and would send our files wherever it points. A folder named
    with ``-o`` is the user's own choice."""
    out = found.output
    if out.is_symlink():
        shown = display_path(out)
        raise InputError(
            [Problem("is a symbolic link; refused as the default output (name it with -o)", shown)]
        )
    return out


def output_folder(found: Found, output: Path | None) -> Path:
    """Where a build writes: ``output`` if given, else the campaign's own output folder."""
    out = output if output is not None else _default_output(found)
    if out.exists() and not out.is_dir():
        raise InputError([Problem("-o: not a folder (an output folder is needed)", str(out))])
    return out


def build(
    opened: Opened,
    given: Mapping[str, Any] | BuildOptions | None = None,
    output: PathLike | None = None,
    *,
    use_cache: bool = True,
    cache_dir: Path | None = None,
    force: bool = False,
    wait: bool = True,
    session: BuildSession | None = None,
    progress: Callable[[Written], None] | None = None,
    on_rendered: Callable[[int, int], None] | None = None,
    on_wait: Callable[[], None] | None = None,
    preview: bool = False,
) -> BuildReport:
    """Render every printable of the campaign into ``output`` (default: its own output
    folder), with ``given`` options merged as the CLI merges them (:func:`build_options`).
    ``preview`` renders for the live preview: every computed number on a sheet, card or
    roster links to its source (read back with :func:`source_anchors`).
    Raises :class:`InputError` when errors would make the printed numbers wrong,
    :class:`OutputBusy` when ``wait`` is off and another build holds the folder, and
    :class:`BuildInterrupted` on Ctrl-C (what was written is kept)."""
    from .build import build as run_build
    from .render.fonts import draw_with_campaign_fonts

    _refuse_blocking(opened)
    draw_with_campaign_fonts(opened.campaign.root)
    options = given if isinstance(given, BuildOptions) else build_options(opened.campaign, given)
    out = output_folder(opened.found, _path(output))
    jobs, jobs_note = _workers_allowed(opened.campaign, given, options)
    settings = BuildSettings(
        jobs=jobs,
        use_cache=use_cache,
        cache_dir=cache_dir,
        force=force,
        wait=wait,
        png=options.png,
        preview=preview,
    )
    report = run_build(
        opened.computed,
        opened.campaign,
        options,
        out,
        list(options.only) if options.only else None,
        settings=settings,
        session=session,
        progress=progress,
        on_rendered=on_rendered,
        on_wait=on_wait,
        # Named files are part of a campaign: what they do not make may still be made.
        whole_campaign=len(opened.found.paths) == 1 and opened.found.paths[0].is_dir(),
    )
    report.options = options
    report.notes[:0] = [str(note) for note in opened.campaign.warnings]  # files not read
    if jobs_note:
        report.notes.insert(0, jobs_note)
    return report


def _workers_allowed(
    campaign: Campaign, given: Mapping[str, Any] | BuildOptions | None, options: BuildOptions
) -> tuple[int, str | None]:
    """How many render workers this build starts. A campaign may come from a stranger:
    its ``[build] jobs`` is capped at this machine's cores (each worker may take 3 GB);
    the command line (or a script's own options) may ask for more."""
    cores = os.cpu_count() or 1
    from_campaign = (
        not isinstance(given, BuildOptions)
        and (given or {}).get("jobs") is None
        and "jobs" in campaign.settings.build.model_fields_set
    )
    if not from_campaign or options.jobs <= cores:
        return options.jobs, None
    return cores, (
        f"note: {SETTINGS_FILE} asks for {options.jobs} render workers ([build] jobs);"
        f" this machine has {cores} cores, so {cores} are used (-j asks for more)"
    )


def calibrate(
    campaign: PathLike | None,
    output: PathLike | None = None,
    given: Mapping[str, Any] | None = None,
    **render: Any,
) -> BuildReport:
    """The duplex test sheet, through the build's render and write path. ``output`` is
    a folder, or a file name to give the sheet; ``given`` may set paper, duplex_edge and
    ink_saver. Without a campaign, the one the user stands in gives its settings, if any.
    ``render`` takes ``force``, ``settings``, ``progress`` and ``on_wait`` as
    :func:`scratchpress.build.build_documents` does."""
    from .build import build_documents
    from .documents.calibrate import CalibrationOptions, calibration_document

    folder = _path(campaign) if campaign is not None else _here()
    if folder is not None and not folder.is_dir():
        shown = display_path(folder)
        raise InputError([Problem("not a campaign folder", shown)])
    output = _path(output)
    settings = _settings(folder)
    options = _merged(settings, given)
    name = None
    if output is None:
        out = _default_output(Found([folder or Path(".")], example=folder is None))
    elif output.is_dir() and not output.is_symlink():
        out = output  # `-o DIR`: the usual name inside it
    else:
        out, name = output.parent, output.name
    with speaking(options.language):
        document = calibration_document(
            CalibrationOptions(
                paper=options.paper,
                duplex_edge=options.duplex_edge,
                duplex_offset_mm=settings.duplex_offset_mm,
                ink_saver=options.ink_saver,
            ),
            name,
        )
    # No root: a measuring sheet loads nothing of the campaign's, and its theme must not
    # move the verniers.
    return build_documents([document], out, options, root=None, **render)


def _settings(folder: Path | None) -> Settings:
    from .definitions.settings import load_settings

    if folder is None:
        return Settings()
    problems: list[Problem] = []
    settings = load_settings(folder, None, problems)
    if problems:
        raise InputError(problems)
    return settings


# ------------------------------------------------------------------------------ roster


@dataclass(frozen=True)
class Roster:
    """Generated NPCs as definitions YAML, with how to make them again."""

    text: str
    seed: str
    seed_given: bool
    plan: RosterPlan
    npcs: list[Any]
    note: str | None  # said once: names repeated because the name lists ran out


def archetypes() -> list[tuple[str, str]]:
    """The archetypes `generate_roster` takes, each with what it is good at."""
    from .npcs import archetype_summaries

    return archetype_summaries()


def generate_roster(
    count: int,
    *,
    campaign: PathLike | None = None,
    output: PathLike | None = None,
    cp: int | None = None,
    max_level: int | None = None,
    career: str | None = None,
    archetype: str | None = None,
    name_prefix: str = "",
    group: str | None = None,
    seed: str | None = None,
) -> Roster:
    """Random NPCs that spend exactly ``cp`` with no ability above ``max_level``. They join
    ``campaign`` (default: the one the user stands in): its names are not reused, its
    careers count and its cp / max_level are the defaults. ``output``, the file the roster
    will replace, is left out of the campaign. Raises :class:`UsageError` for a roster
    that cannot be made, :class:`InputError` for a campaign that cannot be read."""
    from .content.loader import resilience_content
    from .npcs import RosterError, RosterSpec, name_note, roster_yaml, seed_value

    chosen_seed = seed if seed is not None else str(secrets.randbelow(SEED_RANGE))
    folder = _path(campaign) if campaign is not None else _here()
    output = _path(output)
    try:
        loaded = _roster_campaign(folder, output) if folder is not None else None
        settings = loaded.settings if loaded is not None else None
        spec = RosterSpec(
            count=count,
            cp=cp if cp is not None else (settings.cp if settings else 10),
            max_level=max_level
            if max_level is not None
            else (settings.max_level if settings else 4),
            archetype=archetype,
            career=career,
            name_prefix=name_prefix,
            group=group,
            seed=seed_value(chosen_seed),
            avoid_names=_taken_names(loaded, output) if loaded is not None else (),
            campaign=str(folder) if folder is not None else None,
            output=str(output) if output is not None else None,
        )
        careers = resilience_content(loaded).careers if career is not None else []
        text, plan, npcs = roster_yaml(spec, careers)
    except RosterError as err:
        raise UsageError(str(err)) from None
    return Roster(text, chosen_seed, seed is not None, plan, npcs, name_note(npcs))


def _same_file(shown: str, output: Path | None) -> bool:
    return output is not None and Path(shown).resolve() == output.resolve()


def _roster_campaign(folder: Path, output: Path | None) -> Campaign:
    """The campaign the roster joins. A file about to be replaced is not part of it: its
    names are free again, so regenerating it with --force gives the same file."""
    from .definitions.files import campaign_files
    from .definitions.settings import load_settings
    from .npcs import RosterError

    if not folder.is_dir():
        raise RosterError(f"{folder}: not a campaign folder")
    _, files = campaign_files([folder])
    keep = [f for f in files if not _same_file(str(f), output)]
    if not keep:  # only the file being replaced: the campaign holds nothing else yet
        problems: list[Problem] = []
        settings = load_settings(folder, None, problems)
        if problems:
            raise InputError(problems)
        return Campaign(root=folder, settings=settings)
    return load_campaign(keep)


def _taken_names(campaign: Campaign, output: Path | None) -> tuple[str, ...]:
    return tuple(c.name for c in campaign.characters if not _same_file(c.source.file, output))


# -------------------------------------------------------------------------- resilience


def find_community(ref: str, campaign: PathLike | None = None) -> FoundCommunity:
    """The community ``ref`` names: a campaign file or folder holding one, or a name looked
    up in ``campaign``, else in the campaign the user stands in, else in the example."""
    from .resilience import find_community as find

    return find(ref, _path(campaign), _here() if campaign is None else None)


def size_project(
    players: int | None,
    develop: Mapping[str, int],
    sacrifice: Mapping[str, int],
    community: str | None = None,
    campaign: PathLike | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """A community project checked against the rules: its report (as data) and the rules
    it breaks (an impossible number of players among them: the report is then empty).
    Without ``community``, the only community of ``campaign`` (else of the campaign the
    user stands in) is used. Raises :class:`UsageError` when the number of players is
    neither given nor set by the community."""
    from .documents.resilience_text import project_report
    from .rules.community import plan_project, project_size

    if community is None:
        # The campaign named, else the one the user stands in: its one community.
        folder = _path(campaign) if campaign is not None else _here()
        community, campaign = (str(folder) if folder is not None else None), None
    found = find_community(community, campaign) if community is not None else None
    if players is None:
        players = found.definition.players if found is not None else None
        if players is None:
            raise UsageError("--players is required (1-7), or a --community that sets players:")
    try:
        project_size(players)
    except ValueError as err:
        return {}, [str(err)]
    plan = plan_project(players, dict(develop), dict(sacrifice), found.now if found else None)
    return project_report(plan, players, found), list(plan.problems)


def draw(
    campaign: PathLike | None = None,
    years: int = 1,
    seed: str | None = None,
    first_year: int | None = None,
) -> Draw:
    """The year's events, drawn without repeats from the built-in deck and the campaign's
    own (default: the campaign the user stands in, else the built-in deck only)."""
    from .resilience import draw as draw_years

    folder = _path(campaign) if campaign is not None else _here()
    return draw_years(folder, years, seed, first_year)


def year_sheets(
    drawn: Draw,
    output: PathLike,
    given: Mapping[str, Any] | None = None,
    **render: Any,
) -> BuildReport:
    """A GM year sheet per drawn event, written to ``output`` (a PDF file name) through
    the build's render and write path. ``given`` may set paper and ink_saver."""
    from .build import build_documents
    from .documents.community import year_sheets_document

    settings = drawn.campaign.settings if drawn.campaign is not None else Settings()
    options = _merged(settings, given)
    output = Path(output)
    root = drawn.campaign.root if drawn.campaign is not None else None
    # The ruled lines per page are estimated from the text; should a page still run over,
    # take a line off every page and render again (one event must stay one page).
    labels = drawn.campaign.labels if drawn.campaign is not None else {}
    # Pages of encounters.pdf as this paper and language print it.
    pages = opponents_pages(drawn.campaign, options)
    for fewer in range(8):
        with speaking(Wording(options.language, labels)):
            document = year_sheets_document(
                drawn.years,
                drawn.community,
                drawn.now,
                options,
                output.name,
                fewer,
                pages,
                drawn.marks,
            )
        report = build_documents(
            [document], output.parent, options, root=root, labels=labels, **render
        )
        if report.problems or not report.written or report.pages <= len(drawn.years):
            break
    return report


def simulate(
    campaign: PathLike | None = None,
    years: int = 10,
    runs: int = 1000,
    seed: str = "1",
    policy: Policy = "balanced",
    stop_at_win: bool = False,
) -> tuple[Simulation, str | None]:
    """Play the campaign's community (default: the one the user stands in, else 10/10/10
    with 4 players) through ``years`` years, ``runs`` times, as ``policy`` plays it; with
    ``stop_at_win`` a run ends at 15/15/15. Returns the result and the community's name.
    Raises :class:`UsageError` for impossible numbers."""
    from .documents.resilience_text import play, simulation_setup
    from .resilience import campaign_and_events
    from .rules.year import seed_value

    loaded, _events = campaign_and_events(_path(campaign) if campaign is not None else _here())
    setup = simulation_setup(loaded)
    try:
        result = play(setup, years, runs, seed_value(seed), policy, stop_at_win)
    except ValueError as err:
        raise UsageError(str(err)) from None
    return result, setup.community


def project_text(report: Mapping[str, Any]) -> str:
    """A project report (from :func:`size_project`) as the GM reads it."""
    from .documents.resilience_text import project_text as text

    return text(dict(report))


def event_text(
    year: int,
    event: Any,
    now: Mapping[str, int] | None = None,
    page: int | None = None,
    marks: Mapping[str, Any] | None = None,
) -> str:
    """A drawn event as text; ``now`` (the community before it) for the first year;
    ``page`` the page of encounters.pdf with its opponents (Draw.pages); ``marks`` those
    in the community's history (Draw.marks), whose lines the card calls up."""
    from .documents.resilience_text import event_text as text

    return text(year, event, dict(now) if now is not None else None, page, marks)


def event_json(
    year: int, event: Any, page: int | None = None, marks: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A drawn event as data, with ``page`` as ``encounters_page`` and the lines the
    history's ``marks`` call up as ``remembered``."""
    from .documents.resilience_text import event_json as as_json

    result: dict[str, Any] = as_json(year, event, page, marks)
    return result


def simulation_text(result: Simulation, community: str | None) -> str:
    """A simulation's spread by year, as text."""
    from .documents.resilience_text import simulation_text as text

    return text(result, community)


def simulation_png(result: Simulation) -> bytes:
    """The three E's by year, as a PNG picture."""
    from .documents.resilience_text import simulation_png as draw_png

    return draw_png(result)


# ------------------------------------------------------------------- files of our own


def output_note(output: PathLike, campaign: PathLike | None = None) -> str | None:
    """Why a build will not read the definitions file ``output`` (the ``-o`` of `roster
    generate` or `import`), in one line, or None when it will. ``campaign`` is the one the
    file is for; by default the nearest folder with a scratchpress.toml around the file,
    else the campaign the user stands in. Said when the name does not end in .yaml, when
    the file sits in a subfolder of the campaign, or outside it."""
    out = Path(output)
    shown = display_path(out)
    if out.suffix.lower() not in {".yaml", ".yml"}:
        stem = out.name[: -len(out.suffix)] if out.suffix else out.name
        meant = stem if stem.lower().endswith((".yaml", ".yml")) else f"{stem}.yaml"
        return f"{shown} does not end in .yaml, so a build will not read it; name it {meant}"
    if out.stem.lower() == "booklet":  # booklet.yaml holds the booklet, booklet.yml nothing
        return (
            f"{shown} is the booklet's own file, so a build reads no entries from it;"
            " choose another name"
        )
    folder = out.absolute().parent
    root = _path(campaign) or _settings_above(folder)
    if root is None and _holds_definitions(folder, besides=out.name):
        return None  # a campaign without settings: the file joins it
    root = root or _here()
    if root is None:
        return None  # no campaign here: the file is for the user to place
    if not root.is_dir():
        root = root.parent
    real, base = Path(os.path.realpath(folder)), Path(os.path.realpath(root))
    if real == base:
        return None
    moved = display_path(root / out.name)
    if base in real.parents:
        return (
            f"{shown} is in a subfolder of the campaign, and a build reads only the YAML files"
            f" directly in the campaign folder; write it as {moved}"
        )
    named = display_path(root)
    return (
        f"{shown} is outside the campaign ({'this folder' if named == '.' else named}), so a"
        f" build of it will not read it; write it as {moved}"
    )


def write_output(path: PathLike, data: bytes, force: bool = False) -> None:
    """Write a file the user named (atomically, never through a link). Without ``force``,
    an existing file is refused: it may hold a GM's edits. Raises :class:`CannotWrite`."""
    path = Path(path)
    shown = display_path(path)
    if not force and path.exists() and not path.is_symlink():  # a link: the writer refuses
        raise CannotWrite(shown, "exists; it may hold a GM's edits. Use --force to replace it")
    write_file(path, data, shown=shown)


def import_stat_blocks(text_file: PathLike) -> ImportResult:
    """Stat blocks read from a text file in the books' format (or wiki HTML, or its feed
    of revisions). Raises :class:`CannotRead`."""
    from .definitions.files import NotText, RefusedFile, read_text_capped
    from .definitions.importer import read_stat_blocks

    text_file = Path(text_file)
    shown = display_path(text_file)
    try:
        text = read_text_capped(text_file)
    except FileNotFoundError:
        raise CannotRead(shown, "no such file") from None
    except UnicodeDecodeError as err:
        # NotText already says on which line and column, and what to do.
        why = (
            f"line {err.line}: {err.message}"
            if isinstance(err, NotText)
            else f"not UTF-8 text (byte {err.start})"
        )
        raise CannotRead(shown, why) from None
    except (OSError, RefusedFile) as err:
        why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CannotRead(shown, why) from None
    return read_stat_blocks(text, shown)


def definitions_yaml(result: ImportResult) -> str:
    """Imported stat blocks as a definitions file."""
    from .definitions.importer import dump_definitions

    return dump_definitions(result.definitions)


def json_schema(kind: Literal["definitions", "settings", "stats"]) -> dict[str, Any]:
    """The JSON Schema editors use to check a campaign's YAML files or scratchpress.toml,
    or the one ``stats --json`` output follows (``"stats"``)."""
    from .definitions.schema import SCHEMAS

    schema: dict[str, Any] = SCHEMAS[kind]()
    return schema


def new_campaign(
    folder: PathLike,
    from_example: bool = False,
    *,
    language: str | None = None,
    paper: str | None = None,
    units: str | None = None,
) -> list[str]:
    """Start a campaign in ``folder`` (new or empty): a starter of small commented files,
    or a copy of the example; with the editor schemas beside them. ``language``, ``paper``
    and ``units`` are written into its settings (paper and units follow the language when
    not given). Returns the files written. Raises :class:`CannotWrite`."""
    from .content.starters import campaign_files, with_choices

    folder = Path(folder)
    shown = safe_text(str(folder), None)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise CannotWrite(shown, "a file or link is in the way")
    if folder.is_dir() and any(folder.iterdir()):
        raise CannotWrite(shown, "not empty; give a new folder name (nothing was written)")
    files = with_choices(campaign_files(from_example), language, paper, units)
    files.update(
        {
            f".scratchpress/{kind}.schema.json": json.dumps(json_schema(kind), indent=2).encode()
            for kind in ("definitions", "settings")
        }
    )
    for name, data in files.items():
        write_file(folder / name, data, folder, shown=display_path(folder / name))
    return list(files)


def init_theme(campaign: PathLike, force: bool = False) -> ThemeInit:
    """Copy the default templates and stylesheets into ``campaign``/theme/, to edit."""
    campaign = Path(campaign)
    from .render.theme import init_theme as init

    if not campaign.is_dir():
        raise CannotWrite(display_path(campaign), "no such folder")
    return init(campaign, force)


def stop_rendering() -> bool:
    """Ask a running build's render workers to stop (a signal handler's job: Ctrl-C or
    SIGTERM); what is finished is kept. Returns True when the build is in the middle of
    writing a file and its announcement: then the handler returns, and the build raises
    ``KeyboardInterrupt`` itself once that step is done (the count it reports and the
    lines it printed agree). False: the handler raises it now."""
    from .render.files import stop_waits
    from .render.pool import STOP

    STOP.set()
    return stop_waits()


def bundled_folders() -> list[Path]:
    """Our own templates and fonts: what every build also depends on."""
    from .resources import fonts_dir, templates_dir

    return [templates_dir(), fonts_dir()]


# -------------------------------------------------------------------- virtual tabletops


@dataclass(frozen=True)
class Exported:
    """What an export wrote: the folder, each file in it (relative, in the order written)
    and the warnings a GM should hear (a portrait that could not be used)."""

    folder: Path
    files: list[str]
    problems: list[Problem]
    module: str | None = None  # Foundry only: the module's id, its folder under Data/modules


def _write_export(output: PathLike, files: Mapping[str, bytes], force: bool) -> list[str]:
    """Write ``files`` into the folder ``output``, all or (when one already exists and
    ``force`` is off) none: an earlier export may hold a GM's edits. Raises
    :class:`UsageError` for a file in the way, :class:`InputError` when ``output`` is a
    file, :class:`CannotWrite` when the disk says no."""
    out = Path(output)
    if out.exists() and not out.is_dir():
        raise InputError(
            [Problem("-o: not a folder (an export writes a folder of files)", str(out))]
        )
    if not force:
        taken = [name for name in files if (out / name).exists() or (out / name).is_symlink()]
        if taken:
            more = f" (and {len(taken) - 1} more of the files to write)" if len(taken) > 1 else ""
            raise UsageError(
                f"{display_path(out / taken[0])} exists{more}; it may hold a GM's edits."
                " Use --force to replace, or choose another folder"
            )
    for name, data in files.items():
        write_file(out / name, data, out, shown=display_path(out / name))
    return list(files)


def export_foundry(opened: Opened, output: PathLike, force: bool = False) -> Exported:
    """Foundry VTT (version 12, Simple Worldbuilding 0.8.2) files in the folder ``output``:
    an actor file per character, minion group and vehicle (``actors/``), the same actors
    as compendium sources for Foundry's packing tool (``packs/actors/_source/``),
    ``module.json`` and the tokens the actors show (``tokens/``). docs/vtt.md says how to
    import them. Raises :class:`InputError` for a campaign whose numbers would be wrong,
    :class:`UsageError` when a file exists and ``force`` is off."""
    from .export.entries import entries
    from .export.foundry import foundry_files, module_id
    from .export.tokens import token_files

    _refuse_blocking(opened)
    found = entries(opened.computed)
    tokens, problems = token_files(found, opened.campaign)
    files = {**foundry_files(opened.campaign, opened.computed, found), **tokens}
    written = _write_export(output, files, force)
    return Exported(Path(output), written, problems, module_id(opened.campaign))


def export_encounters(opened: Opened, output: PathLike, force: bool = False) -> Exported:
    """Improved Initiative import files in the folder ``output``: ``party.json``, one
    per other side of the campaign (``groups/``), one per Resilience encounter
    (``encounters/``) and ``all.json`` with everything, for one import. Raises as
    :func:`export_foundry` does."""
    from .export.improved_initiative import improved_initiative_files

    _refuse_blocking(opened)
    files = improved_initiative_files(opened.campaign, opened.computed)
    return Exported(Path(output), _write_export(output, files, force), [])


def export_tokens(opened: Opened, output: PathLike, force: bool = False) -> Exported:
    """A round token per character, minion group and vehicle, 256 and 512 pixels wide,
    in ``output``/tokens/: the portrait in a ring of its side's colour, else its
    initials. A portrait that cannot be used is a warning, and its token shows the
    initials. Raises as :func:`export_foundry` does."""
    from .export.entries import entries
    from .export.tokens import token_files

    _refuse_blocking(opened)
    files, problems = token_files(entries(opened.computed), opened.campaign)
    return Exported(Path(output), _write_export(output, files, force), problems)


# ------------------------------------------------------------------ live preview


def page_images(pdf: bytes, dpi: int = 110, pages: Sequence[int] | None = None) -> list[bytes]:
    """Pages of ``pdf`` (``pages``, counted from 1; default all) as PNG bytes, made in
    memory (``scratchpress preview`` shows them). Compressed lightly: a page on screen a
    moment after a save matters more here than the size of a file nobody keeps. pdfium
    is not thread-safe: call this from one thread at a time."""
    from .render.png import page_images as images

    return images(pdf, dpi, list(pages) if pages is not None else None)


def source_files(found: Found) -> dict[str, Path]:
    """The files a campaign is made from, keyed as its problems and source links name them
    (``party.yaml``): its definitions, its settings and its booklet. Whatever shows a
    campaign's source shows these and nothing else."""
    from .definitions.files import campaign_files, inside

    root, files = campaign_files(found.paths)
    if root is not None:
        files += [root / SETTINGS_FILE, root / "booklet.yaml"]
    return {
        display_path(file): file.resolve()
        for file in files
        if file.is_file() and (root is None or inside(file, root))
    }


def preview_folder(found: Found) -> Path:
    """A private folder in the user's cache for a campaign's preview builds: their PDFs
    carry source links, so they never go where the campaign's printable output goes."""
    import hashlib

    from .render.cache import user_cache_base

    key = hashlib.sha256(str(found.root.resolve()).encode()).hexdigest()[:16]
    folder = user_cache_base() / "preview" / key
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def source_anchors(pdf: bytes) -> list[list[dict[str, Any]]]:
    """Per page of a PDF built with ``build(..., preview=True)``, each number's source
    link: ``x``, ``y``, ``width``, ``height`` as fractions of the page from its top-left
    corner, and the ``file``, ``line`` (an int, or None), ``entry``, ``field`` and
    ``trace`` (the ``--explain`` line) it names. Empty lists for a printed PDF."""
    from .render.anchors import source_anchors as read_anchors

    return read_anchors(pdf)
