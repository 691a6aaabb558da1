"""The graph path: rules related to a fired rule through the typed graph.

Two rules are related when they test the same parameter (rule -has_condition->
comparison -on_parameter-> parameter) or trigger the same action; that is how
"stock < 10" brings "stock == 0" along as context.
"""

from __future__ import annotations

import numpy as np

from rulec.runtime.bundle import Bundle


class RelatedRules:
    """Precomputed at load from the CSR graph: rule index -> related rule ids."""

    def __init__(self, bundle: Bundle) -> None:
        g = bundle.graph
        kinds = [n.kind for n in g.nodes]
        etypes = list(g.edge_types)
        indptr, indices, etype = (np.asarray(a) for a in (g.indptr, g.indices, g.etype))
        n_nodes = len(kinds)
        src = np.repeat(np.arange(n_nodes, dtype=np.int64), np.diff(indptr))

        def targets(node: int, name: str) -> list[int]:
            if name not in etypes:
                return []
            code = etypes.index(name)
            lo, hi = int(indptr[node]), int(indptr[node + 1])
            return [int(t) for t, e in zip(indices[lo:hi], etype[lo:hi], strict=True) if e == code]

        # reverse edges: target -> sources, per type
        reverse: dict[tuple[int, int], list[int]] = {}
        for s, t, e in zip(src.tolist(), indices.tolist(), etype.tolist(), strict=True):
            reverse.setdefault((t, e), []).append(s)

        def sources(node: int, name: str) -> list[int]:
            if name not in etypes:
                return []
            return reverse.get((node, etypes.index(name)), [])

        rule_node = {n.label: i for i, n in enumerate(g.nodes) if n.kind == "rule"}
        self._related: dict[int, list[str]] = {}
        for index, spec in enumerate(bundle.rules):
            node = rule_node.get(spec.id)
            if node is None:
                continue
            found: set[int] = set()
            for cond in targets(node, "has_condition"):
                for param in targets(cond, "on_parameter"):
                    for other_cond in sources(param, "on_parameter"):
                        found.update(sources(other_cond, "has_condition"))
            for action in targets(node, "triggers"):
                found.update(sources(action, "triggers"))
            found.discard(node)
            ids = sorted(g.nodes[f].label for f in found if kinds[f] == "rule")
            self._related[index] = [i for i in ids if i in bundle.rule_index]

    def of(self, rule_index: int) -> list[str]:
        return self._related.get(rule_index, [])
