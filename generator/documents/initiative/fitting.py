"""Fitting type on an initiative card: the band must show the whole name, so its size is
chosen by measuring it with the bundled fonts; a name that does not fit at the smallest size
is cut with an ellipsis, never clipped by the renderer."""

from __future__ import annotations

from ...typesetting import measure
from ...typesetting.fonts import FACES

TITLE_SIZES = (15.0, 13.5, 12.0, 10.5, 9.0)  # pt, Bebas Neue; a tall caps face, legible small
TITLE_TRACKING = 0.02  # em, as .band in cards.css
LABEL_PT = 7.0  # the band label: Lato Bold, uppercase, tracked 0.06 em
LABEL_TRACKING = 0.06
BAND_PAD_MM = 2.0  # .band padding on each side
LABEL_GAP_MM = 2.0  # .band-label margin-left


def text_width_mm(text: str, font: str, size_pt: float, tracking_em: float = 0.0) -> float:
    """How wide the renderer will set `text`, from the bundled font's own advance widths."""
    return measure.text_width_mm(text, font, size_pt, tracking_em)


def fit_text(
    text: str, font: str, size_pt: float, width: float, tracking: float = 0.0, suffix: str = ""
) -> str:
    """`text` cut with an ellipsis so that it and `suffix` fit `width` mm. The renderer's
    own ellipsis would cut the suffix too ("Thugs 2" must keep its 2), and a line that
    does not fit beside a float drops below it, out of sight."""
    if text_width_mm(text + suffix, font, size_pt, tracking) <= width:
        return text + suffix
    cut = text
    while cut and text_width_mm(cut.rstrip() + "…" + suffix, font, size_pt, tracking) > width:
        cut = cut[:-1]
    return cut.rstrip() + "…" + suffix


TYPE_FLOOR_PT = 7.0  # nothing on a printable is set smaller (tests/documents/test_type_floor.py)


def member_name(
    name: str, suffix: str, font: str, size_pt: float, room: float
) -> tuple[float, str]:
    """A member's line on a group card: a long name steps down in size, to the type floor,
    before a letter of it is cut."""
    size = size_pt
    while size - 0.5 >= TYPE_FLOOR_PT and text_width_mm(name + suffix, font, size) > room:
        size -= 0.5
    return size, fit_text(name, font, size, room, suffix=suffix)


def band_title(title: str, label: str, inner_w: float) -> tuple[str, str]:
    """The largest title size that fits beside the band's label, and the title as set:
    at the smallest size a name that still does not fit is cut, never lost."""
    label_w = text_width_mm(label.upper(), FACES["sans-bold"], LABEL_PT, LABEL_TRACKING)
    room = inner_w - 2 * BAND_PAD_MM - label_w - LABEL_GAP_MM - 1.0
    upper = title.upper()
    for size in TITLE_SIZES:
        if text_width_mm(upper, FACES["display"], size, TITLE_TRACKING) <= room:
            return f"{size}pt", title
    size = TITLE_SIZES[-1]
    return f"{size}pt", fit_text(upper, FACES["display"], size, room, TITLE_TRACKING)


PLAYER_SIZES = (30.0, 26.0, 22.0, 18.0, 15.0)  # pt: read from across the table


def player_title_size(title: str, inner_w: float) -> str:
    """The largest size at which the name sets in at most two lines and no word is cut."""
    room = inner_w - 2.0

    def width(text: str, size: float) -> float:
        return text_width_mm(text.upper(), FACES["display"], size)

    for size in PLAYER_SIZES:
        longest = max((width(word, size) for word in title.split()), default=0.0)
        if longest <= room and width(title, size) <= 1.8 * room:
            return f"{size}pt"
    return f"{PLAYER_SIZES[-1]}pt"
