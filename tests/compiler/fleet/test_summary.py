"""summary.json's figures recomputed from events.jsonl and the runs' own CSV files."""

from __future__ import annotations

import csv
import json
import math
from collections import defaultdict
from pathlib import Path

import pytest

from rulec.compiler.fleet.replay_fleet import replay_fleet


@pytest.fixture(scope="module")
def outputs(bundles, fleet_dir, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("summary") / "out"
    replay_fleet(bundles[0], [str(fleet_dir)], out, single_process=True)
    return out


def run_spans(fleet_dir: Path) -> dict[str, tuple[str, float, float]]:
    """run -> (vehicle, duration in s, last time) straight from the CSV files."""
    spans = {}
    for path in sorted(fleet_dir.rglob("*.csv")):
        with open(path, newline="", encoding="utf-8") as f:
            times = [float(row[0]) for row in list(csv.reader(f))[1:]]
        spans[path.stem] = (path.parent.name, times[-1] - times[0], times[-1])
    return spans


def test_per_rule_severity_and_vehicle_figures(outputs, fleet_dir):
    summary = json.loads((outputs / "summary.json").read_text(encoding="utf-8"))
    events = [json.loads(line) for line in
              (outputs / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    spans = run_spans(fleet_dir)
    hours = math.fsum(d for _, d, _ in spans.values()) / 3600
    assert summary["runs"] == len(spans) and summary["hours"] == pytest.approx(hours)

    raises: dict[str, int] = defaultdict(int)
    active: dict[str, float] = defaultdict(float)
    affected: dict[str, set[str]] = defaultdict(set)
    severity: dict[str, str] = {}
    by_vehicle: dict[str, int] = defaultdict(int)
    opened: dict[tuple[str, str], float] = {}
    for e in events:
        key = (e["run"], e["rule"])
        severity[e["rule"]] = e["severity"]
        if e["event"] == "raise":
            raises[e["rule"]] += 1
            affected[e["rule"]].add(e["run"])
            by_vehicle[e["vehicle"]] += 1
            opened[key] = e["t"]
        elif e["event"] == "clear":
            active[e["rule"]] += e["t"] - opened.pop(key)
    for (run, rule), t in opened.items():  # still raised at the end of its run
        active[rule] += spans[run][2] - t

    assert sum(raises.values()) > 20
    for rule, figure in summary["rules"].items():
        assert figure["raises"] == raises.get(rule, 0), rule
        assert figure["runs_affected"] == len(affected.get(rule, ())), rule
        assert figure["active_s"] == pytest.approx(active.get(rule, 0.0)), rule
        assert figure["chatter_per_h"] == pytest.approx(raises.get(rule, 0) / hours), rule
    for sev, figure in summary["severities"].items():
        rules = [r for r, s in severity.items() if s == sev]
        assert figure["raises"] == sum(raises[r] for r in rules)
        assert figure["runs_affected"] == len(set().union(*(affected[r] for r in rules)))
    for vehicle, figure in summary["vehicles"].items():
        vehicle_hours = sum(d for v, d, _ in spans.values() if v == vehicle) / 3600
        assert figure["runs"] == sum(1 for v, _, _ in spans.values() if v == vehicle)
        assert figure["raises"] == by_vehicle[vehicle]
        assert figure["chatter_per_h"] == pytest.approx(by_vehicle[vehicle] / vehicle_hours)
    top = summary["nuisances"][0]
    assert top["raises"] == max(raises.values())
