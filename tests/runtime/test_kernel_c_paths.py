"""The containment kernel (csrc/kernel.c) driven directly through its cffi module.

runtime/engine/box_index.py only ever hands the kernel well-formed indexes built by numpy, so
the kernel's own defences (every refusal of rk_validate, the argument checks of the
entry points) and some of its rarer paths (PRESENT entries with further constraints,
an output buffer smaller than the answer, clustered or huge id ranges for the sort,
duplicate ids, NULL points for zero-parameter indexes) are exercised here on small
hand-made indexes.  Every answer is checked against a plain Python reading of the
same index.  `make coverage` relies on these for 100 % of kernel.c.
"""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from rulec.runtime.backend import load_native

_MOD = load_native()
pytestmark = [pytest.mark.compiled, pytest.mark.skipif(_MOD is None, reason="C kernel not built")]
INF = math.inf
I32_MAX = 2**31 - 1


def ffi_lib() -> tuple[Any, Any]:
    assert _MOD is not None
    return _MOD.ffi, _MOD.lib


# --- a hand-made index as plain Python data -------------------------------------------

GT, LT, PRESENT, GRID = 0, 1, 2, 3
HAS_MORE = 1 << 30


def entry(lo: float, hi: float, axis2: int, lo2: float, hi2: float, box: int,
          more: list[tuple[int, float, float]] | None = None) -> dict[str, Any]:
    return {"lo": lo, "hi": hi, "lo2": lo2, "hi2": hi2, "axis2": axis2, "id": box,
            "more": more or []}


def base_spec() -> dict[str, Any]:
    """Two parameters, one bucket of each kind, constraints beyond the filter, a box
    without constraints: valid (rk_validate says RK_OK)."""
    entries = [
        # GT on axis 0, sorted by lo
        entry(1.0, INF, 1, -INF, INF, 0),
        entry(2.0, INF, 1, 0.0, 10.0, 1, more=[(0, 0.0, 5.0)]),
        # LT on axis 1, sorted by hi descending
        entry(-INF, 5.0, 0, -INF, INF, 2),
        entry(-INF, 3.0, 0, 0.0, 1.0, 3),
        # PRESENT on axis 0
        entry(-INF, INF, 1, -INF, INF, 4, more=[(1, 0.0, 1.0)]),
        entry(-INF, INF, 1, -INF, INF, 5),
        # GRID on axis 1: cells [0,1) [1,2) [2,3) [3,4)
        entry(0.0, 1.0, 0, -INF, INF, 6),
        entry(2.0, 3.0, 0, -INF, INF, 7),
    ]
    return {
        "n_params": 2,
        "n_ids": 9,
        "entries": entries,
        "buckets": [  # axis, kind, begin, end, key, cell, n_cell, base, scale
            [0, GT, 0, 2, 1.0, 0, 0, 0.0, 0.0],
            [1, LT, 2, 4, 5.0, 0, 0, 0.0, 0.0],
            [0, PRESENT, 4, 6, 0.0, 0, 0, 0.0, 0.0],
            [1, GRID, 6, 8, 0.0, 0, 4, 0.0, 1.0],
        ],
        "cell_first": [6, 6, 7, 7],
        "always": [8],
        "null": set(),  # pointer fields to pass as NULL
        "counts": {},  # n_* fields to override
        "more_start": None,  # override of the computed offsets
    }


