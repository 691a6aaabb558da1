"""The onboard Engine: exact boundaries, absent and invalid values, durations, deadband,
staleness, advisory text, unit conversion at the boundary, and the paper's cases.

Bundles are built the way `rulec compile` builds them (pipeline -> encode -> load), from
``tests/fixtures/plant`` (one rule per behaviour) and from ``examples/manuals``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import StateError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

HERE = Path(__file__).resolve().parents[2]
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
    # samples closer than motor_current's max_age_s (2 s): the value never goes stale
    for t in (100.0, 101.25, 102.5, 103.75, 105.0, 106.25, 107.5, 108.75):
        assert events(plant, t, {"motor_current": 16.0}) == []
    assert events(plant, 110.0, {"motor_current": 16.0}) == []  # held exactly 10 s
    assert events(plant, 110.25, {"motor_current": 16.0}) == [("raise", LOAD)]
    assert plant.active() == [rule_id(plant, LOAD)]
    assert events(plant, 111.0, {"motor_current": 16.0}) == []  # raised once
    assert events(plant, 112.0, {"motor_current": 15.0}) == [("clear", LOAD)]
    assert plant.active() == []


def test_duration_is_measured_from_the_first_sample_where_it_held(plant: Engine):
    assert events(plant, 0.0, {"motor_current": 16.0}) == []
    assert events(plant, 1.5, {"motor_current": 10.0}) == []  # interrupted: restart
    for t in (2.0, 3.5, 5.0, 6.5, 8.0, 9.5, 11.0):
        assert events(plant, t, {"motor_current": 16.0}) == []
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
    assert events(plant, 1.99, {"motor_speed": 100.0}) == []  # younger than 2.0: fresh
    # stale from its own time plus max_age_s: at exactly 2.0 (the contract's "Time")
    got = events(plant, 2.0, {"motor_speed": 100.0})
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


# ---------------------------------------------------------------- the paper's five queries
#
# Each goes through the three paths: geometry decides and proves, the logic path entails
# the same actions (and, alone, fires the same rules), the graph path brings related
# rules, statements and procedures.  The logic half needs the bundle's `cnf.atoms`
# section; while the pipeline does not write it, it is added here the way the logic
# path's own tests do, and the logic half is skipped (with the reason) when the logic
# path is not in the build.


def compile_three_paths(folder: Path) -> Bundle:
    result = collect_rules([folder])
    payload = build_payload(result, folder.name)
    if "atoms" not in payload["cnf"]:
        try:
            from rulec.compiler.build.boxes import ThresholdConverter
            from rulec.compiler.build.cnf import atom_arrays, build_cnf
        except ImportError:
            return load_bundle(encode_bundle(payload))
        units = {name: info.unit_symbol for name, info in result.params.params.items()}
        cnf = build_cnf(result.rules, ThresholdConverter(units))
        position = {name: i for i, name in enumerate(result.params.params)}
        payload["cnf"]["atoms"] = atom_arrays(cnf, position)
    return load_bundle(encode_bundle(payload))


@pytest.fixture(scope="module")
def paper() -> dict[str, Bundle]:
    names = ("temperature_control", "hospital", "access_control", "inventory", "rocket_engine")
    return {name: compile_three_paths(EXAMPLES / name) for name in names}


def logic_ready(bundle: Bundle) -> None:
    """Skip the logic half of a test, saying why, while the logic path cannot run."""
    engine = Engine(bundle)
    if engine.logic_status != "ok":
        pytest.skip(f"logic path not ready: {engine.logic_status}")


def three_paths(bundle: Bundle, state: dict[str, float], piece_sets: list[str]) -> Any:
    """Evaluate with every path on; check the rules (by text pieces), each fired once,
    and that geometry alone and logic alone (when it runs) fire the same rules."""
    result = Engine(bundle).evaluate(state)
    got = [r.source["text"] for r in result.rules]
    assert len(got) == len(piece_sets), got
    for piece in piece_sets:
        assert sum(piece in t for t in got) == 1, (piece, got)
    ids = sorted(r.id for r in result.rules)
    assert sorted(r.id for r in Engine(bundle, {"geometry"}).evaluate(state).rules) == ids
    assert Engine(bundle, {"graph"}).evaluate(state).rules == []
    for rule in result.rules:
        assert rule.evidence["geometry_proof"] and "graph" in rule.evidence
    if Engine(bundle).logic_status == "ok":
        assert sorted(r.id for r in Engine(bundle, {"logic"}).evaluate(state).rules) == ids
        assert all(r.fired_by == ["geometry", "logic"] for r in result.rules)
        assert "disagreements" not in result.to_json()
    return result


def test_paper_query_temperature_control(paper: dict[str, Bundle]):
    bundle = paper["temperature_control"]
    result = three_paths(bundle, {"room_temperature": 96.8},
                         ["exceeds 27 °C, start the second cooling unit",
                          "exceeds 35 °C, notify the facility engineer"])
    assert result.severity in ("warning", "caution", "advisory")
    first = next(r for r in result.rules if "27 °C" in r.source["text"])
    graph = first.evidence["graph"]
    assert any("35 °C" in r["source"]["text"] and r["fires_now"] for r in graph["related"])
    assert any(s.get("text") == "Room temperature probes are calibrated every 6 months."
               for s in graph["statements"])
    # the duration rule on the same parameter never fires statelessly; it is pending
    pending = [b for b in Engine(bundle).evaluate({"room_temperature": 96.8},
                                                  nearest=True).nearest
               if "for more than 10 minutes" in b["source"]["text"]]
    assert pending and "fires only after holding" in pending[0]["text"]


def test_paper_query_temperature_control_logic(paper: dict[str, Bundle]):
    bundle = paper["temperature_control"]
    logic_ready(bundle)
    result = Engine(bundle).evaluate({"room_temperature": 96.8})
    assert {a for r in result.rules for a in r.evidence["logic"]["entails"]} == {
        "start the second cooling unit", "notify the facility engineer immediately"}
    assert result.logic is not None and result.logic["consistent"] is True


def test_paper_query_hospital_discharge_at_170(paper: dict[str, Bundle]):
    bundle = paper["hospital"]
    result = three_paths(bundle, {"systolic_bp": 170}, ["request a cardiology review"])
    (rule,) = result.rules
    assert "170 mmHg" in rule.advisory and "160 mmHg" in rule.advisory
    (holds,) = rule.evidence["geometry_proof"][0]["holds"]
    assert (holds["test"], holds["margin"]) == ("170 > 160", 10.0)
    related = {r["id"]: r for r in rule.evidence["graph"]["related"]}
    emergency = next(r for r in bundle.rules if "hypertensive emergency" in r.action)
    assert related[emergency.id]["relation"] == "inside"
    assert related[emergency.id]["fires_now"] is False


def test_paper_query_hospital_discharge_logic(paper: dict[str, Bundle]):
    bundle = paper["hospital"]
    logic_ready(bundle)
    (rule,) = Engine(bundle).evaluate({"systolic_bp": 170}).rules
    assert rule.evidence["logic"]["entailed"] is True
    assert rule.evidence["logic"]["facts"] == ["systolic_bp in (160, inf)"]


def test_paper_query_five_step_login_procedure(paper: dict[str, Bundle]):
    bundle = paper["access_control"]
    engine = Engine(bundle)
    (proc,) = engine.procedure("login")
    assert len(proc.steps) == 5
    assert [s.source["line"] for s in proc.steps] == [10, 11, 12, 13, 14]
    # graph path: the same order, by traversal of has_step / next_step
    from rulec.runtime.engine.related import GraphPath

    assert GraphPath(bundle).steps(proc.id) == [f"{proc.id}#{n}" for n in range(1, 6)]
    # logic path: the CNF chain procedure -> step 1 -> ... -> step 5 entails each step
    import pycosat

    cnf = bundle.cnf
    clauses = [cnf.literals[cnf.start[i]:cnf.start[i + 1]].tolist()
               for i in range(cnf.n_clauses)]
    number = {v.name: i + 1 for i, v in enumerate(cnf.variables)}
    start = number[proc.id]
    for n in range(1, 6):
        step = number[f"{proc.id}#{n}"]
        assert pycosat.solve([*clauses, [start], [-step]]) == "UNSAT"
    assert pycosat.solve([*clauses, [number[f"{proc.id}#2"]], [-number[f"{proc.id}#1"]]]) != (
        "UNSAT")  # the chain runs one way only
    # and geometry has nothing to say about a procedure: no state fires it
    assert all(r.kind != "procedure" for r in bundle.rules)


def test_paper_query_inventory_with_its_boundary_rule(paper: dict[str, Bundle]):
    bundle = paper["inventory"]
    result = three_paths(bundle, {"stock_level": 5}, ["falls below 10 units"])
    (rule,) = result.rules
    boundary = rule.evidence["graph"]["related"][0]
    assert "reaches 0 units" in boundary["source"]["text"] and boundary["relation"] == "inside"
    (near,) = [b for b in Engine(bundle).evaluate({"stock_level": 5}, nearest=True).nearest
               if b["rule"] == boundary["id"]]
    (fail,) = near["failing"]
    assert fail["gap"] == 5.0 and "has reached 0" in fail["text"]
    both = three_paths(bundle, {"stock_level": 0}, ["falls below 10 units", "reaches 0 units"])
    assert both.severity == "caution"


def test_paper_query_inventory_logic(paper: dict[str, Bundle]):
    bundle = paper["inventory"]
    logic_ready(bundle)
    result = Engine(bundle).evaluate({"stock_level": 0})
    assert result.logic is not None
    assert sorted(result.logic["entailed"]) == [
        "flag the item as out of stock and notify the sales desk",
        "raise a reorder request with the preferred supplier"]


def test_paper_query_rocket_engine_820_45(paper: dict[str, Bundle]):
    bundle = paper["rocket_engine"]
    result = three_paths(bundle, {"chamber_temperature": 820, "chamber_pressure": 45},
                         ["increase the coolant flow", "shut down the cryogenic pump"])
    pump = next(r for r in result.rules if "cryogenic" in r.source["text"])
    tests = sorted(c["test"] for c in pump.evidence["geometry_proof"][0]["holds"])
    assert tests == ["45 < 50", "820 > 800"]
    assert "820 °C" in pump.advisory and "45 psi" in pump.advisory
    assert result.conflicts == []


def test_paper_query_rocket_engine_logic(paper: dict[str, Bundle]):
    bundle = paper["rocket_engine"]
    logic_ready(bundle)
    result = Engine(bundle).evaluate({"chamber_temperature": 820, "chamber_pressure": 45})
    pump = next(r for r in result.rules if "cryogenic" in r.source["text"])
    assert pump.evidence["logic"]["facts"] == ["chamber_temperature in (800, inf)",
                                               "chamber_pressure in (-inf, 50)"]
    assert pump.evidence["logic"]["method"] == "propagation"
    # a violated constraint: the logic path reports the conflict, geometry fires it
    out = Engine(bundle).evaluate({"chamber_temperature": 820, "chamber_pressure": 45,
                                   "fuel_line_pressure": 120}).to_json()
    (conflict,) = out["conflicts"]
    assert conflict["kind"] == "constraint" and conflict["paths"] == ["logic"]
    assert conflict["rules"][0] in [r["id"] for r in out["rules"]]
    assert out["logic"]["consistent"] is False


# ---------------------------------------------------------------- merge and switches


def test_output_keeps_the_contract_fields_and_adds_the_paths(paper: dict[str, Bundle]):
    out = Engine(paper["rocket_engine"]).evaluate(
        {"chamber_temperature": 820, "chamber_pressure": 45}).to_json()
    for rule in out["rules"]:
        assert {"id", "severity", "advisory", "source"} <= set(rule)
        assert {"file", "line", "text"} <= set(rule["source"])
    assert out["paths"] == ["geometry", "logic", "graph"]
    assert out["severity"] == "caution" or out["severity"] in ("warning", "advisory")
    assert {"latency_us", "path_us", "conflicts", "procedures", "sensor_faults"} <= set(out)
    assert out["latency_us"] >= 0 and "geometry" in out["path_us"]


def test_rules_are_ordered_warning_caution_advisory(paper: dict[str, Bundle]):
    result = Engine(paper["rocket_engine"]).evaluate(
        {"chamber_temperature": 960, "chamber_pressure": 45})
    order = {"warning": 0, "caution": 1, "advisory": 2}
    ranks = [order[r.severity] for r in result.rules]
    assert ranks == sorted(ranks) and result.severity == result.rules[0].severity


def test_paths_switches_and_parsing(plant_bundle: Bundle):
    from rulec.runtime.engine.engine import parse_paths

    assert parse_paths("geometry, LOGIC") == {"geometry", "logic"}
    assert parse_paths("all") == {"geometry", "logic", "graph"}
    for bad in ("", "geometry,sat", ","):
        with pytest.raises(StateError):
            parse_paths(bad)
    with pytest.raises(ValueError):
        Engine(plant_bundle, paths={"vectors"})
    out = Engine(plant_bundle, paths={"geometry"}).evaluate({"tank_temperature": 150}).to_json()
    assert out["paths"] == ["geometry"] and "logic" not in out
    assert set(out["rules"][0]["evidence"]) == {"geometry", "geometry_proof"}


def test_logic_alone_on_a_bundle_without_atoms_is_refused(plant_bundle: Bundle):
    from rulec.runtime.errors import BundleError

    if plant_bundle.cnf.__dict__.get("atoms") is not None:
        pytest.skip("the pipeline writes cnf.atoms now")
    with pytest.raises(BundleError, match="logic path cannot run"):
        Engine(plant_bundle, paths={"logic"})
    out = Engine(plant_bundle).evaluate({"tank_temperature": 150}).to_json()
    assert out["logic"]["available"] is False and len(out["rules"]) == 1


SPLIT_TEXT = """\
If the tank level exceeds 90 % unless the drain valve position is above 50 %, sound the horn.
If the tank level exceeds 90 % and the drain valve position is above 50 %, sound the horn.
"""
SPLIT_SENSORS = """\
[parameters.tank_level]
unit = "percent"
aliases = ["tank level"]
[parameters.drain_valve_position]
unit = "percent"
aliases = ["drain valve position"]
"""


def test_logic_alone_splits_cases_where_geometry_needs_every_value(tmp_path: Path):
    """The documented difference: classical entailment fires the horn with the valve
    position unknown (it holds either way); geometry, by the contract, fires nothing."""
    (tmp_path / "tank.txt").write_text(SPLIT_TEXT, encoding="utf-8")
    (tmp_path / "sensors.toml").write_text(SPLIT_SENSORS, encoding="utf-8")
    bundle = compile_three_paths(tmp_path)
    logic_ready(bundle)
    state = {"tank_level": 95}
    assert Engine(bundle, {"geometry"}).evaluate(state).rules == []
    alone = Engine(bundle, {"logic"}).evaluate(state)
    assert len(alone.rules) == 2 and all(r.fired_by == ["logic"] for r in alone.rules)
    assert all(r.evidence["logic"]["method"] == "refutation" for r in alone.rules)
    merged = Engine(bundle).evaluate(state).to_json()
    assert merged["rules"] == []
    assert sorted(merged["disagreements"]["logic_only"]) == sorted(r.id for r in alone.rules)
    known = {"tank_level": 95, "drain_valve_position": 10}
    assert len(Engine(bundle).evaluate(known).rules) == 1


# ---------------------------------------------------------------- the one semantics of time


def timed(engine: Engine, t: float, state: dict) -> list[tuple[float, str, str]]:
    return [(e.t, e.event, e.rule or next(iter(e.values), "")) for e in engine.step(t, state)]


def test_a_stale_value_is_reported_at_its_own_time_plus_max_age(plant: Engine):
    """motor_current (max_age_s 2) sampled at 0 is stale from 2, whatever the next
    sample's time: the fault carries t=2, and the fresh sample at 5 clears it."""
    assert timed(plant, 0.0, {"motor_current": 5.0}) == []
    assert timed(plant, 5.0, {"motor_current": 5.0}) == [
        (2.0, "fault", "motor_current"), (5.0, "fault_clear", "")]


