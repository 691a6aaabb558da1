"""`rulec-sim`: a hardware-in-the-loop firmware simulator for `rulec-onboard`.

It plays a scenario (a CSV of timed sensor values, ``time`` + parameter columns, as
``rulec replay`` reads it) the way the vehicle's firmware would: one TELEMETRY frame
per row, with the row's time as the frame timestamp, over a pty pair it creates (the
daemon opens the slave path), a given pty / serial URL, or a TCP / UDP socket on
127.0.0.1.  It plays at real time, faster (``--speed``) or as fast as possible, paced at
a baud rate (10 bits per byte: a frame reaches the other side no earlier than a UART at
that rate would deliver its last byte), and optionally injects faults
(``firmware_bridge/faults.py``).  It reads what comes back (BUNDLE_INFO, ADVISORY,
SENSOR_FAULT, HEARTBEAT), prints advisories as they raise and clear with the round-trip
latency (telemetry frame written -> reply read, matched by timestamp: the daemon stamps
a reply with the time of the sample that caused it), and ends with one JSON summary.

One thread: writes are scheduled, and the wait until the next write is spent reading
replies (``select``), so read times are not skewed by a second thread.
"""

from __future__ import annotations

import argparse
import errno
import json
import math
import os
import select
import socket
import sys
import time
import tomllib
import tty
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import serial

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.faults import FaultConfig, FaultInjector
from rulec.runtime.errors import RulecError

__all__ = [
    "ChannelMap",
    "Outgoing",
    "PtyTransport",
    "Reply",
    "Scenario",
    "SerialTransport",
    "Simulator",
    "SimError",
    "TcpTransport",
    "Transport",
    "UdpTransport",
    "load_scenario",
    "main",
    "percentiles",
    "scenario_frames",
]

EXIT_OK = 0
EXIT_NO_DAEMON = 1
EXIT_USAGE = 2
BITS_PER_BYTE = 10  # start + 8 data + stop
MAX_TRACKED = 1 << 16  # sent frames remembered for round-trip matching
SPIN_S = 0.0002  # below this, wait by polling instead of sleeping in select
BACKLOG_S = 0.05  # an unscheduled frame queues behind the line's backlog up to this far back


class SimError(RulecError):
    """A scenario, channel map or link the simulator cannot use."""


def _monotonic() -> float:
    return time.perf_counter()


# --------------------------------------------------------------------------- channels


@dataclass
class ChannelMap:
    """Parameter name -> telemetry channel, plus what is needed to print replies."""

    channels: dict[str, int] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # normalised alias -> name
    actions: dict[str, str] = field(default_factory=dict)  # rule id -> action text

    @staticmethod
    def normalise(name: str) -> str:
        return " ".join(name.lower().replace("_", " ").split())

    def channel_of(self, column: str) -> int | None:
        if column in self.channels:
            return self.channels[column]
        name = self.aliases.get(self.normalise(column))
        return None if name is None else self.channels.get(name)

    def names(self) -> dict[int, str]:
        return {ch: name for name, ch in self.channels.items()}

    @classmethod
    def from_bundle(cls, path: str | os.PathLike[str]) -> ChannelMap:
        from rulec.runtime.bundle import load_bundle

        try:
            bundle = load_bundle(path)
        except RulecError as exc:
            raise SimError(f"--bundle {path}: {exc}") from None
        out = cls()
        for p in bundle.parameters:
            if p.channel is not None:
                out.channels[p.name] = p.channel
            for alias in (p.name, *p.aliases):
                out.aliases[cls.normalise(alias)] = p.name
        out.actions = {r.id: r.action for r in bundle.rules if r.action}
        return out

    @classmethod
    def from_sensors(cls, path: str | os.PathLike[str]) -> ChannelMap:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SimError(f"--sensors {path}: {exc}") from None
        params = data.get("parameters", {})
        if not isinstance(params, dict):
            raise SimError(f"--sensors {path}: [parameters] must be a table")
        out = cls()
        for name, spec in params.items():
            if not isinstance(spec, dict):
                continue
            ch = spec.get("channel")
            if isinstance(ch, int) and not isinstance(ch, bool):
                out.channels[name] = ch
            for alias in (name, *spec.get("aliases", ())):
                if isinstance(alias, str):
                    out.aliases[cls.normalise(alias)] = name
        return out

    def add_spec(self, spec: str) -> None:
        """``name=ch,name=ch`` (``--channels``); overrides what the bundle said."""
        for item in spec.split(","):
            if not item.strip():
                continue
            name, sep, ch_text = item.partition("=")
            try:
                ch = int(ch_text)
            except ValueError:
                ch = -1
            if not sep or not name.strip() or not 0 <= ch <= 0xFFFF:
                raise SimError(f"--channels: {item!r} is not NAME=CHANNEL (0..65535)")
            self.channels[name.strip()] = ch
            self.aliases[self.normalise(name)] = name.strip()


