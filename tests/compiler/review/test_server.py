"""The review server over real HTTP on 127.0.0.1: the page, a decision tried before it is
written, and refusals the page can show."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from review_helpers import copy_manuals

from rulec.compiler.review.decisions import load_decisions
from rulec.compiler.review.server import ReviewState, make_server


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, ReviewState]]:
    state = ReviewState([copy_manuals(tmp_path)], tmp_path / "decisions.jsonl", "tester")
    server = make_server(state)
    assert server.server_address[0] == "127.0.0.1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", state
    finally:
        server.shutdown()
        server.server_close()


def _post(url: str, body: object, headers: dict[str, str] | None = None
          ) -> tuple[int, dict]:  # type: ignore[type-arg]
    request = urllib.request.Request(
        url + "/api/decision", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def _rule(state: ReviewState, words: str):  # type: ignore[no-untyped-def]
    return next(r for r in state.reviewed.data()["rules"] if words in r["text"])


def test_the_page_is_served_with_its_forms(served: tuple[str, ReviewState]) -> None:
    url, _ = served
    with urllib.request.urlopen(url + "/", timeout=30) as answer:
        page = answer.read().decode()
    assert '"serve":true' in page and '"who":"tester"' in page
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(url + "/etc/passwd", timeout=30)
    assert missing.value.code == 404


def test_a_correction_is_tried_then_written(served: tuple[str, ReviewState]) -> None:
    url, state = served
    rule = _rule(state, "exceeds 120 °C")
    obj = dict(rule["object"], condition=dict(rule["object"]["condition"], value=115))
    status, answer = _post(url, {"action": "correct", "statement": rule["statement"],
                                 "rule_id": rule["id"], "who": "A. Engineer",
                                 "why": "stand limit", "rule": obj})
    assert status == 200 and answer["ok"]
    (decision,) = load_decisions(state.path)
    assert decision.action == "correct" and decision.who == "A. Engineer"
    assert decision.rule is not None and decision.rule.source["statement"] == rule["statement"]
    assert _rule(state, "exceeds 120 °C")["boxes"] == ["oil temperature is above 115 °C"]


def test_a_rule_the_build_refuses_is_not_written(served: tuple[str, ReviewState]) -> None:
    url, state = served
    rule = _rule(state, "exceeds 120 °C")
    obj = dict(rule["object"], condition=dict(rule["object"]["condition"], unit="psi"))
    body = {"action": "correct", "statement": rule["statement"], "rule_id": rule["id"],
            "who": "A", "why": "", "rule": obj}
    status, answer = _post(url, body)
    assert status == 400 and "say why" in answer["error"]
    status, answer = _post(url, dict(body, why="the gauge reads psi"))
    assert status == 400 and "psi" in answer["error"]
    assert not state.path.exists()


def test_a_post_from_another_origin_is_refused(served: tuple[str, ReviewState]) -> None:
    url, state = served
    rule = _rule(state, "exceeds 120 °C")
    status, _ = _post(url, {"action": "accept", "statement": rule["statement"],
                            "rule_id": rule["id"], "who": "A", "why": ""},
                      {"Origin": "http://evil.example"})
    assert status == 403 and not state.path.exists()


def test_an_acceptance_records_the_rule_as_accepted(served: tuple[str, ReviewState]) -> None:
    url, state = served
    rule = _rule(state, "falls below 20 psi")
    status, _ = _post(url, {"action": "accept", "statement": rule["statement"],
                            "rule_id": rule["id"], "who": "A", "why": "as written"})
    assert status == 200
    (decision,) = load_decisions(state.path)
    assert decision.rule is not None and decision.rule.id == rule["id"]
    assert state.reviewed.stale == []
    status, answer = _post(url, {"action": "accept", "statement": rule["statement"],
                                 "rule_id": "R-none", "who": "A", "why": ""})
    assert status == 400 and "R-none" in answer["error"]


def test_a_request_naming_another_host_gets_nothing(served: tuple[str, ReviewState]) -> None:
    url, _ = served
    request = urllib.request.Request(url + "/", headers={"Host": "attacker.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403
