"""The paper's evaluation: rulec against BM25 and dense retrieval on the same labelled states.

Every system answers every query of a corpus (``eval_corpus``): the real onboard Engine on
each compiled bundle, with all paths and with each path off (the ablations), and the
retrieval baselines (``eval_baselines``).  Answers are scored exactly as
``docs/evaluation.md`` defines: exact match, threshold correctness, precision and recall,
non-hallucination rate, severity-weighted criticality, latency per query.
"""

from __future__ import annotations

import gc
import importlib.util
import inspect
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from rulec.compiler.eval.corpus import (
    BOUNDARY_CATEGORIES,
    Answer,
    Domain,
    EvaluationError,
    Query,
    default_queries_file,
    load_domain,
    load_queries,
    norm,
    with_category,
)
from rulec.runtime.errors import RulecError

SEVERITY_WEIGHTS = {"warning": 3.0, "caution": 2.0, "advisory": 1.0}
UNKNOWN_EXPECTED_WEIGHT = SEVERITY_WEIGHTS["caution"]  # an expected piece no rule carries
UNKNOWN_ANSWER_WEIGHT = SEVERITY_WEIGHTS["advisory"]  # a returned sentence that is no rule
PATHS = ("geometry", "logic", "graph")
SYSTEMS = ("rulec", "rulec-no-geometry", "rulec-no-logic", "rulec-no-graph", "bm25",
           "bm25-oracle-k", "dense", "dense-oracle-k")


def severity_weight(severity: str | None, default: float) -> float:
    return SEVERITY_WEIGHTS.get(severity or "", default)


@dataclass(frozen=True)
class QueryScore:
    """The counts one query contributes; see docs/evaluation.md for every field."""

    expected: int  # expected pieces
    hit: int  # expected pieces found in some answer
    returned: int  # answers
    correct: int  # answers that contain some expected piece
    grounded: int  # answers not hallucinated
    exact: bool  # every piece found and every answer correct
    w_hit: float
    w_expected: float
    w_false: float  # severity weight of the answers that are not correct


def score_query(expect: Sequence[str], expect_severity: Sequence[str | None],
                answers: Sequence[Answer], grounded: Sequence[bool]) -> QueryScore:
    """Score one answer list against the expected pieces (matching as corpus_check does)."""
    texts = [norm(a.text) for a in answers]
    pieces = [norm(e) for e in expect]
    hit = [any(p in t for t in texts) for p in pieces]
    used = [any(p in t for p in pieces) for t in texts]
    w_hit = sum(severity_weight(s, UNKNOWN_EXPECTED_WEIGHT)
                for s, h in zip(expect_severity, hit, strict=True) if h)
    w_expected = sum(severity_weight(s, UNKNOWN_EXPECTED_WEIGHT) for s in expect_severity)
    w_false = sum(severity_weight(a.severity, UNKNOWN_ANSWER_WEIGHT)
                  for a, u in zip(answers, used, strict=True) if not u)
    return QueryScore(len(pieces), sum(hit), len(texts), sum(used), sum(grounded),
                      all(hit) and all(used), w_hit, w_expected, w_false)


@dataclass(frozen=True)
class Metrics:
    """Aggregates over a set of scored queries (micro-averaged; None = undefined)."""

    queries: int
    exact_match: float | None
    threshold_correctness: float | None
    boundary_queries: int
    precision: float | None
    recall: float | None
    non_hallucination: float | None
    criticality: float | None
    p50_us: float | None
    p99_us: float | None
    errors: int


