"""Wire protocol (rulec.firmware_bridge.protocol): vectors, round trips, faults, limits.

The shared test vectors (tests/vectors/protocol_vectors.json) are produced by
``generate_vectors`` below; regenerate them only for a deliberate format change:

    python tests/firmware_bridge/test_protocol.py --write-vectors

tests/firmware_bridge/test_protocol_c.py checks the C side against the same file.
"""

from __future__ import annotations

import json
import math
import random
import struct
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulec.firmware_bridge.cobs import (
    CobsError,
    cobs_decode,
    cobs_encode,
    cobs_max_encoded,
)
from rulec.firmware_bridge.crc import CRC32C_CHECK, crc32c, crc32c_bytewise
from rulec.firmware_bridge.protocol import (
    MAX_CHANNELS,
    MAX_FRAME,
    MAX_PAYLOAD,
    MAX_WIRE_FRAME,
    MIN_FRAME,
    PROTOCOL_VERSION,
    Advisory,
    BundleInfo,
    DecoderStats,
    FaultReason,
    Frame,
    FrameDecoder,
    Heartbeat,
    Message,
    MsgType,
    ProtocolError,
    SensorFault,
    decode_advisory,
    decode_bundle_info,
    decode_heartbeat,
    decode_message,
    decode_sensor_fault,
    decode_telemetry,
    encode_advisory,
    encode_bundle_info,
    encode_frame,
    encode_heartbeat,
    encode_message,
    encode_raw_frame,
    encode_sensor_fault,
    encode_telemetry,
    fault_reason_for,
    seq_gap,
)
from rulec.runtime.errors import RulecError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

VECTORS_PATH = Path(__file__).parents[1] / "vectors" / "protocol_vectors.json"
LIMIT = cobs_max_encoded(MAX_FRAME)  # longest run the default decoder holds
STAT_NAMES = (
    "frames",
    "crc_errors",
    "length_errors",
    "cobs_errors",
    "version_errors",
    "type_errors",
    "oversize",
    "bytes_discarded",
)


# --- helpers: f64 bit patterns, messages <-> JSON ----------------------------------


def bits(x: float) -> int:
    return int.from_bytes(struct.pack("<d", x), "little")


def from_bits(b: int) -> float:
    return float(struct.unpack("<d", b.to_bytes(8, "little"))[0])


def same_values(a: dict[int, float], b: dict[int, float]) -> bool:
    """Equal channels and bit-identical values (NaN payloads and -0.0 included)."""
    return sorted(a) == sorted(b) and all(bits(a[k]) == bits(b[k]) for k in a)


def same_message(a: Message, b: Message) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return same_values(a, b)
    if isinstance(a, Advisory) and isinstance(b, Advisory):
        return (a.event, a.severity, a.rule_id) == (b.event, b.severity, b.rule_id) and (
            same_values(a.values, b.values)
        )
    return a == b


def values_to_json(values: dict[int, float]) -> list[list[Any]]:
    return [[ch, f"{bits(v):016x}"] for ch, v in values.items()]


def values_from_json(pairs: Iterable[list[Any]]) -> dict[int, float]:
    return {int(ch): from_bits(int(b, 16)) for ch, b in pairs}


def message_to_json(msg: Message) -> dict[str, Any]:
    if isinstance(msg, dict):
        return {"values": values_to_json(msg)}
    if isinstance(msg, Advisory):
        return {
            "event": msg.event,
            "severity": msg.severity,
            "rule_id": msg.rule_id,
            "values": values_to_json(msg.values),
        }
    if isinstance(msg, Heartbeat):
        return {
            "uptime_ms": msg.uptime_ms,
            "frames_ok": msg.frames_ok,
            "frames_dropped": msg.frames_dropped,
            "advisories": msg.advisories,
        }
    if isinstance(msg, BundleInfo):
        return {
            "bundle_id": msg.bundle_id,
            "format_version": msg.format_version,
            "digest": msg.digest.hex(),
        }
    return {"channel": msg.channel, "reason": msg.reason.name}


def message_from_json(msg_type: str, m: dict[str, Any]) -> Message:
    t = MsgType[msg_type]
    if t is MsgType.TELEMETRY:
        return values_from_json(m["values"])
    if t is MsgType.ADVISORY:
        return Advisory(m["event"], m["severity"], m["rule_id"], values_from_json(m["values"]))
    if t is MsgType.HEARTBEAT:
        return Heartbeat(m["uptime_ms"], m["frames_ok"], m["frames_dropped"], m["advisories"])
    if t is MsgType.BUNDLE_INFO:
        return BundleInfo(m["bundle_id"], m["format_version"], bytes.fromhex(m["digest"]))
    return SensorFault(m["channel"], FaultReason[m["reason"]])


def msg_type_of(msg: Message) -> MsgType:
    return {
        Advisory: MsgType.ADVISORY,
        Heartbeat: MsgType.HEARTBEAT,
        BundleInfo: MsgType.BUNDLE_INFO,
        SensorFault: MsgType.SENSOR_FAULT,
    }.get(type(msg), MsgType.TELEMETRY)


def stats_dict(stats: DecoderStats) -> dict[str, int]:
    return {name: getattr(stats, name) for name in STAT_NAMES}


# --- the shared vectors ----------------------------------------------------------------


