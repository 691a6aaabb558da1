"""A review of rules from the LLM extractor: the recorded chat-completions server of the
LLM tests answers on 127.0.0.1, and the page shows what it gave, statement by statement."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from llm_server import RecordedLlmServer, load_fixture  # noqa: E402

from rulec.compiler.llm.client import LlmConfig, chunk_statements  # noqa: E402
from rulec.compiler.read.views import build_views  # noqa: E402
from rulec.compiler.review.session import compile_for_review  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "llm"


def test_the_page_shows_the_rules_the_llm_extractor_gave(tmp_path: Path) -> None:
    fx = load_fixture("correct")
    src = tmp_path / "manuals"
    src.mkdir()
    (src / fx["document"]).write_text(fx["text"], encoding="utf-8")
    (src / "sensors.toml").write_text((FIXTURES / "sensors.toml").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    views = build_views(src / fx["document"], fx["document"])
    with RecordedLlmServer() as server:
        for chunk in chunk_statements(fx["document"], views.statements):
            server.add([st.text for st in chunk.statements], fx["script"])
        config = LlmConfig(url=server.url, model="recorded-model", api_key="sk-test",
                           timeout_s=5.0, retries=0, concurrency=1,
                           cache_dir=tmp_path / "cache", backoff_s=0.01)
        data = compile_for_review([src], extractor="llm", llm=config).data()
        assert server.requests >= 1
    compiled = [s for s in data["statements"] if s["class"] == "compiled"]
    assert compiled and {r for s in compiled for r in s["rules"]} == {
        r["id"] for r in data["rules"]}
    egt = next(s for s in data["statements"] if "EGT exceeds 950" in s["text"])
    assert egt["class"] == "compiled"