class HandIndex:
    """An rk_index built field by field from a spec; holds every array it points to."""

    def __init__(self, spec: dict[str, Any]) -> None:
        ffi, _ = ffi_lib()
        self.spec = spec
        self.keep: list[Any] = []
        idx = ffi.new("rk_index *")
        ents, buckets = spec["entries"], spec["buckets"]
        more = [m for e in ents for m in e["more"]]
        starts = [0]
        for e in ents:
            starts.append(starts[-1] + len(e["more"]))
        columns = list(zip(*buckets, strict=True)) if buckets else [()] * 9
        arrays: dict[str, tuple[str, list[Any]]] = {
            "entry": ("rk_entry[]", [
                {k: e[k] for k in ("lo", "hi", "lo2", "hi2", "id")}
                | {"axis2": e["axis2"] | (HAS_MORE if e["more"] else 0)}
                for e in ents]),
            "more": ("rk_con[]", [{"axis": a, "lo": lo, "hi": hi} for a, lo, hi in more]),
            "more_start": ("int32_t[]", spec["more_start"] or starts),
            "cell_first": ("int32_t[]", spec["cell_first"]),
            "always": ("int32_t[]", spec["always"]),
        }
        names = ["bucket_axis", "bucket_kind", "bucket_begin", "bucket_end", "bucket_key",
                 "bucket_cell", "bucket_n_cell", "bucket_base", "bucket_scale"]
        for name, col in zip(names, columns, strict=True):
            ctype = "double[]" if name in ("bucket_key", "bucket_base", "bucket_scale") \
                else "int32_t[]"
            arrays[name] = (ctype, list(col))
        for name, (ctype, values) in arrays.items():
            if name in spec["null"]:
                setattr(idx, name, ffi.NULL)
                continue
            arr = ffi.new(ctype, max(1, len(values)))
            for i, v in enumerate(values):
                if isinstance(v, dict):
                    for k, x in v.items():
                        setattr(arr[i], k, x)
                else:
                    arr[i] = v
            self.keep.append(arr)
            setattr(idx, name, arr)
        counts = {"n_params": spec["n_params"], "n_ids": spec["n_ids"],
                  "n_entries": len(ents), "n_more": len(more), "n_buckets": len(buckets),
                  "n_cells": len(spec["cell_first"]), "n_always": len(spec["always"])}
        counts.update(spec["counts"])
        for name, value in counts.items():
            setattr(idx, name, value)
        self.idx = idx

    def validate(self) -> int:
        return int(ffi_lib()[1].rk_validate(self.idx))

    def match(self, point: list[float], cap: int | None = None) -> tuple[int, list[int]]:
        ffi, lib = ffi_lib()
        cap = self.spec["n_ids"] if cap is None else cap
        out = ffi.new("int32_t[]", max(1, cap))
        pt = ffi.new("double[]", point) if point else ffi.NULL
        n = lib.rk_match(self.idx, pt, len(point), out if cap else ffi.NULL, cap)
        return n, list(out[0:min(max(n, 0), cap)])

    def reference(self, point: list[float]) -> list[int]:
        """The boxes containing point, read straight off the spec."""
        found = list(self.spec["always"])
        for axis, _kind, begin, end, *_ in self.spec["buckets"]:
            for e in self.spec["entries"][begin:end]:
                cons = [(axis, e["lo"], e["hi"]), (e["axis2"], e["lo2"], e["hi2"]), *e["more"]]
                if all(lo <= point[a] <= hi for a, lo, hi in cons):
                    found.append(e["id"])
        return sorted(found)


def with_changes(**changes: Any) -> dict[str, Any]:
    spec = copy.deepcopy(base_spec())
    spec.update(changes)
    return spec


def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """The base spec with one nested item replaced."""
    spec = copy.deepcopy(base_spec())
    target = spec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return spec


# --- rk_validate -----------------------------------------------------------------------


def test_hand_made_index_is_valid_and_answers_like_the_reference() -> None:
    index = HandIndex(base_spec())
    assert index.validate() == 0
    points = [[x, y] for x in (-1.0, 0.5, 1.0, 2.0, 4.9, 6.0, INF, -INF, math.nan)
              for y in (-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 4.0, 5.0, 6.0, INF, math.nan)]
    for point in points:
        n, ids = index.match(point)
        assert n == len(ids) and ids == index.reference(point), point


def test_empty_zero_parameter_index_is_valid() -> None:
    spec = with_changes(n_params=0, n_ids=1, entries=[], buckets=[], cell_first=[],
                        always=[0, 0])
    spec["null"] = {"entry", "more", "cell_first", "bucket_axis", "bucket_kind",
                    "bucket_begin", "bucket_end", "bucket_key", "bucket_cell",
                    "bucket_n_cell", "bucket_base", "bucket_scale"}
    index = HandIndex(spec)
    assert index.validate() == 0
    assert index.match([], cap=2) == (2, [0, 0])  # a NULL point is fine without parameters


ARG_CASES: dict[str, dict[str, Any]] = {
    **{f"negative {n}": {"counts": {n: -1}} for n in
       ("n_params", "n_ids", "n_entries", "n_more", "n_buckets", "n_cells", "n_always")},
    "too many params": {"counts": {"n_params": HAS_MORE}},
    **{f"NULL {name}": {"null": {name}} for name in
       ("more_start", "entry", "more", "cell_first", "always", "bucket_axis", "bucket_kind",
        "bucket_begin", "bucket_end", "bucket_key", "bucket_cell", "bucket_n_cell",
        "bucket_base", "bucket_scale")},
}


@pytest.mark.parametrize("case", list(ARG_CASES))
def test_validate_refuses_bad_sizes_and_null_arrays(case: str) -> None:
    _, lib = ffi_lib()
    assert HandIndex(with_changes(**ARG_CASES[case])).validate() == lib.RK_E_ARG


