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
    "initiative": "initiative:build_documents",
    "carry": "carry",
    "community": "community",
    "events": "deck:event_documents",
    "careers": "deck:career_documents",
    "booklets": "booklet",
    "roster": "roster:build_documents",
    "encounters": "encounters",
}


def maker(kind: str) -> DocumentMaker:
    """``module`` or ``module:function`` (two kinds share the deck module)."""
    module_name, _, function_name = KINDS[kind].partition(":")
    module = importlib.import_module(f"{__package__}.{module_name}")
    function: DocumentMaker = getattr(module, function_name or "documents")
    return function
