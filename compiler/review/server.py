"""``rulec review --serve``: the review page on 127.0.0.1, and the engineer's decisions
taken from it into the decisions file.

Every decision is tried before it is written: the sources are compiled again with it
applied (``session.compile_for_review``), and a rule the build refuses (an unknown unit,
a unit of another quantity) is answered with the build's own message and not written.
The server binds the loopback address only and answers a POST only from its own page
(JSON body, no foreign ``Origin``, a loopback name in ``Host``).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler.model.rules import rule_to_json
from rulec.compiler.review.decisions import (
    Decision,
    append_decision,
    decision_from_json,
    load_decisions,
    now_utc,
)
from rulec.compiler.review.html import render
from rulec.compiler.review.session import Reviewed, compile_for_review, extract_for_review
from rulec.runtime.errors import RulecError

if TYPE_CHECKING:
    from rulec.compiler.llm.client import LlmConfig

HOST = "127.0.0.1"
MAX_BODY = 1_000_000


class ReviewState:
    """The sources, the decisions file and the compile they give, behind one lock."""

    def __init__(self, sources: Sequence[Path], decisions_path: Path, who: str,
                 extractor: str = "offline", llm: LlmConfig | None = None) -> None:
        self.sources = list(sources)
        self.path = decisions_path
        self.who = who
        self.lock = threading.Lock()
        self.port = 0  # set by make_server once the socket is bound
        # the manuals are read and extracted once; each decision is applied to this
        self.extracted = extract_for_review(self.sources, extractor, llm)
        self.reviewed = compile_for_review(self.sources, load_decisions(self.path),
                                           self.extracted)
        self.page = render(self.reviewed.data(), serve=True, who=who)

    def decide(self, body: Any) -> Decision:
        """Check, try and record one decision posted by the page; RulecError if refused."""
        with self.lock:
            decision = self._decision(body, self.reviewed)
            trial = compile_for_review(self.sources, [*self.reviewed.decisions, decision],
                                       self.extracted)
            _check_outcome(decision, trial)
            try:
                append_decision(self.path, decision)
            except OSError as exc:
                raise DecisionRefused(f"{self.path}: cannot write the decision: "
                                      f"{exc.strerror or exc}") from None
            self.reviewed = trial
            self.page = render(trial.data(), serve=True, who=self.who)
            return decision

    def _decision(self, body: Any, now: Reviewed) -> Decision:
        if not isinstance(body, dict):
            raise DecisionRefused("the decision must be a JSON object")
        why = body.get("why")
        if body.get("action") != "accept" and (not isinstance(why, str) or not why.strip()):
            raise DecisionRefused("say why: a rejection, a correction or a new rule is kept "
                                  "in the log with its reason")
        statement = body.get("statement")
        st = next((s for d in now.result.documents if d.views is not None
                   for s in d.views.statements if s.id == statement), None)
        if st is None:
            raise DecisionRefused(f"no statement {statement!r} in the manuals")
        obj: dict[str, Any] = {"action": body.get("action"), "statement": st.id,
                               "file": st.file, "line": st.line, "text": st.text,
                               "who": body.get("who"), "when": now_utc(),
                               "why": body.get("why", "")}
        if st.page is not None:
            obj["page"] = st.page
        rule = body.get("rule")
        if obj["action"] == "accept":  # the rule as accepted: a later change is flagged
            accepted = next((r for r in now.result.rules if r.id == body.get("rule_id")), None)
            if accepted is None:
                raise DecisionRefused(f"no rule {body.get('rule_id')!r} to accept")
            rule = rule_to_json(accepted)
        elif obj["action"] == "create" and isinstance(rule, dict):
            taken = {r.id for r in now.result.rules}
            rule_id, n = f"R-{st.id[:8]}", 1
            while rule_id in taken:
                n += 1
                rule_id = f"R-{st.id[:8]}-{n}"
            rule = dict(rule, id=rule_id)
        elif obj["action"] == "correct":
            current = next((r for r in now.result.rules if r.id == body.get("rule_id")), None)
            if current is None or not isinstance(rule, dict) or rule.get("id") != current.id:
                raise DecisionRefused(f"no rule {body.get('rule_id')!r} to correct")
        if rule is not None:
            source = {"file": st.file, "line": st.line, "text": st.text, "statement": st.id}
            if st.page is not None:
                source["page"] = st.page
            obj["rule"] = dict(rule, source=source)
            obj["rule_id"] = obj["rule"].get("id", "")
        else:
            obj["rule_id"] = body.get("rule_id", "")
        return decision_from_json(obj, "the decision")


class DecisionRefused(RulecError, ValueError):
    """A decision from the page that cannot be applied (the page shows the message)."""


def _check_outcome(decision: Decision, trial: Reviewed) -> None:
    """A correction or a new rule must be in the bundle the trial compile built."""
    if decision.rule is None:
        return
    built = {r.id for r in trial.result.rules}
    if decision.rule_id not in built:
        said = [p.reason for p in trial.result.problems
                if decision.rule_id in p.reason or p.line == decision.line]
        raise DecisionRefused(f"the build refuses rule {decision.rule_id}"
                              + (f": {said[-1]}" if said else ""))


def _handler(state: ReviewState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "rulec-review"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # quiet: the terminal shows the decisions, not every request

        def _host_is_loopback(self) -> bool:
            """A name other than the loopback's in Host is a page of another site that had
            its name point here (DNS rebinding): it gets nothing."""
            host = self.headers.get("Host", "")
            port = state.port
            if host in (f"127.0.0.1:{port}", f"localhost:{port}"):
                return True
            self._send(HTTPStatus.FORBIDDEN, b"the review answers 127.0.0.1 only", "text/plain")
            return False

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if not self._host_is_loopback():
                return
            if self.path.split("?")[0] not in ("/", "/index.html"):
                self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain")
                return
            self._send(HTTPStatus.OK, state.page.encode("utf-8"), "text/html; charset=utf-8")

        def do_POST(self) -> None:  # noqa: N802
            if not self._host_is_loopback():
                return
            if self.path != "/api/decision":
                self._json(HTTPStatus.NOT_FOUND, {"error": "not found"})
                return
            origin = self.headers.get("Origin")
            host = self.headers.get("Host", "")
            if origin is not None and origin != f"http://{host}":
                self._json(HTTPStatus.FORBIDDEN, {"error": "decisions come from the page"})
                return
            length = int(self.headers.get("Content-Length") or 0)
            if not self.headers.get("Content-Type", "").startswith("application/json") or \
                    not 0 < length <= MAX_BODY:
                self._json(HTTPStatus.BAD_REQUEST, {"error": "expected a JSON body"})
                return
            try:
                body = json.loads(self.rfile.read(length))
                decision = state.decide(body)
            except json.JSONDecodeError:
                self._json(HTTPStatus.BAD_REQUEST, {"error": "the body is not JSON"})
                return
            except RulecError as exc:
                self._json(HTTPStatus.BAD_REQUEST, {"error": " ".join(str(exc).split())})
                return
            except Exception as exc:  # noqa: BLE001 - the page shows it; the server goes on
                self._json(HTTPStatus.INTERNAL_SERVER_ERROR,
                           {"error": f"internal error: {type(exc).__name__}: {exc}"})
                return
            print(f"rulec review: {decision.action} {decision.rule_id or ''} "
                  f"{decision.file}:{decision.line} by {decision.who} -> {state.path}",
                  file=sys.stderr, flush=True)
            self._json(HTTPStatus.OK, {"ok": True, "decision": decision.to_json()})

        def _json(self, status: HTTPStatus, obj: Any) -> None:
            self._send(status, json.dumps(obj).encode("utf-8"), "application/json")

        def _send(self, status: HTTPStatus, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

    return Handler


def make_server(state: ReviewState, port: int = 0) -> ThreadingHTTPServer:
    """A server for the review on 127.0.0.1 (``port`` 0: any free port)."""
    server = ThreadingHTTPServer((HOST, port), _handler(state))
    state.port = int(server.server_address[1])
    return server
