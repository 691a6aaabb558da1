"""The paper's query-level evaluation: labelled questions in words, answered by `rulec ask`
and by BM25 and dense retrieval given the same question text.

A question file holds one JSON object a line: ``id``, ``domain``, ``kind`` (one of the
five kinds of ``compiler/ask/kinds.py``), ``question`` (the words), ``expect`` (pieces of
the source sentences of every rule, or the title of the procedure, a right answer cites;
empty when no rule answers or the question names what the bundle does not know), and
optionally ``state`` (the point the question means, in manifest units, used to judge
whether a cited rule holds there), ``boundary`` (true when the value stands at a
threshold: these questions make threshold correctness), ``unknown`` (true when the
question names what the bundle does not know: right only when the answer says so, and a
question without it is right only when the answer does not decline) and
``note``.  The labels come
from reading the manuals, never from running rulec.  Metrics as ``docs/evaluation.md``
defines them, per kind.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulec.compiler.ask.kinds import KINDS
from rulec.compiler.eval.corpus import (
    Answer,
    Domain,
    EvaluationError,
    json_objects,
    load_domain,
    norm,
)
from rulec.compiler.eval.run import (
    Metrics,
    QueryScore,
    aggregate,
    prepare_domains,
    score_query,
)
from rulec.runtime.errors import RulecError

QUESTION_SYSTEMS = ("rulec-ask", "bm25", "bm25-oracle-k", "dense", "dense-oracle-k")


@dataclass(frozen=True)
class LabelledQuestion:
    id: str
    domain: str
    kind: str
    question: str
    expect: tuple[str, ...]
    state: dict[str, Any] = field(default_factory=dict)
    boundary: bool = False
    unknown: bool = False  # names what the bundle does not know: right only when said so
    note: str = ""


def load_questions(path: Path) -> list[LabelledQuestion]:
    """Read a question file; a malformed line is an error naming the file and line."""
    out: list[LabelledQuestion] = []
    seen: set[str] = set()
    for where, obj in json_objects(path):
        qid, domain, kind, question, expect = (obj.get(k) for k in (
            "id", "domain", "kind", "question", "expect"))
        if not all(isinstance(x, str) and x for x in (qid, domain, question)):
            raise EvaluationError(f"{where}: needs string fields 'id', 'domain', 'question'")
        if kind not in KINDS:
            raise EvaluationError(f"{where}: 'kind' must be one of {', '.join(KINDS)}")
        if not isinstance(expect, list) or not all(isinstance(e, str) for e in expect):
            raise EvaluationError(f"{where}: 'expect' must be a list of strings")
        state = obj.get("state", {})
        if not isinstance(state, dict):
            raise EvaluationError(f"{where}: 'state' must be an object")
        if qid in seen:
            raise EvaluationError(f"{where}: question id {qid!r} is used twice")
        seen.add(str(qid))
        out.append(LabelledQuestion(str(qid), str(domain), str(kind), str(question),
                                    tuple(expect), dict(state), bool(obj.get("boundary")),
                                    bool(obj.get("unknown")), str(obj.get("note", ""))))
    if not out:
        raise EvaluationError(f"{path}: no questions")
    return out


class AskSystem:
    """`rulec ask` on the compiled bundle: the rules and procedures the answer cites."""

    name = "rulec-ask"
    description = "rulec ask: question read into a state, answer cited from the three paths"

    def __init__(self) -> None:
        self._answerers: dict[str, Any] = {}
        self.kinds: dict[str, str] = {}  # question id: the kind the reader told
        self.declined: set[str] = set()  # question ids answered "cannot read this"

    def prepare(self, domain: Domain) -> None:
        from rulec.compiler.ask.compose import Answerer
        from rulec.runtime.engine.engine import Engine

        if domain.bundle is None:
            raise EvaluationError(f"{domain.name}: did not compile: {domain.error}")
        self._answerers[domain.name] = Answerer(Engine(domain.bundle))

    def answer(self, domain: Domain, question: LabelledQuestion) -> list[Answer]:
        found = self._answerers[domain.name].ask(question.question)
        self.kinds[question.id] = found.kind
        if not found.answered:
            self.declined.add(question.id)
        bundle = domain.bundle
        out = []
        for cited in found.cited():
            src = cited["source"]
            index = bundle.rule_index.get(cited["id"])
            severity = bundle.rules[index].severity if index is not None else None
            out.append(Answer(str(src.get("text", "")), str(src.get("file", "")),
                              int(src.get("line", 0)), cited["id"], severity))
        return out


class RetrievalOnQuestions:
    """A retrieval baseline given the question's own words; top k (or oracle k)."""

    def __init__(self, system: Any, oracle: bool) -> None:
        self.system = system
        self.oracle = oracle
        self.name = system.name
        self.description = system.description + ", on the question text"

    def prepare(self, domain: Domain) -> None:
        self.system.prepare(domain)

    def answer(self, domain: Domain, question: LabelledQuestion) -> list[Answer]:
        k = max(1, len(question.expect)) if self.oracle else int(self.system.k)
        answers: list[Answer] = self.system.answer_text(domain, question.question, k)
        return answers


