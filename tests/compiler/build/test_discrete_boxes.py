"""Discrete parameters in the geometric index: a state is one point on its axis, "not in a
state" is one of the others, and the native kernel, numpy and a pure reading of the
condition agree exactly on boxes that mix states and numbers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulec.compiler.build.boxes import ThresholdConverter, boxes_of, to_float_bounds
from rulec.compiler.model.rules import All, AnyOf, Atom, Condition, Not
from rulec.runtime import backend
from rulec.runtime.engine.box_index import BoxIndex
from rulec.runtime.errors import UnitError

GEAR = ("retracted", "transit", "extended")
PHASE = ("taxi", "takeoff", "climb", "cruise")
PARAMS = ("gear", "phase", "speed")
CONV = ThresholdConverter({"gear": None, "phase": None, "speed": "kt"},
                          {"gear": GEAR, "phase": PHASE})


def holds(cond: Condition, point: dict[str, float]) -> bool:
    """The condition read directly: a state by its index, a number by its comparison."""
    if isinstance(cond, All):
        return all(holds(c, point) for c in cond.items)
    if isinstance(cond, AnyOf):
        return any(holds(c, point) for c in cond.items)
    if isinstance(cond, Not):
        return not holds(cond.item, point)
    value = point[cond.param]
    if cond.states:
        own = GEAR if cond.param == "gear" else PHASE
        return own[int(value)] in cond.states
    limit = float(cond.value) if not isinstance(cond.value, tuple) else 0.0
    return {">": value > limit, ">=": value >= limit, "<": value < limit,
            "<=": value <= limit, "==": value == limit}[cond.op]


def index_of(cond: Condition, name: str | None) -> BoxIndex:
    start, axis, lo, hi, flags = [0], [], [], [], []
    for box in boxes_of(cond, CONV):
        for param, iv in box.bounds:
            low, high, f = to_float_bounds(iv)
            axis.append(PARAMS.index(param))
            lo.append(low)
            hi.append(high)
            flags.append(f)
        start.append(len(axis))
    return BoxIndex(3, start, axis, lo, hi, flags, backend=name)


def state_atoms() -> st.SearchStrategy[Condition]:
    gear = st.sets(st.sampled_from(GEAR), min_size=1, max_size=2).map(
        lambda s: Atom.in_states("gear", tuple(sorted(s))))
    phase = st.sets(st.sampled_from(PHASE), min_size=1, max_size=3).map(
        lambda s: Atom.in_states("phase", tuple(sorted(s))))
    speed = st.tuples(st.sampled_from([">", ">=", "<", "<=", "=="]),
                      st.integers(0, 300)).map(
        lambda t: Atom("speed", t[0], Decimal(t[1]), "kt"))
    return st.one_of(gear, phase, speed)


conditions = st.recursive(
    state_atoms(),
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: All(tuple(xs))),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: AnyOf(tuple(xs))),
        inner.map(Not)),
    max_leaves=5)

points = st.fixed_dictionaries({
    "gear": st.integers(0, 2).map(float), "phase": st.integers(0, 3).map(float),
    "speed": st.sampled_from([0.0, 99.0, 100.0, 101.0, 140.0, 299.0, 300.0])})


@settings(max_examples=150, deadline=None)
@given(conditions, st.lists(points, min_size=1, max_size=6))
def test_native_numpy_and_the_condition_agree(cond: Condition, pts: list[dict[str, float]]
                                              ) -> None:
    backends = ["numpy"] + (["native"] if backend.load_native() is not None else [])
    for name in backends:
        idx = index_of(cond, name)
        for p in pts:
            x = np.array([p[k] for k in PARAMS])
            assert bool(len(idx.match(x))) == holds(cond, p), (name, cond, p)


def test_a_state_is_a_point_and_its_negation_the_other_states() -> None:
    extended = Atom.in_states("gear", ("extended",))
    assert CONV.intervals(extended)[0].lo == Fraction(2)
    (box_a, box_b) = boxes_of(Not(extended), CONV)
    assert [iv.lo for _, iv in box_a.bounds + box_b.bounds] == [0, 1]


def test_no_value_between_two_indexes_satisfies_a_state_or_its_negation() -> None:
    for cond in (Atom.in_states("gear", ("extended",)), Not(Atom.in_states("gear", ("extended",)))):
        idx = index_of(cond, "numpy")
        assert not len(idx.match(np.array([1.5, 0.0, 0.0])))
        assert not len(idx.match(np.array([np.nan, 0.0, 0.0])))


@pytest.mark.parametrize(("atom", "message"), [
    (Atom.in_states("gear", ("down",)), "gear has no state 'down'"),
    (Atom("gear", ">", Decimal(1)), "gear is discrete"),
    (Atom.in_states("speed", ("high",)), "speed has no states"),
])
def test_a_state_comparison_the_manifest_cannot_read_is_refused(atom: Atom, message: str
                                                                 ) -> None:
    with pytest.raises(UnitError, match=message):
        boxes_of(atom, CONV)
