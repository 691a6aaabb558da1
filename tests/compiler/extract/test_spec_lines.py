"""Spec-sheet and limitation lines: every pair of label and limits on a line is a
constraint, a line is read only whole, and a bare value is no limit."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rulec.compiler.extract.offline import Extraction, extract
from rulec.compiler.extract.spec_lines import spec_line_sentences
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import Atom, Not
from rulec.compiler.read.statements import split_statements
from tests.param_tables import table_of


def table() -> ParameterTable:
    return table_of(
        ("oil_temperature", ("oil temperature",), "degC"),
        ("pump_speed", ("pump speed",), "rpm"),
        ("tire_pressure", ("tire pressure",), "psi"),
        ("visibility", ("flight visibility",), "km"),
    )


def read(text: str) -> Extraction:
    return extract(split_statements(text + "\n", "spec.txt"), table())


def violated_atoms(found: Extraction) -> list[tuple[str, str, object]]:
    out = []
    for rule in found.rules:
        assert rule.kind == "constraint"
        assert isinstance(rule.condition, Not) and isinstance(rule.condition.item, Atom)
        atom = rule.condition.item
        out.append((atom.param, atom.op, atom.value))
    return out


@pytest.mark.parametrize(("line", "expected"), [
    ("Oil temperature: not to exceed 80 °C.", [("oil_temperature", "<=", Decimal(80))]),
    ("Oil temperature limit: not to exceed 80 °C.", [("oil_temperature", "<=", Decimal(80))]),
    ("Oil temperature: at least 10 °C.", [("oil_temperature", ">=", Decimal(10))]),
    ("Oil temperature: < 90 °C.", [("oil_temperature", "<", Decimal(90))]),
    ("Oil temperature limits: 10 °C to 70 °C.",
     [("oil_temperature", "between", (Decimal(10), Decimal(70)))]),
    ("Oil temperature: min. 10 °C, max. 70 °C.",
     [("oil_temperature", "between", (Decimal(10), Decimal(70)))]),
    ("Oil temperature 10 °C min / 70 °C max",
     [("oil_temperature", "between", (Decimal(10), Decimal(70)))]),
    ("Pump speed: max. 1,900 rpm; oil temperature: max. 70 °C (158 °F).",
     [("pump_speed", "<=", Decimal(1900)), ("oil_temperature", "<=", Decimal(70))]),
    ("Flight visibility: 3 statute miles minimum.", [("visibility", ">=", Decimal(3))]),
])
def test_a_limitation_line_is_a_constraint_for_each_of_its_pairs(line, expected):
    found = read(line)
    assert not found.problems
    assert violated_atoms(found) == expected


def test_a_line_of_label_lines_under_a_title_gives_each_its_own_rule():
    found = read("Engine limits\nOil temperature: max. 70 °C\nPump speed: min. 200 rpm\n"
                 "Tire pressure limits: 28 to 32 psi")
    assert sorted(violated_atoms(found), key=str) == sorted([
        ("oil_temperature", "<=", Decimal(70)), ("pump_speed", ">=", Decimal(200)),
        ("tire_pressure", "between", (Decimal(28), Decimal(32)))], key=str)
    assert len({r.source["line"] for r in found.rules}) == 3


@pytest.mark.parametrize("line", [
    "Oil temperature: 60 °C",            # a value, not a limit
    "Oil temperature: 60 to 80 °C",      # a range the label does not call limits
    "Coolant level: max. 80 %",          # a label no parameter is
    "Pump speed: max. 1,900 rpm; coolant level: max. 80 %",  # one pair not read
    "Oil temperature: min. 10 °C, min. 20 °C",  # two lower limits: not a pair
])
def test_what_is_not_a_whole_limitation_line_is_not_read_as_one(line):
    assert spec_line_sentences(line, table()) == []


def test_a_line_with_a_pair_left_unread_is_not_compiled_in_part():
    found = read("Pump speed: max. 1,900 rpm; coolant level: max. 80 %.")
    assert not any(r.source["line"] == 1 and r.condition is not None
                   and "coolant" in str(r.condition) for r in found.rules)
    assert found.rules == [] or found.problems


def test_revision_history_is_descriptive_and_says_so():
    found = read("The oil temperature limit was raised from 80 °C to 85 °C in revision B.")
    assert not found.rules and not found.problems
    assert list(found.reasons.values()) == ["revision history, not a limit"]


def test_a_condition_that_mentions_a_change_is_no_history():
    found = read("If the oil temperature has increased to more than 90 °C, stop the pump.")
    assert not any(r == "revision history, not a limit" for r in found.reasons.values())
