"""What the preview shows, kept in memory, and the builds that change it.

Builds run on the main thread (Ctrl-C must reach a build there); page images are made on
the server's worker threads as the browser asks for them, one at a time under the
``pdfium`` lock (pypdfium2 is not thread-safe, which is also why a preview build skips
the completeness audit). The server reads snapshots under ``lock`` and is told of every
change through ``on_change``.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import api
from ..problems import Problem

# How long reading a build's source links waits for the browser to fetch its first page
# image: that image is what the GM is waiting for (bench/preview.py), the links can follow.
LINKS_WAIT_S = 0.25


def problem_json(problem: Problem) -> dict[str, Any]:
    return {
        "text": str(problem),
        "message": problem.message,
        "file": problem.file,
        "line": problem.line,
        "entry": problem.entry,
        "field": problem.field,
        "severity": problem.severity,
    }


@dataclass
class Built:
    """A document as a build wrote it."""

    name: str
    title: str
    kind: str
    pdf: bytes
    sizes: list[tuple[float, float]]


@dataclass
class Doc:
    """One printable: its PDF, the page images made of it so far, and its problems."""

    name: str  # the PDF's file name: how the page, the URL and the problems name it
    title: str
    kind: str
    digest: str
    version: int
    pdf: bytes
    sizes: list[tuple[float, float]]  # each page's width and height (its shape on screen)
    images: dict[int, bytes] = field(default_factory=dict)  # by page number, made on demand
    anchors: list[list[dict[str, Any]]] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)
    ready: bool = False  # its numbers' source links read for this version of the PDF

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "kind": self.kind,
            "version": self.version,
            "pages": len(self.sizes),
            "sizes": self.sizes,
            "ready": self.ready,
            "problems": self.problems,
        }


class Preview:
    """The campaign as the browser sees it, rebuilt by :meth:`build`."""

    def __init__(self, found: api.Found, rules: str | None = None, dpi: int = 110) -> None:
        self.found, self.rules, self.dpi = found, rules, dpi
        self.folder = api.preview_folder(found)
        self.session = api.BuildSession()
        self.lock = threading.Lock()
        self.pdfium = threading.Lock()  # pdfium is not thread-safe
        self.docs: dict[str, Doc] = {}
        self.top: list[dict[str, Any]] = []  # problems of no one document
        self.stale = False  # the last build failed: the pages shown are the last good ones
        self.building = False
        self.showing: str | None = None  # the document on screen: its images come first
        self.version = 0
        self.sources: dict[str, Path] = {}
        self.on_change: Callable[[], None] = lambda: None
        # Set when the browser has had a page image since the last build: reading the new
        # source links waits for it (a moment at most), so that it does not hold the
        # interpreter while the page the GM is looking at is drawn.
        self.served = threading.Event()

    # -------------------------------------------------------------- read by the server

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return {
                "version": self.version,
                "stale": self.stale,
                "building": self.building,
                "problems": list(self.top),
                "documents": [doc.summary() for doc in self.docs.values()],
            }

    def image(self, name: str, page: int) -> bytes | None:
        """Page ``page`` of document ``name`` as PNG, made the first time it is asked for:
        a 60-page deck with one card changed costs the pages the GM looks at, not 60."""
        with self.lock:
            doc = self.docs.get(name)
            if doc is None or not 1 <= page <= len(doc.sizes):
                return None
            if page in doc.images:
                return doc.images[page]
            pdf = doc.pdf
        with self.pdfium:
            [image] = api.page_images(pdf, self.dpi, [page])
        with self.lock:
            doc.images[page] = image
        self.served.set()
        return image

    def anchors(self, name: str) -> list[list[dict[str, Any]]] | None:
        with self.lock:
            doc = self.docs.get(name)
            return None if doc is None else doc.anchors

    def holding(self, file: str, line: str) -> list[str]:
        """The documents with a number whose source is ``file`` at ``line``."""
        with self.lock:
            return [
                doc.name
                for doc in self.docs.values()
                if any(
                    str(a.get("file")) == file and str(a.get("line")) == line
                    for page in doc.anchors
                    for a in page
                )
            ]

    def source(self, file: str) -> Path | None:
        """The campaign file ``file`` names, or None: nothing else is ever shown."""
        with self.lock:
            return self.sources.get(file)

    def show(self, name: str) -> None:
        with self.lock:
            self.showing = name

    # -------------------------------------------------------------- the main thread

    def _changed(self) -> None:
        self.version += 1
        self.on_change()

    def build(self) -> None:
        """Read and build; tell the page which documents changed (it asks for their
        images), then read their numbers' source links, the one on screen first."""
        with self.lock:
            self.building = True
            self.served.clear()
            self._changed()
        self._refresh_sources()
        problems, written = self._run()
        with self.lock:
            self.building = False
            if written is None:
                self.stale = True
                self._place(problems)
            else:
                self.stale = False
                self._update(written)
                self._place(problems)
            changed = any(not doc.ready for doc in self.docs.values())
            self._changed()
        if changed:
            self.served.wait(LINKS_WAIT_S)
        while self._read_links():
            pass

    def _refresh_sources(self) -> None:
        try:
            sources = api.source_files(self.found)
        except (api.InputError, OSError):
            return  # the last known list stands: a refused file stays refused
        with self.lock:
            self.sources = sources

    def _run(self) -> tuple[list[Problem], list[Built] | None]:
        """The problems found, and each document written (None when nothing could be
        built: the pages on screen stay, marked stale)."""
        try:
            opened = api.open_campaign(self.found, rules=self.rules, memo=self.session.parse)
        except api.InputError as err:
            return err.problems, None
        if opened.blocking:
            return opened.computed.problems, None
        fresh: dict[str, bytes] = {}
        try:
            report = api.build(
                opened,
                # The preview shows every page, problems beside them, whatever the
                # campaign's settings ask of its own builds.
                {"png": False, "strict": False, "print_all": False},
                self.folder,
                force=True,
                session=self.session,
                progress=lambda done: self._written(done, fresh),
                preview=True,
            )
        except api.InputError as err:
            return [*opened.computed.warnings, *err.problems], None
        except (api.UsageError, api.CannotWrite, api.OutputBusy) as err:
            return [*opened.computed.warnings, Problem(str(err) or "the build was refused")], None
        problems = [*opened.computed.warnings, *report.problems, *report.lint]
        problems += [Problem(warning, severity="warning") for warning in report.warnings]
        written: list[Built] = []
        for done in report.written:
            if done.printers_copy:
                continue
            try:
                pdf = fresh.get(done.path.name) or done.path.read_bytes()
            except OSError as err:
                problems.append(Problem(f"cannot read the preview: {err.strerror}", done.path.name))
                continue
            written.append(
                Built(done.path.name, done.document.title, done.document.kind, pdf, done.page_sizes)
            )
        return problems, written

    def _written(self, done: api.Written, fresh: dict[str, bytes]) -> None:
        """A document the running build has just written, on screen at once: the GM's
        page is not held back by the documents after it, nor by the build's bookkeeping."""
        if done.printers_copy:
            return
        try:
            pdf = done.path.read_bytes()
        except OSError:
            return  # read again, and said if it still cannot be, once the build is over
        fresh[done.path.name] = pdf
        built = Built(done.path.name, done.document.title, done.document.kind, pdf, done.page_sizes)
        with self.lock:
            old = self.docs.get(built.name)
            self.docs[built.name] = self._take(built)
            if self.docs[built.name] is not old:
                self._changed()

    def _take(self, built: Built) -> Doc:
        """The document as ``built``: the one on screen if its PDF is the same, else a new
        version of it."""
        digest = hashlib.sha256(built.pdf).hexdigest()
        old = self.docs.get(built.name)
        if old is not None and old.digest == digest:
            old.title, old.kind = built.title, built.kind
            return old
        version = old.version + 1 if old is not None else 1
        doc = Doc(built.name, built.title, built.kind, digest, version, built.pdf, built.sizes)
        if old is not None:  # its numbers and problems stay until read and placed again
            doc.anchors, doc.problems = old.anchors, old.problems
        return doc

    def _update(self, written: list[Built]) -> None:
        """Every document the build wrote, in its order; any other is gone."""
        self.docs = {built.name: self._take(built) for built in written}

    def _place(self, problems: list[Problem]) -> None:
        """Each problem beside the document it belongs to (it names the PDF, or the
        document is the entry's own), else at the top, for the whole campaign."""
        by_title = {doc.title: doc for doc in self.docs.values()}
        for doc in self.docs.values():
            doc.problems = []
        self.top = []
        for problem in problems:
            owner = self.docs.get(Path(problem.file).name) if problem.file else None
            if owner is None and problem.entry is not None:
                owner = by_title.get(problem.entry)
            (owner.problems if owner is not None else self.top).append(problem_json(problem))

    def _read_links(self) -> bool:
        """Read the source links of one changed document, the one on screen first. The
        page has already been told of the new version and reloads its images meanwhile
        (made as it asks for them): the boxes over the numbers follow a moment later."""
        with self.lock:
            waiting = [doc for doc in self.docs.values() if not doc.ready]
            if not waiting:
                return False
            doc = next((d for d in waiting if d.name == self.showing), waiting[0])
            pdf, version = doc.pdf, doc.version
        anchors = api.source_anchors(pdf)
        with self.lock:
            if doc.version == version and self.docs.get(doc.name) is doc:
                doc.anchors, doc.ready = anchors, True
                self._changed()
        return True
