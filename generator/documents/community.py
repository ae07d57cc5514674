"""Resilience community sheets: one PDF per community, two pages.

Why one module of ~600 lines: the community sheet and the GM's year sheets are the two
printables of a community's year and share one page geometry (margin, ruled-row pitch,
page height) and the defenses' titles, each written once here.

Page 1 is the community itself, the page that stays on the table all campaign: its name,
the three E's as large numbers with what each one defends against, the creation check,
and the project rules (size by number of players, the difficulty formula and a ready
reckoner). Page 2 is the paperwork of play: a project worksheet filled in for the
projects already logged, with ruled rows for the rest, and the year-by-year history.

Two separate pages rather than one duplex sheet, so the GM can lay them side by side (the
worksheet is filled in while looking at the rules) and print a fresh worksheet page each
year without reprinting the sheet.

How the numbers move over time (``project_ledger``): the definition's economy, environment
and equity are the community as founded. Logged projects are applied in year order (YAML
order within a year) from there; a ``history:`` row states the values at the end of its
year, so any value it gives replaces the running one. The year runs in the rules' order:
the event first, so a history row's ``damage`` (what the event took) comes off before the
year's projects, whose sacrifices are checked against what is left; the GM's ``bonus`` comes
after them. The community "now" is the result of all of that. The reading is the rules'
(``rules.community.review_log``), shared with `check`: the worksheet flags exactly what
`check` reports, and no defense is ever shown below 0.

This module also builds the GM's year sheets that ``scratchpress resilience draw -o``
writes (``year_sheets_context``): one page per drawn event, the event in full and boxes
for the attack roll, the challenge, the decision, the encounter and the three E's.

Everything the templates print is formatted here; the templates only lay it out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..definitions.campaign import Campaign
from ..definitions.models import BuildOptions, CommunityDef, HistoryYear, ProjectLog, level_and_note
from ..definitions.resilience_models import (
    THREAT_DEFENSE,
    THREATS,
    Event,
    Mark,
    marks_bonus,
    memories_held,
)
from ..render.names import unique_stems
from ..rules.community import (
    CREATION_MAX,
    CREATION_MIN,
    CREATION_POINTS,
    DEFENSES,
    PROJECT_SIZES,
    SUCCESS_AT,
    LogFinding,
    ProjectPlan,
    Result,
    YearlyAttack,
    project_difficulty,
    review_log,
    yearly_attack,
)
from ..rules.community import project_result as project_result  # the booklets' worksheet
from ..statblocks import Block, Computed
from ..typesetting.paper import PAPER_MM
from ..wording import N_, _, ngettext, pgettext
from . import terms
from .base import Document, page_context
from .common import signed

KIND = "community"
TEMPLATE = "community/community.html"

PAGE_MARGIN_MM = 11.0  # 5 mm clear of the 6 mm printer-safe line, a little roomier than 12
ROW_MM = 7.5  # write-in rows: the brief asks for at least 7 mm between lines
ROW_RULE_MM = 0.3  # each row's bottom rule adds to its pitch
# Height the worksheet page spends on everything but rows: its header, two table titles
# with their column heads, the gap between the tables, the footnote and some slack.
PAGE2_FIXED_MM = 46.0
# A logged row grows past ROW_MM when its text wraps to a third line; these rough
# characters-per-line figures (8.5 pt in the narrowest paper's columns) keep page 2 on one
# page by counting such rows as more than one.
LINE_MM = 3.6
CHARS_PER_LINE = {"project": 28, "change": 19, "event": 34, "note": 68}
# The flags under the worksheet (8 pt Lato across the page): a rough line length on the
# narrower paper, and the space above them and under each.
FLAG_CHARS_PER_LINE = 120
FLAGS_TOP_MM, FLAG_GAP_MM = 1.0, 0.5
HISTORY_ROWS_MIN = 8  # a campaign of eight years fits on the first print
BLANK_ROWS_MIN = 4  # a full log still leaves room for the next projects
TRACK_MAX = 20  # the defense tracks run 0-20: creation allows 15, the book's commune has 20
DIFFICULTY_GRID_DEVELOP = range(1, 6)
DIFFICULTY_GRID_SACRIFICE = range(0, 6)

# The defenses' titles and narrow-column abbreviations are the game's terms (terms.py);
# these names stay for the booklets' inserts, which word them with _().
TITLES = terms.DEFENSE_TITLES
SHORT = terms.DEFENSE_SHORT
# Our own one-line gloss of each E, after Resilience's "Create Your Community".
MEANS = {
    "economy": N_("Flexible, connected, quick to launch projects."),
    "environment": N_("Feeds itself now without robbing the next generation."),
    "equity": N_("Fairness and respect between people of every standing."),
}
YEAR_STEPS = (
    (N_("Event"), N_("drawn at random; the GM rolls against one of the three E's")),
    (N_("Encounter"), N_("the PCs face the event or its aftermath")),
    (N_("Development"), N_("survivors improve; the fallen are replaced")),
    (N_("Projects"), N_("players take turns; once one starts a project, everyone does")),
    (N_("Evaluation"), N_("the GM awards 2 bonus levels (or 1 + 1), or 1 if it went badly")),
)

if TYPE_CHECKING:
    pass


def defends_against(defense: str) -> list[str]:
    """The threats a defense stops, in the book's order: ``emergencies, breakdowns, ...``."""
    return [terms.threats(t) for t in THREATS if THREAT_DEFENSE[t] == defense]


