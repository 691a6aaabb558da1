"""Several views of one document, kept together (NeuSym-RAG multiview parsing).

A manual is read once into its text; the views are spans of that text:
pages, sections (with parents), paragraphs, statements (sentences, list items,
headings, list titles, table rows), sentence-aware chunks of about 1,200
characters and tables.  Every item carries a deterministic id (the first 16 hex
digits of a SHA-256 over the file, the item's own words and how many identical
items came before it), so re-reading a file gives the same keys and editing one
part of a manual leaves the ids of the rest alone; and a character span
``start:end`` into :attr:`DocumentViews.text`, which for text files is the file
with newlines normalised and for PDFs the lines of its pages (see
``pdf_reader``).  ``line`` is 1-based in the file for text documents and within
``page`` for PDFs; ``page`` is None for text documents.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulec.compiler.read.pdf import PdfDocument, read_pdf
from rulec.compiler.read.statements import (
    Statement,
    assign_ids,
    line_offsets,
    normalise_newlines,
    read_document_text,
    split_lines_without_ids,
    split_without_ids,
    strip_markup,
)
from rulec.compiler.read.tables import TableBlock, find_text_tables, row_statements
from rulec.runtime.errors import DocumentError

TEXT_SUFFIXES = {".txt": "txt", ".md": "md", ".markdown": "md"}
DOCUMENT_SUFFIXES = (*TEXT_SUFFIXES, ".pdf")  # what build_views reads
CHUNK_CHARS = 1200  # the paper's chunk size; a longer single statement is its own chunk
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s")
_SECTION_NUMBER = re.compile(
    r"^(?:(?:section|chapter|part)\s+)?(\d{1,3}(?:\.\d{1,3})*)(?:[.)]|(?=\s)|$)", re.IGNORECASE)
_BLANK_LINE = re.compile(r"\n[ \t\f\v]*\n")
_Where = Callable[[int], tuple[int | None, int]]  # text line -> (page, line as cited)
_SectionAt = Callable[[int], str | None]  # offset -> id of the innermost section


@dataclass(frozen=True)
class Page:
    number: int
    text: str
    start: int  # char offsets into DocumentViews.text
    end: int


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    level: int
    number: str  # "2.3" of "2.3 Oil system", "" when unnumbered
    page: int | None
    line: int
    start: int  # from the heading to the next heading of the same or a higher level
    end: int
    parent: str | None  # id of the enclosing section


@dataclass(frozen=True)
class Paragraph:
    id: str
    text: str
    page: int | None
    line: int
    start: int
    end: int
    section: str | None  # id of the section it stands in


@dataclass(frozen=True)
class Chunk:
    id: str
    text: str
    sha256: str  # of text (UTF-8): the key of cached LLM answers
    start: int
    end: int
    page: int | None
    statement_ids: tuple[str, ...]
    label: str = ""  # filled later: rule | mixed | descriptive


@dataclass(frozen=True)
class Table:
    id: str
    page: int | None
    line: int  # the header's line (the first row's when there is no header)
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_lines: tuple[int, ...]


@dataclass
class DocumentViews:
    rel: str
    sha256: str
    kind: str  # "txt" | "md" | "pdf"
    text: str
    pages: list[Page] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    statements: list[Statement] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)


def build_views(path: Path, rel: str) -> DocumentViews:
    """Read one manual (.txt, .md, .markdown, .pdf) into all its views.

    Raises DocumentError naming the file (and page or line) when it cannot be read.
    """
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        doc = read_pdf(path)
        return views_from_layout(doc, rel, _file_sha256(path), "pdf")
    if suffix in TEXT_SUFFIXES:
        text = read_document_text(path)
        if not text.strip():
            raise DocumentError(f"{path}: empty document: no text to read")
        return views_from_text(text, rel, TEXT_SUFFIXES[suffix], _file_sha256(path))
    raise DocumentError(f"{path}: unsupported file type {suffix or '(none)'!r}; "
                        "expected .txt, .md or .pdf")


def views_from_text(text: str, rel: str, kind: str = "txt", sha256: str = "") -> DocumentViews:
    """The views of a text or markdown document given as a string (one page)."""
    text = normalise_newlines(text)
    count = text.count("\n") + 1
    doc = PdfDocument(text, [(1, 0, len(text))], [(1, n) for n in range(1, count + 1)])
    sha = sha256 or hashlib.sha256(text.encode("utf-8")).hexdigest()
    return views_from_layout(doc, rel, sha, kind)


def views_from_layout(doc: PdfDocument, rel: str, sha256: str, kind: str) -> DocumentViews:
    """Build every view from a document's text and layout (pages, heading hints, tables)."""
    text = doc.text
    paged = kind == "pdf"
    lines = text.split("\n")
    blocks = list(doc.tables)
    taken = {n for block in blocks for n in block.lines}
    blocks += find_text_tables(lines, skip=taken)
    blocks.sort(key=lambda b: min(b.lines))
    skip = {n for block in blocks for n in block.lines}
    starts = line_offsets(text)
    if "\r" in text:  # split_without_ids reads the text with its newlines normalised
        prose = split_without_ids(text, rel, headings=set(doc.headings), skip=skip,
                                  continued=doc.continued)
    else:
        prose = split_lines_without_ids(text, lines, starts, rel, headings=set(doc.headings),
                                        skip=skip, continued=doc.continued)
    rows = [st for number, block in enumerate(blocks, start=1)
            for st in row_statements(block, rel, text, number, starts)]
    ordered = sorted(prose + rows, key=lambda st: st.start)  # stable: a row's two readings
    statements = assign_ids(_with_sections(ordered))

    def where(line: int) -> tuple[int | None, int]:
        page, on_page = doc.origin[line - 1]
        return (page, on_page) if paged else (None, line)

    sections = _sections(statements, lines, doc.headings, rel, len(text), where)
    section_at = _section_lookup(sections)
    views = DocumentViews(rel=rel, sha256=sha256, kind=kind, text=text)
    views.pages = [Page(n, text[a:b], a, b) for n, a, b in doc.pages]
    views.sections = sections
    opens = _table_openings(blocks, starts)
    views.paragraphs = _paragraphs(statements, text, starts, rel, where, section_at, opens)
    views.chunks = _chunks(statements, opens, text, rel, where)
    views.tables = _tables(blocks, rel, where)
    views.statements = [replace(st, page=where(st.line)[0], line=where(st.line)[1])
                        for st in statements] if paged else statements
    return views


