"""CCSDS space packets (rulec.firmware_bridge.readers.ccsds) read from packets that the
independent ``spacepackets`` library builds: header fields, mapping, time codes, PUS-C
with CRC, stream resynchronisation, datagrams, and every drop counter."""

from __future__ import annotations

import random
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from spacepackets.ccsds.spacepacket import (
    PacketType,
    SequenceFlags,
    SpacePacket,
    SpacePacketHeader,
)
from spacepackets.ccsds.time import CdsShortTimestamp
from spacepackets.ecss.tm import PusTm

from rulec.firmware_bridge.protocol import Frame, MsgType, decode_telemetry
from rulec.firmware_bridge.readers.ccsds import (
    CcsdsConfigError,
    CcsdsDecoder,
    crc16_ccitt,
    cuc_pfield,
    parse_ccsds_config,
    parse_primary_header,
)

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

FIELDS_100 = [
    {"channel": 0, "type": ">f4", "offset": 0},
    {"channel": 1, "type": ">i2", "offset": 4, "scale": 0.1},
    {"channel": 2, "type": "u1", "offset": 6, "bias": -40},
]
FIELDS_200 = [
    {"channel": 3, "type": ">f8", "offset": 0},
    {"channel": 4, "type": "<u4", "offset": 8},
]
CUC_TABLE: dict[str, Any] = {
    "time_code": "cuc",
    "packet": [{"apid": 100, "fields": FIELDS_100}, {"apid": 200, "fields": FIELDS_200}],
}
CUC = parse_ccsds_config(CUC_TABLE)
CUC_CRC = parse_ccsds_config({**CUC_TABLE, "crc": True})


