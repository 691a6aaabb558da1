"""A question read into values in manifest units, parameters named alone, and what the
bundle does not know, against the example manuals' real bundles."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rulec.compiler.ask.kinds import question_kind
from rulec.compiler.ask.reading import QuestionReader
from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle


@pytest.fixture(scope="module")
def readers(bundles: dict[str, Bundle]) -> dict[str, QuestionReader]:
    return {name: QuestionReader(b) for name, b in bundles.items()}


def test_the_papers_question_reads_both_values_and_the_elided_chamber(readers):
    r = readers["rocket_engine"].read(
        "The chamber temperature is 820 °C and the pressure 45 psi: what actions are required?")
    assert r.state == {"chamber_temperature": 820.0, "chamber_pressure": 45.0}
    assert r.shown() == "chamber_temperature = 820 °C, chamber_pressure = 45 psi"
    assert not r.unknown and not r.ambiguous and not r.problems


def test_a_unit_the_manifest_does_not_use_is_converted_exactly(readers):
    # room_temperature is in degF: 27 °C is exactly 80.6 °F
    r = readers["temperature_control"].read("What if the room temperature is 27 °C?")
    assert r.state == {"room_temperature": 80.6}
    assert "(27 °C)" in r.shown()
    # supply_air_temperature is in degC: 110 °F is 130/3 °C, read as the nearest double
    r = readers["temperature_control"].read("supply air temperature 110 °F")
    assert r.state == {"supply_air_temperature": float(Fraction(130, 3))}
    r = readers["rocket_engine"].read("the chamber pressure is 3 bar")
    assert r.state["chamber_pressure"] == pytest.approx(43.5113, abs=1e-4)


@pytest.mark.parametrize("question", [
    "What happens when the stock reaches zero?",
    "The stock has dropped to 0 units.",
    "stock level 0",
    "What should I do with 0 units of stock on hand?",
])
def test_the_stock_at_zero_in_several_phrasings(readers, question):
    r = readers["inventory"].read(question)
    assert r.state == {"stock_level": 0.0}, (question, r)


def test_thousands_separators_and_the_comparison_word(readers):
    r = readers["rocket_engine"].read(
        "What happens if the turbopump speed exceeds 31,000 rpm?")
    (value,) = r.values
    assert (value.parameter, value.value, value.op) == ("turbopump_speed", 31000.0, ">")
    r = readers["rocket_engine"].read("chamber pressure drops below 30 psi")
    assert r.values[0].op == "<"


def test_a_parameter_the_bundle_does_not_know_is_reported_not_guessed(readers):
    r = readers["rocket_engine"].read("What if the oil pressure is 20 psi?")
    assert r.values == [] and r.unknown == ["oil pressure"]
    r = readers["rocket_engine"].read("The hydraulic fluid temperature is 80 °C")
    assert r.values == [] and r.unknown == ["hydraulic fluid temperature"]


def test_a_phrase_two_parameters_could_be_is_ambiguous(readers):
    r = readers["rocket_engine"].read("The temperature is 700 °C: what now?")
    assert r.values == [] and r.ambiguous and "chamber_temperature" in r.ambiguous[0]
    assert "coolant_outlet_temperature" in r.ambiguous[0]


def test_a_unit_that_does_not_fit_the_parameter_is_refused(readers):
    r = readers["rocket_engine"].read("the chamber pressure is 45 °C")
    assert r.values == [] and r.problems


def test_a_unit_alone_names_the_only_parameter_measured_in_it(readers):
    r = readers["hospital"].read("Is 170 mmHg systolic okay?")
    assert "systolic_bp" in r.state or r.ambiguous  # two mmHg parameters: never a guess
    r = readers["access_control"].read("what if it is 20 minutes of idle time")
    assert r.state == {"idle_time": 1200.0}


def test_parameters_named_without_a_value_are_topics(readers):
    r = readers["rocket_engine"].read("Which rules concern the chamber pressure?")
    assert r.topics == ["chamber_pressure"] and r.values == []
    r = readers["inventory"].read("Which rules concern the stock?")
    assert r.values == [] and r.unknown == []


DISCRETE_MANUAL = """\
If the oil temperature exceeds 120 °C while the engine is running, reduce the power.
If the landing gear is extended and the airspeed exceeds 250 kt, retract the flaps.
"""
DISCRETE_TOML = """\
[parameters.oil_temperature]
unit = "degC"
aliases = ["oil temperature"]
[parameters.airspeed]
unit = "kt"
aliases = ["airspeed"]
[parameters.engine]
states = ["stopped", "running"]
aliases = ["engine"]
[parameters.landing_gear]
states = ["retracted", "extended"]
aliases = ["landing gear", "gear"]
[parameters.landing_gear.phrases]
extended = ["down"]
retracted = ["up"]
"""


@pytest.fixture(scope="module")
def discrete(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    folder: Path = tmp_path_factory.mktemp("discrete")
    (folder / "limits.txt").write_text(DISCRETE_MANUAL, encoding="utf-8")
    (folder / "sensors.toml").write_text(DISCRETE_TOML, encoding="utf-8")
    return load_bundle(encode_bundle(build_payload(collect_rules([folder]), "discrete")))


def test_discrete_states_are_read_by_the_extractors_state_reader(discrete):
    reader = QuestionReader(discrete)
    r = reader.read("The oil temperature is 130 °C while the engine is running: what now?")
    assert r.state == {"oil_temperature": 130.0, "engine": 1.0}
    assert "engine = running" in r.shown()
    r = reader.read("With the landing gear extended and an airspeed of 260 kt, what applies?")
    assert r.state == {"landing_gear": 1.0, "airspeed": 260.0}
    # the manifest's other words for a state stay on the ground: the bundle holds the
    # state names only, and a state it cannot read is said, never taken as absent
    r = reader.read("With the landing gear down and an airspeed of 260 kt, what applies?")
    assert r.state == {"airspeed": 260.0}
    assert r.problems == ["landing_gear is named but its state is not read "
                          "(its states: retracted, extended)"]
    r = reader.read("the engine is not stopped and the oil temperature is 125 °C")
    assert r.state["engine"] == 1.0


@pytest.mark.parametrize("question, has_values, kind", [
    ("The chamber temperature is 820 °C: what actions are required?", True, "applies"),
    ("What are the steps to log in?", False, "steps"),
    ("How do I switch over to the backup cooling unit?", False, "steps"),
    ("What happens when the stock reaches zero?", True, "what_if"),
    ("At what value does the chamber pressure trigger a rule?", False, "what_if"),
    ("Which rules concern the chamber pressure?", False, "concern"),
    ("What does the manual say about failed login attempts?", False, "concern"),
    ("Is a fuel line pressure of 120 psi allowed?", True, "allowed"),
    ("Can the patient be discharged with a body temperature of 38.2 °C?", True, "allowed"),
    ("chamber temperature 820 °C", True, "applies"),
    ("Stock level 3 units: what's the procedure?", True, "applies"),
    ("Walk me through logging in.", False, "steps"),
])
def test_question_kinds(question, has_values, kind):
    assert question_kind(question, has_values) == kind


def test_a_number_no_parameter_is_named_for_blocks_the_answer(readers):
    r = readers["rocket_engine"].read("chamber temperature 820 and 45")
    assert r.state == {"chamber_temperature": 820.0}
    assert r.problems == ["45 is not placed: no parameter is named for it"]


def test_a_duration_is_said_not_read_as_a_value(readers):
    r = readers["rocket_engine"].read("Chamber temperature 820 °C for 5 minutes")
    assert r.state == {"chamber_temperature": 820.0} and not r.problems
    assert r.notes and r.notes[0].startswith("5 min is a duration")


def test_a_word_before_an_alias_that_names_another_quantity_is_unknown(readers):
    # "turbopump" alone is an alias of turbopump_speed; "fuel turbopump" is no such thing
    r = readers["rocket_engine"].read("The fuel turbopump runs at 25,000 rpm")
    assert r.values == [] and r.unknown == ["fuel turbopump"]


def test_whose_it_is_is_not_part_of_the_name(readers):
    r = readers["hospital"].read("What if the patient's pulse is 140?")
    assert r.state == {"heart_rate": 140.0} and not r.unknown
