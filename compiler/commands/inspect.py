"""`rulec sql`, `rulec explain` and `rulec diff`: look into what a compile produced.

`sql` runs one read-only query on a knowledge base.  `explain` prints a rule with its
source, condition, clauses, graph edges and exact box bounds, from a bundle alone or,
richer, from a knowledge base.  `diff` lists the rules two bundles (or knowledge bases)
add, remove and change, and exits 1 when they differ.  Errors are one line, naming the
file.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulec.compiler.kb.store import (
    KB_SCHEMA_VERSION,
    SQLITE_MAGIC,
    KnowledgeBaseError,
    default_kb_path,
)
from rulec.runtime.bundle.loader import RuleSpec

EXIT_SAME = 0
EXIT_DIFFERENT = 1
INF = math.inf

# Pragmas that only describe the schema (their argument names a table or an index) and
# pragmas that are read-only when given no value.
_SCHEMA_PRAGMAS = {"table_info", "table_xinfo", "table_list", "index_list", "index_info",
                   "index_xinfo", "foreign_key_list"}
_VALUE_PRAGMAS = {"user_version", "application_id", "schema_version", "page_count",
                  "page_size", "encoding"}
_REFUSED = ("not authorized", "authorization denied", "readonly", "read-only",
            "may not be modified")
_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
            sqlite3.SQLITE_RECURSIVE}


def register(subparsers: Any) -> None:
    """Add `sql`, `explain` and `diff` to the `rulec` sub-command parser."""
    p = subparsers.add_parser(
        "sql", help="run a read-only SQL query on a knowledge base",
        description="Run one SELECT on a knowledge base (docs/knowledge-base.md lists its "
        "tables); writes are refused.")
    p.add_argument("kb", type=Path, metavar="KB")
    p.add_argument("query", metavar="SQL")
    p.add_argument("--json", action="store_true", help="one JSON object per row")
    p.add_argument("--max-width", type=int, default=60, metavar="N",
                   help="cut longer cells in the table (0: never; default 60)")
    p.add_argument("--timeout-s", type=float, default=10.0, metavar="S",
                   help="stop a query that runs longer (default %(default)s)")
    p.add_argument("--max-rows", type=int, default=10_000, metavar="N",
                   help="print at most N rows, saying so on stderr (default %(default)s)")
    p.set_defaults(run=run_sql)

    p = subparsers.add_parser(
        "explain", help="a rule with its source, clauses, graph edges and boxes",
        description="Explain one rule from a bundle or a knowledge base.  Given a bundle, "
        "the knowledge base beside it (BUNDLE.kb.sqlite) is used when it matches.")
    p.add_argument("target", type=Path, metavar="BUNDLE_OR_KB")
    p.add_argument("rule", metavar="RULE_ID")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--bundle-only", action="store_true",
                   help="ignore a knowledge base beside the bundle")
    p.set_defaults(run=run_explain)

    p = subparsers.add_parser(
        "diff", help="rules added, removed and changed between two bundles",
        description="Compare two bundles (or knowledge bases).  Exit status 0 when they hold "
        "the same rules, parameters and procedures, 1 when they differ.")
    p.add_argument("old", type=Path, metavar="OLD")
    p.add_argument("new", type=Path, metavar="NEW")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=run_diff)


# ---------------------------------------------------------------- sql


def open_kb(path: Path) -> sqlite3.Connection:
    """Open a knowledge base read-only: `mode=ro`, `query_only` and an authorizer that lets
    through nothing but reading."""
    try:
        with open(path, "rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise KnowledgeBaseError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if head != SQLITE_MAGIC:
        raise KnowledgeBaseError(f"{path}: not a knowledge base (not an SQLite file)")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                               isolation_level=None)
        conn.execute("PRAGMA query_only=ON")
    except sqlite3.Error as exc:
        raise KnowledgeBaseError(f"{path}: cannot open: {exc}") from None
    conn.set_authorizer(_read_only)
    return conn


def _read_only(action: int, arg1: str | None, arg2: str | None, _db: str | None,
               _trigger: str | None) -> int:
    if action in _ALLOWED:
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master":
        # SQLite registers an eponymous table (pragma_table_info, json_each) on first use
        # this way; a user cannot write sqlite_master without writable_schema, refused below.
        return sqlite3.SQLITE_OK
    if action == sqlite3.SQLITE_PRAGMA:
        name = (arg1 or "").lower()
        if name in _SCHEMA_PRAGMAS or (name in _VALUE_PRAGMAS and arg2 is None):
            return sqlite3.SQLITE_OK
    return sqlite3.SQLITE_DENY


def query_kb(path: Path, sql: str, conn: sqlite3.Connection | None = None,
             timeout_s: float | None = None, max_rows: int | None = None
             ) -> tuple[list[str], list[tuple[Any, ...]]]:
    """(column names, rows) of one read-only query; refused writes and bad SQL raise
    KnowledgeBaseError.  ``timeout_s`` stops a query that runs longer (a recursive CTE
    can run for ever); ``max_rows`` keeps the first rows only (one more is fetched, so
    the caller can tell: ``len(rows) > max_rows``)."""
    own = conn is None
    conn = open_kb(path) if conn is None else conn
    if timeout_s is not None:
        deadline = time.monotonic() + timeout_s
        conn.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        cur = conn.execute(sql)
        rows = cur.fetchall() if max_rows is None else cur.fetchmany(max_rows + 1)
        columns = [d[0] for d in cur.description or ()]
    except (sqlite3.Error, sqlite3.Warning) as exc:
        text = str(exc)
        if timeout_s is not None and "interrupted" in text:
            raise KnowledgeBaseError(f"{path}: the query ran longer than {timeout_s:g} s and "
                                     "was stopped (--timeout-s raises the limit)") from None
        if any(word in text for word in _REFUSED):
            verb = (sql.split() or ["?"])[0].upper()
            raise KnowledgeBaseError(f"{path}: the knowledge base is read-only: only SELECT "
                                     f"queries are allowed ({verb} refused)") from None
        raise KnowledgeBaseError(f"{path}: SQL error: {text}") from None
    finally:
        if timeout_s is not None:
            conn.set_progress_handler(None, 0)
        if own:
            conn.close()
    return columns, rows


def run_sql(args: argparse.Namespace) -> int:
    if args.timeout_s <= 0 or args.max_rows < 1:
        raise KnowledgeBaseError("--timeout-s must be above 0 and --max-rows at least 1")
    columns, rows = query_kb(args.kb, args.query, timeout_s=args.timeout_s,
                             max_rows=args.max_rows)
    if len(rows) > args.max_rows:
        rows = rows[:args.max_rows]
        print(f"rulec: sql: stopped at {args.max_rows} rows (--max-rows raises the cap)",
              file=sys.stderr)
    if args.json:
        for row in rows:
            print(json.dumps({c: _json_value(v) for c, v in zip(columns, row, strict=True)},
                             ensure_ascii=False))
        return 0
    print(format_table(columns, rows, args.max_width))
    return 0


def _json_value(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def format_table(columns: list[str], rows: list[tuple[Any, ...]], max_width: int = 60) -> str:
    """Rows as an aligned text table, NULL shown as NULL, long cells cut with '…'."""
    def cell(value: Any) -> str:
        if value is None:
            text = "NULL"
        elif isinstance(value, float):
            text = fmt_number(value)
        elif isinstance(value, bytes):
            text = value.hex()
        else:
            text = str(value).replace("\n", "\\n")
        if max_width > 0 and len(text) > max_width:
            text = text[:max_width - 1] + "…"
        return text

    body = [[cell(v) for v in row] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in body)]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
              for r in body]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def fmt_number(x: float) -> str:
    """A double exactly: the shortest text that reads back to it (600.0 as 600)."""
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x.is_integer() and abs(x) < 2.0**53:
        return str(int(x))
    return repr(x)


# ---------------------------------------------------------------- a common model


@dataclass(frozen=True)
class Bound:
    """One constraint of a box: lo/hi in the parameter's unit, +-inf when unbounded."""

    param: str
    lo: float
    hi: float
    lo_inclusive: bool
    hi_inclusive: bool

    def text(self, unit: str) -> str:
        u = f" {unit}" if unit else ""
        lo, hi = fmt_number(self.lo), fmt_number(self.hi)
        if self.lo == self.hi:
            return f"{self.param} == {lo}{u}"
        if self.lo == -INF:
            return f"{self.param} {'<=' if self.hi_inclusive else '<'} {hi}{u}"
        if self.hi == INF:
            return f"{self.param} {'>=' if self.lo_inclusive else '>'} {lo}{u}"
        return (f"{lo} {'<=' if self.lo_inclusive else '<'} {self.param} "
                f"{'<=' if self.hi_inclusive else '<'} {hi}{u}")

    def to_json(self, unit: str) -> dict[str, Any]:
        return {"param": self.param, "unit": unit, "lo": _json_value(self.lo),
                "hi": _json_value(self.hi), "lo_inclusive": self.lo_inclusive,
                "hi_inclusive": self.hi_inclusive, "text": self.text(unit)}



