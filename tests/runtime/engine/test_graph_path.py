"""The graph path (``runtime/engine/related.py``) against networkx traversal of the same graph.

networkx is a test-only dependency: each query is written a second time as plain
networkx traversal (a ``MultiDiGraph`` with a ``type`` on every edge) and must give
the same answer on every rule of every example bundle and on random typed graphs.
Then the paper's inventory case, statements, exclusions and interval relations.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rulec.compiler.pipeline import build_payload, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import Bundle, load_bundle
from rulec.runtime.engine.engine import Engine
from rulec.runtime.engine.related import GraphPath, RelatedRules, relation

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

nx = pytest.importorskip("networkx")

HERE = Path(__file__).resolve().parents[2]
EXAMPLES = HERE.parent / "examples" / "manuals"
DOMAINS = sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir())


def compile_folder(folder: Path) -> Bundle:
    return load_bundle(encode_bundle(build_payload(collect_rules([folder]), folder.name)))


@pytest.fixture(scope="module")
def bundles() -> dict[str, Bundle]:
    return {name: compile_folder(EXAMPLES / name) for name in DOMAINS}


# ---------------------------------------------------------------- the networkx oracle


def to_networkx(bundle: Bundle) -> Any:
    g = bundle.graph
    graph = nx.MultiDiGraph()
    for i, node in enumerate(g.nodes):
        graph.add_node(i, kind=node.kind, label=node.label)
    for src in range(len(g.nodes)):
        for k in range(int(g.indptr[src]), int(g.indptr[src + 1])):
            graph.add_edge(src, int(g.indices[k]), type=g.edge_types[int(g.etype[k])])
    return graph


def succ(graph: Any, node: int, etype: str) -> set[int]:
    return {v for _, v, t in graph.out_edges(node, data="type") if t == etype}


def pred(graph: Any, node: int, etype: str) -> set[int]:
    return {u for u, _, t in graph.in_edges(node, data="type") if t == etype}


def rule_node(graph: Any, rule_id: str) -> int | None:
    for n, data in graph.nodes(data=True):
        if data["kind"] == "rule" and data["label"] == rule_id:
            return int(n)
    return None


def nx_related(graph: Any, bundle: Bundle, rule_id: str) -> dict[str, str]:
    """Other rule id -> "parameter" or "action" (a parameter share wins)."""
    me = rule_node(graph, rule_id)
    if me is None:
        return {}
    out: dict[str, str] = {}
    for cond in succ(graph, me, "has_condition"):
        for param in succ(graph, cond, "on_parameter"):
            for other_cond in pred(graph, param, "on_parameter"):
                for other in pred(graph, other_cond, "has_condition"):
                    out.setdefault(graph.nodes[other]["label"], "parameter")
    for action in succ(graph, me, "triggers"):
        if graph.nodes[action]["kind"] != "action":
            continue
        for other in pred(graph, action, "triggers"):
            out.setdefault(graph.nodes[other]["label"], "action")
    out.pop(rule_id, None)
    return {k: v for k, v in out.items() if k in bundle.rule_index}


def nx_statements(graph: Any, rule_id: str) -> set[str]:
    me = rule_node(graph, rule_id)
    if me is None:
        return set()
    params = {p for c in succ(graph, me, "has_condition") for p in succ(graph, c, "on_parameter")}
    return {graph.nodes[s]["label"] for p in params for s in pred(graph, p, "describes")}


def nx_excludes(graph: Any, rule_id: str) -> set[tuple[str, str]]:
    me = rule_node(graph, rule_id)
    if me is None:
        return set()
    return {(graph.nodes[a]["label"], graph.nodes[b]["label"])
            for a in succ(graph, me, "triggers") if graph.nodes[a]["kind"] == "action"
            for b in succ(graph, a, "cannot_coexist")}


def nx_steps(graph: Any, procedure_id: str) -> list[str]:
    (proc,) = [n for n, d in graph.nodes(data=True)
               if d["kind"] == "procedure" and d["label"] == procedure_id]
    chain = []
    nxt = succ(graph, proc, "has_step")
    while len(nxt) == 1:
        (step,) = nxt
        chain.append(graph.nodes[step]["label"])
        nxt = succ(graph, step, "next_step")
    return chain


# ---------------------------------------------------------------- differential tests


@pytest.mark.parametrize("domain", DOMAINS)
def test_adjacency_matches_networkx_both_ways(bundles: dict[str, Bundle], domain: str):
    bundle = bundles[domain]
    graph = to_networkx(bundle)
    path = GraphPath(bundle)
    for node in range(len(bundle.graph.nodes)):
        for etype in bundle.graph.edge_types:
            assert set(path.graph.out(node, etype)) == succ(graph, node, etype)
            assert set(path.graph.into(node, etype)) == pred(graph, node, etype)
    assert path.graph.out(0, "no such type") == ()


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_rule_matches_networkx_traversal(bundles: dict[str, Bundle], domain: str):
    bundle = bundles[domain]
    graph = to_networkx(bundle)
    path = GraphPath(bundle)
    for index, spec in enumerate(bundle.rules):
        want = nx_related(graph, bundle, spec.id)
        got = {bundle.rules[r.rule].id: r.via for r in path.related(index)}
        assert got == want, spec.id
        assert sorted(path.related_ids(index)) == sorted(want)
        assert RelatedRules(bundle).of(index) == path.related_ids(index)
        labels = {f"{s['file']}:{s['line']}" for s in path.statements(index)}
        assert labels == nx_statements(graph, spec.id), spec.id
        assert {(e.action, e.other) for e in path.excludes(index)} == nx_excludes(graph, spec.id)


@pytest.mark.parametrize("domain", DOMAINS)
def test_procedure_steps_match_networkx_chain(bundles: dict[str, Bundle], domain: str):
    bundle = bundles[domain]
    graph = to_networkx(bundle)
    path = GraphPath(bundle)
    for proc in bundle.procedures:
        chain = path.steps(proc["id"])
        assert chain == nx_steps(graph, proc["id"])
        assert chain == [f"{proc['id']}#{n + 1}" for n in range(len(proc["steps"]))]
    assert path.steps("P-missing") is None


def random_graph_bundle(seed: int) -> Bundle:
    """A valid bundle whose graph is random typed edges among random kinds of nodes."""
    rng = random.Random(seed)
    n_rules = rng.randint(1, 8)
    n_params = rng.randint(1, 4)
    kinds = ["rule"] * n_rules + ["parameter"] * n_params + [
        rng.choice(["condition", "action", "statement", "procedure", "step", "text"])
        for _ in range(rng.randint(2, 25))]
    labels = [f"R{i}" if k == "rule" else f"p{i}" if k == "parameter" else f"{k}{i}"
              for i, k in enumerate(kinds)]
    types = ["has_condition", "triggers", "next_step", "cannot_coexist", "describes",
             "on_parameter", "has_step", "involves", "says"]
    edges = sorted({(rng.randrange(len(kinds)), rng.randrange(len(kinds)),
                     rng.randrange(len(types))) for _ in range(rng.randint(0, 120))})
    indptr = np.zeros(len(kinds) + 1, dtype="<i4")
    for s, _, _ in edges:
        indptr[s + 1] += 1
    src = {"file": "g.txt", "line": 1, "text": "generated"}
    payload = {
        "meta": {"compiler": "test", "format": 1, "bundle_id": "00", "sources": [],
                 "created_from": "test"},
        "parameters": [{"name": f"p{i}", "unit": "", "aliases": [], "range": None,
                        "deadband": 0.0, "max_age_s": None, "channel": None}
                       for i in range(n_params)],
        "rules": [{"id": f"R{i}", "kind": "if_then", "severity": "advisory",
                   "action": f"act {i}", "template": "", "condition_text": "",
                   "duration_s": None, "duration_inclusive": False, "source": src}
                  for i in range(n_rules)],
        "boxes": {"rule": b"", "start": np.zeros(1, "<i4").tobytes(), "axis": b"",
                  "lo": b"", "hi": b"", "flags": b""},
        "cnf": {"variables": [], "start": np.zeros(1, "<i4").tobytes(), "literals": b"",
                "clause_rule": b""},
        "graph": {"nodes": [{"kind": k, "label": lab} for k, lab in zip(kinds, labels,
                                                                         strict=True)],
                  "edge_types": types,
                  "indptr": np.cumsum(indptr).astype("<i4").tobytes(),
                  "indices": np.asarray([d for _, d, _ in edges], "<i4").tobytes(),
                  "etype": np.asarray([t for _, _, t in edges], "u1").tobytes()},
        "procedures": [],
    }
    return load_bundle(encode_bundle(payload))


@pytest.mark.parametrize("seed", range(40))
def test_random_typed_graphs_match_networkx(seed: int):
    bundle = random_graph_bundle(seed)
    graph = to_networkx(bundle)
    path = GraphPath(bundle)
    for node in range(len(bundle.graph.nodes)):
        for etype in bundle.graph.edge_types:
            assert set(path.graph.out(node, etype)) == succ(graph, node, etype)
            assert set(path.graph.into(node, etype)) == pred(graph, node, etype)
    for index, spec in enumerate(bundle.rules):
        got = {bundle.rules[r.rule].id: r.via for r in path.related(index)}
        assert got == nx_related(graph, bundle, spec.id)
        labels = {f"{s['file']}:{s['line']}" if "line" in s else s["file"]
                  for s in path.statements(index)}
        assert labels == nx_statements(graph, spec.id)
        assert {(e.action, e.other) for e in path.excludes(index)} == nx_excludes(graph, spec.id)


# ---------------------------------------------------------------- what it finds


def test_paper_inventory_stock_below_10_brings_stock_0_first(bundles: dict[str, Bundle]):
    bundle = bundles["inventory"]
    path = GraphPath(bundle)
    (low,) = [i for i, r in enumerate(bundle.rules) if "falls below 10 units" in r.source["text"]]
    first = path.related(low)[0]
    assert "reaches 0 units" in bundle.rules[first.rule].source["text"]
    assert (first.via, first.shared, first.relation) == ("parameter", "stock_level", "inside")
    relations = {bundle.rules[r.rule].source["text"][:40]: r.relation for r in path.related(low)}
    assert relations["If the stock level exceeds 800 units, ho"] == "disjoint"
    assert relations["If the stock level is less than 50 units"] == "contains"


def test_engine_output_carries_graph_evidence(bundles: dict[str, Bundle]):
    engine = Engine(bundles["inventory"])
    (rule,) = engine.evaluate({"stock_level": 5}).rules
    graph = rule.evidence["graph"]
    first = graph["related"][0]
    assert first["condition"] == "stock_level == 0 unit" and first["fires_now"] is False
    assert "reaches 0 units" in first["source"]["text"]
    assert rule.related[0] == first["id"]
    both = engine.evaluate({"stock_level": 0}).rules
    assert len(both) == 2
    for fired in both:
        other = {r["id"]: r for r in fired.evidence["graph"]["related"]}
        assert all(other[f.id]["fires_now"] for f in both if f is not fired)


def test_graph_switched_off_gives_no_graph_evidence(bundles: dict[str, Bundle]):
    (rule,) = Engine(bundles["inventory"], paths={"geometry"}).evaluate({"stock_level": 5}).rules
    assert "graph" not in rule.evidence and rule.related == [] and rule.procedures == []


def test_statements_describing_a_parameter_are_attached_with_their_text(
        bundles: dict[str, Bundle]):
    bundle = bundles["temperature_control"]
    path = GraphPath(bundle)
    (rule,) = [i for i, r in enumerate(bundle.rules) if "exceeds 27 °C" in r.source["text"]]
    statements = path.statements(rule)
    texts = [s.get("text") for s in statements]
    assert "Room temperature probes are calibrated every 6 months." in texts
    probe = statements[texts.index("Room temperature probes are calibrated every 6 months.")]
    assert probe["file"] == "server_room_climate.md" and probe["parameters"] == [
        "room_temperature"]
    manual = (EXAMPLES / "temperature_control" / "server_room_climate.md").read_text("utf-8")
    assert manual.splitlines()[probe["line"] - 1] == probe["text"]


PLANT = """\
If the tank pressure exceeds 300 kPa, arm the igniter.
If the tank level exceeds 80 %, open the purge valve.
If the tank temperature exceeds 90 °C, open the relief valve.
Do not arm the igniter and open the purge valve at the same time.
"""
PLANT_SENSORS = """\
[parameters.tank_pressure]
unit = "kPa"
[parameters.tank_level]
unit = "%"
[parameters.tank_temperature]
unit = "degC"
"""


@pytest.fixture
def plant(tmp_path: Path) -> Bundle:
    (tmp_path / "manual.txt").write_text(PLANT, encoding="utf-8")
    (tmp_path / "sensors.toml").write_text(PLANT_SENSORS, encoding="utf-8")
    return compile_folder(tmp_path)


def test_conflicting_actions_of_fired_rules_are_a_graph_conflict(plant: Bundle):
    engine = Engine(plant, paths={"geometry", "graph"})
    result = engine.evaluate({"tank_pressure": 350, "tank_level": 85, "tank_temperature": 20})
    assert len(result.rules) == 2
    (conflict,) = result.conflicts
    assert conflict["kind"] == "exclusion" and conflict["paths"] == ["graph"]
    assert conflict["actions"] == ["arm the igniter", "open the purge valve"]
    exclusion = next(r.id for r in plant.rules if r.kind == "exclusion")
    assert conflict["rules"][0] == exclusion
    assert set(conflict["rules"][1:]) == {r.id for r in result.rules}
    for rule in result.rules:
        (excl,) = rule.evidence["graph"]["excludes"]
        assert excl["rules"] == [exclusion]
    # only one of the two: no conflict
    one = engine.evaluate({"tank_pressure": 350, "tank_level": 50})
    assert one.conflicts == []
    assert Engine(plant, paths={"geometry"}).evaluate(
        {"tank_pressure": 350, "tank_level": 85}).conflicts == []


@pytest.mark.parametrize("mine, other, want", [
    ([(-np.inf, 10.0, 0)], [(0.0, 0.0, 3)], "inside"),
    ([(0.0, 0.0, 3)], [(-np.inf, 10.0, 0)], "contains"),
    ([(-np.inf, 10.0, 0)], [(-np.inf, 10.0, 0)], "same"),
    ([(-np.inf, 10.0, 0)], [(-np.inf, 50.0, 0)], "contains"),
    ([(-np.inf, 10.0, 0)], [(800.0, np.inf, 0)], "disjoint"),
    ([(-np.inf, 10.0, 0)], [(10.0, np.inf, 1)], "disjoint"),  # x < 10 and x >= 10
    ([(-np.inf, 10.0, 2)], [(10.0, np.inf, 1)], "overlaps"),  # x <= 10 and x >= 10 meet
    ([(-np.inf, 10.0, 2)], [(-np.inf, 10.0, 0)], "inside"),  # x < 10 inside x <= 10
    ([(0.0, 5.0, 3), (20.0, np.inf, 0)], [(21.0, 30.0, 3)], "inside"),
    ([(5.0, 20.0, 3)], [(10.0, 30.0, 3)], "overlaps"),
])
def test_interval_relations_respect_strictness(mine, other, want):
    assert relation(mine, other) == want


@pytest.mark.parametrize("domain", DOMAINS)
def test_rules_and_statements_on_a_parameter_match_networkx(bundles: dict[str, Bundle],
                                                            domain: str):
    bundle = bundles[domain]
    graph = to_networkx(bundle)
    path = GraphPath(bundle)
    rule_of = {n: i for i, spec in enumerate(bundle.rules)
               if (n := rule_node(graph, spec.id)) is not None}
    for param in bundle.parameters:
        node = next((n for n, d in graph.nodes(data=True)
                     if d["kind"] == "parameter" and d["label"] == param.name), None)
        if node is None:
            assert path.rules_on(param.name) == [] and path.statements_on(param.name) == []
            continue
        want = sorted({rule_of[r] for c in pred(graph, node, "on_parameter")
                       for r in pred(graph, c, "has_condition") if r in rule_of})
        assert path.rules_on(param.name) == want, param.name
        said = {graph.nodes[s]["label"] for s in pred(graph, node, "describes")}
        assert {f"{s['file']}:{s['line']}" for s in path.statements_on(param.name)} == said
    assert path.rules_on("no_such_parameter") == []
