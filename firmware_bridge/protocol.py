"""Wire protocol between vehicle firmware and the onboard runtime (``docs/protocol.md``).

A frame is ``COBS(header + payload + crc32c) + b"\\x00"``.  The header is 16 bytes,
little-endian: version u8, message type u8, sequence u32, timestamp u64 (microseconds),
payload length u16; the CRC-32C covers header and payload.  ``FrameDecoder`` turns a
byte stream into frames, dropping and counting whatever is corrupt, truncated or
oversized and resynchronising on the next 0x00.  The payload codecs below give each
message type its layout.  The C side (``csrc/rulec_proto.c``) is kept byte-identical by
``tests/vectors/protocol_vectors.json``.

Framing (CRC-32C, COBS, the stream decoder) runs in that same C code when the compiled
codec is in use (``native_codec.NATIVE``; ``RULEC_PUREPYTHON=1`` turns it off), and in
the pure-Python reference here otherwise; the payload codecs are Python either way.
Standard library only beyond that (plus the project's exception root).
"""

from __future__ import annotations

import enum
import math
import operator
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import TypeAlias

from rulec.firmware_bridge import native_codec
from rulec.firmware_bridge.cobs import CobsError, cobs_encode_py, cobs_max_encoded, decode_in_place
from rulec.firmware_bridge.crc import crc32c_py
from rulec.runtime.errors import RulecError
from rulec.runtime.vocabulary import SEVERITY_CODES, FaultReason

__all__ = [
    "CRC_SIZE",
    "HEADER_SIZE",
    "MAX_CHANNELS",
    "MAX_FRAME",
    "MAX_PAYLOAD",
    "MAX_WIRE_FRAME",
    "MIN_FRAME",
    "PROTOCOL_VERSION",
    "Advisory",
    "BundleInfo",
    "DecoderStats",
    "FaultReason",
    "Frame",
    "FrameDecoder",
    "Heartbeat",
    "Message",
    "MsgType",
    "ProtocolError",
    "SensorFault",
    "decode_advisory",
    "decode_bundle_info",
    "decode_heartbeat",
    "decode_message",
    "decode_sensor_fault",
    "decode_telemetry",
    "encode_advisory",
    "encode_bundle_info",
    "encode_frame",
    "encode_heartbeat",
    "encode_message",
    "encode_raw_frame",
    "encode_sensor_fault",
    "encode_telemetry",
    "fault_reason_for",
    "seq_gap",
]

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 1024
HEADER_SIZE = 16
CRC_SIZE = 4
MIN_FRAME = HEADER_SIZE + CRC_SIZE  # 20: an empty payload
MAX_FRAME = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE  # 1044 bytes before COBS
MAX_WIRE_FRAME = cobs_max_encoded(MAX_FRAME) + 1  # 1050 bytes on the wire, delimiter included
MAX_CHANNELS = (MAX_PAYLOAD - 2) // 10  # 102 (channel, value) pairs in one TELEMETRY frame
SEQ_MODULUS = 1 << 32

_HEADER = struct.Struct("<BBIQH")
_U16 = struct.Struct("<H")
_CRC = struct.Struct("<I")
_ADVISORY_HEAD = struct.Struct("<BBH")
_HEARTBEAT = struct.Struct("<QQQQ")
_BUNDLE_HEAD = struct.Struct("<H32sH")
_SENSOR_FAULT = struct.Struct("<HB")
_PAIR_SIZE = 10  # u16 channel + f64 value


class ProtocolError(RulecError, ValueError):
    """A frame or payload cannot be encoded, or a payload is malformed."""


class MsgType(enum.IntEnum):
    """Message type, header byte 1."""

    TELEMETRY = 1
    ADVISORY = 2
    HEARTBEAT = 3
    BUNDLE_INFO = 4
    SENSOR_FAULT = 5


EVENT_CODES = {"raise": 1, "clear": 2}
_EVENT_NAMES = {v: k for k, v in EVENT_CODES.items()}
_SEVERITY_NAMES = {v: k for k, v in SEVERITY_CODES.items()}
_MSG_TYPES = {int(t): t for t in MsgType}
_FAULT_REASONS = {int(r): r for r in FaultReason}


# --- frames --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: the header fields and the raw payload."""

    msg_type: MsgType
    seq: int  # u32, per sender, +1 per frame of any type, wraps to 0
    timestamp_us: int  # u64, sender's monotonic clock in microseconds
    payload: bytes


