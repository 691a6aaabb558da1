"""The provenance knowledge base: one compile's views, rules, clauses, edges and boxes in
SQLite, every derived row pointing back to the statement, page and document it came from.

`rulec compile` writes it beside the bundle (`BUNDLE.kb.sqlite`); `rulec sql` and
`rulec explain` read it.  Keys are deterministic (the views' ids, rule ids, array
indexes of the bundle), so re-ingesting a file gives the same keys and the same compile
writes the same rows.  The schema is documented in `docs/knowledge-base.md`.
"""

from __future__ import annotations

import bisect
import contextlib
import heapq
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler.build.boxes import Interval, ThresholdConverter
from rulec.compiler.build.cnf import atom_name
from rulec.compiler.model.rules import All, Atom, Condition, Not, condition_to_json
from rulec.runtime.bundle.format import fsync_folder
from rulec.runtime.errors import RulecError, UnitError
from rulec.runtime.vocabulary import PROCEDURE

if TYPE_CHECKING:
    from rulec.compiler.pipeline import Compiled

KB_SCHEMA_VERSION = 1
APPLICATION_ID = 0x524B4231  # "RKB1" in the SQLite header, so `file` tools can tell
KB_SUFFIX = ".kb.sqlite"
SQLITE_MAGIC = b"SQLite format 3\x00"

Row = tuple[Any, ...]

