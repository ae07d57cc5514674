"""Writing what a build made into the output folder besides the documents themselves:
the booklet's saddle copy, ``--png`` previews, ``--print-all``, the manifest, and removing
what an earlier build wrote that this one no longer makes. Nothing here overwrites a file
we did not write."""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path

from ..definitions.files import display_path
from ..definitions.models import BuildOptions
from ..documents.base import Document
from ..problems import Problem
from ..render.files import CannotWrite, reason, signals_held, write_file
from ..render.manifest import Manifest, digest, file_digest
from ..typesetting.shops import SHOPS
from ..wording import _
from .report import BuildReport, Written


def not_ours(path: Path) -> Problem:
    """A file in the output folder the manifest does not vouch for: never replaced."""
    if path.is_symlink():  # never ours: we write files, not links
        return Problem(str(CannotWrite(display_path(path), "is a symbolic link; refused")))
    return Problem(
        "exists and was not written by scratchpress (or was changed since);"
        " left untouched; use --force to replace it",
        display_path(path),
    )


def write_saddle(
    document: Document,
    pdf: bytes,
    out_dir: Path,
    manifest: Manifest,
    force: bool,
    report: BuildReport,
    written: Written,
    owner: str,
) -> None:
    """The printer's copy: pages reordered 2-up for folding and stapling, listed and
    counted like any document. The tagged reading copy stays as it is beside it."""
    from ..documents.booklet.imposition import printers_copy, saddle_order

    name = f"{document.stem}-saddle.pdf"
    if not force and not manifest.may_write(name):
        report.problems.append(not_ours(out_dir / name))
        return
    sheet = document.context.get("saddle") or {}
    imposed = printers_copy(pdf, sheet.get("size_pt"))
    try:
        manifest.announce(name, imposed, document.kind, owner)
        write_file(out_dir / name, imposed, out_dir, shown=display_path(out_dir / name))
    except CannotWrite as err:
        report.problems.append(Problem(str(err)))
        return
    manifest.record(name, imposed, document.kind, owner)
    sides = len(saddle_order(written.pages))  # two pages a side, both sides of each sheet
    width, height = written.page_sizes[0]
    report.written.append(
        dataclasses.replace(
            written,
            path=out_dir / name,
            pages=sides,
            sheets=sides // 2,
            page_sizes=[sheet.get("size_pt") or (2 * width, height)] * sides,
            printers_copy=True,
            paper=sheet.get("paper"),
        )
    )


def _write_ours(
    name: str,
    data: bytes,
    kind: str,
    out_dir: Path,
    manifest: Manifest,
    force: bool,
    report: BuildReport,
    owner: str,
) -> bool:
    """One file of the build's own (not a document) into the output folder, as the
    documents are: never over a file we did not write, recorded in the manifest."""
    target = out_dir / name
    if not force and not manifest.may_write(name) and not _same_bytes(target, data):
        report.problems.append(not_ours(target))
        return False
    try:
        if not manifest.holds(name, data):
            manifest.announce(name, data, kind, owner)
            write_file(target, data, out_dir, shown=display_path(target))
    except CannotWrite as err:
        report.problems.append(Problem(str(err)))
        return False
    manifest.record(name, data, kind, owner)
    return True


PNG_FOLDER = "png"


CONTACT_KINDS = {"events", "careers", "initiative"}  # decks get a one-image preview too


def write_previews(
    out_dir: Path, manifest: Manifest, force: bool, report: BuildReport, owner: str
) -> None:
    """``--png``: every page as ``png/<stem>-NN.png``, and a contact sheet per deck. They
    are output like the PDFs: in the manifest, never written over a file we did not
    write, never through a link."""
    from ..render.png import MAX_PNG_PAGES, contact_sheet, page_pngs

    for written in report.written:
        if written.printers_copy:  # the booklet's own pages are previewed already
            continue
        images = page_pngs(written.path)
        if written.pages > MAX_PNG_PAGES:
            report.notes.append(
                f"note: {written.path.name} has {written.pages} pages; --png makes pictures"
                f" of the first {MAX_PNG_PAGES} only"
            )
        if written.document.kind in CONTACT_KINDS:
            sheet = contact_sheet(written.path)
            if sheet is not None:
                images[f"{written.path.stem}-contact.png"] = sheet
        kind = written.document.kind
        for name, data in images.items():
            relative = f"{PNG_FOLDER}/{name}"
            if _write_ours(relative, data, kind, out_dir, manifest, force, report, owner):
                report.pngs += 1