def cuc(t_us: int) -> bytes:
    """CUC 4+2 T-field, written by hand: spacepackets has no CUC encoder."""
    coarse, rest = divmod(t_us, 1_000_000)
    return struct.pack(">IH", coarse, (rest << 16) // 1_000_000)


def packet(
    apid: int,
    seq: int,
    user: bytes,
    sec: bytes | None = None,
    *,
    crc: bool = False,
    ptype: PacketType = PacketType.TM,
    flags: SequenceFlags = SequenceFlags.UNSEGMENTED,
) -> bytes:
    """A space packet as spacepackets packs it (plus a CRC-16 trailer when ``crc``)."""
    size = len(sec or b"") + len(user) + (2 if crc else 0)
    header = SpacePacketHeader(
        ptype, apid, seq, data_len=size - 1, sec_header_flag=sec is not None, seq_flags=flags
    )
    raw = bytes(SpacePacket(header, sec, user if not crc else user + b"\0\0").pack())
    if crc:
        raw = raw[:-2] + crc16_ccitt(raw[:-2]).to_bytes(2, "big")
    return raw


def tm100(seq: int, temp: float, press: float, byte: int, t_us: int, crc: bool = False) -> bytes:
    user = struct.pack(">fhB", temp, round(press * 10), byte)
    return packet(100, seq, user, cuc(t_us), crc=crc)


def tm200(seq: int, a: float, b: int, t_us: int, crc: bool = False) -> bytes:
    return packet(200, seq, struct.pack(">d", a) + struct.pack("<I", b), cuc(t_us), crc=crc)


def values(frames: list[Frame]) -> list[dict[int, float]]:
    assert all(f.msg_type is MsgType.TELEMETRY for f in frames)
    return [decode_telemetry(f.payload) for f in frames]


# --------------------------------------------------------------------------- header


@given(
    apid=st.integers(0, 0x7FF),
    seq=st.integers(0, 0x3FFF),
    data_len=st.integers(0, 0xFFFF),
    tc=st.booleans(),
    sec=st.booleans(),
    flags=st.sampled_from(list(SequenceFlags)),
)
def test_primary_header_fields_match_spacepackets(
    apid: int, seq: int, data_len: int, tc: bool, sec: bool, flags: SequenceFlags
) -> None:
    ptype = PacketType.TC if tc else PacketType.TM
    header = SpacePacketHeader(ptype, apid, seq, data_len, sec_header_flag=sec, seq_flags=flags)
    got = parse_primary_header(header.pack())
    assert got == (0, int(tc), sec, apid, int(flags), seq, data_len)
    assert got.packet_length == header.packet_len


# --------------------------------------------------------------------------- mapping


def test_fields_scale_bias_and_cuc_time() -> None:
    dec = CcsdsDecoder(CUC, datagrams=True)
    frames = dec.feed(tm100(7, 612.5, -3.2, 250, 5_500_000))
    frames += dec.feed(tm200(9, -0.125, 0xDEADBEEF, 6_000_015))
    assert values(frames) == [
        {0: 612.5, 1: pytest.approx(-3.2), 2: 210.0},
        {3: -0.125, 4: float(0xDEADBEEF)},
    ]
    # CUC fine time has 2**-16 s resolution: 15 us read back as 0
    assert [f.timestamp_us for f in frames] == [5_500_000, 6_000_000]
    assert [f.seq for f in frames] == [0, 1]
    assert dec.stats.packets == 2 and dec.stats.frames_dropped == 0


def test_pus_c_telemetry_with_cds_time_and_crc() -> None:
    """ECSS PUS-C TM as spacepackets builds it: 7-octet header, then CDS short with P-field."""
    config = parse_ccsds_config(
        {
            "time_code": "cds",
            "time_pfield": True,
            "time_offset": 7,
            "crc": True,
            "packet": [{"apid": 0x42, "fields": [{"channel": 5, "type": ">f8", "offset": 0}]}],
        }
    )
    assert config.secondary_header_bytes == 14
    stamp = CdsShortTimestamp(ccsds_days=2, ms_of_day=1234)
    tm = PusTm(3, 25, stamp.pack(), source_data=struct.pack(">d", 98.25), apid=0x42, seq_count=3)
    raw = bytes(tm.pack())
    dec = CcsdsDecoder(config)
    frames = dec.feed(raw + raw[:6])  # a following header confirms the first packet
    assert values(frames) == [{5: 98.25}]
    assert frames[0].timestamp_us == (2 * 86_400_000 + 1234) * 1000
    bad = bytearray(raw)
    bad[20] ^= 0x10
    dec = CcsdsDecoder(config, datagrams=True)
    assert dec.feed(bytes(bad)) == [] and dec.stats.crc_errors == 1
    wrong_pfield = bytearray(raw)
    wrong_pfield[6 + 7] = cuc_pfield(4, 2)
    wrong_pfield[-2:] = crc16_ccitt(wrong_pfield[:-2]).to_bytes(2, "big")
    assert dec.feed(bytes(wrong_pfield)) == [] and dec.stats.header_errors == 1


def test_reception_time_without_a_time_code() -> None:
    config = parse_ccsds_config(
        {"packet": [{"apid": 5, "fields": [{"channel": 0, "type": ">i4", "offset": 0}]}]}
    )
    clock = iter([12.5, 13.25])
    dec = CcsdsDecoder(config, datagrams=True, clock=lambda: next(clock))
    frames = dec.feed(packet(5, 0, struct.pack(">i", -7))) + dec.feed(packet(5, 1, b"\0\0\0\1"))
    assert [(f.timestamp_us, decode_telemetry(f.payload)) for f in frames] == [
        (12_500_000, {0: -7.0}),
        (13_250_000, {0: 1.0}),
    ]


# --------------------------------------------------------------------------- round trips

sample = st.tuples(
    st.sampled_from([100, 200]),
    st.floats(width=32, allow_nan=False),
    st.integers(-3000, 3000),
    st.integers(0, 255),
)


def build_stream(samples: list[tuple[int, float, int, int]], crc: bool) -> tuple[bytes, list]:
    seqs = {100: 0, 200: 16383}  # 200 wraps its 14-bit count at once
    raw, expected = b"", []
    for i, (apid, x, n, byte) in enumerate(samples):
        seq, seqs[apid] = seqs[apid], (seqs[apid] + 1) % 16384
        t_us = 1_000_000 * i + 500_000
        if apid == 100:
            raw += tm100(seq, x, n / 10, byte, t_us, crc)
            expected.append(({0: x, 1: n * 0.1, 2: byte - 40.0}, t_us))
        else:
            raw += tm200(seq, x, byte * 1000, t_us, crc)
            expected.append(({3: x, 4: float(byte * 1000)}, t_us))
    return raw, expected


def read_all(dec: CcsdsDecoder, raw: bytes, cuts: list[int]) -> list:
    frames: list[Frame] = []
    for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), len(raw)], strict=True):
        frames += dec.feed(raw[a:b])
    return [(decode_telemetry(f.payload), f.timestamp_us) for f in frames]


