"""Hot reload without the daemon: change detection, validation beside the serving engine,
the last good bundle kept on failure, and what state crosses a swap."""

from __future__ import annotations

import math
import os
import shutil
from pathlib import Path

import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle, write_bundle_file
from rulec.runtime.daemon.reload import BundleReloader, adopt, build_engine, file_signature
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

ROCKET = Path(__file__).resolve().parents[3] / "examples" / "manuals" / "rocket_engine"
COOLANT_600 = "If the chamber temperature exceeds 600 °C"
VENT = "chamber pressure exceeds 320 psi"
PSI_PRESSURE = 'unit = "psi"\naliases = ["chamber pressure"'


def compile_manual(folder: Path, latch: str | None = None) -> bytes:
    """Compile a manual; ``latch`` names a statement whose rule is made latching."""
    payload = build_payload(collect_rules([folder]), folder.name)
    for rule in payload["rules"]:
        if latch is not None and latch in rule["source"]["text"]:
            rule["latch"] = True
    return encode_bundle(payload)


def variant(tmp: Path, name: str, edit: dict[str, str], latch: str | None = None) -> bytes:
    """The rocket manual with text replaced (and sensors.toml edits), compiled."""
    folder = tmp / name
    shutil.copytree(ROCKET, folder)
    for path in folder.iterdir():
        text = path.read_text(encoding="utf-8")
        for old, new in edit.items():
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
    return compile_manual(folder, latch)


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    tmp = tmp_path_factory.mktemp("bundles")
    return {
        "base": compile_manual(ROCKET),
        "coolant_500": variant(tmp, "c500", {"exceeds 600 °C": "exceeds 500 °C"}),
        "psi_to_kpa": variant(tmp, "kpa", {PSI_PRESSURE: PSI_PRESSURE.replace("psi", "kPa")}),
        "vent_latched": compile_manual(ROCKET, latch=VENT),
        "vent_latched_500": variant(tmp, "l500", {"exceeds 600 °C": "exceeds 500 °C"}, VENT),
    }


def rule_id(engine: Engine, text: str) -> str:
    return next(r.id for r in engine.bundle.rules if text in r.source["text"])


# --------------------------------------------------------------------------- detection


