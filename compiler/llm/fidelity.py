"""The fidelity filter: an LLM answer becomes rule objects only if it is grounded in the text.

The paper's filter against hallucinated content, made exact.  An answer is read as JSON
(exact decimals); each rule object must name one statement of its chunk; its provenance
is then taken from OUR statement, never from the model; it is validated by the one door
(`rules.rule_from_json`); and every parameter, number and unit in it must be grounded:

- a parameter is a manifest parameter named in the chunk (an alias, or the only manifest
  parameter measured in the dimension of the number's unit); without a manifest, its
  name's words occur in the chunk;
- a number (threshold, range end, duration, a number in an action or step text) occurs
  in the source statement as the same exact decimal (`30,000` is 30000, `-40` is not 40);
- a unit is written after that number in the statement (own unit, or shared as in
  "13 to 25 psi"), or is the parameter's manifest unit for a number written bare; a
  rule without a unit on a number written in another unit is rejected too.

A rule that fails any check is rejected with every reason recorded.  docs/llm-extractor.md.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rulec.compiler.extract.offline import hashed_id, requirement_id, unique_id
from rulec.compiler.model.parameters import ParameterTable, words_of
from rulec.compiler.model.rules import All, AnyOf, Atom, Condition, Not, Rule, rule_from_json
from rulec.compiler.model.units import (
    Unit,
    duration_seconds,
    is_counted_noun,
    match_number,
    match_unit_phrase,
    parse_unit,
)
from rulec.compiler.read.statements import Statement
from rulec.runtime.errors import RuleSchemaError, UnitError
from rulec.runtime.vocabulary import CONDITIONAL_KINDS, PROCEDURE

__all__ = [
    "AnswerResult",
    "Quantity",
    "Rejection",
    "filter_answer",
    "ground_rule",
    "quantities",
    "statement_rule_id",
]

# Keys of an answer's rule object that name its statement, and keys the model may not set.
_REFERENCE_KEYS = ("statement", "quote")
_OURS = ("id", "source", "schema", "notes")
_MARKUP = re.compile(r"(\*\*|__|`|\*(?=\S)|(?<=\S)\*)")
_THINKING = re.compile(r"^\s*<think>.*?</think>\s*", re.DOTALL)  # reasoning models' preamble
_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n(?P<body>.*?)\n?\s*```\s*$", re.DOTALL)
_NUMBER_START = re.compile(r"[+\-\u2212]?\.?\d")
_SHARED_GAP = re.compile(r"^[\s\-\u2013\u2014]*(?:[A-Za-z]+[\s\-\u2013\u2014]*){0,3}$")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_CLASSES = ("rule", "mixed", "descriptive")


@dataclass
class Rejection:
    """A rule object (or a whole answer) the filter refused, and why."""

    chunk_id: str
    reason: str
    raw: str
    file: str = ""
    line: int = 0  # 0: the whole answer, not one statement

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: " if self.file else ""
        return f"{where}rejected LLM rule ({self.chunk_id}): {self.reason}"


@dataclass
class AnswerResult:
    rules: list[Rule] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    label: str | None = None  # the chunk class the model gave: rule / mixed / descriptive


# ---------------------------------------------------------------- numbers in text


@dataclass(frozen=True)
class Quantity:
    """A number written in a text, with the unit written right after it (or shared)."""

    value: Decimal
    start: int
    end: int
    unit: Unit | None = None  # written right after the number
    shared: Unit | None = None  # else: written after the next number ("13 to 25 psi")

    @property
    def written_unit(self) -> Unit | None:
        return self.unit or self.shared


def quantities(text: str) -> list[Quantity]:
    """Every number in `text` with its written unit.  Signs, decimals and thousands
    separators are read exactly; numbers inside identifiers (`REQ-BMS-010`, `N1`, `TF-7`,
    `12-lead`) are not numbers; `13-25 psi` is 13 and 25."""
    found: list[Quantity] = []
    pos = 0
    while True:
        m = _NUMBER_START.search(text, pos)
        if m is None:
            break
        start = m.start()
        prev = text[start - 1] if start else " "
        if prev.isalnum() or prev in "_.":
            if text[start] in "+-\u2212" and prev.isdigit():
                start += 1  # a dash between two numbers: "13-25"
            else:
                pos = _word_end(text, start)  # inside a word or identifier: "N1", "TF-7"
                continue
        number = match_number(text, start)
        if number is None:
            pos = start + 1
            continue
        value, end = number
        unit_found = match_unit_phrase(text, end)
        if unit_found is None and end < len(text) and (
            text[end].isalnum() or text[end] == "_"
            or (text[end] == "-" and end + 1 < len(text) and text[end + 1].isalpha())
        ):
            pos = _word_end(text, end)  # "2nd", "12-lead": part of a word
            continue
        unit, unit_end = unit_found if unit_found is not None else (None, end)
        found.append(Quantity(value, start, end, unit))
        pos = max(unit_end, end)
    shared: list[Quantity] = []
    for i, q in enumerate(found):
        if q.unit is None and i + 1 < len(found) and found[i + 1].unit is not None:
            gap = text[q.end:found[i + 1].start]
            if _SHARED_GAP.match(gap):
                q = replace(q, shared=found[i + 1].unit)
        shared.append(q)
    return shared


def _word_end(text: str, pos: int) -> int:
    while pos < len(text) and (text[pos].isalnum() or text[pos] in "_.-\u2212+"):
        pos += 1
    return pos


def _is_count(unit: Unit) -> bool:
    return unit.dimension == "count" and is_counted_noun(unit)


def _same_unit(a: Unit, b: Unit) -> bool:
    return (a.dimension, a.scale, a.offset) == (b.dimension, b.scale, b.offset)


# ---------------------------------------------------------------- one rule


def ground_rule(rule: Rule, chunk_text: str, params: ParameterTable, *,
                reading: str = "") -> list[str]:
    """Why `rule` is not grounded in its source statement / chunk; [] if it is.
    `reading` is the statement's `parse_text` (a table row as a sentence), if any."""
    statement = str(rule.source.get("text", ""))
    found = quantities(statement) + (quantities(reading) if reading else [])
    reasons: list[str] = []
    if rule.condition is not None:
        for atom in _atoms(rule.condition):
            if atom.states:
                reasons.extend(_ground_state(atom, statement, chunk_text, params))
            else:
                reasons.extend(_ground_atom(atom, found, chunk_text, params))
    if rule.duration_s is not None:
        reasons.extend(_ground_duration(rule.duration_s, found))
    # The template usually restates the action: report a number there only once.
    in_action = {q.value for q in quantities(rule.action)}
    template = _PLACEHOLDER.sub(" ", rule.template)
    texts = [("action", rule.action)]
    texts += [("actions", a) for a in rule.actions]
    if rule.kind == PROCEDURE:
        texts.append(("title", rule.title))
        for i, step in enumerate(rule.steps, start=1):
            step_found = quantities(str(step.source.get("text", "")))
            reasons.extend(_ground_text(f"step {i}", step.text, step_found, "step statement"))
    for where, text in texts:
        reasons.extend(_ground_text(where, text, found, "source statement"))
    reasons.extend(_ground_text("template", template, found, "source statement", in_action))
    return list(dict.fromkeys(reasons))


