"""Hostile campaigns: what a stranger's campaign folder must not be able to do to us.

Every test builds a small campaign in a temporary folder and runs the real command (or the
library function the command calls). A unique marker string stands for a secret outside the
campaign; ``leaks()`` looks for it in every file the build wrote, inside compressed PDF
streams and in the PDF's extracted text as well as in the raw bytes.

Documented gaps are ``xfail(strict=True)`` with the cause in the reason: they turn into
failures (and must be un-marked) the day they are fixed. docs/security.md lists the promises.
"""

from __future__ import annotations

import http.server
import io
import json
import os
import re
import resource
import shutil
import signal
import socketserver
import stat
import struct
import subprocess
import sys
import textwrap
import threading
import time
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner, Result

from scratchpress.build import BuildInterrupted, BuildSettings, build
from scratchpress.cli.app import app
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.definitions.yamlsafe import load_yaml
from scratchpress.problems import InputError
from scratchpress.render import files as files_module
from scratchpress.render.cache import cache_folder
from scratchpress.render.confine import RefusedResource
from scratchpress.render.engine import render_pdf
from scratchpress.render.fetcher import ConfinedFetcher
from scratchpress.render.files import TEMP_PREFIX, clean_stale_temps, write_atomic
from scratchpress.render.images import ImageProblem, portrait_data_url
from scratchpress.render.manifest import MANIFEST
from scratchpress.render.names import MAX_STEM, slug, unique_stems
from scratchpress.resources import examples_dir, templates_dir
from scratchpress.statblocks import compute_campaign

# Subprocesses run the installed scratchpress, as a user's shell would.
CHILD_ENV = dict(os.environ)
REPO = Path(__file__).resolve().parents[2]
runner = CliRunner()

MARKER = f"SCRATCHPRESS-SECRET-{uuid.uuid4().hex}"  # stands for a file we must never read
VISIBLE = f"VISIBLE-{uuid.uuid4().hex[:12]}"  # printed on purpose: proves leaks() can see text

# A sheet template that renders in a tenth of the time of ours, for tests about files,
# names and limits rather than about the sheet's look.
FAST_SHEET = "<!DOCTYPE html><html><body><h1>{{ identity.name }}</h1></body></html>\n"
ONE = "characters:\n  - name: Ann\n    abilities: {toughness: 2}\n"
TWO = ONE + "  - name: Bob\n    abilities: {wrestling: 2}\n"
WINDOWS_RESERVED = {"con", "prn", "aux", "nul"} | {
    f"{p}{i}" for p in ("com", "lpt") for i in range(10)
}


# --- helpers -------------------------------------------------------------------------------


def run(*args: str | os.PathLike[str]) -> Result:
    """``scratchpress ARGS`` in this process; never a crash, never a traceback."""
    result = runner.invoke(app, [str(a) for a in args])
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"scratchpress {args} crashed: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1), result.output
    return result


def make_campaign(
    folder: Path,
    files: dict[str, str | bytes],
    theme: dict[str, str] | None = None,
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in {**files, **{f"theme/{k}": v for k, v in (theme or {}).items()}}.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return folder


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def leaks(folder: Path, marker: str = MARKER) -> list[str]:
    """Every file under ``folder`` holding ``marker``: raw, in a decompressed PDF stream, or
    in a PDF's text (subset fonts hide text from a plain byte search)."""
    needles = (marker.encode(), marker.encode("utf-16-be"))
    found = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if any(n in data for n in needles):
            found.append(f"{path} (raw)")
            continue
        if not data.startswith(b"%PDF"):
            continue
        with pikepdf.open(io.BytesIO(data)) as pdf:
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Stream):
                    try:
                        body = obj.read_bytes()
                    except pikepdf.PdfError:
                        continue
                    if any(n in body for n in needles):
                        found.append(f"{path} (stream)")
                        break
        if marker in pdf_text(data):
            found.append(f"{path} (text)")
    return found


def tree(folder: Path, skip: Path | None = None) -> dict[str, bytes]:
    """Path -> content of every file under ``folder`` (links as their target)."""
    snapshot = {}
    for path in sorted(folder.rglob("*")):
        if skip is not None and (path == skip or skip in path.parents):
            continue
        if path.is_symlink():
            snapshot[str(path)] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            snapshot[str(path)] = path.read_bytes()
    return snapshot


def embedded_files(pdf_path: Path) -> list[str]:
    """Attachments, /EmbeddedFile streams and file-attachment annotations in a PDF."""
    found: list[str] = []
    with pikepdf.open(pdf_path) as pdf:
        found += list(pdf.attachments)
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
                if obj.get("/Type") == "/EmbeddedFile" or obj.get("/Subtype") == "/FileAttachment":
                    found.append(repr(obj.get("/Type") or obj.get("/Subtype")))
                if "/EmbeddedFiles" in obj or "/EF" in obj:
                    found.append("/EmbeddedFiles or /EF")
    return found


def png_bytes(width: int = 40, height: int = 50) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (180, 40, 40)).save(buffer, format="PNG")
    return buffer.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims ``width`` x ``height`` pixels (a decompression bomb)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def sparse_file(path: Path, size: int) -> Path:
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def timed_run(*args: str | os.PathLike[str]) -> tuple[Result, float]:
    started = time.perf_counter()
    result = run(*args)
    return result, time.perf_counter() - started


def build_in_process(
    folder: Path, out: Path, only: list[str], settings: BuildSettings | None = None
) -> Any:
    campaign = load_campaign([folder])
    return build(
        compute_campaign(campaign),
        campaign,
        BuildOptions(),
        out,
        only,
        settings=settings or BuildSettings(jobs=1, use_cache=False),
    )


# --- a test HTTP server that counts every connection -----------------------------------------


class CountingServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    connections = 0
    requests: list[str]

    def process_request(self, request: Any, client_address: Any) -> None:
        self.connections += 1
        super().process_request(request, client_address)


class RedirectHandler(http.server.BaseHTTPRequestHandler):
    """Answers everything with a redirect, so a follower would come back a second time."""

    def do_GET(self) -> None:
        self.server.requests.append(self.path)  # type: ignore[attr-defined]
        self.send_response(302)
        self.send_header("Location", f"http://127.0.0.1:{self.server.server_address[1]}/moved")
        self.end_headers()

    do_HEAD = do_GET
    do_POST = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def http_server() -> Iterator[CountingServer]:
    server = CountingServer(("127.0.0.1", 0), RedirectHandler)
    server.requests = []
    server.timeout = 1
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# --- 1-3. one hostile theme build: local files, attachments, network ----------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory, http_server: CountingServer) -> Any:
    """A campaign whose theme tries every way we know to read a file outside the campaign,
    embed a file, or reach the network; built once with the CLI (cache on, so the cache
    folder is scanned too)."""
    root = tmp_path_factory.mktemp("hostile")
    url = f"http://127.0.0.1:{http_server.server_address[1]}"
    secret = root / "secret.txt"
    secret.write_text(f"{MARKER}\n", encoding="utf-8")
    (root / "secret.css").write_text(f'body::after {{ content: "{MARKER}" }}\n', encoding="utf-8")
    (root / "secret.png").write_bytes(png_bytes())
    campaign = root / "campaign"
    sheet_html = (templates_dir() / "sheet" / "sheet.html").read_text(encoding="utf-8")
    injected = f"""{{% block body %}}
<img src="file://{secret}"><img src="file://{root / "secret.png"}">
<img src="file://{campaign / "pic.svg"}">
<img src="{url}/img.png"><p style="background: url({url}/bg.png)">net</p>
<link rel="attachment" href="file://{campaign / "party.yaml"}" title="yaml">
<link rel="attachment" href="data:text/plain,{MARKER}">
<a rel="attachment" href="file://{secret}">attached</a>
"""
    assert "{% block body %}" in sheet_html
    base_css = (templates_dir() / "base.css").read_text(encoding="utf-8")
    imports = (
        f"@import url(file://{root / 'secret.css'});\n"
        f"@import url({url}/import.css);\n"
        f"@font-face {{ font-family: Remote; src: url({url}/font.ttf); }}\n"
    )
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        ' width="20" height="20">'
        f'<image href="{url}/svg.png" width="10" height="10"/>'
        f'<image xlink:href="file://{secret}" width="10" height="10"/>'
        '<rect width="5" height="5"/></svg>'
    )
    party = f"""\
characters:
  - name: Ann
    description: {VISIBLE}
    abilities:
      toughness: {{level: 2, note: '<img src="file://{secret}">'}}
  - name: Bob
    abilities: {{wrestling: 2}}
"""
    make_campaign(
        campaign,
        {"party.yaml": party, "pic.svg": svg},
        theme={
            "sheet/sheet.html": sheet_html.replace("{% block body %}", injected, 1),
            "base.css": imports + base_css,
        },
    )
    out = root / "out"
    result = run("build", campaign, "-o", out, "--only", "sheets,initiative", "-j", "1")
    return {"result": result, "out": out, "root": root, "campaign": campaign, "url": url}


