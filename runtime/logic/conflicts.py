"""Conflict analysis for the logic path: a state that contradicts the knowledge base gets
its violated rules named (``Conflict``), their clauses set aside one conflict at a time,
and the verdicts of what remains (``LogicResult.actions`` with ``consistent`` False).

Apart from the path because it runs only on conflicting states, and reads best as the
one procedure it is.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from rulec.runtime.logic.clauses import ClauseArrays
from rulec.runtime.logic.cone import minimal_core, solve_cone
from rulec.runtime.logic.names import ClauseNames
from rulec.runtime.logic.propagation import CONE, OK, Run
from rulec.runtime.logic.result import Conflict, LogicResult, build_result, chain

Propagate = Callable[[npt.NDArray[np.float64], npt.NDArray[np.uint8] | None], Run]


def analyse(path: ClauseNames, propagate: Propagate, x: npt.NDArray[np.float64],
            calls: int) -> LogicResult:
    """The state contradicts the KB: name the violated rules, set their clauses aside
    one conflict at a time, and answer for what remains.  ``propagate`` is one run of
    unit propagation with some clauses set aside."""
    arrays = path.arrays
    conflicts: list[Conflict] = []
    # 1. What the if-then rules alone derive; soft clauses it falsifies are violated.
    _, value, reason, _, _ = propagate(x, arrays.soft_mask)
    skip = np.zeros(arrays.n_clauses, dtype=np.uint8)
    for group in _violated_soft(arrays, value):
        conflicts.append(
            _describe(path, group, *chain(arrays, value.item, reason.item, list(group))))
        skip[list(group)] = 1
    # 2. Whatever still contradicts: a propagation chain or a solver core at a time.
    for _ in range(arrays.n_clauses + 1):
        status, value, reason, cone_ids, conflict = propagate(x, skip)
        if status == OK:
            return build_result(path, False, value, reason, None, tuple(conflicts),
                                tuple(np.flatnonzero(skip).tolist()), calls)
        if status == CONE:
            calls += 1
            cone = solve_cone(arrays, value, cone_ids)
            if cone is not None:
                return build_result(path, False, value, reason, cone, tuple(conflicts),
                                    tuple(np.flatnonzero(skip).tolist()), calls)
            core, used = minimal_core(arrays, value, cone_ids)
            calls += used
            clauses, facts = chain(arrays, value.item, reason.item, core)
        else:
            clauses, facts = chain(arrays, value.item, reason.item, [conflict])
        culprits = sorted(c for c in clauses if arrays.soft[c]) or sorted(clauses)
        conflicts.append(_describe(path, tuple(culprits), clauses, facts))
        skip[culprits] = 1
    raise AssertionError("conflict analysis did not terminate")  # pragma: no cover


def _violated_soft(arrays: ClauseArrays, value: npt.NDArray[np.int8]) -> list[tuple[int, ...]]:
    """Soft clauses whose every literal is false, grouped by rule."""
    if not arrays.soft_ids.size:
        return []
    truth = value[arrays.soft_var] * arrays.soft_sign
    false = np.maximum.reduceat(truth, arrays.soft_start) < 0
    by_rule: dict[int, list[int]] = {}
    for c in arrays.soft_ids[false].tolist():
        by_rule.setdefault(arrays.clause_rule[c], []).append(c)
    return [tuple(cs) for _, cs in sorted(by_rule.items())]


def _describe(path: ClauseNames, culprits: tuple[int, ...], clauses: set[int],
              facts: set[int]) -> Conflict:
    """Describe the clauses set aside (``culprits``) and the chain that refutes them."""
    clause_rule = path.arrays.clause_rule
    owners = sorted({clause_rule[c] for c in culprits if clause_rule[c] >= 0})
    support = sorted({clause_rule[c] for c in clauses if clause_rule[c] >= 0} - set(owners))
    rules = path.bundle.rules
    kinds = {rules[r].kind for r in owners}
    actions: tuple[int, ...] = ()
    if kinds == {"exclusion"} and len(culprits) == 1:
        actions = tuple(sorted(abs(lit) for lit in path.arrays.clauses[culprits[0]]))
        names = " and ".join(repr(path.var_name(a)) for a in actions)
        why = ", ".join(path.rule_id(r) for r in support) or "the facts"
        message = (f"{names} cannot coexist ({path.rule_id(owners[0])}) but both "
                   f"follow from {why}")
        kind = "exclusion"
    elif kinds == {"constraint"} and len(owners) == 1:
        spec = rules[owners[0]]
        message = f"constraint {spec.id} is violated ({spec.condition_text})"
        kind = "constraint"
    else:
        text = "; ".join(path.clause_text(c) for c in culprits)
        message = f"the facts contradict {text}"
        kind = "inconsistent"
    return Conflict(kind, tuple(owners + support), actions, tuple(sorted(clauses)),
                    tuple(sorted(facts, key=abs)), message)
