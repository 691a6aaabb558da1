"""fuzz/run.py, the campaign driver: reading libFuzzer's statistics, adding up workers,
and (where atheris is installed) a real two-worker campaign on one corpus folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz import run  # noqa: E402

LOG = """\
INFO: Seed: 1234
#2\tINITED cov: 310 ft: 900 corp: 40/2Kb exec/s: 0 rss: 60Mb
#512\tpulse  cov: 320 ft: 950 corp: 44/3Kb lim: 40 exec/s: 256 rss: 61Mb
#1024\tNEW    cov: 321 ft: 960 corp: 45/3Kb lim: 40 exec/s: 250 rss: 62Mb
Done 1024 runs in 4 second(s)
stat::number_of_executed_units: 1024
stat::average_exec_per_sec:     250
stat::new_units_added:          5
stat::slowest_unit_time_sec:    0
stat::peak_rss_mb:              62
"""


def worker(log: str) -> run.Result:
    result = run.Result("manual_parser", "atheris", 4.0)
    run.parse_log(log, result)
    return result


def test_a_log_gives_executions_rate_memory_and_the_last_coverage_line() -> None:
    r = worker(LOG)
    assert (r.executions, r.exec_per_s, r.peak_rss_mb) == (1024, 250, 62)
    assert (r.coverage, r.corpus) == ("cov 321 ft 960", 45)


def test_a_log_cut_short_gives_zero_executions_not_an_error() -> None:
    r = worker("INFO: Seed: 1\n#2\tINITED cov: 3 ft: 4 corp: 1/1b exec/s: 0 rss: 50Mb\n")
    assert (r.executions, r.exec_per_s, r.coverage) == (0, 0, "cov 3 ft 4")


def test_workers_add_up_and_the_furthest_worker_gives_the_coverage() -> None:
    other = LOG.replace("1024", "3000").replace("ft: 960", "ft: 1200").replace(
        "average_exec_per_sec:     250", "average_exec_per_sec:     300").replace(
        "peak_rss_mb:              62", "peak_rss_mb:              80")
    a, b = worker(LOG), worker(other)
    b.seconds = 5.5
    total = run.combine([a, b])
    assert total.executions == 1024 + 3000
    assert total.exec_per_s == 550
    assert total.peak_rss_mb == 80
    assert total.coverage == "cov 321 ft 1200"
    assert total.seconds == 5.5
    assert run.combine([a]).executions == a.executions


def test_each_worker_has_its_own_log() -> None:
    target = next(t for t in run.TARGETS if t.name == "manual_parser")
    logs = Path("/logs")
    assert run.worker_log(logs, target, 0) == logs / "manual_parser.log"
    assert run.worker_log(logs, target, 2) == logs / "manual_parser.2.log"


def test_workers_must_be_at_least_one() -> None:
    with pytest.raises(SystemExit):
        run.main(["--workers", "0", "--targets", "frame_decoder"])


def test_two_workers_share_a_campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real two-process atheris campaign, three seconds long, on the frame decoder."""
    pytest.importorskip("atheris")
    monkeypatch.setattr(run, "WORK", tmp_path)
    target = next(t for t in run.TARGETS if t.name == "frame_decoder")
    result = run.run_target(target, 3, workers=2)
    assert result.exit_code == 0 and not result.findings, result.note
    logs = [tmp_path / "logs" / "frame_decoder.log", tmp_path / "logs" / "frame_decoder.1.log"]
    counts = []
    for log in logs:
        part = worker(log.read_text())
        assert part.executions > 0, log.read_text()[-2000:]
        counts.append(part.executions)
    assert result.executions == sum(counts)


def test_the_replay_time_is_read_from_the_engine_output() -> None:
    out = ("INFO: Seed: 1\nRunning: build/fuzz/artifacts/x/timeout-abc\n"
           "Executed build/fuzz/artifacts/x/timeout-abc in 85 ms\n***\n")
    assert run.replay_ms(out) == 85
    assert run.replay_ms("INFO: Seed: 1\n") is None


def test_a_timeout_input_that_replays_quickly_is_not_a_hang(tmp_path: Path) -> None:
    """A real replay through the atheris target: a seed saved as a timeout artifact."""
    pytest.importorskip("atheris")
    target = next(t for t in run.TARGETS if t.name == "frame_decoder")
    seed = sorted((ROOT / "fuzz" / "seeds" / target.seeds).iterdir())[0]
    timeout = tmp_path / "timeout-0123"
    timeout.write_bytes(seed.read_bytes())
    slow = tmp_path / "slow-unit-0123"
    slow.write_bytes(seed.read_bytes())
    crash = tmp_path / "crash-0123"
    crash.write_bytes(seed.read_bytes())
    starved = run.unconfirmed_timeouts(target, [str(timeout), str(slow), str(crash)])
    assert list(starved) == [str(timeout), str(slow)]
    assert 0 <= starved[str(timeout)] < run.TIMEOUT_S * 1000
    assert 0 <= starved[str(slow)] < run.SLOW_UNIT_S * 1000
