"""`rulec review` and `rulec compile --decisions` on the command line: what they write,
and the one-line errors for what they refuse."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "review"))
from review_helpers import RUN, copy_manuals  # noqa: E402

from rulec.compiler.cli import main  # noqa: E402


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(status: int, err: str, *pieces: str) -> None:
    assert status != 0 and "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert line.startswith("rulec: error:") and "internal error" not in line, line
    for piece in pieces:
        assert piece in line, line


def test_review_writes_the_page_and_the_trace(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    page, export = tmp_path / "review.html", tmp_path / "trace.json"
    status, _, err = run(capsys, "review", src, "-o", page, "--trace", export,
                         "--scenario", RUN)
    assert status == 0, err
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    got = json.loads(export.read_text(encoding="utf-8"))
    assert got["scenarios"] == [RUN.name] and got["never_raised"]
    assert "wrote" in err and "never raised" in err


def test_review_refuses_to_overwrite_a_manual(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    before = (src / "pump.txt").read_bytes()
    status, _, err = run(capsys, "review", src, "-o", src / "pump.txt")
    one_line_error(status, err, "pump.txt", "is an input")
    assert (src / "pump.txt").read_bytes() == before


def test_decisions_inside_a_source_folder_are_refused(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    status, _, err = run(capsys, "review", src, "--serve", "--decisions", src / "d.jsonl")
    one_line_error(status, err, "d.jsonl", "inside the source folder")


def test_review_needs_an_output(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "review", copy_manuals(tmp_path))
    one_line_error(status, err, "-o REVIEW.html")
    status, _, err = run(capsys, "review", tmp_path / "pump", "-o", tmp_path / "r.html",
                         "--scenario", RUN)
    one_line_error(status, err, RUN.name, "--trace")


def test_compile_names_a_missing_or_bad_decisions_file(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    status, _, err = run(capsys, "compile", src, "-o", tmp_path / "b.bundle",
                         "--decisions", tmp_path / "none.jsonl")
    one_line_error(status, err, "none.jsonl", "no such decisions file")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"action": "approve"}\n', encoding="utf-8")
    status, _, err = run(capsys, "compile", src, "-o", tmp_path / "b.bundle",
                         "--decisions", bad)
    one_line_error(status, err, "bad.jsonl:1", "action")


def test_compile_flags_a_decision_whose_sentence_changed(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    page = tmp_path / "r.html"
    assert run(capsys, "review", src, "-o", page)[0] == 0
    data = json.loads(page.read_text(encoding="utf-8").split(
        'id="review-data">', 1)[1].split("</script>", 1)[0])
    st = next(s for s in data["statements"] if "falls below 20 psi" in s["text"])
    decisions = tmp_path / "decisions.jsonl"
    decisions.write_text(json.dumps({
        "action": "reject", "statement": st["id"], "file": st["file"], "line": st["line"],
        "text": st["text"], "rule_id": st["rules"][0], "who": "A. Engineer",
        "when": "2026-01-02T03:04:05Z", "why": "duplicate"}) + "\n", encoding="utf-8")
    bundle = tmp_path / "b.bundle"

    def needs_review() -> tuple[int, str]:
        status, out, err = run(capsys, "compile", src, "-o", bundle, "--decisions",
                               decisions, "--json")
        assert status == 0, err
        return json.loads(out)["counts"]["needs review"], err

    applied, _ = needs_review()
    manual = src / "pump.txt"
    manual.write_text(manual.read_text(encoding="utf-8").replace("20 psi", "25 psi"),
                      encoding="utf-8")
    flagged, err = needs_review()
    assert flagged == applied + 1
    assert "changed since it was reviewed (reject by A. Engineer" in err


def test_compile_and_extract_report_the_decisions_they_apply(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = copy_manuals(tmp_path)
    page = tmp_path / "r.html"
    assert run(capsys, "review", src, "-o", page)[0] == 0
    data = json.loads(page.read_text(encoding="utf-8").split(
        'id="review-data">', 1)[1].split("</script>", 1)[0])
    st = next(s for s in data["statements"] if "falls below 20 psi" in s["text"])
    decisions = tmp_path / "decisions.jsonl"
    decisions.write_text(json.dumps({
        "action": "reject", "statement": st["id"], "file": st["file"], "line": st["line"],
        "text": st["text"], "rule_id": st["rules"][0], "who": "A. Engineer",
        "when": "2026-01-02T03:04:05Z", "why": "duplicate"}) + "\n", encoding="utf-8")
    rules = tmp_path / "rules.jsonl"
    status, out, err = run(capsys, "extract", src, "-o", rules, "--decisions", decisions,
                           "--json")
    assert status == 0, err
    assert json.loads(out)["decisions"] == {"in_file": 1, "applied": 1, "flagged": 0}
    assert "review decisions: 1 applied, 0 on statements that changed since" in err
    ids = [json.loads(line)["id"] for line in rules.read_text(encoding="utf-8").splitlines()]
    assert st["rules"][0] not in ids and len(ids) == len(data["rules"]) - 1


def test_review_writes_the_page_to_standard_output(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    status, out, err = run(capsys, "review", copy_manuals(tmp_path), "-o", "-")
    assert status == 0, err
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    assert not (Path.cwd() / "-").exists()


def test_serve_on_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _, err = run(capsys, "review", copy_manuals(tmp_path), "--serve", "--port",
                             str(port), "--decisions", tmp_path / "d.jsonl")
    one_line_error(status, err, f"--port {port}", "cannot listen on 127.0.0.1")
    assert not (tmp_path / "d.jsonl").exists()