def _vector_messages() -> list[tuple[str, int, int, Message]]:
    """(name, seq, timestamp_us, message) for every frame vector."""
    special = {
        0: math.nan,
        1: from_bits(0xFFF8000000000000),  # negative quiet NaN
        2: from_bits(0x7FF4000000000001),  # signalling NaN with a payload
        3: math.inf,
        4: -math.inf,
        5: -0.0,
        6: 0.0,
        7: 5e-324,  # smallest subnormal
        8: 1.7976931348623157e308,
        9: -2.2250738585072014e-308,
    }
    engine = {0: 2750.0, 1: 41.5, 2: 612.25, 3: 19.0, 4: 0.87, 7: -12.5}
    return [
        ("telemetry_empty", 0, 0, {}),
        ("telemetry_one", 1, 1_000, {3: 100.0}),
        ("telemetry_engine", 2, 1_700_000_123_456, engine),
        ("telemetry_special_floats", 3, 2_000, special),
        ("telemetry_high_channels", 4, 3_000, {255: 1.0, 256: 2.0, 65534: -1.0, 65535: 1e-9}),
        (
            "telemetry_max_channels",
            5,
            4_000,
            {ch: ch * 0.5 - 7 for ch in range(MAX_CHANNELS)},
        ),
        ("telemetry_seq_and_time_max", 2**32 - 1, 2**64 - 1, {1: 1.5}),
        (
            "advisory_raise_warning",
            10,
            5_000,
            Advisory("raise", "warning", "ENG-OIL-PRESS-LOW", {2: 19.0, 5: 2750.0}),
        ),
        ("advisory_clear_caution", 11, 6_000, Advisory("clear", "caution", "R-001", {})),
        (
            "advisory_unicode_id",
            12,
            7_000,
            Advisory("raise", "advisory", "Temp\u00e9rature \u2265 40 \u00b0C", {0: 40.5}),
        ),
        ("heartbeat_zero", 20, 8_000, Heartbeat(0, 0, 0, 0)),
        ("heartbeat_max", 21, 9_000, Heartbeat(2**64 - 1, 123_456_789, 42, 2**63)),
        (
            "bundle_info",
            30,
            10_000,
            BundleInfo("3f9a0c1d", 1, bytes.fromhex("354822" + "89" * 29)),
        ),
        (
            "bundle_info_max_payload",  # 1024-byte payload; long nonzero runs: 255 blocks
            31,
            11_000,
            BundleInfo("a1" * 494, 65535, bytes(range(1, 33))),
        ),
        *(
            (f"sensor_fault_{r.name.lower()}", 40 + r, 12_000 + r, SensorFault(int(r), r))
            for r in FaultReason
        ),
        ("sensor_fault_channel_max", 47, 13_000, SensorFault(65535, FaultReason.STALE)),
    ]


def _cobs_cases() -> list[bytes]:
    return [
        b"",
        b"\x00",
        b"\x00\x00",
        b"\x11\x22\x00\x33",
        b"\x11\x00",
        bytes(range(1, 254)),  # 253 nonzero
        bytes(range(1, 255)),  # 254 nonzero: one 255 block, nothing after it
        bytes(range(1, 256)),  # 255 nonzero
        bytes(range(1, 255)) + b"\x00",
        bytes(range(1, 255)) * 2,
        bytes(range(256)) * 2,
    ]


def _bad_streams() -> list[dict[str, Any]]:
    """Named streams of good and corrupt frames with the counter each must move."""
    good = [
        encode_message({1: 2.5, 4: -1.0}, 100, 1_000),
        encode_message(Heartbeat(5, 6, 7, 8), 101, 2_000),
        encode_message(SensorFault(9, FaultReason.NAN), 102, 3_000),
    ]

    def raw_frame(head: bytes, payload: bytes, crc_ok: bool = True) -> bytes:
        body = head + payload
        crc = crc32c(body) ^ (0 if crc_ok else 1)
        return cobs_encode(body + crc.to_bytes(4, "little")) + b"\x00"

    def code_positions(wire: bytes) -> set[int]:
        found, at = set(), 0
        while at < len(wire) - 1:
            found.add(at)
            at += wire[at]
        return found | {len(wire) - 1}

    codes = code_positions(good[0])
    flip_at = next(i for i in range(24, len(good[0]) - 1) if i not in codes)
    # cut the heartbeat at a block boundary (COBS still valid: the CRC catches it) and
    # inside a block (the last block runs past the end: a COBS error)
    hb_codes = code_positions(good[1])
    cut_at_block = max(c for c in hb_codes if c < 40)
    cut_in_block = next(i for i in range(cut_at_block + 1, 60) if i not in hb_codes)
    flipped = bytearray(good[0])
    flipped[flip_at] ^= 0x10  # a data byte, not a COBS code byte: only the CRC can tell
    assert flipped[flip_at] != 0
    wrong_len_head = struct.pack("<BBIQH", 1, 1, 7, 7, 5)  # says 5, carries 4
    right_len_head = struct.pack("<BBIQH", 1, 1, 7, 7, 4)
    big = encode_message({c: 1.0 for c in range(5)}, 7, 7)  # 72 bytes before COBS
    # 301 bytes before COBS, 302 after (zeros, no 255 block): within the run limit of a
    # max_frame=300 decoder (302), refused only once decoded
    long_raw = encode_raw_frame(1, 7, 7, bytes(281))
    cases: list[tuple[str, bytes, str, int]] = [
        ("crc_error_bit_flip", bytes(flipped), "crc_errors", MAX_FRAME),
        ("crc_error_bad_check", raw_frame(right_len_head, b"abcd", False), "crc_errors",
         MAX_FRAME),
        ("version_2", encode_raw_frame(1, 7, 7, b"\x00\x00", version=2), "version_errors",
         MAX_FRAME),
        ("unknown_type_9", encode_raw_frame(9, 7, 7, b"xyz"), "type_errors", MAX_FRAME),
        ("unknown_type_0", encode_raw_frame(0, 7, 7, b""), "type_errors", MAX_FRAME),
        ("length_field_wrong", raw_frame(wrong_len_head, b"abcd"), "length_errors", MAX_FRAME),
        ("too_short", cobs_encode(bytes(range(1, 12))) + b"\x00", "length_errors", MAX_FRAME),
        ("truncated_at_block_end", good[1][:cut_at_block] + b"\x00", "crc_errors", MAX_FRAME),
        ("truncated_in_block", good[1][:cut_in_block] + b"\x00", "cobs_errors", MAX_FRAME),
        ("cobs_runs_past_end", b"\x09\x01\x02\x00", "cobs_errors", MAX_FRAME),
        ("cobs_noncanonical", cobs_encode(bytes(range(1, 255))) + b"\x01\x00", "cobs_errors",
         MAX_FRAME),
        ("oversize_run", b"\x41" * (LIMIT + 1) + b"\x00", "oversize", MAX_FRAME),
        ("oversize_for_small_decoder", big, "oversize", 60),
        ("oversize_after_decoding", long_raw, "oversize", 300),
    ]
    out = []
    for name, bad, counter, max_frame in cases:
        stream = b"\x00" + good[0] + bad + good[1] + b"\x00\x00" + good[2]
        dec = FrameDecoder(max_frame)
        frames = dec.feed(stream)
        stats = stats_dict(dec.stats)
        assert stats["frames"] == 3 and stats[counter] == 1, (name, stats)
        assert dec.stats.frames_dropped == 1, (name, stats)
        out.append(
            {
                "name": name,
                "counter": counter,
                "max_frame": max_frame,
                "stream": stream.hex(),
                "frames": [
                    [int(f.msg_type), f.seq, f.timestamp_us, f.payload.hex()] for f in frames
                ],
                "stats": stats,
            }
        )
    return out


