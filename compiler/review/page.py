"""The review page's data: every statement of every document, placed in its text, with
what became of it, the rules with their conditions in words and as boxes, the
knowledge-base findings and the boxes for the figure.

``page_data`` is the pure part: it takes the compile's own results (``pipeline``
``Compiled``, ``kb.checks`` findings, the bundle as the runtime loaded it) and classifies
nothing again: a statement is *compiled* when a rule cites it, *needs review* or
*unreadable* when the extractor reported it so, *descriptive* when the extractor kept it
as such (with its reason).  ``html.render`` turns the data into one HTML file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

from rulec.compiler.extract.offline import NEEDS_REVIEW, UNREADABLE, Problem
from rulec.compiler.model.rules import All, AnyOf, Atom, Condition, Not, Rule, rule_to_json
from rulec.compiler.model.units import UnitError, convert, parse_unit
from rulec.compiler.read.statements import Statement
from rulec.compiler.review.provenance import StatementIndex, folded
from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.engine.advisory import relation_words, unit_suffix
from rulec.runtime.vocabulary import parameter_words

if TYPE_CHECKING:
    from rulec.compiler.kb.checks import Finding
    from rulec.compiler.pipeline import Compiled, Document
    from rulec.compiler.review.decisions import Decision

CLASSES = ("compiled", "needs review", "unreadable", "descriptive", "heading")
_OP_WORDS = {">": "is above", ">=": "is at or above", "<": "is below", "<=": "is at or below",
             "==": "is", "between": "is between", "outside": "is outside"}


def page_data(result: Compiled, findings: Sequence[Finding], bundle: Bundle,
              bundle_id: str, decisions: Sequence[Decision] = (),
              stale: Sequence[Decision] = ()) -> dict[str, Any]:
    """Everything the page shows, as JSON-ready data."""
    index = StatementIndex(result.documents)
    of_rule = {rule.id: index.of_rule(rule) for rule in result.rules}
    by_statement: dict[str, list[str]] = {}
    for rule in result.rules:
        for sid in of_rule[rule.id]:
            by_statement.setdefault(sid, []).append(rule.id)
    descriptive = {st.id for st in result.descriptive}
    problems = _problems_by_statement(result, index, set(by_statement), descriptive)
    rules = {r.id: r for r in result.rules}
    decided: dict[str, list[dict[str, Any]]] = {}
    for d in decisions:
        decided.setdefault(d.statement, []).append(_decision_json(d))
    statements: list[dict[str, Any]] = []
    documents = []
    changed = _changed_statements(index, stale)
    for document in result.documents:
        if document.views is None:
            continue
        first = len(statements)
        for st in document.views.statements:
            item = _statement(st, by_statement, problems, descriptive, rules, result, decided)
            was = changed.get(st.id)
            if was is not None:  # reviewed once, changed since: flagged whatever it yields
                why = (f"changed since it was reviewed ({was.action} by {was.who}, "
                       f"{was.when}); it read: {was.text}" if was.statement != st.id else
                       f"reviewed ({was.action} by {was.who}, {was.when}), and it now yields "
                       f"another rule than {was.rule_id} or none; review it again")
                item.update({"class": "needs review", "reason": why,
                             "decisions": decided.get(was.statement, [])})
            statements.append(item)
        documents.append(_document(document, statements[first:], first))
    placed = {d.statement for d in changed.values()}
    for d in stale:  # a decision on a sentence no longer in the manuals: shown, flagged
        if d.statement not in placed:
            statements.append({
                "id": d.statement, "file": d.file, "line": d.line, "page": d.page,
                "text": d.text, "class": "needs review", "kind": "changed",
                "reason": "the statement changed since it was reviewed", "rules": [],
                "params": [], "severities": [], "decisions": decided.get(d.statement, [])})
    return {
        "title": str(bundle.meta.get("created_from", "")),
        "bundle_id": bundle_id,
        "classes": list(CLASSES),
        "documents": documents,
        "statements": statements,
        "rules": [_rule(rule, bundle, of_rule[rule.id]) for rule in result.rules],
        "findings": [f.to_json() for f in findings],
        "parameters": [_parameter(p) for p in bundle.parameters],
        "boxes": _boxes(bundle),
        "decisions": [_decision_json(d) for d in decisions],
        "stale": len(stale),
    }


def _changed_statements(index: StatementIndex, stale: Sequence[Decision]
                        ) -> dict[str, Decision]:
    """For each decision no longer applied: its statement when its words are still there,
    else the statement that stands where it stood, the most like its old words
    (statement id -> decision)."""
    out: dict[str, Decision] = {}
    for d in stale:
        if d.statement in index.by_id:  # the same words, yielding another rule or none
            out.setdefault(d.statement, d)
            continue
        here = [st for st in index.at(d.file, d.page, d.line) if st.id not in out]
        if here:
            best = max(here, key=lambda st: SequenceMatcher(None, st.text, d.text).ratio())
            out[best.id] = d
    return out


def _problems_by_statement(result: Compiled, index: StatementIndex, ruled: set[str],
                           descriptive: set[str]) -> dict[str, Problem]:
    """Each unreadable or needs-review report on the statement it is about.  A report
    names a file, page and line; several statements may start on that line, so the one
    it is about is the one with its words, else the one that yielded nothing else there."""
    out: dict[str, Problem] = {}
    for p in result.problems:
        if p.kind not in (UNREADABLE, NEEDS_REVIEW):
            continue
        here = index.at(p.file, p.page, p.line)
        words = folded(p.text)
        best = (next((s for s in here if words in (s.text, folded(s.parse_text))), None)
                or next((s for s in here if words and (words in s.text or s.text in words)),
                        None)
                or next((s for s in here if s.id not in ruled and s.id not in descriptive),
                        None)
                or (here[0] if here else None))
        if best is not None:
            out.setdefault(best.id, p)
    return out


def _statement(st: Statement, by_statement: dict[str, list[str]],
               problems: dict[str, Problem],
               descriptive: set[str], rules: dict[str, Rule], result: Compiled,
               decided: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    ids = by_statement.get(st.id, [])
    cls, reason = "", ""
    if ids:
        cls = "compiled"
    else:
        problem = problems.get(st.id)
        if problem is not None:
            cls, reason = problem.kind, problem.reason
        elif st.id in descriptive:
            cls, reason = "descriptive", result.descriptive_reason(st)
        elif st.kind in ("heading", "title"):
            cls = "heading"  # a section's title: structure, not a statement of the manual
    params = sorted({a.param for r in ids for a in _atoms(rules[r].condition)})
    return {"id": st.id, "file": st.file, "line": st.line, "page": st.page, "text": st.text,
            "class": cls, "kind": st.kind, "reason": reason, "rules": ids, "params": params,
            "severities": sorted({rules[r].severity for r in ids}),
            "decisions": decided.get(st.id, [])}


def _document(document: Document, statements: list[dict[str, Any]], first: int
              ) -> dict[str, Any]:
    """The document's text cut into pages, each a list of plain runs and statements
    (by index into the page's statement list) in reading order."""
    views = document.views
    assert views is not None
    text = views.text
    spans = sorted((st.start, st.end, first + i) for i, st in enumerate(views.statements)
                   if 0 <= st.start < st.end <= len(text))
    pages = [(p.number, p.start, p.end) for p in views.pages] if views.kind == "pdf" else []
    pages = pages or [(None, 0, len(text))]
    out_pages = []
    placed: set[int] = set()
    for number, start, end in pages:
        segments: list[Any] = []
        cursor = start
        for s_start, s_end, index in spans:
            if s_start < cursor or s_start >= end or s_end > end:
                continue
            if s_start > cursor:
                segments.append(text[cursor:s_start])
            segments.append({"s": index, "text": text[s_start:s_end]})
            placed.add(index)
            cursor = s_end
        if cursor < end:
            segments.append(text[cursor:end])
        out_pages.append({"number": number, "segments": segments})
    unplaced = [first + i for i in range(len(views.statements)) if first + i not in placed]
    return {"file": document.rel, "kind": views.kind, "pages": out_pages,
            "unplaced": unplaced, "count": len(statements)}


def _rule(rule: Rule, bundle: Bundle, statements: list[str]) -> dict[str, Any]:
    index = bundle.rule_index.get(rule.id)
    spec = bundle.rules[index] if index is not None else None
    units = {p.name: p.unit for p in bundle.parameters}
    atoms = _atoms(rule.condition)
    return {
        "id": rule.id, "kind": rule.kind, "severity": rule.severity,
        "statement": statements[0] if statements else "",
        "statements": statements,
        "file": rule.source.get("file", ""), "line": rule.source.get("line"),
        "page": rule.source.get("page"), "text": rule.source.get("text", ""),
        "words": condition_words(rule.condition) if rule.condition is not None else "",
        "boxes": _rule_boxes(bundle, index) if index is not None else [],
        "converted": [c for a in atoms if (c := _conversion(a, units.get(a.param, "")))],
        "action": rule.action or rule.title or "; ".join(rule.actions),
        "advisory": spec.template if spec is not None else rule.template,
        "duration_s": float(rule.duration_s) if rule.duration_s is not None else None,
        "steps": [step.text for step in rule.steps],
        "params": sorted({a.param for a in atoms}),
        "notes": list(rule.notes),
        "object": rule_to_json(rule),
    }


def condition_words(cond: Condition) -> str:
    """A condition as it reads: "chamber temperature is above 600 degC and ..."."""
    if isinstance(cond, Atom):
        name = parameter_words(cond.param)
        if cond.states:
            return f"{name} is {' or '.join(cond.states)}"
        unit = f" {unit_suffix(cond.unit).strip()}" if cond.unit else ""
        if isinstance(cond.value, tuple):
            low, high = cond.value
            joint = "and" if cond.op == "between" else "to"
            return f"{name} {_OP_WORDS[cond.op]} {low}{unit} {joint} {high}{unit}"
        return f"{name} {_OP_WORDS.get(cond.op, cond.op)} {cond.value}{unit}"
    if isinstance(cond, Not):
        return f"not ({condition_words(cond.item)})"
    joint = " and " if isinstance(cond, All) else " or "
    parts = [condition_words(c) for c in cond.items]
    return joint.join(f"({p})" if isinstance(c, All | AnyOf) else p
                      for p, c in zip(parts, cond.items, strict=True))


def _atoms(cond: Condition | None) -> list[Atom]:
    if cond is None:
        return []
    if isinstance(cond, Atom):
        return [cond]
    if isinstance(cond, Not):
        return _atoms(cond.item)
    return [a for c in cond.items for a in _atoms(c)]


def _conversion(atom: Atom, target: str) -> str:
    """"600 degC = 1112 degF" for a threshold written in another unit than its sensor's."""
    if atom.states or not atom.unit or not target or atom.unit == target:
        return ""
    try:
        src, dst = parse_unit(atom.unit), parse_unit(target)
        if src == dst:
            return ""
        values = atom.value if isinstance(atom.value, tuple) else (atom.value,)
        shown = []
        for v in values:
            exact = convert(v, src, dst)
            text = str(exact.numerator) if exact.denominator == 1 else f"{float(exact):.10g}"
            shown.append(f"{v} {atom.unit} = {text} {target}")
        return f"{parameter_words(atom.param)}: " + ", ".join(shown)
    except UnitError:
        return ""


def _rule_boxes(bundle: Bundle, rule: int) -> list[str]:
    """Each box of the rule in words, in the units the sensors report (the bundle's)."""
    b = bundle.boxes
    out = []
    for box in range(b.n_boxes):
        if int(b.rule[box]) != rule:
            continue
        parts = []
        for c in range(int(b.start[box]), int(b.start[box + 1])):
            param = bundle.parameters[int(b.axis[c])]
            lo, hi, flags = float(b.lo[c]), float(b.hi[c]), int(b.flags[c])
            name = parameter_words(param.name)
            if param.states:
                names = [s for i, s in enumerate(param.states) if lo <= i <= hi]
                parts.append(f"{name} is {' or '.join(names)}")
            else:
                parts.append(f"{name} {relation_words(lo, hi, flags, param.unit)}")
        out.append(" and ".join(parts) or "always")
    return out


def _boxes(bundle: Bundle) -> list[dict[str, Any]]:
    """Every box as its sides per parameter, for the figure drawn in the page."""
    b = bundle.boxes
    out = []
    for box in range(b.n_boxes):
        spec = bundle.rules[int(b.rule[box])]
        sides: dict[str, list[Any]] = {}
        for c in range(int(b.start[box]), int(b.start[box + 1])):
            name = bundle.parameters[int(b.axis[c])].name
            lo, hi, flags = float(b.lo[c]), float(b.hi[c]), int(b.flags[c])
            old = sides.get(name)
            if old is not None:  # two comparisons of one axis: their intersection
                lo, hi = max(lo, _num(old[0], -math.inf)), min(hi, _num(old[1], math.inf))
            sides[name] = [_finite(lo), _finite(hi), bool(flags & 1), bool(flags & 2)]
        out.append({"rule": spec.id, "severity": spec.severity, "sides": sides})
    return out


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _num(value: float | None, default: float) -> float:
    return default if value is None else value


def _parameter(p: Any) -> dict[str, Any]:
    return {"name": p.name, "unit": unit_suffix(p.unit).strip(), "states": list(p.states),
            "range": [_finite(p.range_lo), _finite(p.range_hi)]}


def _decision_json(d: Decision) -> dict[str, Any]:
    out = d.to_json()
    out.pop("format", None)
    return out
