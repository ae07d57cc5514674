"""Our temp files: named as only we name them, and only those are removed as leftovers.
(Atomic writes themselves are tested with the fetcher's, in test_fetcher.py section 11.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scratchpress.render import files
from scratchpress.render.files import TEMP_NAME, clean_stale_temps, temp_name, write_atomic


def test_a_write_goes_through_a_temp_file_of_our_shape(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str] = []
    real_replace = os.replace

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        seen.append(Path(source).name)
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", replace)
    write_atomic(tmp_path / "sheet.pdf", b"%PDF")
    [name] = seen
    assert TEMP_NAME.fullmatch(name), name
    assert name.startswith(".scratchpress-") and name.endswith(".sp.tmp")


def test_temp_names_are_new_each_time() -> None:
    names = {temp_name() for _ in range(100)}
    assert len(names) == 100 and all(TEMP_NAME.fullmatch(n) for n in names)


@pytest.mark.parametrize(
    "name",
    [
        ".scratchpress-notes.tmp",  # a GM's own file, named like ours before issue 31
        ".scratchpress-0123456789abcdef.tmp",
        ".scratchpress-0123456789abcdef.sp.tmp.bak",
        ".scratchpress-0123456789ABCDEF.sp.tmp",
        ".scratchpress-0123456789abcde.sp.tmp",
        "x.scratchpress-0123456789abcdef.sp.tmp",
    ],
)
def test_a_file_not_named_as_we_name_temps_stays(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("the GM's own")
    assert clean_stale_temps(tmp_path) == 0
    assert (tmp_path / name).read_text() == "the GM's own"


def test_our_leftovers_go_but_a_link_or_a_folder_of_that_name_stays(tmp_path: Path) -> None:
    (tmp_path / "png").mkdir()
    ours = [tmp_path / temp_name(), tmp_path / "png" / temp_name()]
    for path in ours:
        path.write_bytes(b"half a PDF")
    target = tmp_path / "precious.txt"
    target.write_text("precious")
    link, folder = tmp_path / temp_name(), tmp_path / temp_name()
    link.symlink_to(target)
    folder.mkdir()
    assert clean_stale_temps(tmp_path) == 2
    assert not any(path.exists() for path in ours)
    assert link.is_symlink() and folder.is_dir() and target.read_text() == "precious"


def test_subfolders_are_left_alone_when_told(tmp_path: Path) -> None:
    (tmp_path / "png").mkdir()
    inside = tmp_path / "png" / temp_name()
    inside.write_bytes(b"another build's")
    assert clean_stale_temps(tmp_path, subfolders=False) == 0
    assert inside.exists()


def test_a_stop_during_a_held_step_waits_for_the_step_to_end() -> None:
    """A stop signal may reach another thread of ours, whose handler then runs in the main
    thread at once, mask or no mask: while a file is being written and announced the stop
    is remembered, and raised when that step ends; outside one, the handler stops now."""
    from scratchpress.render.files import signals_held, stop_waits

    steps: list[str] = []
    with pytest.raises(KeyboardInterrupt), signals_held():
        steps.append("written")
        assert stop_waits()  # the handler: the stop must wait
        steps.append("announced")
    assert steps == ["written", "announced"]
    assert not stop_waits()  # no step held: stop at once, nothing left waiting
    with signals_held():
        pass  # and no stale stop raised by the next step
