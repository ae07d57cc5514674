"""The millimetres of an initiative card, poker or index size: what the fitting of its
contents counts with and what the template's CSS is given (as strings), so each is written
once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...typesetting.units import mm
from ...wording import N_
from ..cardsheet import CARD_SAFE_MM


@dataclass(frozen=True)
class Metrics:
    size: str
    card_w: float
    card_h: float
    pad: float
    band_h: float  # the title band
    band_gap: float
    bonus_h: float  # group card: the big initiative bonus and how it is made
    head_h: float  # column headings of a table
    legend_h: float  # group card: what the tick letters mean
    name_h: float  # one line of 7.5-8.5 pt type
    box: float  # an HP or tick box (>= 4 mm)
    box_gap: float
    row_pad: float  # space between member rows
    attack_h: float  # one line of the attack table (holds a tick box)
    meta_h: float  # character card: the group and initiative line(s)
    defense_h: float  # character card: the boxed defenses
    section_gap: float
    value_w: float  # group card: one number column
    tick_w: float  # one tick box with its gap
    one_line: bool  # a group member on one row (wide cards) or two (narrow ones)
    member_pt: float  # type size of a member's name and numbers
    side_w: float  # wide character card: the left column (0: stacked)
    side_gap: float
    attack_cols: tuple[float, ...]  # tick, bonus, target, damage (name takes the rest)

    @property
    def inner_w(self) -> float:
        return self.card_w - 2 * self.pad

    @property
    def inner_h(self) -> float:
        return self.card_h - 2 * self.pad

    @property
    def pitch(self) -> float:
        return self.box + self.box_gap


METRICS: dict[str, Metrics] = {
    "poker": Metrics(
        size="poker",
        card_w=63.0,
        card_h=88.0,
        pad=3.0,
        band_h=7.0,
        band_gap=1.2,
        bonus_h=10.5,
        head_h=3.8,
        legend_h=3.6,
        name_h=3.6,
        box=4.2,
        box_gap=0.6,
        row_pad=0.6,
        attack_h=4.6,
        meta_h=4.4,
        defense_h=12.5,
        section_gap=1.2,
        value_w=6.0,
        tick_w=4.8,
        one_line=False,
        member_pt=8.0,
        side_w=0.0,
        side_gap=0.0,
        attack_cols=(4.6, 6.5, 16.5, 12.0),
    ),
    "index": Metrics(
        size="index",
        card_w=127.0,
        card_h=76.2,
        pad=3.5,
        band_h=7.5,
        band_gap=1.2,
        bonus_h=10.5,
        head_h=3.8,
        legend_h=3.6,
        name_h=3.6,
        box=4.2,
        box_gap=0.6,
        row_pad=1.0,
        attack_h=5.0,
        meta_h=5.0,
        defense_h=12.5,
        section_gap=1.2,
        value_w=7.0,
        tick_w=4.8,
        one_line=True,
        member_pt=8.5,
        side_w=47.0,
        side_gap=4.0,
        attack_cols=(5.0, 8.0, 19.0, 16.0),
    ),
}

NAME_W_ONE_LINE = 34.0  # wide group card: the member-name column
HP_LABEL_W = 6.0  # "HP" before a character's track
# States that last past a turn (RULES.md §5): tick them on the wide cards, which have room.
CONDITIONS = (N_("delayed"), N_("panicked"), N_("evading"), N_("engaged"), N_("in cover"))
HP_INDENT_MM = 1.5  # wide group card: space between the numbers and the HP boxes
META_PT = 7.5  # the character card's group line
MINION_INDENT_MM = 2.5  # minions sit under their leader, indented


def css_metrics(m: Metrics) -> dict[str, Any]:
    """The metrics as CSS lengths, for the template's style block."""
    out: dict[str, Any] = {
        name: mm(getattr(m, name))
        for name in (
            "card_w",
            "card_h",
            "pad",
            "band_h",
            "band_gap",
            "bonus_h",
            "head_h",
            "legend_h",
            "name_h",
            "box",
            "box_gap",
            "row_pad",
            "attack_h",
            "meta_h",
            "defense_h",
            "section_gap",
            "value_w",
            "tick_w",
            "side_w",
            "side_gap",
            "inner_w",
            "inner_h",
        )
    }
    out["safe"] = mm(CARD_SAFE_MM)
    out["tick"] = mm(max(4.0, m.box - 0.2))
    out["pitch"] = mm(m.pitch)
    out["tent_h"] = mm(2 * m.card_h)
    out["name_w"] = mm(NAME_W_ONE_LINE)
    out["hp_label_w"] = mm(HP_LABEL_W)
    out["hp_indent"] = mm(HP_INDENT_MM)
    out["minion_indent"] = mm(MINION_INDENT_MM)
    out["member_pt"] = f"{m.member_pt}pt"
    out["attack_cols"] = [mm(w) for w in m.attack_cols]
    return out
