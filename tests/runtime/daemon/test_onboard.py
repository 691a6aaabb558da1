"""`rulec-onboard` end to end over real loopback parts: pyserial ``loop://``, a real pty
pair, TCP and UDP sockets on 127.0.0.1, stdin pipes; hot reload, link loss and signals.

Most tests run the daemon in-process on a thread (``Daemon.run``) and read its JSON
lines from an in-memory sink; signals and the real entry point run as a subprocess.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
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

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.daemon.command import main
from rulec.runtime.daemon.config import OPTIONS, ConfigError, build_config, read_config_file
from rulec.runtime.daemon.loop import Daemon, EventLog
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.replay import read_samples

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[3]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
SCENARIO = REPO / "examples" / "scenarios" / "engine_test.csv"

# telemetry channels of examples/manuals/rocket_engine/sensors.toml
TEMP, PRESSURE, FUEL, PUMP = 0, 1, 2, 3


# --------------------------------------------------------------------------- bundles


def compile_folder(folder: Path) -> bytes:
    return encode_bundle(build_payload(collect_rules([folder]), folder.name))


def compile_variant(tmp: Path, name: str, edits: dict[str, str]) -> bytes:
    folder = tmp / name
    shutil.copytree(ROCKET, folder)
    for path in folder.iterdir():
        text = path.read_text(encoding="utf-8")
        for old, new in edits.items():
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return compile_folder(folder)


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    tmp = tmp_path_factory.mktemp("onboard_bundles")
    return {
        "base": compile_folder(ROCKET),
        "coolant_500": compile_variant(tmp, "c500", {"exceeds 600 °C": "exceeds 500 °C"}),
        "fast_stale": compile_variant(tmp, "stale", {"max_age_s = 2.0": "max_age_s = 0.3"}),
    }


@pytest.fixture
def bundle_path(tmp_path: Path, bundles: dict[str, bytes]) -> Path:
    path = tmp_path / "engine.rulec"
    write_bundle_file(path, bundles["base"])
    return path


@pytest.fixture(scope="module")
def ids(bundles: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    path = tmp_path_factory.mktemp("ids") / "b.rulec"
    write_bundle_file(path, bundles["base"])
    rules = Engine.from_file(str(path)).bundle.rules

    def find(text: str) -> str:
        return next(r.id for r in rules if text in r.source["text"])

    return {
        "coolant": find("exceeds 600 °C"),
        "emergency": find("exceeds 950 °C"),
        "vent": find("exceeds 320 psi"),
        "fuel_range": find("fuel line pressure shall remain"),
    }


# --------------------------------------------------------------------------- harness


class LogSink:
    """A text stream the daemon's EventLog writes to; tests wait on its records."""

    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._buf = ""

    def write(self, text: str) -> int:
        with self._cond:
            self._buf += text
            *lines, self._buf = self._buf.split("\n")
            self.records.extend(json.loads(line) for line in lines if line)
            self._cond.notify_all()
        return len(text)

    def flush(self) -> None:
        pass

    def mark(self) -> int:
        with self._cond:
            return len(self.records)

    def wait_for(
        self, pred: Callable[[dict[str, Any]], bool], since: int = 0, timeout: float = 5.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for record in self.records[since:]:
                    if pred(record):
                        return record
                left = deadline - time.monotonic()
                if left <= 0:
                    kinds = [r.get("event") for r in self.records]
                    raise AssertionError(f"no matching log record; got {kinds}")
                self._cond.wait(left)

    def events(self, *kinds: str) -> list[dict[str, Any]]:
        with self._cond:
            return [r for r in self.records if r.get("event") in kinds]


def is_(event: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda r: r.get("event") == event and all(r.get(k) == v for k, v in fields.items())


@contextmanager
def running(
    bundle: Path, stdin_fd: int | None = None, **options: Any
) -> Iterator[tuple[Daemon, LogSink]]:
    flags = {
        "bundle": str(bundle),
        "summary_s": 0.0,
        "heartbeat_s": 0.0,
        "reconnect_min_s": 0.02,
        "reconnect_max_s": 0.1,
        "read_timeout_s": 0.02,
        "reload_poll_s": 0.0,
        **options,
    }
    sink = LogSink()
    daemon = Daemon(build_config({}, flags), EventLog("-", stream=sink), stdin_fd=stdin_fd)
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    try:
        yield daemon, sink
    finally:
        daemon.request_stop("test over")
        thread.join(5)
        assert not thread.is_alive(), "the daemon did not stop"
    assert sink.events("stop"), "no stop line"
    assert not sink.events("crash")


class Firmware:
    """The test's side of a byte link: sends TELEMETRY frames, collects decoded frames."""

    def __init__(self, send: Callable[[bytes], Any], recv: Callable[[], bytes], fd: Any):
        self._send, self._recv, self._fd = send, recv, fd
        self.decoder = wire.FrameDecoder()
        self.frames: list[wire.Frame] = []
        self.seq = 0
        self.t0 = time.monotonic()
        self.last_t_us = 0

    def now_us(self) -> int:
        return 1_000_000 + int((time.monotonic() - self.t0) * 1e6)

    def frame(self, values: dict[int, float], t_us: int | None = None) -> bytes:
        self.seq += 1
        payload = wire.encode_telemetry(values)
        t_us = self.now_us() if t_us is None else t_us
        self.last_t_us = t_us
        return wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, self.seq, t_us, payload))

    def send(self, values: dict[int, float]) -> None:
        self._send(self.frame(values))

    def poll(self, timeout: float) -> None:
        if select.select([self._fd], [], [], timeout)[0]:
            data = self._recv()
            if data:
                self.frames += self.decoder.feed(data)

    def wait(self, pred: Callable[[wire.Frame], bool], timeout: float = 5.0) -> wire.Frame:
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for frame in self.frames[seen:]:
                if pred(frame):
                    return frame
            seen = len(self.frames)
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching frame; got {[f.msg_type for f in self.frames]}")
            self.poll(min(left, 0.05))

    def advisories(self) -> list[wire.Advisory]:
        return [
            wire.decode_advisory(f.payload)
            for f in self.frames
            if f.msg_type == wire.MsgType.ADVISORY
        ]


