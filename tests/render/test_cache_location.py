"""Where the render cache lives (issue 13): never in the output folder, in folders that are
the user's alone, pruned only of entries it signed itself."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from scratchpress.render import cache as cache_module
from scratchpress.render.cache import (
    KEY_FILE,
    LEGACY_CACHE_DIR,
    RenderCache,
    cache_folder,
    user_cache_base,
)
from scratchpress.render.manifest import MANIFEST

from conftest import Cli

FAST_SHEET = "<!DOCTYPE html><html><body><h1>{{ identity.name }}</h1></body></html>\n"
PARTY = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"
BUILD = ("--only", "sheets", "-j", "1")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "c"
    (folder / "theme" / "sheet").mkdir(parents=True)
    (folder / "theme" / "sheet" / "sheet.html").write_text(FAST_SHEET)
    (folder / "party.yaml").write_text(PARTY)
    return folder


def test_a_symlinked_old_cache_folder_in_the_output_is_never_written_or_pruned(
    cli: Cli, campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
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
    assert cli("build", campaign, "-o", out, *BUILD).exit_code == 0
    (campaign / "party.yaml").write_text(PARTY.replace("Ann", "Anna"))  # leaves a stale entry
    assert cli("build", campaign, "-o", out, *BUILD).exit_code == 0
    assert _tree(victim) == before
    assert (out / LEGACY_CACHE_DIR).is_symlink()
    assert any(cache_folder(campaign, out).glob("*.pdf"))  # the cache went where it belongs


def test_the_output_folder_holds_only_pdfs_and_the_manifest(
    cli: Cli, campaign: Path, tmp_path: Path
) -> None:
    out = tmp_path / "o"
    assert cli("build", campaign, "-o", out, *BUILD).exit_code == 0
    assert _entries(out) == [MANIFEST, "sheet-ann.pdf"]
    folder = cache_folder(campaign, out)
    assert folder.parent.parent == user_cache_base()
    assert any(folder.glob("*.pdf"))
    for made in (folder, folder.parent):
        assert _mode(made) == 0o700, made
    assert not _mode(user_cache_base()) & 0o022  # shared with the stamps and the locks
    assert _mode(user_cache_base() / KEY_FILE) == 0o600


def test_two_output_folders_get_two_cache_folders(cli: Cli, campaign: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "o1", tmp_path / "o2"
    assert cli("build", campaign, "-o", first, *BUILD).exit_code == 0
    assert cli("build", campaign, "-o", second, *BUILD).exit_code == 0
    assert cache_folder(campaign, first) != cache_folder(campaign, second)
    assert any(cache_folder(campaign, first).glob("*.pdf"))
    assert any(cache_folder(campaign, second).glob("*.pdf"))
    # Keyed by real paths: the same folders reached through a link share one cache.
    (tmp_path / "link").symlink_to(tmp_path)
    assert cache_folder(tmp_path / "link" / "c", tmp_path / "link" / "o1") == cache_folder(
        campaign, first
    )


def test_cache_dir_puts_the_entries_there(cli: Cli, campaign: Path, tmp_path: Path) -> None:
    chosen, out = tmp_path / "my-cache", tmp_path / "o"
    result = cli("build", campaign, "-o", out, "--cache-dir", chosen, *BUILD)
    assert result.exit_code == 0, result.output
    names = _entries(chosen)
    assert any(n.endswith(".pdf") for n in names) and any(n.endswith(".json") for n in names)
    assert all(cache_module._ENTRY.fullmatch(n) for n in names), names
    assert _mode(chosen) == 0o700
    assert not cache_folder(campaign, out).exists()
    assert _entries(out) == [MANIFEST, "sheet-ann.pdf"]
    again = cli("build", campaign, "-o", out, "--cache-dir", chosen, "--force", *BUILD)
    assert "from cache" in again.output


def test_the_environment_can_name_the_cache_folder(
    cli: Cli, campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCRATCHPRESS_CACHE_DIR", str(tmp_path / "env-cache"))
    assert cli("build", campaign, "-o", tmp_path / "o", *BUILD).exit_code == 0
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
    cli: Cli, campaign: Path, tmp_path: Path
) -> None:
    elsewhere, out = tmp_path / "elsewhere", tmp_path / "o"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(elsewhere)
    result = cli("build", campaign, "-o", out, "--cache-dir", tmp_path / "link", *BUILD)
    assert result.exit_code == 0, result.output
    assert (out / "sheet-ann.pdf").read_bytes().startswith(b"%PDF")
    notes = [line for line in result.stderr.splitlines() if "render cache not used" in line]
    assert len(notes) == 1 and "is a symbolic link" in notes[0], result.stderr
    assert _entries(elsewhere) == []


def test_the_default_cache_folder_as_a_symlink_or_open_to_others_is_refused(
    cli: Cli, campaign: Path, tmp_path: Path
) -> None:
    out, elsewhere = tmp_path / "o", tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    folder = cache_folder(campaign, out)
    folder.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    folder.symlink_to(elsewhere)
    result = cli("build", campaign, "-o", out, *BUILD)
    assert result.exit_code == 0 and "render cache not used" in result.stderr
    assert _entries(elsewhere) == []
    folder.unlink()
    folder.mkdir(mode=0o700)
    folder.chmod(0o770)
    result = cli("build", campaign, "-o", out, *BUILD)
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
