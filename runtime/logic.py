"""The logic path: which actions a sensor state entails, by the paper's CNF semantics.

A state makes facts of the condition variables whose parameter it knows (true inside
one of the variable's intervals, false outside all of them; NaN gives neither).  An
action Q is entailed when ``KB and facts and not Q`` is unsatisfiable; the state is in
conflict when ``KB and facts`` already is.  The verdicts are those of pycosat on the
whole knowledge base, computed faster: unit propagation in C (``csrc/logic.c``)
settles every Horn part exactly, and pycosat runs only on the cone of open clauses that
"every open variable false" cannot satisfy (usually none).  See ``LogicPath.evaluate``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt
import pycosat

from .backend import BACKEND, BackendName, load_native, native_error
from .bundle import Bundle
from .errors import KernelError, StateError

__all__ = ["Conflict", "Derivation", "LogicPath", "LogicResult"]

OK, CONFLICT, CONE = 0, 1, 2  # outcomes of one propagation (mirrors LG_* in logic.h)
REASON_NONE, REASON_FACT = -2, -1
SOFT_KINDS = frozenset({"constraint", "exclusion"})  # rules whose clauses can be violated
MAX_CORE = 64  # cones up to this many clauses get a minimal unsatisfiable core

_Run = tuple[int, npt.NDArray[np.int8], npt.NDArray[np.int32], list[int], int]


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
    _path: LogicPath = field(repr=False)
    _value: npt.NDArray[np.int8] = field(repr=False)
    _reason: npt.NDArray[np.int32] = field(repr=False)
    _cone: _Cone | None = field(repr=False)
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
            self._derivations = tuple(self._path._derive(self, q, value, reason, dropped)
                                      for q in self.actions)
        return self._derivations

    @property
    def rules(self) -> tuple[int, ...]:
        """Indexes of the rules that conclude an entailed action, ascending."""
        return tuple(sorted({r for d in self.derivations for r in d.rules}))

    def rule_evidence(self, rule_index: int) -> dict[str, Any] | None:
        """The logic evidence for one rule (None when it concludes nothing here)."""
        path = self._path
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
        path = self._path
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


class _Cone:
    """The cone as a small formula over its open variables (renumbered 1..n), solved by
    pycosat; its models are made minimal so that few variables need a refutation."""

    def __init__(self, clause_ids: list[int], formula: list[list[int]],
                 number: dict[int, int], model: list[int]) -> None:
        self.clause_ids = clause_ids
        self.formula = formula
        self.number = number  # DIMACS variable -> cone variable
        self._holds_pos: list[list[int]] = [[] for _ in range(len(number) + 1)]
        for i, clause in enumerate(formula):
            for lit in clause:
                if lit > 0:
                    self._holds_pos[lit].append(i)
        truth = self._minimal(model)
        self.model_true = {v for v, m in number.items() if truth[m]}
        self.known: dict[int, bool] = {}
        self.calls = 0

    def _minimal(self, model: list[int]) -> list[bool]:
        """The model with every variable made false that no clause needs true."""
        truth = [False] + [m > 0 for m in model[:len(self.number)]]
        formula, holds = self.formula, self._holds_pos
        changed = True
        while changed:
            changed = False
            for m in range(1, len(truth)):
                if truth[m] and all(
                    any(lit != m and truth[abs(lit)] == (lit > 0) for lit in formula[i])
                    for i in holds[m]
                ):
                    truth[m] = False
                    changed = True
        return truth

    def entails(self, var: int) -> bool:
        if var not in self.model_true:
            return False
        if var not in self.known:
            self.entailed_among([var])
        return self.known[var]

    def entailed_among(self, candidates: Iterable[int]) -> list[int]:
        """Entailed variables among ``candidates``: ask for a model where one of the
        remaining candidates is false; each such model (made minimal) clears the ones
        it falsifies, and "unsatisfiable" proves all the rest at once."""
        wanted = list(candidates)
        alive = {v for v in wanted if v in self.model_true and v not in self.known}
        while alive:
            self.calls += 1
            got = pycosat.solve([*self.formula, [-self.number[v] for v in sorted(alive)]])
            if got == "UNSAT":
                self.known.update(dict.fromkeys(alive, True))
                break
            assert isinstance(got, list)
            truth = self._minimal(got)
            cleared = {v for v in alive if not truth[self.number[v]]}
            self.known.update(dict.fromkeys(cleared, False))
            alive -= cleared
        return [v for v in wanted if self.known.get(v, False)]


class LogicPath:
    """Entailment and conflicts for sensor states, against one validated bundle.

    Built once per bundle (occurrence lists, unit and non-Horn clause lists, the
    interval rows of every condition variable); ``evaluate`` is thread-safe.
    """

    def __init__(self, bundle: Bundle, *, backend: BackendName | None = None) -> None:
        cnf = bundle.cnf
        self.bundle = bundle
        self.n_params = len(bundle.parameters)
        self.n_vars = len(cnf.variables)
        self.n_clauses = cnf.n_clauses
        start = np.ascontiguousarray(cnf.start, dtype=np.int32)
        lits = np.ascontiguousarray(cnf.literals, dtype=np.int32)
        self._start, self._lits = start, lits
        bounds = start.tolist()
        flat = lits.tolist()
        self.clauses: list[tuple[int, ...]] = [
            tuple(flat[bounds[c]:bounds[c + 1]]) for c in range(self.n_clauses)]
        self.clause_rule: list[int] = cnf.clause_rule.tolist()
        kinds = [v.kind for v in cnf.variables]
        self.action_vars = np.array([i + 1 for i, k in enumerate(kinds) if k == "action"],
                                    dtype=np.int64)
        self._action_list: list[int] = self.action_vars.tolist()
        self._action_set = frozenset(self._action_list)
        self._cond = _conditions(bundle)
        # occurrence lists by literal code (+v -> 2v, -v -> 2v + 1); within each, the
        # clauses every value of the parameter satisfies come last (from occ_mid on)
        sizes = np.diff(start)
        self.always = _always_true(self._cond, self.n_vars, start, lits)
        clause_of = np.repeat(np.arange(self.n_clauses, dtype=np.int32), sizes)
        codes = np.where(lits > 0, 2 * lits, -2 * lits + 1).astype(np.int64)
        late = self.always[clause_of]
        order = np.argsort(2 * codes + late, kind="stable")
        self._occ = np.ascontiguousarray(clause_of[order], dtype=np.int32)
        counts = np.bincount(codes, minlength=2 * self.n_vars + 2)
        self._occ_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
        early = np.bincount(codes[~late], minlength=2 * self.n_vars + 2)
        self._occ_mid = (self._occ_start[:-1] + early).astype(np.int32)
        self._occ_list: list[int] = self._occ.tolist()
        self._occ_start_list: list[int] = self._occ_start.tolist()
        positives = np.add.reduceat((lits > 0).astype(np.int32), start[:-1]) if self.n_clauses \
            else np.zeros(0, dtype=np.int32)
        self._units = np.flatnonzero(sizes == 1).astype(np.int32)
        self._nonhorn = np.flatnonzero(positives >= 2).astype(np.int32)
        rule_kind = [r.kind for r in bundle.rules]
        self.soft = np.array([r >= 0 and rule_kind[r] in SOFT_KINDS for r in self.clause_rule],
                             dtype=bool)
        self._soft_ids = np.flatnonzero(self.soft)
        soft_lits = np.concatenate(
            [lits[start[c]:start[c + 1]] for c in self._soft_ids.tolist()]
        ) if self._soft_ids.size else np.zeros(0, dtype=np.int32)
        self._soft_var = np.abs(soft_lits).astype(np.intp)
        self._soft_sign = np.sign(soft_lits).astype(np.int8)
        self._soft_start = np.concatenate(
            [[0], np.cumsum(sizes[self._soft_ids])[:-1]]).astype(np.intp)
        self._soft_mask = np.zeros(self.n_clauses, dtype=np.uint8)
        self._soft_mask[self._soft_ids] = 1
        chosen = BACKEND if backend is None else backend
        self._lock = threading.Lock()
        self._native: _NativeRunner | None = None
        if chosen == "native":
            module = load_native()
            if module is None or not hasattr(module.lib, "lg_evaluate"):
                raise KernelError(f"native logic kernel not available: {native_error()}")
            self._native = _NativeRunner(self, module)
        elif chosen != "numpy":
            raise ValueError(f"unknown backend {chosen!r}; use 'native' or 'numpy'")
        self.backend: BackendName = chosen

    @property
    def has_atoms(self) -> bool:
        """False for a bundle without ``cnf.atoms``: no state then makes any fact."""
        return self.bundle.cnf.atoms is not None

    # ------------------------------------------------------------------ names

    def var_name(self, var: int) -> str:
        return self.bundle.cnf.variables[var - 1].name

    def literal_text(self, lit: int) -> str:
        return self.var_name(lit) if lit > 0 else f"not {self.var_name(-lit)}"

    def rule_id(self, index: int) -> str:
        return self.bundle.rules[index].id

    def clause_text(self, c: int) -> str:
        return " OR ".join(("NOT " if x < 0 else "") + f"[{self.var_name(abs(x))}]"
                           for x in self.clauses[c])

    # ------------------------------------------------------------------ evaluation

    def evaluate(self, x: npt.ArrayLike) -> LogicResult:
        """Entailed actions and conflicts for the dense state ``x`` (NaN = unknown)."""
        state = np.ascontiguousarray(x, dtype=np.float64)
        if state.shape != (self.n_params,):
            raise StateError(f"state has shape {state.shape}, expected ({self.n_params},)")
        with self._lock:
            status, value, reason, cone_ids, conflict = self._run(state, None)
            if status == OK:
                true = (self._native.true_actions() if self._native is not None
                        else self.action_vars[value[self.action_vars] > 0].tolist())
                return LogicResult(True, tuple(true), (), (), 0, self,
                                   value.copy(), reason.copy(), None)
            cone = None
            if status == CONE:
                cone = self._solve_cone(value, cone_ids)
                if cone is not None:
                    return self._result(True, value, reason, cone, (), (), 1)
            calls = 1 if status == CONE else 0
            return self._analyse(state, calls)

    def _run(self, x: npt.NDArray[np.float64], skip: npt.NDArray[np.uint8] | None) -> _Run:
        if self._native is not None:
            return self._native.run(x, skip)
        return _py_evaluate(self, x, skip)

    def _result(self, consistent: bool, value: npt.NDArray[np.int8],
                reason: npt.NDArray[np.int32], cone: _Cone | None,
                conflicts: tuple[Conflict, ...], dropped: tuple[int, ...],
                calls: int) -> LogicResult:
        true = self.action_vars[value[self.action_vars] > 0].tolist()
        if cone is not None:
            candidates = sorted(v for v in cone.model_true if v in self._action_set)
            true = sorted({*true, *cone.entailed_among(candidates)})
            calls += cone.calls
        return LogicResult(consistent, tuple(true), conflicts, dropped, calls, self,
                           value.copy(), reason.copy(), cone)

    def _solve_cone(self, value: npt.NDArray[np.int8], cone_ids: list[int]) -> _Cone | None:
        """The cone as a small formula over its open variables; None when unsatisfiable."""
        ids = np.asarray(cone_ids, dtype=np.int64)
        begin, end = self._start[ids], self._start[ids + 1]
        sizes = end - begin
        offsets = np.repeat(begin - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
        lits = self._lits[np.arange(int(sizes.sum())) + offsets]
        var = np.abs(lits)
        keep = value[var] == 0
        owner = np.repeat(np.arange(len(cone_ids)), sizes)[keep]
        opened, renumbered = np.unique(var[keep], return_inverse=True)
        signed = np.where(lits[keep] > 0, renumbered + 1, -(renumbered + 1)).tolist()
        formula: list[list[int]] = [[] for _ in cone_ids]
        for i, lit in zip(owner.tolist(), signed, strict=True):
            formula[i].append(lit)
        number = {int(v): m for m, v in enumerate(opened.tolist(), 1)}
        model = pycosat.solve(formula)
        if model == "UNSAT":
            return None
        assert isinstance(model, list)
        return _Cone(list(cone_ids), formula, number, model)

    # ------------------------------------------------------------------ conflicts

    def _analyse(self, x: npt.NDArray[np.float64], calls: int) -> LogicResult:
        """The state contradicts the KB: name the violated rules, set their clauses aside
        one conflict at a time, and answer for what remains."""
        conflicts: list[Conflict] = []
        # 1. What the if-then rules alone derive; soft clauses it falsifies are violated.
        _, value, reason, _, _ = self._run(x, self._soft_mask)
        skip = np.zeros(self.n_clauses, dtype=np.uint8)
        for group in self._violated_soft(value):
            conflicts.append(
                self._conflict(group, *self._chain(value.item, reason.item, list(group))))
            skip[list(group)] = 1
        # 2. Whatever still contradicts: a propagation chain or a solver core at a time.
        for _ in range(self.n_clauses + 1):
            status, value, reason, cone_ids, conflict = self._run(x, skip)
            if status == OK:
                return self._result(False, value, reason, None, tuple(conflicts),
                                    tuple(np.flatnonzero(skip).tolist()), calls)
            if status == CONE:
                calls += 1
                cone = self._solve_cone(value, cone_ids)
                if cone is not None:
                    return self._result(False, value, reason, cone, tuple(conflicts),
                                        tuple(np.flatnonzero(skip).tolist()), calls)
                core, used = self._core(value, cone_ids)
                calls += used
                clauses, facts = self._chain(value.item, reason.item, core)
            else:
                clauses, facts = self._chain(value.item, reason.item, [conflict])
            culprits = sorted(c for c in clauses if self.soft[c]) or sorted(clauses)
            conflicts.append(self._conflict(tuple(culprits), clauses, facts))
            skip[culprits] = 1
        raise AssertionError("conflict analysis did not terminate")  # pragma: no cover

    def _violated_soft(self, value: npt.NDArray[np.int8]) -> list[tuple[int, ...]]:
        """Soft clauses whose every literal is false, grouped by rule."""
        if not self._soft_ids.size:
            return []
        truth = value[self._soft_var] * self._soft_sign
        false = np.maximum.reduceat(truth, self._soft_start) < 0
        by_rule: dict[int, list[int]] = {}
        for c in self._soft_ids[false].tolist():
            by_rule.setdefault(self.clause_rule[c], []).append(c)
        return [tuple(cs) for _, cs in sorted(by_rule.items())]

    def _conflict(self, culprits: tuple[int, ...], clauses: set[int],
                  facts: set[int]) -> Conflict:
        """Describe the clauses set aside (``culprits``) and the chain that refutes them."""
        owners = sorted({self.clause_rule[c] for c in culprits if self.clause_rule[c] >= 0})
        support = sorted({self.clause_rule[c] for c in clauses
                          if self.clause_rule[c] >= 0} - set(owners))
        rules = self.bundle.rules
        kinds = {rules[r].kind for r in owners}
        actions: tuple[int, ...] = ()
        if kinds == {"exclusion"} and len(culprits) == 1:
            actions = tuple(sorted(abs(lit) for lit in self.clauses[culprits[0]]))
            names = " and ".join(repr(self.var_name(a)) for a in actions)
            why = ", ".join(self.rule_id(r) for r in support) or "the facts"
            message = (f"{names} cannot coexist ({self.rule_id(owners[0])}) but both "
                       f"follow from {why}")
            kind = "exclusion"
        elif kinds == {"constraint"} and len(owners) == 1:
            spec = rules[owners[0]]
            message = f"constraint {spec.id} is violated ({spec.condition_text})"
            kind = "constraint"
        else:
            text = "; ".join(self.clause_text(c) for c in culprits)
            message = f"the facts contradict {text}"
            kind = "inconsistent"
        return Conflict(kind, tuple(owners + support), actions, tuple(sorted(clauses)),
                        tuple(sorted(facts, key=abs)), message)

    def _core(self, value: npt.NDArray[np.int8], cone_ids: list[int]) -> tuple[list[int], int]:
        """A minimal unsatisfiable subset of an unsatisfiable cone (whole cone if large)."""
        if len(cone_ids) > MAX_CORE:
            return list(cone_ids), 0
        keep = list(cone_ids)
        calls = 0
        for c in list(cone_ids):
            trial = [d for d in keep if d != c]
            calls += 1
            if pycosat.solve(self._reduced(value, trial)) == "UNSAT":
                keep = trial
        return keep, calls

    def _reduced(self, value: npt.NDArray[np.int8], clause_ids: list[int]) -> list[list[int]]:
        return [[lit for lit in self.clauses[c] if value[abs(lit)] == 0] for c in clause_ids]

    # ------------------------------------------------------------------ evidence

    def _chain(self, value: Callable[[int], int], reason: Callable[[int], int],
               roots: list[int]) -> tuple[set[int], set[int]]:
        """Clauses and facts behind the false literals of ``roots`` (propagation reasons);
        ``value``/``reason`` give a variable's entry (``ndarray.item``)."""
        clauses = set(roots)
        facts: set[int] = set()
        seen: set[int] = set()
        stack = [c for c in roots]
        while stack:
            c = stack.pop()
            for lit in self.clauses[c]:
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

    def _derive(self, result: LogicResult, q: int, value: Callable[[int], int],
                reason: Callable[[int], int], dropped: set[int]) -> Derivation:
        """The rules concluding q: every clause ``... or q`` whose other literals are
        false (not only the first that propagated), with the chains behind them."""
        if value(q) > 0:
            heads = []
            occ = self._occ_list[self._occ_start_list[2 * q]:self._occ_start_list[2 * q + 1]]
            for c in occ:
                if c not in dropped and all(
                        lit == q or value(abs(lit)) * lit < 0 for lit in self.clauses[c]):
                    heads.append(c)
            method = "propagation"
        else:
            assert result._cone is not None
            heads, _ = self._refutation_core(result, q)
            method = "refutation"
        clauses, facts = self._chain(value, reason, heads)
        owners = sorted({self.clause_rule[c] for c in heads if self.clause_rule[c] >= 0})
        support = sorted({self.clause_rule[c] for c in clauses if self.clause_rule[c] >= 0}
                         - set(owners))
        return Derivation(q, tuple(owners), tuple(support), tuple(sorted(clauses)),
                          tuple(sorted(facts, key=abs)), method)

    def _refutation_core(self, result: LogicResult, q: int) -> tuple[list[int], int]:
        cone = result._cone
        assert cone is not None
        ids = cone.clause_ids
        negated = [-cone.number[q]]
        if len(ids) > MAX_CORE:
            return list(ids), 0
        keep = list(range(len(ids)))
        calls = 0
        for i in range(len(ids)):
            trial = [j for j in keep if j != i]
            calls += 1
            if pycosat.solve([*(cone.formula[j] for j in trial), negated]) == "UNSAT":
                keep = trial
        return [ids[j] for j in keep], calls