# --------------------------------------------------------------------------- scenario


@dataclass
class Scenario:
    """Rows of (time, {channel: value}) ready to encode."""

    rows: list[tuple[float, dict[int, float]]]
    columns: dict[str, int]  # CSV column -> channel
    unmapped: list[str]  # CSV columns with no channel (not sent)

    @property
    def duration_s(self) -> float:
        return self.rows[-1][0] - self.rows[0][0] if self.rows else 0.0


def load_scenario(path: str | os.PathLike[str], channels: ChannelMap) -> Scenario:
    """Read a scenario CSV (``rulec replay`` format) and map its columns to channels."""
    from rulec.runtime.replay import read_samples

    columns: dict[str, int] = {}
    unmapped: list[str] = []
    rows: list[tuple[float, dict[int, float]]] = []
    try:
        for t, sample in read_samples(Path(path)):
            values: dict[int, float] = {}
            for name, value in sample.items():
                ch = columns.get(name)
                if ch is None and name not in unmapped:
                    ch = channels.channel_of(name)
                    if ch is None:
                        unmapped.append(name)
                    else:
                        columns[name] = ch
                if ch is not None:
                    values[ch] = value
            rows.append((t, values))
    except RulecError as exc:
        raise SimError(str(exc)) from None
    if not rows:
        raise SimError(f"{path}: no rows")
    if not columns:
        raise SimError(f"{path}: no column has a telemetry channel (give --bundle, --sensors "
                       "or --channels)")
    return Scenario(rows, columns, unmapped)


@dataclass(frozen=True, slots=True)
class Outgoing:
    """Bytes to write once ``ready`` (seconds after ``start_clock``; None: as soon as
    the line is free, i.e. queued behind the frames before it).

    ``ts_us`` is the timestamp of the (last) frame in ``data``, used to match replies
    for the round trip; ``frames`` is how many frames ``data`` holds.
    """

    ready: float | None
    ts_us: int | None
    data: bytes
    frames: int = 1


def scenario_frames(
    scenario: Scenario,
    speed: float | None = 1.0,
    repeat: int = 1,
    first_seq: int = 0,
) -> Iterator[Outgoing]:
    """TELEMETRY frames of the scenario; ``speed=None`` means as fast as possible.

    Each repetition continues the clock (times shift by the duration plus one sample
    period), so the daemon never sees its firmware clock go back.
    """
    rows = scenario.rows
    t_first = rows[0][0]
    period = rows[1][0] - rows[0][0] if len(rows) > 1 else 1.0
    span = scenario.duration_s + max(period, 0.0)
    seq = first_seq
    for rep in range(repeat):
        for t, values in rows:
            t_rel = t - t_first + rep * span
            ts_us = max(0, round((t + rep * span) * 1e6))
            data = wire.encode_raw_frame(
                wire.MsgType.TELEMETRY, seq, ts_us, wire.encode_telemetry(values)
            )
            seq = (seq + 1) & 0xFFFF_FFFF
            yield Outgoing(None if speed is None else t_rel / speed, ts_us, data)


# --------------------------------------------------------------------------- transports