def _atoms(cond: Condition) -> list[Atom]:
    if isinstance(cond, Atom):
        return [cond]
    if isinstance(cond, Not):
        return _atoms(cond.item)
    return [a for item in cond.items for a in _atoms(item)]


def _ground_state(atom: Atom, statement: str, chunk_text: str, params: ParameterTable
                  ) -> list[str]:
    """A state comparison is grounded when its parameter is discrete and has the states,
    each state (or a phrase of it) is written in the statement, and the parameter is named
    in the chunk (a phase's states stand alone: "during takeoff")."""
    info = params.params.get(atom.param)
    if info is None or not info.states:
        return [f"parameter {atom.param!r} has no states: it is not compared with "
                f"{', '.join(atom.states)}"]
    reasons = []
    words = words_of(statement)
    for state in atom.states:
        if state not in info.states:
            reasons.append(f"{atom.param} has no state {state!r} (its states: "
                           f"{', '.join(info.states)})")
            continue
        said = (state, *info.phrases.get(state, ()))
        if not any(_contains(words, words_of(w)) for w in said):
            reasons.append(f"state {state!r} of {atom.param} is not written in the source "
                           "statement")
    if not info.phase:
        reasons.extend(_ground_param(atom.param, chunk_text, params, []))
    return reasons


def _ground_atom(atom: Atom, found: list[Quantity], chunk_text: str,
                 params: ParameterTable) -> list[str]:
    reasons: list[str] = []
    info = params.params.get(atom.param)
    param_unit: Unit | None = None
    if info is not None and info.unit_symbol:
        try:
            param_unit = parse_unit(info.unit_symbol)
        except UnitError:
            param_unit = None
    atom_unit: Unit | None = None
    if atom.unit is not None:
        try:
            atom_unit = parse_unit(atom.unit)
        except UnitError:
            return [f"unit {atom.unit!r} of {atom.param} is not a known unit"]
    values = list(atom.value) if isinstance(atom.value, tuple) else [atom.value]
    hits: list[Quantity] = []
    for value in values:
        reason, hit = _ground_value(value, atom_unit, param_unit, found)
        if reason:
            reasons.append(reason)
        if hit is not None:
            hits.append(hit)
    reasons.extend(_ground_param(atom.param, chunk_text, params, hits))
    return reasons


