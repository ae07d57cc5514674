"""Typesetting facts every printable shares: one home for each.

Layer 1, beside ``definitions/``: it knows millimetres, points and pixels (``units``),
paper sizes (``paper``), which font file draws which face and what falls back to what
(``fonts``), and how wide a text sets and how many lines it takes (``measure``). It knows
no printable and never renders; ``render/`` and ``documents/`` build on it.
"""
