"""Firmware timestamps are not believed blindly: over a real TCP link on 127.0.0.1, a
frame stamped an hour ahead or at 2^64-1 µs, or earlier than the last sample, is a
counted, logged clock fault and is not evaluated; a firmware clock that restarts is
taken after ``clock_rebase_frames`` frames that move forward among themselves."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fault_matrix_links import _link, until
from test_one_semantics import bundle  # noqa: F401 - the fixture

from rulec.firmware_bridge import protocol as wire

pytestmark = [pytest.mark.compiled]

LOAD = "reduce the mixer load"  # motor_current (channel 1) > 15 A for more than 3 s


def send(write, frames: list[tuple[int, dict[int, float]]]) -> None:
    for seq, (us, values) in enumerate(frames, start=1):
        write(wire.encode_frame(wire.Frame(wire.MsgType.TELEMETRY, seq, us,
                                           wire.encode_telemetry(values))))


def test_a_frame_far_ahead_is_a_clock_fault_not_a_raise(bundle: Path) -> None:  # noqa: F811
    frames = [(1_000_000, {1: 16.0}), (1_500_000, {1: 16.0}),
              (3_601_500_000, {1: 16.0}),  # an hour ahead
              (2**64 - 1, {1: 16.0}),  # the largest timestamp
              (2_000_000, {1: 16.0}), (3_000_000, {1: 16.0}), (3_500_000, {1: 16.0})]
    with _link(bundle, False) as (daemon, sink, write, _read):
        send(write, frames)
        until(lambda: daemon.counters.total.get("frames_ok", 0)
              + daemon.counters.total.get("dropped.clock", 0) >= len(frames),
              lambda: daemon.counters.total)
        assert daemon.counters.total["dropped.clock"] == 2
        faults = [r for r in sink.records if r.get("event") == "clock"]
        assert [r["state"] for r in faults] == ["fault", "fault"]
        assert "jumps ahead" in faults[0]["reason"]
        raised = [r for r in sink.records if r.get("event") == "raise"]
        assert raised == []  # held 2.5 s on believable samples: no 3 s on-delay
        assert daemon.engine.stream.t == 3.5


def test_a_frame_from_the_past_is_dropped_and_a_restarted_clock_is_taken(
        bundle: Path) -> None:  # noqa: F811
    frames = [(10_000_000, {1: 5.0}), (11_000_000, {1: 5.0}),
              (10_500_000, {1: 50.0})]  # earlier than the last sample
    restart = [(100_000 * k, {1: 5.0}) for k in range(1, 6)]  # counts from zero again
    with _link(bundle, False) as (daemon, sink, write, _read):
        send(write, frames + restart)
        until(lambda: any(r.get("state") == "rebased" for r in sink.records),
              lambda: sink.records[-3:])
        clock = [r for r in sink.records if r.get("event") == "clock"]
        assert [r["state"] for r in clock] == ["fault"] * 5 + ["rebased"]
        assert "goes back" in clock[0]["reason"]
        assert daemon.counters.total["dropped.clock"] == 5
        assert not [r for r in sink.records if r.get("event") == "raise"]  # 50 A dropped
        assert daemon.engine.stream.t == 11.0  # engine time continues from where it was
