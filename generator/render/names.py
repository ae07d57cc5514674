"""Output file names derived from entry names: safe on every system, stable across runs."""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_STEM = 80
_RESERVED = {"con", "prn", "aux", "nul"} | {f"{p}{i}" for p in ("com", "lpt") for i in range(10)}


def slug(name: str) -> str:
    """``The Boss`` -> ``the-boss``; separators, dots, controls and direction marks go."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    text = text[:MAX_STEM].rstrip("-")
    if not text:
        text = "unnamed"
    if text.split("-")[0] in _RESERVED and text in _RESERVED:
        text += "-file"
    return text


def unique_stems(names: list[str], prefix: str = "") -> dict[str, str]:
    """A file stem for every name; names that clean to the same stem get a short hash of
    the original name, so each keeps the same file from run to run."""
    stems: dict[str, str] = {}
    by_stem: dict[str, list[str]] = {}
    for name in names:
        by_stem.setdefault(prefix + slug(name), []).append(name)
    for stem, group in by_stem.items():
        for name in group:
            if len(set(group)) == 1:
                stems[name] = stem
            else:
                digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:6]
                stems[name] = f"{stem}-{digest}"
    return stems
