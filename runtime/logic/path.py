"""The logic path: which actions a sensor state entails, by the paper's CNF semantics.

A state makes facts of the condition variables whose parameter it knows (true inside
one of the variable's intervals, false outside all of them; NaN gives neither).  An
action Q is entailed when ``KB and facts and not Q`` is unsatisfiable; the state is in
conflict when ``KB and facts`` already is.  The verdicts are those of pycosat on the
whole knowledge base, computed faster: unit propagation in C (``csrc/logic.c``)
settles every Horn part exactly, and pycosat runs only on the cone of open clauses that
"every open variable false" cannot satisfy (usually none).  See ``LogicPath.evaluate``.

The parts: ``clauses`` (the bundle's clauses as flat arrays), ``propagation`` (unit
propagation, C and Python), ``cone`` (pycosat on the cone, minimal cores),
``conflicts`` (conflict analysis), ``names`` (the words that explain clauses) and
``result`` (``LogicResult``, ``Derivation``, ``Conflict``: the answer and its evidence).
This module holds ``LogicPath``, which ties them together, and re-exports the result
types so that callers import the logic path from one place.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from rulec.runtime.backend import BACKEND, BackendName, load_native, native_error
from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.errors import KernelError, StateError
from rulec.runtime.logic.clauses import build_clause_arrays
from rulec.runtime.logic.cone import solve_cone
from rulec.runtime.logic.conflicts import analyse
from rulec.runtime.logic.names import ClauseNames
from rulec.runtime.logic.propagation import CONE, OK, NativeRunner, Run, py_evaluate
from rulec.runtime.logic.result import Conflict, Derivation, LogicResult, build_result

__all__ = ["Conflict", "Derivation", "LogicPath", "LogicResult"]


class LogicPath:
    """Entailment and conflicts for sensor states, against one validated bundle.

    Built once per bundle (occurrence lists, unit and non-Horn clause lists, the
    interval rows of every condition variable); ``evaluate`` is thread-safe.
    """

    def __init__(self, bundle: Bundle, *, backend: BackendName | None = None) -> None:
        self.bundle = bundle
        arrays = self.arrays = build_clause_arrays(bundle)
        self.names = ClauseNames(bundle, arrays)
        # the arrays callers read, by their names here
        self.n_params = arrays.n_params
        self.n_vars = arrays.n_vars
        self.n_clauses = arrays.n_clauses
        self.clauses = arrays.clauses
        self.clause_rule = arrays.clause_rule
        self.action_vars = arrays.action_vars
        self.always = arrays.always
        self.soft = arrays.soft
        chosen = BACKEND if backend is None else backend
        self._lock = threading.Lock()
        self._native: NativeRunner | None = None
        if chosen == "native":
            module = load_native()
            if module is None or not hasattr(module.lib, "lg_evaluate"):
                raise KernelError(f"native logic kernel not available: {native_error()}")
            self._native = NativeRunner(arrays, module)
        elif chosen != "numpy":
            raise ValueError(f"unknown backend {chosen!r}; use 'native' or 'numpy'")
        self.backend: BackendName = chosen

    @property
    def has_atoms(self) -> bool:
        """False for a bundle without ``cnf.atoms``: no state then makes any fact."""
        return self.bundle.cnf.atoms is not None

    # ------------------------------------------------------------------ names

    def var_name(self, var: int) -> str:
        return self.names.var_name(var)

    def literal_text(self, lit: int) -> str:
        return self.names.literal_text(lit)

    def rule_id(self, index: int) -> str:
        return self.names.rule_id(index)

    def clause_text(self, c: int) -> str:
        return self.names.clause_text(c)

    # ------------------------------------------------------------------ evaluation

    def evaluate(self, x: npt.ArrayLike) -> LogicResult:
        """Entailed actions and conflicts for the dense state ``x`` (NaN = unknown)."""
        state = np.ascontiguousarray(x, dtype=np.float64)
        if state.shape != (self.n_params,):
            raise StateError(f"state has shape {state.shape}, expected ({self.n_params},)")
        with self._lock:
            status, value, reason, cone_ids, conflict = self.propagate(state, None)
            if status == OK:
                true = (self._native.true_actions() if self._native is not None
                        else self.action_vars[value[self.action_vars] > 0].tolist())
                return LogicResult(True, tuple(true), (), (), 0, self.names,
                                   value.copy(), reason.copy(), None)
            cone = None
            if status == CONE:
                cone = solve_cone(self.arrays, value, cone_ids)
                if cone is not None:
                    return build_result(self.names, True, value, reason, cone, (), (), 1)
            calls = 1 if status == CONE else 0
            return analyse(self.names, self.propagate, state, calls)

    def propagate(self, x: npt.NDArray[np.float64], skip: npt.NDArray[np.uint8] | None) -> Run:
        """One propagation run on the chosen backend, clauses marked in ``skip`` set aside
        (the caller holds the lock: the native backend reuses its scratch arrays)."""
        if self._native is not None:
            return self._native.run(x, skip)
        return py_evaluate(self.arrays, x, skip)
