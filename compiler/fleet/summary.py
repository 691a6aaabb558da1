"""Fleet figures, gathered one file's result at a time: per rule, per severity and per
vehicle, the runs affected, raises, time raised and chatter (raises per hour of recorded
telemetry), plus the diff against the bundle in service when there is one.

Chatter divides by the recorded hours of the runs it is counted over (all runs for a rule
or a severity, the vehicle's runs for a vehicle): a rule raising 30 times an hour in
the fleet's telemetry is a nuisance whatever its severity.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from rulec.compiler.fleet.diff import count, renamed_rules
from rulec.compiler.fleet.replay_file import FileResult, RunResult
from rulec.runtime.bundle.loader import Bundle

SEVERITY_ORDER = ("warning", "caution", "advisory")


def _figure() -> dict[str, Any]:
    # active_s gathers each run's seconds and is summed with fsum at the end: exactly
    # rounded, so the figure is the same whatever order results arrive in
    return {"runs_affected": 0, "raises": 0, "active_s": [], "raised_at_end": 0}


class FleetSummary:
    """Accumulates results as they arrive, in any order; `to_json` is order-free."""

    def __init__(self, bundle: Bundle, old: Bundle | None = None) -> None:
        self.bundle = bundle
        self.old = old
        self.rules: dict[str, dict[str, Any]] = {
            r.id: {"severity": r.severity, **_figure()} for r in bundle.rules}
        # where each rule comes from, for a reviewer reading the figures
        self.sources = {r.id: {"file": r.source.get("file"), "line": r.source.get("line"),
                               "text": r.source.get("text")} for r in bundle.rules}
        self.severities: dict[str, dict[str, Any]] = defaultdict(_figure)
        self.vehicles: dict[str, dict[str, Any]] = {}
        self.runs: list[dict[str, Any]] = []
        self.failed: list[dict[str, str]] = []
        self.files = 0
        self.samples = 0
        self.events = 0
        self.labels = 0
        self.label_disagreements = 0
        self.diff_rules: dict[str, dict[str, int]] = {}
        self.diff_runs: list[dict[str, Any]] = []

    def add(self, result: FileResult) -> None:
        self.files += 1
        if result.error is not None:
            self.failed.append({"file": result.file, "error": result.error})
            return
        for run in result.runs:
            self._add_run(run)

    def _add_run(self, run: RunResult) -> None:
        self.samples += run.samples
        self.events += run.n_events
        self.labels += len(run.labels)
        self.label_disagreements += sum(
            1 for label in run.labels if label["expected"] != label["raised"])
        raises = sum(f["raises"] for f in run.rules.values())
        self.runs.append({"run": run.run, "vehicle": run.vehicle, "file": run.file,
                          "samples": run.samples, "start_s": run.start_s,
                          "duration_s": run.duration_s, "origin": run.origin,
                          "events": run.n_events, "raises": raises})
        vehicle = self.vehicles.setdefault(
            run.vehicle, {"runs": 0, "durations": [], **_figure(), "rules": {}})
        vehicle["runs"] += 1
        vehicle["durations"].append(run.duration_s)
        if run.rules:
            vehicle["runs_affected"] += 1
        severities_hit: set[str] = set()
        for rule, figure in run.rules.items():
            severity = figure["severity"]
            severities_hit.add(severity)
            target = self.rules.setdefault(rule, {"severity": severity, **_figure()})
            for into in (target, self.severities[severity], vehicle):
                into["raises"] += figure["raises"]
                into["active_s"].append(figure["active_s"])
                into["raised_at_end"] += figure["raised_at_end"]
            target["runs_affected"] += 1
            vehicle["rules"][rule] = vehicle["rules"].get(rule, 0) + figure["raises"]
        for severity in severities_hit:
            self.severities[severity]["runs_affected"] += 1
        if run.diff:
            self.diff_runs.append({"run": run.run, "file": run.file, "rules": {
                rule: {**change, "counts": count(change)} for rule, change in run.diff.items()}})
            for rule, change in run.diff.items():
                total = self.diff_rules.setdefault(
                    rule, {"added": 0, "removed": 0, "shifted": 0, "runs": 0})
                for key, n in count(change).items():
                    total[key] += n
                total["runs"] += 1

    @property
    def hours(self) -> float:
        return math.fsum(r["duration_s"] for r in self.runs) / 3600.0

    def to_json(self) -> dict[str, Any]:
        hours = self.hours
        runs = sorted(self.runs, key=lambda r: (r["file"], r["run"]))
        out: dict[str, Any] = {
            "bundle": self.bundle.digest,
            "files": self.files,
            "files_failed": len(self.failed),
            "runs": len(runs),
            "samples": self.samples,
            "hours": hours,
            "events": self.events,
            "rules": {rule: {**_rated(f, hours), "source": self.sources.get(rule)}
                      for rule, f in sorted(self.rules.items())},
            "severities": {s: _rated(self.severities[s], hours)
                           for s in sorted(self.severities, key=_severity_rank)},
            "vehicles": {v: _vehicle(f) for v, f in sorted(self.vehicles.items())},
            "nuisances": self.nuisances(),
            "failed": sorted(self.failed, key=lambda f: f["file"]),
            "run_list": runs,
        }
        if self.labels:
            out["labels"] = {"rows": self.labels, "disagreements": self.label_disagreements}
        if self.old is not None:
            out["against"] = {
                "bundle": self.old.digest,
                # rules reworded in place: their alarms are compared under the new id
                "renamed": dict(sorted(renamed_rules(self.old, self.bundle).items())),
                "added": sum(r["added"] for r in self.diff_rules.values()),
                "removed": sum(r["removed"] for r in self.diff_rules.values()),
                "shifted": sum(r["shifted"] for r in self.diff_rules.values()),
                "runs_changed": len(self.diff_runs),
                "rules": dict(sorted(self.diff_rules.items())),
            }
        return out

    def diff_json(self) -> dict[str, Any]:
        """The regression report: per rule and per run, spells added, removed, shifted."""
        summary = self.to_json().get("against", {})
        return {"old": self.old.digest if self.old else None, "new": self.bundle.digest,
                **{k: v for k, v in summary.items() if k != "bundle"},
                "runs": sorted(self.diff_runs, key=lambda r: (r["file"], r["run"]))}

    def nuisances(self, limit: int = 10) -> list[dict[str, Any]]:
        """The rules raising most often per recorded hour, the first to review."""
        hours = self.hours
        ranked = sorted(((rule, f) for rule, f in self.rules.items() if f["raises"]),
                        key=lambda item: (-item[1]["raises"], item[0]))
        return [{"rule": rule, "severity": f["severity"], "raises": f["raises"],
                 "chatter_per_h": _per_hour(f["raises"], hours),
                 "mean_raised_s": math.fsum(f["active_s"]) / f["raises"],
                 "source": self.sources.get(rule)}
                for rule, f in ranked[:limit]]


def _rated(figure: dict[str, Any], hours: float) -> dict[str, Any]:
    out = {k: v for k, v in figure.items() if k not in ("rules", "durations")}
    out["active_s"] = math.fsum(figure["active_s"])
    out["chatter_per_h"] = _per_hour(figure["raises"], hours)
    return out


def _vehicle(figure: dict[str, Any]) -> dict[str, Any]:
    hours = math.fsum(figure["durations"]) / 3600.0
    return {"runs": figure["runs"], "hours": hours, **_rated(figure, hours),
            "rules": dict(sorted(figure["rules"].items()))}


def _per_hour(raises: int, hours: float) -> float | None:
    return raises / hours if hours > 0 else None


def _severity_rank(severity: str) -> tuple[int, str]:
    rank = SEVERITY_ORDER.index(severity) if severity in SEVERITY_ORDER else len(SEVERITY_ORDER)
    return rank, severity
