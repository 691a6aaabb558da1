"""`rulec refine BUNDLE FEEDBACK.csv -o NEW.bundle`: move thresholds the feedback disputes.

Nothing changes silently: every moved bound is printed (and written with `--diff`) with
its rule, source sentence, parameter, old and new value, change in % and the feedback
behind it, and the new bundle's `meta.refined` names the bundle and the feedback it came
from.  The learner is compiler/refine/agent.py; docs/agb-rl.md describes it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulec.compiler.commands.compile import EXIT_STRICT
from rulec.compiler.refine.config import RefineConfig

if TYPE_CHECKING:  # the learner and the bundle model load only when the command runs
    from rulec.compiler.refine.agent import BoundChange, Refinement
    from rulec.compiler.refine.feedback import Feedback
    from rulec.compiler.refine.model import BundleModel



def register(subparsers: Any) -> None:
    """Add the `refine` command to the `rulec` sub-command parsers."""
    d = RefineConfig()
    p = subparsers.add_parser(
        "refine", help="learn shifted thresholds back from labelled states (AGB-RL)",
        description="Q-learning over the bundle's boundaries from labelled feedback states "
        "(docs/agb-rl.md).  FEEDBACK.csv: one column per parameter and an 'expected' column "
        "with the ids of the rules that should fire (';'-separated).  Prints the changes; "
        "writes a new bundle.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("feedback", type=Path, metavar="FEEDBACK.csv")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="NEW.bundle")
    p.add_argument("--diff", type=Path, metavar="DIFF.md|DIFF.json",
                   help="also write the changes to a file (JSON when it ends in .json)")
    p.add_argument("--json", action="store_true", help="print the changes as JSON")
    p.add_argument("--strict", action="store_true",
                   help="fail (exit 3) when any feedback row is bad, instead of skipping it")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--episodes", type=int, default=d.episodes, help="training episodes per rule")
    p.add_argument("--steps", type=int, default=d.steps, help="moves per episode")
    p.add_argument("--step", type=float, default=d.step_pct, metavar="PCT",
                   help="smallest move, in %% of the bound (default %(default)s)")
    p.add_argument("--max-move", type=float, default=d.max_move_pct, metavar="PCT",
                   help="no bound moves further than this, in %% (default %(default)s)")
    p.add_argument("--penalty", type=float, default=d.penalty, metavar="ROWS",
                   help="reward lost per 100 %% of movement, in feedback rows")
    p.add_argument("--sign", type=Path, metavar="KEY",
                   help="sign the refined bundle with this Ed25519 private key (from rulec "
                   "keygen; needs the [sign] extra)")
    p.add_argument("--allow-loosen", action="store_true",
                   help="also apply moves that make a rule fire in fewer states (a protective "
                   "limit made weaker); without it such a result is refused and nothing is "
                   "written")
    p.add_argument("--no-polish", action="store_true",
                   help="keep the agent's bounds as found (no re-centring between feedback "
                   "values)")
    p.set_defaults(run=run_refine)


def run_refine(args: argparse.Namespace) -> int:
    from rulec.compiler.commands.outputs import refuse_overwriting_inputs
    from rulec.compiler.refine.agent import refine
    from rulec.compiler.refine.feedback import read_feedback
    from rulec.compiler.refine.model import RefineError, rebuild_payload

    refuse_overwriting_inputs([("-o", args.output), ("--diff", args.diff)],
                              [args.bundle, args.feedback, *([args.sign] if args.sign else [])])
    config = RefineConfig(seed=args.seed, episodes=args.episodes, steps=args.steps,
                          step_pct=args.step, max_move_pct=args.max_move,
                          penalty=args.penalty, polish=not args.no_polish)
    _check_config(config)
    key = None
    if args.sign is not None:  # a bad key fails before any work
        from rulec.compiler.build.keys import load_signing_key

        key = load_signing_key(args.sign)
    model = _load(args.bundle)
    feedback = read_feedback(args.feedback, model)
    for bad in feedback.bad:
        print(f"rulec: bad feedback row skipped: {bad}", file=sys.stderr)
    if args.strict and feedback.bad:
        print(f"rulec: error: {len(feedback.bad)} bad feedback row(s) (--strict); first: "
              f"{feedback.bad[0]}", file=sys.stderr)
        return EXIT_STRICT
    if feedback.n_rows == 0:
        raise RefineError(f"{args.feedback}: no usable feedback rows")
    result = refine(model, feedback, config)
    _refuse_loosening(result, args.allow_loosen)
    refined = {
        "from_bundle": model.digest,
        "from_bundle_id": str(model.payload["meta"].get("bundle_id", "")),
        "feedback": args.feedback.name,
        "feedback_sha256": feedback.sha256,
        "feedback_rows": feedback.n_rows,
        "seed": config.seed,
        "episodes": config.episodes,
        "bounds_moved": len(result.changes),
        "accuracy_before": round(result.accuracy_before, 4),
        "accuracy_after": round(result.accuracy_after, 4),
    }
    payload = rebuild_payload(model, result.values, refined)
    from rulec.compiler.build import writer

    made = writer.encode(payload, key)  # loaded exactly as the vehicle loads it
    report = diff_report(model, payload, feedback, result, args, made.bundle.digest)
    text = json.dumps(report, indent=1, ensure_ascii=False) if args.json else render_diff(report)
    print(text)
    if args.diff is not None:
        as_json = args.diff.suffix.lower() == ".json"
        body = json.dumps(report, indent=1, ensure_ascii=False) if as_json else render_diff(report)
        _write_text(args.diff, body + "\n")
    writer.write_encoded(args.output, made)
    print(f"refine: {feedback.n_rows} feedback row(s) ({len(feedback.bad)} bad, skipped); "
          f"decisions {result.accuracy_before:.2f} % -> {result.accuracy_after:.2f} % correct; "
          f"{len(result.changes)} bound(s) moved; wrote {args.output} "
          f"({made.describe()})", file=sys.stderr)
    return 0


def _refuse_loosening(result: Refinement, allowed: bool) -> None:
    """A protective limit is made weaker only with --allow-loosen."""
    from rulec.compiler.refine.model import RefineError, loosens

    weaker = [c for c in result.changes if loosens(c.bound, c.new)]
    for c in weaker:
        b = c.bound
        print(f"rulec: refine: {b.rule_id} {b.param} {'not ' if b.negated else ''}{b.op} "
              f"{b.value:g} -> {c.new:g} {b.unit}: the rule would fire in fewer states",
              file=sys.stderr)
    if weaker and not allowed:
        raise RefineError(f"{len(weaker)} move(s) would loosen a protective limit (first: "
                          f"{weaker[0].bound.rule_id}); nothing written; pass --allow-loosen "
                          "to accept them")


def _check_config(c: RefineConfig) -> None:
    from rulec.compiler.refine.model import RefineError

    if c.episodes < 1 or c.steps < 1:
        raise RefineError("--episodes and --steps must be at least 1")
    if not 0 < c.step_pct <= c.max_move_pct:
        raise RefineError("--step must be above 0 and at most --max-move")
    if c.penalty < 0:
        raise RefineError("--penalty must not be negative")


def _load(path: Path) -> BundleModel:
    from rulec.compiler.refine.model import RefineError, load_model
    from rulec.runtime.errors import BundleError

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RefineError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return load_model(data, str(path))
    except BundleError as exc:
        raise type(exc)(f"{path}: {exc}") from None


def _write_text(path: Path, text: str) -> None:
    from rulec.compiler.refine.model import RefineError

    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise RefineError(f"{path}: cannot write: {exc.strerror or exc}") from None


def diff_report(model: BundleModel, payload: dict[str, Any], feedback: Feedback,
                result: Refinement, args: argparse.Namespace, new_digest: str
                ) -> dict[str, Any]:
    """Every change with its provenance and evidence, as a JSON-ready dict."""
    old_rules = {r["id"]: r for r in model.payload["rules"]}
    new_rules = {r["id"]: r for r in payload["rules"]}
    moved = {c.bound.rule_id for c in result.changes}
    return {
        "bundle": str(args.bundle), "digest": model.digest,
        "output": str(args.output), "output_digest": new_digest,
        "feedback": str(args.feedback), "feedback_sha256": feedback.sha256,
        "feedback_rows": feedback.n_rows,
        "bad_rows": [str(b) for b in feedback.bad],
        "out_of_range_values": feedback.out_of_range,
        "seed": args.seed,
        "accuracy_before": result.accuracy_before, "accuracy_after": result.accuracy_after,
        "changes": [_change(c, old_rules[c.bound.rule_id], new_rules[c.bound.rule_id])
                    for c in result.changes],
        "unchanged_rules": [r.rule_id for r in result.rules if r.rule_id not in moved],
    }


def _change(c: BoundChange, old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    b, e = c.bound, c.evidence
    src = old["source"]
    return {
        "rule": b.rule_id, "source": {"file": src.get("file"), "line": src.get("line"),
                                      "text": src.get("text")},
        "parameter": b.param, "op": b.op, "negated": b.negated,
        "end": ("low" if b.end == 0 else "high") if b.op in ("between", "outside") else "",
        "old": b.value, "new": c.new, "unit": b.unit, "change_pct": round(c.pct, 4),
        "condition_before": old["condition_text"], "condition_after": new["condition_text"],
        "evidence": {"rows_near": e.near, "decisions_fixed": e.fixed,
                     "decisions_broken": e.broken,
                     "false_positives": [e.fp_before, e.fp_after],
                     "false_negatives": [e.fn_before, e.fn_after]},
    }


def render_diff(report: dict[str, Any]) -> str:
    """The changes as a reviewable Markdown page (also what the command prints)."""
    lines = [f"# rulec refine: {report['bundle']} -> {report['output']}", "",
             f"- bundle digest {report['digest'][:16]}, refined {report['output_digest'][:16]}",
             f"- feedback {report['feedback']} (sha256 {report['feedback_sha256'][:16]}): "
             f"{report['feedback_rows']} row(s), {len(report['bad_rows'])} bad row(s) skipped",
             f"- seed {report['seed']}; rule decisions on the feedback: "
             f"{report['accuracy_before']:.2f} % -> {report['accuracy_after']:.2f} % correct", ""]
    if not report["changes"]:
        lines.append("No bound moved: the feedback supports no change.")
    for c in report["changes"]:
        unit = f" {c['unit']}" if c["unit"] else ""
        end = f" ({c['end']} end)" if c["end"] else ""
        neg = " under not" if c["negated"] else ""
        e = c["evidence"]
        lines += [
            f"## {c['rule']}: {c['parameter']} {c['op']}{end}{neg}: "
            f"{_num(c['old'])}{unit} -> {_num(c['new'])}{unit} ({c['change_pct']:+.2f} %)", "",
            f"- source: {c['source']['file']}:{c['source']['line']}: \"{c['source']['text']}\"",
            f"- condition: `{c['condition_before']}` -> `{c['condition_after']}`",
            f"- evidence: {e['rows_near']} feedback row(s) near the bound; rule decisions "
            f"fixed {e['decisions_fixed']}, broken {e['decisions_broken']}; false positives "
            f"{e['false_positives'][0]} -> {e['false_positives'][1]}, false negatives "
            f"{e['false_negatives'][0]} -> {e['false_negatives'][1]}", ""]
    if report["unchanged_rules"]:
        lines += [f"Unchanged rules ({len(report['unchanged_rules'])}): "
                  + ", ".join(report["unchanged_rules"])]
    return "\n".join(lines).rstrip()


def _num(x: float) -> str:
    return f"{x:.10g}"
