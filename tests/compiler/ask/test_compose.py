"""Answers composed from the three paths, each rule cited by id and file:line, for the
paper's five queries and the cases where no rule applies or the bundle cannot read the
question; the `rulec ask` command, its interactive mode and the Python API."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.compiler.api import ask
from rulec.compiler.ask.compose import Answerer, AskAnswer, cite
from rulec.compiler.cli import main
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled
EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "manuals"
CITATION = re.compile(r"\[([RP]-[0-9a-f]+), ([^:\]]+):(\d+)\]")


@pytest.fixture(scope="module")
def answerers(engines: dict[str, Engine]) -> dict[str, Answerer]:
    return {name: Answerer(e) for name, e in engines.items()}


def sources(answer: AskAnswer) -> list[str]:
    return [r["source"]["text"] for r in answer.rules]


def assert_citations_stand_in_the_manuals(answer: AskAnswer, domain: str) -> None:
    """Every citation names a rule of the answer's bundle whose text stands on that line."""
    cited = CITATION.findall(answer.templated)
    assert cited
    for _, file, line in cited:
        lines = (EXAMPLES / domain / file).read_text(encoding="utf-8").splitlines()
        assert 1 <= int(line) <= len(lines)
    for rule in answer.rules:
        lines = (EXAMPLES / domain / rule["source"]["file"]).read_text("utf-8").splitlines()
        assert rule["source"]["text"] in " ".join(lines[rule["source"]["line"] - 1].split())


# ---------------------------------------------------------------- the paper's five queries

def test_paper_rocket_engine_820_and_45(answerers):
    a = answerers["rocket_engine"].ask(
        "The chamber temperature is 820 °C and the pressure 45 psi: what actions are required?")
    assert a.kind == "applies" and a.answered
    assert a.templated.startswith("Read: chamber_temperature = 820 °C, chamber_pressure = 45 psi.")
    got = sources(a)
    assert len(got) == 2
    assert any("shut down the cryogenic pump" in t for t in got)
    assert any("increase the coolant flow" in t for t in got)
    # each path speaks: geometry's arithmetic, logic's entailed action, graph's related rule
    assert "geometry: 820 > 800, 45 < 50" in a.templated
    assert 'logic: the rules entail "shut down the cryogenic pump"' in a.templated
    assert re.search(r"Related \(same parameter chamber temperature\): R-\w+ applies when "
                     r"chamber temperature is above 950 °C", a.templated)
    assert_citations_stand_in_the_manuals(a, "rocket_engine")


def test_paper_login_steps(answerers):
    a = answerers["access_control"].ask("What are the steps to log in?")
    assert a.kind == "steps" and a.rules == []
    assert [s["step"] for s in a.steps] == [1, 2, 3, 4, 5]
    assert a.steps[0]["text"] == "Type the username into the sign-in form."
    assert a.steps[4]["text"] == "Wait until the session opens."
    assert a.procedures[0]["title"].startswith("User login procedure")
    manual = (EXAMPLES / "access_control/access_policy.txt").read_text("utf-8").splitlines()
    for step in a.steps:
        assert step["text"] in manual[step["source"]["line"] - 1]


def test_paper_stock_reaching_zero_brings_the_boundary_rule_along(answerers):
    a = answerers["inventory"].ask("What happens when the stock reaches zero?")
    assert a.kind == "what_if"
    assert a.state == {"stock_level": 0.0}
    got = sources(a)
    assert len(got) == 2
    assert any("falls below 10 units" in t for t in got)
    assert any("reaches 0 units" in t for t in got)
    assert_citations_stand_in_the_manuals(a, "inventory")


def test_paper_hospital_discharge_at_170(answerers):
    a = answerers["hospital"].ask(
        "The systolic blood pressure is 170 mmHg: can the patient be discharged?")
    assert a.kind == "allowed"
    assert [t for t in sources(a)] == [
        "If the systolic blood pressure exceeds 160 mmHg, request a cardiology review "
        "before discharge."]
    assert "Not allowed" not in a.templated  # an if-then rule asks for an action, no limit