def test_validate_refuses_null_index() -> None:
    ffi, lib = ffi_lib()
    assert lib.rk_validate(ffi.NULL) == lib.RK_E_ARG


INDEX_CASES = {
    "always id negative": (("always",), [-1]),
    "always id too big": (("always",), [9]),
    "more_start[0]": (("more_start",), [1, 1, 2, 2, 2, 2, 2, 2, 2]),
    "more_start end": (("more_start",), [0, 0, 1, 1, 1, 1, 1, 1, 1]),
    "more_start decreasing": (("more_start",), [0, 0, 1, 0, 1, 1, 2, 2, 2]),
    "entry id negative": (("entries", 0, "id"), -1),
    "entry id too big": (("entries", 0, "id"), 9),
    "filter axis negative": (("entries", 0, "axis2"), -1),
    "filter axis too big": (("entries", 0, "axis2"), 2),
    "more axis negative": (("entries", 1, "more"), [(-1, 0.0, 1.0)]),
    "more axis too big": (("entries", 1, "more"), [(2, 0.0, 1.0)]),
    "begin negative": (("buckets", 0, 2), -1),
    "begin after end": (("buckets", 0, 2), 3),
    "end past entries": (("buckets", 3, 3), 9),
    "kind negative": (("buckets", 0, 1), -1),
    "kind unknown": (("buckets", 0, 1), 4),
    "bucket axis negative": (("buckets", 0, 0), -1),
    "bucket axis too big": (("buckets", 0, 0), 2),
    "GT key": (("buckets", 0, 4), 1.5),
    "LT key": (("buckets", 1, 4), 4.0),
    "GRID key": (("buckets", 3, 4), math.nan),
    "GT unsorted": (("entries", 1, "lo"), 0.5),
    "LT unsorted": (("entries", 3, "hi"), 6.0),
    "GRID unsorted": (("entries", 7, "lo"), -1.0),
    "no cells": (("buckets", 3, 6), 0),
    "first cell negative": (("buckets", 3, 5), -1),
    "cells past the end": (("buckets", 3, 5), 1),
    "base infinite": (("buckets", 3, 7), INF),
    "scale infinite": (("buckets", 3, 8), INF),
    "scale negative": (("buckets", 3, 8), -1.0),
    "cell before bucket": (("cell_first",), [5, 6, 7, 7]),
    "cell after bucket": (("cell_first",), [6, 6, 7, 9]),
}


@pytest.mark.parametrize("case", list(INDEX_CASES))
def test_validate_refuses_inconsistent_arrays(case: str) -> None:
    _, lib = ffi_lib()
    path, value = INDEX_CASES[case]
    assert HandIndex(changed(path, value)).validate() == lib.RK_E_INDEX


def test_empty_buckets_need_no_key() -> None:
    spec = base_spec()
    spec["buckets"].append([0, GT, 8, 8, 123.0, 0, 0, 0.0, 0.0])
    index = HandIndex(spec)
    assert index.validate() == 0
    ref = index.reference([3.0, 0.5])
    assert index.match([3.0, 0.5]) == (len(ref), ref)


# --- rk_match / rk_match_many / rk_cells arguments -------------------------------------


def test_match_refuses_bad_arguments() -> None:
    ffi, lib = ffi_lib()
    index = HandIndex(base_spec())
    out, pt = ffi.new("int32_t[]", 4), ffi.new("double[]", [0.0, 0.0])
    assert lib.rk_match(ffi.NULL, pt, 2, out, 4) == lib.RK_E_ARG
    assert lib.rk_match(index.idx, pt, 2, out, -1) == lib.RK_E_ARG
    assert lib.rk_match(index.idx, pt, 2, ffi.NULL, 4) == lib.RK_E_ARG
    assert lib.rk_match(index.idx, pt, 1, out, 4) == lib.RK_E_SHAPE
    assert lib.rk_match(index.idx, ffi.NULL, 2, out, 4) == lib.RK_E_ARG


def test_match_counts_beyond_a_small_buffer() -> None:
    """cap below the answer: the count is still exact, and only cap ids are written.
    [3.0, 4.0] ends the LT scan on its key (hi 3 < 4) before the bucket's end."""
    index = HandIndex(base_spec())
    for point in ([3.0, 0.5], [0.5, 0.5], [4.0, 2.5], [3.0, 4.0]):
        full = index.reference(point)
        for cap in range(len(full) + 1):
            n, ids = index.match(point, cap)
            assert n == len(full)
            assert set(ids) <= set(full) and len(ids) == cap