@settings(max_examples=60, deadline=None)
@given(samples=st.lists(sample, min_size=1, max_size=12), data=st.data())
def test_stream_round_trip_in_any_chunking(samples: list, data: st.DataObject) -> None:
    raw, expected = build_stream(samples, crc=False)
    cuts = data.draw(st.lists(st.integers(0, len(raw)), max_size=8))
    dec = CcsdsDecoder(CUC)
    # the first packet after a start is believed once the next header is seen
    got = read_all(dec, raw + raw[:6], cuts)
    assert got == expected
    assert dec.stats.packets == len(samples) and dec.stats.frames_dropped == 0
    assert dec.stats.packets_missing == 0 and dec.pending == 6


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    samples=st.lists(sample, min_size=1, max_size=6),
    garbage=st.binary(max_size=300),
    data=st.data(),
)
def test_crc_stream_recovers_every_packet_after_any_garbage(
    samples: list, garbage: bytes, data: st.DataObject
) -> None:
    raw, expected = build_stream(samples, crc=True)
    stream = garbage + raw
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=6))
    dec = CcsdsDecoder(CUC_CRC)
    assert read_all(dec, stream, cuts) == expected
    assert dec.stats.bytes_discarded == len(garbage)


# --------------------------------------------------------------------------- corrupt streams


def test_garbage_mid_stream_loses_alignment_then_resynchronises() -> None:
    good = [tm100(i, 500.0 + i, 40.0, 100, i * 1_000_000) for i in range(6)]
    stream = b"".join(good[:3]) + b"\xff" * 37 + b"".join(good[3:])
    dec = CcsdsDecoder(CUC)
    got = values(dec.feed(stream))
    # 0xff can start no packet: alignment is lost once, found again at packet 3
    assert [v[0] for v in got] == [500.0, 501.0, 502.0, 503.0, 504.0, 505.0]
    assert dec.stats.version_errors == 1 and dec.stats.resyncs == 1
    assert dec.stats.bytes_discarded == 37 and dec.pending == 0


def test_truncated_stream_holds_then_discards_on_reset() -> None:
    raw = tm100(0, 1.0, 2.0, 3, 0) + tm100(1, 4.0, 5.0, 6, 0)
    dec = CcsdsDecoder(CUC)
    assert values(dec.feed(raw[:-5])) == [{0: 1.0, 1: 2.0, 2: -37.0}]
    assert dec.pending == len(raw) // 2 - 5
    dec.reset()
    assert dec.stats.bytes_discarded == len(raw) // 2 - 5 and dec.pending == 0


def test_declared_length_beyond_the_limit_is_oversize() -> None:
    config = parse_ccsds_config({**CUC_TABLE, "max_packet_bytes": 64})
    huge = packet(100, 0, bytes(100), cuc(0))
    dec = CcsdsDecoder(config, datagrams=True)
    assert dec.feed(huge) == [] and dec.stats.oversize == 1
    dec = CcsdsDecoder(config)
    ok = [tm100(i, float(i), 0.0, 0, 0) for i in range(4)]
    assert len(dec.feed(ok[0] + ok[1])) == 2  # aligned from here on
    assert [v[0] for v in values(dec.feed(huge + ok[2] + ok[3]))] == [2.0, 3.0]
    assert dec.stats.oversize == 1 and dec.stats.bytes_discarded == len(huge)


@pytest.mark.parametrize(
    ("raw", "counter"),
    [
        (packet(100, 0, bytes(7), cuc(0), ptype=PacketType.TC), "type_errors"),
        (packet(100, 0, bytes(7), cuc(0), flags=SequenceFlags.FIRST_SEGMENT), "header_errors"),
        (packet(100, 0, bytes(13)), "header_errors"),  # no secondary header
        (packet(100, 0, bytes(6), cuc(0)), "length_errors"),  # one octet short of the mapping
        (packet(300, 0, bytes(7), cuc(0)), "unmapped"),
        (packet(0x7FF, 0, b"\x55" * 9), "idle"),
        (packet(100, 0, bytes(7), cuc(0))[:-1], "length_errors"),  # cut datagram
        (packet(100, 0, bytes(7), cuc(0)) * 2, "length_errors"),  # two in one datagram
        (b"\x20" + packet(100, 0, bytes(7), cuc(0))[1:], "version_errors"),
        (b"\x08\x64\xc0", "length_errors"),
    ],
)
def test_each_malformed_datagram_counts_once_and_gives_nothing(raw: bytes, counter: str) -> None:
    dec = CcsdsDecoder(CUC, datagrams=True)
    assert dec.feed(raw) == []
    counts = {k: v for k, v in dec.stats.as_dict().items() if v and k != "bytes_discarded"}
    dropped = {"frames_dropped": 1} if counter not in ("unmapped", "idle") else {}
    assert counts == {counter: 1, **dropped}