def test_paper_room_temperature_in_celsius_against_a_fahrenheit_manifest(answerers):
    a = answerers["temperature_control"].ask(
        "The room temperature is 36 °C. What should be done?")
    assert a.state == {"room_temperature": 96.8}
    got = sources(a)
    assert len(got) == 2
    assert any("exceeds 27 °C" in t for t in got) and any("exceeds 35 °C" in t for t in got)


# ---------------------------------------------------------------- nothing applies, unknowns

def test_no_rule_applies_gives_the_nearest_boundaries(answerers):
    a = answerers["rocket_engine"].ask("The chamber temperature is 590 °C: anything to do?")
    assert a.rules == [] and a.answered
    assert "No rule applies to this state." in a.templated
    assert any("590 °C is 10 °C below the 600 °C threshold" in b["text"] for b in a.nearest)


def test_exactly_at_a_strict_threshold_nothing_fires(answerers):
    a = answerers["rocket_engine"].ask("chamber temperature 600 °C")
    assert a.rules == []
    assert any("exactly at the 600 °C threshold" in b["text"] for b in a.nearest)


def test_an_unknown_parameter_is_said_and_nothing_is_answered(answerers):
    a = answerers["rocket_engine"].ask("What should I do if the oil pressure is 20 psi?")
    assert not a.answered and a.rules == [] and a.nearest == []
    assert "The bundle has no parameter 'oil pressure'" in a.templated


def test_an_ambiguous_parameter_is_said_and_nothing_is_answered(answerers):
    a = answerers["rocket_engine"].ask("The temperature is 700 °C: what now?")
    assert not a.answered and a.rules == []
    assert "Ambiguous" in a.templated


# ---------------------------------------------------------------- the other kinds

def test_what_if_a_strict_comparison_is_answered_for_the_whole_interval(answerers):
    a = answerers["rocket_engine"].ask("What happens if the chamber temperature exceeds 600 °C?")
    assert a.probe == {"parameter": "chamber_temperature", "value": 700.0, "from": 600.0,
                       "to": 800.0}
    assert [t for t in sources(a)] == [
        "If the chamber temperature exceeds 600 °C, increase the coolant flow to the nozzle "
        "jacket by 25 %."]
    assert "between 600 °C and 800 °C (both excluded)" in a.templated


def test_at_what_value_lists_the_thresholds_lowest_first(answerers):
    a = answerers["rocket_engine"].ask("At what value does the turbopump speed trigger a rule?")
    assert a.kind == "what_if"
    assert [re.search(r"[\d,]+ rpm", t).group(0) for t in sources(a)] == [
        "20,000 rpm", "30,000 rpm", "36,000 rpm"]


def test_which_rules_concern_a_parameter_are_every_rule_with_a_condition_on_it(
        answerers, bundles):
    a = answerers["rocket_engine"].ask("Which rules concern the chamber pressure?")
    assert a.kind == "concern"
    expected = {r.id for r in bundles["rocket_engine"].rules
                if "chamber_pressure" in r.condition_text}
    assert {r["id"] for r in a.rules} == expected and len(expected) == 3


def test_is_it_allowed_names_the_violated_constraint(answerers):
    a = answerers["rocket_engine"].ask("Is a fuel line pressure of 120 psi allowed?")
    assert a.templated.splitlines()[1].startswith("Not allowed: the state violates [R-")
    assert sources(a) == ["The fuel line pressure shall remain between 25 psi and 110 psi."]
    ok = answerers["rocket_engine"].ask("Is a fuel line pressure of 100 psi allowed?")
    assert ok.rules == [] and "No rule of the bundle forbids this state" in ok.templated


# ---------------------------------------------------------------- command, session, API

