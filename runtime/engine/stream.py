"""The event stream: timed samples in, raise / clear / fault events out.

`EventStream.step(t, state)` follows a stream over one engine's indexes: on-delay (a
rule's ``for more than T``, measured from the first sample where the condition held),
off-delay (``clear_delay_s``: clears once the condition has been false that long),
per-parameter deadband hysteresis, latching until `acknowledge(rule_id)` (``latch``),
and sensor validity (NaN, infinite, outside the manifest range, stale) as fault events:
invalid data never satisfies a condition, and a raised rule whose data turns invalid
clears at once (unless latched).

This is the daemon's per-frame path, so what a raise or clear must carry on the wire
(rule, severity, values) is built at once, and its human text (the advisory with live
values in words) only when someone reads ``Event.advisory``: the daemon writes the
ADVISORY frame first and the JSON line after.
"""

from __future__ import annotations

import math
import sys
from array import array
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from rulec.runtime.bundle.loader import Bundle, RuleSpec
from rulec.runtime.engine.advisory import describe_box, render_advisory
from rulec.runtime.engine.box_index import BoxIndex
from rulec.runtime.engine.related import GraphPath
from rulec.runtime.engine.rule_index import RuleIndex
from rulec.runtime.errors import StateError
from rulec.runtime.vocabulary import FAULT_SEVERITY, FaultReason


class Event:
    """One raise, clear, fault or fault_clear, with the values behind it.

    ``advisory`` may be given as text or as a function that writes it; it is written
    once, on first read.
    """

    __slots__ = ("t", "event", "rule", "severity", "_advisory", "source", "values",
                 "procedures", "reason")

    def __init__(self, t: float, event: str, rule: str | None, severity: str | None,
                 advisory: str | Callable[[], str], source: dict[str, Any] | None,
                 values: dict[str, float | None], procedures: tuple[str, ...] = (),
                 reason: FaultReason | None = None) -> None:
        self.t = t
        self.event = event  # "raise" | "clear" | "fault" | "fault_clear"
        self.rule = rule
        self.severity = severity
        self._advisory = advisory
        self.source = source
        self.values = values
        self.procedures = procedures  # checklists a raised rule starts (graph path)
        self.reason = reason  # a fault event's reason, as a code (its words end the advisory)

    @property
    def advisory(self) -> str:
        text = self._advisory
        if not isinstance(text, str):
            text = self._advisory = text()
        return text

    def _key(self) -> tuple[Any, ...]:
        return (self.t, self.event, self.rule, self.severity, self.advisory, self.source,
                self.values, self.procedures, self.reason)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # values is a dict: events are not keys

    def __repr__(self) -> str:
        return (f"Event(t={self.t!r}, event={self.event!r}, rule={self.rule!r}, "
                f"severity={self.severity!r}, advisory={self.advisory!r}, "
                f"values={self.values!r}, procedures={self.procedures!r})")

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
        if self.procedures:
            out["procedures"] = list(self.procedures)
        return out


