"""The compile pipeline: determinism, stable rule ids, bundle round trip, manifests and
inference, and the knowledge base's CNF clauses and graph edges."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rulec.compiler import pipeline
from rulec.compiler.build import writer
from rulec.compiler.pipeline import build, build_payload, collect_rules, compile_sources
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

HERE = Path(__file__).resolve().parents[1]
KB = HERE / "fixtures" / "kb"
PLANT = HERE / "fixtures" / "plant"
ROCKET = HERE.parent / "examples" / "manuals" / "rocket_engine"

OIL_RULE = "If the oil temperature exceeds 120 °C, stop the oil pump."


def test_the_stages_run_in_order_and_no_stage_edits_what_it_was_given(tmp_path: Path):
    assert pipeline.STAGES == ("read", "extract", "build")
    folder = tmp_path / "m"
    folder.mkdir()
    # Inferred parameters: the build stage adopts a unit for each; the table it was given
    # must keep its own.
    (folder / "m.txt").write_text("If the tank temperature exceeds 80 °C, stop the pump.\n"
                                  "The tank level must not exceed 95 %.\n", encoding="utf-8")
    extracted = collect_rules([folder])
    units_before = {n: i.unit_symbol for n, i in extracted.params.params.items()}
    rules_before = extracted.rules
    built = build(extracted, "m")
    assert extracted.rules is rules_before and not hasattr(extracted, "payload")
    assert {n: i.unit_symbol for n, i in extracted.params.params.items()} == units_before
    assert None in units_before.values()
    assert None not in {i.unit_symbol for i in built.params.params.values()}
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.rules = ()  # type: ignore[misc]
    # One call through every stage gives the same bundle, byte for byte.
    once = writer.encode(compile_sources([folder], "m").payload).data
    assert once == writer.encode(built.payload).data == encode_bundle(build_payload(extracted, "m"))


def compile_bytes(*sources: Path) -> bytes:
    result = collect_rules(list(sources))
    return encode_bundle(build_payload(result, " ".join(s.name for s in sources)))


def compile_bundle(*sources: Path) -> Bundle:
    return load_bundle(compile_bytes(*sources))


def write_manual(folder: Path, text: str, name: str = "manual.txt") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def ids_by_text(bundle: Bundle) -> dict[str, str]:
    return {r.source["text"]: r.id for r in bundle.rules}


# ---------------------------------------------------------------- determinism


def test_compiling_twice_gives_identical_bytes():
    assert compile_bytes(KB) == compile_bytes(KB)
    assert compile_bytes(ROCKET) == compile_bytes(ROCKET)


def test_compiling_in_fresh_processes_gives_identical_bytes(tmp_path: Path):
    """Different hash seeds and a different location of the same folder: same bytes."""
    copies = []
    for seed, where in (("1", "a"), ("2", "b"), ("12345", "c")):
        folder = tmp_path / where / "kb"
        shutil.copytree(KB, folder)
        out = tmp_path / f"{where}.bundle"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "rulec.compiler.cli",
                "compile",
                str(folder),
                "-o",
                str(out),
                "-q",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
            cwd=tmp_path / where,
        )
        assert done.returncode == 0, done.stderr
        copies.append(out.read_bytes())
    assert copies[0] == copies[1] == copies[2]
    assert copies[0] == compile_bytes(KB)


def test_folder_with_several_manuals_is_read_in_a_stable_order(tmp_path: Path):
    folder = tmp_path / "two"
    write_manual(folder, "If the oil temperature exceeds 120 °C, stop the oil pump.\n", "b.txt")
    write_manual(folder, "If the oil pressure falls below 2 bar, stop the engine.\n", "a.txt")
    first = compile_bytes(folder)
    (folder / "a.txt").touch()
    assert compile_bytes(folder) == first
    bundle = load_bundle(first)
    assert [s["file"] for s in bundle.meta["sources"]] == ["a.txt", "b.txt"]


# ---------------------------------------------------------------- rule ids


def test_rule_ids_do_not_depend_on_other_statements(tmp_path: Path):
    plain = write_manual(tmp_path / "plain", OIL_RULE + "\n")
    padded = write_manual(
        tmp_path / "padded",
        "OIL SYSTEM\n\nThe oil system holds 40 litres of oil.\n"
        "If the oil pressure falls below 2 bar, stop the engine.\n\n" + OIL_RULE + "\n",
    )
    (a,) = compile_bundle(plain).rules
    by_text = ids_by_text(compile_bundle(padded))
    assert by_text[OIL_RULE] == a.id
    assert a.source["line"] == 1
    (moved,) = [r for r in compile_bundle(padded).rules if r.source["text"] == OIL_RULE]
    assert moved.source["line"] == 6


def test_rule_ids_do_not_depend_on_the_file_name_or_neighbours(tmp_path: Path):
    base = ids_by_text(compile_bundle(KB))
    copy = tmp_path / "renamed"
    copy.mkdir()
    shutil.copy(KB / "sensors.toml", copy / "sensors.toml")
    text = (KB / "boiler_manual.md").read_text(encoding="utf-8")
    (copy / "other_name.md").write_text(
        text.replace("## Limits\n", "## Limits\n\nThe gauges are read every 2 hours.\n"),
        encoding="utf-8",
    )
    assert ids_by_text(compile_bundle(copy)) == base


def test_rule_ids_are_distinct_and_well_formed():
    bundle = compile_bundle(ROCKET)
    ids = [r.id for r in bundle.rules] + [p["id"] for p in bundle.procedures]
    assert len(ids) == len(set(ids))
    assert all(i.startswith(("R-", "P-")) and len(i) <= 64 for i in ids)


def test_same_sentence_in_two_manuals_compiles(tmp_path: Path):
    folder = tmp_path / "twins"
    write_manual(folder, OIL_RULE + "\n", "pump_a.txt")
    write_manual(folder, OIL_RULE + "\n", "pump_b.txt")
    bundle = compile_bundle(folder)
    assert sorted(r.source["file"] for r in bundle.rules) == ["pump_a.txt", "pump_b.txt"]


# ---------------------------------------------------------------- bundle round trip


def test_bundle_survives_write_and_load(tmp_path: Path):
    result = collect_rules([KB])
    payload = build_payload(result, "kb")
    path = tmp_path / "kb.bundle"
    write_bundle_file(path, encode_bundle(payload))
    bundle = load_bundle(path)

    for key, dtype in [
        ("rule", "<i4"),
        ("start", "<i4"),
        ("axis", "<i4"),
        ("lo", "<f8"),
        ("hi", "<f8"),
        ("flags", "u1"),
    ]:
        expected = np.frombuffer(payload["boxes"][key], dtype=dtype)
        got = getattr(bundle.boxes, key)
        assert got.dtype == expected.dtype and np.array_equal(got, expected), key
    for key in ("start", "literals", "clause_rule"):
        expected = np.frombuffer(payload["cnf"][key], dtype="<i4")
        assert np.array_equal(getattr(bundle.cnf, key), expected), key
    assert [(v.name, v.kind) for v in bundle.cnf.variables] == [
        (v["name"], v["kind"]) for v in payload["cnf"]["variables"]
    ]
    for key, dtype in [("indptr", "<i4"), ("indices", "<i4"), ("etype", "u1")]:
        expected = np.frombuffer(payload["graph"][key], dtype=dtype)
        assert np.array_equal(getattr(bundle.graph, key), expected), key
    assert list(bundle.graph.edge_types) == payload["graph"]["edge_types"]
    assert [(n.kind, n.label) for n in bundle.graph.nodes] == [
        (n["kind"], n["label"]) for n in payload["graph"]["nodes"]
    ]
    assert [p.name for p in bundle.parameters] == [p["name"] for p in payload["parameters"]]
    assert [r.id for r in bundle.rules] == [r["id"] for r in payload["rules"]]
    assert [r.source for r in bundle.rules] == [r["source"] for r in payload["rules"]]
    assert list(bundle.procedures) == payload["procedures"]
    assert bundle.meta == payload["meta"]
    # and loading from the file equals loading from the bytes
    assert load_bundle(path.read_bytes()).boxes == bundle.boxes


def test_thresholds_in_the_bundle_are_in_manifest_units():
    bundle = compile_bundle(KB)
    (rule,) = [r for r in bundle.rules if r.kind == "if_then"]
    index = [r.id for r in bundle.rules].index(rule.id)
    (box,) = np.flatnonzero(bundle.boxes.rule == index)
    lo = bundle.boxes.lo[bundle.boxes.start[box]]
    assert lo == 1200.0  # 12 bar in kPa
    assert "bar" not in bundle.parameters[bundle.param_index["boiler_pressure"]].unit


# ---------------------------------------------------------------- manifests and inference


def test_sensors_toml_in_the_folder_is_used():
    bundle = compile_bundle(KB)
    assert [p.name for p in bundle.parameters] == ["boiler_pressure", "feedwater_level"]
    spec = bundle.parameters[bundle.param_index["boiler_pressure"]]
    assert spec.unit == "kPa"
    assert (spec.range_lo, spec.range_hi) == (0.0, 5000.0)
    assert "steam drum pressure" in spec.aliases
    engine = Engine(bundle)
    # the manual writes "steam drum pressure" and "drum level": aliases resolved them
    (rule,) = engine.evaluate({"steam drum pressure": 1300}).rules
    assert "open the blowdown valve" in rule.source["text"]
    fired = engine.evaluate({"boiler_pressure": 1500.5, "drum level": 20}).rules
    assert {r.source["line"] for r in fired} == {7, 8, 9}
    assert engine.evaluate({"boiler_pressure": 1200, "feedwater_level": 30}).rules == []


def test_sensors_toml_beside_a_single_file_is_used():
    bundle = compile_bundle(KB / "boiler_manual.md")
    assert bundle.parameters[bundle.param_index["boiler_pressure"]].unit == "kPa"


def test_parameters_are_inferred_without_a_manifest(tmp_path: Path):
    folder = write_manual(tmp_path / "oil", "Oil system.\n" + OIL_RULE + "\n")
    bundle = compile_bundle(folder)
    assert [p.name for p in bundle.parameters] == ["oil_temperature"]
    spec = bundle.parameters[0]
    assert spec.unit == "degC"
    assert "oil temperature" in spec.aliases
    engine = Engine(bundle)
    assert engine.evaluate({"oil_temperature": 120}).rules == []
    (rule,) = engine.evaluate({"oil_temperature": 120.5}).rules
    assert {k: rule.source[k] for k in ("file", "line", "text")} == {
        "file": "manual.txt", "line": 2, "text": OIL_RULE}
    assert rule.source["statement"]  # the statement's id in the knowledge base
    assert "120.5 °C" in rule.advisory
    (rule,) = engine.evaluate({"oil temperature": 121}).rules
    assert rule.source["line"] == 2


def test_provenance_is_relative_to_the_folder_given(tmp_path: Path):
    folder = tmp_path / "top"
    write_manual(folder / "sub" / "deeper", OIL_RULE + "\n", "nested.md")
    (rule,) = compile_bundle(folder).rules
    assert rule.source["file"] == "sub/deeper/nested.md"


# ---------------------------------------------------------------- CNF and graph


def _clauses(bundle: Bundle) -> list[list[int]]:
    s, lits = bundle.cnf.start, bundle.cnf.literals
    return [sorted(lits[s[i] : s[i + 1]].tolist()) for i in range(bundle.cnf.n_clauses)]


def _var(bundle: Bundle, kind: str, name: str) -> int:
    (match,) = [
        i + 1 for i, v in enumerate(bundle.cnf.variables) if v.kind == kind and v.name == name
    ]
    return match


def test_cnf_if_then_gives_not_p_or_q():
    bundle = compile_bundle(KB)
    p = _var(bundle, "condition", "boiler_pressure in (1200, inf)")
    q = _var(bundle, "action", "open the blowdown valve")
    assert sorted([-p, q]) in _clauses(bundle)


def test_cnf_constraints_give_unit_clauses():
    bundle = compile_bundle(KB)
    clauses = _clauses(bundle)
    at_most = _var(bundle, "condition", "boiler_pressure in (-inf, 1500]")
    within = _var(bundle, "condition", "feedwater_level in [30, 80]")
    assert [at_most] in clauses
    assert [within] in clauses
    rule_of = bundle.cnf.clause_rule.tolist()
    constraint_rules = {i for i, r in enumerate(bundle.rules) if r.kind == "constraint"}
    assert {rule_of[clauses.index([at_most])], rule_of[clauses.index([within])]} == constraint_rules


def test_cnf_exclusion_gives_not_a_or_not_b():
    bundle = compile_bundle(KB)
    a = _var(bundle, "action", "open the blowdown valve")
    b = _var(bundle, "action", "start the feed pump")
    assert sorted([-a, -b]) in _clauses(bundle)


def test_cnf_procedure_chains_its_steps():
    bundle = compile_bundle(KB)
    (proc,) = bundle.procedures
    assert proc["title"] == "Cold start procedure"
    assert len(proc["steps"]) == 3
    clauses = _clauses(bundle)
    chain = [_var(bundle, "procedure", proc["id"])] + [
        _var(bundle, "step", f"{proc['id']}#{n}") for n in (1, 2, 3)
    ]
    for a, b in zip(chain, chain[1:], strict=False):
        assert sorted([-a, b]) in clauses


def test_cnf_is_satisfiable_and_a_violation_is_not():
    """The knowledge base is consistent; forcing a constraint violation makes it UNSAT."""
    pycosat = pytest.importorskip("pycosat")
    bundle = compile_bundle(KB)
    clauses = _clauses(bundle)
    assert pycosat.solve(clauses) != "UNSAT"
    within = _var(bundle, "condition", "feedwater_level in [30, 80]")
    assert pycosat.solve([*clauses, [-within]]) == "UNSAT"
    a = _var(bundle, "action", "open the blowdown valve")
    b = _var(bundle, "action", "start the feed pump")
    assert pycosat.solve([*clauses, [a], [b]]) == "UNSAT"


def _edges(bundle: Bundle) -> set[tuple[tuple[str, str], str, tuple[str, str]]]:
    g = bundle.graph
    out = set()
    for n, node in enumerate(g.nodes):
        for k in range(int(g.indptr[n]), int(g.indptr[n + 1])):
            target = g.nodes[int(g.indices[k])]
            out.add(
                (
                    (node.kind, node.label),
                    g.edge_types[int(g.etype[k])],
                    (target.kind, target.label),
                )
            )
    return out


def test_graph_has_the_paper_edge_types():
    bundle = compile_bundle(KB)
    edges = _edges(bundle)
    ids = {r.action: r.id for r in bundle.rules}
    blowdown_rule = ids["open the blowdown valve"]
    (proc,) = bundle.procedures
    assert (
        ("rule", blowdown_rule),
        "has_condition",
        ("condition", "boiler_pressure in (1200, inf)"),
    ) in edges
    assert (("rule", blowdown_rule), "triggers", ("action", "open the blowdown valve")) in edges
    assert (("step", f"{proc['id']}#1"), "next_step", ("step", f"{proc['id']}#2")) in edges
    assert (("step", f"{proc['id']}#2"), "next_step", ("step", f"{proc['id']}#3")) in edges
    assert (
        ("action", "open the blowdown valve"),
        "cannot_coexist",
        ("action", "start the feed pump"),
    ) in edges
    assert {etype for _, etype, _ in edges} >= {
        "has_condition",
        "triggers",
        "next_step",
        "cannot_coexist",
    }


def test_graph_csr_is_well_formed():
    g = compile_bundle(ROCKET).graph
    assert g.indptr[0] == 0 and g.indptr[-1] == g.n_edges
    assert np.all(np.diff(g.indptr) >= 0)
    assert np.all((g.indices >= 0) & (g.indices < len(g.nodes)))
    assert np.all(g.etype < len(g.edge_types))
