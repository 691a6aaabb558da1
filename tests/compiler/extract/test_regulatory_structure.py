"""Regulations say a rule across a lead-in and its enumerated paragraphs; each part is
read as the structure says, or listed for review, never read alone into a wrong rule.
Sentences from 30 CFR 75.323, 14 CFR 107.51, 14 CFR 135.267 and 14 CFR 91.17."""

from __future__ import annotations

from param_tables import table_of

from rulec.compiler.extract.offline import NEEDS_REVIEW, Extraction, extract
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import condition_to_json
from rulec.compiler.read.statements import split_statements


def table() -> ParameterTable:
    return table_of(
        ("methane", ("methane", "methane concentration"), "percent"),
        ("altitude", ("altitude",), "ft"),
        ("cloud_distance", ("below the cloud",), "ft"),
        ("alcohol_concentration", ("alcohol concentration",), "percent"),
        ("flight_time", ("total flight time",), "h"),
    )


def read(text: str) -> Extraction:
    return extract(split_statements(text, "cfr.txt"), table())


def test_bracketed_paragraphs_are_statements_of_their_own() -> None:
    texts = [st.text for st in split_statements(
        "(a) The altitude may not exceed 400 feet.\n(b) The methane may not exceed 1.0 "
        "percent.\n(5) Calibration. (i) The check shall be made daily.\n", "cfr.txt")]
    assert texts == ["(a) The altitude may not exceed 400 feet.",
                     "(b) The methane may not exceed 1.0 percent.", "(5) Calibration.",
                     "(i) The check shall be made daily."]


def test_items_under_a_conditional_lead_in_carry_its_condition() -> None:
    found = read(
        "(b) (1) When 1.0 percent or more methane is present in a working place or an intake "
        "air course—\n"
        "(i) Electrically powered equipment in the affected area shall be deenergized;\n"
        "(ii) Changes shall be made at once to reduce the concentration of methane to less "
        "than 1.0 percent; and\n")
    # the lead-in's place ("in a working place or an intake air course") is no reading:
    # neither item is a rule on methane alone, and neither is silently dropped
    assert found.rules == []
    assert {p.line for p in found.problems} == {2, 3}
    assert all(p.fatal for p in found.problems)


def test_an_order_target_is_not_a_condition() -> None:
    found = read("Changes shall be made at once to reduce the concentration of methane to "
                 "less than 1.0 percent.\n")
    assert found.rules == []
    assert "order's target" in found.problems[0].reason


def test_items_completing_a_comparison_are_limits_each() -> None:
    found = read("(d) The total flight time must be no more than:\n"
                 "(1) 500 hours; and\n(2) 1,400 hours.\n")
    first, second = found.rules
    assert condition_to_json(first.condition)["not"] == {
        "param": "flight_time", "op": "<=", "value": 500, "unit": "h",
        "label": "total flight time"}
    assert first.source["line"] == 2 and first.source["text"] == "(1) 500 hours; and"
    assert condition_to_json(second.condition)["not"]["value"] == 1400


def test_items_of_a_prohibition_lead_in_are_read_with_it() -> None:
    found = read("(a) No person may act as a crewmember of a civil aircraft if the—\n"
                 "(4) alcohol concentration is 0.04 or greater.\n")
    assert [p.kind for p in found.problems if p.line == 2] or found.rules
    found = read("(a) No person may act as a crewmember of a civil aircraft—\n"
                 "(4) With an alcohol concentration of 0.04 or greater.\n")
    (rule,) = found.rules
    cond = condition_to_json(rule.condition)
    assert (cond["param"], cond["op"], cond["value"]) == ("alcohol_concentration", ">=", 0.04)
    assert rule.source["line"] == 2


def test_a_lead_in_whose_items_are_its_exceptions_needs_review_with_them() -> None:
    found = read("(b) The altitude of the small unmanned aircraft cannot be higher than 400 feet "
                 "above ground level, unless the small unmanned aircraft:\n"
                 "(1) Is flown within a 400-foot radius of a structure; and\n"
                 "(2) Does not fly higher than 400 feet above the structure's uppermost limit.\n")
    assert found.rules == []
    assert [p.kind for p in found.problems] == [NEEDS_REVIEW] * 3


def test_an_exception_stated_elsewhere_needs_review() -> None:
    found = read("(a) Except as provided in paragraph (d) of this section, the altitude may not "
                 "exceed 400 feet.\n")
    assert found.rules == [] and found.problems[0].kind == NEEDS_REVIEW


def test_a_rule_in_force_until_a_condition_holds_is_refused() -> None:
    found = read("The evaluator must not simulate failure of an engine until attaining an "
                 "altitude of at least 400 feet.\n")
    assert found.rules == [] and "until" in found.problems[0].reason


def test_a_comparison_after_the_rule_word_that_may_say_what_must_hold_needs_review() -> None:
    found = read("All active workings shall be ventilated by a current of air containing not "
                 "less than 19.5 volume per centum of methane.\n")
    assert found.rules == [] and found.problems[0].kind == NEEDS_REVIEW


def test_entries_of_a_list_of_upper_limits_are_limits_each() -> None:
    """30 CFR 75.321(b): "Name—value" entries under a lead-in over the limits below."""
    found = read("(b) The following gases shall not be permitted to accumulate in excess of the "
                 "concentrations listed below:\n(1) Methane (CH4)—1.0 percent\n")
    (rule,) = found.rules
    assert condition_to_json(rule.condition)["not"]["value"] == 1.0
    assert rule.source["text"] == "(1) Methane (CH4)—1.0 percent"
