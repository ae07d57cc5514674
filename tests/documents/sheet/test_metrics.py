"""The sheet's layout facts are written once, in documents/sheet/metrics.py: the fit counts
with them and sheet.css takes them from the view model, so a number changed in the
context is the number the stylesheet sets."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents import sheet, vehicle
from scratchpress.documents.base import page_context
from scratchpress.documents.sheet import metrics
from scratchpress.render.templating import render_html
from scratchpress.resources import examples_dir
from scratchpress.statblocks import Computed, compute_campaign


@pytest.fixture(scope="module")
def example() -> tuple[Any, Computed]:
    campaign = load_campaign([examples_dir()])
    return campaign, compute_campaign(campaign)


@pytest.fixture(scope="module")
def context(example: tuple[Any, Computed]) -> dict[str, Any]:
    campaign, computed = example
    block = computed.block("character", "Hester Greaves")
    return sheet.sheet_context(block, computed, campaign, BuildOptions())


def _style(html: str) -> str:
    return " ".join(re.search(r"<style>(.*?)</style>", html, re.S)[1].split())  # type: ignore[index]


def test_the_stylesheet_sets_the_sizes_the_fit_counts_with(context: dict[str, Any]) -> None:
    style = _style(render_html(sheet.TEMPLATE, context))
    assert f".ab-table td.ab-lvl {{ width: {metrics.ABILITY_LEVEL_MM:g}mm; }}" in style
    assert f".page-grid col.c-side {{ width: {metrics.SIDE_WIDTH_MM:g}mm; }}" in style
    assert f".side .movement {{ height: {metrics.MOVEMENT_MM:g}mm; }}" in style
    normal = metrics.DENSITIES[0]
    assert f"--note: {normal.note_pt:g}pt;" in style
    assert f"--gap: {normal.gap:g}mm;" in style
    # The action columns' widths add up to what the effect column's estimate subtracts.
    widths = [
        float(w) for w in re.findall(r"\.actions-grid col\.c-\w+ \{ width: ([\d.]+)mm", style)
    ]
    assert sum(widths) + widths[-1] == metrics.ACTION_COLUMNS_MM


def test_a_number_changed_in_the_context_is_the_number_the_stylesheet_sets(
    context: dict[str, Any],
) -> None:
    changed = copy.deepcopy(context)
    layout = changed["layout"]
    layout["ability_level"] = "9.1mm"
    layout["action_columns"]["act"] = "31.5mm"
    layout["scale"]["compact"]["note"] = "7.9pt"
    layout["name_pt"]["xl"] = "33.5pt"
    layout["back_notes"] = "41mm"
    style = _style(render_html(sheet.TEMPLATE, changed))
    assert ".ab-table td.ab-lvl { width: 9.1mm; }" in style
    assert ".actions-grid col.c-act { width: 31.5mm; }" in style
    assert "body.density-compact { --body: 8.5pt; --note: 7.9pt;" in style
    assert ".name.size-xl { font-size: 33.5pt; }" in style
    assert ".page-grid td.back-notes { height: 41mm; }" in style
    # The level column's old width is written nowhere else.
    assert not re.search(r"(?<![\d.])7\.4mm", style)


def test_the_vehicle_stylesheet_takes_its_stat_boxes_from_the_view(
    example: tuple[Any, Computed],
) -> None:
    _, computed = example
    view = vehicle.vehicle_view(computed.block("vehicle", "Old Patience"))
    context = {"page": page_context(BuildOptions()), "title": view["name"], "vehicle": view}
    style = _style(render_html(vehicle.TEMPLATE, context))
    assert f".vh-stats col.c-gap {{ width: {vehicle.STAT_GAP_MM:g}mm; }}" in style
    view["css"]["stat_gap"] = "2.7mm"
    view["css"]["stat_pad"]["normal"] = "1.9mm"
    style = _style(render_html(vehicle.TEMPLATE, context))
    assert ".vh-stats col.c-gap { width: 2.7mm; }" in style
    assert "padding: 1.2mm 1.9mm 1.4mm;" in style
