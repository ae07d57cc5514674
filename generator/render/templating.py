"""The Jinja2 environment: sandboxed, autoescaped, strict about missing values.

Templates only present. Every number they print is computed in ``documents/`` first, so
the sandbox never needs more than attribute access and loops.
"""

from __future__ import annotations

import errno
import hashlib
import os
import signal
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import BaseLoader, Environment, StrictUndefined, TemplateNotFound, meta
from jinja2.exceptions import SecurityError
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import escape

from .. import wording
from ..resources import fonts_dir, templates_dir

MAX_TEMPLATE_BYTES = 1024 * 1024
MAX_SEQUENCE = 1_000_000  # longest string or list `*` may make in a template
RENDER_SECONDS = 60  # Jinja runs in this process: a runaway loop must still stop
_CHUNK = 64 * 1024
# Opening never follows a link nor waits on a FIFO planted in a theme.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_BINARY", 0)
)


class ConfinedLoader(BaseLoader):
    """Templates from a list of folders, like FileSystemLoader, but each file must resolve
    (after symlinks) to a regular, modest file inside its own folder: a campaign's theme
    cannot `{% include %}` a link to ~/.ssh or read a FIFO."""

    def __init__(self, folders: list[Path]) -> None:
        self.folders = [Path(os.path.realpath(f)) for f in folders]

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        parts = split_template_path(template)  # refuses "..", like FileSystemLoader
        for index, folder in enumerate(self.folders):
            candidate = folder.joinpath(*parts)
            if not candidate.exists():
                continue
            real = Path(os.path.realpath(candidate))
            if folder not in real.parents:
                raise TemplateNotFound(f"{template} (a link out of its folder)")
            info = real.stat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_TEMPLATE_BYTES:
                raise TemplateNotFound(f"{template} (not a regular file under 1 MB)")
            source = real.read_text(encoding="utf-8")
            ahead = [f.joinpath(*parts) for f in self.folders[:index]]
            return source, str(real), _unchanged(candidate, info.st_mtime, ahead)
        raise TemplateNotFound(template)


def _unchanged(path: Path, mtime: float, ahead: list[Path]) -> Callable[[], bool]:
    """Jinja keeps a loaded template while this says True. Under ``build --watch`` a theme
    changes as the GM works: a file deleted or renamed away (ours takes its place), edited,
    or added in a folder ahead of the one it came from (the theme's now wins)."""

    def unchanged() -> bool:
        if any(os.path.lexists(earlier) for earlier in ahead):
            return False
        try:
            return path.stat().st_mtime == mtime
        except OSError:
            return False

    return unchanged


class _Sandbox(ImmutableSandboxedEnvironment):
    """The sandbox, plus limits on `*` and `**`, which could build gigabytes in one step."""

    intercepted_binops = frozenset(["*", "**"])

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**" and isinstance(right, int) and abs(right) > 100:
            raise SecurityError("exponent too large for a template")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                sized = isinstance(seq, str | list | tuple) and isinstance(times, int)
                if sized and len(seq) * times > MAX_SEQUENCE:
                    raise SecurityError("repetition too large for a template")
        return super().call_binop(context, operator, left, right)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Stop a template that loops for too long (main thread on Unix; elsewhere no limit)."""
    usable = hasattr(signal, "SIGALRM") and _main_thread()
    if not usable:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise SecurityError(f"the template ran longer than {seconds:g} s; stopped")

    previous = signal.signal(signal.SIGALRM, expire)
    started = time.monotonic()
    outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer > 0:  # someone else's alarm was pending: give back what is left of it
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - started), 1e-3))


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


@cache
def environment(extra: tuple[Path, ...] = ()) -> ImmutableSandboxedEnvironment:
    """One environment per set of template folders; a campaign's own folder comes first."""
    env = _Sandbox(
        loader=ConfinedLoader([*extra, templates_dir()]),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    # `{{ _("Hit points") }}` words a label in the language the build speaks now
    # (wording.speaking), so one environment serves every language.
    env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True, pgettext=_pgettext
    )
    env.globals["fonts_url"] = fonts_url()
    env.filters["display_face"] = display_class
    return env


# Jinja takes what gettext returns as markup (our catalogues' messages may hold <b> or
# &shy;), so a campaign's own words from labels.yaml, a stranger's text, are escaped first.
def _gettext(message: str) -> str:
    words = wording.current()
    if message in words.overrides:
        return escape(words.overrides[message])
    return words.gettext(message)


def _ngettext(singular: str, plural: str, count: int) -> str:
    words = wording.current()
    english = singular if count == 1 else plural
    if english in words.overrides:
        return escape(words.overrides[english])
    return words.ngettext(singular, plural, count)


