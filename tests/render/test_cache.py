"""The render cache: a rebuild re-renders exactly the documents whose inputs changed."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import shutil
import signal
import stat
import sys
import types
from pathlib import Path

import pytest

import scratchpress
from scratchpress.build import BuildSettings, build
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.render import cache as cache_module
from scratchpress.render.cache import (
    KEY_FILE,
    LEGACY_CACHE_DIR,
    RenderCache,
    cache_folder,
    user_cache_base,
)
from scratchpress.render.manifest import MANIFEST
from scratchpress.statblocks import compute_campaign

from conftest import Cli

# These tests are about what happens around a render: builds use the stand-in (standin.py).
pytestmark = pytest.mark.usefixtures("stand_in_renderer")

PARTY = """\
characters:
  - name: Odile Marsh
    group: Reedmen
    abilities: {stealth: 2, shooting: 2, toughness: 3}
  - name: Piet Varr
    group: Reedmen
    abilities: {wrestling: 2, toughness: 4}
communities:
  - name: Saltstead
    economy: 10
    environment: 10
    equity: 10
"""
ONLY = ["sheets", "initiative", "community"]


def _build(folder: Path, out: Path, options: BuildOptions | None = None) -> dict[str, bool]:
    """Build and return {file name: was it rendered (True) or taken from the cache}."""
    campaign = load_campaign([folder])
    report = build(
        compute_campaign(campaign),
        campaign,
        options or BuildOptions(),
        out,
        ONLY,
        settings=BuildSettings(jobs=1),
    )
    assert not report.problems, report.problems
    return {w.path.name: not w.cached for w in report.written}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(PARTY)
    return folder


def test_a_second_build_renders_nothing(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = _build(campaign, out)
    assert all(first.values())
    assert not any(_build(campaign, out).values())


def test_changing_a_character_rerenders_its_sheet_and_the_cards_only(
    campaign: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    text = (campaign / "party.yaml").read_text().replace("wrestling: 2", "wrestling: 3")
    (campaign / "party.yaml").write_text(text)
    rendered = {name for name, again in _build(campaign, out).items() if again}
    assert rendered == {"sheet-piet-varr.pdf", "initiative-cards.pdf"}


def test_a_theme_stylesheet_rerenders_only_what_uses_it(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    theme = campaign / "theme" / "community"
    shutil.copytree(Path(__file__).parents[2] / "templates" / "community", theme)
    css = theme / "community.css"
    css.write_text(css.read_text() + "\n/* a GM's tweak */ h1 { letter-spacing: 0.2em; }\n")
    rendered = {name for name, again in _build(campaign, out).items() if again}
    assert rendered == {"community-saltstead.pdf"}


def test_a_setting_rerenders_what_it_affects(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    rendered = _build(campaign, out, BuildOptions(paper="a4"))
    assert all(rendered.values())  # paper size changes every page


def test_a_font_change_rerenders_everything(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    fonts = tmp_path / "fonts"
    shutil.copytree(Path(__file__).parents[2] / "fonts", fonts)
    (fonts / "extra.txt").write_text("a new font file changes the fonts digest")
    monkeypatch.setattr(cache_module, "fonts_dir", lambda: fonts)
    cache_module._digest_of_fonts.cache_clear()
    try:
        assert all(_build(campaign, out).values())
    finally:
        cache_module._digest_of_fonts.cache_clear()


def test_a_corrupt_cache_entry_is_detected_and_rendered_again(
    campaign: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    # The sheet's entry, by its bytes: which entry sorts first depends on the machine's
    # fonts (they are in every key), and an imposed document's own entry, corrupted, is
    # put together again from its cached cards without rendering anything.
    sheet = (out / "sheet-odile-marsh.pdf").read_bytes()
    (entry,) = [e for e in cache_folder(campaign, out).glob("*.pdf") if e.read_bytes() == sheet]
    entry.write_bytes(b"%PDF-1.7 truncated")
    rendered = [name for name, again in _build(campaign, out).items() if again]
    assert rendered == ["sheet-odile-marsh.pdf"]
    assert (out / rendered[0]).read_bytes() == sheet
    assert not any(_build(campaign, out).values())


def test_an_unchanged_output_is_not_rewritten(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    sheet = out / "sheet-odile-marsh.pdf"
    os.utime(sheet, ns=(1_000_000_000, 1_000_000_000))  # a time no rewrite could give it
    _build(campaign, out)
    assert sheet.stat().st_mtime_ns == 1_000_000_000
    (campaign / "party.yaml").write_text(PARTY.replace("stealth: 2", "stealth: 3"))
    _build(campaign, out)
    assert sheet.stat().st_mtime_ns != 1_000_000_000


def test_a_deleted_output_is_written_again_from_the_cache(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    (out / "sheet-odile-marsh.pdf").unlink()
    assert _build(campaign, out)["sheet-odile-marsh.pdf"] is False  # from the cache...
    assert (out / "sheet-odile-marsh.pdf").read_bytes().startswith(b"%PDF")  # ...and written


def test_past_its_limit_the_cache_drops_what_the_build_did_not_use(
    campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _build(campaign, out)
    first = {p.name for p in cache_folder(campaign, out).iterdir()}
    (campaign / "party.yaml").write_text(PARTY.replace("stealth: 2", "stealth: 3"))
    monkeypatch.setattr(cache_module, "CACHE_LIMIT_BYTES", 1)
    rendered = _build(campaign, out)
    assert rendered["sheet-odile-marsh.pdf"] is True
    left = {p.name for p in cache_folder(campaign, out).iterdir()}
    # Odile's old sheet and the old initiative cards are gone...
    assert first - left
    # ...and everything this build used is still there: the next build renders nothing.
    assert not any(_build(campaign, out).values())


# What Windows's ``os`` and ``signal`` lack, of what scratchpress reaches for or might: each
# must be looked up with getattr/hasattr where it is used. Some are unused today, so that a
# new use without a guard fails here.
POSIX_ONLY = {
    "os": [
        "O_NONBLOCK", "O_NOFOLLOW", "O_DIRECTORY", "O_NOCTTY", "O_CLOEXEC",
        "getuid", "geteuid", "getgid", "getegid", "fchmod", "fchown", "sysconf",
    ],
    "signal": ["SIGALRM", "ITIMER_REAL", "setitimer", "pthread_sigmask"],
}  # fmt: skip


def _as_on_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scratchpress module sees ``os`` and ``signal`` without their POSIX-only names,
    and ``import resource`` fails. Only our modules: the libraries under us pick their
    Windows code on Windows (filelock's Unix lock itself opens with O_NONBLOCK)."""
    for name in [m.name for m in pkgutil.walk_packages(scratchpress.__path__, "scratchpress.")]:
        if not name.endswith("__main__"):
            importlib.import_module(name)  # a module imported later would see the real ones
    stand_ins = {}
    for real in (os, signal):
        stand_in = types.ModuleType(real.__name__)
        stand_in.__dict__.update(
            {k: v for k, v in vars(real).items() if k not in POSIX_ONLY[real.__name__]}
        )
        stand_ins[real] = stand_in
    for name, module in list(sys.modules.items()):
        if name.startswith("scratchpress."):
            for real, stand_in in stand_ins.items():
                if getattr(module, real.__name__, None) is real:
                    monkeypatch.setattr(module, real.__name__, stand_in)
    monkeypatch.setitem(sys.modules, "resource", None)


