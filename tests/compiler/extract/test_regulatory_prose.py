"""Regulatory prose read on real documents (40 CFR 141, 49 CFR 192 and 195, 21 CFR 1020,
9 CFR 590): a citation's numbers are no thresholds, what a requirement says after its
threshold is read or refused, a clause after a condition's comparison is never dropped,
and names that hold "and" or a state word name their parameter whole."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rulec.compiler.extract.offline import NEEDS_REVIEW, Extraction, extract
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import Atom, Not
from rulec.compiler.model.units import convert, parse_unit
from rulec.compiler.read.statements import split_statements
from tests.param_tables import table_of


def table() -> ParameterTable:
    out = table_of(
        ("turbidity", ("turbidity",), "NTU"),
        ("line_pressure", ("pressure", "line pressure"), "psi"),
        ("defrosted_liquid", ("defrosted liquid",), "degF"),
        ("air_kerma_rate", ("AKR", "air kerma rate"), "mGy/min"),
        ("residual", ("residual disinfectant concentration in the water entering the "
                      "distribution system",), "mg/L"),
        ("total_nitrate_and_nitrite", ("total nitrate and nitrite",), "mg/L"),
        ("nitrite", ("nitrite",), "mg/L"),
        ("uranium", ("uranium",), "µg/L"),
        ("oil_temperature", ("oil temperature",), "degC"),
        ("operating_pressure", ("maximum actual operating pressure",), "psi"),
        ("hoop_stress", ("hoop stress", "hoop stress level"), "percent"),
        ("grade", ("grades", "grade"), "percent"),
        ("brakes_share", ("cars with operative brakes",), "percent"),
    )
    out.add(ParameterInfo("phase", ("pipeline phase",), states=("operating", "testing"),
                          phrases={"testing": ("the test", "testing")}, phase=True))
    return out


def read(text: str) -> Extraction:
    return extract(split_statements(text + "\n", "reg.md"), table())


def only_atom(found: Extraction) -> Atom:
    (rule,) = found.rules
    condition = rule.condition
    if isinstance(condition, Not):
        condition = condition.item
    assert isinstance(condition, Atom)
    return condition


@pytest.mark.parametrize("sentence", [
    "(2) If at any time the turbidity in representative samples of filtered water exceeds "
    "the maximum level set by the State under § 141.173(b) for filtration technologies "
    "other than conventional filtration, the system must consult with the State.",
    "(ii) Operates at a maximum pressure established under § 195.406 corresponding to a "
    "stress level equal to or less than 20-percent of the specified minimum yield strength.",
])
def test_a_cited_section_number_is_never_a_threshold(sentence: str) -> None:
    found = read(sentence)
    assert all(not isinstance(getattr(r.condition, "value", None), Decimal)
               or r.condition.value not in (Decimal("141.173"), Decimal("195.406"))
               for r in found.rules)
    assert not found.rules


@pytest.mark.parametrize(("sentence", "part"), [
    ("(2) The defrosted liquid shall be held at 40 °F. or less, except for product to be "
     "pasteurized or stabilized by glucose removal as provided in § 590.530.",
     "an exception after the requirement"),
    ("The AKR due to transmission through the barrier shall not exceed 3.34 × 10−3 percent "
     "of the entrance exposure rate.", "after the requirement has no role"),
    ("If the oil temperature is above 90 °C when the engine is running, stop the pump.",
     "when the engine is running"),
    ("Whenever a segment that is operated at a hoop stress level of 30 percent or more is "
     "spike tested under this part, the test must be conducted in accordance with this "
     "section.", "is spike tested"),
    ("(3) The test must be conducted by maintaining a pressure at or above the baseline "
     "test pressure for at least 8 hours.", "not read"),
])
def test_a_part_of_the_sentence_left_unread_refuses_the_reading(sentence: str,
                                                                 part: str) -> None:
    found = read(sentence)
    assert not found.rules
    assert any(part in p.reason for p in found.problems), found.problems


def test_how_a_value_is_measured_is_no_condition() -> None:
    found = read("Any tire on the front wheels shall have a grade of at least 4 percent when "
                 "measured at any point on a major tread groove.")
    assert only_atom(found).op == ">="


def test_a_citation_with_paragraphs_stands_aside_from_the_name() -> None:
    found = read("(3) The residual disinfectant concentration in the water entering the "
                 "distribution system, measured as specified in § 141.74 (a)(2) and (b)(5), "
                 "cannot be less than 0.2 mg/l for more than 4 hours.")
    atom = only_atom(found)
    assert (atom.param, atom.op, atom.value) == ("residual", ">=", Decimal("0.2"))
    assert found.rules[0].duration_s == Decimal(4 * 3600)


def test_an_alias_with_and_inside_names_its_parameter_whole() -> None:
    found = read("If the total nitrate and nitrite exceeds 10 mg/l, notify the State.")
    atom = only_atom(found)
    assert (atom.param, atom.op, atom.value) == ("total_nitrate_and_nitrite", ">", Decimal(10))


def test_a_run_in_heading_is_no_part_of_its_sentence() -> None:
    found = read("(e) *MCL for uranium.* The maximum contaminant level for uranium is "
                 "30 µg/L.")
    atom = only_atom(found)
    assert (atom.param, atom.op, atom.value) == ("uranium", "<=", Decimal(30))


def test_a_sentence_goes_on_after_a_dotted_unit() -> None:
    found = read("(c) If the maximum actual operating pressure exceeds 60 p.s.i. (414 kPa) "
                 "gage, close the inlet valve.")
    atom = only_atom(found)
    assert (atom.param, atom.op, atom.value, atom.unit) == (
        "operating_pressure", ">", Decimal(60), "psi")


def test_two_modifiers_of_one_noun_are_no_second_condition() -> None:
    found = read("(i) When ascending or descending grades in excess of 10 percent, close the "
                 "throttle.")
    assert (only_atom(found).param, only_atom(found).op) == ("grade", ">")
    found = read("(e) A train shall not move if less than 85 percent of the cars with "
                 "operative brakes have operative and effective brakes.")
    assert not [p for p in found.problems if p.kind == NEEDS_REVIEW and "and" in p.reason]


def test_a_prohibition_is_no_orders_target() -> None:
    found = read("The line pressure may not be set to maintain a pressure higher than 60 psi.")
    assert not any("order's target" in p.reason for p in found.problems)


@pytest.mark.parametrize(("manifest", "written", "value", "expected"), [
    ("pCi/L", "Bq/L", 1, Decimal("0.037")),
    ("R/h", "mR/min", 1, Decimal(50) / 3),
    ("p.s.i.", "psi", 1, Decimal(1)),
])
def test_units_of_us_regulations(manifest: str, written: str, value: int,
                                 expected: Decimal) -> None:
    got = convert(value, parse_unit(manifest), parse_unit(written))
    assert abs(Decimal(got.numerator) / Decimal(got.denominator) - expected) < Decimal("1e-12")


def test_roentgen_per_minute_is_not_revolutions_per_minute() -> None:
    assert parse_unit("R/min").dimension != parse_unit("rpm").dimension
    assert parse_unit("r/min").symbol == "rpm"


@pytest.mark.parametrize("sentence", [
    "No portion of the defrosted liquid shall exceed 50 °F.",
    "No defrosted liquid shall exceed 50 °F.",
    "None of the defrosted liquid shall exceed 50 °F.",
    "No defrosted liquid shall be held at a temperature above 50 °F.",
    "The defrosted liquid shall not exceed 50 °F.",
])
def test_no_subject_shall_exceed_is_violated_above_the_limit(sentence: str) -> None:
    atom = only_atom(read(sentence))
    # the constraint holds while the liquid is at or below 50 °F and fires above it
    assert (atom.param, atom.op, atom.value) == ("defrosted_liquid", "<=", Decimal(50))


def test_a_proviso_is_read_as_a_requirement_of_its_own() -> None:
    found = read("(d) Frozen yolks may be tempered for not to exceed 48 hours: Provided, That "
                 "no portion of the defrosted liquid shall exceed 50 °F. while in or out of the "
                 "container.")
    limits = [r for r in found.rules if r.kind == "constraint"]
    assert len(limits) == 1
    atom = limits[0].condition.item if isinstance(limits[0].condition, Not) else None
    assert isinstance(atom, Atom) and (atom.op, atom.value) == ("<=", Decimal(50))


def test_what_an_order_is_for_said_with_so_that_is_the_requirement() -> None:
    found = read("(2) Sufficient control, including frequent sampling and recording of "
                 "results, shall be exercised so that the oil temperature is not higher "
                 "than 90 °C.")
    atom = only_atom(found)
    assert (atom.param, atom.op, atom.value) == ("oil_temperature", "<=", Decimal(90))
    assert found.rules[0].kind == "constraint"


def test_a_name_said_after_the_number_may_hold_the_window_it_is_counted_in() -> None:
    out = table()
    out.add(ParameterInfo("flight_time_30_days", ("hours during any 30 consecutive days",), "h"))
    found = extract(split_statements(
        "No pilot may fly as a flight crewmember more than 120 hours during any 30 "
        "consecutive days.\n", "reg.md"), out)
    ((rule,),) = [found.rules]
    assert isinstance(rule.condition, Atom)
    assert (rule.condition.param, rule.condition.op, rule.condition.value) == (
        "flight_time_30_days", ">", Decimal(120))


def test_an_order_by_it_after_a_sentence_that_made_no_rule_is_listed_for_review() -> None:
    found = read("Each certificate holder conducting flag operations shall schedule its "
                 "flight hours to provide adequate rest periods. It shall also close the "
                 "inlet valve whenever the line pressure is more than 120 psi.")
    assert not found.rules
    assert any("sentence before" in p.reason for p in found.problems)


@pytest.mark.parametrize(("sentence", "why"), [
    ("A maximum oil temperature of at least 100 degrees F must be established.",
     "established or shown"),
    ("If the line pressure is above 60 psi but the valve has closed, stop the pump.",
     "not a comparison"),
    ("For airplanes of 100 psi or less maximum line pressure, for the speed at which "
     "compliance has been shown, a blue radial line.", "second scope"),
])
def test_certification_language_a_second_clause_or_scope_is_never_dropped(
        sentence: str, why: str) -> None:
    found = read(sentence)
    assert not found.rules
    assert any(why in p.reason for p in found.problems) or any(
        why in r for r in found.reasons.values()), (found.problems, found.reasons)


def test_a_time_limit_said_as_a_permission_is_listed_for_review_never_descriptive() -> None:
    found = read("Operation with an oil temperature above 90 °C is permitted for up to 5 "
                 "minutes.")
    assert not found.rules
    assert [p.kind for p in found.problems] == [NEEDS_REVIEW]


def test_two_parameters_named_by_their_modifiers_are_never_read_as_one() -> None:
    out = table()
    out.add(ParameterInfo("primary_pressure", ("primary pressure",), "psi"))
    out.add(ParameterInfo("secondary_pressure", ("secondary pressure",), "psi"))
    found = extract(split_statements(
        "If the primary or secondary pressure exceeds 90 psi, stop the pump.\n", "reg.md"), out)
    assert not any(isinstance(r.condition, Atom) and r.condition.param == "secondary_pressure"
                   for r in found.rules)
