"""The offline extractor on the statement forms of the rule semantics."""

from __future__ import annotations

from typing import Any

import pytest

from rulec.compiler.extract.offline import extract
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import condition_to_json
from rulec.compiler.read.statements import split_statements


def table(*params: tuple[str, tuple[str, ...], str]) -> ParameterTable:
    out = ParameterTable()
    for name, aliases, unit in params:
        out.add(ParameterInfo(name, aliases, unit))
    return out


PARAMS = table(
    ("temp", ("temperature", "oil temperature"), "degC"),
    ("pressure", ("pressure", "oil pressure"), "psi"),
    ("speed", ("speed", "turbopump speed"), "rpm"),
    ("age", ("applicant", "age"), "years"),
    ("logins", ("failed login attempts",), "count"),
    ("humidity", ("humidity",), "percent"),
)


def one(sentence: str, params: ParameterTable = PARAMS) -> dict[str, Any]:
    found = extract(split_statements(sentence + "\n", "m.txt"), params)
    assert not [p for p in found.problems if p.fatal], found.problems
    assert len(found.rules) == 1, (sentence, found.rules, found.descriptive)
    rule = found.rules[0]
    out: dict[str, Any] = {"kind": rule.kind}
    if rule.condition is not None:
        out["cond"] = condition_to_json(rule.condition)
    if rule.duration_s is not None:
        out["duration"] = (float(rule.duration_s), rule.duration_inclusive)
    out["action"] = rule.action
    return out


def atom(param: str, op: str, value: Any, unit: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"param": param, "op": op, "value": value}
    if unit:
        out["unit"] = unit
    return out


def stripped(cond: dict[str, Any]) -> dict[str, Any]:
    """Drop labels so expectations stay short."""
    if "all" in cond or "any" in cond:
        key = "all" if "all" in cond else "any"
        return {key: [stripped(c) for c in cond[key]]}
    if "not" in cond:
        return {"not": stripped(cond["not"])}
    return {k: v for k, v in cond.items() if k != "label"}


@pytest.mark.parametrize("sentence, op, value", [
    ("If the temperature exceeds 80 °C, start the fan.", ">", 80),
    ("If the temperature is above 80 °C, start the fan.", ">", 80),
    ("If the temperature is greater than 80 °C, start the fan.", ">", 80),
    ("If the temperature is more than 80 °C, start the fan.", ">", 80),
    ("If the temperature rises above 80 °C, start the fan.", ">", 80),
    ("When the temperature falls below -15 °C, start the heater.", "<", -15),
    ("When the temperature drops below +5 °C, start the heater.", "<", 5),
    ("If the temperature is less than 5.5 °C, start the heater.", "<", 5.5),
    ("If the temperature is lower than 5 °C, start the heater.", "<", 5),
    ("If the temperature is 80 °C or more, start the fan.", ">=", 80),
    ("If the temperature is at least 80 °C, start the fan.", ">=", 80),
    ("If the temperature is 80 °C or higher, start the fan.", ">=", 80),
    ("If the temperature is not less than 80 °C, start the fan.", ">=", 80),
    ("If the temperature is no less than 80 °C, start the fan.", ">=", 80),
    ("If the temperature is ≥ 80 °C, start the fan.", ">=", 80),
    ("If the temperature is 80 °C or less, start the heater.", "<=", 80),
    ("If the temperature is at most 80 °C, start the heater.", "<=", 80),
    ("If the temperature is 80 °C or lower, start the heater.", "<=", 80),
    ("If the temperature is not more than 80 °C, start the heater.", "<=", 80),
    ("If the temperature is ≤ 80 °C, start the heater.", "<=", 80),
    ("If the failed login attempts reach 5, lock the account for 30 minutes.", "==", 5),
    ("If the turbopump speed exceeds 30,000 rpm, reduce the throttle.", ">", 30000),
    ("Start the fan if the temperature exceeds 80 °C.", ">", 80),
])
def test_comparison_words(sentence: str, op: str, value: float) -> None:
    got = one(sentence)
    assert got["kind"] == "if_then"
    cond = stripped(got["cond"])
    assert cond["op"] == op and cond["value"] == value


@pytest.mark.parametrize("sentence, op, low, high", [
    ("If the pressure is between 20 psi and 120 psi, log it.", "between", 20, 120),
    ("If the pressure is between 20 and 120 psi, log it.", "between", 20, 120),
    ("If the pressure is from 20 to 120 psi, log it.", "between", 20, 120),
    ("If the pressure is within 20 to 120 psi, log it.", "between", 20, 120),
    ("If the pressure is 20 to 120 psi, log it.", "between", 20, 120),
    ("If the pressure is outside the range 20 to 120 psi, log it.", "outside", 20, 120),
    ("If the pressure is outside 20 to 120 psi, log it.", "outside", 20, 120),
])
def test_ranges(sentence: str, op: str, low: float, high: float) -> None:
    cond = stripped(one(sentence)["cond"])
    assert (cond["op"], cond["value"]) == (op, [low, high])


@pytest.mark.parametrize("sentence, fires_on", [
    ("The humidity must not exceed 70 %.", atom("humidity", "<=", 70, "percent")),
    ("The oil pressure shall remain between 20 psi and 120 psi.",
     atom("pressure", "between", [20, 120], "psi")),
    ("The oil pressure shall be kept between 20 psi and 120 psi.",
     atom("pressure", "between", [20, 120], "psi")),
    ("The temperature must stay below 90 °C.", atom("temp", "<", 90, "degC")),
    ("Maximum oil temperature: 120 °C.", atom("temp", "<=", 120, "degC")),
    ("The maximum oil temperature is 120 °C.", atom("temp", "<=", 120, "degC")),
])
def test_constraints_fire_on_violation(sentence: str, fires_on: dict[str, Any]) -> None:
    got = one(sentence)
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == {"not": fires_on}


def test_prohibition_and_eligibility_fire_as_written() -> None:
    got = one("Do not operate the pump above 3,000 rpm.")
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == atom("speed", ">", 3000, "rpm")
    got = one("Applicants younger than 18 years are not eligible.")
    cond = stripped(got["cond"])
    assert (cond["param"], cond["op"], cond["value"]) == ("age", "<", 18)


def test_and_or_while_with_unless_nesting() -> None:
    t80 = atom("temp", ">", 80, "degC")
    p20 = atom("pressure", "<", 20, "psi")
    h70 = atom("humidity", ">", 70, "percent")
    assert stripped(one("If the temperature exceeds 80 °C and the pressure is below 20 psi, "
                        "stop.")["cond"]) == {"all": [t80, p20]}
    assert stripped(one("If the temperature exceeds 80 °C while the pressure is below 20 psi, "
                        "stop.")["cond"]) == {"all": [t80, p20]}
    assert stripped(one("If the temperature exceeds 80 °C or the pressure is below 20 psi, "
                        "stop.")["cond"]) == {"any": [t80, p20]}
    assert stripped(one("If the temperature exceeds 80 °C, stop unless the pressure is below "
                        "20 psi.")["cond"]) == {"all": [t80, {"not": p20}]}
    assert stripped(one("If the temperature exceeds 80 °C and either the pressure is below 20 "
                        "psi or the humidity exceeds 70 %, stop.")["cond"]) == {
        "all": [t80, {"any": [p20, h70]}]}
    assert stripped(one("If the temperature is above 80 °C or below 5 °C, stop.")["cond"]) == {
        "any": [t80, atom("temp", "<", 5, "degC")]}