@dataclass(frozen=True)
class QuestionOutcome:
    question: LabelledQuestion
    answers: tuple[Answer, ...]
    grounded: tuple[bool, ...]
    latency_us: float
    error: str
    score: QueryScore


@dataclass
class QuestionSystemRun:
    name: str
    description: str
    status: str = "ok"
    note: str = ""
    outcomes: list[QuestionOutcome] = field(default_factory=list)

    def metrics(self, where: Callable[[LabelledQuestion], bool] = lambda q: True) -> Metrics:
        chosen = [o for o in self.outcomes if where(o.question)]
        return aggregate([o.score for o in chosen],
                         ["numeric_threshold" if o.question.boundary else "other"
                          for o in chosen],
                         [o.latency_us for o in chosen], sum(1 for o in chosen if o.error))


@dataclass
class QuestionRun:
    corpus: Path
    questions_file: Path
    questions: list[LabelledQuestion]
    domains: dict[str, Domain]
    systems: list[QuestionSystemRun]
    k: int


def run_questions(corpus: Path, questions_file: Path, systems: Sequence[str] | None = None,
                  k: int = 3, dense: str = "auto", repeat: int = 1,
                  log: Callable[[str], None] = lambda _m: None) -> QuestionRun:
    """Compile every domain the questions name, answer every question with every system."""
    if not corpus.is_dir():
        raise EvaluationError(f"{corpus}: not a folder")
    questions = load_questions(questions_file)
    names = list(systems or QUESTION_SYSTEMS)
    unknown = [n for n in names if n not in QUESTION_SYSTEMS]
    if unknown:
        raise EvaluationError(f"unknown system {unknown[0]!r} for questions (known: "
                              f"{', '.join(QUESTION_SYSTEMS)})")
    domains: dict[str, Domain] = {}
    for name in sorted({q.domain for q in questions}):
        folder = corpus / name
        if not folder.is_dir():
            raise EvaluationError(f"{questions_file}: domain {name!r} has no folder {folder}")
        log(f"compiling {name}")
        domains[name] = load_domain(folder)
    run = QuestionRun(corpus, questions_file, questions, domains, [], k)
    for name in names:
        run.systems.append(_run(name, run, dense, repeat, log))
    return run


def _make(name: str, k: int, dense: str) -> tuple[Any, str, str]:
    """(system, note, why it is unavailable)."""
    import importlib.util

    if name == "rulec-ask":
        return AskSystem(), "", ""
    from rulec.compiler.eval.baselines import Bm25System, dense_system

    oracle = name.endswith("-oracle-k")
    if name.startswith("bm25"):
        if importlib.util.find_spec("rank_bm25") is None:
            return None, "", "rank-bm25 is not installed (pip install 'rulec[eval]')"
        return RetrievalOnQuestions(Bm25System(None if oracle else k), oracle), "", ""
    system, note = dense_system(None if oracle else k, dense)
    return RetrievalOnQuestions(system, oracle), note, ""


def _run(name: str, run: QuestionRun, dense: str, repeat: int,
         log: Callable[[str], None]) -> QuestionSystemRun:
    system, note, unavailable = _make(name, run.k, dense)
    if system is None:
        return QuestionSystemRun(name, name, status=f"not run: {unavailable}")
    out = QuestionSystemRun(name, system.description, note=note)
    log(f"running {name} on {len(run.questions)} questions")
    broken = prepare_domains(system, run.domains.values())
    for q in run.questions:
        domain = run.domains[q.domain]
        error = broken.get(domain.name, "")
        answers: list[Answer] = []
        latency = math.inf
        for _ in range(repeat if not error else 0):
            started = time.perf_counter()
            try:
                answers = system.answer(domain, q)
            except RulecError as exc:
                error = " ".join(str(exc).split())
            latency = min(latency, (time.perf_counter() - started) * 1e6)
            if error:
                break
        outcome = _scored(q, domain, answers, latency if math.isfinite(latency) else 0.0,
                          error)
        if isinstance(system, AskSystem) and q.unknown != (q.id in system.declined):
            # citing nothing is right only with the right reason: "the bundle does not
            # know X" where it does not, "no rule applies" where it knows all it is asked
            outcome = replace(outcome, score=replace(outcome.score, exact=False))
        out.outcomes.append(outcome)
    if isinstance(system, AskSystem):
        same = sum(1 for q in run.questions if system.kinds.get(q.id) == q.kind)
        declined = sum(1 for q in run.questions if q.unknown and q.id in system.declined)
        out.note = (f"kind read as labelled on {same} of {len(run.questions)} questions; "
                    f"{declined} of {sum(q.unknown for q in run.questions)} questions naming "
                    "what the bundle does not know answered with that")
    return out


