"""cffi build script (API mode) for the containment kernel ``rulec.runtime._kernel``.

Listed in ``setup.py`` as ``cffi_modules=["csrc/build_kernel.py:ffi"]``, so installing
the project compiles it.  Paths are taken relative to this file (then expressed relative
to the working directory, as setuptools wants) so the build works from any cwd, from an
sdist and from a wheel build.  Run directly (``python csrc/build_kernel.py``) to compile
the module into the current directory for a quick look.
"""

from __future__ import annotations

import os
import runpy
import shlex
from pathlib import Path

from cffi import FFI

_HERE = Path(__file__).resolve().parent


def _rel(path: Path) -> str:
    """Path relative to the cwd when possible: setuptools dislikes absolute sources."""
    try:
        return os.path.relpath(path, os.getcwd())
    except ValueError:  # another drive on Windows
        return str(path)


def _decoder_cdef() -> str:
    """The wire decoder's declarations, shared with build_proto.py (read, not imported:
    setuptools runs each build script on its own)."""
    return str(runpy.run_path(str(_HERE / "build_proto.py"))["DECODER_CDEF"])


ffi = FFI()

# Mirrors kernel.h.  `...` lets the C compiler fill in the constants and rk_index's layout;
# rk_entry and rk_con are spelled out in full because numpy builds arrays of them (with
# offsets taken from ffi.offsetof), and cffi checks that layout against kernel.h.
ffi.cdef(
    """
    #define RK_OK ...
    #define RK_E_ARG ...
    #define RK_E_SHAPE ...
    #define RK_E_INDEX ...
    #define RK_KIND_GT ...
    #define RK_KIND_LT ...
    #define RK_KIND_PRESENT ...
    #define RK_KIND_GRID ...
    #define RK_RADIX_MAX ...
    #define RK_ORDER_BITS ...
    #define RK_ORDER_WORDS_PER_ID ...
    #define RK_MORE_SHIFT ...
    #define RK_HAS_MORE ...
    #define RK_AXIS_MASK ...

    typedef struct {
        double lo, hi;
        double lo2, hi2;
        int32_t axis2;
        int32_t id;
    } rk_entry;

    typedef struct {
        double lo, hi;
        int32_t axis;
        int32_t pad;
    } rk_con;

    typedef struct {
        int32_t n_params;
        int32_t n_ids;
        int32_t n_entries;
        const rk_entry *entry;
        const int32_t *more_start;
        int32_t n_more;
        const rk_con *more;
        int32_t n_buckets;
        const int32_t *bucket_axis;
        const int32_t *bucket_kind;
        const int32_t *bucket_begin;
        const int32_t *bucket_end;
        const double *bucket_key;
        const int32_t *bucket_cell;
        const int32_t *bucket_n_cell;
        const double *bucket_base;
        const double *bucket_scale;
        int32_t n_cells;
        const int32_t *cell_first;
        int32_t n_always;
        const int32_t *always;
        ...;
    } rk_index;

    int rk_validate(const rk_index *idx);
    int rk_cells(double base, double scale, int32_t n_cell, const double *values, int64_t n,
                 int32_t *out);
    int32_t rk_match(const rk_index *idx, const double *point, int32_t n_point,
                     int32_t *out, int32_t cap);
    int64_t rk_match_many(const rk_index *idx, const double *points, int64_t n_points,
                          int32_t n_point, int32_t *out, int64_t cap, int64_t *offsets);
    """
)

# The logic path (logic.h: facts and unit propagation for runtime/logic/propagation.py)
# shares the module; lg_db and lg_work, filled field by field from Python, end in `...;`.
ffi.cdef(
    """
    #define LG_OK ...
    #define LG_CONFLICT ...
    #define LG_CONE ...
    #define LG_E_ARG ...
    #define LG_E_SHAPE ...
    #define LG_E_INDEX ...
    #define LG_REASON_NONE ...
    #define LG_REASON_FACT ...

    typedef struct {
        int32_t n_vars;
        int32_t n_clauses;
        int32_t n_params;
        const int32_t *start;
        const int32_t *lits;
        const int32_t *occ_start;
        const int32_t *occ;
        const int32_t *occ_mid;
        int32_t n_units;
        const int32_t *units;
        int32_t n_nonhorn;
        const int32_t *nonhorn;
        int32_t n_cond;
        const int32_t *cond_var;
        const int32_t *cond_axis;
        const int32_t *cond_row;
        const double *row_lo;
        const double *row_hi;
        const uint8_t *cond_watch;
        const uint8_t *report;
        ...;
    } lg_db;

    typedef struct {
        int8_t *value;
        int32_t *reason;
        int32_t *trail;
        int32_t n_trail;
        int32_t *nfalse;
        int32_t *touched;
        int32_t n_touched;
        uint8_t *cmark;
        int32_t *cone;
        int32_t n_cone;
        uint8_t *vmark;
        int32_t *cone_vars;
        int32_t n_cone_vars;
        int32_t conflict;
        int32_t *reported;
        int32_t n_reported;
        ...;
    } lg_work;

    int lg_validate(const lg_db *db);
    void lg_reset(const lg_db *db, lg_work *w);
    int lg_evaluate(const lg_db *db, lg_work *w, const double *x, int32_t n_x,
                    const uint8_t *skip);
    """
)

