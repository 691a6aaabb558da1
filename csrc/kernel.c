/*
 * Containment kernel (C99).  See kernel.h for the data layout and the idea.
 *
 * Exactness: a box is reported only after all its constraints were checked with plain
 * double comparisons; a box is never missed because every indexed box sits in exactly
 * one bucket, and a bucket's search skips only entries whose anchor provably fails
 * (sorted keys, the bucket's first key, or the monotone cell function shared with the
 * builder).  Each box is found at most once per query, so ids come out unique.
 *
 * Speed: at 100k boxes the cost is cache misses, branch mispredictions and plain
 * instruction count.  Hence inclusive bounds (two comparisons per test), the filter
 * constraint stored next to the anchor (most candidates fail there, in the cache line
 * already loaded), tests and output without data-dependent branches, batched
 * prefetches of the scan starts, and an output ordered without comparison sorting
 * (a bitmap over the ids for large or dense outputs, a bucket sort otherwise).
 */
#include "kernel.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define RK_BATCH 64 /* buckets whose scan starts are fetched together */

#if defined(__GNUC__) || defined(__clang__)
#define RK_PREFETCH(p) __builtin_prefetch(p)
#define RK_CTZ(w) __builtin_ctz(w)
#else
#define RK_PREFETCH(p) ((void)0)
#define RK_CTZ(w) portable_ctz(w)
#endif

/* ---- exact tests ---------------------------------------------------------------------- */

/* lo <= v <= hi (bounds made inclusive by the builder), without branches; NaN fails. */
static int holds(double v, double lo, double hi)
{
    return (v >= lo) & (v <= hi);
}

/* The further constraints of entry i (beyond anchor and filter) hold at point. */
static int more_hold(const rk_index *idx, int32_t i, const double *point)
{
    const rk_con *c = idx->more + idx->more_start[i];
    const rk_con *end = idx->more + idx->more_start[i + 1];
    for (; c < end; ++c) {
        if (!holds(point[c->axis], c->lo, c->hi)) {
            return 0;
        }
    }
    return 1;
}

/* The one cell function, used by rk_cells (build) and by the query alike. */
static int32_t cell_of(double v, double base, double scale, int32_t n_cell)
{
    double t = (v - base) * scale;
    if (!(t >= 0.0)) {
        return 0; /* below the grid (or NaN from inf * 0 on a one-cell grid) */
    }
    if (t >= (double)n_cell) {
        return n_cell - 1;
    }
    return (int32_t)t;
}

/* ---- sorting the output (no allocation) ---------------------------------------------- */

static void swap_ids(int32_t *a, int32_t *b)
{
    int32_t t = *a;
    *a = *b;
    *b = t;
}

static void insertion_sort(int32_t *a, int64_t n)
{
    int64_t i, j;
    for (i = 1; i < n; ++i) {
        int32_t v = a[i];
        for (j = i; j > 0 && a[j - 1] > v; --j) {
            a[j] = a[j - 1];
        }
        a[j] = v;
    }
}

static void sift_down(int32_t *a, int64_t root, int64_t n)
{
    for (;;) {
        int64_t child = 2 * root + 1;
        if (child >= n) {
            return;
        }
        if (child + 1 < n && a[child + 1] > a[child]) {
            ++child;
        }
        if (a[root] >= a[child]) {
            return;
        }
        swap_ids(&a[root], &a[child]);
        root = child;
    }
}

static void heap_sort(int32_t *a, int64_t n)
{
    int64_t i;
    for (i = n / 2 - 1; i >= 0; --i) {
        sift_down(a, i, n);
    }
    for (i = n - 1; i > 0; --i) {
        swap_ids(&a[0], &a[i]);
        sift_down(a, 0, i);
    }
}

