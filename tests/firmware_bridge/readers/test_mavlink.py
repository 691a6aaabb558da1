"""MAVLink (rulec.firmware_bridge.readers.mavlink) read from frames that pymavlink itself packs:
NAMED_VALUE_FLOAT and message fields to channels, v1 and v2, corrupt and garbage
streams, sequence gaps, the daemon over UDP, and pymavlink imported only when chosen."""

from __future__ import annotations

import io
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pymavlink.dialects.v20 import common as mavlink2

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.readers.mavlink import (
    MavlinkConfigError,
    MavlinkDecoder,
    parse_mavlink_config,
)
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.daemon.config import build_config
from rulec.runtime.daemon.loop import Daemon, EventLog

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
TABLE: dict[str, Any] = {
    "named_values": {"chamb_temp": 0, "chamb_pres": 1},
    "field": [
        {"message": "SCALED_PRESSURE", "field": "press_abs", "channel": 5, "scale": 0.1},
        {"message": "SCALED_PRESSURE", "field": "temperature", "channel": 4, "scale": 0.01},
    ],
}
CONFIG = parse_mavlink_config(TABLE)


class Sender:
    """One MAVLink system packing messages with pymavlink (its sequence numbers included)."""

    def __init__(self, system: int = 1, component: int = 1) -> None:
        self.mav = mavlink2.MAVLink(None, srcSystem=system, srcComponent=component)

    def pack(self, msg: Any, v1: bool = False) -> bytes:
        raw = bytes(msg.pack(self.mav, force_mavlink1=v1))
        self.mav.seq = (self.mav.seq + 1) % 256
        return raw

    def named(self, name: str, value: float, t_ms: int = 0, v1: bool = False) -> bytes:
        return self.pack(mavlink2.MAVLink_named_value_float_message(t_ms, name.encode(), value), v1)

    def pressure(self, press_hpa: float, temp_cdeg: int, t_ms: int = 0) -> bytes:
        return self.pack(mavlink2.MAVLink_scaled_pressure_message(t_ms, press_hpa, 0.0, temp_cdeg))

    def heartbeat(self) -> bytes:
        return self.pack(mavlink2.MAVLink_heartbeat_message(2, 3, 0, 0, 4, 3))


def values(frames: list[wire.Frame]) -> list[dict[int, float]]:
    return [wire.decode_telemetry(f.payload) for f in frames]


def test_named_values_and_fields_in_v1_and_v2() -> None:
    fw = Sender()
    dec = MavlinkDecoder(CONFIG, clock=lambda: 7.0)
    raw = fw.named("chamb_temp", 612.5) + fw.named("chamb_pres", 45.0, v1=True)
    raw += fw.heartbeat() + fw.pressure(2500.0, 1525) + fw.named("other", 1.0)
    frames = dec.feed(raw)
    assert values(frames) == [{0: 612.5}, {1: 45.0}, {5: 250.0, 4: 15.25}]
    assert [f.timestamp_us for f in frames] == [7_000_000] * 3  # reception time by default
    assert dec.stats.packets == 3 and dec.stats.unmapped == 2 and dec.stats.frames_dropped == 0


def test_message_time_and_system_filter() -> None:
    config = parse_mavlink_config({**TABLE, "time": "message", "system_id": 1})
    dec = MavlinkDecoder(config)
    ours, theirs = Sender(1), Sender(2)
    frames = dec.feed(ours.named("chamb_temp", 1.0, t_ms=1500) + theirs.named("chamb_temp", 9.0))
    assert [(f.timestamp_us, wire.decode_telemetry(f.payload)) for f in frames] == [
        (1_500_000, {0: 1.0})
    ]
    assert dec.stats.unmapped == 1


@settings(max_examples=40, deadline=None)
@given(
    items=st.lists(st.floats(width=32, allow_nan=False), min_size=1, max_size=10),
    garbage=st.binary(max_size=100).filter(lambda b: 0xFD not in b and 0xFE not in b),
    data=st.data(),
)
def test_any_chunking_after_garbage_gives_every_value(
    items: list[float], garbage: bytes, data: st.DataObject
) -> None:
    """Bytes before a start marker are skipped; every message after them decodes."""
    fw = Sender()
    raw = garbage + b"".join(fw.named("chamb_temp", x) for x in items)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=6)))
    dec = MavlinkDecoder(CONFIG)
    frames = []
    for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True):
        frames += dec.feed(raw[a:b])
    assert values(frames) == [{0: x} for x in items]
    assert dec.stats.bytes_discarded == len(garbage) and dec.stats.frames_dropped == 0


def test_corrupt_messages_are_counted_never_values() -> None:
    fw = Sender()
    first, bad = fw.named("chamb_temp", 20.0), bytearray(fw.named("chamb_temp", 990.0))
    bad[-5] ^= 0x01  # a payload bit: the CRC no longer matches
    last = fw.named("chamb_temp", 21.0)
    dec = MavlinkDecoder(CONFIG)
    assert values(dec.feed(first + bytes(bad) + last)) == [{0: 20.0}, {0: 21.0}]
    assert dec.stats.crc_errors == 1 and dec.stats.packets_missing == 1


def test_sequence_gaps_duplicates_and_restarts_per_sender() -> None:
    fw, other = Sender(1), Sender(3)
    dec = MavlinkDecoder(CONFIG)
    one = fw.named("chamb_temp", 1.0)
    dec.feed(one + one)  # a repeated write
    assert dec.stats.duplicates == 1
    fw.mav.seq = 250
    dec.feed(fw.named("chamb_temp", 2.0))  # a jump of 250: a restart, not 249 lost messages
    assert dec.stats.seq_restarts == 1 and dec.stats.packets_missing == 0
    fw.mav.seq = 3
    dec.feed(fw.named("chamb_temp", 3.0) + other.named("chamb_temp", 4.0))  # 251..255, 0..2
    assert dec.stats.packets_missing == 8


