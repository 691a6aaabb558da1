"""Where the onboard daemon's telemetry comes from: the link its configuration names
(``make_link``), the reader each sender's bytes go through (``decoder_factory``: rulec
frames, CCSDS space packets or MAVLink), the per-sender decoding state (``Peer``), the
bundle's channel map, and which reader counters become which daemon counters.

Apart from the loop so that every choice made from ``--input-format`` and the input
flags is in one place, and the daemon only reads chunks and frames.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.links import (
    Link,
    SerialLink,
    StdinLink,
    TcpListenLink,
    UdpListenLink,
    parse_host_port,
)
from rulec.firmware_bridge.readers.ccsds import CcsdsDecoder
from rulec.firmware_bridge.readers.mavlink import MavlinkDecoder
from rulec.runtime.daemon.config import OnboardConfig, parse_input_mapping
from rulec.runtime.engine.engine import Engine

_DECODER_FIELDS = {
    "crc_errors": "crc",
    "length_errors": "length",
    "cobs_errors": "cobs",
    "version_errors": "version",
    "type_errors": "type",
    "oversize": "oversize",
    "header_errors": "header",  # the standard readers (readers/ccsds.py, mavlink.py)
    "duplicates": "duplicate",
}
DECODER_COUNTS = (  # decoder counter -> daemon counter
    *((name, f"dropped.{reason}") for name, reason in _DECODER_FIELDS.items()),
    ("bytes_discarded", "bytes_discarded"),
    ("unmapped", "ignored.unmapped"),
    ("idle", "ignored.idle"),
    ("packets_missing", "frames_missing"),
    ("seq_restarts", "seq_restarts"),
)


class Decoder(Protocol):
    """Bytes in, frames out: ``wire.FrameDecoder`` or a standard reader (CCSDS, MAVLink)."""

    stats: Any

    def feed(self, data: bytes | bytearray | memoryview) -> list[wire.Frame]: ...

    def reset(self) -> None: ...


@dataclass
class Peer:
    """Per-sender frame decoding state (one for stream links, one per UDP sender)."""

    decoder: Decoder
    seen: dict[str, int] = field(default_factory=dict)
    last_frame: tuple[int, int, int, bytes] | None = None
    last_seq: int | None = None
    checked: bool = False  # the decoder drops duplicates and counts gaps itself (the lane)


def channel_map(engine: Engine) -> dict[int, str]:
    """Telemetry channel -> parameter name, for the parameters that have a channel."""
    return {p.channel: p.name for p in engine.bundle.parameters if p.channel is not None}


def decoder_factory(config: OnboardConfig) -> Callable[[], Decoder]:
    """What each peer's bytes go through; a standard reader is built once here to fail early."""
    if config.input_format == "rulec":
        return wire.FrameDecoder
    mapping = parse_input_mapping(config.input_format, getattr(config, config.input_format))
    kind: Callable[..., Decoder] = CcsdsDecoder
    if config.input_format == "mavlink":
        kind = MavlinkDecoder  # imports pymavlink when built
    datagrams = config.input_kind == "udp_listen"  # one packet per datagram
    kind(mapping, datagrams=datagrams)
    return functools.partial(kind, mapping, datagrams=datagrams)


def make_link(config: OnboardConfig, stdin_fd: int | None) -> Link:
    """The link the configuration names (stdin when it names no other)."""
    kind = config.input_kind
    size = config.max_buffer_bytes
    if kind == "serial":
        assert config.serial is not None
        return SerialLink(config.serial, config.baudrate, size, config.write_timeout_s)
    if kind == "tcp_listen":
        assert config.tcp_listen is not None
        host, port = parse_host_port(config.tcp_listen)
        return TcpListenLink(host, port, size, config.write_timeout_s, config.takeover_s)
    if kind == "udp_listen":
        assert config.udp_listen is not None
        host, port = parse_host_port(config.udp_listen)
        return UdpListenLink(host, port, size)
    return StdinLink(stdin_fd, size)
