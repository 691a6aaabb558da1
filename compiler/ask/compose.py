"""An answer composed only from the rules the three paths retrieve, each sentence cited.

Geometry decides which rules apply and gives the arithmetic that proves it (``820 >
800``) or the nearest boundaries when nothing applies; the logic path gives the actions
the rules entail and the conflicts between them; the graph path gives the related rules
on the same parameters, the rules that concern a parameter, and the procedures with their
ordered steps.  Every sentence that states a rule names its id and where it stands
(``[R-95723055, hot_fire_limits.txt:11]``, with the page for a paged document).  A
question that names something the bundle does not know gets that said, and no answer.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulec.compiler.ask.kinds import question_kind
from rulec.compiler.ask.reading import QuestionReader, Reading, ReadValue
from rulec.runtime.engine.advisory import format_value, unit_suffix
from rulec.runtime.engine.engine import Engine, Evaluation
from rulec.runtime.engine.procedures import Procedure, words
from rulec.runtime.engine.proof import comparisons
from rulec.runtime.engine.related import GraphPath
from rulec.runtime.vocabulary import SEVERITY_RANK

RELATED_SHOWN = 3  # related rules worded per fired rule
NEAREST_SHOWN = 3  # nearest boundaries worded when nothing applies


def cite(rule_id: str, source: dict[str, Any]) -> str:
    """``[R-1a2b, file.txt:12]`` (``, page 3`` for a paged document)."""
    page = f", page {source['page']}" if source.get("page") else ""
    return f"[{rule_id}, {source.get('file')}:{source.get('line')}{page}]"


@dataclass
class AskAnswer:
    """One question answered: what was read, the rules cited, the answer's sentences."""

    question: str
    kind: str
    reading: Reading
    rules: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    procedures: list[dict[str, Any]] = field(default_factory=list)  # asked for (steps)
    linked: list[dict[str, Any]] = field(default_factory=list)  # started by fired rules
    sentences: list[str] = field(default_factory=list)
    nearest: list[dict[str, Any]] = field(default_factory=list)
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    probe: dict[str, Any] | None = None  # a comparison read as an open interval
    answered: bool = True  # False: something named is unknown or ambiguous
    synthesis: dict[str, Any] | None = None  # set when an LLM reworded the answer

    @property
    def templated(self) -> str:
        return "\n".join(self.sentences)

    @property
    def answer(self) -> str:
        if self.synthesis is not None and self.synthesis.get("accepted"):
            return str(self.synthesis["text"])
        return self.templated

    @property
    def state(self) -> dict[str, float]:
        return self.reading.state

    def cited(self) -> list[dict[str, Any]]:
        """Every rule and procedure the answer rests on: (id, source), each once."""
        out = [{"id": r["id"], "source": r["source"]} for r in self.rules]
        out += [{"id": p["id"], "source": p["source"]} for p in self.procedures]
        return out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "question": self.question,
            "kind": self.kind,
            "state": self.state,
            "read": [v.shown() for v in self.reading.values],
            "rules": self.rules,
            "steps": self.steps,
            "answer": self.answer,
            "answered": self.answered,
        }
        if self.procedures:
            out["procedures"] = self.procedures
        if self.linked:
            out["linked_procedures"] = self.linked
        if self.reading.topics:
            out["parameters"] = self.reading.topics
        if self.reading.unknown:
            out["unknown"] = self.reading.unknown
        if self.reading.ambiguous:
            out["ambiguous"] = self.reading.ambiguous
        if self.reading.problems:
            out["problems"] = self.reading.problems
        if self.reading.notes:
            out["notes"] = self.reading.notes
        if self.probe is not None:
            out["probe"] = self.probe
        if self.nearest:
            out["nearest"] = self.nearest
        if self.conflicts:
            out["conflicts"] = self.conflicts
        if self.synthesis is not None:
            out["synthesis"] = self.synthesis
            out["templated_answer"] = self.templated
        return out