/* Quicksort falling back to heapsort past 2 log2(n) levels: O(n log n) always. */
static void intro_sort(int32_t *a, int64_t n, int depth)
{
    while (n > 24) {
        int64_t i = -1, j = n, mid = n / 2;
        int32_t pivot;
        if (depth-- == 0) {
            heap_sort(a, n);
            return;
        }
        /* Order a[0] <= a[mid] <= a[n-1]: sentinels keep both scans in bounds. */
        if (a[mid] < a[0]) swap_ids(&a[mid], &a[0]);
        if (a[n - 1] < a[0]) swap_ids(&a[n - 1], &a[0]);
        if (a[n - 1] < a[mid]) swap_ids(&a[n - 1], &a[mid]);
        pivot = a[mid];
        for (;;) { /* Hoare partition: [0, j] <= pivot <= [j + 1, n) */
            do ++i; while (a[i] < pivot);
            do --j; while (a[j] > pivot);
            if (i >= j) break;
            swap_ids(&a[i], &a[j]);
        }
        if (j + 1 < n - j - 1) { /* recurse into the smaller side: depth stays O(log n) */
            intro_sort(a, j + 1, depth);
            a += j + 1;
            n -= j + 1;
        } else {
            intro_sort(a + j + 1, n - j - 1, depth);
            n = j + 1;
        }
    }
    insertion_sort(a, n);
}

/* LSD radix sort of ids in [0, n_ids), n <= RK_RADIX_MAX: no data-dependent branches. */
static void radix_sort(int32_t *a, int64_t n, int32_t n_ids)
{
    int32_t tmp[RK_RADIX_MAX], count[2048];
    int32_t *src = a, *dst = tmp, *t;
    int bits = 1, passes, digit, p;
    int64_t i;
    while (bits < 31 && ((int64_t)1 << bits) < n_ids) {
        ++bits;
    }
    passes = (bits + 10) / 11;
    digit = (bits + passes - 1) / passes;
    for (p = 0; p < passes; ++p) {
        int shift = p * digit;
        int32_t mask = (1 << digit) - 1, sum = 0;
        memset(count, 0, sizeof(int32_t) * ((size_t)1 << digit));
        for (i = 0; i < n; ++i) {
            ++count[(src[i] >> shift) & mask];
        }
        for (i = 0; i <= mask; ++i) {
            int32_t c = count[i];
            count[i] = sum;
            sum += c;
        }
        for (i = 0; i < n; ++i) {
            dst[count[(src[i] >> shift) & mask]++] = src[i];
        }
        t = src;
        src = dst;
        dst = t;
    }
    if (src != a) {
        memcpy(a, src, sizeof(int32_t) * (size_t)n);
    }
}

/*
 * One counting pass on the top bits, then insertion sort, which has little left to
 * do: an id moves past at most the others of its bucket (at most 32).  Returns 0,
 * a untouched, when the ids cluster more than that.
 */
static int bucket_sort(int32_t *a, int64_t n, int32_t n_ids)
{
    int32_t tmp[RK_RADIX_MAX], count[2048];
    int bits = 1, digit = 1, shift;
    int32_t sum = 0, most = 0;
    int64_t i, j;
    while (bits < 31 && ((int64_t)1 << bits) < n_ids) {
        ++bits;
    }
    while (digit < 11 && digit < bits && ((int64_t)2 << digit) < n) {
        ++digit; /* about two ids per bucket */
    }
    shift = bits - digit;
    memset(count, 0, sizeof(int32_t) * ((size_t)1 << digit));
    for (i = 0; i < n; ++i) {
        int32_t c = ++count[a[i] >> shift];
        most = c > most ? c : most;
    }
    if (most > 32) {
        return 0; /* clustered ids: insertion sort would get slow */
    }
    for (i = 0; i < ((int64_t)1 << digit); ++i) {
        int32_t c = count[i];
        count[i] = sum;
        sum += c;
    }
    for (i = 0; i < n; ++i) {
        tmp[count[a[i] >> shift]++] = a[i];
    }
    for (i = 0; i < n; ++i) { /* insertion sort from tmp back into a: short moves */
        int32_t v = tmp[i];
        for (j = i; j > 0 && a[j - 1] > v; --j) {
            a[j] = a[j - 1];
        }
        a[j] = v;
    }
    return 1;
}

#if !(defined(__GNUC__) || defined(__clang__))
static int portable_ctz(uint32_t w)
{
    int k = 0;
    while (!(w & 1u)) {
        w >>= 1;
        ++k;
    }
    return k;
}
#endif

/*
 * Order a large output through a bitmap over the ids, kept in the caller's buffer just
 * past the ids (room: the int32 slots there): set one bit per id, then walk the words
 * and write the ids back in order.  O(n + n_ids / 32), no comparisons between ids.
 * Returns 0, a untouched, when the room is short or an id repeats (rk_validate does
 * not promise unique ids, and a bitmap would fold repeats into one).
 */
