"""atheris target: the manual parser (text -> statements -> rule objects).

By hand: ``.venv/bin/python fuzz/targets/manual_parser.py -max_len=2048 CORPUS_DIR``.
Slow (milliseconds per input): give it long runs.  Properties: fuzz/oracles/manual.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from fuzz.harness import instrument  # noqa: E402

with instrument("rulec.compiler"):
    from fuzz.oracles.manual import check_manual, manifest_table

manifest_table()  # built once, before the first input


def test_one_input(data: bytes) -> None:
    check_manual(data)


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
