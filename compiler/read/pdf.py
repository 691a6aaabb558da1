"""Read text PDFs into lines with page provenance, heading hints and positioned tables.

The text layer is read with pdfplumber (pdfminer.six underneath; the ``[ground]``
extra).  Words are grouped into visual lines from the top of each page; a line
keeps its 1-based number on its page, counted over every line the page shows
(running headers and page numbers included, even though they are left out of
the text), so ``page`` and ``line`` point at what a reader sees.  Lines are
joined with newlines, a blank line where the vertical gap says a paragraph
ends, and pages follow each other without one, so a sentence may run on to the
next page (it keeps the page it starts on).  Lines in a larger font than the
body, or wholly bold, are heading hints; consecutive lines whose words fall into
two or more columns far apart are a table.

Refused with :class:`DocumentError` naming the file: an empty or non-PDF file,
a password-protected PDF or one whose permissions forbid extracting text, and a
PDF with no text layer at all (scanned pages need OCR first).  A PDF encrypted
only with an owner password that permits extraction is read like any other.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulec.compiler.read.tables import TableBlock, block_from_cells
from rulec.runtime.errors import DocumentError

_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$|^[-–—]\s*\d{1,4}\s*[-–—]$", re.IGNORECASE)
_LIST_START = re.compile(r"^\s*(?:[-*+•●○■□▪◦‣►–]\s|\d{1,3}[.)]\s|[a-z]\)\s|step\s+\d)",
                         re.IGNORECASE)
_BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
COLUMN_GAP_EM = 1.0  # a gap this many font sizes wide separates table cells
WORD_GAP_EM = 0.1  # words closer than this touch (one word split by a change of font)
PARAGRAPH_GAP_EM = 0.8  # a vertical gap this many font sizes wide ends a paragraph
ALIGN_TOLERANCE = 2.0  # points: cells of one column start, end or centre this close
ALIGNED_SHARE = 0.8  # of a table's cells (first column aside) must stand in a column
FILLED_SHARE = 0.7  # a wrapped line reaches at least this far across the text block
HEADING_SIZE_RATIO = 1.15  # a line this much larger than the body text is a heading


@dataclass
class PdfLine:
    """One visual line of a page."""

    page: int
    number: int  # 1-based on its page, counted over every line the page shows
    text: str  # words joined by single spaces
    size: float
    bold: bool
    top: float
    bottom: float
    cells: tuple[tuple[str, float, float], ...]  # (text, x0, x1), split at wide gaps
    x1: float = 0.0  # where the line ends
    first_word: float = 0.0  # width of its first word
    dropped: bool = False  # a running header/footer or page number


@dataclass
class PdfDocument:
    """A document's text and layout, in the terms the views are built from (a text
    document is one page with no hints)."""

    text: str  # every kept line; a page's lines are its span of this text
    pages: list[tuple[int, int, int]]  # (page number, start, end) into text
    origin: list[tuple[int, int]]  # per text line (index 0 = line 1): (page, line on page)
    headings: dict[int, int] = field(default_factory=dict)  # text line -> level (1 = largest)
    tables: list[TableBlock] = field(default_factory=list)  # line numbers into text
    continued: set[int] = field(default_factory=set)  # text lines wrapped at the margin


def read_pdf(path: Path) -> PdfDocument:
    """Read a text PDF; DocumentError (naming the file, and the page) if it cannot be."""
    pages = read_pdf_lines(path)
    return layout_document(pages)


def read_pdf_lines(path: Path) -> list[list[PdfLine]]:
    """The visual lines of each page (index 0 is page 1)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not raw.strip():
        raise DocumentError(f"{path}: empty file, not a PDF")
    if b"%PDF-" not in raw[:1024]:
        raise DocumentError(f"{path}: not a PDF (no %PDF- header); is the file name right?")
    try:
        import pdfplumber
    except ImportError:  # pragma: no cover - depends on the installation
        raise DocumentError(f"{path}: reading PDF manuals needs pdfplumber: "
                            "pip install 'rulec[ground]'") from None
    # Broken fonts, boxes and metadata are warned about on stderr otherwise.
    quiet = [logging.getLogger(name) for name in ("pdfminer", "pdfplumber")]
    levels = [logger.level for logger in quiet]
    for logger in quiet:
        logger.setLevel(logging.ERROR)
    try:
        with io.BytesIO(raw) as stream:
            try:
                pdf = pdfplumber.open(stream)
            except Exception as exc:  # pdfplumber wraps every pdfminer failure
                raise DocumentError(_open_error(path, exc)) from None
            try:
                pages = _read_pages(pdf, path)
            finally:
                with contextlib.suppress(Exception):  # closing walks the pages again
                    pdf.close()
    finally:
        for logger, level in zip(quiet, levels, strict=True):
            logger.setLevel(level)
    if not pages:
        raise DocumentError(f"{path}: PDF without pages")
    return pages


