"""Split plain-text and markdown manuals into statements with provenance.

A statement is one sentence, list item, heading or list title, with the file
(relative to the folder given to the compiler), the 1-based line where it
starts, and its text exactly as written (a statement wrapped over several lines
is joined with single spaces, so it still stands in the file once whitespace is
folded).  It also carries its character span in the text it was split from
(newlines normalised to ``\n``) and a deterministic id that depends only on the
file, the statement's words and how often the same words came before in that
file, so editing another part of a manual leaves the id alone.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulec.runtime.errors import DocumentError

SUPPORTED_SUFFIXES = (".txt", ".md", ".markdown")

_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET_MARKS = "-*+•●○■□▪◦‣►"  # in a character class: "-" first
_BULLET = re.compile(rf"^(\s*)([{_BULLET_MARKS}])\s+(.*)$")
_DEFINITION = re.compile(r"^\s*:\s+(\S.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d{1,3})[.)]\s+(.*)$")
_STEP = re.compile(r"^(\s*)(step\s+(\d{1,3})\s*[:.)-])\s*(.*)$", re.IGNORECASE)
_LETTERED = re.compile(r"^(\s*)([a-z])\)\s+(.*)$")
# A paragraph of a regulation: "(a) The groundspeed ... may not exceed 87 knots", "(1) ...",
# "(ii) ...", "(b)  (1) When ..."; the enumerator stays in the text (it is the citation).
PARAGRAPH_MARK = r"\((\d{1,3}|[a-z]{1,2}|[ivxl]{1,5}|[A-Z])\)"  # "(a)", "(1)", "(ii)", "(B)"
_PARENTHESIZED = re.compile(rf"^(\s*){PARAGRAPH_MARK}\s+(?=\S)")
_NUMBERED_HEADING = re.compile(r"^\s*(\d{1,2}(?:\.\d{1,2})+)\.?\s+(\S.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
# The first character of a _STEP, _NUMBERED, _BULLET or _LETTERED line.
# An entry led by its tag and a gap: "  C1  Fuel gas pressure low-low: ...", "PAL-1106   Fuel
# gas pressure 8 psig or lower -> ..." (cause lists, cause-and-effect charts).  The tag
# stays in the text: it may be the entry's identifier.
_TAG_ITEM = re.compile(r"^(\s*)([A-Z]{1,5}(?:-[A-Z]{1,5}){0,2}-?\d{1,5}[A-Z]?)(?:\s{2,}|\t+)(?=\S)")
_ITEM_START = re.compile(rf"\s*(?:[{_BULLET_MARKS}\dA-Z(]|[a-z]\)|(?i:s))")
_MARKUP = re.compile(r"[*_`]+")
_SENTENCE_BREAK = re.compile(r"[.!?]+[\"')\]]*(?=\s+[\"'(\[]?[A-Z0-9])")
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.")
_SENTENCE_END = re.compile(r"[.!?](?:[\"')\]]*)$")
_ABBREVIATIONS = {
    "e.g", "i.e", "approx", "fig", "vs", "ref", "sect", "para", "dr", "mr", "mrs", "cf",
    "incl", "resp", "vol",
}
# Abbreviations that stand before a number: "min. 10 °C", "max. 70 °C", "No. 3".
_BEFORE_NUMBER = frozenset({"min", "max", "no", "nr", "ca", "nom"})
_NUMBER_NEXT = re.compile(r"\s+[+\-−]?\.?\d")
# A dotted abbreviation ("p.s.i.", "p.p.m.", "U.S.C.") and what shows the sentence goes on
# after it: a bracket, or a word in lower case.
_DOTTED = re.compile(r"[a-z](?:\.[a-z])+")
_GOES_ON = re.compile(r"\s*(?:\(|[a-z])")
_JOINING_WORDS = {
    "a", "an", "the", "and", "or", "of", "if", "when", "while", "with", "to", "at", "by",
    "for", "in", "on", "is", "are", "be", "than", "between", "from", "unless", "not",
}


@dataclass(frozen=True)
class Statement:
    """One unit of a manual with its provenance.

    `line` is 1-based: the line of the file for text documents, the line within
    `page` for PDFs (counted from the top of that page).  `start`/`end` are the
    statement's character span in the document text it was split from
    (``DocumentViews.text``); `text` equals that span with whitespace folded.
    `parse_text`, when set, is what an extractor should read instead of `text`
    (a table row as written, read as a sentence: "Oil pressure shall remain
    between 20 psi and 100 psi.").
    """

    file: str
    line: int
    text: str
    kind: str  # "sentence" | "heading" | "item" | "title" | "row" (a table row)
    section: str = ""
    marker: str = ""  # list marker as written ("1.", "Step 2:", "-")
    number: int | None = None  # the number of a numbered item
    block: int = 0  # items of one list share a block number (rows: their table's number)
    id: str = ""  # 16 hex digits, deterministic (see statement_id)
    page: int | None = None  # 1-based page of paged documents (PDF), else None
    start: int = -1  # character span in the document text; -1 when unknown
    end: int = -1
    parse_text: str = ""  # when set, the extractor reads this instead of `text`

    @property
    def where(self) -> str:
        """``file:line``, or ``file:pPAGE:line`` in a paged document, where lines restart."""
        page = f"p{self.page}:" if self.page is not None else ""
        return f"{self.file}:{page}{self.line}"


@dataclass
class _Line:
    number: int
    text: str


def read_document_text(path: Path) -> str:
    """Read a manual as UTF-8 (a BOM is accepted), failing with the file and line at fault."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if b"\x00" in raw:
        line = raw[: raw.index(b"\x00")].count(b"\n") + 1
        raise DocumentError(f"{path}:{line}: binary file (NUL byte), not a text manual")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DocumentError(
            f"{path}:{line}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "save the manual as UTF-8"
        ) from None


def normalise_newlines(text: str) -> str:
    """The text statements are split from (and spans index into): newlines as ``\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def statement_id(file: str, text: str, parse_text: str = "", occurrence: int = 0) -> str:
    """Deterministic id: the file, the statement's words, and which repeat of them it is."""
    return _folded_id(file, " ".join(text.split()), parse_text, occurrence)


def _folded_id(file: str, folded: str, parse_text: str, occurrence: int) -> str:
    key = f"{file}\n{folded}\n{parse_text}\n{occurrence}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def assign_ids(statements: Iterable[Statement]) -> list[Statement]:
    """Give each statement its id (statements in document order)."""
    seen: dict[tuple[str, str, str], int] = {}
    out: list[Statement] = []
    for st in statements:
        folded = " ".join(st.text.split())
        key = (st.file, folded, st.parse_text)
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(_replaced(st, id=_folded_id(st.file, folded, st.parse_text, n)))
    return out


def _replaced(st: Statement, **changes: Any) -> Statement:
    """``dataclasses.replace(st, **changes)`` at a fifth of its cost, which counted when
    every statement of a manual is copied twice.  The same object: Statement is a plain
    frozen dataclass (no ``__post_init__``, no slots), so its state is its ``__dict__``."""
    new = object.__new__(Statement)
    state = new.__dict__
    state.update(st.__dict__)
    state.update(changes)
    return new


def split_statements(
    text: str,
    file: str,
    *,
    headings: Collection[int] = (),
    skip: Collection[int] = (),
    continued: Collection[int] = (),
) -> list[Statement]:
    """Split a document's text into statements (sentences, items, headings, titles).

    `headings`: 1-based lines known to be headings (a PDF line in a larger font);
    `skip`: 1-based lines that are not prose (table rows read elsewhere, page
    headers); they end a paragraph like a blank line.  `continued`: 1-based lines
    whose statement runs on to the next line (a PDF line wrapped at the margin).
    Each statement gets its character span in the newline-normalised text and its id.
    """
    return assign_ids(split_without_ids(text, file, headings=headings, skip=skip,
                                        continued=continued))


def split_without_ids(
    text: str,
    file: str,
    *,
    headings: Collection[int] = (),
    skip: Collection[int] = (),
    continued: Collection[int] = (),
) -> list[Statement]:
    """split_statements without the ids, for callers that add statements and then
    number them all with assign_ids."""
    text = normalise_newlines(text)
    lines = text.split("\n")
    return split_lines_without_ids(text, lines, line_offsets(text), file, headings=headings,
                                   skip=skip, continued=continued)


def split_lines_without_ids(
    text: str,
    lines: list[str],
    starts: list[int],
    file: str,
    *,
    headings: Collection[int] = (),
    skip: Collection[int] = (),
    continued: Collection[int] = (),
) -> list[Statement]:
    """split_without_ids of a text whose newlines are already ``\\n``, given as its
    `lines` (``text.split("\\n")``) and their offsets (``line_offsets(text)``), for a
    caller that has them already."""
    return _with_spans(_split_lines(lines, file, headings, skip, continued), lines, text,
                       starts)


def _split_lines(
    lines: list[str], file: str, headings: Collection[int], skip: Collection[int],
    continued: Collection[int] = (),
) -> list[Statement]:
    if skip:
        # A skipped line reads as a blank line: it ends paragraphs and list items.
        lines = ["" if n in skip else line for n, line in enumerate(lines, start=1)]
    out: list[Statement] = []
    section = ""
    block = 0
    para: list[_Line] = []
    in_fence = False
    prev_was_item = False

    def flush_paragraph() -> None:
        nonlocal para
        if para:
            out.extend(_sentences(para, file, section))
            para = []

    i = 0
    while i < len(lines):
        raw = lines[i].replace("\u00a0", " ").rstrip()
        lineno = i + 1
        i += 1
        wraps = lineno in continued  # a line wrapped at the margin is no heading
        if ("```" in raw or "~~~" in raw) and _FENCE.match(raw):
            flush_paragraph()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if not raw.strip():
            flush_paragraph()
            continue
        definition = _DEFINITION.match(raw) if raw.lstrip().startswith(":") else None
        if definition:
            # ":   The fault is raised ..." under a term (a markdown definition list): a
            # paragraph of its own, without its marker
            flush_paragraph()
            para.append(_Line(lineno, definition.group(1)))
            prev_was_item = False
            continue
        if "|" in raw and _TABLE_RULE.match(raw):
            flush_paragraph()  # a stray table rule ends a paragraph, as a table line does
            continue
        if lineno in headings and _can_be_heading(raw.strip()):
            flush_paragraph()
            title = raw.strip()
            while i in continued and i + 1 in headings and i < len(lines) and lines[i].strip():
                title = f"{title} {lines[i].strip()}"  # a heading set over two lines
                i += 1
            section = strip_markup(title)
            out.append(Statement(file, lineno, title, "heading", section))
            prev_was_item = False
            continue
        if para and lineno - 1 in continued:
            # The previous line was wrapped at the margin: this one carries on its statement.
            para.append(_Line(lineno, raw.strip()))
            if raw.rstrip().endswith(":") and not _colon_continues(lines, i):
                flush_paragraph()
            continue
        heading = _MD_HEADING.match(raw) if "#" in raw else None
        if heading:
            flush_paragraph()
            section = strip_markup(heading.group(2))
            out.append(Statement(file, lineno, heading.group(2).strip(), "heading", section))
            prev_was_item = False
            continue
        item = _match_item(raw)
        if item is not None:
            indent, marker, number, body = item
            nxt = _peek_nonblank(lines, i)
            if (number is not None and not wraps
                    and _looks_like_numbered_heading(body, nxt, prev_was_item)):
                flush_paragraph()
                section = body.strip()
                out.append(Statement(file, lineno, raw.strip(), "heading", section))
                prev_was_item = False
                continue
            flush_paragraph()
            if not prev_was_item:
                block += 1
            item_lines = [_Line(lineno, body)]
            while (i < len(lines) and i + 1 not in headings and lines[i].strip()
                   and (i in continued or _continues_item(lines[i], item_lines[-1].text))):
                item_lines.append(_Line(i + 1, lines[i].strip()))
                i += 1
            joined = " ".join(part.text.strip() for part in item_lines)
            if not joined:  # a marker alone ("Step 4:" before another list): says nothing
                continue
            if marker.startswith("("):
                # A paragraph of a regulation holds several sentences and paragraphs:
                # "(5) Audiometer calibration. (i) The functional operation ... shall ..."
                out.extend(_regulation_paragraph(item_lines, file, section, block))
            else:
                out.append(
                    Statement(file, lineno, joined, "item", section, marker.strip(), number,
                              block))
            prev_was_item = True
            continue
        numbered_heading = _NUMBERED_HEADING.match(raw)
        if (numbered_heading and not wraps and not _SENTENCE_END.search(raw)
                and not raw.rstrip().endswith(":")
                and not _numbered_clause(raw, numbered_heading.group(2), lines, i)):
            flush_paragraph()
            section = raw.strip()
            out.append(Statement(file, lineno, raw.strip(), "heading", section))
            prev_was_item = False
            continue
        stripped = raw.strip()
        if not para and not wraps and _is_plain_heading(stripped, _peek_nonblank(lines, i),
                                                        lines, i):
            section = stripped
            out.append(Statement(file, lineno, stripped, "heading", section))
            prev_was_item = False
            continue
        ends_sentence = bool(para) and bool(_SENTENCE_END.search(para[-1].text))
        if ends_sentence and not wraps and _is_plain_heading(stripped, _peek_nonblank(lines, i),
                                                             lines, i):
            flush_paragraph()
            section = stripped
            out.append(Statement(file, lineno, stripped, "heading", section))
            prev_was_item = False
            continue
        if para and not _joins_previous(para[-1].text, stripped):
            flush_paragraph()
            if not wraps and _is_plain_heading(stripped, _peek_nonblank(lines, i), lines, i):
                section = stripped
                out.append(Statement(file, lineno, stripped, "heading", section))
                prev_was_item = False
                continue
        para.append(_Line(lineno, stripped))
        if stripped.endswith(":") and not _colon_continues(lines, i):
            # A list title ("To perform a normal shutdown:") is its own statement.
            flush_paragraph()
        prev_was_item = False
    flush_paragraph()
    return out


def _colon_continues(lines: list[str], i: int) -> bool:
    """A colon at the end of a line that the sentence runs on from, in lower case and
    without a list marker: "... red cells may have frozen:" + "quarantine all units."."""
    if i >= len(lines) or not lines[i].strip() or _match_item(lines[i]):
        return False
    return lines[i].strip()[:1].islower()


def _can_be_heading(text: str) -> bool:
    """A line marked as a heading by its layout, unless it reads as a sentence."""
    if len(text.split()) > 14 or len(text) > 120:
        return False
    return not _SENTENCE_END.search(text) or bool(_NUMBERED_HEADING.match(text))


def _match_item(raw: str) -> tuple[str, str, int | None, str] | None:
    if not _ITEM_START.match(raw):
        return None  # what no list marker below can start with: most lines of prose
    step = _STEP.match(raw)
    if step:
        return step.group(1), step.group(2), int(step.group(3)), step.group(4)
    numbered = _NUMBERED.match(raw)
    if numbered:
        return numbered.group(1), numbered.group(2) + raw[numbered.end(2)], int(
            numbered.group(2)
        ), numbered.group(3)
    bullet = _BULLET.match(raw)
    if bullet:
        return bullet.group(1), bullet.group(2), None, bullet.group(3)
    lettered = _LETTERED.match(raw)
    if lettered:
        return lettered.group(1), lettered.group(2) + ")", None, lettered.group(3)
    tagged = _TAG_ITEM.match(raw)
    if tagged:
        return tagged.group(1), "", None, raw.strip()
    paragraph = _PARENTHESIZED.match(raw)
    if paragraph:
        return paragraph.group(1), f"({paragraph.group(2)})", None, raw.strip()
    return None


def _peek_nonblank(lines: list[str], i: int) -> str | None:
    """The next line if it is not blank (a blank line ends a paragraph)."""
    if i < len(lines) and lines[i].strip():
        return lines[i].strip()
    return None


def _looks_like_numbered_heading(body: str, nxt: str | None, prev_was_item: bool) -> bool:
    """`1. Thermal limits` followed by prose is a heading; `1. Close the valve.` is a step."""
    text = body.strip()
    if _SENTENCE_END.search(text) or text.endswith((":", ",", ";")):
        return False
    if len(text.split()) > 6 or prev_was_item:
        return False
    if nxt is None:
        return True
    return _match_item(nxt) is None


def _continues_item(next_raw: str, last: str) -> bool:
    """A wrapped list item continues on indented lines or lines that cannot start a statement
    (a numbered clause, "5.2 Telephone ...", starts one)."""
    if not next_raw.strip() or _match_item(next_raw) or _MD_HEADING.match(next_raw):
        return False
    if _NUMBERED_HEADING.match(next_raw) and not next_raw.startswith((" ", "\t")):
        return False
    if next_raw.startswith((" ", "\t")):
        return True
    return not _SENTENCE_END.search(last.strip()) and _starts_continuation(next_raw.strip())


def _starts_continuation(text: str) -> bool:
    first = text[:1]
    return bool(first) and (first.islower() or first.isdigit() or first in "(°%,;-–+")


def _joins_previous(prev: str, current: str) -> bool:
    """Whether `current` continues the statement begun on the previous line."""
    if _SENTENCE_END.search(prev) or prev.endswith(":"):
        # A new sentence on the next line still belongs to the paragraph.
        return True
    if _starts_continuation(current):
        return True
    last_word = prev.rsplit(None, 1)[-1].lower().strip(",;")
    if prev.endswith((",", ";")) or last_word in _JOINING_WORDS:
        return True
    return len(prev) >= 50


def _is_plain_heading(text: str, nxt: str | None, lines: list[str], i: int) -> bool:
    """A short line without closing punctuation, standing before a new statement."""
    if _SENTENCE_END.search(text) or text.endswith((":", ",", ";")):
        return False
    words = text.split()
    if not words or len(words) > 10 or len(text) >= 70:
        return False
    if nxt is None:
        return True
    if _starts_continuation(nxt) and not _is_numbered_heading(nxt):
        return False
    last_word = words[-1].lower()
    return last_word not in _JOINING_WORDS


def _numbered_clause(raw: str, body: str, lines: list[str], i: int) -> bool:
    """`6.1.1   The room pressure shall` + an indented `not be less than 10 Pa.`: a
    numbered clause wrapped under a hanging indent, not a heading.  Said so when the
    text stops on a word a sentence cannot end on, runs longer than a heading, or the
    next line is indented deeper and is no list item."""
    words = body.split()
    if len(words) > 10 or words[-1].lower().strip(",;") in _CLAUSE_OPEN_END:
        return True
    nxt = lines[i].replace("\u00a0", " ").rstrip() if i < len(lines) else ""
    deeper = len(nxt) - len(nxt.lstrip()) > len(raw) - len(raw.lstrip())
    return bool(nxt.strip()) and deeper and _match_item(nxt) is None


_CLAUSE_OPEN_END = _JOINING_WORDS | {
    "shall", "must", "should", "will", "may", "can", "below", "above", "over", "under",
    "exceed", "exceeds", "outside", "within", "reaches", "equals"}


def _is_numbered_heading(text: str) -> bool:
    """`2.1 Exhaust gas temperature`: a numbered heading, not the rest of a sentence."""
    return bool(_NUMBERED_HEADING.match(text)) and not _SENTENCE_END.search(text) \
        and not text.rstrip().endswith(":")


def strip_markup(text: str) -> str:
    """The text without markdown emphasis and code marks."""
    return _MARKUP.sub("", text).strip()


_PARAGRAPH_BREAK = re.compile(rf"(?<=[.;:—])\s+(?={PARAGRAPH_MARK}\s)")


def _regulation_paragraph(lines: list[_Line], file: str, section: str, block: int
                          ) -> list[Statement]:
    """A bracketed paragraph as its sentences and inner paragraphs, each an item with its
    own enumerator ("(d) Monitoring. (1) When ..." -> "(d) Monitoring.", "(1) When ...")."""
    out: list[Statement] = []
    for st in _sentences(lines, file, section, _PARAGRAPH_BREAK):
        mark = _PARENTHESIZED.match(st.text)
        kind = "title" if st.text.endswith((":", "—")) else ("item" if mark else "sentence")
        out.append(_replaced(st, kind=kind, marker=f"({mark.group(2)})" if mark else "",
                             block=block))
    return out


def _sentences(para: list[_Line], file: str, section: str,
               breaks: re.Pattern[str] | None = None) -> list[Statement]:
    """Split a paragraph into sentences, each keeping the line it starts on; ``breaks``
    cuts it at more places (where a regulation's inner paragraph starts)."""
    text = ""
    starts: list[tuple[int, int]] = []  # (offset in text, line number)
    for part in para:
        if text:
            text += " "
        starts.append((len(text), part.number))
        text += part.text
    out: list[Statement] = []
    begin = 0
    ends = _sentence_ends(text)
    if breaks is not None:
        ends = sorted({*ends, *(m.end() for m in breaks.finditer(text))})
    for end in ends:
        piece = text[begin:end].strip()
        if piece:
            offset = begin + (len(text[begin:end]) - len(text[begin:end].lstrip()))
            out.append(Statement(file, _line_at(starts, offset), piece, "sentence", section))
        begin = end
    rest = text[begin:].strip()
    if rest:
        offset = begin + (len(text[begin:]) - len(text[begin:].lstrip()))
        kind = "title" if rest.endswith(":") else "sentence"
        out.append(Statement(file, _line_at(starts, offset), rest, kind, section))
    return out


def _sentence_ends(text: str) -> list[int]:
    ends: list[int] = []
    for match in _SENTENCE_BREAK.finditer(text):
        if match.group(0).startswith("."):
            # The word before the stop (letters and dots, as `[A-Za-z.]+$` would find it).
            stop = begin = match.start()
            while begin > 0 and text[begin - 1] in _WORD_CHARS:
                begin -= 1
            word = text[begin:stop].lower().rstrip(".")
            if begin < stop and word in _ABBREVIATIONS:
                continue
            # "5 L/min. 3 pumps run": after a number or a "/", "min" is a unit
            unit = begin > 0 and (text[begin - 1] == "/" or text[:begin].rstrip()[-1:].isdigit())
            if word in _BEFORE_NUMBER and not unit and _NUMBER_NEXT.match(text, match.end()):
                continue  # "Oil temperature: min. 10 °C, max. 70 °C.", "No. 3"
            if _DOTTED.fullmatch(word) and _GOES_ON.match(text, match.end()):
                continue  # "exceeds 60 p.s.i. (414 kPa) gage, one of ...": a unit's dots
        ends.append(match.end())
    return ends


def _with_spans(statements: list[Statement], lines: list[str], text: str, starts: list[int]
                ) -> list[Statement]:
    """Each statement with its character span: where its words stand, from its line on."""
    out: list[Statement] = []
    cursor = 0
    for st in statements:
        begin = starts[st.line - 1]
        start, end = find_span(text, st.text, max(begin, cursor))
        if start < 0:  # not expected: fall back to the statement's first line
            start, end = begin, begin + len(lines[st.line - 1])
        out.append(_replaced(st, start=start, end=end))
        cursor = end
    return out


def find_span(text: str, words: str, pos: int = 0) -> tuple[int, int]:
    """Span of `words` in `text` at or after `pos`, whitespace folded; (-1, -1) if absent.

    The first place where the words stand in order with whitespace between them, as the
    regex ``word\\s+word...`` would find it; found with ``str.find`` because compiling
    that regex for every statement cost more than the rest of splitting a manual.
    """
    parts = words.split()
    if not parts:
        return -1, -1
    first = parts[0]
    start = text.find(first, pos)
    joined = " ".join(parts)
    if start >= 0 and text.startswith(joined, start):
        # The usual case, the words as written with single spaces: the loop below would
        # match them here, each space being a run of one.
        return start, start + len(joined)
    while start >= 0:
        end = start + len(first)
        for part in parts[1:]:
            space = _SPACE.match(text, end)
            if space is None or not text.startswith(part, space.end()):
                break
            end = space.end() + len(part)
        else:
            return start, end
        start = text.find(first, start + 1)
    return -1, -1


_SPACE = re.compile(r"\s+")


def line_offsets(text: str) -> list[int]:
    """Character offset where each line of `text` starts (index 0 is line 1)."""
    offsets = [0]
    for line in text.split("\n")[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    return offsets


def _line_at(starts: list[tuple[int, int]], offset: int) -> int:
    line = starts[0][1]
    for start, number in starts:
        if start <= offset:
            line = number
        else:
            break
    return line
