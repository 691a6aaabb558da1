"""Rule sets and states for the kernel benchmarks.

Two generators: ``make_manual_workload`` is shaped like the rules real manuals give
(mostly one-sided thresholds, some ranges, 1-3 parameters a rule) at a chosen share of
rules matched per state, which is what the output costs; ``make_workload`` is the
earlier narrow-interval set (about 0.35 % matched), kept so older figures reproduce.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from rulec.runtime.engine.box_index import BoxIndex


@dataclass
class Workload:
    """N rules over d parameters (1-3 constraints each) and states to look up."""

    n_params: int
    start: NDArray[np.int32]
    axis: NDArray[np.int32]
    lo: NDArray[np.float64]
    hi: NDArray[np.float64]
    flags: NDArray[np.uint8]
    low: NDArray[np.float64]  # per parameter: the valid range is [low, low + span]
    span: NDArray[np.float64]
    points: NDArray[np.float64]
    _dense: dict[str, NDArray[Any]] = field(default_factory=dict, repr=False)

    @property
    def n_rules(self) -> int:
        return int(self.start.shape[0] - 1)

    def index(self) -> BoxIndex:
        return BoxIndex(self.n_params, self.start, self.axis, self.lo, self.hi, self.flags,
                        axis_span=self.span)

    def dense(self) -> dict[str, NDArray[Any]]:
        """(N, d) bounds as a user would lay them out: +-inf (inclusive) where unconstrained."""
        if not self._dense:
            n, d = self.n_rules, self.n_params
            rows = np.repeat(np.arange(n), np.diff(self.start))
            lo, hi = np.full((n, d), -np.inf), np.full((n, d), np.inf)
            lo_in, hi_in = np.ones((n, d), bool), np.ones((n, d), bool)
            lo[rows, self.axis], hi[rows, self.axis] = self.lo, self.hi
            lo_in[rows, self.axis] = (self.flags & 1).astype(bool)
            hi_in[rows, self.axis] = (self.flags & 2).astype(bool)
            self._dense.update(lo=lo, hi=hi, lo_in=lo_in, hi_in=hi_in)
        return self._dense


def _distinct_axes(rng: np.random.Generator, k: NDArray[np.int64],
                   n_params: int) -> NDArray[np.int32]:
    """k[r] distinct parameters for each rule r, flattened in rule order."""
    perm = np.argsort(rng.random((k.shape[0], n_params)), axis=1)[:, :3]
    return perm[np.arange(perm.shape[1])[None, :] < k[:, None]].astype(np.int32)


def make_workload(n_rules: int, n_params: int, n_points: int = 2000,
                  seed: int = 0) -> Workload:
    """Narrow intervals (0.1-2 % of a parameter's range) and one-sided thresholds within
    2 % of the range's ends (a quarter of the constraints); random strict/inclusive
    bounds; states uniform over the ranges.  A state matches well under 1 % of rules."""
    rng = np.random.default_rng(seed)
    low = rng.uniform(-100, 100, n_params)
    span = 10.0 ** rng.uniform(0, 3, n_params)
    k = rng.integers(1, min(3, n_params) + 1, n_rules)
    start = np.concatenate([[0], np.cumsum(k)]).astype(np.int32)
    axis = _distinct_axes(rng, k, n_params)
    m = axis.shape[0]
    s, base = span[axis], low[axis]
    width = s * rng.uniform(0.001, 0.02, m)
    lo = base + rng.uniform(0, 1, m) * (s - width)
    hi = lo + width
    kind = np.asarray(rng.uniform(0, 1, m))
    gt, lt = kind < 0.125, (kind >= 0.125) & (kind < 0.25)
    n_gt, n_lt = int(np.count_nonzero(gt)), int(np.count_nonzero(lt))
    lo[gt], hi[gt] = base[gt] + s[gt] * (1 - rng.uniform(0, 0.02, n_gt)), np.inf
    lo[lt], hi[lt] = -np.inf, base[lt] + s[lt] * rng.uniform(0, 0.02, n_lt)
    flags = np.asarray(rng.integers(0, 4, m), dtype=np.uint8)
    points = low + span * rng.uniform(0, 1, (n_points, n_params))
    return Workload(n_params, start, axis, lo, hi, flags, low, span, points)


# Shapes of the manual workload: how many parameters a rule names, and what a
# constraint is.  One-sided thresholds ("exceeds 600 degC", "below 20 psi") dominate.
RULE_SIZES = (1, 2, 3)
RULE_SIZE_WEIGHTS = (0.5, 0.35, 0.15)
SHARE_GT, SHARE_LT = 0.4, 0.35  # the rest are two-sided ranges
GRID_STEPS = 1000  # thresholds are round numbers: 1/1000 of a parameter's range
SNAPPED_STATES = 0.1  # share of state values that sit exactly on a threshold


def make_manual_workload(n_rules: int, n_params: int, share: float, n_points: int = 2000,
                         seed: int = 0) -> Workload:
    """Rules shaped like real manuals, each matched by a uniform state with probability
    about ``share`` (so a state matches about that share of the rules).

    A rule names 1-3 distinct parameters; each constraint is ``x > t`` (40 %),
    ``x < t`` (35 %) or a range (25 %), strict or inclusive at random.  A rule's own
    share varies (0.5x to 1.5x ``share``); each of its k constraints accepts the k-th
    root of it of its parameter's range.  Thresholds are rounded to 1/1000 of the range,
    so rules share thresholds; a tenth of the state values are rounded to the same grid,
    so they sit exactly on the thresholds there.
    """
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1], got {share}")
    rng = np.random.default_rng(seed)
    low = np.round(rng.uniform(-100, 100, n_params))
    span = np.round(10.0 ** rng.uniform(0, 3, n_params), 1) + 1.0
    sizes = np.minimum(rng.choice(RULE_SIZES, n_rules, p=RULE_SIZE_WEIGHTS), n_params)
    start = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int32)
    axis = _distinct_axes(rng, sizes, n_params)
    m = axis.shape[0]
    rule_share = np.minimum(share * rng.uniform(0.5, 1.5, n_rules), 1.0)
    accept = np.repeat(rule_share ** (1.0 / sizes), sizes)  # per constraint
    s, base = span[axis], low[axis]
    step = s / GRID_STEPS

    def snap(v: NDArray[np.float64]) -> NDArray[np.float64]:
        return base + np.round((v - base) / step) * step

    kind = rng.uniform(0, 1, m)
    gt, lt = kind < SHARE_GT, (kind >= SHARE_GT) & (kind < SHARE_GT + SHARE_LT)
    rng_kind = ~(gt | lt)
    lo, hi = np.full(m, -np.inf), np.full(m, np.inf)
    lo[gt] = snap(base + s * (1 - accept))[gt]
    hi[lt] = snap(base + s * accept)[lt]
    width = s * accept
    start_at = snap(base + rng.uniform(0, 1, m) * (s - width))
    lo[rng_kind] = start_at[rng_kind]
    hi[rng_kind] = snap(start_at + width)[rng_kind]
    flags = np.asarray(rng.integers(0, 4, m), dtype=np.uint8)
    points = low + span * rng.uniform(0, 1, (n_points, n_params))
    # on the thresholds' grid: uniform still, and on a threshold wherever one sits there
    snapped = rng.uniform(0, 1, points.shape) < SNAPPED_STATES
    grid = low + np.round((points - low) / (span / GRID_STEPS)) * (span / GRID_STEPS)
    points[snapped] = grid[snapped]
    return Workload(n_params, start, axis, lo, hi, flags, low, span, points)