def advisory(rule: str, event: str = "raise") -> Callable[[wire.Frame], bool]:
    def pred(f: wire.Frame) -> bool:
        if f.msg_type != wire.MsgType.ADVISORY:
            return False
        a = wire.decode_advisory(f.payload)
        return a.rule_id == rule and a.event == event

    return pred


def of_type(msg_type: wire.MsgType) -> Callable[[wire.Frame], bool]:
    return lambda f: f.msg_type == msg_type


def tcp_firmware(daemon: Daemon, sink: LogSink) -> tuple[socket.socket, Firmware]:
    sink.wait_for(is_("link", state="listening"))
    sock = socket.create_connection(daemon.link.address)
    return sock, Firmware(sock.sendall, lambda: sock.recv(65536), sock)


# --------------------------------------------------------------------------- serial


def test_loop_url_hears_its_own_frames(bundle_path: Path) -> None:
    """On ``loop://`` everything written comes back: BUNDLE_INFO and heartbeats are
    decoded intact, counted as ignored (not telemetry), and never advise anything."""
    with running(bundle_path, serial="loop://", heartbeat_s=0.05) as (daemon, sink):
        sink.wait_for(is_("link", state="up", link="loop://"))
        deadline = time.monotonic() + 5
        total = daemon.counters.total
        while time.monotonic() < deadline and total["ignored.heartbeat"] < 3:
            time.sleep(0.02)
    assert total["ignored.bundle_info"] >= 1 and total["ignored.heartbeat"] >= 3
    assert daemon.counters.dropped(total) == {}
    assert total["samples"] == 0 and not sink.events("raise", "clear")
    summary = sink.events("summary")[-1]
    assert summary["frames_ignored"]["heartbeat"] >= 3


