"""Oracle for the frame decoder: any byte stream, the Python and (optionally) C codecs.

Beyond "no crash", for every input:
- ``FrameDecoder.feed`` never raises, and feeding the stream in one call or in pieces
  gives the same frames, counters and held bytes;
- every frame re-encodes to exactly a run of the stream (canonical COBS), in order;
- a payload either decodes or raises ``ProtocolError``; a decoded message re-encodes
  to the same frame;
- the pure-Python COBS decoder raises only ``CobsError``, and what it decodes
  re-encodes to its input;
- the project's default decoder (C when its codec is built) and the pure-Python
  reference agree; with a ``CCodec`` (csrc/rulec_proto.c built here): frames,
  counters, held bytes, COBS, CRC-32C and every payload decode agree between Python
  and C.
"""

from __future__ import annotations

import inspect
import struct
from typing import Any

from rulec.firmware_bridge import cobs as _cobs
from rulec.firmware_bridge import crc as _crc
from rulec.firmware_bridge.cobs import CobsError, cobs_max_encoded
from rulec.firmware_bridge.protocol import (
    MAX_FRAME,
    MIN_FRAME,
    Advisory,
    BundleInfo,
    Frame,
    FrameDecoder,
    Heartbeat,
    ProtocolError,
    SensorFault,
    decode_message,
    encode_frame,
    encode_message,
)

from .c_codec import CCodec
from .failure import OracleFailure, expect

# The pure-Python reference, whether or not the protocol module can also run in C.
_HAS_BACKENDS = "native" in inspect.signature(FrameDecoder).parameters
cobs_decode_ref = getattr(_cobs, "cobs_decode_py", _cobs.cobs_decode)
cobs_encode_ref = getattr(_cobs, "cobs_encode_py", _cobs.cobs_encode)
crc32c_ref = getattr(_crc, "crc32c_py", _crc.crc32c)


def reference_decoder(max_frame: int) -> FrameDecoder:
    """A ``FrameDecoder`` that runs the pure-Python reference loop."""
    return FrameDecoder(max_frame, native=False) if _HAS_BACKENDS else FrameDecoder(max_frame)


_SEVERITY = {"warning": 1, "caution": 2, "advisory": 3}
_EVENT = {"raise": 1, "clear": 2}


def stream_of(data: bytes) -> tuple[bytes, int]:
    """The byte stream an input stands for, and the decoder's max_frame.

    The last byte picks the mode (the same rule as fuzz/c/frame_decoder.c).  Raw: the
    input is the stream, decoded with max_frame 1044 (last byte 0 or >= 0x40) or a
    smaller one (1..0x3F).  Framed (>= 0xC0): the input is a list of [u16 length]
    [frame body]; each body gets its CRC-32C, COBS and a delimiter here, so mutated
    headers and payloads get past the CRC.
    """
    last = data[-1] if data else 0
    max_frame = MIN_FRAME + last * 16 if 1 <= last < 0x40 else MAX_FRAME
    if last < 0xC0:
        return data, max_frame
    out = bytearray()
    i, n = 0, len(data) - 1
    while i < n:
        size = data[i] | (data[i + 1] << 8 if i + 1 < n else 0)
        i += 2 if i + 1 < n else 1
        body = data[i : i + size % MAX_FRAME]
        i += len(body)
        if len(out) + cobs_max_encoded(len(body) + 4) + 1 > 16384:
            break
        out += cobs_encode_ref(body + struct.pack("<I", crc32c_ref(body))) + b"\x00"
    return bytes(out), max_frame


def _bits(x: float) -> int:
    return int(struct.unpack("<Q", struct.pack("<d", x))[0])


def _pairs(values: dict[int, float]) -> tuple[tuple[int, int], ...]:
    return tuple((ch, _bits(v)) for ch, v in sorted(values.items()))