static int bitmap_sort(int32_t *a, int64_t n, int32_t n_ids, int64_t room)
{
    int64_t words = ((int64_t)n_ids + RK_ORDER_BITS - 1) / RK_ORDER_BITS;
    uint32_t *bits = (uint32_t *)(a + n), seen = 0;
    int64_t i, w, k = 0;
    if (room < words) {
        return 0;
    }
    memset(bits, 0, sizeof(uint32_t) * (size_t)words);
    for (i = 0; i < n; ++i) {
        uint32_t id = (uint32_t)a[i];
        uint32_t *word = &bits[id / RK_ORDER_BITS];
        uint32_t bit = 1u << (id % RK_ORDER_BITS);
        seen |= *word & bit;
        *word |= bit;
    }
    if (seen) {
        return 0;
    }
    for (w = 0; w < words; ++w) { /* a[k] with k < n: never into the bitmap */
        uint32_t b = bits[w];
        while (b) {
            a[k++] = (int32_t)(w * RK_ORDER_BITS + RK_CTZ(b));
            b &= b - 1;
        }
    }
    return 1;
}

static void sort_ids(int32_t *a, int64_t n, int32_t n_ids, int64_t room)
{
    int64_t words = ((int64_t)n_ids + RK_ORDER_BITS - 1) / RK_ORDER_BITS;
    if (n < 2) {
        return; /* in order already; a may be NULL when n is 0 */
    }
    if ((n > RK_RADIX_MAX || words <= RK_ORDER_WORDS_PER_ID * n) &&
        bitmap_sort(a, n, n_ids, room)) {
        return;
    }
    if (n > 32 && n <= RK_RADIX_MAX && bucket_sort(a, n, n_ids)) {
        return;
    }
    if (n > 64 && n <= RK_RADIX_MAX) {
        radix_sort(a, n, n_ids);
    } else {
        int depth = 0;
        int64_t m;
        for (m = n; m > 1; m >>= 1) {
            depth += 2;
        }
        intro_sort(a, n, depth);
    }
}

/* ---- the query ---------------------------------------------------------------------- */

/*
 * Scan entries from first[j] while KEY_OK (the bucket's sort-key test) holds; test
 * the anchor's other bound (ANCHOR_OK) and the filter without branching, and write the
 * id unconditionally to DST, advancing the count only on a match.
 * Only the loop exit and the rare "passed both, has more" case branch.
 */
#define RK_SCAN_LOOP(KEY_OK, ANCHOR_OK, DST)                                  \
    for (i = first[j]; i < e && (KEY_OK); ++i) {                              \
        const rk_entry *en = &ent[i];                                         \
        double v = point[en->axis2 & RK_AXIS_MASK];                           \
        int ok = (ANCHOR_OK) & holds(v, en->lo2, en->hi2);                    \
        int32_t *dst = (DST);                                                 \
        if (ok & (en->axis2 >> RK_MORE_SHIFT)) {                              \
            ok = more_hold(idx, i, point);                                    \
        }                                                                     \
        *dst = en->id;                                                        \
        n += ok;                                                              \
    }

/* The usual case first: every entry of the scan would fit in out. */
#define RK_SCAN(KEY_OK, ANCHOR_OK)                                            \
    if (cap - n >= (int64_t)(e - first[j])) {                                 \
        RK_SCAN_LOOP(KEY_OK, ANCHOR_OK, out + n)                              \
    } else {                                                                  \
        RK_SCAN_LOOP(KEY_OK, ANCHOR_OK, n < cap ? out + n : &trash)           \
    }

/*
 * Buckets are searched in batches, in passes: find where each scan starts, touch that
 * memory, then scan.  At 100k boxes the index outgrows the caches, so the first entry
 * of each scan is a cache miss; asking for a batch of them before waiting on any lets
 * the misses overlap instead of queueing one after another.
 */
