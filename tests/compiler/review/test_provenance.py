"""A rule is tied to the statement it cites: by id, else by place and words."""

from __future__ import annotations

from review_helpers import PUMP

from rulec.compiler.model.rules import Rule
from rulec.compiler.pipeline import read_sources
from rulec.compiler.review.provenance import StatementIndex, best_by_words


def _index() -> StatementIndex:
    return StatementIndex(read_sources([PUMP]).documents)


def test_a_rule_without_a_statement_id_is_tied_by_place_and_words() -> None:
    index = _index()
    st = next(s for s in index.by_id.values() if "falls below 20 psi" in s.text)
    cited = Rule("R-x", "if_then", {"file": st.file, "line": st.line, "text": st.text})
    assert index.of_rule(cited) == [st.id]
    named = Rule("R-y", "if_then", {"file": "elsewhere.txt", "line": 99, "text": "",
                                    "statement": st.id})
    assert index.of_rule(named) == [st.id]
    nowhere = Rule("R-z", "if_then", {"file": st.file, "line": 999, "text": st.text})
    assert index.of_rule(nowhere) == []


def test_words_settle_which_statement_of_a_line() -> None:
    index = _index()
    a, b = (s for s in index.by_id.values() if s.line in (3, 4))
    assert best_by_words([a, b], b.text) is b
    assert best_by_words([a, b], b.text[:20]) is b  # part of its words
    assert best_by_words([a, b], "words of neither") is a  # else the first there
    assert best_by_words([], b.text) is None
