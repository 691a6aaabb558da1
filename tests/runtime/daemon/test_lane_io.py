"""The lane's own read (csrc/lane_io.c, ``Lane.serve``) on real descriptors.

``rl_serve`` waits, reads, runs and writes in one call; everything it does not finish
it must hand back untouched: the overload bound, a frame for Python, and every unusual
state of the link (an error, a hang-up, the end of the stream, a listener with a new
connection), which the link's own ``read`` then finds.  The daemon running on it is
held to the Python path by tests/runtime/daemon/test_lane.py.
"""

from __future__ import annotations

import errno
import os
import resource
import signal
import socket
import threading
import time
import tty
from pathlib import Path

import pytest
from test_lane import flapping, lane_bundle, lane_for, ramp

from rulec.firmware_bridge import protocol as wire
from rulec.runtime import NATIVE
from rulec.runtime.daemon.lane import Lane, lane_module
from rulec.runtime.daemon.loop import MIN_WIRE_FRAME

pytestmark = [pytest.mark.compiled,
              pytest.mark.skipif(lane_module() is None or not NATIVE or os.name != "posix",
                                 reason="the lane's read runs on the C kernel, on POSIX")]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return lane_bundle(tmp_path_factory.mktemp("lane_io"))


def ready_lane(bundle: Path, size: int = 65536) -> Lane:
    lane = lane_for(bundle)
    lane.read_buffer(size)
    return lane


def serve(lane: Lane, fd: int, watch: int = -1, timeout_s: float = 2.0, spin_s: float = 0.0,
          max_frames: int = 0) -> int:
    return lane.serve(fd, watch, timeout_s, spin_s, max_frames, MIN_WIRE_FRAME)


def recv_all(sock: socket.socket, n: int) -> bytes:
    sock.settimeout(2)
    got = b""
    while len(got) < n:
        got += sock.recv(65536)
    return got


def test_a_read_is_run_and_answered_as_run_and_write_would(bundle: Path) -> None:
    frames = flapping(10)
    twin = lane_for(bundle)
    assert twin.run(frames, 0) == (twin.DONE, len(frames))
    expected = b"".join(entry[1] for entry in twin.replies()[1])
    lane = ready_lane(bundle)
    near, far = socket.socketpair()
    with near, far:
        far.sendall(frames)
        before = time.perf_counter()
        assert serve(lane, near.fileno()) == lane.SERVE_RAN
        got = lane.served
        assert (got.n_read, got.consumed, got.run_status) == (len(frames), len(frames), lane.DONE)
        assert lane.bytes_read() == frames
        assert lane.c.n_fast == 10 and lane.taken == 10
        assert lane.replies() == (10, [])  # all of them written by the call itself
        assert before <= got.t_read <= got.t_ran <= got.t_done <= time.perf_counter()
        assert recv_all(far, len(expected)) == expected
        assert [e.rule for e in lane.events()] == [e.rule for e in twin.events()]


def test_a_quiet_read_writes_nothing_and_a_frame_for_python_stops_the_run(bundle: Path) -> None:
    lane = ready_lane(bundle)
    quiet = ramp([12.0])[0]
    bad = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 2, 1_100_000,
                                wire.encode_telemetry({0: float("nan")}))
    near, far = socket.socketpair()
    with near, far:
        far.sendall(quiet)
        assert serve(lane, near.fileno()) == lane.SERVE_RAN
        assert lane.c.out_len == 0 and lane.served.t_done == lane.served.t_ran
        far.sendall(bad + quiet)
        assert serve(lane, near.fileno()) == lane.SERVE_RAN
        got = lane.served
        assert got.run_status == lane.SLOW and got.consumed == len(bad)  # a fault: Python's
        assert lane.slow_frame().seq == 2
        far.setblocking(False)
        with pytest.raises(BlockingIOError):
            far.recv(100)  # nothing written for a run that stopped


def test_a_read_whose_events_write_nothing_writes_nothing(bundle: Path) -> None:
    lane = ready_lane(bundle)
    timing = wire.encode_raw_frame(wire.MsgType.TELEMETRY, 1, 1_000_000,
                                   wire.encode_telemetry({2: 80.0}))  # DELAY starts timing
    near, far = socket.socketpair()
    with near, far:
        far.sendall(timing)
        assert serve(lane, near.fileno()) == lane.SERVE_RAN
        assert lane.c.n_events >= 1 and lane.c.out_len == 0
        assert {e.kind for e in lane.events()} == {lane.lib.RL_EVENT_TIMER_START}
        assert lane.served.t_done == lane.served.t_ran


def test_more_frames_than_the_bound_are_read_and_left_unrun(bundle: Path) -> None:
    lane = ready_lane(bundle)
    frames = b"".join(ramp([12.0, 13.0, 14.0]))
    near, far = socket.socketpair()
    with near, far:
        far.sendall(frames)
        assert serve(lane, near.fileno(), max_frames=1) == lane.SERVE_READ
        assert lane.bytes_read() == frames and lane.taken == 0
        assert lane.c.decoder.len == 0  # not even decoded
        far.sendall(frames[:20])
        assert serve(lane, near.fileno(), max_frames=5) == lane.SERVE_RAN