def generate_vectors() -> dict[str, Any]:
    """The whole vector file, deterministically (the Python encoder is the generator)."""
    frames = []
    for name, seq, ts, msg in _vector_messages():
        payload_frame = encode_message(msg, seq, ts)
        frame = FrameDecoder().feed(payload_frame)[0]
        frames.append(
            {
                "name": name,
                "msg_type": msg_type_of(msg).name,
                "seq": seq,
                "timestamp_us": ts,
                "message": message_to_json(msg),
                "payload": frame.payload.hex(),
                "frame": payload_frame.hex(),
            }
        )
    return {
        "description": (
            "rulec wire protocol v1 test vectors (docs/protocol.md). Frames are the full "
            "wire bytes, COBS-encoded, delimiter included. f64 values are given as the 16 "
            "hex digits of their IEEE-754 bit pattern. Generated by "
            # The generator's path when v1 was frozen: the vectors stay byte for byte.
            "tests/test_protocol.py:generate_vectors."
        ),
        "protocol_version": PROTOCOL_VERSION,
        "crc": "CRC-32C (Castagnoli): poly 0x1EDC6F41 reflected, init/xorout 0xFFFFFFFF",
        "crc32c": [
            {"data": d.hex(), "crc": f"{crc32c(d):08x}"}
            for d in (b"", b"123456789", bytes(32), bytes(range(256)))
        ],
        "cobs": [{"data": d.hex(), "encoded": cobs_encode(d).hex()} for d in _cobs_cases()],
        "frames": frames,
        "streams": _bad_streams(),
    }


def load_vectors() -> dict[str, Any]:
    return dict(json.loads(VECTORS_PATH.read_text(encoding="utf-8")))


def write_vectors() -> None:
    VECTORS_PATH.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(generate_vectors(), indent=1, ensure_ascii=False) + "\n"
    VECTORS_PATH.write_text(text, encoding="utf-8")


def test_vectors_file_is_reproduced_exactly() -> None:
    assert VECTORS_PATH.exists(), (
        "run: python tests/firmware_bridge/test_protocol.py --write-vectors")
    assert load_vectors() == generate_vectors()


def test_vectors_cover_every_type_and_enough_cases() -> None:
    v = load_vectors()
    assert {f["msg_type"] for f in v["frames"]} == {t.name for t in MsgType}
    assert len(v["frames"]) >= 20 and len(v["streams"]) >= 10
    assert {s["counter"] for s in v["streams"]} == set(STAT_NAMES[1:7])


def test_vector_frames_decode_to_their_fields() -> None:
    for case in load_vectors()["frames"]:
        wire = bytes.fromhex(case["frame"])
        assert wire.endswith(b"\x00") and b"\x00" not in wire[:-1]
        assert len(wire) <= MAX_WIRE_FRAME
        (frame,) = FrameDecoder().feed(wire)
        assert frame.msg_type.name == case["msg_type"]
        assert (frame.seq, frame.timestamp_us) == (case["seq"], case["timestamp_us"])
        assert frame.payload.hex() == case["payload"]
        expected = message_from_json(case["msg_type"], case["message"])
        assert same_message(decode_message(frame), expected), case["name"]
        assert encode_frame(frame) == wire


