"""What the logic path answers for one state (``LogicResult``) and the evidence behind
it: ``Derivation`` for an entailed action and ``Conflict`` for clauses the facts violate,
both read off the propagation reasons by ``chain``.

Apart from the path so that the answer, and how it explains itself, read on one page;
the derivations are only computed when asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from rulec.runtime.logic.clauses import ClauseArrays
from rulec.runtime.logic.cone import Cone, refutation_core
from rulec.runtime.logic.names import ClauseNames
from rulec.runtime.logic.propagation import REASON_FACT


@dataclass(frozen=True)
class Derivation:
    """Why an action is entailed: the rules that conclude it, the chain behind them."""

    var: int  # DIMACS number of the action
    rules: tuple[int, ...]  # rule indexes whose clauses conclude the action
    support: tuple[int, ...]  # rule indexes of the other clauses in the chain
    clauses: tuple[int, ...]  # every clause of the chain
    facts: tuple[int, ...]  # condition literals read from the state (+v holds, -v not)
    method: str  # "propagation" (a chain of unit clauses) or "refutation" (solver)


@dataclass(frozen=True)
class Conflict:
    """Clauses that the facts violate: a constraint, an exclusion, or a wider core."""

    kind: str  # "constraint" | "exclusion" | "inconsistent"
    rules: tuple[int, ...]  # the violated rules first, then the rules that led there
    actions: tuple[int, ...]  # entailed actions that cannot coexist (exclusion)
    clauses: tuple[int, ...]
    facts: tuple[int, ...]
    message: str


@dataclass
class LogicResult:
    """The logic path's answer for one state.

    ``consistent`` and ``entails`` follow the whole knowledge base exactly (in a
    conflicting state everything is entailed, as in classical logic).  ``actions`` are
    the entailed action variables; in a conflicting state they are those entailed once
    the violated clauses (``dropped``) are set aside, so the advisories still follow.
    """

    consistent: bool
    actions: tuple[int, ...]
    conflicts: tuple[Conflict, ...]
    dropped: tuple[int, ...]
    solver_calls: int
    _names: ClauseNames = field(repr=False)
    _value: npt.NDArray[np.int8] = field(repr=False)
    _reason: npt.NDArray[np.int32] = field(repr=False)
    _cone: Cone | None = field(repr=False)
    _derivations: tuple[Derivation, ...] | None = field(default=None, repr=False)

    def value_of(self, var: int) -> int:
        """What facts and propagation made of a variable: 1 true, -1 false, 0 open (for a
        condition variable, 0 means its parameter is unknown)."""
        if not 1 <= var < self._value.shape[0]:
            raise ValueError(f"no variable {var}")
        return int(self._value[var])

    def entails(self, var: int) -> bool:
        """Whether ``KB and facts and not var`` is unsatisfiable (var a DIMACS number)."""
        if not self.consistent:
            return True
        return self.entails_relaxed(var)

    def entails_relaxed(self, var: int) -> bool:
        """Entailment once the ``dropped`` clauses are set aside (= ``entails`` when
        consistent)."""
        value = self.value_of(var)
        if value:
            return value > 0
        return self._cone is not None and self._cone.entails(var)

    @property
    def derivations(self) -> tuple[Derivation, ...]:
        """One per entailed action, in ``actions`` order (computed on first use)."""
        if self._derivations is None:
            value, reason = self._value.item, self._reason.item
            dropped = set(self.dropped)
            arrays = self._names.arrays
            self._derivations = tuple(derive(arrays, self, q, value, reason, dropped)
                                      for q in self.actions)
        return self._derivations

    @property
    def rules(self) -> tuple[int, ...]:
        """Indexes of the rules that conclude an entailed action, ascending."""
        return tuple(sorted({r for d in self.derivations for r in d.rules}))

    def rule_evidence(self, rule_index: int) -> dict[str, Any] | None:
        """The logic evidence for one rule (None when it concludes nothing here)."""
        path = self._names
        found = [d for d in self.derivations if rule_index in d.rules]
        if not found:
            return None
        return {
            "entails": [path.var_name(d.var) for d in found],
            "method": found[0].method,
            "chain": sorted({path.rule_id(r) for d in found for r in (*d.rules, *d.support)}),
            "facts": [path.literal_text(f) for f in sorted({f for d in found for f in d.facts},
                                                            key=abs)],
        }

    def to_json(self, chains: bool = True) -> dict[str, Any]:
        """A JSON-ready summary: entailed actions with their rules, and conflicts."""
        path = self._names
        entailed = []
        for d in self.derivations:
            item: dict[str, Any] = {
                "action": path.var_name(d.var),
                "rules": [path.rule_id(r) for r in d.rules],
                "method": d.method,
            }
            if chains:
                item["support"] = [path.rule_id(r) for r in d.support]
                item["facts"] = [path.literal_text(f) for f in d.facts]
            entailed.append(item)
        conflicts = []
        for c in self.conflicts:
            item = {"kind": c.kind, "rules": [path.rule_id(r) for r in c.rules],
                    "message": c.message}
            if c.actions:
                item["actions"] = [path.var_name(a) for a in c.actions]
            if chains:
                item["facts"] = [path.literal_text(f) for f in c.facts]
            conflicts.append(item)
        return {"consistent": self.consistent, "entailed": entailed, "conflicts": conflicts,
                "solver_calls": self.solver_calls}


def build_result(path: ClauseNames, consistent: bool, value: npt.NDArray[np.int8],
                 reason: npt.NDArray[np.int32], cone: Cone | None,
                 conflicts: tuple[Conflict, ...], dropped: tuple[int, ...],
                 calls: int) -> LogicResult:
    """The result of a propagation run, with the cone's entailed actions added."""
    action_vars = path.arrays.action_vars
    true = action_vars[value[action_vars] > 0].tolist()
    if cone is not None:
        candidates = sorted(v for v in cone.model_true if v in path.arrays.action_set)
        true = sorted({*true, *cone.entailed_among(candidates)})
        calls += cone.calls
    return LogicResult(consistent, tuple(true), conflicts, dropped, calls, path,
                       value.copy(), reason.copy(), cone)


