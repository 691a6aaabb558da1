"""Byte links between the vehicle's firmware and the onboard daemon.

A link moves raw bytes; it knows nothing of frames or rules.  Four kinds:

- ``SerialLink``: any pyserial URL (``/dev/ttyUSB0``, a pty path, ``loop://``,
  ``socket://host:port``, ``rfc2217://host:port``) opened with ``serial_for_url``;
- ``TcpListenLink``: a listening socket taking one firmware connection at a time;
- ``UdpListenLink``: a bound datagram socket; replies go to the last sender;
- ``StdinLink``: the process's standard input (text samples, for integration).

Reads are bounded (at most ``max_read`` bytes per call) and never line-oriented.  A
transport failure raises ``LinkError``; ``LinkSupervisor`` turns that into a "down"
state, closes the transport and reopens it with capped exponential backoff.  State
changes ("listening", "up", "down", "eof") are queued as ``LinkEvent``s for the caller.
"""

from __future__ import annotations

import csv
import json
import math
import os
import select
import socket
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from rulec.runtime.errors import RulecError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_MAX_READ = 65536


class LinkError(RulecError):
    """A link failed (unplugged port, dropped socket, refused bind): it is down."""


@dataclass(frozen=True)
class LinkEvent:
    """A change of link state: "listening", "up", "down" or "eof"."""

    state: str
    link: str
    peer: str | None = None
    error: str | None = None
    retry_in_s: float | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"event": "link", "state": self.state, "link": self.link}
        if self.peer is not None:
            out["peer"] = self.peer
        if self.error is not None:
            out["error"] = self.error
        if self.retry_in_s is not None:
            out["retry_in_s"] = round(self.retry_in_s, 3)
        return out


@dataclass(frozen=True)
class Chunk:
    """Bytes as read; ``peer`` names the sender on datagram links (None on streams)."""

    data: bytes
    peer: str | None = None


def parse_host_port(text: str, default_host: str = DEFAULT_HOST) -> tuple[str, int]:
    """``"7700"``, ``":7700"``, ``"0.0.0.0:7700"`` or ``"[::1]:7700"`` -> (host, port)."""
    text = text.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = "", text
    host = host.strip("[]") or default_host
    try:
        port = int(port_text)
    except ValueError:
        raise ValueError(f"bad address {text!r}: port must be a number") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"bad address {text!r}: port {port} is out of 0..65535")
    return host, port


def _addr_text(addr: object) -> str:
    if isinstance(addr, tuple) and len(addr) >= 2:
        host = str(addr[0])
        return f"[{host}]:{addr[1]}" if ":" in host else f"{host}:{addr[1]}"
    return str(addr)


