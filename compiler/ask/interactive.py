"""The interactive mode of `rulec ask`: one question a line from a stream, one answer each.

The bundle is loaded once; a blank line is skipped, ``quit`` or ``exit`` (or the end of
the input) ends the session.  With ``as_json`` each answer is one JSON line, so a script
can drive the session through a pipe.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TextIO

from rulec.compiler.ask.compose import AskAnswer

ENDS = frozenset({"quit", "exit", "q"})


def run_session(answer: Callable[[str], AskAnswer], lines: TextIO, out: TextIO, *,
                as_json: bool = False, prompt: str = "") -> int:
    """Answer every question read from ``lines``; the number of questions answered."""
    asked = 0
    while True:
        if prompt:
            out.write(prompt)
            out.flush()
        line = lines.readline()
        if not line:
            break
        question = line.strip()
        if not question:
            continue
        if question.lower() in ENDS:
            break
        found = answer(question)
        asked += 1
        if as_json:
            out.write(json.dumps(found.to_json(), ensure_ascii=False) + "\n")
        else:
            out.write(found.answer + "\n\n")
        out.flush()
    return asked
