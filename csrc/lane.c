/*
 * The daemon's fast lane (lane.h): decode, check, evaluate and answer a frame in C.
 *
 * Each step mirrors runtime/engine/stream.py (EventStream._advance) and the daemon's frame
 * path (runtime/daemon/loop.py, Daemon._frame and Transmitter.send_advisory) for the
 * cases it takes, and hands every other frame back before changing anything.
 */
#define _POSIX_C_SOURCE 200809L /* write(2) */
#include "lane.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define RL_CAN_WRITE 1
#else
#define RL_CAN_WRITE 0
#endif

/* rl_lane.mark bits, per rule, during one frame */
#define M_STRICT 1 /* a box of the rule contains the point */
#define M_HOLD 2   /* a deadband-widened box contains it */
#define M_CAND 4   /* on the candidate list */

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static void sort_rules(int32_t *a, int32_t n)
{
    int32_t i, j, v;
    if (n > 16) {
        qsort(a, (size_t)n, sizeof *a, cmp_i32);
        return;
    }
    for (i = 1; i < n; i++) {
        v = a[i];
        for (j = i; j > 0 && a[j - 1] > v; j--)
            a[j] = a[j - 1];
        a[j] = v;
    }
}

static int cmp_value(const void *a, const void *b)
{
    uint16_t x = ((const rulec_value *)a)->channel, y = ((const rulec_value *)b)->channel;
    return (x > y) - (x < y);
}

/* The frame timestamp of an engine time: Python's frame_us (round half to even). */
static uint64_t frame_us(double t)
{
    double v = isfinite(t) ? nearbyint(t * 1e6) : 0.0; /* t is finite in the lane */
    if (!(v > 0.0))
        return 0;
    if (v >= 9223372036854775808.0)
        return (uint64_t)INT64_MAX;
    return (uint64_t)v;
}

static int32_t check_index(const rk_index *idx, const rl_rules *r)
{
    return idx == NULL || (idx->n_params == r->n_params && idx->n_ids <= r->n_boxes &&
                           rk_validate(idx) == RK_OK);
}

int32_t rl_validate(const rl_rules *r)
{
    int32_t i, k;
    if (r == NULL || r->strict == NULL || r->n_params < 0 || r->n_boxes < 0 ||
        r->n_rules < 0 || r->n_channels < 0 || !check_index(r->strict, r) ||
        !check_index(r->hold, r))
        return RL_E_ARG;
    for (i = 0; i < r->n_boxes; i++)
        if (r->box_rule[i] < 0 || r->box_rule[i] >= r->n_rules)
            return RL_E_ARG;
    if (r->id_start[0] != 0 || r->axis_start[0] != 0)
        return RL_E_ARG;
    for (i = 0; i < r->n_rules; i++) {
        if (r->id_start[i + 1] <= r->id_start[i] || r->axis_start[i + 1] < r->axis_start[i])
            return RL_E_ARG;
        if (r->severity[i] < RULEC_SEVERITY_WARNING || r->severity[i] > RULEC_SEVERITY_ADVISORY)
            return RL_E_ARG;
        for (k = r->axis_start[i]; k < r->axis_start[i + 1]; k++)
            if (r->axes[k] < 0 || r->axes[k] >= r->n_params)
                return RL_E_ARG;
    }
    if (r->discrete == NULL)
        return RL_E_ARG;
    for (i = 0; i < r->n_params; i++)
        if (r->param_channel[i] < -1 || r->param_channel[i] > 0xFFFF || r->discrete[i] > 1)
            return RL_E_ARG;
    for (i = 0; i < r->n_channels; i++)
        if (r->channel_param[i] < -1 || r->channel_param[i] >= r->n_params)
            return RL_E_ARG;
    return RL_DONE;
}

/* Duplicate of the last frame taken (same header fields and payload)? */
static int32_t repeats_last(const rl_lane *lane, const rulec_frame *f)
{
    return lane->has_last && f->msg_type == lane->last_type && f->seq == lane->last_seq &&
           f->timestamp_us == lane->last_ts && f->payload_len == lane->last_len &&
           memcmp(f->payload, lane->last_payload, f->payload_len) == 0;
}

/* Remember the frame; count the frames lost since the last one, or a sender restart. */
static void note_frame(rl_lane *lane, const rulec_frame *f)
{
    if (lane->has_last) {
        uint32_t gap = f->seq - lane->last_seq - 1u;
        if (gap < (1u << 16))
            lane->missing += gap;
        else
            lane->restarts += 1;
    }
    lane->has_last = 1;
    lane->last_type = f->msg_type;
    lane->last_seq = f->seq;
    lane->last_ts = f->timestamp_us;
    lane->last_len = f->payload_len;
    memcpy(lane->last_payload, f->payload, f->payload_len);
}