def chain(arrays: ClauseArrays, value: Callable[[int], int], reason: Callable[[int], int],
          roots: list[int]) -> tuple[set[int], set[int]]:
    """Clauses and facts behind the false literals of ``roots`` (propagation reasons);
    ``value``/``reason`` give a variable's entry (``ndarray.item``)."""
    all_clauses = arrays.clauses
    clauses = set(roots)
    facts: set[int] = set()
    seen: set[int] = set()
    stack = [c for c in roots]
    while stack:
        c = stack.pop()
        for lit in all_clauses[c]:
            v = abs(lit)
            val = value(v)
            if v in seen or val == 0 or (val > 0) == (lit > 0):
                continue  # open, or the literal this clause makes true
            seen.add(v)
            why = reason(v)
            if why == REASON_FACT:
                facts.add(v if val > 0 else -v)
            elif why >= 0 and why not in clauses:
                clauses.add(why)
                stack.append(why)
    return clauses, facts


def derive(arrays: ClauseArrays, result: LogicResult, q: int, value: Callable[[int], int],
           reason: Callable[[int], int], dropped: set[int]) -> Derivation:
    """The rules concluding q: every clause ``... or q`` whose other literals are
    false (not only the first that propagated), with the chains behind them."""
    clause_rule = arrays.clause_rule
    if value(q) > 0:
        heads = []
        occ = arrays.occ_list[arrays.occ_start_list[2 * q]:arrays.occ_start_list[2 * q + 1]]
        for c in occ:
            if c not in dropped and all(
                    lit == q or value(abs(lit)) * lit < 0 for lit in arrays.clauses[c]):
                heads.append(c)
        method = "propagation"
    else:
        assert result._cone is not None
        heads, _ = refutation_core(result._cone, q)
        method = "refutation"
    clauses, facts = chain(arrays, value, reason, heads)
    owners = sorted({clause_rule[c] for c in heads if clause_rule[c] >= 0})
    support = sorted({clause_rule[c] for c in clauses if clause_rule[c] >= 0} - set(owners))
    return Derivation(q, tuple(owners), tuple(support), tuple(sorted(clauses)),
                      tuple(sorted(facts, key=abs)), method)
