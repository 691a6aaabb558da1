"""Which statement of the manuals a rule, a report or a decision is about.

A rule from the offline extractor names its statement (``source.statement``, the
statement's id); a rule from the LLM extractor or a hand-written rules file names only a
file, page, line and text.  Several statements may start on one line, so a citation by
place is settled by the words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rulec.compiler.model.rules import Rule
from rulec.compiler.read.statements import Statement


def folded(text: str) -> str:
    return " ".join(text.split())


class StatementIndex:
    """The statements of a compile's documents, by id and by place."""

    def __init__(self, documents: Iterable[Any]) -> None:
        self.by_id: dict[str, Statement] = {}
        self.by_place: dict[tuple[str, int | None, int], list[Statement]] = {}
        for document in documents:
            if document.views is None:
                continue
            for st in document.views.statements:
                self.by_id[st.id] = st
                self.by_place.setdefault((st.file, st.page, st.line), []).append(st)

    def at(self, file: str, page: int | None, line: int) -> list[Statement]:
        return self.by_place.get((file, page, line), [])

    def cited(self, source: dict[str, Any]) -> Statement | None:
        """The statement a rule's (or a step's) source cites."""
        named = self.by_id.get(str(source.get("statement", "")))
        if named is not None:
            return named
        here = self.at(str(source.get("file", "")), source.get("page"),
                       int(source.get("line") or 0))
        return best_by_words(here, str(source.get("text", "")))

    def of_rule(self, rule: Rule) -> list[str]:
        """The ids of the statements a rule was made from: its own and its steps'."""
        found = [self.cited(rule.source), *(self.cited(step.source) for step in rule.steps)]
        return list(dict.fromkeys(st.id for st in found if st is not None))


def best_by_words(here: list[Statement], text: str) -> Statement | None:
    """Among the statements of one place, the one with these words (as written or as
    read), else the one they are part of or that is part of them, else the first."""
    words = folded(text)
    return (next((s for s in here if words in (s.text, folded(s.parse_text))), None)
            or next((s for s in here if words and (words in s.text or s.text in words)), None)
            or (here[0] if here else None))
