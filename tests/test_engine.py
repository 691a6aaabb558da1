"""The onboard Engine: exact boundaries, absent and invalid values, durations, deadband,
staleness, advisory text, unit conversion at the boundary, and the paper's cases.

Bundles are built the way `rulec compile` builds them (pipeline -> encode -> load), from
``tests/fixtures/plant`` (one rule per behaviour) and from ``examples/manuals``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle import Bundle, load_bundle
from rulec.runtime.bundle_format import encode_bundle
from rulec.runtime.engine import Engine
from rulec.runtime.errors import StateError

HERE = Path(__file__).resolve().parent
PLANT = HERE / "fixtures" / "plant"
EXAMPLES = HERE.parent / "examples" / "manuals"

# Distinctive pieces of the plant's rule sentences (tests/fixtures/plant/plant_limits.txt).
RELIEF = "open the relief valve"  # tank_temperature > 100 degC, deadband 5
INLET = "close the inlet valve"  # line_pressure >= 200 kPa
FEED = "start the feed pump"  # tank_level < 10 % unless feed_temperature > 80 degC
MIXER = "stop the mixer"  # motor_speed > 3000 rpm or motor_current > 20 A
LOAD = "reduce the mixer load"  # motor_current > 15 A for more than 10 s; max_age_s 2
FAN = "start the cabinet fan"  # cabinet_temperature (degF) > 27 degC == 80.6 degF


def compile_folder(folder: Path) -> Bundle:
    result = collect_rules([folder])
    payload = build_payload(result, folder.name)
    return load_bundle(encode_bundle(payload))


@pytest.fixture(scope="module")
def plant_bundle() -> Bundle:
    return compile_folder(PLANT)


@pytest.fixture
def plant(plant_bundle: Bundle) -> Engine:
    return Engine(plant_bundle)


def fired(engine: Engine, state: dict[str, float]) -> set[str]:
    """The pieces (from the module constants) of the rules this state fires."""
    return _pieces([r.source["text"] for r in engine.evaluate(state).rules])


def _pieces(texts: list[str]) -> set[str]:
    pieces = (RELIEF, INLET, FEED, MIXER, LOAD, FAN)
    out = set()
    for text in texts:
        hits = [p for p in pieces if p in text]
        assert len(hits) == 1, text
        out.add(hits[0])
    return out


def rule_id(engine: Engine, piece: str) -> str:
    (match,) = [r.id for r in engine.bundle.rules if piece in r.source["text"]]
    return match


def events(engine: Engine, t: float, state: dict[str, float]) -> list[tuple[str, str]]:
    """(event, rule piece) of the rule events of one step; fault events as (event, param)."""
    out = []
    for e in engine.step(t, state):
        if e.rule is None:
            out.append((e.event, next(iter(e.values), "")))
        else:
            (piece,) = _pieces([e.source["text"]])
            out.append((e.event, piece))
    return out


def test_plant_fixture_reads_every_rule(plant_bundle: Bundle):
    texts = [r.source["text"] for r in plant_bundle.rules]
    assert _pieces(texts) == {RELIEF, INLET, FEED, MIXER, LOAD, FAN}
    assert len(texts) == 6


# ---------------------------------------------------------------- boundaries


def test_strict_threshold_is_exact(plant: Engine):
    assert fired(plant, {"tank_temperature": 100.0}) == set()
    assert fired(plant, {"tank_temperature": math.nextafter(100.0, math.inf)}) == {RELIEF}
    assert fired(plant, {"tank_temperature": math.nextafter(100.0, -math.inf)}) == set()


def test_inclusive_threshold_is_exact(plant: Engine):
    assert fired(plant, {"line_pressure": 200.0}) == {INLET}
    assert fired(plant, {"line_pressure": math.nextafter(200.0, -math.inf)}) == set()
    assert fired(plant, {"line_pressure": 1000.0}) == {INLET}


def test_values_arrive_as_strings_or_ints(plant: Engine):
    assert fired(plant, {"tank_temperature": "100.5"}) == {RELIEF}  # type: ignore[dict-item]
    assert fired(plant, {"line_pressure": 200}) == {INLET}


def test_aliases_name_parameters(plant: Engine):
    assert fired(plant, {"tank temperature": 101.0}) == {RELIEF}
    assert fired(plant, {"Line Pressure": 250.0}) == {INLET}


@pytest.mark.parametrize(
    "state",
    [
        {"nonsense": 1.0},
        {"tank_temperature": "warm"},
        {"tank_temperature": True},
        {"tank_temperature": None},
    ],
)
def test_bad_state_raises_state_error(plant: Engine, state: dict):
    with pytest.raises(StateError):
        plant.evaluate(state)
    with pytest.raises(ValueError):  # StateError is also a ValueError
        plant.evaluate(state)


# ---------------------------------------------------------------- absent parameters


def test_absent_parameter_satisfies_neither_condition_nor_negation(plant: Engine):
    # "A unless C": C absent -> "not C" is not satisfied -> no fire.
    assert fired(plant, {"tank_level": 5.0}) == set()
    assert fired(plant, {"tank_level": 5.0, "feed_temperature": 20.0}) == {FEED}
    assert fired(plant, {"tank_level": 5.0, "feed_temperature": 80.0}) == {FEED}
    assert fired(plant, {"tank_level": 5.0, "feed_temperature": 81.0}) == set()
    assert fired(plant, {"tank_level": 10.0, "feed_temperature": 20.0}) == set()


def test_or_fires_through_either_side_with_the_other_absent(plant: Engine):
    assert fired(plant, {"motor_speed": 3001.0}) == {MIXER}
    assert fired(plant, {"motor_speed": 3000.0}) == set()
    # motor_current > 20 fires the mixer rule; the duration rule never fires in evaluate
    assert fired(plant, {"motor_current": 21.0}) == {MIXER}
    assert fired(plant, {"motor_current": 20.0}) == set()


def test_empty_state_fires_nothing(plant: Engine):
    result = plant.evaluate({})
    assert result.rules == [] and result.sensor_faults == []


# ---------------------------------------------------------------- invalid values


@pytest.mark.parametrize(
    "value, reason",
    [
        (math.nan, "not a number"),
        (math.inf, "infinite"),
        (-math.inf, "infinite"),
        (-50.5, "below range"),
        (500.5, "above range"),
        ("nan", "not a number"),
    ],
)
def test_invalid_values_are_sensor_faults_and_never_fire(plant: Engine, value, reason: str):
    result = plant.evaluate({"tank_temperature": value, "line_pressure": 10.0})
    assert result.rules == []
    assert [(f.parameter, f.reason) for f in result.sensor_faults] == [("tank_temperature", reason)]
    # an invalid value is not "not C" either
    result = plant.evaluate({"tank_level": 5.0, "feed_temperature": value})
    assert result.rules == []
    assert [f.parameter for f in result.sensor_faults] == ["feed_temperature"]


def test_range_ends_are_valid(plant: Engine):
    result = plant.evaluate({"tank_temperature": 500.0})
    assert result.sensor_faults == []
    assert _pieces([r.source["text"] for r in result.rules]) == {RELIEF}
    assert plant.evaluate({"tank_temperature": -50.0}).sensor_faults == []


def test_out_of_range_or_side_still_lets_the_other_side_fire(plant: Engine):
    result = plant.evaluate({"motor_speed": 5000.0, "motor_current": 150.0})
    assert _pieces([r.source["text"] for r in result.rules]) == {MIXER}
    assert [(f.parameter, f.reason) for f in result.sensor_faults] == [
        ("motor_current", "above range")
    ]


def test_invalid_values_in_a_stream_clear_a_raised_rule(plant: Engine):
    assert events(plant, 0.0, {"line_pressure": 300.0}) == [("raise", INLET)]
    got = events(plant, 1.0, {"line_pressure": math.nan})
    assert ("clear", INLET) in got
    assert ("fault", "line_pressure") in got
    assert plant.active() == []


# ---------------------------------------------------------------- durations


def test_evaluate_never_fires_duration_rules(plant: Engine):
    for value in (15.5, 19.0, 20.0):
        assert fired(plant, {"motor_current": value}) == set()
    load = rule_id(plant, LOAD)
    assert load not in [r.id for r in plant.evaluate({"motor_current": 99.0}).rules]


def test_duration_raises_only_after_more_than_t(plant: Engine):
    assert events(plant, 100.0, {"motor_current": 16.0}) == []
    assert events(plant, 105.0, {"motor_current": 16.0}) == []
    assert events(plant, 110.0, {"motor_current": 16.0}) == []  # held exactly 10 s
    assert events(plant, 110.25, {"motor_current": 16.0}) == [("raise", LOAD)]
    assert plant.active() == [rule_id(plant, LOAD)]
    assert events(plant, 111.0, {"motor_current": 16.0}) == []  # raised once
    assert events(plant, 112.0, {"motor_current": 15.0}) == [("clear", LOAD)]
    assert plant.active() == []


def test_duration_is_measured_from_the_first_sample_where_it_held(plant: Engine):
    assert events(plant, 0.0, {"motor_current": 16.0}) == []
    assert events(plant, 1.5, {"motor_current": 10.0}) == []  # interrupted: restart
    assert events(plant, 2.0, {"motor_current": 16.0}) == []
    assert events(plant, 11.5, {"motor_current": 16.0}) == []  # held 9.5 s since 2.0
    assert events(plant, 12.0, {"motor_current": 16.0}) == []  # held exactly 10 s
    assert events(plant, 12.5, {"motor_current": 16.0}) == [("raise", LOAD)]


def test_duration_raise_uses_the_hold_time_between_sparse_samples(plant: Engine):
    assert events(plant, 0.0, {"motor_current": 16.0}) == []
    for t in (1.5, 3.0, 4.5, 6.0, 7.5, 9.0):
        assert events(plant, t, {"motor_current": 16.0}) == []
    assert events(plant, 10.5, {"motor_current": 16.0}) == [("raise", LOAD)]


# ---------------------------------------------------------------- deadband


def test_deadband_clears_only_below_threshold_minus_deadband(plant: Engine):
    assert events(plant, 0.0, {"tank_temperature": 101.0}) == [("raise", RELIEF)]
    for t, value in [(1.0, 100.0), (2.0, 98.0), (3.0, 95.5), (4.0, 95.0)]:
        assert events(plant, t, {"tank_temperature": value}) == [], value
    assert events(plant, 5.0, {"tank_temperature": 94.99}) == [("clear", RELIEF)]
    assert events(plant, 6.0, {"tank_temperature": 99.0}) == []  # below T: no re-raise
    assert events(plant, 7.0, {"tank_temperature": 100.5}) == [("raise", RELIEF)]


def test_jitter_around_the_threshold_raises_once_and_clears_once(plant: Engine):
    seen = []
    t = 0.0
    for value in [99.0, 100.5, 99.5, 101.0, 99.9, 100.1, 97.0, 100.2, 96.0, 94.0, 96.0, 99.0]:
        seen.extend(events(plant, t, {"tank_temperature": value}))
        t += 0.1
    assert seen == [("raise", RELIEF), ("clear", RELIEF)]


ROOM_TOML = """
[parameters.room_temperature]
unit = "degC"
aliases = ["room temperature"]
range = [-40, 60]
deadband = 0.5
"""
ROOM_TEXT = """\
If the room temperature falls below 18 °C, switch on the heater.
The room temperature shall remain between 2 °C and 8 °C.
If the room temperature is 30 °C or more, open the window.
"""


@pytest.fixture
def room(tmp_path: Path) -> Engine:
    (tmp_path / "sensors.toml").write_text(ROOM_TOML, encoding="utf-8")
    (tmp_path / "room.txt").write_text(ROOM_TEXT, encoding="utf-8")
    return Engine(compile_folder(tmp_path))


def _room_trace(engine: Engine, values: list[float], key: str) -> list[tuple[float, str]]:
    """(value, event) of the events of the rule whose text holds `key`, one step a value."""
    out = []
    for t, value in enumerate(values):
        for e in engine.step(float(t), {"room_temperature": value}):
            if e.rule is not None and key in e.source["text"]:
                out.append((value, e.event))
    return out


def test_deadband_is_mirrored_for_falling_thresholds(room: Engine):
    values = [20.0, 17.9, 18.0, 18.4, 18.5, 18.51, 18.2, 17.99]
    assert _room_trace(room, values, "heater") == [
        (17.9, "raise"),
        (18.51, "clear"),
        (17.99, "raise"),
    ]


def test_deadband_on_both_sides_of_a_range_constraint(room: Engine):
    values = [5.0, 8.1, 7.6, 7.5, 7.49, 2.0, 1.99, 2.4, 2.5, 2.51, 5.0]
    assert _room_trace(room, values, "between 2 °C and 8 °C") == [
        (8.1, "raise"),
        (7.49, "clear"),
        (1.99, "raise"),
        (2.51, "clear"),
    ]


def test_deadband_on_an_inclusive_threshold(room: Engine):
    values = [29.9, 30.0, 29.6, 29.5, 29.49, 29.9, 30.0]
    assert _room_trace(room, values, "window") == [
        (30.0, "raise"),
        (29.49, "clear"),
        (30.0, "raise"),
    ]


def test_without_deadband_a_rule_clears_as_soon_as_the_condition_stops(plant: Engine):
    assert events(plant, 0.0, {"line_pressure": 200.0}) == [("raise", INLET)]
    assert events(plant, 1.0, {"line_pressure": 199.999}) == [("clear", INLET)]


# ---------------------------------------------------------------- staleness


def test_stale_value_is_a_fault_and_clears_the_rule(plant: Engine):
    mixer = rule_id(plant, MIXER)
    assert events(plant, 0.0, {"motor_current": 25.0}) == [("raise", MIXER)]
    assert events(plant, 2.0, {"motor_speed": 100.0}) == []  # age exactly 2.0: fresh
    got = events(plant, 2.5, {"motor_speed": 100.0})
    assert ("clear", MIXER) in got
    assert ("fault", "motor_current") in got
    assert mixer not in plant.active()
    # a fresh sample makes it valid (and firing) again
    got = events(plant, 3.0, {"motor_current": 25.0})
    assert ("raise", MIXER) in got
    assert ("fault_clear", "") in got


def test_stale_value_does_not_raise(plant: Engine):
    assert events(plant, 0.0, {"motor_current": 16.0}) == []
    # no new motor_current sample: by t = 11 it is 11 s old, hence stale, so no raise
    got = events(plant, 11.0, {"motor_speed": 100.0})
    assert ("raise", LOAD) not in got
    assert ("fault", "motor_current") in got


def test_parameters_without_max_age_never_go_stale(plant: Engine):
    assert events(plant, 0.0, {"line_pressure": 250.0}) == [("raise", INLET)]
    assert events(plant, 10_000.0, {"tank_level": 50.0}) == []
    assert plant.active() == [rule_id(plant, INLET)]


# ---------------------------------------------------------------- advisory text


def test_advisory_holds_the_live_value_and_unit(plant: Engine):
    (rule,) = plant.evaluate({"tank_temperature": 123.5}).rules
    assert "123.5 °C" in rule.advisory
    assert "100 °C" in rule.advisory
    assert RELIEF in rule.advisory.lower()
    (rule,) = plant.evaluate({"line_pressure": 420.0}).rules
    assert "420 kPa" in rule.advisory
    (event,) = plant.step(0.0, {"tank_temperature": 150.0})
    assert "150 °C" in event.advisory


# ---------------------------------------------------------------- unit conversion


def test_converted_threshold_is_exact_in_double_precision(plant: Engine):
    # 27 degC is exactly 80.6 degF; the threshold is the double nearest 80.6.
    assert fired(plant, {"cabinet_temperature": 80.6}) == set()
    assert fired(plant, {"cabinet_temperature": 80.60000000000001}) == {FAN}
    assert fired(plant, {"cabinet_temperature": 80.59999999999999}) == set()
    (rule,) = plant.evaluate({"cabinet_temperature": 81.0}).rules
    assert "80.6 °F" in rule.advisory and "81 °F" in rule.advisory


def test_stream_boundary_after_conversion(plant: Engine):
    assert events(plant, 0.0, {"cabinet_temperature": 80.6}) == []
    assert events(plant, 1.0, {"cabinet_temperature": 80.60000000000001}) == [("raise", FAN)]


# ---------------------------------------------------------------- the paper's cases


@pytest.fixture(scope="module")
def examples() -> dict[str, Engine]:
    return {
        name: Engine(compile_folder(EXAMPLES / name))
        for name in ("rocket_engine", "hospital", "inventory")
    }


def texts(engine: Engine, state: dict[str, float]) -> list[str]:
    return [r.source["text"] for r in engine.evaluate(state).rules]


def test_paper_rocket_engine(examples: dict[str, Engine]):
    got = texts(examples["rocket_engine"], {"chamber_temperature": 820, "chamber_pressure": 45})
    assert len(got) == 2, got
    assert any("increase the coolant flow" in t for t in got)
    assert any("shut down the cryogenic pump" in t for t in got)


def test_paper_hospital(examples: dict[str, Engine]):
    got = texts(examples["hospital"], {"systolic_bp": 170})
    assert len(got) == 1, got
    assert "request a cardiology review" in got[0]


def test_paper_inventory(examples: dict[str, Engine]):
    got = texts(examples["inventory"], {"stock_level": 0})
    assert len(got) == 2, got
    assert any("raise a reorder request" in t for t in got)
    assert any("flag the item as out of stock" in t for t in got)


def test_paper_results_carry_provenance_into_the_manual(examples: dict[str, Engine]):
    engine = examples["rocket_engine"]
    manual = (EXAMPLES / "rocket_engine" / "hot_fire_limits.txt").read_text(encoding="utf-8")
    lines = manual.splitlines()
    for rule in engine.evaluate({"chamber_temperature": 820, "chamber_pressure": 45}).rules:
        assert rule.source["file"] == "hot_fire_limits.txt"
        assert lines[rule.source["line"] - 1].strip() == rule.source["text"]
        assert "820 °C" in rule.advisory


def test_engine_reset_forgets_the_stream(plant: Engine):
    assert events(plant, 0.0, {"line_pressure": 300.0}) == [("raise", INLET)]
    plant.reset()
    assert plant.active() == []
    assert events(plant, 0.0, {"line_pressure": 300.0}) == [("raise", INLET)]
