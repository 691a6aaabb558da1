"""The logic path against pycosat on the whole knowledge base: the example manuals,
random knowledge bases (Horn and not), unknown parameters, conflicts, the paper's
rocket case, both backends, and the ``cnf.atoms`` bundle section.

The oracle below shares nothing with ``runtime/logic*.py``: facts come straight from
the atom rows (strict and inclusive bounds as written), and every verdict is one
pycosat call on every clause of the bundle plus the facts as unit clauses.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Collection
from pathlib import Path
from typing import Any

import numpy as np
import pycosat
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.compiler.build.boxes import ThresholdConverter
from rulec.compiler.build.cnf import atom_arrays, build_cnf
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.errors import BundleError, StateError
from rulec.runtime.logic.path import LogicPath
from rulec.runtime.logic.result import LogicResult

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

HERE = Path(__file__).resolve().parents[2]
EXAMPLES = HERE.parent / "examples" / "manuals"
DOMAINS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())


# ------------------------------------------------------------------ building bundles


def compile_payload(*sources: Path) -> dict[str, Any]:
    """The payload `rulec compile` writes, with ``cnf.atoms`` (added here while the
    pipeline does not write it yet; a no-op once it does)."""
    result = collect_rules(list(sources))
    payload = build_payload(result, "test")
    if "atoms" not in payload["cnf"]:
        units = {name: info.unit_symbol for name, info in result.params.params.items()}
        cnf = build_cnf(result.rules, ThresholdConverter(units))
        position = {name: i for i, name in enumerate(result.params.params)}
        payload["cnf"]["atoms"] = atom_arrays(cnf, position)
    return payload


def compile_bundle(*sources: Path) -> Bundle:
    return load_bundle(encode_bundle(compile_payload(*sources)))


def write_manual(folder: Path, text: str, sensors: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "manual.txt").write_text(text, encoding="utf-8")
    (folder / "sensors.toml").write_text(sensors, encoding="utf-8")
    return folder


def i4(values: list[int]) -> bytes:
    return np.asarray(values, dtype="<i4").tobytes()


def f8(values: list[float]) -> bytes:
    return np.asarray(values, dtype="<f8").tobytes()


def u1(values: list[int]) -> bytes:
    return np.asarray(values, dtype="u1").tobytes()


SOURCE = {"file": "kb.txt", "line": 1, "text": "generated"}


def synthetic_bundle(n_params: int, conditions: list[tuple[int, list[tuple[float, float, int]]]],
                     n_actions: int, clauses: list[list[int]], kinds: list[str]) -> Bundle:
    """A bundle straight from clauses: variables 1..len(conditions) are conditions
    (axis, intervals), the next n_actions are actions; clause i belongs to rule i."""
    variables = [{"name": f"c{i + 1}", "kind": "condition"} for i in range(len(conditions))]
    variables += [{"name": f"a{i + 1}", "kind": "action"} for i in range(n_actions)]
    var, axis, lo, hi, flags = [], [], [], [], []
    for v, (ax, intervals) in enumerate(conditions, 1):
        for low, high, flag in intervals:
            var.append(v)
            axis.append(ax)
            lo.append(low)
            hi.append(high)
            flags.append(flag)
    start = [0]
    literals: list[int] = []
    for clause in clauses:
        literals.extend(clause)
        start.append(len(literals))
    payload = {
        "meta": {"compiler": "test", "format": 1, "bundle_id": "ab", "sources": [],
                 "created_from": "test"},
        "parameters": [{"name": f"p{i}", "unit": "", "aliases": [], "range": None,
                        "deadband": 0.0, "max_age_s": None, "channel": None}
                       for i in range(n_params)],
        "rules": [{"id": f"R{i}", "kind": kind, "severity": "advisory", "action": "",
                   "template": "", "condition_text": "", "duration_s": None,
                   "duration_inclusive": False, "source": SOURCE}
                  for i, kind in enumerate(kinds)],
        "boxes": {"rule": b"", "start": i4([0]), "axis": b"", "lo": b"", "hi": b"",
                  "flags": b""},
        "cnf": {"variables": variables, "start": i4(start), "literals": i4(literals),
                "clause_rule": i4(list(range(len(clauses)))),
                "atoms": {"var": i4(var), "axis": i4(axis), "lo": f8(lo), "hi": f8(hi),
                          "flags": u1(flags)}},
        "graph": {"nodes": [], "edge_types": [], "indptr": i4([0]), "indices": b"",
                  "etype": b""},
        "procedures": [],
    }
    return load_bundle(encode_bundle(payload))


# ------------------------------------------------------------------ the oracle


def oracle_facts(bundle: Bundle, x: np.ndarray) -> list[int]:
    atoms = bundle.cnf.atoms
    assert atoms is not None
    inside: dict[int, bool] = {}
    for j in range(atoms.n_rows):
        value = float(x[int(atoms.axis[j])])
        if math.isnan(value):
            continue
        lo, hi, flag = float(atoms.lo[j]), float(atoms.hi[j]), int(atoms.flags[j])
        ok = (value > lo or (flag & 1 and value == lo)) and (
            value < hi or (flag & 2 and value == hi))
        v = int(atoms.var[j])
        inside[v] = inside.get(v, False) or bool(ok)
    return [v if holds else -v for v, holds in sorted(inside.items())]


def kb_clauses(bundle: Bundle, drop: Collection[int] = ()) -> list[list[int]]:
    s, lits = bundle.cnf.start, bundle.cnf.literals
    return [lits[s[c]:s[c + 1]].tolist() for c in range(bundle.cnf.n_clauses) if c not in drop]


def oracle(bundle: Bundle, x: np.ndarray, drop: Collection[int] = ()) -> tuple[bool, set[int]]:
    """(satisfiable, every variable v with KB and facts and not v unsatisfiable)."""
    kb = kb_clauses(bundle, drop) + [[f] for f in oracle_facts(bundle, x)]
    n = len(bundle.cnf.variables)
    sat = pycosat.solve(kb, vars=n) != "UNSAT"
    entailed = {v for v in range(1, n + 1) if pycosat.solve(kb + [[-v]], vars=n) == "UNSAT"}
    return sat, entailed


def action_vars(bundle: Bundle) -> set[int]:
    return {i + 1 for i, v in enumerate(bundle.cnf.variables) if v.kind == "action"}


def check_against_oracle(path: LogicPath, x: np.ndarray) -> LogicResult:
    """Every verdict of the logic path equals whole-KB pycosat refutation."""
    bundle = path.bundle
    got = path.evaluate(x)
    sat, entailed = oracle(bundle, x)
    n = len(bundle.cnf.variables)
    assert got.consistent == sat
    assert {v for v in range(1, n + 1) if got.entails(v)} == entailed
    if sat:
        assert set(got.actions) == entailed & action_vars(bundle)
        assert not got.conflicts and not got.dropped
    else:
        assert got.conflicts
        drop = set(got.dropped)
        relaxed_sat, relaxed = oracle(bundle, x, drop)
        assert relaxed_sat, "the clauses left after setting conflicts aside are consistent"
        assert set(got.actions) == relaxed & action_vars(bundle)
        assert {v for v in range(1, n + 1) if got.entails_relaxed(v)} == relaxed
        facts = [[f] for f in oracle_facts(bundle, x)]
        every = kb_clauses(bundle)
        for conflict in got.conflicts:
            # a genuine contradiction: its own clauses and the facts are unsatisfiable
            assert pycosat.solve([every[c] for c in conflict.clauses] + facts) == "UNSAT"
            assert set(conflict.clauses) & drop
    every = kb_clauses(bundle)
    for d in got.derivations:
        assert d.var in got.actions
        if d.method == "propagation":
            # the chain alone, with the facts it names, entails the action
            chain = [every[c] for c in d.clauses] + [[f] for f in d.facts]
            assert pycosat.solve(chain + [[-d.var]]) == "UNSAT"
    return got


def state_values(bundle: Bundle, rng: random.Random, unknown: float = 0.25) -> np.ndarray:
    """Values on, just beside and between the thresholds of each parameter; some NaN."""
    atoms = bundle.cnf.atoms
    assert atoms is not None
    marks: dict[int, list[float]] = {}
    for j in range(atoms.n_rows):
        for b in (float(atoms.lo[j]), float(atoms.hi[j])):
            if math.isfinite(b):
                marks.setdefault(int(atoms.axis[j]), []).extend([b, b - 0.5, b + 0.5, b * 1.1])
    x = np.full(len(bundle.parameters), np.nan)
    for i in range(len(bundle.parameters)):
        if rng.random() < unknown:
            continue
        x[i] = rng.choice(marks.get(i, [0.0]))
    return x


# ------------------------------------------------------------------ examples


@pytest.fixture(scope="module")
def example_bundles() -> dict[str, Bundle]:
    return {name: compile_bundle(EXAMPLES / name) for name in DOMAINS}


@pytest.mark.parametrize("domain", DOMAINS)
def test_examples_match_whole_kb_pycosat(example_bundles: dict[str, Bundle], domain: str,
                                         any_backend: str) -> None:
    bundle = example_bundles[domain]
    path = LogicPath(bundle, backend=any_backend)
    rng = random.Random(domain)
    for _ in range(60):
        check_against_oracle(path, state_values(bundle, rng, unknown=rng.choice([0, .3, .7])))
    check_against_oracle(path, np.full(len(bundle.parameters), np.nan))


def rocket_state(bundle: Bundle, **values: float) -> np.ndarray:
    x = np.full(len(bundle.parameters), np.nan)
    for name, value in values.items():
        x[bundle.param_index[name]] = value
    return x


def test_paper_rocket_case(example_bundles: dict[str, Bundle], any_backend: str) -> None:
    """820 degC and 45 psi entail exactly the coolant-flow and cryogenic-pump actions."""
    bundle = example_bundles["rocket_engine"]
    path = LogicPath(bundle, backend=any_backend)
    got = check_against_oracle(
        path, rocket_state(bundle, chamber_temperature=820, chamber_pressure=45))
    names = sorted(path.var_name(q) for q in got.actions)
    assert names == ["increase the coolant flow to the nozzle jacket by 25 %",
                     "shut down the cryogenic pump"]
    assert got.consistent and not got.conflicts and got.solver_calls == 0
    out = got.to_json()
    assert [e["method"] for e in out["entailed"]] == ["propagation", "propagation"]
    cryo = next(e for e in out["entailed"] if "cryogenic" in e["action"])
    assert cryo["facts"] == ["chamber_temperature in (800, inf)",
                             "chamber_pressure in (-inf, 50)"]
    rule = bundle.rules[bundle.rule_index[cryo["rules"][0]]]
    assert "cryogenic pump" in rule.action
    evidence = got.rule_evidence(bundle.rule_index[cryo["rules"][0]])
    assert evidence is not None and evidence["entails"] == ["shut down the cryogenic pump"]
    assert evidence["facts"] == cryo["facts"] and evidence["method"] == "propagation"
    fired = {bundle.rule_index[e["rules"][0]] for e in out["entailed"]}
    assert set(got.rules) == fired
    emergency = next(i for i, r in enumerate(bundle.rules) if "emergency" in r.action)
    assert got.rule_evidence(emergency) is None


def test_violated_constraint_is_a_conflict_and_advice_continues(
        example_bundles: dict[str, Bundle], any_backend: str) -> None:
    bundle = example_bundles["rocket_engine"]
    path = LogicPath(bundle, backend=any_backend)
    got = check_against_oracle(path, rocket_state(
        bundle, chamber_temperature=820, chamber_pressure=45, fuel_line_pressure=120))
    assert not got.consistent
    assert [c.kind for c in got.conflicts] == ["constraint"]
    conflict = got.conflicts[0]
    assert "fuel_line_pressure" in bundle.rules[conflict.rules[0]].condition_text
    assert conflict.facts == (-next(i + 1 for i, v in enumerate(bundle.cnf.variables)
                                    if v.name == "fuel_line_pressure in [25, 110]"),)
    assert len(got.actions) == 2  # the two thermal actions still follow
    assert got.entails(1) and got.entails(len(bundle.cnf.variables))  # ex falso, as pycosat


# ------------------------------------------------------------------ hand-made manuals

PLANT = """\
If the tank temperature exceeds 90 °C, open the relief valve.
If the tank level is below 10 %, start the feed pump.
If the tank pressure exceeds 300 kPa, arm the igniter.
If the tank level exceeds 80 %, open the purge valve.
Do not arm the igniter and open the purge valve at the same time.
"""

PLANT_SENSORS = """\
[parameters.tank_temperature]
unit = "degC"
[parameters.tank_level]
unit = "%"
[parameters.tank_pressure]
unit = "kPa"
"""


def test_exclusion_both_entailed_is_a_conflict(tmp_path: Path, any_backend: str) -> None:
    bundle = compile_bundle(write_manual(tmp_path / "plant", PLANT, PLANT_SENSORS))
    path = LogicPath(bundle, backend=any_backend)
    x = rocket_state(bundle, tank_pressure=350, tank_level=85, tank_temperature=95)
    got = check_against_oracle(path, x)
    assert not got.consistent
    assert [c.kind for c in got.conflicts] == ["exclusion"]
    conflict = got.conflicts[0]
    assert sorted(path.var_name(a) for a in conflict.actions) == ["arm the igniter",
                                                                 "open the purge valve"]
    kinds = [bundle.rules[r].kind for r in conflict.rules]
    assert kinds[0] == "exclusion" and kinds.count("if_then") == 2
    # the advisories still follow once the exclusion is set aside
    assert {path.var_name(q) for q in got.actions} == {
        "arm the igniter", "open the purge valve", "open the relief valve"}
    js = got.to_json()
    assert js["consistent"] is False and js["conflicts"][0]["kind"] == "exclusion"
    # only one of the two: consistent
    x[bundle.param_index["tank_level"]] = 50
    assert check_against_oracle(path, x).consistent


def test_unknown_parameter_gives_neither_fact(tmp_path: Path, any_backend: str) -> None:
    text = ("If the tank level exceeds 50 %, open the drain valve.\n"
            "If the tank level is at most 50 %, close the drain valve.\n")
    bundle = compile_bundle(write_manual(tmp_path / "m", text,
                                         '[parameters.tank_level]\nunit = "%"\n'))
    path = LogicPath(bundle, backend=any_backend)
    got = check_against_oracle(path, np.full(1, np.nan))
    assert got.actions == () and got.consistent
    for v, spec in enumerate(bundle.cnf.variables, 1):
        if spec.kind == "condition":
            assert got.value_of(v) == 0  # open: neither the condition nor its negation
            assert not got.entails(v)
    high = check_against_oracle(path, np.array([60.0]))
    low = check_against_oracle(path, np.array([50.0]))
    assert len(high.actions) == len(low.actions) == 1 and high.actions != low.actions
    conditions = [v for v, spec in enumerate(bundle.cnf.variables, 1)
                  if spec.kind == "condition"]
    assert sorted(high.value_of(v) for v in conditions) == [-1, 1]  # both facts, one false
    with pytest.raises(ValueError):
        high.value_of(len(bundle.cnf.variables) + 1)


def test_case_split_entailment_uses_the_solver(tmp_path: Path, any_backend: str) -> None:
    """'if x > 5 then A' and 'unless x > 5, A': A follows with x unknown (non-Horn)."""
    bundle = synthetic_bundle(
        1, [(0, [(5.0, math.inf, 0)])], 1, [[-1, 2], [1, 2]], ["if_then", "if_then"])
    path = LogicPath(bundle, backend=any_backend)
    got = check_against_oracle(path, np.array([np.nan]))
    assert got.actions == (2,) and got.solver_calls >= 1
    assert got.derivations[0].method == "refutation"
    assert got.derivations[0].rules == (0, 1)
    known = check_against_oracle(path, np.array([7.0]))
    assert known.actions == (2,) and known.derivations[0].method == "propagation"
    assert known.solver_calls == 0


def test_state_shape_is_checked(example_bundles: dict[str, Bundle]) -> None:
    path = LogicPath(example_bundles["hospital"])
    with pytest.raises(StateError):
        path.evaluate(np.zeros(len(example_bundles["hospital"].parameters) + 1))


def test_backends_agree_exactly(example_bundles: dict[str, Bundle]) -> None:
    from tests.conftest import native_available

    if not native_available():
        pytest.skip("C kernel not built")
    for name, bundle in example_bundles.items():
        native = LogicPath(bundle, backend="native")
        pure = LogicPath(bundle, backend="numpy")
        rng = random.Random(name)
        for _ in range(30):
            x = state_values(bundle, rng, unknown=0.4)
            a, b = native.evaluate(x), pure.evaluate(x)
            assert a.to_json() == b.to_json()
            assert np.array_equal(a._value, b._value) and np.array_equal(a._reason, b._reason)


# ------------------------------------------------------------------ random knowledge bases

GRID = [0.0, 1.0, 2.5, 4.0, 5.0, 7.5, 10.0]


@st.composite
def knowledge_bases(draw: st.DrawFn, horn: bool) -> tuple[Bundle, list[np.ndarray]]:
    n_params = draw(st.integers(1, 3))
    conditions = []
    for _ in range(draw(st.integers(1, 7))):
        axis = draw(st.integers(0, n_params - 1))
        a, b = sorted(draw(st.lists(st.sampled_from(GRID), min_size=2, max_size=2)))
        shape = draw(st.sampled_from(["gt", "lt", "between", "outside"]))
        flag_lo, flag_hi = draw(st.integers(0, 1)), draw(st.integers(0, 1))
        if shape == "gt":
            rows = [(a, math.inf, flag_lo)]
        elif shape == "lt":
            rows = [(-math.inf, b, 2 * flag_hi)]
        elif shape == "between":
            rows = [(a, b, 3 if a == b else flag_lo | 2 * flag_hi)]
        else:
            rows = [(-math.inf, a, 0), (b, math.inf, 0)] if a < b else [(-math.inf, a, 0)]
        conditions.append((axis, rows))
    n_cond = len(conditions)
    n_actions = draw(st.integers(1, 5))
    n_vars = n_cond + n_actions
    conds = st.integers(1, n_cond)
    acts = st.integers(n_cond + 1, n_vars)
    clauses: list[list[int]] = []
    kinds: list[str] = []
    for _ in range(draw(st.integers(1, 14))):
        form = draw(st.sampled_from(["if_then", "if_then", "exclusion", "constraint",
                                     "negated", "any"]))
        if form == "if_then":
            body = draw(st.lists(conds, min_size=1, max_size=min(3, n_cond), unique=True))
            clauses.append([-c for c in body] + [draw(acts)])
        elif form == "exclusion":
            a, b = draw(st.lists(acts, min_size=2, max_size=2, unique=True)) \
                if n_actions > 1 else (n_cond + 1, n_cond + 1)
            clauses.append([-a, -b] if a != b else [-a])
        elif form == "constraint":  # "never all of these", or "this must hold"
            body = draw(st.lists(conds, min_size=1, max_size=min(2, n_cond), unique=True))
            clauses.append([-c for c in body] if draw(st.booleans()) else [body[0]])
        elif form == "negated" and not horn:  # "unless": a positive condition literal
            body = draw(st.lists(conds, min_size=1, max_size=min(3, n_cond), unique=True))
            clauses.append([c if draw(st.booleans()) else -c for c in body] + [draw(acts)])
        elif form == "any" and not horn:
            width = draw(st.integers(1, min(3, n_vars)))
            lits = draw(st.lists(st.integers(1, n_vars), min_size=width, max_size=width,
                                 unique=True))
            clauses.append([v if draw(st.booleans()) else -v for v in lits])
        else:
            clauses.append([-draw(conds), draw(acts)])
        kinds.append(form if form in ("if_then", "exclusion", "constraint") else
                     draw(st.sampled_from(["if_then", "constraint", "exclusion"])))
    if horn:
        clauses = [c for c in clauses if sum(lit > 0 for lit in c) <= 1] or [[n_cond + 1]]
        kinds = kinds[:len(clauses)]
    bundle = synthetic_bundle(n_params, conditions, n_actions, clauses, kinds)
    values = st.one_of(st.just(math.nan), st.sampled_from(GRID),
                       st.sampled_from([g + 0.25 for g in GRID] + [-1.0, 11.0]))
    states = [np.array(draw(st.lists(values, min_size=n_params, max_size=n_params)))
              for _ in range(4)]
    return bundle, states


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kb=knowledge_bases(horn=True))
def test_random_horn_knowledge_bases_match_pycosat(kb: tuple[Bundle, list[np.ndarray]]) -> None:
    bundle, states = kb
    path = LogicPath(bundle)
    for x in states:
        assert check_against_oracle(path, x).solver_calls == 0  # Horn: propagation decides


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kb=knowledge_bases(horn=False))
def test_random_non_horn_knowledge_bases_match_pycosat(
        kb: tuple[Bundle, list[np.ndarray]]) -> None:
    bundle, states = kb
    path = LogicPath(bundle)
    for x in states:
        check_against_oracle(path, x)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kb=knowledge_bases(horn=False))
def test_random_knowledge_bases_same_on_both_backends(
        kb: tuple[Bundle, list[np.ndarray]]) -> None:
    from tests.conftest import native_available

    if not native_available():
        pytest.skip("C kernel not built")
    bundle, states = kb
    native, pure = LogicPath(bundle, backend="native"), LogicPath(bundle, backend="numpy")
    for x in states:
        assert native.evaluate(x).to_json() == pure.evaluate(x).to_json()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kb=knowledge_bases(horn=False))
def test_skipped_relation_clauses_hold_for_every_value(
        kb: tuple[Bundle, list[np.ndarray]]) -> None:
    """Propagation from facts skips the clauses marked always-true: check that the facts
    of every value (each bound, its neighbours, far away) satisfy them."""
    bundle, _ = kb
    path = LogicPath(bundle)
    every = kb_clauses(bundle)
    atoms = bundle.cnf.atoms
    assert atoms is not None
    values = [-math.inf, -1e300, math.inf, 1e300, 0.0]
    for b in (*atoms.lo.tolist(), *atoms.hi.tolist()):
        if math.isfinite(b):
            values += [b, math.nextafter(b, math.inf), math.nextafter(b, -math.inf)]
    for c in np.flatnonzero(path.always).tolist():
        axis = int(atoms.axis[atoms.var.tolist().index(abs(every[c][0]))])
        for value in values:
            x = np.full(len(bundle.parameters), np.nan)
            x[axis] = value
            facts = set(oracle_facts(bundle, x))
            assert any(lit in facts for lit in every[c]), (every[c], value)


def test_relation_clauses_of_examples_are_skipped(example_bundles: dict[str, Bundle]) -> None:
    """Every implication/disjointness clause the compiler writes holds for all values."""
    for bundle in example_bundles.values():
        path = LogicPath(bundle)
        relation = np.asarray(bundle.cnf.clause_rule) == -1
        kinds = [bundle.cnf.variables[abs(int(lit)) - 1].kind for lit in bundle.cnf.literals]
        is_condition = np.array([k == "condition" for k in kinds], dtype=bool)
        starts = np.asarray(bundle.cnf.start)
        only_conditions = np.logical_and.reduceat(is_condition, starts[:-1]) \
            if bundle.cnf.n_clauses else np.zeros(0, dtype=bool)
        assert np.array_equal(path.always, relation & only_conditions)


# ------------------------------------------------------------------ the cnf.atoms section


def _rocket_payload() -> dict[str, Any]:
    return compile_payload(EXAMPLES / "rocket_engine")


@pytest.fixture(scope="module")
def rocket_payload() -> dict[str, Any]:
    return _rocket_payload()


def _mutated(payload: dict[str, Any], key: str, rows: dict[int, Any]) -> dict[str, Any]:
    out = copy.deepcopy(payload)
    dtype = {"var": "<i4", "axis": "<i4", "lo": "<f8", "hi": "<f8", "flags": "u1"}[key]
    arr = np.frombuffer(out["cnf"]["atoms"][key], dtype=dtype).copy()
    for row, value in rows.items():
        arr[row] = value
    out["cnf"]["atoms"][key] = arr.tobytes()
    return out


def test_atoms_load_and_describe_every_condition(rocket_payload: dict[str, Any]) -> None:
    bundle = load_bundle(encode_bundle(rocket_payload))
    atoms = bundle.cnf.atoms
    assert atoms is not None and atoms.n_rows >= 1
    conditions = {i + 1 for i, v in enumerate(bundle.cnf.variables) if v.kind == "condition"}
    assert set(atoms.var.tolist()) == conditions
    for j in range(atoms.n_rows):
        name = bundle.cnf.variables[int(atoms.var[j]) - 1].name
        assert name.startswith(bundle.parameters[int(atoms.axis[j])].name + " in ")
    assert bundle == load_bundle(encode_bundle(rocket_payload))
    without = copy.deepcopy(rocket_payload)
    del without["cnf"]["atoms"]
    plain = load_bundle(encode_bundle(without))
    assert plain.cnf.atoms is None and plain.cnf != bundle.cnf
    assert not LogicPath(plain).has_atoms and LogicPath(bundle).has_atoms


@pytest.mark.parametrize(("key", "rows", "message"), [
    ("var", {0: 0}, "cnf.atoms.var: [0] = 0 is out of range"),
    ("var", {0: 99}, "cnf.atoms.var: [0] = 99 is out of range"),
    ("var", {0: 4, 1: 2}, "cnf.atoms.var: must be grouped by variable"),
    ("axis", {0: 17}, "cnf.atoms.axis: [0] = 17 is out of range"),
    ("lo", {0: math.nan}, "cnf.atoms.lo: [0] is NaN"),
    ("hi", {0: 5.0}, "row [0] (lo 600.0, hi 5.0): lo is above hi"),
    ("lo", {0: math.inf}, "lo is +inf"),
    ("hi", {2: -math.inf}, "row [2] (lo -inf, hi -inf): hi is -inf"),
    ("hi", {1: 800.0}, "row [1] (lo 800.0, hi 800.0): lo == hi but not both bounds inclusive"),
    ("flags", {0: 4}, "cnf.atoms.flags: [0] = 4 is out of range"),
])
def test_atoms_defects_are_refused(rocket_payload: dict[str, Any], key: str,
                                   rows: dict[int, Any], message: str) -> None:
    import re

    with pytest.raises(BundleError, match=re.escape(message)):
        load_bundle(encode_bundle(_mutated(rocket_payload, key, rows)))


def test_atoms_structure_is_refused(rocket_payload: dict[str, Any]) -> None:
    def refused(payload: dict[str, Any], message: str) -> None:
        with pytest.raises(BundleError, match=message):
            load_bundle(encode_bundle(payload))

    bad = copy.deepcopy(rocket_payload)
    bad["cnf"]["atoms"]["extra"] = b""
    refused(bad, "cnf.atoms: unknown key 'extra'")
    bad = copy.deepcopy(rocket_payload)
    bad["cnf"]["surprise"] = 1
    refused(bad, "cnf: unknown key 'surprise'")
    bad = copy.deepcopy(rocket_payload)
    del bad["cnf"]["atoms"]["flags"]
    refused(bad, "cnf.atoms: missing key 'flags'")
    bad = copy.deepcopy(rocket_payload)
    bad["cnf"]["atoms"]["hi"] = bad["cnf"]["atoms"]["hi"][:-8]
    refused(bad, "cnf.atoms.hi: has")
    # a second row of variable 2 on another axis
    bad = copy.deepcopy(rocket_payload)
    atoms = {k: np.frombuffer(v, dtype={"var": "<i4", "axis": "<i4", "lo": "<f8", "hi": "<f8",
                                        "flags": "u1"}[k]).tolist()
             for k, v in bad["cnf"]["atoms"].items()}
    j = atoms["var"].index(2)
    for k in atoms:
        atoms[k].insert(j + 1, atoms[k][j])
    atoms["axis"][j + 1] = (atoms["axis"][j] + 1) % len(bad["parameters"])
    bad["cnf"]["atoms"] = {"var": i4(atoms["var"]), "axis": i4(atoms["axis"]),
                           "lo": f8(atoms["lo"]), "hi": f8(atoms["hi"]),
                           "flags": u1(atoms["flags"])}
    refused(bad, "one parameter per variable")
    # a condition variable without rows, and rows for an action
    bad = copy.deepcopy(rocket_payload)
    var = np.frombuffer(bad["cnf"]["atoms"]["var"], dtype="<i4").copy()
    var[var == 2] = 1  # variable 1 is an action; rows stay grouped
    bad["cnf"]["atoms"]["var"] = var.tobytes()
    refused(bad, "variable 1 .* has rows in cnf.atoms but is of kind 'action'")
    bad = copy.deepcopy(rocket_payload)
    var = np.frombuffer(bad["cnf"]["atoms"]["var"], dtype="<i4").copy()
    last = int(var[-1])
    var[var == last] = int(var[var != last][-1])
    bad["cnf"]["atoms"]["var"] = var.tobytes()
    refused(bad, f"variable {last} .* has no rows in cnf.atoms")
