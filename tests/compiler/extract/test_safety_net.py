"""The extractor's safety net: a reading that leaves part of its sentence unexplained is
refused with that part named, and a statement that looks like a rule is compiled or
listed as needing review, never silently descriptive.

The sentences are the wrong rules and silent misses found on real documents (a printer
manual, 14 CFR 107 guidance, 30 CFR 75, 29 CFR 1910.95, a pump manual)."""

from __future__ import annotations

import pytest

from rulec.compiler.extract.offline import NEEDS_REVIEW, UNREADABLE, Extraction, extract
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.read.statements import split_statements


def table() -> ParameterTable:
    out = ParameterTable()
    for name, aliases, unit in (
        ("enclosure_temperature", ("temperatures", "enclosure temperature"), "degF"),
        ("altitude", ("altitude", "AGL"), "ft"),
        ("oil_temperature", ("oil temperature",), "degC"),
        ("oil_pressure", ("oil pressure",), "psi"),
        ("coolant_temperature", ("coolant temperature",), "degC"),
        ("methane", ("methane",), "percent"),
        ("sound_level", ("sound pressure level", "sound level"), "dB"),
        ("pump_speed", ("pump", "pump speed"), "rpm"),
    ):
        out.add(ParameterInfo(name, aliases, unit))
    return out


def read(text: str) -> Extraction:
    return extract(split_statements(text + "\n", "m.txt"), table())


@pytest.mark.parametrize(("sentence", "unplaced"), [
    ("If ever the printer must be operated at cold temperatures below 60°F for more than an "
     "hour, then the enclosure must be configured with a heater.", "for more than an hour"),
    ("The alarm sounds when the oil temperature is 5 K above the ambient temperature.",
     "5 K above the ambient"),
    ("If the oil pressure drops below 25 psi within 10 seconds of start-up, shut down the "
     "engine.", "within 10 seconds of start-up"),
    ("If the oil pressure drops below 25 psi after 30 minutes of operation, shut down the "
     "engine.", "after 30 minutes of operation"),
    ("If the coolant temperature exceeds 90 °C twice within one hour, inspect the pump.",
     "twice within one hour"),
])
def test_a_reading_that_leaves_part_of_its_condition_unplaced_is_refused(
        sentence: str, unplaced: str) -> None:
    found = read(sentence)
    assert found.rules == []
    (problem,) = found.problems
    assert problem.kind == UNREADABLE and problem.fatal
    assert unplaced in problem.reason or unplaced.split()[-1] in problem.reason, problem.reason


def test_an_example_is_descriptive_with_its_reason() -> None:
    found = read("For example, if during a flight the small UA experiences a battery fire, the "
                 "remote pilot may need to climb the small UA above 400' AGL.")
    assert found.rules == [] and found.problems == []
    (st,) = found.descriptive
    assert "example" in found.reasons[st.id]


@pytest.mark.parametrize("sentence", [
    "Such protection is also mandatory for all workers in areas at or above 85 dB.",
    "Guards shall be made available to all workers near machines that turn at 1,900 rpm or "
    "more.",
    "The methane content shall be kept as low as practicable and under no circumstances "
    "above the values of Table 2.",
])
def test_a_rule_like_sentence_no_shape_reads_needs_review(sentence: str) -> None:
    found = read(sentence)
    assert found.descriptive == [] and found.rules == []
    (problem,) = found.problems
    assert problem.kind == NEEDS_REVIEW and problem.fatal  # --strict fails on it
    assert "looks like a rule" in problem.reason and problem.line == 1


@pytest.mark.parametrize(("sentence", "why"), [
    ("The lower limit of the oil pressure was raised from 8 psi to 10 psi in 2019.",
     "history"),
    ("Software 3.2 lowered the default coolant temperature limit from 98.5 °C to 98.0 °C.",
     "history"),
    ("The oil temperature is typically 85 °C and must be checked daily.", "typical"),
])
def test_descriptive_is_a_positive_finding_with_a_reason(sentence: str, why: str) -> None:
    found = read(sentence)
    assert found.rules == [] and found.problems == []
    (st,) = found.descriptive
    assert why in found.reasons[st.id]


def test_a_sentence_without_a_rule_word_stays_descriptive_and_says_so() -> None:
    found = read("The pump delivers 1,900 rpm at full load.")
    (st,) = found.descriptive
    assert found.problems == [] and found.reasons[st.id]