def test_vector_crc_and_cobs() -> None:
    v = load_vectors()
    for c in v["crc32c"]:
        assert crc32c(bytes.fromhex(c["data"])) == int(c["crc"], 16)
    for c in v["cobs"]:
        assert cobs_encode(bytes.fromhex(c["data"])).hex() == c["encoded"]
        assert cobs_decode(bytes.fromhex(c["encoded"])).hex() == c["data"]


def test_vector_streams_split_anywhere() -> None:
    for case in load_vectors()["streams"]:
        stream = bytes.fromhex(case["stream"])
        for chunk in (1, 3, 64, len(stream)):
            dec = FrameDecoder(case["max_frame"])
            frames = [
                f for i in range(0, len(stream), chunk) for f in dec.feed(stream[i : i + chunk])
            ]
            got = [[int(f.msg_type), f.seq, f.timestamp_us, f.payload.hex()] for f in frames]
            assert got == case["frames"], case["name"]
            assert stats_dict(dec.stats) == case["stats"], case["name"]


# --- CRC and COBS ------------------------------------------------------------------------


def crc_reference(data: bytes) -> int:
    """Bit at a time, straight from the CRC catalogue parameters."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
    return crc ^ 0xFFFFFFFF


def cobs_reference(data: bytes) -> bytes:
    """Cheshire and Baker's encoder, byte by byte (the well-known C loop)."""
    out = bytearray([0])
    code_at, code = 0, 1
    for i, b in enumerate(data):
        if b:
            out.append(b)
            code += 1
        if not b or code == 0xFF:
            out[code_at] = code
            code, code_at = 1, len(out)
            if not b or i != len(data) - 1:
                out.append(0)
    if code_at < len(out):
        out[code_at] = code
    return bytes(out)


def test_crc_check_value() -> None:
    assert crc32c(b"123456789") == CRC32C_CHECK == 0xE3069283
    assert crc32c(b"") == 0
    assert crc32c(b"6789", crc32c(b"12345")) == CRC32C_CHECK


@given(st.binary(max_size=600), st.integers(0, 600))
def test_crc_matches_reference_and_chains(data: bytes, cut: int) -> None:
    assert crc32c(data) == crc_reference(data) == crc32c_bytewise(data)
    assert crc32c(data[cut:], crc32c(data[:cut])) == crc32c(data)
    assert crc32c(memoryview(bytearray(data))) == crc32c(data)


zero_heavy = st.lists(st.sampled_from([0, 0, 0, 1, 0xFF]), max_size=700).map(bytes)
long_runs = st.lists(
    st.tuples(st.integers(0, 600), st.integers(1, 255)), max_size=4
).map(lambda runs: b"\x00".join(bytes([v]) * n for n, v in runs))


@given(st.one_of(st.binary(max_size=1200), zero_heavy, long_runs))
@settings(max_examples=400)
def test_cobs_round_trip(data: bytes) -> None:
    enc = cobs_encode(data)
    assert b"\x00" not in enc
    assert len(enc) <= cobs_max_encoded(len(data))
    assert enc == cobs_reference(data)
    assert cobs_decode(enc) == data


@pytest.mark.parametrize("n", [253, 254, 255, 507, 508, 509])
def test_cobs_run_lengths_at_block_boundaries(n: int) -> None:
    for data in (b"\x07" * n, b"\x07" * n + b"\x00", b"\x00" + b"\x07" * n):
        assert cobs_encode(data) == cobs_reference(data)
        assert cobs_decode(cobs_encode(data)) == data


@given(st.binary(min_size=0, max_size=300))
def test_cobs_decode_accepts_only_canonical_encodings(blob: bytes) -> None:
    try:
        data = cobs_decode(blob)
    except CobsError:
        return
    assert cobs_encode(data) == blob


def test_cobs_errors() -> None:
    for bad in (b"", b"\x00", b"\x03\x01", b"\x02\x00", cobs_encode(b"\x07" * 254) + b"\x01"):
        with pytest.raises(CobsError):
            cobs_decode(bad)
    assert issubclass(CobsError, RulecError) and issubclass(CobsError, ValueError)


# --- frames ----------------------------------------------------------------------------


def test_header_layout_by_hand() -> None:
    payload = b"\x01\x02"
    body = bytes([1, 3]) + (7).to_bytes(4, "little") + (9).to_bytes(8, "little")
    body += len(payload).to_bytes(2, "little") + payload
    expected = cobs_reference(body + crc_reference(body).to_bytes(4, "little")) + b"\x00"
    assert encode_raw_frame(3, 7, 9, payload) == expected
    assert encode_frame(Frame(MsgType.HEARTBEAT, 7, 9, payload)) == expected


def test_limits_n_and_n_plus_one() -> None:
    frame = Frame(MsgType.TELEMETRY, 0, 0, b"\x01" * MAX_PAYLOAD)
    wire = encode_frame(frame)
    assert len(wire) <= MAX_WIRE_FRAME
    assert FrameDecoder().feed(wire) == [frame]
    with pytest.raises(ProtocolError):
        encode_frame(Frame(MsgType.TELEMETRY, 0, 0, b"\x01" * (MAX_PAYLOAD + 1)))
    # the worst case (no zero anywhere) is exactly MAX_WIRE_FRAME long
    assert MAX_WIRE_FRAME == MAX_FRAME + MAX_FRAME // 254 + 2 == 1050
    # decoder max_frame: a frame of exactly max_frame passes, one byte more is oversize
    small = encode_frame(Frame(MsgType.TELEMETRY, 1, 1, b"\x05" * 10))  # 30 bytes raw
    assert FrameDecoder(30).feed(small)[0].payload == b"\x05" * 10
    dec = FrameDecoder(29)
    assert dec.feed(small) == [] and dec.stats.oversize == 1
    with pytest.raises(ProtocolError):
        FrameDecoder(MIN_FRAME - 1)
    with pytest.raises(ProtocolError):
        FrameDecoder(MAX_FRAME + 1)


