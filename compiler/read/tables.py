"""Tables in manuals, read as statements.

Three shapes are found in text: markdown tables (a header, a ``|---|`` rule,
rows), pipe rows without a rule (``Oil pressure | min 20 psi | max 100 psi``),
and column tables whose header names limit columns (``Parameter  Minimum
Maximum  Unit``, cells two or more spaces apart).  PDF tables found by position
come in through :func:`block_from_cells`.

Each data row becomes a ``"row"`` statement whose text is the row as written
(so provenance still points at the file) and whose ``parse_text`` says the same
in a sentence the extractor reads: ``Oil pressure shall remain between 20 psi and
100 psi.``, ``Oil temperature must not exceed 245 °F.``, ``If <condition>,
<action>.``.  A row with no limit columns is read as its cells joined by spaces.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rulec.compiler.model.units import is_unit
from rulec.compiler.read.statements import Statement, find_span, line_offsets

_MD_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_EMPTY = {"", "-", "–", "—", "n/a", "na", "none", "nil", "/", "--", "---", "."}
_NUM = r"[+\-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[+\-−]?\d+(?:\.\d+)?|[+\-−]?\.\d+"
_QUALIFIER = (
    r"min(?:imum)?\.?|max(?:imum)?\.?|≥|>=|=>|≤|<=|=<|<|>|at least|at most|"
    r"not (?:less|more) than|no (?:less|more) than|above|below|over|under|"
    r"greater than|less than|more than|lower than|higher than"
)
_BOUND = re.compile(rf"^(?P<q>{_QUALIFIER})?\s*(?P<num>{_NUM})\s*(?P<unit>.*?)\s*$",
                    re.IGNORECASE)
_RANGE = re.compile(
    rf"^(?:between\s+|from\s+)?(?P<lo>{_NUM})\s*(?P<lounit>[^\d\s.,–—+\-−][^\d–—]*?)?\s*"
    rf"(?:-|–|—|to|and|\.\.\.?|…)\s*(?P<hi>{_NUM})\s*(?P<unit>.*?)\s*$",
    re.IGNORECASE,
)
# A cell that is a comparison: "≥ 25 ppm", "above 5 bar", "150 ppm or more"
_COMPARISON_CELL = re.compile(
    rf"^(?:(?:{_QUALIFIER})\s*(?:{_NUM})|(?:{_NUM})\s*[^\d\s]*\s*(?:or|and)\s+(?:more|less|"
    r"higher|lower|above|below|greater|over|under|colder|warmer)\b)", re.IGNORECASE)
_PAREN = re.compile(r"\s*[(\[]([^()\[\]]{1,16})[)\]]\s*")
_PIPE = re.compile(r"(?<!\\)\|")
_SPACED_PIPE = re.compile(r"\s\|\s")
_DIGIT = re.compile(r"\d")
_DASH_RUN = re.compile(r"^(?:-{3,}|={3,})$")
# What a row's function cell says when its limit is the point an alarm or trip acts at
_TRIGGERED = re.compile(r"\b(?:alarm|trip|shut ?down|stop|warning|interlock|lockout|"
                        r"scram|runback|pre-?alarm)\b", re.IGNORECASE)
_CELL = re.compile(r"\S+(?: \S+)*")
_SPACES = re.compile(r"\s+")
_FOOTNOTE_MARKS = re.compile(r"[*†‡¹²³]+$")
_ROLES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (role, re.compile(rf"^(?:{pattern})$", re.IGNORECASE)) for role, pattern in (
        ("min", r"min(?:imum)?\.?(?:\s+(?:limit|value|level|allowed|permitted|alarm))?|"
                r"low(?:er)?(?:\s+(?:limit|alarm|threshold))?|lo|lower bound"),
        ("max", r"max(?:imum)?\.?(?:\s+(?:limit|value|level|allowed|permitted|alarm))?|"
                r"high(?:er)?(?:\s+(?:limit|alarm|threshold))?|hi|upper(?:\s+(?:limit|bound))?|"
                # regulatory maximums by their initials: maximum contaminant level, maximum
                # residual disinfectant level, permissible exposure limit, ceiling
                r"mcl|mrdl|pel|ceiling(?:\s+limit)?|"
                r"max(?:imum)?\.?\s+(?:contaminant|residual disinfectant)\s+levels?"),
        ("range", r"(?:normal|operating|allowed|allowable|permitted|acceptable|safe|green|"
                  r"limit)?\s*(?:range|band|limits|window)"),
        ("unit", r"units?|uom|unit of measure(?:ment)?"),
        ("condition", r"(?:alarm |trip |fault |initiating |triggering )?(?:conditions?|"
                      r"causes?|triggers?)|if|when|situation|event|indication"),
        ("tag", r"tags?|tag no\.?|tag number|instrument(?: tag)?|loop(?: no\.?)?|"
                r"(?:alarm |fault |error )?(?:message|text|code)|alarm(?: name)?"),
        ("function", r"functions?|alarm type|protection function"),
        ("setpoint", r"set ?points?|settings?|limit|limit value|trip (?:point|setting|value)|"
                     r"alarm (?:point|setting|value)|threshold|actuation (?:point|value)"),
        ("action", r"(?:required |corrective |crew |operator |system |console |device |"
                   r"automatic |controller |safety )?(?:actions?|responses?|reactions?|"
                   r"effects?)|then|do"),
        ("name", r"parameters?|items?|quantity|quantities|variables?|signals?|sensors?|"
                 r"measurements?|description|name|system|limitation"),
    )
)


@dataclass(frozen=True)
class TableBlock:
    """One table as found: cells by column, and the 1-based lines it occupies."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_lines: tuple[int, ...]
    header_line: int | None
    lines: frozenset[int]  # header, rule and row lines: not prose


