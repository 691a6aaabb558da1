"""Discrete states through the real daemon over TCP (127.0.0.1) and a real pty, and a
replay of the same samples: the same raise, clear and sensor-fault events, in order, on
frames that switch states (and send an index a state parameter lacks, or one between
two indexes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_fault_matrix_links import _link, until

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.engine.engine import Engine

SENSORS = """
[parameters.gear]
states = ["retracted", "extended"]
channel = 0

[parameters.phase]
states = ["taxi", "takeoff", "cruise"]
phase = true
channel = 1

[parameters.speed]
unit = "kt"
range = [0, 400]
channel = 2
"""
MANUAL = """Limits
With the gear extended, do not exceed 140 kt.
During takeoff, do not exceed 250 kt.
If the gear is retracted and the speed is below 80 kt, extend the gear.
"""
NAMES = {0: "gear", 1: "phase", 2: "speed"}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("discrete_links")
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    (folder / "manual.txt").write_text(MANUAL, encoding="utf-8")
    result = collect_rules([folder])
    assert len(result.rules) == 3, result.problems
    path = folder / "d.bundle"
    write_bundle_file(path, encode_bundle(build_payload(result, "discrete")))
    return path


def samples() -> list[tuple[int, dict[int, float]]]:
    gear = [0, 1, 1, 1, 0, 0, 2, 1, 0.5, 1, 0]
    phase = [0, 1, 1, 2, 2, 1, 1, 1, 2, 2, 0]
    speed = [70, 150, 260, 150, 70, 200, 200, 150, 150, 130, 60]
    return [(i + 1, {0: float(g), 1: float(p), 2: float(s)})
            for i, (g, p, s) in enumerate(zip(gear, phase, speed, strict=True))]


def replay(bundle: Path) -> list[tuple[float, str, str | None]]:
    engine = Engine.from_file(str(bundle))
    out = []
    for i, values in samples():
        t = (1_000_000 + 100_000 * i) / 1e6
        out += [(e.t, e.event, e.rule) for e in engine.step(t, {NAMES[c]: v
                                                                 for c, v in values.items()})]
    return out


@pytest.mark.parametrize("pty", [False, True], ids=["tcp", "pty"])
def test_a_link_gives_the_replay_s_events(bundle: Path, pty: bool) -> None:
    want = replay(bundle)
    assert {e for _, e, _ in want} >= {"raise", "clear", "fault", "fault_clear"}
    with _link(bundle, pty) as (daemon, sink, write, read):
        for i, values in samples():
            write(wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, i,
                                               1_000_000 + 100_000 * i,
                                               wire.encode_telemetry(values))))
        until(lambda: daemon.counters.total.get("frames_ok", 0) >= len(samples()),
              lambda: daemon.counters.total)
    last = (1_000_000 + 100_000 * len(samples())) / 1e6  # after it: the link closing
    got: list[tuple[float, str, Any]] = [
        (r["t"], r["event"], r.get("rule")) for r in sink.records
        if r.get("event") in ("raise", "clear", "fault", "fault_clear") and r["t"] <= last]
    assert got == want, json.dumps(sink.records[-5:])
    reasons = [r.get("reason") for r in sink.records
               if r.get("event") == "fault" and r["t"] <= last]
    assert "above range" in reasons and "not a state" in reasons
