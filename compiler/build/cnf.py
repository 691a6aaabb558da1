"""CNF clauses of the knowledge base, as in the paper.

Variables are comparisons ("chamber_temperature > 600 degC"), actions
("increase the coolant flow by 30 %") and procedure steps.  An if-then rule
`P -> Q` gives `-P v Q` per alternative of P; a constraint gives the clauses
that say it holds (a violating state makes the knowledge base unsatisfiable);
a procedure chains its steps `-s_i v s_i+1`; an exclusion gives `-A v -B`.
Comparisons on one parameter are related by implication and disjointness
clauses so the solver knows that `x > 800` entails `x > 600`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulec.compiler.build.boxes import Term, ThresholdConverter, dnf
from rulec.compiler.model.rules import Atom, Rule
from rulec.runtime.bundle.intervals import (
    Interval,
    disjoint,
    interval_name,
    negated_intervals,
    to_float_bounds,
    within,
)
from rulec.runtime.vocabulary import CONDITIONAL_KINDS, PROCEDURE

MAX_PAIRS_PER_PARAMETER = 400


def action_key(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().rstrip(".").lower())


@dataclass
class Cnf:
    variables: list[dict[str, str]] = field(default_factory=list)
    clauses: list[list[int]] = field(default_factory=list)
    clause_rule: list[int] = field(default_factory=list)
    _index: dict[tuple[str, str], int] = field(default_factory=dict)
    atom_intervals: dict[int, list[Interval]] = field(default_factory=dict)
    atom_param: dict[int, str] = field(default_factory=dict)

    def var(self, kind: str, name: str) -> int:
        key = (kind, name)
        if key not in self._index:
            self.variables.append({"name": name, "kind": kind})
            self._index[key] = len(self.variables)
        return self._index[key]

    def add(self, clause: list[int], rule: int) -> None:
        self.clauses.append(sorted(set(clause), key=lambda v: (abs(v), v)))
        self.clause_rule.append(rule)


def atom_name(atom: Atom, conv: ThresholdConverter) -> str:
    """A canonical name for a comparison, in manifest units, so equal comparisons share one
    variable whatever unit the text used."""
    return f"{atom.param} in {interval_name(conv.intervals(atom))}"


def build_cnf(rules: list[Rule], conv: ThresholdConverter) -> Cnf:
    cnf = Cnf()
    for index, rule in enumerate(rules):
        if rule.kind in CONDITIONAL_KINDS and rule.condition is not None:
            terms = dnf(rule.condition)
            if rule.kind == "if_then":
                action = cnf.var("action", action_key(rule.action))
                for term in terms:
                    cnf.add([-lit for lit in _literals(cnf, term, conv)] + [action], index)
            else:
                # The constraint holds: no violating alternative may be true.
                for term in terms:
                    cnf.add([-lit for lit in _literals(cnf, term, conv)], index)
        elif rule.kind == "exclusion":
            actions = [cnf.var("action", action_key(a)) for a in rule.actions]
            for i in range(len(actions)):
                for j in range(i + 1, len(actions)):
                    cnf.add([-actions[i], -actions[j]], index)
        elif rule.kind == PROCEDURE:
            title = cnf.var("procedure", rule.id)
            steps = [cnf.var("step", f"{rule.id}#{n + 1}") for n in range(len(rule.steps))]
            chain = [title, *steps]
            for a, b in zip(chain, chain[1:], strict=False):
                cnf.add([-a, b], index)
    _relate_comparisons(cnf)
    return cnf


def _literals(cnf: Cnf, term: Term, conv: ThresholdConverter) -> list[int]:
    out = []
    for atom, holds in term:
        var = cnf.var("condition", atom_name(atom, conv))
        cnf.atom_intervals.setdefault(var, conv.intervals(atom))
        cnf.atom_param[var] = atom.param
        out.append(var if holds else -var)
    return out


def _relate_comparisons(cnf: Cnf) -> None:
    """Implication (A within B) and disjointness clauses between comparisons of one parameter."""
    by_param: dict[str, list[int]] = {}
    for var, param in cnf.atom_param.items():
        by_param.setdefault(param, []).append(var)
    for variables in by_param.values():
        pairs = 0
        for i, a in enumerate(variables):
            for b in variables[i + 1:]:
                if pairs >= MAX_PAIRS_PER_PARAMETER:
                    break
                pairs += 1
                ia, ib = cnf.atom_intervals[a], cnf.atom_intervals[b]
                if within(ia, ib):
                    cnf.add([-a, b], -1)
                elif within(ib, ia):
                    cnf.add([-b, a], -1)
                elif disjoint(ia, ib):
                    cnf.add([-a, -b], -1)


def atom_arrays(cnf: Cnf, param_pos: dict[str, int]) -> dict[str, bytes]:
    """The bundle's ``cnf.atoms`` section: what each condition variable means.

    One row per interval, rows grouped by variable (ascending DIMACS number): variable
    ``var[j]`` holds when parameter ``axis[j]`` is present and inside one of its rows'
    intervals (``lo``/``hi``/``flags`` as in the boxes section), and is false when the
    parameter is present and outside all of them.
    """
    import numpy as np

    var, axis, lo, hi, flags = [], [], [], [], []
    for v in sorted(cnf.atom_intervals):
        for iv in cnf.atom_intervals[v]:
            low, high, flag = to_float_bounds(iv)
            var.append(v)
            axis.append(param_pos[cnf.atom_param[v]])
            lo.append(low)
            hi.append(high)
            flags.append(flag)
    return {
        "var": np.asarray(var, dtype="<i4").tobytes(),
        "axis": np.asarray(axis, dtype="<i4").tobytes(),
        "lo": np.asarray(lo, dtype="<f8").tobytes(),
        "hi": np.asarray(hi, dtype="<f8").tobytes(),
        "flags": np.asarray(flags, dtype="u1").tobytes(),
    }


__all__ = ["Cnf", "build_cnf", "action_key", "atom_arrays", "atom_name", "negated_intervals"]