SCHEMA = """
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE documents (
  path TEXT PRIMARY KEY,        -- relative to the folder given to compile (= source.file)
  sha256 TEXT NOT NULL,         -- of the file's bytes
  kind TEXT NOT NULL,           -- txt | md | pdf (the views' kind) or rules (.jsonl)
  n_chars INTEGER,              -- length of text, NULL without views
  text TEXT                     -- the text all char_start/char_end spans index
);
CREATE TABLE pages (
  document TEXT NOT NULL REFERENCES documents(path),
  number INTEGER NOT NULL,      -- 1-based
  char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (document, number)
);
CREATE TABLE sections (
  document TEXT NOT NULL REFERENCES documents(path),
  id TEXT NOT NULL,
  title TEXT NOT NULL, level INTEGER NOT NULL, number TEXT NOT NULL,
  page INTEGER, line INTEGER NOT NULL,
  char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
  parent TEXT,
  PRIMARY KEY (document, id),
  FOREIGN KEY (document, parent) REFERENCES sections(document, id)
);
CREATE TABLE paragraphs (
  document TEXT NOT NULL REFERENCES documents(path),
  id TEXT NOT NULL,
  section TEXT, page INTEGER, line INTEGER NOT NULL,
  char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (document, id),
  FOREIGN KEY (document, section) REFERENCES sections(document, id)
);
CREATE TABLE chunks (
  document TEXT NOT NULL REFERENCES documents(path),
  id TEXT NOT NULL,
  sha256 TEXT NOT NULL,         -- of the chunk text (the LLM cache key)
  label TEXT NOT NULL,          -- rule | mixed | descriptive
  page INTEGER,
  char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
  n_statements INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (document, id)
);
CREATE TABLE statements (
  document TEXT NOT NULL REFERENCES documents(path),
  id TEXT NOT NULL,
  kind TEXT NOT NULL,           -- sentence | heading | item | title | row
  role TEXT NOT NULL,           -- rule | step | unreadable | descriptive | heading | other
  page INTEGER, line INTEGER NOT NULL,
  char_start INTEGER, char_end INTEGER,
  section TEXT, section_title TEXT, paragraph TEXT, chunk TEXT,
  marker TEXT NOT NULL, number INTEGER, block INTEGER NOT NULL,
  text TEXT NOT NULL,
  parse_text TEXT,              -- a table row read as a sentence (NULL: text is read)
  PRIMARY KEY (document, id),
  FOREIGN KEY (document, section) REFERENCES sections(document, id),
  FOREIGN KEY (document, paragraph) REFERENCES paragraphs(document, id),
  FOREIGN KEY (document, chunk) REFERENCES chunks(document, id)
);
CREATE TABLE tables (
  document TEXT NOT NULL REFERENCES documents(path),
  id TEXT NOT NULL,
  page INTEGER, line INTEGER NOT NULL,
  header TEXT NOT NULL,         -- JSON array of the header cells
  n_rows INTEGER NOT NULL,
  PRIMARY KEY (document, id)
);
CREATE TABLE table_rows (
  document TEXT NOT NULL,
  table_id TEXT NOT NULL,
  row INTEGER NOT NULL,         -- 0-based, header excluded
  line INTEGER NOT NULL,
  cells TEXT NOT NULL,          -- JSON array
  PRIMARY KEY (document, table_id, row),
  FOREIGN KEY (document, table_id) REFERENCES tables(document, id)
);
CREATE TABLE parameters (
  name TEXT PRIMARY KEY,
  axis INTEGER NOT NULL UNIQUE, -- index in the bundle's parameters = box axis
  unit TEXT NOT NULL,           -- every bound on this axis is in this unit
  aliases TEXT NOT NULL,        -- JSON array
  range_lo REAL, range_hi REAL, deadband REAL NOT NULL, max_age_s REAL, channel INTEGER,
  inferred INTEGER NOT NULL     -- 1: named from the text (no sensors.toml entry)
);
CREATE TABLE rules (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,           -- if_then | constraint | exclusion | procedure
  severity TEXT, action TEXT NOT NULL, template TEXT NOT NULL,
  condition_text TEXT NOT NULL, condition_json TEXT,
  duration_s REAL, duration_inclusive INTEGER NOT NULL,
  title TEXT,                   -- procedures
  bundle_index INTEGER UNIQUE,  -- index in the bundle's rules (NULL: procedure)
  document TEXT REFERENCES documents(path),
  statement TEXT,
  source_file TEXT NOT NULL, source_line INTEGER NOT NULL, source_page INTEGER,
  source_section TEXT, source_text TEXT NOT NULL,
  source_json TEXT NOT NULL, notes TEXT NOT NULL,
  FOREIGN KEY (document, statement) REFERENCES statements(document, id)
);
CREATE TABLE cnf_variables (
  number INTEGER PRIMARY KEY,   -- DIMACS variable, 1-based
  name TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,           -- condition | action | procedure | step
  parameter TEXT REFERENCES parameters(name)
);
CREATE TABLE conditions (
  rule TEXT NOT NULL REFERENCES rules(id),
  position INTEGER NOT NULL,    -- reading order within the rule
  path TEXT NOT NULL,           -- JSON path into rules.condition_json ($.all[0].not)
  negated INTEGER NOT NULL,     -- under an odd number of `not`
  param TEXT NOT NULL REFERENCES parameters(name),
  op TEXT NOT NULL,
  value REAL NOT NULL, value_hi REAL,
  unit TEXT, label TEXT NOT NULL, text TEXT NOT NULL,
  manifest_unit TEXT, manifest_value REAL, manifest_value_hi REAL,
  variable TEXT REFERENCES cnf_variables(name),
  PRIMARY KEY (rule, position)
);
CREATE TABLE procedures (
  id TEXT PRIMARY KEY REFERENCES rules(id),
  title TEXT NOT NULL,
  n_steps INTEGER NOT NULL
);
CREATE TABLE procedure_steps (
  procedure TEXT NOT NULL REFERENCES procedures(id),
  number INTEGER NOT NULL,      -- 1-based
  text TEXT NOT NULL,
  document TEXT REFERENCES documents(path), statement TEXT,
  source_file TEXT NOT NULL, source_line INTEGER NOT NULL, source_page INTEGER,
  source_text TEXT NOT NULL,
  variable INTEGER REFERENCES cnf_variables(number),
  PRIMARY KEY (procedure, number),
  FOREIGN KEY (document, statement) REFERENCES statements(document, id)
);
CREATE TABLE clauses (
  id INTEGER PRIMARY KEY,       -- clause index in the bundle
  rule TEXT REFERENCES rules(id),
  origin TEXT NOT NULL,         -- rule | procedure | relation
  literals TEXT NOT NULL,       -- DIMACS literals, space-separated
  text TEXT NOT NULL
);
CREATE TABLE clause_literals (
  clause INTEGER NOT NULL REFERENCES clauses(id),
  position INTEGER NOT NULL,
  literal INTEGER NOT NULL,
  variable INTEGER NOT NULL REFERENCES cnf_variables(number),
  negated INTEGER NOT NULL,
  PRIMARY KEY (clause, position)
);
CREATE TABLE graph_nodes (
  id INTEGER PRIMARY KEY,       -- node index in the bundle
  kind TEXT NOT NULL, label TEXT NOT NULL,
  rule TEXT REFERENCES rules(id),
  parameter TEXT REFERENCES parameters(name),
  variable INTEGER REFERENCES cnf_variables(number),
  document TEXT REFERENCES documents(path), statement TEXT,
  FOREIGN KEY (document, statement) REFERENCES statements(document, id)
);
CREATE TABLE graph_edges (
  src INTEGER NOT NULL REFERENCES graph_nodes(id),
  type TEXT NOT NULL,
  dst INTEGER NOT NULL REFERENCES graph_nodes(id),
  PRIMARY KEY (src, type, dst)
);
CREATE TABLE boxes (
  box INTEGER NOT NULL,         -- box index in the bundle
  position INTEGER NOT NULL,    -- constraint within the box
  rule TEXT NOT NULL REFERENCES rules(id),
  parameter TEXT NOT NULL REFERENCES parameters(name),
  lo REAL, hi REAL,             -- in parameters.unit, NULL = unbounded
  lo_inclusive INTEGER NOT NULL, hi_inclusive INTEGER NOT NULL,
  PRIMARY KEY (box, position)
);
CREATE TABLE problems (
  position INTEGER PRIMARY KEY, -- order reported by the compiler
  file TEXT NOT NULL, line INTEGER NOT NULL,
  reason TEXT NOT NULL, text TEXT NOT NULL,
  fatal INTEGER NOT NULL,       -- 1: unreadable statement, 0: a note
  document TEXT REFERENCES documents(path), statement TEXT,
  FOREIGN KEY (document, statement) REFERENCES statements(document, id)
);
"""

