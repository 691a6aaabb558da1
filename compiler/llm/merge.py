"""`--extractor both`: merge the offline extractor's rules with the LLM's, report disagreements.

Rules are matched by their source statement (file, line, text).  For one statement the
two sides agree when their rules have the same normalised signatures (conditions equal
after normalisation, same duration; see `signature`).  Policy: the offline extractor is
deterministic and reviewed, so it wins a disagreement; an LLM rule is taken only for a
statement the offline extractor made no rule from.  docs/llm-extractor.md "Merge".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rulec.compiler.model.rules import All, AnyOf, Atom, Condition, Not, Rule
from rulec.compiler.model.units import parse_unit
from rulec.runtime.errors import UnitError
from rulec.runtime.vocabulary import PROCEDURE

__all__ = ["Disagreement", "MergeResult", "merge", "normalize_condition", "signature"]

_NEGATE = {">": "<=", ">=": "<", "<": ">=", "<=": ">", "between": "outside", "outside": "between"}


@dataclass(frozen=True)
class Disagreement:
    """One statement read differently: what each side made of it."""

    file: str
    line: int
    text: str
    offline: str  # the offline rules' conditions, "; "-separated ("" = no rule)
    llm: str

    def __str__(self) -> str:
        return (f"{self.file}:{self.line}: offline {self.offline or '(no rule)'} | "
                f"llm {self.llm or '(no rule)'} (offline kept): {self.text[:80]}")


@dataclass
class MergeResult:
    rules: list[Rule] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    agreed: int = 0  # statements both sides read the same way
    from_llm: list[Rule] = field(default_factory=list)  # LLM rules taken (offline had none)
    offline_only: int = 0  # statements only the offline extractor made rules from


def merge(offline: list[Rule], llm: list[Rule], *,
          param_units: Mapping[str, str | None] | None = None) -> MergeResult:
    """Offline rules, plus LLM rules for statements the offline extractor left alone.

    `param_units` (parameter -> manifest unit) lets a threshold written without a unit
    compare equal to the same threshold written in the parameter's unit.
    """
    units = dict(param_units or {})
    out = MergeResult(rules=list(offline))
    by_statement: dict[tuple[str, int, str], list[Rule]] = {}
    for rule in offline:
        by_statement.setdefault(_key(rule), []).append(rule)
    llm_by_statement: dict[tuple[str, int, str], list[Rule]] = {}
    for rule in llm:
        llm_by_statement.setdefault(_key(rule), []).append(rule)
    used = {rule.id for rule in offline}
    for key, theirs in llm_by_statement.items():
        ours = by_statement.get(key)
        if not ours:
            for rule in theirs:
                rule.id = _unique(rule.id, used)
                _insert(out.rules, rule)
                out.from_llm.append(rule)
            continue
        mine = sorted(repr(signature(r, units)) for r in ours)
        other = sorted(repr(signature(r, units)) for r in theirs)
        if mine == other:
            out.agreed += 1
        else:
            out.disagreements.append(Disagreement(key[0], key[1], key[2], _describe(ours),
                                                  _describe(theirs)))
    out.offline_only = sum(1 for key in by_statement if key not in llm_by_statement)
    out.disagreements.sort(key=lambda d: (d.file, d.line))
    return out


def _key(rule: Rule) -> tuple[str, int, str]:
    src = rule.source
    text = " ".join(str(src.get("text", "")).split())
    return str(src.get("file", "")), int(src.get("line", 0)), text


def _insert(rules: list[Rule], rule: Rule) -> None:
    """After the last rule of the same file at or before its line (text order kept)."""
    file, line, _ = _key(rule)
    at = None
    for i, other in enumerate(rules):
        other_file, other_line, _ = _key(other)
        if other_file == file and other_line <= line:
            at = i + 1
        elif other_file == file and at is None:
            at = i
    rules.insert(len(rules) if at is None else at, rule)


def _unique(rule_id: str, used: set[str]) -> str:
    candidate, n = rule_id, 2
    while candidate in used:
        candidate, n = f"{rule_id}-{n}", n + 1
    used.add(candidate)
    return candidate


# ---------------------------------------------------------------- normal forms


def signature(rule: Rule, param_units: Mapping[str, str | None] | None = None) -> tuple[Any, ...]:
    """What must be equal for two readings of a statement to agree: kind family, the
    normalised condition and the duration; exclusions and procedures by shape only (their
    texts are free wording)."""
    if rule.kind == "exclusion":
        return ("exclusion", len(rule.actions))
    if rule.kind == PROCEDURE:
        return ("procedure", len(rule.steps))
    cond = normalize_condition(rule.condition, param_units) if rule.condition else None
    duration = (Fraction(rule.duration_s), rule.duration_inclusive) \
        if rule.duration_s is not None else None
    return ("fires", cond, duration)


def normalize_condition(cond: Condition,
                        param_units: Mapping[str, str | None] | None = None) -> Any:
    """A hashable normal form: labels dropped; units as exact values in their dimension's
    base unit; `not` pushed into a comparison (`not x <= 104` is `x > 104`; sound because
    a comparison on an absent parameter is false either way); nested and/or flattened,
    their items sorted, one-item groups unwrapped; double negation removed."""
    units = param_units or {}
    if isinstance(cond, Atom):
        return _atom(cond, units)
    if isinstance(cond, Not):
        inner = cond.item
        if isinstance(inner, Not):
            return normalize_condition(inner.item, units)
        if isinstance(inner, Atom) and inner.op in _NEGATE:
            return _atom(Atom(inner.param, _NEGATE[inner.op], inner.value, inner.unit), units)
        return ("not", normalize_condition(inner, units))
    tag = "all" if isinstance(cond, All) else "any"
    items: list[Any] = []
    for item in cond.items:
        norm = normalize_condition(item, units)
        if isinstance(norm, tuple) and norm and norm[0] == tag:
            items.extend(norm[1])
        else:
            items.append(norm)
    unique = sorted(set(items), key=repr)
    return unique[0] if len(unique) == 1 else (tag, tuple(unique))


def _atom(atom: Atom, units: Mapping[str, str | None]) -> tuple[Any, ...]:
    if atom.states:
        return ("state", atom.param, tuple(sorted(atom.states)))
    unit_text = atom.unit if atom.unit is not None else units.get(atom.param)
    values = atom.value if isinstance(atom.value, tuple) else (atom.value,)
    try:
        unit = parse_unit(unit_text) if unit_text else None
    except UnitError:
        unit = None
    if unit is None or unit.is_plain:
        shown: tuple[Any, ...] = tuple(Fraction(v) for v in values)
        return ("cmp", atom.param, atom.op, shown, unit_text or None)
    base = tuple(Fraction(v) * unit.scale + unit.offset for v in values)
    return ("cmp", atom.param, atom.op, base, unit.dimension)


def _describe(rules: list[Rule]) -> str:
    parts = []
    for rule in rules:
        if rule.condition is None:
            parts.append(rule.kind)
            continue
        text = _cond_text(rule.condition)
        if rule.duration_s is not None:
            text += f" for {'at least' if rule.duration_inclusive else 'more than'} " \
                    f"{_num(rule.duration_s)} s"
        parts.append(text)
    return "; ".join(parts)


def _cond_text(cond: Condition) -> str:
    if isinstance(cond, Atom):
        return cond.describe()
    if isinstance(cond, Not):
        return f"not ({_cond_text(cond.item)})"
    joiner = " and " if isinstance(cond, All) else " or "
    assert isinstance(cond, All | AnyOf)
    return "(" + joiner.join(_cond_text(c) for c in cond.items) + ")"


def _num(value: Decimal) -> str:
    return format(value.normalize(), "f")
