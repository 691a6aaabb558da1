"""The geometry path's proof: why a box contains the state, or how far it is from it.

For a fired rule, the proof is the comparisons of the box that contains the point, each
with the live value, the exact test (``820 > 600``) and its margin.  For a rule that did
not fire, the nearest boundary is the box of the rule closest to the point, with every
comparison that fails: "oil pressure 21 psi is 1 psi above the 20 psi threshold of
R-..., which applies when oil pressure is below 20 psi".

The decisions are the kernel's, in doubles.  Differences are computed exactly on the
decimal texts of the two doubles (their shortest round-trip form), so a gap reads as a
person computes it by hand (81 - 80.6 is 0.4, not 0.4000000000000057).  A value equal
to a strict bound fails with a gap of 0, worded as "exactly at ... which the rule
excludes".
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import numpy as np

from rulec.runtime.bundle.loader import Bundle, state_name
from rulec.runtime.engine.advisory import format_value, relation_words, unit_suffix, with_unit
from rulec.runtime.vocabulary import parameter_words, time_in_state_of


def exact(value: float) -> Decimal:
    """The decimal a double prints as (shortest round-trip text), exactly."""
    return Decimal(repr(float(value)))


def decimal_text(value: Decimal) -> str:
    if value == value.to_integral_value():
        return str(int(value))
    return format(value.normalize(), "f")


@dataclass(frozen=True)
class Comparison:
    """One constraint of a box (``lo <op> x <op> hi``) against the live value."""

    axis: int
    parameter: str
    unit: str
    value: float  # NaN when the parameter is absent or invalid
    lo: float
    hi: float
    flags: int
    states: tuple[str, ...] = ()  # a discrete parameter's: the value and bounds are indexes

    @property
    def known(self) -> bool:
        return not math.isnan(self.value)

    @property
    def below(self) -> bool:
        """The value is under the lower bound (or on a strict one)."""
        v, lo = self.value, self.lo
        return v < lo or (v == lo and not self.flags & 1)

    @property
    def above(self) -> bool:
        v, hi = self.value, self.hi
        return v > hi or (v == hi and not self.flags & 2)

    @property
    def holds(self) -> bool:
        return self.known and not self.below and not self.above

    def test(self) -> str:
        """The arithmetic as evaluated: ``820 > 600``, ``5 <= 3 <= 9``, ``0 == 0``."""
        v = format_value(self.value)
        if self.lo == self.hi:
            return f"{v} == {format_value(self.lo)}"
        parts = []
        if not math.isinf(self.lo):
            parts.append(f"{v} {'>=' if self.flags & 1 else '>'} {format_value(self.lo)}")
        if not math.isinf(self.hi):
            parts.append(f"{v} {'<=' if self.flags & 2 else '<'} {format_value(self.hi)}")
        return " and ".join(parts) or f"{v} present"

    def applies(self) -> str:
        """Where the constraint holds, in words: "is below 20 psi", "is extended"."""
        if self.states:
            return "is " + " or ".join(self.states[k] for k in range(len(self.states))
                                       if self.lo <= k <= self.hi)
        return relation_words(self.lo, self.hi, self.flags, self.unit)

    def state(self) -> str:
        """The state a discrete value names ("?" for an index it does not have)."""
        return state_name(self.states, self.value)

    def label(self) -> str:
        return parameter_words(self.parameter)

    def margin(self) -> Decimal | None:
        """How far inside (holding) the value is from the nearest finite bound."""
        v = exact(self.value)
        gaps = [v - exact(self.lo)] if not math.isinf(self.lo) else []
        if not math.isinf(self.hi):
            gaps.append(exact(self.hi) - v)
        return min(gaps) if gaps else None

    def gap(self) -> tuple[str, float, Decimal]:
        """(side, bound, distance) of a failing comparison: how far the value must move."""
        if self.below:
            return "below", self.lo, exact(self.lo) - exact(self.value)
        return "above", self.hi, exact(self.value) - exact(self.hi)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"parameter": self.parameter, "unit": self.unit,
                               "value": self.value if self.known else None}
        if not self.known:
            out.update(holds=False, text=f"{self.label()} is not given (or invalid)")
            return out
        out["test"] = self.test()
        out["holds"] = self.holds
        if self.states:
            out["state"] = self.state()
            out["text"] = (f"{self.label()} is {self.state()}" if self.holds else
                           f"{self.label()} is {self.state()}; the rule applies when "
                           f"{self.label()} {self.applies()}")
            return out
        shown = with_unit(self.value, self.unit)
        if self.holds:
            margin = self.margin()
            if margin is not None:
                out["margin"] = float(margin)
            out["text"] = f"{self.label()} {shown} {self.applies()}"
            return out
        side, bound, gap = self.gap()
        out.update(side=side, bound=bound, gap=float(gap))
        at = with_unit(bound, self.unit)
        if gap == 0:
            out["text"] = (f"{self.label()} {shown} is exactly at the {at} threshold, which "
                           f"the rule excludes: it applies only when {self.label()} "
                           f"{self.applies()}")
        else:
            moved = decimal_text(gap) + unit_suffix(self.unit)
            out["text"] = (f"{self.label()} {shown} is {moved} {side} the {at} threshold; "
                           f"the rule applies when {self.label()} {self.applies()}")
        return out


def comparisons(bundle: Bundle, box: int, x: np.ndarray) -> list[Comparison]:
    """The constraints of one box with the live values of the state ``x``."""
    b = bundle.boxes
    out = []
    for c in range(int(b.start[box]), int(b.start[box + 1])):
        axis = int(b.axis[c])
        param = bundle.parameters[axis]
        out.append(Comparison(axis, param.name, param.unit, float(x[axis]), float(b.lo[c]),
                              float(b.hi[c]), int(b.flags[c]), param.states))
    return out


def proof(bundle: Bundle, boxes: Iterable[int], x: np.ndarray) -> list[dict[str, Any]]:
    """For a fired rule: each containing box and the comparisons that hold in it."""
    return [{"box": int(box), "holds": [c.to_json() for c in comparisons(bundle, box, x)]}
            for box in boxes]


@dataclass(frozen=True)
class Boundary:
    """The box of one rule nearest the state, and what keeps the state out of it."""

    rule: int
    box: int
    holding: tuple[Comparison, ...]
    failing: tuple[Comparison, ...]
    missing: tuple[Comparison, ...]
    distance: float  # sum of the failing gaps, each relative to its parameter's range

    def to_json(self, bundle: Bundle) -> dict[str, Any]:
        spec = bundle.rules[self.rule]
        out: dict[str, Any] = {
            "rule": spec.id,
            "severity": spec.severity,
            "source": spec.source,
            "failing": [c.to_json() for c in self.failing],
            "holding": [c.to_json() for c in self.holding],
            "missing": [c.parameter for c in self.missing],
        }
        parts = [c.to_json()["text"] for c in self.failing]
        if self.missing:
            given = [c for c in self.missing if time_in_state_of(c.parameter) is None]
            timed = [c for c in self.missing if time_in_state_of(c.parameter) is not None]
            if given:
                parts.append("it needs " + ", ".join(c.label() for c in given)
                             + " (not given)")
            if timed:
                parts.append("it needs " + ", ".join(c.label() for c in timed)
                             + " (known only over time: replay or onboard)")
        if self.holding and parts:
            parts.append("already holding: " + ", ".join(
                c.to_json()["text"] for c in self.holding))
        if not parts and spec.duration_s is not None:
            out["duration_s"] = spec.duration_s
            parts.append(f"its condition holds, but it fires only after holding for "
                         f"{'at least' if spec.duration_inclusive else 'more than'} "
                         f"{format_value(spec.duration_s)} s (in a stream)")
        out["text"] = f"{spec.id}: " + "; ".join(parts)
        return out


def nearest(bundle: Bundle, x: np.ndarray, skip: set[int], limit: int | None = None
            ) -> list[Boundary]:
    """Per rule (except ``skip``) with a comparison on a parameter given in ``x``, its
    nearest box: fewest comparisons on parameters not given, then fewest failing ones,
    then the smallest gap relative to each parameter's range.  Nearest rules first, at
    most ``limit`` of them.  Ranking is vectorised over every constraint; only the
    boundaries returned are worded."""
    b = bundle.boxes
    if b.n_boxes == 0:
        return []
    axis = np.asarray(b.axis, dtype=np.int64)
    lo, hi, flags = np.asarray(b.lo), np.asarray(b.hi), np.asarray(b.flags)
    v = np.asarray(x, dtype=np.float64)[axis]
    known = ~np.isnan(v)
    with np.errstate(invalid="ignore"):
        below = known & ((v < lo) | ((v == lo) & ~(flags & 1).astype(bool)))
        above = known & ~below & ((v > hi) | ((v == hi) & ~(flags & 2).astype(bool)))
        gap = np.where(below, lo - v, np.where(above, v - hi, 0.0)) / _scales(bundle)[axis]
    starts = np.asarray(b.start[:-1], dtype=np.int64)
    missing = np.add.reduceat((~known).astype(np.int64), starts)
    failing = np.add.reduceat((below | above).astype(np.int64), starts)
    distance = np.add.reduceat(gap, starts)
    rule = np.asarray(b.rule, dtype=np.int64)
    keep = (missing < np.diff(np.asarray(b.start, dtype=np.int64))) & ~np.isin(
        rule, np.fromiter(skip, dtype=np.int64, count=len(skip)))
    boxes = np.flatnonzero(keep)
    order = boxes[np.lexsort((boxes, distance[boxes], failing[boxes], missing[boxes],
                              rule[boxes]))]
    first = order[np.concatenate([[True], rule[order][1:] != rule[order][:-1]])] \
        if order.size else order
    ranked = first[np.lexsort((rule[first], distance[first], failing[first], missing[first]))]
    if limit is not None:
        ranked = ranked[:limit]
    out = []
    for box in ranked.tolist():
        comps = comparisons(bundle, box, x)
        out.append(Boundary(
            int(rule[box]), box, tuple(c for c in comps if c.holds),
            tuple(c for c in comps if c.known and not c.holds),
            tuple(c for c in comps if not c.known), float(distance[box])))
    return out


def _scales(bundle: Bundle) -> np.ndarray:
    """Per parameter, what a gap is measured against: its valid range, else its bounds."""
    b = bundle.boxes
    out = []
    for i, p in enumerate(bundle.parameters):
        width = p.range_hi - p.range_lo
        if math.isfinite(width) and width > 0:
            out.append(width)
            continue
        mask = b.axis == i
        bounds = np.concatenate([b.lo[mask], b.hi[mask]])
        finite = np.abs(bounds[np.isfinite(bounds)])
        out.append(max(float(finite.max()) if finite.size else 1.0, 1.0))
    return np.asarray(out, dtype=np.float64)