def encode_raw_frame(
    msg_type: int,
    seq: int,
    timestamp_us: int,
    payload: bytes,
    *,
    version: int = PROTOCOL_VERSION,
) -> bytes:
    """Encode a frame without checking type or version (tools and tests: bad frames)."""
    if not (isinstance(msg_type, int) and isinstance(seq, int)
            and isinstance(timestamp_us, int) and isinstance(version, int)):
        raise ProtocolError("version, type, sequence and timestamp must be integers")
    if not 0 <= version <= 0xFF or not 0 <= msg_type <= 0xFF:
        raise ProtocolError(f"version {version} and type {msg_type} must fit in a byte")
    if not 0 <= seq < SEQ_MODULUS:
        raise ProtocolError(f"sequence number {seq} out of range 0..2**32-1")
    if not 0 <= timestamp_us < 1 << 64:
        raise ProtocolError(f"timestamp {timestamp_us} out of range 0..2**64-1")
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(payload)} bytes exceeds MAX_PAYLOAD={MAX_PAYLOAD}")
    body = _HEADER.pack(version, msg_type, seq, timestamp_us, len(payload)) + bytes(payload)
    codec = native_codec.codec
    if codec is not None:
        return codec.wrap(body)
    return cobs_encode_py(body + _CRC.pack(crc32c_py(body))) + b"\x00"


def encode_frame(frame: Frame) -> bytes:
    """``COBS(header + payload + crc) + b"\\x00"``; ``ProtocolError`` if a field is out of range."""
    if frame.msg_type not in _MSG_TYPES:
        raise ProtocolError(f"unknown message type {frame.msg_type!r}")
    return encode_raw_frame(int(frame.msg_type), frame.seq, frame.timestamp_us, frame.payload)


def seq_gap(previous: int, current: int) -> int:
    """Frames lost between two received sequence numbers (0 when consecutive), mod 2**32."""
    return (current - previous - 1) % SEQ_MODULUS


# --- stream decoder ------------------------------------------------------------------