def founding_defenses(definition: CommunityDef) -> dict[str, int]:
    return {d: level_and_note(getattr(definition, d))[0] for d in DEFENSES}


@dataclass(frozen=True)
class LedgerEntry:
    """One logged project, planned against the community as it stood at that moment."""

    index: int  # position in the community's ``projects:`` list
    log: ProjectLog
    plan: ProjectPlan  # its problems: every error `check` reports on this project
    result: Result
    before: dict[str, int]
    after: dict[str, int] | None  # None while the project is still unresolved


@dataclass(frozen=True)
class Ledger:
    entries: list[LedgerEntry]
    now: dict[str, int]
    players_known: bool
    findings: tuple[LogFinding, ...] = ()  # what `check` says of the log, in play order


def project_ledger(definition: CommunityDef) -> Ledger:
    """Every logged project in order, with the defenses before and after it (see module).
    The rules' review_log does the work, so the sheet says what `check` says."""
    review = review_log(
        founding_defenses(definition), definition.players, definition.projects, definition.history
    )
    entries = [
        LedgerEntry(p.index, definition.projects[p.index], p.plan, p.result, p.before, p.after)
        for p in review.projects
    ]
    return Ledger(entries, review.now, definition.players is not None, review.findings)


def current_defenses(definition: CommunityDef) -> dict[str, int]:
    """The community now: founding values, then logged projects and history (see module)."""
    return project_ledger(definition).now


def latest_year(definition: CommunityDef) -> int:
    """The last year anything was logged for, 0 before the first year is played."""
    years = [p.year for p in definition.projects] + [h.year for h in definition.history]
    return max(years, default=0)


# ---------------------------------------------------------------------------- view model


def minus(value: int) -> str:
    """Negative numbers with a true minus sign, as print sets them: ``−3``."""
    return str(value).replace("-", "−")


# A project's change to one defense, worksheet style: "+3 environment", "−1 economy".
CHANGE = {"+": N_("+%(levels)s %(defense)s"), "−": N_("−%(levels)s %(defense)s")}


def changes_words(changes: Mapping[Any, int], sign: str) -> str:
    return ", ".join(
        _(CHANGE[sign]) % {"levels": n, "defense": terms.defense(str(name))}
        for name, n in changes.items()
    )


def _track(value: int) -> list[list[dict[str, Any]]]:
    """Pencil boxes 0-20 in two rows; the current value is marked, 15+ is the goal zone.
    A last box takes a level past 20 (a lucky town develops past the book's 20): "+" to
    pencil it in, or the level itself once the log has reached it."""
    cells = [
        {
            "n": str(n),
            "current": n == value,
            "goal": n >= SUCCESS_AT,
            "zero": n == 0,
        }
        for n in range(TRACK_MAX + 1)
    ]
    past = value > TRACK_MAX
    cells.append({"n": str(value) if past else "+", "current": past, "goal": True, "zero": False})
    return [cells[:11], cells[11:]]


