"""`scratchpress preview`'s own messages (the server and the page: tests/preview/)."""

from __future__ import annotations

import socket
from pathlib import Path

from conftest import Cli, WriteCampaign


def test_a_port_already_taken_is_a_usage_error_in_one_line(
    cli: Cli, write_campaign: WriteCampaign
) -> None:
    folder = write_campaign({"party.yaml": "characters:\n  - name: Ann\n    abilities: {}\n"})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = cli("preview", folder, "--port", str(port), "--no-browser")
    assert result.exit_code == 2
    assert f"--port {port}: cannot listen there" in result.stderr
    assert result.stdout == ""  # no address printed: nothing listens


def test_a_folder_that_is_not_there_is_refused_before_anything_listens(
    cli: Cli, tmp_path: Path
) -> None:
    result = cli("preview", tmp_path / "nosuch", "--no-browser")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0].endswith("nosuch: not a campaign folder")