def test_subject_with_condition_and_postfix_comparisons() -> None:
    got = one("Patients with a temperature above 38 °C require a review before discharge.")
    assert stripped(got["cond"]) == atom("temp", ">", 38, "degC")
    assert got["action"] == "Patients require a review before discharge"
    got = one("A patient with a temperature of 38.5 °C or higher must not be discharged.")
    assert stripped(got["cond"]) == atom("temp", ">=", 38.5, "degC")


def test_durations() -> None:
    got = one("If the turbopump speed exceeds 30,000 rpm for more than 2 seconds, reduce it.")
    assert got["duration"] == (2.0, False)
    got = one("If the temperature stays above 8 °C for more than 15 minutes, move the stock.")
    assert got["duration"] == (900.0, False)
    assert stripped(got["cond"]) == atom("temp", ">", 8, "degC")
    got = one("If the pressure remains below 10 psi for more than 1.5 h, call the engineer.")
    assert got["duration"] == (5400.0, False)


@pytest.mark.parametrize("sentence", [
    "If the temperature stays above 8 °C for more than -15 s, move the stock.",
    "If the temperature stays above 8 °C for -5 min or more, move the stock.",
    "If the temperature stays above 8 °C for at least −2 hours, move the stock.",
])
def test_a_negative_duration_is_unreadable(sentence: str) -> None:
    # No time lasts -15 s: neither a rule without the duration nor a comparison on "for".
    found = extract(split_statements(sentence + "\n", "m.txt"), PARAMS)
    assert found.rules == []
    assert [p.reason for p in found.problems] == ["a duration cannot be negative"]


def test_numbers_in_identifiers_are_not_thresholds() -> None:
    found = extract(split_statements("REQ-BMS-001: If the temperature exceeds 45 °C, stop "
                                     "charging.\n", "m.txt"), PARAMS)
    assert found.rules[0].id == "REQ-BMS-001"
    assert stripped(condition_to_json(found.rules[0].condition)) == atom("temp", ">", 45, "degC")
    found = extract(split_statements("Record a 12-lead ECG every day.\n", "m.txt"), PARAMS)
    assert not found.rules


def test_an_overlong_requirement_id_is_not_a_rule_id() -> None:
    # A rule id is 1-64 characters; a leading token too long to be a requirement id stays
    # in the text and the rule takes its hashed id (a suffix for uniqueness still fits).
    long_id = "REQ-" + "Q" * 60 + "1"
    text = f"{long_id}: If the temperature exceeds 45 °C, stop charging.\n" * 2
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert [r.id[:2] for r in found.rules] == ["R-", "R-"]
    assert found.rules[1].id == found.rules[0].id + "-2"
    found = extract(split_statements("SRS-BMS-0123456789: If the temperature exceeds 45 °C, "
                                     "stop charging.\n", "m.txt"), PARAMS)
    assert found.rules[0].id == "SRS-BMS-0123456789"


@pytest.mark.parametrize("sentence", [
    "The pack contains 96 cells.",
    "Filters are checked every 12 hours.",
    "The bank offers personal loans between 1,000 and 50,000 euros.",
    "The temperature sensors are calibrated every 6 months.",
    "The room has 2 cooling units rated at 40 °C.",
])
def test_descriptive_sentences_yield_no_rule(sentence: str) -> None:
    found = extract(split_statements(sentence + "\n", "m.txt"), PARAMS)
    assert found.rules == [] and not found.problems
    assert len(found.descriptive) == 1


def test_exclusions_and_procedures() -> None:
    doc = ("Do not open the oxidizer valve and the purge valve at the same time.\n\n"
           "To perform a normal shutdown:\n1. Close the main fuel valve.\n2. Stop the pump.\n")
    found = extract(split_statements(doc, "m.txt"), PARAMS)
    kinds = {r.kind: r for r in found.rules}
    assert kinds["exclusion"].actions == ("open the oxidizer valve", "open the purge valve")
    assert kinds["procedure"].title == "To perform a normal shutdown"
    assert [s.text for s in kinds["procedure"].steps] == ["Close the main fuel valve.",
                                                          "Stop the pump."]


def test_unknown_parameter_is_reported_with_file_and_line() -> None:
    found = extract(split_statements("Intro.\nIf the flux exceeds 88 GW, jump.\n", "m.txt"),
                    PARAMS)
    assert not found.rules
    assert [(p.file, p.line) for p in found.problems] == [("m.txt", 2)]
    assert "flux" in found.problems[0].reason


def test_inferred_parameters_without_manifest() -> None:
    params = ParameterTable(infer=True)
    got = one("If the oil temperature exceeds 120 °C, stop the engine.", params)
    assert stripped(got["cond"]) == atom("oil_temperature", ">", 120, "degC")
    assert "oil_temperature" in params.params


def test_same_statement_same_id() -> None:
    a = extract(split_statements("If the temperature exceeds 80 °C, stop.\n", "a.txt"), PARAMS)
    b = extract(split_statements("Intro.\n\nIf the temperature exceeds 80 °C, stop.\n", "a.txt"),
                PARAMS)
    assert a.rules[0].id == b.rules[0].id


def test_leading_unless_and_keep() -> None:
    got = one("Unless the turbopump speed is above 500 rpm, close the valve.")
    assert stripped(got["cond"]) == {"not": atom("speed", ">", 500, "rpm")}
    assert got["action"] == "close the valve"
    got = one("Keep the oil pressure between 20 and 120 psi.")
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == {"not": atom("pressure", "between", [20, 120], "psi")}


def test_dash_ranges_noun_after_number_and_unit_switch() -> None:
    cond = stripped(one("If the oil pressure is 20–120 psi, log it.")["cond"])
    assert (cond["op"], cond["value"]) == ("between", [20, 120])
    cond = stripped(one("If there are more than 3 failed login attempts, lock the account.")
                    ["cond"])
    assert (cond["param"], cond["op"], cond["value"]) == ("logins", ">", 3)
    cond = stripped(one("If the turbopump speed exceeds 30,000 rpm above 80 °C, stop.")["cond"])
    assert [c["param"] for c in cond["all"]] == ["speed", "temp"]


def test_parameter_between_comparison_and_number() -> None:
    got = one("Do not operate the pumps above an oil pressure of 6.5 psi.")
    assert stripped(got["cond"]) == atom("pressure", ">", 6.5, "psi")
    got = one("If the engine runs above a temperature of 80 °C, open the bypass valve.")
    assert stripped(got["cond"]) == atom("temp", ">", 80, "degC")


@pytest.mark.parametrize("sentence, fires_on", [
    ("Oil temperature: maximum 120 °C.", {"not": atom("temp", "<=", 120, "degC")}),
    ("Oil temperature limit: 120 °C.", {"not": atom("temp", "<=", 120, "degC")}),
    ("Oil pressure (minimum): 25 psi.", {"not": atom("pressure", ">=", 25, "psi")}),
    ("Do not exceed 3,000 rpm turbopump speed.", {"not": atom("speed", "<=", 3000, "rpm")}),
    ("Never exceed 3,000 rpm.", {"not": atom("speed", "<=", 3000, "rpm")}),
    ("Avoid operation between 20 and 30 % humidity.",
     atom("humidity", "between", [20, 30], "percent")),
    ("Oil pressure must be at least 25 psi at idle.", {"not": atom("pressure", ">=", 25, "psi")}),
])
def test_limit_forms(sentence: str, fires_on: dict[str, Any]) -> None:
    got = one(sentence)
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == fires_on
    assert got["action"] == sentence.rstrip(".")