class Link:
    """Base of all links: open/close, bounded read, write, queued state events."""

    name = "link"

    def __init__(self) -> None:
        self.events: deque[LinkEvent] = deque(maxlen=256)

    @property
    def connected(self) -> bool:
        """Whether a firmware peer can be written to now."""
        raise NotImplementedError

    def open(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def read(self, timeout: float) -> list[Chunk]:
        """Bytes that arrived within ``timeout`` seconds ([] if none); LinkError when down."""
        raise NotImplementedError

    def write(self, data: bytes, peer: str | None = None) -> bool:
        """Send bytes to the peer (or the given datagram peer); False if nobody to send to."""
        raise NotImplementedError

    def _event(self, state: str, **kw: object) -> None:
        self.events.append(LinkEvent(state, self.name, **kw))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- serial


class SerialLink(Link):
    """Any pyserial URL; a ``SerialException`` (or OSError) means the link is down."""

    def __init__(
        self,
        url: str,
        baudrate: int = 115200,
        max_read: int = DEFAULT_MAX_READ,
        write_timeout: float = 0.5,
    ) -> None:
        super().__init__()
        self.url = url
        self.name = url
        self.baudrate = baudrate
        self.max_read = max_read
        self.write_timeout = write_timeout
        self.write_timeouts = 0
        self._port: serial.SerialBase | None = None
        self._fd: int | None = None  # the OS descriptor of a POSIX port: read directly
        self._timeout = 0.05

    @property
    def connected(self) -> bool:
        return self._port is not None

    def open(self) -> None:
        self.close()
        try:
            self._port = serial.serial_for_url(
                self.url,
                baudrate=self.baudrate,
                timeout=self._timeout,
                write_timeout=self.write_timeout,
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            raise LinkError(f"cannot open {self.url}: {exc}") from exc
        fd = getattr(self._port, "fd", None)
        self._fd = fd if os.name == "posix" and type(fd) is int and fd >= 0 else None
        self._event("up")

    def close(self) -> None:
        self._fd = None
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def read(self, timeout: float) -> list[Chunk]:
        port = self._port
        if port is None:
            raise LinkError(f"{self.url} is not open")
        if self._fd is not None:
            return self._read_fd(self._fd, timeout)
        try:
            if timeout != self._timeout:
                port.timeout = self._timeout = timeout
            # read(1) returns as soon as one byte is there; then take what is waiting.
            data = bytearray(port.read(1))
            while data and len(data) < self.max_read:
                waiting = port.in_waiting
                if not waiting:
                    break
                more = port.read(min(waiting, self.max_read - len(data)))
                if not more:
                    break
                data += more
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"{self.url}: {exc}") from exc
        return [Chunk(bytes(data))] if data else []

    def _read_fd(self, fd: int, timeout: float) -> list[Chunk]:
        """A POSIX port (device or pty): one select and one read take all that waits.

        pyserial's ``read(1)`` + ``in_waiting`` + ``read(n)`` costs three system calls
        and their Python around every chunk; errors are judged as pyserial judges them.
        """
        try:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return []
            data = os.read(fd, self.max_read)
        except (BlockingIOError, InterruptedError):
            return []
        except OSError as exc:  # EIO: the device (or the pty's other side) went away
            raise LinkError(f"{self.url}: read failed: {exc}") from exc
        if not data:  # ready but empty: a disconnected device, as pyserial says
            raise LinkError(f"{self.url}: device reports readiness to read but returned no data")
        return [Chunk(data)]

    def write(self, data: bytes, peer: str | None = None) -> bool:
        port = self._port
        if port is None:
            return False
        try:
            port.write(data)
        except serial.SerialTimeoutException:
            # The far end is not draining (flow control, full buffer): drop, stay up.
            self.write_timeouts += 1
            return False
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"{self.url}: write failed: {exc}") from exc
        return True


# --------------------------------------------------------------------------- TCP


