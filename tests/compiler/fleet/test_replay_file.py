"""One file replayed for the fleet gives exactly `rulec replay --json`'s lines, whatever
the file's form: CSV in seconds, ISO-8601 times, Parquet read in chunks, several runs
in one file; and a bad file fails with replay's own message."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fleet_runs import varied_run, write_run

from rulec.compiler.cli import main
from rulec.compiler.fleet.replay_file import ReplayOptions, replay_file
from rulec.compiler.fleet.runs import RunFile, find_run_files
from rulec.runtime.bundle.loader import load_bundle


def replay_lines(bundle: Path, csv_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """What `rulec replay BUNDLE CSV --json` prints, line by line."""
    capsys.readouterr()
    assert main(["replay", str(bundle), str(csv_path), "--json"]) == 0
    return capsys.readouterr().out.splitlines()


def fleet_lines(events: list[dict], drop: tuple[str, ...] = ("run", "vehicle")) -> list[str]:
    return [json.dumps({k: v for k, v in e.items() if k not in drop}, ensure_ascii=False)
            for e in events]


def test_every_run_gives_replays_json_lines(bundles, fleet_dir, capsys):
    new, _ = bundles
    bundle = load_bundle(new)
    files = find_run_files([str(fleet_dir)])
    assert len(files) == 7
    raised = 0
    for run_file in files:
        result = replay_file(bundle, None, run_file)
        assert result.error is None
        (run,) = result.runs
        assert run.run == run_file.path.stem and run.vehicle == run_file.path.parent.name
        assert all(e["run"] == run.run for e in run.events)
        assert fleet_lines(run.events) == replay_lines(new, run_file.path, capsys)
        raised += sum(e["event"] == "raise" for e in run.events)
    assert raised > 20  # the runs do raise: the comparison is not between empty lists


def test_faults_kept_as_replay_faults_keeps_them(bundles, tmp_path, capsys):
    new, _ = bundles
    header, rows = varied_run(seed=11)
    rows[30][1] = "5000"  # chamber temperature above its range: a sensor fault
    path = write_run(tmp_path / "fault.csv", header, rows)
    result = replay_file(load_bundle(new), None, RunFile(path, "csv", "fault"),
                         ReplayOptions(faults=True))
    capsys.readouterr()
    assert main(["replay", str(new), str(path), "--json", "--faults"]) == 0
    expected = capsys.readouterr().out.splitlines()
    assert any('"fault"' in line for line in expected)
    assert fleet_lines(result.runs[0].events) == expected


def test_iso_times_are_seconds_from_the_runs_first_sample(bundles, tmp_path, capsys):
    new, _ = bundles
    header, rows = varied_run(seed=3)
    origin = datetime(2026, 3, 1, 10, 0, 0, tzinfo=UTC)
    start = float(rows[0][0])
    iso = [[(origin + timedelta(seconds=float(r[0]) - start)).isoformat().replace(
        "+00:00", "Z"), *r[1:]] for r in rows]
    shifted = [[repr(float(r[0]) - start), *r[1:]] for r in rows]
    iso_file = write_run(tmp_path / "iso.csv", header, iso)
    seconds_file = write_run(tmp_path / "seconds.csv", header, shifted)
    result = replay_file(load_bundle(new), None, RunFile(iso_file, "csv", "iso"))
    (run,) = result.runs
    assert run.origin == origin.isoformat()
    assert fleet_lines(run.events, ("run", "vehicle", "time")) == replay_lines(
        new, seconds_file, capsys)
    for event in run.events:
        assert datetime.fromisoformat(event["time"]) == origin + timedelta(seconds=event["t"])


def test_parquet_read_in_small_chunks_gives_the_csv_events(bundles, tmp_path, capsys):
    pa = pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (the [fleet] extra)")
    import pyarrow.parquet as pq

    new, _ = bundles
    header, rows = varied_run(seed=5, repeats=2)
    csv_file = write_run(tmp_path / "run.csv", header, rows)
    columns = {name: [float(r[i]) if r[i] else None for r in rows]
               for i, name in enumerate(header)}
    pq.write_table(pa.table(columns), tmp_path / "run.parquet", row_group_size=50)
    result = replay_file(load_bundle(new), None, RunFile(tmp_path / "run.parquet", "parquet",
                                                         "run"), ReplayOptions(chunk_rows=7))
    assert result.error is None
    assert fleet_lines(result.runs[0].events) == replay_lines(new, csv_file, capsys)


def test_a_run_column_splits_one_file_into_runs(bundles, tmp_path, capsys):
    new, _ = bundles
    runs = {name: varied_run(seed=s) for name, s in (("alpha", 21), ("beta", 22))}
    header = runs["alpha"][0]
    merged = []
    for a, b in zip(runs["alpha"][1], runs["beta"][1], strict=True):  # interleaved rows
        merged += [["alpha", "V7", *a], ["beta", "V8", *b]]
    path = write_run(tmp_path / "both.csv", ["run", "vehicle", *header], merged)
    result = replay_file(load_bundle(new), None, RunFile(path, "csv", "both"))
    assert result.error is None
    assert {(r.run, r.vehicle) for r in result.runs} == {("alpha", "V7"), ("beta", "V8")}
    for run in result.runs:
        alone = write_run(tmp_path / f"{run.run}.csv", header, runs[run.run][1])
        assert fleet_lines(run.events) == replay_lines(new, alone, capsys)


@pytest.mark.parametrize("bad", [
    ("time,chamber_temperature\n0,20\n1,hot\n"),
    ("time,chamber_temperature\n0,20\n1,20,30\n"),
    ("time,chamber_temperature\n5,20\n1,20\n"),
    ("time,chamber_temperature,coolant_colour\n0,20,blue\n"),
    ("chamber_temperature\n20\n"),
    ("time,chamber_temperature\n0,20\n,21\n"),
    ("time,chamber_temperature\nsoon,20\n"),
])
def test_a_bad_file_fails_with_replays_message(bundles, tmp_path, capsys, bad):
    new, _ = bundles
    path = tmp_path / "bad.csv"
    path.write_text(bad, encoding="utf-8")
    result = replay_file(load_bundle(new), None, RunFile(path, "csv", "bad"))
    assert result.runs == []
    capsys.readouterr()
    assert main(["replay", str(new), str(path), "--json"]) == 2
    assert capsys.readouterr().err.strip() == f"rulec: error: {result.error}"


def test_reading_holds_one_chunk_not_the_run(tmp_path):
    """A long run is streamed: the reader's peak memory is a small part of the file's."""
    import tracemalloc

    from rulec.compiler.fleet.runs import read_rows

    header, rows = varied_run(seed=1)
    path = tmp_path / "long.csv"
    with open(path, "w", encoding="utf-8") as f:
        f.write(",".join(header) + "\n")
        for k in range(400):  # 48,400 rows
            for row in rows:
                f.write(",".join([f"{float(row[0]) + k * 61:g}", *row[1:]]) + "\n")
    tracemalloc.start()
    try:
        n = sum(1 for _ in read_rows(RunFile(path, "csv", "long")))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == 400 * len(rows)
    assert peak < path.stat().st_size / 20, (peak, path.stat().st_size)


def test_with_an_old_bundle_each_reads_only_the_columns_it_knows(bundles, tmp_path, capsys):
    """A column only the bundle in service knows is read by it alone: the new bundle's
    events are replay's for the file without that column."""
    import shutil

    from fleet_runs import MANUAL, compile_folder

    new, _ = bundles
    manual = tmp_path / "with_igniter"
    shutil.copytree(MANUAL, manual)
    with open(manual / "sensors.toml", "a", encoding="utf-8") as toml:
        toml.write('\n[parameters.igniter_voltage]\nunit = "V"\nrange = [0, 50]\n')
    old = compile_folder(manual, tmp_path / "old.bundle")
    header, rows = varied_run(seed=4)
    both = write_run(tmp_path / "both.csv", [*header, "igniter_voltage"],
                     [[*r, "12"] for r in rows])
    plain = write_run(tmp_path / "plain.csv", header, rows)
    result = replay_file(load_bundle(new), load_bundle(old), RunFile(both, "csv", "both"))
    assert result.error is None
    assert fleet_lines(result.runs[0].events) == replay_lines(new, plain, capsys)
    assert result.runs[0].diff == {}  # the same rules over the same values
    alone = replay_file(load_bundle(new), None, RunFile(both, "csv", "both"))
    assert alone.error == f"{both}:1: unknown parameter column 'igniter_voltage'"