def percentile(values: Sequence[float], p: float) -> float | None:
    """Nearest-rank percentile: the smallest value with at least p % of values at or below."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def aggregate(scores: Sequence[QueryScore], categories: Sequence[str],
              latencies_us: Sequence[float], errors: int = 0) -> Metrics:
    """Micro-averaged metrics of one system over some queries."""
    n = len(scores)
    boundary = [s for s, c in zip(scores, categories, strict=True) if c in BOUNDARY_CATEGORIES]
    returned = sum(s.returned for s in scores)
    expected = sum(s.expected for s in scores)
    weight = sum(s.w_expected + s.w_false for s in scores)
    return Metrics(
        queries=n,
        exact_match=_ratio(sum(s.exact for s in scores), n),
        threshold_correctness=_ratio(sum(s.exact for s in boundary), len(boundary)),
        boundary_queries=len(boundary),
        precision=_ratio(sum(s.correct for s in scores), returned),
        recall=_ratio(sum(s.hit for s in scores), expected),
        non_hallucination=_ratio(sum(s.grounded for s in scores), returned),
        criticality=(sum(s.w_hit for s in scores) / weight if weight else
                     (1.0 if n else None)),
        p50_us=percentile(latencies_us, 50),
        p99_us=percentile(latencies_us, 99),
        errors=errors,
    )


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


class System(Protocol):
    name: str
    description: str

    def prepare(self, domain: Domain) -> None: ...

    def answer(self, domain: Domain, query: Query) -> list[Answer]: ...


class RulecSystem:
    """The real onboard Engine on the compiled bundle, with some reasoning paths on."""

    def __init__(self, name: str, paths: Iterable[str]) -> None:
        self.name = name
        self.paths = tuple(paths)
        off = [p for p in PATHS if p not in self.paths]
        self.description = ("rulec Engine, all three paths" if not off else
                            f"rulec Engine, {' and '.join(off)} path off")
        self._engines: dict[str, Any] = {}
        self.logic_status: set[str] = set()  # what the engines said about the logic path

    def prepare(self, domain: Domain) -> None:
        from rulec.runtime.engine.engine import Engine

        if domain.bundle is None:
            raise EvaluationError(f"{domain.name}: did not compile: {domain.error}")
        engine = Engine(domain.bundle, paths=self.paths)
        status = getattr(engine, "logic_status", "")
        if status and "logic" in self.paths:
            self.logic_status.add(str(status))
        self._engines[domain.name] = engine

    def answer(self, domain: Domain, query: Query) -> list[Answer]:
        result = self._engines[domain.name].evaluate(query.state)
        out = []
        for rule in result.rules:
            paths = set(path_trace(rule))
            src = rule.source
            out.append(Answer(str(src.get("text", "")), str(src.get("file", "")),
                              int(src.get("line", 0)), rule.id, rule.severity,
                              frozenset(paths)))
        return out


def path_trace(rule: Any) -> frozenset[str]:
    """The reasoning paths that contributed to one fired rule: those that decided it
    (``fired_by`` where the engine says so, else its evidence keys), plus the graph when
    it attached related rules or evidence."""
    decided = getattr(rule, "fired_by", None)
    paths = set(decided) if decided is not None else set(rule.evidence)
    if rule.related or rule.evidence.get("graph"):
        paths.add("graph")
    return frozenset(paths & set(PATHS))


@dataclass(frozen=True)
class Outcome:
    query: Query
    system: str
    answers: tuple[Answer, ...]
    grounded: tuple[bool, ...]
    latency_us: float
    error: str
    score: QueryScore


@dataclass
class SystemRun:
    name: str
    description: str
    status: str = "ok"  # "ok", or why there are no numbers (unavailable, not meaningful)
    note: str = ""
    outcomes: list[Outcome] = field(default_factory=list)
    engine_notes: tuple[str, ...] = ()  # rulec: what the engine said of its logic path

    def metrics(self, where: Callable[[Query], bool] = lambda q: True) -> Metrics:
        chosen = [o for o in self.outcomes if where(o.query)]
        return aggregate([o.score for o in chosen], [o.query.category for o in chosen],
                         [o.latency_us for o in chosen], sum(1 for o in chosen if o.error))


@dataclass
class EvalRun:
    corpus: Path
    queries_file: Path
    queries: list[Query]
    domains: dict[str, Domain]
    systems: list[SystemRun]
    k: int
    notes: list[str] = field(default_factory=list)

    def system(self, name: str) -> SystemRun | None:
        return next((s for s in self.systems if s.name == name), None)


def parse_systems(text: str | Sequence[str] | None) -> list[str]:
    """Names from a comma list ("rulec,bm25"); "ablations" stands for the three ablations."""
    if text is None:
        return list(SYSTEMS)
    items = text.split(",") if isinstance(text, str) else [x for t in text for x in t.split(",")]
    out: list[str] = []
    for item in (i.strip() for i in items if i.strip()):
        names = [s for s in SYSTEMS if s.startswith("rulec-no-")] if item == "ablations" else [item]
        for name in names:
            if name not in SYSTEMS:
                raise EvaluationError(f"unknown system {name!r} (known: {', '.join(SYSTEMS)}, "
                                      "ablations)")
            if name not in out:
                out.append(name)
    if any(n.startswith("rulec-no-") for n in out) and "rulec" not in out:
        out.insert(0, "rulec")  # an ablation is judged against the full engine
    return out


def run_evaluation(corpus: Path, systems: str | Sequence[str] | None = None, k: int = 3,
                   queries_file: Path | None = None, dense: str = "auto", repeat: int = 3,
                   log: Callable[[str], None] = lambda _m: None) -> EvalRun:
    """Compile every domain the queries name, run every system on every query, score.

    Each query's latency is the fastest of `repeat` timed calls (after an untimed warm-up
    per domain): the cost of answering, not of the machine's other work."""
    if k < 1:
        raise EvaluationError(f"--k must be at least 1, not {k}")
    if repeat < 1:
        raise EvaluationError(f"--repeat must be at least 1, not {repeat}")
    if not corpus.is_dir():
        raise EvaluationError(f"{corpus}: not a folder")
    path = queries_file or default_queries_file(corpus)
    queries = load_queries(path)
    names = parse_systems(systems)
    domains: dict[str, Domain] = {}
    for name in sorted({q.domain for q in queries}):
        folder = corpus / name
        if not folder.is_dir():
            raise EvaluationError(f"{path}: domain {name!r} has no folder {folder}")
        log(f"compiling {name}")
        domains[name] = load_domain(folder)
    queries = [with_category(q, domains[q.domain]) for q in queries]
    run = EvalRun(corpus, path, queries, domains, [], k)
    for name, domain in domains.items():
        if domain.error:
            run.notes.append(f"domain {name} did not compile: {domain.error}")
    for name in names:
        run.systems.append(_run_system(name, run, dense, repeat, log))
    _judge_ablations(run)
    return run