@pytest.mark.parametrize("x0", [1.0, 6.0])
def test_further_constraints_in_a_capacity_limited_lt_scan(x0: float) -> None:
    """An LT entry with a further constraint, scanned with less room than the bucket
    holds: the further constraint decides (x0 = 1 holds, x0 = 6 does not)."""
    ents = [entry(-INF, 5.0, 1, -INF, INF, 0, more=[(0, 0.0, 5.0)]),
            entry(-INF, 4.0, 1, -INF, INF, 1)]
    spec = with_changes(n_params=2, n_ids=2, entries=ents, cell_first=[], always=[],
                        buckets=[[1, LT, 0, 2, 5.0, 0, 0, 0.0, 0.0]])
    index = HandIndex(spec)
    assert index.validate() == 0
    full = index.reference([x0, 3.0])
    assert full == ([0, 1] if x0 == 1.0 else [1])
    for cap in range(len(full) + 1):
        n, ids = index.match([x0, 3.0], cap)
        assert n == len(full) and set(ids) <= set(full) and len(ids) == cap


def test_match_many_arguments_and_offsets() -> None:
    ffi, lib = ffi_lib()
    index = HandIndex(base_spec())
    pts = [[3.0, 0.5], [0.5, 0.5], [math.nan, math.nan]]
    flat = ffi.new("double[]", [v for p in pts for v in p])
    out, offsets = ffi.new("int32_t[]", 32), ffi.new("int64_t[]", 4)
    many = lib.rk_match_many
    assert many(ffi.NULL, flat, 3, 2, out, 32, offsets) == lib.RK_E_ARG
    assert many(index.idx, flat, 3, 2, out, 32, ffi.NULL) == lib.RK_E_ARG
    assert many(index.idx, flat, -1, 2, out, 32, offsets) == lib.RK_E_ARG
    assert many(index.idx, flat, 3, 2, out, -1, offsets) == lib.RK_E_ARG
    assert many(index.idx, flat, 3, 2, ffi.NULL, 32, offsets) == lib.RK_E_ARG
    assert many(index.idx, flat, 3, 1, out, 32, offsets) == lib.RK_E_SHAPE
    assert many(index.idx, ffi.NULL, 3, 2, out, 32, offsets) == lib.RK_E_ARG
    assert many(index.idx, ffi.NULL, 0, 2, out, 32, offsets) == 0 and offsets[0] == 0
    expected = [index.reference(p) for p in pts]
    total = many(index.idx, flat, 3, 2, out, 32, offsets)
    assert total == sum(map(len, expected))
    assert [list(out[offsets[i]:offsets[i + 1]]) for i in range(3)] == expected
    # too small a buffer, down to none at all: offsets still hold every count
    for cap in (0, 3, total - 1):
        assert many(index.idx, flat, 3, 2, out if cap else ffi.NULL, cap, offsets) == total
        assert [offsets[i + 1] - offsets[i] for i in range(3)] == list(map(len, expected))


def test_match_many_without_parameters_takes_a_null_points_array() -> None:
    ffi, lib = ffi_lib()
    spec = with_changes(n_params=0, n_ids=2, entries=[], buckets=[], cell_first=[],
                        always=[1])
    index = HandIndex(spec)
    assert index.validate() == 0
    out, offsets = ffi.new("int32_t[]", 8), ffi.new("int64_t[]", 4)
    assert lib.rk_match_many(index.idx, ffi.NULL, 3, 0, out, 8, offsets) == 3
    assert list(offsets) == [0, 1, 2, 3] and list(out[0:3]) == [1, 1, 1]


def test_cells_clamps_and_refuses_bad_arguments() -> None:
    ffi, lib = ffi_lib()
    vals = ffi.new("double[]", [-5.0, math.nan, 0.0, 1.5, 3.999, 4.0, 100.0, -INF, INF])
    out = ffi.new("int32_t[]", 9)
    assert lib.rk_cells(0.0, 1.0, 4, vals, 9, out) == lib.RK_OK
    assert list(out) == [0, 0, 0, 1, 3, 3, 3, 0, 3]
    assert lib.rk_cells(0.0, 1.0, 0, vals, 9, out) == lib.RK_E_ARG
    assert lib.rk_cells(0.0, 1.0, 4, vals, -1, out) == lib.RK_E_ARG
    assert lib.rk_cells(0.0, 1.0, 4, ffi.NULL, 9, out) == lib.RK_E_ARG
    assert lib.rk_cells(0.0, 1.0, 4, vals, 9, ffi.NULL) == lib.RK_E_ARG
    assert lib.rk_cells(0.0, 1.0, 4, ffi.NULL, 0, ffi.NULL) == lib.RK_OK


