"""Compile-time checks of the knowledge base, decided by the SAT solver.

Four kinds of finding, each naming the rules involved (reported, never dropped):

- ``unsatisfiable``: a minimal set of rules (constraints, exclusions and the if-then
  rules they involve) that no state can satisfy together, every sensor reading.
- ``never_fires``: a rule whose condition no value of its parameters can meet
  ("x > 10 and x < 5"); for a constraint, one that can never be violated.
- ``shadowed``: an if-then rule whose every firing state also fires another rule with
  the same action and no longer a duration (duplicates are reported once).
- ``exclusion_overlap``: two rules whose actions cannot coexist fire together in some
  state; the finding gives such a state.

States are real: each parameter is absent or has one value, so the comparisons of a
parameter are tied together exactly.  Its line is cut at every threshold any rule uses
into points and open intervals ("regions"); a present parameter lies in exactly one
region, and each comparison is the disjunction of the regions inside it.  A negated
comparison needs its parameter present, as in the boxes the runtime evaluates, so
"fires" here is exactly "some box of the rule contains the state".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pycosat

from rulec.compiler.build.boxes import Interval, Term, ThresholdConverter, dnf
from rulec.compiler.build.cnf import Cnf, action_key, atom_name, build_cnf
from rulec.compiler.model.rules import All, Atom, Condition, Not, Rule
from rulec.runtime.vocabulary import CONDITIONAL_KINDS, SEVERITY_RANK

if TYPE_CHECKING:
    from rulec.compiler.pipeline import Compiled

__all__ = ["Finding", "KINDS", "check_knowledge_base"]

KINDS = ("unsatisfiable", "never_fires", "shadowed", "exclusion_overlap")
MAX_PAIRS = 20000  # shadowing / overlap pairs examined per compile (each one small solve)
MAX_UNSAT_SETS = 5


@dataclass(frozen=True)
class Finding:
    """One problem in the knowledge base: what kind, which rules (ids), and why."""

    kind: str
    rules: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rules": list(self.rules), "message": self.message}

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"


@dataclass
class _Axis:
    """One parameter in a query: its regions in order and the order-encoding variables
    ``at_least[k]`` (present, in region k or beyond); ``at_least[0]`` is "present"."""

    regions: list[Interval]
    at_least: list[int]

    @property
    def present(self) -> int:
        return self.at_least[0]


class _Query:
    """One satisfiability question: the clauses tying the given condition variables to
    real values of their parameters, plus whatever the check adds."""

    def __init__(self, cnf: Cnf, conditions: Iterable[int], all_present: bool = False) -> None:
        self.cnf = cnf
        self.top = len(cnf.variables)
        self.clauses: list[list[int]] = []
        self.axes: dict[str, _Axis] = {}
        by_param: dict[str, list[int]] = {}
        for v in sorted(set(conditions)):
            by_param.setdefault(cnf.atom_param[v], []).append(v)
        for param, variables in sorted(by_param.items()):
            self.axes[param] = self._axis(variables)
            if all_present:
                self.clauses.append([self.axes[param].present])

    def fresh(self) -> int:
        self.top += 1
        return self.top

    def _axis(self, variables: list[int]) -> _Axis:
        """Regions cut at every bound of these comparisons; each comparison is true
        exactly on its own runs of regions (order encoding: O(regions + comparisons))."""
        intervals = self.cnf.atom_intervals
        cuts = sorted({b for v in variables for iv in intervals[v]
                       for b in (iv.lo, iv.hi) if b is not None})
        regions: list[Interval] = []
        previous: Fraction | None = None
        for cut in cuts:
            regions += [Interval(previous, False, cut, False), Interval(cut, True, cut, True)]
            previous = cut
        regions.append(Interval(previous, False, None, False))
        at_least = [self.fresh() for _ in regions]
        self.clauses += [[-at_least[k], at_least[k - 1]] for k in range(1, len(regions))]
        position = {cut: k for k, cut in enumerate(cuts)}  # cut k is region 2k + 1
        for v in variables:
            runs = _merged(sorted(_run_of(iv, position, len(regions))
                                  for iv in intervals[v] if not iv.is_empty()))
            guards = []
            for first, last in runs:
                # regions first..last: at_least[first] and not at_least[last + 1]
                lits = [at_least[first]] + ([-at_least[last + 1]] if last + 1 < len(regions)
                                            else [])
                self.clauses.append([-lit for lit in lits] + [v])
                if len(runs) == 1:
                    self.clauses += [[-v, lit] for lit in lits]
                else:
                    g = self.fresh()
                    guards.append(g)
                    self.clauses += [[-g, lit] for lit in lits]
            if len(runs) > 1:
                self.clauses.append([-v] + guards)
            elif not runs:
                self.clauses.append([-v])
        return _Axis(regions, at_least)

    def literal(self, var: int, holds: bool, param: str) -> list[int]:
        """The state literal as a conjunction: a negated comparison needs presence."""
        return [var] if holds else [-var, self.axes[param].present]

    def fires(self, terms: list[list[tuple[int, bool, str]]]) -> int:
        """A variable true exactly when some term holds."""
        out = self.fresh()
        selectors = []
        for term in terms:
            s = self.fresh()
            selectors.append(s)
            parts = [lit for var, holds, param in term for lit in self.literal(var, holds, param)]
            self.clauses += [[-s, lit] for lit in parts]
            self.clauses.append([s] + [-lit for lit in parts])
        self.clauses.append([-out] + selectors)
        self.clauses += [[-s, out] for s in selectors]
        return out

    def solve(self, extra: list[list[int]]) -> list[int] | None:
        """A model (true literals, original numbering) or None when unsatisfiable."""
        return _sat(self.clauses + extra)

    def witness(self, model: list[int], units: dict[str, str | None]) -> str:
        """A state from a model: one value per parameter, in manifest units."""
        true = {v for v in model if v > 0}
        parts = []
        for param, axis in self.axes.items():
            if axis.present not in true:
                parts.append(f"{param} absent")
                continue
            k = max(k for k, v in enumerate(axis.at_least) if v in true)
            unit = f" {units[param]}" if units.get(param) else ""
            parts.append(f"{param} = {_value_in(axis.regions[k])}{unit}")
        return ", ".join(parts)


def _run_of(iv: Interval, position: dict[Fraction, int], n_regions: int) -> tuple[int, int]:
    """The regions (first, last) making up an interval whose bounds are cuts."""
    first = 0 if iv.lo is None else 2 * position[iv.lo] + (1 if iv.lo_incl else 2)
    last = n_regions - 1 if iv.hi is None else 2 * position[iv.hi] + (1 if iv.hi_incl else 0)
    return first, last


def _merged(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for first, last in runs:
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _value_in(region: Interval) -> str:
    if region.lo is not None and region.hi is not None:
        value = region.lo if region.lo == region.hi else (region.lo + region.hi) / 2
    elif region.lo is not None:
        value = region.lo + 1
    elif region.hi is not None:
        value = region.hi - 1
    else:
        value = Fraction(0)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _sat(clauses: list[list[int]]) -> list[int] | None:
    """pycosat on the variables the clauses use, renumbered 1..n (PicoSAT's cost grows
    with the highest variable number); the model comes back in the original numbers."""
    number: dict[int, int] = {}
    dense = [[number.setdefault(abs(lit), len(number) + 1) * (1 if lit > 0 else -1)
              for lit in clause] for clause in clauses]
    got = pycosat.solve(dense)
    if got == "UNSAT":
        return None
    assert isinstance(got, list)
    return [v if got[m - 1] > 0 else -v for v, m in number.items()]


class _Checker:
    def __init__(self, rules: list[Rule], conv: ThresholdConverter) -> None:
        self.rules = rules
        self.conv = conv
        self.cnf = build_cnf(rules, conv)
        self.terms: dict[int, list[list[tuple[int, bool, str]]]] = {}
        for i, rule in enumerate(rules):
            if rule.kind in CONDITIONAL_KINDS and rule.condition is not None:
                self.terms[i] = [self._term(t) for t in dnf(rule.condition)]
        self.pairs = 0

    def _term(self, term: Term) -> list[tuple[int, bool, str]]:
        index = self.cnf._index
        return [(index[("condition", atom_name(atom, self.conv))], holds, atom.param)
                for atom, holds in term]

    def params_of(self, i: int) -> set[str]:
        return {param for term in self.terms[i] for _, _, param in term}

    def vars_of(self, *rules: int) -> set[int]:
        return {var for i in rules for term in self.terms[i] for var, _, _ in term}

    def never_fires(self, dead: set[int]) -> list[Finding]:
        """Rules whose condition nothing meets; their indexes are added to ``dead``."""
        out = []
        for i, rule in enumerate(self.rules):
            if i not in self.terms:
                continue
            query = _Query(self.cnf, self.vars_of(i))
            if query.solve([[query.fires(self.terms[i])]]) is None:
                dead.add(i)
                what = ("can never be violated" if rule.kind == "constraint"
                        else "can never fire")
                out.append(Finding("never_fires", (rule.id,),
                                   f"{rule.id} {what}: no value meets {_condition_text(rule)}"))
        return out

    def shadowed(self, dead: set[int]) -> list[Finding]:
        groups: dict[str, list[int]] = {}
        for i, rule in enumerate(self.rules):
            if rule.kind == "if_then" and i in self.terms and i not in dead:
                groups.setdefault(action_key(rule.action), []).append(i)
        out: list[Finding] = []
        for members in groups.values():
            reported: set[int] = set()
            for b in members:
                for a in members:
                    if a == b or a in reported or not self._may_cover(a, b):
                        continue
                    if self.pairs >= MAX_PAIRS:
                        return out
                    self.pairs += 1
                    if self._covers(a, b):
                        same = self._covers(b, a)
                        if same and a > b:
                            continue  # equal conditions: report the later rule only
                        reported.add(b)
                        out.append(self._shadow_finding(a, b, same))
                        break
        return out

    def _may_cover(self, a: int, b: int) -> bool:
        """Cheap necessary condition: a needs a term over b's parameters only (b fires
        with every other parameter absent), and no longer a duration."""
        ra, rb = self.rules[a], self.rules[b]
        if (ra.duration_s or 0) > (rb.duration_s or 0):
            return False
        params = self.params_of(b)
        return any({param for _, _, param in term} <= params for term in self.terms[a])

    def _covers(self, a: int, b: int) -> bool:
        """Every state where b fires, a fires too."""
        query = _Query(self.cnf, self.vars_of(a, b))
        fa, fb = query.fires(self.terms[a]), query.fires(self.terms[b])
        return query.solve([[fb], [-fa]]) is None

    def _shadow_finding(self, a: int, b: int, same: bool) -> Finding:
        ra, rb = self.rules[a], self.rules[b]
        how = ("has the same condition as" if same else "is shadowed by")
        note = ""
        if SEVERITY_RANK[rb.severity] < SEVERITY_RANK[ra.severity]:
            note = f"; {rb.id} is more severe ({rb.severity}): keep it or raise {ra.id}"
        return Finding("shadowed", (rb.id, ra.id),
                       f"{rb.id} {how} {ra.id}: whenever {_condition_text(rb)} holds, "
                       f"{_condition_text(ra)} holds too, and both say "
                       f"'{action_key(ra.action)}'{note}")

    def exclusion_overlaps(self, dead: set[int]) -> list[Finding]:
        by_action: dict[str, list[int]] = {}
        for i, rule in enumerate(self.rules):
            if rule.kind == "if_then" and i in self.terms and i not in dead:
                by_action.setdefault(action_key(rule.action), []).append(i)
        out: list[Finding] = []
        for rule in self.rules:
            if rule.kind != "exclusion":
                continue
            keys = [action_key(a) for a in rule.actions]
            for x, key_a in enumerate(keys):
                for key_b in keys[x + 1:]:
                    for a in by_action.get(key_a, []):
                        for b in by_action.get(key_b, []):
                            if self.pairs >= MAX_PAIRS:
                                return out
                            self.pairs += 1
                            found = self._overlap(a, b)
                            if found is not None:
                                ra, rb = self.rules[a], self.rules[b]
                                out.append(Finding(
                                    "exclusion_overlap", (rule.id, ra.id, rb.id),
                                    f"{ra.id} ('{key_a}') and {rb.id} ('{key_b}') both fire "
                                    f"when {found}, but {rule.id} says they cannot coexist"))
        return out

    def _overlap(self, a: int, b: int) -> str | None:
        query = _Query(self.cnf, self.vars_of(a, b))
        fa, fb = query.fires(self.terms[a]), query.fires(self.terms[b])
        model = query.solve([[fa], [fb]])
        return None if model is None else query.witness(model, self.conv.units)

    def unsatisfiable(self) -> list[Finding]:
        """Minimal sets of rules no fully-read state satisfies (one solve when none)."""
        groups: dict[int, list[list[int]]] = {}
        background: list[list[int]] = []
        for clause, owner in zip(self.cnf.clauses, self.cnf.clause_rule, strict=True):
            (groups.setdefault(owner, []) if owner >= 0 else background).append(clause)
        background += _Query(self.cnf, self.cnf.atom_param, all_present=True).clauses
        active = sorted(groups)
        out = []
        for _ in range(MAX_UNSAT_SETS):
            if _sat(background + [c for g in active for c in groups[g]]) is not None:
                break
            core = self._minimal(background, groups, active)
            ids = tuple(self.rules[g].id for g in core)
            texts = "; ".join(f"{self.rules[g].id}: {_rule_text(self.rules[g])}" for g in core)
            out.append(Finding("unsatisfiable", ids,
                               f"no state with every sensor read satisfies these together: "
                               f"{texts}"))
            soft = [g for g in core if self.rules[g].kind != "if_then"] or core
            active = [g for g in active if g != soft[-1]]
        return out

    def _minimal(self, background: list[list[int]], groups: dict[int, list[list[int]]],
                 active: list[int]) -> list[int]:
        """Deletion: drop each group that is not needed for unsatisfiability.  If-then
        rules go first, all at once (they alone never contradict: heads can be true)."""
        keep = list(active)
        without_if = [g for g in keep if self.rules[g].kind != "if_then"]
        if len(without_if) < len(keep) and _sat(
                background + [c for g in without_if for c in groups[g]]) is None:
            keep = without_if
        for g in list(keep):
            trial = [h for h in keep if h != g]
            if _sat(background + [c for h in trial for c in groups[h]]) is None:
                keep = trial
        return keep


def _condition_text(rule: Rule) -> str:
    return _text(rule.condition) if rule.condition is not None else ""


def _text(cond: Condition) -> str:
    if isinstance(cond, Atom):
        return cond.describe()
    if isinstance(cond, Not):
        return f"not ({_text(cond.item)})"
    joint = " and " if isinstance(cond, All) else " or "
    return "(" + joint.join(_text(item) for item in cond.items) + ")"


def _rule_text(rule: Rule) -> str:
    if rule.kind == "exclusion":
        return "not both " + " and ".join(f"'{a}'" for a in rule.actions)
    if rule.kind == "constraint":
        if isinstance(rule.condition, Not):
            return f"always {_text(rule.condition.item)}"
        return f"never {_condition_text(rule)}"
    return f"if {_condition_text(rule)} then '{rule.action}'"


def check_knowledge_base(result: Compiled) -> list[Finding]:
    """Every finding for the rules of a compile (the build stage has settled units and
    dropped the rules it could not convert)."""
    checker = _Checker(list(result.rules), ThresholdConverter.of_table(result.params))
    dead: set[int] = set()
    never = checker.never_fires(dead)
    findings = checker.unsatisfiable() + never
    findings += checker.shadowed(dead)
    findings += checker.exclusion_overlaps(dead)
    return findings