def test_json_keeps_the_contract(bundle_files, capsys):
    q = "The chamber temperature is 820 °C and the chamber pressure 45 psi: what applies?"
    assert main(["ask", str(bundle_files["rocket_engine"]), "--json", q]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["question"] == q
    assert out["state"] == {"chamber_temperature": 820.0, "chamber_pressure": 45.0}
    assert out["steps"] == [] and "R-" in out["answer"]
    for rule in out["rules"]:
        assert {"id", "severity", "advisory", "source"} <= set(rule)
        assert {"file", "line", "text"} <= set(rule["source"])
        assert rule["id"] in out["answer"]


def test_steps_json_lists_them_in_order(bundle_files, capsys):
    assert main(["ask", str(bundle_files["access_control"]), "What are the steps to log in?",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [s["step"] for s in out["steps"]] == [1, 2, 3, 4, 5]


def test_a_missing_bundle_is_one_line_naming_it(tmp_path, capsys):
    missing = tmp_path / "nope.bundle"
    assert main(["ask", str(missing), "what applies?"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope.bundle" in err and "Traceback" not in err


def test_interactive_mode_answers_one_question_a_line(bundle_files):
    lines = ("What happens when the stock reaches zero?\n\n"
             "Which rules concern the warehouse occupancy?\nquit\nnever read\n")
    done = subprocess.run([sys.executable, "-m", "rulec.compiler", "ask",
                           str(bundle_files["inventory"]), "--json"], input=lines,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["kind"] for a in answers] == ["what_if", "concern"]
    assert len(answers[1]["rules"]) == 2


def test_python_api(bundle_files, bundles):
    by_path = ask(bundle_files["inventory"], "stock has dropped to 0 units")
    by_bundle = ask(bundles["inventory"], "stock has dropped to 0 units")
    assert by_path.to_json()["rules"] and by_path.answer == by_bundle.answer
    assert isinstance(by_path.to_json()["answer"], str)



def test_two_actions_an_exclusion_forbids_together(answerers):
    a = answerers["rocket_engine"].ask(
        "Is it allowed to arm the igniter and open the nitrogen purge valve?")
    assert a.kind == "allowed"
    assert a.templated.startswith("Not allowed together: Do not arm the igniter and open "
                                  "the nitrogen purge valve at the same time. [R-")
    assert [r["kind"] for r in a.rules] == ["exclusion"]


def test_a_value_outside_the_sensor_range_is_a_fault_not_a_state(answerers):
    a = answerers["rocket_engine"].ask("chamber temperature 5000 °C")
    assert a.rules == []
    assert "is a sensor fault (above range): no rule is judged on it." in a.templated


def test_a_parameter_given_twice_is_not_answered(answerers):
    a = answerers["rocket_engine"].ask("chamber temperature 820 °C and chamber temperature "
                                       "900 °C")
    assert not a.answered and a.rules == []
    assert a.reading.problems == ["chamber_temperature is given more than once"]


@pytest.mark.parametrize("question", ["", "???", "what?"])
def test_a_question_with_nothing_to_read_is_not_answered(answerers, question):
    a = answerers["rocket_engine"].ask(question)
    assert not a.answered and a.rules == [] and a.sentences


def test_a_rule_waiting_on_its_duration_is_among_the_nearest_boundaries(answerers):
    a = answerers["temperature_control"].ask("What happens if the room temperature is 33 °C?")
    assert sources(a) == ["If the room temperature exceeds 27 °C, start the second cooling unit."]
    pending = [b for b in a.nearest if "for more than 10 minutes" in b["source"]["text"]]
    assert pending and "fires only after holding for more than 600 s" in pending[0]["text"]


def test_a_citation_names_the_page_of_a_paged_document():
    assert cite("R-1a2b3c4d", {"file": "manual.pdf", "line": 12, "page": 3}) == \
        "[R-1a2b3c4d, manual.pdf:12, page 3]"
    assert cite("R-1a2b3c4d", {"file": "limits.txt", "line": 4}) == "[R-1a2b3c4d, limits.txt:4]"
