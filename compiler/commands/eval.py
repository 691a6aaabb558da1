"""`rulec eval CORPUS`: run the paper's evaluation and write a markdown report with charts.

The tables go to stdout and into REPORT_DIR/report.md; REPORT_DIR/results.json holds every
answer of every system; PNG charts are drawn when matplotlib is installed (`[ground]`),
and the report says so when it is not.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulec.compiler.eval.corpus import CATEGORIES, OTHER_CATEGORY, Query
from rulec.compiler.eval.run import SYSTEMS, EvalRun, Metrics, SystemRun, run_evaluation

DEFAULT_REPORT_DIR = Path("eval-report")
CHARTS = ("summary.png", "categories.png", "latency.png")


def register(subparsers: Any) -> None:
    """Add `eval` to the `rulec` sub-command parser."""
    p = subparsers.add_parser(
        "eval", help="rulec against BM25 and dense retrieval on labelled states",
        description="Compile each domain of a corpus, answer its labelled queries with rulec "
        "(and each ablation), BM25 and dense retrieval, and write a report "
        "(docs/evaluation.md defines the metrics).")
    p.add_argument("corpus", type=Path, metavar="CORPUS",
                   help="a folder of domain folders with eval_queries.jsonl or queries.jsonl")
    p.add_argument("-o", "--output", type=Path, default=DEFAULT_REPORT_DIR, metavar="REPORT_DIR",
                   help=f"where report.md, results.json and the charts go "
                   f"(default {DEFAULT_REPORT_DIR})")
    p.add_argument("--systems", metavar="NAME,...",
                   help=f"comma list of {', '.join(SYSTEMS)} or 'ablations' (default: all)")
    p.add_argument("--k", type=int, default=3, metavar="N",
                   help="statements the retrieval baselines return per query (default 3)")
    p.add_argument("--queries", type=Path, metavar="FILE",
                   help="the labelled queries (default: CORPUS/eval_queries.jsonl, else "
                   "CORPUS/queries.jsonl)")
    p.add_argument("--dense", choices=("auto", "minilm", "tfidf"), default="auto",
                   help="embedding of the dense baseline: all-MiniLM-L6-v2 when installed "
                   "(auto), required (minilm), or the TF-IDF + SVD fallback (tfidf)")
    p.add_argument("--repeat", type=int, default=3, metavar="N",
                   help="time each query N times and keep the fastest (default 3)")
    p.add_argument("--questions", type=Path, metavar="FILE",
                   help="labelled questions in words (JSON lines): score `rulec ask` against "
                   "BM25 and dense retrieval given the same question text, per kind of "
                   "question; writes questions.md and questions.json in REPORT_DIR")
    p.add_argument("--no-charts", action="store_true", help="write no PNG charts")
    p.add_argument("-q", "--quiet", action="store_true", help="print no progress on stderr")
    p.set_defaults(run=run_eval)


def run_eval(args: argparse.Namespace) -> int:
    def log(message: str) -> None:
        if not args.quiet:
            print(f"eval: {message}", file=sys.stderr)

    if args.questions is not None:
        return _run_questions(args, log)
    run = run_evaluation(args.corpus, args.systems, k=args.k, queries_file=args.queries,
                         dense=args.dense, repeat=args.repeat, log=log)
    written = write_report(run, args.output, charts=not args.no_charts)
    print(render_tables(run))
    log("wrote " + ", ".join(str(p) for p in written))
    return 0


def _run_questions(args: argparse.Namespace, log: Callable[[str], None]) -> int:
    from rulec.compiler.commands.outputs import refuse_overwriting_inputs
    from rulec.compiler.eval.questions import (
        question_results_json,
        render_question_tables,
        run_questions,
    )

    report, results = args.output / "questions.md", args.output / "questions.json"
    refuse_overwriting_inputs([("-o", report), ("-o", results)], [args.questions])
    systems = [s.strip() for s in args.systems.split(",") if s.strip()] if args.systems \
        else None
    run = run_questions(args.corpus, args.questions, systems, k=args.k, dense=args.dense,
                        repeat=args.repeat, log=log)
    tables = render_question_tables(run)
    args.output.mkdir(parents=True, exist_ok=True)
    report.write_text(f"# rulec ask against retrieval: {args.questions.name}\n\n"
                      f"Corpus `{args.corpus}`, k = {args.k}.\n\n{tables}\n", encoding="utf-8")
    results.write_text(json.dumps(question_results_json(run), ensure_ascii=False, indent=1)
                       + "\n", encoding="utf-8")
    print(tables)
    log(f"wrote {report}, {results}")
    return 0


def write_report(run: EvalRun, folder: Path, charts: bool = True,
                 results: bool = True) -> list[Path]:
    """report.md, results.json (every answer) and the PNG charts, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    drawn, chart_note = write_charts(run, folder) if charts else \
        ([], "charts not drawn (--no-charts)")
    written = [folder / "report.md"]
    written[0].write_text(render_report(run, drawn, chart_note), encoding="utf-8")
    if results:
        written.append(folder / "results.json")
        written[1].write_text(json.dumps(results_json(run), ensure_ascii=False, indent=1)
                              + "\n", encoding="utf-8")
    return written + [folder / c for c in drawn]