class Transport:
    """A byte link to the daemon: non-blocking reads, complete writes."""

    name = "link"
    datagram = False
    reconnectable = True

    def fileno(self) -> int | None:
        raise NotImplementedError

    def recv(self) -> list[bytes]:
        """What has arrived ([] if nothing); never blocks."""
        raise NotImplementedError

    def send(self, data: bytes, service: Callable[[float], object]) -> None:
        """Write all of ``data``; ``service(timeout)`` is called while the link is full."""
        raise NotImplementedError

    def drop(self) -> None:
        """Take the link down (injected fault)."""

    def reconnect(self, timeout: float) -> None:
        """Bring the link back after ``drop``."""

    def close(self) -> None:
        raise NotImplementedError

    def wait_readable(self, timeout: float) -> bool:
        fd = self.fileno()
        if fd is None:
            if timeout > 0:
                time.sleep(min(timeout, 0.001))
            return True
        try:
            ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
        except (OSError, ValueError):
            return False
        return bool(ready)


def _write_fd(fd: int, data: bytes, service: Callable[[float], object]) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            n = 0
        except OSError as exc:
            raise SimError(f"write failed: {exc.strerror or exc}") from None
        view = view[n:]
        if view:  # the link is full: read replies while waiting, or both ends stall
            readable, _, _ = select.select([fd], [fd], [], 0.05)
            if readable:
                service(0.0)


class PtyTransport(Transport):
    """A pty pair made here: we hold the master, the daemon opens ``path`` (the slave).

    The slave is put in raw mode at once (no echo, no line editing) and kept open by us
    too, so the pty survives the daemon closing and reopening it.  A pty cannot be
    unplugged: an injected link drop cuts the frame and goes silent.
    """

    reconnectable = False

    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self._slave)
        self.name = f"pty {self.path}"

    def fileno(self) -> int | None:
        return self.master

    def recv(self) -> list[bytes]:
        out: list[bytes] = []
        while True:
            try:
                data = os.read(self.master, 65536)
            except BlockingIOError:
                return out
            except OSError as exc:  # EIO: no slave open (cannot happen while we hold it)
                if exc.errno == errno.EIO:
                    return out
                raise SimError(f"{self.name}: read failed: {exc.strerror}") from None
            if not data:
                return out
            out.append(data)

    def send(self, data: bytes, service: Callable[[float], object]) -> None:
        _write_fd(self.master, data, service)

    def close(self) -> None:
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class SerialTransport(Transport):
    """Any pyserial URL: an existing pty path, ``/dev/ttyUSB0``, ``socket://``, ``loop://``."""

    def __init__(self, url: str, baudrate: int = 115200, connect_timeout: float = 10.0) -> None:
        self.url = url
        self.baudrate = baudrate
        self.name = url
        self.port: serial.SerialBase | None = None
        self.reconnect(connect_timeout)

    def fileno(self) -> int | None:
        port = self.port
        if port is None:
            return None
        try:
            return int(port.fileno())
        except (AttributeError, NotImplementedError, serial.SerialException, OSError):
            return None

    def recv(self) -> list[bytes]:
        port = self.port
        if port is None:
            return []
        try:
            waiting = port.in_waiting
            data = port.read(waiting) if waiting else b""
        except (serial.SerialException, OSError) as exc:
            raise SimError(f"{self.url}: read failed: {exc}") from None
        return [bytes(data)] if data else []

    def send(self, data: bytes, service: Callable[[float], object]) -> None:
        if self.port is None:
            return
        try:
            self.port.write(data)
        except (serial.SerialException, OSError) as exc:
            raise SimError(f"{self.url}: write failed: {exc}") from None

    def drop(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            port.close()

    def reconnect(self, timeout: float) -> None:
        deadline = _monotonic() + timeout
        while True:
            try:
                self.port = serial.serial_for_url(
                    self.url, baudrate=self.baudrate, timeout=0, write_timeout=5.0
                )
                return
            except (serial.SerialException, OSError, ValueError) as exc:
                if _monotonic() >= deadline:
                    raise SimError(f"cannot open {self.url}: {exc}") from None
                time.sleep(0.05)

    def close(self) -> None:
        self.drop()


class TcpTransport(Transport):
    """A TCP client of ``rulec-onboard --tcp-listen`` (retries until it listens)."""

    def __init__(self, host: str, port: int, connect_timeout: float = 10.0) -> None:
        self.host, self.port = host, port
        self.name = f"tcp://{host}:{port}"
        self.sock: socket.socket | None = None
        self.reconnect(connect_timeout)

    def fileno(self) -> int | None:
        return None if self.sock is None else self.sock.fileno()

    def recv(self) -> list[bytes]:
        sock = self.sock
        out: list[bytes] = []
        while sock is not None:
            try:
                data = sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as exc:
                raise SimError(f"{self.name}: read failed: {exc.strerror or exc}") from None
            if not data:
                raise SimError(f"{self.name}: the daemon closed the connection")
            out.append(data)
        return out

    def send(self, data: bytes, service: Callable[[float], object]) -> None:
        if self.sock is not None:
            _write_fd(self.sock.fileno(), data, service)

    def drop(self) -> None:
        sock, self.sock = self.sock, None
        if sock is not None:
            sock.close()

    def reconnect(self, timeout: float) -> None:
        deadline = _monotonic() + timeout
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=1.0)
                break
            except OSError as exc:
                if _monotonic() >= deadline:
                    raise SimError(f"cannot connect to {self.name}: "
                                   f"{exc.strerror or exc}") from None
                time.sleep(0.05)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        self.sock = sock

    def close(self) -> None:
        self.drop()


