"""``SerialLink``: the firmware on any pyserial URL (``/dev/ttyUSB0``, a pty path,
``loop://``, ``socket://host:port``, ``rfc2217://host:port``) opened with
``serial_for_url``; a POSIX port is read with one ``select`` + ``read``.

Apart from the other links because only it depends on pyserial and on how a serial
port reports that it is gone.
"""

from __future__ import annotations

import os
import select

import serial

from rulec.firmware_bridge.links.base import DEFAULT_MAX_READ, Chunk, Link, LinkError

__all__ = ["SerialLink"]


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

    def write_fd(self, peer: str | None = None) -> int | None:
        return self._fd if self._port is not None else None

    def read_fds(self) -> tuple[int, int] | None:
        fd = self._fd if self._port is not None else None
        return None if fd is None else (fd, -1)

    def write(self, data: bytes, peer: str | None = None) -> bool:
        port = self._port
        if port is None:
            return False
        try:
            if self._fd is not None:  # one write(2) takes a reply whole; pyserial would
                sent = _write_some(self._fd, data)  # then poll the port and a pipe
                if sent == len(data):
                    return True
                data = data[sent:]
            port.write(data)  # the rest, with pyserial's write timeout
        except serial.SerialTimeoutException:
            # The far end is not draining (flow control, full buffer): drop, stay up.
            self.write_timeouts += 1
            return False
        except (serial.SerialException, OSError) as exc:
            raise LinkError(f"{self.url}: write failed: {exc}") from exc
        return True


def _write_some(fd: int, data: bytes) -> int:
    """Bytes the non-blocking descriptor took at once (0 when its buffer is full)."""
    try:
        return os.write(fd, data)
    except (BlockingIOError, InterruptedError):
        return 0
