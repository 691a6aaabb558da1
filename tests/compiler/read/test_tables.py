"""Tables as statements: markdown tables, pipe rows and column tables -> synthetic sentences."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies

from rulec.compiler.extract import offline as extractor
from rulec.compiler.extract.offline import Extraction
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import Rule, condition_to_json
from rulec.compiler.read import tables
from rulec.compiler.read.statements import Statement
from rulec.compiler.read.tables import (
    align_cells,
    block_from_cells,
    find_text_tables,
    row_sentences,
    row_statements,
    split_pipe_cells,
)
from rulec.compiler.read.views import build_views, views_from_text

LIMITS_MD = """# Limits

| Parameter | Min | Max | Unit |
|-----------|----:|:---:|------|
| Oil pressure | 20 | 100 | psi |
| Oil temperature | — | 245 | °F |
| Vent valve | see 2.3 | | |

After the table.
"""


def extract_reading_parse_text(statements: list[Statement],
                               monkeypatch: pytest.MonkeyPatch) -> list[Rule]:
    """The extractor reading `parse_text` where set (the one-line integration the extractor
    is to get), patched in for this test only; sources keep the row as written."""
    original = extractor._extract_statement

    def reading(st: Statement, params: ParameterTable, out: Extraction, used: set[str],
                *context: str | None) -> None:
        before = len(out.rules)
        original(replace(st, text=st.parse_text or st.text), params, out, used, *context)
        for rule in out.rules[before:]:
            rule.source = extractor._source(st)

    monkeypatch.setattr(extractor, "_extract_statement", reading)
    return extractor.extract(statements, ParameterTable(infer=True)).rules


# ---------------------------------------------------------------- finding tables


def test_markdown_table_with_rule_line() -> None:
    (table,) = find_text_tables(LIMITS_MD.split("\n"))
    assert table.header == ("Parameter", "Min", "Max", "Unit")
    assert table.rows[0] == ("Oil pressure", "20", "100", "psi")
    assert table.rows[2] == ("Vent valve", "see 2.3", "", "")
    assert table.header_line == 3 and table.row_lines == (5, 6, 7)
    assert table.lines == frozenset({3, 4, 5, 6, 7})


def test_pipe_rows_without_rule_line() -> None:
    lines = ["Limits:", "Oil pressure | min 20 psi | max 100 psi", "", "Parameter | Max",
             "EGT | 950 °C"]
    first, second = find_text_tables(lines)
    assert first.header == () and first.rows == (("Oil pressure", "min 20 psi", "max 100 psi"),)
    assert first.row_lines == (2,)
    assert second.header == ("Parameter", "Max") and second.rows == (("EGT", "950 °C"),)


def test_column_table_in_plain_text_aligns_empty_cells() -> None:
    lines = ["Parameter        Minimum   Maximum   Unit",
             "Oil pressure     20        100       psi",
             "Oil temperature            245       °F",
             "",
             "Prose again."]
    (table,) = find_text_tables(lines)
    assert table.rows == (("Oil pressure", "20", "100", "psi"),
                          ("Oil temperature", "", "245", "°F"))
    assert table.lines == frozenset({1, 2, 3})


def test_a_setpoint_schedule_under_a_rule_of_dashes() -> None:
    text = ("Table 4-1  Alarm and trip settings\n\n"
            "  Tag        Parameter            Function              Limit\n"
            "  ---------  -------------------  --------------------  -------\n"
            "  TAH-211    Oil temperature      High alarm            > 70 °C\n"
            "  PALL-301   Oil pressure         Trip (86M)            ≤ 32 psi\n"
            "  XI-5       Oil pressure         Indication only       ≤ 40 psi\n")
    views = views_from_text(text, "m.txt")
    rows = [st for st in views.statements if st.kind == "row"]
    assert [st.line for st in rows] == [5, 6, 7]
    assert rows[0].parse_text == "TAH-211: If oil temperature is above 70 °C, high alarm."
    assert rows[1].parse_text == ("PALL-301: If oil pressure is at or below 32 psi, "
                                  "trip (86M).")
    found = extractor.extract(views.statements, ParameterTable(infer=True))
    assert [(r.id, condition_to_json(r.condition)["op"]) for r in found.rules[:2]] == [
        ("TAH-211", ">"), ("PALL-301", "<=")]
    # a limit whose function is no alarm or trip is read as before, as a limit
    assert not rows[2].parse_text.startswith("XI-5: If")


def test_prose_and_code_are_not_tables() -> None:
    lines = ["The pump runs  at  full speed.", "```", "a | b | 3", "```", "Use A or B.",
             "Choose offline|llm|both as the extractor."]
    assert find_text_tables(lines) == []


def test_split_pipe_cells_keeps_escaped_pipes() -> None:
    assert split_pipe_cells("| a \\| b | c |") == ("a | b", "c")
    assert split_pipe_cells("a | b") == ("a", "b")


def test_positioned_cells_fall_under_their_header_column() -> None:
    header = [(30.0, 85.0), (165.0, 214.0), (300.0, 351.0), (435.0, 456.0)]
    got = align_cells(header, [("Oil temperature", 31.0, 107.0), ("245", 300.0, 319.0),
                               ("°F", 435.0, 446.0)])
    assert got == ("Oil temperature", "", "245", "°F")
    block = block_from_cells([(4, [("Parameter", 30, 85), ("Max", 300, 351)]),
                              (5, [("EGT", 31, 50), ("950 °C", 301, 330)])])
    assert block is not None and block.header_line == 4 and block.rows == (("EGT", "950 °C"),)


# ---------------------------------------------------------------- rows as sentences


@pytest.mark.parametrize("header, cells, expected", [
    (("Parameter", "Min", "Max", "Unit"), ("Oil pressure", "20", "100", "psi"),
     ("Oil pressure shall remain between 20 psi and 100 psi.",)),
    (("Parameter", "Minimum", "Maximum", "Unit"), ("Oil temperature", "—", "245", "°F"),
     ("Oil temperature must not exceed 245 °F.",)),
    (("Parameter", "Minimum", "Maximum"), ("Battery voltage", "24 V", "n/a"),
     ("Battery voltage must not fall below 24 V.",)),
    (("Parameter", "Min", "Max", "Unit"), ("Oil pressure", "> 20", "< 100", "psi"),
     ("Oil pressure must stay above 20 psi.", "Oil pressure must stay below 100 psi.")),
    (("Parameter", "Minimum (psi)", "Maximum (psi)"), ("Oil pressure", "20", "100"),
     ("Oil pressure shall remain between 20 psi and 100 psi.",)),
    (("Parameter", "Operating range"), ("Oil pressure (psi)", "20–100"),
     ("Oil pressure shall remain between 20 and 100 psi.",)),
    (("Parameter", "Normal range"), ("Coolant temperature", "-15 to +5 °C"),
     ("Coolant temperature shall remain between -15 and +5 °C.",)),
    (("Parameter", "Low alarm", "High alarm"), ("Heart rate", "40 bpm", "130 bpm"),
     ("Heart rate shall remain between 40 bpm and 130 bpm.",)),
    (("Parameter", "Limit"), ("EGT", "max 950 °C"), ("EGT must not exceed 950 °C.",)),
    (("Condition", "Action"), ("Oil pressure below 20 psi", "Land immediately."),
     ("If oil pressure below 20 psi, land immediately.",)),
    ((), ("Oil pressure", "min 20 psi", "max 100 psi"),
     ("Oil pressure shall remain between 20 psi and 100 psi.",)),
    ((), ("Oil pressure", "20 - 100 psi"), ("Oil pressure shall remain between 20 and 100 psi.",)),
    ((), ("Altitude", "≤ 30,000 ft"), ("Altitude must not exceed 30,000 ft.",)),
    # no limit column: the cells joined, for the extractor to judge
    (("Item", "Value"), ("Cell count", "96"), ("Cell count 96",)),
    (("Parameter", "Typical"), ("Oil pressure", "60 psi"), ("Oil pressure 60 psi",)),
    ((), ("Oil pressure", "must not exceed 100 psi"), ("Oil pressure must not exceed 100 psi",)),
])
def test_row_sentences(header: tuple[str, ...], cells: tuple[str, ...],
                       expected: tuple[str, ...]) -> None:
    assert row_sentences(header, cells) == expected


def test_row_statements_keep_the_row_as_written_with_spans() -> None:
    text = LIMITS_MD
    (table,) = find_text_tables(text.split("\n"))
    rows = row_statements(table, "limits.md", text, 1)
    assert [(st.line, st.kind, st.text) for st in rows] == [
        (5, "row", "| Oil pressure | 20 | 100 | psi |"),
        (6, "row", "| Oil temperature | — | 245 | °F |"),
        (7, "row", "| Vent valve | see 2.3 | | |"),
    ]
    assert rows[0].parse_text == "Oil pressure shall remain between 20 psi and 100 psi."
    assert rows[2].parse_text == "Vent valve see 2.3"
    for st in rows:
        assert text[st.start:st.end] == st.text
        assert st.block == 1


def test_two_readings_of_one_row_share_text_and_span_but_not_id() -> None:
    views = views_from_text("| Parameter | Min | Max |\n|---|---|---|\n| T | > 5 K | < 9 K |\n",
                            "t.md", "md")
    a, b = views.statements
    assert (a.text, a.start, a.end, a.line) == (b.text, b.start, b.end, b.line)
    assert a.parse_text == "T must stay above 5 K." and b.parse_text == "T must stay below 9 K."
    assert a.id != b.id


# ---------------------------------------------------------------- end to end


def test_markdown_limits_table_compiles_into_constraints(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "limits.md"
    path.write_text(LIMITS_MD, encoding="utf-8")
    views = build_views(path, "limits.md")
    rows = [st for st in views.statements if st.kind == "row"]
    assert all(st.section == "Limits" for st in rows)
    rules = extract_reading_parse_text(views.statements, monkeypatch)
    got = {str(r.source["text"]): condition_to_json(r.condition) for r in rules
           if r.condition is not None}
    assert got == {
        "| Oil pressure | 20 | 100 | psi |": {"not": {
            "param": "oil_pressure", "op": "between", "value": [20, 100], "unit": "psi",
            "label": "oil pressure"}},
        "| Oil temperature | — | 245 | °F |": {"not": {
            "param": "oil_temperature", "op": "<=", "value": 245, "unit": "degF",
            "label": "oil temperature"}},
    }
    folded_file = " ".join(LIMITS_MD.split())
    for rule in rules:  # provenance: the cited text stands in the file
        assert " ".join(str(rule.source["text"]).split()) in folded_file


def test_pipe_row_in_plain_text_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    views = views_from_text("Engine limits\nOil pressure | min 20 psi | max 100 psi\n", "e.txt")
    (row,) = [st for st in views.statements if st.kind == "row"]
    assert row.text == "Oil pressure | min 20 psi | max 100 psi" and row.line == 2
    (rule,) = extract_reading_parse_text(views.statements, monkeypatch)
    assert rule.kind == "constraint" and rule.source["line"] == 2


def test_descriptive_table_yields_no_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    views = views_from_text("| Item | Value |\n|---|---|\n| Cell count | 96 |\n"
                            "| Service interval | 12 h |\n", "d.md", "md")
    assert extract_reading_parse_text(views.statements, monkeypatch) == []


@settings(max_examples=300, deadline=None)
@given(line=strategies.text(alphabet="ab \t\u00a0\u2028", min_size=1, max_size=30))
def test_one_cell_says_what_gap_cells_finds(line: str) -> None:
    if line.strip():
        assert tables._one_cell(line) == (len(tables._gap_cells(line)) == 1)


def test_an_alarm_table_with_condition_and_response_columns() -> None:
    text = ("    Alarm message   Priority  Alarm condition                    Console response\n"
            "    --------------  --------  ---------------------------------  ----------------\n"
            "    AIR IN LINE     High      bubble size 5 mm or larger          pump stops\n"
            "    TEMP HIGH       Medium    blood temperature above 39.0 °C     message only\n")
    (block,) = find_text_tables(text.split("\n"))
    assert [row_sentences(block.header, row) for row in block.rows] == [
        ("AIR IN LINE: If bubble size 5 mm or larger, pump stops.",),
        ("TEMP HIGH: If blood temperature above 39.0 °C, message only.",)]
    assert row_sentences(("Cause", "Effect"), ("oil pressure below 2 bar", "trip")) == (
        "If oil pressure below 2 bar, trip.",)


def test_a_staged_response_table() -> None:
    header = ("Stage", "NH3 concentration", "Automatic response", "Operator response")
    assert row_sentences(header, ("2 – Alarm", "150 ppm or more", "Horns sound",
                                  "Call the team")) == (
        "If NH3 concentration is 150 ppm or more, horns sound; call the team.",)
    # a descriptive cell in the quantity's column is no stage
    assert row_sentences(header, ("0", "normal", "None", "None")) != (
        "If NH3 concentration is normal, none; none.",)
