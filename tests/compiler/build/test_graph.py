"""The knowledge-base graph built from rules and descriptive statements."""

from __future__ import annotations

from rulec.compiler.build.boxes import ThresholdConverter
from rulec.compiler.build.graph import build_graph
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.read.statements import Statement


def test_statements_on_the_same_line_of_different_pages_stay_apart() -> None:
    params = ParameterTable()
    params.add(ParameterInfo("oil_pressure", ("oil pressure",), "psi"))
    said = [Statement("manual.pdf", 3, f"Oil pressure reads {n}0 psi at idle.", "sentence",
                      page=n) for n in (1, 2)]
    graph = build_graph([], said, params, ThresholdConverter({"oil_pressure": "psi"}))
    labels = [n["label"] for n in graph.nodes if n["kind"] == "statement"]
    assert labels == ["manual.pdf:p1:3", "manual.pdf:p2:3"]
    texts = [n["label"] for n in graph.nodes if n["kind"] == "text"]
    assert len(texts) == 2


def test_a_text_statement_is_labelled_by_file_and_line() -> None:
    assert Statement("manual.md", 12, "x", "sentence").where == "manual.md:12"


def test_a_rule_that_is_a_procedure_title_starts_that_procedure() -> None:
    from rulec.compiler.build.graph import EDGE_TYPES
    from rulec.compiler.extract.offline import extract
    from rulec.compiler.read.statements import split_statements

    params = ParameterTable()
    params.add(ParameterInfo("oil_pressure", ("oil pressure",), "psi"))
    text = ("If the oil pressure drops below 20 psi, accomplish the following:\n"
            "1. Reduce the speed.\n2. Land at the nearest suitable airport.\n")
    found = extract(split_statements(text, "qrh.txt"), params)
    rule, proc = found.rules
    graph = build_graph(found.rules, [], params, ThresholdConverter({"oil_pressure": "psi"}))
    index = {(n["kind"], n["label"]): i for i, n in enumerate(graph.nodes)}
    triggers = EDGE_TYPES.index("triggers")
    assert (index[("rule", rule.id)], index[("procedure", proc.id)], triggers) in graph.edges