TABLES = (
    "meta", "documents", "pages", "sections", "paragraphs", "chunks", "statements", "tables",
    "table_rows", "parameters", "rules", "cnf_variables", "conditions", "procedures",
    "procedure_steps", "clauses", "clause_literals", "graph_nodes", "graph_edges", "boxes",
    "problems",
)
_DOC_KINDS = {".jsonl": "rules", ".md": "md", ".markdown": "md", ".txt": "txt", ".pdf": "pdf"}


class KnowledgeBaseError(RulecError, ValueError):
    """A knowledge base cannot be written, opened or queried as asked."""


def default_kb_path(bundle: Path) -> Path:
    """Where `rulec compile -o BUNDLE` puts the knowledge base without `--kb`."""
    return bundle.with_name(bundle.name + KB_SUFFIX)


def write_knowledge_base(path: Path, result: Compiled) -> None:
    """Write the knowledge base of a compile atomically: a temporary file in the same
    folder, fsync, `os.replace`; a failure leaves any old file as it was."""
    rows = knowledge_base_rows(result)  # everything computed before the disk is touched
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    tmp_name: str | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        os.close(fd)
        _write_sqlite(tmp_name, rows)
        with open(tmp_name, "rb+") as f:
            os.fsync(f.fileno())
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, target)
        tmp_name = None
        fsync_folder(folder)
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise KnowledgeBaseError(f"{target}: cannot write knowledge base: {reason}") from None
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def _write_sqlite(filename: str, rows: dict[str, list[Row]]) -> None:
    conn = sqlite3.connect(filename, isolation_level=None)
    try:
        # The file is private until os.replace, so no journal and no syncs until the end.
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version={KB_SCHEMA_VERSION}")
        conn.executescript(SCHEMA)
        conn.execute("BEGIN")
        for table in TABLES:
            _insert(conn, table, rows[table])
        conn.execute("COMMIT")
    finally:
        conn.close()


def _insert(conn: sqlite3.Connection, table: str, rows: list[Row]) -> None:
    if rows:
        marks = ", ".join("?" * len(rows[0]))
        conn.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


# ---------------------------------------------------------------- rows


def knowledge_base_rows(result: Compiled) -> dict[str, list[Row]]:
    """Every table's rows, in insertion order (deterministic for one compile)."""
    payload = result.payload
    rows: dict[str, list[Row]] = {table: [] for table in TABLES}
    meta = payload["meta"]
    rows["meta"] = [
        ("kb_schema", str(KB_SCHEMA_VERSION)),
        ("compiler", str(meta["compiler"])),
        ("format", str(meta["format"])),
        ("bundle_id", str(meta["bundle_id"])),
        ("created_from", str(meta["created_from"])),
        ("sources", _json(meta["sources"])),
    ]
    index = _StatementIndex()
    for doc in result.documents:
        _document_rows(doc, rows, index)
    _mark_roles(result, rows, index)
    _parameter_rows(result, rows)
    _rule_rows(result, rows, index)
    _cnf_rows(result, rows)
    _graph_rows(result, rows, index)
    _box_rows(payload, rows)
    for position, problem in enumerate(result.problems):
        src = {"file": problem.file, "line": problem.line, "text": problem.text}
        document, statement = index.find(src)
        rows["problems"].append((position, problem.file, problem.line, problem.reason,
                                 problem.text, int(problem.fatal), document, statement))
    return rows


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