def _conditions(bundle: Bundle) -> dict[str, npt.NDArray[Any]]:
    """Condition variables grouped with their rows; strict bounds made inclusive."""
    atoms = bundle.cnf.atoms
    if atoms is None or atoms.n_rows == 0:
        empty_i = np.zeros(0, dtype=np.int32)
        return {"var": empty_i, "axis": empty_i, "row": np.zeros(1, dtype=np.int32),
                "lo": np.zeros(0), "hi": np.zeros(0)}
    var = np.asarray(atoms.var, dtype=np.int32)
    first = np.flatnonzero(np.concatenate([[True], var[1:] != var[:-1]]))
    lo_in = (atoms.flags & 1).astype(bool)
    hi_in = (atoms.flags & 2).astype(bool)
    with np.errstate(over="ignore"):
        lo = np.where(lo_in, atoms.lo, np.nextafter(atoms.lo, np.inf))
        hi = np.where(hi_in, atoms.hi, np.nextafter(atoms.hi, -np.inf))
    return {
        "var": np.ascontiguousarray(var[first]),
        "axis": np.ascontiguousarray(atoms.axis[first], dtype=np.int32),
        "row": np.concatenate([first, [var.shape[0]]]).astype(np.int32),
        "lo": np.ascontiguousarray(lo, dtype=np.float64),
        "hi": np.ascontiguousarray(hi, dtype=np.float64),
    }


