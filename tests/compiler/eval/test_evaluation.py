"""The evaluation harness: metrics on hand-checked cases, the baselines, the run end to end.

Every number asserted here is worked out by hand in the comment beside it, from the
definitions in docs/evaluation.md.  The end-to-end runs use a two-domain corpus written
by the test and the TF-IDF + SVD embedding, so they need neither torch nor a model.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from rulec.compiler.commands import eval as eval_command
from rulec.compiler.eval.baselines import TfidfSvdEmbedder, tokens
from rulec.compiler.eval.corpus import (
    EvaluationError,
    Query,
    infer_category,
    load_domain,
    load_queries,
)
from rulec.compiler.eval.run import (
    Answer,
    EvalRun,
    Outcome,
    QueryScore,
    SystemRun,
    _judge_ablations,
    aggregate,
    parse_systems,
    percentile,
    run_evaluation,
    score_query,
)

MANUAL = """\
TEST STAND LIMITS
The stand has 4 load cells.
If the chamber temperature exceeds 600 °C, increase the coolant flow.
If the chamber temperature exceeds 950 °C, declare an emergency and stop the engine.
If the oil pressure falls below 20 psi, stop the feed pump.
The tank pressure shall remain between 10 psi and 50 psi.
"""

SENSORS = """\
[parameters.chamber_temperature]
unit = "degC"
aliases = ["chamber temperature"]
range = [-200, 2000]

[parameters.oil_pressure]
unit = "psi"
aliases = ["oil pressure"]
range = [0, 500]