class _StatementIndex:
    """Finds the view statement a rule source (file, line, text) was read from."""

    def __init__(self) -> None:
        self.documents: set[str] = set()
        self.ids: set[tuple[str, str]] = set()
        self.by_line: dict[tuple[str, int], list[tuple[str, str, int | None]]] = {}
        self.chunks: dict[tuple[str, str], tuple[str, ...]] = {}  # chunk -> its statements

    def add(self, document: str, statement_id: str, line: int, text: str,
            page: int | None) -> None:
        self.ids.add((document, statement_id))
        self.by_line.setdefault((document, line), []).append((statement_id, text, page))

    def find(self, source: Mapping[str, Any]) -> tuple[str | None, str | None]:
        """(document, statement id); the id is None when no view statement matches."""
        file = source.get("file")
        if not isinstance(file, str) or file not in self.documents:
            return None, None
        given = source.get("statement")
        if isinstance(given, str) and (file, given) in self.ids:
            return file, given
        candidates = [(sid, st_text) for sid, st_text, page in
                      self.by_line.get((file, int(source.get("line") or 0)), [])
                      if source.get("page") is None or page == source.get("page")]
        text = _fold(str(source.get("text", "")))
        for statement_id, st_text in candidates:
            if _fold(st_text) == text:
                return file, statement_id
        for statement_id, st_text in candidates:
            if text and (text in _fold(st_text) or _fold(st_text) in text):
                return file, statement_id
        if len(candidates) == 1:
            return file, candidates[0][0]
        return file, None


def _fold(text: str) -> str:
    return " ".join(text.split())


def _document_rows(doc: Any, rows: dict[str, list[Row]], index: _StatementIndex) -> None:
    views = getattr(doc, "views", None)
    rel = str(doc.rel)
    index.documents.add(rel)
    kind = str(views.kind) if views is not None else _DOC_KINDS.get(Path(rel).suffix.lower(),
                                                                      "other")
    text = str(views.text) if views is not None else None
    rows["documents"].append((rel, doc.sha256, kind, len(text) if text is not None else None,
                              text))
    if views is None:
        return
    for page in views.pages:
        rows["pages"].append((rel, page.number, page.start, page.end, page.text))
    section_ids = {s.id for s in views.sections}
    for s in views.sections:
        parent = s.parent if s.parent in section_ids else None
        rows["sections"].append((rel, s.id, s.title, s.level, s.number, s.page, s.line, s.start,
                                 s.end, parent))
    paragraphs = sorted(views.paragraphs, key=lambda p: (p.start, p.end))
    for p in views.paragraphs:
        section = p.section if p.section in section_ids else None
        rows["paragraphs"].append((rel, p.id, section, p.page, p.line, p.start, p.end, p.text))
    chunk_of: dict[str, str] = {}
    for c in views.chunks:
        for statement_id in c.statement_ids:
            chunk_of.setdefault(statement_id, c.id)
        index.chunks[(rel, c.id)] = tuple(c.statement_ids)
        rows["chunks"].append((rel, c.id, c.sha256, c.label, c.page, c.start, c.end,
                               len(c.statement_ids), c.text))
    starts = [p.start for p in paragraphs]
    sections = sorted(views.sections, key=lambda s: (s.start, -s.end))
    title_of: dict[str, str] = {}
    for s in sections:
        title_of.setdefault(s.id, s.title)  # the first, as a scan in this order finds it
    offsets = [getattr(st, "start", -1) for st in views.statements]
    innermost = _innermost(sections, [o for o in offsets if o is not None and o >= 0])
    for n, st in enumerate(views.statements):
        statement_id = str(getattr(st, "id", "") or f"{rel}:{st.line}:{n}")
        start = getattr(st, "start", -1)
        end = getattr(st, "end", -1)
        start, end = (start, end) if start is not None and start >= 0 else (None, None)
        paragraph = _containing(paragraphs, starts, start)
        section = _section_of(st, paragraph, sections, section_ids, start,
                              innermost.get(start) if start is not None else None)
        title = (title_of.get(section) if section is not None else None) or st.section or None
        page = getattr(st, "page", None)
        index.add(rel, statement_id, st.line, st.text, page)
        rows["statements"].append((
            rel, statement_id, st.kind, "other", page, st.line, start, end, section, title,
            paragraph.id if paragraph is not None else None, chunk_of.get(statement_id),
            st.marker, st.number, st.block, st.text, getattr(st, "parse_text", "") or None))
    for t in views.tables:
        rows["tables"].append((rel, t.id, t.page, t.line, _json(list(t.header)), len(t.rows)))
        for r, (cells, line) in enumerate(zip(t.rows, t.row_lines, strict=False)):
            rows["table_rows"].append((rel, t.id, r, line, _json(list(cells))))