/* Writes up to cap ids and returns how many boxes contain point (sorted if all fit). */
static int64_t collect(const rk_index *idx, const double *point, int32_t *out, int64_t cap)
{
    int32_t first[RK_BATCH], last[RK_BATCH], slot[RK_BATCH];
    int32_t k0, k, j, i, nb, trash;
    int64_t n = 0;
    const rk_entry *ent = idx->entry;

    for (i = 0; i < idx->n_always; ++i) {
        if (n < cap) {
            out[n] = idx->always[i];
        }
        ++n;
    }
    for (k0 = 0; k0 < idx->n_buckets; k0 += RK_BATCH) {
        nb = idx->n_buckets - k0 < RK_BATCH ? idx->n_buckets - k0 : RK_BATCH;
        for (j = 0; j < nb; ++j) { /* pass 1: empty scans, grid cells */
            double x = point[idx->bucket_axis[k0 + j]];
            int32_t kind;
            k = k0 + j;
            kind = idx->bucket_kind[k];
            first[j] = idx->bucket_begin[k];
            last[j] = idx->bucket_end[k];
            slot[j] = -1;
            if (isnan(x) ||
                ((kind == RK_KIND_GT || kind == RK_KIND_GRID) && x < idx->bucket_key[k]) ||
                (kind == RK_KIND_LT && x > idx->bucket_key[k])) {
                /* NaN: every box anchored on this axis needs a value; else no key passes */
                last[j] = first[j];
            } else if (kind == RK_KIND_GRID) {
                if (!isfinite(x)) {
                    last[j] = first[j]; /* a finite interval never holds an infinity */
                } else {
                    slot[j] = idx->bucket_cell[k] + cell_of(x, idx->bucket_base[k],
                                                            idx->bucket_scale[k],
                                                            idx->bucket_n_cell[k]);
                    RK_PREFETCH(&idx->cell_first[slot[j]]);
                }
            }
        }
        for (j = 0; j < nb; ++j) { /* pass 2: scan starts */
            if (slot[j] >= 0) {
                first[j] = idx->cell_first[slot[j]];
            }
            if (first[j] < last[j]) {
                RK_PREFETCH(&ent[first[j]]);
            }
        }
        for (j = 0; j < nb; ++j) { /* pass 3: scan */
            double x = point[idx->bucket_axis[k0 + j]];
            int32_t e = last[j];
            switch (idx->bucket_kind[k0 + j]) {
            case RK_KIND_LT:
                RK_SCAN(ent[i].hi >= x, x >= en->lo)
                break;
            case RK_KIND_PRESENT:
                RK_SCAN(1, holds(x, en->lo, en->hi))
                break;
            default: /* GT and GRID: sorted by lo */
                RK_SCAN(ent[i].lo <= x, x <= en->hi)
                break;
            }
        }
    }
    if (n <= cap) {
        sort_ids(out, n, idx->n_ids, cap - n);
    }
    return n;
}

/* ---- entry points ---------------------------------------------------------------------- */

int32_t rk_match(const rk_index *idx, const double *point, int32_t n_point, int32_t *out,
                 int32_t cap)
{
    int64_t n;
    if (idx == NULL || cap < 0 || (cap > 0 && out == NULL)) {
        return RK_E_ARG;
    }
    if (n_point != idx->n_params) {
        return RK_E_SHAPE;
    }
    if (point == NULL && n_point > 0) {
        return RK_E_ARG;
    }
    /* Each indexed box is found at most once, so the count is at most n_ids. */
    n = collect(idx, point, out, cap);
    return n > INT32_MAX ? RK_E_INDEX : (int32_t)n;
}

int64_t rk_match_many(const rk_index *idx, const double *points, int64_t n_points,
                      int32_t n_point, int32_t *out, int64_t cap, int64_t *offsets)
{
    int64_t p, n = 0;
    if (idx == NULL || offsets == NULL || n_points < 0 || cap < 0 ||
        (cap > 0 && out == NULL)) {
        return RK_E_ARG;
    }
    offsets[0] = 0;
    if (n_point != idx->n_params) {
        return RK_E_SHAPE;
    }
    if (points == NULL && n_points > 0 && n_point > 0) {
        return RK_E_ARG;
    }
    for (p = 0; p < n_points; ++p) {
        const double *point = points != NULL ? points + p * n_point : NULL;
        int32_t *dst = n < cap ? out + n : NULL; /* NULL only when nothing may be written */
        n += collect(idx, point, dst, n < cap ? cap - n : 0);
        offsets[p + 1] = n;
    }
    return n;
}

int rk_cells(double base, double scale, int32_t n_cell, const double *values, int64_t n,
             int32_t *out)
{
    int64_t i;
    if (n_cell < 1 || n < 0 || (n > 0 && (values == NULL || out == NULL))) {
        return RK_E_ARG;
    }
    for (i = 0; i < n; ++i) {
        out[i] = cell_of(values[i], base, scale, n_cell);
    }
    return RK_OK;
}

