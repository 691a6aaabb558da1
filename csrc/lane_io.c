/*
 * The lane's own read (lane.h, rl_serve): wait for the link, read, evaluate, answer.
 *
 * Between a frame's last byte arriving and its ADVISORY leaving, a Python daemon
 * wakes from select, builds the chunk, and crosses into C; those steps cost more than
 * the evaluation.  Here the wait, the read(2), rl_run and rl_write follow one another
 * in one call, with the interpreter's lock released, and anything unusual (an error,
 * a hang-up, a frame for Python, more frames than the overload bound) goes back to the
 * caller, which handles it exactly as it would have without this file.
 */
#define _POSIX_C_SOURCE 200809L /* poll(2), clock_gettime(2) */
#include "lane.h"

#if defined(__unix__) || defined(__APPLE__)
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* RL_SERVE_IDLE, or the link's fd ready to read (RL_SERVE_RAN: go on) or in need of
 * the caller (RL_SERVE_LINK, errno in out->err when poll itself failed). */
static int32_t wait_ready(int32_t fd, int32_t watch_fd, int32_t timeout_ms, double spin_s,
                          rl_served *out)
{
    struct pollfd p[2];
    nfds_t n = watch_fd >= 0 ? 2 : 1;
    double deadline = spin_s > 0.0 ? now_s() + spin_s : 0.0;
    int rc;
    p[0].fd = fd;
    p[0].events = POLLIN;
    p[1].fd = watch_fd;
    p[1].events = POLLIN;
    for (;;) {
        p[0].revents = p[1].revents = 0;
        /* spinning: look without sleeping until the deadline, then sleep as usual */
        rc = poll(p, n, deadline > 0.0 ? 0 : timeout_ms);
        if (rc > 0)
            break;
        if (rc < 0) {
            if (errno == EINTR)
                return RL_SERVE_IDLE; /* a signal: its handler runs before the next call */
            out->err = errno;
            return RL_SERVE_LINK;
        }
        if (deadline <= 0.0)
            return RL_SERVE_IDLE;
        if (now_s() >= deadline)
            deadline = 0.0;
    }
    if (p[0].revents != POLLIN || (n == 2 && p[1].revents != 0))
        return RL_SERVE_LINK; /* a hang-up, an error, or the listener: the link's code */
    return RL_SERVE_RAN;
}

int32_t rl_serve(rl_lane *lane, int32_t fd, int32_t watch_fd, int32_t timeout_ms,
                 double spin_s, int32_t max_frames, int32_t min_wire, uint8_t *buf,
                 int32_t cap, rl_served *out)
{
    ssize_t got;
    int32_t status;
    if (lane == NULL || out == NULL || buf == NULL || cap <= 0 || fd < 0 || min_wire <= 0)
        return RL_E_ARG;
    out->n_read = out->consumed = out->run_status = out->err = 0;
    out->t_read = out->t_ran = out->t_done = 0.0;
    status = wait_ready(fd, watch_fd, timeout_ms, spin_s, out);
    if (status != RL_SERVE_RAN)
        return status;
    got = read(fd, buf, (size_t)cap);
    out->t_read = now_s();
    if (got <= 0) {
        /* the end of the stream, an error, or bytes another reader took first (EAGAIN,
           EINTR): the link's own read looks again and says what it finds */
        out->err = got < 0 ? errno : 0;
        return RL_SERVE_LINK;
    }
    out->n_read = (int32_t)got;
    if (max_frames > 0 && (out->n_read + lane->decoder.len) / min_wire > max_frames)
        return RL_SERVE_READ; /* the caller folds what is over the bound */
    out->run_status = rl_run(lane, buf, out->n_read, 1, &out->consumed);
    out->t_ran = out->t_done = now_s();
    if (out->run_status == RL_DONE && lane->out_len > 0) {
        rl_write(lane, fd);
        out->t_done = now_s();
    }
    return RL_SERVE_RAN;
}

#else

int32_t rl_serve(rl_lane *lane, int32_t fd, int32_t watch_fd, int32_t timeout_ms,
                 double spin_s, int32_t max_frames, int32_t min_wire, uint8_t *buf,
                 int32_t cap, rl_served *out)
{
    (void)lane, (void)fd, (void)watch_fd, (void)timeout_ms, (void)spin_s;
    (void)max_frames, (void)min_wire, (void)buf, (void)cap, (void)out;
    return RL_E_ARG; /* no poll(2) here: the daemon reads in Python */
}

#endif
