"""Procedures (checklists) of a bundle: ordered steps with provenance, found by words.

The step order is the graph's (procedure -has_step-> step -next_step-> step ...), which
the compiler writes from the numbered list; the ``procedures`` section supplies the text
and source of each step.  A procedure is found by a query whose every word (case folded,
whole words, filler words such as "the" or "procedure" ignored) stands in its title, or
in the action of a rule that starts it (rule -triggers-> procedure): "login" finds
"User login procedure:".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.engine.related import GraphPath
from rulec.runtime.errors import StateError

_WORD = re.compile(r"[0-9a-z]+(?:['-][0-9a-z]+)*")
FILLER = frozenset({
    "a", "an", "the", "to", "for", "of", "and", "how", "do", "i", "in", "on", "procedure",
    "procedures", "checklist", "steps", "step", "perform", "run", "what", "are",
})


def words(text: str) -> list[str]:
    """Lower-case words of a text; hyphenated words count whole and by their parts."""
    out: list[str] = []
    for w in _WORD.findall(text.lower()):
        out.append(w)
        if "-" in w:
            out.extend(p for p in w.split("-") if p)
    return out


@dataclass(frozen=True)
class ProcedureStep:
    number: int  # 1-based position in the procedure
    text: str
    source: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"step": self.number, "text": self.text, "source": self.source}


@dataclass(frozen=True)
class Procedure:
    """One checklist: its title, ordered steps, and the rules whose action starts it."""

    id: str
    title: str
    source: dict[str, Any]
    steps: tuple[ProcedureStep, ...]
    triggered_by: tuple[str, ...] = ()  # rule ids
    matched: tuple[str, ...] = field(default=(), compare=False)  # "title" and/or "trigger"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "source": self.source,
            "steps": [s.to_json() for s in self.steps],
        }
        if self.triggered_by:
            out["triggered_by"] = list(self.triggered_by)
        if self.matched:
            out["matched"] = list(self.matched)
        return out


class ProcedureBook:
    """The bundle's procedures, ordered by the graph, searchable by words."""

    def __init__(self, bundle: Bundle, graph: GraphPath | None = None) -> None:
        self.bundle = bundle
        graph = graph or GraphPath(bundle)
        self._procedures: dict[str, Procedure] = {}
        self._triggers: dict[str, list[int]] = {}
        for entry in bundle.procedures:
            pid = str(entry["id"])
            listed = [ProcedureStep(n + 1, str(s["text"]), dict(s["source"]))
                      for n, s in enumerate(entry["steps"])]
            steps = _ordered(pid, listed, graph.steps(pid))
            triggers = graph.triggers_of(pid)
            self._triggers[pid] = triggers
            self._procedures[pid] = Procedure(
                pid, str(entry["title"]), dict(entry["source"]), tuple(steps),
                tuple(bundle.rules[r].id for r in triggers))

    def __len__(self) -> int:
        return len(self._procedures)

    def all(self) -> list[Procedure]:
        return list(self._procedures.values())

    def get(self, procedure_id: str) -> Procedure | None:
        return self._procedures.get(procedure_id)

    def find(self, query: str) -> list[Procedure]:
        """Procedures whose title (first) or a starting rule's action holds every word of
        the query; title matches before trigger matches, then in bundle order."""
        wanted = [w for w in words(query) if w not in FILLER] or words(query)
        if not wanted:
            raise StateError(f"procedure query {query!r} has no words to match")
        found: list[tuple[int, int, Procedure]] = []
        for order, proc in enumerate(self._procedures.values()):
            how = []
            if _has_all(wanted, words(proc.title)):
                how.append("title")
            if any(_has_all(wanted, words(self.bundle.rules[r].action))
                   for r in self._triggers[proc.id]):
                how.append("trigger")
            if how:
                rank = 0 if "title" in how else 1
                found.append((rank, order, _with_match(proc, tuple(how))))
        return [p for _, _, p in sorted(found, key=lambda item: (item[0], item[1]))]


def _has_all(wanted: list[str], have: list[str]) -> bool:
    present = set(have)
    return all(w in present for w in wanted)


def _with_match(proc: Procedure, how: tuple[str, ...]) -> Procedure:
    return Procedure(proc.id, proc.title, proc.source, proc.steps, proc.triggered_by, how)


def _ordered(pid: str, listed: list[ProcedureStep], chain: list[str] | None
             ) -> list[ProcedureStep]:
    """The steps in the graph's order when the graph holds the whole chain of them."""
    if chain is None or len(chain) != len(listed):
        return listed
    out: list[ProcedureStep] = []
    for label in chain:
        head, _, number = label.rpartition("#")
        if head != pid or not number.isdigit() or not 1 <= int(number) <= len(listed):
            return listed
        step = listed[int(number) - 1]
        out.append(ProcedureStep(len(out) + 1, step.text, step.source))
    return out