/* ---- validation ------------------------------------------------------------------------ */

static int ids_ok(const int32_t *ids, int32_t n, int32_t limit)
{
    int32_t i;
    for (i = 0; i < n; ++i) {
        if (ids[i] < 0 || ids[i] >= limit) {
            return 0;
        }
    }
    return 1;
}

static int bucket_ok(const rk_index *idx, int32_t k)
{
    int32_t i, b = idx->bucket_begin[k], e = idx->bucket_end[k];
    int32_t kind = idx->bucket_kind[k];
    const rk_entry *ent = idx->entry;
    if (b < 0 || b > e || e > idx->n_entries || kind < RK_KIND_GT || kind > RK_KIND_GRID ||
        idx->bucket_axis[k] < 0 || idx->bucket_axis[k] >= idx->n_params) {
        return 0;
    }
    if (b < e && kind != RK_KIND_PRESENT && /* the skip test must not skip a hit */
        !(idx->bucket_key[k] == (kind == RK_KIND_LT ? ent[b].hi : ent[b].lo))) {
        return 0;
    }
    for (i = b + 1; i < e; ++i) { /* sorted as the scan expects (NaN fails) */
        if ((kind == RK_KIND_GT || kind == RK_KIND_GRID) && !(ent[i - 1].lo <= ent[i].lo))
            return 0;
        if (kind == RK_KIND_LT && !(ent[i - 1].hi >= ent[i].hi))
            return 0;
    }
    if (kind == RK_KIND_GRID) {
        int32_t c0 = idx->bucket_cell[k], nc = idx->bucket_n_cell[k];
        if (nc < 1 || c0 < 0 || c0 > idx->n_cells - nc || !isfinite(idx->bucket_base[k]) ||
            !isfinite(idx->bucket_scale[k]) || !(idx->bucket_scale[k] >= 0.0)) {
            return 0;
        }
        for (i = c0; i < c0 + nc; ++i) {
            if (idx->cell_first[i] < b || idx->cell_first[i] > e) {
                return 0;
            }
        }
    }
    return 1;
}

int rk_validate(const rk_index *idx)
{
    int32_t i, k;
    if (idx == NULL || idx->more_start == NULL) {
        return RK_E_ARG;
    }
    if (idx->n_params < 0 || idx->n_params > RK_AXIS_MASK || idx->n_ids < 0 ||
        idx->n_entries < 0 || idx->n_more < 0 || idx->n_buckets < 0 || idx->n_cells < 0 ||
        idx->n_always < 0) {
        return RK_E_ARG;
    }
    if ((idx->n_entries > 0 && idx->entry == NULL) || (idx->n_more > 0 && idx->more == NULL) ||
        (idx->n_buckets > 0 &&
         (idx->bucket_axis == NULL || idx->bucket_kind == NULL || idx->bucket_begin == NULL ||
          idx->bucket_end == NULL || idx->bucket_key == NULL || idx->bucket_cell == NULL ||
          idx->bucket_n_cell == NULL ||
          idx->bucket_base == NULL || idx->bucket_scale == NULL)) ||
        (idx->n_cells > 0 && idx->cell_first == NULL) ||
        (idx->n_always > 0 && idx->always == NULL)) {
        return RK_E_ARG;
    }
    if (!ids_ok(idx->always, idx->n_always, idx->n_ids) || idx->more_start[0] != 0 ||
        idx->more_start[idx->n_entries] != idx->n_more) {
        return RK_E_INDEX;
    }
    for (i = 0; i < idx->n_entries; ++i) {
        const rk_entry *e = &idx->entry[i];
        if (e->id < 0 || e->id >= idx->n_ids || e->axis2 < 0 ||
            (e->axis2 & ~(RK_AXIS_MASK | RK_HAS_MORE)) != 0 ||
            (e->axis2 & RK_AXIS_MASK) >= idx->n_params ||
            idx->more_start[i] > idx->more_start[i + 1]) {
            return RK_E_INDEX;
        }
    }
    for (i = 0; i < idx->n_more; ++i) {
        if (idx->more[i].axis < 0 || idx->more[i].axis >= idx->n_params) {
            return RK_E_INDEX;
        }
    }
    for (k = 0; k < idx->n_buckets; ++k) {
        if (!bucket_ok(idx, k)) {
            return RK_E_INDEX;
        }
    }
    return RK_OK;
}
