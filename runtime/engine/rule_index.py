"""The rules behind a bundle's boxes: parameter lookup, value validity, and which rules a
point's boxes belong to.

The engine's one-state queries and its stream both need these; they share this one piece
through its public methods, so that neither reaches into the other.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from rulec.runtime.backend import BackendName
from rulec.runtime.bundle.loader import Bundle
from rulec.runtime.engine.box_index import BoxIndex
from rulec.runtime.errors import StateError


def to_number(name: str, raw: Any, states: tuple[str, ...] = ()) -> float:
    """A number given as a number or its text; `states`: what else a discrete parameter
    takes, named in the error."""
    what = f"a state ({', '.join(states)}) or a number" if states else "a number"
    if isinstance(raw, bool):
        raise StateError(f"value of {name!r} must be {what}, not {raw!r}")
    if isinstance(raw, (int, float)):
        return float(raw)
    if not isinstance(raw, str):
        raise StateError(f"value of {name!r} must be {what}, not {raw!r}")
    try:
        return float(raw.strip())
    except ValueError:
        if states:
            raise StateError(f"value of {name!r} is not one of its states "
                             f"({', '.join(states)}): {raw!r}") from None
        raise StateError(f"value of {name!r} is not a number: {raw!r}") from None


class RuleIndex:
    """One bundle's boxes, indexed, with the maps from boxes to rules and back."""

    def __init__(self, bundle: Bundle, *, backend: BackendName | None = None) -> None:
        self.bundle = bundle
        params = bundle.parameters
        self.n_params = len(params)
        self._lo = np.array([p.range_lo for p in params], dtype=np.float64)
        self._hi = np.array([p.range_hi for p in params], dtype=np.float64)
        self._discrete = frozenset(i for i, p in enumerate(params) if p.states)
        self.span = np.where(np.isfinite(self._hi - self._lo), self._hi - self._lo, 1.0)
        b = bundle.boxes
        self.boxes = BoxIndex(self.n_params, b.start, b.axis, b.lo, b.hi, b.flags, self.span,
                              backend=backend)
        self.backend: BackendName = self.boxes.backend
        self._box_rule: list[int] = np.asarray(b.rule).tolist()
        self._rule_boxes: dict[int, list[int]] = {}
        self._rule_axes: dict[int, frozenset[int]] = {}
        for box, rule in enumerate(self._box_rule):
            self._rule_boxes.setdefault(rule, []).append(box)
            axes = b.axis[b.start[box]:b.start[box + 1]].tolist()
            self._rule_axes[rule] = self._rule_axes.get(rule, frozenset()) | frozenset(axes)

    def param(self, name: str) -> int:
        """The index of a parameter named by its name or one of its aliases."""
        index = self.bundle.param_index.get(name)
        if index is None:
            index = self.bundle.alias_index.get(" ".join(name.lower().replace("_", " ").split()))
        if index is None:
            known = ", ".join(p.name for p in self.bundle.parameters) or "none"
            raise StateError(f"unknown parameter {name!r} (known: {known})")
        of = self.bundle.parameters[index].time_in_state_of
        if of is not None:
            raise StateError(f"{name} is how long {of} has been in its state: the engine "
                             f"derives it from {of}'s samples, it is not given")
        return index

    def value(self, index: int, name: str, raw: Any) -> float:
        """A value as given (a number, its text, or for a discrete parameter a state name
        or index) as the number the boxes compare: a discrete parameter's is the index."""
        spec = self.bundle.parameters[index]
        if spec.states and isinstance(raw, str):
            found = spec.state_index(raw)
            if found is not None:
                return float(found)
        return to_number(name, raw, spec.states)  # an index it lacks: a fault (`invalid`)

    def invalid(self, index: int, value: float) -> str:
        """Why a value cannot be believed ("not a number", "below range", ...), or ""."""
        if math.isnan(value):
            return "not a number"
        if math.isinf(value):
            return "infinite"
        if value < self._lo[index]:
            return "below range"
        if value > self._hi[index]:
            return "above range"
        if index in self._discrete and value != math.floor(value):
            return "not a state"
        return ""

    def rule_axes(self, rule: int) -> frozenset[int]:
        """The parameters a rule's boxes constrain (indexes)."""
        return self._rule_axes.get(rule, frozenset())

    def axes_by_rule(self) -> Mapping[int, frozenset[int]]:
        """Every rule that has boxes, with the parameters they constrain."""
        return self._rule_axes

    def boxes_of(self, rule: int) -> list[int]:
        """The boxes of one rule, in bundle order."""
        return self._rule_boxes.get(rule, [])

    def rules_of(self, boxes: np.ndarray) -> dict[int, list[int]]:
        """Matched boxes grouped by the rule they belong to."""
        out: dict[int, list[int]] = {}
        box_rule = self._box_rule
        for box in boxes.tolist():
            out.setdefault(box_rule[box], []).append(box)
        return out

    def match(self, x: np.ndarray) -> dict[int, list[int]]:
        """The rules whose boxes contain the point, with those boxes."""
        return self.rules_of(self.boxes.match(x))

    def deadband_index(self) -> BoxIndex | None:
        """Boxes widened by each parameter's deadband (a raised rule holds while inside),
        or None when no parameter has one."""
        bundle = self.bundle
        dead = np.array([p.deadband for p in bundle.parameters], dtype=np.float64)
        if not np.any(dead > 0):
            return None
        b = bundle.boxes
        d = dead[np.asarray(b.axis)] if b.axis.size else np.zeros(0)
        lo = np.where(np.isfinite(b.lo) & (d > 0), b.lo - d, b.lo)
        hi = np.where(np.isfinite(b.hi) & (d > 0), b.hi + d, b.hi)
        flags = np.asarray(b.flags).copy()
        flags[(d > 0) & np.isfinite(b.lo)] |= 1
        flags[(d > 0) & np.isfinite(b.hi)] |= 2
        return BoxIndex(self.n_params, b.start, b.axis, lo, hi, flags, self.span,
                        backend=self.backend)
