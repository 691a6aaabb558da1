"""The graph path: what the typed property graph says about a fired rule.

The bundle's graph travels as CSR arrays (``GraphArrays``); ``TypedGraph`` adds the
reverse (transposed) CSR once at load so traversal runs both ways.  For a rule,
``GraphPath`` answers, by traversal only:

- related rules: those testing the same parameter (rule -has_condition-> condition
  -on_parameter-> parameter, and back) or triggering the same action (the paper's
  inventory case: "stock < 10" brings "stock == 0" along as context), each with how its
  firing region on the shared parameter relates to this rule's (from the boxes);
- the descriptive statements attached (statement -describes-> parameter, -says-> text);
- conflicting actions (action -cannot_coexist-> action, named by the exclusion rule
  that -involves-> both), and which fired rules collide on them;
- the procedures the rule starts (rule -triggers-> procedure) and the ordered steps of a
  procedure (procedure -has_step-> step -next_step-> step ...);
- for a parameter, the rules with a condition on it and the statements describing it
  (what `rulec ask` answers to "which rules concern X?").

Per-rule answers are computed on first use and cached; they never depend on the state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulec.runtime.bundle.loader import Bundle

_NO_NODES: tuple[int, ...] = ()

# How another rule's firing region on a shared parameter relates to this rule's, in
# the order related rules are listed (the boundary case first).
RELATIONS = ("inside", "same", "overlaps", "contains", "disjoint")


class TypedGraph:
    """CSR adjacency in both directions, split by edge type."""

    def __init__(self, bundle: Bundle) -> None:
        g = bundle.graph
        self.nodes = g.nodes
        self.edge_types = tuple(g.edge_types)
        self._code = {name: i for i, name in enumerate(self.edge_types)}
        n = len(g.nodes)
        indptr = np.asarray(g.indptr, dtype=np.int64)
        dst = np.asarray(g.indices, dtype=np.int64)
        etype = np.asarray(g.etype, dtype=np.int64)
        src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
        n_types = max(len(self.edge_types), 1)
        self._out = _Csr(src * n_types + etype, dst, n * n_types)
        self._in = _Csr(dst * n_types + etype, src, n * n_types)
        self._n_types = n_types
        self._by_kind_label = {(node.kind, node.label): i for i, node in enumerate(g.nodes)}

    def node(self, kind: str, label: str) -> int | None:
        return self._by_kind_label.get((kind, label))

    def out(self, node: int, etype: str) -> tuple[int, ...]:
        """Targets of ``node``'s outgoing edges of one type, ascending."""
        code = self._code.get(etype)
        return _NO_NODES if code is None else self._out.row(node * self._n_types + code)

    def into(self, node: int, etype: str) -> tuple[int, ...]:
        """Sources of ``node``'s incoming edges of one type, ascending."""
        code = self._code.get(etype)
        return _NO_NODES if code is None else self._in.row(node * self._n_types + code)


class _Csr:
    """Rows keyed by (node, edge type); each row's targets sorted."""

    def __init__(self, keys: np.ndarray, targets: np.ndarray, n_rows: int) -> None:
        order = np.lexsort((targets, keys))
        ptr = np.zeros(n_rows + 1, dtype=np.int64)
        np.cumsum(np.bincount(keys, minlength=n_rows), out=ptr[1:])
        # Python lists: traversal touches a handful of short rows, where numpy's
        # per-call overhead would dominate.
        self._targets: list[int] = targets[order].tolist()
        self._ptr: list[int] = ptr.tolist()

    def row(self, key: int) -> tuple[int, ...]:
        return tuple(self._targets[self._ptr[key]:self._ptr[key + 1]])


@dataclass(frozen=True)
class Related:
    """Another rule reached through a shared parameter or action node."""

    rule: int  # rule index
    via: str  # "parameter" | "action"
    shared: str  # the parameter name or action text
    relation: str  # one of RELATIONS ("action" for a shared action)


@dataclass(frozen=True)
class Exclusion:
    """This rule's action cannot coexist with another action (an exclusion rule says so)."""

    action: str
    other: str
    rules: tuple[int, ...]  # the exclusion rules naming both actions


