"""The C baselines of the kernel report answer exactly as BoxIndex does, on bounds hit
exactly, infinities and NaN, so the report compares equal answers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from workloads import Workload, make_manual_workload

from rulec.runtime.engine.box_index import BoxIndex

INF = math.inf


@pytest.fixture(scope="module")
def baselines() -> Any:
    import scan_baselines

    try:
        scan_baselines.load()
    except Exception as exc:  # no C compiler: cffi raises its own errors
        pytest.skip(f"cannot build the C baselines: {exc}")
    return scan_baselines


def edge_workload() -> Workload:
    """Hand-made rules on two parameters: strict and inclusive bounds, infinite bounds,
    a never-true x > +inf, an equality, and a rule with no constraint."""
    cons = [  # (rule, axis, lo, hi, flags)
        (0, 0, 1.0, INF, 0), (1, 0, 1.0, INF, 1), (2, 1, -INF, 2.0, 0), (3, 1, -INF, 2.0, 2),
        (4, 0, INF, INF, 0), (5, 0, 0.5, 0.5, 3), (6, 0, -INF, INF, 3), (6, 1, 0.0, 3.0, 1),
        (7, 0, 1.0, 2.0, 3), (7, 1, -INF, INF, 0),
    ]
    n_rules = 9  # rule 8 has no constraint
    start = np.searchsorted([c[0] for c in cons], np.arange(n_rules + 1)).astype(np.int32)
    pts = [[1.0, 2.0], [0.5, 0.0], [INF, -INF], [-INF, INF], [math.nan, 1.0],
           [1.0, math.nan], [np.nextafter(1.0, 2.0), 3.0], [2.0, np.nextafter(2.0, 0.0)]]
    return Workload(2, start, np.array([c[1] for c in cons], np.int32),
                    np.array([c[2] for c in cons]), np.array([c[3] for c in cons]),
                    np.array([c[4] for c in cons], np.uint8), np.zeros(2), np.ones(2),
                    np.array(pts))


@pytest.mark.parametrize("make", [edge_workload,
                                  lambda: make_manual_workload(3000, 8, 0.1, n_points=60)])
def test_table_and_naive_scans_agree_with_the_kernel(baselines: Any, make: Any) -> None:
    w = make()
    idx = BoxIndex(w.n_params, w.start, w.axis, w.lo, w.hi, w.flags)
    table = baselines.TableScan(w)
    naive = baselines.NaiveScan(w.start, w.axis, w.lo, w.hi, w.flags)
    for p in w.points:
        x = np.ascontiguousarray(p)
        want = idx.match(x).tolist()
        assert table(x).tolist() == want
        assert naive(x).tolist() == want


def test_edge_rules_give_the_answers_the_definition_gives(baselines: Any) -> None:
    w = edge_workload()
    table = baselines.TableScan(w)
    got = {i: table(np.ascontiguousarray(p)).tolist() for i, p in enumerate(w.points)}
    assert got[0] == [1, 3, 6, 7, 8]  # x0 = 1: only the inclusive x0 >= 1; x1 = 2 idem
    assert got[2] == [8]  # strict at the infinities: +inf < +inf and -inf > -inf fail
    assert got[4] == [2, 3, 8]  # NaN fails rule 6's x0 in (-inf, inf), free elsewhere


def test_the_floor_writes_the_answer_it_is_told(baselines: Any) -> None:
    x = np.array([1.0, math.nan])
    ids = np.array([3, 5, 8], np.int32)
    floor = baselines.OutputFloor({x.tobytes(): ids}, 10)
    assert floor(x).tolist() == [3, 5, 8]
