"""A discrete parameter from sensors.toml to the runtime: the bundle's flag and states,
values by state name or index in a query, a CSV replay and JSON input, an unknown index
as a sensor fault, and rule objects that round-trip through rules.jsonl."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulec.compiler.cli import main as rulec
from rulec.runtime.bundle.format import FLAG_DISCRETE, read_header
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import StateError

FOLDER = Path(__file__).parents[1] / "corpora" / "discrete" / "aircraft"
EXAMPLE = Path(__file__).parents[2] / "examples" / "manuals" / "rocket_engine"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("discrete") / "aircraft.bundle"
    assert rulec(["compile", str(FOLDER), "-o", str(out), "-q"]) == 0
    return out


def test_the_bundle_says_it_holds_states(bundle: Path) -> None:
    data = bundle.read_bytes()
    assert read_header(data).flags & FLAG_DISCRETE
    loaded = load_bundle(data)
    gear = loaded.parameters[loaded.param_index["landing_gear"]]
    assert gear.states == ("retracted", "extended") and (gear.range_lo, gear.range_hi) == (0, 1)


def test_a_numeric_bundle_keeps_its_flags(tmp_path: Path) -> None:
    out = tmp_path / "n.bundle"
    assert rulec(["compile", str(EXAMPLE), "-o", str(out), "-q"]) == 0
    assert read_header(out.read_bytes()).flags == 0


def test_a_state_by_name_or_index(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    by_name = engine.evaluate({"landing_gear": "Extended", "airspeed": "150"})
    by_index = engine.evaluate({"landing_gear": 1, "airspeed": 150})
    assert [r.id for r in by_name.rules] == [r.id for r in by_index.rules] != []
    assert "Landing gear is extended" in by_name.rules[0].advisory
    assert not engine.evaluate({"landing_gear": "retracted", "airspeed": 150}).rules


def test_an_absent_state_satisfies_neither_it_nor_its_negation(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    assert not engine.evaluate({"oil_pressure": 10}).rules  # engine absent: neither reading


def test_an_unknown_index_is_a_sensor_fault_and_an_unknown_name_an_error(bundle: Path) -> None:
    engine = Engine.from_file(str(bundle))
    result = engine.evaluate({"landing_gear": 2, "airspeed": 150})
    assert not result.rules and [f.reason for f in result.sensor_faults] == ["above range"]
    with pytest.raises(StateError, match="not one of its states"):
        engine.evaluate({"landing_gear": "sideways"})
    between = engine.evaluate({"landing_gear": 0.5, "airspeed": 150})
    assert not between.rules and [f.reason for f in between.sensor_faults] == ["not a state"]


def test_a_csv_replay_with_state_names(bundle: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    csv = tmp_path / "s.csv"
    csv.write_text("time,landing_gear,airspeed\n0,retracted,150\n1,extended,150\n"
                   "2,0,150\n3,5,150\n", encoding="utf-8")
    assert rulec(["replay", str(bundle), str(csv), "--json", "--faults"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(e["t"], e["event"]) for e in events] == [
        (1.0, "raise"), (2.0, "clear"), (3.0, "fault")]
    bad = tmp_path / "bad.csv"
    bad.write_text("time,landing_gear\n0,sideways\n", encoding="utf-8")
    assert rulec(["replay", str(bundle), str(bad)]) != 0
    assert "bad.csv:2: value of 'landing_gear' is not one of its states" in (
        capsys.readouterr().err)


def test_rule_objects_round_trip(bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "again"
    folder.mkdir()
    shutil.copy(FOLDER / "sensors.toml", folder / "sensors.toml")
    assert rulec(["extract", str(FOLDER), "-o", str(folder / "rules.jsonl")]) == 0
    again = tmp_path / "again.bundle"
    assert rulec(["compile", str(folder), "-o", str(again), "-q"]) == 0
    first, second = load_bundle(bundle.read_bytes()), load_bundle(again.read_bytes())
    assert [r.condition_text for r in first.rules] == [r.condition_text for r in second.rules]
    assert any("landing_gear == extended" in r.condition_text for r in second.rules)


INHIBITS = FOLDER.parent / "inhibits"


@pytest.fixture(scope="module")
def inhibited_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("inhibits") / "inhibits.bundle"
    assert rulec(["compile", str(INHIBITS), "-o", str(out), "-q"]) == 0
    return out


def test_inhibits_from_the_text_and_the_manifest(inhibited_bundle: Path) -> None:
    loaded = load_bundle(inhibited_bundle.read_bytes())
    phase = loaded.param_index["flight_phase"]
    by_text = next(r for r in loaded.rules if "inhibited during" in r.source["text"])
    assert by_text.inhibit == ((phase, frozenset({1, 2})),)  # takeoff and climb
    by_severity = next(r for r in loaded.rules if r.severity == "advisory"
                       and r is not by_text)
    assert by_severity.inhibit == ((phase, frozenset({1})),)  # [inhibit.flight_phase]
    warning = next(r for r in loaded.rules if r.severity == "warning")
    assert warning.inhibit == ()


def test_a_query_lists_an_inhibited_rule_apart(inhibited_bundle: Path) -> None:
    engine = Engine.from_file(str(inhibited_bundle))
    held = engine.evaluate({"oil_pressure": 20, "flight_phase": "climb"})
    assert not held.rules and len(held.inhibited) == 1
    assert held.to_json()["inhibited"] == held.inhibited
    assert len(engine.evaluate({"oil_pressure": 20, "flight_phase": "cruise"}).rules) == 1
    assert len(engine.evaluate({"oil_pressure": 20}).rules) == 1  # no phase: nothing held


def test_a_held_raise_is_released_when_the_phase_ends_if_the_condition_still_holds(
        inhibited_bundle: Path) -> None:
    engine = Engine.from_file(str(inhibited_bundle))
    samples = [(0, 30, "taxi"), (1, 20, "takeoff"), (2, 20, "climb"), (3, 20, "cruise"),
               (4, 30, "cruise"), (5, 20, "takeoff"), (6, 30, "takeoff"), (7, 30, "cruise")]
    events = [(e.t, e.event) for t, oil, phase in samples
              for e in engine.step(float(t), {"oil_pressure": oil, "flight_phase": phase})
              if e.rule is not None]
    assert events == [(3.0, "raise"), (4.0, "clear")]  # the second hold never released
