"""BoxIndex: both backends agree exactly with a brute-force reference, and reject bad input."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.runtime import NATIVE, backend
from rulec.runtime.engine.box_index import BoxIndex
from rulec.runtime.errors import BundleError, KernelError, StateError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

INF = math.inf


def native_available() -> bool:
    return backend.load_native() is not None


@dataclass
class Boxes:
    """A CSR box set as plain Python lists, for the reference and for BoxIndex."""

    n_params: int
    start: list[int]
    axis: list[int]
    lo: list[float]
    hi: list[float]
    flags: list[int]

    def index(self, backend: str | None = None, span: list[float] | None = None) -> BoxIndex:
        return BoxIndex(self.n_params, self.start, self.axis, self.lo, self.hi, self.flags,
                        axis_span=span, backend=backend)


def reference(boxes: Boxes, point: list[float]) -> list[int]:
    """The definition, one comparison at a time (NaN fails every comparison)."""
    found = []
    for b in range(len(boxes.start) - 1):
        ok = True
        for c in range(boxes.start[b], boxes.start[b + 1]):
            v, lo, hi, f = point[boxes.axis[c]], boxes.lo[c], boxes.hi[c], boxes.flags[c]
            lo_ok = v >= lo if f & 1 else v > lo
            hi_ok = v <= hi if f & 2 else v < hi
            ok = ok and lo_ok and hi_ok
        if ok:
            found.append(b)
    return found


def boxes_from(per_box: list[list[tuple[int, float, float, int]]], n_params: int) -> Boxes:
    start, axis, lo, hi, flags = [0], [], [], [], []
    for cons in per_box:
        for a, lo_v, hi_v, f in cons:
            axis.append(a)
            lo.append(lo_v)
            hi.append(hi_v)
            flags.append(f)
        start.append(len(axis))
    return Boxes(n_params, start, axis, lo, hi, flags)


# Bounds and values collide on purpose: boundaries are hit exactly.
POOL = [-INF, INF, -1e308, 1e308, -2.0, -1.0, -0.0, 0.0, 5e-324, 0.1, 0.3,
        0.30000000000000004, 1.0, 1.5, 2.0, 3.0, 1e16, 1e16 + 2]
bounds = st.one_of(st.sampled_from(POOL), st.floats(allow_nan=False, width=64))
values = st.one_of(st.sampled_from([*POOL, math.nan]), st.floats(width=64))


@st.composite
def box_sets(draw: st.DrawFn) -> tuple[Boxes, list[list[float]]]:
    n = draw(st.integers(1, 5))
    per_box = []
    for _ in range(draw(st.integers(0, 12))):
        cons = []
        for _ in range(draw(st.integers(0, 4))):
            a = draw(st.integers(0, n - 1))
            lo_v, hi_v = draw(bounds), draw(bounds)
            shape = draw(st.sampled_from(["free", "ordered", "equal", "gt", "lt", "present"]))
            if shape == "ordered":
                lo_v, hi_v = min(lo_v, hi_v), max(lo_v, hi_v)
            elif shape == "equal":
                hi_v = lo_v
            elif shape == "gt":
                hi_v = INF
            elif shape == "lt":
                lo_v = -INF
            elif shape == "present":
                lo_v, hi_v = -INF, INF
            cons.append((a, lo_v, hi_v, draw(st.integers(0, 3))))
        per_box.append(cons)
    boxes = boxes_from(per_box, n)
    used = [*boxes.lo, *boxes.hi]
    point_value = st.one_of(values, st.sampled_from(used)) if used else values
    points = draw(st.lists(st.lists(point_value, min_size=n, max_size=n), min_size=1,
                           max_size=6))
    return boxes, points


def both(boxes: Boxes) -> list[BoxIndex]:
    indexes = [boxes.index("numpy")]
    if native_available():
        indexes.append(boxes.index("native"))
    return indexes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(box_sets())
def test_backends_agree_with_reference(case: tuple[Boxes, list[list[float]]]) -> None:
    boxes, points = case
    for idx in both(boxes):
        for p in points:
            got = idx.match(np.array(p))
            assert got.dtype == np.int32
            assert got.tolist() == reference(boxes, p), idx.backend
        assert [m.tolist() for m in idx.match_many(np.array(points))] == [
            reference(boxes, p) for p in points]


def random_boxes(rng: np.random.Generator, n_boxes: int, n_params: int) -> Boxes:
    """Many boxes of mixed shapes over axes of different scales (fills many buckets)."""
    scale = 10.0 ** rng.uniform(-3, 4, n_params)
    per_box = []
    for _ in range(n_boxes):
        cons = []
        for a in rng.choice(n_params, size=rng.integers(1, 4), replace=False):
            s = scale[a]
            kind = rng.integers(0, 5)
            c = rng.uniform(0, s)
            if kind == 0:  # interval of widely varying width
                w = s * 10.0 ** rng.uniform(-4, 0)
                lo_v, hi_v = c, c + w
            elif kind == 1:
                lo_v, hi_v = c, INF
            elif kind == 2:
                lo_v, hi_v = -INF, c
            elif kind == 3:
                lo_v = hi_v = float(np.round(c, 1))
            else:
                lo_v, hi_v = float(np.round(c, 1)), float(np.round(c + s / 10, 1))
            cons.append((int(a), lo_v, hi_v, int(rng.integers(0, 4))))
        per_box.append(cons)
    return boxes_from(per_box, n_params)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_many_boxes_agree(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n_params = 6
    boxes = random_boxes(rng, 600, n_params)
    bound_values = np.array([v for v in boxes.lo + boxes.hi if math.isfinite(v)])
    points = rng.uniform(0, 1, (150, n_params)) * 10.0 ** rng.uniform(-3, 4, n_params)
    points[::3] = rng.choice(bound_values, size=points[::3].shape)  # exact boundary hits
    points[::7, 0] = np.nan
    idx_np = boxes.index("numpy")
    spans = [None, list(10.0 ** rng.uniform(-3, 4, n_params))]
    natives = [boxes.index("native", s) for s in spans] if native_available() else []
    for p in points:
        want = reference(boxes, list(p))
        assert idx_np.match(p).tolist() == want
        for idx in natives:
            assert idx.match(p).tolist() == want
    for idx in [idx_np, *natives]:
        assert [m.tolist() for m in idx.match_many(points)] == [
            idx.match(p).tolist() for p in points]


def test_default_backend_is_the_chosen_one(default_backend: str) -> None:
    idx = boxes_from([[(0, 0.0, 1.0, 3)]], 1).index()
    assert idx.backend == default_backend


def test_native_flag_true_when_built() -> None:
    if backend.forced_pure():
        pytest.skip("RULEC_PUREPYTHON is set")
    if importlib.util.find_spec("rulec.runtime._kernel") is None:
        pytest.skip("C kernel not built")
    assert NATIVE is True


def test_native_flag_false_when_forced() -> None:
    if not backend.forced_pure():
        pytest.skip("RULEC_PUREPYTHON is not set")
    assert NATIVE is False


@pytest.mark.parametrize("value, expected", [("1", "False"), ("", str(native_available()))])
def test_env_var_switches_backend(value: str, expected: str) -> None:
    env = {**os.environ, backend.ENV_VAR: value}
    code = "import rulec.runtime as r; print(r.NATIVE)"
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected


# ---- edge cases, on each backend -------------------------------------------------------


def test_empty_box_set(any_backend: str) -> None:
    idx = BoxIndex(3, [0], [], [], [], [], backend=any_backend)
    assert idx.n_boxes == 0
    assert idx.match([1.0, 2.0, 3.0]).tolist() == []
    assert [m.tolist() for m in idx.match_many(np.zeros((2, 3)))] == [[], []]
    assert idx.match_many(np.zeros((0, 3))) == []


def test_zero_params(any_backend: str) -> None:
    idx = BoxIndex(0, [0, 0], [], [], [], [], backend=any_backend)
    assert idx.match([]).tolist() == [0]  # a box without constraints holds everywhere


@pytest.mark.parametrize(
    "lo, hi, flags, inside, outside",
    [
        (1.0, 2.0, 3, [1.0, 2.0, 1.5], [0.5, 2.5, math.nan]),
        (1.0, 2.0, 0, [1.5, np.nextafter(1.0, 2.0)], [1.0, 2.0, math.nan]),
        (1.0, 2.0, 1, [1.0], [2.0]),
        (1.0, 2.0, 2, [2.0], [1.0]),
        (5.0, 5.0, 3, [5.0], [np.nextafter(5.0, 6.0), 4.999999999999999]),
        (5.0, 5.0, 1, [], [5.0]),
        (600.0, INF, 0, [600.0000000000001, 1e308], [600.0, -INF, INF]),  # strict: inf < inf fails
        (600.0, INF, 3, [600.0, INF], [599.9]),
        (-INF, -15.0, 0, [-15.000000000000002], [-15.0, -INF]),
        (-INF, -15.0, 1, [-INF, -16.0], [-15.0]),
        (-INF, INF, 0, [0.0, 1e308], [math.nan, INF, -INF]),
        (-INF, INF, 3, [INF, -INF, 0.0], [math.nan]),
        (-0.0, 0.0, 3, [0.0, -0.0], [5e-324]),
        (3.0, 2.0, 3, [], [2.5, 3.0, 2.0]),
    ],
)
def test_single_constraint_boundaries(
    any_backend: str, lo: float, hi: float, flags: int, inside: list[float],
    outside: list[float],
) -> None:
    idx = BoxIndex(2, [0, 1], [1], [lo], [hi], [flags],
                   backend=any_backend)
    for v in inside:
        assert idx.match([math.nan, v]).tolist() == [0], v
    for v in outside:
        assert idx.match([0.0, v]).tolist() == [], v


def test_nan_on_constrained_axis_never_matches(any_backend: str) -> None:
    boxes = boxes_from([[(0, -INF, INF, 3), (1, 0.0, 1.0, 3)], [(1, 0.0, 1.0, 3)]], 2)
    idx = boxes.index(any_backend)
    assert idx.match([math.nan, 0.5]).tolist() == [1]
    assert idx.match([0.0, 0.5]).tolist() == [0, 1]


def test_large_answers_agree_on_boundaries_infinities_and_nan() -> None:
    """Thousands of ids per state (the kernel orders them through a bitmap, not a sort):
    one-sided thresholds on a coarse grid, so states hit bounds exactly."""
    rng = np.random.default_rng(7)
    n_params, per_box = 3, []
    for _ in range(12000):
        cons = []
        for a in rng.choice(n_params, size=rng.integers(1, 3), replace=False):
            t = float(np.round(rng.uniform(0, 1), 2))
            lo_v, hi_v = [(t, INF), (-INF, t), (t, t + 0.25)][rng.integers(0, 3)]
            cons.append((int(a), lo_v, hi_v, int(rng.integers(0, 4))))
        per_box.append(cons)
    boxes = boxes_from(per_box, n_params)
    points = np.round(rng.uniform(0, 1, (12, n_params)), 2)
    points[3] = [INF, -INF, 0.5]
    points[4, 1] = np.nan
    points[5] = [0.25, 0.5, 0.75]
    indexes = both(boxes)
    counts = []
    for p in points:
        want = reference(boxes, list(p))
        counts.append(len(want))
        for idx in indexes:
            assert idx.match(p).tolist() == want, idx.backend
    for idx in indexes:
        assert [m.tolist() for m in idx.match_many(points)] == [
            reference(boxes, list(p)) for p in points]
    assert max(counts) > 2048  # above RK_RADIX_MAX: the large-output path was taken


def test_output_grows_past_initial_buffer(any_backend: str) -> None:
    n = 5000  # every box matches: far more than the first output buffer holds
    boxes = Boxes(2, list(range(n + 1)), [i % 2 for i in range(n)], [-1.0] * n, [INF] * n,
                  [0] * n)
    idx = boxes.index(any_backend)
    assert idx.match([0.0, 0.0]).tolist() == list(range(n))
    many = idx.match_many(np.zeros((3, 2)))
    assert [m.tolist() for m in many] == [list(range(n))] * 3
    assert idx.match([0.0, -2.0]).tolist() == list(range(0, n, 2))


def test_inputs_are_copied(any_backend: str) -> None:
    lo = np.array([0.0])
    idx = BoxIndex(1, [0, 1], [0], lo, [1.0], [3], backend=any_backend)
    lo[0] = 5.0
    assert idx.match([0.5]).tolist() == [0]
    assert idx.nbytes > 0


@pytest.mark.parametrize("point", [[1.0], [1.0, 2.0, 3.0], [[1.0, 2.0]], ["a", "b"], []])
def test_point_of_wrong_shape(any_backend: str, point: object) -> None:
    idx = boxes_from([[(0, 0.0, 1.0, 3)]], 2).index(any_backend)
    with pytest.raises(StateError):
        idx.match(point)


def test_points_of_wrong_shape(any_backend: str) -> None:
    idx = boxes_from([[(0, 0.0, 1.0, 3)]], 2).index(any_backend)
    with pytest.raises(StateError):
        idx.match_many(np.zeros((2, 3)))
    with pytest.raises(StateError):
        idx.match_many(np.zeros(2))


GOOD = dict(n_params=2, start=[0, 1, 3], axis=[0, 0, 1], lo=[0.0, 1.0, 2.0],
            hi=[1.0, 2.0, 3.0], flags=[3, 0, 1])


@pytest.mark.parametrize(
    "change",
    [
        {"n_params": -1},
        {"n_params": 1.5},
        {"start": [1, 1, 3]},
        {"start": [0, 2, 1, 3]},
        {"start": [0, 1, 2]},
        {"start": []},
        {"start": [0.0, 1.0, 3.0]},
        {"start": [[0, 1, 3]]},
        {"axis": [0, 2, 1]},
        {"axis": [0, -1, 1]},
        {"axis": [0, 1]},
        {"lo": [0.0, math.nan, 2.0]},
        {"hi": [1.0, 2.0, math.nan]},
        {"hi": [1.0, 2.0]},
        {"lo": ["a", "b", "c"]},
        {"flags": [3, 4, 0]},
        {"flags": [3, -1, 0]},
        {"axis_span": [1.0]},
        {"axis_span": [[1.0, 2.0]]},
        {"axis_span": ["a", "b"]},
    ],
)
def test_bad_arrays_rejected(any_backend: str, change: dict[str, object]) -> None:
    args = {**GOOD, **change}
    with pytest.raises(BundleError) as info:
        BoxIndex(**args, backend=any_backend)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("span", [[1.0, 2.0], [0.0, INF], [math.nan, -1.0], None])
def test_good_arrays_accepted(any_backend: str, span: list[float] | None) -> None:
    # axis_span is a hint: unusable entries (empty or unknown range) fall back quietly
    idx = BoxIndex(**GOOD, axis_span=span, backend=any_backend)
    assert idx.match([0.5, 2.0]).tolist() == [0]
    assert idx.match([1.0, 2.5]).tolist() == [0]
    assert idx.match([1.5, 2.0]).tolist() == [1]
    assert idx.match([1.5, 3.0]).tolist() == []


def test_unknown_backend() -> None:
    with pytest.raises(ValueError):
        BoxIndex(**GOOD, backend="fortran")


@pytest.mark.skipif(not native_available(), reason="C kernel not built")
def test_kernel_status_becomes_kernel_error() -> None:
    idx = BoxIndex(**GOOD, backend="native")
    impl = idx._impl
    lib, ffi = impl._lib, impl._ffi
    point = np.zeros(3)
    status = lib.rk_match(impl._idx,
                          ffi.from_buffer("double[]", point), 3, ffi.NULL, 0)
    assert status == lib.RK_E_SHAPE
    with pytest.raises(KernelError, match="point length"):
        impl._check(status)
    impl._idx.n_ids = 0  # entry ids now out of range: the C check notices
    assert lib.rk_validate(impl._idx) == lib.RK_E_INDEX


@pytest.mark.parametrize(
    "chosen",
    [list(range(5)), list(range(0, 4000, 50)), list(range(100, 600)), list(range(3000)),
     list(range(3999, 0, -7))],
    ids=["few", "spread", "clustered", "many", "descending"],
)
def test_output_sorted_whatever_the_ids(any_backend: str, chosen: list[int]) -> None:
    n = 4000  # the kernel sorts its output itself, with different methods by size
    picked = set(chosen)
    lo = [-1.0 if i in picked else 10.0 for i in range(n)]
    boxes = Boxes(1, list(range(n + 1)), [0] * n, lo, [INF] * n, [1] * n)
    assert boxes.index(any_backend).match([0.0]).tolist() == sorted(picked)


def test_boxes_with_many_constraints(any_backend: str) -> None:
    per_box = [[(a, 0.0, 1.0, 3) for a in range(6)],  # six constraints, one per axis
               [(a, 0.0, 1.0, 3) for a in range(6)] + [(2, 0.5, 0.6, 0)],
               [(0, 0.0, 1.0, 3), (0, 0.2, 0.3, 3), (0, 0.25, 0.26, 3)]]  # one axis thrice
    boxes = boxes_from(per_box, 6)
    idx = boxes.index(any_backend)
    for p in ([0.5] * 6, [0.55] * 6, [0.255] * 6, [0.5] * 5 + [math.nan], [0.5] * 5 + [2.0]):
        assert idx.match(p).tolist() == reference(boxes, p), p


def test_concurrent_queries_agree(any_backend: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    rng = np.random.default_rng(7)
    boxes = random_boxes(rng, 400, 5)
    idx = boxes.index(any_backend)
    points = rng.uniform(0, 1, (200, 5)) * 10.0 ** rng.uniform(-3, 4, 5)
    want = [idx.match(p).tolist() for p in points]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: idx.match(p).tolist(), points))
    assert got == want
