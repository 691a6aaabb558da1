"""`rulec-onboard --input-format ccsds` end to end: space packets built by the independent
``spacepackets`` library go over real TCP and UDP sockets on 127.0.0.1 into the daemon
(run in-process on a thread, configured from a TOML file); advisories come back as
ADVISORY frames, corrupt packets are counted and never raise anything."""

from __future__ import annotations

import socket
import struct
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from spacepackets.ccsds.spacepacket import PacketType, SpacePacket, SpacePacketHeader

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.readers.ccsds import crc16_ccitt
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.daemon.command import main
from rulec.runtime.daemon.config import build_config, read_config_file
from rulec.runtime.daemon.loop import Daemon, EventLog
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[2]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"

CONFIG = """
bundle = "engine.rulec"
input_format = "ccsds"
summary_s = 0.0
heartbeat_s = 0.0
reload_poll_s = 0.0
read_timeout_s = 0.02

[ccsds]
time_code = "cuc"          # CUC 4+2 right after the primary header
crc = true                 # CRC-16-CCITT in the last two octets

[[ccsds.packet]]
apid = 0x64
fields = [
  { channel = 0, type = ">f4", offset = 0 },               # chamber_temperature, degC
  { channel = 1, type = ">i2", offset = 4, scale = 0.1 },  # chamber_pressure, 0.1 psi
]
"""


@pytest.fixture(scope="module")
def bundle_bytes() -> bytes:
    return encode_bundle(build_payload(collect_rules([ROCKET]), ROCKET.name))


@pytest.fixture
def config_path(tmp_path: Path, bundle_bytes: bytes) -> Path:
    write_bundle_file(tmp_path / "engine.rulec", bundle_bytes)
    path = tmp_path / "onboard.toml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def rule_ids(bundle_bytes: bytes, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    path = tmp_path_factory.mktemp("ids") / "b.rulec"
    write_bundle_file(path, bundle_bytes)
    rules = Engine.from_file(str(path)).bundle.rules
    find = {"coolant": "exceeds 600 °C", "emergency": "exceeds 950 °C", "vent": "exceeds 320 psi"}
    return {k: next(r.id for r in rules if v in r.source["text"]) for k, v in find.items()}


def packet(seq: int, temp: float, press: float, t_s: float) -> bytes:
    """APID 0x64 telemetry, built by spacepackets; CUC time and CRC trailer appended by hand."""
    sec = struct.pack(">IH", int(t_s), int(t_s % 1 * 65536))
    user = struct.pack(">fh", temp, round(press * 10)) + b"\0\0"
    header = SpacePacketHeader(PacketType.TM, 0x64, seq, len(sec) + len(user) - 1, True)
    raw = bytes(SpacePacket(header, sec, user).pack())
    return raw[:-2] + crc16_ccitt(raw[:-2]).to_bytes(2, "big")


class Sink:
    """The daemon's JSON lines, kept as text; the tests read the records after stop."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def write(self, text: str) -> int:
        self.lines.append(text)
        return len(text)

    def flush(self) -> None:
        pass


@contextmanager
def daemon_from(path: Path, **flags: Any) -> Iterator[Daemon]:
    config = build_config(read_config_file(path), flags)
    daemon = Daemon(config, EventLog("-", stream=Sink()))  # type: ignore[arg-type]
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        yield daemon
    finally:
        daemon.request_stop("test over")
        thread.join(5)
        assert not thread.is_alive()


def advisories(frames: list[wire.Frame]) -> list[tuple[str, str]]:
    out = []
    for f in frames:
        if f.msg_type == wire.MsgType.ADVISORY:
            a = wire.decode_advisory(f.payload)
            out.append((a.event, a.rule_id))
    return out


def collect(sock: socket.socket, until: int, daemon: Daemon, dec: wire.FrameDecoder) -> list:
    """Frames back from the daemon until it has evaluated ``until`` samples and gone quiet."""
    frames: list[wire.Frame] = []
    sock.settimeout(0.05)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            frames += dec.feed(sock.recv(65536))
        except TimeoutError:
            if daemon.counters.total["samples"] >= until:
                break
    return frames


def test_tcp_packets_in_advisories_out_corruption_counted(
    config_path: Path, rule_ids: dict[str, str]
) -> None:
    seqs = [0, 1, 3, 4, 5, 6, 7, 8]  # up to 640 degC; count 2 is the corrupt one
    good = [packet(s, 500.0 + 20 * i, 100.0, 10.0 + i) for i, s in enumerate(seqs)]
    stream = bytearray(good[0] + good[1])
    corrupt = bytearray(packet(2, 990.0, 400.0, 12.0))  # believed, it would raise the emergency
    corrupt[9] ^= 0x04
    stream += corrupt + b"\x55\xaa" * 5  # a CRC failure, then line noise (alignment lost)
    stream += b"".join(good[2:])
    cut = packet(99, 990.0, 400.0, 30.0)
    with daemon_from(config_path, tcp_listen="127.0.0.1:0") as daemon:
        while daemon.link_state != "listening":
            time.sleep(0.01)
        sock = socket.create_connection(daemon.link.address)
        for i in range(0, len(stream), 23):  # arbitrary split writes
            sock.sendall(stream[i : i + 23])
        sock.sendall(cut[:15])  # a packet the connection never finishes
        frames = collect(sock, 8, daemon, wire.FrameDecoder())
        sock.close()
    total = daemon.counters.total
    assert total["samples"] == 8 and total["frames_ok"] == 8
    assert daemon.counters.dropped(total) == {"crc": 1, "version": 1}
    assert total["bytes_discarded"] >= len(corrupt) + 10
    assert advisories(frames) == [("raise", rule_ids["coolant"])]  # 620 degC, never 990
    assert total["frames_missing"] == 1, "sequence count 2 never arrived intact"


def test_udp_one_packet_per_datagram(config_path: Path, rule_ids: dict[str, str]) -> None:
    with daemon_from(config_path, udp_listen="127.0.0.1:0") as daemon:
        while daemon.link_state != "listening":
            time.sleep(0.01)
        address = daemon.link.address
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        sock.sendto(packet(0, 300.0, 330.0, 1.0), address)  # chamber pressure 330 psi: vent
        sock.sendto(packet(1, 990.0, 50.0, 2.0)[:-3], address)  # truncated datagram
        sock.sendto(packet(2, 990.0, 50.0, 2.0) * 2, address)  # two packets in one datagram
        sock.sendto(packet(3, 300.0, 100.0, 3.0), address)  # clears the vent
        frames = collect(sock, 2, daemon, wire.FrameDecoder())
        sock.close()
    assert advisories(frames) == [("raise", rule_ids["vent"]), ("clear", rule_ids["vent"])]
    assert daemon.counters.dropped(daemon.counters.total) == {"length": 2}


def test_bad_mapping_and_missing_table_are_one_line_errors(
    config_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = config_path.with_name("bad.toml")
    bad.write_text(CONFIG.replace('">i2"', '">i3"'), encoding="utf-8")
    assert main(["--config", str(bad), "--tcp-listen", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ccsds.packet[0].fields[1].type" in err
    assert (
        main(["--config", str(config_path), "--input-format", "mavlink", "--tcp-listen", "0"]) == 2
    )
    assert "needs a [mavlink] mapping table" in capsys.readouterr().err
    assert main(["--config", str(config_path), "--stdin", "csv"]) == 2
    assert "not --stdin" in capsys.readouterr().err
