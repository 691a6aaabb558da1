"""The fidelity filter: numbers, units and parameters must be grounded in the text."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from param_tables import table_of

from rulec.compiler.extract.offline import extract
from rulec.compiler.llm.fidelity import filter_answer, ground_rule, quantities, statement_rule_id
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import Rule, rule_from_json
from rulec.compiler.read.statements import Statement, split_statements

PARAMS = table_of(
    ("egt", ("EGT", "exhaust gas temperature"), "degC"),
    ("oil_temperature", ("oil temperature",), "degC"),
    ("oil_pressure", ("oil pressure",), "kPa"),
    ("altitude", ("pressure altitude",), "m"),
    ("cell_voltage", ("cell voltage",), "V"),
    ("bus_current", ("bus current",), "A"),
)


def values(text: str) -> list[tuple[str, str | None]]:
    return [(str(q.value), q.written_unit.symbol if q.written_unit else None)
            for q in quantities(text)]


def rule(text: str, cond: dict[str, Any], **extra: Any) -> Rule:
    obj = {"id": "R-1", "kind": "if_then", "condition": cond, "action": "act",
           "source": {"file": "m.txt", "line": 1, "text": text}, **extra}
    return rule_from_json(obj, "test")


def reasons(text: str, cond: dict[str, Any], chunk: str | None = None,
            params: ParameterTable = PARAMS, **extra: Any) -> list[str]:
    return ground_rule(rule(text, cond, **extra), chunk if chunk is not None else text, params)


def cmp(param: str, op: str, value: Any, unit: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"param": param, "op": op, "value": value}
    if unit is not None:
        out["unit"] = unit
    return out


# ---------------------------------------------------------------- reading numbers


@pytest.mark.parametrize("text, expected", [
    ("exceeds 30,000 ft", [("30000", "ft")]),
    ("below -40 °C", [("-40", "degC")]),
    ("below \u221240 °C", [("-40", "degC")]),
    ("raise by +5 °C", [("5", "degC")]),
    ("above 38.5 °C", [("38.5", "degC")]),
    ("is 104%.", [("104", "percent")]),
    ("between 13 and 25 psi", [("13", "psi"), ("25", "psi")]),
    ("within 13-25 psi", [("13", "psi"), ("25", "psi")]),
    ("above 80 or below 5 °C", [("80", "degC"), ("5", "degC")]),
    ("118 °C (245 °F)", [("118", "degC"), ("245", "degF")]),
    ("REQ-BMS-010: if N1 exceeds 104 %", [("104", "percent")]),
    ("a 12-lead ECG on engine TF-7", []),
    ("for 30-minute intervals", [("30", "min")]),
    ("1 scavenge filter and 2 pumps", [("1", None), ("2", None)]),
    ("over 2 million cycles", [("2000000", "cycle")]),
    ("is 1,5 bar", [("1", None), ("5", "bar")]),  # a comma groups thousands only
])
def test_quantities(text: str, expected: list[tuple[str, str | None]]) -> None:
    assert values(text) == expected


@given(st.decimals(min_value=-10**7, max_value=10**7, places=2, allow_nan=False),
       st.booleans())
def test_any_written_number_reads_back_exactly(value: Decimal, grouped: bool) -> None:
    written = f"{value:,f}" if grouped else f"{value:f}"
    [q] = quantities(f"If the oil pressure exceeds {written} kPa, stop.")
    assert q.value == value and q.unit is not None and q.unit.symbol == "kPa"


# ---------------------------------------------------------------- grounding


def test_grounded_rule_passes() -> None:
    text = "If the pressure altitude is greater than 30,000 ft, use the relight procedure."
    assert reasons(text, cmp("altitude", ">", 30000, "ft")) == []


def test_number_compared_as_exact_decimal() -> None:
    text = "If the cell voltage falls below 2.50 V, stop charging."
    assert reasons(text, cmp("cell_voltage", "<", Decimal("2.5"), "V")) == []
    assert reasons(text, cmp("cell_voltage", "<", Decimal("2.05"), "V")) == [
        "number 2.05 does not appear in the source statement"]


def test_sign_matters() -> None:
    text = "If the oil temperature is less than -40 °C, do not start."
    assert reasons(text, cmp("oil_temperature", "<", -40, "degC")) == []
    assert reasons(text, cmp("oil_temperature", "<", 40, "degC")) == [
        "number 40 does not appear in the source statement"]


def test_range_ends_and_shared_unit() -> None:
    text = "If the oil pressure is within 13 to 25 psi, reduce thrust."
    assert reasons(text, cmp("oil_pressure", "between", [13, 25], "psi")) == []
    assert reasons(text, cmp("oil_pressure", "between", [13, 30], "psi")) == [
        "number 30 does not appear in the source statement"]


def test_unit_must_be_the_one_written_after_the_number() -> None:
    text = "If the oil temperature exceeds 140 °C (284 °F), land."
    assert reasons(text, cmp("oil_temperature", ">", 140, "°C")) == []
    assert reasons(text, cmp("oil_temperature", ">", 284, "degF")) == []
    assert reasons(text, cmp("oil_temperature", ">", 140, "degF")) == [
        "unit degF of 140 is not the unit written after it in the source statement (degC)"]
    assert reasons(text, cmp("oil_temperature", ">", 284)) == [
        "number 284 is written in degF in the source statement but the rule gives no unit "
        "(the parameter's unit is degC)"]


def test_bare_number_may_take_the_parameters_unit_but_no_other() -> None:
    text = "If the EGT exceeds 950, reduce thrust."
    assert reasons(text, cmp("egt", ">", 950)) == []
    assert reasons(text, cmp("egt", ">", 950, "degC")) == []  # the manifest's own unit
    assert reasons(text, cmp("egt", ">", 950, "degF")) == [
        "unit degF of 950 is not written in the source statement"]
    assert reasons(text, cmp("egt", ">", 950, "furlongs")) == [
        "unit 'furlongs' of egt is not a known unit"]


def test_counted_noun_is_not_a_unit_to_repeat() -> None:
    table = ParameterTable()
    table.add(ParameterInfo("failed_logins", ("failed login attempts",), None))
    text = "If there are more than 5 failed login attempts, lock the account."
    assert reasons(text, cmp("failed_logins", ">", 5), params=table) == []
    assert reasons(text, cmp("failed_logins", ">", 5, "attempts"), params=table) == []


def test_duration_is_grounded_in_seconds() -> None:
    text = "If the EGT stays above 900 °C for more than 5 minutes, reduce thrust."
    cond = cmp("egt", ">", 900, "degC")
    assert reasons(text, cond, duration={"seconds": 300}) == []
    assert reasons(text, cond, duration={"seconds": 5}) == [
        "duration 5 s does not match a time written in the source statement"]


def test_numbers_in_the_action_are_grounded_too() -> None:
    text = "If the EGT exceeds 950 °C, reduce thrust to idle."
    cond = cmp("egt", ">", 950, "degC")
    assert reasons(text, cond, action="reduce thrust by 20 %") == [
        "number 20 in the action does not appear in the source statement"]
    assert reasons(text, cond, template="{condition}: reduce to idle ({egt})") == []


def test_parameter_must_be_a_manifest_parameter_named_in_the_chunk() -> None:
    text = "If the EGT exceeds 950 °C, reduce thrust."
    assert reasons(text, cmp("egt", ">", 950, "degC")) == []
    assert reasons(text, cmp("exhaust_gas_temperature", ">", 950, "degC")) == [
        "parameter 'exhaust_gas_temperature' is not a manifest parameter (did you mean 'egt'?)"]
    assert reasons(text, cmp("oil_temperature", ">", 950, "degC"))[0].startswith(
        "parameter 'oil_temperature' is not named in the chunk")
    # Named in another statement of the chunk is enough.
    other = "If it exceeds 950 °C, reduce thrust."
    assert reasons(other, cmp("egt", ">", 950, "degC"), chunk="EGT limits. " + other) == []


def test_parameter_grounded_by_its_unit_when_it_is_the_only_one() -> None:
    text = "Above 25,000 ft, reduce the airspeed."
    assert reasons(text, cmp("altitude", ">", 25000, "ft")) == []
    hot = "Above 900 °C, reduce thrust."  # two manifest temperatures: ambiguous
    assert reasons(hot, cmp("egt", ">", 900, "degC"))[0].startswith(
        "parameter 'egt' is not named in the chunk")


def test_without_manifest_the_name_must_be_in_the_chunk() -> None:
    table = ParameterTable(infer=True)
    text = "If the chamber temperatures exceed 600 °C, increase coolant flow."
    assert reasons(text, cmp("chamber_temperature", ">", 600, "degC"), params=table) == []
    assert reasons(text, cmp("nozzle_temperature", ">", 600, "degC"), params=table) == [
        "parameter 'nozzle_temperature' is not named in the chunk"]


def test_every_reason_is_recorded() -> None:
    text = "If the EGT exceeds 950 °C, reduce thrust."
    found = reasons(text, cmp("fuel_flow", ">", 650, "degC"), action="wait 10 s")
    assert found == [
        "number 650 does not appear in the source statement",
        "parameter 'fuel_flow' is not a manifest parameter",
        "number 10 in the action does not appear in the source statement",
    ]


# ---------------------------------------------------------------- whole answers


STATEMENTS = split_statements(
    "Oil system\n"
    "REQ-ENG-012: If the oil pressure drops below 13 psi, shut down the engine.\n"
    "Do not open the bleed valve and start the APU at the same time.\n"
    "To shut down:\n"
    "1. Set the thrust lever to idle.\n"
    "2. Wait 3 minutes.\n", "m.txt")
CHUNK = "\n".join(s.text for s in STATEMENTS)


def answer(rules: Any) -> str:
    return json.dumps({"class": "mixed", "rules": rules})


def test_answer_kinds_and_ids_match_the_offline_extractor() -> None:
    content = answer([
        {"statement": 2, "kind": "if_then", "severity": "warning",
         "condition": cmp("oil_pressure", "<", 13, "psi"), "action": "shut down the engine"},
        {"statement": 3, "kind": "exclusion", "severity": "caution",
         "actions": ["open the bleed valve", "start the APU"]},
        {"statement": 4, "kind": "procedure", "title": "To shut down",
         "steps": [{"statement": 5, "text": "Set the thrust lever to idle."},
                   {"statement": 6, "text": "Wait 3 minutes."}]},
    ])
    result = filter_answer(content, "m.txt#1", STATEMENTS, CHUNK, PARAMS, set())
    assert result.rejections == [] and result.label == "mixed"
    ids = [r.id for r in result.rules]
    offline = extract(STATEMENTS, PARAMS)
    assert ids == [r.id for r in offline.rules]
    assert ids[0] == "REQ-ENG-012"
    procedure = result.rules[2]
    assert [s.source["line"] for s in procedure.steps] == [5, 6]


def test_step_numbers_are_grounded_in_their_own_statement() -> None:
    content = answer([{"statement": 4, "kind": "procedure", "title": "To shut down",
                       "steps": [{"statement": 5, "text": "Wait 3 minutes."}]}])
    result = filter_answer(content, "c", STATEMENTS, CHUNK, PARAMS, set())
    assert [r.reason for r in result.rejections] == [
        "number 3 in the step 1 does not appear in the step statement"]


def test_answer_in_fence_after_thinking_or_bare_list_is_read() -> None:
    body = [{"statement": 2, "kind": "if_then", "condition": cmp("oil_pressure", "<", 13, "psi"),
             "action": "shut down the engine"}]
    fenced = "```json\n" + json.dumps(body) + "\n```"
    result = filter_answer(fenced, "c", STATEMENTS, CHUNK, PARAMS, set())
    assert len(result.rules) == 1 and result.label is None
    thinking = "<think>\nThe statement says 13 psi.\n</think>\n\n" + json.dumps(body)
    assert len(filter_answer(thinking, "c", STATEMENTS, CHUNK, PARAMS, set()).rules) == 1


def test_answer_that_is_not_a_rule_list_is_rejected() -> None:
    result = filter_answer('{"answer": 42}', "c", STATEMENTS, CHUNK, PARAMS, set())
    assert [r.reason for r in result.rejections] == [
        'answer is not a JSON object with a "rules" list']
    result = filter_answer(answer(["text"]), "c", STATEMENTS, CHUNK, PARAMS, set())
    assert [r.reason for r in result.rejections] == ["rules[0] is not an object"]


def test_quote_names_a_statement() -> None:
    cond = cmp("oil_pressure", "<", 13, "psi")
    whole = {"quote": "  if the OIL pressure drops below 13 psi, shut down the engine",
             "kind": "if_then", "condition": cond, "action": "shut down the engine"}
    part = {**whole, "quote": "drops below 13 psi"}
    short = {**whole, "quote": "13 psi"}
    result = filter_answer(answer([whole, part, short]), "c", STATEMENTS, CHUNK, PARAMS, set())
    assert [r.source["line"] for r in result.rules] == [2, 2]
    assert result.rejections[0].reason.startswith("rules[2]: unknown statement reference")


def test_statement_rule_id_follows_the_documented_rule() -> None:
    assert statement_rule_id("If  the EGT\nexceeds 950 °C, stop.") == statement_rule_id(
        "if the egt exceeds 950 °c, stop.")
    assert statement_rule_id("**REQ-BMS-010**: If ...") == "REQ-BMS-010"
    assert statement_rule_id("Title", "P").startswith("P-")
    overlong = "REQ-" + "A1" * 30 + ": If ..."
    assert statement_rule_id(overlong).startswith("R-")


def test_table_row_is_grounded_in_its_reading_and_keeps_page() -> None:
    fields = {"page": 3, "parse_text": "Oil pressure shall remain between 20 psi and 100 psi."}
    try:
        row = Statement("limits.pdf", 7, "Oil pressure | 20 | 100 psi", "row", **fields)
    except TypeError:
        pytest.skip("Statement has no page/parse_text yet")
    content = answer([{"statement": 1, "kind": "constraint", "severity": "caution",
                       "condition": cmp("oil_pressure", "outside", [20, 100], "psi"),
                       "action": "keep the oil pressure between 20 and 100 psi"}])
    result = filter_answer(content, "c", [row], row.text, PARAMS, set())
    assert result.rejections == []
    assert result.rules[0].source == {"file": "limits.pdf", "line": 7, "page": 3,
                                      "text": "Oil pressure | 20 | 100 psi"}
