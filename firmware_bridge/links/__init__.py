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

Where each part lives: ``base.py`` (``Link``, ``Chunk``, ``LinkEvent``,
``LinkError``, ``parse_host_port``), ``serial.py``, ``sockets.py`` (TCP and
UDP), ``stdin.py``, ``supervisor.py`` (``LinkSupervisor``, ``Backoff``) and
``text_samples.py`` (``TextSamples``: the CSV or JSON lines read from stdin).  This
module only gathers them, so that the daemon takes every link from one place.
"""

from __future__ import annotations

from rulec.firmware_bridge.links.base import (
    DEFAULT_HOST,
    DEFAULT_MAX_READ,
    Chunk,
    Link,
    LinkError,
    LinkEvent,
    parse_host_port,
)
from rulec.firmware_bridge.links.serial import SerialLink
from rulec.firmware_bridge.links.sockets import TcpListenLink, UdpListenLink
from rulec.firmware_bridge.links.stdin import StdinLink
from rulec.firmware_bridge.links.supervisor import Backoff, LinkSupervisor
from rulec.firmware_bridge.links.text_samples import LineSplitter, Sample, TextSamples

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_MAX_READ",
    "Backoff",
    "Chunk",
    "LineSplitter",
    "Link",
    "LinkError",
    "LinkEvent",
    "LinkSupervisor",
    "Sample",
    "SerialLink",
    "StdinLink",
    "TcpListenLink",
    "TextSamples",
    "UdpListenLink",
    "parse_host_port",
]
