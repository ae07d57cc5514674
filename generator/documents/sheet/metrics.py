"""The sheet's layout facts: each size written once, here, and handed to sheet.css.

The fit (layout.py) needs the type sizes, column widths and box sizes of the page to
estimate how tall it will set, and sheet.css needs the same numbers to set it; so they are
defined here and ``css`` gives them to the stylesheet as CSS lengths (sheet.css reads
``layout.*``). A number only the stylesheet uses (a border's width, a colour) stays there.

Heights below are in millimetres, measured on rendered sheets. Each estimate errs on the
tall side, and tests/documents/test_sheet.py renders the worst cases to prove the page
holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...typesetting.fonts import FACES
from ...typesetting.paper import PAPER_MM
from ...typesetting.units import MM_PER_PT, mm, mm_short, pt

# Our own page margin: 10 mm keeps everything 4 mm clear of the 6 mm printer-safe line while
# giving the sheet 4 mm more each way than base.css's 12 mm.
PAGE_MARGIN_MM = 10.0
# The sheet box is a little shorter than the page area so rounding never pushes a hairline
# onto a second page.
PAGE_SLACK_MM = 1.0
PORTRAIT_MM = (30.0, 40.0)  # 3:4, the shape of a head-and-shoulders picture
# Measured widths below are for Letter; narrower paper loses the difference.
LETTER_WIDTH_MM = PAPER_MM["letter"][0] - 2 * PAGE_MARGIN_MM

# The faces the estimates measure in, as sheet.css sets them.
NOTE_FACE = FACES["serif-italic"]  # ability notes, descriptions
EFFECT_FACE = FACES["serif"]  # an action's effect
LABEL_FACE = FACES["sans-bold"]  # ability names, the warning banner, flags
NAME_FACE = FACES["display"]  # names


@dataclass(frozen=True)
class Density:
    """One step of the type scale (a body class in sheet.css): the sizes the stylesheet
    sets at it and the row heights measured at those sizes."""

    name: str
    # Set by sheet.css at this step (its custom properties --body, --note ...).
    body_pt: float
    note_pt: float  # ability notes
    effect_pt: float  # an action's effect
    cell_pt: float  # an action's cells, an ability's name
    roll_pt: float  # the roll's figure
    main_pt: float  # the other figures of an action row
    pad: float  # an action cell's padding over and under
    gap: float  # between the page's blocks
    # Measured at this step.
    row_one: float  # an action row whose cells all hold one line
    row_two: float  # a row with a second line of effect text or a small caption
    row_line: float  # each further line of effect text
    row_ticks: float  # a row with tick boxes under the action's name
    row_target: float  # a row whose target takes a small second line (intimidate)
    row_other: float  # an action without a roll (evade, escape...), effect on one line
    ability_one: float  # an ability row of one line
    ability_line: float  # each further line of an ability row

    def css(self) -> dict[str, str]:
        """The step as sheet.css's custom properties read it."""
        return {
            "name": self.name,
            "body": pt(self.body_pt),
            "note": pt(self.note_pt),
            "effect": pt(self.effect_pt),
            "cell": pt(self.cell_pt),
            "roll": pt(self.roll_pt),
            "main": pt(self.main_pt),
            "pad": mm_short(self.pad),
            "gap": mm_short(self.gap),
        }


