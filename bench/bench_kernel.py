"""pytest-benchmark suite: BoxIndex.match against a numpy scan and rtree, per point.

Not collected by the plain test run (tests live in tests/); run it explicitly:

    pytest bench/bench_kernel.py --benchmark-group-by=group
    RULEC_BENCH_SIZES=1000,10000 RULEC_BENCH_DIMS=8 pytest bench/bench_kernel.py

bench/kernel_report.py measures the same workloads in one plain run and prints the
table quoted in bench/README.md.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import cache
from itertools import cycle
from typing import Any

import numpy as np
import pytest
from kernel_report import numpy_matcher, rtree_matcher
from workloads import Workload, make_workload


def _ints(name: str, default: str) -> list[int]:
    return [int(v) for v in os.environ.get(name, default).split(",") if v.strip()]


SIZES = _ints("RULEC_BENCH_SIZES", "100,1000,10000,100000")
DIMS = _ints("RULEC_BENCH_DIMS", "8,64")
RTREE_MAX_CELLS = int(os.environ.get("RULEC_BENCH_RTREE_MAX_CELLS", str(10**7)))
CASES = [pytest.param(n, d, id=f"{n}x{d}") for d in DIMS for n in SIZES]


@cache
def workload(n: int, d: int) -> Workload:
    return make_workload(n, d, n_points=1000)


def _states(w: Workload) -> Iterator[np.ndarray]:
    return cycle([np.ascontiguousarray(p) for p in w.points])


def _run(benchmark: Any, group: str, fn: Callable[[np.ndarray], Any], w: Workload) -> None:
    states = _states(w)
    benchmark.group = group
    benchmark.extra_info["match_share"] = float(
        np.mean([fn(p).shape[0] for p in w.points[:50]]) / w.n_rules)
    benchmark(lambda: fn(next(states)))


@pytest.mark.parametrize("n, d", CASES)
def test_ours(benchmark: Any, n: int, d: int) -> None:
    w = workload(n, d)
    _run(benchmark, f"{n} rules x {d} params", w.index().match, w)


@pytest.mark.parametrize("n, d", CASES)
def test_numpy_scan(benchmark: Any, n: int, d: int) -> None:
    w = workload(n, d)
    _run(benchmark, f"{n} rules x {d} params", numpy_matcher(w), w)


@pytest.mark.parametrize("n, d", CASES)
def test_rtree(benchmark: Any, n: int, d: int) -> None:
    pytest.importorskip("rtree")
    if n * d > RTREE_MAX_CELLS:
        pytest.skip(f"rtree over {n}x{d} exceeds RULEC_BENCH_RTREE_MAX_CELLS")
    w = workload(n, d)
    match, _build = rtree_matcher(w)
    _run(benchmark, f"{n} rules x {d} params", match, w)
