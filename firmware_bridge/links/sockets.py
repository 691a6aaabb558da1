"""The firmware over the network: ``TcpListenLink`` (a listening socket taking one
firmware connection at a time) and ``UdpListenLink`` (a bound datagram socket; replies
go to the last sender).

Apart from the other links because both are servers: they bind, wait for a peer and
name it in their ``LinkEvent``s.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Callable

from rulec.firmware_bridge.links.base import DEFAULT_MAX_READ, Chunk, Link, LinkError

__all__ = ["TcpListenLink", "UdpListenLink"]


def _addr_text(addr: object) -> str:
    if isinstance(addr, tuple) and len(addr) >= 2:
        host = str(addr[0])
        return f"[{host}]:{addr[1]}" if ":" in host else f"{host}:{addr[1]}"
    return str(addr)


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
        client.setblocking(False)  # see write: no poll before every send
        self._client, self._peer = client, _addr_text(addr)
        self._last_rx = self._clock()
        self._event("up", peer=self._peer)

    def read(self, timeout: float) -> list[Chunk]:
        if self._listener is None:
            raise LinkError(f"{self.name} is not listening")
        client = self._client
        if client is None:
            watch = [self._listener]
        elif self._takeover_due():
            watch = [client, self._listener]
        else:  # a connection waiting behind an active one waits without waking us
            watch = [client]
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

    def write_fd(self, peer: str | None = None) -> int | None:
        client = self._client
        return None if client is None else client.fileno()

    def read_fds(self) -> tuple[int, int] | None:
        client, listener = self._client, self._listener
        if client is None or listener is None:
            return None  # accepting a connection is read's job
        # once the current connection is silent, a waiting one is read's to take over
        return client.fileno(), (listener.fileno() if self._takeover_due() else -1)

    def _takeover_due(self) -> bool:
        return self._clock() - self._last_rx > self.takeover_s

    def note_read(self, n: int) -> None:
        self._last_rx = self._clock()

    def write(self, data: bytes, peer: str | None = None) -> bool:
        client = self._client
        if client is None:
            return False
        try:
            sent = _send_some(client, data)
            if sent < len(data):  # the send buffer is full: wait for it, within the timeout
                client.settimeout(self.write_timeout)
                try:
                    client.sendall(data[sent:])
                finally:
                    client.setblocking(False)
        except OSError as exc:  # timeout included: a peer that does not read is gone
            self._drop(f"write failed: {exc.strerror or exc}")
            return False
        return True


def _send_some(sock: socket.socket, data: bytes) -> int:
    """Bytes a non-blocking socket took at once (0 when its buffer is full).

    A socket with a timeout polls before every send; replies are small and the
    buffer is almost never full, so the daemon tries once without waiting.
    """
    try:
        return sock.send(data)
    except (BlockingIOError, InterruptedError):
        return 0


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
