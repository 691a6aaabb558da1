"""`--extractor both`: matching by statement, normalised conditions, offline wins."""

from __future__ import annotations

from typing import Any

from rulec.compiler.llm.merge import merge, normalize_condition
from rulec.compiler.model.rules import Rule, condition_from_json, rule_from_json


def make(line: int, cond: dict[str, Any] | None, *, rule_id: str | None = None,
         file: str = "m.txt", kind: str = "if_then", **extra: Any) -> Rule:
    obj: dict[str, Any] = {"id": rule_id or f"R-{file}-{line}", "kind": kind,
                           "source": {"file": file, "line": line, "text": f"statement {line}"}}
    if cond is not None:
        obj.update(condition=cond, action="act")
    obj.update(extra)
    return rule_from_json(obj, "test")


def norm(cond: dict[str, Any], **units: str | None) -> Any:
    return normalize_condition(condition_from_json(cond, "test"), units)


def cmp(param: str, op: str, value: Any, unit: str | None = None,
        label: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"param": param, "op": op, "value": value}
    if unit:
        out["unit"] = unit
    if label:
        out["label"] = label
    return out


def test_normal_form_ignores_labels_unit_spelling_and_order() -> None:
    a = {"all": [cmp("t", ">", 5, "°C", "temp"), cmp("p", "<", 13, "psi")]}
    b = {"all": [cmp("p", "<", 13, "psi"), cmp("t", ">", 5, "degC")]}
    assert norm(a) == norm(b)
    assert norm(cmp("t", ">", 5, "degC")) != norm(cmp("t", ">=", 5, "degC"))


def test_normal_form_converts_units_exactly() -> None:
    assert norm(cmp("t", ">", 27, "degC")) == norm(cmp("t", ">", "80.6", "degF"))
    assert norm(cmp("t", ">", 27, "degC")) != norm(cmp("t", ">", 80, "degF"))
    # A number without unit is in the parameter's manifest unit.
    assert norm(cmp("n1", ">", 104), n1="percent") == norm(cmp("n1", ">", 104, "%"))


def test_normal_form_pushes_not_into_a_comparison_and_flattens() -> None:
    assert norm({"not": cmp("n1", "<=", 104, "percent")}) == norm(cmp("n1", ">", 104, "%"))
    assert norm({"not": {"not": cmp("x", "<", 1)}}) == norm(cmp("x", "<", 1))
    assert norm({"not": cmp("x", "between", [1, 2])}) == norm(cmp("x", "outside", [1, 2]))
    nested = {"all": [cmp("a", ">", 1), {"all": [cmp("b", ">", 2), cmp("a", ">", 1)]}]}
    assert norm(nested) == norm({"all": [cmp("b", ">", 2), cmp("a", ">", 1)]})
    assert norm({"any": [cmp("a", ">", 1)]}) == norm(cmp("a", ">", 1))


def test_agreement_disagreement_and_llm_only() -> None:
    offline = [make(2, cmp("p", "<", 13, "psi")), make(3, cmp("n1", ">=", 80, "percent")),
               make(9, cmp("q", ">", 1))]
    llm = [make(2, cmp("p", "<", 13, "psi", "oil pressure"), rule_id="L2"),
           make(3, cmp("n1", ">", 80, "%"), rule_id="L3"),
           make(5, cmp("p", "<", 20, "psi"), rule_id="L5")]
    result = merge(offline, llm)
    assert result.agreed == 1 and result.offline_only == 1
    [d] = result.disagreements
    assert (d.file, d.line, d.offline, d.llm) == ("m.txt", 3, "n1 >= 80 percent",
                                                  "n1 > 80 %")
    assert "offline kept" in str(d)
    assert [r.id for r in result.rules] == ["R-m.txt-2", "R-m.txt-3", "L5", "R-m.txt-9"]
    assert result.from_llm == [llm[2]]


def test_duration_is_part_of_the_agreement() -> None:
    offline = [make(2, cmp("t", ">", 900, "degC"), duration={"seconds": 300})]
    llm = [make(2, cmp("t", ">", 900, "degC"), duration={"seconds": 5})]
    [d] = merge(offline, llm).disagreements
    assert d.offline.endswith("for more than 300 s") and d.llm.endswith("for more than 5 s")


def test_several_rules_of_one_statement_compare_as_sets() -> None:
    offline = [make(2, cmp("a", ">", 1)), make(2, cmp("b", ">", 2), rule_id="R-2b")]
    llm = [make(2, cmp("b", ">", 2)), make(2, cmp("a", ">", 1))]
    assert merge(offline, llm).agreed == 1
    [d] = merge(offline, llm[:1]).disagreements
    assert d.offline == "a > 1; b > 2" and d.llm == "b > 2"


def test_llm_ids_are_kept_unique() -> None:
    offline = [make(2, cmp("a", ">", 1), rule_id="R-x")]
    llm = [make(4, cmp("a", ">", 1), rule_id="R-x")]
    result = merge(offline, llm)
    assert [r.id for r in result.rules] == ["R-x", "R-x-2"]


def test_exclusions_compare_by_shape() -> None:
    offline = [make(2, None, kind="exclusion", actions=["open A", "start B"])]
    llm = [make(2, None, kind="exclusion", actions=["opening A", "starting B"])]
    assert merge(offline, llm).agreed == 1


def test_other_files_are_not_matched() -> None:
    offline = [make(2, cmp("a", ">", 1), file="a.txt")]
    llm = [make(2, cmp("a", ">", 2), file="b.txt")]
    result = merge(offline, llm)
    assert result.disagreements == [] and len(result.rules) == 2
    assert [r.source["file"] for r in result.rules] == ["a.txt", "b.txt"]
