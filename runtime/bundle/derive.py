"""A bundle's boxes, CNF clauses and atoms derived again from its rule objects, at load.

The boxes and clauses are what the vehicle evaluates; the rule objects (``condition_text``,
``action``, ``template``) are what a person reads, and what ``rulec diff`` and ``rulec
query`` show.  A bundle whose boxes were edited and re-hashed would raise at thresholds its
rules do not state.  So the loader reads each condition back, converts its thresholds
into the parameters' units with the unit table the compiler wrote (``meta.units``:
symbol -> [dimension, scale, offset], ``base = value * scale + offset``), rebuilds the
boxes, the clauses of every rule and the meaning of every condition variable with exact
rationals, and refuses a bundle where anything disagrees.  Relation clauses between
comparisons must be sound, and a template may name only ``{condition}`` and parameters.

A bundle without a unit table (written before it existed, or by hand) is not checked
here; ``Bundle.derived`` then says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from itertools import product
from typing import Any

from rulec.runtime.bundle.intervals import (
    FULL,
    Interval,
    comparison_intervals,
    disjoint,
    interval_name,
    negated_intervals,
    point,
    to_float_bounds,
    within,
)
from rulec.runtime.errors import BundleError
from rulec.runtime.vocabulary import CONDITIONAL_KINDS

_OPS = (">=", "<=", ">", "<", "==", "between", "outside", "in")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
MAX_TERMS = 256  # the compiler refuses a condition with more alternatives


@dataclass(frozen=True)
class Comparison:
    """One comparison as written in ``condition_text``: numbers (as text) or state names."""

    param: str
    op: str
    values: tuple[str, ...]
    unit: str | None


@dataclass(frozen=True)
class Group:
    conjunctive: bool
    items: tuple[Condition, ...]


@dataclass(frozen=True)
class Negation:
    item: Condition


Condition = Comparison | Group | Negation
Literal = tuple[Comparison, bool]


# ---------------------------------------------------------------- reading the text

_WORD = re.compile(r"[^\s()\[\],]+")


class _Reader:
    """``(a and b)``, ``(a or b)``, ``not a``, ``p op v [unit]``, ``p between [lo, hi]
    [unit]``, ``p == state``, ``p in [s1, s2]``: the pipeline's ``condition_text``."""

    def __init__(self, text: str, states: Mapping[str, tuple[str, ...]]) -> None:
        self.text, self.pos = text, 0
        # A state name may hold spaces ("on ground"): read the longest one of its parameter.
        self.states = {name: sorted(own, key=len, reverse=True)
                       for name, own in states.items() if own}

    def fail(self, what: str) -> ValueError:
        return ValueError(f"{what} at column {self.pos + 1}")

    def condition(self) -> Condition:
        if self.text.startswith("not ", self.pos):
            self.pos += 4
            return Negation(self.condition())
        if not self.text.startswith("(", self.pos):
            return self.comparison()
        self.pos += 1
        items = [self.condition()]
        joiner = ""
        while not self.text.startswith(")", self.pos):
            word = next((w for w in (" and ", " or ") if self.text.startswith(w, self.pos)), "")
            if not word or (joiner and word != joiner):
                raise self.fail("expected ' and ', ' or ' or ')'")
            joiner = word
            self.pos += len(word)
            items.append(self.condition())
        self.pos += 1
        return Group(joiner != " or ", tuple(items))

    def word(self) -> str:
        match = _WORD.match(self.text, self.pos)
        if not match:
            raise self.fail("expected a word")
        self.pos = match.end()
        return match.group()

    def expect(self, literal: str) -> None:
        if not self.text.startswith(literal, self.pos):
            raise self.fail(f"expected {literal!r}")
        self.pos += len(literal)

    def state(self, param: str) -> str:
        for name in self.states[param]:
            if self.text.startswith(name, self.pos):
                self.pos += len(name)
                return name
        raise self.fail(f"expected a state of {param}")

    def comparison(self) -> Comparison:
        param = self.word()
        self.expect(" ")
        op = self.word()
        if op not in _OPS:
            raise self.fail(f"unknown operator {op!r}")
        self.expect(" ")
        value = self.word if param not in self.states else (lambda: self.state(param))
        if self.text.startswith("[", self.pos):
            self.pos += 1
            values = [value()]
            while self.text.startswith(", ", self.pos):
                self.pos += 2
                values.append(value())
            self.expect("]")
        else:
            values = [value()]
        if param in self.states:
            return Comparison(param, op, tuple(values), None)
        unit = None
        rest = self.text[self.pos:]
        if rest.startswith(" ") and not rest.startswith((" and ", " or ")):
            self.pos += 1
            unit = self.word()
        return Comparison(param, op, tuple(values), unit)