def test_run_length_limit_n_and_n_plus_one() -> None:
    for chunk in (1, 100, LIMIT + 10):
        dec = FrameDecoder()
        junk = b"\x41" * LIMIT + b"\x00"  # exactly the limit: decoded (and refused)
        for i in range(0, len(junk), chunk):
            dec.feed(junk[i : i + chunk])
        assert dec.stats.oversize == 0 and dec.stats.frames_dropped == 1
        junk = b"\x41" * (LIMIT + 1) + b"\x00"
        for i in range(0, len(junk), chunk):
            dec.feed(junk[i : i + chunk])
        assert dec.stats.oversize == 1 and dec.stats.frames_dropped == 2
        assert dec.stats.bytes_discarded == 2 * LIMIT + 1


def test_encode_frame_refuses_out_of_range_fields() -> None:
    for bad in (
        Frame(MsgType.TELEMETRY, -1, 0, b""),
        Frame(MsgType.TELEMETRY, 2**32, 0, b""),
        Frame(MsgType.TELEMETRY, 0, -1, b""),
        Frame(MsgType.TELEMETRY, 0, 2**64, b""),
        Frame(9, 0, 0, b""),
    ):
        with pytest.raises(ProtocolError):
            encode_frame(bad)
    assert issubclass(ProtocolError, RulecError) and issubclass(ProtocolError, ValueError)


def test_seq_gap_wraps() -> None:
    assert seq_gap(5, 6) == 0
    assert seq_gap(5, 9) == 3
    assert seq_gap(2**32 - 1, 0) == 0
    assert seq_gap(2**32 - 2, 1) == 2


frames_st = st.builds(
    Frame,
    st.sampled_from(list(MsgType)),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**64 - 1),
    st.one_of(st.binary(max_size=MAX_PAYLOAD), zero_heavy.map(lambda b: b[:MAX_PAYLOAD])),
)


@given(frames_st)
def test_frame_round_trip(frame: Frame) -> None:
    wire = encode_frame(frame)
    assert wire[-1] == 0 and b"\x00" not in wire[:-1] and len(wire) <= MAX_WIRE_FRAME
    dec = FrameDecoder()
    assert dec.feed(wire) == [frame]
    assert dec.stats.frames == 1 and dec.stats.frames_dropped == 0 and dec.pending == 0


def split_points(stream: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(stream) + 1) for c in cuts})
    edges = [0, *points, len(stream)]
    return [stream[a:b] for a, b in zip(edges, edges[1:], strict=False)]


@given(st.lists(frames_st, max_size=8), st.lists(st.integers(0, 10**6), max_size=30))
def test_any_split_gives_the_same_frames(frames: list[Frame], cuts: list[int]) -> None:
    stream = b"".join(encode_frame(f) for f in frames)
    dec = FrameDecoder()
    got = [f for part in split_points(stream, cuts) for f in dec.feed(part)]
    assert got == frames
    assert dec.stats.frames == len(frames) and dec.stats.frames_dropped == 0


@given(st.lists(st.binary(max_size=1500), max_size=8), st.lists(st.integers(0, 10**6)))
@settings(max_examples=200)
def test_any_split_gives_the_same_stats_on_garbage(parts: list[bytes], cuts: list[int]) -> None:
    stream = b"\x00".join(parts)
    whole = FrameDecoder()
    expected = whole.feed(stream)
    dec = FrameDecoder()
    got = [f for part in split_points(stream, cuts) for f in dec.feed(part)]
    assert got == expected and dec.stats == whole.stats and dec.pending == whole.pending


# --- payloads ----------------------------------------------------------------------------

f64_any = st.integers(0, 2**64 - 1).map(from_bits)
f64_mixed = st.one_of(
    f64_any,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, math.nan, -math.nan, math.inf, -math.inf, 5e-324]),
)
channel_values = st.dictionaries(st.integers(0, 65535), f64_mixed, max_size=MAX_CHANNELS)
text_ids = st.text(
    alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=60
)


@given(channel_values)
def test_telemetry_round_trip_bit_exact(values: dict[int, float]) -> None:
    payload = encode_telemetry(values)
    assert len(payload) == 2 + 10 * len(values) <= MAX_PAYLOAD
    back = decode_telemetry(payload)
    assert list(back) == sorted(values)
    assert all(bits(back[k]) == bits(values[k]) for k in values)
    assert encode_telemetry(back) == payload


@given(
    st.sampled_from(["raise", "clear"]),
    st.sampled_from(["warning", "caution", "advisory"]),
    text_ids,
    st.dictionaries(st.integers(0, 65535), f64_mixed, max_size=20),
)
def test_advisory_round_trip(event: str, severity: str, rule_id: str, values: dict) -> None:
    adv = Advisory(event, severity, rule_id, values)
    payload = encode_advisory(adv)
    back = decode_advisory(payload)
    assert same_message(back, Advisory(event, severity, rule_id, dict(sorted(values.items()))))
    assert encode_advisory(back) == payload


