"""Fuzzing: random and mutated definitions through ``check`` and ``build``.

Whatever a campaign holds, scratchpress answers with exit code 0 (fine) or 1 (problems,
each named), never a traceback, and writes nothing outside the output folder.

Most examples run the real pipeline (YAML, validation, rules, view models, the real Jinja
templates, the cache and the writes) with WeasyPrint replaced by a stub, so that a few
hundred campaigns fit in seconds; ``test_mutated_campaigns_render_for_real`` keeps WeasyPrint
for a handful. Renderer failures are caught per document anyway (render/pool.py).
"""

from __future__ import annotations

import io
import json
import os
import random
import resource
import shutil
import struct
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from PIL import Image
from ruamel.yaml import YAML
from typer.testing import CliRunner, Result

from scratchpress.cli.app import app
from scratchpress.definitions.yamlsafe import load_yaml
from scratchpress.problems import InputError
from scratchpress.render import engine
from scratchpress.render.images import ImageProblem, portrait_data_url
from scratchpress.resources import examples_dir
from scratchpress.rules.abilities import CHARACTER_ABILITIES, VEHICLE_ABILITIES

runner = CliRunner()


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- strategies ------------------------------------------------------------------------------

NASTY_TEXT = [
    "No", "yes", "007", "1e3", ".inf", "-.nan", "0x1F", "~", "", " ", "<script>x</script>",
    '<img src="file:///etc/passwd">', "{{ 7*7 }}", "{% include '../x' %}", "%s%n", "../../x",
    "/dev/zero", "portraits/teodora-vance.png", "../outside.png", "CON", "a\\b", "\u202eevil",
    "\0", "é" * 150, "x" * 5000, "😀" * 30, "\ufeff", "&amp;", "]]>",
]  # fmt: skip
FIELD_NAMES = [
    "name", "player", "description", "group", "portrait", "career", "abilities", "minions",
    "printed", "level", "note", "count", "movement", "crew", "operator", "gunner", "economy",
    "environment", "equity", "players", "projects", "history", "year", "event", "develop",
    "sacrifice", "roll", "title", "id", "agility", "hit_points", "stamina",
]  # fmt: skip
TOP_KEYS = ["characters", "vehicles", "communities", "events", "careers", "project_ideas"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-3, max_value=40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(NASTY_TEXT),
)
keys = st.one_of(
    st.sampled_from(FIELD_NAMES + list(CHARACTER_ABILITIES) + list(VEHICLE_ABILITIES)),
    st.text(max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=25,
)
levels = st.integers(min_value=1, max_value=6) | st.integers(min_value=-2, max_value=30) | values
abilities = st.dictionaries(
    st.sampled_from(CHARACTER_ABILITIES) | st.text(max_size=10),
    levels | st.fixed_dictionaries({"level": levels}, optional={"note": st.text() | values}),
    max_size=6,
)
texts = st.text(max_size=80) | st.sampled_from(NASTY_TEXT)
known_fields = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=60) | st.sampled_from(NASTY_TEXT),
        "abilities": abilities,
    },
    optional={
        "description": texts | values,
        "player": texts | values,
        "group": texts,
        "portrait": st.sampled_from(NASTY_TEXT),
        "minions": st.lists(
            st.fixed_dictionaries({"name": st.text(max_size=20), "abilities": abilities}),
            max_size=3,
        ),
        "printed": st.dictionaries(st.text(max_size=10), values, max_size=3),
    },
)
characters = st.builds(
    lambda extra, known: {**extra, **known},
    st.just({}) | st.dictionaries(st.text(max_size=8), values, max_size=2),  # unknown keys
    known_fields,
)
campaign_data = st.dictionaries(
    st.sampled_from(TOP_KEYS) | st.text(max_size=10),
    st.lists(characters | values, max_size=4) | values,
    max_size=3,
) | st.fixed_dictionaries({"characters": st.lists(characters, min_size=1, max_size=3)})
settings_text = st.sampled_from(
    ["", 'rules = "classic"\n', "cp = 1000000000000\n", "max_level = -1\n", "paper = 3\n",
     'rules = "nope"\n', "cp = [\n", "duplex_offset_mm = [1e308, -1e308]\n", "\0"]
)  # fmt: skip


def dump(data: Any) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    buffer = io.StringIO()
    try:
        yaml.dump(data, buffer)
    except RecursionError:  # ruamel's emitter recurses; JSON is YAML too
        return json.dumps(data)
    return buffer.getvalue()


def _example(name: str) -> Any:
    return YAML(typ="safe", pure=True).load((examples_dir() / name).read_text(encoding="utf-8"))


