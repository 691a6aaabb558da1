"""`rulec-sim` over real loopback parts: pty pairs from ``os.openpty``, TCP and UDP
sockets on 127.0.0.1.  Pacing at a baud rate, frames intact without faults, nothing
corrupt accepted with bit errors, counters equal to what reached the far side, replies
and round trips, link drops, the command line, and the real daemon end to end."""

from __future__ import annotations

import io
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import tty
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from rulec.firmware_bridge import protocol as wire
from rulec.firmware_bridge.sim.command import Printer, main
from rulec.firmware_bridge.sim.errors import SimError
from rulec.firmware_bridge.sim.faults import FaultConfig, FaultInjector, Injected
from rulec.firmware_bridge.sim.player import BITS_PER_BYTE, Reply, Simulator, percentiles
from rulec.firmware_bridge.sim.scenario import (
    ChannelMap,
    Outgoing,
    Scenario,
    load_scenario,
    scenario_frames,
)
from rulec.firmware_bridge.sim.transports import (
    PtyTransport,
    SerialTransport,
    TcpTransport,
    UdpTransport,
)

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
SCENARIO = REPO / "examples" / "scenarios" / "engine_test.csv"


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario(SCENARIO, ChannelMap.from_sensors(ROCKET / "sensors.toml"))


def telemetry(n: int, channels: int = 4) -> list[Outgoing]:
    out = []
    for i in range(n):
        ts = 1_000_000 + 1000 * i
        data = wire.encode_raw_frame(wire.MsgType.TELEMETRY, i, ts, wire.encode_telemetry(
            {ch: float(i * 10 + ch) for ch in range(channels)}))
        out.append(Outgoing(None, ts, data))
    return out


class Recording(FaultInjector):
    """A real injector that also keeps what it did to each frame."""

    def __init__(self, config: FaultConfig) -> None:
        super().__init__(config)
        self.log: list[Injected] = []

    def apply(self, frame: bytes) -> Injected:
        result = super().apply(frame)
        self.log.append(result)
        return result


def intact_frames(results: list[Injected]) -> list[bytes]:
    """The copies a decoder must accept: unchanged and right after a delimiter."""
    out, prev_ends_run = [], True
    for r in results:
        for c in r.copies:
            if c.endswith(b"\x00") and c.rstrip(b"\x00") + b"\x00" == r.original:
                if prev_ends_run:
                    out.append(r.original)
            if c:
                prev_ends_run = c.endswith(b"\x00")
    return out


# --------------------------------------------------------------------------- far ends


