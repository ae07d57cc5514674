"""Golden HTML snapshots: every template rendered for one fixed campaign.

A template change shows up as a reviewable diff of tests/documents/snapshots/*.html. After an
intended change, refresh them with:

    SCRATCHPRESS_UPDATE_SNAPSHOTS=1 python -m pytest tests/render/test_templating.py
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path, PurePath
from typing import Any

import pytest

from scratchpress.build import collect_documents
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents.base import Document
from scratchpress.render.templating import (
    MAX_TEMPLATE_BYTES,
    environment,
    fonts_url,
    render_html,
    template_digest,
)
from scratchpress.resources import examples_dir, fonts_dir, templates_dir
from scratchpress.statblocks import compute_campaign

HERE = Path(__file__).resolve().parents[1] / "documents"  # the snapshots and their campaign
CAMPAIGN = HERE / "fixtures" / "snapshot-campaign"
SNAPSHOTS = HERE / "snapshots"
UPDATE = os.environ.get("SCRATCHPRESS_UPDATE_SNAPSHOTS") == "1"


def _collect(folder: Path) -> list[Document]:
    campaign = load_campaign([folder])
    return collect_documents(compute_campaign(campaign), campaign, BuildOptions(), None)


def _documents() -> list[tuple[str, str]]:
    rendered = []
    for document in _collect(CAMPAIGN):
        html = render_html(document.template, document.context)
        # The snapshots name the fonts folder FONTS; data: URLs (portraits) are bulky bytes.
        html = html.replace(f'url("{fonts_url()}/', 'url("FONTS/')
        html = re.sub(r"data:image/[a-z]+;base64,[A-Za-z0-9+/=]+", "data:IMAGE", html)
        rendered.append((document.stem, html))
    return rendered


DOCUMENTS = _documents()


def test_the_fixture_campaign_exercises_every_template() -> None:
    templates = {d.split("-")[0] for d, _ in DOCUMENTS}
    assert {"sheet", "vehicle", "initiative", "carry"} <= templates


@pytest.mark.parametrize(("stem", "html"), DOCUMENTS, ids=[s for s, _ in DOCUMENTS])
def test_html_matches_snapshot(stem: str, html: str) -> None:
    snapshot = SNAPSHOTS / f"{stem}.html"
    if UPDATE or not snapshot.exists():
        if not UPDATE and os.environ.get("CI"):
            pytest.fail(
                f"missing snapshot {snapshot.name}; run with SCRATCHPRESS_UPDATE_SNAPSHOTS=1"
            )
        snapshot.write_text(html, encoding="utf-8")
    expected = snapshot.read_text(encoding="utf-8")
    assert html == expected, (
        f"{stem}: template output changed; review `git diff` after refreshing with "
        "SCRATCHPRESS_UPDATE_SNAPSHOTS=1"
    )


# --- no absolute path of this machine reaches a template (issue 31) ------------------------


def test_templates_get_the_fonts_folder_as_a_relative_url() -> None:
    # Documents are rendered with the templates folder as their base URL.
    assert fonts_url() == "../fonts"
    assert (templates_dir() / fonts_url()).resolve() == fonts_dir().resolve()


def test_a_theme_printing_fonts_url_prints_no_path_of_this_machine(tmp_path: Path) -> None:
    theme = tmp_path / "campaign" / "theme"
    theme.mkdir(parents=True)
    (theme / "leak.html").write_text("fonts at {{ fonts_url }}", encoding="utf-8")
    assert render_html("leak.html", {}, (theme,)) == "fonts at ../fonts"


def _strings(value: Any, where: str, seen: set[int]) -> list[tuple[str, str]]:
    """Every text in a document's context (paths as text), with where it sits."""
    if id(value) in seen:
        return []
    seen.add(id(value))
    if isinstance(value, str | PurePath):
        return [(where, str(value))]
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple | set | frozenset):
        items = list(enumerate(value))
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        items = [(f.name, getattr(value, f.name)) for f in dataclasses.fields(value)]
    elif hasattr(value, "__dict__") and not callable(value):
        items = list(vars(value).items())
    else:
        return []
    return [found for key, item in items for found in _strings(item, f"{where}.{key}", seen)]