DENSITIES = (
    Density(
        "normal",
        body_pt=9.0,
        note_pt=8.5,
        effect_pt=8.0,
        cell_pt=9.0,
        roll_pt=11.5,
        main_pt=10.5,
        pad=0.85,
        gap=2.4,
        row_one=6.3,
        row_two=8.4,
        row_line=3.45,
        row_ticks=9.8,
        row_target=10.7,
        row_other=5.3,
        ability_one=5.7,
        ability_line=4.0,
    ),
    Density(
        "compact",
        body_pt=8.5,
        note_pt=8.0,
        effect_pt=7.6,
        cell_pt=8.5,
        roll_pt=10.5,
        main_pt=10.0,
        pad=0.55,
        gap=2.0,
        row_one=5.9,
        row_two=8.05,
        row_line=3.3,
        row_ticks=9.55,
        row_target=10.5,
        row_other=5.1,
        ability_one=5.3,
        ability_line=3.8,
    ),
    Density(
        "tight",
        body_pt=8.0,
        note_pt=7.4,
        effect_pt=7.0,
        cell_pt=7.8,
        roll_pt=9.0,
        main_pt=8.5,
        pad=0.25,
        gap=1.6,
        row_one=5.15,
        row_two=7.05,
        row_line=2.85,
        row_ticks=9.15,
        row_target=10.1,
        row_other=4.7,
        ability_one=5.0,
        ability_line=3.6,
    ),
)
ROOMY = DENSITIES[0]  # the back and the continuation page always have the roomiest type
# A crowded back keeps its text at the compact step's sizes (its frames are estimated with
# the compact row heights) but sets its figures smaller still.
BACK_COMPACT = DENSITIES[1]
BACK_COMPACT_FIGURES = {"roll_pt": 10.0, "main_pt": 9.5, "pad": 0.5}

# Names by size: (points, line height in mm).
NAME_TYPE = {
    "xl": (32.0, 11.3),
    "l": (27.0, 9.6),
    "m": (21.0, 7.5),
    "s": (16.0, 5.7),
    "xs": (12.0, 4.7),
}
MINION_NAME_TYPE = {"xl": (22.0, 8.0), "l": (22.0, 8.0), "m": (21.0, 7.5)} | {
    size: NAME_TYPE[size] for size in ("s", "xs")
}
# Description: (points, line height in mm) at each size. Up to two lines at the note size,
# three at a smaller one, and cut beyond (the sheet is not the backstory: that is what the
# description in the campaign file is for).
DESCRIPTION_TYPE = {"normal": (8.5, 3.8), "small": (7.5, 3.25)}
BANNER_PT = 8.5  # the warning banner's text
FLAG_PT = 7.0  # "above max 3" after an ability's name

# Widths, subtracted from the page's content width.
PANEL_INSET_MM = 4.9  # a panel's padding and frame, both sides
# The actions grid's fixed columns before "Effect" (two damage columns).
ACTION_COLUMN_MM = {"act": 25.0, "roll": 20.0, "vs": 22.0, "rng": 11.0, "dmg": 13.0}
ACTION_COLUMNS_MM = sum(ACTION_COLUMN_MM.values()) + ACTION_COLUMN_MM["dmg"]
# "Action" and "Roll": what a no-roll action's effect does not span.
ACTION_LEAD_MM = ACTION_COLUMN_MM["act"] + ACTION_COLUMN_MM["roll"]
ACTION_CELL_PAD_MM = 1.0  # an action cell's padding at each side
CELL_PADDING_MM = 2 * ACTION_CELL_PAD_MM
# The right column of the bottom row, and the gap beside and between its panels (the
# roomy gap, at every density).
SIDE_WIDTH_MM = 64.0
SIDE_GAP_MM = 2.4
SIDE_COLUMN_MM = SIDE_WIDTH_MM + SIDE_GAP_MM
ABILITY_GUTTER_MM = 6.5  # between two ability columns
ABILITY_LEVEL_MM = 7.4  # the level box's column
HEAD_PORTRAIT_MM = 34.0  # the header's columns: portrait, and three or one defense
HEAD_DEFENSES_MM = {3: 81.4, 1: 36.6}
DEFENSES_GAP_MM = 4.0  # kept clear between the identity and the defense boxes