def plain_message(message: Any) -> tuple[Any, ...]:
    """A decoded message as the tuple ``CCodec.decode_payload`` returns."""
    if isinstance(message, dict):
        return ("telemetry", _pairs(message))
    if isinstance(message, Advisory):
        return (
            "advisory", _EVENT[message.event], _SEVERITY[message.severity], message.rule_id,
            _pairs(message.values),
        )
    if isinstance(message, Heartbeat):
        return (
            "heartbeat", message.uptime_ms, message.frames_ok, message.frames_dropped,
            message.advisories,
        )
    if isinstance(message, BundleInfo):
        return ("bundle_info", message.format_version, bytes(message.digest), message.bundle_id)
    if isinstance(message, SensorFault):
        return ("sensor_fault", message.channel, int(message.reason))
    raise OracleFailure(f"decode_message returned {type(message).__name__}")


def _chunks(data: bytes) -> list[bytes]:
    """The stream cut in up to four pieces at places its last bytes decide."""
    n = len(data)
    cuts = sorted({0, n, *(b * n // 256 for b in data[-3:])})
    return [data[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


def _frame_tuple(f: Frame) -> tuple[int, int, int, bytes]:
    return (int(f.msg_type), f.seq, f.timestamp_us, f.payload)


def _same_decoders(a: FrameDecoder, b: FrameDecoder, what: str) -> None:
    expect(a.stats == b.stats, f"{what}: counters differ: {a.stats} != {b.stats}")
    expect(a.pending == b.pending, f"{what}: held bytes differ: {a.pending} != {b.pending}")


def check_frames(data: bytes, codec: CCodec | None = None) -> None:
    """Run every frame-decoder oracle on ``data``; raise ``OracleFailure`` on a breach."""
    data, max_frame = stream_of(bytes(data))
    whole = reference_decoder(max_frame)
    frames = whole.feed(data)
    expect(whole.pending <= cobs_max_encoded(max_frame), f"holds {whole.pending} bytes")
    pieces = reference_decoder(max_frame)
    split = [f for chunk in _chunks(data) for f in pieces.feed(chunk)]
    expect(split == frames, "frames differ when the stream is fed in pieces")
    _same_decoders(pieces, whole, "fed in pieces")
    if _HAS_BACKENDS:
        default = FrameDecoder(max_frame)
        if getattr(default, "native", False):
            expect(default.feed(data) == frames, "the C-backed decoder gives other frames")
            _same_decoders(default, whole, "C-backed decoder")

    # Each frame re-encodes to a complete run of the stream, in stream order.
    runs = iter(data.split(b"\x00")[:-1])
    messages: list[tuple[Any, ...] | None] = []
    for f in frames:
        wire = encode_frame(f)
        expect(any(run + b"\x00" == wire for run in runs), f"frame does not re-encode: {f!r}")
        try:
            message = decode_message(f)
        except ProtocolError:
            messages.append(None)
            continue
        messages.append(plain_message(message))
        again = encode_message(message, f.seq, f.timestamp_us)
        expect(again == wire, f"message does not re-encode: {f!r}")

    try:
        raw: bytes | None = cobs_decode_ref(data)
    except CobsError:
        raw = None
    if raw is not None:
        expect(cobs_encode_ref(raw) == data, "COBS decode does not re-encode to its input")

    if codec is None:
        return
    c = codec.decode_stream(data, max_frame)
    expect(c.frames == [_frame_tuple(f) for f in frames], "C and Python frames differ")
    expect(c.stats == {k: v for k, v in whole.stats.as_dict().items() if k in c.stats},
           f"C and Python counters differ: {c.stats} != {whole.stats}")
    expect(c.pending == whole.pending, "C and Python hold different byte counts")
    for f, mine in zip(frames, messages, strict=True):
        theirs = codec.decode_payload(int(f.msg_type), f.payload)
        expect(theirs == mine, f"C and Python read a payload differently: {theirs} != {mine}")
    expect(codec.cobs_decode(data) == raw, "C and Python COBS decoders disagree")
    head = data[:64]
    expect(codec.crc32c(head) == crc32c_ref(head), "C and Python CRC-32C differ")