def _read_pages(pdf: Any, path: Path) -> list[list[PdfLine]]:
    """Every page's lines; DocumentError naming the page that cannot be read."""
    pages: list[list[PdfLine]] = []
    reading = "page 1"
    try:
        doc = pdf.doc
        if getattr(doc, "encryption", None) is not None and not doc.is_extractable:
            raise DocumentError(f"{path}: encrypted PDF whose permissions forbid extracting "
                                "text; ask for an unrestricted copy")
        for number, page in enumerate(pdf.pages, start=1):
            words = page.extract_words(extra_attrs=["size", "fontname"])
            pages.append(_lines(number, words))
            reading = f"page {number + 1}"
    except DocumentError:
        raise
    except Exception as exc:
        raise DocumentError(f"{path}: {reading}: cannot read its text: {_reason(exc)}") from None
    if pages and not any(pages):
        raise DocumentError(f"{path}: no text layer on any of its {len(pages)} page(s): a scanned "
                            "or image-only PDF; run OCR on it first")
    return pages


def _open_error(path: Path, exc: Exception) -> str:
    inner = exc.args[0] if exc.args and isinstance(exc.args[0], Exception) else exc
    name = type(inner).__name__
    if name in ("PDFPasswordIncorrect", "PDFEncryptionError", "PDFEncryptionWarning"):
        return f"{path}: encrypted PDF (password-protected); remove the password and try again"
    return f"{path}: not a readable PDF: {_reason(exc)}"


def _reason(exc: Exception) -> str:
    inner = exc.args[0] if exc.args and isinstance(exc.args[0], Exception) else exc
    text = str(inner).strip() or type(inner).__name__
    return text.splitlines()[0][:200]


# ---------------------------------------------------------------- lines of a page


def _lines(page: int, words: Sequence[dict[str, Any]]) -> list[PdfLine]:
    """Group a page's words into visual lines, top to bottom, left to right."""
    rows: list[list[dict[str, Any]]] = []
    for word in sorted(words, key=lambda w: (float(w["top"]), float(w["x0"]))):
        if rows:
            last = rows[-1]
            size = max(float(w["size"]) for w in last)
            if abs(float(word["top"]) - float(last[0]["top"])) <= max(2.0, 0.4 * size):
                last.append(word)
                continue
        rows.append([word])
    out: list[PdfLine] = []
    for number, row in enumerate(rows, start=1):
        row.sort(key=lambda w: float(w["x0"]))
        sizes = Counter(round(float(w["size"]), 1) for w in row)
        size = sizes.most_common(1)[0][0]
        cells: list[tuple[str, float, float]] = []
        text = ""
        for k, word in enumerate(row):
            x0, x1 = float(word["x0"]), float(word["x1"])
            # Words split only by a change of font ("Warning" bold, ":" not) touch: no space.
            gap = x0 - float(row[k - 1]["x1"]) if k else 0.0
            space = " " if k and gap > WORD_GAP_EM * size else ""
            text += space + str(word["text"])
            if cells and x0 - cells[-1][2] < COLUMN_GAP_EM * size:
                cell, a, _ = cells[-1]
                cells[-1] = (f"{cell}{space}{word['text']}", a, x1)
            else:
                cells.append((str(word["text"]), x0, x1))
        out.append(PdfLine(
            page=page, number=number, text=text, size=size,
            bold=all(_BOLD.search(str(w.get("fontname", ""))) for w in row),
            top=min(float(w["top"]) for w in row), bottom=max(float(w["bottom"]) for w in row),
            cells=tuple(cells), x1=max(float(w["x1"]) for w in row),
            first_word=float(row[0]["x1"]) - float(row[0]["x0"]),
        ))
    return out


