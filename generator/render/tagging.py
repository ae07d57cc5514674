"""Tagged PDFs that keep their promise: the structure tree put right where WeasyPrint's
tagger falls short, and the PDF/UA claim taken back from a file that still breaks a rule.

WeasyPrint 70 tags a document box by box, and some boxes are not what a screen reader
expects of the tags. What HTML can say right, the templates say (a chapter's number is an
element of its own, careers are a list of items); what it cannot is mended here:

- **links**: every box inside a link gets a link annotation of its own, tagged where the
  box is: a ``<span>`` in a contents entry becomes a Span holding an annotation, the
  entry's ``::after`` (its dotted leader and page number) a Link inside the Link. Each
  link's parts are folded into its one Link element, annotations and text together;
- **table headers** carry ``/Headers`` and ``/ID`` but no ``/Scope``: a header named by
  the cells of its own row is the row's (``/Row``), any other its column's (``/Column``);
- **headings** keep the author's levels, and a level the author skipped (``#`` then
  ``###``, which ``scratchpress check`` warns about) is tagged one below the heading
  before it, so the outline a reader moves through has no gap;
- **link annotations** are flagged for printing, so paper and screen show the same;
- **running heads and page numbers** are marked as pagination artifacts: WeasyPrint marks
  them as content of elements that no element of the tree holds.

Then every rule is checked: headings not inside headings, list items only in lists and
holding only labels and bodies, every link annotation inside a Link, a /Scope on every
header cell, alternative text on every figure, a title shown as the window's title, a
language. A file that still breaks one (a Markdown picture without a description) is not
claimed as PDF/UA: its ``pdfuaid`` mark is removed and the reason said.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Iterator

import pikepdf

# Part of a tagged document's cache key (build/run.py): a change to the mending below must
# render booklets again, though their HTML is the same.
REVISION = 1
HEADING = re.compile(r"/H([1-6])$")
# WeasyPrint's own word on a picture without alt text quotes its whole data: URL.
NO_ALT = re.compile(r'Image "data:[^"]*" has no required alt description')
PRINT_FLAG = 4  # an annotation's /F bit 3: printed as it is shown
LIST_KIDS = {"/LI", "/L", "/Caption"}  # ISO 32000-1 14.8.4.3.3: what a list holds
ITEM_KIDS = {"/Lbl", "/LBody"}

# What a structure element holds besides other elements: a marked-content id on its page,
# or a reference (/MCR to content, /OBJR to an annotation).
Content = pikepdf.Object | int


def _kids(node: pikepdf.Object) -> list[pikepdf.Object]:
    """A structure node's /K as a list: one kid, an array of them, or none."""
    kids = node.get("/K")
    if kids is None:
        return []
    return list(kids) if isinstance(kids, pikepdf.Array) else [kids]


def _is_element(node: pikepdf.Object) -> bool:
    return isinstance(node, pikepdf.Dictionary) and "/S" in node


def _role(element: pikepdf.Object) -> str:
    return str(element.S)


def _walk(
    node: pikepdf.Object, ancestors: tuple[pikepdf.Object, ...] = ()
) -> Iterator[tuple[pikepdf.Object, tuple[pikepdf.Object, ...]]]:
    """Every structure element under ``node`` in reading order, with its ancestors."""
    for kid in _kids(node):
        if _is_element(kid):
            yield kid, ancestors
            yield from _walk(kid, (*ancestors, kid))


class _ParentTree:
    """The structure tree's way back from content to its element: per page, an array
    indexed by marked-content id, and per annotation its own entry."""

    def __init__(self, pdf: pikepdf.Pdf) -> None:
        self.tree = pikepdf.NumberTree(pdf.Root.StructTreeRoot.ParentTree)
        self.page_keys: dict[tuple[int, int], int] = {
            page.obj.objgen: int(page.StructParents)
            for page in pdf.pages
            if "/StructParents" in page.obj
        }

    def point(self, content: Content, page: pikepdf.Object | None, to: pikepdf.Object) -> None:
        """Make ``content`` (a marked-content id on ``page``, or an OBJR) lead to ``to``."""
        if isinstance(content, int):
            key = self.page_keys.get(page.objgen) if page is not None else None
            if key is not None:
                self.tree[key][content] = to
        elif content.get("/Type") == "/MCR":
            self.point(int(content.MCID), content.get("/Pg", page), to)
        elif content.get("/Type") == "/OBJR" and "/StructParent" in content.Obj:
            self.tree[int(content.Obj.StructParent)] = to