class EventStream:
    """The stream state of one engine: last values and their times, raised rules, timers.

    It reads the engine's indexes and never changes them: ``rules`` (parameters, validity,
    boxes to rules), ``fired_now`` (the rules whose condition holds at a point, by the
    engine's enabled paths) and ``graph`` (procedures a rule starts; None when the graph
    path is off).
    """

    def __init__(self, bundle: Bundle, rules: RuleIndex,
                 fired_now: Callable[[np.ndarray], dict[int, list[int]]],
                 graph: GraphPath | None) -> None:
        self._rules = rules
        self._fired_now = fired_now
        self._graph = graph
        self.bundle = bundle
        self.n_params = n = rules.n_params
        # Validity runs on plain floats: for a handful of parameters a Python loop beats
        # numpy scalar indexing and vector calls.  Infinite range ends are clamped to the
        # largest double so that +-inf still fails them.
        big = sys.float_info.max
        self._valid_lo = [max(p.range_lo, -big) for p in bundle.parameters]
        # a discrete parameter's value is valid only as a whole index of one of its states
        self._discrete = frozenset(i for i, p in enumerate(bundle.parameters) if p.states)
        self._valid_hi = [min(p.range_hi, big) for p in bundle.parameters]
        self._max_age = [math.inf if p.max_age_s is None else float(p.max_age_s)
                         for p in bundle.parameters]
        # the parameters that can go stale (a finite max_age_s)
        self._ages = tuple(i for i, a in enumerate(self._max_age) if a != math.inf)
        self._hold_index = rules.deadband_index()
        self._rule_names: dict[int, tuple[tuple[int, str], ...]] = {}  # filled on first use
        self._rule_procedures: dict[int, tuple[str, ...]] = {}
        self.t: float | None = None
        # arrays of doubles: the daemon's fast lane (runtime/daemon/lane.py) shares them with C
        self.last_value = array("d", [math.nan] * n)
        self.last_time = array("d", [-math.inf] * n)  # -inf: never seen
        self.raised: dict[int, float] = {}  # rule -> time it was raised
        self.since: dict[int, float] = {}  # rule -> first time its condition held
        self.false_since: dict[int, float] = {}  # raised rule -> first time it stopped holding
        self.acked: set[int] = set()
        self.faults: dict[str, str] = {}  # parameter -> why its value is invalid now
        self._invalid_rules: set[int] = set()
        # Times in state: (derived axis, its discrete parameter).  ``dwell_state`` is the
        # state the parameter was in at the last judgement (absent: not valid then), and
        # ``entered`` when it was seen to enter it (absent: not seen, so not known).
        self._dwell = tuple((j, bundle.param_index[p.time_in_state_of])
                            for j, p in enumerate(bundle.parameters) if p.time_in_state_of)
        self._derived = frozenset(j for j, _ in self._dwell)
        self.dwell_state: dict[int, float] = {}
        self.entered: dict[int, float] = {}

    def step(self, t: float, state: Mapping[str, Any]) -> list[Event]:
        """A sample at time t (its new values, maybe none); return raise/clear/fault events.

        A value that went stale since the last step is reported at the instant it did
        (its own time plus ``max_age_s``), with the clears that follow from it, before
        the sample itself is judged: every path gives the same events for the same
        samples (the contract's "Time")."""
        index_of = self.bundle.param_index
        param, value = self._rules.param, self._rules.value
        updates: list[tuple[int, float]] = []
        for name, raw in state.items():
            index = index_of.get(name)
            if index is None:
                index = param(name)
            if self._derived and index in self._derived:
                param(name)  # refused: derived, never given
            updates.append((index, raw if type(raw) is float else value(index, name, raw)))
        events = self._expire_until(t, strictly_before=True) if self._ages else []
        last_value, last_time = self.last_value, self.last_time
        for index, v in updates:
            last_value[index] = v
            last_time[index] = t
        events.extend(self._advance(t))
        return events

    def tick(self, t: float) -> list[Event]:
        """Time passes with no sample (the daemon's silence clock): values that went stale
        by t are reported at their instants, and the rules that used them clear; nothing
        is raised and no timer is judged, since durations are judged at samples."""
        events = self._expire_until(t, strictly_before=False) if self._ages else []
        if self.t is None or t > self.t:
            self.t = t
        return events

    def _expire_until(self, t: float, strictly_before: bool) -> list[Event]:
        """Step through the instants in (last step, t) (``strictly_before``) or up to t at
        which a valid value goes stale, each as a step with no sample."""
        events: list[Event] = []
        while True:
            due = self._next_expiry()
            if due is None or due > t or (strictly_before and due >= t):
                return events
            events.extend(self._advance(due, sample=False))

    def _next_expiry(self) -> float | None:
        """The earliest instant after the last step at which a value now valid goes stale."""
        now = self.t
        found: float | None = None
        faults = self.faults
        params = self.bundle.parameters
        for i in self._ages:
            seen = self.last_time[i]
            if seen == -math.inf:
                continue
            due = seen + self._max_age[i]
            if (now is None or due > now) and (found is None or due < found) and (
                    params[i].name not in faults):
                found = due
        return found

    def _advance(self, t: float, sample: bool = True) -> list[Event]:
        """Judge the state at t.  ``sample``: t is a sample's time (rules may raise and
        timers are judged); otherwise only what invalid data ends is done."""
        self.t = t
        index, rules = self._rules, self.bundle.rules
        values = self.last_value
        faults_now: dict[str, str] = {}
        faulted: set[int] = set()
        discrete = self._discrete
        for i, (v, seen, lo, hi, age) in enumerate(zip(
                values, self.last_time, self._valid_lo, self._valid_hi, self._max_age,
                strict=True)):
            if seen == -math.inf or (lo <= v <= hi and t - seen < age and (
                    not discrete or i not in discrete or v == math.floor(v))):
                continue  # never seen (absent), or valid and fresh: NaN fails `lo <= v`;
                # a numeric-only bundle never looks a parameter up in `discrete`
            faults_now[self.bundle.parameters[i].name] = index.invalid(i, v) or "stale"
            faulted.add(i)
        x = np.array(values)
        if faulted:
            x[list(faulted)] = np.nan
        if self._dwell:
            self._time_in_state(t, x, faulted)
        events = self._fault_events(t, faults_now) if faults_now or self.faults else []
        strict = self._fired_now(x)
        if not strict and not self.raised and not self.since:
            self._invalid_rules = set()
            return events
        hold = index.rules_of(self._hold_index.match(x)) if self._hold_index else strict
        axes_of = index.axes_by_rule()
        self._invalid_rules = (
            {r for r, axes in axes_of.items() if axes & faulted} if faulted else set())
        raised, since = self.raised, self.since
        for r in sorted(set(strict) | set(raised) | set(since)):
            if r in raised:
                if r in hold:
                    self.false_since.pop(r, None)
                    continue
                self.false_since.setdefault(r, t)
                if (sample or r in self._invalid_rules) and self._may_clear(r, t):
                    events.append(self._clear(t, r, x))
                continue
            if r not in strict:
                since.pop(r, None)
                continue
            if not sample:
                continue  # durations are judged at samples
            spec = rules[r]
            held = t - since.setdefault(r, t)
            due = (
                spec.duration_s is None
                or held > spec.duration_s
                or (spec.duration_inclusive and held >= spec.duration_s)
            )
            if due and spec.inhibit and inhibited(spec, x):
                continue  # held in an inhibiting phase: raised when the phase ends, if
                # the condition still holds then (its start time is kept)
            if due:
                raised[r] = t
                self.acked.discard(r)
                self.false_since.pop(r, None)
                events.append(self._raise(t, r, x, strict[r]))
        return events

    def _time_in_state(self, t: float, x: np.ndarray, faulted: set[int]) -> None:
        """How long each dwelt-on parameter has been in its state, into its derived axis:
        known only from a change of state seen between two valid samples; unknown (NaN:
        no comparison holds, nor its negation) before one, and again after any invalid
        or missing value, since the state may have changed unseen."""
        for j, i in self._dwell:
            if self.last_time[i] == -math.inf or i in faulted:
                self.dwell_state.pop(j, None)
                self.entered.pop(j, None)
                x[j] = math.nan
                continue
            state = self.last_value[i]
            before = self.dwell_state.get(j)
            if before is not None and before != state:
                self.entered[j] = t
            self.dwell_state[j] = state
            entered = self.entered.get(j)
            x[j] = math.nan if entered is None else t - entered

    @property
    def hold_index(self) -> BoxIndex | None:
        """The deadband-widened boxes a raised rule holds in (None: no deadband)."""
        return self._hold_index

    def raise_now(self, t: float, r: int, x: np.ndarray, boxes: list[int]) -> Event:
        """A raise decided by the daemon's fast lane: the state ``_advance`` leaves
        (the caller keeps ``t``, the time of the last sample, up to date)."""
        self.since.setdefault(r, t)
        self.raised[r] = t
        self.acked.discard(r)
        self.false_since.pop(r, None)
        return self._raise(t, r, x, boxes)

    def clear_now(self, t: float, r: int, x: np.ndarray) -> Event:
        """A clear decided by the daemon's fast lane."""
        return self._clear(t, r, x)

    def _may_clear(self, r: int, t: float) -> bool:
        """A raised rule whose condition stopped holding: latch, invalid data, off-delay."""
        spec = self.bundle.rules[r]
        if spec.latch and r not in self.acked:
            return False
        if r in self._invalid_rules or not spec.clear_delay_s:
            return True
        return t - self.false_since[r] >= spec.clear_delay_s

    def _clear(self, t: float, r: int, x: np.ndarray) -> Event:
        del self.raised[r]
        self.since.pop(r, None)
        self.false_since.pop(r, None)
        self.acked.discard(r)
        spec = self.bundle.rules[r]
        return Event(t, "clear", spec.id, spec.severity, f"Cleared: {spec.action}",
                     spec.source, self._values_of(r, x))

    def _raise(self, t: float, r: int, x: np.ndarray, boxes: list[int]) -> Event:
        spec = self.bundle.rules[r]
        bundle = self.bundle

        def text() -> str:
            words = describe_box(bundle, boxes[0], x) if boxes else spec.condition_text
            return render_advisory(bundle, spec, words, x)

        return Event(t, "raise", spec.id, spec.severity, text, spec.source,
                     self._values_of(r, x), self._procedures_of(r))

    def _procedures_of(self, r: int) -> tuple[str, ...]:
        if self._graph is None:
            return ()
        found = self._rule_procedures.get(r)
        if found is None:
            found = self._rule_procedures[r] = tuple(
                self._graph.procedures_started_by(r))
        return found

    def _values_of(self, r: int, x: np.ndarray) -> dict[str, float | None]:
        names = self._rule_names.get(r)
        if names is None:
            params = self.bundle.parameters
            names = self._rule_names[r] = tuple(
                (a, params[a].name) for a in sorted(self._rules.rule_axes(r)))
        values = x.tolist()
        return {name: (None if math.isnan(values[a]) else values[a]) for a, name in names}

    def _fault_events(self, t: float, now: dict[str, str]) -> list[Event]:
        events = []
        for name, reason in now.items():
            if self.faults.get(name) != reason:
                value = self.last_value[self.bundle.param_index[name]]
                events.append(Event(t, "fault", None, FAULT_SEVERITY,
                                    f"Sensor fault: {name} {reason}", None,
                                    {name: float(value)}, reason=FaultReason.of_words(reason)))
        for name in list(self.faults):
            if name not in now:
                events.append(
                    Event(t, "fault_clear", None, None, f"Sensor {name} valid again", None, {}))
        self.faults = dict(now)
        return events

    def acknowledge(self, rule_id: str, t: float | None = None) -> list[Event]:
        """Acknowledge a raised rule: a latched one whose condition has ended clears now
        (its clear event is returned); one whose condition still holds clears when it
        ends.  Acknowledging a rule that is not raised does nothing."""
        r = self.bundle.rule_index.get(rule_id)
        if r is None:
            raise StateError(f"unknown rule {rule_id!r}")
        if r not in self.raised:
            return []
        self.acked.add(r)
        now = self.t if t is None else t
        if now is None or r not in self.false_since or not self._may_clear(r, now):
            return []
        return [self._clear(now, r, np.array(self.last_value))]

    def active(self) -> list[int]:
        """The rules raised now (indexes into the bundle's rules)."""
        return list(self.raised)

    def awaiting_acknowledgement(self) -> list[int]:
        """Latched rules whose condition has ended: raised until acknowledged."""
        rules = self.bundle.rules
        return [r for r in self.raised
                if rules[r].latch and r not in self.acked and r in self.false_since]

    def reset(self) -> None:
        self.t = None
        self.last_value[:] = array("d", [math.nan] * self.n_params)
        self.last_time[:] = array("d", [-math.inf] * self.n_params)
        self.raised.clear()
        self.since.clear()
        self.false_since.clear()
        self.acked.clear()
        self._invalid_rules.clear()
        self.faults.clear()
        self.dwell_state.clear()
        self.entered.clear()


def inhibited(spec: RuleSpec, x: Any) -> bool:
    """Whether a rule's raise is held now: a phase that inhibits it holds (a phase value
    absent or invalid inhibits nothing)."""
    return any(float(x[axis]) in states for axis, states in spec.inhibit)  # NaN, 1.5: none
