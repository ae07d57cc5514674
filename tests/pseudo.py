"""A pseudo-language for finding words that do not come from the catalogues.

Every message comes back with its letters swapped for accented look-alikes ("Hit points"
-> "Ħīŧ ƥǿīƞŧş"), placeholders kept. Printed through it, a label still in plain ASCII
letters was never a catalogue message: a literal in our Python or a template.

Run as a script, it builds a campaign (the example by default) through it and lists every
such word per PDF:  python tests/pseudo.py [CAMPAIGN] [--only KINDS]
"""

from __future__ import annotations

import re
import sys
import tempfile
from gettext import NullTranslations
from pathlib import Path

from scratchpress.wording import PLACEHOLDER, Wording

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥɋřşŧŭṽẇẋẏẑȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ"
_SWAP = str.maketrans(_PLAIN, _ACCENTED)


def pseudo(message: str) -> str:
    """``message`` in look-alike letters, its %(placeholders)s and HTML entities kept."""
    kept = list(PLACEHOLDER.finditer(message)) + list(re.finditer(r"&\w+;", message))
    out, at = [], 0
    for match in sorted(kept, key=lambda m: m.start()):
        out.append(message[at : match.start()].translate(_SWAP))
        out.append(match.group())
        at = match.end()
    out.append(message[at:].translate(_SWAP))
    return "".join(out)


class PseudoTranslations(NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


PSEUDO = Wording("en", translations=PseudoTranslations())
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


def _key(word: str) -> str:
    """How a word is compared: lower case, one kind of apostrophe (the YAML may type ' where
    the page sets ’)."""
    return word.lower().replace("’", "'")


def content_words(*folders: Path) -> set[str]:
    """Every word of the campaign's own text (YAML values, Markdown), which stays as
    written in every language, lower-cased."""
    import yaml

    words: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            words.update(_key(w) for w in WORD.findall(value))
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in {".yaml", ".yml"}:
                walk(yaml.safe_load(path.read_text(encoding="utf-8")))
            elif path.suffix == ".md":
                words.update(_key(w) for w in WORD.findall(path.read_text(encoding="utf-8")))
    # "great-grandfather's" may break at its hyphen: each part is the campaign's too.
    words.update(part for word in list(words) if "-" in word for part in word.split("-"))
    return words


def leaks(text: str, content: set[str]) -> list[str]:
    """The plain-letter words of ``text`` that are not the campaign's own."""
    return sorted({w for w in WORD.findall(text) if _key(w) not in content})


def main(argv: list[str]) -> int:
    import subprocess

    import scratchpress.content
    from scratchpress import api, wording
    from scratchpress.resources import examples_dir

    wording.catalogue = lambda language: PseudoTranslations()  # type: ignore[assignment]

    only = None
    if "--only" in argv:
        at = argv.index("--only")
        only, argv = argv[at + 1], argv[:at] + argv[at + 2 :]
    campaign = Path(argv[0]) if argv else examples_dir()
    content = content_words(campaign, Path(scratchpress.content.__file__).parent)
    out = Path(tempfile.mkdtemp(prefix="pseudo-"))
    opened = api.open_campaign([campaign])
    given = {"only": only} if only else {}
    options = api.build_options(opened.campaign, given)
    api.build(opened, options, out, use_cache=False)
    for pdf in sorted(out.rglob("*.pdf")):
        text = subprocess.run(
            ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
        found = leaks(text, content)
        if found:
            print(f"{pdf.relative_to(out)}: {' '.join(found)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
