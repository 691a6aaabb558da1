"""OUTDIR's files: events.parquet holds events.jsonl's events, labelled runs become a
feedback.csv that `rulec refine` reads, and no output may overwrite or feed an input."""

from __future__ import annotations

import json
import math

import pytest
from fleet_runs import varied_run, write_run

from rulec.compiler.fleet.replay_fleet import replay_fleet
from rulec.runtime.engine.replay import replay
from rulec.runtime.errors import StateError


def test_parquet_holds_the_jsonl_events(bundles, fleet_dir, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet", reason="needs pyarrow (the [fleet] extra)")
    out = tmp_path / "out"
    replay_fleet(bundles[0], [str(fleet_dir)], out, single_process=True)
    events = [json.loads(line) for line in
              (out / "events.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = pq.read_table(out / "events.parquet").to_pylist()
    assert len(rows) == len(events) > 0
    for row, event in zip(rows, events, strict=True):
        assert (row["run"], row["vehicle"], row["t"], row["event"], row["rule"],
                row["severity"], row["advisory"]) == (
            event["run"], event["vehicle"], event["t"], event["event"], event["rule"],
            event["severity"], event["advisory"])
        assert json.loads(row["source"]) == event["source"]
        assert json.loads(row["values"]) == event["values"]


def test_labelled_runs_become_refine_feedback(bundles, tmp_path):
    from rulec.compiler.refine.feedback import read_feedback
    from rulec.compiler.refine.model import load_model

    new, _ = bundles
    header, rows = varied_run(seed=8)
    plain = write_run(tmp_path / "plain" / "run.csv", header, rows)
    raised: set[str] = set()
    at: dict[float, set[str]] = {}
    for event in replay(new, plain):  # what is raised after each sample, from replay
        if event.rule is not None:
            (raised.add if event.event == "raise" else raised.discard)(event.rule)
        at[event.t] = set(raised)
    labels, current = [], set()
    for i, row in enumerate(rows):
        current = at.get(float(row[0]), current)
        labels.append("" if i % 10 else (" ".join(sorted(current)) or "-"))
    labelled = write_run(tmp_path / "labelled" / "run.csv", [*header, "expected"],
                         [[*r, label] for r, label in zip(rows, labels, strict=True)])
    out = tmp_path / "out"
    report = replay_fleet(new, [str(labelled)], out, single_process=True)
    n = sum(1 for label in labels if label)
    assert report.summary["labels"] == {"rows": n, "disagreements": 0}
    feedback = read_feedback(out / "feedback.csv", load_model(new.read_bytes()))
    assert feedback.bad == [] and feedback.n_rows == n
    # each feedback row holds the values held at its sample (the last non-empty cell)
    names = header[1:]
    held = [math.nan] * len(names)
    expected_rows = []
    for i, row in enumerate(rows):
        held = [float(c) if c else h for c, h in zip(row[1:], held, strict=True)]
        if labels[i]:
            expected_rows.append(list(held))
    params = [p["name"] for p in load_model(new.read_bytes()).payload["parameters"]]
    got = [[row[params.index(name)] for name in names] for row in feedback.x.tolist()]
    assert len(got) == len(expected_rows)
    for mine, theirs in zip(got, expected_rows, strict=True):
        assert [x if not math.isnan(x) else None for x in mine] == [
            x if not math.isnan(x) else None for x in theirs]


def test_outputs_never_overwrite_or_feed_the_inputs(bundles, fleet_dir, tmp_path):
    new, _ = bundles
    with pytest.raises(StateError, match="inside the telemetry folder"):
        replay_fleet(new, [str(fleet_dir)], fleet_dir / "V1" / "out", single_process=True)
    clash = write_run(tmp_path / "events.csv", *varied_run(seed=1))
    summary = tmp_path / "summary.json"
    summary.write_text("{}", encoding="utf-8")
    replay_fleet(new, [str(clash)], tmp_path / "elsewhere", single_process=True)
    with pytest.raises(StateError, match="would be overwritten"):
        # a bundle named like an output, in OUTDIR
        target = tmp_path / "o2"
        target.mkdir()
        (target / "diff.json").write_bytes(new.read_bytes())
        replay_fleet(target / "diff.json", [str(clash)], target, single_process=True)


def test_parquet_is_the_same_built_on_the_worker_or_from_the_lines(bundles, fleet_dir, tmp_path):
    pytest.importorskip("pyarrow", reason="needs pyarrow (the [fleet] extra)")
    from rulec.compiler.fleet.replay_file import ReplayOptions

    for name, table in (("worker", True), ("client", False)):
        replay_fleet(bundles[0], [str(fleet_dir)], tmp_path / name, single_process=True,
                     options=ReplayOptions(table=table))
    assert (tmp_path / "worker" / "events.parquet").read_bytes() == (
        tmp_path / "client" / "events.parquet").read_bytes()
