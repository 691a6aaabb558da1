"""The corpus side of the evaluation: labelled queries, compiled domains, reference truth.

A corpus is a folder of domain folders (manuals plus sensors.toml) and a JSON-lines file of
sensor states with the rules each must fire, matched by a piece of their source sentence
(the format of ``../shared/corpus/dev``).  Each domain is compiled once, in memory, into a
real bundle; its sentences are indexed for the retrieval baselines; and its compiled
conditions are kept in exact rational arithmetic to judge whether an answer's condition
holds (the non-hallucination rate, docs/evaluation.md).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulec.runtime.errors import RulecError
from rulec.runtime.vocabulary import PROCEDURE

CATEGORIES = ("numeric_threshold", "range_limit", "option_exclusion", "critical_safety",
              "uncovered")
BOUNDARY_CATEGORIES = frozenset({"numeric_threshold", "range_limit"})
OTHER_CATEGORY = "other"  # an untagged query that no inference rule places
QUERY_FILES = ("eval_queries.jsonl", "queries.jsonl")  # the first found is the default
BOUNDARY_TOLERANCE = 0.025  # untagged queries: a value this close (relative) is a boundary
_ANSWER_KINDS = frozenset({"sentence", "item", "row"})
_UNIT_WORDS = {"degC": "°C", "degF": "°F", "percent": "%", "count": "", "ohm": "Ω"}


class EvaluationError(RulecError, ValueError):
    """The evaluation cannot run as asked (bad query file, unknown system, missing model)."""


def norm(text: str) -> str:
    """Whitespace folded and lower-cased: how pieces and source texts are compared."""
    return re.sub(r"\s+", " ", str(text)).strip().lower()


@dataclass(frozen=True)
class Query:
    """One labelled state: the pieces of the source sentences of every rule that applies."""

    id: str
    domain: str
    state: dict[str, Any]
    expect: tuple[str, ...]
    category: str = OTHER_CATEGORY
    inferred: bool = True  # the category was inferred, not written by the labeller
    note: str = ""


def default_queries_file(corpus: Path) -> Path:
    """``eval_queries.jsonl`` (our tagged sets) when present, else ``queries.jsonl``."""
    for name in QUERY_FILES:
        if (corpus / name).is_file():
            return corpus / name
    raise EvaluationError(f"{corpus}: no {' or '.join(QUERY_FILES)} in this corpus")


def json_objects(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(file:line, object) of each non-blank line of a JSON-lines file; a line that is not
    a JSON object is an error naming the file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise EvaluationError(f"{path}: cannot read: {exc}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvaluationError(f"{where}: not JSON: {exc.msg}") from None
        if not isinstance(obj, dict):
            raise EvaluationError(f"{where}: expected a JSON object")
        yield where, obj


def load_queries(path: Path) -> list[Query]:
    """Read a queries file; a malformed line is an error naming the file and line."""
    out: list[Query] = []
    seen: set[str] = set()
    for where, obj in json_objects(path):
        if "csv" in obj:  # a replay case: not a state query
            continue
        qid, domain, state, expect = (obj.get(k) for k in ("id", "domain", "state", "expect"))
        if not isinstance(qid, str) or not isinstance(domain, str) or not domain:
            raise EvaluationError(f"{where}: needs string fields 'id' and 'domain'")
        if not isinstance(state, dict) or not isinstance(expect, list) or not all(
                isinstance(e, str) for e in expect):
            raise EvaluationError(f"{where}: needs 'state' (object) and 'expect' (strings)")
        if qid in seen:
            raise EvaluationError(f"{where}: query id {qid!r} is used twice")
        seen.add(qid)
        category = obj.get("category")
        if category is not None and category not in CATEGORIES:
            raise EvaluationError(f"{where}: unknown category {category!r} "
                                  f"(known: {', '.join(CATEGORIES)})")
        out.append(Query(qid, domain, dict(state), tuple(expect),
                         category or OTHER_CATEGORY, category is None,
                         str(obj.get("note", ""))))
    if not out:
        raise EvaluationError(f"{path}: no queries")
    return out


@dataclass(frozen=True)
class Answer:
    """One returned rule (or, for a retriever, one returned sentence) with its provenance."""

    text: str
    file: str
    line: int
    rule_id: str | None = None
    severity: str | None = None
    paths: frozenset[str] = frozenset()  # reasoning paths that gave evidence (rulec only)


@dataclass(frozen=True)
class Passage:
    """A statement of a manual as a retriever indexes it; `rule_id` when it compiled to one."""

    text: str
    file: str
    line: int
    rule_id: str | None
    severity: str | None


@dataclass
class Domain:
    """One compiled domain: its bundle, its sentences, and the reference semantics."""

    name: str
    folder: Path
    passages: list[Passage] = field(default_factory=list)
    bundle: Any = None  # rulec.runtime.bundle.loader.Bundle, None when the compile failed
    error: str = ""
    labels: dict[str, tuple[str, str]] = field(default_factory=dict)  # param: (words, unit)
    rule_severity: list[tuple[str, str]] = field(default_factory=list)  # (norm text, sev)
    reference: Any = None  # ReferenceConditions
    documents: dict[str, str] = field(default_factory=dict)  # rel path: normalised text

    def canonical(self, name: str) -> str | None:
        if self.bundle is None:
            return name if name in self.labels else None
        index = self.bundle.param_index.get(name)
        if index is None:
            index = self.bundle.alias_index.get(" ".join(name.lower().replace("_", " ").split()))
        return None if index is None else str(self.bundle.parameters[index].name)

    def severity_of_piece(self, piece: str) -> str | None:
        p = norm(piece)
        return next((sev for text, sev in self.rule_severity if p in text), None)

    def query_text(self, state: Mapping[str, Any]) -> str:
        """The state as a person would type it: "chamber temperature 820 °C, ..."."""
        parts = []
        for name, value in state.items():
            words, unit = self.labels.get(self.canonical(name) or name,
                                          (name.replace("_", " "), ""))
            parts.append(" ".join(x for x in (words, _show_number(value), unit) if x))
        return ", ".join(parts)

    def stands_in_source(self, answer: Answer) -> bool:
        """Whether the cited text stands in the cited file (folded); a document that is no
        plain text (PDF) only needs to exist, since the harness cannot read its words."""
        text = norm(answer.text)
        body = self.documents.get(answer.file)
        if body is None:
            return bool(text) and answer.file.lower().endswith(".pdf") and (
                self.folder / answer.file).is_file()
        return bool(text) and text in body


def _show_number(value: Any) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)


def load_domain(folder: Path) -> Domain:
    """Compile one domain folder into a bundle (in memory) and index its sentences."""
    from rulec.compiler.build import writer
    from rulec.compiler.pipeline import compile_sources

    domain = Domain(folder.name, folder)
    result = None
    try:
        result = compile_sources([folder], folder.name)
        domain.bundle = writer.encode(result.payload).bundle
    except RulecError as exc:
        domain.error = " ".join(str(exc).split())
    if result is not None:
        domain.reference = ReferenceConditions(result, domain.bundle)
        for name, info in result.params.params.items():
            words = info.aliases[0] if info.aliases else name.replace("_", " ")
            unit = info.unit_symbol or ""
            domain.labels[name] = (words, _UNIT_WORDS.get(unit, unit))
    domain.passages, domain.documents = _passages(folder, result)
    domain.rule_severity = [(norm(p.text), p.severity) for p in domain.passages
                            if p.rule_id is not None and p.severity]
    return domain


def _passages(folder: Path, result: Any) -> tuple[list[Passage], dict[str, str]]:
    """Every answerable sentence of the domain's documents, mapped to its rule if any."""
    from rulec.compiler.read.statements import (
        SUPPORTED_SUFFIXES,
        read_document_text,
        split_statements,
    )

    rules: dict[tuple[str, int], Any] = {}
    firing = [] if result is None else [r for r in result.rules if r.kind != PROCEDURE]
    for rule in firing:
        rules.setdefault((str(rule.source.get("file")), int(rule.source.get("line", 0))), rule)
    passages: list[Passage] = []
    documents: dict[str, str] = {}
    covered: set[tuple[str, int]] = set()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.suffix.lower() not in SUPPORTED_SUFFIXES:
            continue
        rel = path.relative_to(folder).as_posix()
        try:
            text = read_document_text(path)
        except RulecError:
            continue
        documents[rel] = norm(text)
        for st in split_statements(text, rel):
            if st.kind not in _ANSWER_KINDS:
                continue
            rule = rules.get((rel, st.line))
            covered.add((rel, st.line))
            passages.append(Passage(st.text, rel, st.line, rule.id if rule else None,
                                    rule.severity if rule else None))
    for (rel, line), rule in rules.items():  # rules from other readers (PDF, rules .jsonl)
        if (rel, line) not in covered and rule.source.get("text"):
            passages.append(Passage(str(rule.source["text"]), rel, line, rule.id, rule.severity))
    return passages, documents


