"""What every link is: the ``Link`` interface (open, close, bounded read, write), the
``Chunk`` it reads, the ``LinkEvent``s it queues, ``LinkError`` for a link that is
down, and ``parse_host_port`` for socket addresses.

Apart from the concrete links (``serial.py``, ``sockets.py``,
``stdin.py``) and their supervision (``supervisor.py``), which all build on it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from rulec.runtime.errors import RulecError

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_MAX_READ",
    "Chunk",
    "Link",
    "LinkError",
    "LinkEvent",
    "parse_host_port",
]

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


class Link:
    """Base of all links: open/close, bounded read, write, queued state events."""

    name = "link"
    max_read = DEFAULT_MAX_READ  # the most one read takes

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

    def write_fd(self, peer: str | None = None) -> int | None:
        """The OS descriptor a stream link's replies may be written to directly (one
        ``write(2)``, the rest through ``write``), or None: go through ``write``."""
        return None

    def read_fds(self) -> tuple[int, int] | None:
        """Descriptors a caller may wait on and read itself instead of ``read``: the data
        descriptor and one more to watch (-1: none) whose readiness means "call read",
        or None (read only through ``read``).  Whatever is unusual (an error, a hang-up,
        the end of the stream) is left for ``read`` to find and report."""
        return None

    def note_read(self, n: int) -> None:
        """``n`` bytes were read from ``read_fds``' descriptor outside ``read``."""

    def _event(self, state: str, **kw: object) -> None:
        self.events.append(LinkEvent(state, self.name, **kw))  # type: ignore[arg-type]
