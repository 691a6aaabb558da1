"""C baselines for the kernel report: what a flight-software engineer would write instead.

Built with cffi at first use into ``bench/.build/`` (same compiler flags as the kernel:
``-O2 -std=c99``, no fast-math), so the comparison is C against C:

- **table scan**: cFS Limit Checker style.  Two dense ``N x d`` tables of inclusive
  bounds (``-inf``/``+inf`` where a rule leaves a parameter free; strict bounds made
  inclusive with ``nextafter``, as the kernel does), every cell compared, no branch on
  the data: the id is written unconditionally and the count advances by the test.  A
  bit mask per rule of the parameters it names makes an unknown (NaN) value fail only
  those rules, as the kernel's semantics say.
- **naive scan**: the rules as CSR constraints with their strict/inclusive flags, tested
  one by one with an early exit, the way the definition reads.
- **floor**: reads the state once and writes a given id list: no method can answer in
  less (it is told the answer), so "ours / floor" is how far the kernel is from the
  output-bound minimum, call overhead included on both sides.

Every call is a plain cffi call on preallocated buffers, so the baselines carry less
Python overhead than ``BoxIndex.match`` (which validates the state and allocates its
result).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from workloads import Workload

_BUILD = Path(__file__).resolve().parent / ".build"
_NAME = "_rulec_bench_scans"

_CDEF = """
int32_t bl_table_scan(const double *lo, const double *hi, const uint64_t *need, int32_t n,
                      int32_t d, const double *x, int32_t *out);
int32_t bl_naive_scan(const int32_t *start, const int32_t *axis, const double *lo,
                      const double *hi, const uint8_t *flags, int32_t n, const double *x,
                      int32_t *out);
int32_t bl_floor(const double *x, int32_t d, const int32_t *ids, int32_t n, int32_t *out);
"""

_SOURCE = r"""
#include <stdint.h>
#include <string.h>

static volatile int32_t bl_sink; /* keeps the floor's read of the state */

/* Branch-free scan of two dense threshold tables (row-major N x d, inclusive), d <= 64.
   A free cell holds (-inf, +inf); so that an unknown (NaN) value fails only the rules
   that name its parameter, NaN is read as 0 in the tables and need[i] (a bit per
   parameter the rule names) fails the rule instead. */
int32_t bl_table_scan(const double *lo, const double *hi, const uint64_t *need, int32_t n,
                      int32_t d, const double *x, int32_t *out)
{
    double v[64];
    uint64_t unknown = 0;
    int32_t i, j, k = 0;
    for (j = 0; j < d; ++j) {
        int nan = x[j] != x[j];
        unknown |= (uint64_t)nan << j;
        v[j] = nan ? 0.0 : x[j];
    }
    for (i = 0; i < n; ++i) {
        const double *l = lo + (int64_t)i * d, *h = hi + (int64_t)i * d;
        int ok = (need[i] & unknown) == 0;
        for (j = 0; j < d; ++j) {
            ok &= (v[j] >= l[j]) & (v[j] <= h[j]);
        }
        out[k] = i;
        k += ok;
    }
    return k;
}

/* The definition read literally: each constraint with its flags, early exit. */
int32_t bl_naive_scan(const int32_t *start, const int32_t *axis, const double *lo,
                      const double *hi, const uint8_t *flags, int32_t n, const double *x,
                      int32_t *out)
{
    int32_t b, c, k = 0;
    for (b = 0; b < n; ++b) {
        int ok = 1;
        for (c = start[b]; c < start[b + 1]; ++c) {
            double v = x[axis[c]];
            int lo_ok = (flags[c] & 1) ? v >= lo[c] : v > lo[c];
            int hi_ok = (flags[c] & 2) ? v <= hi[c] : v < hi[c];
            if (!(lo_ok && hi_ok)) {
                ok = 0;
                break;
            }
        }
        if (ok) {
            out[k++] = b;
        }
    }
    return k;
}

