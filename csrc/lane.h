/*
 * The daemon's fast lane: bytes read from the link in, ADVISORY frames out, in one call.
 *
 * rulec-onboard spends most of a frame's time being Python, not evaluating: a process
 * woken for one frame runs decode, evaluation and encoding from cold caches.  The lane
 * does the common case of a frame in C: decode (rulec_proto.c), duplicate and sequence
 * checks, validity of every parameter, containment (kernel.c), the raise / clear
 * decisions and the ADVISORY frames.  Anything else it hands back untouched, one frame
 * at a time, for the Python stream (runtime/engine/stream.py) to take, which stays the
 * definition of the semantics; runtime/daemon/lane.py says which cases those are, and
 * tests/test_lane.py holds the two to the same events and bytes.
 *
 * A frame is taken here when it is TELEMETRY whose payload decodes, every channel
 * belongs to a parameter, its time does not go back, no parameter changes between valid
 * and invalid (or from one reason to another: those are fault events, written in
 * Python), no parameter it carries was marked stale by a link loss, and its events and
 * replies fit the output space.  Timers (on-delay, off-delay) and latches run here, as
 * in the stream; their changes that write nothing come back as silent events for the
 * Python stream's dictionaries.  Nothing is changed for a frame that is not taken.
 *
 * No allocation: every array belongs to the caller (runtime/daemon/lane.py).
 */
#ifndef RULEC_LANE_H
#define RULEC_LANE_H

#include <stdint.h>

#include "kernel.h"
#include "rulec_proto.h"

/* rl_run status */
#define RL_DONE 0  /* every byte taken */
#define RL_SLOW 1  /* stopped after a frame for the caller: in lane->slow_* */
#define RL_E_ARG (-1)

/* rl_rules.flags */
#define RL_RULE_ON_DELAY 1  /* duration: raises once its condition held that long */
#define RL_RULE_INCLUSIVE 2 /* ... or exactly that long */
#define RL_RULE_OFF_DELAY 4 /* clear_delay > 0: clears once false that long */
#define RL_RULE_LATCH 8     /* clears only once acknowledged */
#define RL_RULE_PYTHON 16   /* its ADVISORY does not fit a frame: the caller reports it */

/* rl_lane.rule_state bits (the stream's raised, acked, since and false_since) */
#define RL_RAISED 1
#define RL_ACKED 2
#define RL_TIMING 4  /* not raised, on-delay running since since_t */
#define RL_WAITING 8 /* raised, condition false since false_t */

/* rl_lane.fault: per parameter, 0 valid (or never seen), else the stream's reason */
#define RL_FAULT_NAN 1
#define RL_FAULT_INFINITE 2
#define RL_FAULT_BELOW 3
#define RL_FAULT_ABOVE 4
#define RL_FAULT_STALE 5
#define RL_FAULT_NOT_STATE 7 /* a discrete parameter's value that is no whole state index */
#define RL_FAULT_LINK 0x80 /* flag: marked stale by a link loss, a sample goes to Python */

/* rl_event.kind: raises and clears write a frame and a log line; the others only
 * change the stream's timers */
#define RL_EVENT_RAISE 1
#define RL_EVENT_CLEAR 2
#define RL_EVENT_TIMER_START 3 /* since[rule] = t */
#define RL_EVENT_TIMER_STOP 4  /* del since[rule] */
#define RL_EVENT_WAIT 5        /* false_since[rule] = t */
#define RL_EVENT_HOLD 6        /* del false_since[rule] */

/* What one bundle needs: its index and rules (built once per engine). */
typedef struct {
    const rk_index *strict; /* the engine's containment index */
    const rk_index *hold;   /* boxes widened by the deadbands, or NULL */
    int32_t n_params;
    int32_t n_boxes;
    int32_t n_rules;
    const int32_t *box_rule;      /* [n_boxes] */
    const uint8_t *flags;         /* [n_rules] RL_RULE_* */
    const double *duration;       /* [n_rules] seconds (RL_RULE_ON_DELAY) */
    const double *clear_delay;    /* [n_rules] seconds (RL_RULE_OFF_DELAY) */
    const uint8_t *severity;      /* [n_rules] RULEC_SEVERITY_* */
    const uint8_t *ids;           /* rule ids (UTF-8) one after the other */
    const int32_t *id_start;      /* [n_rules + 1] */
    const int32_t *axis_start;    /* [n_rules + 1] a rule's parameters, ascending, */
    const int32_t *axes;          /* are axes[axis_start[r] .. axis_start[r + 1]) */
    const int32_t *param_channel; /* [n_params] telemetry channel, or -1 */
    int32_t n_channels;
    const int32_t *channel_param; /* [n_channels] parameter, or -1 */
    const double *valid_lo;       /* [n_params] inclusive; +-inf clamped to +-DBL_MAX */
    const double *valid_hi;
    const double *max_age; /* [n_params] seconds, +inf when unbounded */
    const uint8_t *discrete; /* [n_params] 1: the value is a state's index, whole */
} rl_rules;

/* One raise or clear taken in C, for the caller's log and stream. */
typedef struct {
    int32_t kind; /* RL_EVENT_* */
    int32_t rule;
    int32_t box; /* a raise: the rule's first box containing the point, else -1 */
    int32_t pad; /* its ADVISORY frame (if any): out[reply_start[i] .. reply_start[i+1]) */
    double t;
} rl_event;

