"""Oracle for the manual parser: text -> statements (``views_from_text``) -> rules (``extract``).

The input is a manual's bytes, read as UTF-8 with errors replaced (so every mutation
reaches the parser; the strict reader's refusal is a one-line check of its own).  Its
first byte's parity picks the parameter table: odd, the merged sensors.toml files of
examples/manuals; even, none (parameters inferred from the text, as the compiler does
for a folder without a manifest).  Properties:
- only the compiler's input errors escape (``DocumentError``, ``RuleSchemaError``,
  ``UnitError``);
- every statement sits on a line of the document and its span lies inside the text;
- every rule cites a source text that stands in the document (whitespace folded, case
  ignored: the corpus check's provenance test) on a line of the document;
- rule ids are unique, and each rule passes the rule-object schema on the way back
  (``rule_from_json(rule_to_json(rule))`` gives the same JSON).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

from rulec.compiler.extract.offline import extract
from rulec.compiler.model.parameters import ParameterTable
from rulec.compiler.model.rules import rule_from_json, rule_to_json
from rulec.compiler.pipeline import merge_manifests, parameter_table
from rulec.compiler.read.views import views_from_text
from rulec.runtime.errors import DocumentError, RuleSchemaError, UnitError

from .failure import expect

ROOT = Path(__file__).resolve().parents[2]
INPUT_ERRORS = (DocumentError, RuleSchemaError, UnitError)
_TABLE: ParameterTable | None = None


def manifest_table() -> ParameterTable:
    """The alias table of every examples/manuals/*/sensors.toml, built once (read-only)."""
    global _TABLE
    if _TABLE is None:
        paths = sorted((ROOT / "examples" / "manuals").glob("*/sensors.toml"))
        _TABLE = parameter_table(merge_manifests(paths))
    return _TABLE


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def manual_text(data: bytes) -> str:
    """The document text an input stands for (BOM dropped, NUL read as a line break)."""
    text = bytes(data).decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff").replace("\x00", "\n")


def check_manual(data: bytes) -> None:
    """Run the manual-parser oracle on one input; raise ``OracleFailure`` on a breach."""
    text = manual_text(data)
    if not text.strip():
        return
    table = manifest_table() if data[0] & 1 else ParameterTable(infer=True)
    try:
        views = views_from_text(text, "manual.txt")
        found = extract(views.statements, table, set())
    except INPUT_ERRORS:
        return
    body = views.text
    n_lines = body.count("\n") + 1
    folded = _norm(body)
    for st in views.statements:
        expect(1 <= st.line <= n_lines, f"statement on line {st.line} of {n_lines}")
        expect(0 <= st.start <= st.end <= len(body), f"span {st.start}..{st.end} outside text")
    ids: set[str] = set()
    for rule in found.rules:
        expect(rule.id not in ids, f"rule id {rule.id} used twice")
        ids.add(rule.id)
        src = rule.source
        expect(1 <= int(src["line"]) <= n_lines, f"rule {rule.id} cites line {src['line']}")
        cited = _norm(str(src["text"]))
        expect(bool(cited) and cited in folded, f"rule {rule.id} cites text not in the document")
        try:
            as_json = rule_to_json(rule)
            text_json = json.dumps(as_json, ensure_ascii=False)
        except RuleSchemaError:
            continue  # a threshold with no exact JSON number: refused with a message
        back = rule_from_json(json.loads(text_json, parse_float=Decimal), "fuzz")
        expect(rule_to_json(back) == as_json, f"rule {rule.id} changes through its JSON form")
