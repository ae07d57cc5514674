"""Several documents of one kind rendered as one WeasyPrint document, then split.

Ten character sheets are ten documents with the same stylesheet. Rendered one by one, each
parses that stylesheet, computes the styles of every element afresh and pays a worker's
start; rendered as one document, WeasyPrint shares the computed styles of alike elements
between sheets (render/inline_styles.py) and the ten take about two thirds of the time.
The pages are then split back into one PDF per document, each written by WeasyPrint
itself (``Document.copy``, in render/weasy.py), so a sheet's PDF keeps its own title,
bookmarks and fonts.

Only documents whose whole head (but the title) and body tag are the same go together:
the same paper, palette and density, and no rule aimed at the body's children. A campaign
with a theme keeps its sheets apart (build.py): its CSS could count pages, pick first or
left pages, or repeat fixed boxes, and those would run on from one sheet to the next.
Each one sits in a ``div`` of its own that starts a page, so every page belongs to exactly
one of them. A batch that warns about anything, or fails, is rendered again one document
at a time (build.py), so that each message names the file it is about.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from . import weasy
from .jobs import Job, Part

# Printables made of whole pages per document, with no per-document page furniture.
MERGED_KINDS = frozenset({"sheets", "vehicles"})
MOST_PARTS = 8  # documents in one render: a batch stays within a few seconds
PART_CLASS = "sp-part"

_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
# A rule for the body's own children ("body > section", "body.sheet-doc > .page") would no
# longer match inside a part's div: a theme that writes one keeps its sheets apart.
_BODY_CHILD = re.compile(r"\bbody(?:[.#:\[][^\s>{},]*)*\s*>")
_BODY = re.compile(r"<body\b[^>]*>")


def _split(document: str) -> tuple[str, str, str, str] | None:
    """(head without its title, body tag, body content, title) of one of our documents."""
    body = _BODY.search(document)
    title = _TITLE.search(document)
    end = document.rfind("</body>")
    if body is None or title is None or end < body.end():
        return None
    head = document[: title.start()] + document[title.end() : body.start()]
    return head, body.group(0), document[body.end() : end], html.unescape(title.group(1))


def merge(documents: list[tuple[str, str]]) -> tuple[str, tuple[Part, ...]] | None:
    """One HTML document holding ``documents`` ((key, html) pairs, in order), each in a
    page-starting ``div``; None when they do not share a head and body tag."""
    pieces = [_split(text) for _, text in documents]
    shared = {(piece[0], piece[1]) if piece else None for piece in pieces}
    if len(shared) != 1 or pieces[0] is None or _BODY_CHILD.search(pieces[0][0]):
        return None
    body_tag = pieces[0][1]
    first = documents[0][1]
    start = first[: first.index("</head>")]  # the first title: each PDF gets its own
    breaks = f"<style>.{PART_CLASS} + .{PART_CLASS} {{ break-before: page; }}</style>\n"
    parts = []
    body = []
    for index, ((key, _), piece) in enumerate(zip(documents, pieces, strict=True)):
        assert piece is not None
        parts.append(Part(key, piece[3]))
        body.append(f'<div class="{PART_CLASS}" data-part="{index}">{piece[2]}</div>\n')
    merged = f"{start}{breaks}</head>\n{body_tag}\n{''.join(body)}</body>\n</html>\n"
    return merged, tuple(parts)


def merged_key(parts: tuple[Part, ...]) -> str:
    return hashlib.sha256("merged:".join(part.key for part in parts).encode()).hexdigest()


def merge_jobs(jobs: list[Job], workers: int) -> tuple[list[Job], dict[str, list[Job]]]:
    """``jobs`` with the documents that can go together as merged jobs: per kind and
    look, when there are more of them than workers, split evenly over the workers, at most
    MOST_PARTS each. Also returns each merged job's own jobs, by its key, for rendering
    them one by one if it must."""
    groups: dict[tuple[str, str, str], list[Job]] = {}
    for job in jobs:
        if isinstance(job.source, Path):  # spooled, being large: it renders alone
            continue
        piece = _split(job.source)
        if job.kind in MERGED_KINDS and not job.pdf_variant and not job.parts and piece:
            groups.setdefault((job.kind, piece[0], piece[1]), []).append(job)
    merged: dict[str, Job] = {}  # by the key of its first document
    originals: dict[str, list[Job]] = {}
    for group in groups.values():
        # Only more sheets than workers go together: fewer each get a core of their own.
        count = max(min(workers, len(group)), -(-len(group) // MOST_PARTS))
        for index in range(count):
            batch = group[index * len(group) // count : (index + 1) * len(group) // count]
            if len(batch) < 2:
                continue
            together = merge([(job.key, job.html) for job in batch])
            if together is None:
                continue
            text, parts = together
            job = replace(batch[0], key=merged_key(parts), source=text, parts=parts)
            merged[batch[0].key] = job
            originals[job.key] = batch
    inside = {job.key for batch in originals.values() for job in batch} - set(merged)
    return [merged.get(job.key, job) for job in jobs if job.key not in inside], originals


def page_owners(document: Any) -> list[int]:
    """For each page of a rendered merged document, the index of the part it belongs to."""
    owners = []
    for page in document.pages:
        owner = None
        for box in weasy.walk(weasy.page_box(page)):  # the page's first part div
            element = weasy.element(box)
            if element is not None and element.get("class") == PART_CLASS:
                owner = int(element.get("data-part"))
                break
        if owner is None:
            raise ValueError("a page of a merged document belongs to no part")
        owners.append(owner)
    return owners


def split(document: Any, parts: tuple[Part, ...]) -> list[Any]:
    """One WeasyPrint document per part, with that part's pages and title."""
    owners = page_owners(document)
    documents = []
    for index, part in enumerate(parts):
        pages = [page for page, owner in zip(document.pages, owners, strict=True) if owner == index]
        if not pages:
            raise ValueError(f"part {index} of a merged document has no page")
        documents.append(weasy.document_of(document, pages, part.title))
    return documents
