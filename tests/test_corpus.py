"""The shared corpus check (``../shared/tools/corpus_check.py``) against the real CLI.

Each corpus check runs every query as a fresh `rulec` process, so the checks are
started together, in the background, when the first of these tests runs; each test
then waits for its own.  Under ``RULEC_PUREPYTHON=1`` (the second pass of ``make
test``) only the dev corpus runs: the larger corpora check the extractor, which the
backend does not change, and the backends' answers are compared state by state in
``test_box_index.py``, ``test_logic.py`` and ``test_fault_matrix_determinism.py``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
CHECK = SHARED / "tools" / "corpus_check.py"
CORPORA = {
    "dev": SHARED / "corpus" / "dev",
    "examples": REPO / "examples" / "manuals",
    "heldout": REPO / "tests" / "corpora" / "heldout",
}
RULEC = f"{shlex.quote(sys.executable)} -m rulec.compiler.cli"
TIMEOUT_S = 600


@pytest.fixture(scope="module")
def corpus_runs() -> dict[str, subprocess.Popen[str]]:
    if not CHECK.is_file():
        pytest.skip("../shared not found: corpus check skipped")
    runs = {}
    pure = os.environ.get("RULEC_PUREPYTHON") == "1"
    for name, folder in CORPORA.items():
        if folder.is_dir() and not (pure and name != "dev"):
            runs[name] = subprocess.Popen(
                [sys.executable, str(CHECK), str(folder), "--rulec", RULEC],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                cwd=REPO,
            )
    yield runs
    for proc in runs.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def check(runs: dict[str, subprocess.Popen[str]], name: str) -> None:
    if name != "dev" and os.environ.get("RULEC_PUREPYTHON") == "1":
        pytest.skip(f"{name} corpus: run in the native pass only (see the module docstring)")
    if name not in runs:
        pytest.skip(f"{CORPORA[name]} not found: corpus check skipped")
    proc = runs[name]
    out, err = proc.communicate(timeout=TIMEOUT_S)
    lines = out.strip().splitlines()
    assert lines, f"corpus_check printed nothing; stderr: {err[-2000:]}"
    tail = "\n".join(lines[-40:])
    assert proc.returncode == 0, f"corpus_check failed on {name}:\n{tail}\n{err[-2000:]}"
    match = re.fullmatch(r"(\d+) passed, 0 failed", lines[-1].strip())
    assert match, f"unexpected last line {lines[-1]!r}:\n{tail}"
    assert int(match.group(1)) > 0


def test_dev_corpus(corpus_runs: dict[str, subprocess.Popen[str]]):
    check(corpus_runs, "dev")


def test_examples_corpus(corpus_runs: dict[str, subprocess.Popen[str]]):
    check(corpus_runs, "examples")


def test_heldout_corpus(corpus_runs: dict[str, subprocess.Popen[str]]):
    check(corpus_runs, "heldout")
