"""A CJK face of this machine's and a fontconfig configuration of a test's own, for the
tests that find the system's CJK faces somewhere other than Debian's path
(tests/typesetting/test_fonts.py, tests/render/test_fonts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from scratchpress.typesetting.fonts import cjk_font_files


def a_cjk_collection() -> Path:
    """One Noto Sans CJK collection of this machine's, wherever it was found; the tests that
    need real CJK faces skip without one."""
    found = [path for path in cjk_font_files() if path.name.startswith("NotoSansCJK")]
    if not found:
        pytest.skip("no Noto Sans CJK face on this machine (install fonts-noto-cjk or similar)")
    return found[0]


def fontconfig_for(folder: Path, tmp_path: Path) -> Path:
    """A fontconfig configuration that knows of ``folder``'s fonts and nothing else."""
    conf = tmp_path / "only-this-folder.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{folder}</dir>\n  <cachedir>{tmp_path / 'fc-cache'}</cachedir>\n"
        "</fontconfig>\n",
        encoding="utf-8",
    )
    return conf
