"""Condition trees -> disjunctive normal form -> axis-aligned boxes, exactly.

Thresholds are converted to each parameter's manifest unit with exact rational
arithmetic and rounded once, to the nearest double, at the very end, so a
converted boundary equals what a person computes by hand.  An `or` gives a rule
several boxes; a negated comparison still needs its parameter present (an
absent parameter satisfies neither a condition nor its negation).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import product

from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import All, Atom, Condition, Not
from rulec.runtime.errors import UnitError

MAX_TERMS = 256


@dataclass(frozen=True)
class Interval:
    """A set of values of one parameter; None bounds are infinite."""

    lo: Fraction | None
    lo_incl: bool
    hi: Fraction | None
    hi_incl: bool

    def is_empty(self) -> bool:
        if self.lo is None or self.hi is None:
            return False
        return self.lo > self.hi or (self.lo == self.hi and not (self.lo_incl and self.hi_incl))

    def intersect(self, other: Interval) -> Interval:
        lo, lo_incl = self.lo, self.lo_incl
        if other.lo is not None and (lo is None or other.lo > lo
                                     or (other.lo == lo and not other.lo_incl)):
            lo, lo_incl = other.lo, other.lo_incl
        hi, hi_incl = self.hi, self.hi_incl
        if other.hi is not None and (hi is None or other.hi < hi
                                     or (other.hi == hi and not other.hi_incl)):
            hi, hi_incl = other.hi, other.hi_incl
        return Interval(lo, lo_incl, hi, hi_incl)

    def contains(self, other: Interval) -> bool:
        """Whether every value of `other` lies in self."""
        if self.lo is not None:
            if other.lo is None or other.lo < self.lo or (
                    other.lo == self.lo and other.lo_incl and not self.lo_incl):
                return False
        if self.hi is not None:
            if other.hi is None or other.hi > self.hi or (
                    other.hi == self.hi and other.hi_incl and not self.hi_incl):
                return False
        return True


FULL = Interval(None, False, None, False)
Literal = tuple[Atom, bool]  # (comparison, holds) ; holds=False is its negation
Term = tuple[Literal, ...]


@dataclass(frozen=True)
class Box:
    """One conjunction of intervals, keyed by parameter name (values in manifest units)."""

    bounds: tuple[tuple[str, Interval], ...]


class ThresholdConverter:
    """Converts a comparison's numbers into its parameter's manifest unit, exactly."""

    def __init__(self, units: dict[str, str | None],
                 states: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self.units = units  # parameter -> manifest unit symbol (None: adopt first seen)
        self.states = dict(states or {})  # discrete parameter -> its states, in index order

    @classmethod
    def of_table(cls, params: ParameterTable) -> ThresholdConverter:
        """A converter for the parameters of a table: their units and their states."""
        return cls({name: info.unit_symbol for name, info in params.params.items()},
                   {name: info.states for name, info in params.params.items() if info.states})

    def intervals(self, atom: Atom) -> list[Interval]:
        """The values of the parameter (manifest units) for which the comparison holds; a
        discrete parameter's value is its state's index, so a state is one point."""
        own = self.states.get(atom.param)
        if atom.states or own:
            return [Interval(k, True, k, True) for k in self.state_indexes(atom)]
        if isinstance(atom.value, tuple):
            low, high = (self.convert(atom, v) for v in atom.value)
            if low > high:
                low, high = high, low
            if atom.op == "between":
                return [Interval(low, True, high, True)]
            return [Interval(None, False, low, False), Interval(high, False, None, False)]
        value = self.convert(atom, atom.value)
        if atom.op == ">":
            return [Interval(value, False, None, False)]
        if atom.op == ">=":
            return [Interval(value, True, None, False)]
        if atom.op == "<":
            return [Interval(None, False, value, False)]
        if atom.op == "<=":
            return [Interval(None, False, value, True)]
        if atom.op == "==":
            return [Interval(value, True, value, True)]
        raise ValueError(f"operator {atom.op!r} cannot be applied to a single value")

    def state_indexes(self, atom: Atom) -> list[Fraction]:
        """The indexes of a state comparison's states, in order; a number compared with a
        discrete parameter, or a state it does not have, is refused."""
        own = self.states.get(atom.param)
        if not atom.states:
            raise UnitError(f"{atom.param} is discrete (states {', '.join(own or ())}): "
                            f"it is compared with a state, not a number")
        if own is None:
            raise UnitError(f"{atom.param} has no states: 'in {', '.join(atom.states)}' "
                            f"cannot be read")
        unknown = [s for s in atom.states if s not in own]
        if unknown:
            raise UnitError(f"{atom.param} has no state {unknown[0]!r} (its states: "
                            f"{', '.join(own)})")
        return sorted(Fraction(own.index(s)) for s in atom.states)

    def convert(self, atom: Atom, value: Decimal) -> Fraction:
        """A threshold of ``atom`` in its parameter's unit, exactly (the first unit seen is
        adopted for a parameter that has none yet)."""
        if atom.unit is None:
            return Fraction(value)
        target = self.units.get(atom.param)
        if target is None:
            self.units[atom.param] = atom.unit
            return Fraction(value)
        return _converted(value, atom.unit, target, atom.param)


@functools.lru_cache(maxsize=65536)
def _converted(value: Decimal, unit: str, target: str, param: str) -> Fraction:
    """``value`` in ``unit`` as a number in ``target``, exactly (cached: a long manual
    repeats the same thresholds; an error is raised again each time)."""
    from rulec.compiler.model.units import convert as convert_units
    from rulec.compiler.model.units import parse_unit, same_quantity, units_compatible

    exact = Fraction(value)
    src, dst = parse_unit(unit), parse_unit(target)
    if units_compatible(src, dst) and not same_quantity(src, dst):
        raise UnitError(f"{value} {unit} counts something else than {param}, "
                        f"measured in {target}")
    if src.dimension == dst.dimension:
        return Fraction(convert_units(value, src, dst))
    if units_compatible(src, dst):
        return exact
    raise UnitError(
        f"{value} {unit} cannot be compared with {param}, measured in {target}"
    )


def negated_intervals(intervals: list[Interval]) -> list[Interval]:
    """The complement (within the real line) of a union of disjoint intervals."""
    ordered = sorted(intervals, key=lambda iv: (iv.lo is not None, iv.lo or 0))
    out: list[Interval] = []
    cursor: Fraction | None = None
    cursor_incl = False  # whether `cursor` itself belongs to the complement
    started = False
    for iv in ordered:
        if iv.lo is not None:
            piece = Interval(cursor if started else None, cursor_incl, iv.lo, not iv.lo_incl)
            if not piece.is_empty():
                out.append(piece)
        if iv.hi is None:
            return out
        cursor, cursor_incl, started = iv.hi, not iv.hi_incl, True
    out.append(Interval(cursor if started else None, cursor_incl, None, False))
    return [iv for iv in out if not iv.is_empty()]


def dnf(cond: Condition, negate: bool = False) -> list[Term]:
    """Disjunctive normal form over comparison literals (negation pushed inward)."""
    if isinstance(cond, Atom):
        return [((cond, not negate),)]
    if isinstance(cond, Not):
        return dnf(cond.item, not negate)
    conjunctive = isinstance(cond, All) != negate  # De Morgan
    parts = [dnf(item, negate) for item in cond.items]
    if not conjunctive:
        return [term for part in parts for term in part]
    terms: list[Term] = [()]
    for part in parts:
        terms = [a + b for a in terms for b in part]
        if len(terms) > MAX_TERMS:
            raise ValueError(f"condition too complex: more than {MAX_TERMS} alternatives")
    return terms


def literal_intervals(lit: Literal, conv: ThresholdConverter) -> list[Interval]:
    """Where a comparison holds, or where it does not; a discrete parameter not in some
    states is in one of its others (no value between two indexes satisfies either)."""
    atom, holds = lit
    intervals = conv.intervals(atom)
    if holds:
        return intervals
    own = conv.states.get(atom.param)
    if own:
        taken = {iv.lo for iv in intervals}
        return [Interval(Fraction(k), True, Fraction(k), True) for k in range(len(own))
                if Fraction(k) not in taken]
    return negated_intervals(intervals)


def boxes_of(cond: Condition, conv: ThresholdConverter) -> list[Box]:
    """The boxes whose union is exactly the set of states where the condition holds."""
    out: list[Box] = []
    seen: set[Box] = set()
    for term in dnf(cond):
        choices = [literal_intervals(lit, conv) for lit in term]
        for combo in product(*choices):
            bounds: dict[str, Interval] = {}
            for (atom, _), iv in zip(term, combo, strict=True):
                bounds[atom.param] = bounds.get(atom.param, FULL).intersect(iv)
            if any(iv.is_empty() for iv in bounds.values()):
                continue
            box = Box(tuple(bounds.items()))  # text order, for advisories
            if box not in seen:
                seen.add(box)
                out.append(box)
            if len(out) > MAX_TERMS:
                raise ValueError(f"condition too complex: more than {MAX_TERMS} boxes")
    return out


def to_float_bounds(iv: Interval) -> tuple[float, float, int]:
    """(lo, hi, flags) as stored in a bundle: nearest doubles; flags bit0/bit1 = inclusive."""
    lo = float("-inf") if iv.lo is None else float(iv.lo)
    hi = float("inf") if iv.hi is None else float(iv.hi)
    flags = (1 if iv.lo_incl and iv.lo is not None else 0) | (
        2 if iv.hi_incl and iv.hi is not None else 0)
    return lo, hi, flags
