"""Rule objects: the written JSON schema and the executable validator agree."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from rulec.compiler.model.rules import dumps_rule, loads_rules, rule_from_json, rule_to_json
from rulec.compiler.pipeline import collect_rules
from rulec.runtime.errors import RuleSchemaError

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "compiler" / "model" / "rule-schema.json").read_text(encoding="utf-8"))
EXAMPLES = sorted(p for p in (ROOT / "examples" / "manuals").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def extracted() -> list[dict]:
    rules = []
    for domain in EXAMPLES:
        rules.extend(rule_to_json(r) for r in collect_rules([domain]).rules)
    return rules


def test_every_extracted_rule_follows_the_written_schema(extracted: list[dict]) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(SCHEMA)
    kinds = set()
    for obj in extracted:
        errors = list(validator.iter_errors(json.loads(json.dumps(obj))))
        assert not errors, (obj["id"], [e.message for e in errors])
        kinds.add(obj["kind"])
    assert kinds == {"if_then", "constraint", "exclusion", "procedure"}


def test_json_lines_round_trip_exactly(extracted: list[dict]) -> None:
    text = "\n".join(json.dumps(o, ensure_ascii=False) for o in extracted)
    again = loads_rules(text, "rules.jsonl")
    assert [rule_to_json(r) for r in again] == extracted
    assert "\n".join(dumps_rule(r) for r in again) == text


def test_decimals_stay_exact() -> None:
    rule = loads_rules(
        '{"id": "R-1", "kind": "if_then", "condition": {"param": "t", "op": ">", '
        '"value": 38.45}, "action": "cool", "source": {"file": "m", "line": 1, "text": "x"}}',
        "r.jsonl")[0]
    assert rule.condition.value == Decimal("38.45")  # type: ignore[union-attr]


BASE = {"id": "R-1", "kind": "if_then", "action": "cool",
        "condition": {"param": "t", "op": ">", "value": 5},
        "source": {"file": "m.txt", "line": 1, "text": "If t exceeds 5, cool."}}


@pytest.mark.parametrize("change, message", [
    ({"kind": "rule"}, "kind must be one of"),
    ({"severity": "fatal"}, "severity must be one of"),
    ({"condition": {"param": "t", "op": "~", "value": 5}}, "op must be one of"),
    ({"condition": {"param": "t", "op": "between", "value": 5}}, "needs value"),
    ({"condition": {"param": "t", "op": "between", "value": [9, 5]}}, "above high"),
    ({"condition": {"param": "t", "op": ">", "value": "hot"}}, "must be a number"),
    ({"condition": {"all": []}}, "non-empty list"),
    ({"condition": {"param": "t", "op": ">", "value": 5, "units": "K"}}, "unknown key"),
    ({"action": ""}, "'action' is required"),
    ({"source": {"file": "m.txt", "line": 0, "text": "x"}}, "positive integer"),
    ({"duration": {"seconds": -1}}, "must not be negative"),
    ({"extra": 1}, "unknown key"),
    ({"schema": 2}, "schema 2 is not supported"),
])
def test_invalid_rule_objects_are_refused_with_the_place(change: dict, message: str) -> None:
    obj = {**BASE, **change}
    with pytest.raises(RuleSchemaError, match=message) as info:
        rule_from_json(obj, "rules.jsonl:7")
    assert str(info.value).startswith("rules.jsonl:7: ")
    if message == "above high":
        return  # an order between two numbers is beyond JSON Schema; the validator checks it
    jsonschema = pytest.importorskip("jsonschema")
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(obj)


def test_bad_json_line_names_the_line() -> None:
    with pytest.raises(RuleSchemaError, match=r"^r.jsonl:2: not valid JSON"):
        loads_rules(json.dumps(BASE) + "\n{oops\n", "r.jsonl")