class ReferenceConditions:
    """The compiled rule conditions evaluated by the harness in exact rational arithmetic.

    Independent of the runtime (no kernel, no floats): used to judge whether a returned
    rule's condition holds in a state.  A rule with a duration never holds in one state.
    """

    def __init__(self, result: Any, bundle: Any) -> None:
        from rulec.compiler.build.boxes import ThresholdConverter, boxes_of

        conv = ThresholdConverter.of_table(result.params)
        self.boxes: dict[str, list[Any]] = {}
        for rule in result.rules:
            if rule.kind == PROCEDURE or rule.condition is None or rule.duration_s is not None:
                continue
            try:
                self.boxes[rule.id] = boxes_of(rule.condition, conv)
            except (RulecError, ValueError):
                continue
        self.ranges: dict[str, tuple[float, float]] = {}
        if bundle is not None:
            for p in bundle.parameters:
                self.ranges[p.name] = (p.range_lo, p.range_hi)

    def holds(self, rule_id: str | None, state: Mapping[str, Fraction]) -> bool:
        if rule_id is None:
            return False
        return any(all(name in state and _inside(iv, state[name]) for name, iv in box.bounds)
                   for box in self.boxes.get(rule_id, ()))

    def exact_state(self, domain: Domain, state: Mapping[str, Any]) -> dict[str, Fraction]:
        """Valid values by canonical name, as exact decimals of what was written."""
        out: dict[str, Fraction] = {}
        for name, raw in state.items():
            canonical = domain.canonical(name)
            try:
                value = Fraction(Decimal(raw if isinstance(raw, str) else repr(float(raw))))
            except (InvalidOperation, ValueError, TypeError, OverflowError):
                continue
            if canonical is None:
                continue
            lo, hi = self.ranges.get(canonical, (-math.inf, math.inf))
            if (math.isfinite(lo) and value < Fraction(lo)) or (
                    math.isfinite(hi) and value > Fraction(hi)):
                continue
            out[canonical] = value
        return out


