"""What ``build --watch`` keeps warm between builds in its one process."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from ..definitions.yamlsafe import ParseMemo
from ..render.impose import Imposer
from ..render.jobs import Job

WARM_UP_SECONDS = 3.0  # how long `build --watch` may spend warming its renderer, once


@dataclass
class BuildSession:
    """What ``build --watch`` keeps from one build to the next in its one process: cache
    entries already checked, each deck's imposer with its sources open, the last parse of
    each definitions file, and whether the renderer has been warmed. A plain build has none
    and keeps nothing."""

    memory: dict[str, Any] = field(default_factory=dict)
    imposers: dict[str, Imposer] = field(default_factory=dict)
    parse: ParseMemo = field(default_factory=ParseMemo)
    warm: bool = False

    def imposer(self, stem: str) -> Imposer:
        if stem not in self.imposers:
            self.imposers[stem] = Imposer()
        return self.imposers[stem]

    def warm_up(self, jobs: list[Job]) -> None:
        """Once, render in this process the smallest job of each kind: later workers fork
        from a parent whose fonts, shaping and style caches are warm, which halves the time
        one edited card takes. Each job has already rendered within its limits, in a worker
        of this build or of one whose result the cache holds, so it is known to finish;
        warming stops after a few seconds."""
        if self.warm or not jobs:
            return
        self.warm = True
        from ..render import engine

        smallest: dict[str, Job] = {}
        for job in jobs:
            if job.kind not in smallest or job.size < smallest[job.kind].size:
                smallest[job.kind] = job
        started = time.monotonic()
        for job in sorted(smallest.values(), key=lambda job: job.size):
            if time.monotonic() - started > WARM_UP_SECONDS:
                break
            with contextlib.suppress(Exception):
                engine.render_pdf(job.html, job.base_dir, list(job.roots))
