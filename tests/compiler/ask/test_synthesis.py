"""LLM rewording of answers against a real chat-completions server on 127.0.0.1
(tests/llm_server.py): a faithful model is accepted and cached, a model that adds a
number, an action, a parameter or drops a citation is refused and the templated answer
stands, and a server that fails leaves the templated answer with the reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_server import RecordedLlmServer

from rulec.compiler.ask.compose import Answerer, AskAnswer, cite
from rulec.compiler.ask.synthesis import Synthesizer, check_rewording
from rulec.compiler.cli import main
from rulec.compiler.llm.client import LlmConfig
from rulec.runtime.engine.engine import Engine

pytestmark = pytest.mark.compiled
QUESTION = ("The chamber temperature is 820 °C and the chamber pressure 45 psi: "
            "what actions are required?")


@pytest.fixture(scope="module")
def answerer(engines: dict[str, Engine]) -> Answerer:
    return Answerer(engines["rocket_engine"])


def lines(answer: AskAnswer) -> list[str]:
    return [line.strip() for line in answer.sentences if line.strip()]


def faithful(answer: AskAnswer) -> str:
    pump, coolant = answer.rules
    return (f"Shut down the cryogenic pump {cite(pump['id'], pump['source'])}, because the "
            f"chamber temperature 820 °C is above 800 °C and the chamber pressure 45 psi is "
            f"below 50 psi. Also increase the coolant flow to the nozzle jacket by 25 % "
            f"{cite(coolant['id'], coolant['source'])}.")


def config(server: RecordedLlmServer, cache: Path | None, **kw) -> LlmConfig:
    return LlmConfig(url=server.url, model="recorded-model", cache_dir=cache, backoff_s=0.01,
                     **kw)


def test_a_faithful_rewording_is_accepted_and_then_served_from_the_cache(answerer, tmp_path):
    first = answerer.ask(QUESTION)
    with RecordedLlmServer() as server:
        server.add(lines(first), [{"answer": {"answer": faithful(first)}}])
        Synthesizer(config(server, tmp_path), answerer.bundle).reword(first)
        assert first.synthesis is not None and first.synthesis["accepted"], first.synthesis
        assert first.answer == faithful(first) != first.templated
        again = Synthesizer(config(server, tmp_path), answerer.bundle).reword(
            answerer.ask(QUESTION))
        assert server.requests == 1 and again.synthesis["cached"] is True
        assert again.answer == faithful(first)
    body = server.bodies[0]
    assert body["temperature"] == 0.0 and "do not add any number" in \
        body["messages"][0]["content"]


@pytest.mark.parametrize("change, why", [
    (lambda t: t.replace("25 %", "40 %"), "it adds the number '40"),
    (lambda t: t + " Evacuate the test cell.", "it adds words no retrieved rule holds: cell, "
     "evacuate"),
    (lambda t: t + " Check the fuel line pressure.", "it names the parameter(s) "
     "fuel_line_pressure"),
    (lambda t: t.split(", because")[0] + ".", "it drops the citation of R-"),
    (lambda t: t + " See [R-deadbeef, hot_fire_limits.txt:9].", "it cites R-deadbeef"),
])
def test_a_hallucinating_model_is_refused_and_the_templated_answer_stands(
        answerer, tmp_path, change, why):
    answer = answerer.ask(QUESTION)
    made_up = change(faithful(answer))
    with RecordedLlmServer() as server:
        server.add(lines(answer), [{"answer": {"answer": made_up}}])
        Synthesizer(config(server, None), answerer.bundle).reword(answer)
    assert answer.synthesis is not None and not answer.synthesis["accepted"]
    assert answer.synthesis["reason"].startswith(why), answer.synthesis["reason"]
    assert answer.answer == answer.templated
    assert answer.to_json()["synthesis"]["text"] == made_up


def test_the_check_alone(answerer):
    answer = answerer.ask(QUESTION)
    assert check_rewording(faithful(answer), answer, answerer.bundle).accepted
    assert not check_rewording("", answer, answerer.bundle).accepted


def test_a_failing_or_slow_server_leaves_the_templated_answer(answerer):
    for script, kw in (([{"status": 500}], {"retries": 0}),
                       ([{"sleep_s": 3.0, "answer": {"answer": "late"}}],
                        {"retries": 0, "timeout_s": 0.3})):
        answer = answerer.ask(QUESTION)
        with RecordedLlmServer() as server:
            server.add(lines(answer), script)
            Synthesizer(config(server, None, **kw), answerer.bundle).reword(answer)
        assert answer.synthesis is not None and not answer.synthesis["accepted"]
        assert answer.synthesis["reason"].startswith("the model did not answer")
        assert answer.answer == answer.templated


def test_the_command_says_when_it_refused_the_rewording(answerer, bundle_files, tmp_path,
                                                        capsys):
    answer = answerer.ask(QUESTION)
    with RecordedLlmServer() as server:
        server.add(lines(answer), [{"answer": {"answer": faithful(answer) + " Call 911."}}])
        code = main(["ask", str(bundle_files["rocket_engine"]), QUESTION, "--llm-url",
                     server.url, "--llm-model", "recorded-model", "--llm-cache",
                     str(tmp_path / "cache")])
        assert code == 0
        out = capsys.readouterr().out
        assert out.startswith(answer.templated)
        assert "(reworded answer refused: it adds the number '911'" in out
        assert main(["ask", str(bundle_files["rocket_engine"]), QUESTION, "--json",
                     "--llm-url", server.url, "--llm-model", "recorded-model",
                     "--llm-cache", str(tmp_path / "cache")]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["answer"] == shown["templated_answer"] == answer.templated
        assert shown["synthesis"]["cached"] is True


def test_without_a_model_name_the_flag_is_one_line(bundle_files, capsys, monkeypatch):
    monkeypatch.delenv("RULEC_LLM_MODEL", raising=False)
    assert main(["ask", str(bundle_files["rocket_engine"]), QUESTION, "--llm-url",
                 "http://127.0.0.1:9/v1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no LLM model" in err


def test_the_python_api_rewords_through_the_same_check(answerer, bundle_files):
    from rulec.compiler.api import ask

    plain = ask(bundle_files["rocket_engine"], QUESTION)
    assert plain.synthesis is None
    with RecordedLlmServer() as server:
        server.add(lines(plain), [{"answer": {"answer": faithful(plain)}}])
        said = ask(bundle_files["rocket_engine"], QUESTION, llm=config(server, None))
    assert said.synthesis is not None and said.synthesis["accepted"]
    assert said.answer == faithful(plain) and said.templated == plain.templated