def test_context_comparison_before_a_requirement_or_an_action() -> None:
    got = one("Below 80 °C, the oil pressure must not exceed 90 psi.")
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == {"all": [atom("temp", "<", 80, "degC"),
                                             {"not": atom("pressure", "<=", 90, "psi")}]}
    got = one("Above 80 °C, reduce the turbopump speed to 2,000 rpm.")
    assert got["kind"] == "if_then"
    assert stripped(got["cond"]) == atom("temp", ">", 80, "degC")
    assert got["action"] == "reduce the turbopump speed to 2,000 rpm"


def test_descriptive_statement_of_a_normal_range() -> None:
    found = extract(split_statements("Oil pressure between 60 and 90 psi is normal.\n", "m.txt"),
                    PARAMS)
    assert not found.rules


@pytest.mark.parametrize("sentence", [
    "If the pump is running and the oil pressure is below 20 psi, stop the engine.",
    "If the oil pressure is below 20 psi and the pump is running, stop the engine.",
])
def test_a_clause_without_a_comparison_is_refused_not_dropped(sentence: str) -> None:
    found = extract(split_statements(sentence + "\n", "m.txt"), PARAMS)
    assert not found.rules
    assert found.problems and "not a comparison" in found.problems[0].reason


def test_number_words_after_a_comparison() -> None:
    cond = stripped(one("If the oil pressure is zero, stop the engine.")["cond"])
    assert (cond["op"], cond["value"]) == ("==", 0)
    found = extract(split_statements("The pump has two oil filters.\n", "m.txt"), PARAMS)
    assert not found.rules


def test_an_action_after_the_condition_may_hold_and() -> None:
    got = one("Patients with a temperature above 38 °C require a review and an ECG.")
    assert stripped(got["cond"]) == atom("temp", ">", 38, "degC")


@pytest.mark.parametrize(("sentence", "cond", "action"), [
    ("Oil pressure below 20 psi indicates a pump fault; stop the engine.",
     atom("pressure", "<", 20, "psi"), "stop the engine"),
    ("Oil temperatures over 105 °C are critical.",
     atom("temp", ">", 105, "degC"), "Oil temperatures over 105 °C are critical"),
    ("An oil pressure of more than 120 psi is an alarm condition.",
     atom("pressure", ">", 120, "psi"),
     "An oil pressure of more than 120 psi is an alarm condition"),
    ("Alarm: oil temperature greater than 130 °C.",
     atom("temp", ">", 130, "degC"), "oil temperature greater than 130 °C"),
])
def test_a_hazard_named_by_its_consequence_is_a_rule(
        sentence: str, cond: dict[str, Any], action: str) -> None:
    got = one(sentence)
    assert (got["kind"], stripped(got["cond"]), got["action"]) == ("if_then", cond, action)


@pytest.mark.parametrize("sentence", [
    "Oil pressure between 60 and 90 psi is normal.",
    "Note: oil temperature above 80 °C.",
    "The oil temperature rises above 80 °C during the warm-up.",
])
def test_no_consequence_no_rule(sentence: str) -> None:
    assert not extract(split_statements(sentence + "\n", "m.txt"), PARAMS).rules


def test_an_alarm_prefix_raises_the_severity() -> None:
    found = extract(split_statements("Alarm: oil temperature greater than 130 °C.\n", "m.txt"),
                    PARAMS)
    assert [r.severity for r in found.rules] == ["warning"]


@pytest.mark.parametrize(("sentence", "cond", "action"), [
    ("At oil temperatures above 80 °C, reduce the turbopump speed.",
     atom("temp", ">", 80, "degC"), "reduce the turbopump speed"),
    ("For oil pressures between 20 and 30 psi, increase monitoring.",
     {"param": "pressure", "op": "between", "value": [20, 30], "unit": "psi"},
     "increase monitoring"),
    ("Upon an oil temperature reading above 99 °C, evacuate the area.",
     atom("temp", ">", 99, "degC"), "evacuate the area"),
    ("Stop the engine immediately in the event of an oil pressure below 10 psi.",
     atom("pressure", "<", 10, "psi"), "Stop the engine immediately"),
    ("Oil temperature ≥ 98 °C: stop the engine.",
     atom("temp", ">=", 98, "degC"), "stop the engine"),
])
def test_prepositional_and_labelled_conditions(
        sentence: str, cond: dict[str, Any], action: str) -> None:
    got = one(sentence)
    assert (got["kind"], stripped(got["cond"]), got["action"]) == ("if_then", cond, action)


def test_ensure_states_a_requirement() -> None:
    got = one("Ensure that the humidity stays above 15 percent.")
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == {"not": atom("humidity", ">", 15, "percent")}


@pytest.mark.parametrize("sentence", [
    "At start-up the oil temperature is usually below 20 °C.",
    "For reference, the oil pressure reads 45 psi at idle.",
    "Oil temperature: 80 °C at idle.",
])
def test_prepositional_descriptions_stay_descriptive(sentence: str) -> None:
    assert not extract(split_statements(sentence + "\n", "m.txt"), PARAMS).rules


def test_surpasses_is_strictly_above() -> None:
    got = one("If the oil pressure surpasses 120 psi, stop the engine.")
    assert stripped(got["cond"]) == atom("pressure", ">", 120, "psi")
    got = one("The oil pressure must not surpass 130 psi.")
    assert got["kind"] == "constraint"
    assert stripped(got["cond"]) == {"not": atom("pressure", "<=", 130, "psi")}


@pytest.mark.parametrize("sentence", [
    "Humidity above 90 percent indicates that the room is occupied.",
    "An oil temperature above 60 °C signals that the engine is warm.",
])
def test_an_indication_of_a_normal_state_is_descriptive(sentence: str) -> None:
    assert not extract(split_statements(sentence + "\n", "m.txt"), PARAMS).rules


def test_an_indication_of_trouble_is_a_rule() -> None:
    got = one("Oil pressure below 20 psi indicates a possible pump failure.")
    assert stripped(got["cond"]) == atom("pressure", "<", 20, "psi")
    got = one("An oil temperature above 140 °C triggers the overheat alarm.")
    assert stripped(got["cond"]) == atom("temp", ">", 140, "degC")


def test_an_order_limited_only_by_unless_applies_when_the_exception_does_not_hold() -> None:
    """`unless C` is `and not C`; with no other condition the order fires on `not C`."""
    s500 = atom("speed", "<", 500, "rpm")
    got = one("Do not open the bleed valve unless the turbopump speed is below 500 rpm.")
    assert (got["kind"], stripped(got["cond"])) == ("if_then", {"not": s500})
    assert got["action"] == "Do not open the bleed valve"
    got = one("The bleed valve must not be opened unless the turbopump speed is below 500 rpm.")
    assert stripped(got["cond"]) == {"not": s500}
    assert got["action"] == "The bleed valve must not be opened"


def test_a_leading_unless_before_an_order_with_its_own_condition() -> None:
    got = one("Unless the turbopump speed is below 500 rpm, the standby pump starts when the "
              "oil pressure is lower than 20 psi.")
    assert stripped(got["cond"]) == {"all": [atom("pressure", "<", 20, "psi"),
                                             {"not": atom("speed", "<", 500, "rpm")}]}
    assert got["action"] == "the standby pump starts"


