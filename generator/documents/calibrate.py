"""``scratchpress calibrate``: a two-page sheet that measures how far a printer shifts the
back of a duplex page, so card backs can be moved to land behind their fronts.

Two verniers, one per direction. The front carries combs of lines 11 mm apart; the back
carries combs of lines 10 mm apart, numbered -5..+5, printed where the front's combs show
through. Held to the light, one back line continues a front line straight: its number is
the offset in millimetres (halfway between two numbers when two lines are equally close).

Why it reads straight off: back line k sits at k x 10 mm from the middle plus the
printer's shift e; front lines sit at multiples of 11 mm. They meet where
k x 10 + e = k x 11, that is at k = e. A shift of more than 5.5 mm would meet the next
front line instead, which is why the scale stops at 5.

The numbers are what ``duplex_offset_mm`` wants, seen from the back: +dx means the back
came out shifted right, +dy shifted down; every back page is then moved the opposite way.
When an offset is already set, the back page is printed corrected and the reading is what
is left over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..definitions.models import BuildOptions, Paper
from ..wording import _, current
from .base import Document, page_context
from .cardsheet import Edge, Line, Rect, line_style, mm, paper_size, place

TEMPLATE = "calibrate/calibrate.html"
STEM = "duplex-calibration"

SCALE = 5  # the back's lines are numbered -5..+5 (mm)
FRONT_PITCH_MM = 11.0
BACK_PITCH_MM = 10.0  # 1 mm shorter: the vernier reads whole millimetres, halves between
TOOTH_MM = 9.0  # length of each comb line
ZERO_EXTRA_MM = 2.5  # the zero lines are longer, to find the middle at a glance
X_VERNIER_BELOW_MM = 78.0  # the dx vernier's meeting line, below the middle of the page
FRONT_PT = 0.75  # bolder on the front: it has to show through the paper
BACK_PT = 0.5
MINUS = "\u2212"

Axis = Literal["x", "y"]


@dataclass(frozen=True)
class CalibrationOptions:
    """``--paper``, the settings' ``duplex_offset_mm`` and the flip edge, as for decks."""

    paper: Paper = "letter"
    duplex_edge: Edge = "long"
    duplex_offset_mm: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False


def _signed(value: int) -> str:
    return "0" if value == 0 else (f"+{value}" if value > 0 else f"{MINUS}{-value}")


def _mirror(options: CalibrationOptions, x: float, y: float) -> tuple[float, float]:
    """A point of the front as seen from the back (before any printer shift)."""
    page_w, page_h = paper_size(options.paper)
    return (page_w - x, y) if options.duplex_edge == "long" else (x, page_h - y)


def _tooth(axis: Axis, pos: float, base: float, toward: int, length: float) -> Line:
    """A comb line at ``pos`` (x for dx, y for dy) from ``base`` for ``length`` mm, going
    down or right (``toward`` = 1) or up or left (-1)."""
    end = base + toward * length
    low, high = min(base, end), max(base, end)
    return Line(pos, low, pos, high) if axis == "x" else Line(low, pos, high, pos)


def _length(index: int) -> float:
    return TOOTH_MM + (ZERO_EXTRA_MM if index == 0 else 0.0)


def _front_comb(axis: Axis, at: float, base: float, toward: int) -> list[dict[str, Any]]:
    """Lines every FRONT_PITCH_MM around ``at``, teeth from ``base`` going ``toward``."""
    return [
        {
            # Centred: the ink's middle on the line, so the zero line is the page's middle
            # and the two sides' lines meet, whatever their weights.
            "line": line_style(
                _tooth(axis, at + j * FRONT_PITCH_MM, base, toward, _length(j)),
                FRONT_PT,
                centred=True,
            ),
            "zero": j == 0,
            "at_mm": round(at + j * FRONT_PITCH_MM, 3),
        }
        for j in range(-SCALE, SCALE + 1)
    ]


