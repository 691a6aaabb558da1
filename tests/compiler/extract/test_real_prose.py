"""Forms of real regulations, handbooks and spec sheets, each read to the one rule it
says (or refused), from verbatim sentences of 30 CFR 75, 29 CFR 1910.95, 14 CFR 91 and
107 and equipment manuals."""

from __future__ import annotations

from typing import Any

import pytest
from param_tables import table_of

from rulec.compiler.extract.offline import _statement_body, extract
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import condition_to_json
from rulec.compiler.read.statements import split_statements


def table() -> ParameterTable:
    return table_of(
        ("methane", ("methane",), "percent"),
        ("sound_level", ("sound pressure level", "sound level"), "dB"),
        ("pump_speed", ("pump", "pump speed"), "rpm"),
        ("oil_temperature", ("oil temperature",), "degC"),
        ("alcohol_concentration", ("alcohol concentration",), "percent"),
        ("water_temperature", ("water temperature",), "degF"),
        ("visibility", ("flight visibility",), "km"),
    )


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
    value = cond["value"]
    return (cond["param"], cond["op"],
            tuple(map(float, value)) if isinstance(value, list) else float(value))


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


def names_table() -> ParameterTable:
    return table_of(
        ("twa", ("8-hour time-weighted average sound level", "8-hour time-weighted average"),
         "dB"),
        ("noise_dose", ("dose",), "percent"),
        ("quarter_hours", ("hours in any calendar quarter",), "h"),
        ("year_hours", ("hours in any calendar year",), "h"),
        ("rest", ("consecutive hours of rest",), "h"),
        ("bed_temperature", ("operating temperature (Heated Bed)",), "degC"),
        ("extruder_temperature", ("operating temperature (Extruder)",), "degC"),
    )


def rules_with(sentence: str) -> Any:
    found = extract(split_statements(sentence + "\n", "m.txt"), names_table())
    return found, [(r.kind, condition_to_json(r.condition)) for r in found.rules
                   if r.condition is not None]


def flat(cond: dict[str, Any]) -> Any:
    if "any" in cond:
        return ("any", [flat(c) for c in cond["any"]])
    return bare(cond)


def test_an_initialism_and_an_equivalent_quantity_in_words() -> None:
    found, rules = rules_with(
        "The employer shall administer a continuing, effective hearing conservation program, "
        "as described in paragraphs (c) through (o) of this section, whenever employee noise "
        "exposures equal or exceed an 8-hour time-weighted average sound level (TWA) of 85 "
        "decibels measured on the A scale (slow response) or, equivalently, a dose of fifty "
        "percent.")
    ((kind, cond),) = rules
    assert kind == "if_then"
    assert flat(cond) == ("any", [("twa", ">=", 85.0), ("noise_dose", ">=", 50.0)])


@pytest.mark.parametrize(("text", "body"), [
    ("an 8-hour time-weighted average sound level (TWA) of 85 dB",
     "an 8-hour time-weighted average sound level of 85 dB"),
    ("the Remote Pilot in Command (RPIC) must", "the Remote Pilot in Command must"),
    ("the dose (PEL) exceeds 50 percent", "the dose (PEL) exceeds 50 percent"),
    ("the pump (P-101) stops", "the pump (P-101) stops"),
])
def test_only_brackets_of_the_initials_before_them_go(text: str, body: str) -> None:
    assert _statement_body(text)[2] == body


def test_an_order_for_whoever_a_relative_clause_names() -> None:
    found, rules = rules_with(
        "(1) The employer shall establish and maintain an audiometric testing program as "
        "provided in this paragraph by making audiometric testing available to all employees "
        "whose exposures equal or exceed an 8-hour time-weighted average of 85 decibels.")
    assert [(k, bare(c)) for k, c in rules] == [("if_then", ("twa", ">=", 85.0))]


def test_a_joined_clause_without_a_relative_word_is_still_refused() -> None:
    found, rules = rules_with("The employer shall establish and maintain a program when "
                              "exposures equal or exceed an 8-hour time-weighted average of "
                              "85 decibels and the plant is noisy.")
    assert not rules and found.problems


@pytest.mark.parametrize(("sentence", "reading"), [
    ("(1) No person may schedule a crewmember if that crewmember's total flight time in all "
     "commercial flying will exceed 500 hours in any calendar quarter.",
     ("quarter_hours", ">", 500.0)),
    ("No person may schedule a crewmember if the total flight time will exceed 1,400 hours "
     "in any calendar year.", ("year_hours", ">", 1400.0)),
])
def test_the_unit_word_begins_a_name_said_after_the_number(sentence: str, reading: Any
                                                            ) -> None:
    found, rules = rules_with(sentence)
    assert [bare(c) for _, c in rules] == [reading]


