"""`rulec steps BUNDLE "login"`: the ordered steps of the procedures a query names.

A procedure matches when every word of the query (case-insensitive, whole words; filler
words such as "the" or "procedure" ignored) stands in its title or in the action of a
rule that starts it.  Uses only the onboard runtime, like `query`.  Exit status 1 when
nothing matches (the --json object is printed all the same).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_NO_MATCH = 1


def register(subparsers: Any) -> None:
    """Add the `steps` command to the `rulec` sub-command parsers."""
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