[parameters.tank_pressure]
unit = "psi"
aliases = ["tank pressure"]
range = [0, 500]
"""

HALL = """\
If the room temperature exceeds 27 °C, start the second cooling unit.
The hall holds 12 racks.
"""

HALL_SENSORS = """\
[parameters.room_temperature]
unit = "degF"
aliases = ["room temperature"]
range = [-40, 160]
"""

COOLANT = "exceeds 600 °C, increase the coolant flow"
EMERGENCY = "declare an emergency"
FEED = "stop the feed pump"
TANK = "tank pressure shall remain between 10 psi and 50 psi"
SECOND = "exceeds 27 °C, start the second cooling unit"

QUERIES = [
    {"id": "q1", "domain": "stand", "category": "numeric_threshold",
     "state": {"chamber_temperature": 600}, "expect": []},
    {"id": "q2", "domain": "stand", "category": "numeric_threshold",
     "state": {"chamber_temperature": 601}, "expect": [COOLANT]},
    {"id": "q3", "domain": "stand", "category": "critical_safety",
     "state": {"chamber_temperature": 951}, "expect": [COOLANT, EMERGENCY]},
    {"id": "q4", "domain": "stand", "category": "range_limit",
     "state": {"tank_pressure": 9.5}, "expect": [TANK]},
    {"id": "q5", "domain": "stand", "category": "uncovered",
     "state": {"chamber_temperature": 300, "oil_pressure": 40, "tank_pressure": 30},
     "expect": []},
    {"id": "q6", "domain": "hall", "category": "numeric_threshold",
     "state": {"room_temperature": 80.6}, "expect": []},
    {"id": "q7", "domain": "hall", "category": "numeric_threshold",
     "state": {"room_temperature": 80.7}, "expect": [SECOND]},
]


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    """Two domains: a test stand (°C, psi) and a hall whose sensor reports °F."""
    for name, manual, sensors in (("stand", MANUAL, SENSORS), ("hall", HALL, HALL_SENSORS)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "limits.txt").write_text(manual, encoding="utf-8")
        (tmp_path / name / "sensors.toml").write_text(sensors, encoding="utf-8")
    (tmp_path / "eval_queries.jsonl").write_text(
        "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in QUERIES), encoding="utf-8")
    return tmp_path


def answer(text: str, severity: str | None = None, rule: str | None = "R-1") -> Answer:
    return Answer(text, "limits.txt", 1, rule, severity)


# ---------------------------------------------------------------- metrics, by hand


def test_score_query_counts_and_weights_by_hand() -> None:
    # Expected: a caution rule (weight 2) and a warning rule (weight 3).  Returned: the
    # caution rule, and a descriptive sentence (no severity: weight 1 as a false alarm).
    score = score_query(
        ["exceeds 600 °C", "declare an emergency"], ["caution", "warning"],
        [answer("If the chamber temperature exceeds 600 °C, increase the coolant flow.",
                "caution"),
         answer("The stand has 4 load cells.", None, rule=None)],
        [True, False])
    assert score == QueryScore(expected=2, hit=1, returned=2, correct=1, grounded=1,
                               exact=False, w_hit=2.0, w_expected=5.0, w_false=1.0)


def test_score_query_matches_pieces_like_corpus_check() -> None:
    # Case and runs of whitespace are folded on both sides; a piece may be anywhere.
    score = score_query(["EXCEEDS   600 °c"], ["caution"],
                        [answer("If the chamber temperature exceeds 600 °C, increase it.")],
                        [True])
    assert score.exact and score.hit == 1 and score.correct == 1


def test_nothing_expected_nothing_returned_is_exact() -> None:
    score = score_query([], [], [], [])
    assert score.exact and score.returned == 0 and score.w_expected == 0 == score.w_false


def test_aggregate_by_hand() -> None:
    scores = [
        # q1 boundary, exact: one expected warning found, nothing else returned
        QueryScore(1, 1, 1, 1, 1, True, 3.0, 3.0, 0.0),
        # q2 boundary, not exact: one caution expected and missed; two advisories
        # returned in its place (one grounded)
        QueryScore(1, 0, 2, 0, 1, False, 0.0, 2.0, 2.0),
        # q3 uncovered, exact: nothing expected, nothing returned
        QueryScore(0, 0, 0, 0, 0, True, 0.0, 0.0, 0.0),
    ]
    m = aggregate(scores, ["numeric_threshold", "range_limit", "uncovered"],
                  [10.0, 30.0, 20.0], errors=1)
    assert m.queries == 3
    assert m.exact_match == pytest.approx(2 / 3)  # q1 and q3
    assert m.threshold_correctness == pytest.approx(1 / 2)  # boundary: q1 right, q2 wrong
    assert m.boundary_queries == 2
    assert m.precision == pytest.approx(1 / 3)  # 1 correct of 3 returned
    assert m.recall == pytest.approx(1 / 2)  # 1 of 2 expected pieces found
    assert m.non_hallucination == pytest.approx(2 / 3)  # 2 grounded of 3 returned
    assert m.criticality == pytest.approx(3 / (5 + 2))  # found 3 / (expected 5 + false 2)
    assert (m.p50_us, m.p99_us, m.errors) == (20.0, 30.0, 1)


def test_aggregate_undefined_ratios_are_none() -> None:
    m = aggregate([QueryScore(0, 0, 0, 0, 0, True, 0.0, 0.0, 0.0)], ["uncovered"], [5.0])
    assert m.precision is None and m.recall is None and m.non_hallucination is None
    assert m.threshold_correctness is None and m.boundary_queries == 0
    assert m.criticality == 1.0  # nothing to raise and nothing raised
    assert aggregate([], [], []).criticality is None


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]  # 1..100
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile([7.0, 1.0, 3.0], 50) == 3.0  # ceil(1.5) = 2nd smallest
    assert percentile([4.0], 99) == 4.0
    assert percentile([], 50) is None


# ---------------------------------------------------------------- queries and categories


def test_load_queries_reports_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "domain": "d", "state": {}, "expect": []}\n{oops\n',
                    encoding="utf-8")
    with pytest.raises(EvaluationError, match=r"q\.jsonl:2: not JSON"):
        load_queries(path)
    path.write_text('{"id": "a", "domain": "d", "state": {}, "expect": [], '
                    '"category": "boundary"}\n', encoding="utf-8")
    with pytest.raises(EvaluationError, match="unknown category 'boundary'"):
        load_queries(path)


def test_load_queries_keeps_tags_and_skips_replay_cases(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "domain": "d", "state": {"x": 1}, "expect": ["p"], '
                    '"category": "range_limit"}\n'
                    '{"id": "r", "domain": "d", "csv": "x.csv", "expect": []}\n'
                    '{"id": "b", "domain": "d", "state": {}, "expect": []}\n', encoding="utf-8")
    tagged, untagged = load_queries(path)
    assert (tagged.category, tagged.inferred) == ("range_limit", False)
    assert untagged.inferred


def test_parse_systems() -> None:
    assert parse_systems("bm25, dense") == ["bm25", "dense"]
    assert parse_systems("ablations")[0] == "rulec"  # an ablation needs the full engine
    with pytest.raises(EvaluationError, match="unknown system 'gpt'"):
        parse_systems("rulec,gpt")


def test_infer_category_from_compiled_thresholds(corpus: Path) -> None:
    domain = load_domain(corpus / "stand")

    def category(state: dict[str, float], expect: tuple[str, ...] = ()) -> str:
        return infer_category(Query("x", "stand", state, expect), domain)

    assert category({"chamber_temperature": 600}) == "numeric_threshold"
    assert category({"tank_pressure": 50.5}, (TANK,)) == "range_limit"
    assert category({"chamber_temperature": 300}) == "uncovered"
    assert category({"oil_pressure": 5}, (FEED,)) == "other"


# ---------------------------------------------------------------- domain and references


def test_domain_writes_the_state_as_text(corpus: Path) -> None:
    domain = load_domain(corpus / "stand")
    assert domain.query_text({"chamber_temperature": 820, "oil_pressure": 19.5}) == \
        "chamber temperature 820 °C, oil pressure 19.5 psi"


def test_reference_conditions_are_exact_at_converted_boundaries(corpus: Path) -> None:
    domain = load_domain(corpus / "hall")
    rule = next(p.rule_id for p in domain.passages if p.rule_id)
    ref = domain.reference

    def holds(value: float) -> bool:
        return bool(ref.holds(rule, ref.exact_state(domain, {"room_temperature": value})))

    # 27 °C is exactly 80.6 °F: "exceeds" is strict
    assert ref.exact_state(domain, {"room_temperature": 80.6}) == {
        "room_temperature": Fraction(403, 5)}
    assert not holds(80.6)
    assert holds(80.7)
    assert not holds(170)  # outside the sensor's range: invalid, never satisfies


def test_passages_index_rules_and_descriptive_sentences(corpus: Path) -> None:
    domain = load_domain(corpus / "stand")
    texts = {p.text: p.rule_id for p in domain.passages}
    assert texts["The stand has 4 load cells."] is None
    assert texts["If the oil pressure falls below 20 psi, stop the feed pump."] is not None
    assert "TEST STAND LIMITS" not in texts  # a heading is no answer


# ---------------------------------------------------------------- baselines


def test_tokens_fold_thousands_separators() -> None:
    assert tokens("Above 20,000 rpm, at 0.25 kPa!") == ["above", "20000", "rpm", "at", "0.25",
                                                        "kpa"]


def test_bm25_finds_the_sentence_about_the_parameter(corpus: Path) -> None:
    pytest.importorskip("rank_bm25")
    from rulec.compiler.eval.baselines import Bm25System

    domain = load_domain(corpus / "stand")
    bm25 = Bm25System(k=1)
    bm25.prepare(domain)
    (top,) = bm25.answer(domain, Query("x", "stand", {"oil_pressure": 19}, ()))
    assert FEED in top.text and top.rule_id is not None
    oracle = Bm25System(k=None)
    oracle.prepare(domain)
    assert len(oracle.answer(domain, Query("x", "stand", {"oil_pressure": 19},
                                           (FEED, "a", "b")))) == 3
    assert len(oracle.answer(domain, Query("x", "stand", {"oil_pressure": 40}, ()))) == 1


def test_tfidf_svd_embedding_ranks_by_shared_words() -> None:
    texts = ["oil pressure falls below 20 psi", "chamber temperature exceeds 600",
             "the stand has four load cells"]
    emb = TfidfSvdEmbedder()
    emb.fit(texts)
    matrix = emb.encode(texts)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0)
    q = emb.encode(["chamber temperature 820"])[0]
    assert int(np.argmax(matrix @ q)) == 1
    assert not emb.encode(["zzz unknown words"]).any()  # nothing shared: a zero vector


# ---------------------------------------------------------------- ablations


def _outcome(q: Query, paths: frozenset[str]) -> Outcome:
    a = Answer("text", "f", 1, "R-1", "caution", paths)
    return Outcome(q, "s", (a,), (True,), 1.0, "", QueryScore(1, 1, 1, 1, 1, True, 2, 2, 0))


def test_ablations_without_effect_get_no_numbers() -> None:
    q = Query("q", "d", {}, ("text",))
    full = SystemRun("rulec", "", outcomes=[_outcome(q, frozenset({"geometry", "graph"}))])
    geo = SystemRun("rulec-no-geometry", "", outcomes=[_outcome(q, frozenset({"geometry"}))])
    logic = SystemRun("rulec-no-logic", "", outcomes=[_outcome(q, frozenset({"geometry"}))])
    graph = SystemRun("rulec-no-graph", "", outcomes=[_outcome(q, frozenset({"geometry"}))])
    run = EvalRun(Path("."), Path("q"), [q], {}, [full, geo, logic, graph], 3)
    _judge_ablations(run)
    assert geo.status.startswith("not meaningful") and "not honoured" in geo.status
    assert logic.status.startswith("not meaningful") and "logic path" in logic.status
    assert graph.status == "ok"
    assert "differ from the full engine on 0 of 1" in graph.note


# A rule with an exception and its complement, both concluding the same action: with the
# pump speed unknown, classical logic splits the cases and entails the action (so the logic
# path alone fires both rules), while geometry fires neither (docs of runtime/engine/engine.py).
PUMP = """\
If the oil pressure falls below 20 psi unless the pump speed exceeds 3000 rpm, stop the feed pump.
If the oil pressure falls below 20 psi and the pump speed exceeds 3000 rpm, stop the feed pump.
If the chamber temperature exceeds 600 °C, increase the coolant flow.
"""
PUMP_SENSORS = """\
[parameters.oil_pressure]
unit = "psi"
range = [0, 500]
[parameters.pump_speed]
unit = "rpm"
range = [0, 10000]
[parameters.chamber_temperature]
unit = "degC"
range = [-200, 2000]
"""
PUMP_QUERIES = [
    {"id": "a1", "domain": "pump", "category": "option_exclusion",
     "state": {"oil_pressure": 10}, "expect": []},
    {"id": "a2", "domain": "pump", "category": "option_exclusion",
     "state": {"oil_pressure": 10, "pump_speed": 100},
     "expect": ["unless the pump speed exceeds 3000 rpm"]},
    {"id": "a3", "domain": "pump", "category": "numeric_threshold",
     "state": {"chamber_temperature": 601}, "expect": [COOLANT]},
]


def test_ablations_are_computed_by_the_engines_path_switches(tmp_path: Path) -> None:
    (tmp_path / "pump").mkdir()
    (tmp_path / "pump" / "limits.txt").write_text(PUMP, encoding="utf-8")
    (tmp_path / "pump" / "sensors.toml").write_text(PUMP_SENSORS, encoding="utf-8")
    (tmp_path / "eval_queries.jsonl").write_text(
        "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in PUMP_QUERIES),
        encoding="utf-8")
    run = run_evaluation(tmp_path, "ablations", repeat=1)
    by_name = {s.name: s for s in run.systems}
    assert all(s.status == "ok" for s in run.systems), [s.status for s in run.systems]
    full, no_geo = by_name["rulec"].metrics(), by_name["rulec-no-geometry"].metrics()
    assert (full.exact_match, full.precision, full.criticality) == (1, 1, 1)
    # Geometry off: a1 (pump speed unknown) returns both "stop the feed pump" rules, both
    # wrong and both hallucinated (their conditions need the pump speed); a2, a3 right.
    (a1,) = [o for o in by_name["rulec-no-geometry"].outcomes if o.query.id == "a1"]
    assert len(a1.answers) == 2 and a1.grounded == (False, False)
    assert no_geo.exact_match == pytest.approx(2 / 3)
    assert no_geo.precision == pytest.approx(2 / 4)  # 2 correct of 4 returned
    assert no_geo.recall == 1
    assert no_geo.non_hallucination == pytest.approx(2 / 4)
    # found: 2 + 2 (two cautions); expected 2 + 2; false alarms 2 + 2 (two cautions)
    assert no_geo.criticality == pytest.approx(4 / (4 + 4))
    assert no_geo.threshold_correctness == 1  # a3, the only boundary query, is right
    # Logic off or graph off: geometry still decides, so the rule sets do not change,
    # and the switched-off path leaves no trace in any answer.
    for name, path in (("rulec-no-logic", "logic"), ("rulec-no-graph", "graph")):
        assert by_name[name].metrics().exact_match == 1
        assert "rule sets differ from the full engine on 0 of 3" in by_name[name].note
        assert not any(path in a.paths for o in by_name[name].outcomes for a in o.answers)
    assert "differ from the full engine on 1 of 3" in by_name["rulec-no-geometry"].note


def test_a_retrieved_rule_at_its_strict_threshold_is_a_hallucination(corpus: Path) -> None:
    # The coolant rule says "exceeds 600 °C": at 600 its condition does not hold, so a
    # retriever citing it hallucinates; at 600.5 the same citation is grounded.
    from rulec.compiler.eval.run import _scored

    domain = load_domain(corpus / "stand")
    coolant = next(p for p in domain.passages if COOLANT in p.text)
    cited = [Answer(coolant.text, coolant.file, coolant.line, coolant.rule_id,
                    coolant.severity)]
    at = _scored(Query("x", "stand", {"chamber_temperature": 600}, ()), domain, "s", cited,
                 1.0, "")
    assert at.grounded == (False,) and not at.score.exact
    past = _scored(Query("y", "stand", {"chamber_temperature": 600.5}, (COOLANT,)), domain,
                   "s", cited, 1.0, "")
    assert past.grounded == (True,) and past.score.exact


# ---------------------------------------------------------------- end to end


def test_run_end_to_end_with_tfidf_fallback(corpus: Path) -> None:
    pytest.importorskip("rank_bm25")
    run = run_evaluation(corpus, "rulec,bm25,dense,dense-oracle-k", k=2, dense="tfidf",
                         repeat=1)
    assert [q.id for q in run.queries] == [q["id"] for q in QUERIES]
    rulec = run.system("rulec")
    assert rulec is not None and rulec.status == "ok"
    m = rulec.metrics()
    assert (m.exact_match, m.threshold_correctness, m.precision, m.recall) == (1, 1, 1, 1)
    assert m.non_hallucination == 1 and m.criticality == 1
    dense = run.system("dense")
    assert dense is not None and "TF-IDF + SVD" in dense.description
    bm25 = run.system("bm25")
    assert bm25 is not None
    # k = 2 answers for every state: never exact where one rule or none applies
    assert all(len(o.answers) == 2 for o in bm25.outcomes)
    assert bm25.metrics(lambda q: q.category == "uncovered").exact_match == 0
    # a descriptive sentence returned is never grounded
    for o in bm25.outcomes:
        for a, grounded in zip(o.answers, o.grounded, strict=True):
            if a.rule_id is None:
                assert not grounded


def test_grounded_needs_the_condition_to_hold_not_the_label(corpus: Path) -> None:
    # A rule whose compiled condition holds is not a hallucination even when the labels
    # forgot it; precision still counts it wrong.
    from rulec.compiler.eval.run import _scored

    domain = load_domain(corpus / "stand")
    coolant = next(p for p in domain.passages if p.text.startswith("If the chamber "
                                                                   "temperature exceeds 600"))
    feed = next(p for p in domain.passages if FEED in p.text)
    q = Query("x", "stand", {"chamber_temperature": 700}, ())
    answers = [Answer(p.text, p.file, p.line, p.rule_id, p.severity) for p in (coolant, feed)]
    outcome = _scored(q, domain, "s", answers, 1.0, "")
    assert outcome.grounded == (True, False)
    assert outcome.score.correct == 0 and outcome.score.grounded == 1


def _eval_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rulec")
    eval_command.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["eval", *argv])


def test_eval_command_writes_report_without_matplotlib(
        corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("rank_bm25")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    out = tmp_path / "report"
    args = _eval_args(str(corpus), "-o", str(out), "--systems", "rulec,bm25",
                      "--dense", "tfidf", "--k", "2", "--repeat", "1", "-q")
    assert args.run(args) == 0
    printed = capsys.readouterr().out
    assert "| `rulec` | 7 | 100.0 % |" in printed
    assert "Exact match by category:" in printed
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "matplotlib is not installed" in report and "## Summary" in report
    assert not list(out.glob("*.png"))
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert [s["name"] for s in results["systems"]] == ["rulec", "bm25"]
    assert results["systems"][0]["metrics"]["exact_match"] == 1.0


def test_eval_command_draws_charts(corpus: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "report"
    args = _eval_args(str(corpus), "-o", str(out), "--systems", "rulec,dense",
                      "--dense", "tfidf", "--repeat", "1", "-q")
    assert args.run(args) == 0
    capsys.readouterr()
    for chart in eval_command.CHARTS:
        assert (out / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_category_tables_give_every_metric_by_category(corpus: Path) -> None:
    pytest.importorskip("rank_bm25")
    run = run_evaluation(corpus, "rulec,bm25", k=2, repeat=1)
    text = eval_command.category_tables(run)
    for title, _ in eval_command.CATEGORY_METRICS:
        assert f"### {title} by category" in text
    # Threshold correctness exists for the boundary categories only: those rows alone.
    section = text.split("### Threshold correctness")[1].split("###")[0]
    rows = [line.split(" | ")[0] for line in section.splitlines() if line.startswith("| ")]
    assert rows == ["| category", "| numeric threshold", "| range limit"]
    # rulec answers the uncovered state q5 with nothing: precision and recall undefined;
    # bm25 (k = 2) returns 2 sentences, none expected: precision 0, recall undefined.
    assert "| uncovered | 1 | — / — | 0.0 % / — |" in text
    assert "| critical safety | 1 | 100.0 % | " in text  # exact match, q3


def test_rulec_eval_through_the_cli(corpus: Path, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from rulec.compiler.cli import _parser, main

    commands = next(a.choices for a in _parser()._actions
                    if isinstance(a, argparse._SubParsersAction))
    if "eval" not in commands:
        pytest.skip("cli.py does not register `rulec eval` yet")
    status = main(["eval", str(corpus), "-o", str(tmp_path / "r"), "--systems", "rulec",
                   "--repeat", "1", "-q"])
    assert status == 0 and "| `rulec` | 7 |" in capsys.readouterr().out
    assert main(["eval", str(corpus), "--systems", "nope"]) == 2
    assert "unknown system 'nope'" in capsys.readouterr().err


def test_a_failed_answer_is_wrong_and_reported(corpus: Path, tmp_path: Path) -> None:
    queries = tmp_path / "bad.jsonl"
    queries.write_text(json.dumps({"id": "b1", "domain": "stand", "state": {"bogus": 1},
                                   "expect": []}) + "\n", encoding="utf-8")
    run = run_evaluation(corpus, "rulec", queries_file=queries, repeat=1)
    rulec = run.system("rulec")
    assert rulec is not None
    (outcome,) = rulec.outcomes
    assert "unknown parameter 'bogus'" in outcome.error and not outcome.score.exact
    assert rulec.metrics().errors == 1
    assert any("1 queries failed" in n for n in eval_command.system_notes(run))