def _containing(paragraphs: list[Any], starts: list[int], offset: int | None) -> Any:
    if offset is None:
        return None
    i = bisect.bisect_right(starts, offset) - 1
    if i >= 0 and paragraphs[i].start <= offset < max(paragraphs[i].end, paragraphs[i].start + 1):
        return paragraphs[i]
    return None


def _innermost(sections: list[Any], offsets: list[int]) -> dict[int, Any]:
    """For each offset, the innermost (deepest, then latest) section whose span holds it,
    in one sweep over sections sorted by start: a heap of the open ones by end, and one
    by depth with stale entries skipped (n log n, not statements times sections)."""
    out: dict[int, Any] = {}
    by_end: list[tuple[int, int]] = []
    by_depth: list[tuple[int, int, int]] = []
    closed: set[int] = set()
    k = 0
    for offset in sorted(set(offsets)):
        while k < len(sections) and sections[k].start <= offset:
            sec = sections[k]
            heapq.heappush(by_end, (sec.end, k))
            heapq.heappush(by_depth, (-sec.level, -sec.start, k))
            k += 1
        while by_end and by_end[0][0] <= offset:
            closed.add(heapq.heappop(by_end)[1])
        while by_depth and by_depth[0][2] in closed:
            heapq.heappop(by_depth)
        if by_depth:
            out[offset] = sections[by_depth[0][2]]
    return out


def _section_of(st: Any, paragraph: Any, sections: list[Any], ids: set[str],
                offset: int | None, around: Any = None) -> str | None:
    """The statement's section id: its paragraph's, else the innermost section around it,
    else the one its `section` field names (an id, or a title standing before it)."""
    if paragraph is not None and paragraph.section in ids:
        return str(paragraph.section)
    if offset is not None and around is not None:  # the innermost section holding it
        return str(around.id)
    if st.section in ids:
        return str(st.section)
    named = [s for s in sections if st.section and s.title == st.section and s.line <= st.line]
    return str(named[-1].id) if named else None


def _mark_roles(result: Compiled, rows: dict[str, list[Row]],
                index: _StatementIndex) -> None:
    """Why each statement matters: a rule's, a step's, unreadable, descriptive, a heading."""
    roles: dict[tuple[str, str], str] = {}

    def mark(source: Mapping[str, Any], role: str) -> None:
        document, statement = index.find(source)
        if document is not None and statement is not None:
            roles.setdefault((document, statement), role)

    for rule in result.rules:
        mark(rule.source, "rule")
        for step in rule.steps:
            mark(step.source, "step")
    for problem in result.problems:
        if problem.fatal:
            mark({"file": problem.file, "line": problem.line, "text": problem.text}, "unreadable")
    for st in result.descriptive:
        mark({"file": st.file, "line": st.line, "text": st.text,
              "statement": getattr(st, "id", None)}, "descriptive")
    out = rows["statements"]
    for i, row in enumerate(out):
        role = roles.get((row[0], row[1])) or ("heading" if row[2] == "heading" else "other")
        roles[(row[0], row[1])] = role
        out[i] = (*row[:3], role, *row[4:])
    chunks = rows["chunks"]
    for i, row in enumerate(chunks):
        if not row[3]:  # not classified by the extractor: label it from its statements
            found = {roles.get((row[0], sid), "other") for sid in index.chunks[(row[0], row[1])]}
            found.discard("heading")
            ruled = {"rule", "step", "unreadable"}  # an unreadable one still reads as a rule
            label = ("descriptive" if not found & ruled else
                     "rule" if found <= ruled else "mixed")
            chunks[i] = (*row[:3], label, *row[4:])


