"""The `rulec` command line: bad input gives one line naming the culprit, good paths work.

Most cases call ``main([...])`` in-process; a few run the real entry point as a
subprocess (``python -m rulec.compiler.cli``) to prove that path works end to end.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulec.compiler.cli import main

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

REPO = Path(__file__).resolve().parents[2]
ROCKET = REPO / "examples" / "manuals" / "rocket_engine"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
PLANT = FIXTURES / "plant"

COOLANT = "increase the coolant flow"
CRYO = "shut down the cryogenic pump"


# ---------------------------------------------------------------- helpers


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    """Run the CLI in-process; (status, stdout, stderr)."""
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse usage errors
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def run_subprocess(*argv: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real entry point in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "rulec.compiler.cli", *(str(a) for a in argv)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=dict(os.environ),
    )


def assert_one_line_error(status: int, err: str, *must_name: str) -> str:
    """Non-zero status, exactly one line on stderr, no traceback, naming each given piece."""
    assert status != 0
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {lines!r}"
    line = lines[0]
    assert line.startswith("rulec: error:"), line
    assert "internal error" not in line, line
    for piece in must_name:
        assert piece in line, f"{piece!r} not named in {line!r}"
    return line


@pytest.fixture(scope="module")
def rocket_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "rocket.bundle"
    assert main(["compile", str(ROCKET), "-o", str(out), "-q"]) == 0
    return out


@pytest.fixture(scope="module")
def plant_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "plant.bundle"
    assert main(["compile", str(PLANT), "-o", str(out), "-q"]) == 0
    return out


def query_json(capsys: pytest.CaptureFixture[str], bundle: Path, *assignments: str) -> dict:
    status, out, err = run(capsys, "query", bundle, "--json", *assignments)
    assert status == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, f"expected exactly one JSON object, got {out!r}"
    obj = json.loads(lines[0])
    assert isinstance(obj, dict)
    return obj


def fired_texts(obj: dict) -> list[str]:
    return sorted(r["source"]["text"] for r in obj["rules"])


# ---------------------------------------------------------------- query: bad input


def test_unknown_parameter_is_named(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    status, out, err = run(capsys, "query", rocket_bundle, "--json", "warp_factor=9")
    assert_one_line_error(status, err, "warp_factor")
    assert out == ""


def test_non_numeric_value_is_named(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    status, out, err = run(capsys, "query", rocket_bundle, "chamber_temperature=abc")
    assert_one_line_error(status, err, "chamber_temperature", "abc")
    assert out == ""


def test_assignment_without_equals_is_named(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path
):
    status, _, err = run(capsys, "query", rocket_bundle, "chamber_temperature")
    assert_one_line_error(status, err, "chamber_temperature", "NAME=VALUE")


def test_missing_bundle_file_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    missing = tmp_path / "nowhere.bundle"
    status, _, err = run(capsys, "query", missing, "chamber_temperature=1")
    assert_one_line_error(status, err, "nowhere.bundle")


def test_directory_as_bundle_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    folder = tmp_path / "folder.bundle"
    folder.mkdir()
    status, _, err = run(capsys, "query", folder, "chamber_temperature=1")
    assert_one_line_error(status, err, "folder.bundle", "directory")


def _truncations(size: int) -> list[int]:
    return sorted({0, 1, 4, 47, 48, 49, 100, size // 2, size - 1})


def test_truncated_bundles_are_refused(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path, tmp_path: Path
):
    data = rocket_bundle.read_bytes()
    for n in _truncations(len(data)):
        cut = tmp_path / f"cut{n}.bundle"
        cut.write_bytes(data[:n])
        for command in (["query", cut, "chamber_temperature=1"], ["inspect", cut]):
            status, out, err = run(capsys, *command)
            assert_one_line_error(status, err)
            assert out == ""


def test_bit_flipped_bundles_are_refused(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path, tmp_path: Path
):
    data = rocket_bundle.read_bytes()
    # magic, version, flags, length, digest, first payload byte, middle, last byte
    for offset in (0, 4, 6, 8, 20, 48, len(data) // 2, len(data) - 1):
        flipped = bytearray(data)
        flipped[offset] ^= 0x04
        bad = tmp_path / f"flip{offset}.bundle"
        bad.write_bytes(bytes(flipped))
        status, out, err = run(capsys, "query", bad, "chamber_temperature=1")
        assert_one_line_error(status, err)
        assert out == ""


def test_corrupt_bundle_error_names_the_file(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path, tmp_path: Path
):
    data = rocket_bundle.read_bytes()
    cut = tmp_path / "half.bundle"
    cut.write_bytes(data[: len(data) // 2])
    status, _, err = run(capsys, "query", cut, "chamber_temperature=1")
    assert_one_line_error(status, err, "half.bundle")
    flipped = bytearray(data)
    flipped[len(data) - 1] ^= 1
    bad = tmp_path / "flipped.bundle"
    bad.write_bytes(bytes(flipped))
    status, _, err = run(capsys, "query", bad, "chamber_temperature=1")
    assert_one_line_error(status, err, "flipped.bundle")


# ---------------------------------------------------------------- compile: bad input


def test_unknown_unit_in_sensors_toml_names_file_and_unit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    src = tmp_path / "furlong_plant"
    src.mkdir()
    (src / "sensors.toml").write_text(
        '[parameters.oil_temperature]\nunit = "furlongs"\naliases = ["oil temperature"]\n',
        encoding="utf-8",
    )
    (src / "m.txt").write_text(
        "If the oil temperature exceeds 120 °C, stop the pump.\n", encoding="utf-8"
    )
    out = tmp_path / "x.bundle"
    # a unit rulec does not know is taken as declared and listed for review: the rule in
    # °C cannot be compared with it, and --strict refuses the compile
    status, _, err = run(capsys, "compile", src, "-o", out, "--strict")
    assert status == 3 and not out.exists()
    assert "sensors.toml:1: unit 'furlongs' of oil_temperature is not one rulec knows" in err
    assert "cannot be compared with oil_temperature, measured in furlongs" in err
    status, _, err = run(capsys, "compile", src, "-o", out)
    assert status == 0 and out.exists()


def test_latin1_manual_names_file_and_line(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    src = tmp_path / "legacy"
    src.mkdir()
    (src / "old_manual.txt").write_bytes(
        b"Oil system.\nThe pump is checked daily.\n"
        b"If the oil temperature exceeds 120 \xb0C, stop the pump.\n"
    )
    out = tmp_path / "x.bundle"
    status, _, err = run(capsys, "compile", src, "-o", out)
    line = assert_one_line_error(status, err, "old_manual.txt")
    assert "old_manual.txt:3" in line, line
    assert not out.exists()


def test_missing_source_folder_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    status, _, err = run(capsys, "compile", tmp_path / "no_such_folder", "-o", tmp_path / "x.b")
    assert_one_line_error(status, err, "no_such_folder")


def test_unsupported_file_type_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    doc = tmp_path / "manual.docx"
    doc.write_bytes(b"PK\x03\x04 not really a docx")
    status, _, err = run(capsys, "compile", doc, "-o", tmp_path / "x.b")
    assert_one_line_error(status, err, "manual.docx", ".docx")


def test_unwritable_bundle_output_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    status, _, err = run(capsys, "compile", PLANT, "-q", "-o", tmp_path / "no_dir" / "x.bundle")
    assert_one_line_error(status, err, "x.bundle")


def test_unwritable_extract_output_is_a_bad_input_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    status, _, err = run(capsys, "extract", PLANT, "-o", tmp_path / "no_dir" / "r.jsonl")
    # extract prints its summary line first; the error is the last line
    last = err.strip().splitlines()[-1]
    assert status == 2
    assert_one_line_error(status, last, "r.jsonl")


# ---------------------------------------------------------------- replay: bad input


@pytest.mark.parametrize(
    "name, body, must_name",
    [
        ("no_time.csv", "t,chamber_temperature\n0,20\n", ["no_time.csv", "time"]),
        (
            "bad_cell.csv",
            "time,chamber_temperature\n0,20\n1,21\n2,hot\n",
            ["bad_cell.csv:4", "hot"],
        ),
        (
            "backwards.csv",
            "time,chamber_temperature\n0,20\n2,21\n1,22\n",
            ["backwards.csv:4", "time"],
        ),
    ],
)
def test_replay_csv_errors(
    capsys: pytest.CaptureFixture[str],
    rocket_bundle: Path,
    tmp_path: Path,
    name: str,
    body: str,
    must_name: list[str],
):
    csv_path = tmp_path / name
    csv_path.write_text(body, encoding="utf-8")
    status, out, err = run(capsys, "replay", rocket_bundle, csv_path, "--json")
    assert_one_line_error(status, err, *must_name)
    assert out == ""


def test_replay_missing_csv_is_named(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path, tmp_path: Path
):
    status, _, err = run(capsys, "replay", rocket_bundle, tmp_path / "gone.csv")
    assert_one_line_error(status, err, "gone.csv")


def test_replay_unknown_column_names_the_csv(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path, tmp_path: Path
):
    csv_path = tmp_path / "odd_columns.csv"
    csv_path.write_text("time,warp_factor\n0,9\n", encoding="utf-8")
    status, _, err = run(capsys, "replay", rocket_bundle, csv_path, "--json")
    assert_one_line_error(status, err, "odd_columns.csv", "warp_factor")


# ---------------------------------------------------------------- good paths


def test_query_json_shape_and_provenance(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    obj = query_json(capsys, rocket_bundle, "chamber_temperature=820", "chamber_pressure=45")
    assert "rules" in obj
    manual = (ROCKET / "hot_fire_limits.txt").read_text(encoding="utf-8").splitlines()
    ids = [r["id"] for r in obj["rules"]]
    assert len(ids) == len(set(ids)) == 2
    for rule in obj["rules"]:
        assert isinstance(rule["id"], str) and rule["id"]
        assert rule["severity"] in {"warning", "caution", "advisory"}
        assert isinstance(rule["advisory"], str) and rule["advisory"]
        src = rule["source"]
        assert src["file"] == "hot_fire_limits.txt"
        assert isinstance(src["line"], int) and src["line"] >= 1
        assert src["text"] == manual[src["line"] - 1].strip()
    texts = " | ".join(fired_texts(obj))
    assert COOLANT in texts and CRYO in texts


def test_assignments_on_both_sides_of_json(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    before = query_json(capsys, rocket_bundle, "chamber_temperature=820", "chamber_pressure=45")
    status, out, err = run(
        capsys, "query", rocket_bundle, "chamber_temperature=820", "--json", "chamber_pressure=45"
    )
    assert status == 0, err
    split = json.loads(out)
    assert fired_texts(split) == fired_texts(before)
    # an alias with a space is one argument too
    status, out, err = run(
        capsys, "query", rocket_bundle, "chamber pressure=45", "--json", "chamber_temperature=820"
    )
    assert status == 0, err
    assert fired_texts(json.loads(out)) == fired_texts(before)


def test_query_text_output(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    status, out, err = run(
        capsys, "query", rocket_bundle, "chamber_temperature=820", "chamber_pressure=45"
    )
    assert status == 0, err
    assert "hot_fire_limits.txt:11:" in out
    assert "[WARNING]" in out
    assert "820 °C" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)
    status, out, _ = run(capsys, "query", rocket_bundle, "chamber_temperature=20")
    assert status == 0
    first, *nearest = out.strip().splitlines()
    assert first == "no rule applies"
    assert nearest and all(line.startswith("  nearest: R-") for line in nearest)
    assert "chamber temperature 20 °C is 580 °C below the 600 °C threshold" in out


def test_query_reports_sensor_faults(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    obj = query_json(capsys, rocket_bundle, "chamber_temperature=5000", "chamber_pressure=nan")
    assert obj["rules"] == []
    faults = {f["parameter"]: f["reason"] for f in obj["sensor_faults"]}
    assert faults == {"chamber_temperature": "above range", "chamber_pressure": "not a number"}


def test_extract_then_compile_rules_gives_the_same_answers(
    capsys: pytest.CaptureFixture[str], rocket_bundle: Path, tmp_path: Path
):
    reviewed = tmp_path / "reviewed"
    reviewed.mkdir()
    shutil.copy(ROCKET / "sensors.toml", reviewed / "sensors.toml")
    rules = reviewed / "rules.jsonl"
    status, _, err = run(capsys, "extract", ROCKET, "-o", rules)
    assert status == 0, err
    objects = [json.loads(line) for line in rules.read_text(encoding="utf-8").splitlines()]
    assert len(objects) >= 10
    assert all({"id", "kind", "source"} <= set(o) for o in objects)
    again = tmp_path / "again.bundle"
    status, _, err = run(capsys, "compile", rules, "-o", again)
    assert status == 0, err
    states = [
        ["chamber_temperature=820", "chamber_pressure=45"],
        ["chamber_temperature=600"],
        ["chamber_temperature=951"],
        ["oxidizer_tank_pressure=2500"],
        ["oxidizer_tank_pressure=2500.5"],
        ["fuel_line_pressure=24.9"],
        ["fuel_line_pressure=25"],
        ["turbopump_speed=36001"],
        ["chamber_pressure=29", "turbopump_speed=20001"],
        ["coolant_outlet_temperature=181"],
    ]
    for state in states:
        a = query_json(capsys, rocket_bundle, *state)
        b = query_json(capsys, again, *state)
        assert [r["id"] for r in a["rules"]] == [r["id"] for r in b["rules"]], state
        assert [r["source"] for r in a["rules"]] == [r["source"] for r in b["rules"]], state
        assert [r["advisory"] for r in a["rules"]] == [r["advisory"] for r in b["rules"]], state


def test_extract_then_compile_without_manifest(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    src = tmp_path / "oil"
    src.mkdir()
    (src / "m.txt").write_text(
        "If the oil temperature exceeds 120 °C, stop the pump.\n", encoding="utf-8"
    )
    rules = tmp_path / "rules.jsonl"
    assert run(capsys, "extract", src, "-o", rules)[0] == 0
    bundle = tmp_path / "oil.bundle"
    status, _, err = run(capsys, "compile", rules, "-o", bundle)
    assert status == 0, err
    assert len(query_json(capsys, bundle, "oil_temperature=121")["rules"]) == 1


def test_inspect(capsys: pytest.CaptureFixture[str], rocket_bundle: Path):
    status, out, err = run(capsys, "inspect", rocket_bundle)
    assert status == 0, err
    assert "rules: 12" in out
    assert "chamber_temperature" in out
    status, out, err = run(capsys, "inspect", rocket_bundle, "--json")
    assert status == 0, err
    info = json.loads(out)
    assert info["rules"] == 12
    assert info["format"] == 1
    assert "chamber_temperature" in info["parameters"]
    assert info["procedures"] == ["Normal shutdown procedure"]
    assert len(info["digest"]) == 64


def test_strict_fails_on_an_unreadable_rule_like_statement(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    src = tmp_path / "delorean"
    src.mkdir()
    shutil.copy(ROCKET / "sensors.toml", src / "sensors.toml")
    (src / "manual.txt").write_text(
        "If the chamber temperature exceeds 600 °C, open the vent.\n"
        "If the flux capacitor exceeds 88 gigawatts, jump.\n",
        encoding="utf-8",
    )
    loose = tmp_path / "loose.bundle"
    status, _, err = run(capsys, "compile", src, "-o", loose)
    assert status == 0, err
    assert loose.is_file()
    assert "flux capacitor" in err  # reported, not silently dropped
    strict = tmp_path / "strict.bundle"
    status, _, err = run(capsys, "compile", "--strict", src, "-o", strict)
    assert status != 0
    assert "Traceback" not in err
    assert "manual.txt:2" in err
    assert not strict.exists()
    status, _, _ = run(capsys, "extract", "--strict", src, "-o", tmp_path / "r.jsonl")
    assert status != 0


def test_replay_json_events(capsys: pytest.CaptureFixture[str], plant_bundle: Path, tmp_path: Path):
    csv_path = tmp_path / "run.csv"
    csv_path.write_text(
        "time,tank_temperature,line_pressure\n0,20,100\n1,101,\n2,,250\n3,96,\n4,94,150\n",
        encoding="utf-8",
    )
    status, out, err = run(capsys, "replay", plant_bundle, csv_path, "--json")
    assert status == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    got = [(e["t"], e["event"], e["source"]["text"].split(",")[0]) for e in events]
    assert got == [
        (1.0, "raise", "If the tank temperature exceeds 100 °C"),
        (2.0, "raise", "If the line pressure is 200 kPa or more"),
        (4.0, "clear", "If the tank temperature exceeds 100 °C"),
        (4.0, "clear", "If the line pressure is 200 kPa or more"),
    ]
    assert all(e["source"]["file"] == "plant_limits.txt" for e in events)


# ---------------------------------------------------------------- the real entry point


def test_subprocess_compile_query_and_errors(tmp_path: Path):
    bundle = tmp_path / "rocket.bundle"
    done = run_subprocess("compile", ROCKET, "-o", bundle)
    assert done.returncode == 0, done.stderr
    assert bundle.is_file()

    done = run_subprocess(
        "query", bundle, "chamber_temperature=820", "--json", "chamber_pressure=45"
    )
    assert done.returncode == 0, done.stderr
    obj = json.loads(done.stdout)
    assert len(done.stdout.strip().splitlines()) == 1
    texts = " | ".join(r["source"]["text"] for r in obj["rules"])
    assert len(obj["rules"]) == 2 and COOLANT in texts and CRYO in texts

    done = run_subprocess("query", bundle, "--json", "chamber_temperature=abc")
    assert_one_line_error(done.returncode, done.stderr, "chamber_temperature", "abc")
    assert done.stdout == ""

    cut = tmp_path / "cut.bundle"
    cut.write_bytes(bundle.read_bytes()[:100])
    done = run_subprocess("query", cut, "chamber_temperature=1")
    assert_one_line_error(done.returncode, done.stderr)


def test_subprocess_replay_and_compile_errors(tmp_path: Path):
    src = tmp_path / "legacy"
    src.mkdir()
    (src / "m.txt").write_bytes(b"If the oil temperature exceeds 120 \xb0C, stop the pump.\n")
    done = run_subprocess("compile", src, "-o", tmp_path / "x.bundle")
    assert_one_line_error(done.returncode, done.stderr, "m.txt:1")

    bundle = tmp_path / "plant.bundle"
    assert run_subprocess("compile", PLANT, "-o", bundle).returncode == 0
    csv_path = tmp_path / "bad.csv"
    csv_path.write_text("time,tank_temperature\n0,1\n1,x\n", encoding="utf-8")
    done = run_subprocess("replay", bundle, csv_path, "--json")
    assert_one_line_error(done.returncode, done.stderr, "bad.csv:3")


def test_subprocess_usage_error_is_not_a_traceback(tmp_path: Path):
    done = run_subprocess("compile")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    done = run_subprocess()
    assert done.returncode != 0
    assert "Traceback" not in done.stderr


def test_a_violated_constraint_is_shown_once_not_again_as_a_conflict(
        capsys: pytest.CaptureFixture[str], rocket_bundle: Path) -> None:
    status, out, _ = run(capsys, "query", rocket_bundle, "fuel_line_pressure=500")
    assert status == 0
    rule_lines = [line for line in out.splitlines() if line.startswith("[")]
    assert rule_lines and not any(line.startswith("[CONFLICT]") for line in rule_lines)
    status, out, _ = run(capsys, "query", rocket_bundle, "fuel_line_pressure=500", "--json")
    assert json.loads(out)["conflicts"]  # still in the JSON answer