def test_a_build_runs_where_os_has_no_posix_only_parts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first build as on Windows: a new cache folder and signing key, one sheet rendered
    and written; then, its file deleted, the sheet read back from the cache."""
    folder = tmp_path / "campaign"
    folder.mkdir()
    (folder / "party.yaml").write_text(
        "characters:\n  - name: Odile Marsh\n    abilities: {stealth: 2, toughness: 3}\n"
    )
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))  # a key made afresh
    campaign = load_campaign([folder])
    computed = compute_campaign(campaign)
    _as_on_windows(monkeypatch)
    out = tmp_path / "out"

    def sheets() -> dict[str, bool]:
        report = build(
            computed, campaign, BuildOptions(), out, ["sheets"], settings=BuildSettings(jobs=1)
        )
        assert not report.problems, report.problems
        return {w.path.name: not w.cached for w in report.written}

    assert sheets() == {"sheet-odile-marsh.pdf": True}
    (out / "sheet-odile-marsh.pdf").unlink()
    assert sheets() == {"sheet-odile-marsh.pdf": False}  # read back through the cache
    assert (out / "sheet-odile-marsh.pdf").read_bytes().startswith(b"%PDF")


# -------------------- formerly tests/render/test_cache_location.py
# Where the render cache lives (issue 13): never in the output folder, in folders that are
# the user's alone, pruned only of entries it signed itself.

# These tests are about what happens around a render: builds use the stand-in (standin.py).

FAST_SHEET = "<!DOCTYPE html><html><body><h1>{{ identity.name }}</h1></body></html>\n"
PARTY_LOCATION = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"
BUILD = ("--only", "sheets", "-j", "1")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def campaign_location(tmp_path: Path) -> Path:
    folder = tmp_path / "c"
    (folder / "theme" / "sheet").mkdir(parents=True)
    (folder / "theme" / "sheet" / "sheet.html").write_text(FAST_SHEET)
    (folder / "party.yaml").write_text(PARTY_LOCATION)
    return folder


def test_a_symlinked_old_cache_folder_in_the_output_is_never_written_or_pruned(
    cli: Cli, campaign_location: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ln -s ../victim o/.scratchpress-cache`` with the victim over the prune limit: once
    that wrote the cache into victim/ and pruning deleted every file there."""
    victim, out = tmp_path / "victim", tmp_path / "o"
    victim.mkdir()
    (victim / "big").write_bytes(b"\0" * 300_000)
    (victim / "thesis.pdf").write_bytes(b"%PDF-1.7 the user's own")
    (victim / ("a" * 64 + ".json")).write_text("{}")  # even one named like an entry
    before = _tree(victim)
    out.mkdir()
    (out / LEGACY_CACHE_DIR).symlink_to("../victim")
    monkeypatch.setattr(cache_module, "CACHE_LIMIT_BYTES", 1)  # 300 MB, scaled down
    assert cli("build", campaign_location, "-o", out, *BUILD).exit_code == 0
    (campaign_location / "party.yaml").write_text(
        PARTY_LOCATION.replace("Ann", "Anna")
    )  # leaves a stale entry
    assert cli("build", campaign_location, "-o", out, *BUILD).exit_code == 0
    assert _tree(victim) == before
    assert (out / LEGACY_CACHE_DIR).is_symlink()
    assert any(
        cache_folder(campaign_location, out).glob("*.pdf")
    )  # the cache went where it belongs


