"""labels.yaml: a campaign's own words for our labels, each bad line named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scratchpress.definitions.labels import load_labels
from scratchpress.problems import Problem


@pytest.fixture(autouse=True)
def _in_the_campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # problems name files as the user typed them: labels.yaml


def _load(tmp_path: Path, text: str) -> tuple[dict[str, str], list[str]]:
    (tmp_path / "labels.yaml").write_text(text, encoding="utf-8")
    problems: list[Problem] = []
    return load_labels(tmp_path, problems), [str(p) for p in problems]


def test_labels_are_read_by_their_english_message(tmp_path: Path) -> None:
    labels, problems = _load(tmp_path, "stamina: grit\nhit points: wounds\n")
    assert labels == {"stamina": "grit", "hit points": "wounds"}
    assert problems == []


def test_no_file_means_no_labels(tmp_path: Path) -> None:
    assert load_labels(tmp_path, []) == {}


def test_each_bad_label_names_its_line_and_the_label(tmp_path: Path) -> None:
    text = "stamina: grit\nHit pionts: wounds\nfighting: [1, 2]\nHIT POINTS: x\n"
    labels, problems = _load(tmp_path, text)
    assert labels == {"stamina": "grit"}
    assert problems[0].startswith("labels.yaml:2: entry \"Hit pionts\": no label of ours")
    assert "did you mean 'hit points'?" in problems[0]
    assert problems[1].startswith("labels.yaml:3: entry \"fighting\": must be words")
    assert "did you mean 'hit points'?" in problems[2]  # another case of a known label
    assert len(problems) == 3


def test_a_label_must_keep_its_placeholders(tmp_path: Path) -> None:
    from scratchpress.wording import messages

    placeholder = next(m for m in sorted(messages()) if "%(" in m)
    labels, problems = _load(tmp_path, f'"{placeholder}": "nothing to fill in"\n')
    assert labels == {}
    assert "must keep the label's placeholders (%(" in problems[0]


def test_a_file_that_is_not_a_mapping_is_one_problem(tmp_path: Path) -> None:
    labels, problems = _load(tmp_path, "- stamina\n- grit\n")
    assert labels == {}
    assert problems == ["labels.yaml:1: labels.yaml maps an English label to your words, one per line"]


def test_a_build_prints_the_campaign_s_words_for_a_label_and_check_names_a_bad_one(
    cli: Any, write_campaign: Any
) -> None:
    from pypdf import PdfReader

    folder = write_campaign(
        {
            "party.yaml": """\
                characters:
                  - name: Ada Quill
                    abilities:
                      toughness: 2
                      shooting: 2
                """,
            "labels.yaml": "stamina: grit\n",
        }
    )
    built = cli("build", folder, "--only", "sheets", "-o", "out")
    assert built.exit_code == 0, built.stderr
    text = " ".join(page.extract_text() for page in PdfReader("out/sheet-ada-quill.pdf").pages)
    assert "grit" in text.lower() and "stamina" not in text.lower()
    (folder / "labels.yaml").write_text("stamina: grit\nstamnia: puff\n", encoding="utf-8")
    checked = cli("check", folder)
    assert checked.exit_code == 1
    assert checked.stderr.splitlines()[0] == (
        "campaign/labels.yaml:2: entry \"stamnia\": no label of ours reads exactly this"
        " (did you mean 'stamina'?)"
    )