def read_condition(text: str, states: Mapping[str, tuple[str, ...]] | None = None
                   ) -> Condition:
    """The condition tree of a bundle rule's ``condition_text`` (``states``: the state names
    of the discrete parameters); ValueError if unreadable."""
    reader = _Reader(text, states or {})
    cond = reader.condition()
    if reader.pos != len(text):
        raise reader.fail("unexpected text")
    return cond


# ---------------------------------------------------------------- thresholds


@dataclass(frozen=True)
class UnitTable:
    """The affine maps of the units a bundle uses, exact: symbol -> (dimension, scale,
    offset)."""

    units: Mapping[str, tuple[str, Fraction, Fraction]]

    @classmethod
    def read(cls, value: Any) -> UnitTable:
        if not isinstance(value, dict):
            raise ValueError("must be a map of unit symbol -> [dimension, scale, offset]")
        out: dict[str, tuple[str, Fraction, Fraction]] = {}
        for symbol, entry in value.items():
            if not (isinstance(symbol, str) and isinstance(entry, list) and len(entry) == 3
                    and all(isinstance(e, str) for e in entry)):
                raise ValueError(f"{symbol!r}: must be [dimension, scale, offset] as text")
            try:
                scale, offset = Fraction(entry[1]), Fraction(entry[2])
            except (ValueError, ZeroDivisionError):
                raise ValueError(f"{symbol!r}: scale and offset must be exact numbers"
                                 ) from None
            if scale <= 0:
                raise ValueError(f"{symbol!r}: scale must be positive")
            out[symbol] = (entry[0], scale, offset)
        return cls(out)

    def convert(self, value: Fraction, unit: str | None, target: str | None) -> Fraction:
        """``value`` in ``unit`` as a number in ``target``: an affine map within one
        dimension, the number itself otherwise (a plain number, a counted noun)."""
        if not unit or not target or unit == target:
            return value
        for symbol in (unit, target):
            if symbol not in self.units:
                raise ValueError(f"unit {symbol!r} is not in the bundle's unit table")
        dim, scale, offset = self.units[unit]
        dim_t, scale_t, offset_t = self.units[target]
        if dim != dim_t:
            return value
        return (value * scale + offset - offset_t) / scale_t


class _Space:
    """The parameters a condition may name: units, and the states of discrete ones."""

    def __init__(self, names: Sequence[str], units: Sequence[str],
                 states: Sequence[tuple[str, ...]], table: UnitTable) -> None:
        self.axis = {name: i for i, name in enumerate(names)}
        self.units = list(units)
        self.states = list(states)
        self.table = table

    def intervals(self, comparison: Comparison) -> list[Interval]:
        axis = self.axis.get(comparison.param)
        if axis is None:
            raise ValueError(f"names {comparison.param!r}, not a parameter of the bundle")
        own = self.states[axis]
        if own:
            if comparison.op not in ("==", "in"):
                raise ValueError(f"{comparison.param} is discrete: {comparison.op!r}")
            unknown = [s for s in comparison.values if s not in own]
            if unknown:
                raise ValueError(f"{comparison.param} has no state {unknown[0]!r}")
            return [point(Fraction(own.index(s))) for s in sorted(set(comparison.values),
                                                                  key=own.index)]
        numbers = tuple(self.table.convert(_number(v), comparison.unit, self.units[axis])
                        for v in comparison.values)
        return comparison_intervals(comparison.op, numbers)

    def literal(self, lit: Literal) -> list[Interval]:
        comparison, holds = lit
        intervals = self.intervals(comparison)
        if holds:
            return intervals
        own = self.states[self.axis[comparison.param]]
        if own:
            taken = {iv.lo for iv in intervals}
            return [point(Fraction(k)) for k in range(len(own)) if Fraction(k) not in taken]
        return negated_intervals(intervals)

    def name(self, comparison: Comparison) -> str:
        return f"{comparison.param} in {interval_name(self.intervals(comparison))}"


def _number(text: str) -> Fraction:
    return Fraction(read_decimal(text))