def test_datagram_mode_drops_a_cut_message() -> None:
    fw = Sender()
    dec = MavlinkDecoder(CONFIG, datagrams=True)
    whole = fw.named("chamb_temp", 5.0)
    assert dec.feed(whole[:10]) == [] and dec.feed(whole[10:]) == []
    assert dec.stats.bytes_discarded >= 10 and dec.pending == 0
    assert values(dec.feed(fw.named("chamb_temp", 6.0))) == [{0: 6.0}]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({}, "maps nothing"),
        ({**TABLE, "time": "gps"}, "mavlink.time"),
        ({**TABLE, "system_id": 300}, "system_id"),
        ({"named_values": {"a_name_too_long": 0}}, "named_values"),
        ({"field": [{"message": "X", "field": "y"}]}, "channel"),
        ({"field": [{**TABLE["field"][0], "scale": "2"}]}, "scale"),
        ({"field": [TABLE["field"][0], TABLE["field"][0]]}, "twice"),
        ({**TABLE, "extra": 1}, "unknown key"),
    ],
)
def test_bad_mappings_name_the_key(table: dict[str, Any], message: str) -> None:
    with pytest.raises(MavlinkConfigError, match=message):
        parse_mavlink_config(table)


def test_fields_are_checked_against_the_dialect() -> None:
    for field, message in (("press_absolute", "press_absolute"), ("press_abs", "NO_SUCH")):
        table = {
            "field": [
                {
                    "message": message if message == "NO_SUCH" else "SCALED_PRESSURE",
                    "field": field,
                    "channel": 0,
                }
            ]
        }
        with pytest.raises(MavlinkConfigError, match=message):
            MavlinkDecoder(parse_mavlink_config(table))
    with pytest.raises(MavlinkConfigError, match="no dialect"):
        MavlinkDecoder(parse_mavlink_config({**TABLE, "dialect": "no_such_dialect"}))


def test_pymavlink_is_imported_only_when_chosen() -> None:
    code = (
        "import sys; import rulec.runtime.daemon.command; "
        "assert 'pymavlink' not in sys.modules; "
        "sys.modules['pymavlink'] = None; "  # as if it were not installed
        "from rulec.firmware_bridge.readers.mavlink import MavlinkDecoder, parse_mavlink_config; "
        "MavlinkDecoder(parse_mavlink_config({'named_values': {'x': 0}}))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert "needs pymavlink: pip install 'rulec[mavlink]'" in proc.stderr


def test_daemon_over_udp(tmp_path: Path) -> None:
    bundle = tmp_path / "engine.rulec"
    write_bundle_file(bundle, encode_bundle(build_payload(collect_rules([ROCKET]), ROCKET.name)))
    flags = {"bundle": str(bundle), "udp_listen": "127.0.0.1:0", "input_format": "mavlink"}
    flags |= {"summary_s": 0.0, "heartbeat_s": 0.0, "read_timeout_s": 0.02}
    config = build_config({"mavlink": {"named_values": {"chamb_temp": 0}}}, flags)
    daemon = Daemon(config, EventLog("-", stream=io.StringIO()))
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        while daemon.link_state != "listening":
            time.sleep(0.01)
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        sock.settimeout(5)
        fw = Sender()
        bad = bytearray(fw.named("chamb_temp", 990.0))
        bad[-3] ^= 0x40
        for raw in (fw.named("chamb_temp", 500.0), bytes(bad), fw.named("chamb_temp", 620.0)):
            sock.sendto(raw, daemon.link.address)
        dec, events = wire.FrameDecoder(), []
        while not events:
            for f in dec.feed(sock.recv(65536)):
                if f.msg_type == wire.MsgType.ADVISORY:
                    events.append(wire.decode_advisory(f.payload))
        sock.close()
    finally:
        daemon.request_stop("test over")
        thread.join(5)
    assert [(a.event, a.values) for a in events] == [("raise", {0: 620.0})]  # never 990
    assert daemon.counters.dropped(daemon.counters.total) == {"crc": 1}
    assert daemon.counters.total["samples"] == 2


def test_a_mask_reads_the_armed_flag_and_an_enum_as_state_indexes() -> None:
    """HEARTBEAT.base_mode bit 7 (MAV_MODE_FLAG_SAFETY_ARMED) as 0/1, and
    EXTENDED_SYS_STATE.landed_state as it is (states listed in its enum's order)."""
    config = parse_mavlink_config({"field": [
        {"message": "HEARTBEAT", "field": "base_mode", "channel": 0, "mask": 128},
        {"message": "EXTENDED_SYS_STATE", "field": "landed_state", "channel": 1},
    ]})
    fw = Sender()
    dec = MavlinkDecoder(config, clock=lambda: 1.0)
    armed = mavlink2.MAVLink_heartbeat_message(2, 3, 128 | 64 | 1, 0, 4, 3)
    disarmed = mavlink2.MAVLink_heartbeat_message(2, 3, 64 | 1, 0, 4, 3)
    in_air = mavlink2.MAVLink_extended_sys_state_message(0, 2)
    frames = dec.feed(fw.pack(armed) + fw.pack(in_air) + fw.pack(disarmed))
    assert values(frames) == [{0: 1.0}, {1: 2.0}, {0: 0.0}]


def test_a_bad_mask_is_refused() -> None:
    with pytest.raises(MavlinkConfigError, match="mask must be an integer"):
        parse_mavlink_config({"field": [
            {"message": "HEARTBEAT", "field": "base_mode", "channel": 0, "mask": 0}]})