/* The ADVISORY frame of one event, appended to out; its length, or a negative status. */
static int32_t write_advisory(rl_lane *lane, int32_t kind, int32_t r, double t)
{
    const rl_rules *R = lane->rules;
    rulec_value values[RULEC_MAX_CHANNELS];
    uint8_t payload[RULEC_MAX_PAYLOAD];
    rulec_advisory adv;
    size_t count = 0;
    int32_t k, n = RULEC_E_SPACE;
    for (k = R->axis_start[r]; k < R->axis_start[r + 1]; k++) {
        int32_t a = R->axes[k], ch = R->param_channel[a];
        if (ch < 0 || isnan(lane->x[a]))
            continue;
        if (count < RULEC_MAX_CHANNELS) {
            values[count].channel = (uint16_t)ch;
            values[count].value = lane->x[a];
        }
        count++;
    }
    /* Neither encoder fails here: a rule whose frame could be too large is marked
     * RL_RULE_PYTHON when the tables are built, and take_frame checked the space. */
    if (count <= RULEC_MAX_CHANNELS) {
        if (count > 1)
            qsort(values, count, sizeof values[0], cmp_value);
        adv.event = (uint8_t)(kind == RL_EVENT_RAISE ? RULEC_EVENT_RAISE : RULEC_EVENT_CLEAR);
        adv.severity = R->severity[r];
        adv.rule_id = (const char *)R->ids + R->id_start[r];
        adv.rule_id_len = (size_t)(R->id_start[r + 1] - R->id_start[r]);
        adv.values = values;
        adv.count = count;
        n = rulec_advisory_encode(&adv, payload, sizeof payload);
    }
    if (n >= 0)
        n = rulec_frame_encode(RULEC_MSG_ADVISORY, lane->tx_seq, frame_us(t), payload,
                               (size_t)n, lane->out + lane->out_len,
                               (size_t)(lane->out_cap - lane->out_len));
    if (n > 0) {
        lane->tx_seq += 1u;
        lane->out_len += n;
    }
    return n;
}

static void unmark(rl_lane *lane, int32_t nc, int32_t nh)
{
    const int32_t *box_rule = lane->rules->box_rule;
    int32_t k;
    for (k = 0; k < nc; k++)
        lane->mark[lane->cand[k]] = 0;
    for (k = 0; k < nh; k++)
        lane->mark[box_rule[lane->hold_match[k]]] = 0;
}

static void track(rl_lane *lane, int32_t r)
{
    if (!(lane->rule_state[r] & (RL_RAISED | RL_TIMING)))
        lane->tracked[lane->n_tracked++] = r;
}

static void untrack(rl_lane *lane, int32_t r)
{
    int32_t k = 0;
    while (k < lane->n_tracked && lane->tracked[k] != r)
        k++;
    if (k < lane->n_tracked) /* always: only a tracked rule is untracked */
        lane->tracked[k] = lane->tracked[--lane->n_tracked];
}

/* The stream's reason for an invalid value (engine._invalid, else "stale"), 0 if valid. */
static uint8_t fault_code(const rl_rules *R, int32_t p, double v, double seen, double t)
{
    if (seen == -INFINITY ||
        (R->valid_lo[p] <= v && v <= R->valid_hi[p] && t - seen < R->max_age[p] &&
         (!R->discrete[p] || v == floor(v))))
        return 0;
    if (isnan(v))
        return RL_FAULT_NAN;
    if (isinf(v))
        return RL_FAULT_INFINITE;
    if (v < R->valid_lo[p])
        return RL_FAULT_BELOW;
    if (v > R->valid_hi[p])
        return RL_FAULT_ABOVE;
    if (R->discrete[p] && v != floor(v))
        return RL_FAULT_NOT_STATE;
    return RL_FAULT_STALE;
}

/* Does a rule read a parameter whose value is invalid now? */
static int32_t reads_invalid(const rl_lane *lane, int32_t r)
{
    const rl_rules *R = lane->rules;
    int32_t k;
    for (k = R->axis_start[r]; k < R->axis_start[r + 1]; k++)
        if (lane->code[R->axes[k]])
            return 1;
    return 0;
}

/* What the stream does to one candidate rule (EventStream._advance), as an RL_EVENT_*
 * or 0 for nothing. */
