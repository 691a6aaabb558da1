"""Optional rewording of an answer by an LLM, held to the retrieved rules by a fidelity check.

The model sees the question and the templated answer's lines (numbered between the
extractor's STATEMENTS markers) and may only reword them.  Its text is refused, and the
templated answer kept with the reason said, when it adds a number or unit the lines do not
hold (numbers read by the fidelity filter's own reader), names a parameter they do not
name, drops or invents a rule id, or brings in words that stand in none of the lines and
are no plain wording (an action the rules do not give: "evacuate the building").  The
endpoint, cache and timeouts are the LLM extractor's (``compiler/llm/client.py``).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulec.compiler.ask.compose import AskAnswer
from rulec.compiler.ask.reading import parameter_table
from rulec.compiler.llm.client import (
    LlmConfig,
    LlmRequestError,
    ResponseCache,
    chat,
    prompt_digest,
)
from rulec.compiler.llm.fidelity import Quantity, quantities
from rulec.compiler.llm.flags import ENV_URL
from rulec.runtime.bundle.loader import Bundle

SYSTEM_PROMPT = """\
You reword answers for safety engineers.  You are given a question and the numbered lines
of an answer built from a rulebook.  Rewrite the lines as a short, clear answer.
Rules: use only what the lines say; do not add any number, unit, parameter, action or
advice that is not in them; keep every rule id in square brackets exactly as written,
with its file:line; if the lines say no rule applies, say so.
Reply with a JSON object {"answer": "<your text>"} and nothing else."""
BEGIN, END = "=== STATEMENTS ===", "=== END ==="
_RULE_ID = re.compile(r"\b[RP]-[0-9a-f]{6,}\b")
_CITATION = re.compile(r"\[[RP]-[0-9a-f]{6,}, [^\]]*\]")
_WORD = re.compile(r"[a-z][a-z'-]{3,}")
# Words a rewording may bring that name no action, value or parameter.
WORDING = frozenset("""
also answer apply applies applied applying because before both cited citation citations
currently does each either following given gives here however into just line lines listed
mean means must need needs note only other please reading reads rule rules says should
since state states stated statement that than their them then there these they this those
under what when where which while with within would your yours value values therefore thus
required requires requirement action actions case cases current currently given
""".split())


def config_for(url: str | None, model: str | None, key_env: str, timeout_s: float,
               retries: int, cache_dir: Path | None) -> LlmConfig | None:
    """The endpoint to reword with, or None when none is configured (flag or $RULEC_LLM_URL)."""
    import os

    if not (url or os.environ.get(ENV_URL)):
        return None
    return LlmConfig.from_env(url=url, model=model, key_env=key_env, timeout_s=timeout_s,
                              retries=retries, concurrency=1, cache_dir=cache_dir)


def messages_for(answer: AskAnswer) -> list[dict[str, str]]:
    lines = "\n".join(f"[{n}] {line.strip()}" for n, line in
                      enumerate(answer.sentences, 1) if line.strip())
    user = f"Question: {answer.question}\n{BEGIN}\n{lines}\n{END}"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str = ""


def check_rewording(text: str, answer: AskAnswer, bundle: Bundle) -> Verdict:
    """Whether ``text`` says nothing the answer's lines and cited sources do not, and
    keeps the citation of every rule the answer rests on."""
    if not text.strip():
        return Verdict(False, "the reworded answer is empty")
    allowed = "\n".join([*answer.sentences, *(c["source"].get("text", "")
                                                for c in answer.cited())])
    ids, known_ids = set(_RULE_ID.findall(text)), set(_RULE_ID.findall(allowed))
    if ids - known_ids:
        return Verdict(False, "it cites " + ", ".join(sorted(ids - known_ids))
                       + ", which the answer does not rest on")
    altered = [c for c in _CITATION.findall(text) if c not in allowed]
    if altered:
        return Verdict(False, f"it changes the citation {altered[0]}")
    dropped = {c["id"] for c in answer.cited()} - ids
    if dropped:
        return Verdict(False, "it drops the citation of " + ", ".join(sorted(dropped)))
    said = _CITATION.sub(" ", text)
    have = quantities(_CITATION.sub(" ", allowed))
    for q in quantities(said):
        if not any(_same_quantity(q, a) for a in have):
            shown = said[q.start:q.end] + (f" {q.written_unit.symbol}" if q.written_unit
                                           else "")
            return Verdict(False, f"it adds the number {shown.strip()!r}, which no retrieved "
                           "rule holds")
    table = parameter_table(bundle)
    extra = set(table.named_in(said)) - set(table.named_in(allowed))
    extra -= set(_named_by_name(allowed, table.params))
    if extra:
        return Verdict(False, "it names the parameter(s) " + ", ".join(sorted(extra))
                       + ", which the retrieved rules do not")
    known = {_fold(w) for w in _WORD.findall(allowed.lower())}
    new = sorted({w for w in _WORD.findall(said.lower())
                  if _fold(w) not in known and w not in WORDING and _fold(w) not in WORDING})
    if new:
        return Verdict(False, "it adds words no retrieved rule holds: " + ", ".join(new[:6]))
    return Verdict(True)


class Synthesizer:
    """Rewords answers through one endpoint, with the answers cached on disk."""

    def __init__(self, config: LlmConfig, bundle: Bundle | None = None) -> None:
        self.config = config
        self.bundle = bundle
        self.cache = ResponseCache(config.cache_dir, config.model) if config.cache_dir else None

    def reword(self, answer: AskAnswer, bundle: Bundle | None = None) -> AskAnswer:
        """Set ``answer.synthesis``: the reworded text when it passes the check, else the
        reason it was refused (the templated answer stands)."""
        bundle = bundle or self.bundle
        if not answer.sentences:
            return answer
        messages = messages_for(answer)
        digest = prompt_digest(self.config, messages)
        key = hashlib.sha256(answer.templated.encode("utf-8")).hexdigest()
        found = self.cache.get(key, digest) if self.cache is not None else None
        cached = found is not None
        if found is None:
            try:
                found, _ = chat(self.config, messages)
            except LlmRequestError as exc:
                answer.synthesis = {"accepted": False, "model": self.config.model,
                                    "reason": f"the model did not answer: {exc}"}
                return answer
            if self.cache is not None:
                self.cache.put(key, digest, found)
        text = _answer_text(str(found.get("content", "")))
        verdict = (check_rewording(text, answer, bundle) if bundle is not None
                   else Verdict(False, "no bundle to check the rewording against"))
        answer.synthesis = {"accepted": verdict.accepted, "model": self.config.model,
                            "cached": cached, "text": text}
        if not verdict.accepted:
            answer.synthesis["reason"] = verdict.reason
        return answer


def _answer_text(content: str) -> str:
    body = content.strip()
    fenced = re.match(r"^```(?:json)?\s*(.*?)\s*```$", body, re.DOTALL)
    if fenced:
        body = fenced.group(1)
    try:
        data: Any = json.loads(body)
    except ValueError:
        return body
    if isinstance(data, dict) and isinstance(data.get("answer"), str):
        return str(data["answer"]).strip()
    return body


def _same_quantity(q: Quantity, a: Quantity) -> bool:
    if q.value != a.value:
        return False
    mine, theirs = q.written_unit, a.written_unit
    if mine is None:
        return True
    return theirs is not None and (mine.dimension, mine.scale, mine.offset) == (
        theirs.dimension, theirs.scale, theirs.offset)


def _named_by_name(text: str, params: Any) -> list[str]:
    """Parameters written by their own name (``chamber_temperature``) in the text."""
    return [name for name in params if name in text]


def _fold(word: str) -> str:
    return re.sub(r"(ing|ed|es|s)$", "", word.strip("'-")) if len(word) > 4 else word