u64 = st.integers(0, 2**64 - 1)


@given(u64, u64, u64, u64)
def test_heartbeat_round_trip(a: int, b: int, c: int, d: int) -> None:
    hb = Heartbeat(a, b, c, d)
    assert decode_heartbeat(encode_heartbeat(hb)) == hb


@given(text_ids, st.integers(0, 65535), st.binary(min_size=32, max_size=32))
def test_bundle_info_round_trip(bundle_id: str, fv: int, digest: bytes) -> None:
    info = BundleInfo(bundle_id, fv, digest)
    assert decode_bundle_info(encode_bundle_info(info)) == info


@given(st.integers(0, 65535), st.sampled_from(list(FaultReason)))
def test_sensor_fault_round_trip(channel: int, reason: FaultReason) -> None:
    fault = SensorFault(channel, reason)
    assert decode_sensor_fault(encode_sensor_fault(fault)) == fault


messages_st = st.one_of(
    channel_values,
    st.builds(
        Advisory,
        st.sampled_from(["raise", "clear"]),
        st.sampled_from(["warning", "caution", "advisory"]),
        text_ids,
        st.dictionaries(st.integers(0, 65535), f64_mixed, max_size=10),
    ),
    st.builds(Heartbeat, u64, u64, u64, u64),
    st.builds(BundleInfo, text_ids, st.integers(0, 65535), st.binary(min_size=32, max_size=32)),
    st.builds(SensorFault, st.integers(0, 65535), st.sampled_from(list(FaultReason))),
)


@given(messages_st, st.integers(0, 2**32 - 1), st.integers(0, 2**64 - 1))
def test_message_through_a_frame(msg: Message, seq: int, ts: int) -> None:
    (frame,) = FrameDecoder().feed(encode_message(msg, seq, ts))
    assert (frame.msg_type, frame.seq, frame.timestamp_us) == (msg_type_of(msg), seq, ts)
    expected = dict(sorted(msg.items())) if isinstance(msg, dict) else msg
    assert same_message(decode_message(frame), expected)


def test_payload_limits_n_and_n_plus_one() -> None:
    full = {ch: 1.0 for ch in range(MAX_CHANNELS)}
    assert len(encode_telemetry(full)) == 2 + 10 * MAX_CHANNELS <= MAX_PAYLOAD
    with pytest.raises(ProtocolError):
        encode_telemetry({**full, MAX_CHANNELS: 1.0})
    longest = "x" * (MAX_PAYLOAD - 36)
    assert len(encode_bundle_info(BundleInfo(longest, 1, bytes(32)))) == MAX_PAYLOAD
    with pytest.raises(ProtocolError):
        encode_bundle_info(BundleInfo(longest + "x", 1, bytes(32)))
    longest = "y" * (MAX_PAYLOAD - 6)
    assert len(encode_advisory(Advisory("raise", "warning", longest, {}))) == MAX_PAYLOAD
    with pytest.raises(ProtocolError):
        encode_advisory(Advisory("raise", "warning", longest + "y", {}))
    with pytest.raises(ProtocolError):  # a valid-looking payload above the limit
        decode_telemetry(b"\x00\x00" + bytes(MAX_PAYLOAD))


@pytest.mark.parametrize(
    "call",
    [
        lambda: encode_telemetry({-1: 1.0}),
        lambda: encode_telemetry({65536: 1.0}),
        lambda: encode_telemetry({True: 1.0}),
        lambda: encode_telemetry({"a": 1.0}),
        lambda: encode_telemetry({1: "1.5"}),
        lambda: encode_telemetry({1: None}),
        lambda: encode_advisory(Advisory("fire", "warning", "R", {})),
        lambda: encode_advisory(Advisory("raise", "fatal", "R", {})),
        lambda: encode_advisory(Advisory("raise", "warning", "", {})),
        lambda: encode_advisory(Advisory("raise", "warning", "\ud800", {})),
        lambda: encode_heartbeat(Heartbeat(-1, 0, 0, 0)),
        lambda: encode_heartbeat(Heartbeat(2**64, 0, 0, 0)),
        lambda: encode_bundle_info(BundleInfo("id", 1, bytes(31))),
        lambda: encode_bundle_info(BundleInfo("id", 70000, bytes(32))),
        lambda: encode_bundle_info(BundleInfo("", 1, bytes(32))),
        lambda: encode_sensor_fault(SensorFault(70000, FaultReason.NAN)),
        lambda: encode_sensor_fault(SensorFault(1, 9)),
        lambda: encode_message(3.5, 0, 0),
    ],
)
def test_encoders_refuse_bad_fields(call: Any) -> None:
    with pytest.raises(ProtocolError):
        call()


def _pairs(*pairs: tuple[int, float]) -> bytes:
    return struct.pack("<H", len(pairs)) + b"".join(struct.pack("<Hd", c, v) for c, v in pairs)


