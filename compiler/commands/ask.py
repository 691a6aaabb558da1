"""`rulec ask BUNDLE "QUESTION"`: a question in words answered from the bundle's rules;
`rulec steps BUNDLE "login"`: the ordered steps of the procedures a few words name.

The question is read into a state (aliases, numbers, units converted to the manifest's),
its kind told (what applies, the steps of a procedure, what happens if / at what value,
which rules concern X, is this allowed), and the answer composed from the three paths
with each rule cited by id and file:line.  Without a question (or with ``-``) it reads
one question a line from stdin.  ``--llm-url`` lets a model reword the answer; the
fidelity check falls back to the templated answer when the model adds anything
(docs/ask.md).

A procedure matches `steps` when every word of the query (case-insensitive, whole words;
filler words such as "the" or "procedure" ignored) stands in its title or in the action of
a rule that starts it.  Uses only the onboard runtime, like `query`.  Exit status 1 when
nothing matches (the --json object is printed all the same).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rulec.compiler.llm.flags import ENV_KEY, ENV_MODEL, ENV_URL

EXIT_NO_MATCH = 1


def register(sub: Any) -> None:
    """Add `ask` and `steps` to the `rulec` sub-command parsers."""
    _register_steps(sub)
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


def _register_steps(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "steps", help="the ordered steps of a procedure, found by words",
        description="Print the ordered steps, with provenance, of every procedure whose "
        "title (or the action of a rule that starts it) holds all the query's words.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("query", metavar="WORDS", help='e.g. "login" or "normal shutdown"')
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=run_steps)


def run_steps(args: argparse.Namespace) -> int:
    from rulec.runtime.bundle.loader import load_bundle
    from rulec.runtime.engine.procedures import ProcedureBook

    book = ProcedureBook(load_bundle(str(args.bundle)))
    found = book.find(args.query)
    if args.json:
        print(json.dumps({"query": args.query, "procedures": [p.to_json() for p in found]},
                         ensure_ascii=False))
        return 0 if found else EXIT_NO_MATCH
    if not found:
        titles = "; ".join(p.title for p in book.all()) or "none"
        print(f"rulec: no procedure matches {args.query!r} (procedures: {titles})",
              file=sys.stderr)
        return EXIT_NO_MATCH
    for n, proc in enumerate(found):
        if n:
            print()
        src = proc.source
        print(f"{proc.title}  [{proc.id}]  {src.get('file')}:{src.get('line')}")
        width = len(str(len(proc.steps)))
        for step in proc.steps:
            where = f"{step.source.get('file')}:{step.source.get('line')}"
            print(f"  {step.number:>{width}}. {step.text}    ({where})")
        if proc.triggered_by:
            print(f"  started by: {', '.join(proc.triggered_by)}")
    return 0
