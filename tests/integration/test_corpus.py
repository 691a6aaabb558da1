"""The shared corpus check (``../shared/tools/corpus_check.py``) against the real CLI.

The dev corpus and the examples run as the contract says: every query a fresh `rulec`
process, started in the background when the first of these tests runs.  The larger
corpora (held-out style, 2,171 cases; real documents) run the same checker in this
process, with its command runner pointed at the same CLI entry point (``rulec.compiler.
cli.main``): the same compile, query and replay code and the same matching, without a
process per query.  Under ``RULEC_PUREPYTHON=1`` (the second pass of ``make test``) only
the dev corpus runs: the larger corpora check the extractor, which the backend does not
change, and the backends' answers are compared state by state in ``test_box_index.py``,
``test_logic.py`` and ``test_fault_matrix_determinism.py``.

The real-document corpus (``tests/corpora/real``) is not yet read in full: its test holds
what matters most, no rule firing where the text says it must not, and that no case
that passes now ever fails (the floor below only moves up).
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
}
IN_PROCESS = {
    "heldout": REPO / "tests" / "corpora" / "heldout",
    "real": REPO / "tests" / "corpora" / "real",
    "discrete": REPO / "tests" / "corpora" / "discrete",
}
RULEC = f"{shlex.quote(sys.executable)} -m rulec.compiler.cli"
TIMEOUT_S = 600
SPLIT: dict[str, int] = {}  # checks run side by side on alternate cases
REAL_FLOOR = 720  # real-document cases passing now: raise it as the extractor improves


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


def run_in_process(folder: Path, fates: dict[str, tuple[list[str], list[str]]] | None = None
                   ) -> tuple[int, list[str]]:
    """corpus_check.py on a corpus with `rulec` run in this process: (passed, output).

    ``fates``, when given, receives per domain what its compile made of its statements
    (see ``_fates``), read off the same compile the checker runs."""
    import contextlib
    import importlib.util
    import io

    from rulec.compiler.cli import main as rulec_main

    spec = importlib.util.spec_from_file_location("corpus_check", CHECK)
    assert spec is not None and spec.loader is not None
    checker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checker)

    def run(cmd: list[str], timeout: int = 120) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        compiling = fates is not None and cmd[1] == "compile"
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = rulec_main(cmd[1:] + (["--json"] if compiling else []))
        if compiling and fates is not None and status == 0:
            fates[Path(cmd[2]).name] = _fates(out.getvalue(), Path(cmd[cmd.index("-o") + 1]))
            return status, "", err.getvalue()
        return status, out.getvalue(), err.getvalue()

    checker.run = run
    printed = io.StringIO()
    argv = sys.argv
    sys.argv = [str(CHECK), str(folder), "--rulec", "rulec"]
    try:
        with contextlib.redirect_stdout(printed), pytest.raises(SystemExit):
            checker.main()
    finally:
        sys.argv = argv
    lines = printed.getvalue().strip().splitlines()
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1].strip())
    assert match, f"unexpected last line {lines[-1]!r}"
    return int(match.group(1)), lines


def in_process(name: str) -> tuple[int, list[str]]:
    if os.environ.get("RULEC_PUREPYTHON") == "1":
        pytest.skip(f"{name} corpus: run in the native pass only (see the module docstring)")
    if not CHECK.is_file():
        pytest.skip("../shared not found: corpus check skipped")
    return run_in_process(IN_PROCESS[name])


def test_heldout_corpus():
    passed, lines = in_process("heldout")
    tail = "\n".join(lines[-40:])
    assert passed == len(case_ids(IN_PROCESS["heldout"])) > 0, tail


def test_discrete_corpus():
    passed, lines = in_process("discrete")
    assert passed == len(case_ids(IN_PROCESS["discrete"])) > 0, "\n".join(lines[-40:])


@pytest.fixture(scope="module")
def real_run() -> tuple[int, list[str], dict[str, tuple[list[str], list[str]]]]:
    """The real corpus checked once: (passed, output, what each domain's compile made of
    its statements), shared by the two tests below."""
    if os.environ.get("RULEC_PUREPYTHON") == "1":
        pytest.skip("real corpus: run in the native pass only (see the module docstring)")
    if not CHECK.is_file():
        pytest.skip("../shared not found: corpus check skipped")
    fates: dict[str, tuple[list[str], list[str]]] = {}
    passed, lines = run_in_process(IN_PROCESS["real"], fates)
    return passed, lines, fates


def test_real_documents_fire_no_rule_the_text_forbids_and_keep_what_passes(
        real_run: tuple[int, list[str], dict[str, tuple[list[str], list[str]]]]) -> None:
    passed, lines, _ = real_run
    extra = [line for line in lines if line.startswith("FAIL") and "extra" in line]
    assert extra == [], "\n".join(extra)
    assert not [line for line in lines if line.startswith("COMPILE FAIL")]
    assert passed >= REAL_FLOOR, "\n".join(lines[-40:])


def _fates(summary_json: str, bundle: Path) -> tuple[list[str], list[str]]:
    """(texts of the compiled rules' sources, texts of the statements listed as unreadable
    or needing review) of one domain's compile, normalised."""
    from rulec.runtime.bundle.loader import load_bundle

    summary = json.loads(summary_json.splitlines()[0])
    listed = [_norm(p["text"]) for p in summary["problems"] if p["kind"] != "note"]
    rules = [_norm(r.source["text"]) for r in load_bundle(bundle).rules]
    return rules, listed


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def test_no_readable_rule_like_sentence_of_a_real_document_is_a_silent_miss(
        real_run: tuple[int, list[str], dict[str, tuple[list[str], list[str]]]]) -> None:
    """Every piece the labellers found rule-like, with one reading, is compiled or listed
    for the engineer (unreadable or needs review), never silently descriptive."""
    fates = real_run[2]
    folder = IN_PROCESS["real"]
    pieces = [json.loads(line) for line in (folder / "rule_like.jsonl").read_text().splitlines()
              if line.strip()]
    silent = []
    for domain in sorted({p["domain"] for p in pieces}):
        assert domain in fates, f"{domain}: not compiled by the corpus check"
        rules, listed = fates[domain]
        for piece in (p for p in pieces if p["domain"] == domain and p["readable"]):
            text = _norm(piece["piece"])
            if not any(text in t or t in text for t in rules + listed):
                silent.append(f"{domain}: {piece['piece']}")
    assert silent == [], "\n".join(silent)