PRINT_ALL = "print-all.pdf"
PRINT_ALL_KIND = "print-all"
PRINT_SHOP_KIND = "print-shop"


def write_print_all(
    out_dir: Path, manifest: Manifest, force: bool, report: BuildReport, owner: str
) -> None:
    """``--print-all``: every PDF this build wrote, in build order, in one file bookmarked
    by document, for a copy shop. A booklet printed saddle-stitched goes in as its saddle
    copy, not twice. Only after a build without problems: the file holds every document
    the campaign makes, or is not written (the last one stays)."""
    from ..render.viewer import print_all

    if report.problems:
        # Some document was not written this time: a copy shop's file must not silently
        # lack it, nor hold its last good copy beside this build's others.
        report.notes.append(f"{PRINT_ALL} not written: the build has problems (above)")
        return
    saddled = {id(w.document) for w in report.written if w.printers_copy}
    chosen = [
        w for w in report.written if w.printers_copy or id(w.document) not in saddled
    ]
    if not chosen:
        return
    target = out_dir / PRINT_ALL
    if not force and not manifest.may_write(PRINT_ALL):
        report.problems.append(not_ours(target))
        return
    parts = []
    for written in chosen:
        title = written.document.title
        try:
            pdf = written.path.read_bytes()
        except OSError as err:  # removed or replaced since this build wrote it
            said = f"{PRINT_ALL} not written: cannot read it: {reason(err)}"
            report.problems.append(Problem(said, display_path(written.path)))
            return
        if written.printers_copy:  # a bookmark, shown in the reader: in the build's language
            title = _("%(title)s (saddle copy)") % {"title": title}
        parts.append((title, pdf))
    data = print_all(parts)
    if not _write_ours(PRINT_ALL, data, PRINT_ALL_KIND, out_dir, manifest, force, report, owner):
        return
    pages = sum(w.pages for w in chosen)
    documents = "1 document" if len(chosen) == 1 else f"{len(chosen)} documents"
    report.notes.append(
        f"{PRINT_ALL}: {documents} in one file, {pages} pages, a bookmark for"
        f" {'it' if len(chosen) == 1 else 'each'}, for a copy shop"
    )




def write_shop_files(
    out_dir: Path,
    manifest: Manifest,
    force: bool,
    report: BuildReport,
    owner: str,
    strict: bool,
) -> None:
    """``--for SHOP``: each shop deck's face images where the shop takes images (one PNG
    a front, one for the back when every card shares it), then the preflight of every
    file in ``<shop>/preflight.txt`` and ``.json``. A finding is a layout warning, an
    error with ``--strict``."""
    import json

    from ..render.png import face_pngs
    from ..render.preflight import check_images, check_pdf, report_json, report_text
    from ..typesetting.shops import PRESS_DPI

    decks = [w for w in report.written if w.document.shop is not None]
    if not decks:
        return
    shop = decks[0].document.shop
    assert shop is not None
    files = []
    for written in decks:
        relative = written.document.filename
        try:
            pdf = written.path.read_bytes()
        except OSError as err:
            report.problems.append(Problem(f"cannot read it: {reason(err)}", relative))
            continue
        files.append(check_pdf(pdf, shop, relative))
        if shop.images is None:
            continue
        faces = face_pngs(pdf, shop.images, PRESS_DPI)
        fronts, backs = faces[0::2], faces[1::2]
        folder = f"{shop.name}/{written.document.stem.removesuffix('-' + shop.name)}"
        images = {f"{folder}/{n:03d}-front.png": data for n, data in enumerate(fronts, 1)}
        if len(set(backs)) == 1:  # one back for the whole deck, uploaded once
            images[f"{folder}/back.png"] = backs[0]
        else:
            images.update({f"{folder}/{n:03d}-back.png": data for n, data in enumerate(backs, 1)})
        kind = written.document.kind
        for name, data in images.items():
            if _write_ours(name, data, kind, out_dir, manifest, force, report, owner):
                report.pngs += 1
        files.append(check_images(images, shop, f"{folder}/"))
    text = report_text(shop, files).encode()
    data = (json.dumps(report_json(shop, files), indent=2, ensure_ascii=False) + "\n").encode()
    for suffix, content in (("txt", text), ("json", data)):
        name = f"{shop.name}/preflight.{suffix}"
        _write_ours(name, content, PRINT_SHOP_KIND, out_dir, manifest, force, report, owner)
    findings = [
        Problem(f"preflight for {shop.title}: {check.name}: {finding}", report_file.file)
        for report_file in files
        for check in report_file.checks
        for finding in check.findings
    ]
    if strict:
        report.problems += findings
    else:
        report.lint += [dataclasses.replace(f, severity="warning") for f in findings]
    total = sum(f.findings for f in files)
    report.notes.append(
        f"{shop.name}/preflight.txt: {total} finding{'s' if total != 1 else ''}"
        f" in {len(decks)} deck{'s' if len(decks) != 1 else ''} for {shop.title}"
    )


