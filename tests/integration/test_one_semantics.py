"""One semantics of time on every path (the contract's "Time"): random scenarios with
on-delays, deadbands, off-delays, latches, staleness, NaN and out-of-range values, run
through ``rulec replay``, ``rulec-onboard --stdin`` (a real subprocess), the daemon over
TCP on 127.0.0.1 and over a real pty, with the C fast lane on and off, give identical
event streams: the same raise, clear, fault and fault_clear at the same telemetry times.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_fault_matrix_links import _link, until

from rulec.compiler.cli import main as rulec
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.firmware_bridge import protocol as wire
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

pytestmark = [pytest.mark.compiled, pytest.mark.slow]

SENSORS = """
[parameters.tank_temperature]
unit = "degC"
range = [-50, 500]
deadband = 5.0
max_age_s = 1.5
channel = 0

[parameters.motor_current]
unit = "A"
range = [0, 100]
max_age_s = 2.0
channel = 1

[parameters.line_pressure]
unit = "kPa"
range = [0, 1000]
max_age_s = 3.0
channel = 2
"""
MANUAL = """Limits
If the tank temperature exceeds 100 °C, open the relief valve.
If the motor current exceeds 15 A for more than 3 seconds, reduce the mixer load.
If the line pressure is 200 kPa or more, close the inlet valve.
If the motor current exceeds 40 A, stop the mixer.
"""
NAMES = {0: "tank_temperature", 1: "motor_current", 2: "line_pressure"}
# values around each threshold, a few invalid ones (NaN, out of range)
VALUES = {0: [20.0, 96.0, 99.5, 100.0, 100.5, 104.0, 120.0, math.nan, 600.0],
          1: [5.0, 14.5, 15.0, 15.5, 16.0, 30.0, 41.0, math.nan, -1.0],
          2: [150.0, 199.5, 200.0, 250.0, math.nan, 1200.0]}
GAPS_US = [50_000, 250_000, 500_000, 1_000_000, 1_750_000, 2_500_000, 4_000_000]
SEEDS = [1, 2, 3, 4, 5, 6]


# The bundle swapped in by a reload: one rule kept as it was (its on-delay timer carries),
# one moved (a new id: the old one is withdrawn), the latch kept, one rule new.
MANUAL_RELOADED = """Limits
If the tank temperature exceeds 90 °C, open the relief valve.
If the motor current exceeds 15 A for more than 3 seconds, reduce the mixer load.
If the line pressure is 200 kPa or more, close the inlet valve.
If the motor current exceeds 40 A, stop the mixer.
If the line pressure exceeds 120 kPa for more than 2 seconds, notify the operator.
"""


def _compile(folder: Path, manual: str) -> Path:
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    (folder / "manual.txt").write_text(manual, encoding="utf-8")
    result = collect_rules([folder])
    assert len(result.rules) == manual.count("\nIf "), result.problems
    payload = build_payload(result, "one semantics")
    for entry in payload["rules"]:  # an off-delay and a latch, as a compiler writes them
        if "inlet" in entry["action"]:
            entry["clear_delay_s"] = 1.0
        if "stop the mixer" in entry["action"].lower():
            entry["latch"] = True
    path = folder / "b.bundle"
    write_bundle_file(path, encode_bundle(payload))
    return path


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _compile(tmp_path_factory.mktemp("one_semantics"), MANUAL)


@pytest.fixture(scope="module")
def reloaded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _compile(tmp_path_factory.mktemp("one_semantics_reloaded"), MANUAL_RELOADED)


def scenario(seed: int, n: int = 60) -> list[tuple[int, dict[int, float]]]:
    """(timestamp_us, {channel: value}) samples with random gaps, some longer than a
    parameter's max_age_s, and values that cross every threshold."""
    rng = random.Random(seed)
    t, out = 1_000_000, []
    for _ in range(n):
        t += rng.choice(GAPS_US)
        channels = rng.sample(sorted(NAMES), rng.randint(1, 3))
        out.append((t, {c: rng.choice(VALUES[c]) for c in sorted(channels)}))
    return out


def seconds(us: int) -> float:
    return us / 1e6


def normal(event: str, t: float, rule: str | None, parameter: str | None) -> tuple[Any, ...]:
    return (t, event, rule if rule is not None else parameter)