def read_decimal(text: str) -> Decimal:
    """A threshold as ``condition_text`` writes it; ValueError unless a finite number."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{text!r} is not a number") from None
    if not value.is_finite():
        raise ValueError(f"{text!r} is not a finite number")
    return value


def dnf(cond: Condition, negate: bool = False) -> list[tuple[Literal, ...]]:
    """Alternatives of conjunctions of comparisons, negation pushed inward."""
    if isinstance(cond, Comparison):
        return [((cond, not negate),)]
    if isinstance(cond, Negation):
        return dnf(cond.item, not negate)
    parts = [dnf(item, negate) for item in cond.items]
    if cond.conjunctive == negate:  # an `or`, or a negated `and`
        return [term for part in parts for term in part]
    terms: list[tuple[Literal, ...]] = [()]
    for part in parts:
        terms = [a + b for a in terms for b in part]
        if len(terms) > MAX_TERMS:
            raise ValueError(f"more than {MAX_TERMS} alternatives")
    return terms


BoxKey = frozenset[tuple[int, float, float, int]]


def _boxes(terms: list[tuple[Literal, ...]], space: _Space) -> set[BoxKey]:
    out: set[BoxKey] = set()
    for term in terms:
        for combo in product(*(space.literal(lit) for lit in term)):
            bounds: dict[int, Interval] = {}
            for (comparison, _), iv in zip(term, combo, strict=True):
                axis = space.axis[comparison.param]
                bounds[axis] = bounds.get(axis, FULL).intersect(iv)
            if any(iv.is_empty() for iv in bounds.values()):
                continue
            out.add(frozenset((axis, *to_float_bounds(iv)) for axis, iv in bounds.items()))
    return out


# ---------------------------------------------------------------- the check


def action_key(text: str) -> str:
    """An action's CNF variable name: the compiler's spelling, lower case, no full stop."""
    return re.sub(r"\s+", " ", text.strip().rstrip(".").lower())


def check_derived(bundle: Any, table: UnitTable) -> int:
    """Derive boxes, clauses and atoms from every rule object and compare them with the
    bundle's; returns the number of rules checked, raises BundleError on a disagreement."""
    params = bundle.parameters
    space = _Space([p.name for p in params], [p.unit for p in params],
                   [p.states for p in params], table)
    states = {p.name: p.states for p in params if p.states}
    stored_boxes = _stored_boxes(bundle)
    stored_clauses = _stored_clauses(bundle)
    variables = {(v.kind, v.name): i + 1 for i, v in enumerate(bundle.cnf.variables)}
    meaning: dict[int, tuple[int, list[Interval]]] = {}
    for index, rule in enumerate(bundle.rules):
        where = f"rules[{index}] ({rule.id})"
        _check_template(rule, bundle.param_index, where)
        derived_clauses: list[tuple[int, ...]] = []
        boxes: set[BoxKey] = set()
        terms: list[tuple[Literal, ...]] = []
        if rule.kind in CONDITIONAL_KINDS and rule.condition_text:
            try:
                terms = dnf(read_condition(rule.condition_text, states))
                boxes = _boxes(terms, space)
            except ValueError as exc:
                raise BundleError(f"{where}: condition {rule.condition_text!r}: {exc}") from None
        stored = stored_boxes.get(index, set())
        if boxes != stored:
            raise BundleError(f"{where}: its boxes disagree with its condition "
                              f"{rule.condition_text!r}: "
                              f"{_box_difference(boxes, stored, bundle)}")
        try:
            if terms:
                derived_clauses = _rule_clauses(rule, terms, space, variables, meaning)
            elif rule.kind == "exclusion":
                derived_clauses = _exclusion_clauses(rule, variables)
        except ValueError as exc:
            raise BundleError(f"{where}: {exc}") from None
        if sorted(derived_clauses) != sorted(stored_clauses.get(index, [])):
            raise BundleError(f"{where}: its CNF clauses disagree with its condition "
                              f"{rule.condition_text!r}")
    extra = sorted(set(stored_boxes) - set(range(len(bundle.rules))))
    if extra:
        raise BundleError(f"boxes of rule index {extra[0]}, which no rule object has")
    _check_atoms(bundle, meaning)
    _check_free_clauses(bundle, stored_clauses.get(-1, []), meaning)
    return len(bundle.rules)


def _rule_clauses(rule: Any, terms: list[tuple[Literal, ...]], space: _Space,
                  variables: Mapping[tuple[str, str], int],
                  meaning: dict[int, tuple[int, list[Interval]]]) -> list[tuple[int, ...]]:
    tail: list[int] = []
    if rule.kind == "if_then":
        tail = [_variable(variables, "action", action_key(rule.action))]
    out = []
    for term in terms:
        clause = list(tail)
        for comparison, holds in term:
            var = _variable(variables, "condition", space.name(comparison))
            meaning.setdefault(var, (space.axis[comparison.param],
                                     space.intervals(comparison)))
            clause.append(-var if holds else var)
        out.append(tuple(sorted(set(clause), key=lambda v: (abs(v), v))))
    return out


def _exclusion_clauses(rule: Any, variables: Mapping[tuple[str, str], int]
                       ) -> list[tuple[int, ...]]:
    actions = [_variable(variables, "action", action_key(a)) for a in rule.action.split(" / ")]
    return [tuple(sorted({-a, -b}, key=lambda v: (abs(v), v)))
            for i, a in enumerate(actions) for b in actions[i + 1:]]