/* The output-bound minimum: one pass over the state, then the ids written. */
int32_t bl_floor(const double *x, int32_t d, const int32_t *ids, int32_t n, int32_t *out)
{
    int32_t j, nan = 0;
    for (j = 0; j < d; ++j) {
        nan |= x[j] != x[j];
    }
    bl_sink = nan;
    memcpy(out, ids, sizeof(int32_t) * (size_t)n);
    return n;
}
"""


def load() -> Any:
    """The compiled baseline module (built on first use, then imported from .build/)."""
    _BUILD.mkdir(exist_ok=True)
    if str(_BUILD) not in sys.path:
        sys.path.insert(0, str(_BUILD))
    try:
        return importlib.import_module(_NAME)
    except ImportError:
        pass
    from cffi import FFI

    ffi = FFI()
    ffi.cdef(_CDEF)
    ffi.set_source(_NAME, _SOURCE, extra_compile_args=["-O2", "-std=c99"])
    ffi.compile(tmpdir=str(_BUILD))
    importlib.invalidate_caches()
    return importlib.import_module(_NAME)


def inclusive_tables(lo: NDArray[np.float64], hi: NDArray[np.float64],
                     lo_in: NDArray[np.bool_], hi_in: NDArray[np.bool_]
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Dense bounds made inclusive: x > t is x >= nextafter(t, inf) for every double x.

    A strict bound at an infinity (x > +inf, x < -inf) never holds; it becomes an
    empty interval (lo = +inf, hi = -inf) so the table still answers exactly."""
    with np.errstate(over="ignore"):
        lo_n = np.where(lo_in, lo, np.nextafter(lo, np.inf))
        hi_n = np.where(hi_in, hi, np.nextafter(hi, -np.inf))
    never = ((lo == np.inf) & ~lo_in) | ((hi == -np.inf) & ~hi_in)
    lo_n[never], hi_n[never] = np.inf, -np.inf
    return np.ascontiguousarray(lo_n), np.ascontiguousarray(hi_n)


class TableScan:
    """cFS Limit Checker style: two dense inclusive threshold tables, branch-free."""

    def __init__(self, w: Workload) -> None:
        self._mod = load()
        dense = w.dense()
        self._lo, self._hi = inclusive_tables(dense["lo"], dense["hi"], dense["lo_in"],
                                              dense["hi_in"])
        self._n, self._d = self._lo.shape
        if self._d > 64:
            raise ValueError(f"the table scan takes at most 64 parameters, got {self._d}")
        rule = np.repeat(np.arange(self._n), np.diff(w.start))
        self._need = np.zeros(self._n, np.uint64)
        np.bitwise_or.at(self._need, rule, np.left_shift(np.uint64(1), w.axis.astype(np.uint64)))
        self._out = np.empty(max(1, self._n), np.int32)
        ffi = self._mod.ffi
        self._ptrs = (ffi.from_buffer("double[]", self._lo),
                      ffi.from_buffer("double[]", self._hi),
                      ffi.from_buffer("uint64_t[]", self._need))
        self._pout = ffi.from_buffer("int32_t[]", self._out)
        self.nbytes = self._lo.nbytes + self._hi.nbytes + self._need.nbytes

    def __call__(self, x: NDArray[np.float64]) -> NDArray[np.int32]:
        k = self._mod.lib.bl_table_scan(*self._ptrs, self._n, self._d,
                                        self._mod.ffi.from_buffer("double[]", x), self._pout)
        return self._out[:k]


class NaiveScan:
    """Each rule's constraints in turn, strict/inclusive flags honoured, early exit."""

    def __init__(self, start: NDArray[np.int32], axis: NDArray[np.int32],
                 lo: NDArray[np.float64], hi: NDArray[np.float64],
                 flags: NDArray[np.uint8]) -> None:
        self._mod = load()
        ffi = self._mod.ffi
        self._arrays = [np.ascontiguousarray(a) for a in (
            start.astype(np.int32), axis.astype(np.int32), lo.astype(np.float64),
            hi.astype(np.float64), flags.astype(np.uint8))]
        types = ["int32_t[]", "int32_t[]", "double[]", "double[]", "uint8_t[]"]
        self._ptrs = [ffi.from_buffer(t, a) for t, a in zip(types, self._arrays, strict=True)]
        self._n = int(start.shape[0] - 1)
        self._out = np.empty(max(1, self._n), np.int32)
        self._pout = ffi.from_buffer("int32_t[]", self._out)

    def __call__(self, x: NDArray[np.float64]) -> NDArray[np.int32]:
        k = self._mod.lib.bl_naive_scan(*self._ptrs, self._n,
                                        self._mod.ffi.from_buffer("double[]", x), self._pout)
        return self._out[:k]


class OutputFloor:
    """Told the answer for each state, writes it: the least any method can do."""

    def __init__(self, answers: dict[bytes, NDArray[np.int32]], n_ids: int) -> None:
        self._mod = load()
        self._answers = answers
        self._out = np.empty(max(1, n_ids), np.int32)
        self._pout = self._mod.ffi.from_buffer("int32_t[]", self._out)

    def __call__(self, x: NDArray[np.float64]) -> NDArray[np.int32]:
        ffi = self._mod.ffi
        ids = self._answers[x.tobytes()]
        k = self._mod.lib.bl_floor(ffi.from_buffer("double[]", x), x.shape[0],
                                   ffi.from_buffer("int32_t[]", ids), ids.shape[0],
                                   self._pout)
        return self._out[:k]
