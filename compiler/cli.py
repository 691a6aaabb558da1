"""`rulec`: compile manuals into a bundle, extract reviewable rules, query and replay.

Bad input ends with a one-line error on stderr naming the file (and line) at
fault and a non-zero status, never a traceback.  `query` and `replay` use only
the onboard runtime, exactly as the vehicle would.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rulec.compiler import __version__
from rulec.runtime.errors import RulecError

EXIT_BAD_INPUT = 2
EXIT_STRICT = 3
EXIT_INTERNAL = 70


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    # NAME=VALUE pairs may stand on both sides of --json, which argparse alone refuses.
    args, extra = parser.parse_known_args(argv)
    if extra:
        if getattr(args, "command", None) == "query" and all(
                "=" in e and not e.startswith("-") for e in extra):
            args.assignments = [*args.assignments, *extra]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.run(args))
    except RulecError as exc:
        print(f"rulec: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the contract: never a traceback
        print(f"rulec: internal error: {type(exc).__name__}: {_one_line(exc)}", file=sys.stderr)
        return EXIT_INTERNAL


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def _parser() -> argparse.ArgumentParser:
    from rulec.compiler.llm.flags import add_llm_arguments

    parser = argparse.ArgumentParser(
        prog="rulec",
        description="Compile technical manuals into an exact, checksummed rule bundle, and "
        "evaluate sensor states against it.",
    )
    parser.add_argument("--version", action="version", version=f"rulec {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("compile", help="manuals (folders, .txt, .md, rules .jsonl) -> bundle",
                       description="Compile manuals into a bundle.  A folder may hold a "
                       "sensors.toml that applies to its documents.")
    p.add_argument("sources", nargs="+", type=Path, metavar="SRC")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="BUNDLE")
    p.add_argument("--strict", action="store_true",
                   help="fail (exit 3) when any statement that looks like a rule is unreadable")
    p.add_argument("-q", "--quiet", action="store_true", help="print no summary")
    p.add_argument("--kb", type=Path, metavar="PATH",
                   help="where to write the provenance knowledge base (SQLite; default "
                   "BUNDLE.kb.sqlite beside the bundle)")
    p.add_argument("--sign", type=Path, metavar="KEY",
                   help="sign the bundle with this Ed25519 private key (from rulec keygen; "
                   "needs the [sign] extra)")
    add_llm_arguments(p)
    p.set_defaults(run=_compile)

    p = sub.add_parser("extract", help="manuals -> reviewable rule objects (JSON lines)",
                       description="Write the rule objects as JSON lines with provenance; "
                       "edit them and give the file back to `rulec compile`.")
    p.add_argument("sources", nargs="+", type=Path, metavar="SRC")
    p.add_argument("-o", "--output", required=True, type=Path, metavar="RULES.jsonl")
    p.add_argument("--strict", action="store_true",
                   help="fail (exit 3) when any statement that looks like a rule is unreadable")
    add_llm_arguments(p)
    p.set_defaults(run=_extract)

    p = sub.add_parser("query", help="the rules that apply to one state",
                       description="Evaluate one state: NAME=VALUE in the manifest's units.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("--paths", default="all", metavar="P,...",
                   help="reasoning paths to run: a comma-separated subset of "
                   "geometry,logic,graph (default: all)")
    p.add_argument("--nearest", action="store_true",
                   help="also give each other rule's nearest boundary when rules fire")
    p.add_argument("assignments", nargs="*", metavar="NAME=VALUE")
    p.set_defaults(run=_query)

    p = sub.add_parser("replay", help="raise/clear events over a CSV of timed samples",
                       description="Replay a CSV (column `time` in seconds, other columns "
                       "parameter names); each sample holds until the next one.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("csv", type=Path, metavar="FILE.csv")
    p.add_argument("--json", action="store_true", help="one JSON event per line")
    p.add_argument("--faults", action="store_true",
                   help="also list sensor-fault events in --json output")
    p.add_argument("--paths", default="all", metavar="P,...",
                   help="reasoning paths to run: a comma-separated subset of "
                   "geometry,logic,graph (default: all)")
    p.set_defaults(run=_replay)

    p = sub.add_parser("inspect", help="summarise a bundle",
                       description="Validate a bundle and print what it holds.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=_inspect)

    from rulec.compiler.commands.inspect import register as register_kb_commands

    register_kb_commands(sub)
    from rulec.compiler.commands.eval import register as register_eval_command

    register_eval_command(sub)
    from rulec.compiler.commands.steps import register as register_steps_command

    register_steps_command(sub)
    from rulec.compiler.commands.refine import register as register_refine_command

    register_refine_command(sub)
    from rulec.compiler.build.keys import register as register_keygen

    register_keygen(sub)
    from rulec.compiler.commands.plot import register as register_plot_command

    register_plot_command(sub)
    return parser


# ---------------------------------------------------------------- ground side


def _compile(args: argparse.Namespace) -> int:
    from rulec.compiler.build.keys import load_signing_key, sign_packed_payload
    from rulec.compiler.kb.checks import check_knowledge_base
    from rulec.compiler.kb.store import default_kb_path, write_knowledge_base
    from rulec.compiler.llm.client import CACHE_DIR_NAME, config_from_args
    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime.bundle.format import frame_payload, pack_payload, write_bundle_file

    key = load_signing_key(args.sign) if args.sign else None  # a bad key fails before work
    kb_dir = (args.kb or default_kb_path(args.output)).parent
    llm = config_from_args(args, default_cache=kb_dir / CACHE_DIR_NAME)
    result = collect_rules(list(args.sources), extractor=args.extractor, llm=llm)
    payload = build_payload(result, " ".join(s.name or str(s) for s in args.sources))
    errors = result.errors
    findings = check_knowledge_base(result)
    if not args.quiet:
        _report(result)
        _report_findings(findings)
    if args.strict and errors:
        print(f"rulec: error: {len(errors)} unreadable statement(s) (--strict); "
              f"first: {errors[0]}", file=sys.stderr)
        return EXIT_STRICT
    kb_path = args.kb or default_kb_path(args.output)
    write_knowledge_base(kb_path, result)  # first: the bundle changes only if both succeed
    packed = pack_payload(payload)
    data = sign_packed_payload(packed, key) if key else frame_payload(packed)
    write_bundle_file(args.output, data)
    if not args.quiet:
        signed = f", signed by key {key.fingerprint}" if key else ""
        print(f"wrote {args.output} ({payload['meta']['bundle_id']}{signed}) and {kb_path}",
              file=sys.stderr)
    return 0


def _extract(args: argparse.Namespace) -> int:
    from rulec.compiler.llm.client import CACHE_DIR_NAME, config_from_args
    from rulec.compiler.model.rules import dumps_rule
    from rulec.compiler.pipeline import collect_rules
    from rulec.runtime.errors import DocumentError

    llm = config_from_args(args, default_cache=args.output.parent / CACHE_DIR_NAME)
    result = collect_rules(list(args.sources), extractor=args.extractor, llm=llm)
    _report(result)
    if args.strict and result.errors:
        print(f"rulec: error: {len(result.errors)} unreadable statement(s) (--strict); "
              f"first: {result.errors[0]}", file=sys.stderr)
        return EXIT_STRICT
    text = "".join(dumps_rule(rule) + "\n" for rule in result.rules)
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise DocumentError(f"{args.output}: cannot write: {exc.strerror or exc}") from None
    print(f"wrote {len(result.rules)} rule objects to {args.output}", file=sys.stderr)
    return 0


def _report_findings(findings: list[Any]) -> None:
    """The knowledge-base checks (compiler/kb/checks.py): reported, never fatal."""
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.kind] = counts.get(finding.kind, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "no findings"
    print(f"knowledge-base checks: {summary}", file=sys.stderr)
    for finding in findings:
        print(f"  check: {finding}", file=sys.stderr)


def _report(result: Any) -> None:
    kinds: dict[str, int] = {}
    for rule in result.rules:
        kinds[rule.kind] = kinds.get(rule.kind, 0) + 1
    summary = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())) or "no rules"
    print(f"{len(result.documents)} document(s): {summary}; "
          f"{len(result.descriptive)} descriptive statement(s); "
          f"{len(result.errors)} unreadable", file=sys.stderr)
    for problem in result.problems:
        tag = "unreadable" if problem.fatal else "note"
        print(f"  {tag}: {problem}", file=sys.stderr)
    if result.llm_requests or result.llm_cache_hits or result.rejected:
        print(f"llm: {result.llm_requests} request(s), {result.llm_cache_hits} cached "
              f"answer(s), {len(result.rejected)} rule(s) rejected by the fidelity filter, "
              f"{len(result.disagreements)} disagreement(s)", file=sys.stderr)
    for rejection in result.rejected:
        print(f"  {rejection}", file=sys.stderr)
    for disagreement in result.disagreements:
        print(f"  disagreement: {disagreement}", file=sys.stderr)


# ---------------------------------------------------------------- onboard side


def _query(args: argparse.Namespace) -> int:
    from rulec.runtime.engine.engine import Engine, parse_paths
    from rulec.runtime.errors import StateError

    state: dict[str, str] = {}
    for item in args.assignments:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise StateError(f"expected NAME=VALUE, got {item!r}")
        if name.strip() in state:
            raise StateError(f"parameter {name.strip()!r} is given twice")
        state[name.strip()] = value
    engine = Engine.from_file(str(args.bundle), parse_paths(args.paths))
    result = engine.evaluate(state, nearest=args.nearest)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    if not result.rules:
        print("no rule applies")
    for rule in result.rules:
        src = rule.source
        print(f"[{rule.severity.upper()}] {rule.id}: {rule.advisory}")
        print(f"    {src.get('file')}:{src.get('line')}: {src.get('text')}")
    for conflict in result.conflicts:
        print(f"[CONFLICT] {conflict['message']}")
    for proc in result.procedures:
        print(f"[PROCEDURE] {proc.title}: " + " / ".join(s.text for s in proc.steps))
    for fault in result.sensor_faults:
        print(f"[SENSOR FAULT] {fault.parameter}: {fault.reason}")
    if not result.rules or args.nearest:
        for boundary in result.nearest:
            print(f"  nearest: {boundary['text']}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    from rulec.runtime.engine.engine import Engine, parse_paths
    from rulec.runtime.engine.replay import read_samples

    engine = Engine.from_file(str(args.bundle), parse_paths(args.paths))
    for t, sample in read_samples(args.csv, known=engine.knows):
        for event in engine.step(t, sample):
            if args.json:
                if event.rule is None and not args.faults:
                    continue
                print(json.dumps(event.to_json(), ensure_ascii=False))
            else:
                what = event.rule or "sensor"
                print(f"t={event.t:g} {event.event.upper():<11} {what}: {event.advisory}")
    return 0


def _inspect(args: argparse.Namespace) -> int:
    from rulec.runtime.bundle.loader import load_bundle

    bundle = load_bundle(str(args.bundle))
    info = {
        "digest": bundle.digest,
        "format": bundle.format_version,
        "signature": bundle.signature.to_json(),  # not verified here: no trusted key
        "meta": bundle.meta,
        "parameters": [p.name for p in bundle.parameters],
        "rules": len(bundle.rules),
        "boxes": bundle.boxes.n_boxes,
        "clauses": bundle.cnf.n_clauses,
        "graph_nodes": len(bundle.graph.nodes),
        "graph_edges": bundle.graph.n_edges,
        "procedures": [p.get("title") for p in bundle.procedures],
    }
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
        return 0
    for key, value in info.items():
        print(f"{key}: {value}")
    for rule in bundle.rules:
        print(f"  {rule.id} [{rule.severity}] {rule.kind}: {rule.condition_text} -> {rule.action}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
