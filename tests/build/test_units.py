"""Fast rebuilds: decks imposed from cached cards, and builds answered from their stamp.

A GM edits one event and rebuilds: one card is rendered, the sheets are put together again
from the cards already rendered, and the result looks exactly like the deck laid out in one
piece. Running the same build twice with nothing changed does no work at all.
"""

from __future__ import annotations

import io
import stat
import subprocess
import textwrap
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import ImageChops
from pypdf import PdfReader

from scratchpress.build import BuildSettings, build
from scratchpress.build import run as build_module
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.documents.deck import event_documents
from scratchpress.render.cache import cache_folder
from scratchpress.render.engine import render_pdf
from scratchpress.render.templating import render_html
from scratchpress.resources import fonts_dir, templates_dir
from scratchpress.statblocks import compute_campaign

from conftest import scratchpress_process


def event(number: int, title: str | None = None) -> str:
    return textwrap.dedent(
        f"""\
          - id: drill-{number}
            title: {title or f"Drill {number}"}
            threat: breakdown
            attacks: economy
            attack_bonus: 2
            damage: 1
            story: The pump house floods for the {number}th time this spring.
            temporary: "-1 to every project roll this year"
            challenge:
              ability: craftsmanship
              difficulty: 11
              success: "+1 economy at the end of the year"
              failure: "-1 economy now"
            decision:
              prompt: Mend it or move the beds?
              choices:
                - choice: Mend
                  consequence: "-1 economy now"
                - choice: Move
                  consequence: "-1 environment now"
            encounter: Two scavengers offer parts for medicine.
        """
    )


def write_events(folder: Path, titles: dict[int, str] | None = None) -> None:
    titles = titles or {}
    folder.mkdir(parents=True, exist_ok=True)
    body = "".join(textwrap.indent(event(n, titles.get(n)), "") for n in range(1, 4))
    (folder / "events.yaml").write_text("events:\n" + body, encoding="utf-8")


def run_build(folder: Path, out: Path, **options: Any) -> Any:
    campaign = load_campaign([folder])
    return build(
        compute_campaign(campaign),
        campaign,
        BuildOptions(**options),
        out,
        ["events"],
        settings=BuildSettings(jobs=1),
    )


