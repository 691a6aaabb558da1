"""`rulec sql`, `rulec explain` and `rulec diff`: read-only queries, rules explained from a
bundle or a knowledge base, and exactly the rules two compiles add, remove and change."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler import cli
from rulec.compiler.commands.inspect import EXIT_DIFFERENT, EXIT_SAME, format_table, register
from rulec.compiler.kb.store import default_kb_path, write_knowledge_base
from rulec.compiler.model.rules import dumps_rule, loads_rules
from rulec.compiler.pipeline import build, collect_rules
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.errors import RulecError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[2]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
OX_RULE = "If the oxidizer tank pressure exceeds 25 bar, open the tank relief valve."

OLD_MANUAL = """Engine limits

REQ-ENG-001: If the chamber temperature exceeds 600 °C, increase the coolant flow by 25 %.
REQ-ENG-002: If the chamber pressure exceeds 320 psi, open the emergency vent valve.
REQ-ENG-003: If the turbopump speed exceeds 30,000 rpm, reduce the throttle to 70 %.
"""
NEW_MANUAL = """Engine limits

REQ-ENG-001: If the chamber temperature exceeds 650 °C, increase the coolant flow by 25 %.
REQ-ENG-003: If the turbopump speed exceeds 30,000 rpm, reduce the throttle to 70 %.
REQ-ENG-004: If the oxidizer tank pressure exceeds 25 bar, open the tank relief valve.
"""


# ---------------------------------------------------------------- helpers


def _integrated() -> bool:
    """Whether `rulec` itself already offers these commands (cli.py registers them)."""
    parser = cli._parser()
    return any(isinstance(a, argparse._SubParsersAction) and "sql" in a.choices
               for a in parser._actions)


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """The commands as `rulec` runs them: (status, stdout, stderr)."""
    args_list = [str(a) for a in argv]
    if _integrated():
        status = cli.main(args_list)
    else:  # the same parse and error handling as cli.main
        parser = argparse.ArgumentParser(prog="rulec")
        register(parser.add_subparsers(dest="command"))
        args = parser.parse_args(args_list)
        try:
            status = int(args.run(args))
        except RulecError as exc:
            print(f"rulec: error: {' '.join(str(exc).split())}", file=sys.stderr)
            status = cli.EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    return status, out, err


def compile_to(sources: list[Path], bundle: Path, kb: Path | None = None) -> Path:
    result = build(collect_rules(sources), "test")
    payload = result.payload
    try:
        from rulec.compiler.read.views import build_views

        for doc in result.documents:
            if getattr(doc, "views", None) is None and doc.path.suffix != ".jsonl":
                vars(doc)["views"] = build_views(doc.path, doc.rel)
    except ImportError:  # views not there: the knowledge base holds no views
        pass
    write_bundle_file(bundle, encode_bundle(payload))
    if kb is not None:
        write_knowledge_base(kb, result)
    return bundle


@pytest.fixture(scope="module")
def rocket(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(bundle, knowledge base beside it) of the rocket engine example."""
    folder = tmp_path_factory.mktemp("rocket")
    bundle = folder / "rocket.bundle"
    compile_to([ROCKET], bundle, default_kb_path(bundle))
    return bundle, default_kb_path(bundle)