# --- sorting the output ------------------------------------------------------------------


def present_index(ids: list[int], n_ids: int) -> HandIndex:
    """One PRESENT bucket whose every entry contains any non-NaN point."""
    ents = [entry(-INF, INF, 0, -INF, INF, i) for i in ids]
    spec = with_changes(n_params=1, n_ids=n_ids, entries=ents, cell_first=[], always=[],
                        buckets=[[0, PRESENT, 0, len(ents), 0.0, 0, 0, 0.0, 0.0]])
    index = HandIndex(spec)
    assert index.validate() == 0
    return index


@pytest.mark.parametrize(
    ("n", "stride", "n_ids"),
    [
        (100, 7, 1000),  # spread ids: one counting pass and insertion sort
        (100, 1, 1 << 20),  # clustered ids: radix sort, two passes
        (100, 1, I32_MAX),  # clustered ids, 31-bit range: radix sort, three passes
        (60, 1, 1 << 20),  # clustered, too few for radix: quicksort
        (3000, 3, 10000),  # above the radix limit: quicksort
    ],
)
def test_output_is_sorted_on_every_sort_path(n: int, stride: int, n_ids: int) -> None:
    ids = [i * stride for i in range(n)]
    order = ids[::2] + ids[1::2][::-1]  # neither sorted nor reversed
    n_out, got = present_index(order, n_ids).match([0.0], cap=n)
    assert n_out == n and got == ids


def test_duplicate_ids_in_a_one_id_range_still_sort() -> None:
    """rk_validate does not promise unique ids: 40 copies of id 0 come out as they are."""
    spec = with_changes(n_params=1, n_ids=1, entries=[], buckets=[], cell_first=[],
                        always=[0] * 40)
    assert HandIndex(spec).match([0.0], cap=40) == (40, [0] * 40)


@pytest.mark.parametrize(("n", "stride", "n_ids"), [(3000, 3, 10000), (2049, 1, 2049),
                                                    (2500, 400, 1_000_000)])
def test_a_large_output_is_ordered_through_the_bitmap_in_its_room(
        n: int, stride: int, n_ids: int) -> None:
    """Room for ceil(n_ids / 32) words past the ids: the bitmap path, exact order."""
    ids = [i * stride for i in range(n)]
    order = ids[1::2][::-1] + ids[::2]
    room = -(-n_ids // ffi_lib()[1].RK_ORDER_BITS)
    assert present_index(order, n_ids).match([0.0], cap=n + room) == (n, ids)


@pytest.mark.parametrize(("n_ids", "bitmap"), [(1000, True), (1 << 20, False)])
def test_a_small_output_takes_the_bitmap_only_when_it_is_dense_enough(
        n_ids: int, bitmap: bool) -> None:
    """100 ids with room for the bitmap: over 1,000 ids (32 words) the bitmap orders
    them; over 2**20 ids (32,768 words, more than RK_ORDER_WORDS_PER_ID a id) the
    bucket sort does, and the room is left alone."""
    lib = ffi_lib()[1]
    ids = [i * 7 for i in range(100)]
    order = ids[::2] + ids[1::2][::-1]
    room = -(-n_ids // lib.RK_ORDER_BITS)
    assert (room <= lib.RK_ORDER_WORDS_PER_ID * 100) == bitmap
    assert present_index(order, n_ids).match([0.0], cap=100 + room) == (100, ids)


def test_one_word_short_of_room_falls_back_to_the_comparison_sort() -> None:
    ids = [i * 3 for i in range(3000)]
    order = ids[::2] + ids[1::2][::-1]
    room = -(-10000 // ffi_lib()[1].RK_ORDER_BITS)
    assert present_index(order, 10000).match([0.0], cap=3000 + room - 1) == (3000, ids)


def test_repeated_ids_above_the_radix_limit_keep_their_count() -> None:
    """A bitmap would fold repeats into one id: the kernel sees them and sorts instead."""
    lib = ffi_lib()[1]
    n = lib.RK_RADIX_MAX + 5
    spec = with_changes(n_params=1, n_ids=2, entries=[], buckets=[], cell_first=[],
                        always=[1, 0] * (n // 2) + [1])
    want = [0] * (n // 2) + [1] * (n - n // 2)
    assert HandIndex(spec).match([0.0], cap=n + 1) == (n, want)
