"""Condition reading: the shortcuts that keep it fast say what the full reading says."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.compiler.extract.conditions import may_hold_number, parse_condition, tokenize


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="abc xyzONEtwlvo,.:%()-5\u0663", max_size=40))
def test_a_text_without_digits_or_number_words_tokenises_to_no_number(text: str) -> None:
    if not may_hold_number(text):
        assert all(tok.kind != "num" for tok in tokenize(text))


def test_number_words_count_as_numbers() -> None:
    assert may_hold_number("the flow rate is ZERO")
    assert not may_hold_number("the flow rate is low")


def resolve(phrase: str) -> tuple[str, str] | None:
    return ("oil_pressure", "oil pressure") if "pressure" in phrase else None


def test_a_condition_read_again_is_read_afresh() -> None:
    """parse_condition caches its reading of the text: what one call fills in (the
    parameter of each comparison) must not show in the next call's result."""
    text = "the oil pressure exceeds 100 psi for more than 5 s"
    first = parse_condition(text, resolve)
    assert first.condition is not None and first.duration is not None
    first.atoms[0].param, first.atoms[0].op = "changed", "=="
    first.duration.seconds = first.duration.seconds * 2
    again = parse_condition(text, resolve)
    assert (again.atoms[0].param, again.atoms[0].op) == ("oil_pressure", ">")
    assert again.duration is not None and str(again.duration.seconds) == "5"
    assert parse_condition(text, lambda phrase: None).condition is None
