"""The preview's server at the HTTP level: what it serves, and to whom."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scratchpress import api
from scratchpress.preview import Preview, Server
from scratchpress.preview.state import Doc

Get = Callable[..., tuple[int, bytes]]


@pytest.fixture
def server(tmp_path: Path, campaign: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """The server on a small campaign, with one document's page in memory (no build).
    Run from the campaign's parent, so files are named as problems name them there."""
    monkeypatch.chdir(tmp_path)
    folder = campaign
    (tmp_path / "secret.yaml").write_text("password: hunter2\n", encoding="utf-8")
    preview = Preview(api.find_campaign(folder))
    preview.docs["sheet-teodora-vance.pdf"] = Doc(
        "sheet-teodora-vance.pdf",
        "Teodora Vance",
        "sheets",
        "d",
        1,
        b"%PDF",
        [(612, 792)],
        images={1: b"PNG page 1"},
        ready=True,
    )
    preview._refresh_sources()
    running = Server(preview)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def test_it_listens_on_the_loopback_address_only(server: Server, http_get: Get) -> None:
    assert server.socket.getsockname()[0] == "127.0.0.1"
    assert server.url.startswith(f"http://127.0.0.1:{server.port}/{server.token}/")
    assert len(server.token) >= 32


def test_a_free_port_is_taken_unless_one_is_asked_for(campaign: Path) -> None:
    preview = Preview(api.find_campaign(campaign))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    asked = Server(preview, free)
    try:
        assert asked.port == free
        with pytest.raises(OSError):
            Server(preview, free)  # taken now: refused at once, not on the first request
    finally:
        asked.socket.close()


def test_every_route_needs_the_token(server: Server, http_get: Get) -> None:
    base = f"/{server.token}/"
    assert http_get(server.port, base)[0] == 200
    assert http_get(server.port, base + "state")[0] == 200
    wrong = server.token[:-1] + ("y" if server.token.endswith("x") else "x")  # one letter off
    for path in (
        "/",
        "/state",
        "/static/preview.js",
        f"/{wrong}/state",
        f"/{server.token}",
        "/favicon.ico",
        f"/x/{server.token}/state",
    ):
        status, _ = http_get(server.port, path)
        assert status == 404, path


def test_the_page_and_its_assets_are_served_from_memory(server: Server, http_get: Get) -> None:
    base = f"/{server.token}/"
    status, body = http_get(server.port, base + "static/preview.js")
    assert status == 200 and b"EventSource" in body
    status, body = http_get(server.port, base + "page/sheet-teodora-vance.pdf/1.png")
    assert (status, body) == (200, b"PNG page 1")
    assert http_get(server.port, base + "page/sheet-teodora-vance.pdf/2.png")[0] == 404
    assert http_get(server.port, base + "page/nobody.pdf/1.png")[0] == 404


@pytest.mark.parametrize(
    "path",
    [
        "static/../../../../etc/passwd",
        "static/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "static/..%2f..%2fserver.py",
        "static/server.py",
        "static/__init__.py",
        "page/..%2f..%2f..%2fetc%2fpasswd/1.png",
        "page/../../secret.yaml/1.png",
        "anchors/..%2fsecret.yaml",
        "../secret.yaml",
        "%2e%2e/secret.yaml",
    ],
)
def test_path_tricks_reach_nothing(server: Server, http_get: Get, path: str) -> None:
    status, body = http_get(server.port, f"/{server.token}/{path}")
    assert status == 404, path
    assert b"root:" not in body and b"hunter2" not in body and b"import" not in body


def test_the_source_route_shows_the_campaigns_own_lines(server: Server, http_get: Get) -> None:
    status, body = http_get(server.port, f"/{server.token}/source?file=campaign/party.yaml&line=6")
    assert status == 200
    source = json.loads(body)
    assert source["line"] == 6
    assert {"n": 5, "text": "      stealth: 3"} in source["lines"]
    assert {"n": 6, "text": "      detection: 2"} in source["lines"]
    assert source["editor"].startswith("vscode://file/") and source["editor"].endswith(
        "campaign/party.yaml:6"
    )
    status, _ = http_get(
        server.port, f"/{server.token}/source?file=campaign/scratchpress.toml&line=1"
    )
    assert status == 200


@pytest.mark.parametrize(
    "file",
    [
        "secret.yaml",
        "campaign/../secret.yaml",
        "/etc/passwd",
        "party.yaml/../../secret.yaml",
        "campaign/link.yaml",
        "campaign/notes.txt",
    ],
)
def test_the_source_route_refuses_every_other_file(
    server: Server, http_get: Get, file: str
) -> None:
    folder = server.preview.found.root
    (folder / "link.yaml").symlink_to(folder.parent / "secret.yaml")  # a link out: refused
    (folder / "notes.txt").write_text("not a campaign file\n", encoding="utf-8")
    server.preview._refresh_sources()
    status, body = http_get(server.port, f"/{server.token}/source?file={file}&line=1")
    assert status == 404, file
    assert b"hunter2" not in body and b"root:" not in body and b"campaign file\n" not in body


def test_a_page_that_names_another_host_is_refused(server: Server, http_get: Get) -> None:
    """A web page of another site whose name now points at 127.0.0.1 (a DNS rebinding)
    sends its own name as the host: it reaches nothing, token or not."""
    base = f"/{server.token}/"
    assert http_get(server.port, base + "state", host="evil.example:80")[0] == 404
    assert http_get(server.port, base + "state", host=f"localhost:{server.port}")[0] == 200


def test_ctrl_c_stops_the_command_cleanly(campaign: Path, start_preview: Any) -> None:
    with start_preview(campaign) as preview:
        preview.settled()
        code, out, err = preview.stop()
    assert code == 0, err
    assert preview.url.startswith("http://127.0.0.1:")  # the first line printed
    assert "Traceback" not in out + err
