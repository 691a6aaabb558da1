"""Forms of real regulations, handbooks and spec sheets, each read to the one rule it
says (or refused), from verbatim sentences of 30 CFR 75, 29 CFR 1910.95, 14 CFR 91 and
107 and equipment manuals."""

from __future__ import annotations

from typing import Any

import pytest

from rulec.compiler.extract.offline import extract
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import condition_to_json
from rulec.compiler.read.statements import split_statements


def table() -> ParameterTable:
    out = ParameterTable()
    for name, aliases, unit in (
        ("methane", ("methane",), "percent"),
        ("sound_level", ("sound pressure level", "sound level"), "dB"),
        ("pump_speed", ("pump", "pump speed"), "rpm"),
        ("oil_temperature", ("oil temperature",), "degC"),
        ("alcohol_concentration", ("alcohol concentration",), "percent"),
        ("water_temperature", ("water temperature",), "degF"),
        ("visibility", ("flight visibility",), "km"),
    ):
        out.add(ParameterInfo(name, aliases, unit))
    return out


def rule_of(sentence: str) -> dict[str, Any]:
    found = extract(split_statements(sentence + "\n", "m.txt"), table())
    assert not [p for p in found.problems if p.fatal], found.problems
    (rule,) = found.rules
    assert rule.condition is not None
    return condition_to_json(rule.condition)


def bare(cond: dict[str, Any]) -> Any:
    """(param, op, value as float), or ("not", that)."""
    if "not" in cond:
        return ("not", bare(cond["not"]))
    return (cond["param"], cond["op"], float(cond["value"]))


@pytest.mark.parametrize(("sentence", "reading"), [
    ("No shot shall be fired in an area that contains 1.0 volume per centum or more of "
     "methane.", ("methane", ">=", 1.0)),
    ("No exposures in excess of 140 decibels (dB) peak sound pressure level are permitted.",
     ("sound_level", ">", 140)),
    ("Never run the pump faster than 1,900 rpm.", ("pump_speed", ">", 1900)),
    ("No person may act as a crewmember while having an alcohol concentration of .04 or "
     "greater in a blood or breath specimen.", ("alcohol_concentration", ">=", 0.04)),
    ("The water temperature must not exceed 95F.", ("not", ("water_temperature", "<=", 95))),
    ("The sound level must not equal or exceed 85 dB.", ("not", ("sound_level", "<", 85))),
])
def test_a_real_prohibition_is_read_as_written(sentence: str, reading: Any) -> None:
    assert bare(rule_of(sentence)) == reading


def test_two_limits_on_one_label_line_are_one_range() -> None:
    cond = rule_of("Oil temperature: min. 10 °C, max. 70 °C.")
    assert cond["not"]["op"] == "between" and cond["not"]["value"] == [10, 70]


def test_min_before_a_number_does_not_end_a_sentence_but_a_unit_min_does() -> None:
    texts = [st.text for st in split_statements(
        "Oil temperature: min. 10 °C, max. 70 °C.\nThe flow is 5 L/min. 3 pumps run.\n",
        "m.txt")]
    assert texts == ["Oil temperature: min. 10 °C, max. 70 °C.", "The flow is 5 L/min.",
                     "3 pumps run."]


def test_a_spec_line_with_its_limit_after_a_comma() -> None:
    """The LulzBot Mini guide: "Temperature: Maximum operating temperature (Extruder),
    300C (572F)"."""
    params = table()
    params.add(ParameterInfo("extruder_temperature", ("Extruder",), "degC"))
    found = extract(split_statements(
        "Temperature: Maximum operating temperature (Extruder), 300C (572F)\n", "m.txt"), params)
    (rule,) = found.rules
    assert bare(condition_to_json(rule.condition)) == (
        "not", ("extruder_temperature", "<=", 300.0))