static int32_t decide(const rl_lane *lane, int32_t r, double t)
{
    const rl_rules *R = lane->rules;
    uint8_t st = lane->rule_state[r], fl = R->flags[r], m = lane->mark[r];
    if (st & RL_RAISED) {
        int32_t may_clear;
        if (R->hold != NULL ? (m & M_HOLD) : (m & M_STRICT))
            return (st & RL_WAITING) ? RL_EVENT_HOLD : 0;
        if ((fl & RL_RULE_LATCH) && !(st & RL_ACKED))
            may_clear = 0;
        else if (!(fl & RL_RULE_OFF_DELAY) || reads_invalid(lane, r))
            may_clear = 1;
        else
            may_clear = t - ((st & RL_WAITING) ? lane->false_t[r] : t) >= R->clear_delay[r];
        if (may_clear)
            return RL_EVENT_CLEAR;
        return (st & RL_WAITING) ? 0 : RL_EVENT_WAIT;
    }
    if (!(m & M_STRICT))
        return RL_EVENT_TIMER_STOP; /* timing, and the condition is gone */
    if (fl & RL_RULE_ON_DELAY) {
        double held = t - ((st & RL_TIMING) ? lane->since_t[r] : t);
        if (!(held > R->duration[r] || ((fl & RL_RULE_INCLUSIVE) && held >= R->duration[r])))
            return (st & RL_TIMING) ? 0 : RL_EVENT_TIMER_START;
    }
    return RL_EVENT_RAISE;
}

/* Apply one decision to the lane's state; record the event, and a frame for a change
 * that has one. */
static void commit(rl_lane *lane, int32_t kind, int32_t r, double t)
{
    const rl_rules *R = lane->rules;
    rl_event *ev = &lane->events[lane->n_events];
    switch (kind) {
    case RL_EVENT_RAISE:
        track(lane, r);
        lane->rule_state[r] = RL_RAISED;
        break;
    case RL_EVENT_CLEAR:
        untrack(lane, r);
        lane->rule_state[r] = 0;
        break;
    case RL_EVENT_TIMER_START:
        track(lane, r);
        lane->rule_state[r] |= RL_TIMING;
        lane->since_t[r] = t;
        break;
    case RL_EVENT_TIMER_STOP:
        untrack(lane, r);
        lane->rule_state[r] &= (uint8_t)~RL_TIMING;
        break;
    case RL_EVENT_WAIT:
        lane->rule_state[r] |= RL_WAITING;
        lane->false_t[r] = t;
        break;
    default: /* RL_EVENT_HOLD */
        lane->rule_state[r] &= (uint8_t)~RL_WAITING;
        break;
    }
    ev->kind = kind;
    ev->rule = r;
    ev->box = kind == RL_EVENT_RAISE ? lane->first_box[r] : -1;
    ev->pad = 0;
    ev->t = t;
    if (kind == RL_EVENT_RAISE || kind == RL_EVENT_CLEAR) {
        memcpy(lane->event_x + (size_t)lane->n_events * (size_t)R->n_params, lane->x,
               (size_t)R->n_params * sizeof *lane->x);
        (void)write_advisory(lane, kind, r, t); /* fits: sized and checked by the caller */
    }
    lane->n_events++;
    lane->reply_start[lane->n_events] = lane->out_len;
}

/*
 * One TELEMETRY frame, all or nothing: 1 when taken (state updated, events and
 * replies written), 0 when the caller must take it (nothing changed).
 */
