/*
 * Containment kernel: which axis-aligned boxes contain a point.
 *
 * The index is built by numpy in runtime/engine/box_index.py and only read here; no
 * allocation happens in this file, every array belongs to Python.  Each box is
 * anchored on its most selective constraint and becomes one entry holding that
 * anchor, its second most selective constraint (the filter) and its id; a box's
 * further constraints, if any, sit in `more`.  Per axis, entries sit in buckets, each
 * a contiguous run of the entry array:
 *   GT      (hi = +inf)  sorted by lo ascending: scan while lo <= x
 *   LT      (lo = -inf)  sorted by hi descending: scan while hi >= x
 *   PRESENT (both inf)   every entry is a candidate when x is not NaN
 *   GRID    (finite, widths within a small factor)  sorted by lo; a uniform grid
 *           over the axis gives, for the cell holding x, the first entry whose hi
 *           can reach that cell: scan from there while lo <= x.
 * Every scanned entry is tested exactly on its anchor and filter, and the rare entry
 * passing both with further constraints is tested on those too.
 */
#ifndef RULEC_KERNEL_H
#define RULEC_KERNEL_H

#include <stdint.h>

/* Status codes: >= 0 is a count, negative a failure. */
#define RK_OK 0
#define RK_E_ARG (-2)   /* NULL pointer or negative size */
#define RK_E_SHAPE (-3) /* point length differs from n_params */
#define RK_E_INDEX (-4) /* index arrays inconsistent (rk_validate) */

/* Outputs up to this size are bucket/radix sorted with stack scratch; larger ones, and
   any output with at least one id per RK_ORDER_WORDS_PER_ID bitmap words, are ordered
   through a bitmap of RK_ORDER_BITS-bit words in the caller's buffer (see rk_match). */
#define RK_RADIX_MAX 2048
#define RK_ORDER_BITS 32
#define RK_ORDER_WORDS_PER_ID 4

/* Bucket kinds. */
#define RK_KIND_GT 0
#define RK_KIND_LT 1
#define RK_KIND_PRESENT 2
#define RK_KIND_GRID 3

/* rk_entry.axis2 holds the filter's axis, plus this bit when `more` has constraints. */
#define RK_MORE_SHIFT 30
#define RK_HAS_MORE (1 << RK_MORE_SHIFT)
#define RK_AXIS_MASK (RK_HAS_MORE - 1) /* so n_params <= RK_AXIS_MASK */

/*
 * Bounds in the index are inclusive: the builder turns a strict x > lo into
 * x >= nextafter(lo, +inf) (and x < hi into x <= nextafter(hi, -inf)), which is the
 * same test for every double x, as no double lies strictly between the two bounds.
 * (It drops the boxes where that would not hold: x > +inf, x < -inf, empty ranges.)
 * The test is then lo <= x && x <= hi, false for NaN.  This assumes the default
 * IEEE-754 environment, no flush-to-zero of subnormals, as Python and numpy do.
 */

/* One indexed box. */
typedef struct {
    double lo, hi;   /* anchor: lo <= x <= hi, x the point's value on the bucket's axis */
    double lo2, hi2; /* filter: lo2 <= point[axis2 & RK_AXIS_MASK] <= hi2; a box with a
                        single constraint gets (anchor axis, -inf, +inf), true there */
    int32_t axis2;
    int32_t id; /* the caller's box id */
} rk_entry;

/* A further constraint lo <= point[axis] <= hi. */
typedef struct {
    double lo, hi;
    int32_t axis;
    int32_t pad;
} rk_con;

typedef struct {
    int32_t n_params;
    int32_t n_ids;     /* boxes in the caller's numbering: every id reported is < n_ids */
    int32_t n_entries; /* indexed boxes, in bucket order */
    const rk_entry *entry;
    const int32_t *more_start; /* [n_entries + 1] entry i's further constraints are */
    int32_t n_more;            /* more[more_start[i] .. more_start[i + 1]) */
    const rk_con *more;

    int32_t n_buckets;
    const int32_t *bucket_axis;   /* [n_buckets] the axis whose anchors it holds */
    const int32_t *bucket_kind;   /* [n_buckets] */
    const int32_t *bucket_begin;  /* [n_buckets] entries [begin, end) */
    const int32_t *bucket_end;
    const double *bucket_key;     /* [n_buckets] the first entry's lo (GT, GRID) or hi
                                     (LT): a point beyond it skips the bucket unread;
                                     unused for PRESENT */
    const int32_t *bucket_cell;   /* [n_buckets] GRID: first cell in cell_first */
    const int32_t *bucket_n_cell; /* [n_buckets] GRID: number of cells */
    const double *bucket_base;    /* [n_buckets] GRID: cell of x from (x - base) * scale */
    const double *bucket_scale;

    int32_t n_cells;
    const int32_t *cell_first; /* [n_cells] entry where a GRID scan starts */

    int32_t n_always;
    const int32_t *always; /* [n_always] caller's ids of boxes without constraints */
} rk_index;

/* Check every offset and id so that queries never read out of bounds. */
int rk_validate(const rk_index *idx);

/*
 * Grid cell of each value: clamp(floor((v - base) * scale), 0, n_cell - 1).
 * The index builder uses this very function, so build and query agree bit for bit;
 * it is monotone in v, which is what makes the grid lookup exact.
 */
int rk_cells(double base, double scale, int32_t n_cell, const double *values, int64_t n,
             int32_t *out);

/*
 * Ids of the boxes containing point, ascending, each once.  Returns the count (or a
 * negative status); writes min(count, cap) ids, sorted only when count <= cap, so a
 * count above cap means: call again with a buffer of that size.
 * out[count, cap) is scratch.  When that scratch holds a bitmap over the ids
 * (cap - count >= ceil(n_ids / RK_ORDER_BITS) words), a count above RK_RADIX_MAX or
 * of at least one id per RK_ORDER_WORDS_PER_ID words is ordered through it in
 * O(count + n_ids / RK_ORDER_BITS); otherwise by a bucket or radix sort up to
 * RK_RADIX_MAX ids and an O(count log count) sort above: give outputs that room.
 */
int32_t rk_match(const rk_index *idx, const double *point, int32_t n_point, int32_t *out,
                 int32_t cap);

/*
 * Same for n_points row-major points; ids of point i are out[offsets[i]:offsets[i+1]].
 * Returns the total count (or a negative status); offsets always hold the full
 * counts, so a total above cap is the capacity needed.  The room past the last id
 * written so far is each point's scratch, as for rk_match.
 */
int64_t rk_match_many(const rk_index *idx, const double *points, int64_t n_points,
                      int32_t n_point, int32_t *out, int64_t cap, int64_t *offsets);

#endif /* RULEC_KERNEL_H */
