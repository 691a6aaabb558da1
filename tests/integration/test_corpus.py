"""The shared corpus check (``../shared/tools/corpus_check.py``) against the real CLI.

Each corpus check runs every query as a fresh `rulec` process, so the checks are
started together, in the background, when the first of these tests runs; each test
then waits for its own.  Under ``RULEC_PUREPYTHON=1`` (the second pass of ``make
test``) only the dev corpus runs: the larger corpora check the extractor, which the
backend does not change, and the backends' answers are compared state by state in
``test_box_index.py``, ``test_logic.py`` and ``test_fault_matrix_determinism.py``.

The held-out corpus (1,500 queries) is the long pole, so it runs as two checks over
alternate cases (``--only``), one per core once the rest of the suite is done.  The
checks run with one OpenBLAS thread: a query process does no linear algebra, and the
threads numpy starts at import cost more CPU than the query itself.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CHECK = SHARED / "tools" / "corpus_check.py"
CORPORA = {
    "dev": SHARED / "corpus" / "dev",
    "examples": REPO / "examples" / "manuals",
    "heldout": REPO / "tests" / "corpora" / "heldout",
}
RULEC = f"{shlex.quote(sys.executable)} -m rulec.compiler.cli"
TIMEOUT_S = 600
SPLIT = {"heldout": 2}  # checks run side by side on alternate cases


def case_ids(folder: Path) -> list[str]:
    """The ids of a corpus's queries and replays, in file order."""
    ids = []
    for name in ("queries.jsonl", "replay.jsonl"):
        path = folder / name
        if path.is_file():
            ids += [json.loads(line)["id"] for line in path.read_text().splitlines()
                    if line.strip()]
    return ids


def check_commands(name: str, folder: Path) -> list[list[str]]:
    """One corpus_check command, or ``SPLIT[name]`` of them over alternate cases."""
    base = [sys.executable, str(CHECK), str(folder), "--rulec", RULEC]
    parts = SPLIT.get(name, 1)
    if parts == 1:
        return [base]
    ids = case_ids(folder)
    return [base + ["--only", ",".join(ids[i::parts])] for i in range(parts)]


@pytest.fixture(scope="module")
def corpus_runs() -> Iterator[dict[str, list[subprocess.Popen[str]]]]:
    if not CHECK.is_file():
        pytest.skip("../shared not found: corpus check skipped")
    runs: dict[str, list[subprocess.Popen[str]]] = {}
    pure = os.environ.get("RULEC_PUREPYTHON") == "1"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    for name, folder in CORPORA.items():
        if folder.is_dir() and not (pure and name != "dev"):
            runs[name] = [
                subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, cwd=REPO, env=env)
                for cmd in check_commands(name, folder)
            ]
    yield runs
    for procs in runs.values():
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def check(runs: dict[str, list[subprocess.Popen[str]]], name: str) -> None:
    if name != "dev" and os.environ.get("RULEC_PUREPYTHON") == "1":
        pytest.skip(f"{name} corpus: run in the native pass only (see the module docstring)")
    if name not in runs:
        pytest.skip(f"{CORPORA[name]} not found: corpus check skipped")
    passed = 0
    for proc in runs[name]:
        out, err = proc.communicate(timeout=TIMEOUT_S)
        lines = out.strip().splitlines()
        assert lines, f"corpus_check printed nothing; stderr: {err[-2000:]}"
        tail = "\n".join(lines[-40:])
        assert proc.returncode == 0, f"corpus_check failed on {name}:\n{tail}\n{err[-2000:]}"
        match = re.fullmatch(r"(\d+) passed, 0 failed", lines[-1].strip())
        assert match, f"unexpected last line {lines[-1]!r}:\n{tail}"
        passed += int(match.group(1))
    ids = case_ids(CORPORA[name])
    assert passed == len(ids) > 0, f"{passed} of {len(ids)} cases checked"


def test_dev_corpus(corpus_runs: dict[str, list[subprocess.Popen[str]]]):
    check(corpus_runs, "dev")


def test_examples_corpus(corpus_runs: dict[str, list[subprocess.Popen[str]]]):
    check(corpus_runs, "examples")


def test_heldout_corpus(corpus_runs: dict[str, list[subprocess.Popen[str]]]):
    check(corpus_runs, "heldout")
