"""Decisions applied to a real compile of the pump manuals: reject, correct, create, and a
decision on a sentence that changed since, which is flagged again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from review_helpers import PUMP, copy_manuals

from rulec.compiler.build import writer
from rulec.compiler.extract.offline import NEEDS_REVIEW
from rulec.compiler.model.rules import rule_to_json
from rulec.compiler.pipeline import compile_sources, extract_rules, read_sources
from rulec.compiler.review.decisions import (
    Decision,
    append_decision,
    apply_decisions,
    decision_from_json,
    latest,
    load_decisions,
)
from rulec.runtime.engine.engine import Engine
from rulec.runtime.errors import RuleSchemaError


def _extracted(src: Path = PUMP):  # type: ignore[no-untyped-def]
    return extract_rules(read_sources([src]))


def _statement(result, words: str):  # type: ignore[no-untyped-def]
    return next(st for d in result.documents if d.views for st in d.views.statements
                if words in st.text)


def _rule_of(result, st):  # type: ignore[no-untyped-def]
    return next(r for r in result.rules if r.source.get("statement") == st.id)


def _decision(action: str, st, rule=None, rule_id: str = "", why: str = "checked"
              ) -> Decision:  # type: ignore[no-untyped-def]
    obj = {"action": action, "statement": st.id, "file": st.file, "line": st.line,
           "text": st.text, "who": "A. Engineer", "when": "2026-01-02T03:04:05Z", "why": why,
           "rule_id": rule_id or (rule["id"] if rule else "")}
    if rule is not None:
        obj["rule"] = rule
    return decision_from_json(obj, "test")


def _fires(result, state: dict[str, float]) -> set[str]:  # type: ignore[no-untyped-def]
    from rulec.compiler.pipeline import build

    bundle = writer.encode(build(result, "pump").payload).bundle
    return {r.id for r in Engine(bundle).evaluate(state).rules}


def test_reject_drops_the_rule_and_keeps_the_statement_as_descriptive_with_why() -> None:
    result = _extracted()
    st = _statement(result, "falls below 20 psi")
    rule = _rule_of(result, st)
    done = apply_decisions(result, [_decision("reject", st, rule_id=rule.id,
                                              why="the pump has its own trip")])
    assert rule.id not in {r.id for r in done.result.rules}
    assert st in done.result.descriptive
    assert "the pump has its own trip" in done.result.descriptive_reason(st)
    assert rule.id in _fires(result, {"oil_pressure": 10})
    assert rule.id not in _fires(done.result, {"oil_pressure": 10})


def test_correct_moves_the_threshold_and_severity_the_bundle_evaluates() -> None:
    result = _extracted()
    st = _statement(result, "exceeds 120 °C")
    rule = rule_to_json(_rule_of(result, st))
    rule["condition"]["value"] = 110
    rule["severity"] = "warning"
    done = apply_decisions(result, [_decision("correct", st, rule)]).result
    assert rule["id"] in _fires(done, {"oil_temperature": 115})
    assert rule["id"] not in _fires(result, {"oil_temperature": 115})
    corrected = next(r for r in done.rules if r.id == rule["id"])
    assert corrected.severity == "warning"
    assert corrected.source["statement"] == st.id
    assert any("corrected in review by A. Engineer" in n for n in corrected.notes)


def test_create_turns_a_statement_needing_review_into_a_rule() -> None:
    result = _extracted()
    st = _statement(result, "for the listed cases")
    assert any(p.kind == NEEDS_REVIEW and p.line == st.line for p in result.problems)
    rule = {"schema": 1, "id": "R-made0001", "kind": "if_then", "severity": "caution",
            "condition": {"param": "oil_temperature", "op": ">", "value": 20, "unit": "degC"},
            "action": "stop the pump", "source": {"file": st.file, "line": st.line,
                                                  "text": st.text}}
    done = apply_decisions(result, [_decision("create", st, rule)]).result
    assert not any(p.fatal and p.line == st.line for p in done.problems)
    assert "R-made0001" in _fires(done, {"oil_temperature": 25})


def test_a_changed_sentence_is_flagged_again_and_its_decision_not_applied(
        tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    before = _extracted(src)
    st = _statement(before, "exceeds 120 °C")
    rule = rule_to_json(_rule_of(before, st))
    rule["condition"]["value"] = 110
    decision = _decision("correct", st, rule)
    manual = src / "pump.txt"
    manual.write_text(manual.read_text(encoding="utf-8").replace("120 °C", "125 °C"),
                      encoding="utf-8")
    after = _extracted(src)
    done = apply_decisions(after, [decision])
    assert done.stale == [decision] and not done.applied
    flagged = [p for p in done.result.problems if p.kind == NEEDS_REVIEW
               and p.line == st.line and "changed since it was reviewed" in p.reason]
    assert flagged and flagged[0].fatal
    assert rule["id"] not in _fires(done.result, {"oil_temperature": 115})  # 110 not kept


def test_the_log_keeps_every_line_and_the_last_decision_of_a_statement_wins(
        tmp_path: Path) -> None:
    result = _extracted()
    st = _statement(result, "falls below 20 psi")
    rule = rule_to_json(_rule_of(result, st))
    path = tmp_path / "decisions.jsonl"
    append_decision(path, _decision("reject", st, rule_id=rule["id"]))
    append_decision(path, _decision("accept", st, rule_id=rule["id"], why="on reflection"))
    loaded = load_decisions(path)
    assert [d.action for d in loaded] == ["reject", "accept"]
    assert [d.action for d in latest(loaded)] == ["accept"]
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[0])["who"] == "A. Engineer"
    done = compile_sources([PUMP], "pump",
                           amend=lambda result: apply_decisions(result, loaded).result)
    assert rule["id"] in {r.id for r in done.rules}


def test_a_bad_decisions_line_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    path.write_text('{"action": "accept"}\nnot json\n', encoding="utf-8")
    with pytest.raises(RuleSchemaError, match=r"decisions.jsonl:1: 'statement'"):
        load_decisions(path)
    path.write_text("\n\nnot json\n", encoding="utf-8")
    with pytest.raises(RuleSchemaError, match=r"decisions.jsonl:3: not JSON"):
        load_decisions(path)


def test_a_correction_must_carry_a_valid_rule_object() -> None:
    result = _extracted()
    st = _statement(result, "exceeds 120 °C")
    rule = rule_to_json(_rule_of(result, st))
    rule["condition"]["op"] = "about"
    with pytest.raises(RuleSchemaError, match="op"):
        _decision("correct", st, rule)


def test_an_acceptance_keeps_a_correction_and_flags_a_rule_read_differently_since() -> None:
    result = _extracted()
    st = _statement(result, "exceeds 120 °C")
    extracted = rule_to_json(_rule_of(result, st))
    corrected = dict(extracted, condition=dict(extracted["condition"], value=110))
    accept = decision_from_json({
        "action": "accept", "statement": st.id, "file": st.file, "line": st.line,
        "text": st.text, "rule_id": extracted["id"], "who": "B. Checker",
        "when": "2026-01-03T00:00:00Z", "why": "second pair of eyes", "rule": corrected},
        "test")
    both = [_decision("correct", st, corrected), accept]
    assert [d.action for d in latest(both)] == ["correct", "accept"]
    done = apply_decisions(result, both)
    assert done.stale == [] and extracted["id"] in _fires(done.result, {"oil_temperature": 115})
    alone = apply_decisions(result, [accept])  # accepted at 110, the manual says 120
    assert alone.stale == [accept]
    assert any(p.kind == NEEDS_REVIEW and "now yields it differently" in p.reason
               for p in alone.result.problems)