@pytest.fixture
def jobs_seen(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every render job the build hands to the pool."""
    seen: list[Any] = []
    real = build_module.run_jobs

    def spy(jobs: list[Any], *args: Any, **kwargs: Any) -> Any:
        seen.extend(jobs)
        return real(jobs, *args, **kwargs)

    monkeypatch.setattr(build_module, "run_jobs", spy)
    return seen


def rasters(pdf: bytes) -> list[Any]:
    document = pdfium.PdfDocument(pdf)
    return [document[i].render(scale=60 / 72).to_pil().convert("L") for i in range(len(document))]


@pytest.mark.parametrize(
    "options",
    [{"backs": "duplex"}, {"backs": "fold", "bleed": True}, {"backs": "duplex", "paper": "a4"}],
    ids=["duplex", "fold-bleed", "a4"],
)
def test_the_imposed_deck_looks_like_the_deck_laid_out_in_one_piece(
    tmp_path: Path, options: dict[str, Any]
) -> None:
    folder = tmp_path / "campaign"
    write_events(folder)
    report = run_build(folder, tmp_path / "out", **options)
    assert not report.problems
    imposed = (tmp_path / "out" / "resilience-events.pdf").read_bytes()

    campaign = load_campaign([folder])
    [document] = event_documents(compute_campaign(campaign), campaign, BuildOptions(**options))
    reference = render_pdf(
        render_html(document.template, document.context),
        templates_dir(),
        [templates_dir(), fonts_dir()],
    ).pdf

    ours, theirs = rasters(imposed), rasters(reference)
    assert len(ours) == len(theirs) == len(document.context["pages"])
    for page, (a, b) in enumerate(zip(ours, theirs, strict=True), start=1):
        assert a.size == b.size
        differing = sum(
            ImageChops.difference(a, b).point(lambda v: 255 if v > 64 else 0).histogram()[255:]
        )
        # Anti-aliasing at card edges differs by a pixel here and there; a card in the
        # wrong place or missing would differ by thousands.
        assert differing < 0.002 * a.size[0] * a.size[1], f"page {page}: {differing} pixels"


def test_editing_one_event_renders_that_card_alone(tmp_path: Path, jobs_seen: list[Any]) -> None:
    folder, out = tmp_path / "campaign", tmp_path / "out"
    write_events(folder)
    run_build(folder, out)
    assert sum(job.html.count("data-card=") for job in jobs_seen) == 54  # 50 built-in + 3, and the card on how an event plays

    jobs_seen.clear()
    write_events(folder, {2: "Drill Two Revised"})
    report = run_build(folder, out)
    assert not report.problems
    assert [job.html.count("data-card=") for job in jobs_seen] == [1]
    assert "Drill Two Revised" in jobs_seen[0].html
    text = "".join(page.extract_text() for page in PdfReader(out / "resilience-events.pdf").pages)
    shown = text.upper()  # card titles are set in capitals by the stylesheet
    assert "DRILL TWO REVISED" in shown and "DRILL 3" in shown and "DRILL 2" not in shown

    jobs_seen.clear()
    report = run_build(folder, out)
    assert jobs_seen == [] and report.from_cache == 1


@pytest.mark.usefixtures("stand_in_renderer")  # counts jobs and pages, not pixels
def test_the_back_is_stored_once_however_many_sheets_use_it(tmp_path: Path) -> None:
    folder = tmp_path / "campaign"
    write_events(folder)
    run_build(folder, tmp_path / "out")
    with pikepdf.open(tmp_path / "out" / "resilience-events.pdf") as pdf:
        placed: list[tuple[int, int]] = []
        for page in pdf.pages:
            placed += [xobject.objgen for xobject in page.Resources.XObject.values()]
        # 54 fronts, one back and one set of cut marks; 7 sheets, each side listing its own.
        assert len(pdf.pages) == 14
        assert len(set(placed)) == 54 + 1 + 1
        assert len(placed) == 54 + 54 + 7


@pytest.mark.usefixtures("stand_in_renderer")  # counts jobs and pages, not pixels
def test_a_corrupt_card_batch_is_rendered_again(tmp_path: Path, jobs_seen: list[Any]) -> None:
    folder, out = tmp_path / "campaign", tmp_path / "out"
    write_events(folder)
    run_build(folder, out)
    entries = sorted(cache_folder(folder, out).glob("*.pdf"), key=lambda p: p.stat().st_size)
    for entry in entries:  # every cached PDF, the batches and the imposed deck alike
        entry.write_bytes(b"%PDF-1.7 truncated")
    jobs_seen.clear()
    report = run_build(folder, out)
    assert not report.problems
    assert sum(job.html.count("data-card=") for job in jobs_seen) == 54
    assert len(PdfReader(out / "resilience-events.pdf").pages) == 14


# ---------------------------------------------------------------------------------------
# The same build twice: answered from the stamp
# ---------------------------------------------------------------------------------------


def scratchpress(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """A real command whose stamps go to a cache folder of the test's own."""
    return scratchpress_process(*args, cwd=cwd, env={"XDG_CACHE_HOME": str(cache)})


@pytest.fixture
def party(tmp_path: Path) -> Path:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(
        "characters:\n  - name: Odile Marsh\n    abilities: {stealth: 2, toughness: 3}\n"
    )
    return folder


def test_a_second_identical_build_is_answered_without_building(party: Path, tmp_path: Path) -> None:
    args = ("build", str(party), "-o", "out", "--only", "sheets")
    first = scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    assert first.returncode == 0, first.stderr
    assert "1 rendered" in first.stdout

    again = scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    assert again.returncode == 0
    assert "up to date: nothing changed since the last build" in again.stdout
    assert "wrote out/sheet-odile-marsh.pdf (1 page, from cache)" in again.stdout


def test_a_stamp_depends_on_all_of_our_code_not_only_the_command_line() -> None:
    """An upgrade that changes the rules must rebuild, though the CLI did not change."""
    import scratchpress.rules.derived as derived
    from scratchpress.cli import stamp

    roots = stamp.dependencies()
    assert any(Path(derived.__file__).resolve().is_relative_to(root) for root in roots)


def test_stamps_are_private_and_one_others_may_write_is_not_trusted(
    party: Path, tmp_path: Path
) -> None:
    args = ("build", str(party), "-o", "out", "--only", "sheets")
    scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    [stamp] = (tmp_path / "cache" / "scratchpress" / "stamps").glob("*.json")
    assert stat.S_IMODE(stamp.stat().st_mode) == 0o600
    assert stat.S_IMODE(stamp.parent.stat().st_mode) == 0o700
    stamp.chmod(0o666)  # as if another user could have written it
    again = scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    assert again.returncode == 0, again.stderr
    assert "up to date" not in again.stdout
    # Built again, not answered from the stamp: the sheet comes from the render cache.
    assert "(0 rendered, 1 from cache, " in again.stdout, again.stdout


@pytest.mark.parametrize("change", ["edit the campaign", "add a file", "delete the output"])
def test_any_change_to_inputs_or_outputs_builds_again(
    party: Path, tmp_path: Path, change: str
) -> None:
    args = ("build", str(party), "-o", "out", "--only", "sheets")
    scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    if change == "edit the campaign":
        (party / "party.yaml").write_text(
            (party / "party.yaml").read_text().replace("stealth: 2", "stealth: 3")
        )
    elif change == "add a file":
        (party / "more.yaml").write_text(
            "characters:\n  - name: Piet Varr\n    abilities: {toughness: 4}\n"
        )
    else:
        (tmp_path / "out" / "sheet-odile-marsh.pdf").unlink()
    again = scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    assert again.returncode == 0, again.stderr
    assert "up to date" not in again.stdout
    assert (tmp_path / "out" / "sheet-odile-marsh.pdf").exists()


def test_a_failed_build_is_never_answered_from_a_stamp(party: Path, tmp_path: Path) -> None:
    args = ("build", str(party), "-o", "out", "--only", "sheets")
    scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    (party / "party.yaml").write_text("characters:\n  - name: Odile Marsh\n")
    broken = scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    assert broken.returncode == 1
    again = scratchpress(*args, cwd=tmp_path, cache=tmp_path / "cache")
    assert again.returncode == 1
    assert "abilities" in again.stderr and "up to date" not in again.stdout


def test_no_cache_and_other_options_always_build(party: Path, tmp_path: Path) -> None:
    sheets = ("build", str(party), "-o", "out", "--only", "sheets")
    scratchpress(*sheets, cwd=tmp_path, cache=tmp_path / "c")
    forced = scratchpress(*sheets, "--no-cache", cwd=tmp_path, cache=tmp_path / "c")
    assert "up to date" not in forced.stdout and "1 rendered" in forced.stdout
    other = scratchpress(*sheets, "--paper", "a4", cwd=tmp_path, cache=tmp_path / "c")
    assert "up to date" not in other.stdout


@pytest.mark.usefixtures("stand_in_renderer")  # counts jobs and pages, not pixels
def test_a_theme_stylesheet_or_a_setting_renders_every_card_again(
    tmp_path: Path, jobs_seen: list[Any]
) -> None:
    folder, out = tmp_path / "campaign", tmp_path / "out"
    write_events(folder)
    run_build(folder, out)

    theme = folder / "theme" / "deck"
    theme.mkdir(parents=True)
    css = (templates_dir() / "deck" / "deck.css").read_text(encoding="utf-8")
    (theme / "deck.css").write_text(css + "\n.card .story { letter-spacing: 0.01em; }\n")
    jobs_seen.clear()
    run_build(folder, out)
    assert sum(job.html.count("data-card=") for job in jobs_seen) == 54

    jobs_seen.clear()
    run_build(folder, out)  # the theme is now in the cache too
    assert jobs_seen == []

    jobs_seen.clear()
    run_build(folder, out, paper="a4")
    assert sum(job.html.count("data-card=") for job in jobs_seen) == 54


# ---------------------------------------------------------------------------------------
# --watch: a session kept between builds
# ---------------------------------------------------------------------------------------


def test_a_watch_session_writes_the_same_deck_as_builds_without_one(
    tmp_path: Path, jobs_seen: list[Any]
) -> None:
    """Two output folders see the same edits, one through a kept BuildSession (spliced
    parse, cache entries in memory, an imposer kept open, a warmed renderer): the decks
    come out byte for byte the same, and the session still renders only the edited card."""
    from scratchpress.build import BuildSession
    from scratchpress.definitions.campaign import load_campaign as load

    folder = tmp_path / "campaign"
    session = BuildSession()

    def both(out_plain: Path, out_watched: Path) -> None:
        run_build(folder, out_plain)
        campaign = load([folder], None, session.parse)
        build(
            compute_campaign(campaign),
            campaign,
            BuildOptions(),
            out_watched,
            ["events"],
            settings=BuildSettings(jobs=1),
            session=session,
        )

    plain, watched = tmp_path / "plain", tmp_path / "watched"
    write_events(folder)
    both(plain, watched)
    assert session.warm and session.imposers
    for version in range(1, 3):
        write_events(folder, {2: f"Drill two, take {version}"})
        jobs_seen.clear()
        both(plain, watched)
        # One card for each folder: the edited one.
        assert [job.html.count("data-card=") for job in jobs_seen] == [1, 1]
        deck = "resilience-events.pdf"
        assert (watched / deck).read_bytes() == (plain / deck).read_bytes()
        text = " ".join(page.extract_text() for page in PdfReader(watched / deck).pages)
        assert f"drill two, take {version}" in text.lower()
        assert session.parse.spliced == version  # only the edited event was parsed again


def _one_page_pdf(label: str) -> bytes:
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(180, 252))
    page.Contents = pdf.make_stream(f"BT /F1 12 Tf 20 200 Td ({label}) Tj ET".encode())
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def test_a_kept_imposer_gives_what_a_fresh_one_gives_and_lets_old_cards_go() -> None:
    """Two hundred edits of one card through one Imposer: every deck is byte for byte the
    one a fresh imposition makes, and the sources of edits long gone are closed."""
    from scratchpress.render.impose import Imposer, impose_units
    from scratchpress.render.jobs import Placement

    sheets = [[Placement(0, 10, 10), Placement(1, 80, 10)]]
    imposer = Imposer()
    try:
        for edit in range(200):
            sources = {"stay": _one_page_pdf("kept card"), f"v{edit}": _one_page_pdf(f"v{edit}")}
            units = [("stay", 0, 1), (f"v{edit}", 0, 1)]
            kept = imposer.impose(sources, units, sheets, (210.0, 297.0), "deck")
            assert kept == impose_units(sources, units, sheets, (210.0, 297.0), "deck")
            assert set(imposer.opened) <= {"stay", f"v{edit}"}
        assert len(imposer.forms) <= 2 and imposer.dropped <= 100
    finally:
        imposer.close()
