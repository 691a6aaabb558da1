"""`rulec-sim`: a hardware-in-the-loop firmware simulator for `rulec-onboard`.

It plays a scenario (a CSV of timed sensor values, ``time`` + parameter columns, as
``rulec replay`` reads it) the way the vehicle's firmware would: one TELEMETRY frame
per row, with the row's time as the frame timestamp, over a pty pair it creates (the
daemon opens the slave path), a given pty / serial URL, or a TCP / UDP socket on
127.0.0.1.  It plays at real time, faster (``--speed``) or as fast as possible, paced at
a baud rate (10 bits per byte: a frame reaches the other side no earlier than a UART at
that rate would deliver its last byte), and optionally injects faults
(``firmware_bridge/sim/faults.py``).  It reads what comes back (BUNDLE_INFO, ADVISORY,
SENSOR_FAULT, HEARTBEAT), prints advisories as they raise and clear with the round-trip
latency (telemetry frame written -> reply read, matched by timestamp: the daemon stamps
a reply with the time of the sample that caused it), and ends with one JSON summary.

One thread: writes are scheduled, and the wait until the next write is spent reading
replies (``select``), so read times are not skewed by a second thread.

The parts: ``firmware_bridge/sim/scenario.py`` (channel map, scenario, frames),
``firmware_bridge/sim/transports.py`` (the links), this module (the ``Simulator``: pacing,
faults, replies and round trips) and ``firmware_bridge/sim/command.py`` (the command
line and the printing of replies).
"""

from __future__ import annotations

import math
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.errors import SimError
from rulec.firmware_bridge.sim.faults import FaultInjector
from rulec.firmware_bridge.sim.scenario import Outgoing
from rulec.firmware_bridge.sim.transports import (
    Transport,
)

__all__ = [
    "BITS_PER_BYTE",
    "Reply",
    "Simulator",
    "percentiles",
]

BITS_PER_BYTE = 10  # start + 8 data + stop
MAX_TRACKED = 1 << 16  # sent frames remembered for round-trip matching
SPIN_S = 0.0002  # below this, wait by polling instead of sleeping in select
BACKLOG_S = 0.05  # an unscheduled frame queues behind the line's backlog up to this far back


def _monotonic() -> float:
    return time.perf_counter()


@dataclass(frozen=True)
class Reply:
    """A frame that came back, decoded, with its arrival time and round trip."""

    frame: wire.Frame
    message: wire.Message | None
    received: float  # perf_counter seconds
    rtt_us: float | None  # since the telemetry frame with the same timestamp was written


def percentiles(values: Iterable[float]) -> dict[str, float] | None:
    """n, p50, p99, p99.9, max (nearest rank), rounded to 0.1; None when empty."""
    data = sorted(values)
    if not data:
        return None

    def rank(q: float) -> float:
        return data[min(len(data) - 1, max(0, math.ceil(q * len(data)) - 1))]

    return {"n": len(data), "p50": round(rank(0.50), 1), "p99": round(rank(0.99), 1),
            "p99_9": round(rank(0.999), 1), "max": round(data[-1], 1)}


