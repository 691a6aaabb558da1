"""The LLM extractor: chunks -> an OpenAI-compatible chat endpoint -> grounded rule objects.

Any server speaking chat completions works (llama.cpp server, vLLM, Ollama, hosted APIs).
Each chunk is asked once, at temperature 0, with its statements numbered; the answer is
cached on disk under (model, PROMPT_VERSION, chunk SHA-256) so a recompile is
reproducible and needs no network; every answer, cached or fresh, goes through the
fidelity filter (`fidelity.filter_answer`), which takes provenance from our statements
and rejects whatever is not grounded.  Standard library only (urllib, concurrent.futures).
Configuration, the prompt verbatim and the cache: docs/llm-extractor.md.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from rulec.compiler.extract.offline import Problem
from rulec.compiler.llm.fidelity import Rejection, filter_answer
from rulec.compiler.llm.flags import (
    CACHE_DIR_NAME,
    ENV_KEY,
    ENV_MODEL,
    ENV_URL,
    add_llm_arguments,
)
from rulec.compiler.model.parameters import ParameterInfo, ParameterTable
from rulec.compiler.model.rules import Atom, Condition, Not, Rule
from rulec.compiler.read.statements import Statement
from rulec.runtime.errors import RulecError

__all__ = [
    "CACHE_DIR_NAME",
    "ENV_KEY",
    "ENV_MODEL",
    "ENV_URL",
    "PROMPT_VERSION",
    "ChunkInput",
    "LlmConfig",
    "LlmConfigError",
    "LlmExtraction",
    "Rejection",
    "add_llm_arguments",
    "build_messages",
    "chunk_statements",
    "config_from_args",
    "extract_with_llm",
]

PROMPT_VERSION = "1"  # bump whenever SYSTEM_PROMPT or the user message format changes

STATEMENTS_BEGIN = "=== STATEMENTS ==="
STATEMENTS_END = "=== END ==="
_MAX_BACKOFF_S = 30.0
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


class LlmConfigError(RulecError, ValueError):
    """The LLM backend is configured wrongly (no model, bad URL, bad numbers)."""


class LlmRequestError(RulecError):
    """A chat-completions request failed for good (after its retries, or a 4xx)."""

    def __init__(self, message: str, attempts: int) -> None:
        super().__init__(message)
        self.attempts = attempts


@dataclass(frozen=True)
class LlmConfig:
    """Where and how to ask.  `url` may be empty when every answer is cached."""

    url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    timeout_s: float = 120.0
    retries: int = 2  # further attempts after the first, on 5xx/429/timeouts/connection errors
    concurrency: int = 4
    cache_dir: Path | None = None
    temperature: float = 0.0
    backoff_s: float = 1.0  # wait before retry n is backoff_s * 2**(n-1), at most 30 s
    json_mode: bool = True  # send response_format {"type": "json_object"}

    def __post_init__(self) -> None:
        if not self.model.strip():
            raise LlmConfigError(f"no LLM model: pass --llm-model or set {ENV_MODEL}")
        if self.url and urllib.parse.urlsplit(self.url).scheme not in ("http", "https"):
            raise LlmConfigError(f"LLM URL must start with http:// or https://: {self.url!r}")
        if not self.timeout_s > 0:
            raise LlmConfigError(f"LLM timeout must be positive, not {self.timeout_s}")
        if self.retries < 0 or self.concurrency < 1:
            raise LlmConfigError("LLM retries must be >= 0 and concurrency >= 1")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, url: str | None = None,
                 model: str | None = None, key_env: str = ENV_KEY, **options: Any
                 ) -> LlmConfig:
        """Flags first, then RULEC_LLM_URL / RULEC_LLM_MODEL; the key only from the
        environment variable `key_env` (never from the command line)."""
        env = os.environ if environ is None else environ
        return cls(url=(url or env.get(ENV_URL, "")).strip(),
                   model=(model or env.get(ENV_MODEL, "")).strip(),
                   api_key=env.get(key_env) or None, **options)

    @property
    def endpoint(self) -> str:
        """POST target: the URL itself if it ends in /chat/completions, else URL + that."""
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"


def config_from_args(args: argparse.Namespace, default_cache: Path,
                     environ: Mapping[str, str] | None = None) -> LlmConfig | None:
    """The LlmConfig the flags ask for; None for `--extractor offline`."""
    if getattr(args, "extractor", "offline") == "offline":
        return None
    return LlmConfig.from_env(
        environ, url=args.llm_url, model=args.llm_model, key_env=args.llm_key_env,
        timeout_s=args.llm_timeout, retries=args.llm_retries,
        concurrency=args.llm_concurrency, cache_dir=args.llm_cache or default_cache)


@dataclass
class ChunkInput:
    """One chunk of one document: its text, digest and the statements it holds."""

    doc_rel: str
    chunk_id: str
    text: str
    sha256: str
    statements: list[Statement]


def chunk_statements(doc_rel: str, statements: list[Statement], max_chars: int = 1200
                     ) -> list[ChunkInput]:
    """Interim sentence-aware chunker (until views.py provides chunks): consecutive
    statements up to about `max_chars`, never cutting one."""
    groups: list[list[Statement]] = []
    size = 0
    for st in statements:
        if groups and size + len(st.text) + 1 <= max_chars:
            groups[-1].append(st)
            size += len(st.text) + 1
        else:
            groups.append([st])
            size = len(st.text)
    out = []
    for n, group in enumerate(groups, start=1):
        text = "\n".join(st.text for st in group)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        out.append(ChunkInput(doc_rel, f"{doc_rel}#{n}", text, digest, group))
    return out


@dataclass
class LlmExtraction:
    rules: list[Rule] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    requests: int = 0  # HTTP requests sent, retries included
    cache_hits: int = 0  # distinct prompts answered from the cache
    labels: dict[str, str] = field(default_factory=dict)  # chunk id -> rule/mixed/descriptive
    # Sentences and items of answered chunks that gave no rule and no rejected rule.
    descriptive: list[Statement] = field(default_factory=list)


# ---------------------------------------------------------------- the prompt

SYSTEM_PROMPT = """\
You extract operating rules from technical manuals for a safety system that checks live \
sensor values against them. Answer with JSON only: no prose, no markdown.