def test_pty_telemetry_in_advisories_out(bundle_path: Path, ids: dict[str, str]) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    fw = Firmware(lambda b: os.write(master, b), lambda: os.read(master, 65536), master)
    try:
        with running(bundle_path, serial=path, heartbeat_s=0.1) as (daemon, sink):
            info = fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
            decoded = wire.decode_bundle_info(info.payload)
            assert decoded.digest == bytes.fromhex(daemon.engine.bundle.digest)
            assert decoded.bundle_id == daemon.engine.bundle.meta["bundle_id"]
            fw.send({TEMP: 20.0, PRESSURE: 200.0, FUEL: 80.0, PUMP: 26000.0})
            fw.send({TEMP: 620.0})
            frame = fw.wait(advisory(ids["coolant"]))
            a = wire.decode_advisory(frame.payload)
            assert a.severity == "caution" and a.values == {TEMP: 620.0}
            assert frame.timestamp_us == fw.last_t_us  # the sample's own time, echoed
            raised = sink.wait_for(is_("raise", rule=ids["coolant"]))
            assert raised["source"]["file"] == "hot_fire_limits.txt"
            assert raised["values"] == {"chamber_temperature": 620.0}
            fw.send({TEMP: 590.0})  # 600 - deadband 5 = 595: clears below it
            fw.wait(advisory(ids["coolant"], "clear"))
            fw.send({FUEL: 900.0})  # outside the manifest range [0, 500]
            fault = fw.wait(of_type(wire.MsgType.SENSOR_FAULT))
            assert wire.decode_sensor_fault(fault.payload) == wire.SensorFault(
                FUEL, wire.FaultReason.ABOVE_RANGE
            )
            line = sink.wait_for(is_("fault", parameter="fuel_line_pressure"))
            assert line["reason"] == "above range" and line["channel"] == FUEL
            beat = fw.wait(
                lambda f: (
                    f.msg_type == wire.MsgType.HEARTBEAT
                    and wire.decode_heartbeat(f.payload).frames_ok == 4
                )
            )
            assert wire.decode_heartbeat(beat.payload).frames_dropped == 0
    finally:
        os.close(master)
        os.close(slave)
    assert not any(a.rule_id == ids["fuel_range"] for a in fw.advisories()), (
        "an invalid value never satisfies a condition"
    )


