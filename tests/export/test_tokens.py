"""Tokens for each entry: its portrait through the same gate as the character sheet's,
else its initials; one colour per side, the party's first."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from scratchpress import api
from scratchpress.export.entries import entries
from scratchpress.export.tokens import token_files, token_path
from scratchpress.render.tokens import PALETTE, TOKEN_SIZES, initials, token_png

PARTY = """\
    characters:
      - name: Ann Kell
        player: Kim
        group: Wardens
        portrait: {portrait}
        abilities: {{toughness: 2, command: 1}}
        minions:
          - name: Dog
            abilities: {{toughness: 1}}
      - name: Bo
        group: Raiders
        abilities: {{toughness: 1}}
    """


def _png(colour: tuple[int, int, int] = (200, 30, 40)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 80), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def _campaign(write_campaign: Any, portrait: str = "face.png", data: bytes | None = None) -> Path:
    folder: Path = write_campaign({"party.yaml": PARTY.format(portrait=portrait)})
    (folder / "face.png").write_bytes(_png() if data is None else data)
    return folder


def _tokens(folder: Path) -> tuple[dict[str, bytes], list[api.Problem], list[Any]]:
    opened = api.open_campaign(folder)
    found = entries(opened.computed)
    files, problems = token_files(found, opened.campaign)
    return files, problems, found


def test_every_entry_gets_a_token_at_each_usual_size(write_campaign: Any) -> None:
    files, problems, found = _tokens(_campaign(write_campaign))
    assert problems == []
    assert sorted(files) == sorted(token_path(e, size) for e in found for size in TOKEN_SIZES)
    assert sorted(files)[:2] == ["tokens/ann-kell-256.png", "tokens/ann-kell-512.png"]


def test_a_portrait_is_the_token_and_the_rest_show_initials(write_campaign: Any) -> None:
    files, _, found = _tokens(_campaign(write_campaign))
    ann = Image.open(io.BytesIO(files["tokens/ann-kell-256.png"]))
    red = ann.getpixel((128, 128))
    assert abs(red[0] - 200) < 10 and red[1] < 50  # type: ignore[index]
    bo = next(e for e in found if e.name == "Bo")
    assert files[token_path(bo, 256)] == token_png(256, bo.colour, "B")


def test_each_side_has_a_colour_of_its_own_the_partys_first(write_campaign: Any) -> None:
    _, _, found = _tokens(_campaign(write_campaign))
    colours = {e.name: e.colour for e in found}
    assert colours == {"Ann Kell": PALETTE[0], "Dog": PALETTE[0], "Bo": PALETTE[1]}


def test_a_damaged_portrait_is_a_warning_and_the_token_shows_initials(
    write_campaign: Any,
) -> None:
    folder = _campaign(write_campaign, data=_png()[:-30])
    files, problems, found = _tokens(folder)
    (problem,) = problems
    assert (problem.file, problem.line, problem.entry, problem.field, problem.severity) == (
        str(folder / "party.yaml"),
        5,
        "Ann Kell",
        "portrait",
        "warning",
    )
    assert "face.png is damaged or truncated" in problem.message
    assert problem.message.endswith("; its token shows AK instead")
    ann = next(e for e in found if e.name == "Ann Kell")
    assert files[token_path(ann, 256)] == token_png(256, ann.colour, initials("Ann Kell"))


def test_a_portrait_the_sheet_refuses_is_refused_in_the_same_words(
    write_campaign: Any, tmp_path: Path
) -> None:
    (tmp_path / "outside.png").write_bytes(_png())
    folder = _campaign(write_campaign, portrait="../outside.png")
    _, problems, _ = _tokens(folder)
    (problem,) = problems
    checked = [p for p in api.check(api.open_campaign(folder)).problems if p.field == "portrait"]
    assert problem.message.startswith(checked[0].message)
