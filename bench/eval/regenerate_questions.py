"""Regenerate the question figures in bench/eval/README.md: `rulec ask` against BM25 and
dense retrieval on the labelled questions in words.

    python bench/eval/regenerate_questions.py [--dev ../shared/corpus/dev] [--dense minilm]

Runs `rulec eval CORPUS --questions FILE` in-process on `examples/manuals` with
`questions/examples.jsonl`, `questions/probe.jsonl` and `questions/probe2.jsonl`, and on
the development corpus with `questions/dev.jsonl` (skipped, and said so, when it is
absent), writes each report's tables under bench/eval/results/questions/ (the cited
sentences, questions.json, only `rulec eval` writes), and rewrites the part of README.md
between the two QUESTIONS markers.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import sys
from pathlib import Path

from rulec.compiler.eval.questions import (
    QuestionRun,
    kind_table,
    render_question_tables,
    run_questions,
)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BEGIN = ("<!-- QUESTIONS: BEGIN (written by bench/eval/regenerate_questions.py; "
         "do not edit by hand) -->")
END = "<!-- QUESTIONS: END -->"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dev", default="../shared/corpus/dev",
                    help="the development corpus, relative to the repository root")
    ap.add_argument("--dense", choices=("auto", "minilm", "tfidf"), default="auto")
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    os.chdir(REPO)
    sections = [f"Machine: {platform.machine()}, Python {platform.python_version()}, "
                f"k = {args.k}, latency the fastest of {args.repeat} calls per question.\n"]
    for title, corpus, questions, folder in (
            ("Example domains", Path("examples/manuals"),
             Path("bench/eval/questions/examples.jsonl"), "examples"),
            ("Development corpus", Path(args.dev), Path("bench/eval/questions/dev.jsonl"),
             "dev"),
            ("First probe: other phrasings (the reader was changed after it, see above)",
             Path("examples/manuals"), Path("bench/eval/questions/probe.jsonl"), "probe"),
            ("Second probe: other phrasings, written before the reader's last run",
             Path("examples/manuals"), Path("bench/eval/questions/probe2.jsonl"), "probe2")):
        if not corpus.is_dir():
            print(f"regenerate_questions: {corpus} is not here: skipped", file=sys.stderr)
            sections.append(f"### {title}\n\n`{corpus}` is not here: not run.\n")
            continue
        print(f"regenerate_questions: {corpus}", file=sys.stderr)
        run = run_questions(corpus, questions, k=args.k, dense=args.dense, repeat=args.repeat,
                            log=lambda m: print(f"  {m}", file=sys.stderr))
        out = HERE / "results" / "questions" / folder
        out.mkdir(parents=True, exist_ok=True)
        tables = render_question_tables(run)
        (out / "questions.md").write_text(
            f"# rulec ask against retrieval: {questions}\n\nCorpus `{corpus}`, k = {args.k}."
            f"\n\n{tables}\n", encoding="utf-8")
        print(tables)
        sections.append(section(title, run, questions, out))
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    body = "\n".join([BEGIN, "", *sections, END])
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{readme}: the QUESTIONS markers are missing")
    readme.write_text(pattern.sub(lambda _m: body, text), encoding="utf-8")
    print(f"regenerate_questions: wrote {readme}", file=sys.stderr)
    return 0


def section(title: str, run: QuestionRun, questions: Path, out: Path) -> str:
    summary = render_question_tables(run).split("\n### ")
    head, overall = summary[0].strip(), "### " + summary[1].strip()
    rel = out.relative_to(HERE).as_posix()
    return "\n".join([
        f"### {title}: `{questions}` on `{run.corpus}`", "", head, "",
        overall.replace("### All questions", "All questions:"), "",
        "Exact match of the cited set, per kind of question:", "", kind_table(run), "",
        "Non-hallucination, per kind of question:", "",
        kind_table(run, "non_hallucination"), "",
        f"Every table per kind: [{rel}/questions.md]({rel}/questions.md); every cited "
        "sentence: `rulec eval ... --questions ...` writes it to `questions.json`.", ""])


if __name__ == "__main__":
    sys.exit(main())
