"""The traceability export for certification work: statement -> rule -> bundle id -> the
replay scenarios that raise it, and the rules no scenario ever raised.

Scenarios are replayed by the runtime exactly as ``rulec replay`` replays them (same
engine, same CSV reading), on the bundle the review compiled.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulec.compiler.review.session import Reviewed


def raised_by(reviewed: Reviewed, scenarios: Sequence[Path]) -> dict[str, dict[str, float]]:
    """rule id -> {scenario file name: time of its first raise}."""
    from rulec.runtime.engine.engine import Engine
    from rulec.runtime.engine.replay import read_run, replay_events

    out: dict[str, dict[str, float]] = {}
    for path in scenarios:
        engine = Engine(reviewed.made.bundle)
        for event in replay_events(engine, read_run(path, [engine])):
            got = event.to_json()
            if got.get("event") == "raise" and got.get("rule"):
                out.setdefault(got["rule"], {}).setdefault(path.name, float(got["t"]))
    return out


def trace(reviewed: Reviewed, scenarios: Sequence[Path]) -> dict[str, Any]:
    """The export as one JSON-ready object."""
    data = reviewed.data()
    raised = raised_by(reviewed, scenarios)
    rules = {r["id"]: r for r in data["rules"]}
    statements = []
    for s in data["statements"]:
        statements.append({
            "statement": s["id"], "file": s["file"], "line": s["line"], "page": s["page"],
            "text": s["text"], "class": s["class"] or "other", "reason": s["reason"],
            "rules": [{"id": r, "severity": rules[r]["severity"], "kind": rules[r]["kind"],
                       "raised_by": [{"scenario": name, "first_raise_t": t}
                                     for name, t in sorted(raised.get(r, {}).items())]}
                      for r in s["rules"] if r in rules]})
    conditional = [r["id"] for r in data["rules"] if r["kind"] in ("if_then", "constraint")]
    return {
        "bundle_id": reviewed.made.bundle_id,
        "scenarios": [p.name for p in scenarios],
        "statements": statements,
        "never_raised": [r for r in conditional if r not in raised],
        "decisions": data["decisions"],
    }


def trace_csv(export: dict[str, Any]) -> str:
    """One row per (statement, rule, scenario): the same facts, flat, for a spreadsheet."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["file", "page", "line", "statement", "class", "text", "rule",
                     "severity", "bundle_id", "scenario", "first_raise_t"])
    bundle = export["bundle_id"]
    for s in export["statements"]:
        head = [s["file"], s["page"] or "", s["line"], s["statement"], s["class"], s["text"]]
        if not s["rules"]:
            writer.writerow([*head, "", "", "", "", ""])
        for r in s["rules"]:
            raises = r["raised_by"] or [{"scenario": "", "first_raise_t": ""}]
            for hit in raises:
                writer.writerow([*head, r["id"], r["severity"], bundle, hit["scenario"],
                                 hit["first_raise_t"]])
    return out.getvalue()


def write_trace(path: Path, export: dict[str, Any]) -> None:
    """JSON for ``.json``, CSV for ``.csv`` (the rules never raised are in the JSON)."""
    if path.suffix.lower() == ".csv":
        text = trace_csv(export)
    else:
        text = json.dumps(export, ensure_ascii=False, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")