@pytest.fixture(scope="module")
def bare_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same bundle with no knowledge base anywhere near it."""
    return compile_to([ROCKET], tmp_path_factory.mktemp("bare") / "rocket.bundle")


def rule_id_of(bundle: Path, text: str) -> str:
    from rulec.runtime.bundle.loader import load_bundle

    return next(r.id for r in load_bundle(bundle).rules if r.source["text"] == text)


# ---------------------------------------------------------------- sql


def test_sql_prints_a_table(capsys: pytest.CaptureFixture[str], rocket: tuple[Path, Path]) -> None:
    _, kb = rocket
    status, out, err = run(capsys, "sql", kb, "SELECT id, kind, source_line FROM rules "
                           "WHERE source_line BETWEEN 20 AND 21 ORDER BY source_line")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["id", "kind", "source_line"]
    assert set(lines[1]) <= {"-", " "}
    assert lines[2].split()[1:] == ["constraint", "20"]
    assert lines[3].split()[1:] == ["if_then", "21"]
    assert lines[-1] == "(2 rows)"


def test_sql_stops_a_runaway_query_at_its_time_limit(
        capsys: pytest.CaptureFixture[str], rocket: tuple[Path, Path]) -> None:
    _, kb = rocket
    forever = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
               "SELECT count(*) FROM c")
    status, out, err = run(capsys, "sql", kb, forever, "--timeout-s", "0.3")
    assert status == 2 and out == ""
    assert "longer than 0.3 s" in err and "--timeout-s" in err


def test_sql_caps_the_rows_and_says_so(capsys: pytest.CaptureFixture[str],
                                       rocket: tuple[Path, Path]) -> None:
    _, kb = rocket
    many = ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 500) "
            "SELECT x FROM c")
    status, out, err = run(capsys, "sql", kb, many, "--max-rows", "7", "--json")
    assert status == 0
    assert [json.loads(line)["x"] for line in out.splitlines()] == list(range(1, 8))
    assert "stopped at 7 rows" in err
    status, out, err = run(capsys, "sql", kb, many, "--max-rows", "500", "--json")
    assert len(out.splitlines()) == 500 and err == ""


def test_sql_json_rows(capsys: pytest.CaptureFixture[str], rocket: tuple[Path, Path]) -> None:
    _, kb = rocket
    status, out, _ = run(capsys, "sql", "--json", kb,
                         "SELECT parameter, lo, hi, lo_inclusive FROM boxes "
                         "WHERE parameter = 'oxidizer_tank_pressure'")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [{"parameter": "oxidizer_tank_pressure", "lo": 2500.0, "hi": None,
                     "lo_inclusive": 0}]


def test_sql_reads_the_schema_and_json(capsys: pytest.CaptureFixture[str],
                                       rocket: tuple[Path, Path]) -> None:
    _, kb = rocket
    status, out, _ = run(capsys, "sql", kb, "SELECT name FROM pragma_table_info('boxes') "
                         "WHERE name = 'lo_inclusive'")
    assert status == 0 and "lo_inclusive" in out
    status, out, _ = run(capsys, "sql", "--json", kb, "SELECT a.value AS alias FROM parameters, "
                         "json_each(parameters.aliases) a WHERE name = 'oxidizer_tank_pressure' "
                         "ORDER BY 1")
    assert status == 0 and {"alias": "lox tank pressure"} in map(json.loads, out.splitlines())


@pytest.mark.parametrize("statement", [
    "INSERT INTO meta VALUES ('x', 'y')",
    "UPDATE rules SET severity = 'advisory'",
    "DELETE FROM boxes",
    "DROP TABLE rules",
    "CREATE TABLE t (x)",
    "ATTACH DATABASE 'other.sqlite' AS other",
    "PRAGMA query_only = OFF",
    "PRAGMA user_version = 7",
    "REPLACE INTO meta VALUES ('bundle_id', 'forged')",
    "VACUUM",
])
def test_sql_refuses_writes(capsys: pytest.CaptureFixture[str], rocket: tuple[Path, Path],
                            statement: str) -> None:
    _, kb = rocket
    before = kb.read_bytes()
    status, out, err = run(capsys, "sql", kb, statement)
    assert status == cli.EXIT_BAD_INPUT and out == ""
    assert err.count("\n") == 1 and str(kb) in err
    assert "read-only" in err and "only SELECT" in err
    assert kb.read_bytes() == before
    assert not (kb.parent / "other.sqlite").exists()


@pytest.mark.parametrize(("query", "message"), [
    ("SELEKT 1", "SQL error: near \"SELEKT\": syntax error"),
    ("SELECT 1; SELECT 2", "SQL error"),
    ("SELECT * FROM no_such_table", "no such table: no_such_table"),
])
def test_sql_errors_are_one_line(capsys: pytest.CaptureFixture[str], rocket: tuple[Path, Path],
                                 query: str, message: str) -> None:
    _, kb = rocket
    status, _, err = run(capsys, "sql", kb, query)
    assert status == cli.EXIT_BAD_INPUT and err.count("\n") == 1 and message in err


def test_sql_on_something_that_is_not_a_kb(capsys: pytest.CaptureFixture[str],
                                           rocket: tuple[Path, Path], tmp_path: Path) -> None:
    bundle, _ = rocket
    status, _, err = run(capsys, "sql", bundle, "SELECT 1")
    assert status == cli.EXIT_BAD_INPUT
    assert err == f"rulec: error: {bundle}: not a knowledge base (not an SQLite file)\n"
    status, _, err = run(capsys, "sql", tmp_path / "missing.sqlite", "SELECT 1")
    assert status == cli.EXIT_BAD_INPUT and "missing.sqlite: cannot read" in err
    other = tmp_path / "plain.sqlite"
    import sqlite3

    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    status, _, err = run(capsys, "explain", other, "R-1")
    assert status == cli.EXIT_BAD_INPUT and "not a rulec knowledge base" in err


def test_format_table_marks_nulls_and_cuts_long_cells() -> None:
    text = format_table(["a", "b"], [(None, "x" * 100), (1.5, "y")], max_width=10)
    assert text.splitlines()[2].split() == ["NULL", "xxxxxxxxx…"]
    assert text.splitlines()[3].split() == ["1.5", "y"]


# ---------------------------------------------------------------- explain


def test_explain_from_a_bundle_alone(capsys: pytest.CaptureFixture[str],
                                     bare_bundle: Path) -> None:
    assert not default_kb_path(bare_bundle).exists()
    rule = rule_id_of(bare_bundle, OX_RULE)
    status, out, err = run(capsys, "explain", bare_bundle, rule)
    assert status == 0 and err == ""
    assert f"from bundle {bare_bundle}" in out
    assert "hot_fire_limits.txt:21, section 'Pressure limits'" in out
    assert OX_RULE in out
    assert "[open the tank relief valve] OR NOT [oxidizer_tank_pressure in (2500, inf)]" in out
    assert "-> has_condition  condition  oxidizer_tank_pressure in (2500, inf)" in out
    assert "-> triggers       action     open the tank relief valve" in out
    assert "box 0: oxidizer_tank_pressure > 2500 kPa" in out


def test_explain_from_a_kb_adds_provenance_and_comparisons(
        capsys: pytest.CaptureFixture[str], rocket: tuple[Path, Path]) -> None:
    bundle, kb = rocket
    rule = rule_id_of(bundle, OX_RULE)
    status, out, _ = run(capsys, "explain", kb, rule)
    assert status == 0
    assert f"from knowledge base {kb}" in out
    assert OX_RULE in out
    assert "oxidizer_tank_pressure > 25 bar  ->  2500 kPa" in out
    assert "document sha256 " in out and "statement " in out and "chunk " in out
    assert "box 0: oxidizer_tank_pressure > 2500 kPa" in out
    # Given the bundle, the knowledge base beside it is used since it is the same compile.
    status, via_bundle, _ = run(capsys, "explain", bundle, rule)
    assert via_bundle == out
    status, alone, _ = run(capsys, "explain", "--bundle-only", bundle, rule)
    assert "from bundle" in alone and "comparisons" not in alone


def test_explain_ignores_a_kb_of_another_compile(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    bundle = compile_to([ROCKET], tmp_path / "r.bundle")
    other = tmp_path / "other"
    other.mkdir()
    (other / "m.txt").write_text("If the oil temperature exceeds 120 °C, stop the pump.\n",
                                 encoding="utf-8")
    compile_to([other], tmp_path / "o.bundle", default_kb_path(bundle))
    status, out, _ = run(capsys, "explain", bundle, rule_id_of(bundle, OX_RULE))
    assert status == 0 and f"from bundle {bundle}" in out


def test_explain_exact_bounds_and_ranges(capsys: pytest.CaptureFixture[str],
                                         rocket: tuple[Path, Path]) -> None:
    bundle, _ = rocket
    rule = rule_id_of(bundle, "The fuel line pressure shall remain between 25 psi and 110 psi.")
    status, out, _ = run(capsys, "explain", "--json", bundle, rule)
    info = json.loads(out)
    assert info["kind"] == "constraint" and info["condition"].startswith("not fuel_line")
    texts = [[b["text"] for b in box] for box in info["boxes"]]
    assert texts == [["fuel_line_pressure < 25 psi"], ["fuel_line_pressure > 110 psi"]]
    assert info["boxes"][0][0]["lo"] is None and info["boxes"][0][0]["hi"] == 25.0
    assert info["comparisons"][0]["negated"] is True
    assert info["provenance"]["line"] == 20
    assert [c["text"] for c in info["clauses"]] == ["[fuel_line_pressure in [25, 110]]"]


def test_explain_a_procedure(capsys: pytest.CaptureFixture[str],
                             rocket: tuple[Path, Path]) -> None:
    _, kb = rocket
    import sqlite3

    (pid,) = sqlite3.connect(kb).execute("SELECT id FROM procedures").fetchone()
    status, out, _ = run(capsys, "explain", kb, pid)
    assert status == 0
    assert "title:     Normal shutdown procedure" in out
    assert "1. Reduce the throttle to the minimum setting." in out
    assert f"NOT [{pid}#5] OR [{pid}#6]" in out
    assert f"-> has_step       step       {pid}#1" in out


def test_explain_an_unknown_rule(capsys: pytest.CaptureFixture[str],
                                 rocket: tuple[Path, Path]) -> None:
    bundle, _ = rocket
    rule = rule_id_of(bundle, OX_RULE)
    status, out, err = run(capsys, "explain", "--bundle-only", bundle, rule[:-1])
    assert status == cli.EXIT_BAD_INPUT and out == ""
    assert err == (f"rulec: error: {bundle}: no rule {rule[:-1]!r} in this bundle; "
                   f"did you mean {rule}?\n")


def test_explain_a_corrupt_bundle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.bundle"
    bad.write_bytes(b"RULC" + b"\x00" * 10)
    status, _, err = run(capsys, "explain", bad, "R-1")
    assert status == cli.EXIT_BAD_INPUT and str(bad) in err and err.count("\n") == 1


# ---------------------------------------------------------------- diff


@pytest.fixture
def two_bundles(tmp_path: Path) -> tuple[Path, Path]:
    """Bundles of a manual before and after: one threshold changed, one rule added, one
    removed (requirement ids keep the ids of the rest stable)."""
    out = []
    for name, text in (("old", OLD_MANUAL), ("new", NEW_MANUAL)):
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(ROCKET / "sensors.toml", folder)
        (folder / "limits.txt").write_text(text, encoding="utf-8")
        out.append(compile_to([folder], tmp_path / f"{name}.bundle"))
    return out[0], out[1]


def test_diff_reports_exactly_the_added_removed_and_changed_rules(
        capsys: pytest.CaptureFixture[str], two_bundles: tuple[Path, Path]) -> None:
    old, new = two_bundles
    status, out, err = run(capsys, "diff", old, new)
    assert status == EXIT_DIFFERENT == 1 and err == ""
    lines = out.splitlines()
    assert [ln.split()[:2] for ln in lines if ln.startswith(("added", "removed", "changed"))] == [
        ["added", "REQ-ENG-004"], ["removed", "REQ-ENG-002"], ["changed", "REQ-ENG-001"]]
    assert ("  condition: chamber_temperature > 600 degC -> chamber_temperature > 650 degC"
            in lines)
    assert "  bounds: chamber_temperature lo 600 -> 650 degC" in lines
    assert lines[-1] == "1 added, 1 removed, 1 changed"

    status, out, _ = run(capsys, "diff", "--json", old, new)
    d = json.loads(out)
    assert status == 1 and d["identical"] is False
    assert [r["id"] for r in d["rules"]["added"]] == ["REQ-ENG-004"]
    assert [r["id"] for r in d["rules"]["removed"]] == ["REQ-ENG-002"]
    (changed,) = d["rules"]["changed"]
    assert changed["id"] == "REQ-ENG-001"
    assert set(changed["changes"]) == {"condition", "boxes"}
    assert changed["changes"]["boxes"]["old"][0][0]["lo"] == 600.0
    assert changed["changes"]["boxes"]["new"][0][0]["lo"] == 650.0
    assert changed["bounds"] == ["chamber_temperature lo 600 -> 650 degC"]
    # REQ-ENG-003 only moved up a line: listed apart, not a change.
    assert [m["id"] for m in d["rules"]["moved"]] == ["REQ-ENG-003"]
    assert d["parameters"] == {"added": [], "removed": [], "changed": []}


def test_diff_of_identical_bundles_exits_0(capsys: pytest.CaptureFixture[str],
                                           two_bundles: tuple[Path, Path],
                                           rocket: tuple[Path, Path]) -> None:
    old, _ = two_bundles
    status, out, _ = run(capsys, "diff", old, old)
    assert status == EXIT_SAME == 0
    assert out.splitlines()[-1] == "identical: same rules, parameters and procedures"
    bundle, kb = rocket
    status, out, _ = run(capsys, "diff", "--json", bundle, kb)  # a bundle and its own KB
    assert status == 0 and json.loads(out)["identical"] is True


def test_diff_after_review_keeps_ids_and_shows_the_edit(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    """The review loop: extract, edit a threshold and a severity, recompile, diff."""
    result = collect_rules([ROCKET])
    folder = tmp_path / "reviewed"
    folder.mkdir()
    shutil.copy(ROCKET / "sensors.toml", folder)
    lines = [dumps_rule(r) for r in result.rules]
    (folder / "rules.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = compile_to([folder], tmp_path / "before.bundle")
    edited = []
    for line in lines:
        rule = json.loads(line)
        if rule["source"]["text"] == OX_RULE:
            rule["condition"]["value"] = 26
            rule["severity"] = "caution"
            target = rule["id"]
        edited.append(json.dumps(rule, ensure_ascii=False))
    (folder / "rules.jsonl").write_text("\n".join(edited) + "\n", encoding="utf-8")
    assert len(loads_rules("\n".join(edited), "x")) == len(lines)
    after = compile_to([folder], tmp_path / "after.bundle")
    status, out, _ = run(capsys, "diff", "--json", before, after)
    d = json.loads(out)
    assert status == 1 and not d["rules"]["added"] and not d["rules"]["removed"]
    (changed,) = d["rules"]["changed"]
    assert changed["id"] == target
    assert changed["changes"]["severity"] == {"old": "advisory", "new": "caution"}
    assert changed["bounds"] == ["oxidizer_tank_pressure lo 2500 -> 2600 kPa"]


def test_diff_reports_parameter_changes(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    folders = []
    for name, deadband in (("a", "5.0"), ("b", "7.5")):
        folder = tmp_path / name
        shutil.copytree(ROCKET, folder)
        toml = folder / "sensors.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace(
            "deadband = 5.0", f"deadband = {deadband}"), encoding="utf-8")
        folders.append(compile_to([folder], tmp_path / f"{name}.bundle"))
    status, out, _ = run(capsys, "diff", *folders)
    assert status == 1
    assert "changed  parameter chamber_temperature: deadband 5 -> 7.5" in out
    assert out.splitlines()[-1] == "0 added, 0 removed, 0 changed"


def test_diff_of_a_missing_bundle_is_one_line(capsys: pytest.CaptureFixture[str],
                                              two_bundles: tuple[Path, Path],
                                              tmp_path: Path) -> None:
    old, _ = two_bundles
    status, out, err = run(capsys, "diff", old, tmp_path / "nope.bundle")
    assert status == cli.EXIT_BAD_INPUT and out == "" and err.count("\n") == 1
    assert "nope.bundle" in err


# ---------------------------------------------------------------- the real entry point


@pytest.mark.skipif(not _integrated(), reason="cli.py does not register the commands yet")
def test_commands_through_the_real_entry_point(rocket: tuple[Path, Path]) -> None:
    bundle, kb = rocket

    def rulec(*argv: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rulec.compiler.cli",
                               *(str(a) for a in argv)], capture_output=True, text=True,
                              timeout=60, env=dict(os.environ))

    done = rulec("sql", kb, "DELETE FROM rules")
    assert done.returncode == 2 and "read-only" in done.stderr and "Traceback" not in done.stderr
    done = rulec("explain", bundle, rule_id_of(bundle, OX_RULE))
    assert done.returncode == 0 and OX_RULE in done.stdout
    assert rulec("diff", bundle, bundle).returncode == 0