def test_sequence_gaps_duplicates_and_restarts() -> None:
    dec = CcsdsDecoder(CUC, datagrams=True)
    sent = [tm100(s, 1.0, 0.0, 0, 0) for s in (16380, 16383, 2, 2)]
    sent[3] = sent[2]  # a repeated packet
    frames = [f for raw in sent for f in dec.feed(raw)]
    assert len(frames) == 3
    assert dec.stats.packets_missing == 2 + 2  # 16381-16382, then 0-1 across the wrap
    assert dec.stats.duplicates == 1
    dec.feed(tm100(1, 2.0, 0.0, 0, 0))  # one step back: reordering, not 16382 lost packets
    assert dec.stats.seq_restarts == 1 and dec.stats.packets_missing == 4
    dec.feed(tm200(0, 1.0, 0, 0))  # another APID keeps its own count
    assert dec.stats.packets_missing == 4


def test_random_garbage_keeps_the_buffer_bounded() -> None:
    rng = random.Random(7)
    dec = CcsdsDecoder(parse_ccsds_config({**CUC_TABLE, "max_packet_bytes": 512}))
    for _ in range(200):
        dec.feed(rng.randbytes(rng.randrange(1, 3000)))
        assert dec.pending <= 512 + 6
    ok = tm100(0, 9.0, 0.0, 0, 0)
    assert {0: 9.0, 1: 0.0, 2: -40.0} in values(dec.feed(b"\xff" * 600 + ok + ok))


# --------------------------------------------------------------------------- config


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({}, "at least one"),
        ({**CUC_TABLE, "time_code": "gps"}, "time_code"),
        ({**CUC_TABLE, "cuc_fine": 4}, "cuc_fine"),
        ({**CUC_TABLE, "secondary_header_bytes": 3}, "secondary_header_bytes"),
        ({**CUC_TABLE, "crc": "yes"}, "crc"),
        ({**CUC_TABLE, "extra": 1}, "unknown key"),
        ({"packet": [{"apid": 2047, "fields": FIELDS_100}]}, "apid"),
        ({"packet": [{"apid": 1, "fields": FIELDS_100}] * 2}, "mapped twice"),
        ({"packet": [{"apid": 1, "fields": []}]}, "fields"),
        ({"packet": [{"apid": 1, "fields": [{"channel": 0, "type": ">f2", "offset": 0}]}]}, "type"),
        ({"packet": [{"apid": 1, "fields": [{"channel": 0, "type": "f4"}]}]}, "offset"),
        ({"packet": [{"apid": 1, "fields": [FIELDS_100[0], FIELDS_100[0]]}]}, "twice"),
        ({"packet": [{"apid": 1, "fields": [{**FIELDS_100[0], "scale": float("nan")}]}]}, "scale"),
        ({"max_packet_bytes": 8, "packet": [{"apid": 1, "fields": FIELDS_100}]}, "max_packet"),
    ],
)
def test_bad_mappings_name_the_key(table: dict[str, Any], message: str) -> None:
    with pytest.raises(CcsdsConfigError, match=message):
        parse_ccsds_config(table)


def test_a_mask_takes_a_state_index_from_a_status_word() -> None:
    """Bits 4-5 of a status octet hold a mode (a discrete parameter's state index); bit 7
    a flag; the rest of the octet is not read."""
    config = parse_ccsds_config({"time_code": "cuc", "packet": [{"apid": 300, "fields": [
        {"channel": 0, "type": "u1", "offset": 0, "mask": 0x30},
        {"channel": 1, "type": "u1", "offset": 0, "mask": 0x80},
        {"channel": 2, "type": ">u2", "offset": 1, "mask": 0x0F00},
    ]}]})
    dec = CcsdsDecoder(config, datagrams=True)
    raw = packet(300, 1, bytes([0b1010_1111]) + (0x0A42).to_bytes(2, "big"), cuc(1_000_000))
    assert values(dec.feed(raw)) == [{0: 2.0, 1: 1.0, 2: 10.0}]


@pytest.mark.parametrize(("field", "piece"), [
    ({"channel": 0, "type": ">f4", "offset": 0, "mask": 1}, "on an integer type"),
    ({"channel": 0, "type": "u1", "offset": 0, "mask": 256}, "mask must be an integer"),
    ({"channel": 0, "type": "u1", "offset": 0, "mask": 0}, "mask must be an integer"),
])
def test_a_bad_mask_is_refused(field: dict[str, Any], piece: str) -> None:
    with pytest.raises(CcsdsConfigError, match=piece):
        parse_ccsds_config({"time_code": "cuc", "packet": [{"apid": 5, "fields": [field]}]})