def _contents(
    element: pikepdf.Object, page: pikepdf.Object | None
) -> Iterator[tuple[Content, pikepdf.Object | None]]:
    """The marked content and annotations under ``element``, each with its page."""
    page = element.get("/Pg", page)
    for kid in _kids(element):
        if _is_element(kid):
            yield from _contents(kid, page)
        else:
            yield kid, page


def _fold_links(elements: list[pikepdf.Object], parents: _ParentTree) -> None:
    """Each outermost Link holds all its parts' content and annotations itself."""
    for element in elements:
        if _role(element) != "/Link" or not any(_is_element(k) for k in _kids(element)):
            continue
        own_page = element.get("/Pg")
        kids = pikepdf.Array()
        for content, page in _contents(element, own_page):
            parents.point(content, page, element)
            elsewhere = page is not None and own_page is not None and page.objgen != own_page.objgen
            if isinstance(content, int) and elsewhere:
                # Text on another page than the Link's own is named with its page.
                content = pikepdf.Dictionary(Type=pikepdf.Name.MCR, Pg=page, MCID=content)
            kids.append(content)
        element.K = kids


def _outermost_links(pdf: pikepdf.Pdf) -> list[pikepdf.Object]:
    return [
        element
        for element, ancestors in _walk(pdf.Root.StructTreeRoot)
        if _role(element) == "/Link" and not any(_role(a) == "/Link" for a in ancestors)
    ]


def _table_attributes(cell: pikepdf.Object) -> pikepdf.Dictionary:
    """The cell's attribute dictionary owned by /Table, made if it has none."""
    attributes = cell.get("/A")
    candidates = list(attributes) if isinstance(attributes, pikepdf.Array) else [attributes]
    for candidate in candidates:
        if isinstance(candidate, pikepdf.Dictionary) and candidate.get("/O") == "/Table":
            return candidate
    own = pikepdf.Dictionary(O=pikepdf.Name.Table)
    kept = [c for c in candidates if c is not None]
    cell.A = pikepdf.Array([*kept, own]) if kept else own
    return own


def _scope_headers(pdf: pikepdf.Pdf) -> None:
    """A /Scope on every header cell: /Row when the data cells of its own row name it in
    their /Headers (WeasyPrint names a row's header only for ``scope="row"``), otherwise
    /Column."""
    for row, _ in _walk(pdf.Root.StructTreeRoot):
        if _role(row) != "/TR":
            continue
        cells = [kid for kid in _kids(row) if _is_element(kid)]
        named = {
            str(header)
            for cell in cells
            if _role(cell) == "/TD"
            for header in _table_attributes(cell).get("/Headers", pikepdf.Array())
        }
        for cell in cells:
            if _role(cell) != "/TH":
                continue
            attributes = _table_attributes(cell)
            if "/Scope" not in attributes:
                by_row = str(cell.get("/ID", "")) in named
                attributes.Scope = pikepdf.Name.Row if by_row else pikepdf.Name.Column


def _close_heading_gaps(pdf: pikepdf.Pdf) -> None:
    """A heading more than one level below the heading before it is tagged one below it."""
    previous = 0
    for element, _ in _walk(pdf.Root.StructTreeRoot):
        match = HEADING.match(_role(element))
        if match is None:
            continue
        level = min(int(match.group(1)), previous + 1)
        element.S = pikepdf.Name(f"/H{level}")
        previous = level


def _print_links(pdf: pikepdf.Pdf) -> None:
    for page in pdf.pages:
        for annotation in page.obj.get("/Annots", pikepdf.Array()):
            if annotation.get("/Subtype") == "/Link":
                annotation.F = int(annotation.get("/F", 0)) | PRINT_FLAG


