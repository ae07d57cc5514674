"""A roster page's geometry for a paper size, and the millimetres of every part of a block:
the numbers the heights are counted in and the template's CSS is given (as strings), so
each is written once."""

from __future__ import annotations

from dataclasses import dataclass

from ...typesetting.paper import PAPER_MM
from ...typesetting.units import mm
from .measuring import TEXT_PT, text_mm

# Page geometry (mm). The running header and footer live in the page margins.
MARGIN_TOP = 15.0
MARGIN_BOTTOM = 13.0
MARGIN_SIDE = 11.0
COLUMN_GAP = 6.0
SLACK = 1.0  # left unused at the foot of every column, against rounding in the renderer

# Type and rhythm (mm). Every line of a block is LINE tall (see measuring.TEXT_PT).
LINE = 3.8
HANG = 4.4  # ability lines: the level sits in this hanging indent
BLOCK_PAD_TOP = 1.5
BLOCK_PAD_BOTTOM = 1.7
RULE = 0.25  # the hairline under each block (0.7 pt)
BOX = 4.2  # HP and tick boxes: pencil-sized
BOX_GAP = 0.8
PITCH = BOX + BOX_GAP
TRACK = 5.4  # one row of boxes, with its top margin
HP_LABEL = 6.0
TICK_W = 4.8
INIT_W = 15.0
MINION_INDENT = 3.6
MINION_GAP = 1.2  # above each minion group
INSTANCE_GAP = 3.0  # between the tracks of two identical minions on one row
INSTANCE_LABEL = 4.0
HEAD_H = 8.6  # group heading: band plus the space under it
CONT_H = 6.6  # "cont." heading at the top of a later column
TITLE_H = 17.0  # page 1: the roster's title block
NOTE_GAP = 1.6  # under a heading's line of text (an encounter's), above its first block
NOTE_INSET = 1.8  # that text lines up with the heading's name, inside the band's padding
BONUS_W = 34.0  # room the heading keeps at its right for "GROUP INITIATIVE +38"
HEAD_PAD = 1.8  # the heading band's padding at each side
HEAD_PT, HEAD_SMALL_PT = 14.0, 12.0  # a heading name too long at 14 pt sets at 12 pt


@dataclass(frozen=True)
class Geometry:
    paper: str
    page_w: float
    page_h: float
    content_w: float
    content_h: float
    column_w: float
    hang: float = 0.0  # the ability lines' hanging indent: room for the widest level

    @property
    def ability_w(self) -> float:
        return self.column_w - self.hang

    @property
    def minion_w(self) -> float:
        return self.column_w - MINION_INDENT


LEVEL_PAD = 1.2  # between a level and its ability name, beside the space


def hang_for(widest_level: int) -> float:
    """A hanging indent that holds the widest level ("4", or "40" in a super-powered game)."""
    digits = text_mm(str(widest_level), "bold") + LEVEL_PAD + text_mm(" ", "regular") + 0.3
    return max(HANG, round(digits, 2))


def geometry(paper: str, widest_level: int = 9) -> Geometry:
    page_w, page_h = PAPER_MM[paper]
    content_w = page_w - 2 * MARGIN_SIDE
    content_h = page_h - MARGIN_TOP - MARGIN_BOTTOM
    return Geometry(
        paper,
        page_w,
        page_h,
        content_w,
        content_h,
        (content_w - COLUMN_GAP) / 2,
        hang_for(widest_level),
    )


def css_metrics(g: Geometry) -> dict[str, str]:
    """The numbers the template's CSS uses: the same ones the heights below assume."""
    values = {
        "margin_top": MARGIN_TOP,
        "margin_bottom": MARGIN_BOTTOM,
        "margin_side": MARGIN_SIDE,
        "column_w": g.column_w,
        "column_gap": COLUMN_GAP,
        "line": LINE,
        "hang": g.hang,
        "level_pad": LEVEL_PAD,
        "pad_top": BLOCK_PAD_TOP,
        "pad_bottom": BLOCK_PAD_BOTTOM,
        "box": BOX,
        "box_gap": BOX_GAP,
        "track": TRACK,
        "hp_label": HP_LABEL,
        "tick_w": TICK_W,
        "init_w": INIT_W,
        "minion_indent": MINION_INDENT,
        "minion_gap": MINION_GAP,
        "instance_gap": INSTANCE_GAP,
        "instance_label": INSTANCE_LABEL,
        "head_h": HEAD_H,
        "cont_h": CONT_H,
        "title_h": TITLE_H,
        "bonus_w": BONUS_W,
        "note_gap": NOTE_GAP,
        "note_inset": NOTE_INSET,
        "head_pad": HEAD_PAD,
    }
    out = {name: mm(value) for name, value in values.items()}
    out["text_pt"] = f"{TEXT_PT}pt"
    out["head_pt"], out["head_small_pt"] = f"{HEAD_PT:g}pt", f"{HEAD_SMALL_PT:g}pt"
    # The level's box fills the hanging indent less the space after it, so the text after
    # "2 " starts where continuation lines do.
    out["level_w"] = mm(g.hang - text_mm(" ", "regular"))
    out["rule"] = "0.7pt"  # = RULE mm
    return out