def _back_comb(
    axis: Axis, at: float, base: float, toward: int, shift: float
) -> list[dict[str, Any]]:
    """The numbered lines every BACK_PITCH_MM around ``at`` (the back page's coordinates),
    moved by ``-shift`` (the offset already configured), each labelled at its far end."""
    lines = []
    for k in range(-SCALE, SCALE + 1):
        pos = at + k * BACK_PITCH_MM - shift
        far = base + toward * (_length(k) + 0.8)
        if axis == "x":
            label = Rect(pos - 4, far if toward > 0 else far - 3.2, 8, 3.2)
        else:
            label = Rect(far if toward > 0 else far - 8, pos - 1.6, 8, 3.2)
        lines.append(
            {
                "line": line_style(
                    _tooth(axis, pos, base, toward, _length(k)), BACK_PT, centred=True
                ),
                "label": _signed(k),
                "label_box": place(label),
                "align": "left"
                if axis == "y" and toward > 0
                else ("right" if axis == "y" else "center"),
                "zero": k == 0,
                "value": k,
                "at_mm": round(pos, 3),
            }
        )
    return lines


def calibration_view(options: CalibrationOptions) -> dict[str, Any]:
    """Both pages' lines as CSS boxes, plus the numbers tests and readers need."""
    page_w, page_h = paper_size(options.paper)
    cx, cy = page_w / 2, page_h / 2
    dx, dy = options.duplex_offset_mm
    long_edge = options.duplex_edge == "long"
    # Front: the dx comb's teeth point up from x_base; the dy comb's point left from cx.
    x_base = cy + X_VERNIER_BELOW_MM
    y_base = cx
    # Seen from the back, each comb is symmetric about its zero line, so turning the sheet
    # over moves only its zero and base, and flips one comb's direction. The back's teeth
    # start where the front's end and run the other way, so the two meet end to end.
    x_zero, x_base_back = _mirror(options, cx, x_base)
    y_base_back, y_zero = _mirror(options, y_base, cy)
    x_toward = 1 if long_edge else -1  # the front's dx teeth point up, or down once turned
    y_toward = -1 if long_edge else 1  # the front's dy teeth point left, or right once turned
    x_back = _back_comb("x", x_zero, x_base_back, x_toward, dx)
    y_back = _back_comb("y", y_zero, y_base_back, y_toward, dy)
    top_y = y_zero - dy - SCALE * BACK_PITCH_MM
    x_far = x_base_back + x_toward * (TOOTH_MM + ZERO_EXTRA_MM + 5)
    return {
        "sheet": {
            "width": mm(page_w),
            "height": mm(page_h),
            "size": f"{mm(page_w)} {mm(page_h)}",
        },
        "front": {
            "x_comb": _front_comb("x", cx, x_base, -1),
            "y_comb": _front_comb("y", cy, y_base, -1),
            "x_caption": place(Rect(cx - 40, x_base - TOOTH_MM - ZERO_EXTRA_MM - 6, 80, 4)),
            "y_caption": place(Rect(y_base - 40, cy - SCALE * FRONT_PITCH_MM - 9, 40, 4)),
        },
        "back": {
            "x_comb": x_back,
            "y_comb": y_back,
            "x_caption": place(Rect(x_zero - dx - 40, x_far if x_toward > 0 else x_far - 4, 80, 4)),
            "y_caption": place(Rect(y_base_back - (40 if y_toward < 0 else 0), top_y - 9, 40, 4)),
            "y_caption_align": "right" if y_toward < 0 else "left",
        },
        "edge": _("long edge") if long_edge else _("short edge"),
        "corrected": (dx, dy) != (0.0, 0.0),
        "offset": f"[{dx:g}, {dy:g}]",
        # Instructions away from the combs: the front's at the top; the back's at the top
        # too after a long-edge turn, at the bottom after a short-edge one.
        "front_text": f"top: {mm(14)}",
        "back_text": f"top: {mm(14)}" if long_edge else f"bottom: {mm(14)}",
        "text_left": mm(20),
        "text_width": mm(page_w - 40),
    }


def calibration_document(options: CalibrationOptions, file_name: str | None = None) -> Document:
    """The sheet as a document the build renders and writes (``file_name``: where the user
    asked for it, else ``duplex-calibration.pdf``)."""
    page = page_context(BuildOptions(paper=options.paper, ink_saver=options.ink_saver))
    page["language"] = current().language  # the sheet's words are in the language spoken
    title = _("Duplex calibration")
    context = {"title": title, "page": page, **calibration_view(options)}
    return Document(
        kind="calibrate",
        title=title,
        stem=STEM,
        template=TEMPLATE,
        context=context,
        duplex=True,
        file_name=file_name,
    )