def _inside(iv: Any, x: Fraction) -> bool:
    if iv.lo is not None and (x < iv.lo or (x == iv.lo and not iv.lo_incl)):
        return False
    return not (iv.hi is not None and (x > iv.hi or (x == iv.hi and not iv.hi_incl)))


def with_category(query: Query, domain: Domain) -> Query:
    if not query.inferred:
        return query
    return replace(query, category=infer_category(query, domain))


def infer_category(query: Query, domain: Domain) -> str:
    """A category for an untagged query, from the compiled thresholds (docs/evaluation.md)."""
    bundle = domain.bundle
    if bundle is not None:
        near_range = near_any = False
        ranged = {i for i, r in enumerate(bundle.rules)
                  if "between" in r.condition_text or "outside" in r.condition_text}
        b = bundle.boxes
        for name, raw in query.state.items():
            canonical = domain.canonical(name)
            try:
                x = float(raw)
            except (TypeError, ValueError):
                continue
            if canonical is None or not math.isfinite(x):
                continue
            axis = bundle.param_index[canonical]
            for box in range(b.n_boxes):
                for c in range(int(b.start[box]), int(b.start[box + 1])):
                    if int(b.axis[c]) != axis:
                        continue
                    for t in (float(b.lo[c]), float(b.hi[c])):
                        if math.isfinite(t) and _near(x, t, bundle.parameters[axis]):
                            near_any = True
                            near_range |= int(b.rule[box]) in ranged
        if near_range:
            return "range_limit"
        if near_any:
            return "numeric_threshold"
    severities = [domain.severity_of_piece(e) for e in query.expect]
    if "warning" in severities:
        return "critical_safety"
    if not query.expect:
        return "uncovered"
    return OTHER_CATEGORY


def _near(x: float, t: float, param: Any) -> bool:
    if t != 0:
        return abs(x - t) <= BOUNDARY_TOLERANCE * abs(t)
    span = param.range_hi - param.range_lo
    return abs(x) <= (0.01 * span if math.isfinite(span) else 0.0)
