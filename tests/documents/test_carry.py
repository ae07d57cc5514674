"""The pounds on the carry handout and in booklets are the rule they print beside them:
"5 kg (11 lb) per point" means strength 13 carries 65 kg and 143 lb (RULES.md §10).

The rule is metric, 2, 5 and 10 kg a point, and quotes 4.4, 11 and 22 lb a point. The
book's own table rounds carrying to 5 lb and lifting to 10 lb (145 and 290 lb for 13); a
handout that states 11 lb a point prints 11 lb a point.
"""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents.carry import carry_view
from scratchpress.documents.common import carry_cells
from scratchpress.resources import examples_dir
from scratchpress.rules.carry import carrying_capacity
from scratchpress.statblocks import Computed, compute_campaign


@pytest.fixture(scope="module")
def computed() -> Computed:
    return compute_campaign(load_campaign([examples_dir()]))


def _rates(view: dict[str, object], unit: str) -> list[Decimal]:
    """The per-point rates the handout states, in ``unit``: '2 kg (4.4 lb)' -> 4.4."""
    limits = view["limits"]
    assert isinstance(limits, list)
    found = [re.search(rf"([\d.]+) {unit}\b", limit["per_point"]) for limit in limits]
    assert all(found), limits
    return [Decimal(match.group(1)) for match in found if match]


@pytest.mark.parametrize("units", ["imperial", "both"])
def test_every_pound_on_the_handout_is_strength_times_the_stated_rate(
    computed: Computed, units: str
) -> None:
    view = carry_view(computed, BuildOptions(units=units, carry_range="1-40"))  # type: ignore[arg-type]
    rates = _rates(view, "lb")
    assert rates == [Decimal("4.4"), Decimal("11"), Decimal("22")]
    for row in view["rows"]:
        strength = int(row["strength"])
        pounds = [int(cell["num"]) for cell in row["cells"] if cell["unit"] == "lb"]
        exact = [rate * strength for rate in rates]
        # Whole pounds: carrying and lifting exactly, packing to the nearest pound.
        assert pounds[1:] == exact[1:], strength
        assert abs(pounds[0] - exact[0]) <= Decimal("0.5"), strength


def test_every_kilogram_on_the_handout_is_strength_times_the_stated_rate(
    computed: Computed,
) -> None:
    view = carry_view(computed, BuildOptions(units="both", carry_range="1-40"))
    rates = _rates(view, "kg")
    assert rates == [2, 5, 10]
    for row in view["rows"]:
        strength = int(row["strength"])
        kilograms = [int(cell["num"]) for cell in row["cells"] if cell["unit"] == "kg"]
        assert kilograms == [rate * strength for rate in rates], strength


@pytest.mark.parametrize(
    ("strength", "printed"),
    [
        (10, ("20 kg (44 lb)", "50 kg (110 lb)", "100 kg (220 lb)")),
        (13, ("26 kg (57 lb)", "65 kg (143 lb)", "130 kg (286 lb)")),
        (17, ("34 kg (75 lb)", "85 kg (187 lb)", "170 kg (374 lb)")),
    ],
)
def test_sheets_and_booklets_print_the_same_pounds(
    strength: int, printed: tuple[str, str, str]
) -> None:
    cells = carry_cells(carrying_capacity(strength), "both")
    assert (cells["pack"], cells["carry"], cells["lift"]) == printed
