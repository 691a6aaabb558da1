"""Sensor validity matrix: every parameter of a real example bundle against every kind of
bad value, checked cell by cell against the documented result (docs/robustness.md).

Cells: valid, NaN, +Inf, -Inf, below range, above range, stale at max_age_s minus one
sample period, exactly max_age_s and plus one period, and missing.  For each parameter a
"hot" state is built from one of its rule's boxes (a state that fires that rule when
every value is valid); each cell then replaces the parameter's value.  The expected
rules come from a containment check written here from the bundle's boxes, independent
of the engine: an invalid or missing value satisfies no comparison (CONTRACTS.md, rule
semantics), so the cell must fire exactly what the hot state fires without the
parameter, and never a rule through the invalid value.  ``evaluate`` and ``step`` are
both checked; the matrix is printed (``pytest -s``) and returned by ``sensor_matrix``
for ``bench/fault_matrix.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "manuals"
PERIOD = 0.5  # one sample period of examples/scenarios/engine_test.csv (exact in binary)
CELLS = ("valid", "NaN", "+Inf", "-Inf", "below range", "above range",
         "age max-1", "age max", "age max+1", "missing")
REASONS = {"NaN": "not a number", "+Inf": "infinite", "-Inf": "infinite",
           "below range": "below range", "above range": "above range",
           "age max": "stale", "age max+1": "stale"}  # stale from its time + max_age_s


def compile_example(name: str) -> Bundle:
    return load_bundle(encode_bundle(build_payload(collect_rules([EXAMPLES / name]), name)))


# --------------------------------------------------------------------------- reference


def box_holds(bundle: Bundle, box: int, x: np.ndarray) -> bool:
    """Containment from the boxes alone: NaN (invalid or missing) satisfies nothing."""
    b = bundle.boxes
    for c in range(int(b.start[box]), int(b.start[box + 1])):
        v = float(x[int(b.axis[c])])
        lo, hi, flags = float(b.lo[c]), float(b.hi[c]), int(b.flags[c])
        if math.isnan(v):
            return False
        if not (v > lo or (flags & 1 and v == lo)):
            return False
        if not (v < hi or (flags & 2 and v == hi)):
            return False
    return True


def holding_rules(bundle: Bundle, x: np.ndarray) -> set[int]:
    return {int(bundle.boxes.rule[k]) for k in range(len(bundle.boxes.rule))
            if box_holds(bundle, k, x)}


def vector(bundle: Bundle, state: dict[str, float]) -> np.ndarray:
    x = np.full(len(bundle.parameters), np.nan)
    for name, value in state.items():
        i = bundle.param_index[name]
        p = bundle.parameters[i]
        if math.isfinite(value) and p.range_lo <= value <= p.range_hi:
            x[i] = value
    return x


def box_axes(bundle: Bundle, box: int) -> set[int]:
    b = bundle.boxes
    return {int(a) for a in b.axis[int(b.start[box]):int(b.start[box + 1])]}


def hot_state(bundle: Bundle, axis: int) -> dict[str, float] | None:
    """A valid state inside one box that constrains ``axis`` (untimed rules first)."""
    b = bundle.boxes
    params = bundle.parameters
    order = sorted(range(len(b.rule)),
                   key=lambda k: bundle.rules[int(b.rule[k])].duration_s is not None)
    for box in order:
        if axis not in box_axes(bundle, box):
            continue
        lo = {a: params[a].range_lo for a in box_axes(bundle, box)}
        hi = {a: params[a].range_hi for a in box_axes(bundle, box)}
        for c in range(int(b.start[box]), int(b.start[box + 1])):
            a = int(b.axis[c])
            lo[a] = max(lo[a], float(b.lo[c]))
            hi[a] = min(hi[a], float(b.hi[c]))
        state = {params[a].name: (lo[a] + hi[a]) / 2 for a in lo}
        if all(math.isfinite(v) for v in state.values()) and box_holds(
                bundle, box, vector(bundle, state)):
            return state
    return None


def cell_value(bundle: Bundle, axis: int, cell: str, hot: float) -> float:
    p = bundle.parameters[axis]
    lo, hi = p.range_lo, p.range_hi
    return {"NaN": math.nan, "+Inf": math.inf, "-Inf": -math.inf,
            "below range": lo - max(1.0, abs(lo)) if math.isfinite(lo) else -math.inf,
            "above range": hi + max(1.0, abs(hi)) if math.isfinite(hi) else math.inf,
            }.get(cell, hot)


# --------------------------------------------------------------------------- one cell


@dataclass
class Cell:
    """What the engine did in one cell, and what the documented semantics expect."""

    parameter: str
    cell: str
    value: float | None
    faults: list[str]  # evaluate(): the parameter's fault reason(s)
    fired: set[str]  # evaluate(): rule ids
    events: list[tuple[str, str | None]]  # step(): (event, rule or parameter) at the cell step
    active: set[str]  # step(): rules raised after the cell step
    expect_faults: list[str]
    expect_fired: set[str]
    expect_active: set[str]
    through_invalid: set[str]  # rules fired (or raised) although they need the parameter

    @property
    def ok(self) -> bool:
        fault_events = [w for e, w in self.events if e == "fault"]
        raised = [w for e, w in self.events if e == "raise"]
        invalid = bool(self.expect_faults) or self.cell == "missing"
        return (self.faults == self.expect_faults and self.fired == self.expect_fired
                and self.active == self.expect_active and not self.through_invalid
                and fault_events == ([self.parameter] if self.expect_faults else [])
                and not (invalid and set(raised) - self.expect_active))
        # (a rule on other data may raise again when that data is fresh again)

    def summary(self) -> str:
        if not self.ok:
            return "FAIL"
        fault = f"fault {self.expect_faults[0]}" if self.expect_faults else "no fault"
        if self.cell.startswith("age"):
            return f"{fault}, {len(self.active)} raised"
        return f"{fault}, fires {len(self.fired)}"


def stream_expectation(bundle: Bundle, x0: np.ndarray, x1: np.ndarray, t1: float) -> set[str]:
    """Rules raised after stepping x0 at 0 and x1 at t1 (no deadband re-entry involved)."""
    # a value sampled at 0 and stale before t1 (its max_age_s is shorter) breaks the
    # on-delay of every rule that uses it: the condition holds again only from t1
    expired = {i for i, p in enumerate(bundle.parameters)
               if p.max_age_s is not None and p.max_age_s < t1}
    held = {r for r in holding_rules(bundle, x0)
            if not any(expired & box_axes(bundle, k) for k in range(len(bundle.boxes.rule))
                       if int(bundle.boxes.rule[k]) == r)}
    out = set()
    for r in holding_rules(bundle, x1):
        spec = bundle.rules[r]
        if spec.duration_s is None:
            out.add(spec.id)
        elif r in held and (t1 > spec.duration_s
                            or (spec.duration_inclusive and t1 >= spec.duration_s)):
            out.add(spec.id)
    return out


def run_cell(bundle: Bundle, axis: int, cell: str, hot: dict[str, float]) -> Cell:
    p = bundle.parameters[axis]
    name = p.name
    value = cell_value(bundle, axis, cell, hot[name])
    aged = cell.startswith("age")
    rest = {k: v for k, v in hot.items() if k != name}
    stale = aged and p.max_age_s is not None and cell in ("age max", "age max+1")
    bad = cell == "missing" or (cell in REASONS and (not aged or stale))
    expect_faults = [REASONS[cell]] if cell in REASONS and (not aged or stale) else []
    # rules that can hold only through this parameter (every box of theirs needs it)
    boxes_of: dict[str, list[int]] = {}
    for k in range(len(bundle.boxes.rule)):
        boxes_of.setdefault(bundle.rules[int(bundle.boxes.rule[k])].id, []).append(k)
    only_through = {rid for rid, ks in boxes_of.items()
                    if all(axis in box_axes(bundle, k) for k in ks)}
    timed = {r for r, spec in enumerate(bundle.rules) if spec.duration_s is not None}
    # evaluate(): one state; stale cells have no clock there and are judged by step()
    fired: set[str] = set()
    expect_fired: set[str] = set()
    faults: list[str] = []
    if not aged:
        state = rest if cell == "missing" else {**hot, name: value}
        result = Engine(bundle).evaluate(state)
        fired = {r.id for r in result.rules}
        faults = [f.reason for f in result.sensor_faults if f.parameter == name]
        expect_fired = {bundle.rules[r].id
                        for r in holding_rules(bundle, vector(bundle, state)) - timed}
    # step(): the cell's sample arrives after a valid start (absent for missing / valid)
    s = Engine(bundle)
    if aged:
        max_age = p.max_age_s if p.max_age_s is not None else 2.0
        t1 = max_age + {"age max-1": -PERIOD, "age max": 0.0, "age max+1": PERIOD}[cell]
        start, x1 = hot, vector(bundle, rest if stale else hot)
        s.step(0.0, start)
        events = s.step(t1, rest)
        # another parameter with a shorter max_age_s may go stale before t1 and be fresh
        # again at t1: only this parameter's faults are this cell's
        faults = [ev.advisory.rsplit(" ", 1)[-1] for ev in events
                  if ev.event == "fault" and name in ev.values]
    else:
        t1 = PERIOD
        start = hot if cell in REASONS else rest
        s.step(0.0, start)
        events = s.step(t1, rest if cell == "missing" else {name: value})
        x1 = vector(bundle, rest if cell == "missing" else {**hot, name: value})
    active = set(s.active())
    return Cell(
        parameter=name, cell=cell, value=None if cell == "missing" else value,
        faults=faults, fired=fired,
        events=[(ev.event, ev.rule if ev.rule is not None else next(iter(ev.values), None))
                for ev in events if ev.event == "raise" or (
                    ev.event == "fault" and name in ev.values)],
        active=active, expect_faults=expect_faults, expect_fired=expect_fired,
        expect_active=stream_expectation(bundle, vector(bundle, start), x1, t1),
        through_invalid=(fired | active) & only_through if bad else set(),
    )


def sensor_matrix(bundle: Bundle) -> list[Cell]:
    """Every (parameter, cell) of the bundle; parameters no rule uses are skipped."""
    out = []
    for axis in range(len(bundle.parameters)):
        hot = hot_state(bundle, axis)
        if hot is None:
            continue
        out += [run_cell(bundle, axis, cell, hot) for cell in CELLS]
    return out


def format_matrix(cells: list[Cell]) -> str:
    """The matrix as a markdown table: one row per parameter, one column per cell."""
    rows: dict[str, dict[str, str]] = {}
    for c in cells:
        rows.setdefault(c.parameter, {})[c.cell] = c.summary()
    lines = ["| parameter | " + " | ".join(CELLS) + " |",
             "|---" * (len(CELLS) + 1) + "|"]
    for name, row in rows.items():
        lines.append(f"| {name} | " + " | ".join(row.get(c, "") for c in CELLS) + " |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def rocket() -> Bundle:
    return compile_example("rocket_engine")


def test_every_cell_of_the_rocket_engine_matrix_has_its_documented_result(
        rocket: Bundle) -> None:
    cells = sensor_matrix(rocket)
    print("\n" + format_matrix(cells))
    assert len(cells) == len(CELLS) * len(rocket.parameters), "every parameter has a row"
    failed = [c for c in cells if not c.ok]
    assert not failed, failed[:3]
    for c in cells:
        if c.cell == "valid":  # a valid hot value does fire its rule: the matrix has teeth
            assert c.fired and c.active, c
        if c.cell == "age max-1":  # younger than max_age_s: still valid
            assert not c.faults and c.active == c.expect_active
        if c.cell in REASONS or c.cell == "missing":
            assert not c.through_invalid, c


def test_a_parameter_without_max_age_never_goes_stale() -> None:
    bundle = compile_example("bank_loan")  # no max_age_s in its sensors.toml
    assert all(p.max_age_s is None for p in bundle.parameters)
    cells = [c for c in sensor_matrix(bundle) if c.cell.startswith("age")]
    assert cells and all(c.ok and not c.faults for c in cells)


def test_the_matrix_catches_an_engine_that_fires_on_invalid_data(rocket: Bundle) -> None:
    """The check is not vacuous: a cell is refused when a rule fires through the value."""
    axis = rocket.param_index["chamber_temperature"]
    hot = hot_state(rocket, axis)
    assert hot is not None
    cell = run_cell(rocket, axis, "above range", hot)
    assert cell.ok
    cell.fired = cell.fired | {next(iter(rocket.rules)).id}
    cell.through_invalid = {next(iter(rocket.rules)).id}
    assert not cell.ok