def test_leak_scanner_sees_printed_text(hostile: Any) -> None:
    """The control: a marker we print on purpose is found, so an empty leaks() means something."""
    assert leaks(hostile["out"], VISIBLE)


def test_theme_file_urls_outside_the_campaign_are_refused(hostile: Any) -> None:
    result, root = hostile["result"], hostile["root"]
    assert result.exit_code == 1
    assert f"{root / 'secret.txt'} is outside the campaign" in result.output
    assert f"{root / 'secret.png'} is outside the campaign" in result.output
    assert f"{root / 'secret.css'} is outside the campaign" in result.output
    assert "the build partly failed" in result.output


def test_the_secret_is_in_no_output_file_nor_the_cache(hostile: Any) -> None:
    out = hostile["out"]
    assert sorted(p.name for p in out.glob("*.pdf")) == [
        "initiative-cards.pdf",
        "sheet-ann.pdf",
        "sheet-bob.pdf",
    ]
    assert leaks(out) == []
    assert leaks(cache_folder(hostile["campaign"], out)) == []  # refused ones are not cached
    assert MARKER not in hostile["result"].output  # nor in what the build said


def test_a_file_url_in_a_note_prints_as_literal_text(hostile: Any) -> None:
    text = pdf_text((hostile["out"] / "sheet-ann.pdf").read_bytes())
    assert '<img src="file://' in text
    assert MARKER not in text


def test_attachments_are_never_embedded(hostile: Any) -> None:
    out = hostile["out"]
    assert "files are never embedded" in hostile["result"].output
    for pdf in out.glob("*.pdf"):
        assert embedded_files(pdf) == [], pdf.name


def test_the_network_is_never_contacted(hostile: Any, http_server: CountingServer) -> None:
    url = hostile["url"]
    output = hostile["result"].output
    for name in ("img.png", "bg.png", "import.css", "font.ttf"):
        assert f"{url}/{name}: only files from the campaign may be used" in output
    assert http_server.connections == 0
    assert http_server.requests == []


def test_svg_images_cannot_fetch_either(tmp_path: Path, http_server: CountingServer) -> None:
    """Images nested in an SVG go through the same fetcher."""
    url = f"http://127.0.0.1:{http_server.server_address[1]}"
    (tmp_path / "secret.png").write_bytes(png_bytes())
    svg = tmp_path / "c" / "pic.svg"
    svg.parent.mkdir()
    svg.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        f'<image href="{url}/nested.png" width="9" height="9"/>'
        f'<image href="file://{tmp_path / "secret.png"}" width="9" height="9"/></svg>'
    )
    rendered = render_pdf(f'<img src="file://{svg}">', templates_dir(), [svg.parent])
    assert any("nested.png" in r for r in rendered.refused)
    assert any("secret.png is outside" in r for r in rendered.refused)
    assert http_server.connections == 0


EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nnewpath 0 0 moveto showpage\n%%EOF\n"


def test_image_bytes_must_be_png_jpeg_or_webp_whatever_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: WeasyPrint opens every image body with all of Pillow's plugins, so an EPS
    called face.png, style.css or pic.svg, or sent as a data: URL, reached Pillow's EPS
    plugin, which runs Ghostscript on it where Ghostscript is installed."""
    import base64

    from PIL import EpsImagePlugin

    ghostscript: list[object] = []

    def no_ghostscript(*args: object, **kwargs: object) -> None:
        ghostscript.append(args)
        raise OSError("Ghostscript must never run on a campaign's file")

    monkeypatch.setattr(EpsImagePlugin, "Ghostscript", no_ghostscript)
    folder = tmp_path / "campaign"
    folder.mkdir()
    sources = []
    for name in ("face.png", "style.css", "pic.svg", "photo.jpg"):
        (folder / name).write_bytes(EPS)
        sources.append(f"file://{folder / name}")
    sources.append("data:image/png;base64," + base64.b64encode(EPS).decode())
    html = "".join(f'<img src="{src}">' for src in sources)
    rendered = render_pdf(html, templates_dir(), [folder])
    assert ghostscript == []
    assert len([r for r in rendered.refused if "holds EPS data" in r]) == len(sources)
    # Real images, stylesheets and fonts still load.
    (folder / "real.png").write_bytes(png_bytes())
    fine = render_pdf(f'<img src="file://{folder / "real.png"}">', templates_dir(), [folder])
    assert fine.refused == [] and fine.warnings == []


def test_the_fetcher_itself_refuses_remote_and_host_urls(http_server: CountingServer) -> None:
    port = http_server.server_address[1]
    fetcher = ConfinedFetcher([templates_dir()])
    for url in (
        f"http://127.0.0.1:{port}/a.png",
        f"https://127.0.0.1:{port}/a.png",
        f"ftp://127.0.0.1:{port}/a.png",
        f"file://127.0.0.1:{port}/etc/hostname",
        "file:///etc/hostname",
        "file:///proc/self/environ",
        "file:///dev/zero",
        f"file://{templates_dir()}/%2e%2e/%2e%2e/etc/hostname",
        f"file://{templates_dir()}/a%00b.css",
    ):
        with pytest.raises(RefusedResource):
            fetcher.fetch(url)
    assert http_server.connections == 0
    assert len(fetcher.refused) == 9


def test_data_url_attachments_are_dropped_too() -> None:
    html = (
        f'<link rel="attachment" href="data:text/plain,{MARKER}">'
        f'<p><a rel="attachment" href="data:text/plain,{MARKER}">x</a></p>'
    )
    rendered = render_pdf(html, templates_dir(), [])
    assert len([r for r in rendered.refused if "never embedded" in r]) == 2
    with pikepdf.open(io.BytesIO(rendered.pdf)) as pdf:
        assert dict(pdf.attachments) == {}
        assert MARKER.encode() not in b"".join(
            o.read_bytes() for o in pdf.objects if isinstance(o, pikepdf.Stream)
        )


def test_an_attachment_refusal_names_the_file() -> None:
    rendered = render_pdf('<link rel="attachment" href="data:text/plain,hi">', templates_dir(), [])
    assert rendered.refused
    assert all("?" not in r for r in rendered.refused), rendered.refused


# --- 1. local files: portraits, symlinks, theme templates --------------------------------------


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A secret beside (not inside) the campaign folder."""
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{MARKER}\n", encoding="utf-8")
    return secret


