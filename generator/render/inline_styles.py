"""Inline ``style`` attributes moved into one stylesheet, so identical elements share styles.

WeasyPrint computes an element's style once and shares it with every later element that
has the same parent style and matches the same rules, unless the element carries a
``style`` attribute: that makes it, and everything inside it, unique. Our card sheets place
each card with an inline ``left``/``top``/``transform``, so every card used to compute the
styles of all its 40-odd elements afresh. Written as classes, the 540 cards of a deck share
them, and a card renders about a quarter faster with the same pixels.

The rules are repeated-class selectors, as specific as ten classes: more than any rule our
stylesheets hold (five), so each still overrides the element's other rules as the inline
style did. Only a rule with an id selector (none in ours) would now win over one.
"""

from __future__ import annotations

import html
import re

PREFIX = "sp-inline-"
_SPECIFICITY = 10  # classes repeated per rule: twice our most specific selector

_SVG = re.compile(r"<svg\b.*?</svg>", re.S | re.I)  # SVG reads its own style attributes
_STYLED_TAG = re.compile(r'<([a-zA-Z][\w-]*)(\s[^<>]*?)?\sstyle="([^"]*)"([^<>]*)>')
_CLASS = re.compile(r'\sclass="([^"]*)"')
_ANY_CLASS = re.compile(r"\sclass\s*=", re.I)
# Declarations that could reach past their own rule once in a shared stylesheet.
_UNSAFE = re.compile(r"[<{}\\]|/\*")


def hoist_inline_styles(document: str) -> str:
    """``document`` with each HTML element's ``style="..."`` replaced by a class whose rule,
    in a ``<style>`` at the end of the head, holds the same declarations. Identical
    attributes share one class. Elements inside ``<svg>`` are left as they are."""
    rules: dict[str, str] = {}

    def replace(tag: re.Match[str]) -> str:
        name, before, style, after = tag.group(1), tag.group(2) or "", tag.group(3), tag.group(4)
        declarations = html.unescape(style)
        attributes = before + after
        if not _shareable(declarations) or (
            _ANY_CLASS.search(attributes) and not _CLASS.search(attributes)
        ):  # nothing to share, or not safe to move; or a class attribute we do not parse
            return tag.group(0)
        hoisted = rules.setdefault(declarations, f"{PREFIX}{len(rules)}")
        if _CLASS.search(attributes):
            attributes = _CLASS.sub(
                lambda c: f' class="{c.group(1)} {hoisted}"', attributes, count=1
            )
            return f"<{name}{attributes}>"
        return f'<{name} class="{hoisted}"{attributes}>'

    parts: list[str] = []
    done = 0
    for svg in _SVG.finditer(document):
        parts += [_STYLED_TAG.sub(replace, document[done : svg.start()]), svg.group(0)]
        done = svg.end()
    parts.append(_STYLED_TAG.sub(replace, document[done:]))
    result = "".join(parts)
    if not rules or "</head>" not in result:
        return document
    sheet = "".join(
        f"{('.' + name) * _SPECIFICITY} {{ {declarations} }}\n"
        for declarations, name in rules.items()
    )
    return result.replace("</head>", f"<style>\n{sheet}</style>\n</head>", 1)


def _shareable(declarations: str) -> bool:
    """Plain declarations: no braces, comments, escapes or markup, quotes and brackets
    closed, so that a mistake in one element's style cannot swallow the rules after it."""
    if not declarations.strip() or _UNSAFE.search(declarations):
        return False
    if declarations.count('"') % 2 or declarations.count("'") % 2:
        return False
    return declarations.count("(") == declarations.count(")")


def written_classes(value: str | None) -> list[str]:
    """The classes of a ``class`` attribute as the template wrote them (without ours)."""
    return [name for name in (value or "").split() if not name.startswith(PREFIX)]