def test_the_output_folder_holds_only_pdfs_and_the_manifest(
    cli: Cli, campaign_location: Path, tmp_path: Path
) -> None:
    out = tmp_path / "o"
    assert cli("build", campaign_location, "-o", out, *BUILD).exit_code == 0
    assert _entries(out) == [MANIFEST, "sheet-ann.pdf"]
    folder = cache_folder(campaign_location, out)
    assert folder.parent.parent == user_cache_base()
    assert any(folder.glob("*.pdf"))
    for made in (folder, folder.parent):
        assert _mode(made) == 0o700, made
    assert not _mode(user_cache_base()) & 0o022  # shared with the stamps and the locks
    assert _mode(user_cache_base() / KEY_FILE) == 0o600


def test_two_output_folders_get_two_cache_folders(
    cli: Cli, campaign_location: Path, tmp_path: Path
) -> None:
    first, second = tmp_path / "o1", tmp_path / "o2"
    assert cli("build", campaign_location, "-o", first, *BUILD).exit_code == 0
    assert cli("build", campaign_location, "-o", second, *BUILD).exit_code == 0
    assert cache_folder(campaign_location, first) != cache_folder(campaign_location, second)
    assert any(cache_folder(campaign_location, first).glob("*.pdf"))
    assert any(cache_folder(campaign_location, second).glob("*.pdf"))
    # Keyed by real paths: the same folders reached through a link share one cache.
    (tmp_path / "link").symlink_to(tmp_path)
    assert cache_folder(tmp_path / "link" / "c", tmp_path / "link" / "o1") == cache_folder(
        campaign_location, first
    )


