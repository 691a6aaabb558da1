"""A real chat-completions server for the LLM tests: http.server on 127.0.0.1, port 0.

It answers POST .../chat/completions from recorded answers keyed by a hash of the
request's chunk (the statement texts between the prompt's STATEMENTS markers), counts
requests, and can misbehave on cue.  Each recorded chunk has a *script*, one step per
request for that chunk (the last step repeats):

    {"answer": {...}}           a chat completion whose content is this object as JSON
    {"content": "..."}          a chat completion with this exact content (malformed JSON...)
    {"status": 500}             an HTTP error with an OpenAI-style error body
    {"body": "..."}             HTTP 200 with this raw body (not a chat completion)
    {"sleep_s": 2.0, ...}       wait first (longer than the client's timeout: a timeout)

Fixtures (tests/fixtures/llm/*.json) hold a manual's text and its script, so a reader
sees what the model was asked and what it said.  Run `python tests/llm_server.py` to
serve the fixtures by hand (`rulec compile --extractor llm --llm-url URL ...`).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures" / "llm"
BEGIN, END = "=== STATEMENTS ===", "=== END ==="
_NUMBERED = re.compile(r"^\[(\d+)\] (.*)$")


def chunk_key(statement_texts: list[str]) -> str:
    """The key of a chunk: the SHA-256 of its statement texts (whitespace folded)."""
    folded = "\n".join(" ".join(t.split()) for t in statement_texts)
    return hashlib.sha256(folded.encode("utf-8")).hexdigest()[:16]


def statements_of_prompt(user_content: str) -> list[str]:
    """The statement texts a prompt numbers, in order."""
    inside = user_content.split(BEGIN, 1)[-1].split(END, 1)[0]
    return [m.group(2) for line in inside.splitlines() if (m := _NUMBERED.match(line))]


def completion(content: str, model: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-recorded", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "finish_reason": finish_reason,
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


class RecordedLlmServer:
    """Serve recorded answers on 127.0.0.1 in a background thread; a context manager."""

    def __init__(self) -> None:
        self.scripts: dict[str, list[dict[str, Any]]] = {}
        self.counts: Counter[str] = Counter()  # requests per chunk key
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,),
                                        daemon=True, name="llm-test-server")

    # -- set-up
    def add(self, statement_texts: list[str], script: list[dict[str, Any]]) -> str:
        key = chunk_key(statement_texts)
        self.scripts[key] = script
        return key

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def requests(self) -> int:
        return sum(self.counts.values())

    def __enter__(self) -> RecordedLlmServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()  # wakes handlers that are "thinking" (sleep_s)
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    # -- answering
    def respond(self, body: dict[str, Any]) -> tuple[int, bytes, float]:
        """(status, body, seconds to wait first) for one request."""
        user = next((m.get("content", "") for m in body.get("messages", [])
                     if m.get("role") == "user"), "")
        key = chunk_key(statements_of_prompt(user))
        with self._lock:
            self.bodies.append(body)
            index = self.counts[key]
            self.counts[key] += 1
        script = self.scripts.get(key)
        if not script:
            error = {"error": {"message": f"no recorded answer for chunk {key}",
                               "type": "invalid_request_error"}}
            return 400, json.dumps(error).encode(), 0.0
        step = script[min(index, len(script) - 1)]
        wait = float(step.get("sleep_s", 0.0))
        if "status" in step:
            error = {"error": {"message": step.get("message", "recorded failure"),
                               "type": "server_error"}}
            return int(step["status"]), json.dumps(error).encode(), wait
        if "body" in step:
            return 200, str(step["body"]).encode(), wait
        content = step["content"] if "content" in step else json.dumps(step["answer"])
        model = str(body.get("model", ""))
        reply = completion(content, model, step.get("finish_reason", "stop"))
        return 200, json.dumps(reply).encode(), wait


def _handler(server: RecordedLlmServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            pass

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, b'{"error": {"message": "not found"}}')
                return
            try:
                body = json.loads(raw)
            except ValueError:
                self._send(400, b'{"error": {"message": "request is not JSON"}}')
                return
            with server._lock:
                server.headers.append(dict(self.headers.items()))
                server.in_flight += 1
                server.max_in_flight = max(server.max_in_flight, server.in_flight)
            try:
                status, payload, wait = server.respond(body)
                if wait and server.stopping.wait(wait):
                    return
                self._send(status, payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to answer
            finally:
                with server._lock:
                    server.in_flight -= 1

        def _send(self, status: int, payload: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


# ---------------------------------------------------------------- fixtures


def load_fixture(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text("utf-8"))
    return data


def fixture_names() -> list[str]:
    return sorted(p.stem for p in FIXTURES.glob("*.json"))


def main() -> int:
    """Serve every fixture's first successful answer until Ctrl-C (manual trials)."""
    from rulec.compiler.read.statements import split_statements

    with RecordedLlmServer() as server:
        for name in fixture_names():
            fx = load_fixture(name)
            texts = [st.text for st in split_statements(fx["text"], fx["document"])]
            good = [s for s in fx["script"] if "answer" in s or "content" in s]
            server.add(texts, good[-1:] or fx["script"])
        print(f"serving {len(server.scripts)} recorded chunk(s) at {server.url}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