# Related rules listed per fired rule: a state that fires a thousand rules of a bundle
# that shares their parameters must not cost a million relations (docs/onboard.md).
MAX_RELATED = 64


class GraphPath:
    """Graph traversal for fired rules, over one validated bundle."""

    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.graph = TypedGraph(bundle)
        self._rule_node = [self.graph.node("rule", r.id) for r in bundle.rules]
        self._node_rule = {n: i for i, n in enumerate(self._rule_node) if n is not None}
        self._intervals = _rule_intervals(bundle)
        self._related: dict[int, tuple[Related, ...]] = {}
        self._actions: dict[int, tuple[int, ...]] = {}
        self._evidence: dict[int, dict[str, Any]] = {}
        self._started: dict[int, list[str]] = {}
        self._capped: set[int] = set()  # rules with more related rules than MAX_RELATED

    # ------------------------------------------------------------ per rule

    def related(self, rule_index: int) -> tuple[Related, ...]:
        """Rules sharing a parameter or an action with this one, boundary cases first."""
        cached = self._related.get(rule_index)
        if cached is not None:
            return cached
        g = self.graph
        node = self._rule_node[rule_index]
        found: dict[int, Related] = {}
        full = False  # more related rules than MAX_RELATED: the first ones, in graph order
        if node is not None:
            for cond in g.out(node, "has_condition"):
                for param in g.out(cond, "on_parameter"):
                    for other_cond in g.into(param, "on_parameter"):
                        for other in g.into(other_cond, "has_condition"):
                            r = self._node_rule.get(other)
                            if r is None or r == rule_index or r in found:
                                continue
                            if len(found) >= MAX_RELATED:
                                full = True
                                break
                            name = g.nodes[param].label
                            found[r] = Related(r, "parameter", name,
                                               self._relation(rule_index, r, name))
            for action in self._action_nodes(rule_index):
                for other in g.into(action, "triggers"):
                    r = self._node_rule.get(other)
                    if r is not None and r != rule_index and r not in found:
                        if len(found) >= MAX_RELATED:
                            full = True
                            break
                        found[r] = Related(r, "action", g.nodes[action].label, "action")
        if full:
            self._capped.add(rule_index)
        rank = {name: i for i, name in enumerate((*RELATIONS, "action"))}
        out = tuple(sorted(found.values(), key=lambda x: (rank[x.relation], x.rule)))
        self._related[rule_index] = out
        return out

    def related_ids(self, rule_index: int) -> list[str]:
        return [self.bundle.rules[r.rule].id for r in self.related(rule_index)]

    def statements(self, rule_index: int) -> list[dict[str, Any]]:
        """Descriptive statements that describe a parameter this rule tests."""
        g = self.graph
        node = self._rule_node[rule_index]
        if node is None:
            return []
        params = sorted({p for c in g.out(node, "has_condition") for p in g.out(c, "on_parameter")})
        seen: dict[int, list[str]] = {}
        for param in params:
            for st in g.into(param, "describes"):
                seen.setdefault(st, []).append(g.nodes[param].label)
        return [self._statement(st, names) for st, names in sorted(seen.items())]

    def rules_on(self, parameter: str) -> list[int]:
        """Rules with a condition on a parameter (parameter <-on_parameter- condition
        <-has_condition- rule), ascending; [] for a name the graph does not hold."""
        g = self.graph
        node = g.node("parameter", parameter)
        if node is None:
            return []
        return sorted({r for cond in g.into(node, "on_parameter")
                       for rule in g.into(cond, "has_condition")
                       if (r := self._node_rule.get(rule)) is not None})

    def statements_on(self, parameter: str) -> list[dict[str, Any]]:
        """Descriptive statements that describe one parameter."""
        g = self.graph
        node = g.node("parameter", parameter)
        if node is None:
            return []
        return [self._statement(st, [parameter]) for st in g.into(node, "describes")]

    def excludes(self, rule_index: int) -> list[Exclusion]:
        """Actions that must not coexist with the action this rule triggers."""
        g = self.graph
        out = []
        for action in self._action_nodes(rule_index):
            for other in g.out(action, "cannot_coexist"):
                by = sorted(set(g.into(action, "involves")) & set(g.into(other, "involves")))
                rules = tuple(r for r in (self._node_rule.get(n) for n in by) if r is not None)
                out.append(Exclusion(g.nodes[action].label, g.nodes[other].label, rules))
        return out

    def procedures_started_by(self, rule_index: int) -> list[str]:
        """Ids of the procedures this rule's action starts (never the rule's own)."""
        cached = self._started.get(rule_index)
        if cached is None:
            g = self.graph
            node = self._rule_node[rule_index]
            own = self.bundle.rules[rule_index].id
            cached = [] if node is None else [
                g.nodes[p].label for p in g.out(node, "triggers")
                if g.nodes[p].kind == "procedure" and g.nodes[p].label != own]
            self._started[rule_index] = cached
        return list(cached)

    def triggers_of(self, procedure_id: str) -> list[int]:
        """Indexes of the (firing) rules whose action starts this procedure."""
        node = self.graph.node("procedure", procedure_id)
        if node is None:
            return []
        rules = (self._node_rule.get(n) for n in self.graph.into(node, "triggers"))
        return sorted(r for r in rules if r is not None)

    def steps(self, procedure_id: str) -> list[str] | None:
        """Step labels of a procedure in order (has_step, then next_step), or None when
        the graph does not hold the procedure."""
        g = self.graph
        node = g.node("procedure", procedure_id)
        if node is None:
            return None
        order: list[str] = []
        seen: set[int] = set()
        frontier = list(g.out(node, "has_step"))
        while len(frontier) == 1 and frontier[0] not in seen:
            step = frontier[0]
            seen.add(step)
            order.append(g.nodes[step].label)
            frontier = list(g.out(step, "next_step"))
        return order

    # ------------------------------------------------------------ per state

    def conflicts(self, fired: Iterable[int]) -> list[dict[str, Any]]:
        """Pairs of fired rules whose actions cannot coexist, named by the exclusion rule."""
        fired = list(fired)
        by_action: dict[int, list[int]] = {}
        for r in fired:
            for action in self._action_nodes(r):
                by_action.setdefault(action, []).append(r)
        g = self.graph
        rules = self.bundle.rules
        out = []
        for a in sorted(by_action):
            for b in g.out(a, "cannot_coexist"):
                if b <= a or b not in by_action:
                    continue
                by = sorted(set(g.into(a, "involves")) & set(g.into(b, "involves")))
                owners = [rules[r].id for r in (self._node_rule.get(n) for n in by)
                          if r is not None]
                support = sorted({rules[r].id for r in by_action[a] + by_action[b]})
                names = f"{g.nodes[a].label!r} and {g.nodes[b].label!r}"
                out.append({
                    "kind": "exclusion",
                    "rules": owners + support,
                    "actions": sorted([g.nodes[a].label, g.nodes[b].label]),
                    "message": f"{names} cannot coexist ({', '.join(owners) or 'graph'}) "
                               f"but both follow from {', '.join(support)}",
                })
        return out

    def evidence(self, rule_index: int, fired: set[int]) -> dict[str, Any]:
        """The graph path's evidence for one fired rule, as JSON (``fires_now`` marks the
        related rules that fire in the same state)."""
        static = self._evidence.get(rule_index)
        if static is None:
            static = self._static_evidence(rule_index)
            self._evidence[rule_index] = static
        related = [{**entry, "fires_now": rel.rule in fired}
                   for rel, entry in zip(self.related(rule_index), static["related"],
                                         strict=True)]
        return {**static, "related": related}

    def _static_evidence(self, rule_index: int) -> dict[str, Any]:
        rules = self.bundle.rules
        related = []
        for rel in self.related(rule_index):
            spec = rules[rel.rule]
            related.append({
                "id": spec.id,
                "via": rel.via,
                "shared": rel.shared,
                "relation": rel.relation,
                "condition": spec.condition_text,
                "action": spec.action,
                "source": spec.source,
            })
        out: dict[str, Any] = {"related": related, "statements": self.statements(rule_index)}
        if rule_index in self._capped:
            out["related_capped_at"] = MAX_RELATED  # more exist; the bundle lists them all
        excludes = [{"action": e.action, "cannot_coexist_with": e.other,
                     "rules": [rules[r].id for r in e.rules]} for e in self.excludes(rule_index)]
        if excludes:
            out["excludes"] = excludes
        procedures = self.procedures_started_by(rule_index)
        if procedures:
            out["starts_procedures"] = procedures
        return out

    # ------------------------------------------------------------ helpers

    def _action_nodes(self, rule_index: int) -> tuple[int, ...]:
        cached = self._actions.get(rule_index)
        if cached is None:
            node = self._rule_node[rule_index]
            g = self.graph
            cached = () if node is None else tuple(
                n for n in g.out(node, "triggers") if g.nodes[n].kind == "action")
            self._actions[rule_index] = cached
        return cached

    def _statement(self, node: int, params: list[str]) -> dict[str, Any]:
        g = self.graph
        label = g.nodes[node].label
        file, _, line = label.rpartition(":")
        texts = [g.nodes[t].label for t in g.out(node, "says")]
        out: dict[str, Any] = {"file": file or label}
        if line.isdigit():
            out["line"] = int(line)
        if texts:
            out["text"] = texts[0]
        out["parameters"] = params
        return out

    def _relation(self, mine: int, other: int, param: str) -> str:
        axis = self.bundle.param_index.get(param)
        a = self._intervals.get(mine, {}).get(axis if axis is not None else -1, [])
        b = self._intervals.get(other, {}).get(axis if axis is not None else -1, [])
        if not a or not b:
            return "overlaps"
        return relation(a, b)