@pytest.mark.parametrize("sentence, action", [
    ("OIL PRESS LO – If the oil pressure falls below 20 psi, reduce the speed.",
     "reduce the speed"),
    ("HIGH TEMP: When the temperature exceeds 80 °C, check the coolant, filters or pump.",
     "check the coolant, filters or pump"),
])
def test_an_alarm_name_in_capitals_before_the_condition_is_not_part_of_it(
        sentence: str, action: str) -> None:
    got = one(sentence)
    assert got["kind"] == "if_then" and got["action"] == action


def test_a_capitalised_name_before_a_colon_stays_when_no_condition_follows() -> None:
    """Only an alarm name before if/when/unless... is dropped: here it names the parameter."""
    got = one("SPEED: must not exceed 36,000 rpm.")
    assert stripped(got["cond"]) == {"not": atom("speed", "<=", 36000, "rpm")}


def test_how_long_an_order_lasts_is_not_part_of_the_condition() -> None:
    got = one("If the temperature exceeds 80 °C, stop the pump and keep the hatch closed for at "
              "least 20 minutes.")
    assert stripped(got["cond"]) == atom("temp", ">", 80, "degC")
    assert got["action"] == "stop the pump and keep the hatch closed for at least 20 minutes"


@pytest.mark.parametrize("text, cond", [
    ("Maximum oil temperature ............ 120 °C", {"not": atom("temp", "<=", 120, "degC")}),
    ("Minimum oil pressure ...... 25 psi", {"not": atom("pressure", ">=", 25, "psi")}),
    ("Maximum turbopump speed … 36,000 rpm", {"not": atom("speed", "<=", 36000, "rpm")}),
])
def test_limitation_lines_with_dotted_leaders(text: str, cond: dict[str, Any]) -> None:
    found = extract(split_statements(f"Limitations\n{text}\n", "m.txt"), PARAMS)
    (rule,) = found.rules
    assert rule.kind == "constraint" and stripped(condition_to_json(rule.condition)) == cond


def test_a_heading_without_a_limit_stays_a_heading() -> None:
    found = extract(split_statements("Maximum limits\nMinimum equipment list\n", "m.txt"), PARAMS)
    assert found.rules == [] and not found.problems


def test_a_conditional_list_title_is_a_rule_that_starts_the_procedure() -> None:
    text = ("If the oil pressure drops below 20 psi for more than 10 seconds, accomplish the "
            "following:\n1. Reduce the speed.\n2. Open the bypass valve.\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    rule, proc = found.rules
    assert rule.kind == "if_then" and rule.duration_s == 10
    assert stripped(condition_to_json(rule.condition)) == atom("pressure", "<", 20, "psi")
    assert proc.kind == "procedure" and len(proc.steps) == 2
    assert rule.source == proc.source


def test_an_order_before_a_trailing_comparison_keeps_its_subject() -> None:
    got = one("The pump must not be started with an oil pressure lower than 15 psi.")
    assert (got["kind"], stripped(got["cond"])) == ("constraint", atom("pressure", "<", 15, "psi"))
    assert got["action"] == "The pump must not be started"


@pytest.mark.parametrize("sentence, fires", [
    ("An oil temperature of 100 °C or higher initiates an automatic shutdown.", True),
    ("A turbopump speed above 30,000 rpm causes a trip of the engine.", True),
    ("A temperature above 60 °C causes the thermostat to open.", False),
])
def test_consequences_initiated_or_caused(sentence: str, fires: bool) -> None:
    found = extract(split_statements(sentence + "\n", "m.txt"), PARAMS)
    assert bool(found.rules) == fires, (found.rules, found.descriptive)


def test_a_bracketed_remark_between_parameter_and_comparison_is_read_past() -> None:
    got = one("The oil pressure (measured at the pump outlet) shall remain between 20 psi and "
              "80 psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", "between", [20, 80], "psi")}


@pytest.mark.parametrize("sentence", [
    "(3) If the temperature exceeds 80 °C, stop the pump.",
    "b) If the temperature exceeds 80 °C, stop the pump.",
    "6.3.2   If the temperature exceeds 80 °C, stop the pump.",
])
def test_a_clause_number_before_the_conditional_is_not_part_of_it(sentence: str) -> None:
    got = one(sentence)
    assert (got["kind"], stripped(got["cond"]), got["action"]) == (
        "if_then", atom("temp", ">", 80, "degC"), "stop the pump")


def test_the_value_an_order_sets_is_not_a_condition() -> None:
    """An inverted reading here ("speed <= 50 and not temperature > 80") would advise in
    normal operation: the target of "reduce ... to N or less" belongs to the order."""
    got = one("If the temperature has been above 80 °C for more than 15 minutes, the operator "
              "shall reduce the turbopump speed to 500 rpm or less.")
    assert (got["kind"], stripped(got["cond"]), got["duration"]) == (
        "if_then", atom("temp", ">", 80, "degC"), (900.0, False))
    assert got["action"] == "the operator shall reduce the turbopump speed to 500 rpm or less"


