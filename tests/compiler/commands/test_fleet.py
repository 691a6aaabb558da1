"""`rulec fleet` on the command line: outputs written and listed, a bad file named on
stderr while the others are replayed (exit 1), a bad bundle one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulec.compiler.cli import main

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "examples" / "scenarios" / "engine_test.csv"


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from rulec.compiler.pipeline import build_payload, collect_rules
    from rulec.runtime.bundle.format import encode_bundle, write_bundle_file

    path = tmp_path_factory.mktemp("fleet-cli") / "rocket.bundle"
    manual = ROOT / "examples" / "manuals" / "rocket_engine"
    write_bundle_file(path, encode_bundle(build_payload(collect_rules([manual]), "rocket")))
    return path


def test_single_process_run_writes_and_lists_its_outputs(bundle, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["fleet", str(bundle), str(SCENARIO), "-o", str(out), "--single-process",
                 "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "1 run(s) from 1 file(s) (0 bad), 121 samples" in captured.out
    for name in ("events.jsonl", "events.parquet", "summary.json", "report.md"):
        assert f"wrote {out / name}" in captured.out
    capsys.readouterr()
    main(["replay", str(bundle), str(SCENARIO), "--json"])
    replayed = capsys.readouterr().out.splitlines()
    events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    assert [e.pop("run") for e in events] == ["engine_test"] * len(replayed)
    assert [json.dumps({k: v for k, v in e.items() if k != "vehicle"}, ensure_ascii=False)
            for e in events] == replayed


def test_a_bad_file_is_named_once_on_stderr_and_the_rest_replayed(bundle, tmp_path, capsys):
    pytest.importorskip("distributed", reason="needs dask.distributed (the [fleet] extra)")
    telemetry = tmp_path / "telemetry"
    telemetry.mkdir()
    (telemetry / "good.csv").write_bytes(SCENARIO.read_bytes())
    (telemetry / "bad.csv").write_text("time,chamber_temperature\n0,20\n-1,20\n")
    assert main(["fleet", str(bundle), str(telemetry), "-o", str(tmp_path / "out"),
                 "--workers", "1"]) == 1
    captured = capsys.readouterr()
    errors = [line for line in captured.err.splitlines() if line.startswith("rulec: error")]
    assert errors == [f"rulec: error: bad file skipped: {telemetry / 'bad.csv'}:3: time "
                      "'-1' goes back (the row before is at 0 s)"]
    assert "on dask" in captured.out and "1 worker(s)" in captured.err
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["runs"] == 1 and summary["samples"] == 121


def test_a_bad_bundle_is_one_line_and_exit_2(tmp_path, capsys):
    fake = tmp_path / "fake.bundle"
    fake.write_bytes(b"not a bundle")
    assert main(["fleet", str(fake), str(SCENARIO), "-o", str(tmp_path / "out"),
                 "--single-process"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(fake) in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_help_names_the_contract(capsys):
    with pytest.raises(SystemExit):
        main(["fleet", "--help"])
    text = capsys.readouterr().out
    for option in ("--against", "--scheduler", "-o OUTDIR", "--single-process"):
        assert option in text


def test_without_dask_the_single_process_path_runs_and_says_so(bundle, tmp_path):
    """dask.distributed made unimportable in a fresh interpreter: same outputs, a note."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['distributed'] = None\n"
            "from rulec.compiler.cli import main\n"
            f"sys.exit(main(['fleet', {str(bundle)!r}, {str(SCENARIO)!r}, '-o', "
            f"{str(tmp_path / 'out')!r}, '--no-report']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "dask.distributed is not installed" in done.stderr
    assert "on single process" in done.stdout
    assert main(["fleet", str(bundle), str(SCENARIO), "-o", str(tmp_path / "ref"),
                 "--single-process", "--quiet", "--no-report"]) == 0
    for name in ("events.jsonl", "events.parquet"):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "ref" / name).read_bytes()