def test_file_change_is_noticed_and_validated(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    path = tmp_path / "engine.rulec"
    write_bundle_file(path, bundles["base"])
    clock = [0.0]
    reloader = BundleReloader(
        path, build_engine(path), poll_s=1.0, background=False, clock=lambda: clock[0]
    )
    assert reloader.poll(0.5) is None  # nothing changed, and not due yet
    assert reloader.poll(1.5) is None  # due, unchanged
    write_bundle_file(path, bundles["coolant_500"])
    assert reloader.poll(1.9) is None  # not due before 2.5
    outcome = reloader.poll(2.6)
    assert outcome is not None and outcome.ok and outcome.changed
    assert outcome.trigger == "file changed"
    assert outcome.engine is not None and outcome.engine is not reloader.current
    assert reloader.poll(5.0) is None  # the same file is not loaded twice


def test_corrupt_bundle_keeps_the_last_good_one(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    path = tmp_path / "engine.rulec"
    write_bundle_file(path, bundles["base"])
    serving = build_engine(path)
    reloader = BundleReloader(path, serving, poll_s=0.1, background=False)
    broken = bytearray(bundles["coolant_500"])
    broken[len(broken) // 2] ^= 0xFF
    path.write_bytes(bytes(broken))  # a non-atomic writer: the checksum refuses it
    outcome = reloader.poll(1e9)
    assert outcome is not None and not outcome.ok
    assert outcome.engine is None and "digest" in (outcome.error or "")
    assert reloader.current is serving
    record = outcome.to_json(serving)
    assert record["level"] == "error" and record["serving_digest"] == serving.bundle.digest
    assert reloader.poll(2e9) is None, "a failed file is not retried until it changes"
    reloader.request("SIGHUP")  # ... unless asked
    again = reloader.poll(2e9)
    assert again is not None and not again.ok and again.trigger == "SIGHUP"
    assert reloader.failures == 2
    path.write_bytes(b"")  # truncated to nothing
    empty = reloader.poll(3e9)
    assert empty is not None and not empty.ok
    os.remove(path)
    missing = reloader.poll(4e9)
    assert missing is not None and not missing.ok and "missing" in (missing.error or "")
    write_bundle_file(path, bundles["coolant_500"])
    fixed = reloader.poll(5e9)
    assert fixed is not None and fixed.ok and fixed.changed


def test_same_digest_is_ok_but_unchanged(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    path = tmp_path / "engine.rulec"
    write_bundle_file(path, bundles["base"])
    reloader = BundleReloader.start(path, poll_s=0, background=False)
    reloader.request()
    outcome = reloader.poll()
    assert outcome is not None and outcome.ok and not outcome.changed


def test_background_load_does_not_block(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    path = tmp_path / "engine.rulec"
    write_bundle_file(path, bundles["base"])
    reloader = BundleReloader.start(path, poll_s=0)
    reloader.request()
    assert reloader.poll() is None and reloader.busy
    outcome = reloader.wait()
    assert outcome is not None and outcome.ok and not reloader.busy


def test_start_refuses_a_bad_first_bundle(tmp_path: Path) -> None:
    path = tmp_path / "engine.rulec"
    path.write_bytes(b"not a bundle")
    with pytest.raises(ValueError):
        BundleReloader.start(path)
    assert file_signature(tmp_path / "absent") is None


# --------------------------------------------------------------------------- adoption


def engine_of(data: bytes, tmp: Path, name: str) -> Engine:
    path = tmp / name
    write_bundle_file(path, data)
    return build_engine(path)


def test_adopt_withdraws_vanished_rules_and_raises_new_ones(
    tmp_path: Path, bundles: dict[str, bytes]
) -> None:
    old = engine_of(bundles["base"], tmp_path, "a.rulec")
    new = engine_of(bundles["coolant_500"], tmp_path, "b.rulec")
    r600 = rule_id(old, COOLANT_600)
    r500 = rule_id(new, "If the chamber temperature exceeds 500 °C")
    vent = rule_id(old, "chamber pressure exceeds 320 psi")
    events = old.step(1.0, {"chamber_temperature": 620, "chamber_pressure": 330})
    assert {e.rule for e in events if e.event == "raise"} == {r600, vent}
    adoption = adopt(old, new, 1.0)
    assert adoption.withdrawn == [r600]
    assert vent in adoption.kept_raised
    assert set(adoption.kept_values) == {"chamber_temperature", "chamber_pressure"}
    kinds = [(e.event, e.rule) for e in adoption.events]
    assert kinds == [("clear", r600), ("raise", r500)]  # no second raise of `vent`
    assert "withdrawn" in adoption.events[0].advisory
    assert set(new.active()) == {vent, r500}
    # the new engine goes on from the carried state: nothing new at 550 °C
    assert new.step(1.5, {"chamber_temperature": 550}) == []
    assert [(e.event, e.rule) for e in new.step(2.0, {"chamber_temperature": 480})] == [
        ("clear", r500)
    ]


def test_adopt_does_not_carry_values_whose_unit_changed(
    tmp_path: Path, bundles: dict[str, bytes]
) -> None:
    old = engine_of(bundles["base"], tmp_path, "a.rulec")
    new = engine_of(bundles["psi_to_kpa"], tmp_path, "b.rulec")
    vent = rule_id(old, "chamber pressure exceeds 320 psi")
    old.step(1.0, {"chamber_temperature": 20, "chamber_pressure": 330})
    assert old.active() == [vent]
    adoption = adopt(old, new, 1.0)
    assert adoption.dropped_values == ["chamber_pressure"]
    assert adoption.kept_raised == [vent]
    # 330 psi is not 330 kPa: the pressure is unknown now, so the vent advisory clears
    assert [(e.event, e.rule) for e in adoption.events] == [("clear", vent)]
    assert math.isnan(new.stream.last_value[new.bundle.param_index["chamber_pressure"]])


def test_adopt_keeps_duration_timers_and_faults(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    old = engine_of(bundles["base"], tmp_path, "a.rulec")
    new = engine_of(bundles["coolant_500"], tmp_path, "b.rulec")
    throttle = rule_id(old, "for more than 2 seconds")
    old.step(0.0, {"turbopump_speed": 31000, "fuel_line_pressure": 900})
    old.step(1.5, {"turbopump_speed": 31000})
    adoption = adopt(old, new, 1.5)
    assert adoption.kept_timers == [throttle]
    assert adoption.events == []  # the fault on fuel_line_pressure is not announced twice
    raised = [e.rule for e in new.step(2.1, {"turbopump_speed": 31000}) if e.event == "raise"]
    assert raised == [throttle]  # 2.1 s after the first sample, as without the reload


def test_adopt_before_any_sample_is_empty(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    old = engine_of(bundles["base"], tmp_path, "a.rulec")
    new = engine_of(bundles["coolant_500"], tmp_path, "b.rulec")
    adoption = adopt(old, new, None)
    assert adoption.events == [] and adoption.kept_values == []


def test_adopt_keeps_an_acknowledged_latch(tmp_path: Path, bundles: dict[str, bytes]) -> None:
    old = engine_of(bundles["vent_latched"], tmp_path, "a.rulec")
    new = engine_of(bundles["vent_latched_500"], tmp_path, "b.rulec")
    vent = rule_id(old, VENT)
    old.step(1.0, {"chamber_pressure": 330})
    assert old.acknowledge(vent) == []  # still holds: it clears when it ends
    adoption = adopt(old, new, 1.0)
    assert adoption.kept_raised == [vent] and adoption.events == []
    cleared = new.step(2.0, {"chamber_pressure": 200})
    assert [(e.event, e.rule) for e in cleared] == [("clear", vent)], "acknowledged before"