# Heights.
ACTIONS_CHROME_MM = 20.0  # the actions panel's frame, title, grid head and footer line
HEAD_MIN_MM = PORTRAIT_MM[1] + 0.5
HEAD_FIXED_MM = 16.5  # the player line and the CP lines under the name and description
VITALS_MM = 22.5  # the health and initiative row with one row of HP boxes
BANNER_MM = 3.4  # the warning banner's frame ...
BANNER_LINE_MM = 4.2  # ... and each line of its text
BANNER_INSET_MM = 12.0
FOOT_MM = 4.2
# The footer: a rule, padding and 7 pt lines (at base.css's leading of 1.3).
FOOT_PT = 7.0
FOOT_RULE_PT = 0.5
FOOT_PAD_MM = 0.8
# The band the footer is given under the page's last row, as the flex column that laid the
# page out before allowed it: its rule, padding and two lines (the flex measured the
# footer's float on a line of its own). Keeping it keeps every bottom row where it was.
FOOT_BAND_MM = FOOT_RULE_PT * MM_PER_PT + FOOT_PAD_MM + 2 * FOOT_PT * 1.3 * MM_PER_PT
CATEGORY_MM = 5.1  # a category label with its rule and the space after its group
ABILITY_CHROME_MM = 9.5  # the abilities panel's title band and padding
# The right column: movement and carrying, each of a fixed height, then "Gear & notes"
# with at least three write-in lines, 7 mm apart under its 6 mm title band.
MOVEMENT_MM = 22.5
CARRY_MM = 24.0
SIDE_MM = 80.0
SIDE_TOP_MM = MOVEMENT_MM + SIDE_GAP_MM + CARRY_MM + SIDE_GAP_MM  # where "Gear & notes" starts
SIDE_CONDENSED_MM = 49.0  # movement and carrying only
# "Character development" under the abilities: its title band and two write-in lines.
DEVELOPMENT_MM = 21.6
# (Both least heights hold their lines whole: 5.6 mm to the first tile, 7 mm a line,
# 1.2 mm under the last, and the frame; sheet.css places the lines so.)
SAFETY_MM = 2.5

# Few hit points get big boxes; a long track gets smaller ones so it stays on one row as long
# as it can: (box size, boxes per row including the 0, height of a further row in mm).
HP_SIZES = (("l", 11, 8.0), ("m", 14, 6.6), ("s", 18, 5.2))
HP_BOXES_PER_ROW = {size: per_row for size, per_row, _ in HP_SIZES}
HP_ROW_MM = {size: row for size, _, row in HP_SIZES}

# The back, at the roomy type (see minions.back_fit).
BACK_HEAD_MM = 16.0  # "Minions of" and the leader's name, with the budget
BACK_NAME_MM = 100.0  # the width the leader's name has beside the budget
BACK_NOTES_MM = 30.0  # the "Minion notes" panel at its least
BLANK_FRAME_MM = 70.0  # a blank minion frame
FRAME_CHROME_MM = 14.0  # a minion frame's title band, padding and gaps
FRAME_NUMBERS_MM = 15.5  # the row of stat boxes
FRAME_ID_MM = 70.0  # the name and description beside the stat boxes
FRAME_ABILITIES_MM = 77.0  # the text of an ability in the left half of a frame
TRACK_MM = 8.0  # one HP track
LEGEND_MM = 4.5
ACTION_HEAD_MM = 5.0

# The continuation page, at the roomy type, as on the back.
MORE_HEAD_MM = 16.0  # "Notes, continued" over the character's name
MORE_PANEL_MM = 9.5  # a panel's title band, padding and frame
MORE_NAME_MM = 8.0  # a minion's name line
MORE_NOTES_MM = 30.0  # the write-in lines that fill the rest of the page, at their least

# Notes are cut (with an ellipsis, and printed whole on the continuation page) only when
# nothing else makes the page fit; these are the budgets tried, in characters per note.
NOTE_LIMITS = (160, 110, 80, 60, 45, 30)
MINION_NOTE_LIMITS: tuple[int | None, ...] = (None, 240, 160, 100, 60, 30)


@dataclass(frozen=True)
class Layout:
    """How the front is set: a step of the type scale, ability columns, note budget."""

    density: str = "normal"
    columns: int = 1
    note_limit: int | None = None  # None keeps notes whole; 0 drops them
    # Actions without a roll on one line; "Gear & notes" and "Character development" move
    # to the continuation page.
    condensed: bool = False


