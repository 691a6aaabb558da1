"""What the bundle holds about something a question names, found by the graph and by words.

The rules with a condition on a parameter (the graph path's traversal), narrowed to
those whose action holds the question's other words; the procedure whose title (else
whose steps) holds the question's words; one rule worded from its boxes ("R-... applies
when chamber temperature is above 950 °C: declare an emergency ...").  Used by
``compose`` for the questions that name no state.
"""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np

from rulec.compiler.model.parameters import ParameterTable
from rulec.runtime.engine.advisory import format_value
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.procedures import Procedure, words
from rulec.runtime.engine.proof import comparisons
from rulec.runtime.engine.related import GraphPath
from rulec.runtime.vocabulary import SEVERITY_RANK


class Lookup:
    """Rules, statements and procedures of one bundle, found for a question's words."""

    def __init__(self, engine: Engine, table: ParameterTable) -> None:
        self.engine = engine
        self.bundle = engine.bundle
        self.table = table
        self.graph = GraphPath(engine.bundle)

    def narrowed(self, question: str, found: list[int]) -> list[int]:
        """Of the rules on a parameter, those whose action holds the question's other
        words ("at what room temperature does the heater switch on?"); [] when the
        question has no other words or no rule holds them all."""
        alias = {w for name in self.table.params for w in
                 words(" ".join((*self.table.params[name].aliases, name)))}
        extra = [w for w in words(question) if w not in QUESTION_WORDS and w not in alias
                 and w not in KIND_WORDS and not w.isdigit()]
        if not extra:
            return []
        return [i for i in found
                if all(_matches(w, words(self.bundle.rules[i].action)) for w in extra)]

    def rules_on(self, name: str) -> list[int]:
        """Rules with a condition on the parameter (the graph's traversal), most severe
        first."""
        specs = self.bundle.rules
        return sorted(self.graph.rules_on(name),
                      key=lambda i: (SEVERITY_RANK[specs[i].severity], i))

    def statements_on(self, name: str) -> list[dict[str, Any]]:
        return self.graph.statements_on(name)

    def threshold_key(self, rule: int, name: str) -> float:
        axis = self.bundle.param_index[name]
        x = np.full(len(self.bundle.parameters), np.nan)
        for box in self.engine.rule_index.boxes_of(rule):
            for c in comparisons(self.bundle, box, x):
                if c.axis == axis:
                    return c.lo if math.isfinite(c.lo) else c.hi
        return math.inf

    def procedures(self, question: str) -> list[Procedure]:
        """Procedures whose title best matches the question's words (a word matches its
        own stem: "discharging" finds "Discharge"; "log in" finds "login")."""
        said = words(question)
        asked = [w for w in said if w not in QUESTION_WORDS]
        asked += [a + b for a, b in zip(said, said[1:], strict=False)]  # "log in": login
        scored: list[tuple[int, Procedure]] = []
        for proc in self.engine.procedures():
            title = words(proc.title) + [w for rid in proc.triggered_by
                                         for w in words(self.spec(rid).action)]
            score = sum(1 for w in asked if _matches(w, title))
            if score:
                scored.append((score, proc))
        if not scored:  # the title says nothing asked: the steps' own words may
            for proc in self.engine.procedures():
                said = [w for s in proc.steps for w in words(s.text)]
                score = sum(1 for w in asked if len(w) > 3 and _matches(w, said))
                if score:
                    scored.append((score, proc))
        if not scored:
            return []
        best = max(s for s, _ in scored)
        return [p for s, p in scored if s == best]

    @staticmethod
    def step_list(proc: Procedure) -> str:
        return " / ".join(f"{s.number}. {s.text}" for s in proc.steps)

    # ------------------------------------------------------------ wording of one rule

    def spec(self, rule_id: str) -> Any:
        return self.bundle.rules[self.bundle.rule_index[rule_id]]

    def rule_words(self, rule_id: str) -> str:
        """"when chamber temperature is above 950 °C: declare an emergency ..."."""
        i = self.bundle.rule_index[rule_id]
        spec = self.bundle.rules[i]
        x = np.full(len(self.bundle.parameters), np.nan)
        boxes = self.engine.rule_index.boxes_of(i)
        said = [" and ".join(f"{c.label()} {c.applies()}" for c in comparisons(self.bundle, b, x))
                for b in boxes]
        when = " or ".join(s for s in said if s) or spec.condition_text
        if spec.duration_s is not None:
            when += f" for {'at least' if spec.duration_inclusive else 'more than'} " \
                    f"{format_value(spec.duration_s)} s"
        if spec.kind == "constraint":
            return f"{spec.id} is violated when {when}: {spec.action or spec.source.get('text')}"
        if spec.kind == "exclusion":
            return f"{spec.id}: {spec.source.get('text')}"
        return f"{spec.id} applies when {when}: {spec.action}"

    def rule_json(self, i: int) -> dict[str, Any]:
        spec = self.bundle.rules[i]
        return {"id": spec.id, "severity": spec.severity, "kind": spec.kind,
                "advisory": self.rule_words(spec.id), "condition": spec.condition_text,
                "action": spec.action, "source": spec.source}


QUESTION_WORDS = frozenset("""
a an the to for of and how do i in on procedure procedures checklist steps step perform
run what are is which rules rule concern concerns about me tell say says does manual
there any when whenever should must can we you get go through follow list show limits
limit apply applies involve mention govern cover relate regarding exist with that this
it its be by or from up required requirements requirement statement statements us
""".split())


# Words that say what kind of question it is, never what it is about.
KIND_WORDS = frozenset("""
at value level point number happens happen would will if trigger triggers triggered fire
fires kick start starts apply applies become becomes allowed permitted acceptable ok okay
safe fine eligible threshold thresholds next nearest closest much many high low far
before until which rule rules concern concerns
""".split())


def _stem(word: str) -> str:
    """A crude stem for matching titles: "discharging", "discharge" -> "discharg"."""
    return re.sub(r"(ing|ed|es|e|s)$", "", word) if len(word) > 4 else word


def _matches(word: str, said: list[str]) -> bool:
    """A word stands among others as itself, its stem, or its first five letters
    ("notified" and "notify", "normally" and "normal")."""
    stem = _stem(word)
    return any(stem == _stem(t) or (len(word) >= 5 and len(t) >= 5 and word[:5] == t[:5])
               for t in said)