def _parameter_rows(result: Compiled, rows: dict[str, list[Row]]) -> None:
    for axis, p in enumerate(result.payload["parameters"]):
        info = result.params.params.get(p["name"])
        low, high = p["range"] if p["range"] is not None else (None, None)
        rows["parameters"].append((
            p["name"], axis, p["unit"], _json(p["aliases"]), _finite(low), _finite(high),
            p["deadband"], p["max_age_s"], p["channel"],
            int(bool(info is not None and info.inferred))))


def _finite(value: float | None) -> float | None:
    return None if value is None or value in (float("inf"), float("-inf")) else float(value)


def _converter(result: Compiled) -> ThresholdConverter:
    return ThresholdConverter.of_table(result.params)


def _rule_rows(result: Compiled, rows: dict[str, list[Row]],
               index: _StatementIndex) -> None:
    entries = {entry["id"]: (i, entry) for i, entry in enumerate(result.payload["rules"])}
    variables = {v["name"] for v in result.payload["cnf"]["variables"]}
    step_vars = {v["name"]: n for n, v in enumerate(result.payload["cnf"]["variables"], 1)
                 if v["kind"] == "step"}
    conv = _converter(result)
    for rule in result.rules:
        src = rule.source
        document, statement = index.find(src)
        position, entry = entries.get(rule.id, (None, None))
        condition = condition_to_json(rule.condition) if rule.condition is not None else None
        rows["rules"].append((
            rule.id, rule.kind, entry["severity"] if entry else None,
            entry["action"] if entry else "", entry["template"] if entry else "",
            entry["condition_text"] if entry else "",
            _json(condition) if condition is not None else None,
            float(rule.duration_s) if rule.duration_s is not None else None,
            int(rule.duration_inclusive), rule.title or None, position, document, statement,
            str(src.get("file", "")), int(src.get("line", 0)), src.get("page"),
            src.get("section"), str(src.get("text", "")), _json(src), _json(rule.notes)))
        if rule.condition is not None:
            for n, (atom, path, negated) in enumerate(_atoms(rule.condition, "$", False)):
                rows["conditions"].append(_condition_row(rule.id, n, atom, path, negated, conv,
                                                         variables))
        if rule.kind == PROCEDURE:
            rows["procedures"].append((rule.id, rule.title, len(rule.steps)))
            for n, step in enumerate(rule.steps, 1):
                s = step.source
                document, statement = index.find(s)
                rows["procedure_steps"].append((
                    rule.id, n, step.text, document, statement, str(s.get("file", "")),
                    int(s.get("line", 0)), s.get("page"), str(s.get("text", "")),
                    step_vars.get(f"{rule.id}#{n}")))


def _atoms(cond: Condition, path: str, negated: bool) -> Iterator[tuple[Atom, str, bool]]:
    """Each comparison with its JSON path into the condition and whether it is negated."""
    if isinstance(cond, Atom):
        yield cond, path, negated
    elif isinstance(cond, Not):
        yield from _atoms(cond.item, f"{path}.not", not negated)
    else:
        key = "all" if isinstance(cond, All) else "any"
        for i, item in enumerate(cond.items):
            yield from _atoms(item, f"{path}.{key}[{i}]", negated)


def _condition_row(rule_id: str, position: int, atom: Atom, path: str, negated: bool,
                   conv: ThresholdConverter, variables: set[str]) -> Row:
    low, high = atom.value if isinstance(atom.value, tuple) else (atom.value, None)
    m_low: float | None = None
    m_high: float | None = None
    name: str | None = None
    try:
        intervals = conv.intervals(atom)
        m_low, m_high = _manifest_values(atom.op, intervals)
        name = atom_name(atom, conv)
        if atom.states:  # a state comparison: its first and last state's index
            low, high = Decimal(str(m_low)), Decimal(str(m_high))
    except (UnitError, ValueError):
        pass
    return (rule_id, position, path, int(negated), atom.param, atom.op, float(low),
            float(high) if high is not None else None, atom.unit, atom.label, atom.describe(),
            conv.units.get(atom.param), m_low, m_high, name if name in variables else None)


