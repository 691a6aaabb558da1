"""The fleet on a real Dask cluster: two worker processes on 127.0.0.1 give the same
outputs as the single-process path (itself checked against `rulec replay`), a bad file
is reported while the rest go on, a worker killed in the middle of the replay has its
files run again elsewhere (the outputs complete and identical), and a task that keeps
killing its workers fails its own files only."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path
from typing import Any

import pytest

distributed = pytest.importorskip(
    "distributed", reason="dask.distributed is not installed (pip install 'rulec[fleet]')")

from rulec.compiler.fleet.replay_fleet import replay_fleet  # noqa: E402

IDENTICAL = ("events.jsonl", "events.parquet", "diff.json")


@pytest.fixture(scope="module")
def client() -> Any:
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def single(bundles, fleet_dir, tmp_path_factory) -> Path:
    new, old = bundles
    out = tmp_path_factory.mktemp("single") / "out"
    replay_fleet(new, [str(fleet_dir)], out, against=old, single_process=True)
    return out


def summary_without_engine(out: Path) -> dict[str, Any]:
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert data.pop("engine") in ("dask", "single process")
    return data


def assert_same_outputs(a: Path, b: Path) -> None:
    for name in IDENTICAL:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert summary_without_engine(a) == summary_without_engine(b)


def test_the_cluster_gives_the_single_process_outputs(bundles, fleet_dir, single, client,
                                                      tmp_path):
    new, old = bundles
    report = replay_fleet(new, [str(fleet_dir)], tmp_path / "out", against=old, client=client)
    assert report.engine == "dask"
    assert report.summary["runs"] == 7 and report.summary["events"] > 0
    assert_same_outputs(tmp_path / "out", single)
    # a worker that ran tasks holds the two bundles loaded, kept for its next files
    loaded = client.run(lambda: len(
        __import__("rulec.compiler.fleet.replay_file", fromlist=["_BUNDLES"])._BUNDLES))
    assert 2 in loaded.values() and set(loaded.values()) <= {0, 2}


def test_a_bad_file_is_named_and_the_rest_go_on(bundles, fleet_dir, client, tmp_path):
    new, _ = bundles
    telemetry = tmp_path / "telemetry"
    shutil.copytree(fleet_dir, telemetry)
    (telemetry / "V2" / "broken.csv").write_text("time,chamber_temperature\n0,20\n1,hot\n",
                                                 encoding="utf-8")
    (telemetry / "V2" / "torn.parquet").write_bytes(b"PAR1 not really")
    report = replay_fleet(new, [str(telemetry)], tmp_path / "out", client=client)
    failed = {Path(f["file"]).name: f["error"] for f in report.summary["failed"]}
    assert set(failed) == {"broken.csv", "torn.parquet"}
    assert failed["broken.csv"].startswith(f"{telemetry / 'V2' / 'broken.csv'}:3: ")
    assert report.summary["runs"] == 7


class KillOnce(distributed.WorkerPlugin):
    """Kills its worker's process (SIGKILL) as it starts its second fleet task (its
    first one's results already sent back), once in the whole cluster: a marker file
    says it has happened."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.started = 0

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        if finish != "executing" or "rulec-fleet-" not in str(key):
            return
        self.started += 1
        if self.started < 2:
            return
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_killed_mid_run_has_its_files_run_again(bundles, fleet_dir, single, client,
                                                         tmp_path):
    import cloudpickle

    new, old = bundles
    marker = tmp_path / "killed"
    cloudpickle.register_pickle_by_value(__import__(__name__))
    try:
        client.register_plugin(KillOnce(str(marker)), name="kill-once")
        report = replay_fleet(new, [str(fleet_dir)], tmp_path / "out", against=old,
                              client=client)
    finally:
        client.unregister_worker_plugin("kill-once")
        cloudpickle.unregister_pickle_by_value(__import__(__name__))
    assert marker.exists(), "no worker was killed: the test proves nothing"
    assert report.summary["failed"] == []
    assert_same_outputs(tmp_path / "out", single)
    client.wait_for_workers(2, timeout=60)  # the nanny restarted the killed worker