def test_numbers_said_in_passing_do_not_block_a_reading() -> None:
    """Brackets, "i.e." and names with numbers are not parts of the condition."""
    for sentence in (
        "If the oil pressure drops below 25 psi (see section 7.2), shut down the engine.",
        "If the oil temperature exceeds 120 °C, i.e. 20 °C above normal, stop the pump.",
        "If the pump speed exceeds 1,900 rpm in Hall 2, stop the pump.",
    ):
        found = read(sentence)
        assert len(found.rules) == 1 and not found.problems, (sentence, found.problems)


def test_compile_counts_each_class_lists_what_needs_review_and_strict_fails_on_it(
        tmp_path, capsys) -> None:
    import json

    from rulec.compiler.cli import main

    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "m.txt").write_text(
        "If the pump speed exceeds 2,000 rpm, stop the pump.\n\n"
        "Such protection is also mandatory in areas at or above 1,900 rpm.\n\n"
        "The pump delivers 1,900 rpm at full load.\n", encoding="utf-8")
    (folder / "sensors.toml").write_text(
        '[parameters.pump_speed]\nunit = "rpm"\naliases = ["pump", "pump speed"]\n'
        "range = [0, 5000]\n", encoding="utf-8")
    out = tmp_path / "m.bundle"
    assert main(["compile", str(folder), "-o", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["counts"] == {"rules": 1, "unreadable": 0, "needs review": 1,
                                 "descriptive": 1, "note": 0}
    (review,) = summary["problems"]
    assert review["kind"] == "needs review" and review["line"] == 3
    assert review["text"] == "Such protection is also mandatory in areas at or above 1,900 rpm."
    assert summary["descriptive"][0]["reason"] and summary["written"] is True
    assert "1 need(s) review" in captured.err and "needs review: m.txt:3" in captured.err
    strict = tmp_path / "strict.bundle"
    assert main(["compile", str(folder), "-o", str(strict), "--strict", "--json"]) == 3
    captured = capsys.readouterr()
    assert json.loads(captured.out)["written"] is False and not strict.exists()
    assert "needing review (--strict)" in captured.err
    rules = tmp_path / "rules.jsonl"
    assert main(["extract", str(folder), "-o", str(rules), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["needs review"] == 1


def test_a_rate_of_breaths_is_never_read_as_a_pump_speed() -> None:
    """Both are counts a minute; only a parameter counting the same thing (or anything,
    as 1/min does) may be taken from the unit."""
    params = table()
    found = extract(split_statements(
        "Call the physician if the patient breathes 8 breaths per minute or lower.\n", "m.txt"),
        params)
    assert found.rules == [] and found.problems[0].kind == UNREADABLE
    params.add(ParameterInfo("respiratory_rate", ("respiratory rate",), "1/min"))
    found = extract(split_statements(
        "Call the physician if the patient breathes 8 breaths per minute or lower.\n", "m.txt"),
        params)
    (rule,) = found.rules
    assert rule.condition is not None and rule.condition.param == "respiratory_rate"


def test_an_order_for_whoever_a_comparison_holds_of_is_a_rule_on_that_reading() -> None:
    """29 CFR 1910.95(i)(1): the order comes first, its condition in its object."""
    found = read("Hearing protectors shall be made available to all employees exposed to an "
                 "average sound level of 85 decibels or greater.")
    (rule,) = found.rules
    assert rule.condition is not None and rule.condition.param == "sound_level"
    assert rule.condition.op == ">=" and float(rule.condition.value) == 85


@pytest.mark.parametrize("sentence", [
    "The pump shall not be run with an oil pressure less than that specified for the load.",
    "Hearing protection shall be worn when the sound levels exceed those shown in Table 1.",
])
def test_a_comparison_with_a_value_given_elsewhere_is_listed_not_dropped(sentence: str) -> None:
    """No number to read, but a rule word, a parameter and a comparison: needs review."""
    found = read(sentence)
    assert not found.rules
    assert [p.kind for p in found.problems] in ([NEEDS_REVIEW], [UNREADABLE])


def test_a_description_with_a_reference_but_no_rule_word_stays_descriptive() -> None:
    found = read("The oil pressure is normally above that of the coolant circuit.")
    assert not found.rules and not found.problems
