"""The provenance knowledge base: every table filled, counts equal to the bundle's arrays,
every derived row joined back to its document line, deterministic, written atomically."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rulec.compiler.extract.offline import atoms_of
from rulec.compiler.kb import store as kb
from rulec.compiler.kb.store import (
    TABLES,
    KnowledgeBaseError,
    default_kb_path,
    write_knowledge_base,
)
from rulec.compiler.model.rules import dumps_rule
from rulec.compiler.pipeline import Compiled, build, collect_rules

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"

# A second manual: a limits table (a table view) and a statement nobody can read (a problem).
FEED = """# Feed limits

Feed system limits are listed below.

| Parameter | Min | Max |
|---|---|---|
| Fuel line pressure | 25 psi | 110 psi |

If the flux exceeds 88 GW, jump.
"""


def attach_views(result: Compiled) -> Compiled:
    """Give each manual its views, as the pipeline does once it builds them itself."""
    from rulec.compiler.read.views import build_views

    for doc in result.documents:
        if getattr(doc, "views", None) is None and doc.path.suffix.lower() != ".jsonl":
            vars(doc)["views"] = build_views(doc.path, doc.rel)
    return result


def compile_folder(folder: Path) -> Compiled:
    return attach_views(build(collect_rules([folder]), folder.name))


def make_manuals(folder: Path) -> Path:
    shutil.copytree(ROCKET, folder)
    (folder / "feed_limits.md").write_text(FEED, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Compiled, Path]:
    folder = make_manuals(tmp_path_factory.mktemp("kb") / "rocket")
    result = compile_folder(folder)
    path = folder.parent / "rocket.bundle.kb.sqlite"
    write_knowledge_base(path, result)
    return result, path


def connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def count(conn: sqlite3.Connection, sql: str, *params: Any) -> int:
    return int(conn.execute(sql, params).fetchone()[0])


def dump(path: Path) -> list[str]:
    conn = connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def n_items(raw: bytes, dtype: str) -> int:
    return int(np.frombuffer(raw, dtype=dtype).shape[0])


# ---------------------------------------------------------------- contents


def test_every_table_is_populated(compiled: tuple[Compiled, Path]) -> None:
    _, path = compiled
    conn = connect(path)
    empty = [t for t in TABLES if count(conn, f"SELECT COUNT(*) FROM {t}") == 0]
    assert empty == []
    assert conn.execute("PRAGMA user_version").fetchone()[0] == kb.KB_SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == kb.APPLICATION_ID


def test_row_counts_match_the_payload(compiled: tuple[Compiled, Path]) -> None:
    result, path = compiled
    payload = result.payload
    conn = connect(path)
    n_procs = len(payload["procedures"])
    assert count(conn, "SELECT COUNT(*) FROM rules") == len(payload["rules"]) + n_procs
    assert count(conn, "SELECT COUNT(*) FROM rules WHERE bundle_index IS NOT NULL") == len(
        payload["rules"])
    assert count(conn, "SELECT COUNT(*) FROM procedures") == n_procs
    assert count(conn, "SELECT COUNT(*) FROM procedure_steps") == sum(
        len(p["steps"]) for p in payload["procedures"])
    assert count(conn, "SELECT COUNT(*) FROM parameters") == len(payload["parameters"])
    cnf = payload["cnf"]
    assert count(conn, "SELECT COUNT(*) FROM clauses") == n_items(cnf["clause_rule"], "<i4")
    assert count(conn, "SELECT COUNT(*) FROM clause_literals") == n_items(cnf["literals"], "<i4")
    assert count(conn, "SELECT COUNT(*) FROM cnf_variables") == len(cnf["variables"])
    graph = payload["graph"]
    assert count(conn, "SELECT COUNT(*) FROM graph_nodes") == len(graph["nodes"])
    assert count(conn, "SELECT COUNT(*) FROM graph_edges") == n_items(graph["indices"], "<i4")
    boxes = payload["boxes"]
    assert count(conn, "SELECT COUNT(*) FROM boxes") == n_items(boxes["axis"], "<i4")
    assert count(conn, "SELECT COUNT(DISTINCT box) FROM boxes") == n_items(boxes["rule"], "<i4")
    atoms = sum(len(atoms_of(r.condition)) for r in result.rules if r.condition is not None)
    assert count(conn, "SELECT COUNT(*) FROM conditions") == atoms
    assert count(conn, "SELECT COUNT(*) FROM documents") == len(result.documents)
    assert count(conn, "SELECT COUNT(*) FROM problems") == len(result.problems) >= 1


def test_literals_and_bounds_are_the_bundles_own(compiled: tuple[Compiled, Path]) -> None:
    result, path = compiled
    conn = connect(path)
    cnf = result.payload["cnf"]
    literals = np.frombuffer(cnf["literals"], dtype="<i4").tolist()
    stored = [x for (x,) in conn.execute(
        "SELECT literal FROM clause_literals ORDER BY clause, position")]
    assert stored == literals
    lo = np.frombuffer(result.payload["boxes"]["lo"], dtype="<f8").tolist()
    got = [x for (x,) in conn.execute("SELECT lo FROM boxes ORDER BY box, position")]
    assert got == [None if x == float("-inf") else x for x in lo]


def test_every_reference_resolves(compiled: tuple[Compiled, Path]) -> None:
    _, path = compiled
    conn = connect(path)
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    # Every rule and step written in a manual points at its statement in the views.
    assert count(conn, "SELECT COUNT(*) FROM rules WHERE statement IS NULL") == 0
    assert count(conn, "SELECT COUNT(*) FROM procedure_steps WHERE statement IS NULL") == 0
    assert count(conn, "SELECT COUNT(*) FROM problems WHERE statement IS NULL") == 0
    # Descriptive statements in the graph point at theirs, and every statement at its chunk.
    assert count(conn, "SELECT COUNT(*) FROM graph_nodes WHERE kind = 'statement' "
                 "AND statement IS NULL") == 0
    assert count(conn, "SELECT COUNT(*) FROM statements WHERE chunk IS NULL") == 0


def test_a_box_constraint_joins_back_to_its_document_line(
        compiled: tuple[Compiled, Path]) -> None:
    _, path = compiled
    conn = connect(path)
    rows = conn.execute(
        "SELECT b.lo, p.unit, c.unit, c.value, d.path, d.sha256, s.line, s.page, s.char_start, "
        "s.char_end, s.text, sec.title, pg.number, substr(d.text, s.char_start + 1, "
        "s.char_end - s.char_start) "
        "FROM boxes b "
        "JOIN parameters p ON p.name = b.parameter "
        "JOIN rules r ON r.id = b.rule "
        "JOIN conditions c ON c.rule = r.id AND c.param = b.parameter "
        "JOIN statements s ON s.document = r.document AND s.id = r.statement "
        "JOIN sections sec ON sec.document = s.document AND sec.id = s.section "
        "JOIN paragraphs para ON para.document = s.document AND para.id = s.paragraph "
        "JOIN documents d ON d.path = s.document "
        "JOIN pages pg ON pg.document = d.path AND s.char_start BETWEEN pg.char_start "
        "AND pg.char_end "
        "WHERE b.parameter = 'oxidizer_tank_pressure'").fetchall()
    assert len(rows) == 1
    lo, unit, written_unit, written, doc, sha, line, page, start, end, text, section, \
        page_number, span = rows[0]
    assert (lo, unit, written_unit, written) == (2500.0, "kPa", "bar", 25.0)
    assert (doc, line, section, page_number) == ("hot_fire_limits.txt", 21, "Pressure limits", 1)
    raw = (ROCKET / "hot_fire_limits.txt").read_bytes()
    import hashlib

    assert sha == hashlib.sha256(raw).hexdigest()
    assert page is None  # a text manual has no pages of its own
    assert " ".join(span.split()) == text
    assert raw.decode("utf-8").splitlines()[line - 1].strip() == text
    assert text.startswith("If the oxidizer tank pressure exceeds 25 bar")


def test_conditions_give_the_written_and_the_manifest_value(
        compiled: tuple[Compiled, Path]) -> None:
    _, path = compiled
    conn = connect(path)
    rows = {r[0]: r[1:] for r in conn.execute(
        "SELECT param, op, value, value_hi, unit, manifest_unit, manifest_value, "
        "manifest_value_hi, negated, path, variable FROM conditions")}
    assert rows["oxidizer_tank_pressure"] == (">", 25.0, None, "bar", "kPa", 2500.0, None, 0,
                                              "$", "oxidizer_tank_pressure in (2500, inf)")
    assert rows["fuel_line_pressure"][:8] == ("between", 25.0, 110.0, "psi", "psi", 25.0, 110.0,
                                              1)
    # The variable names the comparison in the CNF and in the graph alike.
    assert count(conn, "SELECT COUNT(*) FROM conditions c JOIN cnf_variables v ON "
                 "v.name = c.variable JOIN graph_nodes g ON g.variable = v.number") == count(
        conn, "SELECT COUNT(*) FROM conditions")


def test_clauses_and_edges_name_their_rules(compiled: tuple[Compiled, Path]) -> None:
    _, path = compiled
    conn = connect(path)
    origins = dict(conn.execute("SELECT origin, COUNT(*) FROM clauses GROUP BY origin"))
    assert set(origins) == {"rule", "procedure", "relation"}
    assert count(conn, "SELECT COUNT(*) FROM clauses WHERE origin = 'relation' "
                 "AND rule IS NOT NULL") == 0
    chained = conn.execute("SELECT c.text FROM clauses c JOIN rules r ON r.id = c.rule "
                           "WHERE r.kind = 'procedure' ORDER BY c.id").fetchall()
    assert len(chained) == 6 and chained[0][0].startswith("NOT [P-")
    edges = conn.execute(
        "SELECT e.type, dst.kind, dst.label FROM graph_edges e "
        "JOIN graph_nodes src ON src.id = e.src JOIN rules r ON r.id = src.rule "
        "JOIN graph_nodes dst ON dst.id = e.dst "
        "WHERE r.source_text LIKE 'If the chamber temperature exceeds 600%' ORDER BY e.type"
    ).fetchall()
    assert edges == [("has_condition", "condition", "chamber_temperature in (600, inf)"),
                     ("triggers", "action",
                      "increase the coolant flow to the nozzle jacket by 25 %")]


def test_statements_roles_chunks_tables_and_problems(
        compiled: tuple[Compiled, Path]) -> None:
    _, path = compiled
    conn = connect(path)
    roles = dict(conn.execute("SELECT role, COUNT(*) FROM statements GROUP BY role"))
    assert roles["rule"] == 14 and roles["step"] == 6 and roles["unreadable"] == 1
    assert roles["descriptive"] >= 7 and roles["heading"] >= 6
    labels = {label for (label,) in conn.execute("SELECT label FROM chunks")}
    assert labels <= {"rule", "mixed", "descriptive"} and labels
    problem = conn.execute(
        "SELECT p.file, p.line, p.reason, s.role FROM problems p JOIN statements s "
        "ON s.document = p.document AND s.id = p.statement").fetchall()
    assert problem == [("feed_limits.md", 9, "no parameter matches 'the flux'", "unreadable")]
    table = conn.execute("SELECT t.header, r.cells, r.line FROM tables t JOIN table_rows r "
                         "ON r.document = t.document AND r.table_id = t.id").fetchall()
    assert [(json.loads(h), json.loads(c), line) for h, c, line in table] == [
        (["Parameter", "Min", "Max"], ["Fuel line pressure", "25 psi", "110 psi"], 7)]
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    assert meta["bundle_id"] and meta["compiler"].startswith("rulec ")
    assert json.loads(meta["sources"])[0]["file"] == "feed_limits.md"


def test_chunk_labels_come_from_the_views_when_they_have_them(tmp_path: Path) -> None:
    from dataclasses import replace

    result = compile_folder(make_manuals(tmp_path / "m"))
    views = vars(result.documents[1])["views"]
    views.chunks = [replace(c, label="descriptive") for c in views.chunks]
    write_knowledge_base(tmp_path / "k.sqlite", result)
    conn = connect(tmp_path / "k.sqlite")
    got = {d: {label for (label,) in conn.execute(
        "SELECT label FROM chunks WHERE document = ?", (d,))} for d in ("hot_fire_limits.txt",)}
    assert got == {"hot_fire_limits.txt": {"descriptive"}}


# ---------------------------------------------------------------- determinism


def test_same_compile_twice_gives_identical_tables(tmp_path: Path) -> None:
    first = compile_folder(make_manuals(tmp_path / "a" / "rocket"))
    write_knowledge_base(tmp_path / "one.sqlite", first)
    write_knowledge_base(tmp_path / "two.sqlite", first)
    # A fresh compile of a copy elsewhere: the same keys and rows.
    again = compile_folder(make_manuals(tmp_path / "b" / "rocket"))
    write_knowledge_base(tmp_path / "three.sqlite", again)
    one = dump(tmp_path / "one.sqlite")
    assert one == dump(tmp_path / "two.sqlite") == dump(tmp_path / "three.sqlite")
    assert any(line.startswith('INSERT INTO "statements"') for line in one)


def test_keys_survive_an_edit_elsewhere_in_the_manual(tmp_path: Path) -> None:
    folder = make_manuals(tmp_path / "rocket")
    before = compile_folder(folder)
    write_knowledge_base(tmp_path / "before.sqlite", before)
    manual = folder / "hot_fire_limits.txt"
    manual.write_text(manual.read_text(encoding="utf-8").replace(
        "every 6 months", "every 3 months"), encoding="utf-8")
    after = compile_folder(folder)
    write_knowledge_base(tmp_path / "after.sqlite", after)
    query = ("SELECT r.id, r.statement, s.section, s.chunk IS NOT NULL FROM rules r "
             "JOIN statements s ON s.document = r.document AND s.id = r.statement ORDER BY r.id")
    a = connect(tmp_path / "before.sqlite").execute(query).fetchall()
    b = connect(tmp_path / "after.sqlite").execute(query).fetchall()
    assert a == b and len(a) == 14


# ---------------------------------------------------------------- atomic writes


def test_a_write_that_fails_midway_leaves_the_old_kb_intact(
        tmp_path: Path, compiled: tuple[Compiled, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    result, _ = compiled
    target = tmp_path / "b.bundle.kb.sqlite"
    write_knowledge_base(target, result)
    before = dump(target)
    calls: list[str] = []
    real_insert = kb._insert

    def failing_insert(conn: sqlite3.Connection, table: str, rows: list[Any]) -> None:
        calls.append(table)
        if table == "clauses":
            raise RuntimeError("disk on fire")
        real_insert(conn, table, rows)

    monkeypatch.setattr(kb, "_insert", failing_insert)
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_knowledge_base(target, result)
    assert "rules" in calls  # it really was half way through
    assert dump(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temporary left


def test_an_sqlite_failure_is_a_one_line_error_naming_the_file(
        tmp_path: Path, compiled: tuple[Compiled, Path],
        monkeypatch: pytest.MonkeyPatch) -> None:
    result, _ = compiled

    def broken(conn: sqlite3.Connection, table: str, rows: list[Any]) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(kb, "_insert", broken)
    target = tmp_path / "x.kb.sqlite"
    with pytest.raises(KnowledgeBaseError, match=r"x\.kb\.sqlite: cannot write knowledge base: "
                       "database or disk is full"):
        write_knowledge_base(target, result)
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_unwritable_targets_are_refused_cleanly(
        tmp_path: Path, compiled: tuple[Compiled, Path]) -> None:
    result, _ = compiled
    with pytest.raises(KnowledgeBaseError, match="no-such-folder"):
        write_knowledge_base(tmp_path / "no-such-folder" / "k.sqlite", result)
    (tmp_path / "adir").mkdir()
    with pytest.raises(KnowledgeBaseError, match="adir"):
        write_knowledge_base(tmp_path / "adir", result)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]


def test_default_path_is_beside_the_bundle() -> None:
    assert default_kb_path(Path("out/engine.bundle")) == Path("out/engine.bundle.kb.sqlite")


# ---------------------------------------------------------------- reviewed rule files


def test_rules_from_a_reviewed_file_keep_their_source(tmp_path: Path) -> None:
    """A rules .jsonl has no views: rules keep their source columns, no statement."""
    result = collect_rules([ROCKET])
    folder = tmp_path / "reviewed"
    folder.mkdir()
    shutil.copy(ROCKET / "sensors.toml", folder)
    (folder / "rules.jsonl").write_text(
        "".join(dumps_rule(r) + "\n" for r in result.rules), encoding="utf-8")
    reviewed = compile_folder(folder)
    write_knowledge_base(tmp_path / "r.sqlite", reviewed)
    conn = connect(tmp_path / "r.sqlite")
    assert conn.execute("SELECT path, kind, text FROM documents").fetchall() == [
        ("rules.jsonl", "rules", None)]
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    rows = conn.execute("SELECT source_file, source_line, statement FROM rules "
                        "WHERE source_text LIKE '%25 bar%'").fetchall()
    assert rows == [("hot_fire_limits.txt", 21, None)]
    assert count(conn, "SELECT COUNT(*) FROM statements") == 0