def _portrait_campaign(folder: Path, portrait: str, **files: str | bytes) -> Path:
    yaml = (
        f"characters:\n  - name: Ann\n    portrait: {portrait}\n    abilities: {{toughness: 2}}\n"
    )
    return make_campaign(
        folder, {"party.yaml": yaml, **files}, theme={"sheet/sheet.html": FAST_SHEET}
    )


def test_a_portrait_path_out_of_the_campaign_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = _portrait_campaign(tmp_path / "deep" / "campaign", "../../secret.txt")
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert "secret.txt is outside the campaign" in result.output
    assert not list(out.glob("*.pdf"))
    assert leaks(out) == []


def test_a_portrait_symlink_out_of_the_campaign_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = _portrait_campaign(tmp_path / "campaign", "face.png")
    (folder / "face.png").symlink_to(outside)
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert "face.png is outside the campaign" in result.output
    assert leaks(out) == []


def test_a_yaml_symlink_out_of_the_campaign_is_refused(tmp_path: Path, outside: Path) -> None:
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": ONE})
    (folder / "stolen.yaml").symlink_to(outside)
    out = tmp_path / "out"
    for command in (["check", folder], ["build", folder, "-o", out, "-j", "1"]):
        result = run(*command)
        assert result.exit_code == 1
        assert "stolen.yaml: a link to a file outside the campaign folder; refused" in result.output
        assert MARKER not in result.output
    assert not out.exists() or leaks(out) == []


def test_a_settings_symlink_out_of_the_campaign_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text('paper = "a4"\n', encoding="utf-8")
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": ONE})
    (folder / "scratchpress.toml").symlink_to(secret)
    result = run("check", folder)
    assert result.exit_code == 1
    assert "scratchpress.toml: a link to a file outside the campaign folder; refused" in (
        result.output
    )


def test_a_theme_template_cannot_include_a_file_through_a_symlink(
    tmp_path: Path, outside: Path
) -> None:
    folder = make_campaign(
        tmp_path / "campaign",
        {"party.yaml": ONE},
        theme={"sheet/sheet.html": '<html><body><p>{% include "leak.txt" %}</p></body></html>'},
    )
    (folder / "theme" / "leak.txt").symlink_to(outside)
    os.mkfifo(folder / "theme" / "pipe.txt")  # would block a plain open() forever
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert leaks(out) == []
    assert result.exit_code == 1
    assert "template error: leak.txt (a link out of its folder)" in result.output
    (folder / "theme" / "sheet" / "sheet.html").write_text('{% include "pipe.txt" %}')
    result, seconds = timed_run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert "pipe.txt (not a regular file" in result.output
    assert seconds < 5


def test_a_theme_folder_symlinked_out_of_the_campaign_is_refused(
    tmp_path: Path, outside: Path
) -> None:
    elsewhere = make_campaign(
        tmp_path / "elsewhere",
        {"sheet/sheet.html": '<html><body><p>{% include "../secret.txt" %}</p></body></html>'},
    )
    shutil.copy(outside, elsewhere / "secret.txt")
    (elsewhere / "sheet" / "sheet.html").write_text(
        '<html><body><p>{% include "secret.txt" %}</p></body></html>'
    )
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": ONE})
    (folder / "theme").symlink_to(elsewhere)
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert leaks(out) == []
    assert result.exit_code == 1
    assert "theme/ folder links outside the campaign; refused" in result.output


def test_the_cache_key_reads_no_file_outside_the_campaign(
    tmp_path: Path, outside: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml = (
        "characters:\n  - name: Ann\n"
        f"    description: file://{outside}\n    abilities: {{toughness: 2}}\n"
    )
    folder = make_campaign(
        tmp_path / "campaign",
        {"party.yaml": yaml},
        theme={"sheet/sheet.html": "<p>{{ identity.description }}</p>"},
    )
    opened: list[Path] = []
    original_read, original_open = Path.read_bytes, Path.open

    def read_spy(self: Path) -> bytes:
        opened.append(Path(os.path.realpath(self)))
        return original_read(self)

    def open_spy(self: Path, *args: Any, **kwargs: Any) -> Any:
        opened.append(Path(os.path.realpath(self)))
        return original_open(self, *args, **kwargs)

    # The key is made in this process (renders run in workers, out of a spy's sight).
    monkeypatch.setattr(Path, "read_bytes", read_spy)
    monkeypatch.setattr(Path, "open", open_spy)
    build_in_process(folder, tmp_path / "out", ["sheets"], BuildSettings(jobs=1))
    assert opened  # the spies saw the build's reads
    assert outside.resolve() not in opened


# --- 4. special and huge files -------------------------------------------------------------------


def test_dev_zero_as_definitions_is_refused_quickly() -> None:
    result, seconds = timed_run("check", "/dev/zero")
    assert result.exit_code == 1
    assert "/dev/zero: not a regular file; refused" in result.output
    assert seconds < 5


def test_a_fifo_as_definitions_is_refused_quickly(tmp_path: Path) -> None:
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": ONE})
    os.mkfifo(folder / "pipe.yaml")
    for target in (folder / "pipe.yaml", folder):
        result, seconds = timed_run("check", target)
        assert result.exit_code == 1
        assert "pipe.yaml: not a regular file; refused" in result.output
        assert seconds < 5


def test_a_300_mb_sparse_yaml_is_refused_quickly(tmp_path: Path) -> None:
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": ONE})
    sparse_file(folder / "huge.yaml", 300 * 2**20)
    result, seconds = timed_run("check", folder)
    assert result.exit_code == 1
    assert "huge.yaml: larger than 5 MB; refused" in result.output
    assert seconds < 5


@pytest.mark.parametrize("kind", ["dev-zero", "dev-zero-link", "fifo", "sparse-300mb", "folder"])
def test_special_portraits_are_refused_quickly(tmp_path: Path, kind: str) -> None:
    portrait = {"dev-zero": "/dev/zero", "folder": "."}.get(kind, "face.png")
    folder = _portrait_campaign(tmp_path / "campaign", portrait)
    face = folder / "face.png"
    if kind == "dev-zero-link":
        face.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(face)
    elif kind == "sparse-300mb":
        sparse_file(face, 300 * 2**20)
    result, seconds = timed_run(
        "build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1"
    )
    assert result.exit_code == 1
    expected = {
        "dev-zero": "/dev/zero is outside the campaign",
        "dev-zero-link": "face.png is outside the campaign",
        "fifo": "face.png is not a regular file",
        "sparse-300mb": "face.png is larger than 32 MB",
        "folder": "is not a regular file",
    }[kind]
    assert expected in result.output
    assert seconds < 5


# --- 5. images -----------------------------------------------------------------------------------


def _portrait(path: Path) -> str:
    return portrait_data_url(path, [path.parent], (30.0, 40.0))


def _truncated_jpeg() -> bytes:
    buffer = io.BytesIO()
    Image.effect_noise((400, 400), 64).convert("RGB").save(buffer, format="JPEG", quality=95)
    return buffer.getvalue()[:3000]


def _eps() -> bytes:
    return b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nnewpath 0 0 moveto showpage\n"


def _non_ascii_chunk() -> bytes:
    """A PNG whose first chunk has a non-ASCII name: with WeasyPrint's process-wide
    LOAD_TRUNCATED_IMAGES, Pillow raised UnicodeDecodeError (a traceback)."""
    body = b"\0" * 13
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"\x8e\xad\xc0r" + body + b"\0" * 4


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (lambda: png_declaring(50_000, 50_000), "too many pixels"),
        (lambda: png_declaring(7_000, 7_000), "too many pixels"),  # 49 MP: Pillow only warns
        (_eps, "must be PNG, JPEG or WebP"),
        (lambda: b"just some text, not a picture\n" * 10, "must be PNG, JPEG or WebP"),
        (_truncated_jpeg, "damaged or truncated"),
        (lambda: png_bytes()[:60], "damaged or truncated"),
        (_non_ascii_chunk, "must be PNG, JPEG or WebP"),
        (lambda: b"", "must be PNG, JPEG or WebP"),
    ],
    ids=["50000x50000", "49mp", "eps", "text", "truncated-jpeg", "truncated-png", "chunk", "empty"],
)
def test_bad_images_fail_fast_with_a_clear_message(
    tmp_path: Path, payload: Any, message: str
) -> None:
    face = tmp_path / "face.png"
    face.write_bytes(payload())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    with pytest.raises(ImageProblem, match=re.escape(message)):
        _portrait(face)
    assert time.perf_counter() - started < 2
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 100