static int32_t take_frame(rl_lane *lane, const rulec_frame *f)
{
    const rl_rules *R = lane->rules;
    rulec_value v[RULEC_MAX_CHANNELS];
    size_t count = 0, i;
    int32_t np = R->n_params, n, nc = 0, nh = 0, ne = 0, nr = 0, k, p, link = 0;
    double t, *x = lane->x;
    uint8_t *mark = lane->mark;

    if (f->msg_type != RULEC_MSG_TELEMETRY ||
        rulec_telemetry_decode(f->payload, f->payload_len, v, RULEC_MAX_CHANNELS, &count) !=
            RULEC_OK)
        return 0;
    for (i = 0; i < count; i++)
        if (v[i].channel >= R->n_channels || R->channel_param[v[i].channel] < 0)
            return 0;
    t = (double)f->timestamp_us / 1e6 + lane->t_offset;
    if (lane->has_last_t && (t < lane->last_t || !isfinite(t) ||
                             (lane->max_jump > 0 && t - lane->last_t > lane->max_jump)))
        return 0; /* a clock fault (or the silence clock ahead): Python decides */

    /* The point after this frame, invalid values as NaN; no validity may change. */
    memcpy(x, lane->last_value, (size_t)np * sizeof *x);
    for (i = 0; i < count; i++) {
        p = R->channel_param[v[i].channel];
        x[p] = v[i].value;
        lane->fresh[p] = 1;
        link |= lane->fault[p] & RL_FAULT_LINK;
    }
    for (p = 0; p < np && !link; p++) {
        /* A value refreshed now that went stale before now: the stream reports that
         * at its instant (its time plus max_age_s), so Python takes the frame. */
        if (lane->fresh[p] && lane->fault[p] == 0 && lane->last_time[p] != -INFINITY &&
            lane->last_time[p] + R->max_age[p] < t)
            break;
        lane->code[p] = fault_code(R, p, x[p], lane->fresh[p] ? t : lane->last_time[p], t);
        if (lane->code[p] != (lane->fault[p] & (uint8_t)~RL_FAULT_LINK))
            break;
        if (lane->code[p])
            x[p] = NAN;
    }
    for (i = 0; i < count; i++)
        lane->fresh[R->channel_param[v[i].channel]] = 0;
    if (link || p < np)
        return 0;

    n = rk_match(R->strict, x, np, lane->match, R->n_boxes);
    if (n < 0)
        return 0; /* cannot happen with a validated index: the stream will say what is wrong */
    for (k = 0; k < n; k++) {
        int32_t b = lane->match[k], r = R->box_rule[b];
        if (!mark[r]) {
            mark[r] = M_STRICT | M_CAND;
            lane->first_box[r] = b;
            lane->cand[nc++] = r;
        }
    }
    if (lane->n_tracked > 0) {
        if (R->hold != NULL) {
            nh = rk_match(R->hold, x, np, lane->hold_match, R->n_boxes);
            if (nh < 0) {
                unmark(lane, nc, 0);
                return 0;
            }
            for (k = 0; k < nh; k++)
                mark[R->box_rule[lane->hold_match[k]]] |= M_HOLD;
        }
        for (k = 0; k < lane->n_tracked; k++) {
            int32_t r = lane->tracked[k];
            if (!(mark[r] & M_CAND)) {
                mark[r] |= M_CAND;
                lane->cand[nc++] = r;
            }
        }
    }
    sort_rules(lane->cand, nc);

    /* Decide every candidate first: a frame the lane cannot finish is not started. */
    for (k = 0; k < nc; k++) {
        int32_t r = lane->cand[k], kind = decide(lane, r, t);
        if (kind == RL_EVENT_RAISE || kind == RL_EVENT_CLEAR) {
            if (R->flags[r] & RL_RULE_PYTHON)
                goto give_back;
            nr++;
        }
        ne += kind != 0;
    }
    if (ne > lane->events_cap - lane->n_events ||
        (int64_t)nr * RULEC_MAX_WIRE_FRAME > (int64_t)(lane->out_cap - lane->out_len))
        goto give_back;

    /* Take it: the stream's values, then each change in rule order. */
    for (i = 0; i < count; i++) {
        p = R->channel_param[v[i].channel];
        lane->last_value[p] = v[i].value;
        lane->last_time[p] = t;
    }
    lane->last_t = t;
    lane->has_last_t = 1;
    for (k = 0; k < nc; k++) {
        int32_t r = lane->cand[k], kind = decide(lane, r, t);
        if (kind)
            commit(lane, kind, r, t);
    }
    unmark(lane, nc, nh);
    lane->n_fast++;
    return 1;

give_back:
    unmark(lane, nc, nh);
    return 0;
}

int32_t rl_run(rl_lane *lane, const uint8_t *data, int32_t len, int32_t fast,
               int32_t *consumed)
{
    int32_t pos = 0;
    if (lane == NULL || lane->rules == NULL || consumed == NULL || len < 0 ||
        (data == NULL && len > 0))
        return RL_E_ARG;
    lane->out_len = 0;
    lane->n_events = 0;
    lane->n_fast = 0;
    lane->written = 0;
    lane->reply_start[0] = 0;
    while (pos < len) {
        rulec_frame f;
        size_t took = 0;
        int32_t got = rulec_decoder_feed(&lane->decoder, data + pos, (size_t)(len - pos),
                                         &took, &f);
        pos += (int32_t)took;
        if (got != 1)
            break; /* no frame completed: every byte was taken */
        if (repeats_last(lane, &f)) {
            lane->duplicates += 1;
            continue;
        }
        note_frame(lane, &f);
        if (fast && take_frame(lane, &f))
            continue;
        lane->slow_type = f.msg_type;
        lane->slow_seq = f.seq;
        lane->slow_ts = f.timestamp_us;
        lane->slow_len = f.payload_len;
        memcpy(lane->slow_payload, f.payload, f.payload_len);
        *consumed = pos;
        return RL_SLOW;
    }
    *consumed = pos;
    return RL_DONE;
}

int32_t rl_write(rl_lane *lane, int32_t fd)
{
    if (lane == NULL)
        return RL_E_ARG;
    lane->written = 0;
#if RL_CAN_WRITE
    if (fd >= 0 && lane->out_len > 0) {
        ssize_t n = write(fd, lane->out, (size_t)lane->out_len);
        lane->written = n > 0 ? (int32_t)n : 0; /* an error is the caller's to see */
    }
#else
    (void)fd;
#endif
    return lane->written;
}