@dataclass(frozen=True)
class _Bound:
    value: str  # number and unit as written ("20 psi")
    strict: bool
    upper: bool | None  # True: a maximum, False: a minimum, None: not said


# ---------------------------------------------------------------- finding tables


def find_text_tables(lines: Sequence[str], skip: Collection[int] = ()) -> list[TableBlock]:
    """Tables in the lines of a text (index 0 is line 1); lines in `skip` are not looked at."""
    out: list[TableBlock] = []
    in_fence = False
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if ("```" in line or "~~~" in line) and _FENCE.match(line):
            in_fence = not in_fence
            i += 1
            continue
        if in_fence or (i + 1) in skip or not line.strip() or (
                "|" not in line and _one_cell(line)):
            i += 1  # no table starts here: each shape below needs a pipe or two cells
            continue
        block, i_next = _markdown_table(lines, i, skip)
        if block is None:
            block, i_next = _pipe_rows(lines, i, skip)
        if block is None:
            block, i_next = _column_table(lines, i, skip)
        if block is not None:
            out.append(block)
            i = i_next
        else:
            i += 1
    return out


def split_pipe_cells(line: str) -> tuple[str, ...]:
    """Cells of a pipe row (outer pipes optional, ``\\|`` is a literal pipe)."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return tuple(c.replace("\\|", "|").strip() for c in _PIPE.split(text))


def _is_pipe_row(line: str) -> bool:
    """Cells parted by a pipe with space around it (`a | b`), or a row in outer pipes;
    `offline|llm|both` in a sentence is no table."""
    if "|" not in line or _MD_RULE.match(line):
        return False
    if not (line.lstrip().startswith("|") or _SPACED_PIPE.search(line)):
        return False
    return sum(1 for c in split_pipe_cells(line) if c) >= 2


def _markdown_table(lines: Sequence[str], i: int, skip: Collection[int]
                    ) -> tuple[TableBlock | None, int]:
    if not (i + 1 < len(lines) and "|" in lines[i] and _MD_RULE.match(lines[i + 1])
            and "|" in lines[i + 1] and (i + 2) not in skip):
        return None, i
    header = split_pipe_cells(lines[i])
    rows: list[tuple[str, ...]] = []
    row_lines: list[int] = []
    k = i + 2
    while k < len(lines) and (k + 1) not in skip and "|" in lines[k] and lines[k].strip():
        rows.append(_fit(split_pipe_cells(lines[k]), len(header)))
        row_lines.append(k + 1)
        k += 1
    used = frozenset(range(i + 1, k + 1))
    return TableBlock(header, tuple(rows), tuple(row_lines), i + 1, used), k


def _pipe_rows(lines: Sequence[str], i: int, skip: Collection[int]
               ) -> tuple[TableBlock | None, int]:
    k = i
    while k < len(lines) and (k + 1) not in skip and _is_pipe_row(lines[k]):
        k += 1
    if k == i:
        return None, i
    cells = [split_pipe_cells(lines[j]) for j in range(i, k)]
    width = max(len(c) for c in cells)
    header: tuple[str, ...] = ()
    header_line = None
    first = 0
    if k - i >= 2 and not any(_DIGIT.search(c) for c in cells[0]):
        header, header_line, first = _fit(cells[0], width), i + 1, 1
    rows = tuple(_fit(c, width) for c in cells[first:])
    row_lines = tuple(range(i + 1 + first, k + 1))
    return TableBlock(header, rows, row_lines, header_line, frozenset(range(i + 1, k + 1))), k


def _column_table(lines: Sequence[str], i: int, skip: Collection[int]
                  ) -> tuple[TableBlock | None, int]:
    """``Parameter   Minimum   Maximum   Unit`` and rows below it, cells 2+ spaces apart;
    or any header with a rule of dashes under each of its cells (``-----  -----``)."""
    head = _gap_cells(lines[i])
    ruled = (len(head) >= 2 and i + 1 < len(lines) and (i + 2) not in skip
             and _ruled_under(head, lines[i + 1]))
    if len(head) < 2 or not (ruled or any(
            _role(text)[0] in ("min", "max", "range") for text, _, _ in head)):
        return None, i
    rows: list[tuple[str, ...]] = []
    row_lines: list[int] = []
    k = i + 2 if ruled else i + 1
    while k < len(lines) and (k + 1) not in skip and lines[k].strip():
        cells = _gap_cells(lines[k])
        if len(cells) < 2:
            break
        rows.append(align_cells([(a, b) for _, a, b in head], cells))
        row_lines.append(k + 1)
        k += 1
    if not rows:
        return None, i
    header = tuple(text for text, _, _ in head)
    return TableBlock(header, tuple(rows), tuple(row_lines), i + 1,
                      frozenset(range(i + 1, k + 1))), k


def _ruled_under(head: Sequence[tuple[str, float, float]], line: str) -> bool:
    """Whether `line` is a rule of dashes (or =) with one run under each header cell."""
    runs = _gap_cells(line)
    return len(runs) == len(head) and all(_DASH_RUN.match(text) for text, _, _ in runs)


def _one_cell(line: str) -> bool:
    """Whether the line is words parted by single spaces, as most lines of prose are:
    _gap_cells would find one cell (said without its regex, which costs more)."""
    words = line.expandtabs(8).strip()
    return words.split(" ") == words.split()


def _gap_cells(line: str) -> list[tuple[str, float, float]]:
    """Cells of a line split where two or more spaces (or a tab) stand, with their columns."""
    expanded = line.expandtabs(8)
    return [(m.group(0), float(m.start()), float(m.end()))
            for m in _CELL.finditer(expanded)]


def align_cells(header: Sequence[tuple[float, float]],
                cells: Sequence[tuple[str, float, float]]) -> tuple[str, ...]:
    """Put each cell (text, x0, x1) under the header column whose span its centre falls in;
    columns end halfway between one header cell and the next."""
    out = [""] * len(header)
    for text, x0, x1 in cells:
        centre = (x0 + x1) / 2
        column = len(header) - 1
        for j in range(len(header) - 1):
            if centre < (header[j][1] + header[j + 1][0]) / 2:
                column = j
                break
        out[column] = f"{out[column]} {text}".strip()
    return tuple(out)


def block_from_cells(rows: Sequence[tuple[int, Sequence[tuple[str, float, float]]]]
                     ) -> TableBlock | None:
    """A table from positioned cells (a PDF page): rows of (line, [(text, x0, x1)])."""
    if len(rows) < 2:
        return None
    first_line, first = rows[0]
    if any(_DIGIT.search(text) for text, _, _ in first):
        width = max(len(c) for _, c in rows)
        body = [(line, _fit(tuple(t for t, _, _ in c), width)) for line, c in rows]
        return TableBlock((), tuple(c for _, c in body), tuple(line for line, _ in body), None,
                          frozenset(line for line, _ in rows))
    spans = [(a, b) for _, a, b in first]
    body = [(line, align_cells(spans, c)) for line, c in rows[1:]]
    return TableBlock(tuple(t for t, _, _ in first), tuple(c for _, c in body),
                      tuple(line for line, _ in body), first_line,
                      frozenset(line for line, _ in rows))


def _fit(cells: tuple[str, ...], width: int) -> tuple[str, ...]:
    return cells + ("",) * (width - len(cells)) if len(cells) < width else cells


# ---------------------------------------------------------------- rows as sentences


def row_sentences(header: Sequence[str], cells: Sequence[str]) -> tuple[str, ...]:
    """What a table row says, as one or two sentences the extractor reads ("" if nothing)."""
    roles = [_role(h) for h in header] if header else []
    role_of = [r for r, _ in roles]
    name_col = role_of.index("name") if "name" in role_of else next(
        (j for j, r in enumerate(role_of) if r == ""), 0)
    if "condition" in role_of and "action" in role_of:
        cond = cells[role_of.index("condition")].strip().rstrip(".,;")
        action = cells[role_of.index("action")].strip().rstrip(".")
        lead = _row_lead(role_of, cells)
        if cond and action:
            return (f"{lead}If {_lower_first(cond)}, {_lower_first(action)}.",)
    if not cells or name_col >= len(cells):
        return ()
    staged = _staged_row(header, role_of, cells)
    if staged:
        return (staged,)
    triggered = _triggered_row(role_of, cells, name_col)
    if triggered:
        return (triggered,)
    name, name_unit = _name_and_unit(cells[name_col])
    row_unit = ""
    if "unit" in role_of and role_of.index("unit") < len(cells):
        row_unit = _valid_unit(cells[role_of.index("unit")])
    row_unit = row_unit or name_unit
    lo: _Bound | None = None
    hi: _Bound | None = None
    for j, cell in enumerate(cells):
        if j == name_col or cell.strip().lower() in _EMPTY:
            continue
        role, col_unit = roles[j] if j < len(roles) else ("", "")
        unit = col_unit or row_unit
        if role in ("unit", "condition", "action", "name", "tag", "function"):
            continue
        if role == "range" or (not header and role == ""):
            found = _range(cell, unit)
            if found is not None:
                lo, hi = found
                continue
        bound = _bound(cell, unit)
        if bound is None:
            continue
        upper = bound.upper
        if role in ("min", "max") and upper is None:
            upper = role == "max"
        if upper is None:
            continue  # a plain number in a column that says nothing about limits
        if upper:
            hi = bound
        else:
            lo = bound
    if not name or (lo is None and hi is None):
        return (" ".join(c for c in cells if c.strip()),) if any(cells) else ()
    subject = _upper_first(name)
    if lo is not None and hi is not None and not lo.strict and not hi.strict:
        return (f"{subject} shall remain between {lo.value} and {hi.value}.",)
    out = []
    if lo is not None:
        verb = "must stay above" if lo.strict else "must not fall below"
        out.append(f"{subject} {verb} {lo.value}.")
    if hi is not None:
        verb = "must stay below" if hi.strict else "must not exceed"
        out.append(f"{subject} {verb} {hi.value}.")
    return tuple(out)


def _row_lead(role_of: Sequence[str], cells: Sequence[str]) -> str:
    """"TAG: " for a row with a tag (or alarm message) cell, to lead its sentence; ""."""
    column = role_of.index("tag") if "tag" in role_of else None
    tag = cells[column].strip() if column is not None and column < len(cells) else ""
    return f"{tag}: " if tag and tag.lower() not in _EMPTY else ""


def _staged_row(header: Sequence[str], role_of: Sequence[str], cells: Sequence[str]) -> str:
    """A row of staged responses (``| 2 – Alarm | 150 ppm or more | Horns sound | Call the
    team |`` under ``| Stage | NH3 concentration | Automatic response | Operator response |``):
    the column named by a quantity holds the comparison, the response columns the action.
    "" when the row is not one."""
    if "action" not in role_of or "condition" in role_of:
        return ""
    column = next((j for j, role in enumerate(role_of) if role in ("", "name")
                   and j < len(cells) and header[j].strip()
                   and _COMPARISON_CELL.match(cells[j].strip())), None)
    actions = [cells[j].strip().rstrip(".") for j, role in enumerate(role_of)
               if role == "action" and j < len(cells) and cells[j].strip().lower() not in _EMPTY]
    if column is None or not actions:
        return ""
    lead = _row_lead(role_of, cells)
    subject = _lower_first(_name_and_unit(header[column])[0])
    return (f"{lead}If {subject} is {cells[column].strip().rstrip('.')}, "
            f"{'; '.join(_lower_first(a) for a in actions)}.")


def _triggered_row(role_of: Sequence[str], cells: Sequence[str], name_col: int) -> str:
    """A setpoint schedule's row (``TAH-211 | Bearing temperature | High alarm | > 70 °C``):
    its limit is where the function acts, so "TAH-211: If bearing temperature is above
    70 °C, high alarm."; "" when the row is not one (no such function, no comparison)."""
    if "function" not in role_of or "setpoint" not in role_of:
        return ""
    function = cells[role_of.index("function")].strip().rstrip(".")
    bound = _bound(cells[role_of.index("setpoint")], "")
    name, _ = _name_and_unit(cells[name_col])
    if not (_TRIGGERED.search(function) and bound and bound.upper is not None and name):
        return ""
    above = "below" if bound.upper else "above"
    comparison = f"is {above}" if bound.strict else f"is at or {above}"
    lead = _row_lead(role_of, cells)
    return f"{lead}If {_lower_first(name)} {comparison} {bound.value}, {_lower_first(function)}."