def test_a_value_is_not_believed_past_its_max_age_for_a_duration(plant: Engine):
    """A 10 s on-delay does not count the time a value was stale: the value sampled at 4
    is stale from 6, so the condition holds again only from the sample at 12."""
    load = rule_id(plant, LOAD)
    for t in (0.0, 1.5, 3.0, 4.0):
        plant.step(t, {"motor_current": 16.0})
    got = plant.step(12.0, {"motor_current": 16.0})
    assert [(e.t, e.event) for e in got] == [(6.0, "fault"), (12.0, "fault_clear")]
    for t in (13.5, 15.0, 16.5, 18.0, 19.5, 21.0):
        assert [e for e in plant.step(t, {"motor_current": 16.0}) if e.rule] == []
    assert [e.rule for e in plant.step(22.5, {"motor_current": 16.0})] == [load]


def test_a_raised_rule_clears_at_the_instant_its_data_goes_stale(plant: Engine):
    load = rule_id(plant, LOAD)
    for t in (0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0, 10.5):
        plant.step(t, {"motor_current": 16.0})
    assert plant.active() == [load]
    got = plant.step(20.0, {"motor_current": 16.0})
    assert [(e.t, e.event, e.rule) for e in got] == [
        (12.5, "fault", None), (12.5, "clear", load), (20.0, "fault_clear", None)]


