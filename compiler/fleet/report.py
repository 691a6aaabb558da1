"""The review page of a fleet replay: `report.md` with the figures of `summary.json` as
tables, and two plots (firing rate per rule; raises over time by severity) when
matplotlib (the `[ground]` extra) is installed.  Everything shown is read back from
OUTDIR's own outputs, so the page never says more than the files do."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from rulec.runtime.vocabulary import SEVERITIES

SEVERITY_COLORS = {"warning": "#c62828", "caution": "#ef8a17", "advisory": "#1f6fb4"}
TOP = 20  # rules shown in the tables and the firing-rate plot


def write_report(outdir: Path, summary: dict[str, Any]) -> list[Path]:
    """Write report.md (and its plots when matplotlib is there); return what was written."""
    written: list[Path] = []
    plots = _plots(outdir, summary)
    written.extend(plots)
    text = render_markdown(summary, [p.name for p in plots])
    target = outdir / "report.md"
    fd, tmp = tempfile.mkstemp(prefix=".report.md.", dir=outdir)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(tmp, target)
    written.insert(0, target)
    return written


def _hours(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def render_markdown(summary: dict[str, Any], plots: list[str]) -> str:
    """The page as markdown text."""
    s = summary
    lines = [f"# Fleet replay of bundle {s['bundle']}", "",
             f"{s['runs']} run(s) from {s['files']} file(s), {s['files_failed']} bad; "
             f"{s['samples']} samples over {s['hours']:.3f} recorded hour(s); "
             f"{s['events']} events (engine: {s.get('engine', '?')}).", ""]
    if not plots:
        lines += ["(No plots: matplotlib is not installed; `pip install 'rulec[ground]'`.)",
                  ""]
    for name in plots:
        lines += [f"![{name}]({name})", ""]
    lines += ["## Nuisance candidates (most raises per recorded hour)", ""]
    lines += _table(["rule", "severity", "raises", "raises/h", "mean raised s", "statement"],
                    [[n["rule"], n["severity"], n["raises"], _hours(n["chatter_per_h"]),
                      f"{n['mean_raised_s']:.2f}", _statement(n.get("source"))]
                     for n in s["nuisances"]])
    lines += ["## Per severity", ""]
    lines += _table(["severity", "runs affected", "raises", "time raised s", "raises/h"],
                    [[k, v["runs_affected"], v["raises"], f"{v['active_s']:.1f}",
                      _hours(v["chatter_per_h"])] for k, v in s["severities"].items()])
    rules = sorted(s["rules"].items(), key=lambda kv: (-kv[1]["raises"], kv[0]))
    silent = [rule for rule, f in rules if not f["raises"]]
    lines += [f"## Per rule (top {TOP} by raises)", ""]
    lines += _table(["rule", "severity", "runs affected", "raises", "time raised s",
                     "raises/h"],
                    [[k, v["severity"], v["runs_affected"], v["raises"],
                      f"{v['active_s']:.1f}", _hours(v["chatter_per_h"])]
                     for k, v in rules[:TOP] if v["raises"]])
    if silent:
        lines += [f"Never raised on these runs: {', '.join(silent)}.", ""]
    lines += ["## Per vehicle", ""]
    lines += _table(["vehicle", "runs", "hours", "runs affected", "raises", "raises/h"],
                    [[k, v["runs"], f"{v['hours']:.3f}", v["runs_affected"], v["raises"],
                      _hours(v["chatter_per_h"])] for k, v in s["vehicles"].items()])
    if "against" in s:
        a = s["against"]
        lines += [f"## Against the bundle in service ({a['bundle']})", "",
                  f"{a['added']} raise(s) added, {a['removed']} removed, {a['shifted']} "
                  f"shifted, in {a['runs_changed']} run(s); per run in diff.json.", ""]
        lines += [f"Reworded in place, compared as one rule: {was} (in service) is {now}."
                  for was, now in a.get("renamed", {}).items()]
        lines += [""] if a.get("renamed") else []
        lines += _table(["rule", "runs", "added", "removed", "shifted"],
                        [[k, v["runs"], v["added"], v["removed"], v["shifted"]]
                         for k, v in a["rules"].items()])
    if "labels" in s:
        lab = s["labels"]
        lines += ["## Labelled samples", "",
                  f"{lab['rows']} labelled sample(s), {lab['disagreements']} where the "
                  "raised rules differ from the label; feedback.csv feeds `rulec refine`.", ""]
    if s["failed"]:
        lines += ["## Bad files (not replayed)", ""]
        lines += [f"- {f['error']}" for f in s["failed"]] + [""]
    return "\n".join(lines)


def _statement(source: dict[str, Any] | None) -> str:
    """file:line: the sentence, cut to a table cell's length."""
    if not source:
        return "-"
    text = " ".join(str(source.get("text") or "").split())
    text = text if len(text) <= 90 else text[:89] + "…"
    return f"{source.get('file')}:{source.get('line')}: {text}"


def _table(header: list[str], rows: list[list[Any]]) -> list[str]:
    if not rows:
        return ["(none)", ""]
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return out + [""]


def _raises(outdir: Path) -> Iterator[tuple[str, float, str | None]]:
    """(severity, t, ISO time or None) of every raise in events.jsonl, streamed."""
    with open(outdir / "events.jsonl", encoding="utf-8") as events:
        for line in events:
            event = json.loads(line)
            if event["event"] == "raise":
                yield event.get("severity") or "", event["t"], event.get("time")


def _plots(outdir: Path, summary: dict[str, Any]) -> list[Path]:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return []
    written = []
    rules = sorted(((k, v) for k, v in summary["rules"].items() if v["raises"]),
                   key=lambda kv: (-kv[1]["raises"], kv[0]))[:TOP]
    fig = Figure(figsize=(8, 1.5 + 0.3 * max(len(rules), 1)), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    names = [k for k, _ in rules][::-1]
    rates = [v["chatter_per_h"] or 0.0 for _, v in rules][::-1]
    colors = [SEVERITY_COLORS.get(v["severity"], "#777777") for _, v in rules][::-1]
    ax.barh(names, rates, color=colors)
    ax.set_xlabel("raises per recorded hour")
    ax.set_title("Firing rate per rule (colour: severity)")
    fig.tight_layout()
    target = outdir / "firing_rates.png"
    fig.savefig(target)
    written.append(target)

    by_severity: dict[str, list[Any]] = {}
    wall = True
    for severity, t, when in _raises(outdir):
        wall = wall and when is not None
        by_severity.setdefault(severity, []).append((t, when))
    fig = Figure(figsize=(8, 4), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    order = [s for s in SEVERITIES if s in by_severity] + sorted(
        s for s in by_severity if s not in SEVERITIES)
    data: list[Any] = [[datetime.fromisoformat(w) if wall else t for t, w in by_severity[s]]
            for s in order]
    if data:
        ax.hist(data, bins=40, stacked=True, label=order,
                color=[SEVERITY_COLORS.get(s, "#777777") for s in order])
        ax.legend()
    ax.set_xlabel("time (UTC)" if wall and data else "seconds on the run's clock")
    ax.set_ylabel("raises")
    ax.set_title("Raises over time, all runs")
    fig.autofmt_xdate() if wall and data else None
    fig.tight_layout()
    target = outdir / "events_over_time.png"
    fig.savefig(target)
    written.append(target)
    return written
