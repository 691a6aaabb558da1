"""Keeping a link open: ``LinkSupervisor`` turns a ``LinkError`` into a "down" (or
"retry") event, closes the link and reopens it after a capped exponential ``Backoff``.

Apart from the links because it is the same for every kind of link.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rulec.firmware_bridge.links.base import Chunk, Link, LinkError, LinkEvent

__all__ = ["Backoff", "LinkSupervisor"]


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

    def write_fd(self, peer: str | None = None) -> int | None:
        """The link's descriptor for direct writes (``Link.write_fd``) while it is open."""
        return self.link.write_fd(peer) if self._open else None

    def read_fds(self) -> tuple[int, int] | None:
        """The link's descriptors for reading outside ``read`` (``Link.read_fds``) while it
        is open; after anything unusual there, ``read`` finds and reports it."""
        return self.link.read_fds() if self._open else None

    def note_read(self, n: int) -> None:
        self.link.note_read(n)

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