def test_time_passing_without_a_sample_never_raises(plant: Engine):
    """The daemon's silence clock: staleness at its instants, no duration judged."""
    for t in (0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0):
        plant.step(t, {"motor_current": 16.0})
    assert plant.tick(10.5) == []  # 10.5 s held, but no sample: nothing raised
    got = plant.tick(30.0)
    assert [(e.t, e.event) for e in got] == [(11.0, "fault")]
    assert plant.active() == []


def test_a_converted_threshold_is_shown_as_the_document_wrote_it(tmp_path) -> None:
    """"above 300 psi (≈20.6843 bar)", never "above 20.684271879505083 bar"."""
    from rulec.compiler import compile_manuals

    (tmp_path / "m.txt").write_text("If the line pressure exceeds 300 psi, open the bypass "
                                    "valve.\nIf the tank level exceeds 80 %, stop the feed.\n")
    (tmp_path / "sensors.toml").write_text(
        '[parameters.line_pressure]\nunit = "bar"\nrange = [0, 100]\n'
        '[parameters.tank_level]\nunit = "percent"\nrange = [0, 100]\n')
    made = compile_manuals([tmp_path], tmp_path / "b.bundle")
    engine = Engine.from_file(str(made.bundle))
    (rule,) = engine.evaluate({"line_pressure": 21}).rules
    assert "above 300 psi (≈20.6843 bar)" in rule.advisory
    assert "20.684271879505083" not in rule.advisory
    (rule,) = engine.evaluate({"tank_level": 90}).rules
    assert "is above 80%" in rule.advisory  # same unit: the exact number, as before


def test_a_state_firing_hundreds_of_rules_lists_a_bounded_number_of_related_ones(
        tmp_path) -> None:
    """Related-rule work is capped per fired rule (MAX_RELATED), and the answer says so."""
    from rulec.compiler import compile_manuals
    from rulec.runtime.engine.related import MAX_RELATED

    text = "".join(f"Limits {n}\nIf the tank temperature exceeds {100 + n % 7} °C, open "
                   f"relief valve {n}.\n\n" for n in range(300))
    (tmp_path / "m.txt").write_text(text)
    (tmp_path / "sensors.toml").write_text(
        '[parameters.tank_temperature]\nunit = "degC"\nrange = [-50, 500]\n')
    made = compile_manuals([tmp_path], tmp_path / "b.bundle")
    answer = Engine.from_file(str(made.bundle)).evaluate({"tank_temperature": 200})
    assert len(answer.rules) == 300
    for rule in answer.rules:
        graph = rule.evidence["graph"]
        assert len(graph["related"]) <= MAX_RELATED
        assert graph.get("related_capped_at") == MAX_RELATED
