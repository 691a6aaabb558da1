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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulec.compiler.ask.kinds import question_kind
from rulec.compiler.ask.lookup import KIND_WORDS, QUESTION_WORDS, Lookup
from rulec.compiler.ask.reading import QuestionReader, Reading, ReadValue
from rulec.runtime.engine.advisory import format_value, unit_suffix
from rulec.runtime.engine.engine import Engine, Evaluation
from rulec.runtime.engine.procedures import words

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
        self.lookup = Lookup(engine, self.reader.table)

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
            where = " ".join(cite(i, self.lookup.spec(i).source) for i in ids)
            out.sentences.append(f"Conflict: {conflict['message']} {where}".rstrip())
        for proc in result.procedures:
            # context, not an answer: the graph's triggers edge, as `rulec query` lists it
            out.linked.append(proc.to_json())
            out.sentences.append(f"The graph links it to the procedure {proc.title!r} "
                                 f"{cite(proc.id, proc.source)}: " + self.lookup.step_list(proc))
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
                    f"{self.lookup.rule_words(rel['id'])} {cite(rel['id'], rel['source'])}")

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
                found += [i for i in self.lookup.rules_on(name) if i not in found]
        else:
            wanted = [w for w in words(out.question)
                      if w not in QUESTION_WORDS and w not in KIND_WORDS]
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
            narrowed = self.lookup.narrowed(out.question, found)
            if narrowed:
                found = narrowed
        if topics and out.kind in ("what_if", "allowed"):
            out.sentences.append("Thresholds, lowest first:")
            found.sort(key=lambda i: self.lookup.threshold_key(i, topics[0]))
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
            out.rules.append(self.lookup.rule_json(i))
            said = self.lookup.rule_words(spec.id)
            out.sentences.append(f"  {said} {cite(spec.id, spec.source)}")
        for name in topics:
            for st in self.lookup.statements_on(name):
                if st.get("text"):
                    out.sentences.append(f"  (described: {st['text']} "
                                         f"[{st.get('file')}:{st.get('line')}])")

    # ------------------------------------------------------------ procedures

    def _steps(self, out: AskAnswer) -> None:
        found = self.lookup.procedures(out.question)
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
                    f"{rid} {cite(rid, self.lookup.spec(rid).source)}" for rid in proc.triggered_by)
                    + ".")

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
