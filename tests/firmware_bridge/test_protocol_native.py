"""The compiled codec (rulec.firmware_bridge._proto) against the pure-Python reference.

Both are called in one process, whatever ``RULEC_PUREPYTHON`` says (it only picks the
default): CRC-32C, COBS, frame encoding and the stream decoder must give the same bytes,
the same frames, the same refusals and the same counters, on the shared vectors and on
hypothesis-generated input, however the stream is split.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_protocol import (
    STAT_NAMES,
    faulty_streams,
    frames_st,
    inject,
    load_vectors,
    split_points,
    stats_dict,
)

from rulec.firmware_bridge import native_codec
from rulec.firmware_bridge.cobs import (
    CobsError,
    cobs_decode,
    cobs_decode_py,
    cobs_encode,
    cobs_encode_py,
)
from rulec.firmware_bridge.crc import crc32c, crc32c_py
from rulec.firmware_bridge.protocol import (
    MAX_FRAME,
    MIN_FRAME,
    Frame,
    FrameDecoder,
    MsgType,
    ProtocolError,
    encode_frame,
    encode_raw_frame,
)

CODEC = native_codec.compiled_codec()
pytestmark = [pytest.mark.compiled, pytest.mark.skipif(
    CODEC is None, reason=f"C codec not built: {native_codec.native_error()}"
)]
SOME_SETTINGS = settings(max_examples=150, deadline=None,
                         suppress_health_check=[HealthCheck.too_slow])

zero_heavy = st.lists(st.sampled_from([0, 0, 1, 0xFE, 0xFF]) | st.integers(0, 255),
                      max_size=1200).map(bytes)
blobs = st.one_of(st.binary(max_size=1200), zero_heavy)


def both_decode(stream_parts: list[bytes], max_frame: int = MAX_FRAME) -> tuple[
    list[Frame], list[Frame], FrameDecoder, FrameDecoder
]:
    c, py = FrameDecoder(max_frame, native=True), FrameDecoder(max_frame, native=False)
    got_c = [f for part in stream_parts for f in c.feed(part)]
    got_py = [f for part in stream_parts for f in py.feed(part)]
    return got_c, got_py, c, py


# --- the switch --------------------------------------------------------------------------


def test_default_follows_the_environment() -> None:
    """RULEC_PUREPYTHON=1 makes every default the reference; otherwise the C codec."""
    code = ("from rulec.firmware_bridge import native_codec as n, crc, cobs, protocol as p; "
            "print(n.NATIVE, crc.crc32c is crc.crc32c_py, p.FrameDecoder().native)")
    for forced, expected in (("1", "False True False"), ("0", "True False True")):
        env = {**os.environ, "RULEC_PUREPYTHON": forced}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                             text=True, timeout=60, check=True).stdout.split()
        assert " ".join(out) == expected
    assert FrameDecoder().native == native_codec.NATIVE


def test_decoder_choice() -> None:
    assert FrameDecoder(native=True).native and not FrameDecoder(native=False).native
    with pytest.raises(ProtocolError):
        FrameDecoder(MIN_FRAME - 1, native=True)


# --- shared vectors ----------------------------------------------------------------------


def test_vectors_crc_and_cobs() -> None:
    assert CODEC is not None
    v = load_vectors()
    for case in v["crc32c"]:
        data = bytes.fromhex(case["data"])
        assert CODEC.crc32c(data) == int(case["crc"], 16) == crc32c_py(data)
    for case in v["cobs"]:
        data, enc = bytes.fromhex(case["data"]), bytes.fromhex(case["encoded"])
        assert CODEC.cobs_encode(data) == enc == cobs_encode_py(data)
        assert CODEC.cobs_decode(enc) == data == cobs_decode_py(enc)


def test_vector_frames_encode_byte_for_byte() -> None:
    for f in load_vectors()["frames"]:
        (frame,) = FrameDecoder(native=False).feed(bytes.fromhex(f["frame"]))
        assert encode_frame(frame).hex() == f["frame"], f["name"]
        (again,) = FrameDecoder(native=True).feed(bytes.fromhex(f["frame"]))
        assert again == frame


@pytest.mark.parametrize("chunk", [1, 5, 64, 4096])
def test_vector_streams_count_alike(chunk: int) -> None:
    for s in load_vectors()["streams"]:
        stream = bytes.fromhex(s["stream"])
        parts = [stream[i : i + chunk] for i in range(0, len(stream), chunk)]
        got_c, got_py, c, py = both_decode(parts, s["max_frame"])
        assert got_c == got_py
        assert [[int(f.msg_type), f.seq, f.timestamp_us, f.payload.hex()] for f in got_c] == (
            s["frames"]
        ), s["name"]
        assert stats_dict(c.stats) == stats_dict(py.stats) == s["stats"], s["name"]


# --- properties ----------------------------------------------------------------------------


@given(blobs, st.integers(0, 2**32 - 1))
@SOME_SETTINGS
def test_crc_identical(data: bytes, start: int) -> None:
    assert CODEC is not None
    assert CODEC.crc32c(data, start) == crc32c_py(data, start)
    assert CODEC.crc32c(memoryview(bytearray(data))) == crc32c_py(data) == crc32c(data)


@given(blobs)
@SOME_SETTINGS
def test_cobs_identical(data: bytes) -> None:
    assert CODEC is not None
    enc = CODEC.cobs_encode(data)
    assert enc == cobs_encode_py(data) == cobs_encode(data)
    assert CODEC.cobs_decode(enc) == data == cobs_decode(enc)


@given(blobs.filter(lambda b: b"\x00" not in b))
@SOME_SETTINGS
def test_cobs_refuses_alike(blob: bytes) -> None:
    assert CODEC is not None
    try:
        expected: bytes | None = cobs_decode_py(blob)
    except CobsError:
        expected = None
    assert CODEC.cobs_decode(blob) == expected
    if expected is None:
        with pytest.raises(CobsError):
            cobs_decode(blob)


@given(st.integers(0, 255), st.integers(0, 255), st.integers(0, 2**32 - 1),
       st.integers(0, 2**64 - 1), st.binary(max_size=1024) | zero_heavy.map(lambda b: b[:1024]))
@SOME_SETTINGS
def test_raw_frames_identical(version: int, msg_type: int, seq: int, ts: int,
                              payload: bytes) -> None:
    """Frame wrapping (any version and type, as tools write bad frames) is byte-identical."""
    assert CODEC is not None
    wire = encode_raw_frame(msg_type, seq, ts, payload, version=version)
    body = wire[:-1]
    raw = cobs_decode_py(body)
    assert crc32c_py(raw[:-4]).to_bytes(4, "little") == raw[-4:]
    assert CODEC.wrap(raw[:-4]) == cobs_encode_py(raw) + b"\x00" == wire


@given(st.lists(frames_st, max_size=8), st.lists(st.integers(0, 10**6), max_size=30))
@SOME_SETTINGS
def test_any_split_same_frames(frames: list[Frame], cuts: list[int]) -> None:
    stream = b"".join(encode_frame(f) for f in frames)
    got_c, got_py, c, py = both_decode(split_points(stream, cuts))
    assert got_c == got_py == frames
    assert c.stats == py.stats and c.pending == py.pending == 0


@given(st.lists(blobs, max_size=8), st.lists(st.integers(0, 10**6), max_size=30),
       st.sampled_from([MIN_FRAME, 60, 300, MAX_FRAME]))
@SOME_SETTINGS
def test_garbage_counts_alike(parts: list[bytes], cuts: list[int], max_frame: int) -> None:
    stream = b"\x00".join(parts)
    got_c, got_py, c, py = both_decode(split_points(stream, cuts), max_frame)
    assert got_c == got_py
    assert c.stats == py.stats and c.pending == py.pending
    c.reset()
    py.reset()
    assert c.stats == py.stats and c.pending == py.pending == 0


@given(faulty_streams(), st.lists(st.integers(0, 10**6), max_size=10))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_injected_faults_count_alike(case: tuple[list[Frame], dict], cuts: list[int]) -> None:
    frames, faults = case
    stream = inject(frames, faults)[0]
    got_c, got_py, c, py = both_decode(split_points(stream, cuts))
    assert got_c == got_py
    assert stats_dict(c.stats) == stats_dict(py.stats)


def test_long_streams_many_frames_per_call() -> None:
    """More frames and payload bytes in one feed than the C side returns per call."""
    rng = random.Random(7)
    frames = [Frame(MsgType.TELEMETRY, i, i, rng.randbytes(rng.choice([0, 10, 1024])))
              for i in range(1500)]
    stream = b"".join(encode_frame(f) for f in frames)
    stream += b"\x41" * 5000 + b"\x00" + rng.randbytes(3000)
    got_c, got_py, c, py = both_decode([stream])
    assert got_c == got_py and len(got_c) == 1500
    assert {n: getattr(c.stats, n) for n in STAT_NAMES} == {
        n: getattr(py.stats, n) for n in STAT_NAMES
    }
    assert c.pending == py.pending
