"""Time in state from text to events: "within 10 seconds of engine start" (a deadline),
"during the first 30 seconds after engine start" (a window), "after 30 minutes of
operation", judged at samples in telemetry time, unknown until a change of state is seen,
never satisfied in a stateless query, never given as input, carried across a reload, and
the same on replay, ``--stdin``, TCP on 127.0.0.1 and a real pty."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_one_semantics import by_link

from rulec.compiler.cli import main as rulec
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.adopt import adopt
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import StateError

SENSORS = """
[parameters.engine]
states = ["stopped", "running"]
aliases = ["engine"]
max_age_s = 5.0
channel = 0

[parameters.oil_pressure]
unit = "psi"
aliases = ["oil pressure"]
range = [0, 150]
channel = 1

[parameters.engine_speed]
unit = "rpm"
aliases = ["engine speed"]
range = [0, 4000]
channel = 2

[parameters.oil_temperature]
unit = "degC"
aliases = ["oil temperature"]
range = [-40, 200]
channel = 3
"""
MANUAL = """Start limits
If the oil pressure does not rise above 20 psi within 10 seconds of engine start, shut down \
the engine.
Do not exceed 2,700 rpm engine speed during the first 30 seconds after engine start.
After 30 minutes of operation, the oil temperature must not exceed 90 °C.
"""
DEADLINE, WINDOW, AFTER = "shut down the engine", "2,700 rpm", "30 minutes of operation"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("time_in_state")
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    (folder / "manual.txt").write_text(MANUAL, encoding="utf-8")
    out = folder / "b.bundle"
    assert rulec(["compile", str(folder), "-o", str(out), "-q", "--strict"]) == 0
    return out


def rule_of(engine: Engine, words: str) -> str:
    return next(r.id for r in engine.bundle.rules
                if words in r.source["text"] or words in r.action)


def run(engine: Engine, samples: list[tuple[float, dict[str, Any]]]
        ) -> list[tuple[float, str, str]]:
    out = []
    for t, values in samples:
        out += [(e.t, e.event, e.rule) for e in engine.step(t, values) if e.rule]
    return out


def test_the_rules_compare_the_time_in_state_in_seconds(bundle: Path) -> None:
    loaded = load_bundle(bundle)
    derived = loaded.parameters[loaded.param_index["engine.time_in_state"]]
    assert derived.time_in_state_of == "engine" and derived.unit == "s"
    texts = {r.action: r.condition_text for r in loaded.rules}
    assert any("engine.time_in_state > 10 s" in t and "oil_pressure <= 20 psi" in t
               for t in texts.values())
    assert any("engine.time_in_state <= 30 s" in t for t in texts.values())
    assert any("engine.time_in_state > 30 min" in t for t in texts.values())
    assert loaded.derived == len(loaded.rules)


def test_a_deadline_is_judged_once_its_time_has_passed(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    deadline = rule_of(engine, DEADLINE)
    events = run(engine, [(0.0, {"engine": "stopped", "oil_pressure": 0}),
                          (1.0, {"engine": "running", "oil_pressure": 5}),  # start seen
                          (5.0, {"engine": "running", "oil_pressure": 12}),  # rising: normal
                          (9.0, {"engine": "running"}),
                          (11.0, {"oil_pressure": 15}),  # exactly 10 s: not yet late
                          (11.5, {"oil_pressure": 18})])  # 10.5 s, still below 20 psi
    assert events == [(11.5, "raise", deadline)]


def test_a_window_applies_only_until_its_end(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    window = rule_of(engine, WINDOW)
    events = run(engine, [(0.0, {"engine": "stopped", "engine_speed": 0}),
                          (2.0, {"engine": "running", "engine_speed": 2800}),
                          (6.0, {"engine": "running"}),
                          (10.0, {"engine": "running"}),
                          (14.0, {"engine": "running"}),
                          (18.0, {"engine": "running"}),
                          (20.0, {"engine": "running", "engine_speed": 2600}),
                          (24.0, {"engine": "running"}),
                          (25.0, {"engine_speed": 2800}),
                          (28.0, {"engine": "running"}),
                          (32.5, {"engine": "running", "engine_speed": 2800})])  # 30.5 s
    assert events == [(2.0, "raise", window), (20.0, "clear", window),
                      (25.0, "raise", window), (32.5, "clear", window)]


def test_after_n_minutes_of_operation(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    after = rule_of(engine, AFTER)
    running = [(float(t), {"engine": 1}) for t in range(12, 1808, 4)]  # fresh (max_age 5 s)
    events = run(engine, [(0.0, {"engine": 0, "oil_temperature": 95}), (4.0, {"engine": 0}),
                          (8.0, {"engine": 1}), *running,
                          (1808.0, {"engine": 1}),  # exactly 30 min: not after
                          (1809.0, {"engine": 1, "oil_temperature": 95})])
    assert events == [(1809.0, "raise", after)]


def test_a_state_found_already_running_has_no_known_time_in_state(bundle: Path) -> None:
    """The first sample says running: it may have started an hour ago or just now, so no
    window and no deadline is judged until a start is seen."""
    engine = Engine.from_file(str(bundle))
    assert run(engine, [(0.0, {"engine": "running", "engine_speed": 2800, "oil_pressure": 5}),
                        (50.0, {"engine_speed": 2800, "oil_pressure": 5})]) == []


def test_a_stale_state_forgets_when_it_was_entered(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    deadline = rule_of(engine, DEADLINE)
    events = run(engine, [(0.0, {"engine": "stopped", "oil_pressure": 0}),
                          (1.0, {"engine": "running", "oil_pressure": 5}),
                          # engine (max_age_s 5) not sent again: stale at 6.0
                          (20.0, {"engine": "running", "oil_pressure": 5}),
                          (40.0, {"engine": "running", "oil_pressure": 5})])
    assert deadline not in {r for _, _, r in events}


def test_a_stateless_query_never_satisfies_a_time_in_state(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    result = engine.evaluate({"engine": "running", "oil_pressure": 5, "engine_speed": 3000,
                              "oil_temperature": 120})
    assert not result.rules
    with pytest.raises(StateError, match="derives it"):
        engine.evaluate({"engine.time_in_state": 100})
    with pytest.raises(StateError, match="derives it"):
        engine.step(0.0, {"engine.time_in_state": 100})


def test_a_csv_column_for_a_time_in_state_is_refused(bundle: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "run.csv"
    csv.write_text("time,engine,engine.time_in_state\n0,running,100\n", encoding="utf-8")
    assert rulec(["replay", str(bundle), str(csv)]) != 0
    assert "engine.time_in_state" in capsys.readouterr().err


def test_a_reload_carries_when_the_state_was_entered(bundle: Path) -> None:
    old = Engine.from_file(str(bundle))
    run(old, [(0.0, {"engine": "stopped", "oil_pressure": 0}),
              (1.0, {"engine": "running", "oil_pressure": 5}),
              (5.0, {"engine": "running"})])
    new = Engine.from_file(str(bundle))
    adopt(old, new, 5.0)
    deadline = rule_of(new, DEADLINE)
    assert run(new, [(9.0, {"engine": "running"}),
                     (11.5, {"oil_pressure": 5})]) == [(11.5, "raise", deadline)]


SCENARIO = [(0.0, {"engine": "stopped", "oil_pressure": 0, "engine_speed": 0,
                   "oil_temperature": 20}),
            (1.0, {"engine": "running", "oil_pressure": 5, "engine_speed": 2800}),
            (5.0, {"engine": "running", "oil_pressure": 12, "engine_speed": 2600}),
            (9.0, {"engine": "running", "engine_speed": 2750}),
            (11.5, {"engine": "running", "oil_pressure": 15}),
            (13.0, {"engine": "running", "oil_pressure": 30}),
            *((float(t), {"engine": "running"}) for t in range(16, 32, 4)),
            (31.5, {"engine": "running", "engine_speed": 2800}),
            (33.0, {"engine": "stopped", "engine_speed": 0}),
            (34.0, {"engine": "running", "engine_speed": 2900, "oil_pressure": 10}),
            (36.0, {"engine": "running", "oil_pressure": 10}),
            (45.0, {"engine": "running", "oil_pressure": 10})]  # stale from 41: unknown


CHANNELS = {"engine": 0, "oil_pressure": 1, "engine_speed": 2, "oil_temperature": 3}


@pytest.mark.slow
def test_every_path_gives_the_same_events(bundle: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    names = list(CHANNELS)
    csv = tmp_path / "run.csv"
    csv.write_text("time," + ",".join(names) + "\n" + "".join(
        f"{t!r}," + ",".join(str(v.get(n, "")) for n in names) + "\n" for t, v in SCENARIO),
        encoding="utf-8")
    capsys.readouterr()
    assert rulec(["replay", str(bundle), str(csv), "--json"]) == 0
    replayed = [(e["t"], e["event"], e["rule"]) for e in map(
        json.loads, capsys.readouterr().out.splitlines())]
    assert {e for _, e, _ in replayed} == {"raise", "clear"} and len(replayed) >= 5
    text = "".join(json.dumps({"t": t, "values": v}) + "\n" for t, v in SCENARIO)
    proc = subprocess.run(
        [sys.executable, "-m", "rulec.runtime.daemon", "--bundle", str(bundle), "--stdin",
         "jsonl", "--summary-s", "0", "--heartbeat-s", "0"],
        input=text, capture_output=True, text=True, timeout=120, check=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"})
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    onboard = [(r["t"], r["event"], r["rule"]) for r in lines
               if r.get("event") in ("raise", "clear")]
    assert onboard == replayed
    # on the wire a discrete value travels as its state's index
    states = ("stopped", "running")
    frames = [(round(t * 1e6) + 1_000_000, {
        CHANNELS[n]: float(states.index(v)) if n == "engine" else float(v)
        for n, v in values.items()}) for t, values in SCENARIO]
    want = [(t + 1.0, e, r) for t, e, r in replayed]
    for pty in (False, True):
        got = [e for e in by_link(bundle, frames, pty, len(want)) if e[1] in ("raise", "clear")]
        assert got == want, "pty" if pty else "tcp"