def _role(header: str) -> tuple[str, str]:
    """(role, unit) of a header cell: "Maximum (psi)" -> ("max", "psi")."""
    unit = ""
    paren = _PAREN.search(header)
    text = header
    if paren:
        unit = _valid_unit(paren.group(1))
        text = (header[:paren.start()] + " " + header[paren.end():]).strip()
    text = _SPACES.sub(" ", text.strip().rstrip(":").strip())
    for role, pattern in _ROLES:
        if pattern.match(text):
            return role, unit
    return "", unit


def _name_and_unit(cell: str) -> tuple[str, str]:
    name = _FOOTNOTE_MARKS.sub("", cell.strip()).strip()
    paren = _PAREN.search(name)
    if paren and paren.end() >= len(name) - 1:
        unit = _valid_unit(paren.group(1))
        if unit:
            return name[:paren.start()].strip(), unit
    return name, ""


def _valid_unit(text: str) -> str:
    text = text.strip()
    if not text or text.lower() in _EMPTY:
        return ""
    return text if is_unit(text) else ""


def _bound(cell: str, unit: str) -> _Bound | None:
    match = _BOUND.match(cell.strip())
    if not match:
        return None
    q = (match.group("q") or "").lower()
    upper: bool | None = None
    strict = q in ("<", ">", "above", "below", "over", "under", "greater than", "less than",
                   "more than", "lower than", "higher than")
    if q.startswith(("max", "≤", "<", "=<", "at most", "not more", "no more", "below", "under",
                     "less", "lower")):
        upper = True
    elif q:
        upper = False
    return _Bound(_value(match.group("num"), match.group("unit"), unit), strict, upper)