def _ground_value(value: Decimal, atom_unit: Unit | None, param_unit: Unit | None,
                  found: list[Quantity]) -> tuple[str, Quantity | None]:
    same = [q for q in found if q.value == value]
    if not same:
        return f"number {_show(value)} does not appear in the source statement", None
    for q in same:
        written = q.written_unit
        if atom_unit is not None:
            if written is not None and _same_unit(written, atom_unit):
                return "", q
            if written is None and param_unit is not None and _same_unit(atom_unit, param_unit):
                return "", q  # a bare number in the parameter's own unit
            if (written is None or written.dimension == "count") and _is_count(atom_unit):
                return "", q  # "5 failed login attempts" given as 5 attempts: a count
        elif written is None or (param_unit is not None and _same_unit(written, param_unit)):
            return "", q
        elif _is_count(written):
            return "", q  # "5 failed attempts": the noun names what is counted, not a unit
    units = sorted({q.written_unit.symbol for q in same if q.written_unit is not None})
    if atom_unit is None:
        own = f" (the parameter's unit is {param_unit.symbol})" if param_unit else ""
        return (f"number {_show(value)} is written in {', '.join(units)} in the source statement "
                f"but the rule gives no unit{own}"), None
    if units:
        return (f"unit {atom_unit.symbol} of {_show(value)} is not the unit written after it in "
                f"the source statement ({', '.join(units)})"), None
    return f"unit {atom_unit.symbol} of {_show(value)} is not written in the source statement", None


def _ground_param(name: str, chunk_text: str, params: ParameterTable,
                  hits: list[Quantity]) -> list[str]:
    info = params.params.get(name)
    chunk_words = words_of(chunk_text)
    if params.infer:
        if _contains(chunk_words, words_of(name.replace("_", " "))):
            return []
        return [f"parameter {name!r} is not named in the chunk"]
    if info is None or info.inferred:
        alias = params.resolve(name.replace("_", " "))
        hint = f" (did you mean {alias[0]!r}?)" if alias else ""
        return [f"parameter {name!r} is not a manifest parameter{hint}"]
    names = {*info.aliases, info.name.replace("_", " ")}
    if any(_contains(chunk_words, words_of(alias)) for alias in names):
        return []
    for q in hits:
        unit = q.written_unit
        if unit is not None:
            only = params.resolve_by_unit(unit)
            if only is not None and only[0] == name:
                return []  # the only parameter measured in this unit's dimension
    return [f"parameter {name!r} is not named in the chunk "
            f"(aliases: {', '.join(sorted(names))})"]