# The daemon's fast lane (lane.h) shares it too: it calls the kernel and the wire codec
# (rulec_proto.c, compiled here as well) without crossing back into Python.
ffi.cdef(
    """
    #define RL_DONE ...
    #define RL_SLOW ...
    #define RL_E_ARG ...
    #define RL_RULE_ON_DELAY ...
    #define RL_RULE_INCLUSIVE ...
    #define RL_RULE_OFF_DELAY ...
    #define RL_RULE_LATCH ...
    #define RL_RULE_PYTHON ...
    #define RL_RAISED ...
    #define RL_ACKED ...
    #define RL_TIMING ...
    #define RL_WAITING ...
    #define RL_FAULT_NAN ...
    #define RL_FAULT_INFINITE ...
    #define RL_FAULT_BELOW ...
    #define RL_FAULT_ABOVE ...
    #define RL_FAULT_STALE ...
    #define RL_FAULT_NOT_STATE ...
    #define RL_FAULT_LINK ...
    #define RL_EVENT_RAISE ...
    #define RL_EVENT_CLEAR ...
    #define RL_EVENT_TIMER_START ...
    #define RL_EVENT_TIMER_STOP ...
    #define RL_EVENT_WAIT ...
    #define RL_EVENT_HOLD ...
    #define RULEC_MAX_PAYLOAD ...
    #define RULEC_MAX_CHANNELS ...
    #define RULEC_MAX_WIRE_FRAME ...
    #define RULEC_ADVISORY_FIXED ...
    #define RULEC_VALUE_PAIR ...
    #define RULEC_SEVERITY_WARNING ...
    #define RULEC_SEVERITY_CAUTION ...
    #define RULEC_SEVERITY_ADVISORY ...

    """
    + _decoder_cdef()
    + """

    typedef struct {
        const rk_index *strict;
        const rk_index *hold;
        int32_t n_params;
        int32_t n_boxes;
        int32_t n_rules;
        const int32_t *box_rule;
        const uint8_t *flags;
        const double *duration;
        const double *clear_delay;
        const uint8_t *severity;
        const uint8_t *ids;
        const int32_t *id_start;
        const int32_t *axis_start;
        const int32_t *axes;
        const int32_t *param_channel;
        int32_t n_channels;
        const int32_t *channel_param;
        const double *valid_lo;
        const double *valid_hi;
        const double *max_age;
        const uint8_t *discrete;
        ...;
    } rl_rules;

    typedef struct {
        int32_t kind;
        int32_t rule;
        int32_t box;
        int32_t pad;
        double t;
    } rl_event;

    typedef struct {
        const rl_rules *rules;
        rulec_decoder decoder;
        double *last_value;
        double *last_time;
        uint8_t *rule_state;
        double *since_t;
        double *false_t;
        int32_t *tracked;
        int32_t n_tracked;
        uint8_t *fault;
        int32_t has_last_t;
        double last_t;
        double t_offset;
        double max_jump;
        uint32_t tx_seq;
        int32_t has_last;
        uint32_t duplicates, missing, restarts;
        double *x;
        uint8_t *fresh;
        uint8_t *code;
        int32_t *match;
        int32_t *hold_match;
        uint8_t *mark;
        int32_t *first_box;
        int32_t *cand;
        uint8_t *out;
        int32_t out_cap;
        int32_t out_len;
        int32_t *reply_start;
        rl_event *events;
        int32_t events_cap;
        int32_t n_events;
        double *event_x;
        int32_t n_fast;
        int32_t written;
        uint8_t slow_type;
        uint32_t slow_seq;
        uint64_t slow_ts;
        uint16_t slow_len;
        uint8_t slow_payload[...];
        ...;
    } rl_lane;

    int32_t rl_validate(const rl_rules *rules);
    int32_t rl_run(rl_lane *lane, const uint8_t *data, int32_t len, int32_t fast,
                   int32_t *consumed);
    int32_t rl_write(rl_lane *lane, int32_t fd);

    #define RL_SERVE_IDLE ...
    #define RL_SERVE_RAN ...
    #define RL_SERVE_READ ...
    #define RL_SERVE_LINK ...
    typedef struct {
        int32_t n_read;
        int32_t consumed;
        int32_t run_status;
        int32_t err;
        double t_read;
        double t_ran;
        double t_done;
    } rl_served;
    int32_t rl_serve(rl_lane *lane, int32_t fd, int32_t watch_fd, int32_t timeout_ms,
                     double spin_s, int32_t max_frames, int32_t min_wire, uint8_t *buf,
                     int32_t cap, rl_served *out);
    """
)

ffi.set_source(
    "rulec.runtime._kernel",
    '#include "kernel.h"\n#include "logic.h"\n#include "lane.h"',
    sources=[_rel(_HERE / name) for name in ("kernel.c", "logic.c", "lane.c", "lane_io.c",
                                              "rulec_proto.c")],
    include_dirs=[_rel(_HERE)],
    depends=[_rel(_HERE / name) for name in ("kernel.h", "logic.h", "lane.h", "rulec_proto.h")],
    libraries=["m"] if os.name != "nt" else [],
    # No -ffast-math: NaN must keep failing every comparison.  RULEC_CFLAGS/RULEC_LDFLAGS
    # add flags last (so they win), for the sanitizer and coverage builds of csrc/.
    extra_compile_args=(["-O2", "-std=c99"] if os.name != "nt" else ["/O2"])
    + shlex.split(os.environ.get("RULEC_CFLAGS", "")),
    extra_link_args=shlex.split(os.environ.get("RULEC_LDFLAGS", "")),
)

if __name__ == "__main__":
    ffi.compile(verbose=True)
