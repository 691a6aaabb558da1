"""`rulec ask BUNDLE "QUESTION"`: a question in words answered from the bundle's rules.

The question is read into a state (aliases, numbers, units converted to the manifest's),
its kind told (what applies, the steps of a procedure, what happens if / at what value,
which rules concern X, is this allowed), and the answer composed from the three paths
with each rule cited by id and file:line.  Without a question (or with ``-``) it reads
one question a line from stdin.  ``--llm-url`` lets a model reword the answer; the
fidelity check falls back to the templated answer when the model adds anything
(docs/ask.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rulec.compiler.llm.flags import ENV_KEY, ENV_MODEL, ENV_URL


def register(sub: Any) -> None:
    """Add `ask` to the `rulec` sub-command parsers."""
    p = sub.add_parser(
        "ask", help="answer a question in words from the bundle's rules",
        description="Read a question into a state and a kind of query and answer it from "
        "the bundle's rules alone, each rule cited by id and file:line.  Without QUESTION "
        "(or with -), read one question a line from stdin.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("question", nargs="?", metavar="QUESTION",
                   help='e.g. "The chamber temperature is 820 °C and the chamber pressure '
                   '45 psi: what actions are required?"')
    p.add_argument("--json", action="store_true",
                   help="one JSON object on stdout (one per line in interactive mode)")
    group = p.add_argument_group("rewording by an LLM (optional; docs/ask.md)")
    group.add_argument("--llm-url", metavar="URL",
                       help=f"chat-completions base URL (default ${ENV_URL}; none: templated "
                       "answers only)")
    group.add_argument("--llm-model", metavar="NAME", help=f"model name (default ${ENV_MODEL})")
    group.add_argument("--llm-key-env", metavar="VAR", default=ENV_KEY,
                       help=f"environment variable holding the API key (default {ENV_KEY})")
    group.add_argument("--llm-timeout", metavar="SECONDS", type=float, default=60.0,
                       help="per-request socket timeout (default 60)")
    group.add_argument("--llm-retries", metavar="N", type=int, default=1,
                       help="retries on 5xx, 429, timeouts and connection errors (default 1)")
    group.add_argument("--llm-cache", metavar="DIR", type=Path,
                       help="answer cache (default: rulec-llm-cache beside the bundle)")
    p.set_defaults(run=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    from rulec.compiler.ask.compose import Answerer
    from rulec.compiler.ask.interactive import run_session
    from rulec.compiler.ask.synthesis import Synthesizer, config_for
    from rulec.runtime.engine.engine import Engine

    engine = Engine.from_file(str(args.bundle))
    answerer = Answerer(engine)
    config = config_for(args.llm_url, args.llm_model, args.llm_key_env, args.llm_timeout,
                        args.llm_retries, args.llm_cache or args.bundle.parent / "rulec-llm-cache")
    synthesizer = Synthesizer(config, engine.bundle) if config is not None else None

    def answer(question: str) -> Any:
        found = answerer.ask(question)
        if synthesizer is not None:
            synthesizer.reword(found)
        return found

    if args.question is None or args.question == "-":
        interactive = sys.stdin.isatty()
        run_session(answer, sys.stdin, sys.stdout, as_json=args.json,
                    prompt="ask> " if interactive and not args.json else "")
        return 0
    found = answer(args.question)
    if args.json:
        print(json.dumps(found.to_json(), ensure_ascii=False))
    else:
        print(found.answer)
        if found.synthesis is not None and not found.synthesis.get("accepted"):
            print(f"(reworded answer refused: {found.synthesis['reason']}; the templated "
                  "answer is shown)")
    return 0