def test_scheduler_option_uses_a_running_cluster(bundles, fleet_dir, single, client,
                                                 tmp_path, capsys):
    from rulec.compiler.cli import main

    new, old = bundles
    address = client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    assert main(["fleet", str(new), str(fleet_dir), "-o", str(tmp_path / "out"), "--against",
                 str(old), "--scheduler", address]) == 0
    captured = capsys.readouterr()
    assert f"2 worker(s) on {address}, ready in" in captured.err
    assert "on dask" in captured.out
    assert_same_outputs(tmp_path / "out", single)


def test_small_files_share_tasks_large_ones_stand_alone(tmp_path):
    from rulec.compiler.fleet.runs import RunFile
    from rulec.compiler.fleet.schedule import partitions

    files = []
    for i, size in enumerate([10, 10, 10, 10, 500, 10, 10, 10]):
        path = tmp_path / f"r{i}.csv"
        path.write_bytes(b"x" * size)
        files.append(RunFile(path, "csv", f"r{i}"))
    groups = partitions(files, workers=1, most_bytes=40)
    assert groups == [[0, 1, 2, 3], [4], [5, 6, 7]]
    assert sum(groups, []) == list(range(len(files)))  # every file once, in order
    # enough tasks for every worker to take several: 570 bytes over 4 workers x 4 tasks
    # makes tasks of at most 35 bytes unless a file alone is larger
    assert partitions(files, workers=4) == [[0, 1, 2], [3], [4], [5, 6, 7]]


def test_a_scheduler_without_workers_is_an_error_not_a_hang(bundles, fleet_dir, monkeypatch,
                                                            tmp_path):
    from rulec.compiler.fleet import schedule

    monkeypatch.setattr(schedule, "WORKER_WAIT_S", 1.0)
    with distributed.LocalCluster(n_workers=0, host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0") as empty:
        with pytest.raises(schedule.FleetError, match="no worker joined .* within 1 s"):
            replay_fleet(bundles[0], [str(fleet_dir)], tmp_path / "out",
                         scheduler=empty.scheduler_address)


class KillAlways(distributed.WorkerPlugin):
    """Kills its worker whenever the task holding one file starts: a poison file."""

    def __init__(self, key_part: str) -> None:
        self.key_part = key_part

    def transition(self, key: Any, start: str, finish: str, **kwargs: Any) -> None:
        if finish == "executing" and self.key_part in str(key):
            os.kill(os.getpid(), signal.SIGKILL)


def test_a_task_that_keeps_killing_workers_fails_its_files_only(bundles, fleet_dir, single,
                                                                client, tmp_path):
    import cloudpickle

    new, old = bundles
    telemetry = tmp_path / "telemetry"
    shutil.copytree(fleet_dir, telemetry)
    poison = telemetry / "V0" / "zz_poison.csv"  # sorts first: its task's key names it
    poison.parent.mkdir()
    poison.write_bytes((fleet_dir / "V1" / "engine_test.csv").read_bytes())
    cloudpickle.register_pickle_by_value(__import__(__name__))
    try:
        client.register_plugin(KillAlways("zz_poison"), name="kill-always")
        report = replay_fleet(new, [str(telemetry)], tmp_path / "out", against=old,
                              client=client)
    finally:
        client.unregister_worker_plugin("kill-always")
        cloudpickle.unregister_pickle_by_value(__import__(__name__))
        client.wait_for_workers(2, timeout=60)
    failed = {f["file"]: f["error"] for f in report.summary["failed"]}
    assert str(poison) in failed
    assert all("KilledWorker" in error for error in failed.values()), failed
    assert report.summary["files"] == 8
    # every file that was not in the poisoned task gives the single-process lines
    expected = (single / "events.jsonl").read_text(encoding="utf-8").splitlines()
    got = (tmp_path / "out" / "events.jsonl").read_text(encoding="utf-8").splitlines()
    lost = {Path(f).stem for f in failed}
    assert got == [line for line in expected if json.loads(line)["run"] not in lost]
    assert report.summary["runs"] == 8 - len(failed)
