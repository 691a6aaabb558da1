"""The typed property graph of the knowledge base, flattened to CSR arrays.

Nodes are rules, comparisons, parameters, actions, procedures, steps and
descriptive statements.  Edges carry the paper's types (`has_condition`,
`triggers`, `next_step`, `cannot_coexist`, `describes`) plus `on_parameter`
(comparison -> parameter), `has_step` (procedure -> first step), `involves`
(exclusion rule -> its actions) and `says` (a statement that describes a parameter ->
a `text` node holding it as written, so the runtime can quote it), so traversal finds
the rules that share a parameter or an action with a fired one and the statements that
describe it.
A statement node's label is `Statement.where` (`file:line`, `file:pPAGE:line` in a
PDF), which the knowledge base joins on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from rulec.compiler.build.boxes import ThresholdConverter
from rulec.compiler.build.cnf import action_key, atom_name
from rulec.compiler.extract.offline import atoms_of
from rulec.compiler.model.parameters import ParameterTable, words_of
from rulec.compiler.model.rules import Rule
from rulec.compiler.read.statements import Statement
from rulec.runtime.vocabulary import CONDITIONAL_KINDS, PROCEDURE

EDGE_TYPES = ("has_condition", "triggers", "next_step", "cannot_coexist", "describes",
              "on_parameter", "has_step", "involves", "says")
_STOP = {"to", "the", "a", "an", "procedure", "perform", "for", "of", "and", "how"}


@dataclass
class Graph:
    nodes: list[dict[str, str]] = field(default_factory=list)
    edges: set[tuple[int, int, int]] = field(default_factory=set)
    _index: dict[tuple[str, str], int] = field(default_factory=dict)

    def node(self, kind: str, label: str) -> int:
        key = (kind, label)
        if key not in self._index:
            self._index[key] = len(self.nodes)
            self.nodes.append({"kind": kind, "label": label})
        return self._index[key]

    def edge(self, src: int, etype: str, dst: int) -> None:
        self.edges.add((src, dst, EDGE_TYPES.index(etype)))

    def csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(indptr, indices, etype), edges sorted by source, then type, then target."""
        ordered = sorted(self.edges, key=lambda e: (e[0], e[2], e[1]))
        indptr = np.zeros(len(self.nodes) + 1, dtype="<i4")
        for src, _, _ in ordered:
            indptr[src + 1] += 1
        np.cumsum(indptr, out=indptr)
        indices = np.array([e[1] for e in ordered], dtype="<i4")
        etype = np.array([e[2] for e in ordered], dtype="u1")
        return indptr, indices, etype


def build_graph(
    rules: list[Rule],
    descriptive: list[Statement],
    params: ParameterTable,
    conv: ThresholdConverter,
) -> Graph:
    graph = Graph()
    for name in params.params:
        graph.node("parameter", name)
    procedures = [r for r in rules if r.kind == PROCEDURE]
    started = _ProcedureIndex(procedures)
    for rule in rules:
        rnode = graph.node("rule", rule.id)
        if rule.kind in CONDITIONAL_KINDS and rule.condition is not None:
            for atom in atoms_of(rule.condition):
                cnode = graph.node("condition", atom_name(atom, conv))
                graph.edge(rnode, "has_condition", cnode)
                graph.edge(cnode, "on_parameter", graph.node("parameter", atom.param))
            anode = graph.node("action", action_key(rule.action))
            graph.edge(rnode, "triggers", anode)
            for proc in started.started_by(rule):
                graph.edge(rnode, "triggers", graph.node("procedure", proc.id))
        elif rule.kind == "exclusion":
            actions = [graph.node("action", action_key(a)) for a in rule.actions]
            for a in actions:
                graph.edge(rnode, "involves", a)
                for b in actions:
                    if a != b:
                        graph.edge(a, "cannot_coexist", b)
        elif rule.kind == PROCEDURE:
            pnode = graph.node("procedure", rule.id)
            graph.edge(rnode, "triggers", pnode)
            steps = [graph.node("step", f"{rule.id}#{n + 1}") for n in range(len(rule.steps))]
            if steps:
                graph.edge(pnode, "has_step", steps[0])
            for a, b in zip(steps, steps[1:], strict=False):
                graph.edge(a, "next_step", b)
    for st in descriptive:
        snode = graph.node("statement", st.where)
        named = _parameters_named(st.text, params)
        for name in named:
            graph.edge(snode, "describes", graph.node("parameter", name))
        if named:
            graph.edge(snode, "says", graph.node("text", " ".join(st.text.split())))
    return graph


class _ProcedureIndex:
    """The procedures a rule starts, found without comparing every rule with every
    procedure: titles' key words by length and first word, and titles' sources."""

    def __init__(self, procedures: list[Rule]) -> None:
        self._order = {id(p): k for k, p in enumerate(procedures)}
        self._by_key: dict[tuple[str, ...], list[Rule]] = {}
        self._by_source: dict[tuple[object, ...], list[Rule]] = {}
        for proc in procedures:
            key = tuple(w for w in words_of(re.sub(r":$", "", proc.title)) if w not in _STOP)
            if key:
                self._by_key.setdefault(key, []).append(proc)
            self._by_source.setdefault(_source_key(proc), []).append(proc)
        self._lengths = sorted({len(k) for k in self._by_key})

    def started_by(self, rule: Rule) -> list[Rule]:
        """In the procedures' order: those whose title's key words the action says, and
        the one whose title the rule is."""
        found: dict[int, Rule] = {id(p): p for p in self._by_source.get(_source_key(rule), [])}
        if self._by_key:
            words = tuple(words_of(rule.action))
            for n in self._lengths:
                for i in range(len(words) - n + 1):
                    for proc in self._by_key.get(words[i:i + n], ()):
                        found[id(proc)] = proc
        return sorted(found.values(), key=lambda p: self._order[id(p)])


def _source_key(rule: Rule) -> tuple[object, ...]:
    return tuple(rule.source.get(k) for k in ("file", "line", "text"))


def _parameters_named(text: str, params: ParameterTable) -> list[str]:
    words = words_of(text)
    found = []
    for info in params.params.values():
        for alias in (*info.aliases, info.name.replace("_", " ")):
            key = words_of(alias)
            n = len(key)
            if n and any(words[i:i + n] == key for i in range(len(words) - n + 1)):
                found.append(info.name)
                break
    return found