def _make_system(name: str, k: int, dense: str) -> tuple[System | None, str, str]:
    """(system, note, reason it is unavailable)."""
    if name.startswith("rulec"):
        off = name.removeprefix("rulec-no-") if name != "rulec" else ""
        from rulec.runtime.engine.engine import Engine

        if off and "paths" not in inspect.signature(Engine).parameters:
            return None, "", "the Engine of this version takes no paths= argument"
        return RulecSystem(name, [p for p in PATHS if p != off]), "", ""
    from rulec.compiler.eval.baselines import Bm25System, dense_system

    top = None if name.endswith("-oracle-k") else k
    if name.startswith("bm25"):
        if importlib.util.find_spec("rank_bm25") is None:
            return None, "", "rank-bm25 is not installed (pip install 'rulec[eval]')"
        return Bm25System(top), "", ""
    system, note = dense_system(top, dense)
    return system, note, ""


def _run_system(name: str, run: EvalRun, dense: str, repeat: int,
                log: Callable[[str], None]) -> SystemRun:
    system, note, unavailable = _make_system(name, run.k, dense)
    if system is None:
        return SystemRun(name, name, status=f"not run: {unavailable}")
    out = SystemRun(name, system.description, note=note)
    log(f"running {name}")
    broken = prepare_domains(system, run.domains.values())
    if broken and len(broken) == len(run.domains):
        return SystemRun(name, system.description,
                         status=f"not run: {next(iter(broken.values()))}")
    for domain in run.domains.values():  # warm-up, untimed: first calls pay for imports
        first = next((q for q in run.queries if q.domain == domain.name), None)
        if first is not None and domain.name not in broken:
            try:
                system.answer(domain, first)
            except Exception:  # noqa: BLE001 - the timed call below reports it
                pass
    gc.collect()
    gc.disable()  # a collection inside one timed call is noise, not the system's cost
    try:
        for query in run.queries:
            domain = run.domains[query.domain]
            error = broken.get(domain.name, "")
            answers: list[Answer] = []
            latency = math.inf
            for _ in range(repeat if not error else 0):
                started = time.perf_counter()
                try:
                    answers = system.answer(domain, query)
                except Exception as exc:  # noqa: BLE001 - scored as a failed answer
                    error = _why(exc)
                latency = min(latency, (time.perf_counter() - started) * 1e6)
                if error:
                    break
            out.outcomes.append(_scored(query, domain, name, answers,
                                        latency if math.isfinite(latency) else 0.0, error))
    finally:
        gc.enable()
    if isinstance(system, RulecSystem):
        out.engine_notes = tuple(sorted(system.logic_status))
    return out


