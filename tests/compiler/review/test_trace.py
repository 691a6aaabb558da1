"""The traceability export: statement -> rule -> bundle id -> the scenarios that raise it,
and the rules no scenario raised, checked against the runtime's own replay."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from review_helpers import PUMP, RUN

from rulec.compiler.review.session import compile_for_review
from rulec.compiler.review.trace import trace, trace_csv, write_trace
from rulec.runtime.engine.replay import replay


def test_trace_matches_what_replay_raises(tmp_path: Path) -> None:
    reviewed = compile_for_review([PUMP])
    export = trace(reviewed, [RUN])
    bundle = tmp_path / "pump.bundle"
    bundle.write_bytes(reviewed.made.data)
    raised = {e.to_json()["rule"]: e.to_json()["t"] for e in replay(bundle, RUN)
              if e.to_json()["event"] == "raise"}
    assert raised  # the run raises something, and not everything
    in_export = {r["id"]: r["raised_by"] for s in export["statements"] for r in s["rules"]}
    for rule_id, hits in in_export.items():
        if rule_id in raised:
            assert hits == [{"scenario": RUN.name, "first_raise_t": raised[rule_id]}]
        else:
            assert hits == [] and rule_id in export["never_raised"]
    assert set(export["never_raised"]) == set(in_export) - set(raised)
    assert export["bundle_id"] == reviewed.made.bundle_id


def test_every_statement_is_in_the_export_and_the_csv(tmp_path: Path) -> None:
    reviewed = compile_for_review([PUMP])
    export = trace(reviewed, [RUN])
    assert len(export["statements"]) == len(reviewed.data()["statements"])
    rows = list(csv.DictReader(io.StringIO(trace_csv(export))))
    with_rule = [r for r in rows if r["rule"]]
    assert {r["rule"] for r in with_rule} == {r.id for r in reviewed.result.rules}
    assert all(r["bundle_id"] == export["bundle_id"] for r in with_rule)
    assert {r["class"] for r in rows} >= {"compiled", "descriptive", "unreadable"}
    write_trace(tmp_path / "t.csv", export)
    assert (tmp_path / "t.csv").read_text(encoding="utf-8") == trace_csv(export)
