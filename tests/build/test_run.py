"""One build, phase by phase (build/run.py): what the build's own process holds while
documents wait for their workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from scratchpress import api
from scratchpress.build import run as run_module

from conftest import WriteCampaign

pytestmark = pytest.mark.usefixtures("stand_in_renderer")

PARTY = "".join(
    f"  - name: Guard {i}\n    abilities: {{shooting: 2, toughness: 3}}\n" for i in range(4)
)


def _built(folder: Path, out: Path) -> dict[str, bytes]:
    report = api.build(api.open_campaign(api.find_campaign([folder])), {"only": "sheets"}, out)
    assert report.problems == []
    return {w.path.name: w.path.read_bytes() for w in report.written}


def test_html_past_the_budget_waits_on_disk_and_prints_the_same(
    write_campaign: WriteCampaign, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stranger's theme can make every sheet's HTML huge: past HTML_IN_MEMORY the build
    keeps each in a private file, so its own process holds one document's at a time."""
    folder = write_campaign({"party.yaml": "characters:\n" + PARTY})
    kept_in_memory = _built(folder, tmp_path / "memory")
    spools: list[Path] = []
    real_kept = run_module.BuildRun.kept

    def kept(self: run_module.BuildRun, job: run_module.Job) -> run_module.Job:
        job = real_kept(self, job)
        if isinstance(job.source, Path):
            spools.append(job.source)
        return job

    monkeypatch.setattr(run_module, "HTML_IN_MEMORY", 0)
    monkeypatch.setattr(run_module.BuildRun, "kept", kept)
    spooled = _built(folder, tmp_path / "spooled")
    assert len(spools) == 4  # every sheet waited on disk
    assert spooled == kept_in_memory
    assert not any(path.exists() for path in spools)  # and the files are gone after