class UdpTransport(Transport):
    """Datagrams to ``rulec-onboard --udp-listen``: every write is one datagram."""

    datagram = True

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.name = f"udp://{host}:{port}"
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_DGRAM)
        self.sock.connect((host, port))
        self.sock.setblocking(False)
        self.refused = 0

    def fileno(self) -> int | None:
        return self.sock.fileno()

    def recv(self) -> list[bytes]:
        out: list[bytes] = []
        while True:
            try:
                out.append(self.sock.recv(65536))
            except (BlockingIOError, InterruptedError):
                return out
            except ConnectionRefusedError:  # nobody listened to an earlier datagram
                self.refused += 1

    def send(self, data: bytes, service: Callable[[float], object]) -> None:
        while True:
            try:
                self.sock.send(data)
                return
            except (BlockingIOError, InterruptedError):
                readable, _, _ = select.select([self.sock], [self.sock], [], 0.05)
                if readable:
                    service(0.0)
            except ConnectionRefusedError:
                self.refused += 1
                return

    def close(self) -> None:
        self.sock.close()


# --------------------------------------------------------------------------- simulator


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
        deadline = _monotonic() + timeout
        while not done():
            left = deadline - _monotonic()
            if left <= 0:
                return False
            self.service(min(left, 0.05))
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


# --------------------------------------------------------------------------- printing