def test_truncated_portraits_are_refused_whatever_weasyprint_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: importing WeasyPrint sets ImageFile.LOAD_TRUNCATED_IMAGES for the whole
    process, and a truncated portrait came out as a grey band instead of an error."""
    from PIL import ImageFile

    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", True)
    face = tmp_path / "face.jpg"
    face.write_bytes(_truncated_jpeg())
    with pytest.raises(ImageProblem, match="damaged or truncated"):
        _portrait(face)
    assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # WeasyPrint's own setting is restored


def test_a_decompression_bomb_portrait_fails_the_build_cleanly(tmp_path: Path) -> None:
    folder = _portrait_campaign(
        tmp_path / "campaign", "face.png", **{"face.png": png_declaring(50_000, 50_000)}
    )
    result, seconds = timed_run(
        "build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1"
    )
    assert result.exit_code == 1
    assert "face.png declares too many pixels" in result.output
    assert seconds < 5


def test_a_good_portrait_still_works(tmp_path: Path) -> None:
    face = tmp_path / "face.png"
    face.write_bytes(png_bytes(300, 400))
    assert _portrait(face).startswith("data:image/jpeg;base64,")


# --- 6. YAML ---------------------------------------------------------------------------------


def _check_fails(tmp_path: Path, yaml: str, message: str) -> Result:
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": yaml})
    result, seconds = timed_run("check", folder)
    assert result.exit_code == 1
    assert message in result.output, result.output
    assert seconds < 10
    return result


def test_python_tags_are_refused_with_file_and_line(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    yaml = (
        "characters:\n  - name: Ann\n"
        f"    description: !!python/object/apply:os.system ['touch {marker}']\n"
        "    abilities: {toughness: 2}\n"
    )
    _check_fails(
        tmp_path, yaml, "party.yaml:3: the tag !!python/object/apply:os.system is not allowed"
    )
    assert not marker.exists()


def test_a_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    result = _check_fails(tmp_path, "\n".join(lines) + "\n", "the document expands to more than")
    assert re.search(r"party\.yaml:\d+: the document expands to more than", result.output)


def test_duplicate_keys_name_both_lines(tmp_path: Path) -> None:
    yaml = "characters:\n  - name: Ann\n    abilities:\n      toughness: 2\n      toughness: 3\n"
    _check_fails(tmp_path, yaml, 'party.yaml:5: duplicate key "toughness" (first given on line 4)')


def test_a_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    yaml = "characters:\n  - name: Ann\n    abilities: {toughness: 2\n  - name: Bob\n"
    result = _check_fails(tmp_path, yaml, "party.yaml:")
    assert "YAML syntax error" in result.output
    assert re.search(r"party\.yaml:\d+: YAML syntax error", result.output)


def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path: Path) -> None:
    _check_fails(tmp_path, "characters: " + "[" * 20_000 + "\n", "party.yaml:1: nested more than")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (".inf", 1),
        ("-.inf", 1),
        (".NaN", 1),
        ("-0x1F", 1),
        ("9" * 5000, 1),
        ("+0b11", 0),
        ("0b_1", 0),
    ],
    ids=["inf", "-inf", "nan", "-hex", "5000-digits", "+bin", "bin_"],
)
def test_numbers_python_cannot_read_are_no_crash(tmp_path: Path, value: str, code: int) -> None:
    """Regression: ``.inf``, ``-0x1F`` and 5,000-digit numbers were ValueErrors (tracebacks)."""
    yaml = f"characters:\n  - name: Ann\n    abilities: {{toughness: {value}}}\n"
    folder = make_campaign(tmp_path / "c", {"party.yaml": yaml})
    result = run("check", folder)
    assert result.exit_code == code
    if code:
        assert 'party.yaml:3: entry "Ann": abilities.toughness: must be' in result.output


def test_many_values_are_refused_while_composing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The node limit applies while the document is read, not after: a 5 MB file of a
    million tiny values took minutes before."""
    from scratchpress.definitions import yamlsafe

    monkeypatch.setattr(yamlsafe, "MAX_NODES", 1000)
    started = time.perf_counter()
    with pytest.raises(InputError, match="more than 1000 values"):
        load_yaml("a:\n" + "- 1\n" * 200_000, "big.yaml")
    assert time.perf_counter() - started < 2


def test_implicit_typing_never_changes_text(tmp_path: Path) -> None:
    """YAML 1.2 and the author's text: ``No`` is a word, and a name that looks like a number
    keeps exactly the characters written (decided: ``007`` stays "007", ``1e3`` stays "1e3")."""
    names = [
        "No",
        "yes",
        "on",
        "off",
        "y",
        "007",
        "1e3",
        "0x1F",
        "1_000",
        ".inf",
        "12:30",
        "2024-01-01",
        "+1",
        "1.50",
        "0o17",
    ]
    yaml = "characters:\n" + "".join(
        f"  - name: {name}\n    abilities: {{toughness: 2}}\n" for name in names
    )
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": yaml})
    campaign = load_campaign([folder])
    assert [c.name for c in campaign.characters] == names
    levels = [c.definition.abilities["toughness"] for c in campaign.characters]
    assert all(type(level) is int and level == 2 for level in levels)


def test_numbers_still_are_numbers(tmp_path: Path) -> None:
    data, _ = load_yaml("a: 0x10\nb: 1e3\nc: 007\nd: '007'\n", "f.yaml")
    assert data == {"a": 16, "b": 1000.0, "c": 7, "d": "007"}
    assert (str(data["a"]), str(data["b"]), str(data["c"])) == ("0x10", "1e3", "007")


# --- 7. templates in the sandbox -------------------------------------------------------------------