def test_has_been_is_a_state_and_has_to_a_requirement() -> None:
    assert stripped(one("If the temperature has been above 80 °C, stop.")["cond"]) == atom(
        "temp", ">", 80, "degC")
    got = one("The oil pressure has to be above 20 psi.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("pressure", ">", 20, "psi")})


def test_a_value_that_shall_not_be_reduced_below_a_limit() -> None:
    got = one("The turbopump speed shall not be reduced below 300 rpm.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("speed", ">=", 300, "rpm")})


def test_entries_of_a_list_whose_title_says_what_they_mean() -> None:
    text = ("The following results are critical and shall be telephoned to the clinician:\n"
            "a) Temperature: below 35 °C or above 40 °C\n"
            "b) Oil pressure: less than 20 psi\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    conds = [stripped(condition_to_json(r.condition)) for r in found.rules]
    assert conds == [{"any": [atom("temp", "<", 35, "degC"), atom("temp", ">", 40, "degC")]},
                     atom("pressure", "<", 20, "psi")]
    assert all(r.action.startswith("The following results are critical") for r in found.rules)
    assert [r.source["line"] for r in found.rules] == [2, 3]


def test_entries_of_a_neutral_list_stay_facts() -> None:
    text = "Reference ranges:\na) Temperature: below 37.5 °C\nb) Oil pressure: above 20 psi\n"
    assert extract(split_statements(text, "m.txt"), PARAMS).rules == []


def test_alert_prefix_and_a_markdown_quote() -> None:
    got = one("**Alert:** When the temperature exceeds 80 °C, stop the pump and vent the tank.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", ">", 80, "degC"), "stop the pump and vent the tank")
    found = extract(split_statements("> **WARNING:** Never run the pump above 3,000 rpm while"
                                     "\n> the oil pressure is below 20 psi.\n", "m.md"), PARAMS)
    (rule,) = found.rules
    assert stripped(condition_to_json(rule.condition)) == {
        "all": [atom("speed", ">", 3000, "rpm"), atom("pressure", "<", 20, "psi")]}


def test_a_value_to_be_kept_at_is_a_requirement_and_an_order_at_a_value_is_not() -> None:
    got = one("Samples shall be stored at a temperature of -25 °C or lower.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("temp", "<=", -25, "degC")})
    got = one("Samples must not be stored at a temperature above -18 °C.")
    assert stripped(got["cond"]) == {"not": atom("temp", "<=", -18, "degC")}
    found = extract(split_statements("The pump shall be stopped at a temperature of 80 °C or "
                                     "more.\n", "m.txt"), PARAMS)
    assert found.rules == [], "never read as a requirement to stay at 80 °C or more"


def test_a_requirement_goes_on_over_the_comparisons_it_joins() -> None:
    got = one("The oil temperature must stay below 80 °C and above 20 °C.")
    assert stripped(got["cond"]) == {"not": {"all": [atom("temp", "<", 80, "degC"),
                                                     atom("temp", ">", 20, "degC")]}}


def test_a_relative_clause_in_the_subject_is_not_a_condition() -> None:
    got = one("The air in every room where people work or rest shall contain no more than 60 % "
              "humidity.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("humidity", "<=", 60, "percent")})
    got = one("The oil temperature in any pump where people work shall be no more than 80 °C.")
    assert stripped(got["cond"]) == {"not": atom("temp", "<=", 80, "degC")}


def test_an_order_whose_object_carries_the_condition() -> None:
    got = one("Report oil pressure readings from 20 to 25 psi to the shift engineer.")
    assert (got["kind"], stripped(got["cond"])) == (
        "if_then", atom("pressure", "between", [20, 25], "psi"))
    found = extract(split_statements("Record the oil pressure every 5 minutes.\n", "m.txt"),
                    PARAMS)
    assert found.rules == [] and not found.problems


def test_a_condition_set_in_the_middle_of_the_order() -> None:
    got = one("The operator shall, if the temperature exceeds 80 °C, stop the pump and vent the "
              "tank.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", ">", 80, "degC"), "The operator shall stop the pump and vent the tank")


@pytest.mark.parametrize("sentence, action", [
    ("The bleed valve may only be opened when the turbopump speed is below 500 rpm.",
     "The bleed valve may only be opened"),
    ("Only open the bleed valve when the turbopump speed is below 500 rpm.",
     "Only open the bleed valve"),
])
def test_an_order_allowed_only_under_a_condition_applies_when_it_fails(
        sentence: str, action: str) -> None:
    got = one(sentence)
    assert (stripped(got["cond"]), got["action"]) == (
        {"not": atom("speed", "<", 500, "rpm")}, action)


def test_as_long_as_and_bracketed_alarm_names() -> None:
    got = one("Run the fan as long as the humidity is above 70 %.")
    assert stripped(got["cond"]) == atom("humidity", ">", 70, "percent")
    got = one("[OIL PRESSURE LOW] Should the oil pressure drop below 20 psi, the pump stops.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("pressure", "<", 20, "psi"), "the pump stops")


def test_both_limits_on_one_line_and_a_range_kept_at() -> None:
    found = extract(split_statements("Oil temperature: min. 35 °C, max. 90 °C\n", "m.txt"),
                    PARAMS)
    (rule,) = found.rules
    assert stripped(condition_to_json(rule.condition)) == {
        "not": atom("temp", "between", [35, 90], "degC")}
    got = one("The oil temperature shall be maintained at 35–90 °C.")
    assert stripped(got["cond"]) == {"not": atom("temp", "between", [35, 90], "degC")}
    got = one("The oil pressure is not to exceed 5psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", "<=", 5, "psi")}


def test_a_minute_in_a_unit_is_not_a_limit_word() -> None:
    """"mL/min" once made a fact a rule: "min" read as "minimum"."""
    found = extract(split_statements("Typical oil pressures are 20–40 psi at a flow of 300 "
                                     "mL/min.\n", "m.txt"), PARAMS)
    assert found.rules == []


def test_a_bracketed_reading_in_a_unit_rulec_does_not_convert_is_read_past() -> None:
    got = one("If the oil pressure is 80 psi (5.5 barg) or more, stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", ">=", 80, "psi")
    got = one("Stop the pump if the oil pressure amounts to 80 psi (5.5 barg) or more.")
    assert stripped(got["cond"]) == atom("pressure", ">=", 80, "psi")


def test_equal_to_or_higher_than_after_where() -> None:
    got = one("Where the oil temperature is equal to or higher than 35 °C, open a ticket.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", ">=", 35, "degC"), "open a ticket")
    got = one("Where the oil temperature is equal to or lower than 5 °C, open a ticket.")
    assert stripped(got["cond"]) == atom("temp", "<=", 5, "degC")


def test_a_limit_said_as_limited_to_or_at_no_time() -> None:
    got = one("The oil pressure is limited to 90 psi.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("pressure", "<=", 90, "psi")})
    got = one("The oil pressure shall at no time be less than 20 psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", ">=", 20, "psi")}
    got = one("The oil pressure must under no circumstances exceed 90 psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", "<=", 90, "psi")}
    # a value an order sets is still no condition
    got = one("Limit the speed to 900 rpm when the oil pressure exceeds 80 psi.")
    assert stripped(got["cond"]) == atom("pressure", ">", 80, "psi")


def test_a_value_that_points_to_trouble_or_is_a_sign_of_it() -> None:
    got = one("An oil temperature under 15 °C points to a blocked cooler; stop the pump.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", "<", 15, "degC"), "stop the pump")
    got = one("An oil pressure of more than 90 psi is a blockage indicator; stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", ">", 90, "psi")
    found = extract(split_statements("An oil pressure of 40 psi is a sign of normal running.\n",
                                     "m.txt"), PARAMS)
    assert found.rules == []


def test_a_safety_action_for_as_long_as_a_condition_holds() -> None:
    got = one("Fuel flow is interlocked off while the oil temperature is under 50 °C.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", "<", 50, "degC"), "Fuel flow is interlocked off")
    got = one("The drain valve shall be closed while the oil pressure exceeds 80 psi.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("pressure", ">", 80, "psi"), "The drain valve shall be closed")
    found = extract(split_statements("The fan runs while the oil temperature is under 50 °C.\n",
                                     "m.txt"), PARAMS)
    assert found.rules == []


def test_more_ways_to_say_a_threshold() -> None:
    got = one("Stop the pump if the oil pressure reaches or exceeds 80 psi.")
    assert stripped(got["cond"]) == atom("pressure", ">=", 80, "psi")
    got = one("Start the fan once the oil temperature passes 90 °C.")
    assert stripped(got["cond"]) == atom("temp", ">", 90, "degC")
    got = one("Oil temperatures of 90 °C and higher call for a stop.")
    assert stripped(got["cond"]) == atom("temp", ">=", 90, "degC")
    got = one("If an oil pressure of 80 psi is exceeded, open the relief valve.")
    assert stripped(got["cond"]) == atom("pressure", ">", 80, "psi")
    got = one("The oil pressure must be kept in the band 20 psi to 80 psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", "between", [20, 80], "psi")}
    got = one("The oil temperature may not exceed 150 °C.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("temp", "<=", 150, "degC")})
    found = extract(split_statements("The oil temperature may exceed 150 °C during tests.\n",
                                     "m.txt"), PARAMS)
    assert found.rules == []


def test_a_period_exceeding_is_a_duration() -> None:
    got = one("If the oil pressure stays higher than 80 psi for a period exceeding 5 s, "
              "stop the pump.")
    assert got["duration"] == (5.0, False)


def test_named_alarms_orders_on_a_whose_clause_and_consequences_said_otherwise() -> None:
    got = one("PRESS HIGH (high priority) - An oil pressure exceeding 80 psi opens the "
              "relief valve.")
    assert stripped(got["cond"]) == atom("pressure", ">", 80, "psi")
    got = one("OilT HIGH - If the oil temperature climbs above 90 °C, stop the pump.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", ">", 90, "degC"), "stop the pump")
    got = one("Stop any pump whose oil pressure is greater than 80 psi.")
    assert stripped(got["cond"]) == atom("pressure", ">", 80, "psi")
    got = one("An oil pressure greater than 80 psi trips the pump breaker.")
    assert stripped(got["cond"]) == atom("pressure", ">", 80, "psi")
    got = one("A humidity of 90 % and above is treated as a high-priority alarm.")
    assert stripped(got["cond"]) == atom("humidity", ">=", 90, "percent")
    got = one("Oil temperatures greater than 95 °C are considered out of specification; "
              "stop the pump.")
    assert got["action"] == "stop the pump"
    got = one("An oil temperature above 95 °C constitutes a major deviation.")
    assert stripped(got["cond"]) == atom("temp", ">", 95, "degC")
    got = one("In the pump room, keep the oil pressure at or above 20 psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", ">=", 20, "psi")}


