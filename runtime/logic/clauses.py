"""The logic path's clause database: a bundle's CNF as the flat arrays that unit
propagation walks (clause bounds, occurrence lists by literal, unit and non-Horn clause
lists, soft clauses, the interval rows of every condition variable).

Built once per bundle by ``build_clause_arrays``; apart from the path so that the layout
it shares with the C kernel (``lg_db`` in csrc/logic.h) is made in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from rulec.runtime.bundle.loader import Bundle

SOFT_KINDS = frozenset({"constraint", "exclusion"})  # rules whose clauses can be violated


@dataclass(frozen=True, eq=False)
class ClauseArrays:
    """The clause database of one bundle (read-only once built)."""

    n_params: int
    n_vars: int
    n_clauses: int
    start: npt.NDArray[np.int32]  # clause c is lits[start[c]:start[c + 1]]
    lits: npt.NDArray[np.int32]
    clauses: list[tuple[int, ...]]
    clause_rule: list[int]  # owning rule index, -1 for none
    action_vars: npt.NDArray[np.int64]
    action_set: frozenset[int]
    cond: dict[str, npt.NDArray[Any]]  # condition variables and their interval rows
    always: npt.NDArray[np.bool_]  # clauses every value of their one parameter satisfies
    # occurrence lists by literal code (+v -> 2v, -v -> 2v + 1); within each, the
    # clauses every value of the parameter satisfies come last (from occ_mid on)
    occ: npt.NDArray[np.int32]
    occ_start: npt.NDArray[np.int32]
    occ_mid: npt.NDArray[np.int32]
    occ_list: list[int]
    occ_start_list: list[int]
    units: npt.NDArray[np.int32]
    nonhorn: npt.NDArray[np.int32]
    soft: npt.NDArray[np.bool_]  # clauses of constraints and exclusions
    soft_ids: npt.NDArray[np.intp]
    soft_var: npt.NDArray[np.intp]  # the soft clauses' literals, flat: variables ...
    soft_sign: npt.NDArray[np.int8]  # ... and signs, each clause from soft_start on
    soft_start: npt.NDArray[np.intp]
    soft_mask: npt.NDArray[np.uint8]


def build_clause_arrays(bundle: Bundle) -> ClauseArrays:
    """Every array the logic path needs for ``bundle`` (numpy work, once per bundle)."""
    cnf = bundle.cnf
    n_vars = len(cnf.variables)
    n_clauses = cnf.n_clauses
    start = np.ascontiguousarray(cnf.start, dtype=np.int32)
    lits = np.ascontiguousarray(cnf.literals, dtype=np.int32)
    bounds = start.tolist()
    flat = lits.tolist()
    clauses: list[tuple[int, ...]] = [
        tuple(flat[bounds[c]:bounds[c + 1]]) for c in range(n_clauses)]
    clause_rule: list[int] = cnf.clause_rule.tolist()
    kinds = [v.kind for v in cnf.variables]
    action_vars = np.array([i + 1 for i, k in enumerate(kinds) if k == "action"],
                           dtype=np.int64)
    cond = _conditions(bundle)
    sizes = np.diff(start)
    always = _always_true(cond, n_vars, start, lits)
    clause_of = np.repeat(np.arange(n_clauses, dtype=np.int32), sizes)
    codes = np.where(lits > 0, 2 * lits, -2 * lits + 1).astype(np.int64)
    late = always[clause_of]
    order = np.argsort(2 * codes + late, kind="stable")
    occ = np.ascontiguousarray(clause_of[order], dtype=np.int32)
    counts = np.bincount(codes, minlength=2 * n_vars + 2)
    occ_start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    early = np.bincount(codes[~late], minlength=2 * n_vars + 2)
    occ_mid = (occ_start[:-1] + early).astype(np.int32)
    positives = np.add.reduceat((lits > 0).astype(np.int32), start[:-1]) if n_clauses \
        else np.zeros(0, dtype=np.int32)
    rule_kind = [r.kind for r in bundle.rules]
    soft = np.array([r >= 0 and rule_kind[r] in SOFT_KINDS for r in clause_rule], dtype=bool)
    soft_ids = np.flatnonzero(soft)
    soft_lits = np.concatenate(
        [lits[start[c]:start[c + 1]] for c in soft_ids.tolist()]
    ) if soft_ids.size else np.zeros(0, dtype=np.int32)
    soft_mask = np.zeros(n_clauses, dtype=np.uint8)
    soft_mask[soft_ids] = 1
    return ClauseArrays(
        n_params=len(bundle.parameters),
        n_vars=n_vars,
        n_clauses=n_clauses,
        start=start,
        lits=lits,
        clauses=clauses,
        clause_rule=clause_rule,
        action_vars=action_vars,
        action_set=frozenset(action_vars.tolist()),
        cond=cond,
        always=always,
        occ=occ,
        occ_start=occ_start,
        occ_mid=occ_mid,
        occ_list=occ.tolist(),
        occ_start_list=occ_start.tolist(),
        units=np.flatnonzero(sizes == 1).astype(np.int32),
        nonhorn=np.flatnonzero(positives >= 2).astype(np.int32),
        soft=soft,
        soft_ids=soft_ids,
        soft_var=np.abs(soft_lits).astype(np.intp),
        soft_sign=np.sign(soft_lits).astype(np.int8),
        soft_start=np.concatenate([[0], np.cumsum(sizes[soft_ids])[:-1]]).astype(np.intp),
        soft_mask=soft_mask,
    )


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