def by_replay(bundle: Path, samples: list[tuple[int, dict[int, float]]],
              tmp_path: Path, reload: tuple[float, Path] | None = None
              ) -> list[tuple[Any, ...]]:
    csv = tmp_path / "run.csv"
    lines = ["time," + ",".join(NAMES[c] for c in sorted(NAMES))]
    for us, values in samples:
        cells = [repr(values[c]) if c in values else "" for c in sorted(NAMES)]
        lines.append(",".join([repr(seconds(us)), *cells]))
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        extra = ["--reload-at", repr(reload[0]), str(reload[1])] if reload else []
        assert rulec(["replay", str(bundle), str(csv), "--json", "--faults", *extra]) == 0
    got = []
    for line in out.getvalue().splitlines():
        e = json.loads(line)
        # a fault names its parameter in its values; a fault_clear only in its words
        parameter = next(iter(e["values"]), None) or e["advisory"].split()[1]
        got.append(normal(e["event"], e["t"], e.get("rule"), parameter))
    return got


def by_stdin(bundle: Path, samples: list[tuple[int, dict[int, float]]]) -> list[tuple[Any, ...]]:
    text = "".join(json.dumps({"t": seconds(us), "values": {NAMES[c]: v for c, v in
                                                             values.items()}}) + "\n"
                   for us, values in samples)
    proc = subprocess.run(
        [sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(bundle), "--stdin",
         "jsonl", "--summary-s", "0", "--heartbeat-s", "0"],
        input=text, capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"})
    return records([json.loads(line) for line in proc.stdout.splitlines() if line.strip()])


def records(lines: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [normal(r["event"], r["t"], r.get("rule"), r.get("parameter")) for r in lines
            if r.get("event") in ("raise", "clear", "fault", "fault_clear")]


def by_link(bundle: Path, samples: list[tuple[int, dict[int, float]]], pty: bool,
            expected: int) -> list[tuple[Any, ...]]:
    with _link(bundle, pty) as (daemon, sink, write, _read):
        for seq, (us, values) in enumerate(samples):
            write(wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, seq % 65536, us,
                                               wire.encode_telemetry(values))))
        until(lambda: daemon.counters.total.get("frames_ok", 0) >= len(samples),
              lambda: daemon.counters.total)
        # a frame is counted before its events are written: wait for them (a missing
        # one times out), then read before the link closes (a link loss)
        with contextlib.suppress(AssertionError):
            until(lambda: len(records(list(sink.records))) >= expected, lambda: None, 5)
        return records(list(sink.records))


