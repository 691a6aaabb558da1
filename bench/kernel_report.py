"""Containment kernel against C scans, numpy and rtree, side by side, in one run.

Workloads are shaped like real manuals (bench/workloads.py: mostly one-sided thresholds,
1-3 parameters a rule) at several match shares, since the output is what a state costs.
Prints a markdown table: per state p50/p99 latency of BoxIndex.match (our kernel, called
from Python), of match_many on 16 states per call (mostly the kernel itself), of a
branch-free C scan of two dense threshold tables (cFS Limit Checker style), of a naive
C scan, of the numpy scan a user would write, of rtree with an exact filter, and of the
output floor (told the answer, it only reads the state and writes the ids); ratios;
the measured match share; memory.  Every answer of every method is checked against ours.

    python bench/kernel_report.py                  # the full grid (about 10 minutes)
    python bench/kernel_report.py --sizes 1000 10000 --dims 8 --shares 0.1 --points 300
    python bench/kernel_report.py --legacy         # the earlier narrow-interval workload

bench_kernel.py (pytest-benchmark) reuses the workloads and baselines.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scan_baselines import NaiveScan, OutputFloor, TableScan
from workloads import Workload, make_manual_workload, make_workload

from rulec.runtime import NATIVE
from rulec.runtime.engine.box_index import BoxIndex

__all__ = ["Workload", "make_workload", "numpy_matcher", "rtree_matcher"]

Matcher = Callable[[NDArray[np.float64]], NDArray[Any]]


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


def ordering_times(idx: BoxIndex, points: NDArray[np.float64],
                   max_points: int = 200) -> tuple[float, float]:
    """Median kernel time (us) of rk_match with room for the ordering bitmap past the ids,
    and with exactly the ids' room, which leaves the kernel its comparison sort (the
    order every large answer took before the bitmap)."""
    native = idx.native_index()
    if native is None:
        return float("nan"), float("nan")
    from rulec.runtime.backend import load_native

    mod = load_native()
    ffi, lib = mod.ffi, mod.lib
    room = -(-idx.n_boxes // lib.RK_ORDER_BITS)
    with_room, without = [], []
    for p in points[:max_points]:
        x = np.ascontiguousarray(p)
        px = ffi.from_buffer("double[]", x)
        count = idx.match(x).shape[0]
        for extra, sink in ((room, with_room), (0, without)):
            out = np.empty(max(1, count + extra), np.int32)
            po = ffi.from_buffer("int32_t[]", out)
            t0 = time.perf_counter_ns()
            lib.rk_match(native, px, idx.n_params, po, out.shape[0])
            sink.append((time.perf_counter_ns() - t0) / 1e3)
    return float(np.median(with_room)), float(np.median(without))


@dataclass
class Row:
    n: int
    d: int
    share: float | None  # the share asked for (None: the legacy workload)
    match_pct: float
    times: dict[str, NDArray[np.float64] | None]  # method -> per-state latency (us)
    batch_us: float  # per state, match_many on 16 states at a time: mostly the kernel
    build_s: float
    ordering: tuple[float, float]  # kernel us: bitmap ordering, comparison sort
    ours_bytes: int
    dense_bytes: int


METHODS = ("ours", "table", "naive", "numpy", "rtree", "floor")


def measure(n: int, d: int, share: float | None, args: argparse.Namespace) -> Row:
    if share is None:
        w = make_workload(n, d, n_points=args.points, seed=args.seed)
    else:
        w = make_manual_workload(n, d, share, n_points=args.points, seed=args.seed)
    ours, idx, build = ours_matcher(w)
    dense_ok = n * d <= args.dense_max_cells
    matchers: dict[str, Matcher | None] = {
        "ours": ours,
        "table": TableScan(w) if dense_ok else None,
        "naive": NaiveScan(w.start, w.axis, w.lo, w.hi, w.flags),
        "numpy": numpy_matcher(w) if dense_ok else None,
        "rtree": None,
    }
    if not args.no_rtree and n * d <= args.rtree_max_cells:
        matchers["rtree"] = rtree_matcher(w)[0]
    points = [np.ascontiguousarray(p) for p in w.points[: args.points]]
    answers = {p.tobytes(): ours(p) for p in points}
    matchers["floor"] = OutputFloor(answers, n)
    for p in points[: args.check]:  # every method must give exactly our answer
        for name, fn in matchers.items():
            if fn is not None:
                assert np.array_equal(fn(p), answers[p.tobytes()]), f"{name} disagrees"
    counts = [a.shape[0] for a in answers.values()]
    times = {name: None if fn is None else time_points(fn, w.points, args.budget, args.points)
             for name, fn in matchers.items()}
    return Row(n, d, share, 100.0 * float(np.mean(counts)) / n, times,
               batch_time(idx, w.points[: args.points]), build,
               ordering_times(idx, w.points), idx.nbytes, n * d * 16)


def _us(t: NDArray[np.float64] | None, q: float) -> str:
    if t is None:
        return "n/a"
    v = float(np.percentile(t, q))
    return f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"


def _ratio(a: NDArray[np.float64] | None, b: NDArray[np.float64] | None) -> str:
    if a is None or b is None:
        return "n/a"
    r = float(np.median(a) / np.median(b))
    return f"{r:,.1f}x" if r < 100 else f"{r:,.0f}x"


def table(rows: list[Row]) -> str:
    head = ("| N rules | d | match % | ours p50 / p99 | ours batch | table scan p50 / p99 "
            "| naive C p50 / p99 | numpy p50 / p99 | rtree p50 / p99 | floor p50 "
            "| table/ours | naive/ours | numpy/ours | rtree/ours | ours/floor "
            "| ours MB | tables MB |")
    lines = [head, "|" + "---|" * 17]
    for r in rows:
        t = r.times
        pair = [f"{_us(t[m], 50)} / {_us(t[m], 99)}" for m in METHODS[:5]]
        lines.append(
            f"| {r.n:,} | {r.d} | {r.match_pct:.2f} | {pair[0]} | {r.batch_us:.1f} "
            f"| {pair[1]} | {pair[2]} | {pair[3]} | {pair[4]} | {_us(t['floor'], 50)} "
            f"| {_ratio(t['table'], t['ours'])} | {_ratio(t['naive'], t['ours'])} "
            f"| {_ratio(t['numpy'], t['ours'])} | {_ratio(t['rtree'], t['ours'])} "
            f"| {_ratio(t['ours'], t['floor'])} "
            f"| {r.ours_bytes / 1e6:.2f} | {r.dense_bytes / 1e6:.2f} |")
    return "\n".join(lines)


def ordering_table(rows: list[Row]) -> str:
    """Kernel time with the bitmap ordering against the comparison sort it replaces,
    where answers pass RK_RADIX_MAX ids (below that both take the bucket/radix sort)."""
    lines = ["| N rules | d | match % | ids per state | bitmap order (us) "
             "| comparison sort (us) | sort/bitmap |", "|" + "---|" * 7]
    for r in rows:
        ids = r.match_pct * r.n / 100
        if ids > 2048 and r.ordering[0] == r.ordering[0]:
            lines.append(f"| {r.n:,} | {r.d} | {r.match_pct:.2f} | {ids:,.0f} "
                         f"| {r.ordering[0]:,.1f} | {r.ordering[1]:,.1f} "
                         f"| {r.ordering[1] / r.ordering[0]:.1f}x |")
    return "\n".join(lines)


def environment() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if "model name" in line)
    except (OSError, StopIteration):
        pass
    return (f"backend: {'native' if NATIVE else 'numpy'}; CPU: {cpu}, {os.cpu_count()} cores; "
            f"Python {platform.python_version()}; numpy {np.__version__}")


def load_average() -> str:
    if not hasattr(os, "getloadavg"):
        return "load average n/a"
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1 / 5 / 15 min)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    ap.add_argument("--dims", type=int, nargs="+", default=[8, 64])
    ap.add_argument("--shares", type=float, nargs="+", default=[0.003, 0.03, 0.1, 0.3],
                    help="share of rules a state matches, per workload")
    ap.add_argument("--legacy", action="store_true",
                    help="the earlier narrow-interval workload (about 0.35 %% matched)")
    ap.add_argument("--points", type=int, default=1000, help="states per configuration")
    ap.add_argument("--budget", type=float, default=1.5,
                    help="seconds of timing per method and configuration (at least 20 states)")
    ap.add_argument("--check", type=int, default=20, help="states checked against the others")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-rtree", action="store_true")
    ap.add_argument("--rtree-max-cells", type=int, default=10**7,
                    help="skip rtree when N * d exceeds this")
    ap.add_argument("--dense-max-cells", type=int, default=10**7,
                    help="skip the dense-table methods (table scan, numpy) when N * d "
                         "exceeds this (16 bytes a cell)")
    args = ap.parse_args(argv)
    if not NATIVE:
        print("warning: the C kernel is not in use; timing the numpy fallback", file=sys.stderr)
    shares: list[float | None] = [None] if args.legacy else list(args.shares)
    loads = [load_average()]
    rows = []
    for d in args.dims:
        for n in args.sizes:
            for share in shares:
                rows.append(measure(n, d, share, args))
                r = rows[-1]
                print(f"N={n} d={d} share={share}: match {r.match_pct:.2f} %, ours p50 "
                      f"{_us(r.times['ours'], 50)} us, build {r.build_s:.2f} s",
                      file=sys.stderr, flush=True)
    loads.append(load_average())
    print(environment())
    print(f"before: {loads[0]}; after: {loads[1]}")
    print()
    print(table(rows))
    print()
    print(ordering_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
