"""Finding the system's CJK faces where the system keeps them (typesetting/fonts.py):
through the user's own fontconfig, else the platform's font folders, Debian's path too."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cjk_faces import a_cjk_collection, fontconfig_for

from scratchpress.typesetting import fonts
from scratchpress.typesetting.fonts import (
    CJK_BY_LANGUAGE,
    CJK_FAMILIES,
    CJK_OTHER_NAMES,
    CJK_REGIONS,
    USER_FONTCONFIG,
    user_fontconfig_env,
)


def test_fontconfig_finds_a_cjk_face_outside_debians_folder(tmp_path: Path) -> None:
    if shutil.which("fc-list") is None:
        pytest.skip("fc-list (fontconfig's tools) is not installed")
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    copy = folder / "MyCJK.ttc"  # a name the folder search would not know: fontconfig's find
    shutil.copyfile(a_cjk_collection(), copy)
    conf = fontconfig_for(folder, tmp_path)
    # In a process of its own, as a user whose fontconfig lists that folder: ours keeps its
    # own configuration and its answer cached.
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    env.pop(USER_FONTCONFIG, None)
    script = (
        "import json; from scratchpress.typesetting import fonts; fonts.DEBIAN_CJK = ();"
        " print(json.dumps([str(p) for p in fonts.cjk_font_files()]))"
    )
    found = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(found) == [str(copy)]


def test_the_lookup_asks_the_users_fontconfig_not_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    # render/fonts.py points FONTCONFIG_FILE at our confined file and keeps the user's.
    monkeypatch.setenv("FONTCONFIG_FILE", "/cache/scratchpress/fonts-ours.conf")
    monkeypatch.setenv(USER_FONTCONFIG, "/home/gm/my-fonts.conf")
    env = user_fontconfig_env()
    assert env["FONTCONFIG_FILE"] == "/home/gm/my-fonts.conf"
    assert USER_FONTCONFIG not in env
    monkeypatch.setenv(USER_FONTCONFIG, "")  # the user had none: fontconfig's default
    assert "FONTCONFIG_FILE" not in user_fontconfig_env()
    monkeypatch.delenv(USER_FONTCONFIG)  # not confined yet: the environment as it is
    assert user_fontconfig_env()["FONTCONFIG_FILE"] == "/cache/scratchpress/fonts-ours.conf"


def test_without_fontconfig_the_platform_folders_are_searched_by_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user_fonts = tmp_path / "Library" / "Fonts"
    (user_fonts / "noto").mkdir(parents=True)
    wanted = [
        user_fonts / "NotoSansCJK.ttc",  # Homebrew's cask: every weight in one collection
        user_fonts / "noto" / "NotoSerifCJKjp-Bold.otf",
        user_fonts / "SourceHanSans-Regular.ttc",
        user_fonts / "NotoSansJP-Regular.otf",  # Google Fonts' Japanese subset
    ]
    others = [user_fonts / "NotoSans-Regular.ttf", user_fonts / "NotoSansCJK-Regular.txt"]
    for path in wanted + others:
        path.write_bytes(b"")
    monkeypatch.setattr(fonts, "DEBIAN_CJK", ())
    monkeypatch.setattr(fonts, "_fontconfig_cjk", lambda: [])
    monkeypatch.setattr(fonts, "platform_font_folders", lambda: [tmp_path / "gone", user_fonts])
    fonts._installed_cjk.cache_clear()
    try:
        assert list(fonts.cjk_font_files()) == sorted(wanted, key=str)
        assert {group for group, _ in fonts.system_fonts()} == {fonts.CJK}
    finally:
        fonts._installed_cjk.cache_clear()


def test_the_platform_folders_are_where_macos_and_windows_keep_fonts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert Path("/Library/Fonts") in fonts.platform_font_folders()
    assert Path.home() / "Library" / "Fonts" in fonts.platform_font_folders()
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("WINDIR", "D:\\Windows")
    monkeypatch.setenv("LOCALAPPDATA", "/users/gm/AppData/Local")
    assert fonts.platform_font_folders() == [
        Path("D:\\Windows") / "Fonts",
        Path("/users/gm/AppData/Local") / "Microsoft" / "Windows" / "Fonts",
    ]
    monkeypatch.setattr(sys, "platform", "linux")
    assert fonts.platform_font_folders() == []  # fontconfig knows them there


def test_fontconfig_lists_are_read_by_every_name_of_the_faces() -> None:
    assert fonts._cjk_family("Noto Sans CJK JP,Noto Sans CJK JP Regular")
    assert fonts._cjk_family("Source Han Serif K")
    assert fonts._cjk_family("Source Han Sans")
    assert not fonts._cjk_family("Noto Sans,Noto Sans Regular")
    assert not fonts._cjk_family("DejaVu Sans")


def test_every_language_rule_names_regions_the_faces_carry() -> None:
    assert CJK_BY_LANGUAGE["ja"] == ("JP",)
    assert CJK_BY_LANGUAGE["ko"] == ("KR",)
    assert CJK_BY_LANGUAGE["zh-tw"] == CJK_BY_LANGUAGE["zh-hant"] == ("TC",)
    assert CJK_BY_LANGUAGE["zh-hk"][-1] == "TC"
    assert "zh" not in CJK_BY_LANGUAGE  # the chains' own Simplified Chinese
    for language, regions in CJK_BY_LANGUAGE.items():
        assert language == language.lower()  # as Pango hands it to fontconfig
        assert set(regions) <= set(CJK_REGIONS)
    assert set(CJK_OTHER_NAMES) == CJK_FAMILIES
    assert "Source Han Sans K" in CJK_OTHER_NAMES["Noto Sans CJK KR"]
