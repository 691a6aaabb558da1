"""MAVLink (v1 and v2, through pymavlink) in, TELEMETRY frames out (docs/telemetry-readers.md).

``MavlinkDecoder`` has the interface of ``protocol.FrameDecoder`` (``feed``, ``reset``,
``stats``).  pymavlink does the framing and checks (marker, length, CRC with CRC_EXTRA);
this module maps NAMED_VALUE_FLOAT / NAMED_VALUE_INT names and chosen message fields to
telemetry channels, counts what it drops and the sequence gaps per (system, component).
pymavlink is imported only when a decoder is built (the ``[mavlink]`` extra); the
mapping parser below needs nothing, so a configuration checks without it.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from rulec.firmware_bridge.protocol import MAX_CHANNELS, Frame, MsgType, encode_telemetry
from rulec.firmware_bridge.readers import masked
from rulec.runtime.errors import RulecError

NAMED_MESSAGES = ("NAMED_VALUE_FLOAT", "NAMED_VALUE_INT")
TIME_SOURCES = ("receive", "message")
SEQ_MODULUS = 256
SEQ_GAP_LIMIT = SEQ_MODULUS // 2  # a larger jump is a restart or reordering, not loss
_TOP_KEYS = {"dialect", "time", "system_id", "named_values", "field"}
_FIELD_KEYS = {"message", "field", "channel", "scale", "bias", "mask"}


class MavlinkConfigError(RulecError, ValueError):
    """The MAVLink mapping is malformed, or pymavlink is missing or lacks a message."""


@dataclass(frozen=True)
class FieldMap:
    """``message.field * scale + bias`` goes to ``channel``; with ``mask``, the bits of an
    integer field it selects, shifted down (HEARTBEAT.base_mode, mask 128: armed 0 or 1,
    a discrete parameter's state index)."""

    message: str  # MAVLink message name, e.g. SCALED_PRESSURE
    field: str
    channel: int
    scale: float = 1.0
    bias: float = 0.0
    mask: int | None = None


@dataclass(frozen=True)
class MavlinkConfig:
    """Which names and message fields carry which channels."""

    named_values: Mapping[str, int]  # NAMED_VALUE_FLOAT/INT name -> channel
    fields: tuple[FieldMap, ...] = ()
    dialect: str = "common"  # a module of pymavlink.dialects.v20
    time: str = "receive"  # or "message": the message's time_boot_ms / time_usec
    system_id: int = 0  # 0: any sender; else only this MAVLink system

    def by_message(self) -> dict[str, list[FieldMap]]:
        out: dict[str, list[FieldMap]] = {}
        for f in self.fields:
            out.setdefault(f.message, []).append(f)
        return out


def parse_mavlink_config(table: Mapping[str, Any]) -> MavlinkConfig:
    """The ``[mavlink]`` table of the daemon's TOML file -> ``MavlinkConfig`` (or a named error)."""
    if not isinstance(table, Mapping):
        raise MavlinkConfigError("[mavlink] must be a table")
    unknown = sorted(set(table) - _TOP_KEYS)
    if unknown:
        raise MavlinkConfigError(f"[mavlink]: unknown key(s) {', '.join(unknown)}")
    dialect = table.get("dialect", "common")
    if not isinstance(dialect, str) or not dialect.isidentifier():
        raise MavlinkConfigError(f"mavlink.dialect must be a module name, not {dialect!r}")
    time_source = table.get("time", "receive")
    if time_source not in TIME_SOURCES:
        raise MavlinkConfigError(f"mavlink.time must be one of {', '.join(TIME_SOURCES)}")
    system_id = table.get("system_id", 0)
    if type(system_id) is not int or not 0 <= system_id <= 255:
        raise MavlinkConfigError(f"mavlink.system_id must be in 0..255, not {system_id!r}")
    named = table.get("named_values", {})
    if not isinstance(named, Mapping) or not all(
        isinstance(k, str) and 0 < len(k.encode()) <= 10 and _channel_ok(v)
        for k, v in named.items()
    ):
        raise MavlinkConfigError(
            "mavlink.named_values must map names of 1..10 characters to channels 0..65535"
        )
    raw_fields = table.get("field", [])
    if not isinstance(raw_fields, list):
        raise MavlinkConfigError("mavlink.field must be an array of tables ([[mavlink.field]])")
    maps = tuple(_field_map(raw, f"mavlink.field[{i}]") for i, raw in enumerate(raw_fields))
    if not named and not maps:
        raise MavlinkConfigError("[mavlink] maps nothing: give named_values or [[mavlink.field]]")
    config = MavlinkConfig(dict(named), maps, dialect, time_source, system_id)
    for message, group in config.by_message().items():
        channels = [f.channel for f in group]
        if len(set(channels)) != len(channels) or len(channels) > MAX_CHANNELS:
            raise MavlinkConfigError(f"mavlink: {message} maps a channel twice or too many")
    return config


def _channel_ok(value: Any) -> bool:
    return type(value) is int and 0 <= value <= 0xFFFF


def _field_map(raw: Any, where: str) -> FieldMap:
    if not isinstance(raw, Mapping) or set(raw) - _FIELD_KEYS:
        raise MavlinkConfigError(
            f"{where} must be a table of message, field, channel[, scale, bias]"
        )
    message, name, channel = raw.get("message"), raw.get("field"), raw.get("channel")
    if not isinstance(message, str) or not isinstance(name, str) or not _channel_ok(channel):
        raise MavlinkConfigError(f"{where} needs message and field names and a channel 0..65535")
    numbers = []
    for key, default in (("scale", 1.0), ("bias", 0.0)):
        value = raw.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise MavlinkConfigError(f"{where}.{key} must be a finite number, not {value!r}")
        numbers.append(float(value))
    assert isinstance(channel, int)
    mask = raw.get("mask")
    if mask is not None and (type(mask) is not int or not 0 < mask < 1 << 64):
        raise MavlinkConfigError(f"{where}.mask must be an integer of 1..64 bits, not {mask!r}")
    return FieldMap(message.upper(), name, channel, numbers[0], numbers[1], mask)


def load_dialect(name: str) -> Any:
    """``pymavlink.dialects.v20.<name>``, with a clear error when pymavlink is missing."""
    try:
        importlib.import_module("pymavlink")
    except ImportError:
        raise MavlinkConfigError(
            "--input-format mavlink needs pymavlink: pip install 'rulec[mavlink]'"
        ) from None
    try:
        return importlib.import_module(f"pymavlink.dialects.v20.{name}")
    except ImportError:
        raise MavlinkConfigError(f"mavlink.dialect: pymavlink has no dialect {name!r}") from None


@dataclass
class MavlinkStats:
    """What a ``MavlinkDecoder`` has seen; each dropped message counts in one error.

    ``crc_errors``, ``length_errors`` and ``header_errors`` (anything else pymavlink
    refuses) are dropped messages; ``bytes_discarded`` also counts the octets skipped
    before a start marker.  ``unmapped`` messages are valid but carry nothing for us
    (or come from another system than ``system_id``).
    """

    packets: int = 0
    crc_errors: int = 0
    length_errors: int = 0
    header_errors: int = 0
    duplicates: int = 0
    unmapped: int = 0
    packets_missing: int = 0
    seq_restarts: int = 0
    bytes_discarded: int = 0

    @property
    def frames_dropped(self) -> int:
        return self.crc_errors + self.length_errors + self.header_errors + self.duplicates

    def as_dict(self) -> dict[str, int]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["frames_dropped"] = self.frames_dropped
        return out


class MavlinkDecoder:
    """Bytes in, TELEMETRY frames out: one frame per mapped MAVLink message.

    ``datagrams`` is accepted for symmetry with ``CcsdsDecoder``: a MAVLink datagram is
    parsed like stream bytes, and a message cut by its datagram's end is dropped.
    """

    def __init__(
        self,
        config: MavlinkConfig,
        *,
        datagrams: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.datagrams = datagrams
        self.clock = clock
        self.stats = MavlinkStats()
        self._dialect = load_dialect(config.dialect)
        self._fields = config.by_message()
        known = {cls.msgname: cls for cls in self._dialect.mavlink_map.values()}
        for message, group in self._fields.items():
            cls = known.get(message)
            missing = [f.field for f in group if cls is not None and f.field not in cls.fieldnames]
            if cls is None or missing:
                what = f"field(s) {', '.join(missing)}" if missing else "message"
                raise MavlinkConfigError(f"mavlink: {config.dialect} has no {message} {what}")
            if config.time == "message" and not {"time_boot_ms", "time_usec"} & set(cls.fieldnames):
                raise MavlinkConfigError(f"mavlink.time = message: {message} carries no time")
        self._mav = self._new_parser()
        self._seq_out = 0
        self._last: dict[tuple[int, int], tuple[int, bytes]] = {}

    def _new_parser(self) -> Any:
        mav = self._dialect.MAVLink(None)
        mav.robust_parsing = True  # bad input becomes BAD_DATA messages, never an exception
        return mav

    @property
    def pending(self) -> int:
        """Octets held for a message not yet complete."""
        return int(self._mav.buf_len())

    def reset(self) -> None:
        """Forget a partial message (after a reconnect); its octets count as discarded."""
        self.stats.bytes_discarded += self.pending
        self._mav = self._new_parser()

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame]:
        """Consume ``data``; return the frames of the mapped messages it completes."""
        frames: list[Frame] = []
        for msg in self._mav.parse_buffer(bytes(data)) or ():
            frame = self._message(msg)
            if frame is not None:
                frames.append(frame)
        if self.datagrams:
            self.reset()
        return frames

    def _message(self, msg: Any) -> Frame | None:
        stats = self.stats
        kind = msg.get_type()
        if kind == "BAD_DATA":
            reason = str(msg.reason)
            if reason != "Bad prefix":
                name = "crc_errors" if "CRC" in reason else "header_errors"
                name = "length_errors" if "length" in reason else name
                setattr(stats, name, getattr(stats, name) + 1)
            stats.bytes_discarded += len(msg.data)
            return None
        sender = (msg.get_srcSystem(), msg.get_srcComponent())
        raw = bytes(msg.get_msgbuf())
        seq = msg.get_seq()
        last = self._last.get(sender)  # one sequence per sender, over every message type
        if last is not None:
            if last == (seq, raw):
                stats.duplicates += 1
                stats.bytes_discarded += len(raw)
                return None
            gap = (seq - last[0] - 1) % SEQ_MODULUS
            if gap < SEQ_GAP_LIMIT:
                stats.packets_missing += gap
            else:
                stats.seq_restarts += 1
        self._last[sender] = (seq, raw)
        values = self._values(kind, msg)
        if not values or (self.config.system_id and sender[0] != self.config.system_id):
            stats.unmapped += 1
            return None
        frame = Frame(
            MsgType.TELEMETRY, self._seq_out, self._time_us(msg), encode_telemetry(values)
        )
        self._seq_out = (self._seq_out + 1) & 0xFFFF_FFFF
        stats.packets += 1
        return frame

    def _values(self, kind: str, msg: Any) -> dict[int, float]:
        values: dict[int, float] = {}
        if kind in NAMED_MESSAGES:
            channel = self.config.named_values.get(msg.name)
            if channel is not None:
                values[channel] = float(msg.value)
        for f in self._fields.get(kind, ()):
            raw = getattr(msg, f.field)
            if f.mask is not None:
                if not isinstance(raw, int):
                    continue  # a mask selects bits of an integer field only
                raw = masked(raw, f.mask)
            if isinstance(raw, int | float):
                values[f.channel] = raw * f.scale + f.bias
        return values

    def _time_us(self, msg: Any) -> int:
        if self.config.time == "message":
            usec = getattr(msg, "time_usec", None)
            if isinstance(usec, int):
                return usec
            boot_ms = getattr(msg, "time_boot_ms", None)
            if isinstance(boot_ms, int):
                return boot_ms * 1000
        return int(self.clock() * 1e6)
