"""PDF manuals: page-accurate provenance, headings, limits tables, and refusals.

Every PDF is generated here with fpdf2 (the ``[test]`` extra); reading needs
pdfplumber (the ``[ground]`` extra).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rulec.compiler.extract import offline as extractor
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.read.pdf import read_pdf
from rulec.compiler.read.statements import Statement
from rulec.compiler.read.views import DocumentViews, build_views
from rulec.runtime.errors import DocumentError

fpdf = pytest.importorskip("fpdf", reason="generating PDFs needs fpdf2 (the [test] extra)")
pytest.importorskip("pdfplumber", reason="reading PDFs needs pdfplumber (the [ground] extra)")

RULE = "If the oil temperature exceeds 120 °C, stop the oil pump."
INTRO = ("This manual gives the limits of the auxiliary power unit and the actions the crew "
         "takes when one is exceeded. The unit has 2 oil pumps.")
FLOWING = ("If the fuel pressure drops below 5 psi during the start, close the fuel valve and "
           "wait for the")


class _Manual(fpdf.FPDF):  # type: ignore[name-defined]
    def footer(self) -> None:
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 10, f"APU manual, revision 3 - page {self.page_no()}", align="C")


def _heading(pdf: Any, text: str, size: int = 15) -> None:
    pdf.set_font("Helvetica", "B", size)
    pdf.cell(0, 10, text, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)


def _para(pdf: Any, text: str) -> None:
    pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)


def make_manual(path: Path) -> Path:
    """Two pages: headings, prose, a limits table, a pipe row; the rule sentence on page 2."""
    pdf = _Manual()
    pdf.add_page()
    _heading(pdf, "1 Auxiliary power unit", 16)
    _para(pdf, INTRO)
    _heading(pdf, "1.1 Operating limits", 13)
    with pdf.table(col_widths=(50, 25, 25, 20)) as table:
        for cells in (("Parameter", "Minimum", "Maximum", "Unit"),
                      ("Oil pressure", "20", "100", "psi"),
                      ("Oil temperature", "", "245", "°F")):
            row = table.row()
            for cell in cells:
                row.cell(cell)
    pdf.ln(4)
    pdf.set_font("Helvetica", size=11)
    pdf.cell(0, 6, "Generator load | max 90 %", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_y(245)
    pdf.cell(0, 6, FLOWING, new_x="LMARGIN", new_y="NEXT")
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.cell(0, 6, "pressure to recover.", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    _heading(pdf, "2 Abnormal procedures", 16)
    _para(pdf, RULE + " Record the event in the log.")
    pdf.output(str(path))
    return path


@pytest.fixture(scope="module")
def manual(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_manual(tmp_path_factory.mktemp("pdf") / "apu.pdf")


@pytest.fixture(scope="module")
def views(manual: Path) -> DocumentViews:
    return build_views(manual, "apu.pdf")


def by_text(views: DocumentViews, text: str) -> Statement:
    return next(st for st in views.statements if st.text == text)


def fold(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- provenance


def test_pages_are_one_based_and_their_spans_tile_the_text(views: DocumentViews) -> None:
    assert views.kind == "pdf"
    assert [p.number for p in views.pages] == [1, 2]
    for page in views.pages:
        assert views.text[page.start:page.end] == page.text
    assert views.pages[0].end <= views.pages[1].start
    assert "Auxiliary power unit" in views.pages[0].text
    assert "Abnormal procedures" in views.pages[1].text


def test_rule_on_page_two_cites_page_two_and_its_line_there(views: DocumentViews) -> None:
    st = by_text(views, RULE)
    assert st.kind == "sentence"
    assert st.page == 2
    # page 2 shows: "pressure to recover.", the heading, then the rule
    assert st.line == 3
    assert st.section == "2 Abnormal procedures"
    assert fold(views.text[st.start:st.end]) == RULE


def test_every_statement_span_is_its_text(views: DocumentViews) -> None:
    assert views.statements
    for st in views.statements:
        assert st.page in (1, 2)
        assert fold(views.text[st.start:st.end]) == st.text, st


def test_a_sentence_runs_on_to_the_next_page_and_keeps_its_first_page(
        views: DocumentViews) -> None:
    whole = FLOWING + " pressure to recover."
    st = by_text(views, whole)
    assert st.page == 1


def test_running_footer_and_page_numbers_are_left_out(views: DocumentViews) -> None:
    assert "APU manual" not in views.text
    assert all("APU manual" not in st.text for st in views.statements)


def test_headings_become_sections_with_numbers_levels_and_pages(views: DocumentViews) -> None:
    got = [(s.title, s.number, s.level, s.page, s.line) for s in views.sections]
    assert got == [
        ("1 Auxiliary power unit", "1", 1, 1, 1),
        ("1.1 Operating limits", "1.1", 2, 1, 4),
        ("2 Abnormal procedures", "2", 1, 2, 2),
    ]
    top, sub, second = views.sections
    assert sub.parent == top.id and top.parent is None and second.parent is None
    assert top.end == second.start


# ---------------------------------------------------------------- tables


def test_limits_table_is_a_table_view_and_rows_are_statements(views: DocumentViews) -> None:
    table = next(t for t in views.tables if t.header)
    assert table.page == 1
    assert table.header == ("Parameter", "Minimum", "Maximum", "Unit")
    assert table.rows == (("Oil pressure", "20", "100", "psi"),
                          ("Oil temperature", "", "245", "°F"))
    assert table.row_lines == (table.line + 1, table.line + 2)
    rows = [st for st in views.statements if st.kind == "row"]
    readings = {(st.text, st.parse_text) for st in rows}
    assert ("Oil pressure 20 100 psi",
            "Oil pressure shall remain between 20 psi and 100 psi.") in readings
    assert ("Oil temperature 245 °F", "Oil temperature must not exceed 245 °F.") in readings
    assert ("Generator load | max 90 %", "Generator load must not exceed 90 %.") in readings
    assert all(st.page == 1 and st.section == "1.1 Operating limits" for st in rows)


def test_table_rows_compile_into_constraints(views: DocumentViews) -> None:
    rules = extractor.extract(views.statements, ParameterTable(infer=True)).rules
    by_source = {str(r.source["text"]): r for r in rules}
    oil = by_source["Oil pressure 20 100 psi"]
    assert oil.kind == "constraint"
    assert "between" in repr(oil.condition) and "100" in repr(oil.condition)
    assert by_source[RULE].kind == "if_then"


def test_a_pdf_manual_compiles_and_answers_with_its_page(
        manual: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole path: `rulec compile` on a folder holding the PDF, then `rulec query`."""
    import json

    from rulec.compiler.cli import main

    folder = tmp_path / "apu"
    folder.mkdir()
    (folder / "apu.pdf").write_bytes(manual.read_bytes())
    bundle = tmp_path / "apu.bundle"
    assert main(["compile", str(folder), "-o", str(bundle), "-q"]) == 0
    capsys.readouterr()
    # The table's 245 °F comes first, so the inferred parameter is in degF and the
    # page-2 rule's 120 °C becomes exactly 248 °F.
    assert main(["query", str(bundle), "--json", "oil_temperature=248.5",
                 "oil_pressure=15"]) == 0
    fired = json.loads(capsys.readouterr().out)["rules"]
    sources = {r["source"]["text"]: r["source"] for r in fired}
    assert sources[RULE]["page"] == 2 and sources[RULE]["file"] == "apu.pdf"
    assert sources["Oil pressure 20 100 psi"]["page"] == 1
    assert main(["query", str(bundle), "--json", "oil_temperature=245",
                 "oil_pressure=20"]) == 0
    texts = {r["source"]["text"] for r in json.loads(capsys.readouterr().out)["rules"]}
    assert RULE not in texts and "Oil pressure 20 100 psi" not in texts


