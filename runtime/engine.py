"""The onboard engine: sensor states in, fired rules and advisories out.

`evaluate(state)` answers for one state (durations never fire there);
`step(t, state)` follows a stream and reports raise/clear events, measuring
durations from the first sample where a condition held and clearing with the
per-parameter deadband.  Invalid values (NaN, infinite, outside the manifest
range, stale) never satisfy a condition: they become sensor faults instead.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rulec.runtime.advisory import describe_box, render_advisory
from rulec.runtime.box_index import BoxIndex
from rulec.runtime.bundle import Bundle, load_bundle
from rulec.runtime.errors import StateError
from rulec.runtime.related import RelatedRules

PATHS = ("geometry", "logic", "graph")


@dataclass(frozen=True)
class SensorFault:
    parameter: str
    value: float | None
    reason: str  # "not a number", "infinite", "below range", "above range", "stale"

    def to_json(self) -> dict[str, Any]:
        value = None if self.value is None or not math.isfinite(self.value) else self.value
        return {"parameter": self.parameter, "reason": self.reason, "value": value}


@dataclass
class FiredRule:
    id: str
    severity: str
    advisory: str
    source: dict[str, Any]
    evidence: dict[str, Any] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "severity": self.severity,
            "advisory": self.advisory,
            "source": self.source,
            "evidence": self.evidence,
        }
        if self.related:
            out["related"] = self.related
        return out


@dataclass
class Evaluation:
    rules: list[FiredRule]
    sensor_faults: list[SensorFault]
    latency_us: float

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": [r.to_json() for r in self.rules],
            "sensor_faults": [f.to_json() for f in self.sensor_faults],
            "latency_us": round(self.latency_us, 3),
        }


@dataclass(frozen=True)
class Event:
    t: float
    event: str  # "raise" | "clear" | "fault" | "fault_clear"
    rule: str | None
    severity: str | None
    advisory: str
    source: dict[str, Any] | None
    values: dict[str, float | None]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t, "event": self.event}
        if self.rule is not None:
            out["rule"] = self.rule
            out["severity"] = self.severity
        out["advisory"] = self.advisory
        if self.source is not None:
            out["source"] = self.source
        out["values"] = {
            k: (v if v is None or math.isfinite(v) else None) for k, v in self.values.items()
        }
        return out


_SEVERITY_ORDER = {"warning": 0, "caution": 1, "advisory": 2}


class Engine:
    """Evaluates states against one validated bundle."""

    def __init__(self, bundle: Bundle, paths: Iterable[str] = PATHS) -> None:
        self.bundle = bundle
        self.paths = frozenset(paths)
        unknown = self.paths - set(PATHS)
        if unknown:
            raise ValueError(f"unknown path(s): {', '.join(sorted(unknown))}")
        params = bundle.parameters
        self.n_params = len(params)
        self._lo = np.array([p.range_lo for p in params], dtype=np.float64)
        self._hi = np.array([p.range_hi for p in params], dtype=np.float64)
        span = np.where(np.isfinite(self._hi - self._lo), self._hi - self._lo, 1.0)
        b = bundle.boxes
        self._index = BoxIndex(self.n_params, b.start, b.axis, b.lo, b.hi, b.flags, span)
        self._hold_index = self._deadband_index(span)
        self._box_rule = np.asarray(b.rule)
        self._related = RelatedRules(bundle)
        # stream state
        self._last_value = np.full(self.n_params, np.nan)
        self._last_time = np.full(self.n_params, -np.inf)
        self._raised: dict[int, float] = {}
        self._since: dict[int, float] = {}
        self._faults: dict[str, str] = {}

    @classmethod
    def from_file(cls, path: str, paths: Iterable[str] = PATHS) -> Engine:
        return cls(load_bundle(path), paths)

    # ------------------------------------------------------------ state handling

    def state_vector(self, state: Mapping[str, Any]) -> tuple[np.ndarray, list[SensorFault]]:
        """Dense values (NaN where absent or invalid) and the faults of invalid values."""
        x = np.full(self.n_params, np.nan)
        faults: list[SensorFault] = []
        for name, raw in state.items():
            index = self._param(name)
            value = _number(name, raw)
            reason = self._invalid(index, value)
            if reason:
                faults.append(SensorFault(self.bundle.parameters[index].name, value, reason))
            else:
                x[index] = value
        return x, faults

    def knows(self, name: str) -> bool:
        """Whether a name (or alias) is one of the bundle's parameters."""
        try:
            self._param(name)
        except StateError:
            return False
        return True

    def _param(self, name: str) -> int:
        index = self.bundle.param_index.get(name)
        if index is None:
            index = self.bundle.alias_index.get(" ".join(name.lower().replace("_", " ").split()))
        if index is None:
            known = ", ".join(p.name for p in self.bundle.parameters) or "none"
            raise StateError(f"unknown parameter {name!r} (known: {known})")
        return index

    def _invalid(self, index: int, value: float) -> str:
        if math.isnan(value):
            return "not a number"
        if math.isinf(value):
            return "infinite"
        if value < self._lo[index]:
            return "below range"
        if value > self._hi[index]:
            return "above range"
        return ""

    # ------------------------------------------------------------ one state

    def evaluate(self, state: Mapping[str, Any]) -> Evaluation:
        """The rules that apply to this state (stateless: durations do not fire)."""
        started = time.perf_counter()
        x, faults = self.state_vector(state)
        fired = self._fire(x, self._index.match(x), stateless=True)
        latency = (time.perf_counter() - started) * 1e6
        return Evaluation(fired, faults, latency)

    def _fire(self, x: np.ndarray, boxes: np.ndarray, stateless: bool) -> list[FiredRule]:
        by_rule: dict[int, list[int]] = {}
        for box in boxes.tolist():
            by_rule.setdefault(int(self._box_rule[box]), []).append(box)
        out = []
        for rule_index in sorted(
            by_rule, key=lambda r: (_SEVERITY_ORDER[self.bundle.rules[r].severity], r)
        ):
            spec = self.bundle.rules[rule_index]
            if stateless and spec.duration_s is not None:
                continue
            out.append(self._fired(rule_index, x, by_rule[rule_index]))
        return out

    def _fired(self, rule_index: int, x: np.ndarray, boxes: list[int]) -> FiredRule:
        spec = self.bundle.rules[rule_index]
        words = describe_box(self.bundle, boxes[0], x)
        evidence: dict[str, Any] = {
            "geometry": [describe_box(self.bundle, b, x, symbolic=True) for b in boxes]
        }
        related: list[str] = []
        if "graph" in self.paths:
            related = self._related.of(rule_index)
        return FiredRule(
            spec.id,
            spec.severity,
            render_advisory(self.bundle, spec, words, x),
            spec.source,
            evidence,
            related,
        )

    # ------------------------------------------------------------ streams

    def step(self, t: float, state: Mapping[str, Any]) -> list[Event]:
        """Advance the stream to time t with new samples; return raise/clear/fault events."""
        events: list[Event] = []
        for name, raw in state.items():
            index = self._param(name)
            self._last_value[index] = _number(name, raw)
            self._last_time[index] = t
        x = self._last_value.copy()
        faults_now: dict[str, str] = {}
        for i, spec in enumerate(self.bundle.parameters):
            if not math.isfinite(self._last_time[i]):
                continue
            reason = self._invalid(i, float(x[i]))
            if (
                not reason
                and spec.max_age_s is not None
                and t - self._last_time[i] > spec.max_age_s
            ):
                reason = "stale"
            if reason:
                faults_now[spec.name] = reason
                x[i] = np.nan
        events.extend(self._fault_events(t, faults_now))
        strict = self._rules_of(self._index.match(x))
        hold = self._rules_of(self._hold_index.match(x)) if self._hold_index else strict
        for rule_index in sorted(set(strict) | set(self._raised) | set(self._since)):
            spec = self.bundle.rules[rule_index]
            if rule_index in self._raised:
                if rule_index not in hold:
                    del self._raised[rule_index]
                    self._since.pop(rule_index, None)
                    events.append(self._event(t, "clear", rule_index, x, None))
                continue
            if rule_index not in strict:
                self._since.pop(rule_index, None)
                continue
            since = self._since.setdefault(rule_index, t)
            held = t - since
            due = (
                spec.duration_s is None
                or held > spec.duration_s
                or (spec.duration_inclusive and held >= spec.duration_s)
            )
            if due:
                self._raised[rule_index] = t
                events.append(self._event(t, "raise", rule_index, x, strict[rule_index]))
        return events

    def active(self) -> list[str]:
        """Ids of the rules raised now, most severe first."""
        order = sorted(
            self._raised, key=lambda r: (_SEVERITY_ORDER[self.bundle.rules[r].severity], r)
        )
        return [self.bundle.rules[r].id for r in order]

    def reset(self) -> None:
        self._last_value[:] = np.nan
        self._last_time[:] = -np.inf
        self._raised.clear()
        self._since.clear()
        self._faults.clear()

    def _rules_of(self, boxes: np.ndarray) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for box in boxes.tolist():
            out.setdefault(int(self._box_rule[box]), []).append(box)
        return out

    def _event(
        self, t: float, kind: str, rule_index: int, x: np.ndarray, boxes: list[int] | None
    ) -> Event:
        spec = self.bundle.rules[rule_index]
        values = self._values_of(rule_index, x)
        if boxes:
            advisory = render_advisory(self.bundle, spec, describe_box(self.bundle, boxes[0], x), x)
        else:
            advisory = f"Cleared: {spec.action}"
        return Event(t, kind, spec.id, spec.severity, advisory, spec.source, values)

    def _values_of(self, rule_index: int, x: np.ndarray) -> dict[str, float | None]:
        b = self.bundle.boxes
        axes: set[int] = set()
        for box in np.nonzero(self._box_rule == rule_index)[0].tolist():
            axes.update(b.axis[b.start[box] : b.start[box + 1]].tolist())
        return {
            self.bundle.parameters[a].name: (None if math.isnan(x[a]) else float(x[a]))
            for a in sorted(axes)
        }

    def _fault_events(self, t: float, now: dict[str, str]) -> list[Event]:
        events = []
        for name, reason in now.items():
            if self._faults.get(name) != reason:
                value = self._last_value[self.bundle.param_index[name]]
                events.append(
                    Event(
                        t,
                        "fault",
                        None,
                        "caution",
                        f"Sensor fault: {name} {reason}",
                        None,
                        {name: float(value)},
                    )
                )
        for name in list(self._faults):
            if name not in now:
                events.append(
                    Event(t, "fault_clear", None, None, f"Sensor {name} valid again", None, {})
                )
        self._faults = dict(now)
        return events

    def _deadband_index(self, span: np.ndarray) -> BoxIndex | None:
        """Boxes widened by each parameter's deadband: a raised rule holds while inside."""
        dead = np.array([p.deadband for p in self.bundle.parameters], dtype=np.float64)
        if not np.any(dead > 0):
            return None
        b = self.bundle.boxes
        d = dead[np.asarray(b.axis)] if b.axis.size else np.zeros(0)
        lo = np.where(np.isfinite(b.lo) & (d > 0), b.lo - d, b.lo)
        hi = np.where(np.isfinite(b.hi) & (d > 0), b.hi + d, b.hi)
        flags = np.asarray(b.flags).copy()
        flags[(d > 0) & np.isfinite(b.lo)] |= 1
        flags[(d > 0) & np.isfinite(b.hi)] |= 2
        return BoxIndex(self.n_params, b.start, b.axis, lo, hi, flags, span)


def _number(name: str, raw: Any) -> float:
    if isinstance(raw, bool):
        raise StateError(f"value of {name!r} must be a number, not {raw!r}")
    if isinstance(raw, (int, float)):
        return float(raw)
    if not isinstance(raw, str):
        raise StateError(f"value of {name!r} must be a number, not {raw!r}")
    try:
        return float(raw.strip())
    except ValueError:
        raise StateError(f"value of {name!r} is not a number: {raw!r}") from None