# From the roomiest to the most crowded; layout.fit takes the first that fits. Ability
# notes are shortened before the front gives up its write-in panels or the reminders of
# what evade, escape... do: a shortened note is still printed whole on the continuation
# page.
CANDIDATES = (
    *(Layout(d.name, columns) for d in DENSITIES for columns in (1, 2)),
    *(Layout("tight", 2, limit) for limit in NOTE_LIMITS),
    Layout("tight", 3, 0),
    Layout("tight", 3, 0, condensed=True),
)


def density(layout: Layout) -> Density:
    return next(d for d in DENSITIES if d.name == layout.density)


def front_fill(height_mm: float, layout: Layout) -> float:
    """How far the front's bottom row reaches from the top of the page: all of the page
    but the footer, the gap over it and, unless condensed, "Character development" and
    the gap over that."""
    below = density(layout).gap + FOOT_BAND_MM
    if not layout.condensed:
        below += density(layout).gap + DEVELOPMENT_MM
    return height_mm - below


def back_fill(height_mm: float) -> float:
    """The same for the back and the continuation page, which always have the roomy gap:
    their notes panel reaches down to the footer."""
    return height_mm - ROOMY.gap - FOOT_BAND_MM


def css(layout: Layout, width_mm: float, height_mm: float) -> dict[str, Any]:
    """Every length sheet.css takes from here, for this sheet's page and layout."""
    return {
        "margin": mm(PAGE_MARGIN_MM, 1),
        "width": mm(width_mm, 1),
        "height": mm(height_mm, 1),
        "portrait_w": mm(PORTRAIT_MM[0], 1),
        "portrait_h": mm(PORTRAIT_MM[1], 1),
        "bottom_min": mm(SIDE_CONDENSED_MM if layout.condensed else SIDE_MM, 1),
        "notes_min": mm(SIDE_MM - SIDE_TOP_MM, 1),
        "development": mm(DEVELOPMENT_MM, 1),
        # The page grid's fill cells: the height each page keeps above what sits under its
        # filling row, to the micrometre.
        "fill_front": mm(front_fill(height_mm, layout), 3),
        "fill_back": mm(back_fill(height_mm), 3),
        # The type scale, every step (the body's class picks the front's; the back and the
        # continuation page take the roomiest), and a crowded back's sizes.
        "scale": {d.name: d.css() for d in DENSITIES},
        "back_compact": {
            "note": pt(BACK_COMPACT.note_pt),
            "cell": pt(BACK_COMPACT.cell_pt),
            "roll": pt(BACK_COMPACT_FIGURES["roll_pt"]),
            "main": pt(BACK_COMPACT_FIGURES["main_pt"]),
            "pad": mm_short(BACK_COMPACT_FIGURES["pad"]),
        },
        "name_pt": {size: pt(points) for size, (points, _) in NAME_TYPE.items()},
        "minion_name_pt": {size: pt(points) for size, (points, _) in MINION_NAME_TYPE.items()},
        "description_small_pt": pt(DESCRIPTION_TYPE["small"][0]),
        "banner_pt": pt(BANNER_PT),
        "flag_pt": pt(FLAG_PT),
        "head_portrait": mm_short(HEAD_PORTRAIT_MM),
        "head_defenses": {count: mm_short(w) for count, w in HEAD_DEFENSES_MM.items()},
        "defenses": {count: mm_short(w - DEFENSES_GAP_MM) for count, w in HEAD_DEFENSES_MM.items()},
        "action_columns": {name: mm_short(w) for name, w in ACTION_COLUMN_MM.items()},
        "action_cell_pad": mm_short(ACTION_CELL_PAD_MM),
        "ability_level": mm_short(ABILITY_LEVEL_MM),
        "side_width": mm_short(SIDE_WIDTH_MM),
        "side_gap": mm_short(SIDE_GAP_MM),
        "movement": mm_short(MOVEMENT_MM),
        "carry": mm_short(CARRY_MM),
        "foot_pt": pt(FOOT_PT),
        "foot_rule": pt(FOOT_RULE_PT),
        "foot_pad": mm_short(FOOT_PAD_MM),
        "back_notes": mm_short(BACK_NOTES_MM),
        "more_notes": mm_short(MORE_NOTES_MM),
    }
