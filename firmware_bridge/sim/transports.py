"""The byte links `rulec-sim` writes frames through: a pty pair made here, any pyserial
URL, a TCP client, UDP datagrams.

Apart from the simulator because each one only moves bytes (non-blocking reads,
complete writes, drop and reconnect for injected link faults); the simulator decides
what to write and when.
"""

from __future__ import annotations

import errno
import os
import select
import socket
import time
import tty
from collections.abc import Callable

import serial

from rulec.firmware_bridge.sim.errors import SimError

__all__ = ["PtyTransport", "SerialTransport", "TcpTransport", "Transport", "UdpTransport"]


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
        deadline = time.perf_counter() + timeout
        while True:
            try:
                self.port = serial.serial_for_url(
                    self.url, baudrate=self.baudrate, timeout=0, write_timeout=5.0
                )
                return
            except (serial.SerialException, OSError, ValueError) as exc:
                if time.perf_counter() >= deadline:
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
        deadline = time.perf_counter() + timeout
        while True:
            try:
                sock = socket.create_connection((self.host, self.port), timeout=1.0)
                break
            except OSError as exc:
                if time.perf_counter() >= deadline:
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