@dataclass
class Model:
    """What explain and diff need, read from a bundle or from a knowledge base."""

    path: Path
    origin: str  # "bundle" | "knowledge base"
    bundle_id: str
    units: dict[str, str] = field(default_factory=dict)
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    rules: dict[str, RuleSpec] = field(default_factory=dict)
    boxes: dict[str, list[list[Bound]]] = field(default_factory=dict)
    variables: list[tuple[str, str]] = field(default_factory=list)  # (name, kind)
    clauses: list[tuple[tuple[int, ...], str | None]] = field(default_factory=list)
    nodes: list[tuple[str, str]] = field(default_factory=list)  # (kind, label)
    edges: list[tuple[int, str, int]] = field(default_factory=list)
    procedures: dict[str, dict[str, Any]] = field(default_factory=dict)
    kb: sqlite3.Connection | None = None

    def close(self) -> None:
        if self.kb is not None:
            self.kb.close()
            self.kb = None


def is_knowledge_base(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def load_model(path: Path) -> Model:
    """A bundle (checked by the runtime loader) or a knowledge base, whichever `path` is."""
    return _model_from_kb(path) if is_knowledge_base(path) else _model_from_bundle(path)


def _clause_owner(lits: tuple[int, ...], variables: list[tuple[str, str]],
                  owner: str | None) -> str | None:
    """A procedure's chain clauses carry no rule index in a bundle: name the procedure."""
    if owner is not None:
        return owner
    for lit in lits:
        name, kind = variables[abs(lit) - 1]
        if kind in ("procedure", "step"):
            return name.rsplit("#", 1)[0]
    return None


def _model_from_bundle(path: Path) -> Model:
    from rulec.runtime.bundle.loader import load_bundle

    b = load_bundle(path)
    m = Model(path, "bundle", str(b.meta.get("bundle_id", "")))
    for p in b.parameters:
        m.units[p.name] = p.unit
        m.parameters[p.name] = {
            "unit": p.unit, "aliases": list(p.aliases), "range": [_json_value(p.range_lo),
                                                                  _json_value(p.range_hi)],
            "deadband": p.deadband, "max_age_s": p.max_age_s, "channel": p.channel}
    for r in b.rules:
        m.rules[r.id] = r
        m.boxes[r.id] = []
    bx = b.boxes
    for i in range(bx.n_boxes):
        box = [Bound(b.parameters[int(bx.axis[c])].name, float(bx.lo[c]), float(bx.hi[c]),
                     bool(bx.flags[c] & 1), bool(bx.flags[c] & 2))
               for c in range(int(bx.start[i]), int(bx.start[i + 1]))]
        m.boxes[b.rules[int(bx.rule[i])].id].append(box)
    m.variables = [(v.name, v.kind) for v in b.cnf.variables]
    for i in range(b.cnf.n_clauses):
        lits = tuple(int(x) for x in b.cnf.literals[b.cnf.start[i]:b.cnf.start[i + 1]])
        index = int(b.cnf.clause_rule[i])
        owner = b.rules[index].id if index >= 0 else None
        m.clauses.append((lits, _clause_owner(lits, m.variables, owner)))
    g = b.graph
    m.nodes = [(n.kind, n.label) for n in g.nodes]
    for src in range(len(g.nodes)):
        for k in range(int(g.indptr[src]), int(g.indptr[src + 1])):
            m.edges.append((src, g.edge_types[int(g.etype[k])], int(g.indices[k])))
    for proc in b.procedures:
        m.procedures[str(proc["id"])] = {
            "title": proc.get("title", ""), "source": dict(proc.get("source", {})),
            "steps": [{"text": s.get("text", ""), "source": dict(s.get("source", {}))}
                      for s in proc.get("steps", [])]}
    return m


def _model_from_kb(path: Path) -> Model:
    conn = open_kb(path)

    def q(sql: str, *params: Any) -> list[tuple[Any, ...]]:
        try:
            return conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise KnowledgeBaseError(f"{path}: not a rulec knowledge base: {exc}") from None

    try:
        return _read_model(path, q, conn)
    except BaseException:
        conn.close()
        raise


def _read_model(path: Path, q: Any, conn: sqlite3.Connection) -> Model:
    meta = dict(q("SELECT key, value FROM meta"))
    if meta.get("kb_schema") != str(KB_SCHEMA_VERSION):
        raise KnowledgeBaseError(f"{path}: knowledge base schema {meta.get('kb_schema')} is "
                                 f"not supported (this rulec reads {KB_SCHEMA_VERSION})")
    m = Model(path, "knowledge base", meta.get("bundle_id", ""), kb=conn)
    for name, unit, aliases, lo, hi, deadband, max_age, channel in q(
            "SELECT name, unit, aliases, range_lo, range_hi, deadband, max_age_s, channel "
            "FROM parameters ORDER BY axis"):
        m.units[name] = unit
        m.parameters[name] = {"unit": unit, "aliases": json.loads(aliases), "range": [lo, hi],
                              "deadband": deadband, "max_age_s": max_age, "channel": channel}
    for row in q("SELECT id, kind, severity, action, template, condition_text, duration_s, "
                 "duration_inclusive, source_json FROM rules WHERE bundle_index IS NOT NULL "
                 "ORDER BY bundle_index"):
        m.rules[row[0]] = RuleSpec(row[0], row[1], row[2] or "", row[3], row[4], row[5],
                                   row[6], bool(row[7]), json.loads(row[8]))
        m.boxes[row[0]] = []
    current = -1
    for box, rule, param, lo, hi, lo_in, hi_in in q(
            "SELECT box, rule, parameter, lo, hi, lo_inclusive, hi_inclusive FROM boxes "
            "ORDER BY box, position"):
        if box != current:
            m.boxes[rule].append([])
            current = box
        m.boxes[rule][-1].append(Bound(param, -INF if lo is None else lo,
                                       INF if hi is None else hi, bool(lo_in), bool(hi_in)))
    m.variables = q("SELECT name, kind FROM cnf_variables ORDER BY number")
    lits_of: dict[int, list[int]] = {}
    for clause, literal in q("SELECT clause, literal FROM clause_literals "
                             "ORDER BY clause, position"):
        lits_of.setdefault(clause, []).append(literal)
    for clause, rule in q("SELECT id, rule FROM clauses ORDER BY id"):
        m.clauses.append((tuple(lits_of.get(clause, [])), rule))
    m.nodes = q("SELECT kind, label FROM graph_nodes ORDER BY id")
    m.edges = q("SELECT src, type, dst FROM graph_edges ORDER BY src, type, dst")
    for pid, title, src in q("SELECT r.id, p.title, r.source_json FROM procedures p "
                             "JOIN rules r ON r.id = p.id ORDER BY r.rowid"):
        steps = [{"text": text, "source": {"file": f, "line": line, "text": st}}
                 for text, f, line, st in q(
                     "SELECT text, source_file, source_line, source_text FROM procedure_steps "
                     "WHERE procedure = ? ORDER BY number", pid)]
        m.procedures[pid] = {"title": title, "source": json.loads(src), "steps": steps}
    return m


# ---------------------------------------------------------------- explain


def run_explain(args: argparse.Namespace) -> int:
    target: Path = args.target
    model = load_model(target)
    if model.origin == "bundle" and not args.bundle_only:
        beside = default_kb_path(target)
        if beside.is_file():
            try:
                kb_model: Model | None = _model_from_kb(beside)
            except KnowledgeBaseError:
                kb_model = None  # not ours or unreadable: the bundle alone still explains
            if kb_model is not None and kb_model.bundle_id == model.bundle_id:
                model = kb_model
            elif kb_model is not None:
                kb_model.close()
    try:
        info = explain_rule(model, args.rule)
    finally:
        model.close()
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
    else:
        print(render_explanation(info))
    return 0


def explain_rule(m: Model, rule_id: str) -> dict[str, Any]:
    """Everything known about one rule (or procedure), as a JSON-ready dict."""
    rule = m.rules.get(rule_id)
    proc = m.procedures.get(rule_id)
    if rule is None and proc is None:
        known = [*m.rules, *m.procedures]
        close = difflib.get_close_matches(rule_id, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise KnowledgeBaseError(f"{m.path}: no rule {rule_id!r} in this {m.origin}{hint}")
    out: dict[str, Any] = {"id": rule_id, "from": {"path": str(m.path), "kind": m.origin,
                                                    "bundle_id": m.bundle_id}}
    if rule is not None:
        out.update({"kind": rule.kind, "severity": rule.severity, "action": rule.action,
                    "template": rule.template, "condition": rule.condition_text,
                    "duration_s": rule.duration_s,
                    "duration_inclusive": rule.duration_inclusive, "source": rule.source})
    else:
        assert proc is not None
        out.update({"kind": "procedure", "title": proc["title"], "source": proc["source"],
                    "steps": proc["steps"]})
    out["clauses"] = [
        {"index": i, "literals": list(lits), "text": _clause_text(m, lits)}
        for i, (lits, owner) in enumerate(m.clauses) if owner == rule_id]
    out["edges"] = _edges_of(m, rule_id)
    out["related_rules"] = _related_rules(m, rule_id)
    out["boxes"] = [[b.to_json(m.units.get(b.param, "")) for b in box]
                    for box in m.boxes.get(rule_id, [])]
    if m.kb is not None:
        out.update(_kb_details(m.kb, rule_id))
    return out


def _clause_text(m: Model, lits: tuple[int, ...]) -> str:
    return " OR ".join(("NOT " if x < 0 else "") + f"[{m.variables[abs(x) - 1][0]}]"
                       for x in lits)


def _rule_node(m: Model, rule_id: str) -> int | None:
    return next((i for i, n in enumerate(m.nodes) if n == ("rule", rule_id)), None)


def _edges_of(m: Model, rule_id: str) -> list[dict[str, Any]]:
    """The rule node's edges, and for a procedure those of its procedure node too."""
    mine = {i for i, n in enumerate(m.nodes) if n in (("rule", rule_id), ("procedure", rule_id))}
    out = []
    for src, etype, dst in m.edges:
        if src in mine:
            out.append({"direction": "out", "type": etype, "kind": m.nodes[dst][0],
                        "label": m.nodes[dst][1]})
        elif dst in mine:
            out.append({"direction": "in", "type": etype, "kind": m.nodes[src][0],
                        "label": m.nodes[src][1]})
    return out


def _related_rules(m: Model, rule_id: str) -> list[dict[str, str]]:
    """Other rules sharing a comparison, an action, a procedure or a parameter."""
    out_edges: dict[int, list[tuple[str, int]]] = {}
    for src, etype, dst in m.edges:
        out_edges.setdefault(src, []).append((etype, dst))

    def reach(node: int) -> set[int]:
        near = {dst for _, dst in out_edges.get(node, [])}
        params = {dst for n in near for et, dst in out_edges.get(n, []) if et == "on_parameter"}
        return near | params

    me = _rule_node(m, rule_id)
    if me is None:
        return []
    mine = reach(me)
    related = []
    for i, (kind, label) in enumerate(m.nodes):
        if kind != "rule" or i == me:
            continue
        shared = sorted(mine & reach(i), key=lambda n: (m.nodes[n][0] != "condition", n))
        if shared:
            via = m.nodes[shared[0]]
            related.append({"id": label, "via": f"{via[0]} {via[1]}"})
    return related


def _kb_details(conn: sqlite3.Connection, rule_id: str) -> dict[str, Any]:
    """What only the knowledge base knows: the statement's page, section, paragraph and
    chunk, the document's hash, and each comparison in the manifest unit."""
    out: dict[str, Any] = {}
    row = conn.execute(
        "SELECT r.document, r.statement, d.sha256, s.page, s.line, s.char_start, s.char_end, "
        "s.section, s.section_title, s.paragraph, s.chunk, c.label "
        "FROM rules r LEFT JOIN documents d ON d.path = r.document "
        "LEFT JOIN statements s ON s.document = r.document AND s.id = r.statement "
        "LEFT JOIN chunks c ON c.document = s.document AND c.id = s.chunk "
        "WHERE r.id = ?", (rule_id,)).fetchone()
    if row is not None and row[0] is not None:
        keys = ("document", "statement", "document_sha256", "page", "line", "char_start",
                "char_end", "section", "section_title", "paragraph", "chunk", "chunk_label")
        out["provenance"] = {k: v for k, v in zip(keys, row, strict=True) if v is not None}
    out["comparisons"] = [
        {"path": path, "negated": bool(neg), "text": text, "manifest_unit": unit,
         "manifest_value": mv, "manifest_value_hi": mvh, "variable": var}
        for path, neg, text, unit, mv, mvh, var in conn.execute(
            "SELECT path, negated, text, manifest_unit, manifest_value, manifest_value_hi, "
            "variable FROM conditions WHERE rule = ? ORDER BY position", (rule_id,))]
    return out


def render_explanation(info: dict[str, Any]) -> str:
    src = info.get("source", {})
    origin = info["from"]
    lines = [f"{info['id']}  {info['kind']}"
             + (f"  {info['severity']}" if info.get("severity") else "")
             + f"   (from {origin['kind']} {origin['path']}, bundle {origin['bundle_id']})"]
    for key in ("title", "condition", "action", "template"):
        if info.get(key):
            lines.append(f"  {key + ':':<10} {info[key]}")
    if info.get("duration_s") is not None:
        op = ">=" if info.get("duration_inclusive") else ">"
        lines.append(f"  {'duration:':<10} held for {op} {fmt_number(info['duration_s'])} s")
    lines.append("source")
    where = f"{src.get('file')}:{src.get('line')}"
    prov = info.get("provenance", {})
    page = src.get("page", prov.get("page"))
    if page is not None:
        where += f", page {page}"
    section = src.get("section") or prov.get("section_title")
    if section:
        where += f", section {section!r}"
    lines += [f"  {where}", f"  \"{src.get('text', '')}\""]
    if prov:
        extra = [f"document sha256 {str(prov.get('document_sha256', ''))[:16]}…"]
        if "statement" in prov:
            extra.append(f"statement {prov['statement']}")
        if "char_start" in prov:
            extra.append(f"chars {prov['char_start']}-{prov.get('char_end')}")
        if "paragraph" in prov:
            extra.append(f"paragraph {prov['paragraph']}")
        if "chunk" in prov:
            extra.append(f"chunk {prov['chunk']} ({prov.get('chunk_label')})")
        lines.append("  " + ", ".join(extra))
    if info.get("steps"):
        lines.append(f"steps ({len(info['steps'])})")
        lines += [f"  {n}. {s['text']}" for n, s in enumerate(info["steps"], 1)]
    if info.get("comparisons"):
        lines.append("comparisons (as written -> in the manifest unit)")
        for c in info["comparisons"]:
            value = "" if c["manifest_value"] is None else fmt_number(c["manifest_value"])
            if c["manifest_value_hi"] is not None:
                value += f" .. {fmt_number(c['manifest_value_hi'])}"
            neg = "  (negated)" if c["negated"] else ""
            lines.append(f"  {c['path']:<12} {c['text']}  ->  {value} {c['manifest_unit'] or ''}"
                         f"{neg}".rstrip())
    lines.append(f"clauses ({len(info['clauses'])})")
    lines += [f"  #{c['index']:<4} {' '.join(map(str, c['literals'])):<12} {c['text']}"
              for c in info["clauses"]]
    lines.append(f"graph edges ({len(info['edges'])})")
    lines += [f"  {'->' if e['direction'] == 'out' else '<-'} {e['type']:<14} {e['kind']:<10} "
              f"{e['label']}" for e in info["edges"]]
    if info["related_rules"]:
        lines.append(f"related rules ({len(info['related_rules'])})")
        lines += [f"  {r['id']:<14} via {r['via']}" for r in info["related_rules"]]
    lines.append(f"boxes ({len(info['boxes'])})")
    for n, box in enumerate(info["boxes"]):
        lines.append(f"  box {n}: " + " and ".join(b["text"] for b in box))
    return "\n".join(lines)


# ---------------------------------------------------------------- diff


_RULE_FIELDS = ("kind", "severity", "condition_text", "action", "template", "duration_s",
                "duration_inclusive", "revision")
_FIELD_NAMES = {"condition_text": "condition"}


def diff_models(old: Model, new: Model) -> dict[str, Any]:
    """Rules, parameters and procedures added, removed and changed; provenance-only moves
    are listed apart and do not make the two differ."""
    rules: dict[str, list[Any]] = {"added": [], "removed": [], "changed": [], "moved": []}
    for rid, rule in new.rules.items():
        if rid not in old.rules:
            rules["added"].append(_rule_summary(rule))
    for rid, rule in old.rules.items():
        if rid not in new.rules:
            rules["removed"].append(_rule_summary(rule))
            continue
        other = new.rules[rid]
        changes = {_FIELD_NAMES.get(f, f): {"old": getattr(rule, f), "new": getattr(other, f)}
                   for f in _RULE_FIELDS if getattr(rule, f) != getattr(other, f)}
        old_boxes, new_boxes = old.boxes.get(rid, []), new.boxes.get(rid, [])
        bounds: list[str] = []
        if old_boxes != new_boxes:
            changes["boxes"] = {
                "old": [[b.to_json(old.units.get(b.param, "")) for b in box] for box in old_boxes],
                "new": [[b.to_json(new.units.get(b.param, "")) for b in box] for box in new_boxes]}
            bounds = _bound_changes(old_boxes, new_boxes, new.units)
        moved = _where(rule.source) != _where(other.source)
        if changes:
            entry = {"id": rid, "changes": changes, "bounds": bounds}
            if moved:
                entry["source"] = {"old": _where(rule.source), "new": _where(other.source)}
            rules["changed"].append(entry)
        elif moved:
            rules["moved"].append({"id": rid, "old": _where(rule.source),
                                   "new": _where(other.source)})
    params = _diff_maps(old.parameters, new.parameters)
    procs = _diff_maps({k: {"title": v["title"], "steps": [s["text"] for s in v["steps"]]}
                        for k, v in old.procedures.items()},
                       {k: {"title": v["title"], "steps": [s["text"] for s in v["steps"]]}
                        for k, v in new.procedures.items()})
    identical = not any((rules["added"], rules["removed"], rules["changed"], *params.values(),
                         *procs.values()))
    return {"identical": identical,
            "old": {"path": str(old.path), "bundle_id": old.bundle_id},
            "new": {"path": str(new.path), "bundle_id": new.bundle_id},
            "rules": rules, "parameters": params, "procedures": procs}


def _rule_summary(rule: RuleSpec) -> dict[str, Any]:
    return {"id": rule.id, "kind": rule.kind, "severity": rule.severity,
            "condition": rule.condition_text, "action": rule.action,
            "source": _where(rule.source)}


def _where(source: dict[str, Any]) -> dict[str, Any]:
    return {k: source[k] for k in ("file", "line", "page", "text") if k in source}


def _bound_changes(old: list[list[Bound]], new: list[list[Bound]], units: dict[str, str]
                   ) -> list[str]:
    """`param lo 600 -> 650 degC` for each bound that moved, when the boxes keep their shape."""
    shape_old = [[b.param for b in box] for box in old]
    if shape_old != [[b.param for b in box] for box in new]:
        return []
    out = []
    for box_old, box_new in zip(old, new, strict=True):
        for a, b in zip(box_old, box_new, strict=True):
            unit = f" {units.get(b.param, '')}".rstrip()
            for side in ("lo", "hi"):
                x, y = getattr(a, side), getattr(b, side)
                xi, yi = getattr(a, f"{side}_inclusive"), getattr(b, f"{side}_inclusive")
                if x != y or xi != yi:
                    incl = " (inclusive)" if yi and not xi else (
                        " (exclusive)" if xi and not yi else "")
                    out.append(f"{b.param} {side} {fmt_number(x)} -> {fmt_number(y)}{unit}{incl}")
    return out


def _diff_maps(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]
               ) -> dict[str, list[Any]]:
    changed = []
    for name in old:
        if name in new and old[name] != new[name]:
            changed.append({"name": name, "changes": {
                k: {"old": old[name].get(k), "new": new[name].get(k)}
                for k in sorted(set(old[name]) | set(new[name]))
                if old[name].get(k) != new[name].get(k)}})
    return {"added": [n for n in new if n not in old],
            "removed": [n for n in old if n not in new], "changed": changed}


def render_diff(d: dict[str, Any]) -> str:
    lines = [f"--- {d['old']['path']} (bundle {d['old']['bundle_id']})",
             f"+++ {d['new']['path']} (bundle {d['new']['bundle_id']})"]
    rules = d["rules"]
    for tag in ("added", "removed"):
        for r in rules[tag]:
            where = f"{r['source'].get('file')}:{r['source'].get('line')}"
            lines.append(f"{tag:<8} {r['id']} [{r['severity']}] {r['kind']}: "
                         f"{r['condition'] or '-'} -> {r['action']}  ({where})")
    for c in rules["changed"]:
        lines.append(f"changed  {c['id']}")
        for name, change in c["changes"].items():
            if name == "boxes":
                old = "; ".join(" and ".join(b["text"] for b in box) for box in change["old"])
                new = "; ".join(" and ".join(b["text"] for b in box) for box in change["new"])
                lines.append(f"  boxes: {old or '(none)'} -> {new or '(none)'}")
            else:
                lines.append(f"  {name}: {_show(change['old'])} -> {_show(change['new'])}")
        lines += [f"  bounds: {b}" for b in c["bounds"]]
    for section in ("parameters", "procedures"):
        part = d[section]
        singular = section[:-1]
        lines += [f"added    {singular} {n}" for n in part["added"]]
        lines += [f"removed  {singular} {n}" for n in part["removed"]]
        for c in part["changed"]:
            what = ", ".join(f"{k} {_show(v['old'])} -> {_show(v['new'])}"
                             for k, v in c["changes"].items())
            lines.append(f"changed  {singular} {c['name']}: {what}")
    if rules["moved"]:
        n = len(rules["moved"])
        lines.append(f"({n} rule{'s' if n != 1 else ''} only moved in the manuals, same "
                     "content; --json lists them)")
    if d["identical"]:
        lines.append("identical: same rules, parameters and procedures")
    else:
        lines.append(f"{len(rules['added'])} added, {len(rules['removed'])} removed, "
                     f"{len(rules['changed'])} changed")
    return "\n".join(lines)


def _show(value: Any) -> str:
    if isinstance(value, float):
        return fmt_number(value)
    if value is None:
        return "none"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, list | dict) else str(value)


def run_diff(args: argparse.Namespace) -> int:
    old = load_model(args.old)
    try:
        new = load_model(args.new)
    finally:
        old.close()
    new.close()
    result = diff_models(old, new)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(render_diff(result))
    sys.stdout.flush()
    return EXIT_SAME if result["identical"] else EXIT_DIFFERENT