def test_an_order_that_goes_on_after_its_condition() -> None:
    got = one("Stop the pump if the oil temperature is above 90 °C and the oil pressure is "
              "below 20 psi, and call the engineer on duty.")
    assert (stripped(got["cond"]), got["action"]) == (
        {"all": [atom("temp", ">", 90, "degC"), atom("pressure", "<", 20, "psi")]},
        "Stop the pump and call the engineer on duty")
    got = one("Stop the pump if the oil temperature is above 90 °C, and the oil pressure is "
              "below 20 psi.")
    assert stripped(got["cond"]) == {"all": [atom("temp", ">", 90, "degC"),
                                             atom("pressure", "<", 20, "psi")]}


def test_instrument_tags_in_brackets_are_read_past() -> None:
    got = one("Maximum turbopump speed (SE-301/SE-302): 36,500 rpm")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("speed", "<=", 36500, "rpm")})
    got = one("If the oil pressure (PT-104) exceeds 90 psi, stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", ">", 90, "psi")
    # a tag that is itself an alias stays: it names the parameter
    tagged = table(("tank", ("PT-201",), "psi"))
    got = one("Minimum LOX tank pressure (PT-201): 45 psi", tagged)
    assert stripped(got["cond"]) == {"not": atom("tank", ">=", 45, "psi")}


def test_a_tag_before_a_limitation_line() -> None:
    for tag in ("I-33:", "**I-33:**", "**Limit:**", "Max:"):
        got = one(f"- {tag} Maximum oil pressure: 32 psi (relief valve set at 35 psi).")
        assert (got["kind"], stripped(got["cond"])) == (
            "constraint", {"not": atom("pressure", "<=", 32, "psi")}), tag


def test_a_value_signalled_as_an_alarm() -> None:
    got = one("An oil temperature below 36.0 °C is signalled as a medium-priority alarm; "
              "check the probe.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", "<", 36, "degC"), "check the probe")
    found = extract(split_statements("An oil temperature of 40 °C is reported as normal.\n",
                                     "m.txt"), PARAMS)
    assert found.rules == []


def test_a_procedure_is_named_by_its_first_step_that_says_something() -> None:
    # "Step 4::" is a step of only a colon: it cannot name the procedure
    found = extract(split_statements("Step 4::\n2. Open the valve.\n3. Close it.\n", "m.txt"),
                    PARAMS)
    (proc,) = [r for r in found.rules if r.kind == "procedure"]
    assert proc.title == "Open the valve."
    assert [s.text for s in proc.steps] == [":", "Open the valve.", "Close it."]


def test_limits_said_with_may_at_most_or_is_to_amount_to() -> None:
    got = one("The oil temperature may at most amount to 130 °C.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("temp", "<=", 130, "degC")})
    got = one("The oil pressure may at most be 90 psi (relief setting).")
    assert stripped(got["cond"]) == {"not": atom("pressure", "<=", 90, "psi")}
    got = one("The oil pressure is to amount to at least 20 psi.")
    assert stripped(got["cond"]) == {"not": atom("pressure", ">=", 20, "psi")}
    found = extract(split_statements("The oil pressure may exceed 90 psi briefly.\n",
                                     "m.txt"), PARAMS)
    assert found.rules == []  # "may exceed" still says nothing


def test_inverted_never_and_prohibitions_with_the_condition_last() -> None:
    got = one("Under no circumstances may the oil pressure exceed 90 psi.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", atom("pressure", ">", 90, "psi"))
    got = one("Pump starts are not permitted at an oil temperature below -35 °C.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", atom("temp", "<", -35, "degC"))
    got = one("Operation of the pump with a speed below 25 rpm is not permissible.")
    assert (got["kind"], stripped(got["cond"])) == ("constraint", atom("speed", "<", 25, "rpm"))


def test_rises_past_falls_short_of_and_is_or_becomes() -> None:
    got = one("If the oil temperature rises past 90 °C, stop the pump.")
    assert stripped(got["cond"]) == atom("temp", ">", 90, "degC")
    got = one("If the humidity falls short of 19.5 %, check the analyser.")
    assert stripped(got["cond"]) == atom("humidity", "<", 19.5, "percent")
    got = one("If the oil pressure is or becomes less than 15 psi, stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", "<", 15, "psi")


def test_an_abbreviation_in_a_limitation_line_stays_in_the_name() -> None:
    nr = table(("nr", ("rotor speed", "NR"), "percent"))
    got = one("Rotor speed (NR), power on, maximum ..... 104 %", nr)
    assert stripped(got["cond"]) == {"not": atom("nr", "<=", 104, "percent")}
    got = one("Cell voltage (min): 3.0 V", table(("cell", ("cell voltage",), "V")))
    assert stripped(got["cond"]) == {"not": atom("cell", ">=", 3, "V")}


def test_an_order_that_lasts_until_a_value_is_no_condition() -> None:
    got = one("If the oil temperature is above 90 °C, reduce the speed until it is back "
              "below 90 °C and inform the supervisor.")
    assert stripped(got["cond"]) == atom("temp", ">", 90, "degC")
    assert got["action"].startswith("reduce the speed until it is back below 90 °C")


def test_a_condition_in_the_subject_then_an_order_after_a_semicolon() -> None:
    got = one("A temperature lower than 10 °C risks condensation; open the bypass damper.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", "<", 10, "degC"), "open the bypass damper")
    got = one("Humidity of 60 % or higher with a speed above 500 rpm wastes energy; reduce "
              "the fan speed.")
    assert stripped(got["cond"]) == {"all": [atom("humidity", ">=", 60, "percent"),
                                             atom("speed", ">", 500, "rpm")]}
    # a value said with a copula is a fact, whatever order follows it
    text = "Normal oil pressure is 15 to 22 psi; check the regulator every shift.\n"
    assert extract(split_statements(text, "m.txt"), PARAMS).rules == []


def test_an_interlock_said_as_what_the_value_blocks() -> None:
    got = one("Oil pressure lower than 3 psi blocks the start of the main pump.")
    assert (got["kind"], stripped(got["cond"])) == ("if_then", atom("pressure", "<", 3, "psi"))