def _always_true(cond: dict[str, npt.NDArray[Any]], n_vars: int, start: npt.NDArray[np.int32],
                 lits: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
    """Clauses over condition variables of one parameter that every value of it
    satisfies, like ``x > 800 -> x > 600``: once the value is known they hold, so
    propagation from its facts skips them.  Exact on doubles: the truth of a variable
    changes only between a bound and its neighbour, so those points cover every case."""
    n_clauses = start.shape[0] - 1
    out = np.zeros(n_clauses, dtype=bool)
    if not n_clauses or not cond["var"].size:
        return out
    var_axis = np.full(n_vars + 1, -1, dtype=np.int64)
    var_axis[cond["var"]] = cond["axis"]
    axes = var_axis[np.abs(lits)]
    lo_ax = np.minimum.reduceat(axes, start[:-1])
    candidate = (lo_ax == np.maximum.reduceat(axes, start[:-1])) & (lo_ax >= 0)
    ids = np.flatnonzero(candidate)
    if not ids.size:
        return out
    # candidate clauses as a padded table of signed literals (0 = padding)
    sizes = (start[ids + 1] - start[ids]).astype(np.int64)
    width = int(sizes.max())
    at = start[ids][:, None] + np.arange(width)
    table = np.where(np.arange(width) < sizes[:, None], lits[np.minimum(at, lits.shape[0] - 1)], 0)
    # each condition variable's slot among the variables of its axis (1-based)
    slot = np.zeros(n_vars + 1, dtype=np.int64)
    row_cond = np.repeat(np.arange(cond["var"].shape[0]), np.diff(cond["row"]))
    row_axis = cond["axis"][row_cond]
    for axis in np.unique(lo_ax[ids]).tolist():
        local = np.flatnonzero(cond["axis"] == axis)
        slot[cond["var"][local]] = np.arange(1, local.shape[0] + 1)
        rows = np.flatnonzero(row_axis == axis)
        lo, hi = cond["lo"][rows], cond["hi"][rows]
        with np.errstate(over="ignore"):
            points = np.unique(np.concatenate([
                lo, hi, np.nextafter(lo, -np.inf), np.nextafter(hi, np.inf), [-np.inf, np.inf]]))
        truth = np.zeros((local.shape[0] + 1, points.shape[0]), dtype=bool)  # row 0: padding
        np.logical_or.at(truth, slot[cond["var"][row_cond[rows]]],
                         (lo[:, None] <= points) & (points <= hi[:, None]))
        mine = np.flatnonzero(lo_ax[ids] == axis)
        signed = table[mine]
        lit_truth = truth[slot[np.abs(signed)] * (signed != 0)]  # (clauses, width, points)
        lit_truth ^= (signed < 0)[:, :, None]
        lit_truth &= (signed != 0)[:, :, None]
        out[ids[mine]] = lit_truth.any(axis=1).all(axis=1)
    return out


class _NativeRunner:
    """The database and scratch arrays handed to ``lg_evaluate`` (csrc/logic.c)."""

    def __init__(self, path: LogicPath, module: ModuleType) -> None:
        self._ffi, self._lib = module.ffi, module.lib
        ffi = self._ffi
        self._keep: list[Any] = []
        n_vars, n_clauses = path.n_vars, path.n_clauses
        cond = path._cond
        db = ffi.new("lg_db *")
        db.n_vars, db.n_clauses, db.n_params = n_vars, n_clauses, path.n_params
        db.start = self._ptr("int32_t[]", path._start)
        db.lits = self._ptr("int32_t[]", path._lits)
        db.occ_start = self._ptr("int32_t[]", path._occ_start)
        db.occ = self._ptr("int32_t[]", path._occ)
        db.occ_mid = self._ptr("int32_t[]", path._occ_mid)
        db.n_units, db.units = len(path._units), self._ptr("int32_t[]", path._units)
        db.n_nonhorn, db.nonhorn = len(path._nonhorn), self._ptr("int32_t[]", path._nonhorn)
        db.n_cond = len(cond["var"])
        db.cond_var = self._ptr("int32_t[]", cond["var"])
        db.cond_axis = self._ptr("int32_t[]", cond["axis"])
        db.cond_row = self._ptr("int32_t[]", cond["row"])
        db.row_lo = self._ptr("double[]", cond["lo"])
        db.row_hi = self._ptr("double[]", cond["hi"])
        var = cond["var"].astype(np.int64)
        early = path._occ_mid - path._occ_start[:-1]
        watch = (early[2 * var] > 0).astype(np.uint8) | 2 * (early[2 * var + 1] > 0).astype(
            np.uint8)
        db.cond_watch = self._ptr("uint8_t[]", watch)
        report = np.zeros(n_vars + 1, dtype=np.uint8)
        report[path.action_vars] = 1
        db.report = self._ptr("uint8_t[]", report)
        status = self._lib.lg_validate(db)
        if status != self._lib.LG_OK:
            raise KernelError(f"logic kernel refused the clause database (status {status})")
        self._db = db
        self.value = np.zeros(n_vars + 1, dtype=np.int8)
        self.reason = np.full(n_vars + 1, REASON_NONE, dtype=np.int32)
        self.cone = np.zeros(max(n_clauses, 1), dtype=np.int32)
        w = ffi.new("lg_work *")
        w.value = self._ptr("int8_t[]", self.value)
        w.reason = self._ptr("int32_t[]", self.reason)
        w.trail = self._ptr("int32_t[]", np.zeros(max(n_vars, 1), dtype=np.int32))
        w.nfalse = self._ptr("int32_t[]", np.zeros(max(n_clauses, 1), dtype=np.int32))
        w.touched = self._ptr("int32_t[]", np.zeros(max(n_clauses, 1), dtype=np.int32))
        w.cmark = self._ptr("uint8_t[]", np.zeros(max(n_clauses, 1), dtype=np.uint8))
        w.cone = self._ptr("int32_t[]", self.cone)
        w.vmark = self._ptr("uint8_t[]", np.zeros(n_vars + 1, dtype=np.uint8))
        w.cone_vars = self._ptr("int32_t[]", np.zeros(max(n_vars, 1), dtype=np.int32))
        self.reported = np.zeros(max(n_vars, 1), dtype=np.int32)
        w.reported = self._ptr("int32_t[]", self.reported)
        w.n_trail = w.n_touched = w.n_cone = w.n_cone_vars = w.n_reported = 0
        w.conflict = -1
        self._w = w
        self._no_skip = ffi.NULL

    def _ptr(self, ctype: str, arr: npt.NDArray[Any]) -> Any:
        arr = np.ascontiguousarray(arr)
        ptr = self._ffi.from_buffer(ctype, arr, require_writable=False)
        self._keep.append((arr, ptr))
        return ptr

    def run(self, x: npt.NDArray[np.float64], skip: npt.NDArray[np.uint8] | None) -> _Run:
        ffi = self._ffi
        sk = self._no_skip if skip is None else ffi.from_buffer("uint8_t[]", skip)
        status = self._lib.lg_evaluate(self._db, self._w, ffi.from_buffer("double[]", x),
                                       x.shape[0], sk)
        if status < 0:
            raise KernelError(f"logic kernel failed (status {status})")
        cone = self.cone[:self._w.n_cone].tolist() if status == CONE else []
        return status, self.value, self.reason, cone, int(self._w.conflict)

    def true_actions(self) -> list[int]:
        """The actions the last run made true, ascending."""
        return sorted(self.reported[:self._w.n_reported].tolist())


def _py_evaluate(path: LogicPath, x: npt.NDArray[np.float64],
                 skip: npt.NDArray[np.uint8] | None) -> _Run:
    """The same propagation as ``lg_evaluate``, in Python (``RULEC_PUREPYTHON=1``)."""
    n_vars = path.n_vars
    value = np.zeros(n_vars + 1, dtype=np.int8)
    reason = np.full(n_vars + 1, REASON_NONE, dtype=np.int32)
    val = [0] * (n_vars + 1)
    why = [REASON_NONE] * (n_vars + 1)
    trail: list[int] = []
    clauses = path.clauses
    skipped = set(np.flatnonzero(skip).tolist()) if skip is not None else set()

    def done(status: int, cone: list[int], conflict: int) -> _Run:
        value[:] = val
        reason[:] = why
        return status, value, reason, cone, conflict

    def assign(lit: int, because: int) -> None:
        v = abs(lit)
        val[v] = 1 if lit > 0 else -1
        why[v] = because
        trail.append(v)

    cond = path._cond
    rows, lo, hi = cond["row"].tolist(), cond["lo"].tolist(), cond["hi"].tolist()
    for k, (var, axis) in enumerate(zip(cond["var"].tolist(), cond["axis"].tolist(),
                                        strict=True)):
        v = float(x[axis])
        if v != v:
            continue
        inside = any(lo[r] <= v <= hi[r] for r in range(rows[k], rows[k + 1]))
        assign(var if inside else -var, REASON_FACT)
    for c in path._units.tolist():
        if c in skipped:
            continue
        lit = clauses[c][0]
        now = val[abs(lit)] * (1 if lit > 0 else -1)
        if now < 0:
            return done(CONFLICT, [], c)
        if now == 0:
            assign(lit, c)
    occ, occ_start, occ_mid = path._occ.tolist(), path._occ_start.tolist(), path._occ_mid.tolist()
    nfalse = [0] * path.n_clauses
    head = 0
    while head < len(trail):
        v = trail[head]
        head += 1
        code = 2 * v + 1 if val[v] > 0 else 2 * v
        end = occ_mid[code] if why[v] == REASON_FACT else occ_start[code + 1]
        for c in occ[occ_start[code]:end]:
            if c in skipped:
                continue
            nfalse[c] += 1
            clause = clauses[c]
            if nfalse[c] < len(clause) - 1:
                continue
            open_lit = 0
            sat = False
            for lit in clause:
                now = val[abs(lit)] * (1 if lit > 0 else -1)
                if now > 0:
                    sat = True
                    break
                if now == 0:
                    open_lit = lit
            if sat:
                continue
            if open_lit == 0:
                return done(CONFLICT, [], c)
            assign(open_lit, c)

    def lit_val(lit: int) -> int:
        return val[abs(lit)] * (1 if lit > 0 else -1)

    cone: list[int] = []
    marked: set[int] = set()
    for c in path._nonhorn.tolist():
        if c in skipped:
            continue
        if all(lit_val(lit) < 0 or (lit_val(lit) == 0 and lit > 0) for lit in clauses[c]):
            marked.add(c)
            cone.append(c)
    seen: set[int] = set()
    head = 0
    while head < len(cone):
        c = cone[head]
        head += 1
        for lit in clauses[c]:
            v = abs(lit)
            if val[v] != 0 or v in seen:
                continue
            seen.add(v)
            for d in occ[occ_start[2 * v + 1]:occ_start[2 * v + 2]]:
                if d in skipped or d in marked or any(lit_val(m) > 0 for m in clauses[d]):
                    continue
                if any(m < 0 and val[-m] == 0 and -m not in seen for m in clauses[d]):
                    continue  # negates a variable outside the cone: "all false" holds it
                marked.add(d)
                cone.append(d)
    return done(CONE if cone else OK, cone, -1)