def _artifact_page_furniture(pdf: pikepdf.Pdf, parents: _ParentTree) -> None:
    """Running heads and page numbers (the page's margin boxes) are marked as pagination
    artifacts. WeasyPrint marks them as content and makes them elements that no element
    of the tree holds: a reader that meets them in the page would read "17" mid-text."""
    reachable = {element.objgen for element, _ in _walk(pdf.Root.StructTreeRoot)}
    for page in pdf.pages:
        key = parents.page_keys.get(page.obj.objgen)
        if key is None:
            continue
        marks = parents.tree[key]
        stray = {
            mcid
            for mcid, element in enumerate(marks)
            if isinstance(element, pikepdf.Dictionary) and element.objgen not in reachable
        }
        if not stray:
            continue
        instructions = pikepdf.parse_content_stream(page)
        mended: list[int] = []
        for index, instruction in enumerate(instructions):
            if not isinstance(instruction, pikepdf.ContentStreamInstruction):
                continue  # an inline image
            operands, operator = instruction.operands, instruction.operator
            if operator != pikepdf.Operator("BDC") or len(operands) != 2:
                continue
            properties = operands[1]
            mcid = properties.get("/MCID") if isinstance(properties, pikepdf.Dictionary) else None
            if mcid is not None and int(mcid) in stray:
                artifact = [pikepdf.Name.Artifact, pikepdf.Dictionary(Type=pikepdf.Name.Pagination)]
                instructions[index] = pikepdf.ContentStreamInstruction(artifact, operator)
                mended.append(int(mcid))
        if mended:
            page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(instructions))
            for number in mended:  # no element stands for an artifact
                marks[number] = None


def broken_rules(pdf: pikepdf.Pdf) -> list[str]:
    """What in ``pdf`` breaks the rules above, one sentence per rule broken."""
    root = pdf.Root
    if "/StructTreeRoot" not in root:
        return ["it has no structure tree"]
    broken: Counter[str] = Counter()
    tagged_links: set[tuple[int, int]] = set()
    for element, ancestors in _walk(root.StructTreeRoot):
        role = _role(element)
        parent = _role(ancestors[-1]) if ancestors else "/Document"
        if HEADING.match(role) and any(HEADING.match(_role(a)) for a in ancestors):
            broken["a heading inside a heading"] += 1
        if role == "/LI" and parent != "/L":
            broken["a list item outside a list"] += 1
        if parent == "/L" and role not in LIST_KIDS:
            broken[f"a {role[1:]} inside a list, not a list item"] += 1
        if parent == "/LI" and role not in ITEM_KIDS:
            broken[f"a {role[1:]} in a list item, not its label or body"] += 1
        if role == "/TH" and "/Scope" not in _table_attributes(element):
            broken["a table header cell without /Scope"] += 1
        if role == "/Figure" and not str(element.get("/Alt", "")).strip():
            broken["a picture without alternative text"] += 1
        if role == "/Link":
            tagged_links |= {
                kid.Obj.objgen
                for kid in _kids(element)
                if isinstance(kid, pikepdf.Dictionary) and kid.get("/Type") == "/OBJR"
            }
    for page in pdf.pages:
        for annotation in page.obj.get("/Annots", pikepdf.Array()):
            if annotation.get("/Subtype") == "/Link" and annotation.objgen not in tagged_links:
                broken["a link annotation outside a Link element"] += 1
    with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
        title = str(xmp.get("dc:title", "")).strip()
    preferences = root.get("/ViewerPreferences", pikepdf.Dictionary())
    if not title or not bool(preferences.get("/DisplayDocTitle", False)):
        broken["no title shown as the window's title"] += 1
    if not str(root.get("/Lang", "")).strip():
        broken["no language"] += 1
    return [f"{rule} (x{count})" if count > 1 else rule for rule, count in broken.items()]


def _save(pdf: pikepdf.Pdf) -> bytes:
    buffer = io.BytesIO()
    # The same bytes every build: no time stamp, an /ID from the content.
    pdf.save(buffer, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    return buffer.getvalue()


def conform(pdf_bytes: bytes, warnings: list[str]) -> bytes:
    """``pdf_bytes`` (a tagged PDF from WeasyPrint) with its structure tree mended; if a
    rule is still broken, without its PDF/UA claim, and a warning saying why."""
    with pikepdf.open(io.BytesIO(pdf_bytes)) as pdf:
        if "/StructTreeRoot" not in pdf.Root:
            return pdf_bytes
        parents = _ParentTree(pdf)
        _fold_links(_outermost_links(pdf), parents)
        _scope_headers(pdf)
        _close_heading_gaps(pdf)
        _print_links(pdf)
        _artifact_page_furniture(pdf, parents)
        broken = broken_rules(pdf)
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as xmp:
            claimed = "pdfuaid:part" in xmp
            if broken and claimed:
                del xmp["pdfuaid:part"]
        if broken and claimed:
            warnings[:] = [w for w in warnings if not NO_ALT.fullmatch(w)]
            warnings.append("not marked as accessible (PDF/UA): " + "; ".join(broken))
        return _save(pdf)


__all__ = ["broken_rules", "conform"]