@pytest.mark.parametrize("seed", SEEDS)
def test_every_path_gives_the_same_events(bundle: Path, tmp_path: Path, seed: int,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    samples = scenario(seed)
    want = by_replay(bundle, samples, tmp_path)
    kinds = {e[1] for e in want}
    assert {"raise", "clear", "fault"} <= kinds, want  # the scenario has teeth
    assert by_stdin(bundle, samples) == want
    for pty in (False, True):
        assert by_link(bundle, samples, pty, len(want)) == want, ("pty" if pty else "tcp")
    monkeypatch.setenv("RULEC_FAST_LANE", "0")
    assert by_link(bundle, samples, False, len(want)) == want, "tcp without the lane"


def test_a_stale_value_is_reported_at_its_instant_on_every_path(
        bundle: Path, tmp_path: Path) -> None:
    """motor_current (max_age_s 2) sampled at 1.0 and next at 5.0: the fault is at 3.0
    everywhere, and the on-delay restarts at 5.0."""
    samples = [(1_000_000, {1: 16.0}), (5_000_000, {1: 16.0}), (6_000_000, {1: 16.0}),
               (7_000_000, {1: 16.0}), (8_000_000, {1: 16.0}), (8_500_000, {1: 16.0})]
    want = by_replay(bundle, samples, tmp_path)
    assert [(t, e) for t, e, _ in want] == [(3.0, "fault"), (5.0, "fault_clear"),
                                            (8.5, "raise")]
    assert by_stdin(bundle, samples) == want
    assert by_link(bundle, samples, False, len(want)) == want


# ---------------------------------------------------------------- a reload mid-run


def _reload_point(bundle: Path, samples: list[tuple[int, dict[int, float]]],
                  tmp_path: Path) -> int:
    """A sample near the middle that raises or clears something: once its events are out,
    a daemon has certainly read every sample before the reload."""
    times = {t for t, _, _ in by_replay(bundle, samples, tmp_path)}
    middle = len(samples) // 2
    return min((k for k, (us, _) in enumerate(samples) if seconds(us) in times),
               key=lambda k: abs(k - middle))


def _swap(path: Path, reloaded: Path) -> None:
    tmp = path.with_suffix(".next")
    tmp.write_bytes(reloaded.read_bytes())
    os.replace(tmp, path)


def by_stdin_reloading(bundle: Path, reloaded: Path, samples: list[tuple[int, dict[int, float]]],
                       k: int, before: int, tmp_path: Path) -> list[tuple[Any, ...]]:
    path = tmp_path / "stdin.bundle"
    path.write_bytes(bundle.read_bytes())
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(path), "--stdin",
         "jsonl", "--summary-s", "0", "--heartbeat-s", "0", "--reload-poll-s", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert proc.stdin is not None and proc.stdout is not None
    lines: list[dict[str, Any]] = []

    def send(part: list[tuple[int, dict[int, float]]]) -> None:
        for us, values in part:
            proc.stdin.write(json.dumps({"t": seconds(us), "values": {
                NAMES[c]: v for c, v in values.items()}}) + "\n")
        proc.stdin.flush()

    def read_until(done: Any) -> None:
        while not done():
            line = proc.stdout.readline()
            assert line, "the daemon ended early"
            if line.strip():
                lines.append(json.loads(line))

    try:
        send(samples[:k + 1])
        read_until(lambda: len(records(lines)) >= before)
        _swap(path, reloaded)
        proc.send_signal(signal.SIGHUP)
        read_until(lambda: any(r.get("event") == "reload" for r in lines))
        send(samples[k + 1:])
        proc.stdin.close()
        rest = proc.stdout.read()
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines += [json.loads(line) for line in rest.splitlines() if line.strip()]
    assert next(r for r in lines if r.get("event") == "reload")["changed"] is True
    return records(lines)


def by_link_reloading(bundle: Path, reloaded: Path, samples: list[tuple[int, dict[int, float]]],
                      k: int, tmp_path: Path, pty: bool) -> list[tuple[Any, ...]]:
    path = tmp_path / f"link{int(pty)}.bundle"
    path.write_bytes(bundle.read_bytes())
    with _link(path, pty) as (daemon, sink, write, _read):
        def send(part: list[tuple[int, dict[int, float]]], first: int) -> None:
            for seq, (us, values) in enumerate(part, first):
                write(wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, seq % 65536, us,
                                                   wire.encode_telemetry(values))))
            until(lambda: daemon.counters.total.get("frames_ok", 0) >= first + len(part),
                  lambda: daemon.counters.total)

        send(samples[:k + 1], 0)
        _swap(path, reloaded)
        daemon.request_reload("test")
        until(lambda: any(r.get("event") == "reload" for r in list(sink.records)),
              lambda: list(sink.records)[-3:])
        send(samples[k + 1:], k + 1)
        time.sleep(0.2)  # the last frame's events follow its count
        return records(list(sink.records))


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_reload_mid_run_gives_the_same_events_on_every_path(
        bundle: Path, reloaded: Path, tmp_path: Path, seed: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    samples = scenario(seed)
    k = _reload_point(bundle, samples, tmp_path)
    t_reload = seconds(samples[k][0])
    want = by_replay(bundle, samples, tmp_path, (t_reload, reloaded))
    before = sum(1 for e in by_replay(bundle, samples, tmp_path) if e[0] <= t_reload)
    after = want[before:]
    assert after and want[:before] == by_replay(bundle, samples, tmp_path)[:before]
    # the reload has teeth: the new bundle raises what the old could not
    assert any(e[2] not in {x[2] for x in by_replay(bundle, samples, tmp_path)}
               for e in after if e[1] == "raise"), after
    assert by_stdin_reloading(bundle, reloaded, samples, k, before, tmp_path) == want
    for pty in (False, True):
        got = by_link_reloading(bundle, reloaded, samples, k, tmp_path, pty)
        assert got == want, ("pty" if pty else "tcp")
    monkeypatch.setenv("RULEC_FAST_LANE", "0")
    assert by_link_reloading(bundle, reloaded, samples, k, tmp_path, False) == want, "no lane"
