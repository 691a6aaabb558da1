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
from rulec.runtime.bundle.intervals import (
    FULL,
    Interval,
    comparison_intervals,
    negated_intervals,
    point,
    to_float_bounds,
)
from rulec.runtime.errors import UnitError

__all__ = ["FULL", "Box", "Interval", "ThresholdConverter", "boxes_of", "dnf",
           "negated_intervals", "to_float_bounds"]

MAX_TERMS = 256


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
            return [point(k) for k in self.state_indexes(atom)]
        values = atom.value if isinstance(atom.value, tuple) else (atom.value,)
        return comparison_intervals(atom.op, tuple(self.convert(atom, v) for v in values))

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
        return [point(Fraction(k)) for k in range(len(own))
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
