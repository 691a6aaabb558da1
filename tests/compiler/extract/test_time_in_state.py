"""How long a discrete parameter has been in its running state, read from prose: a window
("during the first 30 seconds after engine start"), a deadline ("does not rise above 20
psi within 10 seconds of engine start"), "after 30 minutes of operation"; a "within" that
says neither, or a start of no known machine, needs review; a denied comparison ("does not
rise above", "fails to rise above") is negated and "does not reach N" is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.extract.offline import NEEDS_REVIEW, extract
from rulec.compiler.model.manifest import load_manifest
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import condition_to_json
from rulec.compiler.pipeline import parameter_table
from rulec.compiler.read.statements import split_statements

FOLDER = Path(__file__).parents[2] / "corpora" / "discrete" / "aircraft"
RUNNING = {"param": "engine", "op": "==", "state": "running"}


def table() -> ParameterTable:
    return parameter_table(load_manifest(FOLDER / "sensors.toml"))


def read(sentence: str, params: ParameterTable | None = None) -> Any:
    return extract(split_statements(sentence + "\n", "m.txt"), params or table())


def strip(cond: Any) -> Any:
    if isinstance(cond, dict):
        return {k: strip(v) for k, v in cond.items() if k != "label"}
    if isinstance(cond, list):
        return [strip(c) for c in cond]
    return cond


def in_state(op: str, value: int, unit: str) -> dict[str, Any]:
    return {"all": [RUNNING, {"param": "engine.time_in_state", "op": op, "value": value,
                              "unit": unit}]}


@pytest.mark.parametrize(("sentence", "condition"), [
    ("If the oil pressure does not rise above 20 psi within 10 seconds of engine start, "
     "shut down the engine.",
     {"all": [{"param": "oil_pressure", "op": "<=", "value": 20, "unit": "psi"},
              in_state(">", 10, "s")]}),
    ("Do not exceed 2,700 rpm during the first 30 seconds after engine start.",
     {"all": [in_state("<=", 30, "s"),
              {"not": {"param": "engine_speed", "op": "<=", "value": 2700, "unit": "rpm"}}]}),
    ("Do not exceed 2,500 rpm within 2 minutes of engine start.",
     {"all": [in_state("<=", 2, "min"),
              {"not": {"param": "engine_speed", "op": "<=", "value": 2500, "unit": "rpm"}}]}),
    ("After 30 minutes of operation, the oil pressure must not exceed 90 psi.",
     {"all": [in_state(">", 30, "min"),
              {"not": {"param": "oil_pressure", "op": "<=", "value": 90, "unit": "psi"}}]}),
    ("If the oil pressure is below 25 psi more than 5 minutes after start of the engine, "
     "shut down the engine.",
     {"all": [{"param": "oil_pressure", "op": "<", "value": 25, "unit": "psi"},
              in_state(">", 5, "min")]}),
])
def test_a_time_in_state_is_read(sentence: str, condition: dict[str, Any]) -> None:
    params = table()
    (rule,) = read(sentence, params).rules
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == condition
    derived = params.params["engine.time_in_state"]
    assert derived.time_in_state_of == "engine" and derived.unit_symbol == "s"


def test_a_within_that_is_neither_a_deadline_nor_a_window_needs_review() -> None:
    found = read("If the oil pressure is below 20 psi within 10 seconds of engine start, "
                 "shut down the engine.")
    assert not found.rules
    (problem,) = found.problems
    assert problem.kind == NEEDS_REVIEW and "deadline" in problem.reason


def test_a_start_of_no_known_machine_needs_review(tmp_path: Path) -> None:
    (tmp_path / "sensors.toml").write_text(
        '[parameters.pump]\nstates = ["off", "on"]\naliases = ["pump"]\n'
        '[parameters.fan]\nstates = ["off", "on"]\naliases = ["fan"]\n'
        '[parameters.oil_pressure]\nunit = "psi"\naliases = ["oil pressure"]\n'
        'range = [0, 150]\n', encoding="utf-8")
    params = parameter_table(load_manifest(tmp_path / "sensors.toml"))
    found = read("After 30 minutes of operation, the oil pressure must not exceed 90 psi.",
                 params)
    assert not found.rules
    (problem,) = found.problems
    assert problem.kind == NEEDS_REVIEW and "which machine" in problem.reason
    (rule,) = read("After 30 minutes of pump operation, the oil pressure must not exceed "
                   "90 psi.", params).rules
    assert rule.condition is not None
    assert "pump.time_in_state" in str(condition_to_json(rule.condition))


@pytest.mark.parametrize(("sentence", "op"), [
    ("If the oil pressure does not rise above 20 psi, shut down the engine.", "<="),
    ("If the oil pressure fails to rise above 20 psi, shut down the engine.", "<="),
    ("If the oil pressure does not fall below 20 psi, open the bypass.", ">="),
    ("If the oil pressure does not exceed 20 psi, open the bypass.", "<="),
])
def test_a_denied_comparison_is_its_negation(sentence: str, op: str) -> None:
    (rule,) = read(sentence).rules
    assert rule.condition is not None
    assert strip(condition_to_json(rule.condition)) == {
        "param": "oil_pressure", "op": op, "value": 20, "unit": "psi"}


@pytest.mark.parametrize("sentence", [
    "If the oil pressure does not reach 20 psi, shut down the engine.",
    "If the oil pressure fails to reach 20 psi, shut down the engine.",
])
def test_a_denied_arrival_is_refused(sentence: str) -> None:
    found = read(sentence)
    assert not found.rules and found.problems