def _defense(definition: CommunityDef, name: str, now: int, changed: bool) -> dict[str, Any]:
    founded, note = level_and_note(getattr(definition, name))
    return {
        "key": name,
        "title": terms.defense_title(name),
        "value": str(now),
        "founded": _("founded at %(level)s") % {"level": founded} if changed else "",
        "note": note,
        "means": _(MEANS[name]),
        "against": defends_against(name),
        "track": _track(now),
        "off_track": now > TRACK_MAX or now < 0,
    }


def _upper_first(text: str) -> str:
    """``text`` with its first letter a capital (str.capitalize would lower the rest)."""
    return text[:1].upper() + text[1:]


def _creation(founding: Mapping[str, int]) -> dict[str, Any]:
    limits = {"points": CREATION_POINTS, "min": CREATION_MIN, "max": CREATION_MAX}
    rows: list[dict[str, Any]] = []
    broken: list[str] = []
    for name in DEFENSES:
        value = founding[name]
        ok = CREATION_MIN <= value <= CREATION_MAX
        said = {"defense": terms.defense(name), "value": value, **limits}
        if ok:
            verdict = pgettext("creation check", "pass")
        elif value < CREATION_MIN:
            verdict = _("under %(min)s") % limits
            broken.append(_("%(defense)s %(value)s is under %(min)s") % said)
        else:
            verdict = _("over %(max)s") % limits
            broken.append(_("%(defense)s %(value)s is over %(max)s") % said)
        rows.append(
            {"title": terms.defense_title(name), "value": str(value), "ok": ok, "verdict": verdict}
        )
    total = sum(founding.values())
    total_ok = total == CREATION_POINTS
    passed = total_ok and all(r["ok"] for r in rows)
    if not total_ok:
        broken.insert(0, _("the total is %(total)s, not %(points)s") % {"total": total, **limits})
    return {
        "rule": _("%(points)s points, each defense %(min)s–%(max)s") % limits,
        "rows": rows,
        "total": str(total),
        "total_ok": total_ok,
        "total_verdict": (
            pgettext("creation check", "pass") if total_ok else _("not %(points)s") % limits
        ),
        "passed": passed,
        "verdict": _("Passes the creation check.") if passed else _("Breaks the creation check."),
        "detail": (
            _("Founded by the book: %(points)s points shared, none under %(min)s or over %(max)s.")
            % limits
            if passed
            else _(
                "%(problems)s. Allowed on purpose — the book's own Happy Bunny Commune breaks"
                " it too — but the community starts outside the usual balance."
            )
            # The problems are separate clauses, one sentence: "The total is 31, not 30;
            # economy 3 is under 5".
            % {"problems": _upper_first("; ".join(broken))}
        ),
    }


def project_sizes(players: int | None) -> list[dict[str, Any]]:
    rows = []
    for count, size in PROJECT_SIZES.items():
        rows.append(
            {
                "players": str(count),
                "per_player": str(size.projects_per_player),
                "size": terms.project_size(size.size),
                "max": str(size.max_development),
                "group": str(count * size.projects_per_player * size.max_development),
                "current": count == players,
            }
        )
    return rows


def _difficulty_grid() -> dict[str, Any]:
    """Difficulty for every legal develop/sacrifice pair (sacrifice never exceeds develop)."""
    rows = []
    for developed in DIFFICULTY_GRID_DEVELOP:
        cells = []
        for sacrificed in DIFFICULTY_GRID_SACRIFICE:
            if sacrificed > developed:
                cells.append({"text": "", "auto": False, "blank": True})
                continue
            difficulty = project_difficulty(developed, sacrificed)
            cells.append(
                {
                    "text": (
                        pgettext("project difficulty", "auto")
                        if difficulty <= 1
                        else minus(difficulty)
                    ),
                    "auto": difficulty <= 1,
                    "blank": False,
                }
            )
        rows.append({"developed": str(developed), "cells": cells})
    return {"sacrificed": [str(s) for s in DIFFICULTY_GRID_SACRIFICE], "rows": rows}


