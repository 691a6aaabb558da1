"""Document views of text and markdown manuals: pages, sections, paragraphs, statements,
chunks and tables, with spans into one text and deterministic ids."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rulec.compiler.read.statements import split_statements
from rulec.compiler.read.views import CHUNK_CHARS, DocumentViews, build_views, views_from_text
from rulec.runtime.errors import DocumentError

MD = """# Engine manual

Intro text for the reader.

## 2. Oil system

If the oil pressure drops below 20 psi, land.
The oil pressure must not exceed
100 psi.

### 2.3 Oil temperature

- If the oil temperature exceeds 120 °C, stop the oil pump.
- Record the event.

## 3. Fuel

Keep the fuel temperature above -40 °C.
"""

TXT = """ENGINE OPERATING LIMITATIONS

1 GENERAL
This chapter gives the limits.

2 LIMITS
2.1 Exhaust gas temperature
If the EGT exceeds 950 °C, reduce thrust.
Notes
The EGT probe is checked daily.
"""


def fold(text: str) -> str:
    return " ".join(text.split())


def check_spans(views: DocumentViews) -> None:
    for st in views.statements:
        assert fold(views.text[st.start:st.end]) == fold(st.text), st
    for item in (*views.sections, *views.paragraphs, *views.chunks, *views.pages):
        assert 0 <= item.start <= item.end <= len(views.text)
    for item in (*views.paragraphs, *views.chunks, *views.pages):
        assert views.text[item.start:item.end] == item.text


@pytest.fixture
def md_views(tmp_path: Path) -> DocumentViews:
    path = tmp_path / "manual.md"
    path.write_text(MD, encoding="utf-8")
    return build_views(path, "manual.md")


# ---------------------------------------------------------------- pages and statements


def test_text_document_is_one_page_and_statements_have_no_page(md_views: DocumentViews) -> None:
    assert md_views.kind == "md"
    assert md_views.text == MD
    assert [(p.number, p.start, p.end) for p in md_views.pages] == [(1, 0, len(MD))]
    assert all(st.page is None for st in md_views.statements)


def test_statements_are_those_of_split_statements_with_spans(md_views: DocumentViews) -> None:
    plain = split_statements(MD, "manual.md")
    assert [(s.line, s.kind, s.text, s.section) for s in md_views.statements] == [
        (s.line, s.kind, s.text, s.section) for s in plain]
    check_spans(md_views)
    wrapped = next(s for s in md_views.statements if s.text.startswith("The oil pressure"))
    assert md_views.text[wrapped.start:wrapped.end] == "The oil pressure must not exceed\n100 psi."


def test_sha256_is_of_the_file_bytes(tmp_path: Path) -> None:
    path = tmp_path / "w.txt"
    raw = b"If X exceeds 5, stop.\r\nDone.\r\n"
    path.write_bytes(raw)
    views = build_views(path, "w.txt")
    assert views.sha256 == hashlib.sha256(raw).hexdigest()
    assert views.text == "If X exceeds 5, stop.\nDone.\n"  # spans index the normalised text
    assert [(s.line, s.text) for s in views.statements] == [(1, "If X exceeds 5, stop."),
                                                            (2, "Done.")]
    check_spans(views)


# ---------------------------------------------------------------- sections


def test_markdown_sections_have_levels_numbers_parents_and_spans(md_views: DocumentViews) -> None:
    got = [(s.title, s.level, s.number, s.line, s.page) for s in md_views.sections]
    assert got == [
        ("Engine manual", 1, "", 1, None),
        ("2. Oil system", 2, "2", 5, None),
        ("2.3 Oil temperature", 3, "2.3", 11, None),
        ("3. Fuel", 2, "3", 16, None),
    ]
    top, oil, temp, fuel = md_views.sections
    assert (top.parent, oil.parent, temp.parent, fuel.parent) == (None, top.id, oil.id, top.id)
    assert top.end == len(MD) and oil.end == fuel.start and temp.end == fuel.start
    assert MD[oil.start:].startswith("2. Oil system")


def test_text_sections_numbered_upper_case_and_plain(tmp_path: Path) -> None:
    views = views_from_text(TXT, "limits.txt")
    got = [(s.title, s.level, s.number) for s in views.sections]
    assert got == [
        ("ENGINE OPERATING LIMITATIONS", 1, ""),
        ("1 GENERAL", 1, "1"),
        ("2 LIMITS", 1, "2"),
        ("2.1 Exhaust gas temperature", 2, "2.1"),
        ("Notes", 3, ""),
    ]
    titles = {s.id: s.title for s in views.sections}
    parents = [titles.get(s.parent or "") for s in views.sections]
    assert parents == [None, None, None, "2 LIMITS", "2.1 Exhaust gas temperature"]


# ---------------------------------------------------------------- paragraphs


def test_paragraphs_are_parted_by_blank_lines_and_headings(md_views: DocumentViews) -> None:
    got = [(p.line, fold(p.text)) for p in md_views.paragraphs]
    assert got == [
        (3, "Intro text for the reader."),
        (7, "If the oil pressure drops below 20 psi, land. The oil pressure must not exceed "
            "100 psi."),
        (13, "- If the oil temperature exceeds 120 °C, stop the oil pump. - Record the event."
         .replace("- If", "If")),
        (18, "Keep the fuel temperature above -40 °C."),
    ]
    sections = {s.id: s.title for s in md_views.sections}
    assert [sections[p.section or ""] for p in md_views.paragraphs] == [
        "Engine manual", "2. Oil system", "2.3 Oil temperature", "3. Fuel"]
    check_spans(md_views)


def test_text_before_any_heading_has_no_section() -> None:
    views = views_from_text("Patients are assessed daily.\n\nIf X exceeds 5, call.\n", "a.txt")
    assert [p.section for p in views.paragraphs] == [None, None]
    assert views.sections == []


# ---------------------------------------------------------------- chunks


def long_manual(n: int = 60) -> str:
    parts = ["# Limits", ""]
    for i in range(n):
        parts.append(f"If the temperature of pump {i} exceeds {100 + i} °C, stop pump {i} and "
                     f"notify the shift supervisor at once.")
        if i % 7 == 6:
            parts.append("")
    return "\n".join(parts) + "\n"


def test_chunks_hold_whole_statements_up_to_about_1200_characters() -> None:
    views = views_from_text(long_manual(), "long.md", "md")
    assert len(views.chunks) > 3
    by_id = {st.id: st for st in views.statements}
    seen: list[str] = []
    for chunk in views.chunks:
        assert len(chunk.text) <= CHUNK_CHARS
        members = [by_id[i] for i in chunk.statement_ids]
        assert chunk.start == members[0].start and chunk.end == members[-1].end
        assert chunk.sha256 == hashlib.sha256(chunk.text.encode()).hexdigest()
        assert chunk.label == ""
        seen.extend(chunk.statement_ids)
    assert seen == [st.id for st in views.statements]  # each once, in order
    check_spans(views)


def test_a_sentence_longer_than_a_chunk_is_a_chunk_of_its_own() -> None:
    long_sentence = "If the valve " + "and the valve " * 120 + "is open, close it."
    assert len(long_sentence) > CHUNK_CHARS
    views = views_from_text(f"Intro.\n\n{long_sentence}\n\nDone.\n", "l.txt")
    texts = [fold(c.text) for c in views.chunks]
    assert texts == ["Intro.", long_sentence, "Done."]


def test_a_heading_does_not_end_a_chunk() -> None:
    views = views_from_text(long_manual(120).replace("pump 30 and", "pump 30 and") +
                            "\n## Next\n\nIf Y exceeds 5, stop.\n", "h.md", "md")
    by_id = {st.id: st for st in views.statements}
    for chunk in views.chunks:
        last = by_id[chunk.statement_ids[-1]]
        assert last.kind != "heading" or len(chunk.statement_ids) == 1


# ---------------------------------------------------------------- ids


def test_ids_are_stable_across_runs(md_views: DocumentViews, tmp_path: Path) -> None:
    path = tmp_path / "again" / "manual.md"
    path.parent.mkdir()
    path.write_text(MD, encoding="utf-8")
    again = build_views(path, "manual.md")
    for view in ("statements", "sections", "paragraphs", "chunks", "tables"):
        assert [x.id for x in getattr(again, view)] == [x.id for x in getattr(md_views, view)]
    for st in md_views.statements:
        assert len(st.id) == 16 and int(st.id, 16) >= 0


def test_ids_depend_on_the_file_name() -> None:
    a = views_from_text("If X exceeds 5, stop.\n", "a.txt")
    b = views_from_text("If X exceeds 5, stop.\n", "b.txt")
    assert a.statements[0].id != b.statements[0].id


def test_editing_elsewhere_leaves_ids_alone(md_views: DocumentViews) -> None:
    edited = MD.replace("Intro text for the reader.", "A much longer introduction.\n\nTwo.")
    other = views_from_text(edited, "manual.md", "md")
    before = {st.text: st.id for st in md_views.statements}
    after = {st.text: st.id for st in other.statements}
    for text, sid in before.items():
        if text != "Intro text for the reader.":
            assert after[text] == sid, text
    assert [s.id for s in other.sections] == [s.id for s in md_views.sections]
    # spans move with the edit, ids do not
    moved = next(s for s in other.statements if s.text.startswith("Keep the fuel"))
    orig = next(s for s in md_views.statements if s.text.startswith("Keep the fuel"))
    assert moved.start != orig.start and moved.id == orig.id


def test_repeated_statements_get_distinct_ids() -> None:
    views = views_from_text("Stop. Stop.\n\nStop.\n", "r.txt")
    ids = [st.id for st in views.statements]
    assert len(ids) == 3 and len(set(ids)) == 3
    assert [views.text[st.start:st.end] for st in views.statements] == ["Stop."] * 3
    assert [st.start for st in views.statements] == [0, 6, 13]


# ---------------------------------------------------------------- tables


def test_markdown_table_view_and_its_rows(tmp_path: Path) -> None:
    doc = ("## Limits\n\nThe limits follow.\n\n| Parameter | Max | Unit |\n|---|---|---|\n"
           "| Oil pressure | 100 | psi |\n| EGT | 950 | °C |\n\nEnd.\n")
    views = views_from_text(doc, "t.md", "md")
    (table,) = views.tables
    assert (table.line, table.header, table.row_lines) == (5, ("Parameter", "Max", "Unit"), (7, 8))
    assert table.rows == (("Oil pressure", "100", "psi"), ("EGT", "950", "°C"))
    rows = [st for st in views.statements if st.kind == "row"]
    assert [(st.line, st.text, st.section) for st in rows] == [
        (7, "| Oil pressure | 100 | psi |", "Limits"), (8, "| EGT | 950 | °C |", "Limits")]
    assert [st.parse_text for st in rows] == ["Oil pressure must not exceed 100 psi.",
                                              "EGT must not exceed 950 °C."]
    table_paragraph = next(p for p in views.paragraphs if "Oil pressure" in p.text)
    assert table_paragraph.text.startswith("| Parameter |") and table_paragraph.line == 5
    chunk = views.chunks[0]
    assert "| Parameter | Max | Unit |" in chunk.text
    check_spans(views)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("name, data, message", [
    ("empty.txt", b"", "empty.txt: empty document"),
    ("blank.md", b"\n  \n", "blank.md: empty document"),
    ("bin.txt", b"abc\n\x00\x01\x02", "bin.txt:2: binary file"),
    ("latin.txt", "caf\u00e9\n".encode("latin-1"), "latin.txt:1: not valid UTF-8"),
    ("manual.docx", b"PK\x03\x04", "manual.docx: unsupported file type '.docx'"),
])
def test_unreadable_documents_name_the_file(tmp_path: Path, name: str, data: bytes,
                                            message: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DocumentError, match=message.replace(".", r"\.")):
        build_views(path, name)


def test_missing_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="nowhere.txt: cannot read"):
        build_views(tmp_path / "nowhere.txt", "nowhere.txt")
