"""``StdinLink``: the process's standard input as a link (text samples, for
integration), read without blocking the daemon's loop; end of input is "eof".

Apart from the other links because it only reads (nothing is written back) and ends;
the text in it is parsed by ``text_samples.py``.
"""

from __future__ import annotations

import os
import select
import sys
import time

from rulec.firmware_bridge.links.base import DEFAULT_MAX_READ, Chunk, Link, LinkError

__all__ = ["StdinLink"]


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
