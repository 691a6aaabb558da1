"""Exact point-in-boxes queries: which rule boxes contain a sensor state.

A box set is CSR over ``n_params`` axes: box ``b`` owns constraints
``start[b]:start[b+1]``, each ``lo <op> x[axis] <op> hi`` with ``flags`` bit 0 = lo
inclusive, bit 1 = hi inclusive.  NaN in the point (unknown value) never satisfies a
constraint; a box with no constraint contains every point.  Two backends give identical
answers: the C kernel (anchor index, see ``csrc/kernel.c``) and a numpy scan over all
constraints, used when the kernel is not built or ``RULEC_PUREPYTHON=1``.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from rulec.runtime.backend import BACKEND, BackendName, load_native, native_error
from rulec.runtime.errors import BundleError, KernelError, StateError

IdArray = NDArray[np.int32]
_INT32 = np.dtype(np.int32)
_I32_MAX = np.iinfo(np.int32).max


class BoxIndex:
    """Immutable index over a box set; ``match`` returns the containing box ids.

    Queries are thread-safe (no shared mutable buffers) and release the GIL in C.
    """

    def __init__(
        self,
        n_params: int,
        start: ArrayLike,
        axis: ArrayLike,
        lo: ArrayLike,
        hi: ArrayLike,
        flags: ArrayLike,
        axis_span: ArrayLike | None = None,
        *,
        backend: BackendName | None = None,
    ) -> None:
        self.n_params, self.start, self.axis, self.lo, self.hi, self.flags = _check_boxes(
            n_params, start, axis, lo, hi, flags
        )
        self._shape = (self.n_params,)
        span = None if axis_span is None else _check_span(axis_span, self.n_params)
        chosen = BACKEND if backend is None else backend
        self._impl: _NativeKernel | _NumpyScan
        if chosen == "native":
            lib = load_native()
            if lib is None:
                raise KernelError(f"native kernel not available: {native_error()}")
            anchors = build_anchors(self, span, lib)
            self._impl = _NativeKernel(self, anchors, lib)
        elif chosen == "numpy":
            self._impl = _NumpyScan(self)
        else:
            raise ValueError(f"unknown backend {chosen!r}; use 'native' or 'numpy'")
        self.backend: BackendName = chosen

    @property
    def n_boxes(self) -> int:
        return int(self.start.shape[0] - 1)

    @property
    def nbytes(self) -> int:
        """Bytes held by the box arrays and the backend's index."""
        own = sum(a.nbytes for a in (self.start, self.axis, self.lo, self.hi, self.flags))
        return own + self._impl.nbytes

    def match(self, point: ArrayLike) -> IdArray:
        """Sorted, unique int32 ids of the boxes containing ``point`` (length n_params)."""
        x = _as_float(point)
        if x.shape != self._shape:
            raise StateError(f"state has shape {x.shape}, expected ({self.n_params},)")
        return self._impl.match(x)

    def match_many(self, points: ArrayLike) -> list[IdArray]:
        """``match`` for each row of a 2-D array, in one kernel call on the C backend."""
        xs = _as_float(points)
        if xs.ndim != 2 or xs.shape[1] != self.n_params:
            raise StateError(f"states have shape {xs.shape}, expected (m, {self.n_params})")
        return self._impl.match_many(xs)

    def native_index(self) -> Any:
        """The C kernel's ``rk_index`` (for C code of the same module), None on numpy."""
        return self._impl._idx if isinstance(self._impl, _NativeKernel) else None

    def __repr__(self) -> str:
        return f"BoxIndex(n_params={self.n_params}, n_boxes={self.n_boxes}, {self.backend})"


def _as_float(value: ArrayLike) -> NDArray[np.float64]:
    """C-contiguous float64 view or copy of a state (what the kernel reads)."""
    try:
        return np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise StateError(f"state is not numeric: {exc}") from exc


def _frozen(arr: NDArray[Any], dtype: type[np.generic]) -> NDArray[Any]:
    out = np.array(arr, dtype=dtype, copy=True, order="C")
    out.setflags(write=False)
    return out