@dataclass
class DecoderStats:
    """What a ``FrameDecoder`` has seen.

    Every non-empty run of bytes between two delimiters either becomes a frame
    (``frames``) or is dropped and counted in exactly one error counter, the first
    that applies in this order: ``oversize`` (run longer than
    ``cobs_max_encoded(max_frame)``), ``cobs_errors``, ``oversize`` (decoded frame
    longer than ``max_frame``), ``length_errors`` (shorter than header + CRC),
    ``crc_errors``, ``version_errors``, ``length_errors`` (declared payload length
    disagrees with the frame), ``type_errors``.  ``bytes_discarded`` counts every
    non-delimiter byte of the dropped runs (and of a partial frame dropped by
    ``reset``).  Empty runs (0x00 0x00) are idle fill and count nowhere.
    """

    frames: int = 0
    crc_errors: int = 0
    length_errors: int = 0
    cobs_errors: int = 0
    version_errors: int = 0
    type_errors: int = 0
    oversize: int = 0
    bytes_discarded: int = 0

    @property
    def frames_dropped(self) -> int:
        """Runs dropped for any reason (the sum of the six error counters)."""
        return (
            self.crc_errors
            + self.length_errors
            + self.cobs_errors
            + self.version_errors
            + self.type_errors
            + self.oversize
        )

    def as_dict(self) -> dict[str, int]:
        """The counters by name, plus ``frames_dropped`` (for JSON logs)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["frames_dropped"] = self.frames_dropped
        return out


_STAT_FIELDS = tuple(f.name for f in fields(DecoderStats))  # the C counters' order too


def add_wrapped(stats: object, names: tuple[str, ...], now: tuple[int, ...],
                seen: tuple[int, ...]) -> None:
    """Add to ``stats`` what uint32 C counters moved by since ``seen`` (they wrap)."""
    for name, a, b in zip(names, now, seen, strict=True):
        if a != b:
            setattr(stats, name, getattr(stats, name) + ((a - b) & 0xFFFF_FFFF))


class FrameDecoder:
    """Bounded, resynchronising stream decoder: bytes in, valid frames out.

    ``max_frame`` is the largest accepted frame before COBS (header + payload + CRC,
    ``MIN_FRAME..MAX_FRAME``).  At most ``cobs_max_encoded(max_frame)`` bytes are held
    between calls; a longer run is counted ``oversize`` once and everything up to the
    next delimiter is discarded.  ``feed`` never raises on any input.

    ``native``: None (default) decodes in C when the compiled codec is in use, True
    insists on C (``ProtocolError`` if it is not built), False runs the pure-Python
    reference.  Both give the same frames and the same counters for any input.
    """

    __slots__ = ("max_frame", "_max_encoded", "_pending", "_skipping", "stats", "_c", "_c_seen")

    def __init__(self, max_frame: int = MAX_FRAME, *, native: bool | None = None) -> None:
        if not MIN_FRAME <= max_frame <= MAX_FRAME:
            raise ProtocolError(f"max_frame {max_frame} outside {MIN_FRAME}..{MAX_FRAME}")
        self.max_frame = max_frame
        self._max_encoded = cobs_max_encoded(max_frame)
        self._pending = bytearray()
        self._skipping = False
        self.stats = DecoderStats()
        codec = native_codec.codec if native is None else None
        if native:
            codec = native_codec.compiled_codec()
            if codec is None:
                raise ProtocolError(f"C codec not built: {native_codec.native_error()}")
        self._c = None if codec is None else native_codec.NativeDecoder(codec, max_frame)
        self._c_seen = (0,) * len(_STAT_FIELDS)

    @property
    def native(self) -> bool:
        """True when this decoder runs the C codec."""
        return self._c is not None

    @property
    def pending(self) -> int:
        """Bytes of an unfinished frame held since the last delimiter."""
        return len(self._pending) if self._c is None else self._c.pending

    def reset(self) -> None:
        """Forget any unfinished frame (e.g. after a reconnect); its bytes count as discarded."""
        if self._c is not None:
            self._c.reset()
            self._c_counts()
            return
        self.stats.bytes_discarded += len(self._pending)
        self._pending = bytearray()
        self._skipping = False

    def feed(self, data: bytes | bytearray | memoryview) -> list[Frame]:
        """Consume ``data``; return the frames it completes, in order."""
        c = self._c
        if c is not None:
            raw = c.feed(data)
            self._c_counts()
            types = _MSG_TYPES
            return [Frame(types[t], seq, ts, payload) for t, seq, ts, payload in raw]
        return self._feed_py(data)

    def _c_counts(self) -> None:
        """Add what the C counters moved by since the last look (they wrap at 2**32)."""
        assert self._c is not None
        now = self._c.stats()
        seen = self._c_seen
        if now != seen:
            stats = self.stats
            if now[1:] == seen[1:]:  # the usual case: frames only
                stats.frames += (now[0] - seen[0]) & 0xFFFF_FFFF
                self._c_seen = now
                return
            add_wrapped(stats, _STAT_FIELDS, now, seen)
            self._c_seen = now

    def _feed_py(self, data: bytes | bytearray | memoryview) -> list[Frame]:
        """The reference decoder: ``bytes.find`` for delimiters, ``_decode_run`` per run."""
        stats = self.stats
        buf: bytes | bytearray = bytes(data)
        if self._skipping:
            i = buf.find(0)
            if i < 0:
                stats.bytes_discarded += len(buf)
                return []
            stats.bytes_discarded += i
            self._skipping = False
            buf = buf[i:]  # keep the delimiter: it ends the skipped run
        if self._pending:  # grows in place: feeding byte by byte stays linear
            self._pending += buf
            buf = self._pending
        frames: list[Frame] = []
        limit = self._max_encoded
        find = buf.find
        start = 0
        while True:
            end = find(0, start)
            if end < 0:
                break
            if end > start:
                if end - start > limit:
                    stats.oversize += 1
                    stats.bytes_discarded += end - start
                else:
                    frame = self._decode_run(buf[start:end])
                    if frame is not None:
                        frames.append(frame)
            start = end + 1
        rest = len(buf) - start
        if rest > limit:
            stats.oversize += 1
            stats.bytes_discarded += rest
            self._skipping = True
            self._pending = bytearray()
        elif start == 0 and type(buf) is bytearray:
            self._pending = buf
        else:
            self._pending = bytearray(buf[start:])
        return frames

    def _decode_run(self, run: bytes | bytearray) -> Frame | None:
        """One run between delimiters (non-empty, within the limit) -> frame or None."""
        stats = self.stats
        try:
            raw = decode_in_place(run if type(run) is bytearray else bytearray(run))
        except CobsError:
            stats.cobs_errors += 1
            stats.bytes_discarded += len(run)
            return None
        n = len(raw)
        if n > self.max_frame:
            stats.oversize += 1
        elif n < MIN_FRAME:
            stats.length_errors += 1
        elif crc32c_py(raw[: n - CRC_SIZE]) != _CRC.unpack_from(raw, n - CRC_SIZE)[0]:
            stats.crc_errors += 1
        else:
            version, mtype, seq, ts, plen = _HEADER.unpack_from(raw)
            msg_type = _MSG_TYPES.get(mtype)
            if version != PROTOCOL_VERSION:
                stats.version_errors += 1
            elif plen != n - MIN_FRAME:
                stats.length_errors += 1
            elif msg_type is None:
                stats.type_errors += 1
            else:
                stats.frames += 1
                return Frame(msg_type, seq, ts, raw[HEADER_SIZE : n - CRC_SIZE].tobytes())
        stats.bytes_discarded += len(run)
        return None


# --- payloads ------------------------------------------------------------------------


@dataclass(frozen=True)
class Advisory:
    """A rule raised or cleared, with the channel values that decided it."""

    event: str  # "raise" | "clear"
    severity: str  # "warning" | "caution" | "advisory"
    rule_id: str
    values: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True)
class BundleInfo:
    """The bundle the runtime is serving (sent at start-up and after every reload)."""

    bundle_id: str
    format_version: int
    digest: bytes  # 32 bytes: the bundle payload's raw SHA-256


@dataclass(frozen=True)
class SensorFault:
    """A channel whose value cannot be used, and why."""

    channel: int
    reason: FaultReason


@dataclass(frozen=True)
class Heartbeat:
    """Liveness and counters of the sender."""

    uptime_ms: int
    frames_ok: int
    frames_dropped: int
    advisories: int


Message: TypeAlias = dict[int, float] | Advisory | Heartbeat | BundleInfo | SensorFault

_pair_structs: dict[int, struct.Struct] = {}


def _pairs_struct(count: int) -> struct.Struct:
    s = _pair_structs.get(count)
    if s is None:
        s = _pair_structs[count] = struct.Struct("<" + "Hd" * count)
    return s


def _is_channel(ch: object) -> bool:
    return (type(ch) is int or (isinstance(ch, int) and not isinstance(ch, bool))) and (
        0 <= ch <= 0xFFFF
    )


def _encode_pairs(values: Mapping[int, float], what: str) -> bytes:
    """count u16 + (channel u16, value f64) pairs in ascending channel order."""
    try:
        channels = sorted(values)
    except TypeError as exc:
        raise ProtocolError(f"{what}: channels must be integers ({exc})") from None
    n = len(channels)
    if n > MAX_CHANNELS:
        raise ProtocolError(f"{what}: {n} channels, at most {MAX_CHANNELS} fit a frame")
    if not all(map(_is_channel, channels)):
        bad = next(ch for ch in channels if not _is_channel(ch))
        raise ProtocolError(f"{what}: channel {bad!r} is not an integer in 0..65535")
    flat = [x for ch in channels for x in (ch, values[ch])]
    try:
        return _U16.pack(n) + _pairs_struct(n).pack(*flat)
    except struct.error as exc:  # a value that is not a real number (str, None, ...)
        raise ProtocolError(f"{what}: values must be real numbers ({exc})") from None


def _decode_pairs(payload: bytes, offset: int, what: str) -> dict[int, float]:
    """Inverse of ``_encode_pairs``; the pairs must end the payload exactly."""
    n = len(payload)
    if n < offset + 2:
        raise ProtocolError(f"{what}: truncated before the value count at offset {offset}")
    count = payload[offset] | payload[offset + 1] << 8
    need = offset + 2 + _PAIR_SIZE * count
    if count > MAX_CHANNELS or n != need:
        raise ProtocolError(f"{what}: {count} values need {need} bytes, payload has {n}")
    if not count:
        return {}
    flat = _pairs_struct(count).unpack_from(payload, offset + 2)
    channels = flat[0::2]
    if not all(map(operator.lt, channels, channels[1:])):
        raise ProtocolError(f"{what}: channels not strictly ascending: {list(channels)}")
    return dict(zip(channels, flat[1::2], strict=False))  # equal lengths by construction


def _check_payload(payload: bytes, what: str) -> None:
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError(f"{what}: {len(payload)} bytes exceeds MAX_PAYLOAD={MAX_PAYLOAD}")


def _encode_text(text: str, what: str) -> bytes:
    if not isinstance(text, str) or not text:
        raise ProtocolError(f"{what} must be a non-empty string, not {text!r}")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # lone surrogates
        raise ProtocolError(f"{what} is not encodable as UTF-8: {exc}") from None


def _decode_text(raw: bytes, what: str) -> str:
    if not raw:
        raise ProtocolError(f"{what} is empty")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"{what} is not valid UTF-8: {exc}") from None


def encode_telemetry(values: Mapping[int, float]) -> bytes:
    """TELEMETRY payload: count u16, then (channel u16, value f64) pairs, channels ascending."""
    payload = _encode_pairs(values, "telemetry")
    _check_payload(payload, "telemetry")
    return payload


def decode_telemetry(payload: bytes) -> dict[int, float]:
    """Inverse of ``encode_telemetry``; values are bit-exact (NaN payloads, -0.0 kept)."""
    _check_payload(payload, "telemetry")
    return _decode_pairs(payload, 0, "telemetry")


def encode_advisory(adv: Advisory) -> bytes:
    """ADVISORY payload: event u8, severity u8, id length u16, id UTF-8, then values."""
    return encode_advisory_values(advisory_head(adv.event, adv.severity, adv.rule_id),
                                  adv.values)


def advisory_head(event: str, severity: str, rule_id: str) -> bytes:
    """The fixed start of an ADVISORY payload (event, severity, rule id), checked.

    A sender that raises and clears the same rules can keep these and pay only for
    the values (``encode_advisory_values``).
    """
    event_code = EVENT_CODES.get(event)
    severity_code = SEVERITY_CODES.get(severity)
    if event_code is None:
        raise ProtocolError(f"advisory event {event!r} is not 'raise' or 'clear'")
    if severity_code is None:
        raise ProtocolError(
            f"advisory severity {severity!r} is not one of {list(SEVERITY_CODES)}"
        )
    rule_id_bytes = _encode_text(rule_id, "advisory rule_id")
    return _ADVISORY_HEAD.pack(event_code, severity_code, len(rule_id_bytes) & 0xFFFF) + (
        rule_id_bytes)


def encode_advisory_values(head: bytes, values: Mapping[int, float]) -> bytes:
    """A whole ADVISORY payload from its ``advisory_head`` and the values by channel."""
    payload = head + _encode_pairs(values, "advisory")
    _check_payload(payload, "advisory")
    return payload


def decode_advisory(payload: bytes) -> Advisory:
    """Inverse of ``encode_advisory``."""
    _check_payload(payload, "advisory")
    if len(payload) < _ADVISORY_HEAD.size:
        raise ProtocolError(f"advisory: {len(payload)} bytes, the fixed part alone is 4")
    event, severity, id_len = _ADVISORY_HEAD.unpack_from(payload)
    if event not in _EVENT_NAMES:
        raise ProtocolError(f"advisory: unknown event code {event}")
    if severity not in _SEVERITY_NAMES:
        raise ProtocolError(f"advisory: unknown severity code {severity}")
    end = 4 + id_len
    if end > len(payload):
        raise ProtocolError(f"advisory: rule id of {id_len} bytes runs past the payload")
    rule_id = _decode_text(bytes(payload[4:end]), "advisory rule_id")
    values = _decode_pairs(payload, end, "advisory")
    return Advisory(_EVENT_NAMES[event], _SEVERITY_NAMES[severity], rule_id, values)


def encode_heartbeat(hb: Heartbeat) -> bytes:
    """HEARTBEAT payload: uptime_ms, frames_ok, frames_dropped, advisories, each u64."""
    nums = (hb.uptime_ms, hb.frames_ok, hb.frames_dropped, hb.advisories)
    names = ("uptime_ms", "frames_ok", "frames_dropped", "advisories")
    for name, v in zip(names, nums, strict=True):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 1 << 64:
            raise ProtocolError(f"heartbeat {name} {v!r} is not an integer in 0..2**64-1")
    return _HEARTBEAT.pack(*nums)


def decode_heartbeat(payload: bytes) -> Heartbeat:
    """Inverse of ``encode_heartbeat``; exactly 32 bytes."""
    if len(payload) != _HEARTBEAT.size:
        raise ProtocolError(f"heartbeat: {len(payload)} bytes, must be {_HEARTBEAT.size}")
    return Heartbeat(*_HEARTBEAT.unpack(payload))


def encode_bundle_info(info: BundleInfo) -> bytes:
    """BUNDLE_INFO payload: format version u16, digest 32 bytes, id length u16, id UTF-8."""
    fv = info.format_version
    if not isinstance(fv, int) or isinstance(fv, bool) or not 0 <= fv <= 0xFFFF:
        raise ProtocolError(f"bundle format_version {fv!r} is not an integer in 0..65535")
    if not isinstance(info.digest, bytes | bytearray) or len(info.digest) != 32:
        raise ProtocolError(f"bundle digest must be 32 raw bytes, not {info.digest!r}")
    bundle_id = _encode_text(info.bundle_id, "bundle_id")
    payload = _BUNDLE_HEAD.pack(fv, bytes(info.digest), len(bundle_id) & 0xFFFF) + bundle_id
    _check_payload(payload, "bundle info")
    return payload


def decode_bundle_info(payload: bytes) -> BundleInfo:
    """Inverse of ``encode_bundle_info``."""
    _check_payload(payload, "bundle info")
    if len(payload) < _BUNDLE_HEAD.size:
        raise ProtocolError(f"bundle info: {len(payload)} bytes, the fixed part alone is 36")
    fv, digest, id_len = _BUNDLE_HEAD.unpack_from(payload)
    if len(payload) != _BUNDLE_HEAD.size + id_len:
        raise ProtocolError(
            f"bundle info: id of {id_len} bytes needs {36 + id_len} bytes, payload has "
            f"{len(payload)}"
        )
    return BundleInfo(_decode_text(bytes(payload[36:]), "bundle_id"), fv, digest)


def encode_sensor_fault(fault: SensorFault) -> bytes:
    """SENSOR_FAULT payload: channel u16, reason u8."""
    ch = fault.channel
    if not isinstance(ch, int) or isinstance(ch, bool) or not 0 <= ch <= 0xFFFF:
        raise ProtocolError(f"sensor fault channel {ch!r} is not an integer in 0..65535")
    if fault.reason not in _FAULT_REASONS:
        raise ProtocolError(f"unknown sensor fault reason {fault.reason!r}")
    return _SENSOR_FAULT.pack(ch, int(fault.reason))


def decode_sensor_fault(payload: bytes) -> SensorFault:
    """Inverse of ``encode_sensor_fault``; exactly 3 bytes."""
    if len(payload) != _SENSOR_FAULT.size:
        raise ProtocolError(f"sensor fault: {len(payload)} bytes, must be 3")
    ch, reason = _SENSOR_FAULT.unpack(payload)
    r = _FAULT_REASONS.get(reason)
    if r is None:
        raise ProtocolError(f"sensor fault: unknown reason code {reason}")
    return SensorFault(ch, r)


def fault_reason_for(value: float, lo: float, hi: float) -> FaultReason | None:
    """The reason a finite-range channel's value is unusable, or None when it is usable."""
    if math.isnan(value):
        return FaultReason.NAN
    if math.isinf(value):
        return FaultReason.INFINITE
    if value < lo:
        return FaultReason.BELOW_RANGE
    if value > hi:
        return FaultReason.ABOVE_RANGE
    return None


