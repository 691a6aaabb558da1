"""Unit propagation for the logic path: a state's facts, then every clause they make
unit, then the cone of open non-Horn clauses that "every open variable false" cannot
satisfy.  In C (``lg_evaluate``, csrc/logic.c, through ``NativeRunner``) or in its Python
twin ``py_evaluate`` (``RULEC_PUREPYTHON=1``).

The two backends sit here side by side so that they can be read against each other;
the solver that takes over on a cone is in ``cone.py``.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from rulec.runtime.errors import KernelError
from rulec.runtime.logic.clauses import ClauseArrays

# The outcomes of one propagation and the reasons of a variable, as the Python
# propagation writes them; the C kernel's own (LG_* in logic.h, read from the cdef) must
# be the same numbers, which NativeRunner checks before it runs anything.
OK, CONFLICT, CONE = 0, 1, 2
REASON_NONE, REASON_FACT = -2, -1

# status, value and reason per variable, the cone's clauses, the conflicting clause
Run = tuple[int, npt.NDArray[np.int8], npt.NDArray[np.int32], list[int], int]


class NativeRunner:
    """The database and scratch arrays handed to ``lg_evaluate`` (csrc/logic.c)."""

    def __init__(self, arrays: ClauseArrays, module: ModuleType) -> None:
        self._ffi, self._lib = module.ffi, module.lib
        lib = self._lib
        native = (lib.LG_OK, lib.LG_CONFLICT, lib.LG_CONE, lib.LG_REASON_NONE, lib.LG_REASON_FACT)
        if native != (OK, CONFLICT, CONE, REASON_NONE, REASON_FACT):
            raise KernelError(f"logic kernel built from another logic.h (codes {native})")
        ffi = self._ffi
        self._keep: list[Any] = []
        n_vars, n_clauses = arrays.n_vars, arrays.n_clauses
        cond = arrays.cond
        db = ffi.new("lg_db *")
        db.n_vars, db.n_clauses, db.n_params = n_vars, n_clauses, arrays.n_params
        db.start = self._ptr("int32_t[]", arrays.start)
        db.lits = self._ptr("int32_t[]", arrays.lits)
        db.occ_start = self._ptr("int32_t[]", arrays.occ_start)
        db.occ = self._ptr("int32_t[]", arrays.occ)
        db.occ_mid = self._ptr("int32_t[]", arrays.occ_mid)
        db.n_units, db.units = len(arrays.units), self._ptr("int32_t[]", arrays.units)
        db.n_nonhorn, db.nonhorn = len(arrays.nonhorn), self._ptr("int32_t[]", arrays.nonhorn)
        db.n_cond = len(cond["var"])
        db.cond_var = self._ptr("int32_t[]", cond["var"])
        db.cond_axis = self._ptr("int32_t[]", cond["axis"])
        db.cond_row = self._ptr("int32_t[]", cond["row"])
        db.row_lo = self._ptr("double[]", cond["lo"])
        db.row_hi = self._ptr("double[]", cond["hi"])
        var = cond["var"].astype(np.int64)
        early = arrays.occ_mid - arrays.occ_start[:-1]
        watch = (early[2 * var] > 0).astype(np.uint8) | 2 * (early[2 * var + 1] > 0).astype(
            np.uint8)
        db.cond_watch = self._ptr("uint8_t[]", watch)
        report = np.zeros(n_vars + 1, dtype=np.uint8)
        report[arrays.action_vars] = 1
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

    def run(self, x: npt.NDArray[np.float64], skip: npt.NDArray[np.uint8] | None) -> Run:
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


def py_evaluate(arrays: ClauseArrays, x: npt.NDArray[np.float64],
                skip: npt.NDArray[np.uint8] | None) -> Run:
    """The same propagation as ``lg_evaluate``, in Python (``RULEC_PUREPYTHON=1``)."""
    n_vars = arrays.n_vars
    value = np.zeros(n_vars + 1, dtype=np.int8)
    reason = np.full(n_vars + 1, REASON_NONE, dtype=np.int32)
    val = [0] * (n_vars + 1)
    why = [REASON_NONE] * (n_vars + 1)
    trail: list[int] = []
    clauses = arrays.clauses
    skipped = set(np.flatnonzero(skip).tolist()) if skip is not None else set()

    def done(status: int, cone: list[int], conflict: int) -> Run:
        value[:] = val
        reason[:] = why
        return status, value, reason, cone, conflict

    def assign(lit: int, because: int) -> None:
        v = abs(lit)
        val[v] = 1 if lit > 0 else -1
        why[v] = because
        trail.append(v)

    cond = arrays.cond
    rows, lo, hi = cond["row"].tolist(), cond["lo"].tolist(), cond["hi"].tolist()
    for k, (var, axis) in enumerate(zip(cond["var"].tolist(), cond["axis"].tolist(),
                                        strict=True)):
        v = float(x[axis])
        if v != v:
            continue
        inside = any(lo[r] <= v <= hi[r] for r in range(rows[k], rows[k + 1]))
        assign(var if inside else -var, REASON_FACT)
    for c in arrays.units.tolist():
        if c in skipped:
            continue
        lit = clauses[c][0]
        now = val[abs(lit)] * (1 if lit > 0 else -1)
        if now < 0:
            return done(CONFLICT, [], c)
        if now == 0:
            assign(lit, c)
    occ, occ_start = arrays.occ.tolist(), arrays.occ_start.tolist()
    occ_mid = arrays.occ_mid.tolist()
    nfalse = [0] * arrays.n_clauses
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
    for c in arrays.nonhorn.tolist():
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