def test_nothing_within_the_timeout_is_idle_after_spinning_first(bundle: Path) -> None:
    lane = ready_lane(bundle)
    near, far = socket.socketpair()
    with near, far:
        start = time.perf_counter()
        assert serve(lane, near.fileno(), timeout_s=0.02) == lane.SERVE_IDLE
        assert serve(lane, near.fileno(), timeout_s=0.02, spin_s=0.01) == lane.SERVE_IDLE
        assert time.perf_counter() - start >= 0.04
        assert serve(lane, near.fileno(), timeout_s=0.0) == lane.SERVE_IDLE

        def late() -> None:
            time.sleep(0.005)
            far.sendall(ramp([12.0])[0])
        sender = threading.Thread(target=late)
        sender.start()
        assert serve(lane, near.fileno(), timeout_s=0.0, spin_s=2.0) == lane.SERVE_RAN
        sender.join()


def test_a_signal_ends_the_wait_so_its_handler_runs(bundle: Path) -> None:
    lane = ready_lane(bundle)
    seen: list[int] = []
    old = signal.signal(signal.SIGALRM, lambda signum, frame: seen.append(signum))
    near, far = socket.socketpair()
    try:
        with near, far:
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            start = time.perf_counter()
            assert serve(lane, near.fileno(), timeout_s=5.0) == lane.SERVE_IDLE
            assert time.perf_counter() - start < 4.0
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert seen == [signal.SIGALRM]


def test_every_unusual_link_state_is_left_for_the_link_to_read(bundle: Path) -> None:
    lane = ready_lane(bundle)
    # the far end closed: a hang-up, nothing read
    near, far = socket.socketpair()
    far.close()
    with near:
        assert serve(lane, near.fileno()) == lane.SERVE_LINK
        assert lane.served.n_read == 0
        assert near.recv(10) == b""  # the end of the stream is still there to read
    # the far end stopped writing: readable, and the read says the stream ended
    near, far = socket.socketpair()
    with near, far:
        far.shutdown(socket.SHUT_WR)
        assert serve(lane, near.fileno()) == lane.SERVE_LINK
        assert lane.served.err == 0
    # a read that fails (a listener has a connection waiting, it cannot be read)
    listener = socket.create_server(("127.0.0.1", 0))
    with listener, socket.create_connection(listener.getsockname()):
        assert serve(lane, listener.fileno()) == lane.SERVE_LINK
        assert lane.served.err in (errno.ENOTCONN, errno.EINVAL)
    # the watched descriptor is ready: the link's read decides what that means
    near, far = socket.socketpair()
    other, other_far = socket.socketpair()
    with near, far, other, other_far:
        other_far.sendall(b"x")
        assert serve(lane, near.fileno(), watch=other.fileno()) == lane.SERVE_LINK
        far.sendall(ramp([12.0])[0])
        assert serve(lane, near.fileno(), watch=other.fileno()) == lane.SERVE_LINK
        other.recv(1)
        assert serve(lane, near.fileno(), watch=other.fileno()) == lane.SERVE_RAN
    # poll itself refuses (more descriptors than the process may have open)
    near, far = socket.socketpair()
    limits = resource.getrlimit(resource.RLIMIT_NOFILE)
    with near, far:
        resource.setrlimit(resource.RLIMIT_NOFILE, (1, limits[1]))
        try:
            status = serve(lane, near.fileno(), watch=far.fileno())
        finally:
            resource.setrlimit(resource.RLIMIT_NOFILE, limits)
        assert status == lane.SERVE_LINK and lane.served.err == errno.EINVAL
    # a descriptor that is not open
    fd = os.dup(0)
    os.close(fd)
    assert serve(lane, fd) == lane.SERVE_LINK
    assert lane.taken == 1


def test_a_pty_whose_other_side_closed_is_left_for_the_link(bundle: Path) -> None:
    lane = ready_lane(bundle)
    master, slave = os.openpty()
    try:
        tty.setraw(slave)  # as the serial link opens it
        os.write(master, flapping(2))
        assert serve(lane, slave) == lane.SERVE_RAN
        assert os.read(master, 4096)  # the two ADVISORY frames came back on the pty
        os.close(master)
        master = -1
        assert serve(lane, slave) == lane.SERVE_LINK
        try:  # the end of the stream, or EIO: the serial link reports the port gone
            rest = os.read(slave, 10)
        except OSError:
            rest = b""
        assert rest == b""
    finally:
        os.close(slave)
        if master >= 0:
            os.close(master)


def test_bad_arguments_are_refused(bundle: Path) -> None:
    module = lane_module()
    assert module is not None
    ffi, lib = module.ffi, module.lib
    lane = ready_lane(bundle, 64)
    buf, got = ffi.new("uint8_t[]", 64), ffi.new("rl_served *")
    near, far = socket.socketpair()
    with near, far:
        fd = near.fileno()
        for args in [(ffi.NULL, fd, -1, 0, 0.0, 0, 10, buf, 64, got),
                     (lane.c, fd, -1, 0, 0.0, 0, 10, buf, 64, ffi.NULL),
                     (lane.c, fd, -1, 0, 0.0, 0, 10, ffi.NULL, 64, got),
                     (lane.c, fd, -1, 0, 0.0, 0, 10, buf, 0, got),
                     (lane.c, -1, -1, 0, 0.0, 0, 10, buf, 64, got),
                     (lane.c, fd, -1, 0, 0.0, 0, 0, buf, 64, got)]:
            assert lib.rl_serve(*args) == lib.RL_E_ARG
        far.sendall(ramp([12.0])[0])
        rules, lane.c.rules = lane.c.rules, ffi.NULL
        try:
            with pytest.raises(RuntimeError, match="fast lane failed"):
                serve(lane, fd)
        finally:
            lane.c.rules = rules