def _pgettext(context: str, message: str) -> str:
    words = wording.current()
    if message in words.overrides:
        return escape(words.overrides[message])
    return words.pgettext(context, message)


def display_class(text: object) -> str:
    """The class that sets a display title in the face that has all its letters (base.css):
    ``display-fallback`` when Bebas Neue lacks one, so a title never changes face mid-word."""
    from ..typesetting.fonts import FACES
    from ..typesetting.measure import display_face

    return "display-fallback" if display_face(str(text)) != FACES["display"] else ""


def fonts_url() -> str:
    """Our fonts folder as templates write it: a URL relative to the templates folder, which
    every document is rendered from (``base_url``), so ``../fonts`` in an installed copy.
    Never the absolute ``file://`` URL: a theme could print that into a PDF, and with it the
    GM's home folder and user name."""
    return quote(Path(os.path.relpath(fonts_dir(), templates_dir())).as_posix())


THEME_DIR = "theme"


def template_digest(template: str, themes: tuple[Path, ...] = ()) -> str:
    """A hash of a template and of every template it extends, includes or imports, as this
    campaign loads them (a theme's file in place of ours).

    Units of an imposed deck are cached by this digest plus their own data, instead of by
    their full HTML: rendering 500 single-card HTML pages only to hash them would cost more
    than the rebuild they save. The words the templates print come in too: the language
    spoken now, its catalogue and the campaign's labels. A template named by a variable
    cannot be followed, so then every template file counts."""
    env = environment(themes)
    assert isinstance(env.loader, ConfinedLoader)
    digest = hashlib.sha256(wording.current().digest().encode())
    todo, done = [template], set()
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        source, _, _ = env.loader.get_source(env, name)
        digest.update(f"{name}\0{source}\0".encode("utf-8", "surrogatepass"))
        named = _referenced(env, source)
        if None in named:
            for folder in env.loader.folders:
                for path in sorted(folder.rglob("*")):
                    _hash_file(digest, folder, path)
            break
        todo += sorted(str(n) for n in named)
    return digest.hexdigest()


def _hash_file(digest: Any, folder: Path, path: Path) -> None:
    """Add a regular file's name and bytes to ``digest``, read in chunks (links, folders and
    FIFOs are skipped, unopened or unread). A file over the loader's 1 MB (a theme's large
    background picture, or a stranger's sparse file of any size) is never read: the loader
    would never include it, so its size and time stand for its bytes."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as err:
        if err.errno == errno.ELOOP:  # became a link since: not ours to follow
            return
        raise
    relative = path.relative_to(folder).as_posix()
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return
        digest.update(relative.encode("utf-8", "surrogateescape") + b"\0")
        if info.st_size > MAX_TEMPLATE_BYTES:
            digest.update(f"{info.st_size}\0{info.st_mtime_ns}".encode())
            return
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)


@lru_cache(maxsize=256)
def _referenced(env: ImmutableSandboxedEnvironment, source: str) -> list[str | None]:
    """The templates a template's text names (parsed once per text: a rebuild in watch mode
    would otherwise parse every deck template again to hash it)."""
    return list(meta.find_referenced_templates(env.parse(source)))


def theme_dirs(campaign_root: Path | None) -> tuple[Path, ...]:
    """A campaign may override any template or stylesheet by putting a file of the same
    name under ``theme/`` (e.g. ``theme/sheet/sheet.css``). Those files come from whoever
    shared the campaign, which is why every template runs in the sandbox."""
    if campaign_root is None:
        return ()
    theme = campaign_root / THEME_DIR
    if not theme.is_dir():
        return ()
    real, root = Path(os.path.realpath(theme)), Path(os.path.realpath(campaign_root))
    if root not in real.parents:
        raise SecurityError("the campaign's theme/ folder links outside the campaign; refused")
    return (real,)


TEMPLATE_MEMORY_MB = 1024  # more address space a template may take while it renders


@contextmanager
def memory_limit(megabytes: int) -> Iterator[None]:
    """Cap this process's address space for the duration of a template render.

    Jinja runs here, not in a render worker, and a theme can build gigabytes with `~` or a
    long loop; past the cap Python raises MemoryError, which the build reports as a template
    problem. The previous limit comes back afterwards (Linux; elsewhere no cap)."""
    try:
        import resource

        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
        in_use = pages * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):
        yield
        return
    cap = in_use + megabytes * 1024 * 1024
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    if soft != resource.RLIM_INFINITY and soft <= cap:
        yield  # already tighter than ours
        return
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def render_html(
    template: str,
    context: dict[str, Any],
    themes: tuple[Path, ...] = (),
    seconds: float = RENDER_SECONDS,
) -> str:
    with time_limit(seconds), memory_limit(TEMPLATE_MEMORY_MB):
        return environment(themes).get_template(template).render(**context)
