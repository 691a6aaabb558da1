"""Streams: chatter under a deadband, on-delay, off-delay (``clear_delay_s``), latching
until acknowledged (``latch``), sensor validity, and determinism across kernel backends.

The plant fixture (``tests/fixtures/plant``) has one rule per behaviour; the optional
rule keys are set on its compiled payload, as a compiler writing them would.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.backend import load_native
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine, Event
from rulec.runtime.errors import BundleError, StateError

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

HERE = Path(__file__).resolve().parents[2]
PLANT = HERE / "fixtures" / "plant"
EXAMPLES = HERE.parent / "examples" / "manuals"

RELIEF = "open the relief valve"  # tank_temperature > 100 degC, deadband 5
INLET = "close the inlet valve"  # line_pressure >= 200 kPa, no deadband
LOAD = "reduce the mixer load"  # motor_current > 15 A for more than 10 s; max_age_s 2
MIXER = "stop the mixer"  # motor_speed > 3000 rpm or motor_current > 20 A
BACKENDS = ["numpy", "native"]


def plant_payload() -> dict[str, Any]:
    return build_payload(collect_rules([PLANT]), "plant")


def with_rule_keys(payload: dict[str, Any], piece: str, **keys: Any) -> dict[str, Any]:
    (entry,) = [r for r in payload["rules"] if piece in r["source"]["text"]]
    entry.update(keys)
    return payload


def engine(payload: dict[str, Any] | None = None, **kw: Any) -> Engine:
    return Engine(load_bundle(encode_bundle(payload or plant_payload())), **kw)


def need_backend(name: str) -> None:
    if name == "native" and load_native() is None:
        pytest.skip("C kernel not built")


def trace(e: Engine, samples: list[tuple[float, dict[str, float]]]) -> list[tuple[float, str]]:
    """(t, event) of the rule events of a stream."""
    return [(ev.t, ev.event) for t, s in samples for ev in e.step(t, s) if ev.rule is not None]


# ---------------------------------------------------------------- chatter (issue 4)


def oscillation(threshold: float, amplitude: float, minutes: float = 10.0, hz: float = 10.0
                ) -> list[float]:
    """A value jittering around a threshold: two incommensurate sines plus seeded noise,
    never farther than ``amplitude`` from it."""
    rng = random.Random(4)
    n = int(minutes * 60 * hz)
    out = []
    for i in range(n):
        t = i / hz
        wobble = 0.6 * math.sin(2 * math.pi * t / 7.3) + 0.3 * math.sin(2 * math.pi * t / 1.1)
        out.append(threshold + amplitude * (wobble + 0.1 * rng.uniform(-1, 1)))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_chatter_within_the_deadband_raises_once_and_clears_once(backend: str):
    need_backend(backend)
    e = engine(backend=backend)
    values = oscillation(100.0, 4.9)  # deadband 5: stays within (95, 105)
    assert min(values) > 95.0 and max(values) < 105.0
    assert sum(v > 100.0 for v in values) > 1000 and sum(v <= 100.0 for v in values) > 1000
    samples = [(i / 10, {"tank_temperature": v}) for i, v in enumerate(values)]
    samples.append((600.0, {"tank_temperature": 90.0}))  # the excursion ends
    got = trace(e, samples)
    first_over = next(i for i, v in enumerate(values) if v > 100.0) / 10
    assert got == [(first_over, "raise"), (600.0, "clear")]


def test_chatter_on_a_falling_threshold_with_its_mirrored_deadband(tmp_path: Path):
    (tmp_path / "sensors.toml").write_text(
        '[parameters.room_temperature]\nunit = "degC"\nrange = [-40, 60]\ndeadband = 0.5\n',
        encoding="utf-8")
    (tmp_path / "room.txt").write_text(
        "If the room temperature falls below 18 °C, switch on the heater.\n", encoding="utf-8")
    e = Engine(load_bundle(encode_bundle(build_payload(collect_rules([tmp_path]), "room"))))
    values = oscillation(18.0, 0.49)
    samples = [(i / 10, {"room_temperature": v}) for i, v in enumerate(values)]
    samples.append((600.0, {"room_temperature": 19.0}))
    got = trace(e, samples)
    assert [ev for _, ev in got] == ["raise", "clear"] and got[-1][0] == 600.0


def test_without_a_deadband_the_same_jitter_chatters():
    # the control experiment: line_pressure has no deadband
    values = oscillation(200.0, 4.9)
    got = trace(engine(), [(i / 10, {"line_pressure": v}) for i, v in enumerate(values)])
    assert len(got) > 100


# ---------------------------------------------------------------- on-delay


def test_on_delay_strict_and_inclusive():
    # closer than motor_current's max_age_s (2 s): the value is never stale in between
    stream = [(t, {"motor_current": 16.0})
              for t in (0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0, 10.0, 10.5)]
    assert trace(engine(), stream) == [(10.5, "raise")]  # more than 10 s
    inclusive = with_rule_keys(plant_payload(), LOAD, duration_inclusive=True)
    assert trace(engine(inclusive), stream) == [(10.0, "raise")]  # at least 10 s


# ---------------------------------------------------------------- off-delay


def test_off_delay_clears_only_after_false_for_t():
    e = engine(with_rule_keys(plant_payload(), INLET, clear_delay_s=5.0))
    stream = [
        (0.0, 250.0),  # raise
        (1.0, 150.0),  # false since 1.0
        (2.0, 250.0),  # true again: the off-delay restarts
        (3.0, 150.0),  # false since 3.0
        (7.9, 150.0),  # 4.9 s: still raised
        (8.0, 150.0),  # 5 s: clear
        (9.0, 250.0),  # raise again
    ]
    got = trace(e, [(t, {"line_pressure": v}) for t, v in stream])
    assert got == [(0.0, "raise"), (8.0, "clear"), (9.0, "raise")]


def test_off_delay_counts_from_leaving_the_deadband():
    e = engine(with_rule_keys(plant_payload(), RELIEF, clear_delay_s=2.0))
    stream = [(0.0, 101.0), (1.0, 97.0), (2.0, 94.0), (3.0, 94.0), (4.0, 94.0)]
    got = trace(e, [(t, {"tank_temperature": v}) for t, v in stream])
    assert got == [(0.0, "raise"), (4.0, "clear")]  # below 95 from 2.0, clear at 4.0


def test_off_delay_never_holds_an_advisory_on_invalid_data():
    e = engine(with_rule_keys(plant_payload(), INLET, clear_delay_s=60.0))
    assert trace(e, [(0.0, {"line_pressure": 250.0})]) == [(0.0, "raise")]
    events = e.step(1.0, {"line_pressure": math.nan})
    assert [(ev.event, ev.rule is None) for ev in events] == [("fault", True), ("clear", False)]


# ---------------------------------------------------------------- latching


def latched() -> Engine:
    return engine(with_rule_keys(plant_payload(), RELIEF, latch=True))


def test_latched_warning_stays_until_acknowledged():
    e = latched()
    relief = next(r.id for r in e.bundle.rules if RELIEF in r.source["text"])
    assert trace(e, [(0.0, {"tank_temperature": 120.0})]) == [(0.0, "raise")]
    assert trace(e, [(1.0, {"tank_temperature": 20.0}), (2.0, {"tank_temperature": 20.0})]) == []
    assert e.active() == [relief] and e.awaiting_acknowledgement() == [relief]
    (clear,) = e.acknowledge(relief)
    assert (clear.t, clear.event, clear.rule) == (2.0, "clear", relief)
    assert e.active() == [] and e.awaiting_acknowledgement() == []
    # a new excursion latches again
    assert trace(e, [(3.0, {"tank_temperature": 120.0})]) == [(3.0, "raise")]


def test_acknowledging_while_the_condition_holds_releases_the_latch_only():
    e = latched()
    relief = next(r.id for r in e.bundle.rules if RELIEF in r.source["text"])
    e.step(0.0, {"tank_temperature": 120.0})
    assert e.acknowledge(relief, t=0.5) == [] and e.active() == [relief]
    assert trace(e, [(1.0, {"tank_temperature": 20.0})]) == [(1.0, "clear")]


def test_latch_holds_through_invalid_data_and_ack_rules():
    e = latched()
    relief = next(r.id for r in e.bundle.rules if RELIEF in r.source["text"])
    e.step(0.0, {"tank_temperature": 120.0})
    events = e.step(1.0, {"tank_temperature": math.nan})
    assert [ev.event for ev in events] == ["fault"] and e.active() == [relief]
    assert [ev.event for ev in e.acknowledge(relief, t=1.5)] == ["clear"]
    inlet = next(r.id for r in e.bundle.rules if INLET in r.source["text"])
    assert e.acknowledge(inlet) == []  # not raised: nothing to acknowledge
    with pytest.raises(StateError):
        e.acknowledge("R-nope")


def test_reset_forgets_latches_and_delays():
    e = latched()
    e.step(0.0, {"tank_temperature": 120.0})
    e.step(1.0, {"tank_temperature": 20.0})
    e.reset()
    assert e.active() == [] and e.awaiting_acknowledgement() == []


# ---------------------------------------------------------------- the bundle keys


def test_loader_accepts_the_optional_rule_keys_and_checks_them():
    payload = with_rule_keys(plant_payload(), RELIEF, latch=True, clear_delay_s=2)
    bundle = load_bundle(encode_bundle(payload))
    spec = next(r for r in bundle.rules if RELIEF in r.source["text"])
    assert (spec.latch, spec.clear_delay_s) == (True, 2.0)
    other = next(r for r in bundle.rules if INLET in r.source["text"])
    assert (other.latch, other.clear_delay_s) == (False, None)
    for bad, where in [({"latch": "yes"}, ".latch: must be a bool"),
                       ({"clear_delay_s": -1.0}, ".clear_delay_s: -1.0 is below the minimum"),
                       ({"clear_delay_s": "5"}, ".clear_delay_s: must be a number"),
                       ({"latched": True}, "unknown key 'latched'")]:
        with pytest.raises(BundleError, match=where.replace(".", r"\.", 1)):
            load_bundle(encode_bundle(with_rule_keys(plant_payload(), RELIEF, **bad)))


# ---------------------------------------------------------------- validity


def random_stream(seed: int, bundle: Bundle, n: int = 300) -> list[tuple[float, dict[str, float]]]:
    """Samples near every threshold, with NaN, infinities, out-of-range values and gaps
    long enough to go stale."""
    rng = random.Random(seed)
    marks: dict[int, list[float]] = {}
    b = bundle.boxes
    for c in range(b.n_constraints):
        for v in (float(b.lo[c]), float(b.hi[c])):
            if math.isfinite(v):
                marks.setdefault(int(b.axis[c]), []).extend(
                    [v, math.nextafter(v, math.inf), math.nextafter(v, -math.inf), v + 3, v - 3])
    t = 0.0
    out = []
    for _ in range(n):
        t += rng.choice([0.1, 0.5, 1.0, 2.5])
        sample = {}
        for i, p in enumerate(bundle.parameters):
            if rng.random() < 0.5:
                continue
            roll = rng.random()
            if roll < 0.05:
                sample[p.name] = rng.choice([math.nan, math.inf, -math.inf])
            elif roll < 0.1 and math.isfinite(p.range_hi):
                sample[p.name] = p.range_hi + 1
            else:
                sample[p.name] = rng.choice(marks.get(i, [0.0]))
        out.append((t, sample))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_no_normal_advisory_is_ever_raised_from_invalid_data(seed: int):
    e = engine()
    bundle = e.bundle
    last: dict[str, tuple[float, float]] = {}
    for t, sample in random_stream(seed, bundle):
        for name, v in sample.items():
            last[name] = (t, v)
        for ev in e.step(t, sample):
            if ev.event != "raise":
                continue
            for name, value in ev.values.items():
                if value is None:
                    continue  # the other side of an `or`: not what raised it
                p = bundle.parameters[bundle.param_index[name]]
                assert math.isfinite(value) and p.range_lo <= value <= p.range_hi
                seen_t, seen_v = last[name]
                assert seen_v == value
                assert p.max_age_s is None or t - seen_t <= p.max_age_s


# ---------------------------------------------------------------- determinism


def events_json(events: list[Event]) -> list[dict[str, Any]]:
    return [ev.to_json() for ev in events]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("domain", ["plant", "rocket_engine", "temperature_control"])
def test_same_stream_same_events_on_both_backends_and_every_run(seed: int, domain: str):
    need_backend("native")
    payload = plant_payload() if domain == "plant" else build_payload(
        collect_rules([EXAMPLES / domain]), domain)
    bundle = load_bundle(encode_bundle(payload))
    stream = random_stream(seed, bundle, n=400)
    native = Engine(bundle, backend="native")
    pure = Engine(bundle, backend="numpy")
    assert (native.backend, pure.backend) == ("native", "numpy")
    got_native = [events_json(native.step(t, s)) for t, s in stream]
    got_pure = [events_json(pure.step(t, s)) for t, s in stream]
    assert got_native == got_pure
    assert sum(len(e) for e in got_native) > 0
    native.reset()
    assert [events_json(native.step(t, s)) for t, s in stream] == got_native


def test_evaluate_agrees_across_backends():
    need_backend("native")
    bundle = load_bundle(encode_bundle(plant_payload()))
    native, pure = Engine(bundle, backend="native"), Engine(bundle, backend="numpy")
    for _, sample in random_stream(9, bundle, n=200):
        a, b = native.evaluate(sample).to_json(), pure.evaluate(sample).to_json()
        a.pop("latency_us"), b.pop("latency_us"), a.pop("path_us"), b.pop("path_us")
        assert a == b


def test_numpy_kernel_is_an_explicit_choice():
    e = engine(backend="numpy")
    assert e.backend == "numpy" and e._index.backend == "numpy"
    assert e.stream._hold_index is not None and e.stream._hold_index.backend == "numpy"


def plant_with_atoms() -> Bundle:
    payload = plant_payload()
    if "atoms" not in payload["cnf"]:
        try:
            from rulec.compiler.build.boxes import ThresholdConverter
            from rulec.compiler.build.cnf import atom_arrays, build_cnf
        except ImportError:
            pytest.skip("the compiler cannot write cnf.atoms yet")
        result = collect_rules([PLANT])
        build_payload(result, "plant")
        units = {name: info.unit_symbol for name, info in result.params.params.items()}
        cnf = build_cnf(result.rules, ThresholdConverter(units))
        position = {name: i for i, name in enumerate(result.params.params)}
        payload["cnf"]["atoms"] = atom_arrays(cnf, position)
    return load_bundle(encode_bundle(payload))


@pytest.mark.parametrize("seed", range(3))
def test_a_stream_decided_by_the_logic_path_alone_gives_the_same_events(seed: int):
    bundle = plant_with_atoms()
    logic = Engine(bundle, paths={"logic"})
    if logic.logic_status != "ok":
        pytest.skip(f"logic path not ready: {logic.logic_status}")
    geometry = Engine(bundle, paths={"geometry"})
    for t, sample in random_stream(seed, bundle, n=300):
        assert events_json(logic.step(t, sample)) == events_json(geometry.step(t, sample))