def _int_array(name: str, value: ArrayLike) -> NDArray[Any]:
    arr = np.asarray(value)
    if arr.ndim != 1:
        raise BundleError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        raise BundleError(f"{name} must hold integers, got {arr.dtype}")
    return arr


def _float_array(name: str, value: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(value)
    if arr.ndim != 1:
        raise BundleError(f"{name} must be 1-D, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iuf":
        raise BundleError(f"{name} must hold numbers, got {arr.dtype}")
    arr = arr.astype(np.float64)
    if np.isnan(arr).any():
        raise BundleError(f"{name} holds NaN")
    return arr


def _check_boxes(
    n_params: int,
    start: ArrayLike,
    axis: ArrayLike,
    lo: ArrayLike,
    hi: ArrayLike,
    flags: ArrayLike,
) -> tuple[int, IdArray, IdArray, NDArray[np.float64], NDArray[np.float64], NDArray[np.uint8]]:
    """Validate a CSR box set and return private read-only copies in kernel dtypes."""
    try:
        n = operator.index(n_params)
    except TypeError as exc:
        raise BundleError(f"n_params must be an integer, got {n_params!r}") from exc
    if not 0 <= n <= _I32_MAX:
        raise BundleError(f"n_params out of range: {n}")
    st, ax, fl = _int_array("start", start), _int_array("axis", axis), _int_array("flags", flags)
    lo_a, hi_a = _float_array("lo", lo), _float_array("hi", hi)
    n_cons = ax.shape[0]
    if not lo_a.shape[0] == hi_a.shape[0] == fl.shape[0] == n_cons:
        raise BundleError("axis, lo, hi and flags must have the same length")
    if st.shape[0] < 1 or n_cons > _I32_MAX or st.shape[0] - 1 > _I32_MAX:
        raise BundleError("start must have n_boxes + 1 entries (at least 1)")
    if st[0] != 0 or st[-1] != n_cons or (np.diff(st) < 0).any():
        raise BundleError("start must rise from 0 to the number of constraints")
    if n_cons and (ax.min() < 0 or ax.max() >= n):
        raise BundleError(f"axis out of range 0..{n - 1}")
    if n_cons and (fl.min() < 0 or fl.max() > 3):
        raise BundleError("flags must be in 0..3")
    return (
        n,
        _frozen(st, np.int32),
        _frozen(ax, np.int32),
        _frozen(lo_a, np.float64),
        _frozen(hi_a, np.float64),
        _frozen(fl, np.uint8),
    )


def _check_span(axis_span: ArrayLike, n_params: int) -> NDArray[np.float64]:
    """axis_span, one number per parameter; only a hint for choosing anchors, so an
    entry that is not finite and positive (an empty or unknown range) becomes NaN and
    the spread of that axis's bounds is used instead."""
    span = np.asarray(axis_span)
    if span.shape != (n_params,) or (span.size and span.dtype.kind not in "iuf"):
        raise BundleError(f"axis_span must be {n_params} numbers, got {span.shape} {span.dtype}")
    span = span.astype(np.float64)
    return np.where(np.isfinite(span) & (span > 0), span, np.nan)


class _NumpyScan:
    """Fallback: test every constraint, then mark the boxes with a failing one."""

    def __init__(self, boxes: BoxIndex) -> None:
        self._axis, self._lo, self._hi = boxes.axis, boxes.lo, boxes.hi
        self._lo_incl = (boxes.flags & 1).astype(bool)
        self._hi_incl = (boxes.flags & 2).astype(bool)
        self._con_box = np.repeat(np.arange(boxes.n_boxes, dtype=np.int32), np.diff(boxes.start))
        self._n_boxes = boxes.n_boxes
        self.nbytes = self._lo_incl.nbytes * 2 + self._con_box.nbytes

    def match(self, x: NDArray[np.float64]) -> IdArray:
        v = x[self._axis]
        ok = (v > self._lo) | (self._lo_incl & (v == self._lo))  # NaN: all False
        ok &= (v < self._hi) | (self._hi_incl & (v == self._hi))
        failed = np.zeros(self._n_boxes, dtype=bool)
        failed[self._con_box[~ok]] = True
        return np.flatnonzero(~failed).astype(np.int32)

    def match_many(self, xs: NDArray[np.float64]) -> list[IdArray]:
        return [self.match(x) for x in xs]


@dataclass(frozen=True)
class Anchors:
    """The search structure the C kernel reads (see csrc/kernel.h for each field)."""

    entry: NDArray[Any]  # rk_entry records, in bucket order
    more_start: IdArray
    more: NDArray[Any]  # rk_con records: constraints beyond anchor and filter
    bucket_axis: IdArray
    bucket_kind: IdArray
    bucket_begin: IdArray
    bucket_end: IdArray
    bucket_key: NDArray[np.float64]
    bucket_cell: IdArray
    bucket_n_cell: IdArray
    bucket_base: NDArray[np.float64]
    bucket_scale: NDArray[np.float64]
    cell_first: IdArray
    always: IdArray

    @property
    def nbytes(self) -> int:
        return sum(int(getattr(self, f).nbytes) for f in self.__dataclass_fields__)


_CLASS_STEP = 1  # finite anchors share a grid when their widths are within 2**_CLASS_STEP
_CELLS_PER_WIDTH = 8  # grid cells per widest interval: shorter scans, more cells
_LOOKUP_COST = 4.0  # a grid lookup costs about as much as scanning this many entries
_ZERO_WIDTH_CLASS = -(2**20)  # equality constraints get their own grid
_HUGE_WIDTH_CLASS = 2**20  # hi - lo overflows to inf


def build_anchors(boxes: BoxIndex, span: NDArray[np.float64] | None, module: Any) -> Anchors:
    """Anchor each box on its most selective constraint, filter on the next, and bucket.

    Bounds become inclusive (see csrc/kernel.h); boxes that can never match get no entry.
    """
    lib = module.lib
    if boxes.n_params > lib.RK_AXIS_MASK:
        raise BundleError(f"the C kernel takes at most {lib.RK_AXIS_MASK} parameters")
    start, axis = boxes.start, boxes.axis
    sizes = np.diff(start)
    con_box = np.repeat(np.arange(boxes.n_boxes, dtype=np.int32), sizes)
    lo, hi, never = _inclusive(boxes.lo, boxes.hi, boxes.flags)
    lo_inf, hi_inf = boxes.lo == -np.inf, boxes.hi == np.inf
    kind = np.select([lo_inf & hi_inf, hi_inf, lo_inf],
                     [lib.RK_KIND_PRESENT, lib.RK_KIND_GT, lib.RK_KIND_LT], lib.RK_KIND_GRID)
    with np.errstate(over="ignore", invalid="ignore"):
        width = hi - lo
    spread = _default_span(boxes.n_params, axis, lo, hi)
    span = spread if span is None else np.where(np.isnan(span), spread, span)
    score = _share(lib, kind, axis, lo, hi, width, span)

    dead = np.zeros(boxes.n_boxes, dtype=bool)
    dead[con_box[never]] = True
    by_box = np.lexsort((score, con_box))  # within each box, most selective first
    live = np.flatnonzero((sizes > 0) & ~dead)
    anchor = by_box[start[live]]

    # Entries in bucket order: by axis, kind, grid group, then search key.
    a_kind = kind[anchor]
    a_group = np.zeros(anchor.shape[0], dtype=np.int64)
    grid = a_kind == lib.RK_KIND_GRID
    a_group[grid] = _grid_groups(axis[anchor][grid], width[anchor][grid], span)
    key = np.where(a_kind == lib.RK_KIND_LT, -hi[anchor], lo[anchor])
    key[a_kind == lib.RK_KIND_PRESENT] = 0.0
    order = np.lexsort((live, key, a_group, a_kind, axis[anchor]))
    live, anchor, a_kind, a_group = live[order], anchor[order], a_kind[order], a_group[order]

    entry, more_start, more = _entries(module, live, anchor, by_box, start, axis, lo, hi)
    buckets = _buckets(module, axis[anchor], a_kind, a_group, lo[anchor], hi[anchor])
    return Anchors(entry=entry, more_start=more_start, more=more, **buckets,
                   always=_i32(np.flatnonzero(sizes == 0)))


def _share(lib: Any, kind: NDArray[Any], axis: IdArray, lo: NDArray[np.float64],
           hi: NDArray[np.float64], width: NDArray[np.float64],
           span: NDArray[np.float64]) -> NDArray[np.float64]:
    """Estimated share of its axis that each constraint accepts (smaller: more selective).

    A finite interval: its width over the axis span.  A one-sided threshold: its
    distance to the most extreme bound seen on the axis, plus a small bias since the
    true extreme is unknown.  A "present" constraint (both bounds infinite): all.
    """
    amin, amax = _axis_extremes(span.shape[0], axis, lo, hi)
    s = span[axis]
    with np.errstate(over="ignore", invalid="ignore"):
        return np.select(
            [kind == lib.RK_KIND_GRID, kind == lib.RK_KIND_GT, kind == lib.RK_KIND_LT],
            [np.minimum(width / s, 3.0), np.clip((amax[axis] - lo) / s, 0.0, 1.0) + 0.01,
             np.clip((hi - amin[axis]) / s, 0.0, 1.0) + 0.01], 4.0)


def _default_span(n: int, axis: IdArray, lo: NDArray[np.float64],
                  hi: NDArray[np.float64]) -> NDArray[np.float64]:
    """Without axis_span: the spread of the finite bounds seen on each axis."""
    amin, amax = _axis_extremes(n, axis, lo, hi)
    with np.errstate(over="ignore", invalid="ignore"):
        spread = amax - amin
    return np.where(np.isfinite(spread) & (spread > 0), spread, 1.0)


def _entries(
    module: Any, box: NDArray[np.int64], anchor: NDArray[np.int64], by_box: NDArray[np.int64],
    start: IdArray, axis: IdArray, lo: NDArray[np.float64], hi: NDArray[np.float64],
) -> tuple[NDArray[Any], IdArray, NDArray[Any]]:
    """rk_entry records (anchor, filter, id) in bucket order, and the further constraints.

    The filter is the box's second most selective constraint; a box with one
    constraint gets (anchor axis, -inf, +inf), which holds wherever the anchor does.
    """
    lib, ffi = module.lib, module.ffi
    size = start[box + 1] - start[box]
    two = size >= 2
    filt = np.where(two, by_box[np.minimum(start[box] + 1, by_box.shape[0] - 1)], anchor)
    lo2 = np.where(two, lo[filt], -np.inf)
    hi2 = np.where(two, hi[filt], np.inf)
    n_more = np.maximum(size - 2, 0).astype(np.int64)
    more_start = np.r_[0, np.cumsum(n_more)]
    # positions in by_box of each entry's 3rd, 4th, ... constraints, in entry order
    first_more = np.repeat(start[box] + 2 - more_start[:-1], n_more)
    extra = by_box[first_more + np.arange(more_start[-1])]
    axis2 = axis[filt] | np.where(n_more > 0, lib.RK_HAS_MORE, 0)
    entry = _records(ffi, "rk_entry", lo=lo[anchor], hi=hi[anchor], lo2=lo2, hi2=hi2,
                     axis2=axis2, id=box)
    more = _records(ffi, "rk_con", lo=lo[extra], hi=hi[extra], axis=axis[extra])
    return entry, _i32(more_start), more


def _buckets(
    module: Any, e_axis: IdArray, e_kind: NDArray[Any], e_group: NDArray[np.int64],
    e_lo: NDArray[np.float64], e_hi: NDArray[np.float64],
) -> dict[str, NDArray[Any]]:
    """Bucket boundaries over the sorted entries, and a grid for each GRID bucket."""
    lib = module.lib
    m = e_axis.shape[0]
    change = (np.diff(e_axis) != 0) | (np.diff(e_kind) != 0) | (np.diff(e_group) != 0)
    begin = np.flatnonzero(np.r_[True, change]) if m else np.zeros(0, np.int64)
    end = np.r_[begin[1:], m].astype(np.int64)
    nb = begin.shape[0]
    cell, n_cell = np.zeros(nb, np.int64), np.zeros(nb, np.int64)
    base, scale = np.zeros(nb), np.zeros(nb)
    firsts: list[NDArray[np.int64]] = []
    n_cells = 0
    for k in np.flatnonzero(e_kind[begin] == lib.RK_KIND_GRID):
        b, e = begin[k], end[k]
        base[k], scale[k], first = _grid(module, e_lo[b:e], e_hi[b:e])
        cell[k], n_cell[k] = n_cells, first.shape[0]
        n_cells += first.shape[0]
        firsts.append(first + b)
    return dict(
        bucket_axis=_i32(e_axis[begin]),
        bucket_kind=_i32(e_kind[begin]),
        bucket_begin=_i32(begin),
        bucket_end=_i32(end),
        bucket_key=np.where(e_kind[begin] == lib.RK_KIND_LT, e_hi[begin], e_lo[begin]),
        bucket_cell=_i32(cell),
        bucket_n_cell=_i32(n_cell),
        bucket_base=base,
        bucket_scale=scale,
        cell_first=_i32(np.concatenate(firsts) if firsts else np.zeros(0)),
    )


def _inclusive(
    lo: NDArray[np.float64], hi: NDArray[np.float64], flags: NDArray[np.uint8]
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.bool_]]:
    """Inclusive bounds equivalent to the flagged ones, and which constraints never hold.

    x > lo is x >= nextafter(lo, inf) for every double x (none lies in between), except
    for lo = +inf, where x > lo never holds; mirrored for hi.
    """
    lo_in, hi_in = (flags & 1).astype(bool), (flags & 2).astype(bool)
    with np.errstate(over="ignore"):  # nextafter(DBL_MAX, inf) is inf, as intended
        lo_n = np.where(lo_in, lo, np.nextafter(lo, np.inf))
        hi_n = np.where(hi_in, hi, np.nextafter(hi, -np.inf))
    never = (lo_n > hi_n) | ((lo == np.inf) & ~lo_in) | ((hi == -np.inf) & ~hi_in)
    return lo_n, hi_n, never


def _records(ffi: Any, ctype: str, **fields: NDArray[Any]) -> NDArray[Any]:
    """A numpy record array laid out exactly like the C struct ``ctype``."""
    names = list(fields)
    dtype = np.dtype({
        "names": names,
        "formats": [np.float64 if fields[f].dtype.kind == "f" else np.int32 for f in names],
        "offsets": [ffi.offsetof(ctype, f) for f in names],
        "itemsize": ffi.sizeof(ctype),
    })
    n = next(iter(fields.values())).shape[0]
    out = np.zeros(n, dtype=dtype)
    for f in names:
        out[f] = fields[f]
    return out


def _grid(
    module: Any, lo: NDArray[np.float64], hi: NDArray[np.float64]
) -> tuple[float, float, NDArray[np.int64]]:
    """Lay a uniform grid over lo-sorted finite intervals; give each cell its scan start.

    Returns (base, scale, first): a scan for x in cell c starts at interval first[c],
    the first one whose hi falls in cell c or later.  Cells come from the kernel's own
    monotone cell function, so every interval before first[c] has hi < x: the lookup
    is exact.  The cell count is capped near the interval count (memory stays linear).
    """
    count = lo.shape[0]
    base = float(lo.min())
    reach = float(hi.max()) - base
    with np.errstate(over="ignore"):
        widest = float((hi - lo).max())
    cap = 2 * count + 1
    n_cell = 1
    if np.isfinite(reach) and reach > 0:
        n_cell = cap if widest == 0 else int(min(cap, max(1.0, reach * _CELLS_PER_WIDTH / widest)))
    scale = n_cell / reach if n_cell > 1 else 0.0
    if not np.isfinite(scale):
        n_cell, scale = 1, 0.0
    c_hi = _cells(module, base, scale, n_cell, hi)
    first = np.full(n_cell + 1, count, dtype=np.int64)
    np.minimum.at(first, c_hi, np.arange(count))
    return base, scale, np.minimum.accumulate(first[::-1])[::-1][:n_cell]


def _cells(module: Any, base: float, scale: float, n_cell: int,
           values: NDArray[np.float64]) -> NDArray[np.int64]:
    v = np.ascontiguousarray(values, dtype=np.float64)
    out = np.empty(v.shape[0], dtype=np.int32)
    ffi = module.ffi
    status = module.lib.rk_cells(base, scale, n_cell, ffi.from_buffer("double[]", v),
                                 v.shape[0], ffi.from_buffer("int32_t[]", out))
    if status != module.lib.RK_OK:
        raise KernelError(f"containment kernel: cell computation failed (status {status})")
    return out.astype(np.int64)


def _i32(values: ArrayLike) -> IdArray:
    return np.ascontiguousarray(values, dtype=np.int32)


def _axis_extremes(
    n: int, axis: IdArray, lo: NDArray[np.float64], hi: NDArray[np.float64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per axis, the smallest and largest finite bound (0, 0 where there is none)."""
    ax = np.concatenate([axis, axis])
    val = np.concatenate([lo, hi])
    keep = np.isfinite(val)
    amin, amax = np.full(n, np.inf), np.full(n, -np.inf)
    np.minimum.at(amin, ax[keep], val[keep])
    np.maximum.at(amax, ax[keep], val[keep])
    none = amin > amax
    amin[none], amax[none] = 0.0, 0.0
    return amin, amax


def _width_class(width: NDArray[np.float64]) -> NDArray[np.int64]:
    """Grid class of a finite interval: its binary order of magnitude, coarsened."""
    cls = np.frexp(width)[1].astype(np.int64) // _CLASS_STEP
    cls[width == 0] = _ZERO_WIDTH_CLASS
    cls[np.isinf(width)] = _HUGE_WIDTH_CLASS
    return cls


def _grid_groups(
    axis: IdArray, width: NDArray[np.float64], span: NDArray[np.float64]
) -> NDArray[np.int64]:
    """Which grid each finite anchor joins: width classes, merged while that is cheaper.

    A grid costs one lookup per query; putting narrower intervals in a wider grid
    lengthens its scans by about n * (W_wide - W_narrow) / span entries.  Going from the
    narrowest class up, a class joins the group below when that is below the cost of a
    lookup, counted in scanned entries.
    """
    cls = _width_class(width)
    group = np.zeros(cls.shape[0], dtype=np.int64)
    if not cls.shape[0]:
        return group
    pairs, inverse, counts = np.unique(np.stack([axis, cls], axis=1), axis=0,
                                       return_inverse=True, return_counts=True)
    widest = np.zeros(pairs.shape[0])
    np.maximum.at(widest, inverse.ravel(), width)
    ids = np.zeros(pairs.shape[0], dtype=np.int64)
    g, n_g, w_g, prev_axis = 0, 0, 0.0, -1
    for p, (a, _), n_c, w_c in zip(range(pairs.shape[0]), pairs, counts, widest, strict=True):
        with np.errstate(over="ignore", invalid="ignore"):
            grow = n_g * (w_c - w_g) * (1 + 1 / _CELLS_PER_WIDTH) / span[a]
        if a != prev_axis or not grow < _LOOKUP_COST:
            g, n_g, prev_axis = g + 1, 0, a
        ids[p], n_g, w_g = g, n_g + n_c, w_c
    return ids[inverse.ravel()]


class _NativeKernel:
    """The C kernel: holds the arrays it points into for as long as it lives."""

    def __init__(self, boxes: BoxIndex, anchors: Anchors, module: ModuleType) -> None:
        self._ffi, self._lib = module.ffi, module.lib
        self._keep: list[Any] = []
        self._n_params = boxes.n_params
        self._n_ids = boxes.n_boxes
        self._cap = max(1, min(boxes.n_boxes, 64))
        self._per_state = self._cap  # match_many: ids per state in its buffer
        # scratch past the ids in which the kernel orders a large output (kernel.h)
        self._room = -(-boxes.n_boxes // self._lib.RK_ORDER_BITS)
        self._radix_max = self._lib.RK_RADIX_MAX
        self._words_per_id = self._lib.RK_ORDER_WORDS_PER_ID
        self.nbytes = anchors.nbytes
        idx = self._ffi.new("rk_index *")
        idx.n_params, idx.n_ids = boxes.n_params, boxes.n_boxes
        idx.n_entries, idx.n_more = anchors.entry.shape[0], anchors.more.shape[0]
        idx.n_buckets, idx.n_cells = anchors.bucket_kind.size, anchors.cell_first.size
        idx.n_always = anchors.always.size
        ctypes = {"entry": "rk_entry[]", "more": "rk_con[]", "bucket_key": "double[]",
                  "bucket_base": "double[]", "bucket_scale": "double[]"}
        for name in anchors.__dataclass_fields__:
            setattr(idx, name, self._ptr(ctypes.get(name, "int32_t[]"), getattr(anchors, name)))
        self._idx = idx
        self._check(self._lib.rk_validate(idx))

    def _ptr(self, ctype: str, arr: NDArray[Any]) -> Any:
        """Zero-copy pointer into arr; arr and the pointer stay referenced by self."""
        ptr = self._ffi.from_buffer(ctype, arr)
        self._keep.append((arr, ptr))
        return ptr

    def _check(self, status: int) -> None:
        """Turn a negative kernel status into an exception (the one place that does)."""
        if status >= 0:
            return
        reasons = {
            self._lib.RK_E_ARG: "bad argument",
            self._lib.RK_E_SHAPE: "point length differs from n_params",
            self._lib.RK_E_INDEX: "index arrays inconsistent",
        }
        raise KernelError(f"containment kernel: {reasons.get(status, 'unknown failure')} "
                          f"(status {status})")

    def _buffer(self, ids: int) -> IdArray:
        """Room for `ids` ids, plus the ordering bitmap when the kernel may use it for
        that many (kernel.h, rk_match); a small answer over many rules goes without."""
        bitmap = ids > self._radix_max or self._room <= self._words_per_id * ids
        return np.empty(ids + (self._room if bitmap else 0), _INT32)

    def _learn(self, count: int) -> None:
        """Size later buffers for about twice the largest answer seen (a benign race)."""
        if count > self._cap:
            self._cap = min(max(self._cap, 2 * count), max(1, self._n_ids))

    def match(self, x: NDArray[np.float64]) -> IdArray:
        # The hot path: a few hundred nanoseconds of Python around the C call.
        from_buffer = self._ffi.from_buffer
        px = from_buffer("double[]", x)
        out = self._buffer(self._cap)
        count: int = self._lib.rk_match(self._idx, px, self._n_params,
                                        from_buffer("int32_t[]", out), out.shape[0])
        while count > out.shape[0]:  # grow and retry
            self._learn(count)
            out = self._buffer(count)
            count = self._lib.rk_match(self._idx, px, self._n_params,
                                       from_buffer("int32_t[]", out), out.shape[0])
        if count < 0:
            self._check(count)
        self._learn(count)
        return out[:count]

    def match_many(self, xs: NDArray[np.float64]) -> list[IdArray]:
        ffi, lib = self._ffi, self._lib
        m = xs.shape[0]
        offsets = np.zeros(m + 1, dtype=np.int64)
        cap = max(1, m * self._per_state)
        while True:
            out = self._buffer(cap)
            total = lib.rk_match_many(
                self._idx, ffi.from_buffer("double[]", xs), m, self._n_params,
                ffi.from_buffer("int32_t[]", out), out.shape[0],
                ffi.from_buffer("int64_t[]", offsets))
            if total <= out.shape[0]:
                break
            cap = total
        self._check(total)
        if m:  # size the next batch for this one's mean answer, with a quarter more
            self._per_state = max(1, min(-(-5 * total // (4 * m)), self._n_ids))
        return [out[offsets[i]: offsets[i + 1]] for i in range(m)]