typedef struct {
    const rl_rules *rules;
    rulec_decoder decoder;
    /* the stream's state, shared with runtime/engine/stream.py */
    double *last_value; /* [n_params] */
    double *last_time;  /* [n_params] -inf: never seen */
    uint8_t *rule_state; /* [n_rules] RL_RAISED | RL_ACKED | RL_TIMING | RL_WAITING */
    double *since_t;     /* [n_rules] RL_TIMING: when its condition started holding */
    double *false_t;     /* [n_rules] RL_WAITING: when its condition stopped holding */
    int32_t *tracked;    /* [n_rules] the rules raised or timing, in any order */
    int32_t n_tracked;
    uint8_t *fault;      /* [n_params] RL_FAULT_* */
    int32_t has_last_t;
    double last_t;   /* engine time of the last sample */
    double t_offset; /* added to frame timestamps (seconds) */
    double max_jump; /* a frame later than last_t by more than this goes to Python (0: none) */
    uint32_t tx_seq; /* sequence number of the next frame written */
    /* the last frame taken and its sequence number (duplicates, gaps) */
    int32_t has_last;
    uint8_t last_type;
    uint32_t last_seq;
    uint64_t last_ts;
    uint16_t last_len;
    uint8_t last_payload[RULEC_MAX_PAYLOAD];
    uint32_t duplicates, missing, restarts;
    /* scratch: [n_params] x3, [n_boxes] x2, [n_rules] x3; fresh and mark are all zero
       between calls */
    double *x;
    uint8_t *fresh;
    uint8_t *code; /* the fault code each parameter would have */
    int32_t *match;
    int32_t *hold_match;
    uint8_t *mark;
    int32_t *first_box;
    int32_t *cand;
    /* output of one rl_run */
    uint8_t *out;
    int32_t out_cap;
    int32_t out_len;
    int32_t *reply_start; /* [events_cap + 1] */
    rl_event *events;
    int32_t events_cap;
    int32_t n_events;
    double *event_x; /* [events_cap * n_params] the point each event saw */
    int32_t n_fast;  /* frames taken in C */
    int32_t written; /* bytes of out that rl_write's write(2) took */
    /* the frame handed back with RL_SLOW */
    uint8_t slow_type;
    uint32_t slow_seq;
    uint64_t slow_ts;
    uint16_t slow_len;
    uint8_t slow_payload[RULEC_MAX_PAYLOAD];
} rl_lane;

/* Check a rules table against its indexes (every id and offset in bounds). */
int32_t rl_validate(const rl_rules *rules);

/*
 * Take bytes from the link.  Frames go through the decoder, then the duplicate and
 * sequence checks; with fast != 0 the frames this file can take are evaluated here,
 * the first other one is copied to slow_* and the call returns RL_SLOW with
 * *consumed bytes taken: call again with the rest once it is handled.  A fast frame
 * whose events would not fit the output space is handed back the same way.
 */
int32_t rl_run(rl_lane *lane, const uint8_t *data, int32_t len, int32_t fast,
               int32_t *consumed);

/*
 * The last rl_run's replies, out[0 .. out_len), to a descriptor with one write(2)
 * (POSIX; elsewhere nothing is written).  Returns the bytes taken, also kept in
 * lane->written: the caller writes the rest and handles errors, so a full buffer or a
 * dropped link never blocks or loses anything here.
 */
int32_t rl_write(rl_lane *lane, int32_t fd);

/* rl_serve status (lane_io.c) */
#define RL_SERVE_IDLE 0 /* nothing within the timeout, or a signal came: call again */
#define RL_SERVE_RAN 1  /* n_read bytes read and run: run_status, consumed as rl_run's */
#define RL_SERVE_READ 2 /* n_read bytes read, not run: more frames than max_frames */
#define RL_SERVE_LINK 3 /* nothing read: an error, a hang-up, the end of the stream or
                           the watched descriptor; the caller's link code reads it */

/* What one rl_serve did; times are CLOCK_MONOTONIC seconds (Python's perf_counter). */
typedef struct {
    int32_t n_read;
    int32_t consumed;
    int32_t run_status;
    int32_t err; /* errno of a failed poll or read, else 0 */
    double t_read; /* read(2) returned */
    double t_ran;  /* rl_run returned */
    double t_done; /* the replies went to rl_write (t_ran when there were none) */
} rl_served;

/*
 * Wait for fd to be readable (polling without sleep for spin_s seconds first, then
 * sleeping up to timeout_ms), read at most cap bytes into buf, run them through the
 * lane and, when every byte was taken (RL_DONE) and there are replies, rl_write them to
 * fd.  watch_fd (or -1) is a second descriptor whose readiness returns RL_SERVE_LINK
 * (a listener with a connection waiting).  With max_frames > 0, a read that may hold
 * more than max_frames frames (bytes / min_wire, with the decoder's partial frame) is
 * left unrun for the caller's overload bound.  POSIX; elsewhere RL_E_ARG.
 */
int32_t rl_serve(rl_lane *lane, int32_t fd, int32_t watch_fd, int32_t timeout_ms,
                 double spin_s, int32_t max_frames, int32_t min_wire, uint8_t *buf,
                 int32_t cap, rl_served *out);

#endif /* RULEC_LANE_H */
