"""A bundle swap: the stream state of the serving engine carried into a new one.

The daemon calls ``adopt`` between two samples on a hot reload, and ``rulec replay
--reload-at`` calls it at the same point of a recorded run, so that replay predicts what
the vehicle does across a reload too.  What crosses and why: runtime/daemon/reload.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulec.runtime.engine.engine import Engine, Event


@dataclass
class Adoption:
    """What a swap carried over, dropped and announced."""

    events: list[Event] = field(default_factory=list)
    kept_values: list[str] = field(default_factory=list)
    dropped_values: list[str] = field(default_factory=list)
    kept_raised: list[str] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    kept_timers: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "kept_values": self.kept_values,
            "dropped_values": self.dropped_values,
            "kept_raised": self.kept_raised,
            "withdrawn": self.withdrawn,
            "kept_timers": self.kept_timers,
        }


def adopt(old: Engine, new: Engine, t: float | None) -> Adoption:
    """Carry the stream state of ``old`` into the fresh ``new`` (see the module docstring).

    ``t`` is the time of the last sample (None before the first one).  Returns the
    events the swap causes: clears of withdrawn rules, then what the new rules say about
    the carried values.  This reads and writes the engines' stream state
    (``Engine.stream``); it is the only place outside ``runtime/engine/stream.py`` that does.
    """
    out = Adoption()
    old_b, new_b = old.bundle, new.bundle
    old_s, new_s = old.stream, new.stream
    carried: set[str] = set()
    for j, param in enumerate(new_b.parameters):
        i = old_b.param_index.get(param.name)
        if i is None or not old_s.last_time[i] > -float("inf"):
            continue
        if old_b.parameters[i].unit != param.unit or old_b.parameters[i].states != param.states:
            # another unit, or states in another order: the number means something else
            out.dropped_values.append(param.name)
            continue
        new_s.last_value[j] = old_s.last_value[i]
        new_s.last_time[j] = old_s.last_time[i]
        carried.add(param.name)
        out.kept_values.append(param.name)
    new_s.faults = {name: why for name, why in old_s.faults.items() if name in carried}
    for j, param in enumerate(new_b.parameters):  # a time in state of a carried parameter
        i = old_b.param_index.get(param.name)
        if param.time_in_state_of in carried and i is not None and (
                old_b.parameters[i].time_in_state_of == param.time_in_state_of):
            if i in old_s.dwell_state:
                new_s.dwell_state[j] = old_s.dwell_state[i]
            if i in old_s.entered:
                new_s.entered[j] = old_s.entered[i]
    new_s.t = old_s.t

    when = 0.0 if t is None else t
    for r in sorted(old_s.raised):
        rule = old_b.rules[r]
        k = new_b.rule_index.get(rule.id)
        if k is None:
            out.withdrawn.append(rule.id)
            out.events.append(
                Event(
                    when,
                    "clear",
                    rule.id,
                    rule.severity,
                    f"Cleared: rule withdrawn by bundle reload ({rule.action})",
                    rule.source,
                    {},
                )
            )
            continue
        new_s.raised[k] = old_s.raised[r]
        if r in old_s.acked:  # an acknowledged latch stays acknowledged
            new_s.acked.add(k)
        if r in old_s.false_since:  # an off-delay already running keeps running
            new_s.false_since[k] = old_s.false_since[r]
        out.kept_raised.append(rule.id)
    for r, since in old_s.since.items():
        rule = old_b.rules[r]
        k = new_b.rule_index.get(rule.id)
        if k is None:
            continue
        spec = new_b.rules[k]
        same = (
            spec.condition_text == rule.condition_text
            and spec.duration_s == rule.duration_s
            and spec.duration_inclusive == rule.duration_inclusive
        )
        if same:
            new_s.since[k] = since
            if rule.duration_s is not None and k not in new_s.raised:
                out.kept_timers.append(rule.id)
    if t is not None:
        out.events.extend(new.step(t, {}))
    return out
