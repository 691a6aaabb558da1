"""systemd's notify protocol without a dependency on systemd: one datagram per state on
the socket ``$NOTIFY_SOCKET`` names (a path, or ``@name`` for the abstract namespace).

``READY=1`` once the first bundle is loaded and the input is open, ``WATCHDOG=1`` at half
the interval ``$WATCHDOG_USEC`` asks for (from the main loop, so a hung loop stops the
pings and systemd restarts the service), ``STOPPING=1`` on the way out, ``STATUS=`` with
each.  Without ``$NOTIFY_SOCKET`` every call does nothing.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """The notify socket of this process, if systemd gave one."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        self._address: str | bytes | None = None
        if address.startswith("@"):
            self._address = "\0" + address[1:]
        elif address.startswith("/"):
            self._address = address
        self.interval_s: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.interval_s = int(usec) / 2e6
        self._next_ping = 0.0
        self.errors = 0

    @property
    def active(self) -> bool:
        return self._address is not None

    def send(self, *fields: str) -> bool:
        """One datagram of ``KEY=VALUE`` lines; False when there is no socket or it fails."""
        if self._address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto("\n".join(fields).encode("utf-8"), self._address)
        except OSError:
            self.errors += 1
            return False
        return True

    def ready(self, status: str) -> None:
        self.send("READY=1", f"STATUS={status}")

    def stopping(self, status: str) -> None:
        self.send("STOPPING=1", f"STATUS={status}")

    def watchdog(self, now: float) -> None:
        """Ping when due (``now`` on the monotonic clock)."""
        if self.interval_s is not None and now >= self._next_ping:
            self._next_ping = now + self.interval_s
            self.send("WATCHDOG=1")
