"""The page's data from a real compile: every statement once, in its class, placed in the
document's text; rules linked to their statements both ways; findings and boxes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from review_helpers import PUMP

from rulec.compiler.review.session import compile_for_review


@pytest.fixture(scope="module")
def data() -> dict:  # type: ignore[type-arg]
    return compile_for_review([PUMP]).data()


def _by_text(data: dict, words: str) -> dict:  # type: ignore[type-arg]
    return next(s for s in data["statements"] if words in s["text"])


def test_every_statement_has_the_class_the_compile_gave_it(data: dict) -> None:  # type: ignore[type-arg]
    classes = {s["text"][:30]: s["class"] for s in data["statements"]}
    assert _by_text(data, "exceeds 120 °C")["class"] == "compiled"
    assert _by_text(data, "The station has 3 pumps")["class"] == "descriptive"
    assert _by_text(data, "The station has 3 pumps")["reason"]
    assert _by_text(data, "Open the oil valves")["class"] == "unreadable"
    assert _by_text(data, "Open the oil valves")["reason"].startswith("no parameter matches")
    assert _by_text(data, "for the listed cases")["class"] == "needs review"
    assert _by_text(data, "PUMP STATION LIMITS")["class"] in ("heading", "descriptive")
    assert all(c for c in classes.values()), classes


def test_rules_and_statements_point_at_each_other(data: dict) -> None:  # type: ignore[type-arg]
    ids = {s["id"] for s in data["statements"]}
    cited = {r for s in data["statements"] for r in s["rules"]}
    assert cited == {r["id"] for r in data["rules"]}
    for rule in data["rules"]:
        assert rule["statement"] in ids
        home = next(s for s in data["statements"] if s["id"] == rule["statement"])
        assert rule["id"] in home["rules"]
        assert home["text"] == rule["text"]


def test_a_rule_reads_in_words_as_boxes_and_with_its_units_converted(data: dict) -> None:  # type: ignore[type-arg]
    hot = next(r for r in data["rules"] if r["object"]["condition"].get("unit") == "degF")
    assert hot["words"] == "oil temperature is above 266 °F"
    assert hot["boxes"] == ["oil temperature is above 130 °C"]
    assert hot["converted"] == ["oil temperature: 266 degF = 130 degC"]
    assert hot["advisory"].startswith("{condition}: Shut down the station")
    assert hot["severity"] in ("warning", "caution", "advisory")


def test_each_statement_stands_once_in_the_document_text(data: dict) -> None:  # type: ignore[type-arg]
    (doc,) = data["documents"]
    segments = [seg for page in doc["pages"] for seg in page["segments"]]
    text = "".join(seg if isinstance(seg, str) else seg["text"] for seg in segments)
    assert text == (PUMP / "pump.txt").read_text(encoding="utf-8")
    placed = [seg["s"] for seg in segments if not isinstance(seg, str)]
    assert sorted(placed + doc["unplaced"]) == list(range(len(data["statements"])))


def test_findings_and_boxes_come_from_the_checks_and_the_bundle(data: dict) -> None:  # type: ignore[type-arg]
    (finding,) = data["findings"]
    assert finding["kind"] == "shadowed"
    assert all(r in {x["id"] for x in data["rules"]} for r in finding["rules"])
    sides = {b["rule"]: b["sides"] for b in data["boxes"]}
    hot = next(r["id"] for r in data["rules"] if r["converted"])
    assert sides[hot] == {"oil_temperature": [130.0, None, False, False]}


def test_a_pdf_is_shown_page_by_page(tmp_path: Path) -> None:
    fpdf = pytest.importorskip("fpdf", reason="generating PDFs needs fpdf2 (the [test] extra)")
    pytest.importorskip("pdfplumber", reason="reading PDFs needs pdfplumber (the [ground] extra)")
    pdf = fpdf.FPDF()
    pdf.set_font("Helvetica", size=11)
    for sentence in ("If the oil temperature exceeds 120 °C, stop the oil pump.",
                     "If the oil pressure falls below 20 psi, stop the oil pump."):
        pdf.add_page()
        pdf.multi_cell(0, 6, sentence)
    folder = tmp_path / "pdf"
    folder.mkdir()
    pdf.output(str(folder / "manual.pdf"))
    (folder / "sensors.toml").write_text((PUMP / "sensors.toml").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    data = compile_for_review([folder]).data()
    (doc,) = data["documents"]
    assert [p["number"] for p in doc["pages"]] == [1, 2]
    on_page = {p["number"]: [data["statements"][seg["s"]] for seg in p["segments"]
                             if not isinstance(seg, str)] for p in doc["pages"]}
    assert [s["class"] for s in on_page[1]] == ["compiled"]
    assert on_page[2][0]["page"] == 2 and "20 psi" in on_page[2][0]["text"]
    assert re.fullmatch(r"[0-9a-f]{16}", on_page[2][0]["id"])


def test_a_statement_changed_since_its_decision_is_marked_for_review(tmp_path: Path) -> None:
    from review_helpers import copy_manuals

    from rulec.compiler.review.decisions import decision_from_json

    src = copy_manuals(tmp_path)
    before = compile_for_review([src]).data()
    st = _by_text(before, "falls below 20 psi")
    decision = decision_from_json({
        "action": "reject", "statement": st["id"], "file": st["file"], "line": st["line"],
        "text": st["text"], "rule_id": st["rules"][0], "who": "A. Engineer",
        "when": "2026-01-02T03:04:05Z", "why": "duplicate"}, "test")
    assert _by_text(compile_for_review([src], [decision]).data(),
                    "falls below 20 psi")["class"] == "descriptive"
    manual = src / "pump.txt"
    manual.write_text(manual.read_text(encoding="utf-8").replace("20 psi", "25 psi"),
                      encoding="utf-8")
    after = compile_for_review([src], [decision])
    assert after.stale == [decision]
    now = _by_text(after.data(), "falls below 25 psi")
    assert now["class"] == "needs review" and now["rules"]  # flagged, its new rule shown
    assert "changed since it was reviewed" in now["reason"] and "20 psi" in now["reason"]


def test_a_report_marks_the_statement_it_is_about_not_its_neighbour_on_the_line(
        tmp_path: Path) -> None:
    from review_helpers import copy_manuals

    src = copy_manuals(tmp_path)
    with (src / "pump.txt").open("a", encoding="utf-8") as out:
        out.write("The pump room has 2 doors. Open the drain slowly (at most 2 turns per "
                  "10 seconds) to avoid surges.\n")
    data = compile_for_review([src]).data()
    door, drain = _by_text(data, "has 2 doors"), _by_text(data, "Open the drain")
    assert door["line"] == drain["line"]
    assert (door["class"], drain["class"]) == ("descriptive", "unreadable")


def test_an_acceptance_of_another_rule_than_the_statement_yields_is_marked() -> None:
    from rulec.compiler.review.decisions import decision_from_json

    before = compile_for_review([PUMP]).data()
    st = _by_text(before, "exceeds 120 °C")
    rule = next(r for r in before["rules"] if r["id"] == st["rules"][0])
    accepted = dict(rule["object"], condition=dict(rule["object"]["condition"], value=119))
    decision = decision_from_json({
        "action": "accept", "statement": st["id"], "file": st["file"], "line": st["line"],
        "text": st["text"], "rule_id": rule["id"], "who": "A. Engineer",
        "when": "2026-01-02T03:04:05Z", "why": "ok", "rule": accepted}, "test")
    now = _by_text(compile_for_review([PUMP], [decision]).data(), "exceeds 120 °C")
    assert now["class"] == "needs review" and now["rules"] == st["rules"]
    assert f"another rule than {rule['id']}" in now["reason"]