# ---------------------------------------------------------------- determinism


def test_reading_twice_gives_the_same_ids_and_text(manual: Path, views: DocumentViews) -> None:
    again = build_views(manual, "apu.pdf")
    assert again.text == views.text
    assert [s.id for s in again.statements] == [s.id for s in views.statements]
    assert [s.id for s in again.sections] == [s.id for s in views.sections]
    assert [c.id for c in again.chunks] == [c.id for c in views.chunks]
    assert len({s.id for s in views.statements}) == len(views.statements)


def test_read_pdf_keeps_a_line_origin_for_every_text_line(manual: Path) -> None:
    doc = read_pdf(manual)
    assert len(doc.origin) == doc.text.count("\n") + 1
    assert {page for page, _ in doc.origin} == {1, 2}


# ---------------------------------------------------------------- refusals


def _simple(pdf: Any, text: str = "If X exceeds 5, stop.") -> Any:
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.cell(0, 10, text)
    return pdf


def test_scanned_pdf_without_text_layer_is_refused(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.image(image_module.new("RGB", (300, 200), "white"), x=10, y=10, w=150)
    path = tmp_path / "scanned.pdf"
    pdf.output(str(path))
    with pytest.raises(DocumentError, match=r"scanned\.pdf: no text layer.*OCR"):
        build_views(path, "scanned.pdf")


def test_password_protected_pdf_is_refused(tmp_path: Path) -> None:
    pdf = fpdf.FPDF()
    pdf.set_encryption(owner_password="owner", user_password="secret")
    path = tmp_path / "locked.pdf"
    _simple(pdf).output(str(path))
    with pytest.raises(DocumentError, match=r"locked\.pdf: encrypted PDF"):
        build_views(path, "locked.pdf")


def test_encrypted_pdf_forbidding_extraction_is_refused(tmp_path: Path) -> None:
    from fpdf.enums import AccessPermission

    pdf = fpdf.FPDF()
    pdf.set_encryption(owner_password="owner", permissions=AccessPermission.PRINT_HIGH_RES)
    path = tmp_path / "nocopy.pdf"
    _simple(pdf).output(str(path))
    with pytest.raises(DocumentError, match=r"nocopy\.pdf: encrypted PDF.*forbid"):
        build_views(path, "nocopy.pdf")


def test_owner_password_only_pdf_that_permits_copying_is_read(tmp_path: Path) -> None:
    pdf = fpdf.FPDF()
    pdf.set_encryption(owner_password="owner")
    path = tmp_path / "owner.pdf"
    _simple(pdf).output(str(path))
    assert [s.text for s in build_views(path, "owner.pdf").statements] == ["If X exceeds 5, stop."]


@pytest.mark.parametrize("name, data, reason", [
    ("empty.pdf", b"", "empty file"),
    ("blank.pdf", b"  \n", "empty file"),
    ("notes.pdf", b"If X exceeds 5, stop.\n", "not a PDF"),
    ("noise.pdf", bytes(range(256)) * 4, "not a PDF"),
    ("broken.pdf", b"%PDF-1.4\n%garbage without objects\n", "not a readable PDF"),
])
def test_files_that_are_not_pdfs_are_refused(tmp_path: Path, name: str, data: bytes,
                                             reason: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(DocumentError, match=re.escape(f"{name}: {reason}")):
        build_views(path, name)


def test_a_truncated_pdf_fails_with_a_document_error_or_reads(manual: Path,
                                                              tmp_path: Path) -> None:
    data = manual.read_bytes()
    for cut in (len(data) // 3, len(data) // 2, len(data) - 40):
        path = tmp_path / f"cut{cut}.pdf"
        path.write_bytes(data[:cut])
        try:
            build_views(path, path.name)
        except DocumentError as exc:
            assert path.name in str(exc)


def test_damaged_pdfs_fail_only_with_document_errors(manual: Path, tmp_path: Path) -> None:
    """Bytes flipped anywhere: the PDF reads, or a DocumentError names it; nothing else."""
    import random

    data = manual.read_bytes()
    rng = random.Random(7)
    path = tmp_path / "damaged.pdf"
    for _ in range(60):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        path.write_bytes(bytes(damaged))
        try:
            build_views(path, "damaged.pdf")
        except DocumentError as exc:
            assert "damaged.pdf" in str(exc)