PAYLOADS = {
    "subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "cycler-globals": "{{ cycler.__init__.__globals__.os }}",
    "template-reference": "{{ self._TemplateReference__context }}",
    "format-string": '{% set x = namespace() %}{{ "{0.__class__}".format(x) }}',
    "format-map": '{{ "{x.__class__.__mro__}".format_map({"x": cycler}) }}',
    "format-filter": '{{ "%s"|format(cycler.__init__) }}',
    "lipsum-globals": "{{ lipsum.__globals__['os'].popen('id').read() }}",
    "attr-filter": "{{ cycler|attr('__init__')|attr('__globals__') }}",
    "mutate": "{{ identity.update({'name': 'x'}) }}",
    "include-parent": '{% include "../../x" %}',
    "include-absolute": '{% include "/etc/passwd" %}',
    "extends-absolute": '{% extends "/etc/hostname" %}',
    "syntax": "{% for %}",
}


@pytest.mark.parametrize("payload", list(PAYLOADS.values()), ids=list(PAYLOADS))
def test_sandbox_escapes_fail_cleanly(tmp_path: Path, payload: str) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": payload}
    )
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert re.search(r"sheet-ann\.pdf: (.*: )?template error: ", result.output), result.output
    assert "uid=" not in result.output
    assert not (out / "sheet-ann.pdf").exists()


def test_a_broken_theme_template_leaves_the_other_documents(tmp_path: Path) -> None:
    folder = make_campaign(
        tmp_path / "campaign",
        {"party.yaml": TWO},
        theme={"sheet/sheet.html": PAYLOADS["cycler-globals"]},
    )
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets,carry", "-j", "1", "--no-cache")
    assert result.exit_code == 1
    assert "access to attribute '__init__'" in result.output
    assert "the build partly failed" in result.output
    assert [p.name for p in out.glob("*.pdf")] == ["carry-table.pdf"]


@pytest.mark.parametrize(
    "payload",
    ["{{ 1/0 }}", "{{ 1 + 'a' }}", '{{ "{0}".format_map({}) }}', '{{ "%d"|format("x") }}'],
    ids=["zero-division", "type-error", "index-error", "format-error"],
)
def test_a_theme_template_raising_a_python_error_fails_cleanly(
    tmp_path: Path, payload: str
) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": payload}
    )
    result = run("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert re.search(r"sheet-ann\.pdf: template error: \w+Error: ", result.output), result.output


class _Alarm(Exception):
    pass


def test_a_runaway_jinja_loop_is_stopped_by_the_time_limit(tmp_path: Path) -> None:
    loop = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": TWO}, theme={"sheet/sheet.html": loop}
    )

    def ring(*_: object) -> None:
        raise _Alarm("still rendering the template after 4 s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(4)
    try:
        report = build_in_process(
            folder, tmp_path / "out", ["sheets"], BuildSettings(jobs=2, timeout_s=1)
        )
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [p.message for p in report.problems] == [
        "template error: the template ran longer than 1 s; stopped"
    ] * 2


JINJA_UNDER_ULIMIT = """
import resource, sys
from pathlib import Path
from scratchpress.build import BuildSettings, build
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.statblocks import compute_campaign

with open("/proc/self/statm") as handle:
    vsz = int(handle.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (vsz + 2**30, vsz + 2**30))  # 1 GB to play with
campaign = load_campaign([Path(sys.argv[1])])
report = build(compute_campaign(campaign), campaign, BuildOptions(), Path(sys.argv[2]),
               ["sheets", "carry"], settings=BuildSettings(jobs=2, timeout_s=30))
print("\\n".join(f"{p.file}: {p.message}" for p in report.problems))
"""


def test_a_theme_template_cannot_exhaust_memory_in_the_main_process(tmp_path: Path) -> None:
    double = '{% set a = "x" * 1000000 %}' + "{% set a = a ~ a %}" * 12 + "{{ a|length }}"
    folder = make_campaign(
        tmp_path / "campaign",
        {"party.yaml": ONE},
        theme={
            "sheet/sheet.html": '{% for i in range(100000) %}{{ "x" * 1000000 }}{% endfor %}',
            "carry/carry.html": double,
        },
    )
    done = subprocess.run(
        [sys.executable, "-c", JINJA_UNDER_ULIMIT, str(folder), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        env=CHILD_ENV,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    problems = done.stdout.strip().splitlines()
    assert len(problems) == 2, done.stdout
    assert all("template error" in p and "MemoryError" not in p for p in problems), problems


# --- 8. runaway documents --------------------------------------------------------------------------

RUNAWAY = """\
<!DOCTYPE html><html><head><style>
{% if identity.name == "Giant" %}p { font-size: 1e9px }{% endif %}
{% if identity.name == "Page" %}@page { size: 100000mm }{% endif %}
</style></head><body>
{% if identity.name == "Nest" %}{% for i in range(2000) %}<div style="margin-left: 1px">{% endfor %}deep{% for i in range(2000) %}</div>{% endfor %}
{% elif identity.name == "Slow" %}{% for i in range(30000) %}<p style="break-after: page">page {{ i }}</p>{% endfor %}
{% elif identity.name == "Hog" %}{% for i in range(4) %}<img src="file://HOG-{{ i }}.png">{% endfor %}
{% else %}<p>{{ identity.name }}</p>{% endif %}
</body></html>
"""


def _runaway_campaign(folder: Path, names: list[str]) -> Path:
    yaml = "characters:\n" + "".join(
        f"  - name: {name}\n    abilities: {{toughness: 2}}\n" for name in names
    )
    make_campaign(folder, {"party.yaml": yaml})
    if "Hog" in names:  # four 36-megapixel pictures (under the 40 MP cap): 430 MB decoded
        for i in range(4):
            buffer = io.BytesIO()
            Image.new("RGB", (6000, 6000), (i, 0, 0)).save(buffer, format="PNG")
            (folder / f"hog-{i}.png").write_bytes(buffer.getvalue())
    template = RUNAWAY.replace("file://HOG", f"file://{folder.resolve() / 'hog'}")
    return make_campaign(folder, {}, theme={"sheet/sheet.html": template})


RUNAWAY_BUILD = """
import json, os, sys, time
from pathlib import Path
from scratchpress.build import BuildSettings, build
from scratchpress.definitions.campaign import load_campaign
from scratchpress.definitions.models import BuildOptions
from scratchpress.render import engine  # WeasyPrint loaded before measuring
from scratchpress.statblocks import compute_campaign

folder, out = Path(sys.argv[1]), Path(sys.argv[2])
with open("/proc/self/statm") as handle:
    vsz_mb = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE") // 2**20
# A 64-megapixel image needs 500+ MB more; normal documents need about 100 MB, but less
# than ~150 MB of headroom can stop Pango creating its threads (GLib aborts the worker).
settings = BuildSettings(jobs=2, use_cache=False, timeout_s=4, memory_mb=vsz_mb + 400)
campaign = load_campaign([folder])
started = time.perf_counter()
report = build(compute_campaign(campaign), campaign, BuildOptions(), out, ["sheets", "carry"],
               settings=settings)
print(json.dumps({
    "seconds": time.perf_counter() - started,
    "written": [w.path.name for w in report.written],
    "errors": {p.file.rsplit("/", 1)[-1]: p.message for p in report.problems},
}))
"""


def test_runaway_documents_are_stopped_and_the_rest_comes_out(tmp_path: Path) -> None:
    """Run in a fresh interpreter: a worker forked from a long test session inherits its
    heap, whose free space the memory limit (address space, not use) cannot see."""
    names = ["Fine", "Slow", "Hog", "Nest", "Giant", "Page"]
    folder = _runaway_campaign(tmp_path / "campaign", names)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", RUNAWAY_BUILD, str(folder), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.splitlines()[-1])
    written, errors = set(result["written"]), result["errors"]
    assert {"sheet-fine.pdf", "carry-table.pdf"} <= written
    # A slow document is stopped by one of its limits: time on a busy machine, memory on a
    # quick one (its loop also grows the page, and the faster it runs the sooner it is
    # full; at the memory limit the worker may die before it can say so), as the hog is.
    assert re.search(r"memory|took longer|stopped unexpectedly", errors["sheet-slow.pdf"])
    assert re.search(r"memory|took longer|stopped unexpectedly", errors["sheet-hog.pdf"])
    # Deep nesting and absurd sizes fail inside WeasyPrint or render: either way the build
    # goes on. (With WeasyPrint 70 they fail fast: RecursionError, ZeroDivisionError.)
    for name in ("sheet-nest.pdf", "sheet-giant.pdf", "sheet-page.pdf"):
        assert (name in written) != (name in errors), name
    assert result["seconds"] < 25


def test_a_lone_runaway_document_still_gets_its_time_limit(tmp_path: Path) -> None:
    """Regression: one job ran in the build's own process, without any limit."""
    folder = _runaway_campaign(tmp_path / "campaign", ["Slow"])

    def ring(*_: object) -> None:
        raise _Alarm("the lone document was not stopped")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(20)
    try:
        report = build_in_process(
            folder, tmp_path / "out", ["sheets"], BuildSettings(jobs=2, timeout_s=1.5)
        )
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [p.message for p in report.problems] == ["took longer than 1.5 s; stopped"]


def test_a_runaway_build_exits_1_partly_failed(tmp_path: Path) -> None:
    folder = _runaway_campaign(tmp_path / "campaign", ["Fine", "Nest", "Giant"])
    out = tmp_path / "out"
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "2", "--no-cache")
    assert result.exit_code == 1
    assert "the build partly failed" in result.output
    assert "sheet-nest.pdf: could not be rendered: RecursionError" in result.output
    assert (out / "sheet-fine.pdf").is_file()


POOL_UNDER_ULIMIT = """
import resource
from scratchpress.render import engine
from scratchpress.render.jobs import Job
from scratchpress.render.pool import run_jobs
from scratchpress.resources import templates_dir

with open("/proc/self/statm") as handle:
    vsz = int(handle.read().split()[0]) * resource.getpagesize()
hard = vsz + 1500 * 2**20  # like `ulimit -v`: below the default 3072 MB per document
resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
t = templates_dir()
jobs = [Job(str(i), f"<p>{i}</p>", t, (t,)) for i in range(2)]
print([o.error for o in run_jobs(jobs, 2, timeout_s=60, memory_mb=3072)])
"""


def test_workers_respect_a_lower_hard_memory_limit() -> None:
    """Regression: under `ulimit -v` (or a container's limit) below memory_mb, setrlimit
    raised ValueError in every worker and no document rendered with -j 2 or more."""
    done = subprocess.run(
        [sys.executable, "-c", POOL_UNDER_ULIMIT],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=CHILD_ENV,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[None, None]", done.stdout + done.stderr


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))


@pytest.mark.parametrize("ability", ["toughness", "command"])
def test_an_absurd_level_is_a_clear_error_not_a_memory_bomb(tmp_path: Path, ability: str) -> None:
    yaml = f"characters:\n  - name: Ann\n    abilities: {{{ability}: 10000000, toughness: 1}}\n"
    if ability == "toughness":
        yaml = "characters:\n  - name: Ann\n    abilities: {toughness: 10000000}\n"
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": yaml})
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "scratchpress",
            "build",
            str(folder),
            "-o",
            str(tmp_path / "o"),
            "--only",
            "sheets",
            "-j",
            "2",
            "--no-cache",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
        env=CHILD_ENV,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output and "MemoryError" not in output, output[-2000:]
    assert "must be 100 or less, got 10000000" in output


# --- 9. output names -----------------------------------------------------------------------------


def _assert_safe_stem(stem: str, prefix: str = "") -> None:
    assert stem.startswith(prefix)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", stem), stem
    assert ".." not in stem and "/" not in stem and "\\" not in stem and "\0" not in stem
    assert stem.split(".")[0] not in WINDOWS_RESERVED
    assert 0 < len(stem) - len(prefix) <= MAX_STEM


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_slug_is_always_a_safe_stable_stem(name: str) -> None:
    stem = slug(name)
    _assert_safe_stem(stem)
    assert slug(name) == stem


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(max_size=120) | st.sampled_from(["a", "A", "con", "CON", "..", ""]), max_size=12
    ),
    st.sampled_from(["", "sheet-", "vehicle-"]),
)
def test_unique_stems_are_safe_distinct_and_stable(names: list[str], prefix: str) -> None:
    stems = unique_stems(names, prefix)
    assert set(stems) == set(names)
    for stem in stems.values():
        _assert_safe_stem(stem, prefix)
    distinct = set(names)
    assert len({s.lower() for s in stems.values()}) == len(distinct)  # case-insensitive disks
    assert unique_stems(names, prefix) == stems
    assert unique_stems(list(reversed(names)), prefix) == stems  # order does not matter