# --- typed messages ------------------------------------------------------------------


def encode_message(message: Message | Mapping[int, float], seq: int, timestamp_us: int) -> bytes:
    """A complete wire frame for a typed message (a mapping is TELEMETRY)."""
    if isinstance(message, Advisory):
        mtype, payload = MsgType.ADVISORY, encode_advisory(message)
    elif isinstance(message, Heartbeat):
        mtype, payload = MsgType.HEARTBEAT, encode_heartbeat(message)
    elif isinstance(message, BundleInfo):
        mtype, payload = MsgType.BUNDLE_INFO, encode_bundle_info(message)
    elif isinstance(message, SensorFault):
        mtype, payload = MsgType.SENSOR_FAULT, encode_sensor_fault(message)
    elif isinstance(message, Mapping):
        mtype, payload = MsgType.TELEMETRY, encode_telemetry(message)
    else:
        raise ProtocolError(f"not a protocol message: {type(message).__name__}")
    return encode_raw_frame(mtype, seq, timestamp_us, payload)


def decode_message(frame: Frame) -> Message:
    """The typed message of a frame; ``ProtocolError`` if its payload is malformed."""
    return _DECODERS[frame.msg_type](frame.payload)


_DECODERS: dict[MsgType, Callable[[bytes], Message]] = {
    MsgType.TELEMETRY: decode_telemetry,
    MsgType.ADVISORY: decode_advisory,
    MsgType.HEARTBEAT: decode_heartbeat,
    MsgType.BUNDLE_INFO: decode_bundle_info,
    MsgType.SENSOR_FAULT: decode_sensor_fault,
}
