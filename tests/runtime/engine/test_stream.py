"""The event stream's own contract: events carry wire data at once and write their
advisory text once, on first read; the stream state is what ``Engine.stream`` exposes.

Stream semantics (delays, latches, validity) are tested in ``test_time_validity.py``.
"""

from __future__ import annotations

import math
from pathlib import Path

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.stream import Event

PLANT = Path(__file__).resolve().parents[2] / "fixtures" / "plant"


def plant() -> Engine:
    return Engine(load_bundle(encode_bundle(build_payload(collect_rules([PLANT]), "plant"))))


def test_advisory_text_is_written_once_on_first_read() -> None:
    calls: list[int] = []

    def text() -> str:
        calls.append(1)
        return "Tank temperature 120 °C is above 100 °C"

    ev = Event(1.0, "raise", "R-1", "warning", text, None, {"tank_temperature": 120.0})
    assert calls == []
    assert ev.advisory == ev.advisory == "Tank temperature 120 °C is above 100 °C"
    assert calls == [1]
    assert ev.to_json()["advisory"] == ev.advisory


def test_events_compare_by_content_whether_text_was_given_or_deferred() -> None:
    a = Event(1.0, "clear", "R-1", "warning", "Cleared: x", None, {"p": 1.0})
    b = Event(1.0, "clear", "R-1", "warning", lambda: "Cleared: x", None, {"p": 1.0})
    c = Event(1.0, "clear", "R-1", "warning", "Cleared: y", None, {"p": 1.0})
    assert a == b and a != c
    assert "Cleared: x" in repr(b)


def test_a_raise_carries_rule_values_and_text_with_the_live_values() -> None:
    e = plant()
    (ev,) = [v for v in e.step(0.0, {"tank_temperature": 120.5}) if v.rule is not None]
    assert ev.event == "raise" and ev.values == {"tank_temperature": 120.5}
    assert "120.5 °C" in ev.advisory
    assert e.stream.raised and e.stream.t == 0.0
    assert e.stream.last_value[e.bundle.param_index["tank_temperature"]] == 120.5


def test_the_text_uses_the_values_of_its_own_sample() -> None:
    """A deferred text read after later samples still shows the sample that raised it."""
    e = plant()
    (ev,) = [v for v in e.step(0.0, {"tank_temperature": 120.5}) if v.rule is not None]
    e.step(1.0, {"tank_temperature": 130.0})
    assert "120.5 °C" in ev.advisory and "130" not in ev.advisory


def test_reset_forgets_values_raised_rules_and_timers() -> None:
    e = plant()
    e.step(0.0, {"tank_temperature": 120.5, "motor_current": 16.0})
    assert e.stream.raised and e.stream.since
    e.reset()
    s = e.stream
    assert s.t is None and not s.raised and not s.since and not s.faults
    assert all(math.isnan(v) for v in s.last_value)
    assert all(t == -math.inf for t in s.last_time)


def test_a_fault_event_carries_its_reason_as_a_code_beside_its_words() -> None:
    """The daemon sends SENSOR_FAULT from ``Event.reason``; the words are for people."""
    from rulec.runtime.vocabulary import FaultReason

    e = plant()
    cases = {-60.0: FaultReason.BELOW_RANGE, 600.0: FaultReason.ABOVE_RANGE,
             math.nan: FaultReason.NAN, math.inf: FaultReason.INFINITE}
    for t, (value, reason) in enumerate(cases.items()):
        e.reset()
        (ev,) = [v for v in e.step(float(t), {"tank_temperature": value}) if v.event == "fault"]
        assert ev.reason is reason and ev.advisory.endswith(" " + reason.words)
        assert ev.severity == "caution" and FaultReason.of_words(reason.words) is reason
