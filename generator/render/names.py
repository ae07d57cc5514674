"""Output file names derived from entry names: safe on every system, stable across runs."""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_STEM = 80
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(10)}


# Scripts written a syllable per character: each one becomes a word of its own, so 王小明
# gives wang-xiao-ming (and not wangxiaoming) and 김민준 gives gim-min-jun.
_SYLLABIC = ("CJK", "HANGUL", "HIRAGANA", "KATAKANA", "YI ", "BOPOMOFO")


def _romanised(name: str) -> str:
    """The name in Latin letters (``anyascii``: every script, no language guessing, the
    same answer on every machine)."""
    from anyascii import anyascii

    parts = []
    for char in unicodedata.normalize("NFC", name):
        if char.isascii():
            parts.append(char)
            continue
        if not unicodedata.category(char).startswith(("L", "N", "M")):
            parts.append(" ")  # ☃ or 🐉 in a name is decoration, not part of a file name
            continue
        latin = anyascii(char)
        if unicodedata.name(char, "").startswith(_SYLLABIC):
            latin = f" {latin} "
        parts.append(latin)
    return "".join(parts)


def slug(name: str) -> str:
    """``The Boss`` -> ``the-boss``, ``Αλέξανδρος`` -> ``alexandros``, ``王小明`` ->
    ``wang-xiao-ming``; separators, dots, controls and direction marks go."""
    text = _romanised(name)
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    text = text[:MAX_STEM].rstrip("-")
    if not text:
        text = "unnamed"
    if text.split("-")[0] in _RESERVED and text in _RESERVED:
        text += "-file"
    return text


def _tagged(base: str, name: str, width: int) -> str:
    """``base`` shortened so that ``base-<hash>`` stays within MAX_STEM."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:width]
    return f"{base[: MAX_STEM - 1 - width].rstrip('-')}-{digest}"


def unique_stems(names: list[str], prefix: str = "") -> dict[str, str]:
    """A file stem for every name; names that clean to the same stem get a short hash of
    the original name, so each keeps the same file from run to run.

    A hashed stem can equal another name's plain one (``a`` and ``A`` become ``a-ca9781``
    and ``a-559aea``; a third name may be ``a-ca9781``): every name in such a clash gets
    a longer hash until no two names share a file.
    """
    distinct = list(dict.fromkeys(names))
    base = {name: slug(name) for name in distinct}
    count: dict[str, int] = {}
    for stem in base.values():
        count[stem] = count.get(stem, 0) + 1
    stems = {n: base[n] if count[base[n]] == 1 else _tagged(base[n], n, 6) for n in distinct}
    for width in (12, 24, 64):
        seen: dict[str, int] = {}
        for stem in stems.values():
            seen[stem] = seen.get(stem, 0) + 1
        clashes = [n for n in distinct if seen[stems[n]] > 1]
        if not clashes:
            break
        for name in clashes:
            stems[name] = _tagged(base[name], name, width)
    return {name: prefix + stems[name] for name in distinct}