def _drop_running_lines(pages: list[list[PdfLine]], body: float) -> None:
    """Mark page numbers, and headers/footers repeated at the top or bottom of most pages
    (in a font no larger than the body: a heading opening each page stays)."""
    for lines in pages:
        for line in (lines[:1] + lines[-1:]) if lines else []:
            if _PAGE_NUMBER.match(line.text.strip()):
                line.dropped = True
    if len(pages) < 2:
        return
    need = max(2, (len(pages) + 1) // 2)
    for position in (0, -1):
        keys = Counter(_running_key(lines[position]) for lines in pages if lines)
        for lines in pages:
            edge = lines[position] if lines else None
            if edge is not None and keys[_running_key(edge)] >= need and edge.size <= body:
                edge.dropped = True


def _running_key(line: PdfLine) -> str:
    return re.sub(r"\d+", "#", " ".join(line.text.lower().split()))


# ---------------------------------------------------------------- the document


def layout_document(pages: list[list[PdfLine]]) -> PdfDocument:
    """Join the pages' kept lines into one text, with heading hints and tables."""
    _drop_running_lines(pages, _body_size(pages))
    kept = [[line for line in lines if not line.dropped] for lines in pages]
    body = _body_size(kept)
    levels = _heading_levels(kept, body)
    table_lines = {id(line) for lines in kept for run in _table_runs(lines, body) for line in run}
    parts: list[str] = []
    origin: list[tuple[int, int]] = []
    page_spans: list[tuple[int, int, int]] = []
    headings: dict[int, int] = {}
    positioned: list[tuple[int, PdfLine]] = []  # (text line, line) of table lines
    continued: set[int] = set()
    block = _text_block(kept, body, table_lines)
    before: tuple[int, PdfLine] | None = None  # the prose line just above, if no gap parts it
    above: tuple[int, PdfLine, int] | None = None  # the heading line just above, and its level
    offset = 0
    for number, lines in enumerate(kept, start=1):
        start = offset
        prev: PdfLine | None = None
        above = None  # a sentence may run on to the next page; a heading does not
        for line in lines:
            in_table = id(line) in table_lines and prev is not None and id(prev) in table_lines
            if (prev is not None and not in_table
                    and line.top - prev.bottom > PARAGRAPH_GAP_EM * prev.size):
                parts.append("")
                origin.append((number, 0))
                offset += 1
                before = above = None
            prose = id(line) not in table_lines and id(line) not in levels
            if prose and before is not None and _wrapped(before[1], line, block):
                continued.add(before[0])
            level = levels.get(id(line)) if id(line) not in table_lines else None
            if level is not None and above is not None and above[2] == level:
                continued.add(above[0])  # one heading set over two lines
            if id(line) in table_lines:
                text = "\t".join(cell for cell, _, _ in line.cells)
                positioned.append((len(parts) + 1, line))
            else:
                text = line.text
            parts.append(text)
            origin.append((number, line.number))
            if level is not None:
                headings[len(parts)] = level
            offset += len(text) + 1
            prev = line
            before = (len(parts), line) if prose else None
            above = (len(parts), line, level) if level is not None else None
        end = max(start, offset - 1) if lines else start
        page_spans.append((number, start, end))
    text = "\n".join(parts)
    return PdfDocument(text, page_spans, origin, headings, _tables(positioned), continued)


def _text_block(pages: list[list[PdfLine]], body: float, table_lines: set[int]
                ) -> tuple[float, float]:
    """Where body lines start and end at the widest: the edges of the text block."""
    lines = [line for page in pages for line in page
             if id(line) not in table_lines and abs(line.size - body) <= 0.1 * body]
    if not lines:
        return 0.0, 0.0
    return min(line.cells[0][1] for line in lines), max(line.x1 for line in lines)


def _wrapped(line: PdfLine, nxt: PdfLine, block: tuple[float, float]) -> bool:
    """A line broken at the margin: it fills most of the text block and the next line's
    first word would not have fit on it.  A line ending a sentence or a list title, an
    upper-case line, or one followed by a list item ends where the writer ended it."""
    left, right = block
    text = line.text.rstrip()
    if text.endswith((".", "!", "?", ":")) or _LIST_START.match(nxt.text):
        return False
    if text.upper() == text and not nxt.text[:1].islower():
        return False
    if line.x1 < left + FILLED_SHARE * (right - left):
        return False
    return line.x1 + 0.3 * line.size + nxt.first_word > right + 1.0


def _body_size(pages: list[list[PdfLine]]) -> float:
    sizes: Counter[float] = Counter()
    for lines in pages:
        for line in lines:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _heading_levels(pages: list[list[PdfLine]], body: float) -> dict[int, int]:
    """Lines set larger than the body (level by size, largest 1) or wholly bold."""
    large = sorted({line.size for lines in pages for line in lines
                    if line.size >= body * HEADING_SIZE_RATIO}, reverse=True)
    rank = {size: i + 1 for i, size in enumerate(large)}
    body_bold = sum(len(x.text) for p in pages for x in p if x.bold) > \
        sum(len(x.text) for p in pages for x in p) / 2
    out: dict[int, int] = {}
    for lines in pages:
        for line in lines:
            if line.size in rank:
                out[id(line)] = rank[line.size]
            elif line.bold and not body_bold:
                out[id(line)] = len(large) + 1
    return out


def _table_runs(lines: list[PdfLine], body: float) -> list[list[PdfLine]]:
    """Runs of two or more consecutive lines split into columns that read as a table."""
    runs: list[list[PdfLine]] = []
    run: list[PdfLine] = []
    for line in [*lines, None]:
        if line is not None and len(line.cells) >= 2 and line.size < body * HEADING_SIZE_RATIO:
            run.append(line)
            continue
        if len(run) >= 2 and _reads_as_table(run):
            runs.append(run)
        run = []
    return runs


def _reads_as_table(run: list[PdfLine]) -> bool:
    """Short cells with numbers in them, standing in columns: not two columns of prose, nor
    justified lines whose words happen to stand far apart."""
    cells = [c for line in run for c, _, _ in line.cells]
    if sum(len(c) for c in cells) / len(cells) > 40:
        return False
    numeric = sum(1 for line in run if any(re.search(r"\d", c) for c, _, _ in line.cells[1:]))
    if numeric * 2 < len(run) - 1:
        return False
    inner = [(k, cell) for k, line in enumerate(run) for cell in line.cells[1:]]
    aligned = sum(1 for k, cell in inner if _in_column(cell, run, k))
    return aligned >= ALIGNED_SHARE * len(inner)


def _in_column(cell: tuple[str, float, float], run: list[PdfLine], k: int) -> bool:
    """Whether another line of the run has a cell starting, ending or centred where this one
    does (left-, right- or centre-aligned columns)."""
    _, x0, x1 = cell
    for m, line in enumerate(run):
        if m == k:
            continue
        for _, a, b in line.cells:
            if (abs(a - x0) <= ALIGN_TOLERANCE or abs(b - x1) <= ALIGN_TOLERANCE
                    or abs((a + b) - (x0 + x1)) <= 2 * ALIGN_TOLERANCE):
                return True
    return False


def _tables(positioned: list[tuple[int, PdfLine]]) -> list[TableBlock]:
    """Group consecutive positioned table lines of one page into tables."""
    out: list[TableBlock] = []
    group: list[tuple[int, PdfLine]] = []
    for item in [*positioned, None]:
        if item is not None and group and (item[1].page == group[-1][1].page
                                           and item[0] <= group[-1][0] + 2):
            group.append(item)
            continue
        if group:
            block = block_from_cells([(n, line.cells) for n, line in group])
            if block is not None:
                out.append(block)
        group = [item] if item is not None else []
    return out