@pytest.mark.parametrize("folder", [examples_dir(), CAMPAIGN], ids=["example", "snapshots"])
def test_no_document_gives_its_theme_an_absolute_path(folder: Path) -> None:
    """A theme can print any value it is given into the PDF: none may name a folder of this
    machine (the install, the campaign, the home folder), nor a file:// URL."""
    machine = {str(templates_dir().parent), str(folder.resolve()), str(Path.home()), "file:"}
    given = [v for v in environment().globals.values() if isinstance(v, str)]
    assert not [v for v in given if any(part in v for part in machine)]
    for document in _collect(folder):
        leaks = [
            (where, text)
            for where, text in _strings(document.context, document.stem, set())
            if any(part in text for part in machine)
        ]
        assert leaks == [], leaks
        html = render_html(document.template, document.context)
        assert not [part for part in machine if part in html], document.stem


# --- template_digest reads no file whole --------------------------------------------------


def _theme_including_by_variable(tmp_path: Path) -> Path:
    theme = tmp_path / "campaign" / "theme"
    (theme / "cards").mkdir(parents=True)
    (theme / "picked.html").write_text("picked", encoding="utf-8")
    (theme / "cards" / "card.html").write_text("{% include which %}", encoding="utf-8")
    return theme


def test_the_digest_never_reads_a_theme_file_over_the_limit(tmp_path: Path) -> None:
    # A stranger's sparse file could be any size (and a theme's own background picture may
    # well pass 1 MB): its size and time stand for its bytes, which are never read.
    theme = _theme_including_by_variable(tmp_path)
    huge = theme / "cards" / "huge.bin"
    with open(huge, "wb") as sparse:
        sparse.truncate(64 * 2**30)  # 64 GB, a few bytes on disk
    import tracemalloc

    tracemalloc.start()
    try:
        first = template_digest("cards/card.html", (theme,))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20
    with open(huge, "r+b") as sparse:
        sparse.truncate(64 * 2**30 + 1)  # it changed: so does the digest
    assert template_digest("cards/card.html", (theme,)) != first


def test_the_digest_follows_every_byte_of_a_file_beside_a_variable_include(
    tmp_path: Path,
) -> None:
    theme = _theme_including_by_variable(tmp_path)
    beside = theme / "cards" / "art.css"
    beside.write_bytes(b"x" * MAX_TEMPLATE_BYTES)  # the largest allowed, read in chunks
    first = template_digest("cards/card.html", (theme,))
    beside.write_bytes(b"x" * (MAX_TEMPLATE_BYTES - 1) + b"y")  # its last byte changed
    assert template_digest("cards/card.html", (theme,)) != first


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_the_digest_opens_no_link_and_no_fifo(tmp_path: Path) -> None:
    theme = _theme_including_by_variable(tmp_path)
    first = template_digest("cards/card.html", (theme,))
    secret = tmp_path / "secret.txt"
    secret.write_text("not the theme's")
    (theme / "cards" / "link.css").symlink_to(secret)
    os.mkfifo(theme / "cards" / "pipe.css")  # opening it to read would wait for a writer
    assert template_digest("cards/card.html", (theme,)) == first


def test_labels_are_worded_in_the_language_spoken_and_a_campaign_s_own_words_are_escaped() -> None:
    """Our catalogues' messages may hold markup (<b>, &shy;) and print as markup; a
    campaign's labels.yaml is a stranger's text and prints as text."""
    from scratchpress.render.templating import environment
    from scratchpress.wording import Wording, catalogue, speaking

    template = environment().from_string(
        '{{ _("stamina") }}|{{ _("hit points") }}|{{ ngettext("%(num)s box", "%(num)s boxes", 2) }}'
    )
    with speaking(Wording("de", {"stamina": "<img src='http://x/'>"})):
        stamina, hit_points, boxes = template.render().split("|")
    assert stamina == "&lt;img src=&#39;http://x/&#39;&gt;"
    assert hit_points == catalogue("de").gettext("hit points")
    assert boxes == "2 boxes"  # not a message of ours: English, counted
    assert template.render().split("|")[0] == "stamina"  # and English again after