def _contains(words: list[str], key: list[str]) -> bool:
    n = len(key)
    return n > 0 and any(words[i:i + n] == key for i in range(len(words) - n + 1))


def _ground_duration(seconds: Decimal, found: list[Quantity]) -> list[str]:
    target = Fraction(seconds)
    for q in found:
        if q.unit is not None and q.unit.dimension in ("time", "calendar"):
            if duration_seconds(q.value, q.unit) == target:
                return []
    return [f"duration {_show(seconds)} s does not match a time written in the source statement"]


def _ground_text(where: str, text: str, found: list[Quantity], against: str,
                 reported: set[Decimal] | frozenset[Decimal] = frozenset()) -> list[str]:
    written = {q.value for q in found} | set(reported)
    return [f"number {_show(q.value)} in the {where} does not appear in the {against}"
            for q in quantities(text) if q.value not in written]


def _show(value: Decimal) -> str:
    return format(value.normalize(), "f") if value == value.to_integral_value() else str(value)


# ---------------------------------------------------------------- a whole answer


def filter_answer(content: str, chunk_id: str, statements: list[Statement], chunk_text: str,
                  params: ParameterTable, used_ids: set[str], *,
                  finish_reason: str | None = None) -> AnswerResult:
    """Read a model's answer for one chunk: the grounded rules, and every rejection.

    `statements` are the chunk's statements in prompt order (numbered from 1); accepted
    rules get ids from `used_ids` (shared by a bundle) exactly as the offline extractor
    would name them.
    """
    out = AnswerResult()
    where = statements[0].file if statements else ""
    try:
        answer = json.loads(_unfence(content), parse_float=Decimal)
    except (json.JSONDecodeError, RecursionError) as exc:
        cut = " (the model stopped at its token limit)" if finish_reason == "length" else ""
        reason = f"answer is not valid JSON: {getattr(exc, 'msg', exc)}{cut}"
        out.rejections.append(Rejection(chunk_id, reason, content[:2000], where))
        return out
    items: Any
    if isinstance(answer, dict) and isinstance(answer.get("rules"), list):
        items = answer["rules"]
        label = answer.get("class")
        out.label = label if label in _CLASSES else None
    elif isinstance(answer, list):
        items = answer
    else:
        reason = "answer is not a JSON object with a \"rules\" list"
        out.rejections.append(Rejection(chunk_id, reason, content[:2000], where))
        return out
    for index, item in enumerate(items):
        raw = _dump(item)
        at = f"rules[{index}]"
        if not isinstance(item, dict):
            out.rejections.append(Rejection(chunk_id, f"{at} is not an object", raw, where))
            continue
        st, problem = _reference(item, statements)
        if st is None:
            out.rejections.append(Rejection(chunk_id, f"{at}: {problem}", raw, where))
            continue
        rule, reasons = _build(item, st, statements, at)
        if rule is not None:
            reading = str(getattr(st, "parse_text", "") or "")
            reasons = ground_rule(rule, chunk_text, params, reading=reading)
        if rule is None or reasons:
            out.rejections.append(Rejection(chunk_id, "; ".join(reasons), raw, st.file, st.line))
            continue
        rule.id = unique_id(rule.id, used_ids)
        out.rules.append(rule)
    return out


def _unfence(content: str) -> str:
    content = _THINKING.sub("", content, count=1)
    m = _FENCE.match(content)
    return m.group("body") if m else content.strip()


def _dump(item: Any) -> str:
    def number(value: Any) -> Any:
        if isinstance(value, Decimal):
            return int(value) if value == value.to_integral_value() else float(value)
        raise TypeError(type(value).__name__)

    return json.dumps(item, ensure_ascii=False, default=number)[:2000]