class Printer:
    """Replies as human lines or JSON lines."""

    def __init__(self, names: Mapping[int, str], actions: Mapping[str, str], as_json: bool,
                 verbose: bool, out: TextIO | None = None) -> None:
        self.names = dict(names)
        self.actions = dict(actions)
        self.as_json = as_json
        self.verbose = verbose
        self.out = out

    def _named(self, values: Mapping[int, float]) -> dict[str, float | None]:
        return {self.names.get(ch, f"ch{ch}"): (v if math.isfinite(v) else None)
                for ch, v in values.items()}

    def line(self, record: dict[str, Any], text: str) -> None:
        out = self.out or sys.stdout
        if self.as_json:
            print(json.dumps(record, ensure_ascii=False), file=out, flush=True)
        else:
            print(text, file=out, flush=True)

    def link(self, elapsed_s: float, state: str) -> None:
        self.line({"event": "link", "state": state, "elapsed_s": round(elapsed_s, 3),
                   "injected": True},
                  f"link {state} (injected) at {elapsed_s:.2f} s")

    def reply(self, reply: Reply) -> None:
        frame, msg = reply.frame, reply.message
        t = frame.timestamp_us / 1e6
        rtt = None if reply.rtt_us is None else round(reply.rtt_us, 1)
        rtt_text = "" if rtt is None else f"  rtt {rtt / 1e3:.2f} ms"
        if isinstance(msg, wire.Advisory):
            values = self._named(msg.values)
            action = self.actions.get(msg.rule_id, "")
            shown = " ".join(f"{k}={v:g}" if v is not None else f"{k}=nan"
                             for k, v in values.items())
            self.line(
                {"event": msg.event, "t": t, "rule": msg.rule_id, "severity": msg.severity,
                 "values": values, "action": action or None, "seq": frame.seq, "rtt_us": rtt},
                f"t={t:8.2f}s  {msg.event.upper():<5}  {msg.severity:<8} {msg.rule_id}  "
                f"{shown}{rtt_text}" + (f"\n{'':13}-> {action}" if action else ""),
            )
        elif isinstance(msg, wire.SensorFault):
            name = self.names.get(msg.channel, f"ch{msg.channel}")
            self.line(
                {"event": "sensor_fault", "t": t, "channel": msg.channel, "parameter": name,
                 "reason": msg.reason.name.lower(), "seq": frame.seq, "rtt_us": rtt},
                f"t={t:8.2f}s  FAULT  {name} (channel {msg.channel}): "
                f"{msg.reason.name.lower()}{rtt_text}",
            )
        elif isinstance(msg, wire.BundleInfo):
            self.line(
                {"event": "bundle_info", "bundle_id": msg.bundle_id,
                 "format_version": msg.format_version, "digest": msg.digest.hex()},
                f"daemon serves bundle {msg.bundle_id} (format {msg.format_version}, "
                f"digest {msg.digest.hex()[:16]}...)",
            )
        elif isinstance(msg, wire.Heartbeat):
            if self.verbose:
                self.line(
                    {"event": "heartbeat", "uptime_ms": msg.uptime_ms,
                     "frames_ok": msg.frames_ok, "frames_dropped": msg.frames_dropped,
                     "advisories": msg.advisories},
                    f"heartbeat: uptime {msg.uptime_ms / 1e3:.1f} s, frames ok "
                    f"{msg.frames_ok}, dropped {msg.frames_dropped}, active {msg.advisories}",
                )
        elif self.verbose:
            self.line({"event": "frame", "type": frame.msg_type.name.lower(), "seq": frame.seq,
                       "ts_us": frame.timestamp_us, "malformed": msg is None},
                      f"frame {frame.msg_type.name} seq {frame.seq}"
                      + (" (malformed payload)" if msg is None else ""))


# --------------------------------------------------------------------------- command line