class Answerer:
    """Answers questions about one bundle from its rules alone."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.bundle = engine.bundle
        self.reader = QuestionReader(engine.bundle)
        self.graph = GraphPath(engine.bundle)

    def ask(self, question: str) -> AskAnswer:
        question = " ".join(question.split())
        reading = self.reader.read(question)
        kind = question_kind(question, bool(reading.values or reading.ambiguous
                                            or reading.problems or reading.numbers))
        out = AskAnswer(question, kind, reading)
        if reading.values:
            out.sentences.append("Read: " + reading.shown() + ".")
        out.sentences += [f"Note: {n}." for n in reading.notes]
        if not self._readable(out):
            return out
        if kind == "steps":
            self._steps(out)
        elif kind == "concern" or (not reading.values and kind in ("what_if", "allowed")):
            self._concern(out)
        else:
            self._state(out)
        return out

    # ------------------------------------------------------------ what cannot be read

    def _readable(self, out: AskAnswer) -> bool:
        r = out.reading
        said = []
        known = self._known()
        for phrase in r.unknown:
            said.append(f"The bundle has no parameter {phrase!r} (it knows: {known}).")
        said += [f"Ambiguous: {a}." for a in r.ambiguous]
        said += [f"Not read: {p}." for p in r.problems]
        if not said:
            return True
        if out.kind == "steps" and not r.values:
            return True  # words of a procedure's name are no parameters
        out.sentences += said
        out.sentences.append("No answer is given for a question the bundle cannot read "
                             "in full.")
        out.answered = False
        return False

    # ------------------------------------------------------------ a state

    def _state(self, out: AskAnswer) -> None:
        r = out.reading
        if not r.values:
            out.sentences.append("The question gives no value the bundle can evaluate; name "
                                 "a parameter and its value (e.g. " + self._example() + ").")
            out.answered = False
            return
        state = r.state
        probe = self._probe(r.values)
        if probe is not None:
            value, name, lo, hi = probe
            state = {**state, name: value}
            out.probe = {"parameter": name, "value": value, "from": lo, "to": hi}
            unit = unit_suffix(self.reader.table.params[name].unit_symbol or "")
            out.sentences.append(
                f"Every value of {name.replace('_', ' ')} between {format_value(lo)}{unit} and "
                f"{format_value(hi)}{unit} (both excluded) gives the same answer; it is "
                f"evaluated at {format_value(value)}{unit}.")
        result = self.engine.evaluate(state, nearest=out.kind == "what_if")
        out.rules = [rule.to_json() for rule in result.rules]
        out.conflicts = result.conflicts
        if out.kind == "allowed":
            self._verdict(out, result)
        for fault in result.sensor_faults:
            out.sentences.append(f"{fault.parameter} {format_value(fault.value or math.nan)} "
                                 f"is a sensor fault ({fault.reason}): no rule is judged on it.")
        if not result.rules:
            out.sentences.append("No rule applies to this state.")
        for rule in result.rules:
            out.sentences.append(f"{rule.advisory} {cite(rule.id, rule.source)}")
            proof = [c["test"] for box in rule.evidence.get("geometry_proof", ())[:1]
                     for c in box["holds"] if "test" in c]
            if proof:
                out.sentences.append(f"  geometry: {', '.join(proof)} {cite(rule.id, rule.source)}")
            logic = rule.evidence.get("logic") or {}
            if logic.get("entailed") and logic.get("entails"):
                out.sentences.append(f"  logic: the rules entail \"{'; '.join(logic['entails'])}\" "
                                     f"{cite(rule.id, rule.source)}")
        shown = {rule.id for rule in result.rules}
        for conflict in result.conflicts:
            if conflict.get("kind") == "constraint" and set(conflict.get("rules", ())) <= shown:
                continue
            ids = [i for i in conflict.get("rules", ()) if i in self.bundle.rule_index]
            where = " ".join(cite(i, self._spec(i).source) for i in ids)
            out.sentences.append(f"Conflict: {conflict['message']} {where}".rstrip())
        for proc in result.procedures:
            # context, not an answer: the graph's triggers edge, as `rulec query` lists it
            out.linked.append(proc.to_json())
            out.sentences.append(f"The graph links it to the procedure {proc.title!r} "
                                 f"{cite(proc.id, proc.source)}: " + self._step_list(proc))
        self._related(out, result)
        if not result.rules or out.kind == "what_if":
            near = result.nearest[:NEAREST_SHOWN]
            out.nearest = near
            if near:
                out.sentences.append("Nearest boundaries:")
            for b in near:
                out.sentences.append(f"  {b['text']} {cite(b['rule'], b['source'])}")

    def _verdict(self, out: AskAnswer, result: Evaluation) -> None:
        specs = self.bundle.rules
        broken = [r for r in result.rules
                  if specs[self.bundle.rule_index[r.id]].kind in ("constraint", "exclusion")]
        warnings = [r for r in result.rules if r.severity == "warning"]
        if broken:
            out.sentences.append("Not allowed: the state violates " + ", ".join(
                cite(r.id, r.source) for r in broken) + ".")
        elif warnings:
            out.sentences.append("Not without action: warning rules apply " + ", ".join(
                cite(r.id, r.source) for r in warnings) + ".")
        elif result.rules:
            out.sentences.append("No constraint of the bundle is violated; these rules "
                                 "apply and ask for action:")
        else:
            out.sentences.append("No rule of the bundle forbids this state or asks for an "
                                 "action in it (the bundle holds only what its manuals state).")

    def _related(self, out: AskAnswer, result: Evaluation) -> None:
        fired = {r.id for r in result.rules}
        said: set[str] = set()
        for rule in result.rules:
            for rel in rule.evidence.get("graph", {}).get("related", ()):
                if rel["id"] in fired or rel["id"] in said or len(said) >= RELATED_SHOWN:
                    continue
                said.add(rel["id"])
                out.sentences.append(
                    f"Related (same {rel['via']} {rel['shared'].replace('_', ' ')}): "
                    f"{self._rule_words(rel['id'])} {cite(rel['id'], rel['source'])}")

    def _probe(self, values: list[ReadValue]) -> tuple[float, str, float, float] | None:
        """For one strict comparison ("exceeds 600 °C"), a value inside the open interval
        from the written value to the next threshold on that parameter: every value there
        fires the same rules, so the answer holds for all of them."""
        strict = [v for v in values if v.op in (">", "<") and not v.state]
        if len(strict) != 1:
            return None
        v = strict[0]
        axis = self.bundle.param_index[v.parameter]
        b = self.bundle.boxes
        mask = np.asarray(b.axis) == axis
        bounds = sorted({float(x) for x in np.concatenate([b.lo[mask], b.hi[mask]])
                         if math.isfinite(float(x))})
        spec = self.bundle.parameters[axis]
        if v.op == ">":
            lo = v.value
            hi = min([x for x in bounds if x > lo] + [spec.range_hi])
            if not math.isfinite(hi):
                hi = lo + max(1.0, abs(lo))
        else:
            hi = v.value
            lo = max([x for x in bounds if x < hi] + [spec.range_lo])
            if not math.isfinite(lo):
                lo = hi - max(1.0, abs(hi))
        if not lo < hi:
            return None
        return (lo + hi) / 2, v.parameter, lo, hi

    # ------------------------------------------------------------ rules about something

    def _concern(self, out: AskAnswer) -> None:
        r = out.reading
        topics = r.topics or [v.parameter for v in r.values]
        found: list[int] = []
        if topics:
            for name in topics:
                found += [i for i in self._rules_on(name) if i not in found]
        else:
            wanted = [w for w in words(out.question)
                      if w not in _QUESTION_WORDS and w not in _KIND_WORDS]
            found = [i for i, spec in enumerate(self.bundle.rules)
                     if spec.kind != "procedure" and wanted and
                     all(w in words(spec.action + " " + spec.source.get("text", ""))
                         for w in wanted)]
            if not found:
                out.sentences.append("The bundle has no rule about " + (
                    repr(" ".join(wanted)) if wanted else "that") + "; its parameters are "
                    + self._known() + ".")
                out.answered = False
                return
        if topics and not found:
            out.sentences.append("No rule of the bundle has a condition on "
                                 + ", ".join(t.replace("_", " ") for t in topics) + ".")
        if topics and found:
            narrowed = self._narrowed(out.question, found)
            if narrowed:
                found = narrowed
        if topics and out.kind in ("what_if", "allowed"):
            out.sentences.append("Thresholds, lowest first:")
            found.sort(key=lambda i: self._threshold_key(i, topics[0]))
        elif topics:
            out.sentences.append(f"{len(found)} rule(s) concern "
                                 + ", ".join(t.replace("_", " ") for t in topics) + ":")
        if out.kind == "allowed" and not topics:
            banned = [i for i in found if self.bundle.rules[i].kind == "exclusion"]
            if banned:
                out.sentences.append("Not allowed together: " + "; ".join(
                    f"{self.bundle.rules[i].source.get('text')} "
                    f"{cite(self.bundle.rules[i].id, self.bundle.rules[i].source)}"
                    for i in banned))
        for i in found:
            spec = self.bundle.rules[i]
            out.rules.append(self._rule_json(i))
            out.sentences.append(f"  {self._rule_words(spec.id)} {cite(spec.id, spec.source)}")
        for name in topics:
            for st in self._statements_on(name):
                if st.get("text"):
                    out.sentences.append(f"  (described: {st['text']} "
                                         f"[{st.get('file')}:{st.get('line')}])")

    def _narrowed(self, question: str, found: list[int]) -> list[int]:
        """Of the rules on a parameter, those whose action holds the question's other
        words ("at what room temperature does the heater switch on?"); [] when the
        question has no other words or no rule holds them all."""
        alias = {w for name in self.reader.table.params for w in
                 words(" ".join((*self.reader.table.params[name].aliases, name)))}
        extra = [w for w in words(question) if w not in _QUESTION_WORDS and w not in alias
                 and w not in _KIND_WORDS and not w.isdigit()]
        if not extra:
            return []
        return [i for i in found
                if all(_matches(w, words(self.bundle.rules[i].action)) for w in extra)]

    def _rules_on(self, name: str) -> list[int]:
        """Rules with a condition on the parameter (the graph's traversal), most severe
        first."""
        specs = self.bundle.rules
        return sorted(self.graph.rules_on(name),
                      key=lambda i: (SEVERITY_RANK[specs[i].severity], i))

    def _statements_on(self, name: str) -> list[dict[str, Any]]:
        return self.graph.statements_on(name)

    def _threshold_key(self, rule: int, name: str) -> float:
        axis = self.bundle.param_index[name]
        x = np.full(len(self.bundle.parameters), np.nan)
        for box in self.engine.rule_index.boxes_of(rule):
            for c in comparisons(self.bundle, box, x):
                if c.axis == axis:
                    return c.lo if math.isfinite(c.lo) else c.hi
        return math.inf

    # ------------------------------------------------------------ procedures

    def _steps(self, out: AskAnswer) -> None:
        found = self._procedures(out.question)
        if not found:
            titles = "; ".join(f"{p.title} {cite(p.id, p.source)}"
                               for p in self.engine.procedures()) or "none"
            out.sentences.append(f"No procedure of the bundle matches the question "
                                 f"(its procedures: {titles}).")
            out.answered = False
            return
        for proc in found:
            out.procedures.append(proc.to_json())
            out.steps += [s.to_json() for s in proc.steps]
            out.sentences.append(f"{proc.title} {cite(proc.id, proc.source)}:")
            for step in proc.steps:
                where = f"[{step.source.get('file')}:{step.source.get('line')}]"
                out.sentences.append(f"  {step.number}. {step.text} {where}")
            if proc.triggered_by:
                out.sentences.append("  It is started by " + ", ".join(
                    f"{rid} {cite(rid, self._spec(rid).source)}" for rid in proc.triggered_by)
                    + ".")

    def _procedures(self, question: str) -> list[Procedure]:
        """Procedures whose title best matches the question's words (a word matches its
        own stem: "discharging" finds "Discharge"; "log in" finds "login")."""
        said = words(question)
        asked = [w for w in said if w not in _QUESTION_WORDS]
        asked += [a + b for a, b in zip(said, said[1:], strict=False)]  # "log in": login
        scored: list[tuple[int, Procedure]] = []
        for proc in self.engine.procedures():
            title = words(proc.title) + [w for rid in proc.triggered_by
                                         for w in words(self._spec(rid).action)]
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
    def _step_list(proc: Procedure) -> str:
        return " / ".join(f"{s.number}. {s.text}" for s in proc.steps)

    # ------------------------------------------------------------ wording of one rule

    def _spec(self, rule_id: str) -> Any:
        return self.bundle.rules[self.bundle.rule_index[rule_id]]

    def _rule_words(self, rule_id: str) -> str:
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

    def _rule_json(self, i: int) -> dict[str, Any]:
        spec = self.bundle.rules[i]
        return {"id": spec.id, "severity": spec.severity, "kind": spec.kind,
                "advisory": self._rule_words(spec.id), "condition": spec.condition_text,
                "action": spec.action, "source": spec.source}

    def _known(self) -> str:
        """The parameters as the manuals name them: "systolic blood pressure", ..."""
        out = []
        for name, info in self.reader.table.params.items():
            said = name.replace("_", " ")
            longest = max(info.aliases, key=len, default=said)
            # systolic_bp: "systolic bp (systolic blood pressure)"
            out.append(said if len(longest) <= len(said) else f"{said} ({longest})")
        return ", ".join(out)

    def _example(self) -> str:
        p = next((p for p in self.bundle.parameters if not p.states), None)
        if p is None:
            return "a state"
        return f"'{p.name.replace('_', ' ')} 10{unit_suffix(p.unit)}'"


_QUESTION_WORDS = frozenset("""
a an the to for of and how do i in on procedure procedures checklist steps step perform
run what are is which rules rule concern concerns about me tell say says does manual
there any when whenever should must can we you get go through follow list show limits
limit apply applies involve mention govern cover relate regarding exist with that this
it its be by or from up required requirements requirement statement statements us
""".split())


# Words that say what kind of question it is, never what it is about.
_KIND_WORDS = frozenset("""
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
