"""Containment kernel against a numpy scan and rtree, side by side, in one run.

Prints a markdown table: per point p50/p99 latency of BoxIndex.match (our kernel,
called from Python), the same per state with match_many on 16 states per call (mostly
the kernel itself), of the numpy scan a user would write over dense (N, d) bound arrays,
and of rtree (libspatialindex) with an exact filter; their ratios; the share of rules a
state matches; and the memory of our arrays against N x d dense bounds.
Every answer of every method is checked against ours.

    python bench/kernel_report.py                  # the full grid (a few minutes)
    python bench/kernel_report.py --sizes 100 1000 --dims 8 --points 500

The workload and the baselines live here; bench_kernel.py (pytest-benchmark) reuses them.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from rulec.runtime import NATIVE
from rulec.runtime.engine.box_index import BoxIndex

Matcher = Callable[[NDArray[np.float64]], NDArray[Any]]


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
    # distinct parameters per rule: the first k of a random permutation
    perm = np.argsort(rng.random((n_rules, n_params)), axis=1)[:, :3]
    axis = perm[np.arange(perm.shape[1])[None, :] < k[:, None]].astype(np.int32)
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


def numpy_matcher(w: Workload) -> Matcher:
    """The scan a user would write: compare the state with every (N, d) bound."""
    d = w.dense()
    lo, hi, lo_in, hi_in = d["lo"], d["hi"], d["lo_in"], d["hi_in"]

    def match(x: NDArray[np.float64]) -> NDArray[Any]:
        ok = np.where(lo_in, x >= lo, x > lo) & np.where(hi_in, x <= hi, x < hi)
        return np.flatnonzero(ok.all(axis=1))

    return match


def rtree_matcher(w: Workload) -> tuple[Matcher, float]:
    """rtree over the boxes (unbounded sides clipped to beyond the valid range); the
    closed-box candidates of a degenerate query box are then filtered exactly."""
    from rtree import index

    d = w.dense()
    lo, hi, lo_in, hi_in = d["lo"], d["hi"], d["lo_in"], d["hi_in"]
    floor, ceil = w.low - w.span, w.low + 2 * w.span
    mins, maxs = np.maximum(lo, floor), np.minimum(hi, ceil)
    prop = index.Property()
    prop.dimension = w.n_params
    t0 = time.perf_counter()

    def stream() -> Iterator[tuple[int, tuple[float, ...], None]]:
        for i in range(w.n_rules):
            yield i, (*mins[i], *maxs[i]), None

    tree = index.Index(stream(), properties=prop)
    build = time.perf_counter() - t0

    def match(x: NDArray[np.float64]) -> NDArray[Any]:
        q = (*x, *x)
        cand = np.sort(np.fromiter(tree.intersection(q), dtype=np.int64))
        c_lo, c_hi = lo[cand], hi[cand]
        ok = np.where(lo_in[cand], x >= c_lo, x > c_lo) & np.where(hi_in[cand], x <= c_hi,
                                                                     x < c_hi)
        return cand[ok.all(axis=1)]

    return match, build


def ours_matcher(w: Workload) -> tuple[Matcher, BoxIndex, float]:
    t0 = time.perf_counter()
    idx = w.index()
    return idx.match, idx, time.perf_counter() - t0


def time_points(fn: Matcher, points: NDArray[np.float64], budget_s: float,
                max_points: int) -> NDArray[np.float64]:
    """Latency of each call in microseconds, on as many points as fit the budget."""
    rows = [np.ascontiguousarray(p) for p in points[:max_points]]
    for p in rows[:3]:
        fn(p)  # warm up
    times = []
    spent = 0.0
    for p in rows:
        t0 = time.perf_counter_ns()
        fn(p)
        dt = time.perf_counter_ns() - t0
        times.append(dt / 1e3)
        spent += dt / 1e9
        if spent > budget_s and len(times) >= 20:
            break
    return np.array(times)


def batch_time(idx: BoxIndex, points: NDArray[np.float64], chunk: int = 16) -> float:
    """Microseconds per state when match_many takes `chunk` states per call: the kernel
    with the Python call spread over the chunk (median over chunks)."""
    chunks = [np.ascontiguousarray(points[i: i + chunk])
              for i in range(0, points.shape[0] - chunk + 1, chunk)]
    times = []
    for c in chunks:
        t0 = time.perf_counter_ns()
        idx.match_many(c)
        times.append((time.perf_counter_ns() - t0) / 1e3 / chunk)
    return float(np.median(times))


@dataclass
class Row:
    n: int
    d: int
    match_pct: float
    ours: NDArray[np.float64]
    batch_us: float  # per state, match_many on 16 states at a time: mostly the kernel
    numpy: NDArray[np.float64]
    rtree: NDArray[np.float64] | None
    rtree_build_s: float | None
    build_s: float
    ours_bytes: int
    dense_bytes: int


def measure(n: int, d: int, args: argparse.Namespace) -> Row:
    w = make_workload(n, d, n_points=args.points, seed=args.seed)
    ours, idx, build = ours_matcher(w)
    np_match = numpy_matcher(w)
    rt_match, rt_build = (None, None)
    if not args.no_rtree and n * d <= args.rtree_max_cells:
        rt_match, rt_build = rtree_matcher(w)
    counts = []
    for p in w.points[: args.check]:  # every method must give exactly our answer
        want = ours(p)
        counts.append(want.shape[0])
        assert np.array_equal(np_match(p), want), "numpy scan disagrees"
        if rt_match is not None:
            assert np.array_equal(rt_match(p), want), "rtree disagrees"
    counts += [ours(p).shape[0] for p in w.points[args.check:]]
    return Row(
        n, d, 100.0 * float(np.mean(counts)) / n,
        time_points(ours, w.points, args.budget, args.points),
        batch_time(idx, w.points[: args.points]),
        time_points(np_match, w.points, args.budget, args.points),
        None if rt_match is None else time_points(rt_match, w.points, args.budget, args.points),
        rt_build, build, idx.nbytes, n * d * 16,
    )


def _us(t: NDArray[np.float64] | None, q: float) -> str:
    if t is None:
        return "n/a"
    v = float(np.percentile(t, q))
    return f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"


def _ratio(a: NDArray[np.float64] | None, b: NDArray[np.float64]) -> str:
    return "n/a" if a is None else f"{np.median(a) / np.median(b):,.0f}x"


def table(rows: list[Row]) -> str:
    head = ("| N rules | d | match % | ours p50 / p99 (us) | ours batch (us) "
            "| numpy p50 / p99 (us) | rtree p50 / p99 (us) | numpy/ours | rtree/ours "
            "| ours MB | dense MB |")
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        lines.append(
            f"| {r.n:,} | {r.d} | {r.match_pct:.2f} | {_us(r.ours, 50)} / {_us(r.ours, 99)} "
            f"| {r.batch_us:.1f} | {_us(r.numpy, 50)} / {_us(r.numpy, 99)} "
            f"| {_us(r.rtree, 50)} / {_us(r.rtree, 99)} "
            f"| {_ratio(r.numpy, r.ours)} | {_ratio(r.rtree, r.ours)} "
            f"| {r.ours_bytes / 1e6:.2f} | {r.dense_bytes / 1e6:.2f} |")
    return "\n".join(lines)


def environment() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"backend: {'native' if NATIVE else 'numpy'}; CPU: {cpu}, {os.cpu_count()} cores; "
            f"load average {load:.2f}; Python {platform.python_version()}; "
            f"numpy {np.__version__}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10_000, 100_000])
    ap.add_argument("--dims", type=int, nargs="+", default=[8, 64])
    ap.add_argument("--points", type=int, default=2000, help="states per configuration")
    ap.add_argument("--budget", type=float, default=4.0,
                    help="seconds of timing per method and configuration (at least 20 states)")
    ap.add_argument("--check", type=int, default=20, help="states checked against the others")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-rtree", action="store_true")
    ap.add_argument("--rtree-max-cells", type=int, default=10**7,
                    help="skip rtree when N * d exceeds this")
    args = ap.parse_args(argv)
    if not NATIVE:
        print("warning: the C kernel is not in use; timing the numpy fallback", file=sys.stderr)
    rows = []
    for d in args.dims:
        for n in args.sizes:
            rows.append(measure(n, d, args))
            r = rows[-1]
            print(f"N={n} d={d}: ours p50 {np.median(r.ours):.1f} us, build {r.build_s:.2f} s"
                  + (f", rtree build {r.rtree_build_s:.1f} s" if r.rtree_build_s else ""),
                  file=sys.stderr, flush=True)
    print(environment())
    print()
    print(table(rows))
    builds = ", ".join(f"{r.n:,}x{r.d}: {r.rtree_build_s:.1f} s" for r in rows
                       if r.rtree_build_s is not None)
    print(f"\nrtree build (bulk load): {builds}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
