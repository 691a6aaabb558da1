"""Reading runs: a run's clock (seconds, ISO-8601 text, Parquet timestamps kept exact to
the nanosecond), vehicles per run, and the refusals that keep a replay exact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from rulec.compiler.fleet.runs import RunClock, RunFile, Stamp, find_run_files, read_rows
from rulec.runtime.errors import StateError


def test_iso_times_count_from_the_first_sample_and_zoneless_is_utc():
    clock = RunClock()
    assert clock.seconds("2026-03-01T10:00:00Z", "f:2") == 0.0
    assert clock.seconds("2026-03-01T10:00:01.25", "f:3") == 1.25
    assert clock.seconds("2026-03-01T11:00:01.250+01:00", "f:4") == 1.25
    assert clock.origin == datetime(2026, 3, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize("times, message", [
    (["0", "2026-03-01T10:00:00Z"], "is not a number of seconds"),
    (["2026-03-01T10:00:00Z", "5"], "is seconds in a run of ISO-8601 times"),
    (["2026-03-01T10:00:05Z", "2026-03-01T10:00:04Z"], "goes back"),
    (["2026-03-01T10:00:00.0000001Z"], "digits below the microsecond"),
    (["yesterday"], "time value 'yesterday' is not a number"),
    (["2026-03-01T10:00:00Z", "later"], "time 'later' is not an ISO-8601 time"),
    (["inf"], "not a finite number"),
])
def test_clock_refusals(times, message):
    clock = RunClock()
    with pytest.raises(StateError, match=message):
        for t in times:
            clock.seconds(t, "f:2")


def test_nanosecond_timestamps_stay_exact():
    base = 1_767_323_045_000_000_000
    clock = RunClock()
    assert clock.seconds(Stamp(base, 10**9), "p") == 0.0
    assert clock.seconds(Stamp(base + 1, 10**9), "p") == 1e-9
    assert clock.seconds(Stamp(base + 2_500_000_001, 10**9), "p") == 2.500000001
    assert clock.origin == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def test_parquet_timestamps_and_run_vehicle_columns(tmp_path):
    pa = pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (the [fleet] extra)")
    import pyarrow.parquet as pq

    base = 1_767_323_045_000_000_000
    pq.write_table(pa.table({
        "time": pa.array([base, base + 7, base + 3, base + 9], type=pa.timestamp("ns")),
        "run": ["a", "a", "b", "b"], "vehicle": ["V1", "V1", "V2", "V2"],
        "chamber_temperature": [20.0, None, 30.0, 40.0]}), tmp_path / "t.parquet")
    rows = list(read_rows(RunFile(tmp_path / "t.parquet", "parquet", "t"), chunk_rows=3))
    assert [(r.run, r.vehicle, r.t, r.cells) for r in rows] == [
        ("a", "V1", 0.0, {"chamber_temperature": 20.0}), ("a", "V1", 7e-9, {}),
        ("b", "V2", 0.0, {"chamber_temperature": 30.0}),
        ("b", "V2", 6e-9, {"chamber_temperature": 40.0})]
    assert rows[0].where == f"{tmp_path / 't.parquet'}: row 1"


def test_a_run_may_not_change_vehicle(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("time,run,vehicle\n0,a,V1\n1,a,V2\n", encoding="utf-8")
    with pytest.raises(StateError, match=r"r.csv:3: run 'a' changes vehicle"):
        list(read_rows(RunFile(path, "csv", "r")))


def test_not_utf8_names_the_file(tmp_path):
    path = tmp_path / "r.csv"
    path.write_bytes(b"time,x\n0,\xff\n")
    with pytest.raises(StateError, match=r"r.csv:\d+: not valid UTF-8"):
        list(read_rows(RunFile(path, "csv", "r")))


# --------------------------------------------------------------- which files


def touch(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("time\n0\n", encoding="utf-8")
    return path


def test_files_folders_and_globs_each_file_once(tmp_path):
    a = touch(tmp_path / "V1" / "a.csv")
    b = touch(tmp_path / "V1" / "deep" / "b.parquet")
    c = touch(tmp_path / "V2" / "c.csv")
    touch(tmp_path / "V2" / "notes.txt")
    found = find_run_files([str(tmp_path / "V1"), str(a), str(tmp_path / "V*" / "*.csv")])
    assert [f.path for f in found] == sorted([a, b, c], key=str)
    assert [f.kind for f in found] == ["csv", "parquet", "csv"]
    assert [f.name for f in found] == ["a", "b", "c"]
    assert found[0].vehicle == "V1" and found[1].vehicle == "deep"


def test_colliding_stems_are_named_with_their_folder(tmp_path):
    touch(tmp_path / "V1" / "run.csv")
    touch(tmp_path / "V2" / "run.csv")
    touch(tmp_path / "V2" / "other.csv")
    names = [f.name for f in find_run_files([str(tmp_path)])]
    assert names == ["V1/run", "other", "V2/run"]


@pytest.mark.parametrize("arg, message", [
    ("missing.csv", "no such file or folder"),
    ("*.nothing", "matches no telemetry file"),
])
def test_nothing_to_read_is_an_error_naming_it(tmp_path, arg, message):
    with pytest.raises(StateError, match=message):
        find_run_files([str(tmp_path / arg)])


def test_a_file_of_another_kind_is_refused(tmp_path):
    notes = touch(tmp_path / "notes.txt")
    with pytest.raises(StateError, match="not a telemetry file"):
        find_run_files([str(notes)])
    with pytest.raises(StateError, match="no telemetry file"):
        find_run_files([str(tmp_path)])