# ---------------------------------------------------------------- tables


def pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f} %"


def micros(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.1f}" if value < 100 else f"{value:,.0f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numbers: bool = True) -> str:
    """A markdown table; with `numbers`, every column but the first is right-aligned."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if i and numbers else "---" for i in range(len(header)))
             + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def summary_table(run: EvalRun) -> str:
    header = ["system", "queries", "exact match", "threshold correctness", "precision",
              "recall", "non-hallucination", "weighted criticality", "p50 µs", "p99 µs"]
    rows = []
    for s in run.systems:
        if s.status != "ok":
            rows.append([f"`{s.name}`", "n/a", *(["n/a"] * 8)])
            continue
        m = s.metrics()
        rows.append([f"`{s.name}`", str(m.queries), pct(m.exact_match),
                     pct(m.threshold_correctness), pct(m.precision), pct(m.recall),
                     pct(m.non_hallucination), pct(m.criticality), micros(m.p50_us),
                     micros(m.p99_us)])
    return _table(header, rows)


def _categories(run: EvalRun) -> list[str]:
    present = {q.category for q in run.queries}
    return [c for c in (*CATEGORIES, OTHER_CATEGORY) if c in present]


def _pivot(run: EvalRun, groups: Sequence[tuple[str, Callable[[Query], bool]]],
           cell: Callable[[Metrics], str], first: str, skip_undefined: bool = False) -> str:
    """Groups down, systems across; `skip_undefined` drops rows with no defined cell."""
    live = [s for s in run.systems if s.status == "ok"]
    rows = []
    for label, where in groups:
        n = sum(1 for q in run.queries if where(q))
        cells = [cell(s.metrics(where)) for s in live]
        if skip_undefined and all(set(c) <= set("—/ ") for c in cells):
            continue
        rows.append([label, str(n), *cells])
    return _table([first, "n", *(f"`{s.name}`" for s in live)], rows)


def category_label(run: EvalRun, category: str) -> str:
    inferred = any(q.inferred for q in run.queries if q.category == category)
    return category.replace("_", " ") + (" *" if inferred else "")


def category_table(run: EvalRun, value: Callable[[Metrics], float | None]) -> str:
    groups = [(category_label(run, c), _is_category(c)) for c in _categories(run)]
    return _pivot(run, groups, lambda m: pct(value(m)), "category")


# Every metric of docs/evaluation.md, one table per metric, categories down, systems across.
CATEGORY_METRICS: tuple[tuple[str, Callable[[Metrics], str]], ...] = (
    ("Exact match", lambda m: pct(m.exact_match)),
    ("Threshold correctness (boundary categories)", lambda m: pct(m.threshold_correctness)),
    ("Precision / recall", lambda m: f"{pct(m.precision)} / {pct(m.recall)}"),
    ("Non-hallucination rate", lambda m: pct(m.non_hallucination)),
    ("Weighted criticality", lambda m: pct(m.criticality)),
    ("Latency per query, p50 / p99 µs", lambda m: f"{micros(m.p50_us)} / {micros(m.p99_us)}"),
)


def category_tables(run: EvalRun, heading: str = "###") -> str:
    """Each metric by category (rows where a metric is undefined for every system are
    left out: threshold correctness exists for the boundary categories only)."""
    groups = [(category_label(run, c), _is_category(c)) for c in _categories(run)]
    parts = []
    for title, cell in CATEGORY_METRICS:
        parts += [f"{heading} {title} by category", "",
                  _pivot(run, groups, cell, "category", skip_undefined=True), ""]
    return "\n".join(parts).rstrip() + "\n"


def _is_category(category: str) -> Callable[[Query], bool]:
    return lambda q: q.category == category


def _is_domain(domain: str) -> Callable[[Query], bool]:
    return lambda q: q.domain == domain


def domain_table(run: EvalRun) -> str:
    groups = [(d, _is_domain(d)) for d in sorted(run.domains)]
    return _pivot(run, groups, lambda m: pct(m.exact_match), "domain")


def render_tables(run: EvalRun) -> str:
    """What `rulec eval` prints: the summary, and exact match by category and by domain."""
    parts = [f"{len(run.queries)} queries in {len(run.domains)} domains "
             f"({run.queries_file}), retrieval top k = {run.k}", "", summary_table(run), "",
             "Exact match by category:", "", category_table(run, lambda m: m.exact_match), "",
             "Exact match by domain:", "", domain_table(run)]
    notes = system_notes(run)
    if notes:
        parts += ["", *notes]
    return "\n".join(parts)


def system_notes(run: EvalRun) -> list[str]:
    """Why a system has no numbers, what stood in for what, and failed queries."""
    out = []
    for s in run.systems:
        if s.status != "ok":
            out.append(f"- `{s.name}`: {s.status}")
            continue
        if s.note:
            out.append(f"- `{s.name}`: {s.note}")
        failed = [o for o in s.outcomes if o.error]
        if failed:
            out.append(f"- `{s.name}`: {len(failed)} queries failed with an error, scored as "
                       f"wrong (first, {failed[0].query.id}: {failed[0].error})")
    return out + [f"- {n}" for n in run.notes]


def render_report(run: EvalRun, charts: Sequence[str], chart_note: str) -> str:
    from rulec.compiler.version import __version__
    from rulec.runtime import NATIVE

    counts = {c: sum(1 for q in run.queries if q.category == c) for c in _categories(run)}
    lines = [
        f"# rulec evaluation: `{run.corpus}`", "",
        f"- queries: {len(run.queries)} from `{run.queries_file}` in {len(run.domains)} "
        f"domains ({', '.join(f'{category_label(run, c)}: {n}' for c, n in counts.items())})",
        f"- rulec {__version__}, containment kernel: {'C (cffi)' if NATIVE else 'numpy'}; "
        f"Python {platform.python_version()}; retrieval baselines return the top {run.k} "
        "statements",
        "- metrics as defined in `docs/evaluation.md`; `—` = undefined (no answer returned, "
        "or nothing expected); categories marked `*` were inferred, not labelled",
        "", "## Systems", "",
    ]
    lines += [f"- `{s.name}`: {s.description}" for s in run.systems]
    notes = system_notes(run)
    if notes:
        lines += ["", "Notes:", "", *notes]
    lines += ["", "## Summary", "", summary_table(run), ""]
    if charts:
        lines += [f"![{c}]({c})" for c in charts] + [""]
    else:
        lines += [f"({chart_note})", ""]
    lines += [category_tables(run, "##"),
              "## Exact match by domain", "", domain_table(run), ""]
    lines += misses_section(run)
    lines += examples_section(run)
    return "\n".join(lines).rstrip() + "\n"


def _answer_ids(answers: Sequence[Any]) -> str:
    return "; ".join(f"{a.rule_id or 'sentence'} \"{_short(a.text)}\"" for a in answers) or "—"


def _short(text: str, n: int = 70) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _state(q: Query) -> str:
    return ", ".join(f"{k}={v}" for k, v in q.state.items())


def misses_section(run: EvalRun, limit: int = 30) -> list[str]:
    full = run.system("rulec")
    if full is None or full.status != "ok":
        return []
    misses = [o for o in full.outcomes if not o.score.exact]
    lines = ["## Queries `rulec` does not answer exactly", ""]
    if not misses:
        return lines + ["None.", ""]
    rows = [[o.query.id, _state(o.query), "; ".join(o.query.expect) or "—",
             o.error or _answer_ids(o.answers)] for o in misses[:limit]]
    lines += [_table(["query", "state", "expected pieces", "returned"], rows, numbers=False), ""]
    if len(misses) > limit:
        lines += [f"({len(misses) - limit} more in results.json)", ""]
    return lines


def examples_section(run: EvalRun) -> list[str]:
    """One uncovered state and one boundary state, as each system answered them."""
    picks: list[Query] = []
    for wanted in ("uncovered", "numeric_threshold"):
        q = next((q for q in run.queries if q.category == wanted and
                  (wanted == "uncovered" or q.expect)), None)
        if q is not None:
            picks.append(q)
    if not picks:
        return []
    lines = ["## What the systems return (examples)", ""]
    for q in picks:
        lines += [f"`{q.id}` ({q.category.replace('_', ' ')}): {_state(q)}; expected: "
                  f"{'; '.join(q.expect) or 'nothing'}", ""]
        rows = []
        for s in run.systems:
            o = next((o for o in s.outcomes if o.query.id == q.id), None)
            if o is not None and s.status == "ok":
                flags = " ".join("ok" if g else "halluc." for g in o.grounded) or "—"
                rows.append([f"`{s.name}`", _answer_ids(o.answers), flags])
        lines += [_table(["system", "answers", "grounded"], rows, numbers=False), ""]
    return lines


# ---------------------------------------------------------------- JSON


def _metrics_json(m: Metrics) -> dict[str, Any]:
    return {k: getattr(m, k) for k in m.__dataclass_fields__}


def results_json(run: EvalRun) -> dict[str, Any]:
    def system(s: SystemRun) -> dict[str, Any]:
        out: dict[str, Any] = {"name": s.name, "description": s.description,
                               "status": s.status, "note": s.note}
        if s.status == "ok":
            out["metrics"] = _metrics_json(s.metrics())
            out["by_category"] = {c: _metrics_json(s.metrics(_is_category(c)))
                                  for c in _categories(run)}
        out["queries"] = [{
            "id": o.query.id, "latency_us": round(o.latency_us, 3), "exact": o.score.exact,
            "error": o.error,
            "answers": [{"rule": a.rule_id, "text": a.text, "file": a.file, "line": a.line,
                         "grounded": g} for a, g in zip(o.answers, o.grounded, strict=True)],
        } for o in s.outcomes]
        return out

    return {
        "corpus": str(run.corpus), "queries_file": str(run.queries_file), "k": run.k,
        "queries": [{"id": q.id, "domain": q.domain, "category": q.category,
                     "category_inferred": q.inferred, "state": q.state,
                     "expect": list(q.expect)} for q in run.queries],
        "domains": {n: {"passages": len(d.passages), "error": d.error,
                        "rules": 0 if d.bundle is None else len(d.bundle.rules)}
                    for n, d in run.domains.items()},
        "systems": [system(s) for s in run.systems],
        "notes": run.notes,
    }


# ---------------------------------------------------------------- charts


def write_charts(run: EvalRun, folder: Path) -> tuple[list[str], str]:
    """Draw the PNG charts; ([], why) when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "charts not drawn: matplotlib is not installed (pip install 'rulec[ground]')"
    live = [s for s in run.systems if s.status == "ok"]
    if not live:
        return [], "charts not drawn: no system has numbers"
    folder.mkdir(parents=True, exist_ok=True)
    metrics = [("exact match", "exact_match"), ("threshold\ncorrectness", "threshold_correctness"),
               ("precision", "precision"), ("recall", "recall"),
               ("non-\nhallucination", "non_hallucination"),
               ("weighted\ncriticality", "criticality")]
    summary = {s.name: s.metrics() for s in live}
    _bars(plt, folder / CHARTS[0], [label for label, _ in metrics],
          {n: [100 * (getattr(m, key) or 0.0) for _, key in metrics] for n, m in summary.items()},
          "percent", f"rulec vs retrieval baselines ({len(run.queries)} queries)")
    cats = _categories(run)
    _bars(plt, folder / CHARTS[1], [category_label(run, c).replace(" ", "\n", 1) for c in cats],
          {s.name: [100 * (s.metrics(_is_category(c)).exact_match or 0.0) for c in cats]
           for s in live}, "exact match, percent", "Exact match by query category")
    _bars(plt, folder / CHARTS[2], ["p50", "p99"],
          {n: [m.p50_us or 0.0, m.p99_us or 0.0] for n, m in summary.items()},
          "microseconds per query (log)", "Latency per query", log=True)
    return list(CHARTS), ""


def _bars(plt: Any, path: Path, groups: Sequence[str], series: dict[str, list[float]],
          ylabel: str, title: str, log: bool = False) -> None:
    fig, ax = plt.subplots(figsize=(max(6.0, 1.4 * len(groups) + 2), 4.8), dpi=110)
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, values, width, label=name)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if log:
        ax.set_yscale("log")
    else:
        ax.set_ylim(0, 105)
    ax.legend(fontsize=8, ncols=min(4, len(series)), loc="upper center",
              bbox_to_anchor=(0.5, -0.14 if "\n" in "".join(groups) else -0.09), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