def test_a_name_equal_to_another_names_hashed_stem_gets_its_own_file() -> None:
    """Regression: "a" and "A" became a-ca9781 and a-559aea; a third name "a-ca9781"
    kept its plain stem and shared a file with "a"."""
    first = unique_stems(["a", "A"])
    stems = unique_stems(["a", "A", first["a"]])
    assert len(set(stems.values())) == 3
    assert stems["A"] == first["A"]  # names outside the clash keep their file
    assert len(set(unique_stems(["a", "A", first["a"], first["A"]]).values())) == 4


NASTY = [
    "../../x",
    "/abs",
    "CON",
    "a\\b",
    "nul\0byte",
    "é" * 150,  # 300 bytes of UTF-8
    "\u202eevil\u202c.pdf",
    "x/../..",
    "Ann",
    "ANN",
    "ann!",
]


def test_nasty_names_stay_inside_the_output_folder(tmp_path: Path) -> None:
    yaml = "characters:\n" + "".join(
        f'  - name: "{n.encode("unicode_escape").decode().replace(chr(34), "")}"\n'
        "    abilities: {toughness: 2}\n"
        for n in NASTY
    )
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": yaml}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    assert [c.name for c in load_campaign([folder]).characters] == NASTY
    out = tmp_path / "out"
    before = tree(tmp_path, skip=out)
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert result.exit_code == 0, result.output
    assert tree(tmp_path, skip=out) == before
    first = sorted(p.name for p in out.iterdir() if p.suffix == ".pdf")
    assert len(first) == len(NASTY)
    for name in first:
        _assert_safe_stem(name.removesuffix(".pdf"), "sheet-")
    assert len({n.lower() for n in first}) == len(NASTY)
    # Names that clean to the same file ("Ann", "ANN", "ann!") get distinct, stable files.
    again = run("build", folder, "-o", tmp_path / "out2", "--only", "sheets", "-j", "1")
    assert again.exit_code == 0
    assert sorted(p.name for p in (tmp_path / "out2").glob("*.pdf")) == first


# --- 10. never clobber ---------------------------------------------------------------------------


def test_a_file_we_did_not_write_is_left_alone_unless_forced(tmp_path: Path) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "sheet-ann.pdf"
    mine.write_bytes(b"%PDF-1.4 the user's own file\n")
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert "was not written by scratchpress" in result.output
    assert mine.read_bytes() == b"%PDF-1.4 the user's own file\n"
    forced = run("build", folder, "-o", out, "--only", "sheets", "-j", "1", "--force")
    assert forced.exit_code == 0
    assert mine.read_bytes() != b"%PDF-1.4 the user's own file\n"
    assert mine.read_bytes().startswith(b"%PDF")