def _worksheet_row(entry: LedgerEntry) -> dict[str, Any]:
    log, plan = entry.log, entry.plan
    after = entry.after
    return {
        "year": str(log.year),
        "player": log.player,
        "project": log.name,
        "develop": changes_words(log.develop, "+"),
        "sacrifice": changes_words(log.sacrifice, "−"),
        "difficulty": minus(plan.difficulty),
        "roll": str(log.roll) if log.roll is not None else "",
        "modifier": signed(log.modifier).replace("-", "−") if log.modifier else "",
        "result": terms.project_result(entry.result),
        "outcome": entry.result,  # the CSS class: which result, whatever the language
        "after": [str(after[d]) for d in DEFENSES] if after else ["", "", ""],
        "problems": list(plan.problems),
    }


def _history_row(row: HistoryYear) -> dict[str, Any]:
    def value(v: int | None) -> str:
        return "" if v is None else str(v)

    return {
        "year": str(row.year),
        "event": row.event,
        "defenses": [value(getattr(row, d)) for d in DEFENSES],
        "note": row.note,
    }


def _page_height(options: BuildOptions) -> float:
    # A millimetre short of the page area, so rounding never spills a rule onto a new page.
    return PAPER_MM[options.paper][1] - 2 * PAGE_MARGIN_MM - 1.0


