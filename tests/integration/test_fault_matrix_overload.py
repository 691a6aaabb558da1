"""Overload, short version (bench/overload.py runs minutes at twice the sustainable rate
and measures latency and RSS): a firmware writing frames far faster than the daemon can
evaluate them, over TCP to the real daemon with ``max_frames_per_read``.

What must hold whatever the machine's speed: every frame is accounted for (evaluated or
counted as dropped ``overload``, none lost silently), the drops are reported in the
summary and the heartbeat, at most ``max_frames_per_read`` frames of one read are
evaluated one by one, and no value is lost by folding: the latest value of every
channel reaches the engine, so the state after the burst is the state the last frames
describe.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.daemon.config import build_config
from rulec.runtime.daemon.loop import Daemon, EventLog

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

ROCKET = Path(__file__).resolve().parents[2] / "examples" / "manuals" / "rocket_engine"
TEMP, PRESSURE, FUEL, PUMP = 0, 1, 2, 3
LIMIT = 32
FRAMES = 30_000


class Sink:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []
        self._buf = ""

    def write(self, text: str) -> int:
        self._buf += text
        *lines, self._buf = self._buf.split("\n")
        self.records.extend(json.loads(line) for line in lines if line)
        return len(text)

    def flush(self) -> None:
        pass


def burst(n: int) -> tuple[bytes, dict[int, float]]:
    """n frames, each carrying one channel in turn (quiet values), then four frames
    that each put one channel over a limit; and the last value of every channel."""
    quiet = {TEMP: 500.0, PRESSURE: 200.0, FUEL: 80.0, PUMP: 20000.0}
    loud = {TEMP: 620.0, PRESSURE: 330.0, FUEL: 150.0, PUMP: 37000.0}
    out = bytearray()
    seq = 0
    for i in range(n):
        ch = i % 4
        seq += 1
        out += wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, seq, 1000 * seq,
                                            wire.encode_telemetry({ch: quiet[ch] + i % 3})))
    for ch, value in loud.items():
        seq += 1
        out += wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, seq, 1000 * seq,
                                            wire.encode_telemetry({ch: value})))
    return bytes(out), loud


def test_overload_drops_are_bounded_counted_reported_and_lose_no_value(
        tmp_path: Path) -> None:
    path = tmp_path / "engine.rulec"
    write_bundle_file(path, encode_bundle(build_payload(collect_rules([ROCKET]), "rocket")))
    flags = {"bundle": str(path), "tcp_listen": "127.0.0.1:0", "summary_s": 0.0,
             "heartbeat_s": 0.05, "reload_poll_s": 0.0, "read_timeout_s": 0.02,
             "max_frames_per_read": LIMIT}
    sink = Sink()
    daemon = Daemon(build_config({}, flags), EventLog("-", stream=sink))
    reads: list[int] = []
    original = daemon._on_chunk  # count the samples each read produced (observation only)

    def counting(chunk: Any, received: float, served: bool = False) -> None:
        before = daemon.counters.total["samples"]
        original(chunk, received, served)
        reads.append(daemon.counters.total["samples"] - before)

    daemon._on_chunk = counting  # type: ignore[method-assign]
    thread = threading.Thread(target=daemon.run, daemon=True)
    thread.start()
    data, loud = burst(FRAMES)
    sent = FRAMES + len(loud)
    try:
        deadline = time.monotonic() + 10
        while daemon.link_state != "listening":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        sock = socket.create_connection(daemon.link.address)
        replies = bytearray()

        def drain() -> None:
            while select.select([sock], [], [], 0)[0]:
                chunk = sock.recv(1 << 16)
                if not chunk:
                    return
                replies.extend(chunk)

        view = memoryview(data)
        for i in range(0, len(view), 1 << 16):  # as fast as the socket takes them
            sock.sendall(view[i:i + (1 << 16)])
            drain()
        total = daemon.counters.total
        deadline = time.monotonic() + 30
        while (total["frames_ok"] + total["dropped.overload"] < sent
               or total["samples"] < total["frames_ok"]):
            assert time.monotonic() < deadline, dict(total)
            drain()
            time.sleep(0.01)
        active = set(daemon.engine.active())  # before the link goes down (stale then)
        time.sleep(0.15)  # a heartbeat after the burst
        drain()
        sock.close()
    finally:
        daemon.request_stop("test over")
        thread.join(10)
    total = daemon.counters.total
    dropped = daemon.counters.dropped(total)
    assert total["frames_ok"] + dropped["overload"] == sent  # none lost silently
    assert set(dropped) == {"overload"} and dropped["overload"] > 0
    assert total["samples"] == total["frames_ok"]
    assert max(reads) <= LIMIT  # at most LIMIT evaluations per read: bounded work
    # folding kept the latest value of every channel: the four limits are exceeded now
    rules = {r.id: r.source["text"] for r in daemon.engine.bundle.rules}
    texts = " ".join(rules[r] for r in active)
    for piece in ("exceeds 600 °C", "exceeds 320 psi", "fuel line pressure", "36,000 rpm"):
        assert piece in texts, (piece, sorted(texts.split(".")))
    summary = [r for r in sink.records if r.get("event") == "summary"][-1]
    assert summary["frames_dropped"] == {"overload": dropped["overload"]}
    beats = [wire.decode_heartbeat(f.payload) for f in wire.FrameDecoder().feed(bytes(replies))
             if f.msg_type == wire.MsgType.HEARTBEAT]
    assert beats and beats[-1].frames_dropped == dropped["overload"]
    assert beats[-1].frames_ok == total["frames_ok"]
