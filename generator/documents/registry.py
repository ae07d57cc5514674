"""Every printable kind `scratchpress build` knows, in the order it builds them."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from ..definitions.campaign import Campaign
from ..statblocks import Computed
from .base import BuildOptions, Document

DocumentMaker = Callable[[Computed, Campaign, BuildOptions], list[Document]]

# --only name -> module under generator.documents with a `documents()` function.
KINDS: dict[str, str] = {
    "sheets": "sheet",
    "vehicles": "vehicle",
    "initiative": "initiative",
    "carry": "carry",
}


def maker(kind: str) -> DocumentMaker:
    module = importlib.import_module(f"{__package__}.{KINDS[kind]}")
    function: DocumentMaker = module.documents
    return function