def _reference(item: dict[str, Any], statements: list[Statement]
               ) -> tuple[Statement | None, str]:
    ref = item.get("statement")
    if isinstance(ref, str) and ref.strip().isdigit():
        ref = int(ref.strip())
    if isinstance(ref, int) and not isinstance(ref, bool):
        if 1 <= ref <= len(statements):
            return statements[ref - 1], ""
        return None, (f"unknown statement reference {ref} (the chunk has "
                      f"{len(statements)} statements)")
    quote = item.get("quote", ref if isinstance(ref, str) else None)
    if isinstance(quote, str) and quote.strip():
        st = _quoted(quote, statements)
        if st is not None:
            return st, ""
        return None, f"unknown statement reference: no statement of the chunk reads {quote[:80]!r}"
    return None, "names no statement (expected \"statement\": N)"


def _quoted(quote: str, statements: list[Statement]) -> Statement | None:
    """The statement a quote names: equal after folding space and case, or else the one
    statement that contains it."""
    fold = " ".join(quote.split()).lower().strip(" .\"'")
    texts = [" ".join(st.text.split()).lower() for st in statements]
    for st, text in zip(statements, texts, strict=True):
        if text.strip(" .\"'") == fold:
            return st
    holders = [st for st, text in zip(statements, texts, strict=True) if fold and fold in text]
    return holders[0] if len(holders) == 1 and len(fold) >= 12 else None


def _build(item: dict[str, Any], st: Statement, statements: list[Statement], at: str
           ) -> tuple[Rule | None, list[str]]:
    obj = {k: v for k, v in item.items() if k not in _REFERENCE_KEYS and k not in _OURS}
    obj["source"] = _source(st)
    obj["id"] = statement_rule_id(st.text, "P" if obj.get("kind") == "procedure" else "R")
    steps = obj.get("steps")
    if isinstance(steps, list):
        fixed = []
        for i, step in enumerate(steps):
            if isinstance(step, dict):
                step = dict(step)
                ref, problem = _reference(step, statements)
                if ref is None and ("statement" in step or "quote" in step):
                    return None, [f"{at}: steps[{i}] {problem}"]
                for key in _REFERENCE_KEYS + ("source",):
                    step.pop(key, None)
                step["source"] = _source(ref or st)
            fixed.append(step)
        obj["steps"] = fixed
    if obj.get("kind") in CONDITIONAL_KINDS and "template" not in obj:
        action = obj.get("action")
        if isinstance(action, str) and action.strip():
            text = action.strip().rstrip(".")
            obj["template"] = "{condition}: " + text[:1].upper() + text[1:] + "."
    try:
        rule = rule_from_json(obj, at)
    except RuleSchemaError as exc:
        return None, [f"not a valid rule object: {exc}"]
    if rule.condition is not None:
        rule.condition = _canonical_units(rule.condition)
    return rule, []


def _canonical_units(cond: Condition) -> Condition:
    """Write each unit as its symbol ("°C" -> "degC"), as the offline extractor does."""
    if isinstance(cond, Atom):
        if cond.unit is None:
            return cond
        try:
            return replace(cond, unit=parse_unit(cond.unit).symbol)
        except UnitError:
            return cond  # reported by ground_rule
    if isinstance(cond, Not):
        return Not(_canonical_units(cond.item))
    items = tuple(_canonical_units(c) for c in cond.items)
    return All(items) if isinstance(cond, All) else AnyOf(items)


def _source(st: Statement) -> dict[str, Any]:
    out: dict[str, Any] = {"file": st.file, "line": st.line, "text": st.text}
    page = getattr(st, "page", None)
    if isinstance(page, int) and page >= 1:
        out["page"] = page
    if st.section:
        out["section"] = st.section
    return out


def statement_rule_id(text: str, prefix: str = "R") -> str:
    """A rule's id from its statement, as docs/rule-objects.md "Ids" specifies (and the
    offline extractor does): a leading requirement id, else prefix + 8 hex digits of the
    SHA-256 of the statement, whitespace folded, lower case."""
    req = requirement_id(_MARKUP.sub("", text).strip()) if prefix == "R" else None
    if req:
        return req.group("id")
    return hashed_id(prefix, text)
