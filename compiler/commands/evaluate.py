"""`rulec query` (the rules that apply to one state), `rulec replay` (raise and clear
events over a CSV of timed samples) and `rulec inspect` (what a bundle holds): the onboard
runtime alone, exactly as the vehicle runs it."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from rulec.runtime.errors import StateError


def register(sub: Any) -> None:
    """Add `query`, `replay` and `inspect` to the `rulec` sub-command parsers."""
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
    p.set_defaults(run=run_query)

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
    p.add_argument("--reload-at", nargs=2, action="append", metavar=("T", "BUNDLE"),
                   help="swap in BUNDLE after the last sample at or before T seconds, "
                   "carrying values, raised rules and timers as rulec-onboard does on a "
                   "hot reload (repeatable)")
    p.set_defaults(run=run_replay)

    p = sub.add_parser("inspect", help="summarise a bundle",
                       description="Validate a bundle and print what it holds.")
    p.add_argument("bundle", type=Path, metavar="BUNDLE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_inspect)



def run_query(args: argparse.Namespace) -> int:
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
        revision = f" (revision {rule.revision})" if rule.revision > 1 else ""
        print(f"[{rule.severity.upper()}] {rule.id}{revision}: {rule.advisory}")
        print(f"    {src.get('file')}:{src.get('line')}: {src.get('text')}")
    shown = {rule.id for rule in result.rules}
    for conflict in result.conflicts:
        if conflict.get("kind") == "constraint" and set(conflict.get("rules", ())) <= shown:
            continue  # a violated constraint is already shown as the rule it is
        print(f"[CONFLICT] {conflict['message']}")
    for proc in result.procedures:
        print(f"[PROCEDURE] {proc.title}: " + " / ".join(s.text for s in proc.steps))
    for fault in result.sensor_faults:
        print(f"[SENSOR FAULT] {fault.parameter}: {fault.reason}")
    for rule_id in result.inhibited:
        print(f"[INHIBITED] {rule_id}: its condition holds, but the phase holds it")
    if not result.rules or args.nearest:
        for boundary in result.nearest:
            print(f"  nearest: {boundary['text']}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from rulec.runtime.engine.engine import Engine, parse_paths
    from rulec.runtime.engine.replay import read_run, replay_events

    paths = parse_paths(args.paths)
    engine = Engine.from_file(str(args.bundle), paths)
    swaps = [(_reload_time(t), Engine.from_file(b, paths)) for t, b in args.reload_at or ()]
    samples = read_run(args.csv, [engine, *(e for _, e in swaps)])
    for event in replay_events(engine, samples, swaps):
        if args.json:
            if event.rule is None and not args.faults:
                continue
            print(json.dumps(event.to_json(), ensure_ascii=False))
        else:
            what = event.rule or "sensor"
            print(f"t={event.t:g} {event.event.upper():<11} {what}: {event.advisory}")
    return 0


def _reload_time(text: str) -> float:
    try:
        t = float(text)
    except ValueError:
        raise StateError(f"--reload-at: {text!r} is not a time in seconds") from None
    if not math.isfinite(t):
        raise StateError(f"--reload-at: {text!r} is not a finite time")
    return t


def run_inspect(args: argparse.Namespace) -> int:
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
        shown = value if isinstance(value, str | int) else json.dumps(
            value, ensure_ascii=False, sort_keys=True)
        print(f"{key}: {shown}")
    for rule in bundle.rules:
        print(f"  {rule.id} [{rule.severity}] {rule.kind}: {rule.condition_text} -> {rule.action}")
    return 0
