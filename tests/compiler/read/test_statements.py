"""Statement splitting: provenance (line, exact text), wrapping, headings, lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies

from rulec.compiler.read.statements import (
    find_span,
    line_offsets,
    read_document_text,
    split_lines_without_ids,
    split_statements,
    split_without_ids,
)
from rulec.runtime.errors import DocumentError


def texts(doc: str) -> list[tuple[int, str, str]]:
    return [(s.line, s.kind, s.text) for s in split_statements(doc, "m.txt")]


def test_sentences_keep_their_start_line_and_exact_text() -> None:
    doc = "Title\n\nIf the oil temperature exceeds\n120 °C, stop the pump. The pump is red.\n"
    assert texts(doc) == [
        (1, "heading", "Title"),
        (3, "sentence", "If the oil temperature exceeds 120 °C, stop the pump."),
        (4, "sentence", "The pump is red."),
    ]


def test_short_line_before_a_sentence_is_a_heading_not_part_of_it() -> None:
    doc = "General\nPatients are assessed daily.\nEscalation rules\nIf X exceeds 5, call.\n"
    kinds = texts(doc)
    assert kinds[0] == (1, "heading", "General")
    assert kinds[1] == (2, "sentence", "Patients are assessed daily.")
    assert kinds[2] == (3, "heading", "Escalation rules")


def test_long_wrapped_line_joins_the_next_even_if_capitalised() -> None:
    doc = ("If the chamber temperature is greater than 800 degrees and the chamber\n"
           "Pressure is low, shut down.\n")
    assert texts(doc) == [(1, "sentence", "If the chamber temperature is greater than 800 "
                           "degrees and the chamber Pressure is low, shut down.")]


def test_markdown_headings_lists_and_numbered_procedure() -> None:
    doc = ("# Cooling\n\n## 2. Rules\n- If the humidity exceeds 70 %, start the dryer.\n"
           "- The humidity must not exceed\n  80 %.\n\nTo shut down:\n1. Close valve A.\n"
           "2. Open valve B.\n")
    got = split_statements(doc, "c.md")
    assert [(s.kind, s.text) for s in got] == [
        ("heading", "Cooling"),
        ("heading", "2. Rules"),
        ("item", "If the humidity exceeds 70 %, start the dryer."),
        ("item", "The humidity must not exceed 80 %."),
        ("title", "To shut down:"),
        ("item", "Close valve A."),
        ("item", "Open valve B."),
    ]
    assert got[2].section == "2. Rules"
    assert got[5].number == 1 and got[6].number == 2 and got[5].block == got[6].block
    assert got[3].line == 5


def test_a_list_marker_with_nothing_after_it_is_no_statement() -> None:
    # "Step 4:" alone, then a numbered list: an empty step would become a procedure
    # step (and title) citing no text at all
    assert texts("Step 4:\n2.  Hand over the discharge letter.\n") == [
        (2, "item", "Hand over the discharge letter.")]


def test_entries_led_by_a_tag_and_a_gap_are_items_that_keep_their_tag() -> None:
    doc = ("The system trips on any one of the following causes:\n"
           "  C1  Fuel gas pressure low-low (PT-1106A/B/C, 2oo3): pressure below 5 psig\n"
           "  C2  Flame failure (BE-1141 to BE-1152): flame signal less than 15 %\n"
           "PAL-1106   Fuel gas pressure 8 psig or lower -> check PCV-1105 and the level\n"
           "           of the knock-out drum V-104.\n")
    assert texts(doc)[1:] == [
        (2, "item", "C1  Fuel gas pressure low-low (PT-1106A/B/C, 2oo3): pressure below 5 psig"),
        (3, "item", "C2  Flame failure (BE-1141 to BE-1152): flame signal less than 15 %"),
        (4, "item", "PAL-1106   Fuel gas pressure 8 psig or lower -> check PCV-1105 and the "
                    "level of the knock-out drum V-104."),
    ]
    # one space after a tag is prose; a long capitalised word is no tag
    doc = ("H-101 is a forced-draft box heater with 4 process passes and 12 burners on the\n"
           "floor.\n" + "A" * 5000 + "  B\n")
    assert [k for _, k, _ in texts(doc)] == ["sentence", "sentence"]


def test_a_colon_at_a_line_end_before_lower_case_runs_the_sentence_on() -> None:
    doc = "If the temperature is 0 °C or lower, cells may have frozen:\nquarantine the units.\n"
    assert texts(doc) == [(1, "sentence", "If the temperature is 0 °C or lower, cells may have "
                                          "frozen: quarantine the units.")]
    doc = "To stop the pump:\n- close the valve\n"
    assert [k for _, k, _ in texts(doc)] == ["title", "item"]


def test_numbered_heading_is_not_a_step() -> None:
    got = split_statements("1. Thermal limits\nIf T exceeds 5 K, stop.\n", "e.txt")
    assert [(s.kind, s.text) for s in got] == [
        ("heading", "1. Thermal limits"), ("sentence", "If T exceeds 5 K, stop.")]


def test_step_markers_and_units_ending_sentences() -> None:
    got = split_statements("Login procedure:\nStep 1: Enter the name.\nStep 2: Wait.\n"
                           "If visibility is below 200 m. Then reduce to 60 km/h. Next.\n",
                           "a.txt")
    assert [s.marker for s in got[1:3]] == ["Step 1:", "Step 2:"]
    sentences = [s.text for s in got if s.kind == "sentence"]
    assert sentences == ["If visibility is below 200 m.", "Then reduce to 60 km/h.", "Next."]


def test_decimals_and_abbreviations_do_not_split() -> None:
    got = split_statements("Keep it below 38.5 °C, e.g. by cooling. Done.\n", "x.txt")
    assert [s.text for s in got] == ["Keep it below 38.5 °C, e.g. by cooling.", "Done."]


def test_code_fences_and_table_rules_are_skipped() -> None:
    got = split_statements("```\nIf X exceeds 5, stop.\n```\n| a | b |\n|---|---|\n", "t.md")
    assert [s.text for s in got] == ["| a | b |"]


def test_wrong_encoding_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes("line one\nTemp \u00e9t\u00e9\n".encode("latin-1"))
    with pytest.raises(DocumentError, match=r"bad.txt:2: not valid UTF-8"):
        read_document_text(path)


def test_bom_and_crlf(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    path.write_bytes(b"\xef\xbb\xbfIf X exceeds 5, stop.\r\nDone.\r\n")
    got = split_statements(read_document_text(path), "w.txt")
    assert [(s.line, s.text) for s in got] == [(1, "If X exceeds 5, stop."), (2, "Done.")]


# ---------------------------------------------------------------- spans, ids, layout hints


def test_statements_carry_spans_into_the_normalised_text() -> None:
    doc = "# Oil\r\n\r\n- If the oil pressure drops\r\n  below 20 psi, land.\r\nStop. Stop.\r\n"
    got = split_statements(doc, "o.md")
    text = doc.replace("\r\n", "\n")
    for st in got:
        assert " ".join(text[st.start:st.end].split()) == st.text
    assert text[got[0].start:got[0].end] == "Oil"
    assert [st.start for st in got[-2:]] == [text.index("Stop."), text.index("Stop.") + 6]


def test_ids_are_deterministic_distinct_and_independent_of_position() -> None:
    a = split_statements("If X exceeds 5, stop.\nStop. Stop.\n", "m.txt")
    b = split_statements("Intro.\n\nIf X exceeds 5, stop.\nStop. Stop.\n", "m.txt")
    assert [st.id for st in a] == [st.id for st in b[1:]]
    assert len({st.id for st in a}) == 3
    assert all(len(st.id) == 16 for st in a)
    assert split_statements("Stop.\n", "other.txt")[0].id != a[1].id


def test_new_fields_have_defaults_for_text_documents() -> None:
    (st,) = split_statements("If X exceeds 5, stop.\n", "m.txt")
    assert st.page is None and st.parse_text == ""
    assert (st.start, st.end) == (0, len("If X exceeds 5, stop."))


def test_heading_hints_and_skipped_lines() -> None:
    doc = "Engine limits\nIf X exceeds 5, stop.\nA | 1 | 2\nB | 3 | 4\nDone.\n"
    plain = [(s.kind, s.text) for s in split_statements(doc, "p.txt", skip={3, 4})]
    assert plain == [("heading", "Engine limits"), ("sentence", "If X exceeds 5, stop."),
                     ("sentence", "Done.")]
    # a hinted line that reads as a sentence stays a sentence
    hinted = split_statements("WARNING\nDo not stop the pump.\n", "w.txt", headings={1, 2})
    assert [(s.kind, s.text) for s in hinted] == [("heading", "WARNING"),
                                                  ("sentence", "Do not stop the pump.")]


def test_a_heading_directly_above_a_numbered_subheading() -> None:
    got = split_statements("2 LIMITS\n2.1 Exhaust gas temperature\nIf EGT exceeds 9 K, stop.\n",
                           "l.txt")
    assert [(s.kind, s.text) for s in got] == [
        ("heading", "2 LIMITS"), ("heading", "2.1 Exhaust gas temperature"),
        ("sentence", "If EGT exceeds 9 K, stop.")]


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(b"ok\nbad\x00here\n")
    with pytest.raises(DocumentError, match=r"blob.txt:2: binary file"):
        read_document_text(path)


def test_numbered_clauses_wrapped_under_a_hanging_indent_are_statements() -> None:
    text = ("6.1   Pressure cascade\n"
            "6.1.1   The room pressure shall\n"
            "        not be less than 10 Pa.\n"
            "6.1.2   If the airflow velocity at working height is outside\n"
            "        0.36 - 0.54 m/s, stop the filling.\n"
            "6.2   Temperature and humidity\n")
    got = [(s.kind, s.line, s.text) for s in split_statements(text, "sop.txt")]
    assert got == [
        ("heading", 1, "6.1   Pressure cascade"),
        ("sentence", 2, "6.1.1   The room pressure shall not be less than 10 Pa."),
        ("sentence", 4, "6.1.2   If the airflow velocity at working height is outside 0.36 - "
                        "0.54 m/s, stop the filling."),
        ("heading", 6, "6.2   Temperature and humidity"),
    ]


def test_a_numbered_clause_after_a_lettered_list_starts_its_own_statement() -> None:
    text = ("5.1 The following limits apply:\n    a) Oil pressure: less than 20 psi\n"
            "5.2 Telephone the result to the engineer.\n")
    got = [(s.kind, s.line) for s in split_statements(text, "m.txt")]
    assert got == [("title", 1), ("item", 2), ("sentence", 3)]


# ---------------------------------------------------------------- shortcuts kept exact

_WORDS = strategies.text(alphabet="ab .\t\n\u00a0", max_size=40)


@settings(max_examples=300, deadline=None)
@given(text=_WORDS, words=_WORDS, pos=strategies.integers(min_value=0, max_value=40))
def test_find_span_is_where_the_words_stand_with_whitespace_between(
        text: str, words: str, pos: int) -> None:
    parts = words.split()
    found = re.compile(r"\s+".join(map(re.escape, parts))).search(text, pos) if parts else None
    expected = (found.start(), found.end()) if found else (-1, -1)
    assert find_span(text, words, pos) == expected


@settings(max_examples=200, deadline=None)
@given(text=strategies.text(alphabet="Ab1. :#-|\n", max_size=80))
def test_split_lines_without_ids_is_split_without_ids_given_lines_and_offsets(text: str) -> None:
    lines = text.split("\n")
    assert split_lines_without_ids(text, lines, line_offsets(text), "m.txt") == (
        split_without_ids(text, "m.txt"))


def test_a_definition_is_a_paragraph_of_its_own_without_its_marker() -> None:
    text = ("F21 AIR DETECTED\n"
            ":   A reading of 30 % aborts the cycle. Revision D lowered it\n"
            "    from 40 % to 30 %.\n"
            "Term two\n"
            ": Second definition.\n")
    got = [(st.line, st.text) for st in split_statements(text, "m.txt") if st.kind != "heading"]
    assert got == [(2, "A reading of 30 % aborts the cycle."),
                   (2, "Revision D lowered it from 40 % to 30 %."),
                   (5, "Second definition.")]
