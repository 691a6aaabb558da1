"""The question evaluation: labelled questions in words scored per kind for `rulec ask`
and for retrieval given the same question text, on real compiled example domains."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulec.compiler.cli import main
from rulec.compiler.eval.corpus import EvaluationError
from rulec.compiler.eval.questions import load_questions, run_questions

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "manuals"
QUESTIONS = [
    {"id": "a", "domain": "inventory", "kind": "what_if",
     "question": "What happens when the stock reaches zero?",
     "expect": ["raise a reorder request", "flag the item as out of stock"],
     "state": {"stock_level": 0}},
    {"id": "b", "domain": "inventory", "kind": "applies", "question": "stock level 10",
     "expect": [], "state": {"stock_level": 10}, "boundary": True},
    {"id": "c", "domain": "inventory", "kind": "steps",
     "question": "What are the steps of goods receipt?", "expect": ["Goods receipt procedure"]},
    {"id": "d", "domain": "inventory", "kind": "applies", "unknown": True,
     "question": "The humidity in the warehouse is 80 %. What applies?", "expect": []},
    # a wrong label on purpose: the harness must count it as a miss, not pass it
    {"id": "e", "domain": "inventory", "kind": "applies", "question": "stock level 7",
     "expect": ["hold further deliveries"], "state": {"stock_level": 7}},
]


def write(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_ask_and_bm25_are_scored_per_question(tmp_path):
    pytest.importorskip("rank_bm25", reason="rank-bm25 is in the test extra")
    run = run_questions(EXAMPLES, write(tmp_path, QUESTIONS), ["rulec-ask", "bm25"])
    ask, bm25 = run.systems
    exact = {o.question.id: o.score.exact for o in ask.outcomes}
    assert exact == {"a": True, "b": True, "c": True, "d": True, "e": False}
    assert "kind read as labelled on 5 of 5" in ask.note
    assert "1 of 1 questions naming what the bundle does not know" in ask.note
    # retrieval returns k statements whatever the question: never right on b and d
    assert all(len(o.answers) == 3 for o in bm25.outcomes)
    bm25_exact = {o.question.id: o.score.exact for o in bm25.outcomes}
    assert not bm25_exact["b"] and not bm25_exact["d"]
    m = ask.metrics()
    assert m.queries == 5 and m.exact_match == pytest.approx(0.8)
    assert m.threshold_correctness == 1.0 and m.boundary_queries == 1


def test_an_unknown_question_answered_as_if_known_is_a_miss(tmp_path):
    rows = [{"id": "x", "domain": "inventory", "kind": "applies", "unknown": True,
             "question": "stock level 300", "expect": []}]
    (outcome,) = run_questions(EXAMPLES, write(tmp_path, rows), ["rulec-ask"]).systems[0].outcomes
    assert outcome.answers == () and not outcome.score.exact


@pytest.mark.parametrize("row, message", [
    ({"id": "x", "domain": "inventory", "kind": "why", "question": "q", "expect": []},
     "'kind' must be one of"),
    ({"id": "x", "domain": "inventory", "kind": "steps", "question": "q", "expect": "no"},
     "'expect' must be a list"),
    ({"id": "x", "domain": "inventory", "kind": "steps", "expect": []}, "needs string fields"),
])
def test_a_malformed_line_names_the_file_and_line(tmp_path, row, message):
    path = write(tmp_path, [QUESTIONS[0], row])
    with pytest.raises(EvaluationError, match=rf"questions.jsonl:2: {message}"):
        load_questions(path)


def test_the_labelled_sets_hold_at_least_150_questions_of_every_kind():
    rows = [*load_questions(ROOT / "bench/eval/questions/examples.jsonl"),
            *load_questions(ROOT / "bench/eval/questions/dev.jsonl")]
    assert len(rows) >= 150
    assert {q.kind for q in rows} == {"applies", "steps", "what_if", "concern", "allowed"}
    assert sum(not q.expect for q in rows) >= 20 and sum(q.unknown for q in rows) >= 5
    assert len({q.question for q in rows if q.domain != "rocket_engine"}) > 100


def test_rulec_eval_questions_writes_the_report(tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["eval", str(EXAMPLES), "--questions", str(write(tmp_path, QUESTIONS[:3])),
                 "--systems", "rulec-ask", "-o", str(out), "-q"]) == 0
    printed = capsys.readouterr().out
    assert "| rulec-ask | 3 | 100.0 % |" in printed
    assert (out / "questions.md").read_text("utf-8").count("### ") == 4  # all + 3 kinds
    results = json.loads((out / "questions.json").read_text("utf-8"))
    assert [a["id"] for a in results["systems"][0]["answers"]] == ["a", "b", "c"]


def test_the_report_never_overwrites_the_question_file(tmp_path, capsys):
    questions = tmp_path / "questions.json"
    questions.write_text(json.dumps(QUESTIONS[0]) + "\n", encoding="utf-8")
    assert main(["eval", str(EXAMPLES), "--questions", str(questions), "--systems",
                 "rulec-ask", "-o", str(tmp_path), "-q"]) == 2
    assert "questions.json" in capsys.readouterr().err
    assert json.loads(questions.read_text("utf-8"))["id"] == "a"
