"""Exact interval algebra shared by the compiler, which builds a bundle's boxes, and the
loader, which derives them again from the rule objects to prove they agree.

Bounds are Fractions (None is infinite) and are rounded once, to the nearest double, only
when written into a bundle, so both sides round the same exact number the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


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


def point(value: Fraction) -> Interval:
    """One exact value (a discrete parameter's state is the point of its index)."""
    return Interval(value, True, value, True)


def comparison_intervals(op: str, values: tuple[Fraction, ...]) -> list[Interval]:
    """Where ``x op value`` (or ``x between/outside [lo, hi]``) holds."""
    if op in ("between", "outside"):
        low, high = sorted(values)
        if op == "between":
            return [Interval(low, True, high, True)]
        return [Interval(None, False, low, False), Interval(high, False, None, False)]
    (value,) = values
    if op == ">":
        return [Interval(value, False, None, False)]
    if op == ">=":
        return [Interval(value, True, None, False)]
    if op == "<":
        return [Interval(None, False, value, False)]
    if op == "<=":
        return [Interval(None, False, value, True)]
    if op == "==":
        return [point(value)]
    raise ValueError(f"operator {op!r} cannot be applied to a single value")


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


def to_float_bounds(iv: Interval) -> tuple[float, float, int]:
    """(lo, hi, flags) as stored in a bundle: nearest doubles; flags bit0/bit1 = inclusive."""
    lo = float("-inf") if iv.lo is None else float(iv.lo)
    hi = float("inf") if iv.hi is None else float(iv.hi)
    flags = (1 if iv.lo_incl and iv.lo is not None else 0) | (
        2 if iv.hi_incl and iv.hi is not None else 0)
    return lo, hi, flags


def within(inner: list[Interval], outer: list[Interval]) -> bool:
    """Whether a union of intervals lies inside another union (piece by piece)."""
    return all(any(o.contains(i) for o in outer) for i in inner)


def disjoint(a: list[Interval], b: list[Interval]) -> bool:
    return all(x.intersect(y).is_empty() for x in a for y in b)


def interval_name(intervals: list[Interval]) -> str:
    """A union written as in a CNF variable's name: ``(600, inf) u [-inf, 2]``."""
    parts = []
    for iv in intervals:
        lo = "-inf" if iv.lo is None else _shown(iv.lo)
        hi = "inf" if iv.hi is None else _shown(iv.hi)
        parts.append(f"{'[' if iv.lo_incl else '('}{lo}, {hi}{']' if iv.hi_incl else ')'}")
    return " u ".join(parts)


def _shown(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value))