def _variable(variables: Mapping[tuple[str, str], int], kind: str, name: str) -> int:
    var = variables.get((kind, name))
    if var is None:
        raise ValueError(f"no CNF variable for the {kind} {name!r}")
    return var


def _stored_boxes(bundle: Any) -> dict[int, set[BoxKey]]:
    b = bundle.boxes
    out: dict[int, set[BoxKey]] = {}
    for box in range(b.n_boxes):
        key = frozenset((int(b.axis[c]), float(b.lo[c]), float(b.hi[c]), int(b.flags[c]))
                        for c in range(int(b.start[box]), int(b.start[box + 1])))
        out.setdefault(int(b.rule[box]), set()).add(key)
    return out


def _stored_clauses(bundle: Any) -> dict[int, list[tuple[int, ...]]]:
    c = bundle.cnf
    out: dict[int, list[tuple[int, ...]]] = {}
    for i in range(c.n_clauses):
        clause = tuple(int(v) for v in c.literals[int(c.start[i]):int(c.start[i + 1])])
        out.setdefault(int(c.clause_rule[i]), []).append(clause)
    return out


def _check_atoms(bundle: Any, meaning: Mapping[int, tuple[int, list[Interval]]]) -> None:
    """Each condition variable the rules use means exactly its comparison (when the bundle
    says what its variables mean)."""
    atoms = bundle.cnf.atoms
    if atoms is None:
        return  # an older bundle without the section: its variables mean nothing here
    rows: dict[int, set[tuple[int, float, float, int]]] = {}
    for j in range(atoms.n_rows):
        rows.setdefault(int(atoms.var[j]), set()).add(
            (int(atoms.axis[j]), float(atoms.lo[j]), float(atoms.hi[j]), int(atoms.flags[j])))
    for var, (axis, intervals) in meaning.items():
        expected = {(axis, *to_float_bounds(iv)) for iv in intervals}
        if rows.get(var) != expected:
            name = bundle.cnf.variables[var - 1].name
            raise BundleError(f"cnf.atoms: variable {var} ({name}) does not mean its "
                              "comparison")
    stray = sorted(set(rows) - set(meaning))
    if stray:
        raise BundleError(f"cnf.atoms: variable {stray[0]} is no rule's comparison")


def _check_free_clauses(bundle: Any, clauses: Sequence[tuple[int, ...]],
                        meaning: Mapping[int, tuple[int, list[Interval]]]) -> None:
    """Clauses of no rule relate two comparisons of one parameter, soundly, or chain a
    procedure's steps."""
    kinds = [v.kind for v in bundle.cnf.variables]
    for clause in clauses:
        if all(kinds[abs(v) - 1] in ("procedure", "step") for v in clause):
            continue
        if len(clause) != 2 or any(abs(v) not in meaning for v in clause):
            raise BundleError(f"cnf: clause {list(clause)} belongs to no rule and relates "
                              "no two comparisons")
        (a, b) = clause
        ia, ib = meaning[abs(a)], meaning[abs(b)]
        if a < 0 < b:
            sound = within(ia[1], ib[1])
        elif b < 0 < a:
            sound = within(ib[1], ia[1])
        elif a < 0 and b < 0:
            sound = disjoint(ia[1], ib[1])
        else:
            sound = False
        if ia[0] != ib[0] or not sound:
            raise BundleError(f"cnf: clause {list(clause)} relates two comparisons wrongly")


def _check_template(rule: Any, param_index: Mapping[str, int], where: str) -> None:
    for name in _PLACEHOLDER.findall(rule.template):
        if name != "condition" and name not in param_index:
            raise BundleError(f"{where}: template names {{{name}}}, neither the condition "
                              "nor a parameter")


def _box_difference(derived: set[BoxKey], stored: set[BoxKey], bundle: Any) -> str:
    def shown(boxes: set[BoxKey]) -> str:
        words = []
        for box in sorted(boxes, key=sorted):
            words.append(" and ".join(
                f"{bundle.parameters[axis].name} {'[' if flags & 1 else '('}{lo!r}, "
                f"{hi!r}{']' if flags & 2 else ')'}" for axis, lo, hi, flags in sorted(box)))
        return "; ".join(words) or "none"
    return f"the bundle has {shown(stored)}, the condition gives {shown(derived)}"


def iter_units(cond: Condition) -> Iterator[str]:
    """The unit symbols a condition writes (what the unit table must hold)."""
    if isinstance(cond, Comparison):
        if cond.unit:
            yield cond.unit
    elif isinstance(cond, Negation):
        yield from iter_units(cond.item)
    else:
        for item in cond.items:
            yield from iter_units(item)
