"""Logic path against whole-KB pycosat refutation, side by side, in one plain run.

    python bench/bench_logic.py                     # ~1.5k and ~15k clauses, ~2 min
    python bench/bench_logic.py --sizes 1500 --states 300 --refutation-states 20

Knowledge bases are made of rule objects and compiled by the real pipeline
(`build_payload`: comparison variables, implication and disjointness clauses between
comparisons of one parameter, if-then clauses, constraints, exclusions, procedure
chains), then loaded as the vehicle loads them.  Each state gives every parameter a
value (some unknown), and both methods answer the same question: is the state
consistent with the KB, and which actions does it entail.

- **ours**: `LogicPath.evaluate(x)` (facts + unit propagation in C, pycosat on the
  non-Horn cone only, conflict analysis when the state contradicts the KB), and
  separately with `.to_json()` (evidence chains and names) inside the timing.
- **pycosat**: one `pycosat.solve(KB + facts)` for consistency, then one refutation
  `pycosat.solve(KB + facts + [-Q])` for every action Q true in the first model (an
  action false in some model is not entailed, so it needs no call of its own).
  "1 solve" is the first call alone: a lower bound for any whole-KB method.

Every state the refutation baseline answers is checked: same consistency, same
entailed actions (tests/runtime/logic/test_logic.py checks every verdict on many more KBs).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from decimal import Decimal
from typing import Any

import numpy as np
import pycosat

from rulec.compiler.build.boxes import ThresholdConverter
from rulec.compiler.build.cnf import atom_arrays, build_cnf
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import All, AnyOf, Atom, Not, Rule, Step
from rulec.compiler.pipeline import CompileResult, build_payload
from rulec.runtime.backend import BACKEND
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.logic.path import LogicPath

EXCURSION = 0.05  # share of parameters beyond a limit in a state
RANGE = 1000  # every parameter reads 0..1000 in its unit; nominal is 300..700
HIGH = list(range(720, 990, 10))  # limits above nominal
LOW = list(range(20, 290, 10))  # limits below nominal


def make_rules(n_rules: int, n_params: int, rng: random.Random) -> list[Rule]:
    """If-then rules over limit comparisons (with alternatives and "unless"), range
    constraints, exclusions between actions that rules trigger, and procedures."""
    highs = {p: sorted(rng.sample(HIGH, 6)) for p in range(n_params)}
    lows = {p: sorted(rng.sample(LOW, 6)) for p in range(n_params)}
    actions = [f"action {i}" for i in range(max(4, n_rules // 3))]

    def atom(p: int) -> Atom:
        name = f"p{p}"
        shape = rng.random()
        if shape < 0.4:
            return Atom(name, rng.choice([">", ">="]), Decimal(rng.choice(highs[p])))
        if shape < 0.8:
            return Atom(name, rng.choice(["<", "<="]), Decimal(rng.choice(lows[p])))
        if shape < 0.9:  # a caution band above nominal
            a, b = sorted(rng.sample(highs[p], 2))
            return Atom(name, "between", (Decimal(a), Decimal(b)))
        return Atom(name, "outside", (Decimal(rng.choice(lows[p])), Decimal(rng.choice(highs[p]))))

    def conjunction() -> All | Atom:
        params = rng.sample(range(n_params), rng.choice([1, 1, 2, 2, 3]))
        atoms = [atom(p) for p in params]
        return atoms[0] if len(atoms) == 1 else All(tuple(atoms))

    rules: list[Rule] = []
    src = {"file": "generated.txt", "line": 1, "text": "generated"}
    for i in range(n_rules):
        roll = rng.random()
        rid = f"R-{i:05d}"
        if roll < 0.06:  # "x shall remain between a and b"
            p = rng.randrange(n_params)
            band = (Decimal(rng.choice([0, 5, 10])), Decimal(rng.choice([990, 995, 1000])))
            rules.append(Rule(rid, "constraint", src, condition=Not(Atom(f"p{p}", "between", band)),
                              action="stay in range"))
        elif roll < 0.10:
            a, b = rng.sample(actions, 2)
            rules.append(Rule(rid, "exclusion", src, actions=(a, b)))
        elif roll < 0.12:
            steps = tuple(Step(f"step {k}", src) for k in range(rng.randint(3, 6)))
            rules.append(Rule(rid, "procedure", src, title=f"procedure {i}", steps=steps))
        else:
            cond: Any = conjunction()
            if roll < 0.22:  # an alternative: two clauses
                cond = AnyOf((cond, conjunction()))
            elif roll < 0.30:  # "unless": a negated comparison, a non-Horn clause
                cond = All((cond, Not(atom(rng.randrange(n_params)))))
            rules.append(Rule(rid, "if_then", src, condition=cond, action=rng.choice(actions)))
    return rules


def make_bundle(n_rules: int, n_params: int, seed: int) -> Bundle:
    rng = random.Random(seed)
    params = ParameterTable()
    for p in range(n_params):
        params.add(ParameterInfo(f"p{p}", (), ""))
    result = CompileResult(rules=make_rules(n_rules, n_params, rng), params=params)
    payload = build_payload(result, "generated")
    if "atoms" not in payload["cnf"]:  # until the pipeline writes the section itself
        units = {name: info.unit_symbol for name, info in params.params.items()}
        cnf = build_cnf(result.rules, ThresholdConverter(units))
        payload["cnf"]["atoms"] = atom_arrays(cnf, {f"p{p}": p for p in range(n_params)})
    return load_bundle(encode_bundle(payload))


def make_states(bundle: Bundle, n: int, unknown: float, seed: int) -> list[np.ndarray]:
    """Telemetry: nominal values, a few excursions beyond the limits, some unknown."""
    rng = np.random.default_rng(seed)
    n_params = len(bundle.parameters)
    out = []
    for _ in range(n):
        x = rng.uniform(300, 700, n_params)
        high = rng.random(n_params) < EXCURSION / 2
        low = rng.random(n_params) < EXCURSION / 2
        x[high] = rng.uniform(700, RANGE, high.sum())
        x[low] = rng.uniform(0, 300, low.sum())
        x[rng.random(n_params) < unknown] = np.nan
        out.append(x)
    return out


class WholeKb:
    """The baseline: pycosat on every clause of the bundle, per state."""

    def __init__(self, bundle: Bundle) -> None:
        s, lits = bundle.cnf.start, bundle.cnf.literals
        self.clauses = [lits[s[c]:s[c + 1]].tolist() for c in range(bundle.cnf.n_clauses)]
        self.n_vars = len(bundle.cnf.variables)
        self.actions = [i + 1 for i, v in enumerate(bundle.cnf.variables) if v.kind == "action"]
        atoms = bundle.cnf.atoms
        assert atoms is not None
        self.rows = list(zip(atoms.var.tolist(), atoms.axis.tolist(), atoms.lo.tolist(),
                             atoms.hi.tolist(), atoms.flags.tolist(), strict=True))

    def facts(self, x: np.ndarray) -> list[list[int]]:
        inside: dict[int, bool] = {}
        for var, axis, lo, hi, flags in self.rows:
            v = float(x[axis])
            if math.isnan(v):
                continue
            ok = (v > lo or (flags & 1 and v == lo)) and (v < hi or (flags & 2 and v == hi))
            inside[var] = inside.get(var, False) or bool(ok)
        return [[v if t else -v] for v, t in inside.items()]

    def first_solve(self, x: np.ndarray) -> Any:
        return pycosat.solve(self.clauses + self.facts(x), vars=self.n_vars)

    def evaluate(self, x: np.ndarray) -> tuple[bool, set[int], int]:
        kb = self.clauses + self.facts(x)
        model = pycosat.solve(kb, vars=self.n_vars)
        if model == "UNSAT":
            return False, set(self.actions), 1
        calls, entailed = 1, set()
        for q in self.actions:
            if model[q - 1] > 0:
                calls += 1
                if pycosat.solve(kb + [[-q]], vars=self.n_vars) == "UNSAT":
                    entailed.add(q)
        return True, entailed, calls


def percentiles(samples: list[float]) -> tuple[float, float]:
    arr = np.asarray(samples) * 1e6
    return float(np.percentile(arr, 50)), float(np.percentile(arr, 99))


def run(size: int, n_states: int, n_baseline: int, n_refute: int, unknown: float,
        seed: int) -> dict[str, Any]:
    # ~10 rules per parameter; ~10 clauses per rule come out of the pipeline, most of
    # them implication and disjointness clauses between comparisons of one parameter
    n_rules = max(20, size // 10)
    n_params = max(8, n_rules // 10)
    t0 = time.perf_counter()
    bundle = make_bundle(n_rules, n_params, seed)
    t_compile = time.perf_counter() - t0
    t0 = time.perf_counter()
    path = LogicPath(bundle)
    t_load = time.perf_counter() - t0
    states = make_states(bundle, n_states, unknown, seed + 1)
    for x in states[:20]:
        path.evaluate(x).to_json()  # warm up
    ours, ours_json, ours_cpu = [], [], []
    kinds = {"propagation only": 0, "solver cone": 0, "conflict": 0}
    for x in states:
        c0 = time.thread_time_ns()
        t0 = time.perf_counter()
        r = path.evaluate(x)
        t1 = time.perf_counter()
        c1 = time.thread_time_ns()
        r.to_json()
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        ours_cpu.append((c1 - c0) * 1e-9)
        ours_json.append(t2 - t0)
        if not r.consistent:
            kinds["conflict"] += 1
        elif r.solver_calls:
            kinds["solver cone"] += 1
        else:
            kinds["propagation only"] += 1
    base = WholeKb(bundle)
    one, full, calls = [], [], []
    for x in states[:n_baseline]:
        t0 = time.perf_counter()
        base.first_solve(x)
        one.append(time.perf_counter() - t0)
    for x in states[:n_refute]:
        t0 = time.perf_counter()
        consistent, entailed, used = base.evaluate(x)
        full.append(time.perf_counter() - t0)
        calls.append(used)
        got = path.evaluate(x)
        assert got.consistent == consistent, "consistency differs from pycosat"
        if consistent:
            assert set(got.actions) == entailed, "entailed actions differ from pycosat"
        else:
            assert all(got.entails(q) for q in base.actions)
    return {
        "clauses": bundle.cnf.n_clauses,
        "variables": len(bundle.cnf.variables),
        "rules": len(bundle.rules),
        "params": n_params,
        "nonhorn": int(len(path.arrays.nonhorn)),
        "compile_s": t_compile,
        "load_ms": t_load * 1e3,
        "ours": percentiles(ours),
        "ours_json": percentiles(ours_json),
        "ours_cpu": percentiles(ours_cpu),
        "one": percentiles(one),
        "full": percentiles(full),
        "calls": statistics.mean(calls) if calls else 0.0,
        "kinds": kinds,
        "states": n_states,
        "baseline_states": n_baseline,
        "refuted_states": n_refute,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1500,15000", help="target clause counts")
    parser.add_argument("--states", type=int, default=1000, help="states timed for ours")
    parser.add_argument("--baseline-states", type=int, default=50,
                        help="states timed for one whole-KB pycosat solve")
    parser.add_argument("--refutation-states", type=int, default=6,
                        help="states timed for full pycosat refutation, answers compared")
    parser.add_argument("--unknown", type=float, default=0.1,
                        help="share of parameters without a valid value")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"backend: {BACKEND}; load average {os.getloadavg()[0]:.2f}; Python "
          f"{platform.python_version()}; numpy {np.__version__}; pycosat "
          f"{getattr(pycosat, '__version__', '?')}; states: {args.states} (ours), "
          f"{args.baseline_states} (pycosat 1 solve), {args.refutation_states} (pycosat "
          f"refutation, answers compared); unknown share {args.unknown}")
    rows = [run(int(s), args.states, args.baseline_states, args.refutation_states,
                args.unknown, args.seed) for s in args.sizes.split(",")]
    print("| clauses | vars | non-Horn | ours p50 / p99 | ours CPU p50 / p99 "
          "| ours + to_json p50 / p99 | pycosat 1 solve p50 / p99 | pycosat refutation "
          "p50 / p99 | solves/state | p50 ratio vs 1 solve | p50 ratio vs refutation |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['clauses']:,} | {r['variables']:,} | {r['nonhorn']} "
              f"| {r['ours'][0]:.0f} / {r['ours'][1]:,.0f} us "
              f"| {r['ours_cpu'][0]:.0f} / {r['ours_cpu'][1]:,.0f} us "
              f"| {r['ours_json'][0]:.0f} / {r['ours_json'][1]:,.0f} us "
              f"| {r['one'][0] / 1e3:,.1f} / {r['one'][1] / 1e3:,.1f} ms "
              f"| {r['full'][0] / 1e3:,.0f} / {r['full'][1] / 1e3:,.0f} ms | {r['calls']:.0f} "
              f"| {r['one'][0] / r['ours'][0]:,.0f}x | {r['full'][0] / r['ours'][0]:,.0f}x |")
    for r in rows:
        print(f"\n{r['clauses']:,} clauses ({r['rules']} rules, {r['params']} parameters): "
              f"compile {r['compile_s']:.1f} s, LogicPath build {r['load_ms']:.0f} ms; "
              f"states by path: {r['kinds']}; pycosat states: {r['baseline_states']} "
              f"(1 solve), {r['refuted_states']} (refutation, answers identical)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