class TcpListenLink(Link):
    """Listens on host:port and serves one firmware connection at a time.

    A second connection waits in the backlog until the current one drops, or takes
    over once the current one has been silent for ``takeover_s`` seconds (a firmware
    that rebooted without closing its socket would otherwise lock itself out).
    """

    def __init__(
        self,
        host: str,
        port: int,
        max_read: int = DEFAULT_MAX_READ,
        write_timeout: float = 0.5,
        takeover_s: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.host, self.port = host, port
        self.name = f"tcp://{_addr_text((host, port))}"
        self.max_read = max_read
        self.write_timeout = write_timeout
        self.takeover_s = takeover_s
        self._clock = clock
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self._peer: str | None = None
        self._last_rx = 0.0

    @property
    def address(self) -> tuple[str, int]:
        """The bound address (the real port when 0 was asked for)."""
        if self._listener is None:
            return self.host, self.port
        addr = self._listener.getsockname()
        return str(addr[0]), int(addr[1])

    @property
    def connected(self) -> bool:
        return self._client is not None

    @property
    def peer(self) -> str | None:
        return self._peer

    def open(self) -> None:
        self.close()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(1)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise LinkError(f"cannot listen on {self.name}: {exc.strerror or exc}") from exc
        self._listener = sock
        self.name = f"tcp://{_addr_text(self.address)}"
        self._event("listening")

    def close(self) -> None:
        self._drop(None, quiet=True)
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()

    def _drop(self, error: str | None, quiet: bool = False) -> None:
        client, peer = self._client, self._peer
        self._client = self._peer = None
        if client is not None:
            try:
                client.close()
            except OSError:
                pass
            if not quiet:
                self._event("down", peer=peer, error=error)

    def _accept(self) -> None:
        assert self._listener is not None
        try:
            client, addr = self._listener.accept()
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            raise LinkError(f"{self.name}: accept failed: {exc}") from exc
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        client.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        client.settimeout(self.write_timeout)
        self._client, self._peer = client, _addr_text(addr)
        self._last_rx = self._clock()
        self._event("up", peer=self._peer)

    def read(self, timeout: float) -> list[Chunk]:
        if self._listener is None:
            raise LinkError(f"{self.name} is not listening")
        watch = [self._listener] if self._client is None else [self._client, self._listener]
        try:
            ready, _, _ = select.select(watch, [], [], timeout)
        except OSError as exc:
            raise LinkError(f"{self.name}: {exc}") from exc
        if self._listener in ready:
            silent = self._clock() - self._last_rx
            if self._client is None:
                self._accept()
            elif silent > self.takeover_s:
                self._drop(f"silent for {silent:.1f} s, a new connection takes over")
                self._accept()
        client = self._client
        if client is None or client not in ready:
            return []
        try:
            data = client.recv(self.max_read, socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return []
        except OSError as exc:
            self._drop(exc.strerror or str(exc))
            return []
        if not data:
            self._drop("peer closed the connection")
            return []
        self._last_rx = self._clock()
        return [Chunk(data)]

    def write(self, data: bytes, peer: str | None = None) -> bool:
        client = self._client
        if client is None:
            return False
        try:
            client.sendall(data)
        except OSError as exc:  # timeout included: a peer that does not read is gone
            self._drop(f"write failed: {exc.strerror or exc}")
            return False
        return True


# --------------------------------------------------------------------------- UDP


class UdpListenLink(Link):
    """A bound datagram socket; answers go to the most recent sender."""

    def __init__(self, host: str, port: int, max_read: int = DEFAULT_MAX_READ) -> None:
        super().__init__()
        self.host, self.port = host, port
        self.name = f"udp://{_addr_text((host, port))}"
        self.max_read = max_read
        self.send_errors = 0
        self._sock: socket.socket | None = None
        self._peers: dict[str, tuple[str, int]] = {}
        self._last_peer: str | None = None

    @property
    def address(self) -> tuple[str, int]:
        if self._sock is None:
            return self.host, self.port
        addr = self._sock.getsockname()
        return str(addr[0]), int(addr[1])

    @property
    def connected(self) -> bool:
        return self._last_peer is not None

    @property
    def peer(self) -> str | None:
        return self._last_peer

    def open(self) -> None:
        self.close()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_DGRAM)
        try:
            sock.bind((self.host, self.port))
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise LinkError(f"cannot bind {self.name}: {exc.strerror or exc}") from exc
        self._sock = sock
        self.name = f"udp://{_addr_text(self.address)}"
        self._event("listening")

    def close(self) -> None:
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.close()

    def read(self, timeout: float) -> list[Chunk]:
        sock = self._sock
        if sock is None:
            raise LinkError(f"{self.name} is not bound")
        try:
            ready, _, _ = select.select([sock], [], [], timeout)
        except OSError as exc:
            raise LinkError(f"{self.name}: {exc}") from exc
        out: list[Chunk] = []
        while ready and len(out) < 64:
            try:
                data, addr = sock.recvfrom(self.max_read)
            except (BlockingIOError, InterruptedError):
                break
            except ConnectionRefusedError:  # ICMP from an earlier send: not our problem
                continue
            except OSError as exc:
                raise LinkError(f"{self.name}: {exc.strerror or exc}") from exc
            peer = _addr_text(addr)
            if peer not in self._peers:
                if len(self._peers) >= 64:
                    self._peers.pop(next(iter(self._peers)))
                self._peers[peer] = addr
                self._event("up", peer=peer)
            self._last_peer = peer
            out.append(Chunk(data, peer))
        return out

    def write(self, data: bytes, peer: str | None = None) -> bool:
        sock = self._sock
        target = self._peers.get(peer or self._last_peer or "")
        if sock is None or target is None:
            return False
        try:
            sock.sendto(data, target)
        except OSError:
            self.send_errors += 1
            return False
        return True


# --------------------------------------------------------------------------- stdin


class StdinLink(Link):
    """Standard input, read without blocking the daemon's loop; end of input is "eof"."""

    def __init__(self, fd: int | None = None, max_read: int = DEFAULT_MAX_READ) -> None:
        super().__init__()
        self.name = "stdin"
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.max_read = max_read
        self._open = False
        self._eof = False

    @property
    def connected(self) -> bool:
        return False  # nothing is ever written back to stdin

    def open(self) -> None:
        self._open = True
        self._event("up")

    def close(self) -> None:
        self._open = False

    def read(self, timeout: float) -> list[Chunk]:
        if self._eof:
            time.sleep(timeout)
            return []
        try:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            data = os.read(self.fd, self.max_read) if ready else None
        except OSError as exc:
            raise LinkError(f"stdin: {exc.strerror or exc}") from exc
        if data is None:
            return []
        if not data:
            self._eof = True
            self._event("eof")
            return []
        return [Chunk(data)]

    def write(self, data: bytes, peer: str | None = None) -> bool:
        return False


class LineSplitter:
    """Bounded line accumulator: bytes in, complete lines out; overlong lines dropped."""

    def __init__(self, max_line: int = DEFAULT_MAX_READ) -> None:
        self.max_line = max_line
        self.overlong = 0
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._skipping:
                self._buf += piece
                if len(self._buf) > self.max_line:
                    self.overlong += 1
                    self._buf.clear()
                    self._skipping = True
            if end < 0:
                return lines
            if not self._skipping:
                lines.append(bytes(self._buf).rstrip(b"\r"))
            self._buf.clear()
            self._skipping = False
            start = end + 1

    def flush(self) -> list[bytes]:
        """The last line when the input ended without a newline."""
        rest = bytes(self._buf).rstrip(b"\r")
        self._buf.clear()
        skipping, self._skipping = self._skipping, False
        return [rest] if rest and not skipping else []


# --------------------------------------------------------------------------- supervision


@dataclass
class Backoff:
    """Capped exponential backoff: min_s, 2*min_s, 4*min_s ... max_s."""

    min_s: float = 0.1
    max_s: float = 5.0
    factor: float = 2.0
    _next: float = field(default=0.0, init=False)

    def next_delay(self) -> float:
        delay = self._next or self.min_s
        self._next = min(self.max_s, delay * self.factor)
        return delay

    def reset(self) -> None:
        self._next = 0.0


class LinkSupervisor:
    """Keeps one link open: a failure is logged as "down" and retried with backoff."""

    def __init__(
        self, link: Link, backoff: Backoff, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.link = link
        self.backoff = backoff
        self.clock = clock
        self.failures = 0
        self._open = False
        self._retry_at = 0.0
        self._events: list[LinkEvent] = []

    @property
    def is_open(self) -> bool:
        return self._open

    def ensure_open(self) -> None:
        """Open the link when it is closed and its retry time has come."""
        if self._open or self.clock() < self._retry_at:
            return
        try:
            self.link.open()
        except LinkError as exc:
            self._failed(str(exc), was_open=False)
            return
        self._open = True
        self.backoff.reset()

    def read(self, timeout: float) -> list[Chunk]:
        self.ensure_open()
        if not self._open:
            wait = max(0.0, min(timeout, self._retry_at - self.clock()))
            time.sleep(wait)
            return []
        try:
            return self.link.read(timeout)
        except LinkError as exc:
            self._failed(str(exc), was_open=True)
            return []

    def write(self, data: bytes, peer: str | None = None) -> bool:
        if not self._open:
            return False
        try:
            return self.link.write(data, peer)
        except LinkError as exc:
            self._failed(str(exc), was_open=True)
            return False

    def events(self) -> list[LinkEvent]:
        """State changes since the last call, link-specific ones included, in order."""
        out = self._events
        self._events = []
        while self.link.events:
            out.append(self.link.events.popleft())
        return out

    def close(self) -> None:
        self.link.close()
        self._open = False

    def _failed(self, error: str, was_open: bool) -> None:
        self.failures += 1
        self.link.close()
        self._open = False
        delay = self.backoff.next_delay()
        self._retry_at = self.clock() + delay
        while self.link.events:  # what the link said before failing comes first
            self._events.append(self.link.events.popleft())
        state = "down" if was_open else "retry"
        self._events.append(LinkEvent(state, self.link.name, error=error, retry_in_s=delay))


# --------------------------------------------------------------------------- text samples


Sample = tuple[float, dict[str, float]]


class TextSamples:
    """Text samples from stdin: CSV like ``rulec replay`` or JSON lines; never raises.

    CSV: a header with ``time`` and parameter names, then rows (an empty cell means no
    new sample).  JSON lines: ``{"t": 1.5, "values": {"name": 3.2}}`` (null: no sample).
    ``fmt="auto"`` decides on the first non-empty line (``{`` starts JSON lines).
    A bad line is skipped and described in ``errors`` (drained by the caller); a name
    ``known`` refuses is ignored with one error; time must not go backwards.
    """

    def __init__(
        self,
        fmt: str = "auto",
        known: Callable[[str], bool] | None = None,
        max_line: int = DEFAULT_MAX_READ,
    ) -> None:
        if fmt not in ("auto", "csv", "jsonl"):
            raise ValueError(f"unknown text format {fmt!r}")
        self.fmt = fmt
        self.known = known
        self.lines = LineSplitter(max_line)
        self.errors: list[str] = []
        self.bad_lines = 0
        self.line_no = 0
        self._header: list[str] | None = None
        self._ignored: set[str] = set()
        self._last_t = -float("inf")

    def feed(self, data: bytes) -> list[Sample]:
        overlong = self.lines.overlong
        lines = self.lines.feed(data)
        if self.lines.overlong != overlong:
            self._bad(f"line longer than {self.lines.max_line} bytes dropped")
        return self._parse(lines)

    def finish(self) -> list[Sample]:
        return self._parse(self.lines.flush())

    def _parse(self, lines: list[bytes]) -> list[Sample]:
        out: list[Sample] = []
        for raw in lines:
            self.line_no += 1
            try:
                text = raw.decode("utf-8-sig" if self.line_no == 1 else "utf-8").strip()
            except UnicodeDecodeError:
                self._bad("not valid UTF-8")
                continue
            if not text:
                continue
            if self.fmt == "auto":
                self.fmt = "jsonl" if text.startswith("{") else "csv"
            sample = self._jsonl(text) if self.fmt == "jsonl" else self._csv(text)
            if sample is None:
                continue
            t, values = sample
            if t < self._last_t:
                self._bad(f"time {t:g} goes back (last {self._last_t:g})")
                continue
            self._last_t = t
            out.append(sample)
        return out

    def _bad(self, what: str) -> None:
        self.bad_lines += 1
        self.errors.append(f"stdin:{self.line_no}: {what}")

    def _name_ok(self, name: str) -> bool:
        if self.known is None or self.known(name):
            return True
        if name not in self._ignored:
            self._ignored.add(name)
            self.errors.append(f"stdin:{self.line_no}: unknown parameter {name!r} ignored")
        return False

    def _csv(self, text: str) -> Sample | None:
        try:
            cells = next(csv.reader([text]))
        except (csv.Error, StopIteration) as exc:
            self._bad(f"unreadable CSV: {exc}")
            return None
        if self._header is None:
            names = [c.strip() for c in cells]
            if "time" not in names or len(set(names)) != len(names) or "" in names:
                self._bad(f"CSV header needs a `time` column and distinct names: {names}")
                return None
            self._header = names
            for name in names:
                if name != "time":
                    self._name_ok(name)
            return None
        if len(cells) != len(self._header):
            self._bad(f"{len(cells)} cells, header has {len(self._header)}")
            return None
        t: float | None = None
        values: dict[str, float] = {}
        for name, cell in zip(self._header, cells, strict=True):
            cell = cell.strip()
            if name == "time":
                t = _finite(cell)
                if t is None:
                    self._bad(f"time {cell!r} is not a finite number")
                    return None
            elif cell and name not in self._ignored:
                try:
                    values[name] = float(cell)
                except ValueError:
                    self._bad(f"{name} value {cell!r} is not a number")
        assert t is not None
        return t, values

    def _jsonl(self, text: str) -> Sample | None:
        try:
            obj = json.loads(text)
        except ValueError as exc:
            self._bad(f"not JSON: {exc}")
            return None
        if not isinstance(obj, dict) or not isinstance(obj.get("values"), dict):
            self._bad('expected {"t": number, "values": {name: number}}')
            return None
        raw_t = obj.get("t")
        t = None if isinstance(raw_t, bool) or not isinstance(raw_t, int | float) else raw_t
        if t is None or not math.isfinite(t):
            self._bad(f"t {raw_t!r} is not a finite number")
            return None
        values: dict[str, float] = {}
        for name, value in obj["values"].items():
            if value is None or not self._name_ok(name):
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                self._bad(f"{name} value {value!r} is not a number")
                continue
            values[name] = float(value)
        return float(t), values


def _finite(text: str) -> float | None:
    try:
        x = float(text)
    except ValueError:
        return None
    return x if math.isfinite(x) else None