def test_an_amount_of_time_is_no_duration_and_a_modal_verb_bound_is_required() -> None:
    found, rules = rules_with(
        "(d) Each assignment under paragraph (b) of this section must provide for at least "
        "10 consecutive hours of rest during the 24-hour period that precedes the planned "
        "completion time of the assignment.")
    ((kind, cond),) = rules
    assert kind == "constraint" and bare(cond) == ("not", ("rest", ">=", 10.0))
    assert all(r.duration_s is None for r in found.rules)


def test_a_bracket_that_names_a_parameter_is_kept() -> None:
    found, rules = rules_with("• Temperature: Maximum operating temperature (Heated Bed), "
                              "120C (248F)")
    assert [bare(c) for _, c in rules] == [("not", ("bed_temperature", "<=", 120.0))]


def test_a_number_word_after_of_needs_its_unit() -> None:
    found, rules = rules_with("The employer shall act whenever each of two pumps runs.")
    assert not rules


def test_a_quantity_with_a_verb_of_its_own_takes_no_comparison_from_before() -> None:
    found, rules = rules_with("If the 8-hour time-weighted average exceeds 85 dB and a dose "
                              "of 50 percent is not reached, stop the work.")
    assert not rules and found.problems


def test_a_duration_of_a_comparison_stays_one_before_of() -> None:
    found = extract(split_statements(
        "If the oil temperature exceeds 80 °C for more than 30 minutes of operation, stop "
        "the pump.\n", "m.txt"), table())
    (rule,) = found.rules
    assert rule.duration_s == 1800


def breathing_air() -> ParameterTable:
    return table_of(
        ("oxygen", ("oxygen content",), "percent"),
        ("hydrocarbon", ("hydrocarbon (condensed) content", "hydrocarbon content"), "mg/m3"),
        ("carbon_monoxide", ("carbon monoxide (co) content", "carbon monoxide"), "ppm"),
        ("rh", ("rh", "relative humidity"), "percent"),
        ("temperature", ("temperature",), "degF"),
    )


def read_air(text: str) -> Any:
    return extract(split_statements(text, "m.md"), breathing_air())


def test_the_entries_of_a_requirement_list_must_hold() -> None:
    found = read_air(
        "(ii) Compressed breathing air shall meet at least the requirements for Grade D "
        "breathing air described in ANSI/Compressed Gas Association Commodity Specification "
        "for Air, G-7.1-1989, to include:\n\n"
        "(A) Oxygen content (v/v) of 19.5-23.5%;\n\n"
        "(B) Hydrocarbon (condensed) content of 5 milligrams per cubic meter of air or less;\n\n"
        "(C) Carbon monoxide (CO) content of 10 ppm or less;\n")
    got = sorted((r.kind, bare(condition_to_json(r.condition))) for r in found.rules
                 if r.condition is not None)
    assert ("constraint", ("not", ("carbon_monoxide", "<=", 10.0))) in got
    assert ("constraint", ("not", ("hydrocarbon", "<=", 5.0))) in got
    assert ("constraint", ("not", ("oxygen", "between", (19.5, 23.5)))) in got
    assert all(kind == "constraint" for kind, _ in got)


def test_a_clause_with_a_verb_before_the_first_comparison_is_refused() -> None:
    found = read_air("(12) When sodium chloride aerosol is used, the relative humidity inside "
                     "the test chamber shall not exceed 50 percent.\n")
    assert not found.rules
    assert "sodium chloride aerosol is used" in found.problems[0].reason


def test_a_threshold_less_than_another_setting_is_refused() -> None:
    found = read_air("The temperature shall not be greater than 15 degrees F less than the "
                     "governor setting.\n")
    assert not found.rules and "relative to another quantity" in found.problems[0].reason


def test_a_condition_after_a_linking_phrase_and_a_rule_like_title_are_read() -> None:
    found = read_air("On the other hand, if the RH is greater than 85% and the temperature is "
                     "between 80 and 87 degrees F, then the following adjustment is added to "
                     "HI:\n")
    (rule,) = found.rules
    assert rule.condition is not None and rule.kind == "if_then"
    assert bare(condition_to_json(rule.condition).get("all", [{}])[0]) == ("rh", ">", 85.0)


def diving() -> ParameterTable:
    return table_of(
        ("depth", ("depth", "depths"), "fsw"),
        ("decompression", ("inwater decompression time",), "min"),
        ("blood_lead", ("blood lead level",), "µg/dL"),
    )


def read_diving(text: str) -> Any:
    return extract(split_statements(text, "m.md"), diving())


