"""Compile-time knowledge-base checks: each kind of finding on a small hand-made manual,
compiled here the way `rulec compile` compiles it, and none on the example manuals."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from rulec.compiler.kb.checks import KINDS, Finding, check_knowledge_base
from rulec.compiler.pipeline import Compiled, build, collect_rules
from rulec.runtime.bundle.format import encode_bundle
from rulec.runtime.bundle.loader import load_bundle
from rulec.runtime.engine.box_index import BoxIndex

pytestmark = pytest.mark.compiled  # runs compiled C: the sanitizer and coverage runs select it

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "manuals"

SENSORS = """\
[parameters.tank_level]
unit = "%"
[parameters.tank_pressure]
unit = "kPa"
[parameters.pump_speed]
unit = "rpm"
"""


def compile_text(tmp_path: Path, text: str) -> Compiled:
    folder = tmp_path / "manual"
    folder.mkdir(exist_ok=True)
    (folder / "manual.txt").write_text(text, encoding="utf-8")
    (folder / "sensors.toml").write_text(SENSORS, encoding="utf-8")
    result = build(collect_rules([folder]), "manual")
    assert not result.errors, result.errors
    return result


def rule_id(result: Compiled, fragment: str) -> str:
    """The id of the one rule whose sentence contains ``fragment``."""
    found = [r.id for r in result.rules if fragment in str(r.source.get("text", ""))]
    assert len(found) == 1, (fragment, found)
    return found[0]


def of_kind(findings: list[Finding], kind: str) -> list[Finding]:
    assert all(f.kind in KINDS for f in findings)
    return [f for f in findings if f.kind == kind]


@pytest.mark.parametrize("domain", sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()))
def test_example_manuals_are_clean(domain: str) -> None:
    result = build(collect_rules([EXAMPLES / domain]), domain)
    assert check_knowledge_base(result) == []


def test_rule_that_can_never_fire(tmp_path: Path) -> None:
    result = compile_text(tmp_path, (
        "If the tank level exceeds 80 % and the tank level is below 50 %, open the drain valve.\n"
        "If the tank level exceeds 80 % and the pump speed exceeds 100 rpm, stop the pump.\n"
        "If the tank level exceeds 80 % or the tank level is below 10 %, sound the horn.\n"))
    never = of_kind(check_knowledge_base(result), "never_fires")
    bad = rule_id(result, "below 50 %")
    assert [f.rules for f in never] == [(bad,)]
    assert "can never fire" in never[0].message and "tank_level > 80" in never[0].message
    # the geometry agrees: the compiled rule has no box at all
    rules = [entry["id"] for entry in result.payload["rules"]]
    box_rule = np.frombuffer(result.payload["boxes"]["rule"], dtype="<i4")
    assert rules.index(bad) not in box_rule.tolist()


def test_shadowed_rules_are_reported_not_dropped(tmp_path: Path) -> None:
    result = compile_text(tmp_path, (
        "If the tank level exceeds 80 %, open the drain valve.\n"
        "If the tank level exceeds 90 % and the pump speed exceeds 100 rpm, "
        "open the drain valve.\n"
        "If the tank level is above 80 %, open the drain valve.\n"
        "If the tank level exceeds 95 %, stop the pump.\n"
        "If the pump speed exceeds 500 rpm for more than 10 seconds, stop the pump.\n"
        "If the pump speed exceeds 600 rpm, stop the pump.\n"))
    n_rules = len(result.rules)
    shadowed = of_kind(check_knowledge_base(result), "shadowed")
    broad = rule_id(result, "exceeds 80 %")
    narrow = rule_id(result, "exceeds 90 %")
    duplicate = rule_id(result, "is above 80 %")
    assert sorted(f.rules for f in shadowed) == sorted([(narrow, broad), (duplicate, broad)])
    same = next(f for f in shadowed if f.rules[0] == duplicate)
    assert "has the same condition as" in same.message
    assert "'open the drain valve'" in same.message
    # a covering rule with a longer duration fires later: not a shadow
    assert not any(rule_id(result, "exceeds 600 rpm") in f.rules for f in shadowed)
    assert len(result.rules) == n_rules  # nothing dropped


def test_more_severe_shadowed_rule_says_so(tmp_path: Path) -> None:
    result = compile_text(tmp_path, (
        "If the tank level exceeds 80 %, open the drain valve.\n"
        "Warning: if the tank level exceeds 90 %, open the drain valve.\n"))
    narrow = rule_id(result, "exceeds 90 %")
    severities = {r.id: r.severity for r in result.rules}
    assert severities[narrow] == "warning" and severities[rule_id(result, "80 %")] == "advisory"
    (finding,) = of_kind(check_knowledge_base(result), "shadowed")
    assert finding.rules[0] == narrow
    assert f"{narrow} is more severe (warning)" in finding.message


def test_exclusion_violated_by_overlapping_boxes(tmp_path: Path) -> None:
    result = compile_text(tmp_path, (
        "If the tank pressure exceeds 300 kPa, arm the igniter.\n"
        "If the tank level exceeds 85 %, open the purge valve.\n"
        "If the tank level is below 20 %, open the purge valve.\n"
        "If the tank level exceeds 50 %, arm the igniter.\n"
        "Do not arm the igniter and open the purge valve at the same time.\n"))
    overlaps = of_kind(check_knowledge_base(result), "exclusion_overlap")
    exclusion = rule_id(result, "Do not arm")
    pressure = rule_id(result, "300 kPa")
    high = rule_id(result, "exceeds 85 %")
    low = rule_id(result, "below 20 %")
    level = rule_id(result, "exceeds 50 %")
    assert sorted(f.rules for f in overlaps) == sorted([
        (exclusion, pressure, high), (exclusion, pressure, low), (exclusion, level, high)])
    # "level > 50" and "level < 20" never fire together: no finding for that pair
    assert not any({level, low} <= set(f.rules) for f in overlaps)
    # the state each finding gives makes both rules fire in the compiled bundle
    bundle = load_bundle(encode_bundle(result.payload))
    b = bundle.boxes
    index = BoxIndex(len(bundle.parameters), b.start, b.axis, b.lo, b.hi, b.flags)
    for finding in overlaps:
        x = np.full(len(bundle.parameters), np.nan)
        for name, value in re.findall(r"(\w+) = ([-\d.]+)", finding.message):
            x[bundle.param_index[name]] = float(value)
        fired = {bundle.rules[int(b.rule[k])].id for k in index.match(x).tolist()}
        assert set(finding.rules[1:]) <= fired, (finding.message, fired)


def test_unsatisfiable_constraints_give_a_minimal_set(tmp_path: Path) -> None:
    result = compile_text(tmp_path, (
        "Maximum tank level: 40 %.\n"
        "The tank level shall remain between 50 % and 95 %.\n"
        "Maximum pump speed: 3000 rpm.\n"
        "If the tank level exceeds 80 %, open the drain valve.\n"))
    (finding,) = of_kind(check_knowledge_base(result), "unsatisfiable")
    assert sorted(finding.rules) == sorted([rule_id(result, "Maximum tank level"),
                                            rule_id(result, "between 50 %")])
    assert "every sensor read" in finding.message


def test_unsatisfiable_through_rules_and_an_exclusion(tmp_path: Path) -> None:
    """Inside the allowed range both rules always fire, and their actions exclude each
    other: the four rules together admit no state."""
    result = compile_text(tmp_path, (
        "The tank level shall remain between 20 % and 90 %.\n"
        "If the tank level exceeds 10 %, arm the igniter.\n"
        "If the tank level is below 95 %, open the purge valve.\n"
        "Do not arm the igniter and open the purge valve at the same time.\n"
        "If the pump speed exceeds 100 rpm, stop the pump.\n"))
    findings = check_knowledge_base(result)
    (finding,) = of_kind(findings, "unsatisfiable")
    assert sorted(finding.rules) == sorted([
        rule_id(result, "shall remain"), rule_id(result, "exceeds 10 %"),
        rule_id(result, "below 95 %"), rule_id(result, "Do not arm")])
    assert of_kind(findings, "exclusion_overlap")  # the same pair, seen geometrically


def test_findings_serialise() -> None:
    finding = Finding("shadowed", ("R-2", "R-1"), "R-2 is shadowed by R-1")
    assert finding.to_json() == {"kind": "shadowed", "rules": ["R-2", "R-1"],
                                 "message": "R-2 is shadowed by R-1"}
    assert str(finding) == "shadowed: R-2 is shadowed by R-1"