def remove_unmade(
    out_dir: Path,
    manifest: Manifest,
    kinds: set[str],
    owner: str,
    documents: list[Document],
    options: BuildOptions,
    report: BuildReport,
) -> None:
    """Remove what an earlier build of these kinds wrote and this one no longer makes (a
    renamed character's old sheet, a saddle copy no longer asked for), so it is not
    printed with the rest; files anyone changed since are left alone. Documents that
    failed to render this time still count as made: their last good PDF stays."""
    made = {d.filename for d in documents}
    made |= {f"{d.stem}-saddle.pdf" for d in documents if d.kind == "booklets"}
    stems = {d.stem for d in documents}

    def still_made(name: str) -> bool:
        if name == PRINT_ALL:  # this build wrote it again, or it no longer says what was made
            return options.print_all
        folder = name.partition("/")[0]
        if folder in SHOPS and not name.endswith(".pdf"):  # a shop's images and preflight
            return folder == options.print_shop and name in manifest.recorded
        if name.startswith(f"{PNG_FOLDER}/"):
            if options.png:  # this build wrote every page image it makes
                return name in manifest.recorded
            # Without --png, the page images of a document still made stay as they were.
            stem = name.removeprefix(f"{PNG_FOLDER}/").rpartition("-")[0]
            return stem in stems
        if name.endswith("-saddle.pdf") and options.impose != "saddle":
            return False
        return name in made

    # A shop's report goes with its decks: kept by a build that made no deck.
    shop = {PRINT_SHOP_KIND} if kinds & {"events", "careers"} else set()
    for name in manifest.unmade(kinds | {PRINT_ALL_KIND} | shop, owner, still_made):
        try:
            (out_dir / name).unlink()
        except OSError:
            continue  # still ours in the manifest: the next build tries again
        manifest.forget(name)
        report.removed.append(name)
        folder = (out_dir / name).parent
        with contextlib.suppress(OSError):  # a folder anyone put a file in stays
            while folder != out_dir and not any(folder.iterdir()):
                folder.rmdir()  # a shop's folder, emptied: gone with its last file
                folder = folder.parent
    if report.removed:
        shown = ", ".join(report.removed[:5]) + (", …" if len(report.removed) > 5 else "")
        count = len(report.removed)
        files = f"{count} file{'s' if count != 1 else ''}"
        note = f"removed {files} this build no longer makes: {shown}"
        report.notes.append(note)
        report.removal_notes.append(note)


def _same_bytes(path: Path, data: bytes) -> bool:
    """A picture already there with exactly our bytes (an older version wrote it before
    PNGs were in the manifest) is ours to record, not a GM's file to refuse."""
    return path.is_file() and not path.is_symlink() and file_digest(path) == digest(data)


def save_manifest(manifest: Manifest, report: BuildReport) -> None:
    report.problems += [Problem(message) for message in manifest.problems]
    try:
        with signals_held():
            manifest.save()
    except CannotWrite as err:
        # The PDFs are written, and the journal beside the manifest still vouches for
        # them; but say so: something is wrong with the output folder.
        report.problems.append(Problem(str(err)))
    finally:
        manifest.close()
