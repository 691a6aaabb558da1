"""The compile a review shows is the compile `rulec compile` makes: same bundle, byte for
byte, with and without decisions."""

from __future__ import annotations

from pathlib import Path

from review_helpers import PUMP

from rulec.compiler.build import writer
from rulec.compiler.model.rules import rule_to_json
from rulec.compiler.pipeline import compile_sources
from rulec.compiler.review.decisions import apply_decisions, decision_from_json
from rulec.compiler.review.session import (
    compile_for_review,
    created_from,
    extract_for_review,
)


def test_the_review_compiles_the_bundle_compile_makes() -> None:
    reviewed = compile_for_review([PUMP])
    made = writer.encode(compile_sources([PUMP], created_from([PUMP])).payload)
    assert reviewed.made.data == made.data


def test_with_decisions_and_one_extraction_reused(tmp_path: Path) -> None:
    extracted = extract_for_review([PUMP])
    rule = next(r for r in extracted.rules if "falls below 20 psi" in r.source["text"])
    decision = decision_from_json({
        "action": "correct", "statement": rule.source["statement"], "file": "pump.txt",
        "line": rule.source["line"], "text": rule.source["text"], "who": "A", "why": "",
        "when": "2026-01-02T03:04:05Z",
        "rule": dict(rule_to_json(rule), condition=dict(rule_to_json(rule)["condition"],
                                                        value=25))}, "test")
    once = compile_for_review([PUMP], [decision], extracted)
    again = compile_for_review([PUMP], [decision], extracted)
    fresh = compile_for_review([PUMP], [decision])
    assert once.made.data == again.made.data == fresh.made.data
    made = writer.encode(compile_sources(
        [PUMP], created_from([PUMP]),
        amend=lambda result: apply_decisions(result, [decision]).result).payload)
    assert once.made.data == made.data
    assert once.made.bundle_id != compile_for_review([PUMP]).made.bundle_id