def _file_sha256(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from None


def view_id(rel: str, view: str, key: str, occurrence: int) -> str:
    """Deterministic id of a view item: file, view name, the item's words, which repeat."""
    return _folded_view_id(rel, view, " ".join(key.split()), occurrence)


def _folded_view_id(rel: str, view: str, folded: str, occurrence: int) -> str:
    digest = hashlib.sha256(f"{rel}\n{view}\n{folded}\n{occurrence}".encode())
    return digest.hexdigest()[:16]


class _Ids:
    """Ids for the items of one view, counting repeats of the same words."""

    def __init__(self, rel: str, view: str) -> None:
        self.rel, self.view, self.seen = rel, view, dict[str, int]()

    def __call__(self, key: str) -> str:
        folded = " ".join(key.split())
        n = self.seen.get(folded, 0)
        self.seen[folded] = n + 1
        return _folded_view_id(self.rel, self.view, folded, n)


def _with_sections(statements: list[Statement]) -> list[Statement]:
    """Table rows take the section of the heading above them, like the prose does."""
    out: list[Statement] = []
    current = ""
    for st in statements:
        if st.kind == "heading":
            current = st.section
        elif st.kind == "row" and st.section != current:
            st = replace(st, section=current)
        out.append(st)
    return out


# ---------------------------------------------------------------- sections


def _sections(statements: list[Statement], lines: list[str], hints: dict[int, int], rel: str,
              size: int, where: _Where) -> list[Section]:
    ids = _Ids(rel, "section")
    heads: list[tuple[Statement, int, str]] = []  # (heading, level, number)
    structured: int | None = None  # level of the last markdown or numbered heading
    for st in statements:
        if st.kind != "heading":
            continue
        raw = lines[st.line - 1]
        md = _MD_HEADING.match(raw)
        number_match = _SECTION_NUMBER.match(_strip_markup(st.text))
        number = number_match.group(1) if number_match else ""
        if md:
            level = len(md.group(1))
            structured = level
        elif number:
            level = number.count(".") + 1
            structured = level
        elif st.line in hints:
            level = hints[st.line]
        elif _is_upper_case(st.text):
            level = 1
        elif structured is not None:
            level = structured + 1
        else:
            level = 1
        heads.append((st, level, number))
    # A section ends where the first later heading of the same or a higher level starts:
    # found in one pass, each heading waiting on a stack (levels rising) until one comes.
    ends = [size] * len(heads)
    waiting: list[int] = []
    for k, (st, level, _) in enumerate(heads):
        while waiting and heads[waiting[-1]][1] >= level:
            ends[waiting.pop()] = st.start
        waiting.append(k)
    out: list[Section] = []
    stack: list[tuple[int, str]] = []  # (level, id) of the open sections
    for (st, level, number), end in zip(heads, ends, strict=True):
        while stack and stack[-1][0] >= level:
            stack.pop()
        title = _strip_markup(st.text)
        sid = ids(title)
        page, line = where(st.line)
        out.append(Section(sid, title, level, number, page, line, st.start, end,
                           stack[-1][1] if stack else None))
        stack.append((level, sid))
    return out


def _strip_markup(text: str) -> str:
    return " ".join(strip_markup(text).split())


def _is_upper_case(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _section_lookup(sections: list[Section]) -> _SectionAt:
    """Offset -> the innermost section holding it: the last one opened before it, or the
    nearest of its parents that still runs (sections nest)."""
    starts = [s.start for s in sections]
    by_id = {s.id: s for s in sections}

    def at(offset: int) -> str | None:
        k = bisect.bisect_right(starts, offset) - 1
        section = sections[k] if k >= 0 else None
        while section is not None and offset >= max(section.end, section.start + 1):
            section = by_id.get(section.parent) if section.parent else None
        return section.id if section is not None else None

    return at


# ---------------------------------------------------------------- paragraphs


def _table_openings(blocks: list[TableBlock], offsets: list[int]) -> dict[int, int]:
    """First data row's line -> offset of its table's header: the header opens the table."""
    return {b.row_lines[0]: offsets[b.header_line - 1]
            for b in blocks if b.header_line is not None and b.row_lines}


def _paragraphs(statements: list[Statement], text: str, starts: list[int], rel: str,
                where: _Where, section_at: _SectionAt, opens: dict[int, int]
                ) -> list[Paragraph]:
    """Runs of statements not parted by a blank line, a heading, or a table's edge."""
    ids = _Ids(rel, "paragraph")
    groups: list[list[Statement]] = []
    current: list[Statement] = []
    for st in statements:
        if st.kind == "heading":
            if current:
                groups.append(current)
            current = []
            continue
        if current:
            prev = current[-1]
            same_row = prev.start == st.start and prev.end == st.end
            if prev.kind == "row" or st.kind == "row":  # a table is one paragraph
                parted = prev.kind != st.kind or prev.block != st.block
            else:
                parted = bool(_BLANK_LINE.search(text, prev.end, st.start))
            if parted and not same_row:
                groups.append(current)
                current = []
        current.append(st)
    if current:
        groups.append(current)
    out: list[Paragraph] = []
    for group in groups:
        first = group[0]
        start, end = first.start, max(st.end for st in group)
        if first.kind == "row" and first.line in opens:
            start = min(start, opens[first.line])
        body = text[start:end]
        page, line = where(bisect.bisect_right(starts, start))
        out.append(Paragraph(ids(body), body, page, line, start, end, section_at(start)))
    return out


# ---------------------------------------------------------------- chunks


@dataclass
class _Unit:
    start: int
    end: int
    ids: list[str]
    line: int
    heading: bool


def _chunks(statements: list[Statement], opens: dict[int, int], text: str, rel: str,
            where: _Where) -> list[Chunk]:
    """Whole statements packed into chunks of about CHUNK_CHARS; a heading never ends one."""
    header_start = dict(opens)
    units: list[_Unit] = []
    for st in statements:
        if units and units[-1].start <= st.start and st.end <= units[-1].end:
            units[-1].ids.append(st.id)  # a second reading of the same table row
            continue
        start = st.start
        if st.kind == "row" and st.line in header_start:
            start = min(start, header_start.pop(st.line))  # a table's header opens its chunk
        units.append(_Unit(start, st.end, [st.id], st.line, st.kind == "heading"))
    ids = _Ids(rel, "chunk")
    out: list[Chunk] = []

    def emit(group: list[_Unit]) -> None:
        start, end = group[0].start, group[-1].end
        body = text[start:end]
        sha = hashlib.sha256(body.encode("utf-8")).hexdigest()
        out.append(Chunk(ids(sha), body, sha, start, end, where(group[0].line)[0],
                         tuple(i for u in group for i in u.ids)))

    current: list[_Unit] = []
    for unit in units:
        if current and unit.end - current[0].start > CHUNK_CHARS:
            carried: list[_Unit] = []
            while len(current) > 1 and current[-1].heading:
                carried.insert(0, current.pop())
            emit(current)
            current = carried
            if current and unit.end - current[0].start > CHUNK_CHARS:
                emit(current)  # the heading stands far from what follows it
                current = []
        current.append(unit)
    if current:
        emit(current)
    return out


# ---------------------------------------------------------------- tables


def _tables(blocks: list[TableBlock], rel: str, where: _Where) -> list[Table]:
    ids = _Ids(rel, "table")
    out: list[Table] = []
    for block in blocks:
        first = block.header_line if block.header_line is not None else min(block.lines)
        key = " | ".join(block.header) + "\n" + " | ".join(block.rows[0] if block.rows else ())
        page, line = where(first)
        out.append(Table(ids(key), page, line, block.header, block.rows,
                         tuple(where(n)[1] for n in block.row_lines)))
    return out