def _range(cell: str, unit: str) -> tuple[_Bound, _Bound] | None:
    match = _RANGE.match(cell.strip())
    if not match:
        return None
    hi_unit = match.group("unit")
    lo_unit = match.group("lounit") or ""
    lo = _Bound(_value(match.group("lo"), lo_unit, ""), False, False)
    hi = _Bound(_value(match.group("hi"), hi_unit, unit if not lo_unit else ""), False, True)
    return lo, hi


def _value(number: str, written_unit: str, unit: str) -> str:
    return f"{number} {written_unit.strip() or unit}".strip()


def _lower_first(text: str) -> str:
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------- rows as statements


def row_statements(table: TableBlock, file: str, text: str, block: int = 0,
                   starts: Sequence[int] | None = None) -> list[Statement]:
    """The statements of a table's data rows: text as written, parse_text as sentences.

    `text` is the document text the table's line numbers refer to; spans index into it
    (`starts`: its line offsets, if already known).  The rows share the `block` number
    given (the table's number in its document).
    """
    starts = line_offsets(text) if starts is None else starts
    out: list[Statement] = []
    for cells, line in zip(table.rows, table.row_lines, strict=True):
        begin = starts[line - 1]
        stop = starts[line] - 1 if line < len(starts) else len(text)
        raw = text[begin:stop]
        written = " ".join(raw.split())
        if not written:
            continue
        start, end = find_span(text, written, begin)
        sentences = row_sentences(table.header, cells) or ("",)
        for sentence in sentences:
            parse_text = "" if sentence == written else sentence
            out.append(Statement(file, line, written, "row", block=block, start=start, end=end,
                                 parse_text=parse_text))
    return out
