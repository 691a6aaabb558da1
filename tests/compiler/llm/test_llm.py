"""The LLM extractor end to end against a real local chat-completions server.

The server (tests/llm_server.py) listens on 127.0.0.1 and answers from the recorded
answers in tests/fixtures/llm/; no other network is used.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from llm_server import RecordedLlmServer, load_fixture

from rulec.compiler.extract.offline import extract
from rulec.compiler.llm.client import (
    PROMPT_VERSION,
    SYSTEM_PROMPT,
    ChunkInput,
    LlmConfig,
    LlmConfigError,
    LlmExtraction,
    build_messages,
    chunk_statements,
    extract_with_llm,
)
from rulec.compiler.llm.merge import merge
from rulec.compiler.model.manifest import load_manifest
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import condition_to_json, dumps_rule, loads_rules
from rulec.compiler.read.statements import split_statements

FIXTURES = Path(__file__).parents[2] / "fixtures" / "llm"


def manifest_params() -> ParameterTable:
    table = ParameterTable()
    for p in load_manifest(FIXTURES / "sensors.toml").values():
        table.add(ParameterInfo(p.name, tuple(p.aliases), p.unit_text))
    return table


def chunk_of(name: str) -> ChunkInput:
    fx = load_fixture(name)
    chunks = chunk_statements(fx["document"], split_statements(fx["text"], fx["document"]))
    assert len(chunks) == 1
    return chunks[0]


def serve(server: RecordedLlmServer, *names: str) -> list[ChunkInput]:
    chunks = []
    for name in names:
        chunk = chunk_of(name)
        server.add([st.text for st in chunk.statements], load_fixture(name)["script"])
        chunks.append(chunk)
    return chunks


def config(server: RecordedLlmServer | None, tmp_path: Path, **options: Any) -> LlmConfig:
    settings: dict[str, Any] = {
        "url": server.url if server is not None else "", "model": "recorded-model",
        "api_key": "sk-test", "timeout_s": 2.0, "retries": 2, "concurrency": 1,
        "cache_dir": tmp_path / "llm-cache", "backoff_s": 0.01,
    }
    settings.update(options)
    return LlmConfig(**settings)


def run(server: RecordedLlmServer, tmp_path: Path, *names: str, **options: Any
        ) -> tuple[LlmExtraction, list[ChunkInput]]:
    chunks = serve(server, *names)
    found = extract_with_llm(chunks, manifest_params(), config(server, tmp_path, **options),
                             progress=None)
    return found, chunks


@pytest.fixture
def server() -> Any:
    with RecordedLlmServer() as srv:
        yield srv


# ---------------------------------------------------------------- answers


def test_correct_answer_gives_rules_with_our_provenance(server: RecordedLlmServer,
                                                        tmp_path: Path) -> None:
    found, [chunk] = run(server, tmp_path, "correct")
    assert found.rejected == [] and found.problems == []
    assert found.requests == 1 and found.cache_hits == 0
    assert found.labels == {chunk.chunk_id: "mixed"}
    assert len(found.rules) == 3
    first, second, third = found.rules
    # Provenance is our statement's, never the model's ("made_up.txt", line 99).
    assert first.source == {"file": "engine_limits.txt", "line": 2,
                            "text": chunk.statements[1].text,
                            "section": "2.1 Exhaust gas temperature"}
    assert condition_to_json(first.condition) == {
        "param": "egt", "op": ">", "value": 950, "unit": "degC"}
    assert second.duration_s == 300 and second.duration_inclusive is False
    assert third.kind == "constraint" and third.source["line"] == 4  # found by its quote
    assert condition_to_json(third.condition)["unit"] == "percent"
    # Ids are the offline extractor's ids for the same statements.
    offline = extract(chunk.statements, manifest_params())
    assert [r.id for r in found.rules] == [r.id for r in offline.rules]
    # The rules go through the one door again unchanged (rulec extract -> compile).
    text = "".join(dumps_rule(r) + "\n" for r in found.rules)
    assert [dumps_rule(r) for r in loads_rules(text, "x.jsonl")] == text.splitlines()


def test_request_is_a_chat_completion_at_temperature_zero(server: RecordedLlmServer,
                                                          tmp_path: Path) -> None:
    run(server, tmp_path, "correct")
    body = server.bodies[0]
    assert body["model"] == "recorded-model"
    assert body["temperature"] == 0
    assert body["response_format"] == {"type": "json_object"}
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["messages"][0]["content"] == SYSTEM_PROMPT
    assert "[4] Maximum N1: 104 %." in body["messages"][1]["content"]
    assert "- egt: egt, exhaust gas temperature [degC]" in body["messages"][1]["content"]
    assert server.headers[0]["Authorization"] == "Bearer sk-test"


def test_malformed_json_is_rejected_with_reason(server: RecordedLlmServer,
                                                tmp_path: Path) -> None:
    found, [chunk] = run(server, tmp_path, "malformed")
    assert found.rules == [] and found.problems == []
    [rejection] = found.rejected
    assert rejection.chunk_id == chunk.chunk_id
    assert rejection.reason.startswith("answer is not valid JSON")
    assert "token limit" in rejection.reason
    assert rejection.raw.startswith('{"class": "rule"')


def test_schema_invalid_object_is_rejected_the_rest_kept(server: RecordedLlmServer,
                                                         tmp_path: Path) -> None:
    found, _ = run(server, tmp_path, "schema_invalid")
    assert [r.source["line"] for r in found.rules] == [3]
    [rejection] = found.rejected
    assert rejection.line == 2 and rejection.file == "oil.txt"
    assert "not a valid rule object" in rejection.reason
    assert "op must be one of" in rejection.reason
    assert '"drops below"' in rejection.raw


def test_hallucinated_numbers_are_rejected_by_fidelity(server: RecordedLlmServer,
                                                       tmp_path: Path) -> None:
    found, _ = run(server, tmp_path, "hallucinated")
    assert found.rules == []
    reasons = {r.line: r.reason for r in found.rejected}
    assert reasons[2] == "number 650 does not appear in the source statement"
    assert reasons[3].startswith("number 284 is written in degF in the source statement but "
                                 "the rule gives no unit")


def test_unknown_parameters_are_rejected(server: RecordedLlmServer, tmp_path: Path) -> None:
    found, _ = run(server, tmp_path, "unknown_param")
    assert found.rules == []
    reasons = {r.line: r.reason for r in found.rejected}
    assert reasons[2] == "parameter 'turbine_inlet_temperature' is not a manifest parameter"
    assert reasons[3].startswith("parameter 'oil_temperature' is not named in the chunk")


def test_unknown_statement_references_are_rejected(server: RecordedLlmServer,
                                                   tmp_path: Path) -> None:
    found, _ = run(server, tmp_path, "unknown_statement")
    assert found.rules == []
    reasons = [r.reason for r in found.rejected]
    assert reasons[0] == ("rules[0]: unknown statement reference 7 (the chunk has 2 "
                          "statements)")
    assert reasons[1].startswith("rules[1]: unknown statement reference: no statement")
    assert reasons[2] == 'rules[2]: names no statement (expected "statement": N)'


# ---------------------------------------------------------------- transport


def test_500_then_success_is_retried(server: RecordedLlmServer, tmp_path: Path) -> None:
    found, _ = run(server, tmp_path, "retry_500")
    assert found.problems == [] and found.rejected == []
    assert [r.source["line"] for r in found.rules] == [2]
    assert server.requests == 2 and found.requests == 2


def test_timeout_is_retried_then_a_clear_problem(server: RecordedLlmServer,
                                                 tmp_path: Path) -> None:
    began = time.monotonic()
    found, [chunk] = run(server, tmp_path, "timeout", timeout_s=0.3, retries=1)
    elapsed = time.monotonic() - began
    assert elapsed < 3.0  # two attempts of 0.3 s and a short backoff: never a hang
    assert server.requests == 2 and found.requests == 2
    assert found.rules == []
    [problem] = found.problems
    assert problem.fatal and problem.file == "fan.txt" and problem.line == 1
    assert problem.reason == (f"LLM extraction of chunk {chunk.chunk_id} failed: no answer "
                              "after 2 attempt(s): no answer within 0.3 s")
    assert not list((tmp_path / "llm-cache").rglob("*.json"))  # failures are not cached


def test_4xx_is_not_retried(server: RecordedLlmServer, tmp_path: Path) -> None:
    chunk = chunk_of("correct")  # not served: the server answers 400
    found = extract_with_llm([chunk], manifest_params(), config(server, tmp_path),
                             progress=None)
    assert server.requests == 1
    [problem] = found.problems
    assert "HTTP 400" in problem.reason and "no recorded answer" in problem.reason


def test_connection_refused_is_a_problem(tmp_path: Path) -> None:
    with RecordedLlmServer() as gone:
        url = gone.url
    cfg = config(None, tmp_path, url=url, retries=1)
    found = extract_with_llm([chunk_of("correct")], manifest_params(), cfg, progress=None)
    [problem] = found.problems
    assert "no answer after 2 attempt(s)" in problem.reason


# ---------------------------------------------------------------- cache


def test_warm_cache_issues_no_request_and_works_offline(server: RecordedLlmServer,
                                                        tmp_path: Path) -> None:
    first, chunks = run(server, tmp_path, "correct", "hallucinated")
    assert server.requests == 2
    again = extract_with_llm(chunks, manifest_params(), config(server, tmp_path),
                             progress=None)
    assert server.requests == 2 and again.requests == 0 and again.cache_hits == 2
    offline = extract_with_llm(chunks, manifest_params(), config(None, tmp_path),
                               progress=None)
    for result in (again, offline):
        assert [dumps_rule(r) for r in result.rules] == [dumps_rule(r) for r in first.rules]
        assert [r.reason for r in result.rejected] == [r.reason for r in first.rejected]
    files = sorted((tmp_path / "llm-cache").rglob("*.json"))
    assert len(files) == 2 and f"/v{PROMPT_VERSION}/" in files[0].as_posix()
    record = json.loads(files[0].read_text("utf-8"))
    assert record["model"] == "recorded-model" and record["prompt_version"] == PROMPT_VERSION
    assert record["chunk_sha256"] in {c.sha256 for c in chunks}
    assert not list((tmp_path / "llm-cache").rglob(".tmp-*"))


def test_cache_keys_on_model_and_prompt(server: RecordedLlmServer, tmp_path: Path) -> None:
    _, chunks = run(server, tmp_path, "correct")
    extract_with_llm(chunks, manifest_params(), config(server, tmp_path, model="other"),
                     progress=None)
    assert server.requests == 2  # another model: asked again
    params = manifest_params()
    params.add(ParameterInfo("fuel_flow", ("fuel flow",), "kg/h"))
    extract_with_llm(chunks, params, config(server, tmp_path), progress=None)
    assert server.requests == 3  # another parameter list: another prompt, asked again


def test_damaged_cache_file_is_asked_again(server: RecordedLlmServer, tmp_path: Path) -> None:
    _, chunks = run(server, tmp_path, "correct")
    [path] = (tmp_path / "llm-cache").rglob("*.json")
    path.write_text("{not json", "utf-8")
    found = extract_with_llm(chunks, manifest_params(), config(server, tmp_path),
                             progress=None)
    assert server.requests == 2 and len(found.rules) == 3
    assert json.loads(path.read_text("utf-8"))["content"]


def test_cold_cache_without_endpoint_is_a_problem(tmp_path: Path) -> None:
    found = extract_with_llm([chunk_of("correct")], manifest_params(), config(None, tmp_path),
                             progress=None)
    [problem] = found.problems
    assert "no LLM endpoint configured" in problem.reason and found.requests == 0


# ---------------------------------------------------------------- concurrency, progress


def test_concurrency_gives_the_same_rules_in_chunk_order(server: RecordedLlmServer,
                                                         tmp_path: Path) -> None:
    names = ["correct", "schema_invalid", "retry_500", "both"]
    chunks = serve(server, *names)
    for key, script in server.scripts.items():  # every answer takes a while: they overlap
        server.scripts[key] = [{**step, "sleep_s": 0.1} for step in script]
    parallel = extract_with_llm(chunks, manifest_params(),
                                config(server, tmp_path / "a", concurrency=4), progress=None)
    assert server.max_in_flight >= 2
    serial = extract_with_llm(chunks, manifest_params(),
                              config(server, tmp_path / "b", concurrency=1), progress=None)
    assert [dumps_rule(r) for r in parallel.rules] == [dumps_rule(r) for r in serial.rules]
    files = [r.source["file"] for r in parallel.rules]
    assert files == sorted(files, key=[c.doc_rel for c in chunks].index)


def test_progress_line_on_stderr(server: RecordedLlmServer, tmp_path: Path) -> None:
    chunks = serve(server, "correct", "both")
    stream = io.StringIO()
    extract_with_llm(chunks, manifest_params(), config(server, tmp_path), progress=stream)
    assert stream.getvalue() == "rulec llm: 2/2 chunk(s) (0 cached, 0 failed)\n"


def test_identical_chunks_are_asked_once(server: RecordedLlmServer, tmp_path: Path) -> None:
    [chunk] = serve(server, "correct")
    twin = ChunkInput("copy.txt", "copy.txt#1", chunk.text, chunk.sha256,
                      split_statements(chunk.text, "copy.txt"))
    found = extract_with_llm([chunk, twin], manifest_params(), config(server, tmp_path),
                             progress=None)
    assert server.requests == 1
    assert [r.source["file"] for r in found.rules] == ["engine_limits.txt"] * 3 + ["copy.txt"] * 3
    assert len({r.id for r in found.rules}) == 6  # unique ids across documents


# ---------------------------------------------------------------- without a manifest


def test_without_manifest_parameters_named_in_the_chunk_are_adopted(
        server: RecordedLlmServer, tmp_path: Path) -> None:
    [chunk] = serve(server, "retry_500")
    server.scripts = {k: [{"answer": {"rules": [
        {"statement": 2, "kind": "if_then", "condition": {
            "param": "pressure_altitude", "op": ">", "value": 30000, "unit": "ft"},
         "action": "use the starter-assisted relight procedure"},
        {"statement": 2, "kind": "if_then", "condition": {
            "param": "cabin_altitude", "op": ">", "value": 30000, "unit": "ft"},
         "action": "use the starter-assisted relight procedure"}]}}] for k in server.scripts}
    params = ParameterTable(infer=True)
    found = extract_with_llm([chunk], params, config(server, tmp_path), progress=None)
    assert [r.condition.param for r in found.rules] == ["pressure_altitude"]
    assert found.rejected[0].reason == "parameter 'cabin_altitude' is not named in the chunk"
    assert "pressure_altitude" in params.params
    assert "none are listed" in build_messages(chunk, params)[1]["content"]


# ---------------------------------------------------------------- both


def test_both_merge_reports_a_disagreement(server: RecordedLlmServer, tmp_path: Path) -> None:
    found, [chunk] = run(server, tmp_path, "both")
    assert found.rejected == []
    offline = extract(chunk.statements, manifest_params())
    merged = merge(offline.rules, found.rules, param_units={"n1": "percent"})
    [disagreement] = merged.disagreements
    assert (disagreement.file, disagreement.line) == ("oil_system.txt", 3)
    assert "n1 >= 80 percent" in disagreement.offline
    assert "n1 > 80 percent" in disagreement.llm
    assert merged.agreed == 1  # line 2
    assert [r.source["line"] for r in merged.from_llm] == [4]  # offline read nothing there
    assert [r.source["line"] for r in merged.rules] == [2, 3, 4]
    # Offline wins the disagreement: its reading of line 3 is the one kept.
    assert merged.rules[1] is offline.rules[1]


# ---------------------------------------------------------------- configuration


def test_config_from_environment_and_flags() -> None:
    env = {"RULEC_LLM_URL": "http://gpu:8000/v1", "RULEC_LLM_MODEL": "qwen",
           "RULEC_LLM_API_KEY": "secret", "OTHER_KEY": "other"}
    cfg = LlmConfig.from_env(env)
    assert (cfg.url, cfg.model, cfg.api_key) == ("http://gpu:8000/v1", "qwen", "secret")
    assert cfg.endpoint == "http://gpu:8000/v1/chat/completions"
    assert cfg.temperature == 0
    assert "secret" not in repr(cfg)
    flags = LlmConfig.from_env(env, url="http://h/v1/chat/completions/", model="m",
                               key_env="OTHER_KEY", concurrency=8)
    assert flags.endpoint == "http://h/v1/chat/completions"
    assert (flags.model, flags.api_key, flags.concurrency) == ("m", "other", 8)
    with pytest.raises(LlmConfigError, match="no LLM model"):
        LlmConfig.from_env({})
    with pytest.raises(LlmConfigError, match="http"):
        LlmConfig(url="ftp://x", model="m")
    with pytest.raises(LlmConfigError):
        LlmConfig(url="", model="m", concurrency=0)


def test_prompt_is_versioned_and_depends_on_the_chunk_only() -> None:
    chunk = chunk_of("correct")
    params = manifest_params()
    assert build_messages(chunk, params) == build_messages(chunk, manifest_params())
    params.add(ParameterInfo("inferred_thing", ("inferred thing",), inferred=True))
    assert build_messages(chunk, params) == build_messages(chunk, manifest_params())
    assert PROMPT_VERSION == "1"


def test_documented_prompt_is_the_prompt() -> None:
    doc = (Path(__file__).parents[3] / "docs" / "llm-extractor.md").read_text("utf-8")
    assert f"```text\n{SYSTEM_PROMPT}\n```" in doc
    assert f"## The prompt (version {PROMPT_VERSION})" in doc


# ---------------------------------------------------------------- through the CLI


def _cli_has_extractor() -> bool:
    import inspect

    from rulec.compiler.pipeline import collect_rules

    return "extractor" in inspect.signature(collect_rules).parameters


@pytest.mark.skipif(not _cli_has_extractor(), reason="pipeline/cli not wired to --extractor yet")
def test_cli_compile_both_then_offline_from_cache(server: RecordedLlmServer, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from rulec.compiler.cli import main

    for name in ("RULEC_LLM_URL", "RULEC_LLM_MODEL", "RULEC_LLM_API_KEY"):
        monkeypatch.delenv(name, raising=False)

    manuals = tmp_path / "manuals"
    manuals.mkdir()
    (manuals / "sensors.toml").write_text((FIXTURES / "sensors.toml").read_text("utf-8"))
    for name in ("both", "hallucinated"):
        fx = load_fixture(name)
        (manuals / fx["document"]).write_text(fx["text"], "utf-8")
    serve(server, "both", "hallucinated")
    out = tmp_path / "out"
    first = ["compile", str(manuals), "-o", str(out / "a.bundle"), "--extractor", "both",
             "--llm-url", server.url, "--llm-model", "recorded-model"]
    assert main(first) == 0
    err = capsys.readouterr().err
    assert "2 request(s), 0 cached answer(s), 2 rule(s) rejected" in err
    assert "number 650 does not appear in the source statement" in err
    assert "disagreement: oil_system.txt:3:" in err
    again = ["compile", str(manuals), "-o", str(out / "b.bundle"), "--extractor", "both",
             "--llm-model", "recorded-model"]  # no URL: from the cache alone
    assert main(again) == 0
    assert server.requests == 2
    assert (out / "a.bundle").read_bytes() == (out / "b.bundle").read_bytes()
    assert (out / "rulec-llm-cache").is_dir()  # beside the knowledge base
    assert main(["compile", str(manuals), "-o", str(out / "c.bundle"), "--extractor", "llm"]) == 2
    assert "no LLM model" in capsys.readouterr().err


def test_state_comparisons_from_the_model_are_grounded_or_rejected(
        server: RecordedLlmServer, tmp_path: Path) -> None:
    params = ParameterTable()
    for p in load_manifest(Path(__file__).parents[2] / "corpora" / "discrete" / "aircraft"
                           / "sensors.toml").values():
        params.add(ParameterInfo(p.name, tuple(p.aliases), p.unit_text, states=p.states,
                                 phrases=dict(p.phrases), phase=p.phase))
    chunks = serve(server, "discrete")
    found = extract_with_llm(chunks, params, config(server, tmp_path), progress=None)
    got = [condition_to_json(r.condition) for r in found.rules if r.condition is not None]
    assert {"param": "landing_gear", "op": "==", "state": "extended"} in got[0]["all"]
    assert {"param": "flight_phase", "op": "==", "state": "takeoff"} in got[1]["all"]
    assert len(got) == 2  # "the engine is running" says nothing of "stopped"
    assert any("state 'stopped' of engine is not written" in r.reason
               for r in found.rejected)
    user = build_messages(chunks[0], params)[1]["content"]
    assert "landing_gear: landing gear, gear [states: retracted (up), extended (down)]" in user
    assert "compare it with a state, never a number" in user


def test_a_manifest_without_states_gets_the_prompt_it_had() -> None:
    user = build_messages(chunk_of("correct"), manifest_params())[1]["content"]
    assert "states" not in user