def _manifest_values(op: str, intervals: list[Interval]) -> tuple[float | None, float | None]:
    """The comparison's number(s) in the manifest unit, as the boxes use them."""
    def f(x: Fraction | None) -> float | None:
        return float(x) if x is not None else None

    first = intervals[0]
    if op == "in":  # states: the first and the last index
        return f(first.lo), f(intervals[-1].hi)
    if op in (">", ">=", "=="):
        return f(first.lo), None
    if op in ("<", "<="):
        return f(first.hi), None
    if op == "between":
        return f(first.lo), f(first.hi)
    return f(first.hi), f(intervals[-1].lo)  # outside: (-inf, low) u (high, inf)


def _cnf_rows(result: Compiled, rows: dict[str, list[Row]]) -> None:
    cnf = result.payload["cnf"]
    variables = cnf["variables"]
    params = result.params.params
    for n, v in enumerate(variables, 1):
        param = v["name"].split(" in ", 1)[0] if v["kind"] == "condition" else None
        rows["cnf_variables"].append((n, v["name"], v["kind"],
                                      param if param in params else None))
    rule_ids = [entry["id"] for entry in result.payload["rules"]]
    start = _ints(cnf["start"])
    literals = _ints(cnf["literals"])
    clause_rule = _ints(cnf["clause_rule"])
    for c, owner in enumerate(clause_rule):
        lits = literals[start[c]:start[c + 1]]
        rule: str | None = rule_ids[owner] if owner >= 0 else None
        origin = "rule"
        if rule is None:
            names = [variables[abs(x) - 1] for x in lits]
            procs = [v["name"].rsplit("#", 1)[0] for v in names
                     if v["kind"] in ("procedure", "step")]
            rule, origin = (procs[0], "procedure") if procs else (None, "relation")
        text = " OR ".join(("NOT " if x < 0 else "") + f"[{variables[abs(x) - 1]['name']}]"
                           for x in lits)
        rows["clauses"].append((c, rule, origin, " ".join(str(x) for x in lits), text))
        for p, x in enumerate(lits):
            rows["clause_literals"].append((c, p, x, abs(x), int(x < 0)))


def _ints(raw: bytes) -> list[int]:
    import numpy as np

    return [int(x) for x in np.frombuffer(raw, dtype="<i4")]


def _graph_rows(result: Compiled, rows: dict[str, list[Row]],
                index: _StatementIndex) -> None:
    import numpy as np

    graph = result.payload["graph"]
    rule_ids = {r.id for r in result.rules}
    params = set(result.params.params)
    variables = {(v["kind"], v["name"]): n
                 for n, v in enumerate(result.payload["cnf"]["variables"], 1)}
    descriptive: dict[str, Mapping[str, Any]] = {}
    for st in result.descriptive:
        descriptive.setdefault(st.where, {
            "file": st.file, "line": st.line, "text": st.text,
            "statement": getattr(st, "id", None)})
    for n, node in enumerate(graph["nodes"]):
        kind, label = node["kind"], node["label"]
        document, statement = (index.find(descriptive[label]) if kind == "statement"
                               and label in descriptive else (None, None))
        rows["graph_nodes"].append((
            n, kind, label, label if kind == "rule" and label in rule_ids else None,
            label if kind == "parameter" and label in params else None,
            variables.get((kind, label)), document, statement))
    indptr = _ints(graph["indptr"])
    indices = _ints(graph["indices"])
    etype = np.frombuffer(graph["etype"], dtype="u1").tolist()
    types = graph["edge_types"]
    for src in range(len(graph["nodes"])):
        for k in range(indptr[src], indptr[src + 1]):
            rows["graph_edges"].append((src, types[etype[k]], indices[k]))


def _box_rows(payload: Mapping[str, Any], rows: dict[str, list[Row]]) -> None:
    import numpy as np

    boxes = payload["boxes"]
    names = [p["name"] for p in payload["parameters"]]
    rule_ids = [entry["id"] for entry in payload["rules"]]
    start = _ints(boxes["start"])
    axis = _ints(boxes["axis"])
    lo = np.frombuffer(boxes["lo"], dtype="<f8").tolist()
    hi = np.frombuffer(boxes["hi"], dtype="<f8").tolist()
    flags = np.frombuffer(boxes["flags"], dtype="u1").tolist()
    for b, owner in enumerate(_ints(boxes["rule"])):
        for p, c in enumerate(range(start[b], start[b + 1])):
            rows["boxes"].append((b, p, rule_ids[owner], names[axis[c]], _finite(lo[c]),
                                  _finite(hi[c]), flags[c] & 1, (flags[c] >> 1) & 1))