class Simulator:
    """Writes scheduled frames through a transport and decodes what comes back.

    ``baud`` (None: unpaced) models the line: a write of n bytes is released when a
    UART at that rate would have delivered its last byte, and the line is busy until
    then, so bytes never arrive faster than ``baud / 10`` per second; the schedule
    is ideal (an OS delay on one write does not slow the ones after it).
    """

    def __init__(
        self,
        transport: Transport,
        injector: FaultInjector | None = None,
        baud: int | None = None,
        on_reply: Callable[[Reply], None] | None = None,
        split_gap_s: float = 0.0002,
        on_link: Callable[[float, str], None] | None = None,
        reply_poll_s: float = 0.0,
    ) -> None:
        if baud is not None and baud <= 0:
            raise SimError(f"baud rate must be positive, not {baud}")
        self.transport = transport
        self.injector = injector or FaultInjector()
        self.baud = baud
        self.byte_s = BITS_PER_BYTE / baud if baud else 0.0
        self.on_reply = on_reply
        self.on_link = on_link
        self.split_gap_s = split_gap_s
        # wait_for polls for replies this long before sleeping: a firmware does not
        # sleep on the daemon's machine, so waking this process should not be charged
        # to the daemon's write (bench/bench_e2e.py --sim-poll-s)
        self.reply_poll_s = reply_poll_s
        self.decoder = wire.FrameDecoder()
        self.received: Counter[str] = Counter()
        self.payload_errors = 0
        self.rtt_us: list[float] = []  # first reply per telemetry frame
        self.sent_at: OrderedDict[int, float] = OrderedDict()
        self._answered: set[int] = set()
        self.bundle_info: wire.BundleInfo | None = None
        self.heartbeat: wire.Heartbeat | None = None
        self.active: dict[str, wire.Advisory] = {}
        self.frames_sent = 0
        self.frames_skipped = 0  # scheduled while the link was down (real-time play)
        self.bytes_written = 0
        self.writes = 0
        self.first_write: float | None = None
        self.last_write: float | None = None
        self.max_lag_s = 0.0
        self.link_events: list[tuple[float, str]] = []
        self._line_free = 0.0
        self._start = _monotonic()
        self._next_drop: float | None = None
        self._down_until = 0.0

    # ------------------------------------------------------------ reading

    def service(self, timeout: float = 0.0) -> int:
        """Read and handle replies, waiting up to ``timeout`` s for the first; how many."""
        if not self.transport.wait_readable(timeout):
            return 0
        chunks = self.transport.recv()
        now = _monotonic()
        count = 0
        for chunk in chunks:
            self.received["bytes"] += len(chunk)
            frames = self.decoder.feed(chunk)
            if self.transport.datagram and not chunk.endswith(b"\x00"):
                frames += self.decoder.feed(b"\x00")
            for frame in frames:
                self._handle(frame, now)
                count += 1
        return count

    def _handle(self, frame: wire.Frame, now: float) -> None:
        kind = frame.msg_type.name.lower()
        self.received[kind] += 1
        try:
            message: wire.Message | None = wire.decode_message(frame)
        except wire.ProtocolError:
            self.payload_errors += 1
            message = None
        rtt: float | None = None
        if frame.msg_type in (wire.MsgType.ADVISORY, wire.MsgType.SENSOR_FAULT):
            sent = self.sent_at.get(frame.timestamp_us)
            if sent is not None:
                rtt = (now - sent) * 1e6
                if frame.timestamp_us not in self._answered:
                    self._answered.add(frame.timestamp_us)
                    self.rtt_us.append(rtt)
        if isinstance(message, wire.Advisory):
            self.received[message.event] += 1
            if message.event == "raise":
                self.active[message.rule_id] = message
            else:
                self.active.pop(message.rule_id, None)
        elif isinstance(message, wire.BundleInfo):
            self.bundle_info = message
        elif isinstance(message, wire.Heartbeat):
            self.heartbeat = message
        if self.on_reply is not None:
            self.on_reply(Reply(frame, message, now, rtt))

    def replied(self, ts_us: int) -> bool:
        """Whether an ADVISORY or SENSOR_FAULT for the frame stamped ``ts_us`` came back."""
        return ts_us in self._answered

    def wait_for(self, done: Callable[[], bool], timeout: float) -> bool:
        """Serve replies until ``done()`` or ``timeout`` seconds; whether it got done."""
        start = _monotonic()
        deadline, poll_until = start + timeout, start + self.reply_poll_s
        while not done():
            now = _monotonic()
            left = deadline - now
            if left <= 0:
                return False
            self.service(0.0 if now < poll_until else min(left, 0.05))
        return True

    def drain(self, seconds: float) -> None:
        """Serve replies for ``seconds``."""
        self.wait_for(lambda: False, seconds)

    def _sleep_until(self, when: float) -> None:
        while True:
            left = when - _monotonic()
            if left <= 0:
                return
            if left > SPIN_S:
                self.service(left - SPIN_S / 2)
            else:
                self.service(0.0)

    # ------------------------------------------------------------ writing

    def elapsed(self) -> float:
        """Seconds since ``start_clock``: an ``Outgoing.ready`` of "now"."""
        return _monotonic() - self._start

    def start_clock(self) -> None:
        """Scenario time 0 is now; link drops are counted from now."""
        self._start = _monotonic()
        self._line_free = self._start
        every = self.injector.config.link_drop_every_s
        self._next_drop = self._start + every if every else None

    def play(self, items: Iterable[Outgoing]) -> None:
        """Send every item at its time (relative to ``start_clock``)."""
        for item in items:
            self.send(item)

    def send(self, item: Outgoing) -> None:
        """Send one item (its faults applied) no earlier than its ready time."""
        now = _monotonic()
        if item.ready is not None:
            ready = self._start + item.ready
        elif self.byte_s:  # a backlog: queued behind the previous frame on a busy line
            ready = max(self._line_free, now - BACKLOG_S)
        else:
            ready = now
        if ready < self._down_until:
            if item.ready is not None:
                self.frames_skipped += item.frames
                return
            self._sleep_until(self._down_until)
            ready = self._down_until
        if item.ready is not None:
            self.max_lag_s = max(self.max_lag_s, _monotonic() - ready)
        injected = self.injector.apply(item.data)
        first = True
        for copy in injected.copies:
            data = copy
            drop_now = self._next_drop is not None and max(ready, _monotonic()) >= self._next_drop
            if drop_now:
                data = self.injector.truncate(copy)
            self._write_copy(data, ready, track=item.ts_us if first else None)
            first = False
            if drop_now:
                self._link_drop()
                break
        self.frames_sent += item.frames

    def _write_copy(self, data: bytes, ready: float, track: int | None) -> None:
        pieces = self.injector.pieces(data)
        release = ready
        for i, piece in enumerate(pieces):
            if self.byte_s:
                start = max(ready, self._line_free) if i == 0 else self._line_free
                release = start + len(piece) * self.byte_s
                self._line_free = release
            elif i:
                release = _monotonic() + self.split_gap_s
            self._sleep_until(release)
            if piece:
                self.transport.send(piece, self.service)
                self.writes += 1
                self.bytes_written += len(piece)
            now = _monotonic()
            if self.first_write is None:
                self.first_write = now
            self.last_write = now
        if track is not None:
            self.sent_at[track] = _monotonic()
            if len(self.sent_at) > MAX_TRACKED:
                old, _ = self.sent_at.popitem(last=False)
                self._answered.discard(old)

    def _link_drop(self) -> None:
        now = _monotonic()
        config = self.injector.config
        every = config.link_drop_every_s or math.inf
        assert self._next_drop is not None
        while self._next_drop <= now:
            self._next_drop += every
        self._link_event(now, "down")
        self.transport.drop()
        self.decoder.reset()
        self._down_until = now + config.link_down_s
        self._sleep_until(self._down_until)
        self.transport.reconnect(max(5.0, config.link_down_s))
        self._line_free = max(self._line_free, _monotonic())
        self._link_event(_monotonic(), "up")

    def _link_event(self, when: float, state: str) -> None:
        self.link_events.append((when - self._start, state))
        if self.on_link is not None:
            self.on_link(when - self._start, state)

    # ------------------------------------------------------------ summary

    def summary(self) -> dict[str, Any]:
        elapsed = (
            self.last_write - self.first_write
            if self.first_write is not None and self.last_write is not None
            else 0.0
        )
        faults = self.injector.counters.as_dict()
        faults["seed"] = self.injector.config.seed
        faults["frames_lost_link_down"] = self.frames_skipped
        return {
            "event": "summary",
            "link": self.transport.name,
            "baud": self.baud,
            "frames_sent": self.frames_sent,
            "bytes_written": self.bytes_written,
            "writes": self.writes,
            "write_span_s": round(elapsed, 6),
            "bytes_per_s": round(self.bytes_written / elapsed, 1) if elapsed > 0 else None,
            "max_lag_ms": round(self.max_lag_s * 1e3, 3),
            "faults": faults,
            "received": dict(sorted(self.received.items())),
            "decoder": self.decoder.stats.as_dict(),
            "payload_errors": self.payload_errors,
            "rtt_us": percentiles(self.rtt_us),
            "active": sorted(self.active),
            "heartbeat": None if self.heartbeat is None else {
                "uptime_ms": self.heartbeat.uptime_ms, "frames_ok": self.heartbeat.frames_ok,
                "frames_dropped": self.heartbeat.frames_dropped,
                "advisories": self.heartbeat.advisories},
            "link_events": [[round(t, 3), s] for t, s in self.link_events],
        }