@pytest.mark.parametrize(
    ("decode", "payload"),
    [
        (decode_telemetry, b""),
        (decode_telemetry, b"\x01"),
        (decode_telemetry, _pairs((1, 1.0))[:-1]),  # truncated
        (decode_telemetry, _pairs((1, 1.0)) + b"\x00"),  # trailing byte
        (decode_telemetry, _pairs((2, 1.0), (1, 1.0))),  # descending
        (decode_telemetry, _pairs((2, 1.0), (2, 1.0))),  # duplicate
        (decode_telemetry, struct.pack("<H", 103) + bytes(1030)),  # count above the limit
        (decode_advisory, b"\x01\x01\x00"),
        (decode_advisory, b"\x03\x01\x01\x00R" + _pairs()),  # event 3
        (decode_advisory, b"\x01\x00\x01\x00R" + _pairs()),  # severity 0
        (decode_advisory, b"\x01\x01\x00\x00" + _pairs()),  # empty rule id
        (decode_advisory, b"\x01\x01\x05\x00R" + _pairs()),  # id runs past the end
        (decode_advisory, b"\x01\x01\x02\x00\xc3\x28" + _pairs()),  # invalid UTF-8
        (decode_advisory, b"\x01\x01\x01\x00R"),  # no value count
        (decode_heartbeat, bytes(31)),
        (decode_heartbeat, bytes(33)),
        (decode_bundle_info, bytes(35)),
        (decode_bundle_info, bytes(34) + b"\x02\x00a"),  # id shorter than declared
        (decode_bundle_info, bytes(34) + b"\x00\x00"),  # empty id
        (decode_bundle_info, bytes(34) + b"\x01\x00\xff"),  # invalid UTF-8
        (decode_sensor_fault, b"\x01\x00"),
        (decode_sensor_fault, b"\x01\x00\x08"),  # unknown reason
        (decode_sensor_fault, b"\x01\x00\x00"),
    ],
)
def test_payload_decoders_refuse_malformed(decode: Any, payload: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode(payload)


@given(st.sampled_from(list(MsgType)), st.binary(max_size=200))
@settings(max_examples=400)
def test_payload_decoders_raise_only_protocol_error(msg_type: MsgType, payload: bytes) -> None:
    try:
        msg = decode_message(Frame(msg_type, 0, 0, payload))
    except ProtocolError:
        return
    # whatever decodes re-encodes to the same bytes: one spelling per message
    assert encode_message(msg, 0, 0) == encode_raw_frame(msg_type, 0, 0, payload)


def test_fault_reason_for() -> None:
    assert fault_reason_for(math.nan, 0, 10) is FaultReason.NAN
    assert fault_reason_for(-math.inf, 0, 10) is FaultReason.INFINITE
    assert fault_reason_for(-0.5, 0, 10) is FaultReason.BELOW_RANGE
    assert fault_reason_for(10.5, 0, 10) is FaultReason.ABOVE_RANGE
    assert fault_reason_for(10.0, 0, 10) is None


# --- fault injection -----------------------------------------------------------------
#
# What is counted.  The stream is frames F0..Fn-1, each COBS(...) + 0x00.  Faults hit
# chosen frames, never two neighbours, one fault per frame: flip one bit, drop one byte
# or duplicate one byte, anywhere in the frame's wire bytes including its delimiter.
# From the fault alone (not from the decoder) we know the runs it leaves:
#   - a fault inside the body leaves one bad run, except a flip that turns a byte into
#     0x00, which leaves up to two (the non-empty pieces either side);
#   - a fault that removes the delimiter (flip or drop) merges the frame's run with the
#     next frame's into one bad run (nothing if it was the last frame: pending bytes);
#   - duplicating the delimiter only adds idle fill: nothing is lost.
# The decoder must return exactly the frames not touched (a frame is touched by a
# fault in its own bytes, or by a merge from the previous frame), each equal to the
# original, drop exactly the predicted number of runs and discard exactly their bytes.

fault_st = st.tuples(
    st.sampled_from(["flip", "drop", "dup"]), st.integers(0, 10**6), st.integers(0, 7)
)


@st.composite
def faulty_streams(draw: st.DrawFn) -> tuple[list[Frame], dict[int, tuple[str, int, int]]]:
    frames = draw(st.lists(frames_st.filter(lambda f: len(f.payload) < 300), min_size=1,
                           max_size=12))
    chosen = draw(st.sets(st.integers(0, len(frames) - 1), max_size=len(frames)))
    isolated = sorted(i for i in chosen if i - 1 not in chosen)
    faults = {i: draw(fault_st) for i in isolated}
    return frames, faults


def inject(frames: list[Frame], faults: dict[int, tuple[str, int, int]]) -> tuple[
    bytes, set[int], int, int
]:
    """The corrupted stream, the touched frames, the bad runs and their bytes."""
    wires = [bytearray(encode_frame(f)) for f in frames]
    touched: set[int] = set()
    bad_runs = bad_bytes = 0
    for i, (kind, where, bit) in faults.items():
        w = wires[i]
        pos = where % len(w)
        body = len(w) - 1  # bytes before the delimiter
        touched.add(i)
        if pos == body:  # the delimiter
            if kind == "dup":
                w.insert(pos, 0)
                touched.discard(i)
                continue
            if kind == "flip":
                w[pos] ^= 1 << bit
                merged = body + 1
            else:
                del w[pos]
                merged = body
            if i + 1 < len(frames):
                touched.add(i + 1)
                bad_runs += 1
                bad_bytes += merged + len(wires[i + 1]) - 1
            continue
        if kind == "flip":
            w[pos] ^= 1 << bit
            if w[pos] == 0:
                left, right = pos, body - pos - 1
                bad_runs += (left > 0) + (right > 0)
                bad_bytes += left + right
                continue
            bad_runs += 1
            bad_bytes += body
        elif kind == "drop":
            del w[pos]
            bad_runs += 1
            bad_bytes += body - 1
        else:
            w.insert(pos, w[pos])
            bad_runs += 1
            bad_bytes += body + 1
    return b"".join(wires), touched, bad_runs, bad_bytes


@given(faulty_streams(), st.lists(st.integers(0, 10**6), max_size=10))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fault_injection_counts_exactly(
    case: tuple[list[Frame], dict[int, tuple[str, int, int]]], cuts: list[int]
) -> None:
    frames, faults = case
    stream, touched, bad_runs, bad_bytes = inject(frames, faults)
    dec = FrameDecoder()
    got = [f for part in split_points(stream, cuts) for f in dec.feed(part)]
    intact = [f for i, f in enumerate(frames) if i not in touched]
    assert got == intact  # every untouched frame, in order, and nothing else
    assert dec.stats.frames == len(intact)
    assert dec.stats.frames_dropped == bad_runs
    assert dec.stats.bytes_discarded == bad_bytes
    for i in faults:  # resynchronised by the next untouched frame
        nxt = next((j for j in range(i + 1, len(frames)) if j not in touched), None)
        if nxt is not None:
            assert frames[nxt] in got


def test_fault_injection_bulk_bit_errors() -> None:
    """A long stream with random bit errors at a realistic rate: counters add up."""
    rng = random.Random(7)
    frames = [
        Frame(MsgType.TELEMETRY, i, i * 1000, encode_telemetry({c: rng.uniform(0, 3000)
                                                                for c in range(8)}))
        for i in range(2000)
    ]
    faults = {i: ("flip", rng.randrange(10**6), rng.randrange(8))
              for i in range(0, 2000, 2) if rng.random() < 0.2}
    stream, touched, bad_runs, bad_bytes = inject(frames, faults)
    dec = FrameDecoder()
    got = [f for i in range(0, len(stream), 4096) for f in dec.feed(stream[i : i + 4096])]
    assert got == [f for i, f in enumerate(frames) if i not in touched]
    assert (dec.stats.frames_dropped, dec.stats.bytes_discarded) == (bad_runs, bad_bytes)
    assert dec.stats.crc_errors > 0


# --- bounded memory and fuzzing --------------------------------------------------------


def test_no_delimiter_for_a_megabyte_stays_bounded() -> None:
    rng = random.Random(1)
    junk = rng.randbytes(1_000_000).replace(b"\x00", b"\x01")
    for chunk in (7, 1000, 65536):
        dec = FrameDecoder()
        for i in range(0, len(junk), chunk):
            assert dec.feed(junk[i : i + chunk]) == []
            assert dec.pending <= LIMIT
        assert dec.stats.oversize == 1
        assert dec.stats.bytes_discarded == len(junk)
        good = Frame(MsgType.HEARTBEAT, 1, 2, encode_heartbeat(Heartbeat(1, 2, 3, 4)))
        assert dec.feed(b"\x00" + encode_frame(good)) == [good]
        assert dec.stats.frames_dropped == 1


def test_reset_discards_the_partial_frame() -> None:
    wire = encode_message({1: 1.0}, 3, 4)
    dec = FrameDecoder()
    dec.feed(wire[:10])
    assert dec.pending == 10
    dec.reset()
    assert dec.pending == 0 and dec.stats.bytes_discarded == 10
    assert len(dec.feed(wire)) == 1


def _runs(stream: bytes) -> tuple[list[bytes], bytes]:
    *runs, tail = stream.split(b"\x00")
    return [r for r in runs if r], tail


@given(
    st.lists(
        st.one_of(
            st.binary(max_size=80),
            frames_st.map(encode_frame),
            st.binary(min_size=1, max_size=2500).map(lambda b: b.replace(b"\x00", b"\x01")),
        ),
        max_size=10,
    ),
    st.lists(st.integers(0, 10**6), max_size=20),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_decoder_never_raises_and_accounts_for_every_byte(
    parts: list[bytes], cuts: list[int]
) -> None:
    stream = b"".join(parts)
    dec = FrameDecoder()
    got = [f for part in split_points(stream, cuts) for f in dec.feed(part)]
    runs, tail = _runs(stream)
    skipped_tail = len(tail) > LIMIT  # an unterminated oversize run is already counted
    assert dec.stats.frames == len(got)
    assert dec.stats.frames + dec.stats.frames_dropped == len(runs) + skipped_tail
    frame_bytes = sum(len(encode_frame(f)) - 1 for f in got)
    assert frame_bytes + dec.stats.bytes_discarded == sum(map(len, runs)) + (
        len(tail) if skipped_tail else 0
    )
    assert dec.pending == (0 if skipped_tail else len(tail))
    for f in got:  # anything returned is a well-formed frame
        assert encode_frame(f) in stream


@given(st.binary(max_size=3000))
@settings(max_examples=500)
def test_fuzz_raw_bytes(data: bytes) -> None:
    dec = FrameDecoder()
    dec.feed(data)
    dec.feed(b"\x00")
    assert dec.pending == 0


def test_stats_as_dict() -> None:
    dec = FrameDecoder()
    dec.feed(b"\x05\x01\x00")
    d = dec.stats.as_dict()
    assert d["cobs_errors"] == 1 and d["frames_dropped"] == 1 and d["bytes_discarded"] == 2


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-vectors"]:
        write_vectors()
        print(f"wrote {VECTORS_PATH}")
    else:
        print(__doc__)