def _scored(q: LabelledQuestion, domain: Domain, answers: list[Answer], latency: float,
            error: str) -> QuestionOutcome:
    """Grounded: the cited sentence stands in its file and either is expected or is a
    rule whose condition holds in the labelled state (exact arithmetic)."""
    exact = (domain.reference.exact_state(domain, q.state)
             if domain.reference is not None and q.state else {})
    pieces = [norm(e) for e in q.expect]
    grounded = []
    for a in answers:
        holds = any(p in norm(a.text) for p in pieces) or (
            bool(exact) and domain.reference.holds(a.rule_id, exact))
        grounded.append(holds and domain.stands_in_source(a))
    score = score_query(q.expect, [domain.severity_of_piece(e) for e in q.expect], answers,
                        grounded)
    if error:
        score = replace(score, exact=False)
    return QuestionOutcome(q, tuple(answers), tuple(grounded), latency, error, score)


# ---------------------------------------------------------------- report

def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def render_question_tables(run: QuestionRun) -> str:
    """Markdown: every system overall, then per kind of question."""
    kinds = [k for k in KINDS if any(q.kind == k for q in run.questions)]
    counts = ", ".join(f"{k} {sum(q.kind == k for q in run.questions)}" for k in kinds)
    lines = [f"Questions: {len(run.questions)} ({counts}); "
             f"{sum(q.boundary for q in run.questions)} at a threshold; "
             f"{sum(not q.expect for q in run.questions)} that no rule answers.", ""]
    header = ("| system | questions | exact match | threshold correctness | "
              "non-hallucination | weighted criticality | p50 latency |")
    lines += ["### All questions", "", header, "|---|---|---|---|---|---|---|"]
    for s in run.systems:
        lines.append(_row(s, s.metrics()))
    for kind in kinds:
        lines += ["", f"### {kind}", "", header, "|---|---|---|---|---|---|---|"]
        for s in run.systems:
            lines.append(_row(s, s.metrics(_of_kind(kind))))
    notes = [f"- {s.name}: {s.status if s.status != 'ok' else s.note}" for s in run.systems
             if s.status != "ok" or s.note]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines)


def kind_table(run: QuestionRun, metric: str = "exact_match") -> str:
    """Markdown: one metric (default exact match) per system and kind of question."""
    kinds = [k for k in KINDS if any(q.kind == k for q in run.questions)]
    counts = {k: sum(q.kind == k for q in run.questions) for k in kinds}
    lines = ["| system | " + " | ".join(f"{k} ({counts[k]})" for k in kinds) + " | all |",
             "|---|" + "---|" * (len(kinds) + 1)]
    for s in run.systems:
        if s.status != "ok":
            lines.append(f"| {s.name} | {s.status} |" + " |" * len(kinds))
            continue
        cells = [_pct(getattr(s.metrics(_of_kind(k)), metric)) for k in kinds]
        lines.append(f"| {s.name} | " + " | ".join(cells)
                     + f" | {_pct(getattr(s.metrics(), metric))} |")
    return "\n".join(lines)


def _of_kind(kind: str) -> Callable[[LabelledQuestion], bool]:
    return lambda q: q.kind == kind


def _row(s: QuestionSystemRun, m: Metrics) -> str:
    if s.status != "ok":
        return f"| {s.name} | - | {s.status} | | | | |"
    latency = "n/a" if m.p50_us is None else f"{m.p50_us:,.0f} µs"
    threshold = _pct(m.threshold_correctness) + (f" (of {m.boundary_queries})"
                                                 if m.boundary_queries else "")
    return (f"| {s.name} | {m.queries} | {_pct(m.exact_match)} | {threshold} | "
            f"{_pct(m.non_hallucination)} | {_pct(m.criticality)} | {latency} |")


def question_results_json(run: QuestionRun) -> dict[str, Any]:
    """Every answer of every system, for reading the misses one by one."""
    return {
        "corpus": str(run.corpus), "questions_file": str(run.questions_file), "k": run.k,
        "systems": [{
            "name": s.name, "description": s.description, "status": s.status, "note": s.note,
            "answers": [{
                "id": o.question.id, "kind": o.question.kind, "question": o.question.question,
                "expect": list(o.question.expect), "exact": o.score.exact, "error": o.error,
                "cited": [{"rule": a.rule_id, "file": a.file, "line": a.line, "text": a.text,
                           "grounded": g} for a, g in zip(o.answers, o.grounded, strict=True)],
            } for o in s.outcomes],
        } for s in run.systems],
    }