def _rows_taken(texts: Mapping[str, str]) -> float:
    """How many ruled rows one logged row fills once its longest cell has wrapped."""
    lines = max(
        (-(-len(text) // CHARS_PER_LINE[column]) for column, text in texts.items()),
        default=1,
    )
    return max(ROW_MM, lines * LINE_MM + 1.0) / ROW_MM


def _flags_mm(flags: Sequence[str]) -> float:
    """Height of the flags under the worksheet: each wraps at FLAG_CHARS_PER_LINE."""
    if not flags:
        return 0.0
    lines = sum(-(-len(flag) // FLAG_CHARS_PER_LINE) for flag in flags)
    return FLAGS_TOP_MM + lines * LINE_MM + len(flags) * FLAG_GAP_MM


def _row_budget(
    options: BuildOptions,
    logged: list[dict[str, str]],
    history: list[dict[str, str]],
    flags: Sequence[str] = (),
) -> tuple[int, int]:
    """Blank worksheet and history rows that fill page 2 on this paper."""
    height = _page_height(options) - PAGE2_FIXED_MM - _flags_mm(flags)
    pitch = ROW_MM + ROW_RULE_MM
    total = int(height // pitch)
    used_logged = sum(_rows_taken(t) for t in logged)
    used_history = sum(_rows_taken(t) for t in history)
    history_blank = max(HISTORY_ROWS_MIN - len(history), BLANK_ROWS_MIN)
    worksheet_blank = int(total - used_logged - used_history - history_blank)
    return max(worksheet_blank, BLANK_ROWS_MIN), history_blank


def _defense_list(keys: Sequence[str]) -> str:
    """ "economy", "economy and equity": the defenses named in running text."""
    worded = [terms.defense(k) for k in keys]
    listed = worded[0] if worded else ""
    for more in worded[1:]:
        listed = _("%(list)s and %(item)s") % {"list": listed, "item": more}
    return listed


def _project_named(said: Mapping[str, Any]) -> str:
    """How a finding names a logged project: "Ben's Quarry", "Quarry", "project 3"."""
    player, name = said["player"], said["project"]
    if player and name:
        return _("%(player)s's %(project)s") % said
    if name:
        return str(name)
    if player:
        return _("%(player)s's project") % said
    return _("project %(number)s") % said


def _end_words(code: str, said: Mapping[str, Any]) -> str:
    """The community's end (rules.community._Review.ends), worded: fallen or won, and when."""
    when = said["when"]
    if code == "fallen":
        count = len(said["defenses"])
        args = {**said, "defenses": _defense_list(said["defenses"])}
        if when == "event":
            return (
                ngettext(
                    "%(defenses)s falls to 0 in year %(year)s, after the event: by the text's"
                    " tentative end, a community at 0 in any of the three E's has failed and the"
                    " game is over",
                    "%(defenses)s fall to 0 in year %(year)s, after the event: by the text's"
                    " tentative end, a community at 0 in any of the three E's has failed and the"
                    " game is over",
                    count,
                )
                % args
            )
        if when == "year end":
            return (
                ngettext(
                    "%(defenses)s falls to 0 in year %(year)s, at the end of the year: by the"
                    " text's tentative end, a community at 0 in any of the three E's has failed"
                    " and the game is over",
                    "%(defenses)s fall to 0 in year %(year)s, at the end of the year: by the"
                    " text's tentative end, a community at 0 in any of the three E's has failed"
                    " and the game is over",
                    count,
                )
                % args
            )
        return ngettext(
            "%(defenses)s falls to 0 in year %(year)s, after %(project)s: by the text's"
            " tentative end, a community at 0 in any of the three E's has failed and the"
            " game is over",
            "%(defenses)s fall to 0 in year %(year)s, after %(project)s: by the text's"
            " tentative end, a community at 0 in any of the three E's has failed and the"
            " game is over",
            count,
        ) % {**args, "project": _project_named(said)}
    if when == "event":
        return (
            _(
                "the community stands at %(level)s or more in all three E's in year %(year)s,"
                " after the event: by the text's tentative end, it has made it and the game is won"
            )
            % said
        )
    if when == "year end":
        return (
            _(
                "the community stands at %(level)s or more in all three E's in year %(year)s,"
                " at the end of the year: by the text's tentative end, it has made it and the"
                " game is won"
            )
            % said
        )
    return _(
        "the community stands at %(level)s or more in all three E's in year %(year)s,"
        " after %(project)s: by the text's tentative end, it has made it and the game is won"
    ) % {**said, "project": _project_named(said)}


def finding_words(found: LogFinding) -> str:
    """What the rules found in a community's log, in the build's language: its ``code``
    and ``args`` worded here, as `check` says ``message`` in English."""
    said = dict(found.args)
    code = found.code
    if code in ("fallen", "won"):
        return _end_words(code, said)
    if "defense" in said:
        said["defense"] = terms.defense(str(said["defense"]))
    if "size" in said:
        said["size"] = terms.project_size(str(said["size"]))
    if code == "not_a_defense":
        return _("%(name)s is not a defense; use economy, environment or equity") % said
    if code == "develops_nothing":
        return _("a project must develop at least 1 level")
    if code == "develops_too_much":
        return (
            _(
                "a %(size)s project develops at most %(most)s levels, this one develops"
                " %(developed)s"
            )
            % said
        )
    if code == "sacrifices_developed":
        return _("cannot sacrifice %(defense)s, the defense this project develops") % said
    if code == "sacrifices_too_much":
        return _("sacrifices %(sacrificed)s levels, more than the %(developed)s it develops") % said
    if code == "sacrifices_lacking":
        return _("cannot sacrifice %(levels)s %(defense)s: the community only has %(has)s") % said
    if code == "bonus_too_large":
        return (
            _(
                "the GM's bonus is %(bonus)s levels; the evaluation gives at most %(most)s (2 to"
                " one defense or 1 to each of two, only 1 after a poor year)"
            )
            % said
        )
    if code == "starts_too_many":
        if said["players"] is None:
            return (
                _(
                    "%(player)s starts a project too many in year %(year)s: no player starts more"
                    " than %(each)s a year"
                )
                % said
            )
        return (
            ngettext(
                "%(player)s starts a project too many in year %(year)s: with %(players)s player"
                " each starts %(each)s a year",
                "%(player)s starts a project too many in year %(year)s: with %(players)s players"
                " each starts %(each)s a year",
                said["players"],
            )
            % said
        )
    if code == "players_too_many":
        return (
            _(
                "%(player)s is player %(number)s to start a project in year %(year)s, but"
                " players: is %(players)s"
            )
            % said
        )
    return found.message  # a finding the printables have no words for yet


def flags(definition: CommunityDef, ledger: Ledger) -> list[str]:
    """The worksheet's flags: one line for each thing `check` says of the log, in play
    order, led by the year and the project or history row it is about."""
    lines = []
    for found in ledger.findings:
        what, index = found.where[0], found.where[1]
        said = {"year": found.year, "finding": finding_words(found)}
        if what == "projects" and isinstance(index, int):
            log = definition.projects[index]
            label = log.name or log.player or _("project %(number)s") % {"number": index + 1}
            lines.append(_("Year %(year)s, %(project)s: %(finding)s") % {**said, "project": label})
        else:
            lines.append(_("Year %(year)s: %(finding)s") % said)
    return lines


def _players_line(players: int | None) -> str:
    """ "4 players: 1 large project each, up to 5 levels", the group's row in words."""
    size = PROJECT_SIZES.get(players) if players is not None else None
    if size is None or players is None:
        return _("Players not set: add players: to the community to mark your row.")
    each = size.projects_per_player
    return ngettext(
        "%(players)s: %(num)s %(size)s project each, up to %(levels)s levels",
        "%(players)s: %(num)s %(size)s projects each, up to %(levels)s levels",
        each,
    ) % {
        "players": ngettext("%(num)s player", "%(num)s players", players) % {"num": players},
        "num": each,
        "size": terms.project_size(size.size),
        "levels": size.max_development,
    }


def community_view(block: Block, options: BuildOptions) -> dict[str, Any]:
    definition: CommunityDef = block.definition
    ledger = project_ledger(definition)
    founding = founding_defenses(definition)
    year = latest_year(definition)
    changed = ledger.now != founding
    flagged = flags(definition, ledger)
    blank_projects, blank_history = _row_budget(
        options,
        [
            {
                "project": e.log.name,
                "change": max(
                    changes_words(e.log.develop, "+"), changes_words(e.log.sacrifice, "−"), key=len
                ),
            }
            for e in ledger.entries
        ],
        [{"event": h.event, "note": h.note} for h in definition.history],
        flagged,
    )
    players = definition.players
    return {
        "name": block.name,
        "description": block.description,
        "standing": _("after year %(year)s") % {"year": year}
        if changed and year
        else _("as founded"),
        "defenses": [_defense(definition, d, ledger.now[d], changed) for d in DEFENSES],
        "creation": _creation(founding),
        "players": str(players) if players is not None else "",
        "players_count": players or 0,
        "players_line": _players_line(players),
        "sizes": project_sizes(players),
        "grid": _difficulty_grid(),
        "steps": [{"title": _(t), "text": _(x)} for t, x in YEAR_STEPS],
        "worksheet": [_worksheet_row(e) for e in ledger.entries],
        "worksheet_blank": list(range(blank_projects)),
        "flagged": flagged,
        "history": [_history_row(h) for h in sorted(definition.history, key=lambda h: h.year)],
        "history_blank": list(range(blank_history)),
        "defense_heads": [terms.defense_short(d) for d in DEFENSES],
        "warnings": list(block.warnings),
    }


def documents(computed: Computed, campaign: Campaign, options: BuildOptions) -> list[Document]:
    blocks = computed.of_kind("community")
    stems = unique_stems([b.name for b in blocks], prefix="community-")
    return [
        Document(
            kind=KIND,
            title=block.name,
            stem=stems[block.name],
            template=TEMPLATE,
            context={
                "page": page_context(options),
                "title": _("%(name)s — community sheet") % {"name": block.name},
                "margin": f"{PAGE_MARGIN_MM:g}mm",
                "row": f"{ROW_MM:g}mm",
                "community": community_view(block, options),
            },
        )
        for block in blocks
    ]


# ---------------------------------------------------------------- GM year sheets (draw -o)

YEAR_TEMPLATE = "community/year.html"
ENCOUNTER_LINES_MIN = 5  # as tall as the three E's table beside them
YEAR_TABLE_LINES = 7  # ruled lines the three E's table and the notes label stand beside
# Rough page geometry of a year sheet (mm), to give each event as many ruled encounter lines
# as its page has room for. The CLI re-renders with fewer if a page still overflows.
YEAR_FIXED_MM = 106.0  # header, stat strip, plates, both record lines, labels and footer
YEAR_RIGHT_MM = 76.0  # width of the challenge and decision column
MM_PER_CHAR = {10.0: 1.75, 9.5: 1.66, 9.0: 1.58}  # average Charis SIL advance by size
LINE_HEIGHT_MM = {10.0: 4.95, 9.5: 4.5, 9.0: 4.15}


def _text_mm(text: str, width_mm: float, size: float) -> float:
    per_line = max(1, int(width_mm / MM_PER_CHAR[size]))
    words, lines, used = text.split(), 1, 0
    for word in words:
        if used and used + 1 + len(word) > per_line:
            lines, used = lines + 1, len(word)
        else:
            used += len(word) + (1 if used else 0)
    return lines * LINE_HEIGHT_MM[size]


def encounter_lines(event: Event, options: BuildOptions) -> int:
    """Ruled lines that fill the rest of this event's page (an estimate; see YEAR_FIXED_MM)."""
    width = PAPER_MM[options.paper][0] - 2 * PAGE_MARGIN_MM
    left_w = width - YEAR_RIGHT_MM - 5.0
    left = (
        _text_mm(event.story, left_w, 10.0)
        + _text_mm(event.temporary, left_w - 5, 9.5)
        + _text_mm(event.encounter, left_w, 9.5)
        + 26.0
    )
    right_w = YEAR_RIGHT_MM - 6.0
    right = (
        _text_mm(event.challenge.success, right_w, 9.0)
        + _text_mm(event.challenge.failure, right_w, 9.0)
        + _text_mm(event.decision.prompt, YEAR_RIGHT_MM, 9.5)
        + sum(
            _text_mm(f"{c.choice}. {c.consequence}", right_w, 9.0) + 1.2
            for c in event.decision.choices
        )
        + 24.0
    )
    room = _page_height(options) - YEAR_FIXED_MM - max(left, right)
    return max(ENCOUNTER_LINES_MIN, int(room // ROW_MM))


# The three E's table of a year sheet: (key, label, hint); "before" and "after" are totals.
YEAR_LEDGER_ROWS = (
    ("before", N_("Before"), N_("as the year began")),
    ("event", N_("Event"), N_("the attack, the decision and the challenge")),
    ("projects", N_("Projects"), N_("from the project worksheet")),
    ("evaluation", N_("Evaluation"), N_("the GM's bonus levels")),
    ("after", N_("After"), N_("copy to the history")),
)


def _attack_why(attack: YearlyAttack) -> tuple[str, str]:
    """What the year adds to the card's bonus and damage, in words ("card +5, year 4 +3"),
    each "" when the year adds nothing to it."""
    harder = attack.harder
    said = {"year": attack.year, "card_bonus": attack.card_bonus, "card_damage": attack.card_damage}
    bonus = (
        _("card +%(card_bonus)s, year %(year)s +%(added)s") % {**said, "added": harder.attack_bonus}
        if harder.attack_bonus
        else ""
    )
    damage = (
        _("card %(card_damage)s, year %(year)s +%(added)s") % {**said, "added": harder.damage}
        if harder.damage
        else ""
    )
    return bonus, damage


def _year_view(
    year: int,
    event: Event,
    before: Mapping[str, int] | None,
    community: str,
    lines: int,
    page: int | None = None,
    held: Mapping[str, Mark] | None = None,
) -> dict[str, Any]:
    challenge = event.challenge
    attack = yearly_attack(event.attack_bonus, event.damage, year)
    bonus_why, damage_why = _attack_why(attack)
    held = held or {}
    remembered = memories_held(event, held)
    extra = marks_bonus(event, held)
    if extra:
        marks_why = _("marks %(bonus)s") % {"bonus": signed(extra)}
        bonus_why = f"{bonus_why}; {marks_why}" if bonus_why else marks_why
    attacks = terms.defense(event.attacks)
    return {
        "year": str(year),
        "community": community,
        "title": event.title,
        "id": event.id,
        "threat": terms.threat(event.threat),
        "attacks": attacks,
        "attacks_title": terms.defense_title(event.attacks),
        # The attack as it stands this year: the card's numbers and the harder years'.
        "bonus": signed(attack.bonus + extra),
        "damage": str(attack.damage),
        "damage_line": ngettext(
            "level of %(defense)s on a hit", "levels of %(defense)s on a hit", attack.damage
        )
        % {"defense": attacks},
        "bonus_why": bonus_why,
        "damage_why": damage_why,
        "story": event.story,
        "temporary": event.temporary,
        # The lines the history's marks call up: an earlier answer is remembered.
        "remembered": [
            {
                "mark": held[m.mark].name,
                "text": m.text,
                "attack": _("attack bonus %(bonus)s") % {"bonus": signed(m.attack_bonus)}
                if m.attack_bonus
                else "",
            }
            for m in remembered
        ],
        "challenge": {
            "ability": terms.ability(challenge.ability),
            "difficulty": str(challenge.difficulty),
            "success": challenge.success,
            "failure": challenge.failure,
        },
        "decision": {
            "prompt": event.decision.prompt,
            "choices": [
                {
                    "choice": c.choice,
                    "consequence": c.consequence,
                    "leaves": c.leaves.name if c.leaves else "",
                }
                for c in event.decision.choices
            ],
        },
        # How the community takes its decision (examples' booklet, "The year, step by step").
        "council": _(
            "Council: each player speaks once, then all vote; a tie goes to the player whose"
            " career favors %(defense)s, else to whoever rolled the challenge. An answer that"
            " costs a player's favored defense now gives that player +1 on this year's project."
        )
        % {"defense": attacks},
        "encounter": event.encounter,
        # Where the GM finds the opponents' stat blocks and the encounter's stakes.
        "opponents": (
            _("Opponents and stakes: encounters.pdf, page %(page)s") % {"page": page}
            if page is not None
            else ""
        ),
        "encounter_lines": list(range(lines)),
        # Beside the encounter lines, under the three E's table (about six lines tall).
        "note_lines": list(range(max(0, lines - YEAR_TABLE_LINES))),
        "ledger_heads": [terms.defense_title(d) for d in DEFENSES],
        "ledger": [
            {
                "label": _(label),
                "hint": _(hint),
                "cells": (
                    [str(before[d]) for d in DEFENSES]
                    if key == "before" and before is not None
                    else ["", "", ""]
                ),
                "total": key in ("before", "after"),
            }
            for key, label, hint in YEAR_LEDGER_ROWS
        ],
    }


def year_sheets_context(
    numbered: Sequence[tuple[int, Event]],
    community: CommunityDef | None,
    now: Mapping[str, int] | None,
    options: BuildOptions,
    fewer_lines: int = 0,
    pages: Mapping[str, int] | None = None,
    held: Mapping[str, Mark] | None = None,
) -> dict[str, Any]:
    """View model for the GM's year sheets: one page per drawn event. ``pages``: event id
    -> the page of encounters.pdf with its opponents.

    Only the first year's "before" is known in advance (the community now); later years
    start wherever play leaves them, so their rows are left to pencil. ``fewer_lines``
    takes ruled lines off every page, for a retry when an estimate ran over a page.
    """
    name = community.name if community is not None else ""
    return {
        "page": page_context(options),
        "title": _("Resilience year sheets"),
        "margin": f"{PAGE_MARGIN_MM:g}mm",
        "years": [
            _year_view(
                year,
                event,
                now if index == 0 else None,
                name,
                max(ENCOUNTER_LINES_MIN, encounter_lines(event, options) - fewer_lines),
                (pages or {}).get(event.id),
                held,
            )
            for index, (year, event) in enumerate(numbered)
        ],
    }


def year_sheets_document(
    numbered: list[tuple[int, Event]],
    community: CommunityDef | None,
    now: dict[str, int] | None,
    options: BuildOptions,
    file_name: str,
    fewer_lines: int = 0,
    pages: Mapping[str, int] | None = None,
    held: Mapping[str, Mark] | None = None,
) -> Document:
    """The GM's year sheets as one document, one page per drawn event, written as
    ``file_name``. ``fewer_lines`` takes ruled lines off every page, for a retry when the
    estimate ran over a page."""
    return Document(
        kind="year-sheets",
        title=_("Resilience year sheets"),
        stem="year-sheets",
        template=YEAR_TEMPLATE,
        context=year_sheets_context(numbered, community, now, options, fewer_lines, pages, held),
        file_name=file_name,
    )
