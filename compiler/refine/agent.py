"""AGB-RL: Q-learning over a bundle's geometric boundaries, from labelled feedback.

Each rule is learned on its own (its decisions depend on its own bounds only).  A bound
sits on a lattice of small steps around the value it has in the bundle; an agent moves
one bound at a time, sees a discretised error signal near that bound (which side the
misclassified feedback rows lie on, and how far), and is rewarded by the change in the
rule's correct feedback rows less a small price for straying from the manual's value.
The best configuration the agent visits is kept, re-centred in the gap between
neighbouring feedback values, and committed only when it classifies strictly more
feedback rows correctly than the bundle did: a bound without evidence never moves.
docs/agb-rl.md gives states, actions, reward and hyperparameters.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_EVEN, Decimal
from functools import reduce
from itertools import count
from typing import Any

import numpy as np
import numpy.typing as npt

from rulec.compiler.model.rules import All, Atom, Condition, Not
from rulec.compiler.refine.config import RefineConfig
from rulec.compiler.refine.feedback import Feedback
from rulec.compiler.refine.model import Bound, BoundKey, BundleModel

Mask = npt.NDArray[np.bool_]
ACTIONS = (0, 1, -1, 2, -2, 4, -4, 8, -8, 16, -16)  # lattice steps; 0 = stay
N_SIGNALS = 8  # none, up (near/mid/far), down (near/mid/far), both ways


@dataclass(frozen=True)
class Evidence:
    """Feedback behind one bound: rows near it, and its rule's errors before and after."""

    near: int
    fixed: int
    broken: int
    fp_before: int
    fn_before: int
    fp_after: int
    fn_after: int


@dataclass(frozen=True)
class BoundChange:
    bound: Bound
    new: float
    evidence: Evidence

    @property
    def pct(self) -> float:
        """The move in % of the old value (of the bound's scale when that is 0)."""
        return 100.0 * (self.new - self.bound.value) / _scale_of(self.bound, None)


@dataclass(frozen=True)
class RuleOutcome:
    rule_id: str
    correct_before: int
    correct_after: int
    learned: bool  # the agent ran (the rule had errors and a bound with evidence)


@dataclass
class Refinement:
    values: dict[BoundKey, float] = field(default_factory=dict)
    changes: list[BoundChange] = field(default_factory=list)
    rules: list[RuleOutcome] = field(default_factory=list)
    n_rows: int = 0

    @property
    def accuracy_before(self) -> float:
        return _pct(sum(r.correct_before for r in self.rules), self.n_rows * len(self.rules))

    @property
    def accuracy_after(self) -> float:
        return _pct(sum(r.correct_after for r in self.rules), self.n_rows * len(self.rules))


def _pct(n: int, d: int) -> float:
    return 100.0 * n / d if d else 100.0


def refine(model: BundleModel, feedback: Feedback, config: RefineConfig | None = None
           ) -> Refinement:
    """Learn new bounds for every rule the feedback labels; deterministic under the seed."""
    config = config or RefineConfig()
    result = Refinement(n_rows=feedback.n_rows)
    ranges = [p["range"] for p in model.payload["parameters"]]
    pos = {name: i for i, name in enumerate(model.param_names())}
    for index, cond in enumerate(model.conditions):
        if cond is None:
            continue
        bounds = [b for b in model.bounds if b.rule_index == index]
        agent = _RuleAgent(cond, bounds, feedback, index, pos, ranges, config)
        result.rules.append(agent.outcome)
        for bound, new, evidence in agent.changes:
            result.values[bound.key] = new
            result.changes.append(BoundChange(bound, new, evidence))
    return result


def _scale_of(bound: Bound, prange: list[float] | None) -> float:
    """What a step is a percentage of: the value itself, or 1 % of the range when it is 0."""
    if bound.value != 0:
        return abs(bound.value)
    if prange and all(math.isfinite(v) for v in prange) and prange[1] > prange[0]:
        return (prange[1] - prange[0]) / 100.0
    return 1.0


