"""Conditions on discrete states, modes and phases read from prose, alone and mixed with
numeric comparisons; a state word the manifest does not know is needs-review, named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.extract.offline import NEEDS_REVIEW, extract
from rulec.compiler.model.manifest import load_manifest
from rulec.compiler.model.rules import condition_to_json
from rulec.compiler.pipeline import parameter_table
from rulec.compiler.read.statements import split_statements

FOLDER = Path(__file__).parents[2] / "corpora" / "discrete" / "aircraft"


def read(sentence: str) -> Any:
    params = parameter_table(load_manifest(FOLDER / "sensors.toml"))
    return extract(split_statements(sentence + "\n", "m.txt"), params)


def state(param: str, name: str) -> dict[str, Any]:
    return {"param": param, "op": "==", "state": name}


def strip(cond: Any) -> Any:
    """A condition's JSON without labels and units, for comparison."""
    if isinstance(cond, dict):
        return {k: strip(v) for k, v in cond.items() if k not in ("label", "unit")}
    if isinstance(cond, list):
        return [strip(c) for c in cond]
    return cond


@pytest.mark.parametrize(("sentence", "kind", "condition"), [
    ("If the oil pressure drops below 25 psi while the engine is running, shut down the "
     "engine.", "if_then",
     {"all": [{"param": "oil_pressure", "op": "<", "value": 25}, state("engine", "running")]}),
    ("With the landing gear extended, do not exceed 140 kt.", "constraint",
     {"all": [state("landing_gear", "extended"),
              {"not": {"param": "airspeed", "op": "<=", "value": 140}}]}),
    ("During takeoff, do not exceed 2,700 rpm.", "constraint",
     {"all": [state("flight_phase", "takeoff"),
              {"not": {"param": "engine_speed", "op": "<=", "value": 2700}}]}),
    ("If the cabin door is open and the airspeed exceeds 60 kt, reject the takeoff.", "if_then",
     {"all": [state("cabin_door", "open"), {"param": "airspeed", "op": ">", "value": 60}]}),
    ("If the engine is not running, do not engage the starter.", "if_then",
     {"not": state("engine", "running")}),
    ("In AUTO mode, do not exceed 2,500 rpm.", "constraint",
     {"all": [state("mode", "auto"),
              {"not": {"param": "engine_speed", "op": "<=", "value": 2500}}]}),
    ("If the airspeed exceeds 200 kt with the gear down, retract the flaps.", "if_then",
     {"all": [{"param": "airspeed", "op": ">", "value": 200}, state("landing_gear", "extended")]}),
    ("If the gear is up and the airspeed is below 80 kt, extend the landing gear.", "if_then",
     {"all": [state("landing_gear", "retracted"), {"param": "airspeed", "op": "<", "value": 80}]}),
])
def test_a_state_condition_is_read(sentence: str, kind: str, condition: dict[str, Any]) -> None:
    found = read(sentence)
    (rule,) = found.rules
    assert rule.kind == kind
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == condition


def test_a_state_word_the_manifest_does_not_know_is_needs_review() -> None:
    found = read("If the engine is idling, check the oil pressure.")
    assert not found.rules
    (problem,) = found.problems
    assert problem.kind == NEEDS_REVIEW and "'idling'" in problem.reason
    assert "stopped, running" in problem.reason


def test_a_numeric_parameter_is_not_taken_for_a_state() -> None:
    found = read("If the engine speed is above 3,000 rpm, reduce power.")
    (rule,) = found.rules
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == {
        "param": "engine_speed", "op": ">", "value": 3000}


def test_a_phase_after_an_order_says_when_it_applies() -> None:
    found = read("Wheel chocks shall be placed under the wheels during takeoff or climb "
                 "operations.")
    (rule,) = found.rules
    assert rule.condition is not None and rule.kind == "if_then"
    assert strip(condition_to_json(rule.condition)) == {
        "param": "flight_phase", "op": "in", "states": ["takeoff", "climb"]}


def test_a_state_an_order_requires_in_a_phase_is_not_read_as_a_condition() -> None:
    found = read("The cabin door shall be closed during takeoff.")
    assert not found.rules
    assert [p.kind for p in found.problems] == [NEEDS_REVIEW]


@pytest.mark.parametrize("sentence", [
    "The total load must not exceed 2,700 rpm, except during takeoff.",
    "The total load must not exceed 2,700 rpm (except during takeoff).",
])
def test_an_exception_after_a_requirement_exempts_it(sentence: str) -> None:
    (rule,) = read(sentence).rules
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == {"all": [
        {"not": state("flight_phase", "takeoff")},
        {"not": {"param": "engine_speed", "op": "<=", "value": 2700}}]}


def test_an_order_about_things_a_state_parameter_also_names_applies_in_its_phase() -> None:
    found = read("Wheel chocks shall be placed under the gear wheels during takeoff.")
    (rule,) = found.rules  # "gear" is named, but none of its states is
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == state("flight_phase", "takeoff")


def test_a_state_condition_said_after_the_order_with_while() -> None:
    found = read("Positive protection shall be provided while the landing gear is extended.")
    (rule,) = found.rules
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == state("landing_gear", "extended")