_EPILOG = """\
examples:
  # make a pty, print its path, wait for the daemon, play at 10x real time
  rulec-sim examples/scenarios/engine_test.csv --bundle out/rocket_engine.bundle --speed 10
  rulec-onboard --bundle out/rocket_engine.bundle --serial /dev/pts/N      # other terminal

  # TCP at 115200 baud with bit errors and split writes, as fast as the line allows
  rulec-onboard --bundle b.rulec --tcp-listen 7700 &
  rulec-sim engine_test.csv --bundle b.rulec --tcp 7700 --as-fast-as-possible \\
      --baud 115200 --ber 1e-4 --split --seed 3

links: --pty (default) creates a pty pair and prints the slave path for the daemon
(`--pty-path-file F` also writes it to F); --serial URL uses an existing pty or port
(any pyserial URL); --tcp/--udp [HOST:]PORT talk to a daemon listening on 127.0.0.1.
Unless --wait-s 0, the scenario starts when the daemon's BUNDLE_INFO arrives (default
wait: 60 s on a pty made here, 10 s for tcp/serial; udp does not wait).

faults (seeded by --seed, counted exactly, printed in the final JSON summary):
--ber bit error rate; --drop-rate / --dup-rate per byte; --frame-drop-rate /
--frame-dup-rate per frame; --split random split writes; --link-drop-every S cuts the
frame being sent every S seconds and keeps the link down --link-down-s (a socket or
serial port is closed and reopened; a pty just goes silent).

output: advisories as they raise and clear (with the round trip, telemetry frame
written -> reply read, when the reply's timestamp matches a frame we sent), sensor
faults, then one JSON line {"event": "summary", ...}.  --json makes every line JSON."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="rulec-sim",
        description="Hardware-in-the-loop firmware simulator: plays a scenario CSV as "
        "TELEMETRY frames to rulec-onboard and prints the advisories that come back.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("scenario", type=Path, metavar="SCENARIO.csv",
                   help="CSV with a 'time' column (s) and one column per parameter")
    g = p.add_argument_group("channels (at least one)")
    g.add_argument("--bundle", metavar="BUNDLE",
                   help="take parameter channels (and advisory texts) from this bundle")
    g.add_argument("--sensors", metavar="TOML", help="take channels from a sensors.toml")
    g.add_argument("--channels", metavar="NAME=CH,...", help="explicit channels (override)")
    g = p.add_argument_group("link (one; default --pty)")
    links = g.add_mutually_exclusive_group()
    links.add_argument("--pty", action="store_true", help="create a pty pair (default)")
    links.add_argument("--serial", metavar="URL",
                       help="an existing pty path or any pyserial URL")
    links.add_argument("--tcp", metavar="[HOST:]PORT", help="connect to a TCP listener")
    links.add_argument("--udp", metavar="[HOST:]PORT", help="send datagrams")
    g.add_argument("--pty-path-file", metavar="FILE", help="also write the pty path here")
    g.add_argument("--wait-s", type=float, default=None, metavar="S",
                   help="wait this long for the daemon's BUNDLE_INFO before playing (0: no)")
    g = p.add_argument_group("timing")
    speed = g.add_mutually_exclusive_group()
    speed.add_argument("--speed", type=float, default=1.0, metavar="X",
                       help="play X times faster than real time [default: 1]")
    speed.add_argument("--as-fast-as-possible", action="store_true",
                       help="ignore the scenario's times (the baud rate still paces)")
    g.add_argument("--baud", type=int, default=None, metavar="N",
                   help="pace bytes as a UART at N baud would carry them (10 bits a byte)")
    g.add_argument("--repeat", type=int, default=1, metavar="N",
                   help="play the scenario N times, the clock running on [default: 1]")
    g.add_argument("--linger-s", type=float, default=1.0, metavar="S",
                   help="keep reading replies this long after the last frame [default: 1]")
    g = p.add_argument_group("faults")
    g.add_argument("--seed", type=int, default=0, help="RNG seed [default: 0]")
    g.add_argument("--ber", type=float, default=0.0, metavar="P", help="bit error rate")
    g.add_argument("--drop-rate", type=float, default=0.0, metavar="P",
                   help="probability that a byte is lost")
    g.add_argument("--dup-rate", type=float, default=0.0, metavar="P",
                   help="probability that a byte is sent twice")
    g.add_argument("--frame-drop-rate", type=float, default=0.0, metavar="P",
                   help="probability that a whole frame is lost")
    g.add_argument("--frame-dup-rate", type=float, default=0.0, metavar="P",
                   help="probability that a whole frame is sent twice")
    g.add_argument("--split", action="store_true",
                   help="write every frame in 2..--max-pieces random pieces")
    g.add_argument("--max-pieces", type=int, default=4, metavar="N", help=argparse.SUPPRESS)
    g.add_argument("--link-drop-every", type=float, default=None, metavar="S",
                   help="cut the link every S seconds")
    g.add_argument("--link-down-s", type=float, default=0.5, metavar="S",
                   help="how long a cut link stays down [default: 0.5]")
    g = p.add_argument_group("output")
    g.add_argument("--json", action="store_true", help="JSON lines only")
    g.add_argument("-v", "--verbose", action="store_true",
                   help="also print heartbeats and other frames")
    g.add_argument("-q", "--quiet", action="store_true",
                   help="print only the final summary")
    return p


def _host_port(text: str) -> tuple[str, int]:
    host, sep, port_text = text.strip().rpartition(":")
    if not sep:
        host, port_text = "", text.strip()
    try:
        port = int(port_text)
    except ValueError:
        raise SimError(f"bad address {text!r}: PORT must be a number") from None
    if not 0 < port <= 65535:
        raise SimError(f"bad address {text!r}: port {port} out of 1..65535")
    return host.strip("[]") or "127.0.0.1", port


def _channels(args: argparse.Namespace) -> ChannelMap:
    if args.bundle:
        cmap = ChannelMap.from_bundle(args.bundle)
    elif args.sensors:
        cmap = ChannelMap.from_sensors(args.sensors)
    else:
        cmap = ChannelMap()
    if args.bundle and args.sensors:
        extra = ChannelMap.from_sensors(args.sensors)
        cmap.channels.update(extra.channels)
        cmap.aliases.update(extra.aliases)
    if args.channels:
        cmap.add_spec(args.channels)
    if not cmap.channels:
        raise SimError("no telemetry channels: give --bundle, --sensors or --channels")
    return cmap


def _transport(args: argparse.Namespace, wait: float) -> Transport:
    if args.serial:
        return SerialTransport(args.serial, args.baud or 115200, connect_timeout=max(wait, 1))
    if args.tcp:
        host, port = _host_port(args.tcp)
        return TcpTransport(host, port, connect_timeout=max(wait, 1))
    if args.udp:
        return UdpTransport(*_host_port(args.udp))
    return PtyTransport()


def _injector(args: argparse.Namespace) -> FaultInjector:
    try:
        config = FaultConfig(
            ber=args.ber, drop_rate=args.drop_rate, dup_rate=args.dup_rate,
            frame_drop_rate=args.frame_drop_rate, frame_dup_rate=args.frame_dup_rate,
            split=args.split, max_pieces=args.max_pieces,
            link_drop_every_s=args.link_drop_every, link_down_s=args.link_down_s,
            seed=args.seed,
        )
    except ValueError as exc:
        raise SimError(str(exc)) from None
    return FaultInjector(config)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except SimError as exc:
        print(f"rulec-sim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    if args.speed <= 0 or not math.isfinite(args.speed):
        raise SimError(f"--speed must be a positive number, not {args.speed}")
    if args.repeat < 1:
        raise SimError(f"--repeat must be at least 1, not {args.repeat}")
    cmap = _channels(args)
    injector = _injector(args)
    scenario = load_scenario(args.scenario, cmap)
    for column in scenario.unmapped:
        print(f"rulec-sim: warning: column {column!r} has no telemetry channel; not sent",
              file=sys.stderr)
    created_pty = not (args.serial or args.tcp or args.udp)
    wait = args.wait_s
    if wait is None:
        wait = 0.0 if args.udp else 60.0 if created_pty else 10.0
    printer = Printer(cmap.names(), cmap.actions, args.json, args.verbose)
    quiet = args.quiet
    transport = _transport(args, wait)
    try:
        if isinstance(transport, PtyTransport):
            if args.pty_path_file:
                Path(args.pty_path_file).write_text(transport.path + "\n", encoding="utf-8")
            printer.line({"event": "pty", "path": transport.path},
                         f"rulec-sim: pty {transport.path}  "
                         f"(rulec-onboard --serial {transport.path})")
        sim = Simulator(transport, injector, args.baud,
                        on_reply=None if quiet else printer.reply,
                        on_link=None if quiet else printer.link)
        if wait > 0 and not sim.wait_for(lambda: sim.bundle_info is not None, wait):
            print(f"rulec-sim: error: no BUNDLE_INFO from the daemon on {transport.name} "
                  f"within {wait:g} s", file=sys.stderr)
            return EXIT_NO_DAEMON
        speed = None if args.as_fast_as_possible else args.speed
        frames = len(scenario.rows) * args.repeat
        pace = "as fast as possible" if speed is None else f"at x{speed:g}"
        if not quiet:
            printer.line(
                {"event": "play", "scenario": str(args.scenario), "frames": frames,
                 "duration_s": scenario.duration_s * args.repeat, "speed": speed,
                 "baud": args.baud, "link": transport.name, "channels": scenario.columns,
                 "faults": injector.config.active},
                f"playing {args.scenario.name}: {frames} frames, "
                f"{scenario.duration_s * args.repeat:g} s of data {pace}"
                + (f", {args.baud} baud" if args.baud else "") + f" over {transport.name}",
            )
        sim.start_clock()
        sim.play(scenario_frames(scenario, speed, args.repeat))
        sim.drain(args.linger_s)
        summary = sim.summary()
    finally:
        transport.close()
    print(json.dumps(summary, ensure_ascii=False), flush=True)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