@pytest.mark.parametrize("text", [
    # a comparison said with the order ("removed due to ... at or above 50")
    "(A) The employer shall return an employee to his or her former job status:\n\n"
    "(1) For an employee removed due to a blood lead level at or above 50 µg/dl when two "
    "consecutive blood sampling tests indicate that the employee's blood lead level is below "
    "40 µg/dl;\n",
    # a count of tests the condition needs
    "Notify the physician when two consecutive blood sampling tests show a blood lead level "
    "above 40 µg/dl.\n",
    # an exception that compares nothing, after the comparison
    "Stop the dive if the depth is greater than 300 fsw, except when diving is conducted in "
    "physically confining spaces.\n",
    # entries that permit, read together only
    "(b) Limits. Mixed-gas diving shall be conducted only when:\n\n"
    "(ii) A closed bell is used at depths greater than 300 fsw.\n",
    # a lead-in narrowed to what no parameter measures
    "(b) Limits. Diving operations involving liveboating shall not be conducted:\n\n"
    "(1) With an inwater decompression time of greater than 120 minutes;\n",
])
def test_what_would_fire_where_the_text_says_it_must_not_is_not_compiled(text: str) -> None:
    found = read_diving(text)
    assert not [r for r in found.rules if r.condition is not None], found.rules
    assert any(p.kind in ("needs review", "unreadable") for p in found.problems)


def test_an_entry_under_a_lead_in_with_the_rule_word_above_is_listed() -> None:
    found = read_diving("The diving supervisor shall insure that—\n\n"
                        "(a) SCUBA diving is not conducted—\n\n"
                        "(2) At depths greater than 130 fsw;\n")
    assert not found.rules
    assert [p.line for p in found.problems if p.kind == "needs review"] == [5]


def _numbers_table() -> ParameterTable:
    return table_of(
        ("tread_depth", ("tread depth", "tread groove pattern depth"), "in"),
        ("reservoir_vacuum", ("vacuum",), "mmHg"),
        ("dose", ("dose equivalent",), "rem"),
        ("cell_voltage", ("cell voltage",), "V"),
    )


def _one_rule(sentence: str) -> Any:
    found = extract(split_statements(sentence + "\n", "m.txt"), _numbers_table())
    assert not [p for p in found.problems if p.fatal], found.problems
    (rule,) = found.rules
    assert rule.condition is not None
    return bare(condition_to_json(rule.condition))


@pytest.mark.parametrize(("sentence", "reading"), [
    # 49 CFR 393.75: a fraction with an exact decimal, "of an inch"
    ("Tires shall have a tread groove pattern depth of at least 2/32 of an inch.",
     ("not", ("tread_depth", ">=", 0.0625))),
    ("If the tread depth is 3/8 inch or less, replace the tire.", ("tread_depth", "<=", 0.375)),
    # 49 CFR 393.51: the unit completed after its bracketed restatement
    ("If the vacuum is less than 203 mm (8 inches) of mercury, sound the warning.",
     ("reservoir_vacuum", "<", 203)),
    ("If the dose equivalent exceeds 0.5 rem (5 mSv), stop the work.", ("dose", ">", 0.5)),
])
def test_real_numbers_and_units_are_read_whole(sentence: str, reading: Any) -> None:
    assert _one_rule(sentence) == reading


def test_a_fraction_without_an_exact_decimal_is_refused_not_truncated() -> None:
    found = extract(split_statements("If the tread depth is less than 1/3 inch, replace "
                                     "the tire.\n", "m.txt"), _numbers_table())
    assert not found.rules
    assert any("no role" in p.reason for p in found.problems)


def test_of_after_a_number_is_not_degrees_fahrenheit() -> None:
    from rulec.compiler.model.units import match_unit_phrase

    assert match_unit_phrase(" of the cells", 0) is None
    found = match_unit_phrase(" oF", 0)
    assert found is not None and found[0].symbol == "degF"


@pytest.mark.parametrize(("verb", "severity"), [
    ("trip", "warning"), ("shut down", "warning"), ("stop", "caution"),
    ("close", "caution"), ("notify", "caution")])
def test_the_severity_words_are_one_vocabulary_whatever_the_verb_s_form(
        verb: str, severity: str) -> None:
    """"... trips the main motor" rates as "trip the main motor" does."""
    from rulec.compiler.extract.offline import _severity

    forms = {"trip": ["trip", "trips", "tripped", "tripping"],
             "shut down": ["shut down", "shuts down", "shutting down"],
             "stop": ["stop", "stops", "stopped", "stopping"],
             "close": ["close", "closes", "closed", "closing"],
             "notify": ["notify", "notifies", "notified", "notifying"]}[verb]
    for form in forms:
        assert _severity(f"The relay {form} the main motor", "if_then", None) == severity, form
    assert _severity("No shot shall be fired", "if_then", None) != "warning"