def test_cause_and_effect_lines_with_an_arrow() -> None:
    got = one("PAL-1106   Oil pressure 8 psi or lower -> check the regulator PCV-1105.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("pressure", "<=", 8, "psi"), "check the regulator PCV-1105")
    found = extract(split_statements(
        "TAH-12  Temperature above 95 °C → stop the pump\n", "m.txt"), PARAMS)
    assert [r.id for r in found.rules] == ["TAH-12"]


def test_tagged_causes_under_a_title_that_gives_the_order() -> None:
    text = ("The protection system initiates a trip on any one of the following causes:\n"
            "\n"
            "  C1  Oil pressure low-low (PT-11A/B, 2oo3): oil pressure below 5 psi\n"
            "  C2  Overspeed (SE-12): speed above 3,300 rpm\n"
            "  C3  Emergency stop HS-1100 (control room or field)\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    conds = [stripped(condition_to_json(r.condition)) for r in found.rules]
    assert conds == [atom("pressure", "<", 5, "psi"), atom("speed", ">", 3300, "rpm")]
    assert [r.source["line"] for r in found.rules] == [3, 4]
    assert all(r.action.startswith("The protection system initiates a trip") for r in found.rules)


def test_a_line_ending_in_a_colon_that_the_sentence_runs_on_from() -> None:
    text = ("If the temperature is 0 °C or lower, the units may have frozen:\n"
            "quarantine all units and inform the director.\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert len(found.rules) == 1
    assert stripped(condition_to_json(found.rules[0].condition)) == atom(
        "temp", "<=", 0, "degC")
    assert "quarantine all units" in found.rules[0].action


def test_warmer_colder_and_reaches_or_passes() -> None:
    got = one("If the temperature becomes warmer than -50 °C, stop the pump.")
    assert stripped(got["cond"]) == atom("temp", ">", -50, "degC")
    got = one("If the temperature is colder than -55 °C, stop the pump.")
    assert stripped(got["cond"]) == atom("temp", "<", -55, "degC")
    got = one("If the pressure reaches or passes 30 psi, stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", ">=", 30, "psi")


def test_an_exception_with_nothing_read_before_it_is_not_the_whole_condition() -> None:
    text = ("If the temperature becomes frobbier than 50 °C, stop the pump, unless the "
            "pressure is below 5 psi.\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert found.rules == [] and len(found.problems) == 1


def test_a_change_by_an_amount_is_no_reading() -> None:
    text = "Should the temperature rise by more than 5 °C within 10 minutes, stop the pump.\n"
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert found.rules == [] and len(found.problems) == 1


def test_what_a_system_does_at_a_reading() -> None:
    got = one("The governor closes the gates at a speed of 115 rpm or higher.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("speed", ">=", 115, "rpm"), "The governor closes the gates")
    # a requirement to keep a value, and a value described at another, are not
    got = one("Oil shall be stored at a temperature of -25 °C or lower.")
    assert got["kind"] == "constraint"
    text = "Typical humidity at a temperature above 50 °C is 3 %.\n"
    assert extract(split_statements(text, "m.txt"), PARAMS).rules == []


def test_durations_lasting_and_consecutive() -> None:
    got = one("Oil pressure below 18 psi lasting more than 2 minutes initiates a shutdown.")
    assert got["duration"] == (120.0, False)
    got = one("If the temperature is higher than 90 °C for more than 10 consecutive minutes, "
              "stop the pump.")
    assert got["duration"] == (600.0, False)


def test_must_not_a_nor_b_requires_neither() -> None:
    for sentence in ("The humidity must not fall below 40 % nor exceed 60 %.",
                     "The humidity must not be below 40 % or above 60 %."):
        got = one(sentence)
        assert stripped(got["cond"]) == {"not": {"all": [
            atom("humidity", ">=", 40, "percent"), atom("humidity", "<=", 60, "percent")]}}


def test_a_permitted_range_a_leading_with_and_a_refusal() -> None:
    got = one("Permitted oil temperature: 18 °C to 22 °C (64.4 °F to 71.6 °F).")
    assert stripped(got["cond"]) == {"not": atom("temp", "between", [18, 22], "degC")}
    got = one("With an oil temperature above 14 °C the speed is limited to 500 rpm.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("temp", ">", 14, "degC"), "the speed is limited to 500 rpm")
    text = "With an oil temperature above 30 °C the oil viscosity drops to 5 cP.\n"
    assert extract(split_statements(text, "m.txt"), PARAMS).rules == []
    got = one("The system refuses to start a run for which the pressure is above 4 psi.")
    assert stripped(got["cond"]) == atom("pressure", ">", 4, "psi")


def test_a_name_that_ends_in_a_verb_like_word() -> None:
    rise = table(("rise", ("pressure rise",), "Pa"))
    got = one("If the pressure rise exceeds 20 µbar, repeat the test.", rise)
    assert stripped(got["cond"]) == atom("rise", ">", 20, "µbar")


def test_one_sentence_that_says_two_rules() -> None:
    text = ("The oil temperature (hottest of 12 RTDs) is supervised by the relay: alarm above "
            "120 °C, trip above 130 °C.\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert [(stripped(condition_to_json(r.condition)), r.action) for r in found.rules] == [
        (atom("temp", ">", 120, "degC"), "alarm"), (atom("temp", ">", 130, "degC"), "trip")]
    assert len({r.id for r in found.rules}) == 2
    text = ("Oil pressure above 20 psi must be reported, and the pump is to be stopped in case "
            "the oil pressure exceeds 30 psi.\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert [stripped(condition_to_json(r.condition)) for r in found.rules] == [
        atom("pressure", ">", 20, "psi"), atom("pressure", ">", 30, "psi")]
    # one condition over two clauses stays one rule
    got = one("If the oil pressure exceeds 20 psi, and the temperature exceeds 80 °C, stop "
              "the pump.")
    assert stripped(got["cond"]) == {"all": [atom("pressure", ">", 20, "psi"),
                                             atom("temp", ">", 80, "degC")]}


def test_signed_scales_and_sign_words() -> None:
    got = one("Should the oil pressure become more negative than -100 psi, lower the speed.")
    assert stripped(got["cond"]) == atom("pressure", "<", -100, "psi")
    got = one("If the oil pressure is less negative than -20 psi, stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", ">", -20, "psi")
    got = one("If the humidity is 0 % or negative, stop the pump.")
    assert stripped(got["cond"]) == atom("humidity", "<=", 0, "percent")
    # a sign word after another number says nothing readable
    found = extract(split_statements("If the humidity is 5 % or negative, stop the pump.\n",
                                     "m.txt"), PARAMS)
    assert found.rules == [] and found.problems
    got = one("If the oil pressure is 5 psi or larger, stop the pump.")
    assert stripped(got["cond"]) == atom("pressure", ">=", 5, "psi")


def test_what_a_reading_makes_a_machine_do_or_refuse() -> None:
    got = one("An oil temperature equal to or greater than 30 °C aborts the cycle.")
    assert (got["kind"], stripped(got["cond"])) == ("if_then", atom("temp", ">=", 30, "degC"))
    got = one("A cycle will not start with an oil pressure of less than 2.5 psi.")
    assert stripped(got["cond"]) == atom("pressure", "<", 2.5, "psi")
    got = one("Oil pressures of 800 psi and below are alarmed in the control room.")
    assert stripped(got["cond"]) == atom("pressure", "<=", 800, "psi")


def test_a_second_order_after_a_semicolon_is_no_condition() -> None:
    got = one("Wear must be suspected when the oil pressure exceeds 50 psi; check the pump "
              "and the oil temperature for excessive heat.")
    assert stripped(got["cond"]) == atom("pressure", ">", 50, "psi")
    assert got["action"] == ("Wear must be suspected; check the pump and the oil temperature "
                             "for excessive heat")


def test_persistence_clauses_before_a_duration() -> None:
    for sentence in (
        "If the oil pressure drops below 20 psi and stays there for more than 10 s, stop.",
        "If the oil pressure is below 20 psi and this condition continues for more than 10 s, "
        "stop.",
        "If the oil pressure is below 20 psi and persists for more than 10 s, stop.",
    ):
        got = one(sentence)
        assert (stripped(got["cond"]), got["duration"]) == (
            atom("pressure", "<", 20, "psi"), (10.0, False)), sentence


def test_a_phase_aside_after_if() -> None:
    got = one("If, during the holding time, the oil temperature drops below 134 °C, abort.")
    assert (stripped(got["cond"]), got["action"]) == (atom("temp", "<", 134, "degC"), "abort")


def test_limit_words_after_the_value() -> None:
    for sentence, op, value in (("Oil temperature: 25 °C maximum", "<=", 25),
                                ("- Oil temperature: 5 °C min.", ">=", 5),
                                ("Oil temperature: 80 °C (max.)", "<=", 80)):
        got = one(sentence)
        assert (got["kind"], stripped(got["cond"])) == (
            "constraint", {"not": atom("temp", op, value, "degC")}), sentence


def test_a_purpose_clause_under_a_modal_is_required() -> None:
    got = one("The heater must be adjusted so that the oil temperature never goes below 35 °C.")
    assert (got["kind"], stripped(got["cond"])) == (
        "constraint", {"not": atom("temp", ">=", 35, "degC")})
    got = one("The cooler shall be set such that the oil temperature stays below 90 °C.")
    assert stripped(got["cond"]) == {"not": atom("temp", "<", 90, "degC")}


def test_an_order_between_a_relative_clause_and_unless() -> None:
    got = one("A batch whose oil temperature is lower than 15 °C must not be released, unless "
              "its speed was 150 rpm or more.")
    assert stripped(got["cond"]) == {"all": [
        atom("temp", "<", 15, "degC"), {"not": atom("speed", ">=", 150, "rpm")}]}
    assert "must not be released" in got["action"]


def test_cause_and_effect_fields() -> None:
    text = ("CE-03  DISCHARGE TEMPERATURE HIGH-HIGH\n"
            "       Cause:   oil temperature 165 °C or higher (TT-1205A/B, 1oo2)\n"
            "       Effect:  NSD of the unit\n"
            "       Reset:   control room\n"
            "       Note:    Revision 5 raised this trip from 160 °C to 165 °C.\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert [(r.id, stripped(condition_to_json(r.condition)), r.action)
            for r in found.rules] == [("CE-03", atom("temp", ">=", 165, "degC"),
                                       "NSD of the unit")]
    # fields without a cause are no rule of this kind
    text = "Note: the oil temperature was 60 °C. Reset: control room\n"
    assert extract(split_statements(text, "m.txt"), PARAMS).rules == []


def test_spaces_as_thousands_separators() -> None:
    got = one("The warning is triggered when the speed exceeds 9 550 rpm.")
    assert stripped(got["cond"]) == atom("speed", ">", 9550, "rpm")
    got = one("If the speed is above 1 000 000 rpm, stop.")
    assert stripped(got["cond"]) == atom("speed", ">", 1000000, "rpm")


def test_more_conditional_and_prohibition_forms() -> None:
    got = one("Each crew member shall use oxygen at any time the oil pressure is above 10 psi.")
    assert stripped(got["cond"]) == atom("pressure", ">", 10, "psi")
    got = one("Close the valve and call the engineer should the oil pressure exceed 35 psi.")
    assert (stripped(got["cond"]), got["action"]) == (
        atom("pressure", ">", 35, "psi"), "Close the valve and call the engineer")
    got = one("Nobody may enter the room while the oil temperature is above 20 °C.")
    assert stripped(got["cond"]) == atom("temp", ">", 20, "degC")
    got = one("Ask the crew to report any oil temperature that is not between 16 °C and 32 °C.")
    assert stripped(got["cond"]) == atom("temp", "outside", [16, 32], "degC")
    got = one("Oil pressure readings above 120 psi are logged as PUMP PRESS faults.")
    assert stripped(got["cond"]) == atom("pressure", ">", 120, "psi")


def test_warmer_colder_during_and_tolerance_forms() -> None:
    got = one("The valve opens whenever the oil temperature is 2 °C or colder.")
    assert stripped(got["cond"]) == atom("temp", "<=", 2, "degC")
    got = one("The interlock inhibits the beam whenever the oil temperature is 45 °C or warmer.")
    assert stripped(got["cond"]) == atom("temp", ">=", 45, "degC")
    got = one("The caution is triggered when the oil temperature is above 257 °C during more "
              "than 55 s.")
    assert got["duration"] == (55.0, False)
    got = one("If the humidity is outside the tolerance of -3.0 % to +3.0 %, repeat the test.")
    assert stripped(got["cond"]) == atom("humidity", "outside", [-3, 3], "percent")
    got = one("A humidity more negative than -5.0 % or more positive than +5.0 % is an action "
              "level: stop.")
    assert stripped(got["cond"]) == {"any": [atom("humidity", "<", -5, "percent"),
                                             atom("humidity", ">", 5, "percent")]}


def test_a_list_of_comparisons_ending_in_or_is_any_of_them() -> None:
    got = one("Stop the pump when the oil pressure exceeds 200 psi, the oil temperature is above "
              "90 °C or the speed is higher than 480 rpm.")
    assert stripped(got["cond"]) == {"any": [atom("pressure", ">", 200, "psi"),
                                             atom("temp", ">", 90, "degC"),
                                             atom("speed", ">", 480, "rpm")]}
    got = one("Stop the pump when the oil pressure exceeds 200 psi, the oil temperature is above "
              "90 °C and the speed is higher than 480 rpm.")
    assert "all" in stripped(got["cond"])


def test_two_names_sharing_one_comparison() -> None:
    got = one("Stop the pump if the oil pressure or the humidity is greater than 3.0 %.")
    assert [c["param"] for c in stripped(got["cond"])["any"]] == ["pressure", "humidity"]
    got = one("If the oil temperature and the humidity are above 50, stop.")
    assert [c["param"] for c in stripped(got["cond"])["all"]] == ["temp", "humidity"]
    # a clause that is no name is still refused
    text = "If the oil pressure drops or the humidity is greater than 3.0 %, stop.\n"
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert found.rules == [] and found.problems
    # a name after a number belongs to that number
    got = one("The oil shall contain at least 19.5 % humidity and not more than 80 °C "
              "oil temperature.")
    assert [c["param"] for c in stripped(got["cond"])["not"]["all"]] == ["humidity", "temp"]


def test_a_condition_alone_before_a_checklist_item() -> None:
    text = ("- SIGNS ......... ON\n"
            "● IF OIL PRESSURE ABOVE 14 000 PSI:\n"
            "- PAX OXY MASKS ......... MAN ON\n")
    found = extract(split_statements(text, "m.txt"), PARAMS)
    assert [(stripped(condition_to_json(r.condition)), r.action) for r in found.rules] == [
        (atom("pressure", ">", 14000, "psi"), "PAX OXY MASKS: MAN ON")]


def test_a_list_of_names_sharing_one_comparison() -> None:
    got = one("If the oil pressure, the oil temperature or the speed is above 5, stop.")
    assert [c["param"] for c in stripped(got["cond"])["any"]] == ["pressure", "temp", "speed"]
    got = one("If the oil pressure, the oil temperature and the speed are above 5, stop.")
    assert [c["param"] for c in stripped(got["cond"])["all"]] == ["pressure", "temp", "speed"]
    # "at any time" opens a condition only before its subject; after a modal it is "always"
    for sentence in ("The oil pressure must at any time be above 5 psi.",
                     "The oil pressure shall at all times be kept above 5 psi."):
        got = one(sentence)
        assert (got["kind"], stripped(got["cond"])) == (
            "constraint", {"not": atom("pressure", ">", 5, "psi")}), sentence