# ---------------------------------------------------------------- interval relations

Interval = tuple[float, float, int]  # lo, hi, flags (bit 0 lo inclusive, bit 1 hi inclusive)


def _rule_intervals(bundle: Bundle) -> dict[int, dict[int, list[Interval]]]:
    """Each rule's firing region per axis: the union of its boxes' intervals there."""
    b = bundle.boxes
    out: dict[int, dict[int, list[Interval]]] = {}
    start, axis, lo, hi, flags = (a.tolist() for a in (b.start, b.axis, b.lo, b.hi, b.flags))
    for box, rule in enumerate(b.rule.tolist()):
        per_axis = out.setdefault(int(rule), {})
        for c in range(start[box], start[box + 1]):
            per_axis.setdefault(axis[c], []).append((lo[c], hi[c], flags[c]))
    return out


def relation(mine: list[Interval], other: list[Interval]) -> str:
    """How the set ``other`` relates to ``mine`` (unions of intervals): inside, same,
    contains, overlaps or disjoint."""
    inside = all(any(_within(o, m) for m in mine) for o in other)
    contains = all(any(_within(m, o) for o in other) for m in mine)
    if inside and contains:
        return "same"
    if inside:
        return "inside"
    if contains:
        return "contains"
    if any(_meet(m, o) for m in mine for o in other):
        return "overlaps"
    return "disjoint"


def _within(inner: Interval, outer: Interval) -> bool:
    ilo, ihi, iflags = inner
    olo, ohi, oflags = outer
    lo_ok = olo < ilo or (olo == ilo and (bool(oflags & 1) or not iflags & 1))
    hi_ok = ihi < ohi or (ihi == ohi and (bool(oflags & 2) or not iflags & 2))
    return lo_ok and hi_ok


def _meet(a: Interval, b: Interval) -> bool:
    lo = max(a[0], b[0])
    hi = min(a[1], b[1])
    if lo < hi:
        return True
    if lo > hi or math.isinf(lo):
        return False
    # one shared point: both intervals must include it
    return _includes(a, lo) and _includes(b, lo)


def _includes(iv: Interval, x: float) -> bool:
    lo, hi, flags = iv
    return (lo < x or (lo == x and bool(flags & 1))) and (x < hi or (x == hi and bool(flags & 2)))


class RelatedRules:
    """Backward-compatible view: rule index -> ids of the related rules."""

    def __init__(self, bundle: Bundle) -> None:
        self._path = GraphPath(bundle)

    def of(self, rule_index: int) -> list[str]:
        return self._path.related_ids(rule_index)
