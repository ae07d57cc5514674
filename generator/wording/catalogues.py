"""The catalogues kept in step with the code: extraction, updating and checking.

``locales/scratchpress.pot`` lists every message our templates and documents print, in
the order of their files; each language's ``.po`` translates all of them. A developer who
adds a label runs the catalogue test with ``SCRATCHPRESS_UPDATE_CATALOGUES=1``
(tests/wording/test_catalogues.py): the template is extracted anew and every catalogue
gains the new message, untranslated, which the same test then reports until a translator
fills it in.
"""

from __future__ import annotations

import copy
import io
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, LANGUAGES, PLACEHOLDER, SOURCE_LANGUAGE, catalogue_path, folder_name

LOCALES = Path(__file__).resolve().parent / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
# Fixed, so that extracting twice writes the same bytes.
STAMP = datetime(2026, 12, 1, tzinfo=UTC)
PROJECT = "scratchpress"
HEADER = """\
# {subject}
# Kept in step with the code by tests/wording/test_catalogues.py
# (SCRATCHPRESS_UPDATE_CATALOGUES=1 extracts the template and adds new messages here).
#"""


def _catalog(language: str | None) -> Catalog:
    subject = (
        f"scratchpress's printed labels in {LANGUAGES[language]}."
        if language
        else "Every label scratchpress prints, in English: the template of each language."
    )
    return Catalog(
        locale=folder_name(language) if language else None,
        header_comment=HEADER.format(subject=subject),
        project=PROJECT,
        version="1",
        copyright_holder="the scratchpress authors",
        msgid_bugs_address="",
        creation_date=STAMP,
        revision_date=STAMP,
        last_translator="the scratchpress authors",
        language_team=LANGUAGES[language] if language else "",
        fuzzy=False,
    )
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None}
# Jinja is extracted with the options our environment renders with (render/templating.py).
JINJA = (
    "jinja2.ext:babel_extract",
    {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"},
)


def extract(package: Path, templates: Path) -> Catalog:
    """Every message of the package's Python and of the templates, as a template catalogue."""
    found = _catalog(None)
    sources: list[tuple[Path, str, list[tuple[str, str]], dict[str, dict[str, str]]]] = [
        (package, "generator", [("**.py", "python")], {}),
        (templates, "templates", [("**.html", JINJA[0])], {"**.html": JINJA[1]}),
    ]
    for folder, shown, methods, options in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(folder), methods, options, keywords=KEYWORDS, strip_comment_tags=True
        ):
            flags = {"python-format"} if _formatted(message) else set()
            found.add(
                message,
                None,
                [(f"{shown}/{Path(filename).as_posix()}", lineno)],
                auto_comments=comments,
                flags=flags,
                context=context,
            )
    return found


def _formatted(message: str | tuple[str, ...]) -> bool:
    texts = (message,) if isinstance(message, str) else message
    return any(PLACEHOLDER.search(text) for text in texts)


def po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_lineno=False, ignore_obsolete=True, sort_by_file=True)
    return out.getvalue()


def read(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=folder_name(language) if language else None)


def updated(template: Catalog, language: str, existing: Catalog | None) -> Catalog:
    """``language``'s catalogue with every message of ``template``: its translations kept,
    new messages empty (English copies them: the source is English)."""
    catalog = existing or _catalog(language)
    # update() may take the template's own message objects: a copy each, so that one
    # language's strings never reach the next.
    catalog.update(copy.deepcopy(template), no_fuzzy_matching=True)
    catalog.revision_date = STAMP
    if language == SOURCE_LANGUAGE:
        for message in catalog:
            if message.id:
                message.string = message.id
    return catalog


def write_all(package: Path, templates: Path, locales: Path = LOCALES) -> list[Path]:
    """Extract the template and bring every language's catalogue up to it."""
    template = extract(package, templates)
    written = [locales / f"{DOMAIN}.pot"]
    written[0].parent.mkdir(parents=True, exist_ok=True)
    written[0].write_bytes(po_bytes(template))
    for language in LANGUAGES:
        path = locales.parent / catalogue_path(language)
        existing = read(path, language) if path.exists() else None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(po_bytes(updated(template, language, existing)))
        written.append(path)
    return written


def gaps(template: Catalog, catalog: Catalog, language: str) -> list[str]:
    """What ``catalog`` lacks against ``template``, one line a message: untranslated,
    fuzzy, or with other placeholders than the English."""
    problems = []
    for wanted in template:
        if not wanted.id:
            continue
        shown = _shown(wanted)
        have = catalog.get(wanted.id, context=wanted.context)
        if have is None:
            problems.append(f"{language}: missing {shown}")
            continue
        raw = have.string if isinstance(have.string, tuple | list) else (have.string,)
        strings = tuple(str(string or "") for string in raw)
        if not all(strings) or have.fuzzy:
            problems.append(f"{language}: untranslated {shown}")
            continue
        english = set(PLACEHOLDER.findall(" ".join(_ids(wanted))))
        for string in strings:
            if set(PLACEHOLDER.findall(string)) - english or (
                english - set(PLACEHOLDER.findall(string)) - {"num"}
            ):
                problems.append(f"{language}: placeholders differ in {shown}: {string!r}")
                break
    return problems


def _ids(message: Message) -> Iterable[str]:
    return (message.id,) if isinstance(message.id, str) else message.id


def _shown(message: Message) -> str:
    text = next(iter(_ids(message)))
    return repr(text) + (f" ({message.context})" if message.context else "")