def _side(bound: Bound) -> int:
    """+1 when the rule's comparison holds above the bound, -1 below, 0 for `==`."""
    op, end = bound.op, bound.end
    if op in (">", ">="):
        side = 1
    elif op in ("<", "<="):
        side = -1
    elif op == "between":
        side = 1 if end == 0 else -1
    elif op == "outside":
        side = -1 if end == 0 else 1
    else:
        side = 0
    return -side if bound.negated else side


def _holds(op: str, col: npt.NDArray[np.float64], v: list[float]) -> Mask:
    """Where a comparison holds; NaN (absent) compares false, as in the runtime's boxes."""
    if op in (">", ">=", "<", "<=", "=="):
        return {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal,
                "==": np.equal}[op](col, v[0])
    low, high = min(v), max(v)
    if op == "between":
        return (col >= low) & (col <= high)
    return (col < low) | (col > high)


class _RuleAgent:
    """The Q-learning agent of one rule, run at construction; `changes` is its result."""

    def __init__(self, cond: Condition, bounds: list[Bound], fb: Feedback, index: int,
                 pos: dict[str, int], ranges: list[Any], config: RefineConfig) -> None:
        self.cond, self.bounds, self.config = cond, bounds, config
        self.pos = pos
        self.x = fb.x
        self.y = fb.expected[:, index]
        self.present = ~np.isnan(fb.x)
        self.v0 = [b.value for b in bounds]
        self.scale = [_scale_of(b, ranges[pos[b.param]]) for b in bounds]
        self.unit = [s * config.step_pct / 100.0 for s in self.scale]
        self.kmax = int(round(config.max_move_pct / config.step_pct))
        self.side = [_side(b) for b in bounds]
        self.window = [s * config.max_move_pct / 100.0 for s in self.scale]
        self._by_atom: dict[int, list[int]] = {}
        for i, b in enumerate(bounds):
            self._by_atom.setdefault(b.position, []).append(i)
        self._correct: dict[tuple[float, ...], int] = {}
        self._predicted: dict[tuple[float, ...], Mask] = {}
        self._signals: dict[tuple[int, tuple[float, ...]], int] = {}
        self._objectives: dict[tuple[float, ...], float] = {}
        self._cols = [fb.x[:, pos[b.param]] for b in bounds]
        self.changes: list[tuple[Bound, float, Evidence]] = []
        start = tuple(self.v0)
        before = self.correct(start)
        near = [self._near(i) for i in range(len(bounds))]
        slots = [i for i in range(len(bounds)) if near[i] and self.side[i] != 0]
        learned = before < fb.n_rows and any(near)
        final = start
        if learned:
            rid = bounds[0].rule_id if bounds else ""
            digest = hashlib.sha256(f"{config.seed}:{rid}".encode()).digest()
            self.rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
            ks = self._learn(slots) if slots else (0,) * len(bounds)
            final = self._values(ks)
            if config.polish:
                final = self._polish(final, ks, near)
            if self.correct(final) <= before:
                final = start
        after = self.correct(final)
        self.outcome = RuleOutcome(bounds[0].rule_id if bounds else "", before, after, learned)
        if final != start:
            self._record(start, final, near)

    # ------------------------------------------------------------ evaluation

    def predict(self, values: tuple[float, ...]) -> Mask:
        """The rule's decision on every feedback row, as the runtime's boxes would decide."""
        got = self._predicted.get(values)
        if got is None:
            got = self._predicted[values] = self._eval(self.cond, False, values, count())
        return got

    def _eval(self, cond: Condition, neg: bool, values: tuple[float, ...], counter: Any
              ) -> Mask:
        if isinstance(cond, Atom):
            position = next(counter)
            col = self.x[:, self.pos[cond.param]]
            held = _holds(cond.op, col, [values[i] for i in self._by_atom[position]])
            return (self.present[:, self.pos[cond.param]] & ~held) if neg else held
        if isinstance(cond, Not):
            return self._eval(cond.item, not neg, values, counter)
        parts = [self._eval(c, neg, values, counter) for c in cond.items]
        conjunctive = isinstance(cond, All) != neg
        return reduce(np.logical_and if conjunctive else np.logical_or, parts)

    def correct(self, values: tuple[float, ...]) -> int:
        got = self._correct.get(values)
        if got is None:
            got = int(np.count_nonzero(self.predict(values) == self.y))
            self._correct[values] = got
        return got

    def _values(self, ks: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(v + k * u for v, k, u in zip(self.v0, ks, self.unit, strict=True))

    def _valid(self, values: tuple[float, ...]) -> bool:
        for i, b in enumerate(self.bounds):
            if b.end == 1 and values[i - 1] > values[i]:
                return False  # a range keeps low <= high
        return True

    def _near(self, i: int) -> int:
        return int(np.count_nonzero(np.abs(self._cols[i] - self.v0[i]) <= self.window[i]))

    def _objective(self, values: tuple[float, ...]) -> float:
        """Correct feedback rows less the price of the distance from the bundle's values."""
        got = self._objectives.get(values)
        if got is None:
            moved = sum(abs(v - v0) / s for v, v0, s in zip(values, self.v0, self.scale,
                                                             strict=True))
            got = self._objectives[values] = self.correct(values) - self.config.penalty * moved
        return got

    # ------------------------------------------------------------ learning

    def signal(self, i: int, values: tuple[float, ...]) -> int:
        """Which way the misclassified rows near bound i say it should move, and how far."""
        key = (i, values)
        got = self._signals.get(key)
        if got is None:
            got = self._signals[key] = self._signal(i, values)
        return got

    def _signal(self, i: int, values: tuple[float, ...]) -> int:
        wrong = self.predict(values) != self.y
        dist = self._cols[i][wrong] - values[i]  # NaN (absent) rows fail every test below
        fp = self.y[wrong] == False  # noqa: E712 - elementwise
        near = np.abs(dist) <= self.window[i]
        side = self.side[i]
        # A false positive on the firing side, or a false negative off it, is fixed by
        # moving the bound past it: up when it lies above the bound, down when below.
        fixable = near & np.where(fp, np.sign(dist) == side, np.sign(dist) != side)
        moves = dist[fixable]
        n_up, n_down = int(np.count_nonzero(moves > 0)), int(np.count_nonzero(moves <= 0))
        if n_up == n_down:
            return 0 if n_up == 0 else 7
        toward = moves[moves > 0] if n_up > n_down else moves[moves <= 0]
        reach = float(np.min(np.abs(toward))) / self.scale[i] * 100.0
        bucket = 0 if reach <= 1.0 else (1 if reach <= 4.0 else 2)
        return (1 if n_up > n_down else 4) + bucket

    def _learn(self, slots: list[int]) -> tuple[int, ...]:
        cfg = self.config
        q: dict[tuple[int, int], npt.NDArray[np.float64]] = {}
        start = (0,) * len(self.bounds)
        best, best_obj = start, self._objective(self._values(start))
        for episode in range(cfg.episodes + 1):
            greedy = episode == cfg.episodes  # the last run follows the learned policy
            frac = episode / max(1, cfg.episodes - 1)
            eps = 0.0 if greedy else cfg.epsilon_min + (cfg.epsilon - cfg.epsilon_min) * (
                1.0 - min(1.0, frac))
            ks = start
            for t in range(cfg.steps * (2 if greedy else 1)):
                i = slots[(episode + t) % len(slots)]
                values = self._values(ks)
                table = q.setdefault((i, self.signal(i, values)), np.zeros(len(ACTIONS)))
                a = (int(self.rng.integers(len(ACTIONS))) if self.rng.random() < eps
                     else int(np.argmax(table)))
                new = list(ks)
                new[i] = max(-self.kmax, min(self.kmax, ks[i] + ACTIONS[a]))
                nks = tuple(new)
                nvalues = self._values(nks)
                if not self._valid(nvalues):
                    nks, nvalues = ks, values
                obj = self._objective(nvalues)
                reward = obj - self._objective(values)
                j = slots[(episode + t + 1) % len(slots)]
                ahead = q.get((j, self.signal(j, nvalues)))
                target = reward + cfg.gamma * (float(ahead.max()) if ahead is not None else 0.0)
                table[a] += cfg.alpha * (target - table[a])
                ks = nks
                if obj > best_obj:
                    best, best_obj = ks, obj
        return best

    # ------------------------------------------------------------ finishing

    def _polish(self, values: tuple[float, ...], ks: tuple[int, ...], near: list[int]
                ) -> tuple[float, ...]:
        """Moved bounds go to the middle of their gap between neighbouring feedback values
        (onto the whole number that closes it, for whole-number feedback); an `==` bound
        goes onto the feedback value that fits best."""
        out = list(values)
        for i in range(len(self.bounds)):
            if not near[i] or (self.side[i] != 0 and ks[i] == 0):
                continue
            col = self._cols[i]
            xs = np.unique(col[~np.isnan(col)])
            reach = np.abs(xs - self.v0[i]) <= self.window[i]
            current = self.correct(tuple(out))
            if self.side[i] == 0:
                cands = sorted(xs[reach], key=lambda c: abs(c - self.v0[i]))
                scored = [(self.correct(self._with(out, i, float(c))), -n, float(c))
                          for n, c in enumerate(cands)]
                if scored and max(scored)[0] > current:
                    out[i] = max(scored)[2]
                continue
            for cand in self._gap_candidates(xs, out[i]):
                trial = self._with(out, i, cand)
                if abs(cand - self.v0[i]) > self.window[i] or not self._valid(trial):
                    continue
                if self.correct(trial) >= current:
                    out[i] = cand
                    break
        return tuple(out)

    @staticmethod
    def _with(values: list[float] | tuple[float, ...], i: int, v: float) -> tuple[float, ...]:
        out = list(values)
        out[i] = v
        return tuple(out)

    @staticmethod
    def _gap_candidates(xs: npt.NDArray[np.float64], v: float) -> list[float]:
        below, above = xs[xs < v], xs[xs > v]
        if len(below) == 0 or len(above) == 0:
            return []
        a, b = float(below[-1]), float(above[0])
        width = b - a
        nice = _shortest_decimal(a + width / 4, b - width / 4)
        if not all(float(c).is_integer() for c in xs):
            return [nice]
        # Whole-number readings: a whole number inside the gap, else the end that closes it.
        return [nice, a, b] if nice.is_integer() else [a, b, nice]

    def _record(self, start: tuple[float, ...], final: tuple[float, ...], near: list[int]
                ) -> None:
        p0, p1 = self.predict(start), self.predict(final)
        ok0, ok1 = p0 == self.y, p1 == self.y
        ev = Evidence(0, int(np.count_nonzero(~ok0 & ok1)), int(np.count_nonzero(ok0 & ~ok1)),
                      int(np.count_nonzero(p0 & ~self.y)), int(np.count_nonzero(~p0 & self.y)),
                      int(np.count_nonzero(p1 & ~self.y)), int(np.count_nonzero(~p1 & self.y)))
        for i, b in enumerate(self.bounds):
            if final[i] != start[i]:
                self.changes.append((b, final[i], replace(ev, near=near[i])))


def _shortest_decimal(lo: float, hi: float) -> float:
    """The number with the fewest significant digits in [lo, hi] (thresholds people write)."""
    mid = (lo + hi) / 2.0
    span = hi - lo
    if not span > 0:
        return mid
    top = math.floor(math.log10(max(abs(lo), abs(hi), span))) + 1
    center = Decimal(repr(mid))
    for exp in range(top, top - 18, -1):
        step = Decimal(1).scaleb(exp)
        cand = float((center / step).to_integral_value(ROUND_HALF_EVEN) * step)
        if lo <= cand <= hi:
            return cand
    return mid