class PtyReader:
    """The daemon's side of a pty made by the simulator: records (time, bytes)."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        self.chunks: list[tuple[float, bytes]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if select.select([self.fd], [], [], 0.02)[0]:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                self.chunks.append((time.perf_counter(), data))

    def data(self) -> bytes:
        return b"".join(d for _, d in self.chunks)

    def wait_bytes(self, n: int, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while len(self.data()) < n and time.monotonic() < deadline:
            time.sleep(0.01)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        os.close(self.fd)


def answer(frame: wire.Frame) -> list[bytes]:
    """What the fake daemon sends for a TELEMETRY frame: an ADVISORY with its timestamp."""
    values = wire.decode_telemetry(frame.payload)
    event = "raise" if frame.seq % 2 == 0 else "clear"
    adv = wire.Advisory(event, "caution", f"R-{frame.seq // 2:04d}", {0: values.get(0, 0.0)})
    return [wire.encode_raw_frame(wire.MsgType.ADVISORY, frame.seq, frame.timestamp_us,
                                  wire.encode_advisory(adv))]


BUNDLE_INFO = wire.encode_message(wire.BundleInfo("fake", 1, bytes(32)), 0, 0)


@contextmanager
def fake_daemon(kind: str) -> Iterator[tuple[Callable[[], Any], dict[str, int]]]:
    """A minimal daemon on a pty / TCP / UDP: BUNDLE_INFO on connect, one ADVISORY per
    TELEMETRY frame.  Yields (transport factory, stats)."""
    stats = {"connections": 0, "frames": 0}
    stop = threading.Event()
    threads: list[threading.Thread] = []

    def serve_stream(read: Callable[[], bytes], write: Callable[[bytes], Any], fd: Any) -> None:
        dec = wire.FrameDecoder()
        write(BUNDLE_INFO)
        while not stop.is_set():
            if not select.select([fd], [], [], 0.02)[0]:
                continue
            try:
                data = read()
            except OSError:
                return
            if not data:
                return
            for frame in dec.feed(data):
                stats["frames"] += 1
                try:
                    for out in answer(frame):
                        write(out)
                except OSError:  # the simulator cut the link (a link-drop test)
                    return

    if kind == "pty":
        holder: dict[str, Any] = {}

        def make() -> PtyTransport:
            pty = PtyTransport()
            fd = os.open(pty.path, os.O_RDWR | os.O_NOCTTY)
            tty.setraw(fd)
            holder["fd"] = fd
            stats["connections"] += 1
            t = threading.Thread(target=serve_stream, daemon=True,
                                 args=(lambda: os.read(fd, 65536),
                                       lambda b: os.write(fd, b), fd))
            t.start()
            threads.append(t)
            return pty

        yield make, stats
        stop.set()
        for t in threads:
            t.join(2)
        if "fd" in holder:
            os.close(holder["fd"])
        return

    if kind == "tcp":
        server = socket.create_server(("127.0.0.1", 0))
        port = server.getsockname()[1]

        def accept_loop() -> None:
            server.settimeout(0.05)
            while not stop.is_set():
                try:
                    conn, _ = server.accept()
                except TimeoutError:
                    continue
                except OSError:
                    return
                stats["connections"] += 1
                t = threading.Thread(target=serve_stream, daemon=True,
                                     args=(lambda c=conn: c.recv(65536), conn.sendall, conn))
                t.start()
                threads.append(t)

        acceptor = threading.Thread(target=accept_loop, daemon=True)
        acceptor.start()
        yield (lambda: TcpTransport("127.0.0.1", port, connect_timeout=5)), stats
        stop.set()
        acceptor.join(2)
        for t in threads:
            t.join(2)
        server.close()
        return

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]

    def udp_loop() -> None:
        peers: set[Any] = set()
        while not stop.is_set():
            if not select.select([sock], [], [], 0.02)[0]:
                continue
            data, addr = sock.recvfrom(65536)
            if addr not in peers:
                peers.add(addr)
                stats["connections"] += 1
                sock.sendto(BUNDLE_INFO, addr)
            for frame in wire.FrameDecoder().feed(data):
                stats["frames"] += 1
                for out in answer(frame):
                    sock.sendto(out, addr)

    t = threading.Thread(target=udp_loop, daemon=True)
    t.start()
    yield (lambda: UdpTransport("127.0.0.1", port)), stats
    stop.set()
    t.join(2)
    sock.close()


# --------------------------------------------------------------------------- pacing


@pytest.mark.parametrize("baud, frames", [(115200, 40), (921600, 300)])
def test_pacing_never_faster_than_the_line(baud: int, frames: int) -> None:
    pty = PtyTransport()
    reader = PtyReader(pty.path)
    try:
        sim = Simulator(pty, baud=baud)
        items = telemetry(frames)
        total = sum(len(i.data) for i in items)
        start = time.perf_counter()  # no later than the simulator's own line clock starts
        sim.start_clock()
        sim.play(items)
        reader.wait_bytes(total)
    finally:
        reader.close()
        pty.close()
    rate = baud / BITS_PER_BYTE  # bytes per second on the line
    assert len(reader.data()) == total
    # cumulative bytes never run ahead of what the line could have carried since start
    seen = 0
    for t, data in reader.chunks:
        seen += len(data)
        assert seen <= (t - start) * rate + 1, "bytes arrived faster than the baud rate"
    t_last = reader.chunks[-1][0]
    achieved = total / (t_last - start)
    assert 0.75 * rate < achieved <= rate
    summary = sim.summary()
    assert summary["baud"] == baud and summary["bytes_written"] == total
    assert summary["bytes_per_s"] == pytest.approx(rate, rel=0.25)


def test_unpaced_is_much_faster_than_a_slow_line() -> None:
    pty = PtyTransport()
    reader = PtyReader(pty.path)
    try:
        sim = Simulator(pty)
        items = telemetry(200)
        sim.start_clock()
        started = time.perf_counter()
        sim.play(items)
        elapsed = time.perf_counter() - started
        reader.wait_bytes(sum(len(i.data) for i in items))
    finally:
        reader.close()
        pty.close()
    assert elapsed < 200 * 62 * BITS_PER_BYTE / 115200 / 4


# --------------------------------------------------------------------------- integrity


@pytest.mark.parametrize("split", [False, True])
def test_frames_over_a_pty_arrive_intact(scenario: Scenario, split: bool) -> None:
    pty = PtyTransport()
    reader = PtyReader(pty.path)
    injector = FaultInjector(FaultConfig(split=split, seed=4))
    items = list(scenario_frames(scenario, speed=None))
    try:
        sim = Simulator(pty, injector, baud=None, split_gap_s=0.0005)
        sim.start_clock()
        sim.play(items)
        reader.wait_bytes(sum(len(i.data) for i in items))
    finally:
        reader.close()
        pty.close()
    dec = wire.FrameDecoder()
    got = dec.feed(reader.data())
    assert [wire.encode_frame(f) for f in got] == [i.data for i in items]
    assert dec.stats.frames_dropped == 0 and dec.stats.bytes_discarded == 0
    assert [wire.decode_telemetry(f.payload) for f in got] == [v for _, v in scenario.rows]
    if split:
        assert injector.counters.split_frames == len(items)
        assert len(reader.chunks) > len(items) / 2  # the pieces were separate writes


def test_bit_errors_never_give_a_corrupt_frame(scenario: Scenario) -> None:
    pty = PtyTransport()
    reader = PtyReader(pty.path)
    injector = Recording(FaultConfig(ber=2e-3, split=True, seed=21))
    items = list(scenario_frames(scenario, speed=None, repeat=5))
    try:
        sim = Simulator(pty, injector, baud=None, split_gap_s=0.0)
        sim.start_clock()
        sim.play(items)
        reader.wait_bytes(sim.bytes_written)
    finally:
        reader.close()
        pty.close()
    originals = {i.data for i in items}
    got = [wire.encode_frame(f) for f in wire.FrameDecoder().feed(reader.data())]
    assert set(got) <= originals, "a frame that was never sent was accepted"
    assert got == intact_frames(injector.log), "an intact frame was lost"
    k = injector.counters
    assert k.bits_flipped > 100 and 0 < len(got) < len(items)
    assert k.frames_corrupted == sum(c != r.original for r in injector.log for c in r.copies)


def test_injected_counters_equal_what_reached_the_far_side(scenario: Scenario) -> None:
    pty = PtyTransport()
    reader = PtyReader(pty.path)
    config = FaultConfig(drop_rate=3e-3, dup_rate=2e-3, frame_drop_rate=0.05,
                         frame_dup_rate=0.05, split=True, seed=8)
    items = list(scenario_frames(scenario, speed=None, repeat=4))
    injector = Recording(config)
    try:
        sim = Simulator(pty, injector, baud=None, split_gap_s=0.0)
        sim.start_clock()
        sim.play(items)
        summary = sim.summary()
        reader.wait_bytes(summary["bytes_written"])
        time.sleep(0.05)
    finally:
        reader.close()
        pty.close()
    f = summary["faults"]
    received = len(reader.data())
    assert received == summary["bytes_written"] == f["bytes_sent"]
    assert received == sum(len(c) for r in injector.log for c in r.copies)
    assert f["frames_sent"] == f["frames_in"] - f["frames_dropped"] + f["frames_duplicated"]
    assert f["bytes_dropped"] > 0 and f["bytes_duplicated"] > 0
    assert f["frames_dropped"] > 0 and f["frames_duplicated"] > 0 and f["seed"] == 8
    # the same seed again gives the same counters
    again = FaultInjector(config)
    for item in items:
        for copy in again.apply(item.data).copies:
            again.pieces(copy)
    assert again.counters.as_dict() == {k: v for k, v in f.items()
                                        if k not in ("seed", "frames_lost_link_down")}


# --------------------------------------------------------------------------- replies


@pytest.mark.parametrize("kind", ["pty", "tcp", "udp"])
def test_replies_are_decoded_with_round_trips(kind: str) -> None:
    replies: list[Reply] = []
    with fake_daemon(kind) as (make, stats):
        transport = make()
        try:
            sim = Simulator(transport, on_reply=replies.append)
            if kind != "udp":
                assert sim.wait_for(lambda: sim.bundle_info is not None, 5)
            items = [Outgoing(0.002 * i, o.ts_us, o.data) for i, o in enumerate(telemetry(20))]
            sim.start_clock()
            sim.play(items)
            assert sim.wait_for(lambda: len(sim.rtt_us) == 20, 5)
        finally:
            transport.close()
    assert stats["frames"] == 20
    advisories = [r for r in replies if isinstance(r.message, wire.Advisory)]
    assert len(advisories) == 20 and all(r.rtt_us is not None for r in advisories)
    assert all(0 < x < 1e6 for x in sim.rtt_us)
    assert sim.received["raise"] == sim.received["clear"] == 10
    assert sim.bundle_info is not None and sim.bundle_info.bundle_id == "fake"
    assert not sim.active
    stats_rtt = percentiles(sim.rtt_us)
    assert stats_rtt is not None and stats_rtt["n"] == 20
    assert stats_rtt["p50"] <= stats_rtt["p99"] <= stats_rtt["p99_9"] <= stats_rtt["max"]


def test_serial_url_to_an_existing_pty() -> None:
    """``--serial PATH``: the simulator opens a pty slave made elsewhere with pyserial."""
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    stop = threading.Event()
    opened = threading.Event()

    def far_end() -> None:  # the daemon's side, on the master
        dec = wire.FrameDecoder()
        # pyserial flushes the input when it opens the port: announce only after that.
        opened.wait(5)
        os.write(master, BUNDLE_INFO)
        while not stop.is_set():
            if select.select([master], [], [], 0.02)[0]:
                for frame in dec.feed(os.read(master, 65536)):
                    for out in answer(frame):
                        os.write(master, out)

    thread = threading.Thread(target=far_end, daemon=True)
    thread.start()
    transport = SerialTransport(path, 921600)
    opened.set()
    try:
        sim = Simulator(transport, baud=921600)
        assert sim.wait_for(lambda: sim.bundle_info is not None, 5)
        sim.start_clock()
        sim.play(telemetry(30))
        assert sim.wait_for(lambda: len(sim.rtt_us) == 30, 5)
    finally:
        stop.set()
        thread.join(2)
        transport.close()
        os.close(master)
        os.close(slave)
    assert sim.received["advisory"] == 30 and sim.decoder.stats.frames_dropped == 0


def test_loop_url_hears_its_own_frames() -> None:
    transport = SerialTransport("loop://")
    try:
        sim = Simulator(transport)
        sim.start_clock()
        sim.play(telemetry(25))
        assert sim.wait_for(lambda: sim.received["telemetry"] == 25, 2)
    finally:
        transport.close()
    assert not sim.rtt_us  # our own TELEMETRY frames are not replies


def test_printer_names_channels_and_shows_round_trip() -> None:
    out = io.StringIO()
    printer = Printer({0: "chamber_temperature"}, {"R-1": "vent"}, False, False, out)
    adv = wire.Advisory("raise", "warning", "R-1", {0: 820.0})
    frame = wire.Frame(wire.MsgType.ADVISORY, 3, 16_000_000, wire.encode_advisory(adv))
    printer.reply(Reply(frame, adv, 0.0, 412.0))
    fault = wire.SensorFault(0, wire.FaultReason.STALE)
    printer.reply(Reply(wire.Frame(wire.MsgType.SENSOR_FAULT, 4, 19_000_000,
                                   wire.encode_sensor_fault(fault)), fault, 0.0, None))
    text = out.getvalue()
    assert "RAISE" in text and "chamber_temperature=820" in text and "rtt 0.41 ms" in text
    assert "-> vent" in text and "FAULT  chamber_temperature (channel 0): stale" in text
    out = io.StringIO()
    Printer({0: "chamber_temperature"}, {}, True, False, out).reply(Reply(frame, adv, 0.0, 1.0))
    record = json.loads(out.getvalue())
    assert record["event"] == "raise" and record["values"] == {"chamber_temperature": 820.0}


def test_tcp_link_drops_cut_frames_and_reconnect() -> None:
    with fake_daemon("tcp") as (make, stats):
        transport = make()
        try:
            config = FaultConfig(link_drop_every_s=0.08, link_down_s=0.03, seed=1)
            sim = Simulator(transport, FaultInjector(config))
            assert sim.wait_for(lambda: sim.bundle_info is not None, 5)
            sim.start_clock()
            sim.play([Outgoing(0.005 * i, o.ts_us, o.data)
                      for i, o in enumerate(telemetry(80))])
            sim.drain(0.2)
        finally:
            transport.close()
    k = sim.injector.counters
    assert k.link_drops >= 3
    assert k.frames_truncated == k.link_drops
    assert stats["connections"] == k.link_drops + 1
    assert [s for _, s in sim.link_events] == ["down", "up"] * k.link_drops
    skipped = sim.summary()["faults"]["frames_lost_link_down"]
    # every frame is answered once, or was cut by a drop, or fell in a down window
    assert stats["frames"] + k.frames_truncated + skipped == 80


def test_scenario_mapping_by_bundle_aliases_and_channel_spec(tmp_path: Path) -> None:
    cmap = ChannelMap.from_sensors(ROCKET / "sensors.toml")
    assert cmap.channel_of("LOX tank pressure") == 5 and cmap.channel_of("nope") is None
    csv = tmp_path / "s.csv"
    csv.write_text("time,chamber temperature,mystery\n0,20,1\n1,,2\n", encoding="utf-8")
    sc = load_scenario(csv, cmap)
    assert sc.rows == [(0.0, {0: 20.0}), (1.0, {})] and sc.unmapped == ["mystery"]
    cmap.add_spec("mystery=9")
    assert load_scenario(csv, cmap).rows[1] == (1.0, {9: 2.0})
    with pytest.raises(SimError):
        cmap.add_spec("bad")
    with pytest.raises(SimError):
        load_scenario(csv, ChannelMap())
    frames = list(scenario_frames(sc, speed=2.0, repeat=2))
    assert [f.ready for f in frames] == [0.0, 0.5, 1.0, 1.5]
    assert [f.ts_us for f in frames] == [0, 1_000_000, 2_000_000, 3_000_000]


# --------------------------------------------------------------------------- command line


def test_cli_over_tcp_prints_advisories_and_a_json_summary(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with fake_daemon("tcp") as (make, stats):
        probe = make()
        port = probe.port
        probe.close()
        rc = main([str(SCENARIO), "--sensors", str(ROCKET / "sensors.toml"), "--tcp",
                   str(port), "--as-fast-as-possible", "--baud", "921600", "--json",
                   "--linger-s", "0.3", "--frame-drop-rate", "0.1", "--seed", "5"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rc == 0
    summary = out[-1]
    assert summary["event"] == "summary" and summary["faults"]["seed"] == 5
    dropped = summary["faults"]["frames_dropped"]
    assert 0 < dropped < 40
    assert summary["frames_sent"] == 121 and stats["frames"] == 121 - dropped
    events = [r for r in out if r["event"] in ("raise", "clear")]
    assert len(events) == 121 - dropped and all(r["rtt_us"] is not None for r in events)
    assert any(r["event"] == "bundle_info" for r in out)


def test_cli_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([str(SCENARIO), "--udp", "1"]) == 2
    assert "no telemetry channels" in capsys.readouterr().err
    assert main([str(SCENARIO), "--channels", "x=1", "--udp", "1", "--ber", "2"]) == 2
    assert "ber" in capsys.readouterr().err
    assert main([str(tmp_path / "none.csv"), "--channels", "x=1", "--udp", "1"]) == 2
    assert "cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    for flag in ("--speed", "--as-fast-as-possible", "--baud", "--ber", "--drop-rate",
                 "--dup-rate", "--split", "--link-drop-every", "--seed", "--pty"):
        assert flag in text


# --------------------------------------------------------------------------- the real daemon


@pytest.fixture(scope="module")
def rocket_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

    path = tmp_path_factory.mktemp("sim") / "rocket_engine.bundle"
    write_bundle_file(path, encode_bundle(build_payload(collect_rules([ROCKET]), "rocket")))
    return path


def replay(bundle: Path, frames: list[bytes]) -> list[tuple[str, str, int]]:
    """(event, rule, ts_us) of the rule events an engine gives for these frames."""
    from rulec.runtime.engine.engine import Engine

    engine = Engine.from_file(str(bundle))
    names = {p.channel: p.name for p in engine.bundle.parameters if p.channel is not None}
    out = []
    for data in frames:
        (frame,) = wire.FrameDecoder().feed(data)
        values = {names[ch]: v for ch, v in wire.decode_telemetry(frame.payload).items()}
        for ev in engine.step(frame.timestamp_us / 1e6, values):
            if ev.rule is not None:
                out.append((ev.event, ev.rule, frame.timestamp_us))
    return out


@pytest.mark.parametrize("faults", [False, True])
def test_sim_to_daemon_over_a_pty(rocket_bundle: Path, scenario: Scenario,
                                  faults: bool) -> None:
    """The real daemon on the simulator's pty: its advisories are exactly those of the
    frames that arrived intact, and it evaluated every intact frame, no other."""
    onboard = pytest.importorskip("rulec.runtime.daemon.loop")
    from rulec.runtime.daemon.config import build_config

    config = FaultConfig(ber=1e-3, frame_dup_rate=0.05, split=True, seed=13) if faults \
        else FaultConfig()
    injector = Recording(config)
    pty = PtyTransport()
    flags = {"bundle": str(rocket_bundle), "serial": pty.path, "summary_s": 0.0,
             "heartbeat_s": 0.0, "reload_poll_s": 0.0, "read_timeout_s": 0.02,
             "stale_check_s": 30.0}
    log = io.StringIO()
    daemon = onboard.Daemon(build_config({}, flags), onboard.EventLog("-", stream=log))
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    replies: list[Reply] = []
    try:
        sim = Simulator(pty, injector, baud=None, on_reply=replies.append, split_gap_s=0.0)
        assert sim.wait_for(lambda: sim.bundle_info is not None, 10)
        sim.start_clock()
        items = list(scenario_frames(scenario, speed=None, repeat=2))
        sim.play(items)
        expected_frames = intact_frames(injector.log)
        unique = list(dict.fromkeys(expected_frames))  # exact duplicates are dropped
        want = replay(rocket_bundle, unique)
        sim.wait_for(lambda: sim.received["advisory"] >= len(want), 10)
        sim.drain(0.2)
    finally:
        daemon.request_stop("test over")
        thread.join(10)
        pty.close()
    got = [(r.message.event, r.message.rule_id, r.frame.timestamp_us) for r in replies
           if isinstance(r.message, wire.Advisory)]
    assert got == want and len(want) >= 8
    assert all(r.rtt_us is not None for r in replies if isinstance(r.message, wire.Advisory))
    records = [json.loads(line) for line in log.getvalue().splitlines()]
    summary = [r for r in records if r["event"] == "summary"][-1]
    assert summary["totals"]["frames_ok"] == len(unique)
    dropped = summary["frames_dropped"]
    assert dropped.get("duplicate", 0) == len(expected_frames) - len(unique)
    if faults:
        assert injector.counters.frames_corrupted > 10 and sum(dropped.values()) > 10
    else:
        assert len(unique) == len(items) and not dropped


def test_make_demo_driver(rocket_bundle: Path) -> None:
    """examples/demo_hil.py: both real processes, advisories over the pty, a summary."""
    pytest.importorskip("rulec.runtime.daemon.loop")
    proc = subprocess.run(
        [sys.executable, str(REPO / "examples" / "demo_hil.py"), "--bundle", str(rocket_bundle),
         "--speed", "60"], capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.count(" RAISE ") == 4 and out.count(" CLEAR ") == 4
    assert "Chamber temperature 620 °C is above 600 °C" in out
    assert "hot_fire_limits.txt:11" in out
    assert "latency summary" in out and "121 sent, 121 evaluated" in out