def test_cache_dir_puts_the_entries_there(
    cli: Cli, campaign_location: Path, tmp_path: Path
) -> None:
    chosen, out = tmp_path / "my-cache", tmp_path / "o"
    result = cli("build", campaign_location, "-o", out, "--cache-dir", chosen, *BUILD)
    assert result.exit_code == 0, result.output
    names = _entries(chosen)
    assert any(n.endswith(".pdf") for n in names) and any(n.endswith(".json") for n in names)
    assert all(cache_module._ENTRY.fullmatch(n) for n in names), names
    assert _mode(chosen) == 0o700
    assert not cache_folder(campaign_location, out).exists()
    assert _entries(out) == [MANIFEST, "sheet-ann.pdf"]
    again = cli("build", campaign_location, "-o", out, "--cache-dir", chosen, "--force", *BUILD)
    assert "from cache" in again.output


def test_the_environment_can_name_the_cache_folder(
    cli: Cli, campaign_location: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCRATCHPRESS_CACHE_DIR", str(tmp_path / "env-cache"))
    assert cli("build", campaign_location, "-o", tmp_path / "o", *BUILD).exit_code == 0
    assert any((tmp_path / "env-cache").glob("*.pdf"))


def test_prune_removes_old_signed_entries_but_nothing_it_cannot_verify(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    writer = RenderCache(folder)
    old, kept, unit = "1" * 64, "2" * 64, "3" * 64
    writer.put(old, b"%PDF old entry" * 100, {"pages": 1})
    writer.put(kept, b"%PDF still used" * 100, {"pages": 1})
    writer.put_unit(unit, {"batch": old, "page": 0, "pages": 1})
    forged, tampered, lone = "4" * 64, "5" * 64, "6" * 64
    (folder / f"{forged}.pdf").write_bytes(b"%PDF a stranger's")
    (folder / f"{forged}.json").write_text(json.dumps({"sha256": "0" * 64, "mac": "0" * 64}))
    (folder / f"{tampered}.unit.json").write_text(json.dumps({"batch": old, "mac": "f" * 64}))
    (folder / f"{lone}.pdf").write_bytes(b"%PDF no record vouches for me")
    (folder / "notes.txt").write_text("not ours by name")
    (folder / ("A" * 64 + ".pdf")).write_bytes(b"upper-case hex: not our name")
    outside = tmp_path / "outside.pdf"
    outside.write_bytes(b"the user's")
    (folder / ("7" * 64 + ".pdf")).symlink_to(outside)
    for path in folder.iterdir():
        os.utime(path, (1_000_000, 1_000_000), follow_symlinks=False)  # all of them old
    foreign = {
        f"{forged}.pdf",
        f"{forged}.json",
        f"{tampered}.unit.json",
        f"{lone}.pdf",
        "notes.txt",
        "A" * 64 + ".pdf",
        "7" * 64 + ".pdf",
    }

    pruner = RenderCache(folder)
    assert pruner.get(kept) is not None  # this build used it
    assert pruner.prune(limit_bytes=0) == 2  # the old PDF entry and the unit record
    assert set(_entries(folder)) == foreign | {f"{kept}.pdf", f"{kept}.json"}
    assert outside.read_bytes() == b"the user's"


@pytest.mark.parametrize("content", [b"", b"short"], ids=["empty", "5 bytes"])
def test_an_empty_or_short_key_is_replaced_by_a_full_private_one(
    tmp_path: Path, content: bytes
) -> None:
    base = tmp_path / "scratchpress"
    base.mkdir(mode=0o700)
    key_file = base / KEY_FILE
    key_file.write_bytes(content)
    key_file.chmod(0o600)
    cache_module._key_at.cache_clear()
    try:
        key = cache_module._key_at(base)
    finally:
        cache_module._key_at.cache_clear()
    assert len(key) == 32
    assert key_file.read_bytes() == key
    assert _mode(key_file) == 0o600
    assert _entries(base) == [KEY_FILE]  # no temp file left beside it
    cache_module._key_at.cache_clear()
    try:
        assert cache_module._key_at(base) == key  # and it is kept from now on
    finally:
        cache_module._key_at.cache_clear()


def test_a_new_key_folder_is_private_and_a_linked_key_is_replaced_not_followed(
    tmp_path: Path,
) -> None:
    base = tmp_path / "fresh" / "scratchpress"
    planted = tmp_path / "planted"
    planted.write_bytes(b"k" * 32)
    cache_module._key_at.cache_clear()
    try:
        key = cache_module._key_at(base)
        assert _mode(base) == 0o700 and _mode(base / KEY_FILE) == 0o600
        (base / KEY_FILE).unlink()
        (base / KEY_FILE).symlink_to(planted)
        cache_module._key_at.cache_clear()
        again = cache_module._key_at(base)
    finally:
        cache_module._key_at.cache_clear()
    assert len(key) == 32 and len(again) == 32 and again != b"k" * 32
    assert again != key  # a key that was a link is never trusted, even one we made
    assert not (base / KEY_FILE).is_symlink()
    assert planted.read_bytes() == b"k" * 32


def test_a_cache_folder_that_is_a_symlink_is_refused_and_the_build_goes_on(
    cli: Cli, campaign_location: Path, tmp_path: Path
) -> None:
    elsewhere, out = tmp_path / "elsewhere", tmp_path / "o"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(elsewhere)
    result = cli("build", campaign_location, "-o", out, "--cache-dir", tmp_path / "link", *BUILD)
    assert result.exit_code == 0, result.output
    assert (out / "sheet-ann.pdf").read_bytes().startswith(b"%PDF")
    notes = [line for line in result.stderr.splitlines() if "render cache not used" in line]
    assert len(notes) == 1 and "is a symbolic link" in notes[0], result.stderr
    assert _entries(elsewhere) == []


def test_the_default_cache_folder_as_a_symlink_or_open_to_others_is_refused(
    cli: Cli, campaign_location: Path, tmp_path: Path
) -> None:
    out, elsewhere = tmp_path / "o", tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    folder = cache_folder(campaign_location, out)
    folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.symlink_to(elsewhere)
    result = cli("build", campaign_location, "-o", out, *BUILD)
    assert result.exit_code == 0 and "render cache not used" in result.stderr
    assert _entries(elsewhere) == []
    folder.unlink()
    folder.mkdir(mode=0o700)
    folder.chmod(0o770)
    result = cli("build", campaign_location, "-o", out, *BUILD)
    assert result.exit_code == 0 and "may be written by others" in result.stderr
    assert _entries(folder) == []
    assert (out / "sheet-ann.pdf").read_bytes().startswith(b"%PDF")


def test_our_own_key_folder_left_group_writable_is_made_private(tmp_path: Path) -> None:
    """The stamps and locks make the folder with the umask's mode (0775 under umask 002)."""
    base = tmp_path / "scratchpress"
    base.mkdir()
    base.chmod(0o775)
    cache_module._key_at.cache_clear()
    try:
        assert len(cache_module._key_at(base)) == 32
    finally:
        cache_module._key_at.cache_clear()
    assert _mode(base) == 0o700


@pytest.mark.parametrize("grown", [".pdf", ".json"])
def test_a_cache_file_larger_than_any_entry_is_a_miss_and_is_not_read(
    tmp_path: Path, grown: str
) -> None:
    """A cache folder may be one the user named (--cache-dir); a file there grown to many
    gigabytes (sparse: a few bytes on disk) must not be read into memory to be checked."""
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    key = "1" * 64
    RenderCache(folder).put(key, b"%PDF an entry" * 100, {"pages": 1})
    with (folder / f"{key}{grown}").open("r+b") as entry:
        entry.truncate(cache_module.MAX_PDF_ENTRY_BYTES + 1)
    import tracemalloc

    cache = RenderCache(folder)
    tracemalloc.start()
    try:
        assert cache.get(key) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024