def test_a_file_we_wrote_and_the_user_edited_is_left_alone(tmp_path: Path) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    out = tmp_path / "out"
    assert run("build", folder, "-o", out, "--only", "sheets", "-j", "1").exit_code == 0
    sheet = out / "sheet-ann.pdf"
    edited = sheet.read_bytes() + b"% the user's annotations\n"
    sheet.write_bytes(edited)
    # The manifest records the bytes we wrote, not just the name: a rebuild, with the same
    # definitions or changed ones, leaves the user's version alone.
    assert MANIFEST in {p.name for p in out.iterdir()}
    for toughness in ("2", "3"):
        (folder / "party.yaml").write_text(ONE.replace("toughness: 2", f"toughness: {toughness}"))
        result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1")
        assert result.exit_code == 1
        assert "was not written by scratchpress (or was changed since)" in result.output
        assert sheet.read_bytes() == edited


def test_a_write_error_is_a_clean_error(tmp_path: Path) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    out = tmp_path / "out"
    (out / "sheet-ann.pdf").mkdir(parents=True)
    result = run("build", folder, "-o", out, "--only", "sheets", "-j", "1", "--force")
    assert result.exit_code == 1
    assert "sheet-ann.pdf: exists and is not a regular file; refused" in result.output
    assert (out / "sheet-ann.pdf").is_dir()
    assert _temps(out) == []


def test_an_output_path_that_is_a_file_is_a_clean_error(tmp_path: Path) -> None:
    folder = make_campaign(tmp_path / "campaign", {"party.yaml": ONE})
    (tmp_path / "out").write_text("not a folder")
    result = run("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1")
    assert result.exit_code == 1
    assert "-o: not a folder" in result.output
    assert (tmp_path / "out").read_text() == "not a folder"


def test_a_cache_shipped_with_the_campaign_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    probe = tmp_path / "probe"
    assert run("build", folder, "-o", probe, "--only", "sheets", "-j", "1").exit_code == 0
    import hashlib
    import json

    evil = b"%PDF-1.4\n% the stranger's PDF, with whatever it likes inside\n%%EOF\n"
    shipped = folder / "output" / ".scratchpress-cache"
    shipped.mkdir(parents=True)
    for entry in cache_folder(folder, probe).glob("*.json"):
        meta = json.loads(entry.read_text())
        meta["sha256"] = hashlib.sha256(evil).hexdigest()
        (shipped / entry.name).write_text(json.dumps(meta))
        (shipped / entry.name).with_suffix(".pdf").write_bytes(evil)
    shipped_files = {p.name: p.read_bytes() for p in shipped.iterdir()}
    monkeypatch.chdir(folder)
    run("build", ".", "--only", "sheets", "-j", "1")
    assert (folder / "output" / "sheet-ann.pdf").read_bytes() != evil
    # An old-style cache in the output folder is never read, written or pruned now.
    assert {p.name: p.read_bytes() for p in shipped.iterdir()} == shipped_files


# --- 11. atomic writes ---------------------------------------------------------------------------


def _temps(folder: Path) -> list[Path]:
    return sorted(folder.rglob(f"{TEMP_PREFIX}*.tmp"))


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failed_write_leaves_the_old_file_and_no_temp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    target = tmp_path / "sheet.pdf"
    write_atomic(target, b"old")

    def boom(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files_module.os, failing, boom)
    with pytest.raises(OSError, match="No space"):
        write_atomic(target, b"new" * 100_000)
    assert target.read_bytes() == b"old"
    assert _temps(tmp_path) == []


def test_a_build_interrupted_while_writing_keeps_the_previous_pdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    out = tmp_path / "out"
    build_in_process(folder, out, ["sheets"])
    previous = (out / "sheet-ann.pdf").read_bytes()
    (folder / "party.yaml").write_text(ONE.replace("Ann", "Ann\n    player: Zed"))

    def interrupted(*_: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(files_module.os, "replace", interrupted)
    with pytest.raises(BuildInterrupted):  # Ctrl-C, told as "N of M documents written"
        build_in_process(folder, out, ["sheets"])
    assert (out / "sheet-ann.pdf").read_bytes() == previous
    assert _temps(out) == []


def test_stale_temps_are_cleaned_on_the_next_run(tmp_path: Path) -> None:
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": ONE}, theme={"sheet/sheet.html": FAST_SHEET}
    )
    out = tmp_path / "out"
    cached = cache_folder(folder, out)  # the render cache, in the user's cache folder
    stale = [  # what a killed build leaves: our own temp names only
        out / files_module.temp_name(),
        cached / files_module.temp_name(),
        out / "png" / files_module.temp_name(),
    ]
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_bytes(b"half a PDF")
    keep = out / "notes.tmp"
    keep.write_text("the user's")
    also_kept = out / f"{TEMP_PREFIX}notes.tmp"  # looks like ours, is the GM's own
    also_kept.write_text("the user's")
    assert run("build", folder, "-o", out, "--only", "sheets", "-j", "1").exit_code == 0
    assert _temps(out) == [also_kept]
    assert not any(path.exists() for path in stale)
    assert keep.read_text() == also_kept.read_text() == "the user's"


KILLED_WRITER = """
import os, sys, time
from pathlib import Path
from scratchpress.render import files

def stall(fd):
    print("writing", flush=True)
    time.sleep(60)

files.os.fsync = stall
files.write_atomic(Path(sys.argv[1]), b"N" * (64 * 2**20))
"""


def test_a_writer_killed_mid_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "out" / "sheet.pdf"
    write_atomic(target, b"old PDF")
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(target)],
        stdout=subprocess.PIPE,
        cwd=REPO,
        env=CHILD_ENV,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == b"writing"
        [temp] = _temps(target.parent)
        assert temp.stat().st_size == 64 * 2**20  # the new data is all there, not yet renamed
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    assert target.read_bytes() == b"old PDF"
    assert clean_stale_temps(target.parent) == 1
    assert _temps(target.parent) == []


def test_output_files_get_the_usual_permissions(tmp_path: Path) -> None:
    """Regression: files came out 0600 (mkstemp's mode), unreadable to anyone else."""
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.pdf", b"x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "a.pdf").stat().st_mode) == 0o644


# --- 12. reproducibility -------------------------------------------------------------------------


def test_builds_are_byte_identical_across_processes_times_and_folders(tmp_path: Path) -> None:
    portrait = examples_dir() / "portraits" / "teodora-vance.png"
    party = (
        "characters:\n"
        "  - name: Teodora Vance\n    group: Wardens\n    portrait: face.png\n"
        "    abilities: {stealth: {level: 4, note: a duster the colour of silt}, toughness: 2}\n"
        "  - name: Piet Varr\n    group: Wardens\n    abilities: {wrestling: 2, command: 1}\n"
        "    minions:\n      - name: Dog\n        abilities: {detection: 1}\n"
    )
    folder = make_campaign(
        tmp_path / "campaign", {"party.yaml": party, "face.png": portrait.read_bytes()}
    )
    work = [tmp_path / "cwd1", tmp_path / "cwd2" / "deeper"]
    for path in work:
        path.mkdir(parents=True)
    outs = [tmp_path / "out1", tmp_path / "elsewhere" / "out2"]
    commands = [
        (work[0], ["../campaign", "-o", "../out1", "-j", "1"], "1000000000"),
        (work[1], [str(folder), "-o", str(outs[1]), "-j", "2"], "1700000000"),
    ]
    processes = []
    for index, (cwd, args, epoch) in enumerate(commands):
        if index:
            time.sleep(1.1)
        env = dict(CHILD_ENV, SOURCE_DATE_EPOCH=epoch)
        processes.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "scratchpress",
                    "build",
                    *args,
                    "--no-cache",
                    "--only",
                    "sheets,initiative",
                ],
                cwd=cwd,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
            )
        )
    for process in processes:
        output, _ = process.communicate(timeout=120)
        assert process.returncode == 0, output.decode()
    first = {p.name: p.read_bytes() for p in outs[0].glob("*.pdf")}
    second = {p.name: p.read_bytes() for p in outs[1].glob("*.pdf")}
    assert len(first) == 3
    assert first.keys() == second.keys()
    assert [n for n in first if first[n] != second[n]] == []


