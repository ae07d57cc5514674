"""The manifest and its journal: every file we write is ours from the moment it is on
disk, whatever stops the build before the manifest is saved; nothing planted is ours."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from scratchpress.render.manifest import (
    JOURNAL,
    MANIFEST,
    MAX_MANIFEST_BYTES,
    MAX_OUTPUT_BYTES,
    Manifest,
)


def _written(folder: Path, name: str, data: bytes, manifest: Manifest) -> None:
    (folder / name).write_bytes(data)
    manifest.record(name, data, "sheets", "/camp")


def test_a_file_recorded_but_never_saved_is_ours_to_the_next_build(tmp_path: Path) -> None:
    first = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"%PDF a", first)
    # killed here: no save, the journal's descriptor dropped with the process
    again = Manifest(tmp_path)
    assert again.may_write("sheet-a.pdf")
    assert again.made["sheet-a.pdf"] == ("sheets", "/camp")
    assert not (tmp_path / MANIFEST).exists()


def test_the_journal_replays_over_the_saved_manifest_in_order(tmp_path: Path) -> None:
    first = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"one", first)
    first.save()
    assert not (tmp_path / JOURNAL).exists()  # folded into the manifest
    second = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"two", second)
    second.forget("sheet-b.pdf")
    third = Manifest(tmp_path)  # the second was killed before its save
    assert third.may_write("sheet-a.pdf")  # the newer bytes, from the journal
    (tmp_path / "sheet-a.pdf").write_bytes(b"one")
    assert not third.may_write("sheet-a.pdf")  # the manifest's older bytes no longer count


def test_a_line_cut_short_by_the_kill_is_skipped(tmp_path: Path) -> None:
    first = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"a", first)
    first.close()
    with (tmp_path / JOURNAL).open("a") as journal:
        journal.write('{"name":"sheet-b.pdf","sha2')
    (tmp_path / "sheet-b.pdf").write_bytes(b"b")
    again = Manifest(tmp_path)
    assert again.may_write("sheet-a.pdf")
    assert not again.may_write("sheet-b.pdf")  # never recorded: not ours
    assert again.problems == []


def test_a_file_changed_after_it_was_journaled_is_not_ours(tmp_path: Path) -> None:
    first = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"ours", first)
    (tmp_path / "sheet-a.pdf").write_bytes(b"the GM's own edit")
    assert not Manifest(tmp_path).may_write("sheet-a.pdf")


def test_a_planted_journal_link_is_never_written_through(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out"
    out.mkdir()
    (out / JOURNAL).symlink_to(victim)
    manifest = Manifest(out)
    _written(out, "sheet-a.pdf", b"a", manifest)
    assert victim.read_text() == "precious"
    [problem] = manifest.problems
    assert problem.startswith("cannot write ")
    assert problem.endswith(f"{JOURNAL}: is a symbolic link; refused")
    manifest.save()
    assert victim.read_text() == "precious"
    assert Manifest(out).may_write("sheet-a.pdf")  # the save still recorded it


@pytest.mark.parametrize("name", [MANIFEST, JOURNAL])
def test_a_huge_record_is_not_read_and_is_named(tmp_path: Path, name: str) -> None:
    with (tmp_path / name).open("wb") as planted:  # sparse: costs no disk
        planted.truncate(MAX_MANIFEST_BYTES + 1)
    manifest = Manifest(tmp_path)
    assert len(manifest.problems) == 1
    assert name in manifest.problems[0] and "not read" in manifest.problems[0]
    assert manifest.files == {}


def test_a_huge_output_file_is_not_ours_and_is_not_hashed(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"a", manifest)
    with (tmp_path / "sheet-a.pdf").open("r+b") as grown:
        grown.truncate(MAX_OUTPUT_BYTES + 1)
    assert not manifest.may_write("sheet-a.pdf")


def test_the_journal_holds_one_json_line_per_step(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path)
    _written(tmp_path, "a.pdf", b"a", manifest)
    manifest.forget("a.pdf")
    manifest.close()
    lines = [json.loads(line) for line in (tmp_path / JOURNAL).read_text().splitlines()]
    assert [sorted(step) for step in lines] == [["made", "name", "sha256"], ["forget", "name"]]
    assert os.stat(tmp_path / JOURNAL).st_size < 300


def test_a_kill_between_the_announcement_and_the_rename_leaves_a_file_we_know(
    tmp_path: Path,
) -> None:
    """The journal names a write before the file is renamed into place: killed in
    between, the old file is still ours; killed after, the new one is."""
    first = Manifest(tmp_path)
    _written(tmp_path, "sheet-a.pdf", b"old", first)
    first.save()
    second = Manifest(tmp_path)
    second.announce("sheet-a.pdf", b"new", "sheets", "/camp")  # killed here: no rename
    assert Manifest(tmp_path).may_write("sheet-a.pdf")  # the old bytes still count
    (tmp_path / "sheet-a.pdf").write_bytes(b"new")  # ... or killed just after the rename
    assert Manifest(tmp_path).may_write("sheet-a.pdf")
    (tmp_path / "sheet-a.pdf").write_bytes(b"the GM's edit")
    assert not Manifest(tmp_path).may_write("sheet-a.pdf")


def test_a_write_journaled_once_is_not_journaled_twice(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path)
    manifest.announce("a.pdf", b"a", "sheets", "/camp")
    (tmp_path / "a.pdf").write_bytes(b"a")
    manifest.record("a.pdf", b"a", "sheets", "/camp")
    manifest.close()
    assert len((tmp_path / JOURNAL).read_text().splitlines()) == 1
