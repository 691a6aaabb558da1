"""Nothing lost, nothing leaked: outputs never overwrite inputs, links out of a source
folder are not read, citations stay inside the source, and manual text never reaches the
terminal raw."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulec.compiler.cli import main
from rulec.compiler.terminal import escape_controls

pytestmark = pytest.mark.compiled

PLANT = Path(__file__).resolve().parents[1] / "fixtures" / "plant"


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def plant(tmp_path: Path) -> Path:
    folder = tmp_path / "plant"
    shutil.copytree(PLANT, folder)
    return folder


def _unchanged(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# ---------------------------------------------------------------- outputs and inputs


@pytest.mark.parametrize("target", ["plant_limits.txt", "sensors.toml"])
def test_compile_refuses_to_write_over_a_file_of_its_source_folder(
        capsys: pytest.CaptureFixture[str], plant: Path, target: str) -> None:
    before = _unchanged(plant)
    status, _, err = run(capsys, "compile", plant, "-q", "-o", plant / target)
    assert status == 2
    assert "is an input" in err and target in err
    assert _unchanged(plant) == before


def test_compile_refuses_a_knowledge_base_path_that_is_an_input(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    before = _unchanged(plant)
    status, _, err = run(capsys, "compile", plant, "-q", "-o", tmp_path / "b.bundle",
                         "--kb", plant / "plant_limits.txt")
    assert status == 2 and "--kb" in err and "is an input" in err
    assert _unchanged(plant) == before
    assert not (tmp_path / "b.bundle").exists()


def test_extract_and_compile_refuse_to_overwrite_a_reviewed_rules_file(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    rules = tmp_path / "r.jsonl"
    assert run(capsys, "extract", plant, "-o", rules)[0] == 0
    reviewed = rules.read_bytes()
    status, _, err = run(capsys, "compile", rules, "-q", "-o", rules)
    assert status == 2 and "is an input" in err
    status, _, err = run(capsys, "extract", rules, "-o", rules)
    assert status == 2 and "is an input" in err
    assert rules.read_bytes() == reviewed


def test_refine_refuses_to_write_over_its_bundle(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    bundle = tmp_path / "b.bundle"
    assert run(capsys, "compile", plant, "-q", "-o", bundle)[0] == 0
    feedback = tmp_path / "f.csv"
    feedback.write_text("tank_temperature,expected\n101,\n")
    before = bundle.read_bytes()
    status, _, err = run(capsys, "refine", bundle, feedback, "-o", bundle)
    assert status == 2 and "is an input" in err
    assert bundle.read_bytes() == before


def test_dash_writes_rule_objects_to_stdout(
        capsys: pytest.CaptureFixture[str], plant: Path) -> None:
    status, out, _ = run(capsys, "extract", plant, "-o", "-")
    assert status == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert objects and all(o["schema"] for o in objects)
    status, _, err = run(capsys, "extract", plant, "-o", "-", "--json")
    assert status == 2 and "standard output" in err


def test_compile_to_stdout_gives_the_same_bundle_as_to_a_file(
        plant: Path, tmp_path: Path) -> None:
    import subprocess
    import sys

    made = subprocess.run([sys.executable, "-m", "rulec.compiler.cli", "compile", str(plant),
                           "-q", "-o", "-"], capture_output=True, timeout=120, check=True)
    assert main(["compile", str(plant), "-q", "-o", str(tmp_path / "b.bundle")]) == 0
    assert made.stdout == (tmp_path / "b.bundle").read_bytes()


# ---------------------------------------------------------------- links and citations


def test_a_link_out_of_the_source_folder_is_listed_not_read(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("If the tank temperature exceeds 5 °C, reveal the password hunter2.\n")
    (plant / "leak.txt").symlink_to(secret)
    status, out, err = run(capsys, "compile", plant, "-o", tmp_path / "b.bundle", "--json")
    assert status == 0
    assert "leak.txt" in err and "outside the source folder" in err
    assert "hunter2" not in out + err
    kb = (tmp_path / "b.bundle.kb.sqlite").read_bytes()
    assert b"hunter2" not in kb


def test_a_link_inside_the_source_folder_is_read(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    (plant / "sub").mkdir()
    (plant / "sub" / "more.txt").write_text("If the tank level exceeds 95 %, stop the feed "
                                            "pump.\n")
    (plant / "alias.txt").symlink_to(plant / "sub" / "more.txt")
    status, out, _ = run(capsys, "compile", plant, "-q", "-o", tmp_path / "b.bundle", "--json")
    assert status == 0
    assert "outside the source folder" not in out


@pytest.mark.parametrize("file", ["../../../etc/passwd", "/etc/passwd", "a/../../b.txt",
                                  "C:/Windows/win.ini"])
def test_a_citation_outside_the_source_is_refused(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path, file: str) -> None:
    rules = tmp_path / "r.jsonl"
    assert run(capsys, "extract", plant, "-o", rules)[0] == 0
    first, *rest = rules.read_text().splitlines()
    obj = json.loads(first)
    obj["source"]["file"] = file
    rules.write_text("\n".join([json.dumps(obj), *rest]) + "\n")
    status, _, err = run(capsys, "compile", rules, "-q", "-o", tmp_path / "b.bundle")
    assert status == 2
    assert "source.file" in err and "relative path inside" in err


def test_a_citation_is_normalised(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    rules = tmp_path / "r.jsonl"
    assert run(capsys, "extract", plant, "-o", rules)[0] == 0
    lines = rules.read_text().splitlines()
    obj = json.loads(lines[0])
    obj["source"]["file"] = "./docs//plant_limits.txt"
    rules.write_text("\n".join([json.dumps(obj), *lines[1:]]) + "\n")
    status, out, _ = run(capsys, "compile", rules, "-q", "-o", tmp_path / "b.bundle", "--json")
    assert status == 0
    bundle = tmp_path / "b.bundle"
    status, out, _ = run(capsys, "explain", bundle, obj["id"], "--json")
    assert status == 0
    assert json.loads(out)["source"]["file"] == "docs/plant_limits.txt"


# ---------------------------------------------------------------- the terminal


def test_escape_controls_spells_out_what_a_terminal_would_obey() -> None:
    raw = "a\x1b[31mred\x1b]0;t\x07\r\u202egnp.exe\x9b\tok\n"
    shown = escape_controls(raw)
    assert "\x1b" not in shown and "\x07" not in shown and "\r" not in shown
    assert "\u202e" not in shown and "\x9b" not in shown
    assert shown.endswith("\tok\n")
    assert json.loads(escape_controls(json.dumps(raw, ensure_ascii=False))) == raw


def test_manual_escape_sequences_do_not_reach_the_terminal(
        capsys: pytest.CaptureFixture[str], plant: Path, tmp_path: Path) -> None:
    (plant / "evil.txt").write_text(
        "If the tank temperature exceeds 90 °C, \x1b[2J\x1b]0;owned\x07 drain the "
        "\u202etank.\n")
    bundle = tmp_path / "b.bundle"
    status, out, err = run(capsys, "compile", plant, "-o", bundle)
    assert status == 0
    status, out2, err2 = run(capsys, "query", bundle, "tank_temperature=95")
    status3, out3, _ = run(capsys, "query", bundle, "tank_temperature=95", "--json")
    for text in (out, err, out2, err2, out3):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\u001b" in out2
    assert any("\x1b[2J" in r["source"]["text"] for r in json.loads(out3)["rules"])


def test_statements_that_are_not_rules_are_listed_in_line_order(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "b.txt").write_text("If the tank frobnication exceeds 5 units, stop.\n\n"
                                  "If the tank wibble exceeds 7 units, stop.\n")
    (folder / "a.txt").write_text("\n\nIf the tank gloop exceeds 9 units, stop.\n")
    (folder / "sensors.toml").write_text('[parameters.tank_level]\nunit = "percent"\n')
    status, out, err = run(capsys, "compile", folder, "-o", tmp_path / "b.bundle", "--json")
    listed = [(p["file"], p["line"]) for p in json.loads(out)["problems"]]
    assert listed == sorted(listed) and len(listed) >= 3
    places = [line.split(": ")[1] for line in err.splitlines() if line.startswith("  ")]
    assert places == sorted(places, key=lambda w: (w.split(":")[0], int(w.split(":")[1])))