# --- every picture through one gate (issue 31) ----------------------------------------------------


def _use_bomb(levels: int = 10, fan: int = 10) -> str:
    """``levels`` groups, each ``fan`` <use> of the one below: fan ** levels rectangles in
    a file of a few kilobytes."""
    groups = "".join(
        f'<g id="l{level}">' + f'<use xlink:href="#l{level - 1}"/>' * fan + "</g>"
        for level in range(1, levels + 1)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' width="10" height="10"><defs><rect id="l0" width="1" height="1"/>{groups}</defs>'
        f'<use xlink:href="#l{levels}"/></svg>'
    )


def _theme_showing(folder: Path, pictures: dict[str, bytes | str], extra: str = "") -> Path:
    """A campaign whose sheet template shows each of ``pictures`` (files of its theme),
    then ``extra`` HTML."""
    images = "".join(f'<img src="{(folder / "theme" / name).as_uri()}">' for name in pictures)
    return make_campaign(
        folder,
        {"party.yaml": ONE, **{f"theme/{name}": body for name, body in pictures.items()}},
        theme={"sheet/sheet.html": FAST_SHEET.replace("</h1>", "</h1>" + images + extra)},
    )


def test_theme_images_get_the_pixel_cap_and_the_decode_check(tmp_path: Path) -> None:
    """Regression: a 144-megapixel truncated PNG and two 100-megapixel ones, shown by a
    theme, were decoded and embedded, exit 0; portraits had the cap, themes did not."""
    folder = _theme_showing(
        tmp_path / "campaign",
        {
            "huge.png": png_declaring(12_000, 12_000),
            "wide.png": png_declaring(10_000, 10_000),
            "tall.png": png_declaring(10_000, 10_000),
            "cut.png": png_bytes(300, 300)[:-40],
        },
    )
    result = run("build", folder, "-o", tmp_path / "out", "--only", "sheets")
    assert result.exit_code == 1
    for name in ("huge.png", "wide.png", "tall.png"):
        assert f"theme/{name} declares too many pixels (a decompression bomb?)" in result.output
    assert "theme/cut.png is damaged or truncated" in result.output
    checked = run("check", folder)  # check names them too, before anything is rendered
    assert checked.exit_code == 1
    assert "theme/huge.png: this picture declares too many pixels" in checked.output
    assert "theme/cut.png: this picture is damaged or truncated" in checked.output


def test_an_svg_use_bomb_is_refused_by_the_fetcher_at_once(tmp_path: Path) -> None:
    """Regression: ten levels of ten <use> (10^10 shapes) ran 169 s until the job's time
    limit stopped it. The fetcher now counts the drawing before WeasyPrint sees it."""
    bomb = tmp_path / "bomb.svg"
    bomb.write_text(_use_bomb())
    with pytest.raises(RefusedResource, match=r"bomb\.svg is an SVG that draws more than 100,000"):
        ConfinedFetcher([tmp_path]).fetch(bomb.as_uri())


def test_an_svg_use_bomb_in_a_theme_fails_the_build_with_one_line(tmp_path: Path) -> None:
    import base64

    inline = "data:image/svg+xml;base64," + base64.b64encode(_use_bomb().encode()).decode()
    folder = _theme_showing(
        tmp_path / "campaign",
        {"bomb.svg": _use_bomb()},
        f"<div style=\"background: url('{inline}')\">a map</div>",
    )
    result = run("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "2")
    assert result.exit_code == 1
    assert "theme/bomb.svg is an SVG that draws more than 100,000 shapes" in result.output
    assert "a data: URL (image/svg+xml;base64) is an SVG that draws" in result.output
    assert "Process ForkProcess" not in result.output and "took longer" not in result.output


def test_svg_pictures_inside_svg_pictures_multiply_and_are_counted(tmp_path: Path) -> None:
    """Each <image> of another SVG draws all of it: five levels of ten such images of a
    ten-shape picture is a million shapes from six tiny files."""
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">{}</svg>'
    (tmp_path / "l0.svg").write_text(svg.format('<rect width="1" height="1"/>' * 10))
    for level in range(1, 6):
        image = f'<image href="l{level - 1}.svg" width="1" height="1"/>'
        (tmp_path / f"l{level}.svg").write_text(svg.format(image * 10))
    (tmp_path / "loop.svg").write_text(svg.format('<image href="loop.svg"/>'))
    html = "".join(f'<img src="{(tmp_path / name).as_uri()}">' for name in ("l5.svg", "loop.svg"))
    rendered = render_pdf(html, templates_dir(), [tmp_path])
    assert any("l4.svg is an SVG that draws more than 100,000" in r for r in rendered.refused)
    assert any("inside SVG pictures more than 8 deep" in r for r in rendered.refused)


def test_an_svg_that_declares_entities_never_reaches_the_renderer(tmp_path: Path) -> None:
    laughs = tmp_path / "laughs.svg"
    laughs.write_text(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;">]>'
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&b;</text></svg>'
    )
    rendered = render_pdf(f'<img src="{laughs.as_uri()}">', templates_dir(), [tmp_path])
    assert rendered.refused == [
        f"{laughs} is an SVG that declares XML entities (<!ENTITY ...>), which can make it grow"
        " without end; save it again as plain SVG"
    ]


def test_a_two_frame_jpeg_from_a_phone_is_a_portrait(tmp_path: Path) -> None:
    """Regression: a JPEG with a second frame (MPO, as many phone cameras write) named
    face.jpg was refused as "MPO; portraits must be PNG, JPEG or WebP"."""
    first, second = Image.new("RGB", (60, 80), (200, 0, 0)), Image.new("RGB", (60, 80))
    buffer = io.BytesIO()
    first.save(buffer, format="MPO", save_all=True, append_images=[second])
    folder = _portrait_campaign(
        tmp_path / "campaign", "face.jpg", **{"face.jpg": buffer.getvalue()}
    )
    assert run("check", folder).exit_code == 0
    result = run("build", folder, "-o", tmp_path / "out", "--only", "sheets", "-j", "1")
    assert result.exit_code == 0, result.output


def test_an_inline_svg_bomb_in_a_template_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scratchpress.render import svg

    monkeypatch.setattr(svg, "MAX_SVG_ELEMENTS", 2_000)  # the same bound, drawn in a blink
    bomb = _use_bomb(3, 13)  # 2,197 shapes
    rendered = render_pdf(f"<p>map</p>{bomb}", templates_dir(), [tmp_path])
    assert any("inline <svg> number 1 is an SVG that draws" in r for r in rendered.refused)