Answer with one JSON object: {"class": CLASS, "rules": [RULE, ...]}
CLASS: "rule" if every statement states a rule, "descriptive" if none does, else "mixed".
"rules": one object per rule the statements state; [] if there is none. Never invent a \
rule, a parameter, a number or a unit that the statement does not state. A sentence that \
only describes (no condition and action, no limit) gives no rule, whatever numbers it holds.

RULE is one of:
{"statement": N, "kind": "if_then", "severity": S, "condition": C, "action": A, "duration": D}
  fires when C holds (for longer than D, if D is given; omit "duration" otherwise).
{"statement": N, "kind": "constraint", "severity": S, "condition": C, "action": A}
  a limit that must hold; C is its VIOLATION: "must not exceed 70 psi" -> \
{"param": P, "op": ">", "value": 70, "unit": "psi"}; "shall remain between 20 and 120" -> \
{"param": P, "op": "outside", "value": [20, 120]}; "Maximum X: 104 %" -> \
{"param": P, "op": ">", "value": 104, "unit": "%"}.
{"statement": N, "kind": "exclusion", "severity": S, "actions": [A, A]}
  two actions that must not be done at the same time.
{"statement": N, "kind": "procedure", "title": T, "steps": [{"statement": N, "text": T}, ...]}
  the ordered steps of a numbered procedure; its "statement" is the procedure's title.