EXAMPLES = {
    name: _example(name)
    for name in ("party.yaml", "adversaries.yaml", "vehicles.yaml", "community.yaml")
}


def _paths(data: Any) -> Iterator[tuple[Any, ...]]:
    """Every path into ``data``, without recursion (mutations nest values 150 deep)."""
    stack: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while stack:
        here, value = stack.pop()
        yield here
        if isinstance(value, dict):
            stack += [((*here, k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [((*here, i), v) for i, v in enumerate(value)]


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _deep(depth: int) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value]
    return value


MUTATIONS: list[str] = ["drop", "replace", "huge", "unicode", "deep", "wrap", "duplicate", "type"]


def mutate(data: Any, rng: random.Random, replacement: Any) -> Any:
    """One random change at a random place: a dropped key, a wrong type, a huge number..."""
    paths = [p for p in _paths(data) if p]
    if not paths:
        return _copy(replacement)
    path = rng.choice(paths)
    parent, last = _at(data, path[:-1]), path[-1]
    kind = rng.choice(MUTATIONS)
    if kind == "drop":
        del parent[last]
    elif kind == "replace":
        parent[last] = _copy(replacement)  # a copy: the same list put inside itself is a cycle
    elif kind == "huge":
        parent[last] = rng.choice([10**100, -(10**100), 2**63, 1e308, float("inf"), -1])
    elif kind == "unicode":
        parent[last] = rng.choice(NASTY_TEXT[-8:]) + str(parent[last])
    elif kind == "deep":
        parent[last] = _deep(rng.choice([10, 63, 70, 150]))
    elif kind == "wrap":
        parent[last] = [parent[last]] if rng.random() < 0.5 else {"x": parent[last]}
    elif kind == "duplicate" and isinstance(parent, list):
        parent.append(parent[last])
    else:
        value = parent[last]
        parent[last] = str(value) if not isinstance(value, str) else rng.randint(-5, 50)
    return data


# --- running ---------------------------------------------------------------------------------


def _tiny_pdf(html: str, *args: Any, **kwargs: Any) -> Any:
    """Stands in for WeasyPrint: a valid one-page PDF, made instantly."""
    return engine.Rendered(
        pdf=b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
        pages=1,
        page_sizes=[(612.0, 792.0)],
    )


@contextmanager
def stub_renderer() -> Iterator[None]:
    original = engine.render_pdf
    engine.render_pdf = _tiny_pdf  # type: ignore[assignment]
    try:
        yield
    finally:
        engine.render_pdf = original  # type: ignore[assignment]


def invoke(*args: str | os.PathLike[str]) -> Result:
    result = runner.invoke(app, [str(a) for a in args])
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, f"scratchpress {args} crashed: {result.exception!r}\n{result.output}"
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1), (result.exit_code, result.output)
    return result


def snapshot(root: Path, skip: Path) -> dict[str, bytes]:
    found = {}
    for path in sorted(root.rglob("*")):
        if path == skip or skip in path.parents:
            continue
        if path.is_symlink():
            found[str(path)] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            found[str(path)] = path.read_bytes()
        else:
            found[str(path)] = b"<dir>"
    return found


@contextmanager
def memory_guard(headroom_mb: int = 3072) -> Iterator[None]:
    """Lower this process's soft address-space limit while an example runs, so a memory
    bomb is a MemoryError (a failed example) rather than the machine's OOM killer."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as handle:
        vsz = int(handle.read().split()[0]) * resource.getpagesize()
    limit = vsz + headroom_mb * 2**20
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def check_and_build(files: dict[str, str], build_args: tuple[str, ...] = ()) -> None:
    """Write a campaign in a fresh folder, run check and build inside it, and compare the
    folder before and after: only the output folder may change."""
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        campaign = root / "campaign"
        (campaign / "portraits").mkdir(parents=True)
        for portrait in (examples_dir() / "portraits").glob("*.png"):
            shutil.copy(portrait, campaign / "portraits")
        (root / "outside.png").write_bytes(b"not for you")
        for name, text in files.items():
            (campaign / name).write_text(text, encoding="utf-8", errors="surrogatepass")
        out = root / "out"
        before = snapshot(root, out)
        os.chdir(root)
        try:
            with memory_guard():
                checked = invoke("check", campaign)
                built = invoke(
                    "build", campaign, "-o", out, "--only", "sheets", "-j", "1", *build_args
                )
            written = len(list(out.glob("*.pdf"))) if out.exists() else 0
            event(f"check {checked.exit_code}, build {built.exit_code}, PDFs: {written > 0}")
        finally:
            os.chdir(cwd)
        assert snapshot(root, out) == before
        if out.exists():
            for path in out.rglob("*"):
                assert out.resolve() in path.resolve().parents


# --- the fuzz tests ----------------------------------------------------------------------------


@fuzz(400)
@given(st.text(max_size=300))
def test_any_text_loads_or_is_an_input_error(text: str) -> None:
    try:
        load_yaml(text, "fuzz.yaml")
    except InputError as err:
        assert all(p.file == "fuzz.yaml" for p in err.problems)


@fuzz(40)
@given(campaign_data, settings_text)
def test_random_definitions_never_crash(data: Any, toml: str) -> None:
    with stub_renderer():
        check_and_build({"party.yaml": dump(data), "scratchpress.toml": toml}, ("--no-cache",))


@fuzz(25)
@given(st.text(max_size=400), st.sampled_from(["party.yaml", "x.yml", "scratchpress.toml"]))
def test_random_text_files_never_crash(text: str, name: str) -> None:
    files = {"party.yaml": dump(EXAMPLES["party.yaml"])} if name != "party.yaml" else {}
    with stub_renderer():
        check_and_build({**files, name: text})


@fuzz(40)
@given(
    st.randoms(use_true_random=False),
    st.integers(min_value=1, max_value=5),
    values,
    st.sampled_from(sorted(EXAMPLES)),
)
def test_mutated_example_campaigns_never_crash(
    rng: random.Random, count: int, replacement: Any, name: str
) -> None:
    data = EXAMPLES[name]
    mutated = _copy(data)
    for _ in range(count):
        mutated = mutate(mutated, rng, replacement)
    files = {"party.yaml": dump(EXAMPLES["party.yaml"]), name: dump(mutated)}
    with stub_renderer():
        check_and_build(files)  # with the cache: a second look at its writes


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


@fuzz(4)
@given(st.randoms(use_true_random=False), st.lists(texts, min_size=1, max_size=4))
def test_mutated_campaigns_render_for_real(rng: random.Random, replacements: list[str]) -> None:
    """A few through WeasyPrint itself: one character of the example party, its text fields
    (name, description, notes) replaced by hostile or random text, with the real templates."""
    character = _copy(rng.choice(EXAMPLES["party.yaml"]["characters"]))
    text_paths = [
        p
        for p in _paths(character)
        if p and isinstance(_at(character, p), str) and p[0] != "portrait"
    ]
    for text in replacements:
        path = rng.choice(text_paths)
        _at(character, path[:-1])[path[-1]] = text
    check_and_build({"party.yaml": dump({"characters": [character]})}, ("--no-cache",))


# --- images ----------------------------------------------------------------------------------


def _seed_images() -> dict[str, bytes]:
    seeds = {}
    for fmt in ("PNG", "JPEG", "WEBP"):
        buffer = io.BytesIO()
        Image.new("RGB", (24, 32), (200, 30, 30)).save(buffer, format=fmt)
        seeds[fmt] = buffer.getvalue()
    buffer = io.BytesIO()
    image = Image.new("RGB", (24, 32))
    exif = image.getexif()
    exif[0x0112] = 6  # rotated: exercises exif_transpose
    image.save(buffer, format="JPEG", exif=exif)
    seeds["JPEG-EXIF"] = buffer.getvalue()
    header = struct.pack(">IIBBBBB", 60_000, 60_000, 8, 2, 0, 0, 0)
    ihdr = b"IHDR" + header
    seeds["PNG-BOMB"] = (
        b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
    )
    return seeds


SEEDS = _seed_images()
edits = st.lists(
    st.tuples(st.integers(min_value=0, max_value=10_000), st.integers(0, 255)), max_size=8
)


@fuzz(300)
@given(
    st.sampled_from(sorted(SEEDS)), edits, st.integers(min_value=0, max_value=10_000) | st.none()
)
def test_damaged_portraits_are_an_image_problem_or_fine(
    seed: str, changes: list[tuple[int, int]], cut: int | None
) -> None:
    data = bytearray(SEEDS[seed])
    for position, byte in changes:
        data[position % len(data)] = byte
    if cut is not None:
        data = data[: cut % (len(data) + 1)]
    with tempfile.TemporaryDirectory() as temp:
        face = Path(temp) / "face.png"
        face.write_bytes(bytes(data))
        try:
            url = portrait_data_url(face, [Path(temp)], (30.0, 40.0))
        except ImageProblem as problem:
            assert "face.png" in str(problem)
        else:
            assert url.startswith("data:image/jpeg;base64,")


@pytest.fixture(autouse=True)
def _no_stub_left_behind() -> Iterator[None]:
    original: Callable[..., Any] = engine.render_pdf
    yield
    assert engine.render_pdf is original
