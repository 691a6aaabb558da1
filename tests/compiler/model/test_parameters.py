"""Naming parameters: the longest alias found in a phrase wins."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.compiler.model.parameters import ParameterInfo, ParameterTable, words_of

_WORD = st.sampled_from(["oil", "pressure", "pressures", "inlet", "temp", "the", "fuel"])
_PHRASE = st.lists(_WORD, max_size=6).map(" ".join)


def scan(table: ParameterTable, phrase: str) -> tuple[str, str] | None:
    """resolve as it reads: every alias tried in turn, longest first."""
    words = words_of(phrase)
    for key, name, alias in table._aliases:
        n = len(key)
        if key in {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}:
            return name, alias
    return None


@settings(max_examples=200, deadline=None)
@given(params=st.lists(st.lists(_PHRASE, min_size=1, max_size=3), max_size=5),
       phrases=st.lists(_PHRASE, max_size=8))
def test_resolve_finds_the_first_alias_a_scan_finds(params: list[list[str]],
                                                    phrases: list[str]) -> None:
    table = ParameterTable()
    for n, aliases in enumerate(params):
        table.add(ParameterInfo(f"p{n}", tuple(aliases)))
    for phrase in phrases:
        assert table.resolve(phrase) == scan(table, phrase)


def test_longest_alias_wins() -> None:
    table = ParameterTable()
    table.add(ParameterInfo("pressure", ("pressure",)))
    table.add(ParameterInfo("oil_pressure", ("oil pressure",)))
    assert table.resolve("the oil pressures at the inlet") == ("oil_pressure", "oil pressure")
    assert table.resolve("fuel temperature") is None