def test_serial_replug_reconnects(bundle_path: Path, ids: dict[str, str]) -> None:
    """A pyserial ``socket://`` port whose far end drops: link down, inputs stale,
    reconnect with backoff, BUNDLE_INFO again, advisories flow again."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    with running(bundle_path, serial=f"socket://127.0.0.1:{port}") as (daemon, sink):
        conn, _ = server.accept()
        fw = Firmware(conn.sendall, lambda: conn.recv(65536), conn)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        fw.send({TEMP: 620.0})
        fw.wait(advisory(ids["coolant"]))
        conn.close()  # unplugged
        sink.wait_for(is_("link", state="down"))
        stale = sink.wait_for(is_("fault", parameter="chamber_temperature"))
        assert stale["reason"] == "stale"
        sink.wait_for(is_("clear", rule=ids["coolant"]))
        conn, _ = server.accept()  # replugged: the daemon reconnects by itself
        fw = Firmware(conn.sendall, lambda: conn.recv(65536), conn)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        mark = sink.mark()
        fw.send({TEMP: 630.0})
        fw.wait(advisory(ids["coolant"]))
        sink.wait_for(is_("fault_clear", parameter="chamber_temperature"), since=mark)
        conn.close()
    server.close()
    states = [r["state"] for r in sink.events("link")]
    assert states[:3] == ["up", "down", "up"]


# --------------------------------------------------------------------------- TCP / UDP


def test_tcp_link_loss_marks_inputs_stale_then_reconnects(
    bundle_path: Path, ids: dict[str, str]
) -> None:
    with running(bundle_path, tcp_listen="127.0.0.1:0") as (daemon, sink):
        sock, fw = tcp_firmware(daemon, sink)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        fw.send({TEMP: 620.0, PRESSURE: 200.0})
        fw.wait(advisory(ids["coolant"]))
        sock.close()
        down = sink.wait_for(is_("link", state="down"))
        assert down["error"] == "peer closed the connection"
        stale = sink.wait_for(is_("stale"))
        assert stale["parameters"] == ["chamber_pressure", "chamber_temperature"]
        faults = [sink.wait_for(is_("fault", parameter=p)) for p in stale["parameters"]]
        assert {f["reason"] for f in faults} == {"stale"}
        cleared = sink.wait_for(is_("clear", rule=ids["coolant"]))
        assert cleared["values"] == {"chamber_temperature": None}
        assert daemon.engine.active() == []
        # a new firmware connection: BUNDLE_INFO, then advisories from fresh data only
        sock, fw = tcp_firmware(daemon, sink)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        fw.send({PRESSURE: 330.0})
        fw.wait(advisory(ids["vent"]))
        time.sleep(0.1)
        assert not any(a.rule_id == ids["coolant"] for a in fw.advisories()), (
            "the stale temperature must not raise anything"
        )
        sock.close()
    states = [r["state"] for r in sink.events("link")]
    assert states[:4] == ["listening", "up", "down", "up"]


def test_busy_polling_answers_like_sleeping_and_stops_on_request(
    bundle_path: Path, ids: dict[str, str]
) -> None:
    with running(bundle_path, tcp_listen="127.0.0.1:0", busy_poll_s=0.02) as (daemon, sink):
        sock, fw = tcp_firmware(daemon, sink)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        for temperature in (620.0, 500.0, 620.0):
            fw.send({TEMP: temperature, PRESSURE: 200.0})
            time.sleep(0.05)
        fw.wait(lambda f: len([a for a in fw.advisories() if a.rule_id == ids["coolant"]]) == 3)
        assert [a.event for a in fw.advisories()] == ["raise", "clear", "raise"]
        sock.close()
    with pytest.raises(ConfigError, match="busy-poll-s must not exceed"):
        build_config({}, {"bundle": str(bundle_path), "tcp_listen": "7700",
                          "busy_poll_s": 0.2, "read_timeout_s": 0.1})


def test_udp_advisories_go_back_to_the_sender(bundle_path: Path, ids: dict[str, str]) -> None:
    with running(bundle_path, udp_listen="127.0.0.1:0") as (daemon, sink):
        sink.wait_for(is_("link", state="listening"))
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        address = daemon.link.address
        fw = Firmware(lambda b: sock.sendto(b, address), lambda: sock.recv(65536), sock)
        fw.send({PRESSURE: 330.0})
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))  # a new peer learns the bundle first
        fw.wait(advisory(ids["vent"]))
        up = sink.wait_for(is_("link", state="up"))
        assert up["peer"] == f"127.0.0.1:{sock.getsockname()[1]}"
        # a frame split over two datagrams is not glued back together: both halves drop
        frame = fw.frame({PRESSURE: 100.0})
        sock.sendto(frame[:5], address)
        sock.sendto(frame[5:], address)
        fw.send({PRESSURE: 20.0})
        fw.wait(advisory(ids["vent"], "clear"))
        sock.close()
    assert sum(daemon.counters.dropped(daemon.counters.total).values()) >= 2


# --------------------------------------------------------------------------- corruption


def test_corrupt_frames_are_dropped_counted_and_never_believed(
    bundle_path: Path, ids: dict[str, str]
) -> None:
    rng = random.Random(5)
    with running(bundle_path, tcp_listen="127.0.0.1:0") as (daemon, sink):
        sock, fw = tcp_firmware(daemon, sink)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        stream = bytearray(fw.frame({TEMP: 20.0}))  # an intact first frame: seq is known
        intact = 1
        for i in range(300):
            if i % 3:
                stream += fw.frame({TEMP: 20.0 + i % 7})
                intact += 1
                continue
            bad = bytearray(fw.frame({TEMP: 990.0}))  # would raise the emergency rule
            body = len(bad) - 1  # never touch the delimiter
            if i % 2:
                pos = rng.randrange(body)
                bad[pos] ^= 1 << rng.randrange(8) or 1
                if bad[pos] == 0:
                    bad[pos] = 0x55
            else:
                del bad[rng.randrange(body)]
            stream += bad
        twice = fw.frame({TEMP: 21.0})  # a duplicated write: evaluated once
        stream += twice + twice
        intact += 1
        # a truncated frame: the sender restarts with a delimiter, then an intact frame
        stream += fw.frame({TEMP: 990.0})[:9] + b"\x00"
        for i in range(0, len(stream), 97):  # arbitrary split writes
            sock.sendall(stream[i : i + 97])
        deadline = time.monotonic() + 5
        while daemon.counters.total["samples"] < intact and time.monotonic() < deadline:
            time.sleep(0.02)
        fw.send({TEMP: 620.0})
        fw.wait(advisory(ids["coolant"]))
        sock.close()
    total = daemon.counters.total
    dropped = daemon.counters.dropped(total)
    assert total["samples"] == intact + 1, "every intact frame is evaluated"
    # exactly what was injected: 100 corrupted, 1 truncated, 1 duplicate
    assert sum(dropped.values()) == 102 and dropped["duplicate"] == 1, dropped
    assert not any(r.get("rule") == ids["emergency"] for r in sink.events("raise"))
    assert [a.rule_id for a in fw.advisories()] == [ids["coolant"]]
    summary = sink.events("summary")[-1]
    assert summary["frames_dropped"] == dropped and summary["bytes_discarded"] > 0
    assert total["frames_missing"] == 101, "the sequence numbers tell the same story"


# --------------------------------------------------------------------------- stdin


def replay_events(bundle: Path) -> list[dict[str, Any]]:
    engine = Engine.from_file(str(bundle))
    out = []
    for t, sample in read_samples(SCENARIO, known=engine.knows):
        out += [e.to_json() for e in engine.step(t, sample) if e.rule is not None]
    return out


def strip(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "ts"} for r in records]


def test_stdin_csv_gives_the_replay_events(bundle_path: Path) -> None:
    r, w = os.pipe()
    with running(bundle_path, stdin_fd=r, stdin="csv") as (daemon, sink):
        os.write(w, SCENARIO.read_bytes())
        os.close(w)
        sink.wait_for(is_("stop", reason="end of input"))
    os.close(r)
    expected = replay_events(bundle_path)
    assert len(expected) >= 6
    assert strip(sink.events("raise", "clear")) == expected


def test_stdin_jsonl_and_bad_lines(bundle_path: Path, ids: dict[str, str]) -> None:
    lines = [
        '{"t": 0.0, "values": {"chamber_temperature": 20, "chamber_pressure": 200}}',
        "garbage",
        '{"t": 1.0, "values": {"chamber_temperature": 620, "warp_factor": 9}}',
        '{"t": 2.0, "values": {"chamber temperature": 500}}',  # an alias works too
    ]
    r, w = os.pipe()
    with running(bundle_path, stdin_fd=r, stdin="auto") as (daemon, sink):
        os.write(w, ("\n".join(lines) + "\n").encode())
        os.close(w)
        sink.wait_for(is_("stop", reason="end of input"))
    os.close(r)
    assert [(e["event"], e["rule"], e["t"]) for e in sink.events("raise", "clear")] == [
        ("raise", ids["coolant"], 1.0),
        ("clear", ids["coolant"], 2.0),
    ]
    errors = [e["error"] for e in sink.events("input_error")]
    assert any("stdin:2: not JSON" in e for e in errors)
    assert any("warp_factor" in e for e in errors)


# --------------------------------------------------------------------------- staleness


def test_silence_turns_values_stale(
    tmp_path: Path, bundles: dict[str, bytes], ids: dict[str, str]
) -> None:
    path = tmp_path / "stale.rulec"
    write_bundle_file(path, bundles["fast_stale"])  # max_age_s 0.3 instead of 2.0
    with running(path, tcp_listen="127.0.0.1:0", stale_check_s=0.05) as (daemon, sink):
        sock, fw = tcp_firmware(daemon, sink)
        fw.send({TEMP: 620.0})
        fw.wait(advisory(ids["coolant"]))
        fault = fw.wait(of_type(wire.MsgType.SENSOR_FAULT), timeout=3)
        assert wire.decode_sensor_fault(fault.payload) == wire.SensorFault(
            TEMP, wire.FaultReason.STALE
        )
        fw.wait(advisory(ids["coolant"], "clear"))
        line = sink.wait_for(is_("fault", parameter="chamber_temperature"))
        assert line["reason"] == "stale" and line["t"] > 1.3
        sock.close()


# --------------------------------------------------------------------------- reload


def test_reload_on_file_change_changes_advisories(
    bundle_path: Path, bundles: dict[str, bytes], ids: dict[str, str]
) -> None:
    with running(bundle_path, tcp_listen="127.0.0.1:0", reload_poll_s=0.05) as (daemon, sink):
        sock, fw = tcp_firmware(daemon, sink)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        fw.send({TEMP: 550.0})
        fw.send({TEMP: 620.0})
        fw.wait(advisory(ids["coolant"]))
        write_bundle_file(bundle_path, bundles["coolant_500"])
        reload = sink.wait_for(is_("reload", ok=True))
        new = daemon.engine
        assert reload["changed"] and reload["digest"] == new.bundle.digest
        assert reload["carried"]["withdrawn"] == [ids["coolant"]]
        r500 = next(r.id for r in new.bundle.rules if "exceeds 500 °C" in r.source["text"])
        fw.wait(advisory(ids["coolant"], "clear"))  # the 600 °C rule is gone
        fw.wait(advisory(r500))  # and the 500 °C rule holds for the carried 620 °C
        info = fw.wait(
            lambda f: (
                f.msg_type == wire.MsgType.BUNDLE_INFO
                and wire.decode_bundle_info(f.payload).digest == bytes.fromhex(new.bundle.digest)
            )
        )
        assert info.seq > 0
        fw.send({TEMP: 480.0})
        fw.wait(advisory(r500, "clear"))
        sock.close()


def test_corrupt_reload_keeps_serving_without_losing_a_sample(
    bundle_path: Path, bundles: dict[str, bytes], ids: dict[str, str]
) -> None:
    broken = bytearray(bundles["coolant_500"])
    broken[-10] ^= 0x40
    with running(bundle_path, tcp_listen="127.0.0.1:0", reload_poll_s=0.02) as (daemon, sink):
        sock, fw = tcp_firmware(daemon, sink)
        fw.wait(of_type(wire.MsgType.BUNDLE_INFO))
        serving = daemon.engine
        sent = 0
        for i in range(150):  # a steady 500 Hz stream while the bundle file goes bad
            if i == 30:
                bundle_path.write_bytes(bytes(broken))
            fw.send({TEMP: 550.0, PRESSURE: 200.0 + i % 3})
            sent += 1
            time.sleep(0.002)
        failed = sink.wait_for(is_("reload", ok=False))
        assert failed["level"] == "error" and failed["serving_digest"] == serving.bundle.digest
        assert "digest" in failed["error"]
        fw.send({TEMP: 620.0})
        sent += 1
        fw.wait(advisory(ids["coolant"]))  # the old rules still answer
        assert daemon.engine is serving
        sock.close()
    assert daemon.counters.total["samples"] == sent
    assert daemon.counters.total["frames_ok"] == sent


def test_sighup_reloads_and_sigterm_exits_zero(
    bundle_path: Path, bundles: dict[str, bytes], ids: dict[str, str], tmp_path: Path
) -> None:
    log = tmp_path / "onboard.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulec.runtime.daemon",
            "--bundle",
            str(bundle_path),
            "--stdin",
            "jsonl",
            "--reload-poll-s",
            "0",
            "--log",
            str(log),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None

    def wait_line(pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if log.exists():
                for line in log.read_text().splitlines():
                    if pred(json.loads(line)):
                        return json.loads(line)
            time.sleep(0.02)
        raise AssertionError(f"no such line in {log.read_text() if log.exists() else ''}")

    try:
        wait_line(is_("start"))
        proc.stdin.write(b'{"t": 1, "values": {"chamber_temperature": 550}}\n')
        proc.stdin.flush()
        write_bundle_file(bundle_path, bundles["coolant_500"])
        time.sleep(0.1)
        proc.send_signal(signal.SIGHUP)
        reload = wait_line(is_("reload", trigger="SIGHUP"))
        assert reload["ok"] and reload["changed"]
        raised = wait_line(is_("raise"))
        assert raised["t"] == 1 and raised["rule"] != ids["coolant"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert wait_line(is_("stop"))["reason"] == "SIGTERM"
    assert proc.stderr is not None and proc.stderr.read() == b""


# --------------------------------------------------------------------------- CLI / config


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # --help, argparse usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def test_check_mode(bundle_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_main(
        capsys, "--bundle", str(bundle_path), "--tcp-listen", "7700", "--check"
    )
    assert status == 0, err
    report = json.loads(out)
    assert report["ok"] and report["rules"] == 12
    assert {p["name"]: p["channel"] for p in report["parameters"]}["turbopump_speed"] == PUMP
    bad = tmp_path / "bad.rulec"
    bad.write_bytes(bundle_path.read_bytes()[:-3])
    status, out, err = run_main(capsys, "--bundle", str(bad), "--stdin", "csv", "--check")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "bad.rulec" in err and "Traceback" not in err


def test_bad_first_bundle_and_bad_flags_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_main(capsys, "--bundle", str(tmp_path / "none.rulec"), "--stdin", "csv")
    assert status == 2 and "none.rulec" in err and err.count("\n") == 1
    status, _, err = run_main(capsys, "--bundle", "x", "--stdin", "csv", "--udp-listen", "1")
    assert status == 2 and "exactly one input" in err
    status, _, err = run_main(capsys, "--bundle", "x", "--stdin", "csv", "--heartbeat-s", "-1")
    assert status == 2 and "--heartbeat-s" in err
    status, _, err = run_main(capsys, "--bundle", "x", "--serial", "foo://bar")
    assert status == 2 and "protocol 'foo' not known" in err
    status, _, err = run_main(capsys, "--stdin", "csv")
    assert status == 2 and "no bundle" in err
    status, _, err = run_main(
        capsys,
        "--bundle",
        "x",
        "--stdin",
        "csv",
        "--log",
        str(tmp_path / "no" / "such" / "dir.jsonl"),
    )
    assert status == 2 and "--log" in err


def test_help_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_main(capsys, "--help")
    assert status == 0
    flags = [o.flag for o in OPTIONS]
    for text in (*flags, "--config", "--check", "SIGHUP", "examples:"):
        assert text in out
    doc = (REPO / "docs" / "onboard.md").read_text(encoding="utf-8")
    assert all(f"`{flag}`" in doc for flag in flags), "docs/onboard.md lists every option"


def test_real_entry_point_checks_without_the_compiler(bundle_path: Path) -> None:
    """The console script's ``main`` works, and the runtime never imports the compiler."""
    code = (
        "import sys; from rulec.runtime.daemon.command import main; "
        "status = main(sys.argv[1:]); "
        "bad = sorted(m for m in sys.modules if m.startswith('rulec.compiler')); "
        "print(bad, file=sys.stderr); sys.exit(status)"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "--bundle",
            str(bundle_path),
            "--serial",
            "loop://",
            "--check",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["ok"]
    assert done.stderr.strip() == "[]"


def test_config_file_with_flag_overrides(tmp_path: Path, bundle_path: Path) -> None:
    config = tmp_path / "onboard.toml"
    config.write_text(
        'bundle = "engine.rulec"\nserial = "/dev/ttyUSB0"\nheartbeat_s = 2\n'
        'log = "logs/onboard.jsonl"\n'
    )
    values = read_config_file(config)
    c = build_config(values, {"tcp_listen": "7700", "summary_s": 5.0})
    assert c.bundle == bundle_path and c.input_kind == "tcp_listen" and c.serial is None
    assert c.heartbeat_s == 2.0 and c.summary_s == 5.0
    assert c.log == str(tmp_path / "logs" / "onboard.jsonl")
    config.write_text('bundle = "x"\nstdin = "csv"\nheartbeat = 1\n')
    with pytest.raises(ConfigError, match="unknown key 'heartbeat'"):
        read_config_file(config)
    config.write_text('bundle = "x"\nstdin = "csv"\nbaudrate = "fast"\n')
    with pytest.raises(ConfigError, match="baudrate must be int"):
        read_config_file(config)
    config.write_text("bundle = [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        read_config_file(config)


def test_example_config_is_valid() -> None:
    values = read_config_file(REPO / "examples" / "onboard.toml")
    c = build_config(values)
    assert c.input_kind == "serial"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_log_that_cannot_be_written_is_said_and_ends_in_a_non_zero_exit(
        bundle_path: Path) -> None:
    samples = "time,chamber_temperature\n0,620\n1,500\n"
    proc = subprocess.run(
        [sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(bundle_path),
         "--stdin", "csv", "--log", "/dev/full"],
        input=samples, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 74, proc.stderr
    assert "/dev/full: cannot write" in proc.stderr
    assert "line(s) could not be written" in proc.stderr.splitlines()[-1]