N: the number in brackets of the statement the rule is written in; a rule comes from one \
statement. (Instead of "statement": N you may give "quote": the statement's exact text.)
S: "warning" (emergency, immediate danger, shut down, abort, evacuate), "caution" (limits, \
stop, reduce, notify, do not), or "advisory" (anything else).
C: a comparison {"param": P, "op": OP, "value": V, "unit": U} or a combination \
{"all": [C, ...]} (and), {"any": [C, ...]} (or), {"not": C}.
P: a parameter name exactly as listed under "Parameters".
OP: ">", ">=", "<", "<=", "==", "between" (inclusive; V is [low, high]) or "outside" \
(below low or above high; V is [low, high]).
V: the number exactly as written in the statement: no conversion, no rounding \
("30,000" -> 30000, "-40" -> -40).
U: the unit written after that number in the statement ("°C", "psi", "%", "kPa"); omit \
"unit" when the statement writes none.
A: the action, in the statement's own words.
D: {"seconds": SECONDS, "inclusive": false} for "for more than <time>" ({"inclusive": true} \
for "for at least <time>"), the time converted to seconds.

Example. Statement [2] "If the oil pressure drops below 13 psi for more than 10 s, shut \
down the engine." gives
{"statement": 2, "kind": "if_then", "severity": "warning", "condition": {"param": \
"oil_pressure", "op": "<", "value": 13, "unit": "psi"}, "action": "shut down the engine", \
"duration": {"seconds": 10, "inclusive": false}}"""

# Said only when the manifest has discrete parameters, so that the prompt of every other
# manifest stays what it was.
DISCRETE_NOTE = (
    "A parameter listed with states is discrete: compare it with a state, never a number: "
    "{\"param\": P, \"op\": \"==\", \"state\": S}, {\"param\": P, \"op\": \"!=\", "
    "\"state\": S} or {\"param\": P, \"op\": \"in\", \"states\": [S, ...]}, S one of "
    "its states (a word listed after it in brackets means that state): \"while the engine "
    "is running\" -> {\"param\": \"engine\", \"op\": \"==\", \"state\": \"running\"}. "
    "A phase parameter's states stand alone in the text (\"during takeoff\").")


def _states_shown(info: ParameterInfo) -> str:
    """"states: retracted (up), extended (down); phase" for the parameter list."""
    said = [f"{s} ({', '.join(info.phrases[s])})" if info.phrases.get(s) else s
            for s in info.states]
    return "states: " + ", ".join(said) + ("; phase" if info.phase else "")


_NO_MANIFEST = ("Parameters: none are listed. Name each parameter in snake_case from the "
                "words the statement uses for it (\"the oil temperature\" -> oil_temperature).")


def build_messages(chunk: ChunkInput, params: ParameterTable) -> list[dict[str, str]]:
    """The chat messages for one chunk: a pure function of PROMPT_VERSION, the manifest's
    parameters and the chunk's statements (so the cache key can cover it exactly)."""
    if params.infer:
        # Parameters inferred while compiling depend on the order documents were read:
        # never list them, so the prompt depends on the chunk alone.
        head = _NO_MANIFEST
    else:
        lines = ["Parameters (name: aliases [unit]):"]
        for info in params.params.values():
            if info.inferred:
                continue
            aliases = ", ".join(info.aliases) or info.name.replace("_", " ")
            if info.states:
                lines.append(f"- {info.name}: {aliases} [{_states_shown(info)}]")
                continue
            lines.append(f"- {info.name}: {aliases} [{info.unit_symbol or 'no unit'}]")
        if any(info.states for info in params.params.values()):
            lines.append(DISCRETE_NOTE)
        head = "\n".join(lines)
    numbered = [f"[{n}] {_shown(st)}" for n, st in enumerate(chunk.statements, 1)]
    user = "\n".join([head, "", "Statements of the chunk:", STATEMENTS_BEGIN, *numbered,
                      STATEMENTS_END])
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def _shown(st: Statement) -> str:
    """A statement as the model sees it; a table row also as the sentence it reads as."""
    text = " ".join(st.text.split())
    reading = " ".join(str(getattr(st, "parse_text", "") or "").split())
    return f"{text} (reads: {reading})" if reading and reading != text else text


# ---------------------------------------------------------------- the cache


class ResponseCache:
    """Answers on disk: `<dir>/<model>/<PROMPT_VERSION>/<chunk sha256>-<prompt digest>.json`.

    The prompt digest (of the exact messages) guards the (model, version, chunk) key
    against a changed parameter list or statement split; files are written atomically.
    """

    def __init__(self, root: Path, model: str) -> None:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", model).strip("._") or "model"
        tag = hashlib.sha256(model.encode("utf-8")).hexdigest()[:8]
        self.dir = Path(root) / f"{slug[:60]}-{tag}" / f"v{PROMPT_VERSION}"
        self.model = model

    def path(self, chunk_sha256: str, prompt_sha256: str) -> Path:
        return self.dir / f"{chunk_sha256}-{prompt_sha256[:16]}.json"

    def get(self, chunk_sha256: str, prompt_sha256: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path(chunk_sha256, prompt_sha256).read_text("utf-8"))
        except (OSError, ValueError):
            return None  # absent or damaged: ask again
        ok = (isinstance(data, dict) and isinstance(data.get("content"), str)
              and data.get("model") == self.model and data.get("prompt_sha256") == prompt_sha256)
        return data if ok else None

    def put(self, chunk_sha256: str, prompt_sha256: str, answer: dict[str, Any]) -> None:
        target = self.path(chunk_sha256, prompt_sha256)
        target.parent.mkdir(parents=True, exist_ok=True)
        record = {"model": self.model, "prompt_version": PROMPT_VERSION,
                  "chunk_sha256": chunk_sha256, "prompt_sha256": prompt_sha256, **answer}
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(record, fh, ensure_ascii=False, indent=1, sort_keys=True)
                fh.write("\n")
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


def prompt_digest(config: LlmConfig, messages: list[dict[str, str]]) -> str:
    body = json.dumps([config.model, PROMPT_VERSION, messages], ensure_ascii=False,
                      sort_keys=True)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- the client


def chat(config: LlmConfig, messages: list[dict[str, str]]) -> tuple[dict[str, Any], int]:
    """One chat completion with retries: ({"content", "finish_reason"}, attempts made)."""
    body: dict[str, Any] = {"model": config.model, "messages": messages,
                            "temperature": config.temperature, "stream": False}
    if config.json_mode:
        body["response_format"] = {"type": "json_object"}
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    host = urllib.parse.urlsplit(config.endpoint).hostname or ""
    handlers = [urllib.request.ProxyHandler({})] if host in _LOOPBACK else []
    opener = urllib.request.build_opener(*handlers)
    attempts = 0
    last = ""
    for attempt in range(config.retries + 1):
        attempts += 1
        wait = config.backoff_s * 2 ** attempt
        try:
            request = urllib.request.Request(config.endpoint, data=data, headers=headers,
                                             method="POST")
            with opener.open(request, timeout=config.timeout_s) as response:
                raw = response.read()
            return _answer_of(raw, attempts), attempts
        except urllib.error.HTTPError as exc:
            detail = _error_detail(exc)
            if exc.code < 500 and exc.code != 429:
                raise LlmRequestError(f"HTTP {exc.code} from {config.endpoint}: {detail}",
                                      attempts) from None
            last = f"HTTP {exc.code}: {detail}"
            retry_after = exc.headers.get("Retry-After", "") if exc.headers else ""
            if retry_after.isdigit():
                wait = max(wait, float(retry_after))
        except TimeoutError:
            last = f"no answer within {config.timeout_s:g} s"
        except urllib.error.URLError as exc:
            reason = exc.reason
            last = (f"no answer within {config.timeout_s:g} s" if isinstance(reason, TimeoutError)
                    else f"cannot connect to {config.endpoint}: {reason}")
        except (OSError, http.client.HTTPException) as exc:  # reset, refused, cut short
            last = f"connection to {config.endpoint} failed: {type(exc).__name__}: {exc}"
        if attempt < config.retries:
            time.sleep(min(wait, _MAX_BACKOFF_S))
    raise LlmRequestError(f"no answer after {attempts} attempt(s): {last}", attempts)


def _answer_of(raw: bytes, attempts: int) -> dict[str, Any]:
    try:
        payload = json.loads(raw.decode("utf-8"))
        choice = payload["choices"][0]
        content = choice["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        snippet = raw[:120].decode("utf-8", "replace")
        raise LlmRequestError("the endpoint's reply is not a chat completion "
                              f"(no choices[0].message.content): {snippet!r}", attempts) from None
    if not isinstance(content, str):
        raise LlmRequestError("the endpoint's reply has no message content", attempts)
    finish = choice.get("finish_reason")
    return {"content": content, "finish_reason": finish if isinstance(finish, str) else None}


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        text = exc.read(400).decode("utf-8", "replace")
    except (OSError, ValueError):
        text = ""
    try:
        message = json.loads(text)["error"]["message"]
        text = message if isinstance(message, str) else text
    except (ValueError, KeyError, TypeError):
        pass
    return " ".join(text.split())[:200] or exc.reason or "no detail"


# ---------------------------------------------------------------- extraction


class _Progress:
    """One stderr line: rewritten in place on a terminal, printed once at the end otherwise."""

    def __init__(self, stream: TextIO | None, total: int, cached: int) -> None:
        self.stream, self.total, self.cached = stream, total, cached
        self.done, self.failed = cached, 0
        self.lock = threading.Lock()
        isatty = getattr(stream, "isatty", None)
        self.live = bool(total and callable(isatty) and isatty())

    def line(self) -> str:
        return (f"rulec llm: {self.done}/{self.total} chunk(s) ({self.cached} cached, "
                f"{self.failed} failed)")

    def step(self, failed: bool) -> None:
        with self.lock:
            self.done += 1
            self.failed += failed
            if self.live and self.stream is not None:
                self.stream.write("\r" + self.line())
                self.stream.flush()

    def finish(self) -> None:
        if self.stream is not None and self.total:
            self.stream.write(("\r" if self.live else "") + self.line() + "\n")
            self.stream.flush()


def extract_with_llm(chunks: list[ChunkInput], params: ParameterTable, config: LlmConfig, *,
                     used_ids: set[str] | None = None, progress: TextIO | bool | None = True
                     ) -> LlmExtraction:
    """Ask the endpoint about every chunk (the cache first) and keep the grounded rules.

    `progress`: True for a progress line on stderr, a stream for one there, False/None
    for none.

    Results are assembled in chunk order whatever the concurrency, so the same inputs
    give the same rules and ids.  A chunk whose request fails for good becomes a fatal
    Problem naming its file and first line.
    """
    out = LlmExtraction()
    used_ids = set() if used_ids is None else used_ids
    cache = ResponseCache(config.cache_dir, config.model) if config.cache_dir else None
    plans: list[tuple[ChunkInput, str]] = []
    prompts: dict[str, tuple[ChunkInput, list[dict[str, str]]]] = {}
    for chunk in chunks:
        messages = build_messages(chunk, params)
        digest = prompt_digest(config, messages)
        plans.append((chunk, digest))
        prompts.setdefault(digest, (chunk, messages))
    answers: dict[str, dict[str, Any]] = {}
    failures: dict[str, str] = {}
    for digest, (chunk, _) in prompts.items():
        hit = cache.get(chunk.sha256, digest) if cache is not None else None
        if hit is not None:
            answers[digest] = hit
    out.cache_hits = len(answers)
    missing = [d for d in prompts if d not in answers]
    stream = sys.stderr if progress is True else progress or None
    bar = _Progress(stream, len(prompts), len(answers))
    if missing and not config.url:
        for digest in missing:
            failures[digest] = (f"no LLM endpoint configured ({ENV_URL} or --llm-url) and "
                                "this chunk's answer is not cached")
    elif missing:
        _ask_all(config, cache, prompts, missing, answers, failures, out, bar)
    bar.finish()
    for chunk, digest in plans:
        first = chunk.statements[0] if chunk.statements else None
        if digest in failures:
            out.problems.append(Problem(chunk.doc_rel, first.line if first else 1,
                                        f"LLM extraction of chunk {chunk.chunk_id} failed: "
                                        f"{failures[digest]}", first.text if first else ""))
            continue
        answer = answers[digest]
        result = filter_answer(answer["content"], chunk.chunk_id, chunk.statements, chunk.text,
                               params, used_ids, finish_reason=answer.get("finish_reason"))
        out.rules.extend(result.rules)
        out.rejected.extend(result.rejections)
        ruled = {(r.source.get("file"), r.source.get("line")) for r in result.rules}
        ruled |= {(r.file, r.line) for r in result.rejections}
        out.descriptive.extend(st for st in chunk.statements
                               if st.kind in ("sentence", "item", "row")
                               and (st.file, st.line) not in ruled)
        if result.label:
            out.labels[chunk.chunk_id] = result.label
        if params.infer:
            _adopt_parameters(result.rules, params)
    return out


def _ask_all(config: LlmConfig, cache: ResponseCache | None,
             prompts: dict[str, tuple[ChunkInput, list[dict[str, str]]]], missing: list[str],
             answers: dict[str, dict[str, Any]], failures: dict[str, str], out: LlmExtraction,
             bar: _Progress) -> None:
    lock = threading.Lock()

    def one(digest: str) -> None:
        chunk, messages = prompts[digest]
        try:
            answer, attempts = chat(config, messages)
        except LlmRequestError as exc:
            with lock:
                failures[digest] = str(exc)
                out.requests += exc.attempts
            bar.step(failed=True)
            return
        if cache is not None:
            try:
                cache.put(chunk.sha256, digest, answer)
            except OSError as exc:
                with lock:
                    out.problems.append(Problem(chunk.doc_rel, 1, "cannot write the LLM cache "
                                                f"({exc}); the next compile asks again",
                                                "", fatal=False))
        with lock:
            answers[digest] = answer
            out.requests += attempts
        bar.step(failed=False)

    pool = ThreadPoolExecutor(max_workers=min(config.concurrency, len(missing)),
                              thread_name_prefix="rulec-llm")
    try:
        futures: list[Future[None]] = [pool.submit(one, digest) for digest in missing]
        for future in futures:
            future.result()
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # Ctrl-C: do not wait for the queue
        raise
    pool.shutdown(wait=True)


def _adopt_parameters(rules: list[Rule], params: ParameterTable) -> None:
    """Without a manifest, parameters named by accepted rules join the table (as the
    pipeline does for rules read from a .jsonl file)."""
    for rule in rules:
        if rule.condition is None:
            continue
        for atom in _atoms(rule.condition):
            if atom.param not in params.params:
                params.add(ParameterInfo(atom.param, (atom.label,) if atom.label else (),
                                         inferred=True))


def _atoms(cond: Condition) -> list[Atom]:
    if isinstance(cond, Atom):
        return [cond]
    if isinstance(cond, Not):
        return _atoms(cond.item)
    return [a for item in cond.items for a in _atoms(item)]