def prepare_domains(system: Any, domains: Iterable[Domain]) -> dict[str, str]:
    """Prepare a system on every domain: {domain: why} for those it broke on (a system
    that breaks on a domain is reported there, never fatal to the run)."""
    broken: dict[str, str] = {}
    for domain in domains:
        try:
            system.prepare(domain)
        except Exception as exc:  # noqa: BLE001 - reported, not fatal
            broken[domain.name] = _why(exc)
    return broken


def _why(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if isinstance(exc, RulecError) else f"{type(exc).__name__}: {text}"


def _scored(query: Query, domain: Domain, system: str, answers: list[Answer], latency: float,
            error: str) -> Outcome:
    exact = (domain.reference.exact_state(domain, query.state)
             if domain.reference is not None else {})
    pieces = [norm(e) for e in query.expect]
    grounded = []
    for a in answers:
        text = norm(a.text)
        holds = any(p in text for p in pieces) or (
            domain.reference is not None and domain.reference.holds(a.rule_id, exact))
        grounded.append(holds and domain.stands_in_source(a))
    severities = [domain.severity_of_piece(e) for e in query.expect]
    score = score_query(query.expect, severities, answers, grounded)
    if error:  # a failed answer is never exactly right, even where nothing was expected
        score = replace(score, exact=False)
    return Outcome(query, system, tuple(answers), tuple(grounded), latency, error, score)


def _judge_ablations(run: EvalRun) -> None:
    """An ablation has numbers only when the engine demonstrably switched the path off."""
    full = run.system("rulec")
    for sysrun in run.systems:
        if not sysrun.name.startswith("rulec-no-") or sysrun.status != "ok":
            continue
        if full is None or full.status != "ok":
            sysrun.status = "not meaningful: the full engine has no numbers to compare with"
            continue
        path = sysrun.name.removeprefix("rulec-no-")
        seen_full = sum(1 for o in full.outcomes for a in o.answers if path in a.paths)
        seen_off = sum(1 for o in sysrun.outcomes for a in o.answers if path in a.paths)
        changed = sum(1 for a, b in zip(full.outcomes, sysrun.outcomes, strict=True)
                      if {x.rule_id for x in a.answers} != {x.rule_id for x in b.answers})
        if not seen_full:
            said = "; ".join(full.engine_notes) if path == "logic" else ""
            sysrun.status = (f"not meaningful: no rule of the full engine was decided by the "
                             f"{path} path on these queries"
                             + (f" (the engine says: {said})" if said else ""))
        elif seen_off:
            sysrun.status = (f"not meaningful: with {path} off the engine still reports {path} "
                             f"evidence in {seen_off} answers (the switch is not honoured by "
                             "this engine version)")
        else:
            sysrun.note = (f"{path} evidence in {seen_full} answers with the path on, 0 with it "
                           f"off; rule sets differ from the full engine on {changed} of "
                           f"{len(full.outcomes)} queries")
