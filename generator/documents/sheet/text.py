"""Free text as the sheet prints it: whole, or cut to fit a fixed place."""

from __future__ import annotations

from functools import cache

from ...problems import quoted
from ...typesetting.fonts import FACES
from ...typesetting.measure import text_width_mm

# The largest name size at which a name of this many characters usually fits one header
# line; past "s" the name wraps at 12 pt (metrics.NAME_TYPE has the sizes).
NAME_SIZES = (("xl", 18), ("l", 21), ("m", 27), ("s", 36))
# A description up to this long prints at the note size, longer at a smaller one; past
# the most it is cut.
DESCRIPTION_SHORT = 110
DESCRIPTION_MAX = 220
# Other free text in fixed-size places: the player's name on one header line, the group's
# name in the narrow initiative panel, a minion's description beside its stat boxes.
PLAYER_MAX = 40
GROUP_MAX = 30
FOOTER_NAME_MAX = 70
MINION_DESCRIPTION_MAX = 300


def whole(text: str) -> str:
    """Free text as the sheet prints it whole: every run of white space one space."""
    return " ".join(text.split())


def cut(text: str, limit: int | None) -> str:
    """Shorten a note at a word boundary; only used when the page cannot hold it whole."""
    text = whole(text)
    if limit is None or len(text) <= limit:
        return text
    if limit == 0:
        return ""
    shortened = text[: limit - 1]
    space = shortened.rfind(" ")
    if space > limit // 2:
        shortened = shortened[:space]
    return shortened.rstrip(" ,;:.-") + "…"


def shortened_message(text: str, limit: int) -> str:
    """What a layout warning says of a text cut to ``limit`` characters."""
    printed = cut(text, limit)
    return (
        f"shortened to fit its line on the sheet: prints {quoted(printed)}"
        f" ({len(printed) - 1} of {len(text)} characters)"
    )


# A Latin name's letters, on average, for NAME_SIZES: a name is as long as its letters or
# as many of these as its width, whichever is more.
LATIN_SAMPLE = "Alexandra Petrova Holme"


@cache
def _latin_letter_mm() -> float:
    return text_width_mm(LATIN_SAMPLE, FACES["display"], 10) / len(LATIN_SAMPLE)


def name_size(name: str) -> str:
    """The name is the largest thing on the page, within reason: long names step down. A
    name in wider letters (Tamil, Georgian, Greek in the condensed fallback) steps down as a
    Latin name of its width would, so it stays on one line where that name does."""
    length = max(len(name), text_width_mm(name, FACES["display"], 10) / _latin_letter_mm())
    for size, longest in NAME_SIZES:
        if length <= longest:
            return size
    return "xs"
