"""The solver side of the logic path: when propagation leaves a cone of open non-Horn
clauses, ``solve_cone`` hands it to pycosat as a small formula (``Cone``, whose models are
made minimal so that few variables need a refutation); ``minimal_core`` and
``refutation_core`` shrink an unsatisfiable cone to the clauses that matter for evidence.

Every pycosat call of the logic path is here, apart from the propagation that usually
makes them unnecessary (``propagation.py``).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
import pycosat

from rulec.runtime.logic.clauses import ClauseArrays

MAX_CORE = 64  # cones up to this many clauses get a minimal unsatisfiable core


class Cone:
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


def solve_cone(arrays: ClauseArrays, value: npt.NDArray[np.int8],
               cone_ids: list[int]) -> Cone | None:
    """The cone as a small formula over its open variables; None when unsatisfiable."""
    ids = np.asarray(cone_ids, dtype=np.int64)
    begin, end = arrays.start[ids], arrays.start[ids + 1]
    sizes = end - begin
    offsets = np.repeat(begin - np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes)
    lits = arrays.lits[np.arange(int(sizes.sum())) + offsets]
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
    return Cone(list(cone_ids), formula, number, model)


def minimal_core(arrays: ClauseArrays, value: npt.NDArray[np.int8],
                 cone_ids: list[int]) -> tuple[list[int], int]:
    """A minimal unsatisfiable subset of an unsatisfiable cone (whole cone if large),
    and the solver calls it took."""
    if len(cone_ids) > MAX_CORE:
        return list(cone_ids), 0
    keep = list(cone_ids)
    calls = 0
    for c in list(cone_ids):
        trial = [d for d in keep if d != c]
        calls += 1
        if pycosat.solve(_reduced(arrays, value, trial)) == "UNSAT":
            keep = trial
    return keep, calls


def _reduced(arrays: ClauseArrays, value: npt.NDArray[np.int8],
             clause_ids: list[int]) -> list[list[int]]:
    clauses = arrays.clauses
    return [[lit for lit in clauses[c] if value[abs(lit)] == 0] for c in clause_ids]


def refutation_core(cone: Cone, q: int) -> tuple[list[int], int]:
    """The cone's clauses that refute ``not q`` (a minimal set unless the cone is large),
    and the solver calls it took."""
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
